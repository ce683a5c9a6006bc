//! `pqsig kat --all --out-dir DIR`: one file per algorithm with the official names and the
//! same records as `pqsig kat --alg`, progress on stderr when asked, a summary on stdout.

mod common;
#[path = "../../pqsig/tests/common/vectors.rs"]
mod vectors;

use common::*;
use pqsig::Algorithm;
use std::path::PathBuf;
use vectors::vectors_dir;

/// Official files these outputs must be prefixes of (the first records of each).
fn official(name: &str) -> Option<PathBuf> {
    let v = vectors_dir();
    let p = match name {
        "falcon512-KAT.rsp" | "falcon1024-KAT.rsp" => v.join("falcon/round3").join(name),
        n if n.starts_with("falcon-padded-") => v.join("falcon/round3-padded").join(n),
        n if n.starts_with("PQCsignKAT_SNOVA_") => v.join("snova/round3").join(n),
        _ => return None,
    };
    Some(p)
}

#[test]
fn all_algorithms_into_a_directory_with_official_names() {
    let dir = TempDir::new("katall");
    let out_dir = dir.path("kats/nested");
    let out = run(&[
        "kat",
        "--all",
        "--out-dir",
        s(&out_dir),
        "--count",
        "3",
        "--progress",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let n = Algorithm::ALL.len();

    // Progress: one line per algorithm, on stderr.
    let err = stderr(&out);
    assert_eq!(err.lines().count(), n, "{err}");
    assert!(err.lines().all(|l| l.starts_with("kat: [")), "{err}");
    // Summary on stdout: a line per file, then the totals.
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(
        last.contains(&format!("{n} algorithms, {} records", 3 * n))
            && last.contains(&format!("{n} files written")),
        "{last}"
    );

    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), n);
    for want in [
        "PQCsignKAT_ML-DSA-44.rsp",
        "PQCsignKAT_FN-DSA-1024.rsp",
        "falcon512-KAT.rsp",
        "falcon-padded-1024-KAT.rsp",
        "PQCsignKAT_SNOVA_V_S_AES.rsp",
    ] {
        assert!(names.iter().any(|x| x == want), "{want} missing: {names:?}");
    }
    let mut compared = 0;
    for &alg in Algorithm::ALL {
        let name = pqsig::any::kat::rsp_file_name(alg);
        let got = std::fs::read(out_dir.join(&name)).unwrap();
        // The same bytes as the stdout form.
        let one = run(&["kat", "--alg", alg.name(), "--count", "3"]);
        assert_eq!(code(&one), 0);
        assert!(got == one.stdout, "{name} differs from `kat --alg {alg}`");
        // The first records of the official file, where there is one.
        if let Some(path) = official(&name) {
            let want = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                want.starts_with(&got),
                "{name} is not a prefix of {}",
                path.display()
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 22, "4 Falcon and 18 SNOVA official files");
}

#[test]
fn kat_out_dir_modes_and_errors() {
    let dir = TempDir::new("katerr");
    // One algorithm into a directory; no progress unless asked (stderr is not a terminal).
    let out = run(&[
        "kat",
        "--alg",
        "ML-DSA-44",
        "--count",
        "1",
        "--out-dir",
        s(&dir.0),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert!(dir.path("PQCsignKAT_ML-DSA-44.rsp").exists());
    assert!(stdout(&out).contains("1 algorithms, 1 records"));
    // The output directory cannot be created: one line naming it.
    let file = dir.write("plain-file", b"x");
    let out = run(&[
        "kat",
        "--all",
        "--out-dir",
        s(&file.join("sub")),
        "--count",
        "1",
    ]);
    assert_one_line(
        &out,
        2,
        &["plain-file", "cannot create the output directory"],
    );
    // Argument errors: --all needs --out-dir; --all and --alg exclude each other; neither.
    for args in [
        &["kat", "--all"][..],
        &["kat", "--all", "--alg", "ML-DSA-44", "--out-dir", "x"],
        &["kat"],
        &["kat", "--count", "1"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty());
    }
}
