//! Black-box tests of the `pqsig` binary: output formats, files and exit codes.

use pqsig::falcon;
use pqsig::mldsa::{self, ParamSet, SigningKey, VerifyingKey};
use pqsig::snova;
use pqsig::Algorithm;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;
#[path = "../../pqsig/tests/common/vectors.rs"]
mod vectors;

use common::*;
use vectors::vectors_dir;

// ---------------------------------------------------------------- helpers

/// Asserts exit code 2 with a one-line `pqsig: ...` message containing `needle`.
fn assert_error(out: &Output, needle: &str) {
    assert_one_line(out, 2, &[needle]);
    assert!(out.stdout.is_empty());
}

/// A key-generation seed of the algorithm's length (ML-DSA/FN-DSA 32, Falcon/SNOVA 48 bytes).
fn seed_hex_for(alg: &str, byte: u8) -> String {
    hex::encode(vec![byte; Algorithm::from_name(alg).unwrap().seed_len()])
}

fn seed_hex(byte: u8) -> String {
    seed_hex_for("ML-DSA-44", byte)
}

/// Whether every signature of `alg` has exactly `signature_len()` bytes.
fn fixed_length(alg: Algorithm) -> bool {
    !matches!(alg, Algorithm::Falcon(ps) if !ps.padded())
}

/// Whether `alg` has no context string (round-3 Falcon, SNOVA): `--ctx` is refused.
fn no_context(alg: Algorithm) -> bool {
    matches!(alg, Algorithm::Falcon(_) | Algorithm::Snova(_))
}

/// The ML-DSA parameter set, for comparisons with the library (`None` for other families).
fn mldsa(alg: Algorithm) -> Option<ParamSet> {
    #[allow(unreachable_patterns)]
    match alg {
        Algorithm::MlDsa(ps) => Some(ps),
        _ => None,
    }
}

// ---------------------------------------------------------------- list / help

#[test]
fn list_prints_every_algorithm_name() {
    let out = run(&["list"]);
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "ML-DSA-44\nML-DSA-65\nML-DSA-87\nFalcon-512\nFalcon-1024\nFalcon-padded-512\n\
         Falcon-padded-1024\nFN-DSA-512\nFN-DSA-1024\n\
         SNOVA_I_K\nSNOVA_I_B\nSNOVA_I_S\nSNOVA_III_K\nSNOVA_III_B\nSNOVA_III_S\n\
         SNOVA_V_K\nSNOVA_V_B\nSNOVA_V_S\n\
         SNOVA_I_K_AES\nSNOVA_I_B_AES\nSNOVA_I_S_AES\nSNOVA_III_K_AES\nSNOVA_III_B_AES\n\
         SNOVA_III_S_AES\nSNOVA_V_K_AES\nSNOVA_V_B_AES\nSNOVA_V_S_AES\n"
    );
    let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    assert_eq!(stdout(&out), names.join("\n") + "\n");
    assert!(out.stderr.is_empty());

    let long = stdout(&run(&["list", "--long"]));
    assert_eq!(long.lines().count(), Algorithm::ALL.len());
    assert!(long.contains("ML-DSA-65") && long.contains("1952") && long.contains("3309"));
    // The Round-3 SNOVA sizes (the table of the vectors' README).
    for (name, pk, sig) in [
        ("SNOVA_I_K", 376, 528),
        ("SNOVA_I_B", 656, 388),
        ("SNOVA_I_S", 1016, 272),
        ("SNOVA_III_K", 912, 688),
        ("SNOVA_III_B", 1416, 532),
        ("SNOVA_III_S", 2032, 456),
        ("SNOVA_V_K", 1216, 896),
        ("SNOVA_V_B", 1891, 691),
        ("SNOVA_V_S", 2716, 591),
    ] {
        for n in [name.to_string(), format!("{name}_AES")] {
            let line = long
                .lines()
                .find(|l| l.split_whitespace().next() == Some(n.as_str()))
                .unwrap_or_else(|| panic!("no {n} in {long}"));
            let want = format!("pk {pk:>5} B  sk    96 B  sig {sig:>5} B");
            assert!(line.ends_with(&want), "{line:?} vs {want:?}");
        }
    }
}

#[test]
fn algorithm_names_accept_either_separator() {
    // Existing names also take '_' for '-'; SNOVA names also take '-' for '_'.
    let out = run(&["kat", "--alg", "ml_dsa_44", "--count", "0"]);
    assert_eq!(stdout(&out), "# ML-DSA-44\n\n");
    let out = run(&["kat", "--alg", "falcon_padded_512", "--count", "0"]);
    assert_eq!(stdout(&out), "# Falcon-padded-512\n\n");
    let out = run(&["kat", "--alg", "snova-i-s-aes", "--count", "0"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "# SNOVA_I_S_AES\n\n");
    let out = run(&["kat", "--alg", "Snova_V_k", "--count", "0"]);
    assert_eq!(stdout(&out), "# SNOVA_V_K\n\n");
    // Not implemented: the l=2 "X" sets and the superseded Round-1/2 names.
    for bad in ["SNOVA_I_X", "SNOVA_24_5_4", "SNOVA_I", "SNOVA_I_S_SHAKE"] {
        assert_eq!(
            code(&run(&["kat", "--alg", bad, "--count", "0"])),
            2,
            "{bad}"
        );
    }
}

#[test]
fn help_and_version() {
    let out = run(&["--help"]);
    assert_eq!(code(&out), 0);
    let h = stdout(&out);
    for word in [
        "list",
        "keygen",
        "sign",
        "verify",
        "kat",
        "demo",
        "pubkey",
        "completions",
        "Examples",
        "Exit codes",
    ] {
        assert!(h.contains(word), "--help lacks {word}");
    }
    let kat = stdout(&run(&["kat", "--help"]));
    assert!(kat.contains("00..2f") && kat.contains("33*(i+1)") && kat.contains("061550234D158C5E"));
    let v = run(&["--version"]);
    assert_eq!(code(&v), 0);
    assert_eq!(
        stdout(&v).trim(),
        format!("pqsig {}", env!("CARGO_PKG_VERSION"))
    );
}

// ---------------------------------------------------------------- keygen

#[test]
fn keygen_with_seed_is_deterministic_and_matches_the_library() {
    let dir = TempDir::new("keygen");
    for &alg in Algorithm::ALL {
        let name = alg.name();
        let (pk1, sk1) = keygen(&dir, name, 7);
        let pk2 = dir.path("again.pk");
        let sk2 = dir.path("again.sk");
        // Lower-case name and an existing (world-readable) sk file are both fine.
        std::fs::write(&sk2, b"old").unwrap();
        let lower = name.to_lowercase();
        let out = run(&[
            "keygen",
            "--format",
            "raw",
            "--alg",
            &lower,
            "--seed",
            &seed_hex_for(name, 7),
            "--pk",
            s(&pk2),
            "--sk",
            s(&sk2),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let (pk_a, sk_a) = (std::fs::read(&pk1).unwrap(), std::fs::read(&sk1).unwrap());
        assert_eq!(pk_a, std::fs::read(&pk2).unwrap());
        assert_eq!(sk_a, std::fs::read(&sk2).unwrap());

        if let Some(ps) = mldsa(alg) {
            let (sk, vk) = mldsa::keygen_internal(ps, &[7u8; 32]);
            assert_eq!(pk_a, vk.to_bytes());
            assert_eq!(sk_a, sk.to_expanded_bytes().as_slice());
        }
        if let Algorithm::Falcon(ps) = alg {
            let (sk, vk) = falcon::keygen_from_seed(ps, &[7u8; 48]).unwrap();
            assert_eq!(pk_a, vk.to_bytes());
            assert_eq!(sk_a, sk.to_bytes());
        }
        if let Algorithm::FnDsa(ps) = alg {
            let (sk, vk) = falcon::fndsa::keygen_from_seed(ps.logn(), &[7u8; 32]).unwrap();
            assert_eq!(pk_a, vk.to_bytes());
            assert_eq!(sk_a, sk.to_bytes());
        }
        if let Algorithm::Snova(ps) = alg {
            let (sk, vk) = snova::keygen_from_seed(ps, &[7u8; 48]).unwrap();
            assert_eq!(pk_a, vk.to_bytes());
            assert_eq!(sk_a, sk.to_bytes());
            // The secret key starts with the seed itself (s_pub ‖ s_priv).
            assert_eq!(&sk_a[..48], &[7u8; 48][..]);
        }
        assert_eq!(pk_a.len(), alg.public_key_len());
        assert_eq!(sk_a.len(), alg.secret_key_len());

        let (pk3, _) = keygen(&dir, name, 8);
        assert_ne!(pk_a, std::fs::read(pk3).unwrap());

        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for p in [&sk1, &sk2] {
                let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o600, "{}", p.display());
            }
        }
    }
}

#[test]
fn keygen_without_seed_is_random() {
    let dir = TempDir::new("keygen-rand");
    let mut pks = Vec::new();
    for i in 0..2 {
        let pk = dir.path(&format!("{i}.pk"));
        let sk = dir.path(&format!("{i}.sk"));
        let out = run(&[
            "keygen",
            "--format",
            "raw",
            "--alg",
            "ML-DSA-44",
            "--pk",
            s(&pk),
            "--sk",
            s(&sk),
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let pkb = std::fs::read(&pk).unwrap();
        let skb = std::fs::read(&sk).unwrap();
        assert_eq!(pkb.len(), 1312);
        let key = SigningKey::from_expanded_with_public(ParamSet::MlDsa44, &skb, &pkb);
        assert!(key.is_ok());
        pks.push(pkb);
    }
    assert_ne!(pks[0], pks[1]);
}

#[test]
fn keygen_errors_exit_2() {
    let dir = TempDir::new("keygen-err");
    let (pk, sk) = (dir.path("k.pk"), dir.path("k.sk"));
    let args = |seed: &str| {
        run(&[
            "keygen",
            "--alg",
            "ML-DSA-44",
            "--seed",
            seed,
            "--pk",
            s(&pk),
            "--sk",
            s(&sk),
        ])
    };
    assert_error(&args("abcd"), "--seed");
    assert_error(&args(&"zz".repeat(32)), "--seed");
    assert_error(&args(&"0".repeat(63)), "--seed");
    let bad_dir = dir.path("no/such/dir/k.pk");
    let out = run(&[
        "keygen",
        "--alg",
        "ML-DSA-44",
        "--pk",
        s(&bad_dir),
        "--sk",
        s(&sk),
    ]);
    assert_error(&out, "no/such/dir/k.pk");
    assert_eq!(
        code(&run(&[
            "keygen", "--alg", "ML-DSA-1", "--pk", "a", "--sk", "b"
        ])),
        2
    );
    assert_eq!(
        code(&run(&["keygen", "--alg", "ML-DSA-44", "--pk", "a"])),
        2
    );
}

// ---------------------------------------------------------------- sign / verify

fn sign(alg: &str, sk: &Path, msg: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "sign",
        "--alg",
        alg,
        "--sk",
        s(sk),
        "--in",
        s(msg),
        "--out",
        s(out),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn verify(alg: &str, pk: &Path, msg: &Path, sig: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "verify",
        "--alg",
        alg,
        "--pk",
        s(pk),
        "--in",
        s(msg),
        "--sig",
        s(sig),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn sign_verify_round_trip_with_and_without_context() {
    let dir = TempDir::new("roundtrip");
    let msg = dir.write("msg", b"attack at dawn\n");
    for &alg in Algorithm::ALL {
        let name = alg.name();
        let (pk, sk) = keygen(&dir, name, 1);
        for ctx in [None, Some("00"), Some("636f6e74657874")] {
            let extra: Vec<&str> = ctx.map(|c| vec!["--ctx", c]).unwrap_or_default();
            let sig = dir.path("sig");
            let out = sign(name, &sk, &msg, &sig, &extra);
            if no_context(alg) {
                // Round-3 Falcon and SNOVA have no context string: refused, not ignored.
                if ctx.is_some() {
                    assert_eq!(code(&out), 2, "{name}");
                    assert!(stderr(&out).contains("not supported"), "{}", stderr(&out));
                    let v = verify(name, &pk, &msg, &sig, &extra);
                    assert_eq!(code(&v), 2);
                    continue;
                }
            }
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            let len = std::fs::read(&sig).unwrap().len();
            if fixed_length(alg) {
                assert_eq!(len, alg.signature_len());
            } else {
                assert!(len <= alg.signature_len());
            }
            let v = verify(name, &pk, &msg, &sig, &extra);
            assert_eq!(code(&v), 0, "{}", stderr(&v));
            assert!(v.stdout.is_empty() && v.stderr.is_empty());
            // Another context (or none) must not verify.
            let other: &[&str] = if ctx.is_some() { &[] } else { &["--ctx", "01"] };
            let expect = if no_context(alg) { 2 } else { 1 };
            assert_eq!(code(&verify(name, &pk, &msg, &sig, other)), expect);
            // Another message must not verify.
            let other_msg = dir.write("other", b"attack at dusk\n");
            assert_eq!(code(&verify(name, &pk, &other_msg, &sig, &extra)), 1);
        }
    }
}

#[test]
fn hedged_signatures_differ_deterministic_ones_reproduce() {
    let dir = TempDir::new("det");
    let msg = dir.write("msg", b"same message");
    let (pk, sk) = keygen(&dir, "ML-DSA-65", 3);
    let (h1, h2, d1, d2) = (
        dir.path("h1"),
        dir.path("h2"),
        dir.path("d1"),
        dir.path("d2"),
    );
    for (p, extra) in [
        (&h1, &[][..]),
        (&h2, &[][..]),
        (&d1, &["--deterministic"][..]),
        (&d2, &["--deterministic"][..]),
    ] {
        let mut e = extra.to_vec();
        e.extend(["--ctx", "aabb"]);
        assert_eq!(code(&sign("ML-DSA-65", &sk, &msg, p, &e)), 0);
        assert_eq!(
            code(&verify("ML-DSA-65", &pk, &msg, p, &["--ctx", "aabb"])),
            0
        );
    }
    let read = |p: &PathBuf| std::fs::read(p).unwrap();
    assert_ne!(read(&h1), read(&h2));
    assert_eq!(read(&d1), read(&d2));
    let (key, _) = mldsa::keygen_internal(ParamSet::MlDsa65, &[3u8; 32]);
    assert_eq!(
        read(&d1),
        key.sign_deterministic(b"same message", &[0xaa, 0xbb])
            .unwrap()
    );

    // A 32-byte seed file works as the secret key and signs identically.
    let seed = dir.write("seed", &[3u8; 32]);
    let d3 = dir.path("d3");
    assert_eq!(
        code(&sign(
            "ML-DSA-65",
            &seed,
            &msg,
            &d3,
            &["--deterministic", "--ctx", "aabb"]
        )),
        0
    );
    assert_eq!(read(&d1), read(&d3));
    // --pk check passes for the matching key.
    assert_eq!(
        code(&sign("ML-DSA-65", &seed, &msg, &d3, &["--pk", s(&pk)])),
        0
    );
}

#[test]
fn stdin_message_and_stdout_signature() {
    let dir = TempDir::new("stdio");
    let (pk, sk) = keygen(&dir, "ML-DSA-44", 5);
    let mut child = pqsig()
        .args([
            "sign",
            "--alg",
            "ML-DSA-44",
            "--sk",
            s(&sk),
            "--in",
            "-",
            "--out",
            "-",
            "--deterministic",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(b"piped").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(out.stdout.len(), 2420);
    let sig = dir.write("sig", &out.stdout);
    let msg = dir.write("msg", b"piped");
    assert_eq!(code(&verify("ML-DSA-44", &pk, &msg, &sig, &[])), 0);
}

#[test]
fn verify_exit_codes() {
    let dir = TempDir::new("verify");
    let name = "ML-DSA-44";
    let (pk, sk) = keygen(&dir, name, 9);
    let msg = dir.write("msg", b"hello");
    let sig = dir.path("sig");
    assert_eq!(code(&sign(name, &sk, &msg, &sig, &[])), 0);
    let good = std::fs::read(&sig).unwrap();
    assert_eq!(code(&verify(name, &pk, &msg, &sig, &[])), 0);

    // 1: invalid signatures, with a one-line message naming the signature file.
    let invalid = |bytes: &[u8], what: &str| {
        let p = dir.write("bad.sig", bytes);
        let out = verify(name, &pk, &msg, &p, &[]);
        assert_eq!(code(&out), 1, "{what}: {}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(
            err.contains("bad.sig") && err.contains("invalid signature"),
            "{what}: {err}"
        );
        assert!(out.stdout.is_empty());
    };
    let mut flipped = good.clone();
    flipped[0] ^= 1;
    invalid(&flipped, "flipped bit in c~");
    let mut flipped = good.clone();
    flipped[1000] ^= 0x10;
    invalid(&flipped, "flipped bit in z");
    invalid(&good[..good.len() - 1], "truncated");
    invalid(&good[..100], "short");
    invalid(&[], "empty");
    let mut long = good.clone();
    long.push(0);
    invalid(&long, "one byte too long");
    let mut hint = good.clone();
    let n = hint.len();
    hint[n - 1] = 0xff; // hint counts out of order: malformed
    invalid(&hint, "malformed hints");
    let other = dir.write("other", b"HELLO");
    assert_eq!(code(&verify(name, &pk, &other, &sig, &[])), 1);

    // 2: everything else, one line naming the file or option.
    let short_pk = dir.write("short.pk", &std::fs::read(&pk).unwrap()[..1000]);
    assert_error(&verify(name, &short_pk, &msg, &sig, &[]), "short.pk");
    let (pk65, _) = keygen(&dir, "ML-DSA-65", 9);
    assert_error(&verify(name, &pk65, &msg, &sig, &[]), "ML-DSA-65-9.pk");
    let missing = dir.path("missing");
    assert_error(&verify(name, &missing, &msg, &sig, &[]), "missing");
    assert_error(&verify(name, &pk, &missing, &sig, &[]), "missing");
    assert_error(&verify(name, &pk, &msg, &missing, &[]), "missing");
    assert_error(&verify(name, &pk, &msg, &sig, &["--ctx", "xyz"]), "--ctx");
    assert_error(&verify(name, &pk, &msg, &sig, &["--ctx", "abc"]), "--ctx");
    assert_error(
        &verify(name, &pk, &msg, &sig, &["--ctx", &"00".repeat(256)]),
        "255",
    );
    assert_error(&verify(name, &pk, &msg, &dir.0, &[]), "is a directory");

    // Argument errors (clap): exit 2, no panic.
    assert_eq!(code(&verify("ML-DSA-42", &pk, &msg, &sig, &[])), 2);
    assert_eq!(code(&verify("", &pk, &msg, &sig, &[])), 2);
    assert_eq!(
        code(&run(&[
            "verify",
            "--alg",
            name,
            "--pk",
            s(&pk),
            "--in",
            s(&msg)
        ])),
        2
    );
    assert_eq!(code(&run(&["verify"])), 2);
    assert_eq!(code(&run(&[])), 2);
    assert_eq!(code(&run(&["frobnicate"])), 2);
    assert_eq!(code(&verify(name, &pk, &msg, &sig, &["--bogus"])), 2);
    assert_eq!(
        code(&verify(name, &pk, &msg, &sig, &["--backend", "sse9"])),
        2
    );
}

#[test]
fn context_of_255_bytes_is_accepted() {
    let dir = TempDir::new("ctx255");
    let (pk, sk) = keygen(&dir, "ML-DSA-87", 2);
    let msg = dir.write("msg", b"m");
    let sig = dir.path("sig");
    let ctx = "ab".repeat(255);
    assert_eq!(
        code(&sign("ML-DSA-87", &sk, &msg, &sig, &["--ctx", &ctx])),
        0
    );
    assert_eq!(
        code(&verify("ML-DSA-87", &pk, &msg, &sig, &["--ctx", &ctx])),
        0
    );
    let too_long = "ab".repeat(256);
    assert_error(
        &sign("ML-DSA-87", &sk, &msg, &sig, &["--ctx", &too_long]),
        "255",
    );
}

#[test]
fn sign_rejects_bad_secret_keys() {
    let dir = TempDir::new("badsk");
    let msg = dir.write("msg", b"m");
    let sig = dir.path("sig");
    let (pk, sk) = keygen(&dir, "ML-DSA-44", 4);
    assert_error(
        &sign(
            "ML-DSA-44",
            &dir.write("short.sk", &[0u8; 100]),
            &msg,
            &sig,
            &[],
        ),
        "short.sk",
    );
    // An ML-DSA-65 key given as ML-DSA-44.
    let (_, sk65) = keygen(&dir, "ML-DSA-65", 4);
    assert_error(&sign("ML-DSA-44", &sk65, &msg, &sig, &[]), "ML-DSA-65-4.sk");
    // s1 coefficients out of range.
    assert_error(
        &sign(
            "ML-DSA-44",
            &dir.write("ff.sk", &[0xff; 2560]),
            &msg,
            &sig,
            &[],
        ),
        "ff.sk",
    );
    // A valid key that does not belong to --pk.
    let (_, other) = keygen(&dir, "ML-DSA-44", 5);
    assert_error(
        &sign("ML-DSA-44", &other, &msg, &sig, &["--pk", s(&pk)]),
        "ML-DSA-44-5.sk",
    );
    assert_error(
        &sign("ML-DSA-44", &dir.path("nope.sk"), &msg, &sig, &[]),
        "nope.sk",
    );
    assert_error(
        &sign("ML-DSA-44", &sk, &dir.path("nope.msg"), &sig, &[]),
        "nope.msg",
    );
    assert!(!sig.exists(), "no signature file is written on error");
}

// ---------------------------------------------------------------- kat

struct KatRecord {
    fields: Vec<(String, String)>,
}

impl KatRecord {
    fn get(&self, k: &str) -> &str {
        &self.fields.iter().find(|(n, _)| n == k).unwrap().1
    }
    fn bytes(&self, k: &str) -> Vec<u8> {
        let v = self.get(k);
        assert!(
            !v.bytes().any(|c| c.is_ascii_lowercase()),
            "{k}: hex must be upper-case"
        );
        hex::decode(v).unwrap()
    }
}

fn parse_rsp(text: &str, alg: &str) -> Vec<KatRecord> {
    let mut lines = text.split('\n');
    assert_eq!(lines.next(), Some(format!("# {alg}").as_str()));
    assert_eq!(lines.next(), Some(""));
    let rest: Vec<&str> = lines.collect();
    assert_eq!(rest.last(), Some(&""), "output ends with a newline");
    let body = &rest[..rest.len() - 1];
    let mut records = Vec::new();
    for chunk in body.chunks(9) {
        assert_eq!(chunk.len(), 9, "records are 8 lines and a blank line");
        assert_eq!(chunk[8], "");
        let fields: Vec<(String, String)> = chunk[..8]
            .iter()
            .map(|l| {
                let (k, v) = l
                    .split_once(" = ")
                    .unwrap_or_else(|| panic!("bad line {l:?}"));
                (k.to_string(), v.to_string())
            })
            .collect();
        let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            ["count", "seed", "mlen", "msg", "pk", "sk", "smlen", "sm"]
        );
        records.push(KatRecord { fields });
    }
    records
}

#[test]
fn kat_output_format_and_known_answers() {
    for &alg in Algorithm::ALL {
        let out = run(&["kat", "--alg", alg.name(), "--count", "2"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out);
        let records = parse_rsp(&text, alg.name());
        assert_eq!(records.len(), 2);
        for (i, r) in records.iter().enumerate() {
            assert_eq!(r.get("count"), i.to_string());
            assert_eq!(r.bytes("seed").len(), 48);
            let mlen: usize = r.get("mlen").parse().unwrap();
            assert_eq!(mlen, 33 * (i + 1));
            let msg = r.bytes("msg");
            assert_eq!(msg.len(), mlen);
            let pk = r.bytes("pk");
            let sk = r.bytes("sk");
            assert_eq!(pk.len(), alg.public_key_len());
            assert_eq!(sk.len(), alg.secret_key_len());
            let sm = r.bytes("sm");
            assert_eq!(r.get("smlen").parse::<usize>().unwrap(), sm.len());
            if let Algorithm::Falcon(ps) = alg {
                let vk = falcon::VerifyingKey::from_bytes(ps, &pk).unwrap();
                assert_eq!(vk.open(&sm), Ok(msg.as_slice()));
                assert!(falcon::SigningKey::from_bytes(ps, &sk).is_ok());
                continue;
            }
            assert_eq!(sm.len(), alg.signature_len() + mlen);
            let (sig, m) = sm.split_at(alg.signature_len());
            assert_eq!(m, msg.as_slice());
            if let Algorithm::FnDsa(ps) = alg {
                let vk = falcon::fndsa::VerifyingKey::from_bytes_logn(ps.logn(), &pk).unwrap();
                assert_eq!(vk.verify(&msg, &[], sig), Ok(()));
            }
            if let Algorithm::Snova(ps) = alg {
                let vk = snova::VerifyingKey::from_bytes(ps, &pk).unwrap();
                assert_eq!(vk.verify(&msg, sig), Ok(()));
                assert_eq!(vk.open(&sm), Ok(msg.as_slice()));
                let key = snova::SigningKey::from_bytes(ps, &sk).unwrap();
                assert_eq!(key.verifying_key().to_bytes(), pk.as_slice());
            }
            if let Some(ps) = mldsa(alg) {
                let vk = VerifyingKey::from_bytes(ps, &pk).unwrap();
                assert_eq!(vk.verify(&msg, &[], sig), Ok(()));
                assert!(SigningKey::from_expanded_with_public(ps, &sk, &pk).is_ok());
            }
        }
        assert!(records[0].get("seed").starts_with("061550234D158C5E"));
        assert_ne!(records[0].get("seed"), records[1].get("seed"));
        if alg.name() == "ML-DSA-44" {
            // NIST ML-DSA-44 KAT, count 0 (the pq-crystals reference .rsp).
            let r = &records[0];
            assert!(r.get("msg").starts_with("D81C4D8D734FCBFBEADE3D3F8A039FAA"));
            assert!(r
                .get("pk")
                .starts_with("DC7BC9A2E0B6DC66823AE4FBDE971C0CFC46F9D9"));
            assert!(r.get("sk").starts_with(
                "DC7BC9A2E0B6DC66823AE4FBDE971C0CFC46F9D96BBFBEEBB3470AE0A5A0139FF037B84E7553"
            ));
            assert!(r
                .get("sm")
                .starts_with("66AF1F4837B08A2D04BE10BF5D5337D9BCC8973840CBB5F6"));
            assert_eq!(r.get("smlen"), "2453");
        }
    }
}

/// `pqsig kat` regenerates the four round-3 Falcon KAT files byte for byte (all 100
/// records each: keygen through the NIST DRBG, signing, the signed-message layouts).
#[test]
fn kat_regenerates_the_falcon_round3_files() {
    let dir = vectors_dir().join("falcon");
    for (alg, file) in [
        ("Falcon-512", "round3/falcon512-KAT.rsp"),
        ("Falcon-1024", "round3/falcon1024-KAT.rsp"),
        (
            "Falcon-padded-512",
            "round3-padded/falcon-padded-512-KAT.rsp",
        ),
        (
            "Falcon-padded-1024",
            "round3-padded/falcon-padded-1024-KAT.rsp",
        ),
    ] {
        let path = dir.join(file);
        let want = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let out = run(&["kat", "--alg", alg]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_eq!(parse_rsp(&stdout(&out), alg).len(), 100);
        assert!(out.stdout == want, "{alg}: output differs from {file}");
    }
}

/// The first line where two `.rsp` texts differ (for a readable failure message).
fn first_difference(got: &[u8], want: &[u8]) -> String {
    let (g, w) = (String::from_utf8_lossy(got), String::from_utf8_lossy(want));
    for (i, (a, b)) in g.lines().zip(w.lines()).enumerate() {
        if a != b {
            let cut = |l: &str| l.chars().take(120).collect::<String>();
            return format!("line {}: got {:?}, want {:?}", i + 1, cut(a), cut(b));
        }
    }
    format!("{} vs {} bytes", got.len(), want.len())
}

/// `pqsig kat` regenerates all 18 SNOVA Round-3 KAT files byte for byte (100 records each:
/// keygen from the 48-byte DRBG draw, signing with the 16-byte salt draw, `sm = sig ‖
/// msg`), and its first record is the official SageMath vector. Two `pqsig` processes
/// run at a time.
#[test]
fn kat_regenerates_the_snova_round3_files() {
    let dir = vectors_dir().join("snova/round3");
    let algs: Vec<Algorithm> = Algorithm::ALL
        .iter()
        .copied()
        .filter(|a| matches!(a, Algorithm::Snova(_)))
        .collect();
    assert_eq!(algs.len(), 18);
    let next = AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(alg) = algs.get(i) else { break };
                let name = alg.name();
                let path = dir.join(format!("PQCsignKAT_{name}.rsp"));
                let want =
                    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let out = run(&["kat", "--alg", name]);
                let problem = if code(&out) != 0 {
                    Some(format!("exit {}: {}", code(&out), stderr(&out)))
                } else if out.stdout != want {
                    Some(first_difference(&out.stdout, &want))
                } else {
                    None
                };
                if let Some(p) = problem {
                    failures.lock().unwrap().push(format!("{name}: {p}"));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of 18 SNOVA KAT files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );

    let sage = std::fs::read(dir.join("SAGE_SNOVA_I_S.count0.rsp")).unwrap();
    let out = run(&["kat", "--alg", "SNOVA_I_S", "--count", "1"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        out.stdout == sage,
        "SNOVA_I_S count 0 differs from the Sage vector: {}",
        first_difference(&out.stdout, &sage)
    );
}

/// SNOVA on the command line: no context string and no deterministic mode (exit 2 with
/// a message naming the option), 48-byte seeds (as `--seed` and as a secret key file),
/// exit 1 for every malformed or non-verifying signature.
#[test]
fn snova_options_keys_and_exit_codes() {
    let dir = TempDir::new("snova");
    let msg = dir.write("msg", b"SNOVA on the command line");
    for name in ["SNOVA_I_S", "SNOVA_V_K_AES"] {
        let alg = Algorithm::from_name(name).unwrap();
        let (pk, sk) = keygen(&dir, name, 0x42);
        let sig = dir.path(&format!("{name}.sig"));

        let out = sign(name, &sk, &msg, &sig, &["--ctx", "01"]);
        assert_error(&out, "not supported");
        assert!(stderr(&out).contains("--ctx"), "{}", stderr(&out));
        let out = sign(name, &sk, &msg, &sig, &["--deterministic"]);
        assert_error(&out, "not supported");
        assert!(stderr(&out).contains("--deterministic"), "{}", stderr(&out));
        assert!(!sig.exists(), "no signature file is written on error");

        // An empty --ctx is no context at all.
        assert_eq!(code(&sign(name, &sk, &msg, &sig, &["--ctx", ""])), 0);
        let good = std::fs::read(&sig).unwrap();
        assert_eq!(good.len(), alg.signature_len());
        assert_eq!(code(&verify(name, &pk, &msg, &sig, &[])), 0);
        let out = verify(name, &pk, &msg, &sig, &["--ctx", "01"]);
        assert_error(&out, "--ctx");

        // Hedged: two signatures of the same message differ (fresh salt), both verify.
        let sig2 = dir.path("again.sig");
        assert_eq!(code(&sign(name, &sk, &msg, &sig2, &["--pk", s(&pk)])), 0);
        assert_ne!(std::fs::read(&sig2).unwrap(), good);
        assert_eq!(code(&verify(name, &pk, &msg, &sig2, &[])), 0);

        // The 48-byte seed works as the secret key file; --pk catches a foreign key.
        let seed = dir.write("seed.sk", &[0x42; 48]);
        assert_eq!(code(&sign(name, &seed, &msg, &sig2, &["--pk", s(&pk)])), 0);
        assert_eq!(code(&verify(name, &pk, &msg, &sig2, &[])), 0);
        let (_, other) = keygen(&dir, name, 0x43);
        assert_error(
            &sign(name, &other, &msg, &sig2, &["--pk", s(&pk)]),
            &format!("{name}-67.sk"),
        );
        assert_error(
            &sign(name, &dir.write("short.sk", &[1; 95]), &msg, &sig2, &[]),
            "short.sk",
        );

        // Exit 1: malformed or non-verifying signatures.
        let invalid = |bytes: &[u8], what: &str| {
            let p = dir.write("bad.sig", bytes);
            let out = verify(name, &pk, &msg, &p, &[]);
            assert_eq!(code(&out), 1, "{name} {what}: {}", stderr(&out));
            assert!(
                stderr(&out).contains("invalid signature"),
                "{}",
                stderr(&out)
            );
        };
        let mut flipped = good.clone();
        flipped[0] ^= 1;
        invalid(&flipped, "flipped bit in the solution");
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 0x80;
        invalid(&flipped, "flipped bit in the salt");
        invalid(&good[..good.len() - 1], "truncated");
        let mut long = good.clone();
        long.push(0);
        invalid(&long, "one byte too long");
        invalid(&[], "empty");
        let other_msg = dir.write("other", b"SNOVA on the command lime");
        assert_eq!(code(&verify(name, &pk, &other_msg, &sig, &[])), 1);

        // Exit 2: a public key of the wrong length.
        let pkb = std::fs::read(&pk).unwrap();
        let short_pk = dir.write("short.pk", &pkb[..pkb.len() - 1]);
        assert_error(&verify(name, &short_pk, &msg, &sig, &[]), "short.pk");

        // keygen --seed must be 48 bytes.
        let out = run(&[
            "keygen",
            "--alg",
            name,
            "--seed",
            &"00".repeat(32),
            "--pk",
            s(&dir.path("x.pk")),
            "--sk",
            s(&dir.path("x.sk")),
        ]);
        assert_error(&out, "48-byte seed");
    }
}

#[test]
fn kat_count_zero_and_bad_arguments() {
    let out = run(&["kat", "--alg", "ML-DSA-65", "--count", "0"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "# ML-DSA-65\n\n");
    assert_eq!(
        code(&run(&["kat", "--alg", "ML-DSA-65", "--count", "-1"])),
        2
    );
    assert_eq!(
        code(&run(&["kat", "--alg", "ML-DSA-65", "--count", "x"])),
        2
    );
    assert_eq!(code(&run(&["kat", "--alg", "RSA"])), 2);
    assert_eq!(code(&run(&["kat"])), 2);
}

#[test]
fn kat_default_count_is_100_and_prefix_stable() {
    let full = stdout(&run(&["kat", "--alg", "ML-DSA-44"]));
    assert_eq!(full.matches("count = ").count(), 100);
    assert!(full.contains("\ncount = 99\n") && full.contains(&format!("\nmlen = {}\n", 33 * 100)));
    let two = stdout(&run(&["kat", "--alg", "ML-DSA-44", "--count", "2"]));
    assert!(full.starts_with(&two), "records do not depend on --count");
}

// ---------------------------------------------------------------- demo / backends

#[test]
fn demo_passes_and_prints_every_algorithm() {
    let out = run(&["demo"]);
    assert_eq!(code(&out), 0, "{}\n{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("default backend: "));
    assert!(text.contains("checks passed"));
    assert!(!text.contains("FAIL"));
    for &alg in Algorithm::ALL {
        for b in pqsig::Backend::available() {
            let row = text
                .lines()
                .find(|l| l.starts_with(alg.name()) && l.contains(b.name()))
                .unwrap_or_else(|| panic!("no row for {alg} on {b}:\n{text}"));
            assert!(row.contains(&alg.public_key_len().to_string()));
            if fixed_length(alg) {
                assert!(row.contains(&alg.signature_len().to_string()));
            }
            assert!(row.trim_end().ends_with("ok"));
        }
    }
    let one = run(&["demo", "--iters", "1", "--alg", "ML-DSA-65"]);
    assert_eq!(code(&one), 0);
    assert!(!stdout(&one).contains("ML-DSA-44"));
    assert_eq!(code(&run(&["demo", "--iters", "0"])), 2);
}

#[test]
fn pqsig_backend_env_is_honoured() {
    let mut cmd = pqsig();
    cmd.env("PQSIG_BACKEND", "portable");
    let out = run_cmd(cmd, &["demo", "--iters", "2"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("default backend: portable (set by PQSIG_BACKEND)"),
        "{}",
        stdout(&out)
    );

    // keygen on the portable backend gives the same keys as the default backend.
    let dir = TempDir::new("env");
    let (pk_default, sk_default) = keygen(&dir, "ML-DSA-44", 6);
    let (pk, sk) = (dir.path("p.pk"), dir.path("p.sk"));
    let mut cmd = pqsig();
    cmd.env("PQSIG_BACKEND", "portable");
    let out = run_cmd(
        cmd,
        &[
            "keygen",
            "--format",
            "raw",
            "--alg",
            "ML-DSA-44",
            "--seed",
            &seed_hex(6),
            "--pk",
            s(&pk),
            "--sk",
            s(&sk),
        ],
    );
    assert_eq!(code(&out), 0);
    assert_eq!(
        std::fs::read(&pk).unwrap(),
        std::fs::read(&pk_default).unwrap()
    );
    assert_eq!(
        std::fs::read(&sk).unwrap(),
        std::fs::read(&sk_default).unwrap()
    );

    // --backend portable: deterministic signatures equal the default backend's.
    let msg = dir.write("msg", b"backend");
    let (s1, s2) = (dir.path("s1"), dir.path("s2"));
    assert_eq!(
        code(&sign("ML-DSA-44", &sk, &msg, &s1, &["--deterministic"])),
        0
    );
    assert_eq!(
        code(&sign(
            "ML-DSA-44",
            &sk,
            &msg,
            &s2,
            &["--deterministic", "--backend", "portable"]
        )),
        0
    );
    assert_eq!(std::fs::read(&s1).unwrap(), std::fs::read(&s2).unwrap());
    assert_eq!(
        code(&verify(
            "ML-DSA-44",
            &pk,
            &msg,
            &s1,
            &["--backend", "portable"]
        )),
        0
    );

    // An unknown value falls back to detection, visibly.
    let mut cmd = pqsig();
    cmd.env("PQSIG_BACKEND", "bogus");
    let out = run_cmd(cmd, &["demo", "--iters", "1", "--alg", "ML-DSA-44"]);
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("ignored"));
}

// ---------------------------------------------------------------- key formats, pubkey, completions

/// keygen --seed with `--format` into `dir`; returns (pk path, sk path).
fn keygen_as(dir: &TempDir, alg: &str, seed: u8, format: Option<&str>) -> (PathBuf, PathBuf) {
    let tag = format.unwrap_or("default");
    let pk = dir.path(&format!("{alg}-{seed}-{tag}.pub"));
    let sk = dir.path(&format!("{alg}-{seed}-{tag}.key"));
    let seed_hex = seed_hex_for(alg, seed);
    let mut args = vec![
        "keygen",
        "--alg",
        alg,
        "--seed",
        &seed_hex,
        "--pk",
        s(&pk),
        "--sk",
        s(&sk),
    ];
    if let Some(f) = format {
        args.extend(["--format", f]);
    }
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    (pk, sk)
}

#[test]
fn key_formats_round_trip_and_are_detected() {
    let dir = TempDir::new("formats");
    let msg = dir.write("msg", b"formats");
    for name in ["ML-DSA-44", "Falcon-512", "FN-DSA-512", "SNOVA_I_S"] {
        let alg = Algorithm::from_name(name).unwrap();
        let (pk_raw, sk_raw) = keygen_as(&dir, name, 3, Some("raw"));
        let (pk_pem, sk_pem) = keygen_as(&dir, name, 3, None);
        let (pk_der, sk_der) = keygen_as(&dir, name, 3, Some("der"));
        let raw_pk = std::fs::read(&pk_raw).unwrap();
        let raw_sk = std::fs::read(&sk_raw).unwrap();
        // PEM is the default, DER is not PEM, both decode to the raw keys.
        let pem_pk = std::fs::read(&pk_pem).unwrap();
        let pem_sk = std::fs::read(&sk_pem).unwrap();
        assert!(pem_pk.starts_with(b"-----BEGIN PUBLIC KEY-----"), "{name}");
        assert!(pem_sk.starts_with(b"-----BEGIN PRIVATE KEY-----"), "{name}");
        let der_pk = std::fs::read(&pk_der).unwrap();
        assert_eq!(der_pk[0], 0x30);
        assert_eq!(
            pqsig::keyfile::decode_public_as(alg, &pem_pk).unwrap(),
            raw_pk
        );
        assert_eq!(
            pqsig::keyfile::decode_public_as(alg, &der_pk).unwrap(),
            raw_pk
        );
        let der_sk = std::fs::read(&sk_der).unwrap();
        let key = pqsig::keyfile::decode_private_as(alg, &der_sk).unwrap();
        assert_eq!(key.public_key().unwrap(), raw_pk);
        assert_eq!(
            key.secret_key_bytes().unwrap().as_slice(),
            raw_sk.as_slice()
        );
        if mldsa(alg).is_some() {
            // ML-DSA: the seed form by default (the file holds the 32-byte seed).
            assert_eq!(key.seed(), Some(&[3u8; 32][..]), "{name}");
            assert_eq!(
                pqsig::keyfile::decode_private(&pem_sk).unwrap().seed(),
                Some(&[3u8; 32][..])
            );
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            for p in [&sk_pem, &sk_der] {
                let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o600, "{}", p.display());
            }
        }
        // Every secret key format signs, every public key format verifies.
        for (i, sk) in [&sk_raw, &sk_pem, &sk_der].into_iter().enumerate() {
            let sig = dir.path(&format!("{name}-{i}.sig"));
            let out = sign(name, sk, &msg, &sig, &["--pk", s(&pk_pem)]);
            assert_eq!(code(&out), 0, "{name} {}: {}", sk.display(), stderr(&out));
            for pk in [&pk_raw, &pk_pem, &pk_der] {
                let out = verify(name, pk, &msg, &sig, &[]);
                assert_eq!(code(&out), 0, "{name} {}: {}", pk.display(), stderr(&out));
            }
        }
        // A corrupted PEM key: exit 2, one line naming the file.
        let mut bad = pem_pk.clone();
        bad[40] = b'!';
        let bad_pk = dir.write(&format!("{name}-bad.pub"), &bad);
        let sig = dir.path(&format!("{name}-0.sig"));
        assert_error(
            &verify(name, &bad_pk, &msg, &sig, &[]),
            &format!("{name}-bad.pub"),
        );
    }
    // ML-DSA raw seed files (written by older versions) still load.
    let seed_file = dir.write("seed.key", &[3u8; 32]);
    let (pk_pem, _) = keygen_as(&dir, "ML-DSA-44", 3, None);
    let sig = dir.path("seed.sig");
    assert_eq!(
        code(&sign(
            "ML-DSA-44",
            &seed_file,
            &msg,
            &sig,
            &["--pk", s(&pk_pem)]
        )),
        0
    );
    // --format takes only raw, pem, der.
    let out = run(&[
        "keygen",
        "--alg",
        "ML-DSA-44",
        "--format",
        "jwk",
        "--pk",
        "x",
        "--sk",
        "y",
    ]);
    assert_eq!(code(&out), 2);
}

#[test]
fn pem_key_of_the_wrong_algorithm_is_an_error() {
    let dir = TempDir::new("wrong-alg");
    let msg = dir.write("msg", b"wrong algorithm");
    let (pk44, sk44) = keygen_as(&dir, "ML-DSA-44", 1, None);
    let (_, skf) = keygen_as(&dir, "Falcon-512", 1, Some("der"));
    let sig = dir.path("sig");
    assert_eq!(code(&sign("ML-DSA-44", &sk44, &msg, &sig, &[])), 0);
    let pk_name = pk44.file_name().unwrap().to_str().unwrap().to_string();
    let sk_name = sk44.file_name().unwrap().to_str().unwrap().to_string();
    let out = verify("ML-DSA-65", &pk44, &msg, &sig, &[]);
    assert_error(&out, &pk_name);
    assert!(stderr(&out).contains("ML-DSA-44"), "{}", stderr(&out));
    let out = sign("ML-DSA-65", &sk44, &msg, &dir.path("sig2"), &[]);
    assert_error(&out, &sk_name);
    assert!(stderr(&out).contains("ML-DSA-44"), "{}", stderr(&out));
    assert!(!dir.path("sig2").exists());
    let out = sign("ML-DSA-44", &skf, &msg, &dir.path("sig3"), &[]);
    assert_error(&out, "Falcon-512");
    // A public key given as the secret key (and vice versa).
    assert_error(
        &sign("ML-DSA-44", &pk44, &msg, &dir.path("sig4"), &[]),
        &pk_name,
    );
    assert_error(&verify("ML-DSA-44", &sk44, &msg, &sig, &[]), &sk_name);
}

#[test]
fn pubkey_derives_the_public_key_in_every_format() {
    let dir = TempDir::new("pubkey");
    for name in ["ML-DSA-65", "Falcon-padded-512", "FN-DSA-512", "SNOVA_I_K"] {
        let alg = Algorithm::from_name(name).unwrap();
        let (pk_raw, sk_raw) = keygen_as(&dir, name, 5, Some("raw"));
        let (pk_pem, sk_pem) = keygen_as(&dir, name, 5, None);
        let raw = std::fs::read(&pk_raw).unwrap();
        for sk in [&sk_raw, &sk_pem] {
            // Default PEM, identical to keygen's.
            let out_pem = dir.path("derived.pem");
            let out = run(&["pubkey", "--alg", name, "--sk", s(sk), "--out", s(&out_pem)]);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            assert_eq!(
                std::fs::read(&out_pem).unwrap(),
                std::fs::read(&pk_pem).unwrap()
            );
            // Raw and DER to standard output.
            let out = run(&[
                "pubkey",
                "--alg",
                name,
                "--sk",
                s(sk),
                "--out",
                "-",
                "--format",
                "raw",
            ]);
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            assert_eq!(out.stdout, raw);
            let out = run(&[
                "pubkey",
                "--alg",
                name,
                "--sk",
                s(sk),
                "--out",
                "-",
                "--format",
                "der",
            ]);
            assert_eq!(code(&out), 0);
            assert_eq!(
                pqsig::keyfile::decode_public_as(alg, &out.stdout).unwrap(),
                raw
            );
        }
    }
    let junk = dir.write("junk.key", b"not a key");
    assert_error(
        &run(&[
            "pubkey",
            "--alg",
            "ML-DSA-44",
            "--sk",
            s(&junk),
            "--out",
            "-",
        ]),
        "junk.key",
    );
}

#[test]
fn stdin_signature_for_verify() {
    let dir = TempDir::new("stdin-sig");
    let (pk, sk) = keygen_as(&dir, "ML-DSA-44", 2, None);
    let msg = dir.write("msg", b"signature on stdin");
    let sig = dir.path("sig");
    assert_eq!(code(&sign("ML-DSA-44", &sk, &msg, &sig, &[])), 0);
    let check = |sig_bytes: &[u8]| {
        use std::io::Write;
        let mut child = pqsig()
            .args([
                "verify",
                "--alg",
                "ML-DSA-44",
                "--pk",
                s(&pk),
                "--in",
                s(&msg),
                "--sig",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(sig_bytes).unwrap();
        child.wait_with_output().unwrap().status.code().unwrap()
    };
    let good = std::fs::read(&sig).unwrap();
    assert_eq!(check(&good), 0);
    let mut bad = good.clone();
    bad[0] ^= 1;
    assert_eq!(check(&bad), 1);
}

#[test]
fn shell_completions() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out);
        for sub in ["keygen", "pubkey", "sign", "verify", "kat", "list", "demo"] {
            assert!(text.contains(sub), "{shell} completion lacks {sub}");
        }
    }
    assert!(stdout(&run(&["completions", "bash"])).contains("complete -F"));
    assert_eq!(code(&run(&["completions", "tcsh"])), 2);
}

#[test]
fn list_long_shows_oids_and_marks_provisional_ones() {
    let long = stdout(&run(&["list", "--long"]));
    let line = |n: &str| {
        long.lines()
            .find(|l| l.split_whitespace().next() == Some(n))
            .unwrap()
            .to_string()
    };
    let l = line("ML-DSA-65");
    assert!(
        l.contains("2.16.840.1.101.3.4.3.18") && !l.contains("provisional"),
        "{l}"
    );
    for &alg in Algorithm::ALL {
        let l = line(alg.name());
        assert!(l.contains(&pqsig::keyfile::oid_string(alg)), "{l}");
        assert_eq!(
            l.contains("(provisional)"),
            pqsig::keyfile::oid_is_provisional(alg),
            "{l}"
        );
    }
}

#[test]
fn subcommand_help_has_examples() {
    for sub in [
        "list",
        "keygen",
        "pubkey",
        "sign",
        "verify",
        "kat",
        "demo",
        "completions",
    ] {
        let out = run(&[sub, "--help"]);
        assert_eq!(code(&out), 0);
        let h = stdout(&out);
        assert!(
            h.contains("Examples:") && h.contains(&format!("pqsig {sub}")),
            "{sub}: {h}"
        );
    }
}
