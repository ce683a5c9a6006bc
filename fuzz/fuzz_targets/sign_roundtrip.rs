//! Differential: sign-then-verify round trips for all 27 algorithms on messages and
//! contexts from the fuzzer, with cached keys (`pqsig_fuzz::keys`: four per algorithm,
//! each checked once for re-decoding). Input: alg selector, key index, context (8-bit
//! length prefix), then the message.
//! Checks: the signature verifies, has the fixed length where there is one, and stops
//! verifying when the message changes; ML-DSA's deterministic signing of μ equals signing
//! the message (FN-DSA signs μ hedged: that signature verifies both ways); SNOVA signs and
//! verifies through its expanded and prepared keys, and the plain key accepts the result.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig::any::SigningKey;
use pqsig_fuzz::{algorithm, keys, Fields};

fuzz_target!(|data: &[u8]| {
    let mut f = Fields::new(data);
    let alg = algorithm(f.byte());
    let k = keys::get(alg, f.byte());
    let ctx_len = f.byte() as usize;
    let ctx = if alg.supports_context() {
        f.take(ctx_len)
    } else {
        &[][..]
    };
    let msg = f.rest();
    let mut other = msg.to_vec();
    other.push(0x5a);

    if let Some((esk, pvk)) = &k.snova {
        let sig = esk.sign(msg).expect("signing with a good key");
        assert_eq!(
            Some(sig.len()),
            alg.fixed_signature_len(),
            "{alg}: signature length"
        );
        assert_eq!(
            pvk.verify(msg, &sig),
            Ok(()),
            "{alg}: own signature rejected"
        );
        assert!(
            pvk.verify(&other, &sig).is_err(),
            "{alg}: signature verifies another message"
        );
        if msg.len() % 16 == 0 {
            // The plain key (expansion on every call) now and then, to tie both paths.
            assert_eq!(
                k.vk.verify(msg, ctx, &sig),
                Ok(()),
                "{alg}: plain key rejects"
            );
        }
        return;
    }

    let det = alg.supports_deterministic();
    let sign = |k: &SigningKey| {
        if det {
            k.sign_deterministic(msg, ctx)
        } else {
            k.sign(msg, ctx)
        }
    };
    let sig = sign(&k.sk).expect("signing with a good key");
    if let Some(n) = alg.fixed_signature_len() {
        assert_eq!(sig.len(), n, "{alg}: signature length");
    }
    assert_eq!(
        k.vk.verify(msg, ctx, &sig),
        Ok(()),
        "{alg}: own signature rejected"
    );
    assert!(
        k.vk.verify(&other, ctx, &sig).is_err(),
        "{alg}: signature verifies another message"
    );
    if alg.supports_external_mu() {
        let mu = k.vk.compute_mu(msg, ctx).expect("μ");
        let sig_mu = k.sk.sign_mu(&mu, det).expect("sign μ");
        if det {
            assert_eq!(
                sig_mu, sig,
                "{alg}: signing μ differs from signing the message"
            );
        }
        assert_eq!(
            k.vk.verify_mu(&mu, &sig_mu),
            Ok(()),
            "{alg}: μ signature rejected"
        );
        assert_eq!(
            k.vk.verify(msg, ctx, &sig_mu),
            Ok(()),
            "{alg}: μ signature rejected"
        );
    }
});
