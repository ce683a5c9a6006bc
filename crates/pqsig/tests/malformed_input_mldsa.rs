//! Bad input never panics: random and truncated keys, signatures, μ and seeds give typed
//! errors. (A bounded random sweep; the CLI tests cover files.)

use pqsig::mldsa::{HashAlg, ParamSet, SigningKey, VerifyingKey};
use pqsig::Error;

mod common;
use common::XorShift;

#[test]
fn malformed_keys_and_signatures_are_typed_errors() {
    let mut rng = XorShift(0xDEAD_BEEF_1234_5678);
    for ps in ParamSet::ALL {
        let (sk, vk) = pqsig::mldsa::keygen_internal(ps, &[3u8; 32]);
        let msg = b"message";
        let sig = sk.sign_deterministic(msg, b"").unwrap();

        // Wrong lengths everywhere.
        for delta in [-1i64, 1, -(ps.signature_len() as i64)] {
            let n = (ps.public_key_len() as i64 + delta).max(0) as usize;
            assert_eq!(
                VerifyingKey::from_bytes(ps, &rng.bytes(n)).err(),
                Some(Error::InvalidKey)
            );
            let n = (ps.secret_key_len() as i64 + delta).max(0) as usize;
            assert_eq!(
                SigningKey::from_expanded(ps, &rng.bytes(n)).err(),
                Some(Error::InvalidKey)
            );
            let n = (ps.signature_len() as i64 + delta).max(0) as usize;
            let mut s = sig.clone();
            s.resize(n, 0);
            assert_eq!(vk.verify(msg, b"", &s), Err(Error::InvalidSignature));
        }
        assert_eq!(
            SigningKey::from_seed(ps, &[0u8; 31]).err(),
            Some(Error::InvalidLength)
        );
        assert_eq!(
            sk.sign_mu(&[0u8; 63], &[0; 32]).err(),
            Some(Error::InvalidLength)
        );
        assert_eq!(
            vk.verify_mu(&[0u8; 65], &sig).err(),
            Some(Error::InvalidLength)
        );
        assert_eq!(
            sk.sign_deterministic(msg, &[0u8; 256]).err(),
            Some(Error::ContextTooLong)
        );
        assert_eq!(
            vk.verify(msg, &[0u8; 256], &sig).err(),
            Some(Error::ContextTooLong)
        );
        assert_eq!(
            sk.sign_prehashed_with_rnd(HashAlg::Sha2_256, &[0u8; 31], b"", &[0; 32])
                .err(),
            Some(Error::InvalidLength)
        );

        // Random bytes of the right length: keys load or fail cleanly; signatures never
        // verify and never panic.
        for _ in 0..200 {
            let r = rng.bytes(ps.signature_len());
            assert!(vk.verify(msg, b"", &r).is_err());
            let _ = SigningKey::from_expanded(ps, &rng.bytes(ps.secret_key_len()));
            if let Ok(k) = VerifyingKey::from_bytes(ps, &rng.bytes(ps.public_key_len())) {
                assert!(k.verify(msg, b"", &sig).is_err());
            }
        }
        // Single bit flips anywhere in a valid signature are rejected.
        for _ in 0..200 {
            let mut s = sig.clone();
            let pos = (rng.next() as usize) % s.len();
            s[pos] ^= 1 << (rng.next() % 8);
            let r = vk.verify(msg, b"", &s);
            assert!(
                matches!(
                    r,
                    Err(Error::VerificationFailed) | Err(Error::InvalidSignature)
                ),
                "{r:?}"
            );
        }
        // An expanded key with an out-of-range s1 coefficient is rejected.
        let mut bad = sk.to_expanded_bytes().to_vec();
        bad[128] = 0xFF;
        assert_eq!(
            SigningKey::from_expanded(ps, &bad).err(),
            Some(Error::InvalidKey)
        );
        // A consistent key with the wrong tr is rejected when the public key is given.
        let mut bad = sk.to_expanded_bytes().to_vec();
        bad[64] ^= 1;
        assert!(SigningKey::from_expanded(ps, &bad).is_ok());
        assert_eq!(
            SigningKey::from_expanded_with_public(ps, &bad, vk.to_bytes()).err(),
            Some(Error::InvalidKey)
        );
        // A t0 that does not match t is rejected too.
        let mut bad = sk.to_expanded_bytes().to_vec();
        let last = bad.len() - 1;
        bad[last] ^= 0x10;
        assert_eq!(
            SigningKey::from_expanded_with_public(ps, &bad, vk.to_bytes()).err(),
            Some(Error::InvalidKey)
        );
    }
}

#[test]
fn mu_from_public_key_matches_tr_path() {
    let (_, vk) = pqsig::mldsa::keygen_internal(ParamSet::MlDsa87, &[9u8; 32]);
    let a = pqsig::mldsa::compute_mu_from_public_key(vk.to_bytes(), b"ctx", b"msg").unwrap();
    assert_eq!(a, vk.compute_mu(b"msg", b"ctx").unwrap());
    assert_eq!(
        pqsig::mldsa::compute_mu(vk.tr(), b"ctx", b"msg").unwrap(),
        a
    );
    assert_eq!(
        pqsig::mldsa::compute_mu_from_public_key(vk.to_bytes(), &[0u8; 256], b"msg").err(),
        Some(Error::ContextTooLong)
    );
    // Streaming μ equals one-shot μ.
    let mut h = pqsig::mldsa::MuHasher::new(vk.tr(), b"ctx").unwrap();
    h.update(b"m");
    h.update(b"sg");
    assert_eq!(h.finalize(), a);
}
