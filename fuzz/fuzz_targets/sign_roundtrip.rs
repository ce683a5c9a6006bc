//! Differential: sign-then-verify round trips for all 27 algorithms from fuzzed seeds,
//! messages and contexts. A key from a seed signs; the signature verifies, has the fixed
//! length where there is one, and stops verifying when the message changes; the keys
//! re-decode from their encodings and sign identically; external μ (ML-DSA) agrees.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig_fuzz::{algorithm, Fields};

fuzz_target!(|data: &[u8]| {
    let mut f = Fields::new(data);
    let alg = algorithm(f.byte());
    let mut seed = vec![0u8; alg.seed_len()];
    let s = f.take(alg.seed_len());
    seed[..s.len()].copy_from_slice(s);
    let ctx_len = f.byte() as usize;
    let ctx = if alg.supports_context() { f.take(ctx_len) } else { &[][..] };
    let msg = f.rest();

    let sk = SigningKey::from_seed(alg, &seed).expect("a seed of the right length");
    let vk = sk.verifying_key();
    let det = alg.supports_deterministic();
    let sign = |k: &SigningKey| {
        if det {
            k.sign_deterministic(msg, ctx)
        } else {
            k.sign(msg, ctx)
        }
    };
    let sig = sign(&sk).expect("signing with a good key");
    if let Some(n) = alg.fixed_signature_len() {
        assert_eq!(sig.len(), n, "{alg}: signature length");
    }
    assert_eq!(vk.verify(msg, ctx, &sig), Ok(()), "{alg}: own signature rejected");
    let mut other = msg.to_vec();
    other.push(0x5a);
    assert!(vk.verify(&other, ctx, &sig).is_err(), "{alg}: signature verifies another message");

    let vk2 = VerifyingKey::from_bytes(alg, vk.to_bytes()).expect("own public key decodes");
    assert_eq!(vk2.verify(msg, ctx, &sig), Ok(()));
    let sk2 = SigningKey::from_bytes(alg, &sk.to_bytes()).expect("own secret key decodes");
    assert_eq!(sk2.verifying_key().to_bytes(), vk.to_bytes());
    if det {
        assert_eq!(sign(&sk2).expect("re-decoded key signs"), sig, "{alg}: not deterministic");
    } else {
        assert_eq!(vk.verify(msg, ctx, &sign(&sk2).expect("re-decoded key signs")), Ok(()));
    }
    if alg.supports_external_mu() {
        // ML-DSA: deterministic signing of μ equals signing the message. FN-DSA signs its
        // 64-byte hash only hedged: that signature verifies both ways.
        let mu = vk.compute_mu(msg, ctx).expect("μ");
        let sig_mu = sk.sign_mu(&mu, det).expect("sign μ");
        if det {
            assert_eq!(sig_mu, sig, "{alg}: signing μ differs from signing the message");
        }
        assert_eq!(vk.verify_mu(&mu, &sig_mu), Ok(()), "{alg}: μ signature rejected");
        assert_eq!(vk.verify(msg, ctx, &sig_mu), Ok(()), "{alg}: μ signature rejected");
    }
});
