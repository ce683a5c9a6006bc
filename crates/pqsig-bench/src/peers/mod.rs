//! The implementations under test, each behind [`SigImpl`]: ours ([`pqsig`], one entry
//! per backend × API form) and one adapter per peer crate.
//!
//! Every implementation works on the same [`Fixture`]: the same ξ seeds, the same
//! expanded private keys and public keys (produced by pqsig), the same messages, and
//! pqsig's deterministic signatures (the reference, and the signatures every `verify`
//! row checks).

pub mod fips204;
pub mod libcrux;
pub mod ml_dsa;
pub mod oqs;
pub mod pqcrypto;
pub mod pqsig;

use crate::measure::Unit;
use ::pqsig::mldsa::{self, ParamSet};
use ::pqsig::Backend;

/// Keys, messages and reference signatures for one parameter set.
pub struct Fixture {
    pub ps: ParamSet,
    /// ξ of every key.
    pub seeds: Vec<[u8; 32]>,
    /// Expanded FIPS 204 private keys (skEncode), one per seed.
    pub sk: Vec<Vec<u8>>,
    /// Public keys (pkEncode), one per seed.
    pub pk: Vec<Vec<u8>>,
    /// Messages, one per (key, message) pair.
    pub msgs: Vec<Vec<u8>>,
    /// The key of each pair (pairs are key-major: consecutive pairs share a key).
    pub key_of: Vec<usize>,
    /// pqsig's deterministic signatures (rnd = 0, empty context), one per pair.
    pub sigs: Vec<Vec<u8>>,
}

/// The context string of every signature in the benchmark.
pub const CTX: &[u8] = &[];

impl Fixture {
    /// `keys` keys, `msgs_per_key` messages of `msg_len` bytes each; everything is derived
    /// deterministically from `tag` (so runs are comparable).
    pub fn new(
        ps: ParamSet,
        keys: usize,
        msgs_per_key: usize,
        msg_len: usize,
        tag: u64,
    ) -> Fixture {
        let mut rng = SplitMix(0x0005_eed0_fbe4_c000_u64 ^ tag.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut seeds = Vec::with_capacity(keys);
        let mut sk = Vec::with_capacity(keys);
        let mut pk = Vec::with_capacity(keys);
        let mut signers = Vec::with_capacity(keys);
        for _ in 0..keys {
            let mut xi = [0u8; 32];
            rng.fill(&mut xi);
            let (s, v) =
                mldsa::keygen_internal_on(ps, &xi, Backend::Portable).expect("portable backend");
            seeds.push(xi);
            sk.push(s.to_expanded_bytes().to_vec());
            pk.push(v.to_bytes().to_vec());
            signers.push(s);
        }
        let mut msgs = Vec::new();
        let mut key_of = Vec::new();
        let mut sigs = Vec::new();
        for (k, s) in signers.iter().enumerate() {
            for _ in 0..msgs_per_key {
                let mut m = vec![0u8; msg_len];
                rng.fill(&mut m);
                sigs.push(s.sign_deterministic(&m, CTX).expect("sign"));
                msgs.push(m);
                key_of.push(k);
            }
        }
        Fixture {
            ps,
            seeds,
            sk,
            pk,
            msgs,
            key_of,
            sigs,
        }
    }

    pub fn pairs(&self) -> usize {
        self.msgs.len()
    }
    pub fn keys(&self) -> usize {
        self.seeds.len()
    }
}

/// A small deterministic generator for fixture bytes (not for keys in real use).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

/// One implementation (a row family in the report).
pub trait SigImpl {
    /// `pqsig` for ours, the crate name for peers.
    fn name(&self) -> &'static str;
    /// The arithmetic backend it runs on here (`portable`, `avx2`, ...).
    fn backend(&self) -> String;
    /// `object` (keys decoded once, reused) or `bytes` (keys as byte strings per call).
    fn api(&self) -> &'static str;
    /// Whether keygen takes the ξ seed (else: the implementation's own RNG).
    fn seeded_keygen(&self) -> bool;
    /// Whether sign is deterministic (rnd = 0^32); else the hedged sign is timed.
    fn deterministic(&self) -> bool;
    /// Extra remark on the keygen / sign / verify rows.
    fn note(&self, op: Op) -> Option<String> {
        match op {
            Op::Keygen if !self.seeded_keygen() => Some("own RNG (not from ξ)".into()),
            Op::Sign if !self.deterministic() => {
                Some("hedged (cannot sign deterministically)".into())
            }
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
    /// Sign pair `i`: message `fx.msgs[i]` under key `fx.key_of[i]`, empty context.
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

/// Every implementation, ours first (each available backend × {object, bytes}).
pub fn all() -> Vec<Box<dyn SigImpl>> {
    let mut v: Vec<Box<dyn SigImpl>> = Vec::new();
    for b in Backend::available() {
        v.push(Box::new(pqsig::Pqsig::new(b, pqsig::Api::Object)));
        v.push(Box::new(pqsig::Pqsig::new(b, pqsig::Api::Bytes)));
    }
    v.push(Box::new(fips204::Fips204));
    v.push(Box::new(ml_dsa::MlDsa));
    v.push(Box::new(libcrux::Libcrux));
    v.push(Box::new(pqcrypto::Pqcrypto));
    v.push(Box::new(oqs::Oqs::new()));
    v
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
