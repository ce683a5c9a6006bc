//! `oqs` (liboqs Rust bindings; liboqs built from the vendored sources as a "distributable"
//! build, which picks the pq-crystals AVX2 ML-DSA code at run time when the CPU has it):
//! `Sig::keypair`, `Sig::sign_with_ctx_str`, `Sig::verify_with_ctx_str`.
//! Byte-oriented API (keys and signatures are byte buffers).
//!
//! liboqs takes all its randomness from `OQS_randombytes`, which its public API lets the
//! caller replace (`OQS_randombytes_custom_algorithm`, the hook liboqs uses for KATs). We
//! install a source that returns ξ for keygen and zeros for sign, which makes keygen
//! seeded and sign deterministic (rnd = 0^32) with no change to the code being timed.

use super::{avx2_or_portable, Fixture, Loaded, SigImpl, CTX};
use oqs::sig::{Algorithm, PublicKey, SecretKey, Sig, Signature};
use pqsig::mldsa::ParamSet;
use std::cell::Cell;

thread_local! {
    /// The bytes the next `OQS_randombytes` call returns (reset to zeros after each call).
    static NEXT_RANDOM: Cell<[u8; 32]> = const { Cell::new([0u8; 32]) };
}

/// Our `OQS_randombytes` source: `NEXT_RANDOM`, repeated if more is asked, then zeros.
unsafe extern "C" fn scripted_randombytes(buf: *mut u8, len: usize) {
    if buf.is_null() || len == 0 {
        return;
    }
    // SAFETY: liboqs passes a writable buffer of `len` bytes.
    let out = unsafe { std::slice::from_raw_parts_mut(buf, len) };
    let src = NEXT_RANDOM.with(|c| c.replace([0u8; 32]));
    for (o, s) in out.iter_mut().zip(src.iter().cycle()) {
        *o = *s;
    }
}

fn install_rng_hook() {
    oqs::init();
    // SAFETY: the callback matches liboqs' `void (*)(uint8_t *, size_t)` and never unwinds.
    unsafe { oqs::ffi::rand::OQS_randombytes_custom_algorithm(Some(scripted_randombytes)) };
}

pub struct Oqs;

impl Oqs {
    pub fn new() -> Self {
        install_rng_hook();
        Oqs
    }
}

impl SigImpl for Oqs {
    fn name(&self) -> &'static str {
        "oqs"
    }
    fn backend(&self) -> String {
        avx2_or_portable()
    }
    fn api(&self) -> &'static str {
        "bytes"
    }
    fn seeded_keygen(&self) -> bool {
        true
    }
    fn deterministic(&self) -> bool {
        true
    }
    fn note(&self, op: super::Op) -> Option<String> {
        match op {
            super::Op::Keygen => Some("ξ via OQS_randombytes hook".into()),
            super::Op::Sign => Some("rnd=0 via OQS_randombytes hook".into()),
            super::Op::Verify => None,
        }
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        install_rng_hook();
        let alg = match fx.ps {
            ParamSet::MlDsa44 => Algorithm::MlDsa44,
            ParamSet::MlDsa65 => Algorithm::MlDsa65,
            ParamSet::MlDsa87 => Algorithm::MlDsa87,
        };
        let sig = Sig::new(alg).map_err(|e| format!("{e}"))?;
        if sig.length_secret_key() != fx.sk[0].len() || sig.length_public_key() != fx.pk[0].len() {
            return Err("key lengths differ from FIPS 204".into());
        }
        Ok(Box::new(L {
            sig,
            kg: None,
            last: None,
        }))
    }
}

struct L {
    sig: Sig,
    kg: Option<(PublicKey, SecretKey)>,
    last: Option<Signature>,
}

impl Loaded for L {
    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        NEXT_RANDOM.with(|c| c.set(fx.seeds[k]));
        self.kg = Some(self.sig.keypair().expect("keypair"));
    }
    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|(pk, _)| pk.clone().into_vec())
    }
    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let sk = self
            .sig
            .secret_key_from_bytes(&fx.sk[fx.key_of[i]])
            .expect("sk length");
        NEXT_RANDOM.with(|c| c.set([0u8; 32]));
        self.last = Some(
            self.sig
                .sign_with_ctx_str(&fx.msgs[i], CTX, sk)
                .expect("sign"),
        );
    }
    fn last_sig(&self) -> Option<Vec<u8>> {
        self.last.as_ref().map(|s| s.clone().into_vec())
    }
    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        let (Some(pk), Some(sig)) = (
            self.sig.public_key_from_bytes(&fx.pk[fx.key_of[i]]),
            self.sig.signature_from_bytes(&fx.sigs[i]),
        ) else {
            return false;
        };
        self.sig
            .verify_with_ctx_str(&fx.msgs[i], sig, CTX, pk)
            .is_ok()
    }
    fn clear(&mut self) {
        self.kg = None;
        self.last = None;
    }
}
