//! Key files: malformed input gives typed errors (never a panic, never a wrong key).

use pqsig::keyfile::{self, DerError, KeyFileError, MlDsaForm, PemError};
use pqsig::{falcon, mldsa, Algorithm};

fn mldsa_files() -> (Algorithm, Vec<u8>, Vec<u8>, Vec<u8>) {
    let ps = mldsa::ParamSet::MlDsa44;
    let alg = Algorithm::MlDsa(ps);
    let seed = [7u8; 32];
    let sk = mldsa::SigningKey::from_seed(ps, &seed).unwrap();
    let spki = keyfile::encode_public_der(alg, sk.verifying_key().to_bytes()).unwrap();
    let p8 = keyfile::encode_private_der(alg, &seed, MlDsaForm::Seed)
        .unwrap()
        .to_vec();
    let both = keyfile::encode_private_der(alg, &seed, MlDsaForm::Both)
        .unwrap()
        .to_vec();
    (alg, spki, p8, both)
}

#[test]
fn truncations_and_trailing_bytes() {
    let (_, spki, p8, both) = mldsa_files();
    for n in 0..spki.len() {
        assert!(
            keyfile::decode_public(&spki[..n]).is_err(),
            "spki truncated to {n}"
        );
    }
    for file in [&p8, &both] {
        for n in 0..file.len() {
            assert!(
                keyfile::decode_private(&file[..n]).is_err(),
                "pkcs8 truncated to {n}"
            );
        }
    }
    let mut t = spki.clone();
    t.push(0);
    assert_eq!(
        keyfile::decode_public(&t),
        Err(KeyFileError::Der(DerError::TrailingBytes))
    );
    let mut t = p8.clone();
    t.push(0);
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::Der(DerError::TrailingBytes))
    );
    // Trailing bytes inside the private-key OCTET STRING (after the seed CHOICE).
    let mut inner = p8.clone();
    inner[1] += 1; // outer SEQUENCE
    inner[19] += 1; // OCTET STRING
    inner.push(0);
    assert_eq!(
        keyfile::decode_private(&inner).err(),
        Some(KeyFileError::Der(DerError::TrailingBytes))
    );
}

#[test]
fn wrong_tags_versions_parameters_and_oids() {
    let (alg, spki, p8, _) = mldsa_files();
    // Outer tag.
    let mut t = p8.clone();
    t[0] = 0x31;
    assert!(matches!(
        keyfile::decode_private(&t),
        Err(KeyFileError::UnrecognisedFormat) | Err(KeyFileError::Der(_))
    ));
    // Seed CHOICE with an unknown tag ([1] instead of [0]).
    let mut t = p8.clone();
    t[20] = 0x81;
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::Der(DerError::UnexpectedTag {
            expected: 0x80,
            found: 0x81
        }))
    );
    // Version 2.
    let mut t = p8.clone();
    t[4] = 2;
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::UnsupportedVersion(2))
    );
    // Unknown OID (last arc .20).
    let mut t = spki.clone();
    t[16] = 0x14;
    assert_eq!(
        keyfile::decode_public(&t),
        Err(KeyFileError::UnknownOid("2.16.840.1.101.3.4.3.20".into()))
    );
    // Parameters present (NULL) in the AlgorithmIdentifier.
    let mut t = vec![0x30, 0x36, 0x02, 0x01, 0x00, 0x30, 0x0d];
    t.extend_from_slice(&p8[7..18]);
    t.extend_from_slice(&[0x05, 0x00]);
    t.extend_from_slice(&p8[18..]);
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::ParametersPresent)
    );
    // BIT STRING with unused bits.
    let mut t = spki.clone();
    let pos = 4 + 13 + 4; // SEQ hdr, AlgId, BIT STRING hdr
    assert_eq!(t[pos], 0);
    t[pos] = 1;
    assert_eq!(
        keyfile::decode_public(&t),
        Err(KeyFileError::Der(DerError::InvalidValue))
    );
    // Public key of the wrong length (a valid DER structure around 10 bytes).
    let short = [
        0x30, 0x19, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11,
        0x03, 0x0a, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ];
    assert_eq!(
        keyfile::decode_public(&short),
        Err(KeyFileError::WrongKeyLength {
            expected: alg.public_key_len(),
            found: 9
        })
    );
}

#[test]
fn non_minimal_lengths() {
    let (_, _, p8, _) = mldsa_files();
    // Outer length 0x34 written in long form 0x81 0x34.
    let mut t = vec![0x30, 0x81, 0x34];
    t.extend_from_slice(&p8[2..]);
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::Der(DerError::NonMinimalLength))
    );
    // The seed's length 0x20 as 0x81 0x20 (inner lengths adjusted so only that is wrong).
    let mut t = vec![0x30, 0x35];
    t.extend_from_slice(&p8[2..18]);
    t.extend_from_slice(&[0x04, 0x23, 0x80, 0x81, 0x20]);
    t.extend_from_slice(&p8[22..]);
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::Der(DerError::NonMinimalLength))
    );
    // Indefinite length.
    let mut t = vec![0x30, 0x80];
    t.extend_from_slice(&p8[2..]);
    t.extend_from_slice(&[0, 0]);
    assert!(keyfile::decode_private(&t).is_err());
}

#[test]
fn both_form_mismatch_and_wrong_seed_length() {
    let (_, _, _, both) = mldsa_files();
    assert!(keyfile::decode_private(&both).is_ok());
    // Flip a byte of the expanded key (the last byte of the file: inside t0).
    let mut t = both.clone();
    *t.last_mut().unwrap() ^= 1;
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::SeedMismatch)
    );
    // Flip a byte of the seed instead.
    let pos = both.windows(2).position(|w| w == [0x04, 0x20]).unwrap() + 2;
    let mut t = both.clone();
    t[pos] ^= 1;
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::SeedMismatch)
    );
    // A 31-byte seed in the seed form.
    let (_, _, p8, _) = mldsa_files();
    let mut t = vec![0x30, 0x33];
    t.extend_from_slice(&p8[2..18]);
    t.extend_from_slice(&[0x04, 0x21, 0x80, 0x1f]);
    t.extend_from_slice(&p8[22..53]);
    assert_eq!(
        keyfile::decode_private(&t).err(),
        Some(KeyFileError::WrongKeyLength {
            expected: 32,
            found: 31
        })
    );
}

#[test]
fn bad_pem() {
    let (alg, spki, p8, _) = mldsa_files();
    let pem = keyfile::encode_public_pem(alg, &spki[spki.len() - alg.public_key_len()..]).unwrap();
    // Bad base64 character.
    let bad = pem.replacen('A', "*", 1);
    if bad != pem {
        assert_eq!(
            keyfile::decode_public(bad.as_bytes()),
            Err(KeyFileError::Pem(PemError::BadBase64))
        );
    }
    // A removed character breaks the length (or the padding).
    let mut lines: Vec<&str> = pem.lines().collect();
    let shortened = &lines[1][1..].to_string();
    lines[1] = shortened;
    let bad = lines.join("\n");
    assert_eq!(
        keyfile::decode_public(bad.as_bytes()),
        Err(KeyFileError::Pem(PemError::BadBase64))
    );
    // Wrong label for the content kind.
    let p8_pem = keyfile::encode_private_pem(alg, &[7u8; 32], MlDsaForm::Seed).unwrap();
    assert_eq!(
        keyfile::decode_public(p8_pem.as_bytes()),
        Err(KeyFileError::WrongPemLabel("PRIVATE KEY".into()))
    );
    assert_eq!(
        keyfile::decode_private(pem.as_bytes()).err(),
        Some(KeyFileError::WrongPemLabel("PUBLIC KEY".into()))
    );
    // CRLF is fine.
    let crlf = pem.replace('\n', "\r\n");
    assert!(keyfile::decode_public(crlf.as_bytes()).is_ok());
    // Missing END line; text after END.
    let cut = pem.replace("-----END PUBLIC KEY-----", "");
    assert_eq!(
        keyfile::decode_public(cut.as_bytes()),
        Err(KeyFileError::Pem(PemError::BadArmour))
    );
    let extra = format!("{pem}junk\n");
    assert_eq!(
        keyfile::decode_public(extra.as_bytes()),
        Err(KeyFileError::Pem(PemError::BadArmour))
    );
    let _ = p8;
}

#[test]
fn garbage_never_panics() {
    // Deterministic pseudo-random mutations of valid files.
    let (_, spki, p8, both) = mldsa_files();
    let (fsk, _) = falcon::keygen(falcon::ParamSet::Falcon512).unwrap();
    let fal = keyfile::encode_private_der(
        Algorithm::Falcon(falcon::ParamSet::Falcon512),
        fsk.to_bytes(),
        MlDsaForm::Seed,
    )
    .unwrap()
    .to_vec();
    let mut x: u64 = 0x9e3779b97f4a7c15;
    for file in [&spki, &p8, &both, &fal] {
        for _ in 0..300 {
            let mut t = file.clone();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pos = (x as usize) % t.len().min(64);
            t[pos] ^= (x >> 32) as u8 | 1;
            let _ = keyfile::decode_public(&t);
            let _ = keyfile::decode_private(&t);
            let _ = keyfile::decode_private_as(Algorithm::Falcon(falcon::ParamSet::Falcon512), &t);
        }
    }
}

/// DER helpers for hand-built files.
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

fn one_asymmetric_key(version: u8, oid: &[u8], private: &[u8], public: Option<&[u8]>) -> Vec<u8> {
    let mut inner = tlv(0x02, &[version]);
    inner.extend(tlv(0x30, &tlv(0x06, oid)));
    inner.extend(tlv(0x04, private));
    if let Some(pk) = public {
        let mut bits = vec![0];
        bits.extend_from_slice(pk);
        inner.extend(tlv(0x81, &bits));
    }
    tlv(0x30, &inner)
}

#[test]
fn public_key_inside_private_key_files() {
    let ps = falcon::ParamSet::Falcon512;
    let alg = Algorithm::Falcon(ps);
    let oid = [0x2b, 0xce, 0x0f, 0x03, 0x0b]; // 1.3.9999.3.11
    let (sk, vk) = falcon::keygen(ps).unwrap();
    let (_, vk2) = falcon::keygen(ps).unwrap();
    // oqs-provider's `sk ‖ pk` content.
    let mut skpk = sk.to_bytes().to_vec();
    skpk.extend_from_slice(vk.to_bytes());
    let key = keyfile::decode_private(&one_asymmetric_key(0, &oid, &skpk, None)).unwrap();
    assert_eq!(key.public_key().unwrap(), vk.to_bytes());
    assert_eq!(&key.secret_key_bytes().unwrap()[..], sk.to_bytes());
    let mut bad = sk.to_bytes().to_vec();
    bad.extend_from_slice(vk2.to_bytes());
    assert_eq!(
        keyfile::decode_private(&one_asymmetric_key(0, &oid, &bad, None)).err(),
        Some(KeyFileError::PublicKeyMismatch)
    );
    // OneAsymmetricKey v2 with publicKey [1]: checked against the private key.
    let v2 = one_asymmetric_key(1, &oid, sk.to_bytes(), Some(vk.to_bytes()));
    assert_eq!(
        keyfile::decode_private_as(alg, &v2)
            .unwrap()
            .public_key()
            .unwrap(),
        vk.to_bytes()
    );
    let v2_bad = one_asymmetric_key(1, &oid, sk.to_bytes(), Some(vk2.to_bytes()));
    assert_eq!(
        keyfile::decode_private(&v2_bad).err(),
        Some(KeyFileError::PublicKeyMismatch)
    );
    // A public key is not allowed in a version-0 structure.
    let v1_with_pk = one_asymmetric_key(0, &oid, sk.to_bytes(), Some(vk.to_bytes()));
    assert_eq!(
        keyfile::decode_private(&v1_with_pk).err(),
        Some(KeyFileError::UnsupportedVersion(0))
    );
    // Wrong private key length.
    assert_eq!(
        keyfile::decode_private(&one_asymmetric_key(0, &oid, &sk.to_bytes()[1..], None)).err(),
        Some(KeyFileError::WrongKeyLength {
            expected: alg.secret_key_len(),
            found: alg.secret_key_len() - 1
        })
    );
}

#[test]
fn invalid_key_content_and_algorithm_mismatch() {
    let ps = mldsa::ParamSet::MlDsa44;
    let alg = Algorithm::MlDsa(ps);
    let sk = mldsa::SigningKey::from_seed(ps, &[9u8; 32]).unwrap();
    let mut expanded = sk.to_expanded_bytes().to_vec();
    // s1 starts after ρ, K, tr (128 bytes); η = 2 packs 3 bits per coefficient and the
    // values 5..7 are out of range: set the first coefficient to 7.
    expanded[128] |= 0x07;
    let der = one_asymmetric_key(
        0,
        &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11],
        &tlv(0x04, &expanded),
        None,
    );
    assert_eq!(
        keyfile::decode_private(&der).err(),
        Some(KeyFileError::Key(pqsig::Error::InvalidKey))
    );
    // A public key file of one algorithm read as another.
    let pk = keyfile::encode_public_der(alg, sk.verifying_key().to_bytes()).unwrap();
    let other = Algorithm::MlDsa(mldsa::ParamSet::MlDsa65);
    assert_eq!(
        keyfile::decode_public_as(other, &pk),
        Err(KeyFileError::AlgorithmMismatch {
            expected: other,
            found: alg
        })
    );
    // Raw bytes of a wrong length.
    assert_eq!(
        keyfile::decode_public_as(alg, &[1, 2, 3]),
        Err(KeyFileError::UnrecognisedFormat)
    );
    assert_eq!(
        keyfile::decode_private_as(alg, &[1, 2, 3]).err(),
        Some(KeyFileError::UnrecognisedFormat)
    );
}
