//! `pqsig kat --cycles FILE`: device cycles per KAT record as JSON lines. Without a
//! device that counts cycles it is an error (exit 2); in the hw-sim build, through
//! `--device rtl-falcon`, the records are the official ones and every line holds the
//! FFT / iFFT figures of key generation and signing.

mod common;
#[cfg(feature = "hw-sim")]
#[path = "../../pqsig/tests/common/vectors.rs"]
mod vectors;

use common::*;

#[test]
fn cycles_need_a_counting_device() {
    let dir = TempDir::new("katcycles");
    let f = dir.path("c.jsonl");
    for args in [
        vec![
            "kat",
            "--alg",
            "Falcon-512",
            "--count",
            "1",
            "--cycles",
            s(&f),
        ],
        vec![
            "--device",
            "cpu-queue",
            "kat",
            "--alg",
            "Falcon-512",
            "--count",
            "1",
            "--cycles",
            s(&f),
        ],
    ] {
        let out = run(&args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains("--cycles"), "{}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
    // --cycles is for one algorithm on stdout, not --out-dir.
    let out = run(&[
        "kat",
        "--all",
        "--out-dir",
        s(&dir.path("d")),
        "--cycles",
        s(&f),
    ]);
    assert_eq!(code(&out), 2);
}

#[cfg(feature = "hw-sim")]
#[test]
fn rtl_falcon_records_are_official_and_report_cycles() {
    let vectors = vectors::vectors_dir();
    let dir = TempDir::new("katcycles-rtl");
    for (alg, rel, logn) in [
        ("Falcon-512", "falcon/round3/falcon512-KAT.rsp", 9u32),
        (
            "Falcon-padded-1024",
            "falcon/round3-padded/falcon-padded-1024-KAT.rsp",
            10,
        ),
    ] {
        let f = dir.path(&format!("{alg}.jsonl"));
        let out = run(&[
            "--device",
            "rtl-falcon",
            "kat",
            "--alg",
            alg,
            "--count",
            "2",
            "--cycles",
            s(&f),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let official = std::fs::read_to_string(vectors.join(rel)).unwrap();
        let want: String = official
            .lines()
            .take(2 + 9 * 2)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(stdout(&out), want, "{alg}");
        let n = 1u64 << logn;
        let fft = (logn as u64 - 1) * (6 * n / 4 + 24) + 1;
        let lines: Vec<serde_json::Value> = std::fs::read_to_string(&f)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        for (i, v) in lines.iter().enumerate() {
            assert_eq!(v["alg"], alg);
            assert_eq!(v["count"], i);
            let sign = &v["sign"];
            let k = sign["fft"]["requests"].as_u64().unwrap();
            assert!(k >= 5, "{v}");
            assert_eq!(sign["fft"]["cycles"].as_u64().unwrap(), k * fft, "{v}");
            let k = sign["ifft"]["requests"].as_u64().unwrap();
            assert!(k >= 2, "{v}");
            assert_eq!(
                sign["ifft"]["cycles"].as_u64().unwrap(),
                k * (fft + n + 9),
                "{v}"
            );
            // SamplerZ on the SamplerZ RTL: one request per pair of samples (2n samples,
            // n requests per attempt), cycles counted.
            let k = sign["samplerz"]["requests"].as_u64().unwrap();
            assert!(k >= n && k % n == 0, "{v}");
            assert!(
                sign["samplerz"]["cycles"].as_u64().unwrap() > 100 * k,
                "{v}"
            );
            assert!(v["keygen"]["fft"]["requests"].as_u64().unwrap() >= 2, "{v}");
            assert!(sign["seconds"].as_f64().unwrap() > 0.0);
        }
    }
}
