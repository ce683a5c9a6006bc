//! `pqsig bench`: rows per algorithm and backend, JSON lines, the summary, progress only
//! when asked for (stderr is not a terminal here), argument errors.

mod common;

use common::*;
use pqsig::Backend;

#[test]
fn json_lines_one_row_per_algorithm_and_backend_then_the_summary() {
    let out = run(&[
        "bench",
        "--alg",
        "ML-DSA-44",
        "--alg",
        "SNOVA_I_S",
        "--iters",
        "2",
        "--json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        out.stderr.is_empty(),
        "no progress unless asked: {}",
        stderr(&out)
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let backends: Vec<Backend> = Backend::available().collect();
    assert_eq!(lines.len(), 2 * backends.len() + 2, "{text}");
    for (i, line) in lines.iter().enumerate() {
        assert!(line.starts_with('{') && line.ends_with('}'), "{line}");
        let want = if i < 2 * backends.len() {
            "\"type\":\"result\""
        } else {
            "\"type\":\"summary\""
        };
        assert!(line.contains(want), "{line}");
    }
    for b in &backends {
        let tag = format!("\"algorithm\":\"ML-DSA-44\",\"backend\":\"{b}\"");
        let row = lines
            .iter()
            .find(|l| l.contains(&tag))
            .expect("a row per backend");
        for field in [
            "keygen_us",
            "sign_us",
            "verify_us",
            "sign_runs\":2",
            "sig_bytes\":2420",
        ] {
            assert!(row.contains(field), "{row} lacks {field}");
        }
    }
    let summary = lines.last().unwrap();
    assert!(summary.contains("\"algorithm\":\"SNOVA_I_S\"") && summary.contains("\"fastest\":"));
    assert!(
        summary.contains("\"speedup_over_portable\":{\"keygen\":"),
        "{summary}"
    );
}

#[test]
fn table_with_one_backend_progress_and_summary() {
    let out = run(&[
        "bench",
        "--backend",
        "portable",
        "--alg",
        "FN-DSA-512",
        "--alg",
        "Falcon-padded-512",
        "--iters",
        "3",
        "--time",
        "0.5",
        "--progress",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("algorithm") && text.contains("verify µs"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("FN-DSA-512 "))
        .collect();
    assert_eq!(rows.len(), 1, "{text}");
    assert!(
        rows[0].contains("portable*") && rows[0].ends_with("3/3/3"),
        "{}",
        rows[0]
    );
    assert!(
        text.contains("summary: fastest backend per algorithm"),
        "{text}"
    );
    assert!(text.contains("1.00x / 1.00x / 1.00x"), "{text}");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(
        err.contains("bench: [1/2] FN-DSA-512") && err.contains("bench: [2/2] Falcon-padded-512")
    );
}

#[test]
fn time_budget_bounds_the_run_count() {
    // A budget far below one SNOVA_V_S key generation: one timed run per operation.
    let out = run(&[
        "bench",
        "--alg",
        "SNOVA_V_S",
        "--backend",
        "portable",
        "--iters",
        "1000",
        "--time",
        "0.000001",
        "--json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("\"keygen_runs\":1,\"sign_runs\":1,\"verify_runs\":1"),
        "{text}"
    );
}

#[test]
fn bench_argument_errors_exit_2() {
    for args in [
        &["bench", "--iters", "0"][..],
        &["bench", "--time", "0"],
        &["bench", "--time", "abc"],
        &["bench", "--alg", "ML-DSA-42"],
        &["bench", "--all", "--alg", "ML-DSA-44"],
        &["bench", "--backend", "sse9"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A backend this CPU lacks: one line naming it.
    if let Some(b) = Backend::ALL.iter().find(|b| !b.is_available()) {
        let out = run(&["bench", "--backend", b.name(), "--alg", "ML-DSA-44"]);
        assert_one_line(&out, 2, &["--backend", b.name()]);
    }
}
