//! Scheme-level equivalence: on random seeds, messages and contexts, every backend
//! produces byte-identical keys and signatures, and accepts each other's signatures.
//! (Kernel-level equivalence on random inputs lives in the avx2_* test files.)

use pqsig::mldsa::{self, HashAlg, ParamSet, SigningKey, VerifyingKey};
use pqsig::Backend;

mod common;
use common::XorShift;

// A backend this CPU lacks shows as an ignored `coverage` test.
coverage_tests!();

#[test]
fn all_backends_agree_on_random_inputs() {
    let backends: Vec<Backend> = Backend::available().collect();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for ps in ParamSet::ALL {
        for _ in 0..12 {
            let xi: [u8; 32] = rng.bytes(32).try_into().unwrap();
            let mlen = (rng.next() % 300) as usize;
            let msg = rng.bytes(mlen);
            let clen = (rng.next() % 256) as usize;
            let ctx = rng.bytes(clen);
            let rnd: [u8; 32] = rng.bytes(32).try_into().unwrap();
            let mut outs = Vec::new();
            for &b in &backends {
                let (sk, vk) = mldsa::keygen_internal_on(ps, &xi, b).unwrap();
                let sig = sk.sign_with_rnd(&msg, &ctx, &rnd).unwrap();
                let sig_ph = sk
                    .sign_prehash_with_rnd(HashAlg::Sha2_512, &msg, &ctx, &rnd)
                    .unwrap();
                outs.push((
                    vk.to_bytes().to_vec(),
                    sk.to_expanded_bytes().to_vec(),
                    sig,
                    sig_ph,
                ));
            }
            for o in &outs[1..] {
                assert_eq!(o, &outs[0], "{ps:?}: backends disagree");
            }
            // Cross-verification: each backend verifies the common signature; a flipped
            // bit is rejected by all.
            let (pk, sk_bytes, sig, sig_ph) = &outs[0];
            let mut bad = sig.clone();
            let pos = (rng.next() as usize) % bad.len();
            bad[pos] ^= 1 << (rng.next() % 8);
            for &b in &backends {
                let vk = VerifyingKey::from_bytes(ps, pk)
                    .unwrap()
                    .with_backend(b)
                    .unwrap();
                assert_eq!(vk.verify(&msg, &ctx, sig), Ok(()));
                assert_eq!(
                    vk.verify_prehash(HashAlg::Sha2_512, &msg, &ctx, sig_ph),
                    Ok(())
                );
                assert!(vk.verify(&msg, &ctx, &bad).is_err());
                let sk = SigningKey::from_expanded_with_public(ps, sk_bytes, pk)
                    .unwrap()
                    .with_backend(b)
                    .unwrap();
                assert_eq!(sk.seed(), None);
                assert_eq!(&sk.sign_with_rnd(&msg, &ctx, &rnd).unwrap(), sig);
            }
        }
    }
}
