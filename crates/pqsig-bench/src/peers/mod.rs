//! The implementations under test, each behind [`SigImpl`]: ours ([`pqsig`] for ML-DSA,
//! [`pqsig_falcon`] for Falcon and FN-DSA; one entry per backend × API form) and one
//! adapter per peer crate.
//!
//! Every implementation of a parameter set works on the same [`Fixture`]: the same
//! seeds, the same private and public keys (produced by pqsig), the same messages and
//! signing randomness, and pqsig's signatures (the reference, and the signatures every
//! `verify` row checks). The one exception is fn-dsa in the Falcon groups, a *stand-in*:
//! it runs FN-DSA on its own keys (see [`fn_dsa`]).

pub mod aws_lc_rs;
pub mod fips204;
pub mod fixture;
pub mod fn_dsa;
pub mod libcrux;
pub mod ml_dsa;
pub mod oqs;
pub mod pqcrypto;
pub mod pqcrypto_falcon;
pub mod pqsig;
pub mod pqsig_falcon;
pub mod pqsig_snova;

use crate::measure::Unit;
use ::pqsig::Backend;
pub use fixture::{falcon_rand, snova_salt, Alg, Family, Fixture, CTX};

/// pqsig's API forms (the `api` column).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Api {
    /// Keys decoded once into key objects, reused (Falcon: dynamic signing, the LDL tree
    /// recomputed per signature).
    Object,
    /// Falcon only: the signing key expanded once (LDL tree precomputed), reused.
    Expanded,
    /// Keys passed as bytes and decoded inside every call.
    Bytes,
    /// SNOVA only: the verifying key prepared once (expanded public matrices cached).
    Prepared,
}

impl Api {
    pub fn name(self) -> &'static str {
        match self {
            Api::Object => "object",
            Api::Expanded => "expanded",
            Api::Bytes => "bytes",
            Api::Prepared => "prepared",
        }
    }
}

/// One implementation (a row family in the report).
pub trait SigImpl {
    /// `pqsig` for ours, the crate name for peers.
    fn name(&self) -> &'static str;
    /// The arithmetic backend it runs on here (`portable`, `avx2`, ...).
    fn backend(&self) -> String;
    /// `object` (keys decoded once, reused), `expanded` (Falcon signing key with its LDL
    /// tree), or `bytes` (keys as byte strings per call).
    fn api(&self) -> &'static str;
    /// Whether keygen takes the fixture's seed (else: the implementation's own RNG).
    fn seeded_keygen(&self) -> bool;
    /// Whether sign takes the fixture's signing randomness (rnd = 0^32 for ML-DSA), so
    /// that its signatures must equal pqsig's byte for byte; else it signs with its own
    /// randomness (hedged) and its signatures are checked with pqsig's verify.
    fn deterministic(&self) -> bool;
    /// Whether this row family measures `op` (pqsig's expanded-key form only signs).
    fn runs(&self, _op: Op) -> bool {
        true
    }
    /// A stand-in runs a sibling algorithm on its own keys (fn-dsa's FN-DSA in the Falcon
    /// groups): timed alongside, but checked only in its own group.
    fn stand_in(&self) -> bool {
        false
    }
    /// Falcon / FN-DSA: the floating-point implementation (`native`, `emulated`).
    fn fpr(&self) -> Option<&'static str> {
        None
    }
    /// Extra remark on the keygen / sign / verify rows of `alg`.
    fn note(&self, alg: Alg, op: Op) -> Option<String> {
        let ml = alg.family() == Family::MlDsa;
        match op {
            Op::Keygen if !self.seeded_keygen() => Some(if ml {
                "own RNG (not from ξ)".into()
            } else {
                "own RNG (not from the seed)".into()
            }),
            Op::Sign if !self.deterministic() => Some(if ml {
                "hedged (cannot sign deterministically)".into()
            } else {
                "own RNG (randomness cannot be supplied)".into()
            }),
            _ => None,
        }
    }
    /// Decodes the fixture's keys into this implementation's natural form (untimed).
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String>;
}

/// An implementation with one parameter set's keys loaded.
///
/// `keygen` and `sign` keep their result in the adapter (so that it is not optimised
/// away and its destructor runs in `clear`, outside the timed region).
pub trait Loaded {
    /// Untimed, before each batch (pqsig pins its process-wide backend here).
    fn begin(&mut self) {}
    /// KeyGen for key `k` (from `fx.seeds[k]` when seeded).
    fn keygen(&mut self, fx: &Fixture, k: usize);
    /// The public key of the last keygen, encoded (for checks).
    fn last_pk(&self) -> Option<Vec<u8>>;
    /// Sign pair `i`: message `fx.msgs[i]` under key `fx.key_of[i]`, empty context,
    /// randomness `fx.rand[i]` where the implementation takes it.
    fn sign(&mut self, fx: &Fixture, i: usize);
    /// The last signature, encoded (for checks).
    fn last_sig(&self) -> Option<Vec<u8>>;
    /// Verify `fx.sigs[i]` on pair `i`.
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool;
    /// Drops kept results (untimed).
    fn clear(&mut self);
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    Keygen,
    Sign,
    Verify,
}

impl Op {
    pub const ALL: [Op; 3] = [Op::Keygen, Op::Sign, Op::Verify];
    pub fn name(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::Sign => "sign",
            Op::Verify => "verify",
        }
    }
}

/// A loaded implementation × operation as a measurement unit.
pub struct OpUnit<'a> {
    pub loaded: &'a mut dyn Loaded,
    pub fx: &'a Fixture,
    pub op: Op,
    /// Verification failures seen while timing (must stay 0).
    pub failures: usize,
}

impl Unit for OpUnit<'_> {
    fn begin_batch(&mut self) {
        self.loaded.begin();
    }
    #[inline]
    fn run(&mut self, j: usize) {
        match self.op {
            Op::Keygen => self.loaded.keygen(self.fx, j),
            Op::Sign => self.loaded.sign(self.fx, j),
            Op::Verify => {
                if !self.loaded.verify(self.fx, j) {
                    self.failures += 1;
                }
            }
        }
    }
    fn after(&mut self, _j: usize) {
        self.loaded.clear();
    }
}

/// Every implementation of `alg`, ours first (each available backend × API form). In an
/// emulated-float build (`fpr-emulated`), only ours: the peers do not change with it.
pub fn for_alg(alg: Alg) -> Vec<Box<dyn SigImpl>> {
    let mut v: Vec<Box<dyn SigImpl>> = Vec::new();
    let ours_only = emulated_fpr();
    // ML-DSA, Falcon and FN-DSA have no NEON kernels (under `neon` they run the portable
    // ones): no duplicate rows on aarch64. SNOVA's GF(16) kernels do have a NEON backend.
    let no_neon = || Backend::available().filter(|&b| b != Backend::Neon);
    match alg {
        Alg::MlDsa(_) => {
            for b in no_neon() {
                v.push(Box::new(pqsig::Pqsig::new(b, Api::Object)));
                v.push(Box::new(pqsig::Pqsig::new(b, Api::Bytes)));
            }
            if !ours_only {
                v.push(Box::new(fips204::Fips204));
                v.push(Box::new(ml_dsa::MlDsa));
                v.push(Box::new(libcrux::Libcrux));
                v.push(Box::new(pqcrypto::Pqcrypto));
                v.push(Box::new(oqs::Oqs::mldsa()));
                v.push(Box::new(aws_lc_rs::AwsLcRs));
            }
        }
        Alg::Falcon(ps) => {
            for b in no_neon() {
                for api in [Api::Object, Api::Expanded, Api::Bytes] {
                    v.push(Box::new(pqsig_falcon::PqsigFalcon::new(b, api)));
                }
            }
            if !ours_only {
                let mut oqs_hooked = false;
                for (i, variant) in pqcrypto_falcon::Variant::available()
                    .into_iter()
                    .enumerate()
                {
                    let hooked = pqcrypto_falcon::reads_oqs_randombytes(variant, ps);
                    // liboqs calls the first variant (AVX2 when the CPU has it).
                    oqs_hooked |= i == 0 && hooked;
                    v.push(Box::new(pqcrypto_falcon::PqcryptoFalcon {
                        variant,
                        hooked,
                    }));
                }
                if oqs::Oqs::supports(alg) {
                    v.push(Box::new(oqs::Oqs::falcon(oqs_hooked)));
                }
                v.push(Box::new(fn_dsa::FnDsa { stand_in: true }));
            }
        }
        Alg::FnDsa(_) => {
            for b in no_neon() {
                for api in [Api::Object, Api::Bytes] {
                    v.push(Box::new(pqsig_falcon::PqsigFnDsa::new(b, api)));
                }
            }
            if !ours_only {
                v.push(Box::new(fn_dsa::FnDsa { stand_in: false }));
            }
        }
        // No SNOVA peer crate exists: ours only (the official code's figures are printed
        // as reference lines in the SNOVA summary).
        Alg::Snova(_) => {
            for b in Backend::available() {
                for api in [Api::Object, Api::Expanded, Api::Prepared] {
                    v.push(Box::new(pqsig_snova::PqsigSnova::new(b, api)));
                }
            }
        }
    }
    v
}

/// Whether pqsig was built with the integer emulation of binary64 (Falcon / FN-DSA).
pub fn emulated_fpr() -> bool {
    ::pqsig::kernels::falcon::fpr::FPR_IMPL == "emulated"
}

/// `avx2` when this CPU has AVX2 (for peers that dispatch on it at run time).
pub fn avx2_or_portable() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            return "avx2".into();
        }
    }
    "portable".into()
}
