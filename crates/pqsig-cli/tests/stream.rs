//! `pqsig sign` / `pqsig verify` stream their input: files larger than the memory the
//! process may use sign and verify, and the signatures are the library's one-shot ones.

mod common;

use common::*;
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::Algorithm;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::process::Command;

const MIB: u64 = 1 << 20;

/// Address-space limit for the streaming runs: well under the 64 MiB file, so a command
/// that read the whole message into memory would fail to allocate.
const LIMIT_KIB: u64 = 48 * 1024;

/// `pqsig args` under `ulimit -v LIMIT_KIB`.
fn run_limited(args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        &format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""),
        env!("CARGO_BIN_EXE_pqsig"),
    ]);
    run_cmd(cmd, args)
}

/// A sparse file of `len` bytes with a few non-zero bytes spread over it.
fn sparse_file(path: &Path, len: u64) {
    let mut f = std::fs::File::create(path).unwrap();
    f.set_len(len).unwrap();
    for (at, data) in [
        (0, &b"head"[..]),
        (MIB - 2, b"across a chunk boundary"),
        (len / 2, b"middle"),
        (len - 5, b"tail!"),
    ] {
        f.seek(SeekFrom::Start(at)).unwrap();
        f.write_all(data).unwrap();
    }
}

fn sign_args<'a>(alg: &'a str, sk: &'a Path, msg: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "sign",
        "--alg",
        alg,
        "--sk",
        s(sk),
        "--in",
        msg,
        "--out",
        out,
    ]
}

fn verify_args<'a>(alg: &'a str, pk: &'a Path, msg: &'a str, sig: &'a str) -> Vec<&'a str> {
    vec![
        "verify",
        "--alg",
        alg,
        "--pk",
        s(pk),
        "--in",
        msg,
        "--sig",
        sig,
    ]
}

#[test]
fn files_larger_than_64_mib_sign_and_verify_in_bounded_memory() {
    let dir = TempDir::new("big");
    let big = dir.path("big.bin");
    let len = 64 * MIB + 12345;
    sparse_file(&big, len);
    let small = dir.write("small", b"m");
    let (pk44, _) = keygen(&dir, "ML-DSA-44", 3);
    // The limit bites: the signature file is read whole, and a 64 MiB one cannot be.
    let whole = Command::new("sh")
        .args([
            "-c",
            &format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""),
        ])
        .arg(env!("CARGO_BIN_EXE_pqsig"))
        .args(verify_args("ML-DSA-44", &pk44, s(&small), s(&big)))
        .output()
        .unwrap();
    assert!(
        !whole.status.success(),
        "a whole-file read fits under the limit"
    );

    for alg in ["ML-DSA-44", "Falcon-512", "FN-DSA-512", "SNOVA_I_S"] {
        let (pk, sk) = keygen(&dir, alg, 3);
        let sig = dir.path(&format!("{alg}.sig"));
        let out = run_limited(&sign_args(alg, &sk, s(&big), s(&sig)));
        assert_eq!(code(&out), 0, "{alg} sign: {}", stderr(&out));
        let out = run_limited(&verify_args(alg, &pk, s(&big), s(&sig)));
        assert_eq!(code(&out), 0, "{alg} verify: {}", stderr(&out));

        // The library's one-shot verification over the same bytes agrees.
        let a = Algorithm::from_name(alg).unwrap();
        let bytes = std::fs::read(&big).unwrap();
        let vk = VerifyingKey::from_bytes(a, &std::fs::read(&pk).unwrap()).unwrap();
        let sig_bytes = std::fs::read(&sig).unwrap();
        assert_eq!(vk.verify(&bytes, b"", &sig_bytes), Ok(()), "{alg}");
        drop(bytes);

        // One byte changed (in the middle of the file): invalid, exit 1.
        let mut f = std::fs::OpenOptions::new().write(true).open(&big).unwrap();
        f.seek(SeekFrom::Start(len / 2 + 3)).unwrap();
        f.write_all(b"M").unwrap();
        drop(f);
        let out = run_limited(&verify_args(alg, &pk, s(&big), s(&sig)));
        assert_one_line(&out, 1, &["invalid signature"]);
        let mut f = std::fs::OpenOptions::new().write(true).open(&big).unwrap();
        f.seek(SeekFrom::Start(len / 2 + 3)).unwrap();
        f.write_all(b"l").unwrap(); // back to "middle"
    }
}

#[test]
fn streamed_signatures_are_the_one_shot_ones() {
    // ML-DSA deterministic signing has no randomness: the CLI's streamed signature of a
    // multi-chunk message must equal the library's one-shot signature byte for byte,
    // from a file and from standard input alike.
    let dir = TempDir::new("det");
    let alg = "ML-DSA-65";
    let (pk, sk) = keygen(&dir, alg, 8);
    let msg: Vec<u8> = (0..(2 * MIB + 777) as usize)
        .map(|i| (i % 251) as u8)
        .collect();
    let msg_path = dir.write("msg", &msg);
    let a = Algorithm::from_name(alg).unwrap();
    let key = SigningKey::from_bytes(a, &std::fs::read(&sk).unwrap()).unwrap();
    let want = key.sign_deterministic(&msg, &[1, 2, 3]).unwrap();

    let sig = dir.path("sig");
    let mut args = sign_args(alg, &sk, s(&msg_path), s(&sig));
    args.extend(["--deterministic", "--ctx", "010203"]);
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read(&sig).unwrap(), want);

    let mut args = sign_args(alg, &sk, "-", "-");
    args.extend(["--deterministic", "--ctx", "010203"]);
    let out = run_stdin(&args, &msg);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(out.stdout, want);

    // Verification from standard input, and a changed last byte.
    let mut args = verify_args(alg, &pk, "-", s(&sig));
    args.extend(["--ctx", "010203"]);
    assert_eq!(code(&run_stdin(&args, &msg)), 0);
    let mut other = msg.clone();
    *other.last_mut().unwrap() ^= 1;
    assert_eq!(code(&run_stdin(&args, &other)), 1);
    // An empty message streams too.
    let empty = dir.write("empty", b"");
    let out = run(&sign_args(alg, &sk, s(&empty), s(&sig)));
    assert_eq!(code(&out), 0);
    assert_eq!(code(&run(&verify_args(alg, &pk, s(&empty), s(&sig)))), 0);
}

#[test]
fn stream_errors_name_the_file() {
    let dir = TempDir::new("errs");
    let alg = "Falcon-512";
    let (pk, sk) = keygen(&dir, alg, 1);
    let msg = dir.write("msg", b"m");
    let sig = dir.path("sig");
    // A directory as the message: read error, exit 2, nothing written.
    let out = run(&sign_args(alg, &sk, s(&dir.0), s(&sig)));
    assert_one_line(&out, 2, &["is a directory", "message"]);
    assert!(!sig.exists());
    assert_eq!(code(&run(&sign_args(alg, &sk, s(&msg), s(&sig)))), 0);
    let out = run(&verify_args(alg, &pk, s(&dir.0), s(&sig)));
    assert_one_line(&out, 2, &["is a directory"]);
    // Falcon reads the nonce from the signature before the message: a malformed
    // signature is still exit 1 naming the signature file.
    let bad = dir.write("bad.sig", &[0x39, 1, 2]);
    let out = run(&verify_args(alg, &pk, s(&msg), s(&bad)));
    assert_one_line(&out, 1, &["bad.sig", "invalid signature"]);
    // Message and signature cannot both come from standard input.
    let out = run(&verify_args(alg, &pk, "-", "-"));
    assert_one_line(&out, 2, &["--in", "--sig", "standard input"]);
}
