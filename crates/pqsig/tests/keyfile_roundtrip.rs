//! Key files: round trips for every algorithm (DER and PEM, public and private, every
//! ML-DSA private-key form), known answers for ML-DSA, and format detection.

use pqsig::keyfile::{self, Encoding, KeyFileError, MlDsaForm};
use pqsig::{falcon, mldsa, Algorithm};

/// (secret key in the library's encoding or, for ML-DSA, the seed; public key).
fn keygen(alg: Algorithm) -> (Vec<u8>, Vec<u8>) {
    let sk = pqsig::any::SigningKey::generate(alg).unwrap();
    let secret = match &sk {
        pqsig::any::SigningKey::MlDsa(k) => k.seed().unwrap().to_vec(),
        _ => sk.to_bytes().to_vec(),
    };
    (secret, sk.verifying_key().to_bytes().to_vec())
}

#[test]
fn every_algorithm_round_trips_in_der_and_pem() {
    for &alg in Algorithm::ALL {
        let (sk, pk) = keygen(alg);

        let der = keyfile::encode_public_der(alg, &pk).unwrap();
        let pem = keyfile::encode_public_pem(alg, &pk).unwrap();
        assert_eq!(keyfile::detect(&der), Encoding::Der);
        assert_eq!(keyfile::detect(pem.as_bytes()), Encoding::Pem);
        assert_eq!(keyfile::detect(&pk), Encoding::Raw, "{alg}");
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        assert!(pem.lines().all(|l| l.len() <= 64));
        assert_eq!(
            keyfile::decode_public(&der).unwrap(),
            (alg, pk.clone()),
            "{alg}"
        );
        assert_eq!(
            keyfile::decode_public(pem.as_bytes()).unwrap(),
            (alg, pk.clone())
        );
        assert_eq!(keyfile::decode_public_as(alg, &pk).unwrap(), pk);
        assert_eq!(keyfile::decode_public_as(alg, &der).unwrap(), pk);
        // Raw bytes carry no algorithm, so decode_public refuses them: as unrecognised, or
        // with the DER error when they start like a DER SEQUENCE (0x30), which a random
        // key does one time in 256 (this assertion once flaked on exactly that).
        match keyfile::decode_public(&pk) {
            Err(KeyFileError::Der(_)) if pk[0] == 0x30 => {}
            r => assert_eq!(r, Err(KeyFileError::UnrecognisedFormat), "{alg}"),
        }

        let forms: &[MlDsaForm] = match alg {
            Algorithm::MlDsa(_) => &[MlDsaForm::Seed, MlDsaForm::Expanded, MlDsaForm::Both],
            _ => &[MlDsaForm::Seed],
        };
        for &form in forms {
            let der = keyfile::encode_private_der(alg, &sk, form).unwrap();
            let pem = keyfile::encode_private_pem(alg, &sk, form).unwrap();
            assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
            for key in [
                keyfile::decode_private(&der).unwrap(),
                keyfile::decode_private(pem.as_bytes()).unwrap(),
            ] {
                assert_eq!(key.algorithm(), alg);
                assert_eq!(key.public_key().unwrap(), pk, "{alg} {form:?}");
                let secret = key.secret_key_bytes().unwrap();
                assert_eq!(secret.len(), alg.secret_key_len());
                if let Algorithm::MlDsa(_) = alg {
                    assert_eq!(key.seed().is_some(), form != MlDsaForm::Expanded);
                    let signer = key.mldsa_signing_key().unwrap();
                    let sig = signer.sign(b"key file", b"ctx").unwrap();
                    let (_, vk) =
                        keyfile::decode_public(&keyfile::encode_public_der(alg, &pk).unwrap())
                            .unwrap();
                    let vk = mldsa::VerifyingKey::from_bytes(signer.param_set(), &vk).unwrap();
                    assert_eq!(vk.verify(b"key file", b"ctx", &sig), Ok(()));
                } else {
                    assert_eq!(&secret[..], &sk[..]);
                }
            }
            // Re-encoding what was read gives the same bytes.
            let again = keyfile::decode_private(&der).unwrap();
            let src = again
                .seed()
                .map(|s| s.to_vec())
                .unwrap_or_else(|| again.secret_key_bytes().unwrap().to_vec());
            assert_eq!(
                &keyfile::encode_private_der(alg, &src, form).unwrap()[..],
                &der[..]
            );
            assert_eq!(
                keyfile::decode_private_as(alg, &der)
                    .unwrap()
                    .public_key()
                    .unwrap(),
                pk
            );
        }
        // Raw private keys (library encoding; for ML-DSA also the seed).
        assert_eq!(
            keyfile::decode_private_as(alg, &sk)
                .unwrap()
                .public_key()
                .unwrap(),
            pk
        );
    }
}

#[test]
fn ml_dsa_seed_form_known_answers() {
    // PKCS#8 seed form for ξ = 00 01 .. 1f (the example seed of RFC 9881's appendix):
    // SEQUENCE { INTEGER 0, SEQUENCE { OID id-ml-dsa-* }, OCTET STRING { [0] ξ } }.
    let seed: Vec<u8> = (0u8..32).collect();
    for (ps, last, b64) in [
        (
            mldsa::ParamSet::MlDsa44,
            0x11,
            "MDQCAQAwCwYJYIZIAWUDBAMRBCKAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f",
        ),
        (
            mldsa::ParamSet::MlDsa65,
            0x12,
            "MDQCAQAwCwYJYIZIAWUDBAMSBCKAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f",
        ),
        (
            mldsa::ParamSet::MlDsa87,
            0x13,
            "MDQCAQAwCwYJYIZIAWUDBAMTBCKAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4f",
        ),
    ] {
        let alg = Algorithm::MlDsa(ps);
        let mut want = vec![
            0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
            0x03, 0x04, 0x03, last, 0x04, 0x22, 0x80, 0x20,
        ];
        want.extend_from_slice(&seed);
        let der = keyfile::encode_private_der(alg, &seed, MlDsaForm::Seed).unwrap();
        assert_eq!(&der[..], &want[..]);
        let pem = keyfile::encode_private_pem(alg, &seed, MlDsaForm::Seed).unwrap();
        let (l1, l2) = b64.split_at(64); // 64-character lines
        assert_eq!(
            pem.as_str(),
            format!("-----BEGIN PRIVATE KEY-----\n{l1}\n{l2}\n-----END PRIVATE KEY-----\n")
        );
        // The public key file: SEQUENCE { SEQUENCE { OID }, BIT STRING { 00 pk } }.
        let sk = mldsa::SigningKey::from_seed(ps, &seed).unwrap();
        let pk = sk.verifying_key().to_bytes().to_vec();
        let spki = keyfile::encode_public_der(alg, &pk).unwrap();
        let n = pk.len() + 1;
        let mut head = vec![0x30, 0x82];
        head.extend_from_slice(&((n + 4 + 13) as u16).to_be_bytes());
        head.extend_from_slice(&[
            0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, last, 0x03,
            0x82,
        ]);
        head.extend_from_slice(&(n as u16).to_be_bytes());
        head.push(0);
        assert_eq!(&spki[..head.len()], &head[..]);
        assert_eq!(&spki[head.len()..], &pk[..]);
        // Expanded and both forms carry skEncode.
        let exp = keyfile::encode_private_der(alg, &seed, MlDsaForm::Expanded).unwrap();
        assert!(exp.ends_with(&sk.to_expanded_bytes()));
        let both = keyfile::encode_private_der(alg, &seed, MlDsaForm::Both).unwrap();
        assert!(both
            .windows(34)
            .any(|w| w[..2] == [0x04, 0x20] && w[2..] == seed[..]));
    }
}

#[test]
fn ml_dsa_key_objects_and_form_rules() {
    let ps = mldsa::ParamSet::MlDsa65;
    let alg = Algorithm::MlDsa(ps);
    let (sk, _) = mldsa::keygen(ps).unwrap();
    let seedless = mldsa::SigningKey::from_expanded(ps, &sk.to_expanded_bytes()).unwrap();
    assert!(keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Both).is_ok());
    assert!(keyfile::encode_mldsa_private_der(&seedless, MlDsaForm::Expanded).is_ok());
    assert_eq!(
        keyfile::encode_mldsa_private_der(&seedless, MlDsaForm::Seed).err(),
        Some(KeyFileError::SeedUnavailable)
    );
    assert_eq!(
        keyfile::encode_private_der(alg, &sk.to_expanded_bytes(), MlDsaForm::Both).err(),
        Some(KeyFileError::SeedUnavailable)
    );
    // A file of one algorithm asked for as another.
    let der = keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Seed).unwrap();
    let other = Algorithm::MlDsa(mldsa::ParamSet::MlDsa44);
    assert_eq!(
        keyfile::decode_private_as(other, &der).err(),
        Some(KeyFileError::AlgorithmMismatch {
            expected: other,
            found: alg
        })
    );
}

#[test]
fn provisional_oids_are_marked() {
    for &alg in Algorithm::ALL {
        assert_eq!(
            keyfile::oid_is_provisional(alg),
            !matches!(alg, Algorithm::MlDsa(_))
        );
    }
    assert_eq!(
        keyfile::oid_string(Algorithm::MlDsa(mldsa::ParamSet::MlDsa44)),
        "2.16.840.1.101.3.4.3.17"
    );
    assert_eq!(
        keyfile::oid_string(Algorithm::Falcon(falcon::ParamSet::Falcon512)),
        "1.3.9999.3.11"
    );
    assert_eq!(
        keyfile::oid_string(Algorithm::Falcon(falcon::ParamSet::Falcon1024)),
        "1.3.9999.3.14"
    );
}

/// `encode_signing_key_*` and `PrivateKey::signing_key` round-trip a generic key of every
/// family; ML-DSA keeps its seed through the file, and a seedless ML-DSA key can only be
/// written in the expanded form.
#[test]
fn generic_signing_keys_round_trip_through_pkcs8() {
    use pqsig::any;
    for name in ["ML-DSA-44", "Falcon-512", "FN-DSA-512", "SNOVA_I_S"] {
        let alg = Algorithm::from_name(name).unwrap();
        let seed = vec![9u8; alg.seed_len()];
        let sk = any::SigningKey::from_seed(alg, &seed).unwrap();
        let pem = keyfile::encode_signing_key_pem(&sk, MlDsaForm::Seed).unwrap();
        let der = keyfile::encode_signing_key_der(&sk, MlDsaForm::Seed).unwrap();
        for back in [
            keyfile::decode_private(pem.as_bytes()).unwrap(),
            keyfile::decode_private(&der).unwrap(),
        ] {
            assert_eq!(back.algorithm(), alg, "{name}");
            let k = back.signing_key().unwrap();
            assert_eq!(&k.to_bytes()[..], &sk.to_bytes()[..], "{name}");
            assert_eq!(k.verifying_key().to_bytes(), sk.verifying_key().to_bytes());
        }
        if let any::SigningKey::MlDsa(_) = sk {
            let back = keyfile::decode_private(&der).unwrap();
            assert_eq!(back.seed(), Some(&seed[..]));
            let seedless = any::SigningKey::from_bytes(alg, &sk.to_bytes()).unwrap();
            assert!(matches!(
                keyfile::encode_signing_key_der(&seedless, MlDsaForm::Seed),
                Err(keyfile::KeyFileError::SeedUnavailable)
            ));
            let exp = keyfile::encode_signing_key_der(&seedless, MlDsaForm::Expanded).unwrap();
            let k = keyfile::decode_private(&exp)
                .unwrap()
                .signing_key()
                .unwrap();
            assert_eq!(&k.to_bytes()[..], &sk.to_bytes()[..]);
        }
    }
}
