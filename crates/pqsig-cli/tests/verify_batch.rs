//! `pqsig verify-batch`, `pqsig device list` and the global `--device`: the issue-15
//! contract, checked from outside (exact verdict lines, order, exit codes, stdin, line
//! numbers in structural errors, devices giving the same verdicts).

mod common;

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use base64::Engine as _;
use common::*;
use pqsig::any::SigningKey;
use pqsig::Algorithm;
use std::process::Output;

/// A key pair from a fixed seed: (raw public key, signature of `msg` under `ctx`).
fn signed(alg: &str, seed: u8, msg: &[u8], ctx: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let a = Algorithm::from_name(alg).unwrap();
    let sk = SigningKey::from_seed(a, &vec![seed; a.seed_len()]).unwrap();
    let sig = sk.sign(msg, ctx).unwrap();
    (sk.verifying_key().to_bytes().to_vec(), sig)
}

fn b64(b: &[u8]) -> String {
    STANDARD.encode(b)
}

/// One input line (ctx omitted when `None`).
fn line(alg: &str, pk: &[u8], msg: &[u8], sig: &[u8], ctx: Option<&[u8]>) -> String {
    let ctx = ctx.map_or(String::new(), |c| format!(",\"ctx\":\"{}\"", b64(c)));
    format!(
        "{{\"alg\":\"{alg}\",\"pk\":\"{}\",\"msg\":\"{}\",\"sig\":\"{}\"{ctx}}}",
        b64(pk),
        b64(msg),
        b64(sig)
    )
}

fn valid(i: usize) -> String {
    format!("{{\"index\":{i},\"valid\":true,\"error\":null}}")
}

/// The mixed input: item lines (with one blank line among them) and, per item, `None`
/// for valid or a fragment its error must contain.
fn mixed() -> (String, Vec<Option<&'static str>>) {
    let msg = b"the message";
    let (mpk, msig) = signed("ML-DSA-44", 1, msg, b"ctx-1");
    let (fpk, fsig) = signed("Falcon-512", 2, msg, b"");
    let (npk, nsig) = signed("FN-DSA-512", 3, msg, b"");
    let (spk, ssig) = signed("SNOVA_I_S", 4, msg, b"");
    let (epk, esig) = signed("ML-DSA-44", 5, msg, b"");
    let mut lines = vec![
        (line("ML-DSA-44", &mpk, msg, &msig, Some(b"ctx-1")), None),
        (line("falcon-512", &fpk, msg, &fsig, None), None),
        (line("FN-DSA-512", &npk, msg, &nsig, None), None),
        (line("snova_i_s", &spk, msg, &ssig, None), None),
        (
            line("ML-DSA-44", &mpk, msg, &msig, Some(b"ctx-2")),
            Some("invalid signature: does not verify"),
        ),
        (
            line("Falcon-512", &fpk, b"other message", &fsig, None),
            Some("does not verify"),
        ),
        (
            line("Falcon-512", &fpk, msg, &fsig[..20], None),
            Some("invalid signature"),
        ),
        (
            line("SNOVA_I_S", &spk, msg, &ssig[1..], None),
            Some("invalid signature: wrong length"),
        ),
        (
            line("ML-DSA-44", &mpk, msg, &msig, None).replace("\"sig\":\"", "\"sig\":\"*"),
            Some("field \"sig\": invalid base64"),
        ),
        (
            line("ML-DSA-42", &mpk, msg, &msig, None),
            Some("unknown algorithm \"ML-DSA-42\""),
        ),
        (
            format!(
                "{{\"alg\":\"ML-DSA-44\",\"pk\":\"{}\",\"sig\":\"{}\"}}",
                b64(&mpk),
                b64(&msig)
            ),
            Some("missing field \"msg\""),
        ),
        (
            line("ML-DSA-44", &mpk[1..], msg, &msig, Some(b"ctx-1")),
            Some("wrong length for a public key: 1311 bytes, ML-DSA-44 needs 1312"),
        ),
        (
            line("SNOVA_I_S", &spk, msg, &ssig, Some(b"c")),
            Some("SNOVA_I_S takes no context string"),
        ),
        (
            line("ML-DSA-44", &mpk, msg, &msig, Some(&[0u8; 256])),
            Some("context is 256 bytes"),
        ),
        (
            line("ML-DSA-44", &epk, msg, &esig, None).replace('}', ",\"ctx\":null,\"note\":[1]}"),
            None,
        ),
        // Unpadded base64 is accepted.
        (
            format!(
                "{{\"alg\":\"Falcon-512\",\"pk\":\"{}\",\"msg\":\"{}\",\"sig\":\"{}\"}}",
                STANDARD_NO_PAD.encode(&fpk),
                STANDARD_NO_PAD.encode(msg),
                STANDARD_NO_PAD.encode(&fsig)
            ),
            None,
        ),
        (
            "{\"alg\":7,\"pk\":\"\",\"msg\":\"\",\"sig\":\"\"}".to_string(),
            Some("field \"alg\" is a JSON number, not a string"),
        ),
    ];
    // A blank line (not an item, no index) after the fourth item; CRLF on the fifth.
    lines.insert(4, ("   ".to_string(), None));
    lines[5].0.push('\r');
    let mut text = String::new();
    let mut want = Vec::new();
    for (k, (l, w)) in lines.into_iter().enumerate() {
        text.push_str(&l);
        text.push('\n');
        if k != 4 {
            want.push(w);
        }
    }
    (text, want)
}

fn check_verdicts(out: &Output, want: &[Option<&str>]) {
    let text = stdout(out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), want.len(), "{text}");
    for (i, (l, w)) in lines.iter().zip(want).enumerate() {
        match w {
            None => assert_eq!(*l, valid(i)),
            Some(needle) => {
                let prefix = format!("{{\"index\":{i},\"valid\":false,\"error\":\"");
                assert!(l.starts_with(&prefix) && l.ends_with("\"}"), "{l}");
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                let obj = v.as_object().unwrap();
                assert_eq!(obj.len(), 3, "{l}");
                let err = obj["error"].as_str().unwrap();
                assert!(err.contains(needle), "item {i}: {err:?} lacks {needle:?}");
            }
        }
    }
}

#[test]
fn verdicts_in_order_with_reasons_and_exit_1() {
    let dir = TempDir::new("vb-mixed");
    let (text, want) = mixed();
    let file = dir.write("items.jsonl", text.as_bytes());
    let out = run(&["verify-batch", "--in", s(&file)]);
    check_verdicts(&out, &want);
    let bad = want.iter().filter(|w| w.is_some()).count();
    assert_one_line(
        &out,
        1,
        &[
            &format!("{bad} of {} items not valid", want.len()),
            "items.jsonl",
        ],
    );

    // Standard input, one thread, a device, PQSIG_DEVICE: the same bytes and exit code.
    let stdin = run_stdin(&["verify-batch", "--in", "-"], text.as_bytes());
    assert_eq!(code(&stdin), 1);
    assert_eq!(stdin.stdout, out.stdout);
    for args in [
        &["verify-batch", "--in", s(&file), "--threads", "1"][..],
        &["--device", "cpu-queue", "verify-batch", "--in", s(&file)],
        &[
            "verify-batch",
            "--device",
            "CPU-QUEUE",
            "--in",
            s(&file),
            "--threads",
            "2",
        ],
        &["--device", "cpu", "verify-batch", "--in", s(&file)],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 1, "{args:?}");
        assert_eq!(o.stdout, out.stdout, "{args:?}");
    }
    let mut cmd = pqsig();
    cmd.env("PQSIG_DEVICE", "cpu-queue");
    let o = run_cmd(cmd, &["verify-batch", "--in", s(&file)]);
    assert_eq!((code(&o), &o.stdout), (1, &out.stdout));
}

#[test]
fn all_valid_exits_0_and_prints_nothing_on_stderr() {
    let dir = TempDir::new("vb-valid");
    let mut lines = Vec::new();
    for (k, alg) in [
        "ML-DSA-44",
        "ML-DSA-65",
        "Falcon-512",
        "FN-DSA-512",
        "SNOVA_I_S",
    ]
    .iter()
    .enumerate()
    {
        let ctx: &[u8] = if alg.starts_with("ML-DSA") {
            b"app"
        } else {
            b""
        };
        let msg = format!("message {k}");
        let (pk, sig) = signed(alg, k as u8, msg.as_bytes(), ctx);
        lines.push(line(
            alg,
            &pk,
            msg.as_bytes(),
            &sig,
            (!ctx.is_empty()).then_some(ctx),
        ));
    }
    // Blank lines first (no index), no newline after the last line.
    let text = format!("\n \t\n{}", lines.join("\n"));
    let file = dir.write("ok.jsonl", text.as_bytes());
    for args in [
        &["verify-batch", "--in", s(&file)][..],
        &["--device", "cpu-queue", "verify-batch", "--in", s(&file)],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(out.stderr.is_empty(), "{}", stderr(&out));
        let want: String = (0..5).map(|i| valid(i) + "\n").collect();
        assert_eq!(stdout(&out), want);
    }
    // No items at all: nothing to print, nothing invalid.
    let empty = dir.write("empty.jsonl", b"\n \n");
    let out = run(&["verify-batch", "--in", s(&empty)]);
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn more_items_than_a_chunk_keep_their_indices() {
    // 4096 items per engine call: 4100 items span two chunks.
    let msg = b"m";
    let (pk, sig) = signed("ML-DSA-44", 9, msg, b"");
    let good = line("ML-DSA-44", &pk, msg, &sig, None);
    let bad = line("ML-DSA-44", &pk, b"n", &sig, None);
    let mut text = String::new();
    for i in 0..4100 {
        text += if i == 4097 { &bad } else { &good };
        text += "\n";
    }
    let out = run_stdin(&["verify-batch", "--in", "-"], text.as_bytes());
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4100);
    for (i, l) in lines.iter().enumerate() {
        if i == 4097 {
            assert!(
                l.starts_with("{\"index\":4097,\"valid\":false,\"error\":\""),
                "{l}"
            );
        } else {
            assert_eq!(*l, valid(i));
        }
    }
}

#[test]
fn structural_errors_exit_2_naming_the_line() {
    let dir = TempDir::new("vb-struct");
    let (pk, sig) = signed("ML-DSA-44", 1, b"m", b"");
    let good = line("ML-DSA-44", &pk, b"m", &sig, None);
    let cases: Vec<(String, &str, Vec<&str>)> = vec![
        (
            format!("{good}\n\n[1,2]\n{good}\n"),
            "array.jsonl",
            vec!["line 3:", "not a JSON object", "array"],
        ),
        (
            format!("{good}\n{{\"alg\": \n"),
            "cut.jsonl",
            vec!["line 2:", "not a JSON object", "invalid JSON"],
        ),
        (
            format!("\"text\"\n{good}\n"),
            "string.jsonl",
            vec!["line 1:", "not a JSON object", "string"],
        ),
        (
            format!("{good}\n{good} trailing\n"),
            "trailing.jsonl",
            vec!["line 2:", "invalid JSON"],
        ),
    ];
    for (text, name, needles) in &cases {
        let file = dir.write(name, text.as_bytes());
        let out = run(&["verify-batch", "--in", s(&file)]);
        let mut n = needles.clone();
        n.push(name);
        assert_one_line(&out, 2, &n);
        assert!(
            out.stdout.is_empty(),
            "no verdicts before a structural error: {}",
            stdout(&out)
        );
    }
    // Not UTF-8.
    let file = dir.write("bytes.jsonl", b"{\"alg\":\"\xff\"}\n");
    assert_one_line(
        &run(&["verify-batch", "--in", s(&file)]),
        2,
        &["line 1:", "bytes.jsonl"],
    );
    // Standard input is named <stdio>.
    let out = run_stdin(&["verify-batch", "--in", "-"], b"{}\n42\n");
    assert_one_line(&out, 2, &["<stdio>: line 2: not a JSON object"]);
}

#[test]
fn unreadable_input_and_bad_options_exit_2() {
    let dir = TempDir::new("vb-io");
    let missing = dir.path("missing.jsonl");
    assert_one_line(
        &run(&["verify-batch", "--in", s(&missing)]),
        2,
        &["missing.jsonl", "cannot read input", "no such file"],
    );
    assert_one_line(
        &run(&["verify-batch", "--in", s(&dir.0)]),
        2,
        &["cannot read input", "is a directory"],
    );
    let file = dir.write("x.jsonl", b"");
    for args in [
        &["--device", "nosuch", "verify-batch", "--in", s(&file)][..],
        &["verify-batch", "--in", s(&file), "--device", "nosuch"],
    ] {
        let out = run(args);
        assert_one_line(&out, 2, &["--device nosuch", "no such device", "cpu-queue"]);
        assert!(out.stdout.is_empty());
    }
    for args in [
        &["verify-batch"][..],
        &["verify-batch", "--in", s(&file), "--threads", "0"],
        &["verify-batch", "--in", s(&file), "--threads", "x"],
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn device_list_names_cpu_first_then_cpu_queue() {
    let out = run(&["device", "list"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let names: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(names[0], "cpu", "{text}");
    assert!(names.contains(&"cpu-queue"), "{text}");
    assert!(
        text.lines().all(|l| l.split_whitespace().count() > 1),
        "a description per line: {text}"
    );
}

#[test]
fn help_documents_the_contract_and_completions_know_the_commands() {
    let out = run(&["verify-batch", "--help"]);
    let text = stdout(&out);
    for needle in [
        "blank",
        "\"index\"",
        "Exit codes: 0",
        "4096",
        "Examples:",
        "--threads",
        "line N",
    ] {
        assert!(
            text.contains(needle),
            "verify-batch --help lacks {needle:?}"
        );
    }
    assert!(stdout(&run(&["device", "list", "--help"])).contains("Examples:"));
    assert!(stdout(&run(&["--help"])).contains("--device"));
    let bash = stdout(&run(&["completions", "bash"]));
    for needle in ["verify-batch", "--device", "--batch", "--threads"] {
        assert!(bash.contains(needle), "completions lack {needle}");
    }
}
