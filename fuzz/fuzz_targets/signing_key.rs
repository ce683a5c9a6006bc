//! Secret keys of all 27 algorithms (the secret-key codecs) and seeds of the wrong
//! length. Input: alg selector, mode, key bytes (exactly the algorithm's secret-key
//! length, or a 32-bit length prefix when mode bit 2 is set), then a message. A key that
//! decodes must also give its verifying key, re-encode, and sign (mode bit 0) without
//! panicking; a fuzzed key need not be consistent, so its signature is not checked.
//! A SNOVA secret key is two seeds and a public-key hash with no invalid values: it is
//! decoded and re-encoded but not signed with (signing re-expands it, ~1 ms of hashing,
//! and signing from seeds is `sign_roundtrip`'s). Seed-length input reaches key generation
//! only for ML-DSA (see the body).
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig::any::SigningKey;
use pqsig::Algorithm;
use pqsig_fuzz::{algorithm, Fields};

fuzz_target!(|data: &[u8]| {
    let mut f = Fields::new(data);
    let alg = algorithm(f.byte());
    let mode = f.byte();
    let bytes = if mode & 4 == 0 {
        f.take(alg.secret_key_len())
    } else {
        f.take_len32()
    };
    let msg = f.rest();
    if mode & 8 != 0 {
        // A seed of the wrong length must be refused; the right length is sign_roundtrip's.
        if bytes.len() != alg.seed_len() {
            assert!(SigningKey::from_seed(alg, bytes).is_err());
        }
        return;
    }
    if bytes.len() == alg.seed_len()
        && bytes.len() != alg.secret_key_len()
        && !matches!(alg, Algorithm::MlDsa(_))
    {
        // The seed form: `from_bytes` runs key generation on it, and every string of the
        // seed length is a seed, so there is nothing to decode. Falcon/FN-DSA key
        // generation (the NTRU solver, milliseconds under instrumentation) and SNOVA's
        // expansion held this target to ~200 executions/s; those key generations are
        // covered by the KATs. ML-DSA's, a few microseconds, stays.
        return;
    }
    let Ok(sk) = SigningKey::from_bytes(alg, bytes) else {
        return;
    };
    let _vk = sk.verifying_key();
    let _ = sk.to_bytes();
    if mode & 1 != 0 && !matches!(sk, SigningKey::Snova(_)) {
        let _ = if alg.supports_deterministic() {
            sk.sign_deterministic(msg, b"")
        } else {
            sk.sign(msg, b"")
        };
    }
});
