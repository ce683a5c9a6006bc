//! Public keys, signatures and μ of all 27 algorithms, through the algorithm-generic API.
//! Input: alg selector, mode, public key (exactly the algorithm's length, or a 16-bit
//! length prefix when mode bit 2 is set, to reach wrong lengths), signature (32-bit
//! length prefix), context (8-bit length prefix), then the message (or μ).
//! Checks: no panic; a decoded key re-encodes to the bytes it came from.
//! SNOVA: the fuzzed key is decoded and re-encoded, and the fuzzed signature is verified
//! against a cached prepared key of the same set (`pqsig_fuzz::keys`). A SNOVA public key
//! is a seed and packed GF(16) nibbles with no invalid values, and expanding it is ~1 ms
//! of hashing per call that would hold the target to a few hundred runs a second.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig::any::VerifyingKey;
use pqsig_fuzz::{algorithm, keys, Fields};

fuzz_target!(|data: &[u8]| {
    let mut f = Fields::new(data);
    let alg = algorithm(f.byte());
    let mode = f.byte();
    let pk = if mode & 4 == 0 {
        f.take(alg.public_key_len())
    } else {
        f.take_len16()
    };
    let sig = f.take_len32();
    let ctx_len = f.byte() as usize;
    let ctx = f.take(ctx_len);
    let msg = f.rest();
    let Ok(vk) = VerifyingKey::from_bytes(alg, pk) else {
        return;
    };
    assert_eq!(
        vk.to_bytes(),
        pk,
        "{alg}: a decoded public key re-encodes differently"
    );
    if let VerifyingKey::Snova(_) = vk {
        let (_, pvk) = keys::get(alg, mode >> 4)
            .snova
            .as_ref()
            .expect("a SNOVA key");
        let _ = pvk.verify(msg, sig);
        return;
    }
    match mode & 3 {
        0 | 3 => {
            let _ = vk.verify(msg, ctx, sig);
        }
        1 => {
            let _ = vk.verify_mu(msg, sig);
        }
        _ => {
            if let Ok(mu) = vk.compute_mu(msg, ctx) {
                let _ = vk.verify_mu(&mu, sig);
            }
        }
    }
});
