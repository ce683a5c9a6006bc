//! `pqcrypto-falcon` (PQClean's round-3 Falcon: the AVX2 port with hardware binary64, and
//! the "clean" code with PQClean's integer emulation of binary64), called through the
//! crate's `ffi` bindings so that either variant can be picked whatever the CPU
//! (`pqcrypto_falcon::falcon512::*` dispatches on AVX2 itself): `crypto_sign_keypair`,
//! `crypto_sign_signature`, `crypto_sign_verify`. Byte-oriented API: the fixture's
//! compact secret keys and public keys (the same round-3 encodings as pqsig's) are
//! passed on every call.
//!
//! Randomness: pqcrypto-falcon's PQClean draws from getrandom with no hook, so keygen
//! uses its own seed and signing its own nonce and sampler seed (its signatures are then
//! checked with pqsig's verify). But liboqs carries the same PQClean code under the same
//! symbol names, and the linker keeps one copy (see [`super::oqs`]); when liboqs's copy
//! is the one kept, it reads `OQS_randombytes`, and the fixture's seed and nonce ‖ seed
//! are fed through that hook, making keys and signatures byte-identical to pqsig's.
//! [`reads_oqs_randombytes`] finds out which copy this binary runs.

use super::{Alg, Fixture, Loaded, SigImpl};
use pqcrypto_falcon::ffi;
use pqsig::falcon::ParamSet;
use std::os::raw::c_int;

type KeypairFn = unsafe extern "C" fn(pk: *mut u8, sk: *mut u8) -> c_int;
type SignFn = unsafe extern "C" fn(*mut u8, *mut usize, *const u8, usize, *const u8) -> c_int;
type VerifyFn = unsafe extern "C" fn(*const u8, usize, *const u8, usize, *const u8) -> c_int;

/// One PQClean build of one parameter set.
#[derive(Clone, Copy)]
struct Fns {
    keypair: KeypairFn,
    signature: SignFn,
    verify: VerifyFn,
    /// Maximum (unpadded) or exact (padded) signature length.
    sig_len: usize,
}

macro_rules! fns {
    ($kp:ident, $sign:ident, $vrfy:ident, $len:ident) => {
        Fns {
            keypair: ffi::$kp,
            signature: ffi::$sign,
            verify: ffi::$vrfy,
            sig_len: ffi::$len,
        }
    };
}

/// Which PQClean code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    /// `avx2/`: AVX2 and FMA-free hardware binary64 (what `pqcrypto_falcon` picks here).
    Avx2,
    /// `clean/`: portable C with PQClean's emulated binary64 (`fpr.c`).
    Clean,
}

impl Variant {
    /// The variants this CPU can run (AVX2 first: it is the peer of the targets).
    pub fn available() -> Vec<Variant> {
        let mut v = Vec::new();
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            v.push(Variant::Avx2);
        }
        v.push(Variant::Clean);
        v
    }

    fn fns(self, ps: ParamSet) -> Fns {
        match self {
            #[cfg(target_arch = "x86_64")]
            Variant::Avx2 => match ps {
                ParamSet::Falcon512 => fns!(
                    PQCLEAN_FALCON512_AVX2_crypto_sign_keypair,
                    PQCLEAN_FALCON512_AVX2_crypto_sign_signature,
                    PQCLEAN_FALCON512_AVX2_crypto_sign_verify,
                    PQCLEAN_FALCON512_AVX2_CRYPTO_BYTES
                ),
                ParamSet::Falcon1024 => fns!(
                    PQCLEAN_FALCON1024_AVX2_crypto_sign_keypair,
                    PQCLEAN_FALCON1024_AVX2_crypto_sign_signature,
                    PQCLEAN_FALCON1024_AVX2_crypto_sign_verify,
                    PQCLEAN_FALCON1024_AVX2_CRYPTO_BYTES
                ),
                ParamSet::FalconPadded512 => fns!(
                    PQCLEAN_FALCONPADDED512_AVX2_crypto_sign_keypair,
                    PQCLEAN_FALCONPADDED512_AVX2_crypto_sign_signature,
                    PQCLEAN_FALCONPADDED512_AVX2_crypto_sign_verify,
                    PQCLEAN_FALCONPADDED512_AVX2_CRYPTO_BYTES
                ),
                ParamSet::FalconPadded1024 => fns!(
                    PQCLEAN_FALCONPADDED1024_AVX2_crypto_sign_keypair,
                    PQCLEAN_FALCONPADDED1024_AVX2_crypto_sign_signature,
                    PQCLEAN_FALCONPADDED1024_AVX2_crypto_sign_verify,
                    PQCLEAN_FALCONPADDED1024_AVX2_CRYPTO_BYTES
                ),
            },
            #[cfg(not(target_arch = "x86_64"))]
            Variant::Avx2 => unreachable!("not offered off x86-64"),
            Variant::Clean => match ps {
                ParamSet::Falcon512 => fns!(
                    PQCLEAN_FALCON512_CLEAN_crypto_sign_keypair,
                    PQCLEAN_FALCON512_CLEAN_crypto_sign_signature,
                    PQCLEAN_FALCON512_CLEAN_crypto_sign_verify,
                    PQCLEAN_FALCON512_CLEAN_CRYPTO_BYTES
                ),
                ParamSet::Falcon1024 => fns!(
                    PQCLEAN_FALCON1024_CLEAN_crypto_sign_keypair,
                    PQCLEAN_FALCON1024_CLEAN_crypto_sign_signature,
                    PQCLEAN_FALCON1024_CLEAN_crypto_sign_verify,
                    PQCLEAN_FALCON1024_CLEAN_CRYPTO_BYTES
                ),
                ParamSet::FalconPadded512 => fns!(
                    PQCLEAN_FALCONPADDED512_CLEAN_crypto_sign_keypair,
                    PQCLEAN_FALCONPADDED512_CLEAN_crypto_sign_signature,
                    PQCLEAN_FALCONPADDED512_CLEAN_crypto_sign_verify,
                    PQCLEAN_FALCONPADDED512_CLEAN_CRYPTO_BYTES
                ),
                ParamSet::FalconPadded1024 => fns!(
                    PQCLEAN_FALCONPADDED1024_CLEAN_crypto_sign_keypair,
                    PQCLEAN_FALCONPADDED1024_CLEAN_crypto_sign_signature,
                    PQCLEAN_FALCONPADDED1024_CLEAN_crypto_sign_verify,
                    PQCLEAN_FALCONPADDED1024_CLEAN_CRYPTO_BYTES
                ),
            },
        }
    }
}

/// Whether the linked copy of this PQClean build reads `OQS_randombytes` (liboqs's copy)
/// rather than getrandom (pqcrypto-falcon's): two key pairs from the same scripted seed
/// are equal only in the first case.
pub fn reads_oqs_randombytes(variant: Variant, ps: ParamSet) -> bool {
    super::oqs::install_rng_hook();
    let f = variant.fns(ps);
    let keypair = || {
        let mut pk = vec![0u8; ps.public_key_len()];
        let mut sk = vec![0u8; ps.secret_key_len()];
        super::oqs::script(&[0x5a; 48]);
        // SAFETY: both buffers have the lengths this parameter set's keypair writes.
        let rc = unsafe { (f.keypair)(pk.as_mut_ptr(), sk.as_mut_ptr()) };
        (rc == 0).then_some(pk)
    };
    let a = keypair();
    a.is_some() && a == keypair()
}

pub struct PqcryptoFalcon {
    pub variant: Variant,
    /// Whether `OQS_randombytes` reaches it ([`reads_oqs_randombytes`]).
    pub hooked: bool,
}

impl SigImpl for PqcryptoFalcon {
    fn name(&self) -> &'static str {
        "pqcrypto-falcon"
    }
    fn backend(&self) -> String {
        match self.variant {
            Variant::Avx2 => "avx2".into(),
            Variant::Clean => "portable".into(),
        }
    }
    fn api(&self) -> &'static str {
        "bytes"
    }
    fn seeded_keygen(&self) -> bool {
        self.hooked
    }
    fn deterministic(&self) -> bool {
        self.hooked
    }
    fn runs(&self, op: super::Op) -> bool {
        // The clean code is here as the reference for emulated-float *signing* (its
        // keygen costs ~80 ms at n = 1024 and would dominate the run).
        self.variant == Variant::Avx2 || op != super::Op::Keygen
    }
    fn fpr(&self) -> Option<&'static str> {
        Some(match self.variant {
            Variant::Avx2 => "native",
            Variant::Clean => "emulated",
        })
    }
    fn note(&self, _alg: Alg, op: super::Op) -> Option<String> {
        let own = match (op, self.hooked) {
            (super::Op::Keygen, false) => Some("own RNG (getrandom, no hook)"),
            (super::Op::Sign, false) => Some("own nonce and seed (getrandom, no hook)"),
            (super::Op::Keygen, true) => Some("seed via OQS_randombytes (liboqs's copy linked)"),
            (super::Op::Sign, true) => {
                Some("nonce, seed via OQS_randombytes (liboqs's copy linked)")
            }
            (super::Op::Verify, _) => None,
        };
        match (self.variant, own) {
            (Variant::Clean, Some(o)) => Some(format!("PQClean clean (emulated fpr); {o}")),
            (Variant::Clean, None) => Some("PQClean clean (emulated fpr)".into()),
            (Variant::Avx2, o) => o.map(Into::into),
        }
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        let Alg::Falcon(ps) = fx.alg else {
            return Err("not a Falcon parameter set".into());
        };
        if fx.sk[0].len() != ps.secret_key_len() || fx.pk[0].len() != ps.public_key_len() {
            return Err("key lengths differ".into());
        }
        Ok(Box::new(L {
            f: self.variant.fns(ps),
            pk_len: ps.public_key_len(),
            sk_len: ps.secret_key_len(),
            kg: None,
            sig: None,
        }))
    }
}

struct L {
    f: Fns,
    pk_len: usize,
    sk_len: usize,
    kg: Option<(Vec<u8>, Vec<u8>)>,
    sig: Option<Vec<u8>>,
}

impl Loaded for L {
    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        // Reaches the code only when liboqs's copy is linked (module docs).
        super::oqs::script(&fx.seeds[k]);
        let mut pk = vec![0u8; self.pk_len];
        let mut sk = vec![0u8; self.sk_len];
        // SAFETY: both buffers have the lengths this parameter set's keypair writes.
        let rc = unsafe { (self.f.keypair)(pk.as_mut_ptr(), sk.as_mut_ptr()) };
        assert_eq!(rc, 0, "PQClean keypair");
        self.kg = Some((pk, sk));
    }
    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|(pk, _)| pk.clone())
    }
    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let sk = &fx.sk[fx.key_of[i]];
        let m = &fx.msgs[i];
        let mut sig = vec![0u8; self.f.sig_len];
        let mut len = 0usize;
        super::oqs::script(&fx.rand[i]);
        // SAFETY: `sig` holds the maximum signature length, `sk` is a secret key of this
        // parameter set (length checked at load), `m` is `m.len()` readable bytes.
        let rc = unsafe {
            (self.f.signature)(sig.as_mut_ptr(), &mut len, m.as_ptr(), m.len(), sk.as_ptr())
        };
        assert_eq!(rc, 0, "PQClean sign");
        sig.truncate(len);
        self.sig = Some(sig);
    }
    fn last_sig(&self) -> Option<Vec<u8>> {
        self.sig.clone()
    }
    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        let (s, m, pk) = (&fx.sigs[i], &fx.msgs[i], &fx.pk[fx.key_of[i]]);
        // SAFETY: every pointer covers the length passed with it; `pk` has this
        // parameter set's public key length (checked at load).
        unsafe { (self.f.verify)(s.as_ptr(), s.len(), m.as_ptr(), m.len(), pk.as_ptr()) == 0 }
    }
    fn clear(&mut self) {
        self.kg = None;
        self.sig = None;
    }
}
