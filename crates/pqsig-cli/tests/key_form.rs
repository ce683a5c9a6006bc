//! `keygen --mldsa-key-form seed|expanded|both`: the RFC 9881 private-key CHOICE written
//! to PEM/DER, and every form signs for the same public key.

mod common;

use common::*;
use pqsig::keyfile;
use pqsig::Algorithm;

#[test]
fn each_mldsa_key_form_is_written_and_usable() {
    let dir = TempDir::new("forms");
    let alg = Algorithm::from_name("ML-DSA-65").unwrap();
    let seed = "42".repeat(32);
    let msg = dir.write("msg", b"key forms");
    let mut public = Vec::new();
    for (form, format) in [
        ("seed", "pem"),
        ("expanded", "pem"),
        ("both", "pem"),
        ("seed", "der"),
        ("expanded", "der"),
        ("both", "der"),
    ] {
        let (pk, sk) = (
            dir.path(&format!("{form}.{format}.pk")),
            dir.path(&format!("{form}.{format}.sk")),
        );
        let out = run(&[
            "keygen",
            "--alg",
            "ML-DSA-65",
            "--seed",
            &seed,
            "--format",
            format,
            "--mldsa-key-form",
            form,
            "--pk",
            s(&pk),
            "--sk",
            s(&sk),
        ]);
        assert_eq!(code(&out), 0, "{form}/{format}: {}", stderr(&out));
        let key = keyfile::decode_private_as(alg, &std::fs::read(&sk).unwrap()).unwrap();
        assert_eq!(key.seed().is_some(), form != "expanded", "{form}/{format}");
        // Sizes are compared on DER (PEM is its base64).
        let len = std::fs::read(&sk).unwrap().len();
        match (form, format) {
            ("seed", "der") => assert!(len < 100, "{len}"),
            ("expanded", "der") => assert!(len > 4000 && len < 4100, "{len}"),
            ("both", "der") => assert!(len > 4030, "{len}"),
            _ => {}
        }
        // Every form signs, and verifies under the same public key.
        let sig = dir.path(&format!("{form}.{format}.sig"));
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
        assert_eq!(code(&out), 0, "{form}/{format}: {}", stderr(&out));
        let out = run(&[
            "verify",
            "--alg",
            "ML-DSA-65",
            "--pk",
            s(&pk),
            "--in",
            s(&msg),
            "--sig",
            s(&sig),
        ]);
        assert_eq!(code(&out), 0, "{form}/{format}: {}", stderr(&out));
        let out = run(&[
            "pubkey",
            "--alg",
            "ML-DSA-65",
            "--sk",
            s(&sk),
            "--out",
            "-",
            "--format",
            "raw",
        ]);
        assert_eq!(code(&out), 0);
        public.push(out.stdout);
    }
    assert!(
        public.windows(2).all(|w| w[0] == w[1]),
        "one public key for every form"
    );
}

#[test]
fn the_form_defaults_to_seed_and_other_algorithms_ignore_it() {
    let dir = TempDir::new("forms-default");
    let seed = "07".repeat(32);
    let keygen = |form: Option<&str>, alg: &str, seed: &str, tag: &str| {
        let sk = dir.path(&format!("{tag}.sk"));
        let pk = dir.path(&format!("{tag}.pk"));
        let mut args = vec![
            "keygen",
            "--alg",
            alg,
            "--seed",
            seed,
            "--pk",
            s(&pk),
            "--sk",
            s(&sk),
        ];
        if let Some(f) = form {
            args.extend(["--mldsa-key-form", f]);
        }
        let out = run(&args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        std::fs::read(sk).unwrap()
    };
    assert_eq!(
        keygen(None, "ML-DSA-44", &seed, "default"),
        keygen(Some("seed"), "ML-DSA-44", &seed, "seed")
    );
    let fseed = "07".repeat(48);
    assert_eq!(
        keygen(None, "Falcon-512", &fseed, "f-default"),
        keygen(Some("expanded"), "Falcon-512", &fseed, "f-expanded")
    );
    let out = run(&[
        "keygen",
        "--alg",
        "ML-DSA-44",
        "--mldsa-key-form",
        "compact",
        "--pk",
        "a",
        "--sk",
        "b",
    ]);
    assert_eq!(code(&out), 2);
}
