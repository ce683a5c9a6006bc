//! `--alg` is optional for sign, verify and pubkey when the key file names its algorithm
//! (PEM or DER: the OID); a given `--alg` must agree with it, and raw keys still need it.

mod common;

use common::*;
use std::path::PathBuf;

/// `keygen` in `format` (pem / der / raw) into `dir`; returns (pk path, sk path).
fn keygen_as(dir: &TempDir, alg: &str, format: &str, seed: u8) -> (PathBuf, PathBuf) {
    let a = pqsig::Algorithm::from_name(alg).unwrap();
    let pk = dir.path(&format!("{alg}-{seed}.{format}.pk"));
    let sk = dir.path(&format!("{alg}-{seed}.{format}.sk"));
    let seed = hex::encode(vec![seed; a.seed_len()]);
    let out = run(&[
        "keygen",
        "--alg",
        alg,
        "--format",
        format,
        "--seed",
        &seed,
        "--pk",
        s(&pk),
        "--sk",
        s(&sk),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    (pk, sk)
}

#[test]
fn pem_and_der_keys_sign_verify_and_derive_without_alg() {
    let dir = TempDir::new("alg-from-file");
    let msg = dir.write("msg", b"the key file says which algorithm");
    for alg in ["ML-DSA-44", "Falcon-512", "FN-DSA-512", "SNOVA_I_S"] {
        for format in ["pem", "der"] {
            let (pk, sk) = keygen_as(&dir, alg, format, 3);
            let sig = dir.path(&format!("{alg}.{format}.sig"));
            // sign with --pk as well: both files name the algorithm.
            let out = run(&[
                "sign",
                "--sk",
                s(&sk),
                "--pk",
                s(&pk),
                "--in",
                s(&msg),
                "--out",
                s(&sig),
            ]);
            assert_eq!(code(&out), 0, "{alg} {format}: {}", stderr(&out));
            let out = run(&["verify", "--pk", s(&pk), "--in", s(&msg), "--sig", s(&sig)]);
            assert_eq!(code(&out), 0, "{alg} {format}: {}", stderr(&out));
            // The same with the agreeing --alg.
            let out = run(&[
                "verify",
                "--alg",
                alg,
                "--pk",
                s(&pk),
                "--in",
                s(&msg),
                "--sig",
                s(&sig),
            ]);
            assert_eq!(code(&out), 0, "{alg} {format}: {}", stderr(&out));
            // A wrong signature is still exit 1.
            let other = dir.write("other", b"another message");
            let out = run(&[
                "verify",
                "--pk",
                s(&pk),
                "--in",
                s(&other),
                "--sig",
                s(&sig),
            ]);
            assert_eq!(code(&out), 1, "{alg} {format}: {}", stderr(&out));
            // pubkey without --alg gives the same public key file.
            let derived = dir.path(&format!("{alg}.{format}.derived.pk"));
            let out = run(&[
                "pubkey",
                "--sk",
                s(&sk),
                "--out",
                s(&derived),
                "--format",
                format,
            ]);
            assert_eq!(code(&out), 0, "{alg} {format}: {}", stderr(&out));
            assert_eq!(
                std::fs::read(&derived).unwrap(),
                std::fs::read(&pk).unwrap()
            );
        }
    }
}

#[test]
fn a_disagreeing_alg_is_an_error() {
    let dir = TempDir::new("alg-disagrees");
    let msg = dir.write("msg", b"m");
    let (pk, sk) = keygen_as(&dir, "ML-DSA-44", "pem", 4);
    let sig = dir.path("sig");
    let out = run(&[
        "sign",
        "--alg",
        "ML-DSA-65",
        "--sk",
        s(&sk),
        "--in",
        s(&msg),
        "--out",
        s(&sig),
    ]);
    assert_one_line(&out, 2, &["key is ML-DSA-44, expected ML-DSA-65"]);
    assert!(!sig.exists());
    let out = run(&["sign", "--sk", s(&sk), "--in", s(&msg), "--out", s(&sig)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&[
        "verify",
        "--alg",
        "Falcon-512",
        "--pk",
        s(&pk),
        "--in",
        s(&msg),
        "--sig",
        s(&sig),
    ]);
    assert_one_line(&out, 2, &["key is ML-DSA-44, expected Falcon-512"]);
    let out = run(&[
        "pubkey",
        "--alg",
        "ML-DSA-87",
        "--sk",
        s(&sk),
        "--out",
        s(&dir.path("x")),
    ]);
    assert_one_line(&out, 2, &["key is ML-DSA-44, expected ML-DSA-87"]);
    // sign without --alg: the --pk must be of the secret key's algorithm.
    let (other_pk, _) = keygen_as(&dir, "ML-DSA-65", "pem", 4);
    let out = run(&[
        "sign",
        "--sk",
        s(&sk),
        "--pk",
        s(&other_pk),
        "--in",
        s(&msg),
        "--out",
        s(&sig),
    ]);
    assert_one_line(&out, 2, &["key is ML-DSA-65, expected ML-DSA-44"]);
}

#[test]
fn raw_keys_still_need_alg() {
    let dir = TempDir::new("alg-raw");
    let msg = dir.write("msg", b"m");
    let (pk, sk) = keygen_as(&dir, "Falcon-512", "raw", 5);
    let sig = dir.path("sig");
    let out = run(&["sign", "--sk", s(&sk), "--in", s(&msg), "--out", s(&sig)]);
    assert_one_line(&out, 2, &[s(&sk), "give --alg NAME", "raw private key"]);
    let out = run(&["pubkey", "--sk", s(&sk), "--out", s(&dir.path("x"))]);
    assert_one_line(&out, 2, &["give --alg NAME"]);
    let out = run(&[
        "sign",
        "--alg",
        "Falcon-512",
        "--sk",
        s(&sk),
        "--in",
        s(&msg),
        "--out",
        s(&sig),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["verify", "--pk", s(&pk), "--in", s(&msg), "--sig", s(&sig)]);
    assert_one_line(&out, 2, &[s(&pk), "give --alg NAME", "raw public key"]);
    let out = run(&[
        "verify",
        "--alg",
        "Falcon-512",
        "--pk",
        s(&pk),
        "--in",
        s(&msg),
        "--sig",
        s(&sig),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // A broken PEM file: the key file's own error, and the hint.
    let bad = dir.write(
        "bad.pem",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    );
    let out = run(&["sign", "--sk", s(&bad), "--in", s(&msg), "--out", s(&sig)]);
    assert_one_line(&out, 2, &["not a valid private key file"]);
}

#[test]
fn circl_labelled_mldsa_keys_sign_without_alg() {
    let dir = TempDir::new("alg-circl");
    let msg = dir.write("msg", b"circl");
    let (pk, sk) = keygen_as(&dir, "ML-DSA-65", "pem", 6);
    // "-----BEGIN ML-DSA-65 PRIVATE KEY-----": the label circl writes.
    let text = std::fs::read_to_string(&sk)
        .unwrap()
        .replace(
            "-----BEGIN PRIVATE KEY-----",
            "-----BEGIN ML-DSA-65 PRIVATE KEY-----",
        )
        .replace(
            "-----END PRIVATE KEY-----",
            "-----END ML-DSA-65 PRIVATE KEY-----",
        );
    let circl = dir.write("circl.pem", text.as_bytes());
    let body = std::fs::read_to_string(&circl).unwrap();
    assert!(
        body.starts_with("-----BEGIN ML-DSA-65 PRIVATE KEY-----\n"),
        "{body}"
    );
    let sig = dir.path("sig");
    let out = run(&["sign", "--sk", s(&circl), "--in", s(&msg), "--out", s(&sig)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(&["verify", "--pk", s(&pk), "--in", s(&msg), "--sig", s(&sig)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The label names ML-DSA-44 but the OID ML-DSA-65.
    let wrong = dir.write(
        "wrong.pem",
        body.replace("ML-DSA-65", "ML-DSA-44").as_bytes(),
    );
    let out = run(&["sign", "--sk", s(&wrong), "--in", s(&msg), "--out", s(&sig)]);
    assert_one_line(&out, 2, &["PEM label says ML-DSA-44", "ML-DSA-65"]);
}
