//! FN-DSA (DRAFT) against the `fn-dsa` 0.4.0 crate on many random seeds: key generation
//! (every candidate the NTRU solver accepts or rejects must match, so the keys are
//! identical) and signing (the sampler's byte consumption must match, so the
//! signatures are identical), on every backend. `FNDSA_STRESS=k` multiplies the counts.

mod common;

use common::{backends, XorShift};
use fn_dsa::{
    sign_key_size, signature_size, vrfy_key_size, CryptoRng, DomainContext, KeyPairGenerator,
    KeyPairGeneratorStandard, KeyPairGeneratorWeak, RngCore, RngError, SigningKey as _,
    SigningKeyStandard, SigningKeyWeak, HASH_ID_RAW,
};
use pqsig::backend;
use pqsig::falcon::fndsa;

struct Fixed<'a>(&'a [u8]);
impl CryptoRng for Fixed<'_> {}
impl RngCore for Fixed<'_> {
    fn next_u32(&mut self) -> u32 {
        unimplemented!()
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let (a, b) = self.0.split_at(dest.len());
        dest.copy_from_slice(a);
        self.0 = b;
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

fn their_keygen(logn: u32, seed: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut sk = vec![0u8; sign_key_size(logn)];
    let mut vk = vec![0u8; vrfy_key_size(logn)];
    if logn >= 9 {
        Box::<KeyPairGeneratorStandard>::default().keygen(logn, &mut Fixed(seed), &mut sk, &mut vk);
    } else {
        Box::<KeyPairGeneratorWeak>::default().keygen(logn, &mut Fixed(seed), &mut sk, &mut vk);
    }
    (sk, vk)
}

fn their_sign(sk: &[u8], seed: &[u8], msg: &[u8]) -> Vec<u8> {
    let logn = (sk[0] & 0x0F) as u32;
    let mut sig = vec![0u8; signature_size(logn)];
    let ctx = DomainContext(b"");
    if logn >= 9 {
        let mut k = Box::new(SigningKeyStandard::decode(sk).unwrap());
        k.sign(&mut Fixed(seed), &ctx, &HASH_ID_RAW, msg, &mut sig)
            .unwrap();
    } else {
        let mut k = Box::new(SigningKeyWeak::decode(sk).unwrap());
        k.sign(&mut Fixed(seed), &ctx, &HASH_ID_RAW, msg, &mut sig)
            .unwrap();
    }
    sig
}

fn scale() -> usize {
    std::env::var("FNDSA_STRESS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

#[test]
fn keygen_and_signing_match_fn_dsa() {
    let mut rng = XorShift(0x00F1_7D5A);
    let k = scale();
    for logn in 2..=10u32 {
        let keys = k * match logn {
            2..=6 => 40,
            7..=8 => 16,
            9 => 6,
            _ => 3,
        };
        for t in 0..keys {
            let seed = rng.bytes(32);
            let (tsk, tvk) = their_keygen(logn, &seed);
            // Key generation on each backend in turn (the solver and the sampler pick
            // their kernels from the process-wide backend).
            let b = backends()[t % backends().len()];
            backend::set_backend(b).unwrap();
            let (sk, vk) = fndsa::keygen_from_seed(logn, &seed).unwrap();
            assert_eq!(sk.to_bytes(), &tsk[..], "logn {logn} key {t} on {b:?}: sk");
            assert_eq!(vk.to_bytes(), &tvk[..], "logn {logn} key {t} on {b:?}: vk");
            for b in backends() {
                let sk = fndsa::SigningKey::from_bytes(&tsk)
                    .unwrap()
                    .with_backend(b)
                    .unwrap();
                for _ in 0..3 {
                    let msg = rng.bytes(17);
                    let rnd = rng.bytes(40);
                    let ours = sk.sign_with_seed(&msg, b"", &rnd).unwrap();
                    assert_eq!(
                        ours,
                        their_sign(&tsk, &rnd, &msg),
                        "logn {logn} key {t} on {b:?}: signature"
                    );
                }
            }
        }
    }
    backend::set_backend(backend::Backend::detect()).unwrap();
}
