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

/// The `"type":"batch"` rows of a `--json` run.
fn batch_rows(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .filter(|l| l.contains("\"type\":\"batch\""))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn batch_rows_per_op_threads_and_api() {
    let out = run(&[
        "bench",
        "--alg",
        "ML-DSA-44",
        "--alg",
        "Falcon-512",
        "--backend",
        "portable",
        "--batch",
        "4",
        "--json",
        "--iters",
        "2",
        "--time",
        "0.1",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<u64> = if cores > 1 {
        vec![1, cores as u64]
    } else {
        vec![1]
    };
    let rows = batch_rows(&text);
    assert_eq!(rows.len(), 2 * 2 * 2 * threads.len(), "{text}");
    for (alg, signing) in [("ML-DSA-44", "deterministic"), ("Falcon-512", "hedged")] {
        for op in ["verify_batch", "sign_batch"] {
            for &t in &threads {
                for api in ["bytes", "object"] {
                    let row = rows
                        .iter()
                        .find(|r| {
                            r["algorithm"] == alg
                                && r["op"] == op
                                && r["threads"] == t
                                && r["api"] == api
                        })
                        .unwrap_or_else(|| panic!("no {alg} {op} {t} {api} row: {text}"));
                    assert_eq!(row["batch"], 4);
                    assert_eq!(row["backend"], "portable");
                    assert_eq!(row["device"], "cpu");
                    assert!(row["median_ns"].as_f64().unwrap() > 0.0, "{row}");
                    assert!((1..=2).contains(&row["runs"].as_u64().unwrap()), "{row}");
                    if op == "sign_batch" {
                        assert_eq!(row["signing"], signing, "{row}");
                    } else {
                        assert!(row.get("signing").is_none(), "{row}");
                    }
                }
            }
        }
    }
    // The single-call rows and the summary are still there.
    assert_eq!(text.matches("\"type\":\"result\"").count(), 2, "{text}");
    assert_eq!(text.matches("\"type\":\"summary\"").count(), 2, "{text}");
}

#[test]
fn batch_rows_in_the_table_and_on_a_device() {
    let out = run(&[
        "--device",
        "cpu-queue",
        "bench",
        "--alg",
        "SNOVA_I_S",
        "--backend",
        "portable",
        "--batch",
        "3",
        "--iters",
        "1",
        "--time",
        "0.05",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    for op in ["verify_batch", "sign_batch"] {
        let n = text
            .lines()
            .filter(|l| l.trim_start().starts_with(op))
            .count();
        assert!(n >= 2, "{op} rows missing: {text}");
    }
    assert!(
        text.contains("µs/item") && text.contains("hedged"),
        "{text}"
    );
    let json = run(&[
        "bench",
        "--alg",
        "ML-DSA-44",
        "--backend",
        "portable",
        "--batch",
        "2",
        "--iters",
        "1",
        "--time",
        "0.05",
        "--json",
        "--device",
        "cpu-queue",
    ]);
    assert_eq!(code(&json), 0, "{}", stderr(&json));
    let rows = batch_rows(&stdout(&json));
    assert!(!rows.is_empty() && rows.iter().all(|r| r["device"] == "cpu-queue"));
    // Without --batch: no batch rows.
    let plain = run(&[
        "bench",
        "--alg",
        "ML-DSA-44",
        "--backend",
        "portable",
        "--iters",
        "1",
        "--json",
    ]);
    assert!(batch_rows(&stdout(&plain)).is_empty());
    for args in [
        &["bench", "--batch", "0"][..],
        &["bench", "--batch", "x"],
        &["--device", "nosuch", "bench", "--batch", "2"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
