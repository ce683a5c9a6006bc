//! FN-DSA (DRAFT: the putative FIPS 206 of the `fn-dsa` 0.4.0 crate) against the 90
//! vectors of `falcon/fn-dsa-0.4.0/fndsa-0.4.0-kat.jsonl` (logn 2..=10, j = 0..=9).
//!
//! For every vector, on every available backend:
//! * verification of the vector's signature (pure for even j, SHA3-256 pre-hash for odd
//!   j, and through external μ), μ itself, and rejection of altered inputs;
//! * decoding the signing key gives back the verifying key;
//! * signing with `seed_sign` gives the vector's signature byte for byte;
//! * key generation from `seed_kgen` gives the vector's sk and vk byte for byte.

mod common;

use common::{backends, field_hex, vectors_dir};
use pqsig::falcon::fndsa::{self, SigningKey, VerifyingKey};
use pqsig::mldsa::prehash::HashAlg;

struct Vector {
    logn: u32,
    j: u32,
    prehash: bool,
    seed_kgen: Vec<u8>,
    seed_sign: Vec<u8>,
    ctx: Vec<u8>,
    input: Vec<u8>,
    mu: Vec<u8>,
    sk: Vec<u8>,
    vk: Vec<u8>,
    sig: Vec<u8>,
}

fn vectors() -> Vec<Vector> {
    let p = vectors_dir().join("falcon/fn-dsa-0.4.0/fndsa-0.4.0-kat.jsonl");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let out: Vec<Vector> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let hash_id = v["hash_id"].as_str().unwrap().to_string();
            assert!(hash_id == "raw" || hash_id == "sha3-256", "{hash_id}");
            if hash_id == "sha3-256" {
                assert_eq!(field_hex(&v, "hash_oid"), HashAlg::Sha3_256.oid_der());
            }
            Vector {
                logn: v["logn"].as_u64().unwrap() as u32,
                j: v["j"].as_u64().unwrap() as u32,
                prehash: hash_id != "raw",
                seed_kgen: field_hex(&v, "seed_kgen"),
                seed_sign: field_hex(&v, "seed_sign"),
                ctx: field_hex(&v, "ctx"),
                input: field_hex(&v, "input"),
                mu: field_hex(&v, "mu"),
                sk: field_hex(&v, "sk"),
                vk: field_hex(&v, "vk"),
                sig: field_hex(&v, "sig"),
            }
        })
        .collect();
    assert_eq!(out.len(), 90);
    out
}

#[test]
fn fndsa_kat_verify_all_90() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(fndsa_kat_verify_all_90_once);
}

fn fndsa_kat_verify_all_90_once() {
    let vs = vectors();
    for b in backends() {
        for v in &vs {
            let what = format!("[{}] logn {} j {}", b.name(), v.logn, v.j);
            let vk = VerifyingKey::from_bytes(&v.vk)
                .unwrap()
                .with_backend(b)
                .unwrap();
            assert_eq!(vk.logn(), v.logn);
            assert_eq!(vk.to_bytes(), &v.vk[..]);
            let mu = if v.prehash {
                fndsa::compute_mu_prehashed(vk.hashed_key(), &v.ctx, HashAlg::Sha3_256, &v.input)
                    .unwrap()
            } else {
                vk.compute_mu(&v.input, &v.ctx).unwrap()
            };
            assert_eq!(&mu[..], &v.mu[..], "{what}: mu");
            if v.prehash {
                vk.verify_prehashed(HashAlg::Sha3_256, &v.input, &v.ctx, &v.sig)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                // The message the digest came from.
                vk.verify_prehash(HashAlg::Sha3_256, b"message", &v.ctx, &v.sig)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
            } else {
                vk.verify(&v.input, &v.ctx, &v.sig)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
            }
            vk.verify_mu(&v.mu, &v.sig)
                .unwrap_or_else(|e| panic!("{what}: {e}"));

            // Altered inputs fail.
            assert!(vk.verify(b"massage", &v.ctx, &v.sig).is_err(), "{what}");
            assert!(vk.verify(&v.input, b"domaim", &v.sig).is_err(), "{what}");
            let mut bad = v.sig.clone();
            bad[1] ^= 1; // nonce
            assert_eq!(
                vk.verify_mu(&v.mu, &bad),
                Err(pqsig::Error::VerificationFailed),
                "{what}"
            );
            let mut bad = v.sig.clone();
            bad[0] ^= 1; // header
            assert_eq!(
                vk.verify_mu(&v.mu, &bad),
                Err(pqsig::Error::InvalidSignature),
                "{what}"
            );
            assert!(
                vk.verify_mu(&v.mu, &v.sig[..v.sig.len() - 1]).is_err(),
                "{what}"
            );
            // The padding byte at the end must stay zero.
            let mut bad = v.sig.clone();
            let last = bad.len() - 1;
            if bad[last] == 0 {
                bad[last] = 0x80;
                assert_eq!(
                    vk.verify_mu(&v.mu, &bad),
                    Err(pqsig::Error::InvalidSignature),
                    "{what}"
                );
            }
        }
    }
}

#[test]
fn fndsa_kat_signing_key_decodes_to_vk() {
    for v in &vectors() {
        let sk = SigningKey::from_bytes(&v.sk).unwrap();
        assert_eq!(sk.logn(), v.logn);
        assert_eq!(sk.to_bytes(), &v.sk[..]);
        assert_eq!(
            sk.verifying_key().to_bytes(),
            &v.vk[..],
            "logn {} j {}",
            v.logn,
            v.j
        );
        assert_eq!(sk.hashed_verifying_key(), &fndsa::hash_vrfy_key(&v.vk));
    }
}

#[test]
fn fndsa_kat_sign_byte_exact() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(fndsa_kat_sign_byte_exact_once);
}

fn fndsa_kat_sign_byte_exact_once() {
    let vs = vectors();
    for b in backends() {
        let mut bad = Vec::new();
        for v in &vs {
            let sk = SigningKey::from_bytes(&v.sk)
                .unwrap()
                .with_backend(b)
                .unwrap();
            let sig = if v.prehash {
                sk.sign_prehashed_with_seed(HashAlg::Sha3_256, &v.input, &v.ctx, &v.seed_sign)
            } else {
                sk.sign_with_seed(&v.input, &v.ctx, &v.seed_sign)
            }
            .unwrap();
            // External μ gives the same signature.
            assert_eq!(sk.sign_mu_with_seed(&v.mu, &v.seed_sign).unwrap(), sig);
            if sig != v.sig {
                bad.push((v.logn, v.j));
            }
            // Whatever the bytes, our signature verifies.
            sk.verifying_key().verify_mu(&v.mu, &sig).unwrap();
        }
        assert!(
            bad.is_empty(),
            "[{}] signatures differ for (logn, j) = {bad:?}",
            b.name()
        );
    }
}

#[test]
fn fndsa_kat_keygen_byte_exact() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(fndsa_kat_keygen_byte_exact_once);
}

fn fndsa_kat_keygen_byte_exact_once() {
    let vs = vectors();
    let mut bad = Vec::new();
    for v in &vs {
        let (sk, vk) = fndsa::keygen_from_seed(v.logn, &v.seed_kgen).unwrap();
        if sk.to_bytes() != &v.sk[..] || vk.to_bytes() != &v.vk[..] {
            bad.push((v.logn, v.j));
        }
    }
    assert!(bad.is_empty(), "keys differ for (logn, j) = {bad:?}");
}

/// Malformed keys and signatures are typed errors, never panics: wrong lengths and
/// headers, out-of-range key values, the forbidden `-2^(w-1)` code, non-invertible f,
/// random bytes, and non-canonical signature encodings.
#[test]
fn fndsa_malformed_inputs_are_errors() {
    use pqsig::Error;
    let vs = vectors();
    let mut rng = common::XorShift(0xF0F0_1234);
    for v in vs.iter().filter(|v| v.j < 2) {
        let what = format!("logn {} j {}", v.logn, v.j);
        // Verifying key: every truncation and extension, wrong headers, a value >= q.
        for len in [0, 1, v.vk.len() - 1, v.vk.len() + 1] {
            let mut b = v.vk.clone();
            b.resize(len, 0);
            assert_eq!(
                VerifyingKey::from_bytes(&b).err(),
                Some(Error::InvalidKey),
                "{what}"
            );
        }
        for head in [
            0x01u8,
            0x0B,
            0x0F,
            0x10,
            0x50 + v.logn as u8,
            0x80 | v.logn as u8,
        ] {
            let mut b = v.vk.clone();
            b[0] = head;
            if head as u32 != v.logn {
                assert!(
                    VerifyingKey::from_bytes(&b).is_err(),
                    "{what}: head {head:#x}"
                );
            }
        }
        assert!(VerifyingKey::from_bytes_logn(v.logn ^ 1, &v.vk).is_err());
        let mut b = v.vk.clone();
        b[1] = 0xFF;
        b[2] |= 0x3F; // first value = 0x3FFF >= q
        assert_eq!(
            VerifyingKey::from_bytes(&b).err(),
            Some(Error::InvalidKey),
            "{what}"
        );

        // Signing key: lengths, header, forbidden code, non-invertible f (f = 0).
        for len in [0, 1, v.sk.len() - 1, v.sk.len() + 1] {
            let mut b = v.sk.clone();
            b.resize(len, 0);
            assert_eq!(
                SigningKey::from_bytes(&b).err(),
                Some(Error::InvalidKey),
                "{what}"
            );
        }
        let mut b = v.sk.clone();
        b[0] = 0x40 + v.logn as u8;
        assert!(SigningKey::from_bytes(&b).is_err(), "{what}");
        let bits = fndsa::params::fg_bits(v.logn) as usize;
        let n = 1usize << v.logn;
        let mut b = v.sk.clone();
        // f_0 = -2^(bits-1): low `bits` bits of the first byte(s) = 100..0.
        let code = 1u32 << (bits - 1);
        let w = (b[1] as u32 | (b[2] as u32) << 8) & !((1u32 << bits) - 1) | code;
        b[1] = w as u8;
        b[2] = (w >> 8) as u8;
        assert_eq!(
            SigningKey::from_bytes(&b).err(),
            Some(Error::InvalidKey),
            "{what}"
        );
        let mut b = v.sk.clone();
        for x in b[1..1 + bits * n / 8].iter_mut() {
            *x = 0;
        }
        assert_eq!(
            SigningKey::from_bytes(&b).err(),
            Some(Error::InvalidKey),
            "{what}: f = 0"
        );
        // F altered: G almost surely leaves [-127, 127] (or the key is merely different);
        // either way no panic.
        let mut b = v.sk.clone();
        b[1 + 2 * bits * n / 8] ^= 0x55;
        let _ = SigningKey::from_bytes(&b);

        // Random bytes of the right lengths.
        for _ in 0..20 {
            let mut b = rng.bytes(v.vk.len());
            b[0] = v.logn as u8;
            let _ = VerifyingKey::from_bytes(&b);
            let mut b = rng.bytes(v.sk.len());
            b[0] = 0x50 + v.logn as u8;
            let _ = SigningKey::from_bytes(&b);
        }

        // Signatures: random bodies, all-ones, "-0", trailing garbage, wrong lengths.
        let vk = VerifyingKey::from_bytes(&v.vk).unwrap();
        for _ in 0..50 {
            let mut s = rng.bytes(v.sig.len());
            s[0] = 0x30 + v.logn as u8;
            assert!(vk.verify_mu(&v.mu, &s).is_err(), "{what}");
        }
        let mut s = vec![0xFFu8; v.sig.len()];
        s[0] = 0x30 + v.logn as u8;
        assert_eq!(
            vk.verify_mu(&v.mu, &s),
            Err(Error::InvalidSignature),
            "{what}"
        );
        let mut s = v.sig.clone();
        s[41] |= 0x01; // sign bit of s2[0]
        s[41] &= 0x01; // magnitude low bits 0
        let _ = vk.verify_mu(&v.mu, &s);
        let mut s = vec![0u8; v.sig.len()];
        s[0] = 0x30 + v.logn as u8;
        s[41] = 0x01; // "-0" then nothing: invalid
        assert_eq!(
            vk.verify_mu(&v.mu, &s),
            Err(Error::InvalidSignature),
            "{what}"
        );
        let mut s = v.sig.clone();
        s.push(0);
        assert_eq!(
            vk.verify_mu(&v.mu, &s),
            Err(Error::InvalidSignature),
            "{what}"
        );
        assert_eq!(
            vk.verify_mu(&v.mu, &[]),
            Err(Error::InvalidSignature),
            "{what}"
        );
        assert_eq!(
            vk.verify_mu(&v.mu[..63], &v.sig),
            Err(Error::InvalidLength),
            "{what}"
        );
        // Context too long.
        assert_eq!(
            vk.verify(b"m", &[0u8; 256], &v.sig),
            Err(Error::ContextTooLong)
        );
        // Prehashed digest of the wrong length.
        assert_eq!(
            vk.verify_prehashed(HashAlg::Sha3_256, &[0u8; 31], &v.ctx, &v.sig),
            Err(Error::InvalidLength)
        );
        // Signing-side argument checks.
        let sk = SigningKey::from_bytes(&v.sk).unwrap();
        assert_eq!(
            sk.sign_with_seed(b"m", b"", &[0u8; 39]).err(),
            Some(Error::InvalidLength)
        );
        assert_eq!(
            sk.sign_mu_with_seed(&[0u8; 63], &[0u8; 40]).err(),
            Some(Error::InvalidLength)
        );
        assert_eq!(
            sk.sign_with_seed(b"m", &[0u8; 256], &[0u8; 40]).err(),
            Some(Error::ContextTooLong)
        );
    }
    assert_eq!(
        fndsa::keygen_from_seed(11, &[0u8; 32]).err(),
        Some(pqsig::Error::Unsupported)
    );
    assert_eq!(
        fndsa::keygen_from_seed(1, &[0u8; 32]).err(),
        Some(pqsig::Error::Unsupported)
    );
    assert_eq!(
        fndsa::keygen_from_seed(9, &[0u8; 31]).err(),
        Some(pqsig::Error::InvalidLength)
    );
}
