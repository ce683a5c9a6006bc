//! Every error path prints one line, `pqsig: <file or option>: <what is wrong>`, and exits
//! with the documented code (2 for errors, 1 for an invalid signature); `--help`
//! documents the codes.

mod common;

use common::*;

#[test]
fn file_errors_are_one_line_naming_the_file() {
    let dir = TempDir::new("errors");
    let (pk, sk) = keygen(&dir, "ML-DSA-44", 1);
    let (fpk, fsk) = keygen(&dir, "Falcon-512", 1);
    let msg = dir.write("msg.txt", b"hello");
    let garbage = dir.write("garbage.bin", b"garbage\n");
    let sig = dir.path("msg.sig");
    assert_eq!(
        code(&run(&[
            "sign",
            "--alg",
            "ML-DSA-44",
            "--sk",
            s(&sk),
            "--in",
            s(&msg),
            "--out",
            s(&sig)
        ])),
        0
    );
    let nodir = dir.path("no-such-dir/out");
    let d = s(&dir.0);
    let (k, p) = (dir.path("k"), dir.path("p"));
    #[rustfmt::skip]
    let cases: Vec<(Vec<&str>, i32, Vec<&str>)> = vec![
        // keygen: unwritable outputs; the secret key never to stdout.
        (vec!["keygen", "--alg", "ML-DSA-44", "--pk", s(&nodir), "--sk", s(&k)], 2, vec!["no-such-dir/out", "cannot write public key", "no such file"]),
        (vec!["keygen", "--alg", "ML-DSA-44", "--pk", s(&p), "--sk", s(&nodir)], 2, vec!["no-such-dir/out", "cannot write secret key"]),
        (vec!["keygen", "--alg", "ML-DSA-44", "--pk", s(&p), "--sk", "-"], 2, vec!["-:", "refusing", "secret key"]),
        (vec!["keygen", "--alg", "ML-DSA-44", "--seed", "00", "--pk", "p", "--sk", "k"], 2, vec!["--seed", "32-byte"]),
        // pubkey: unreadable, garbage, another algorithm's key, unwritable output.
        (vec!["pubkey", "--alg", "ML-DSA-44", "--sk", d, "--out", "-"], 2, vec!["cannot read secret key", "is a directory"]),
        (vec!["pubkey", "--alg", "ML-DSA-44", "--sk", s(&garbage), "--out", "-"], 2, vec!["garbage.bin", "wrong length for a secret key", "8 bytes"]),
        (vec!["pubkey", "--alg", "ML-DSA-44", "--sk", s(&fsk), "--out", "-"], 2, vec!["Falcon-512-1.sk", "wrong length"]),
        (vec!["pubkey", "--alg", "ML-DSA-44", "--sk", s(&sk), "--out", s(&nodir)], 2, vec!["no-such-dir/out", "cannot write public key"]),
        // sign: message missing, output unwritable, mismatched --pk, options refused.
        (vec!["sign", "--alg", "ML-DSA-44", "--sk", s(&sk), "--in", "missing.txt", "--out", "-"], 2, vec!["missing.txt", "cannot read message", "no such file"]),
        (vec!["sign", "--alg", "ML-DSA-44", "--sk", s(&sk), "--in", s(&msg), "--out", s(&nodir)], 2, vec!["no-such-dir/out", "cannot write signature"]),
        (vec!["sign", "--alg", "ML-DSA-44", "--sk", s(&sk), "--pk", s(&garbage), "--in", s(&msg), "--out", "-"], 2, vec!["garbage.bin", "public key"]),
        (vec!["sign", "--alg", "Falcon-512", "--sk", s(&fsk), "--in", s(&msg), "--out", "-", "--ctx", "01"], 2, vec!["--ctx", "Falcon-512 takes no context string"]),
        (vec!["sign", "--alg", "Falcon-512", "--sk", s(&fsk), "--in", s(&msg), "--out", "-", "--deterministic"], 2, vec!["--deterministic", "no deterministic signing mode"]),
        // verify: key, message, signature problems; invalid signatures exit 1.
        (vec!["verify", "--alg", "ML-DSA-44", "--pk", s(&garbage), "--in", s(&msg), "--sig", s(&sig)], 2, vec!["garbage.bin", "wrong length for a public key"]),
        (vec!["verify", "--alg", "ML-DSA-44", "--pk", s(&pk), "--in", d, "--sig", s(&sig)], 2, vec!["cannot read message", "is a directory"]),
        (vec!["verify", "--alg", "ML-DSA-44", "--pk", s(&pk), "--in", s(&msg), "--sig", "missing.sig"], 2, vec!["missing.sig", "cannot read signature"]),
        (vec!["verify", "--alg", "ML-DSA-44", "--pk", s(&pk), "--in", s(&garbage), "--sig", s(&sig)], 1, vec!["msg.sig", "invalid signature", "does not verify"]),
        (vec!["verify", "--alg", "ML-DSA-44", "--pk", s(&pk), "--in", s(&msg), "--sig", s(&garbage)], 1, vec!["garbage.bin", "invalid signature", "wrong length"]),
        (vec!["verify", "--alg", "Falcon-512", "--pk", s(&fpk), "--in", s(&msg), "--sig", s(&garbage)], 1, vec!["garbage.bin", "invalid signature"]),
        // kat --out-dir on a file.
        (vec!["kat", "--alg", "ML-DSA-44", "--count", "1", "--out-dir", s(&garbage)], 2, vec!["garbage.bin", "cannot create the output directory"]),
    ];
    for (args, want, needles) in &cases {
        let out = run(args);
        assert_one_line(&out, *want, needles);
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn help_documents_the_exit_codes() {
    let out = run(&["--help"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    for needle in ["Exit codes: 0", "1 invalid signature", "2 any other error"] {
        assert!(text.contains(needle), "--help lacks {needle:?}");
    }
    let out = run(&["verify", "--help"]);
    assert!(stdout(&out).contains("Exit codes: 0 valid; 1 invalid signature; 2 any other error."));
    for sub in ["bench", "kat", "keygen"] {
        let out = run(&[sub, "--help"]);
        assert_eq!(code(&out), 0);
        assert!(
            stdout(&out).contains("Examples:"),
            "{sub} --help has examples"
        );
    }
}
