//! Key files as other implementations write them, built here byte by byte from the
//! published layouts (no file of theirs is copied):
//!
//! * BouncyCastle's Falcon PKCS#8, whose `privateKey` is the nested
//!   `SEQUENCE { INTEGER 0, f, g, F, SEQUENCE { h } }` (src/keyfile/falcon_bc.rs), from the
//!   first record of the round-3 KAT files: pqsig must derive the KAT key from it, and
//!   refuse a stored public key that is not the key's.
//! * circl's ML-DSA PEM labels (`ML-DSA-44 PRIVATE KEY`): read when the OID inside
//!   names the same parameter set, refused otherwise.

mod common;

use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::falcon::ParamSet as FalconSet;
use pqsig::keyfile::{self, der::DerError, oid, KeyFileError, MlDsaForm};
use pqsig::{mldsa, Algorithm};

// ------------------------------------------------------------------ DER by hand

fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = content.len();
    if n < 0x80 {
        out.push(n as u8);
    } else if n < 0x100 {
        out.extend_from_slice(&[0x81, n as u8]);
    } else {
        out.extend_from_slice(&[0x82, (n >> 8) as u8, n as u8]);
    }
    out.extend_from_slice(content);
    out
}

fn seq(parts: &[Vec<u8>]) -> Vec<u8> {
    tlv(0x30, &parts.concat())
}

/// OneAsymmetricKey v1 (version 0) around a `privateKey` content.
fn pkcs8(alg: Algorithm, private_key: &[u8]) -> Vec<u8> {
    seq(&[
        tlv(0x02, &[0]),
        seq(&[tlv(0x06, &oid::oid_der(alg))]),
        tlv(0x04, private_key),
    ])
}

/// The `privateKey` content of the PKCS#8 DER `der` (its third element).
fn private_key_content(der: &[u8]) -> Vec<u8> {
    let mut outer = keyfile::der::Reader::new(der);
    let mut r = outer.read_sequence().unwrap();
    r.read_small_uint().unwrap();
    r.read_sequence().unwrap();
    r.read(0x04).unwrap().to_vec()
}

// ------------------------------------------------------------------ BouncyCastle Falcon

struct KatKey {
    alg: Algorithm,
    sk: Vec<u8>,
    pk: Vec<u8>,
    /// Lengths of f (= g) and F in the compact key.
    fg_len: usize,
    cap_len: usize,
}

fn kat_key(ps: FalconSet) -> KatKey {
    let rel = match ps.logn() {
        9 => "falcon/round3/falcon512-KAT.rsp",
        _ => "falcon/round3/falcon1024-KAT.rsp",
    };
    let rec = common::parse_rsp(rel).into_iter().next().expect("a record");
    let n = 1usize << ps.logn();
    let cap_len = n; // F: 8 bits a coefficient
    let fg_len = (rec.sk.len() - 1 - cap_len) / 2;
    assert_eq!(rec.sk.len(), ps.secret_key_len());
    KatKey {
        alg: Algorithm::Falcon(ps),
        sk: rec.sk,
        pk: rec.pk,
        fg_len,
        cap_len,
    }
}

/// BouncyCastle's layout: version, f, g, F and (optionally) SEQUENCE { h }, h as given.
fn bc_nested(k: &KatKey, version: u8, public: Option<&[u8]>) -> Vec<u8> {
    let (f, rest) = k.sk[1..].split_at(k.fg_len);
    let (g, cap_f) = rest.split_at(k.fg_len);
    assert_eq!(cap_f.len(), k.cap_len);
    let mut parts = vec![
        tlv(0x02, &[version]),
        tlv(0x04, f),
        tlv(0x04, g),
        tlv(0x04, cap_f),
    ];
    if let Some(h) = public {
        parts.push(seq(&[tlv(0x04, h)]));
    }
    seq(&parts)
}

#[test]
fn bouncycastle_falcon_pkcs8_gives_the_kat_key() {
    for ps in [FalconSet::Falcon512, FalconSet::Falcon1024] {
        let k = kat_key(ps);
        let h = &k.pk[1..]; // BouncyCastle stores h without the header byte
        let nested = bc_nested(&k, 0, Some(h));
        if ps == FalconSet::Falcon512 {
            // The size pqsig used to refuse ("key has 2203 bytes, expected 1281").
            assert_eq!(nested.len(), 2203);
        }
        let without_pk = bc_nested(&k, 0, None);
        let with_full_pk = bc_nested(&k, 0, Some(&k.pk));
        for content in [&nested, &without_pk, &with_full_pk] {
            let der = pkcs8(k.alg, content);
            let pem = keyfile::pem::encode(keyfile::PEM_PRIVATE, &der);
            for file in [&der[..], pem.as_bytes()] {
                let key = keyfile::decode_private(file).unwrap();
                assert_eq!(key.algorithm(), k.alg);
                assert_eq!(&key.secret_key_bytes().unwrap()[..], &k.sk[..]);
                assert_eq!(key.public_key().unwrap(), k.pk);
                let key = keyfile::decode_private_as(k.alg, file).unwrap();
                assert_eq!(&key.secret_key_bytes().unwrap()[..], &k.sk[..]);
            }
        }
        // The key signs for the KAT public key.
        let sk: SigningKey = keyfile::decode_private(&pkcs8(k.alg, &nested))
            .unwrap()
            .signing_key()
            .unwrap();
        let sig = sk.sign(b"bouncycastle", b"").unwrap();
        let vk = VerifyingKey::from_bytes(k.alg, &k.pk).unwrap();
        assert_eq!(vk.verify(b"bouncycastle", b"", &sig), Ok(()));
        // pqsig keeps writing the OQS compact key, not the nested layout.
        let written = keyfile::encode_private_der(k.alg, &k.sk, MlDsaForm::Seed).unwrap();
        assert_eq!(private_key_content(&written), k.sk);
    }
}

#[test]
fn bouncycastle_falcon_pkcs8_mismatches_are_typed_errors() {
    let k = kat_key(FalconSet::Falcon512);
    let h = &k.pk[1..];
    let decode = |content: &[u8]| keyfile::decode_private(&pkcs8(k.alg, content)).map(drop);

    // A stored public key that is not the one f, g, F give.
    let mut other_h = h.to_vec();
    other_h[100] ^= 1;
    assert_eq!(
        decode(&bc_nested(&k, 0, Some(&other_h))),
        Err(KeyFileError::PublicKeyMismatch)
    );
    // Another key's public key (the second KAT record's).
    let rec1 = common::parse_rsp("falcon/round3/falcon512-KAT.rsp")
        .into_iter()
        .nth(1)
        .unwrap();
    assert_eq!(
        decode(&bc_nested(&k, 0, Some(&rec1.pk[1..]))),
        Err(KeyFileError::PublicKeyMismatch)
    );
    // F changed: no longer the key of the stored h (or no key at all).
    let mut bad = k.sk.clone();
    *bad.last_mut().unwrap() ^= 1;
    let tampered = KatKey {
        sk: bad,
        pk: k.pk.clone(),
        ..k
    };
    assert!(decode(&bc_nested(&tampered, 0, Some(h))).is_err());
    let k = kat_key(FalconSet::Falcon512);
    // Version 1 (BouncyCastle writes and reads 0 only).
    assert_eq!(
        decode(&bc_nested(&k, 1, Some(h))),
        Err(KeyFileError::UnsupportedVersion(1))
    );
    // h of a wrong length.
    assert_eq!(
        decode(&bc_nested(&k, 0, Some(&h[1..]))),
        Err(KeyFileError::WrongKeyLength {
            expected: 896,
            found: 895
        })
    );
    // f one byte short.
    let (f, rest) = k.sk[1..].split_at(k.fg_len);
    let (g, cap_f) = rest.split_at(k.fg_len);
    let short_f = seq(&[
        tlv(0x02, &[0]),
        tlv(0x04, &f[1..]),
        tlv(0x04, g),
        tlv(0x04, cap_f),
    ]);
    assert_eq!(
        decode(&short_f),
        Err(KeyFileError::WrongKeyLength {
            expected: 384,
            found: 383
        })
    );
    // A sixth element.
    let mut extra = bc_nested(&k, 0, Some(h));
    let body = extra.split_off(4); // 0x30 0x82 len len
    let mut body = body;
    body.extend_from_slice(&tlv(0x04, b"x"));
    assert_eq!(
        decode(&tlv(0x30, &body)),
        Err(KeyFileError::Der(DerError::TrailingBytes))
    );
    // A Falcon-512 nested key under the Falcon-1024 OID.
    let k1024 = Algorithm::Falcon(FalconSet::Falcon1024);
    assert!(matches!(
        keyfile::decode_private(&pkcs8(k1024, &bc_nested(&k, 0, Some(h)))),
        Err(KeyFileError::WrongKeyLength { .. })
    ));
}

// ------------------------------------------------------------------ circl ML-DSA labels

fn relabel(pem: &str, label: &str) -> String {
    pem.replace(
        "-----BEGIN PRIVATE KEY-----",
        &format!("-----BEGIN {label}-----"),
    )
    .replace(
        "-----END PRIVATE KEY-----",
        &format!("-----END {label}-----"),
    )
    .replace(
        "-----BEGIN PUBLIC KEY-----",
        &format!("-----BEGIN {label}-----"),
    )
    .replace(
        "-----END PUBLIC KEY-----",
        &format!("-----END {label}-----"),
    )
}

#[test]
fn circl_mldsa_pem_labels_are_read_when_the_oid_agrees() {
    for ps in [
        mldsa::ParamSet::MlDsa44,
        mldsa::ParamSet::MlDsa65,
        mldsa::ParamSet::MlDsa87,
    ] {
        let alg = Algorithm::MlDsa(ps);
        let seed = [0x42u8; 32];
        let sk_pem = keyfile::encode_private_pem(alg, &seed, MlDsaForm::Seed).unwrap();
        let key = keyfile::decode_private(sk_pem.as_bytes()).unwrap();
        let pk = key.public_key().unwrap();
        let pk_pem = keyfile::encode_public_pem(alg, &pk).unwrap();

        let circl_sk = relabel(&sk_pem, &format!("{} PRIVATE KEY", alg.name()));
        assert!(circl_sk.starts_with(&format!("-----BEGIN {} PRIVATE KEY-----", alg.name())));
        let read = keyfile::decode_private(circl_sk.as_bytes()).unwrap();
        assert_eq!((read.algorithm(), read.seed()), (alg, Some(&seed[..])));
        assert!(keyfile::decode_private_as(alg, circl_sk.as_bytes()).is_ok());

        let circl_pk = relabel(&pk_pem, &format!("{} PUBLIC KEY", alg.name()));
        assert_eq!(
            keyfile::decode_public(circl_pk.as_bytes()).unwrap(),
            (alg, pk.clone())
        );

        // Mismatch: the label names another parameter set than the OID.
        for other in [
            mldsa::ParamSet::MlDsa44,
            mldsa::ParamSet::MlDsa65,
            mldsa::ParamSet::MlDsa87,
        ] {
            let label = Algorithm::MlDsa(other);
            if label == alg {
                continue;
            }
            let wrong = relabel(&sk_pem, &format!("{} PRIVATE KEY", label.name()));
            assert_eq!(
                keyfile::decode_private(wrong.as_bytes()).map(drop),
                Err(KeyFileError::LabelMismatch { label, found: alg })
            );
            let wrong = relabel(&pk_pem, &format!("{} PUBLIC KEY", label.name()));
            assert_eq!(
                keyfile::decode_public(wrong.as_bytes()),
                Err(KeyFileError::LabelMismatch { label, found: alg })
            );
        }
    }
}

#[test]
fn other_named_labels_stay_refused() {
    let alg = Algorithm::MlDsa(mldsa::ParamSet::MlDsa44);
    let sk_pem = keyfile::encode_private_pem(alg, &[7u8; 32], MlDsaForm::Seed).unwrap();
    for label in [
        "ML-DSA-44 PUBLIC KEY", // a public label on a private key
        "ml-dsa-44 PRIVATE KEY",
        "ML-DSA-44  PRIVATE KEY",
        "Falcon-512 PRIVATE KEY",
        "ML-DSA-44PRIVATE KEY",
        "RSA PRIVATE KEY",
    ] {
        let pem = relabel(&sk_pem, label);
        assert_eq!(
            keyfile::decode_private(pem.as_bytes()).map(drop),
            Err(KeyFileError::WrongPemLabel(label.to_string())),
            "{label}"
        );
    }
}
