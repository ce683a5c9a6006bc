//! The algorithms under test and the shared fixture (keys, messages, signing randomness
//! and reference signatures, all produced by pqsig) every implementation works on.

use ::pqsig::falcon::{self, fndsa, FnDsaParamSet};
use ::pqsig::mldsa;
use ::pqsig::snova;
use ::pqsig::Backend;

/// The context string of every signature in the benchmark (ML-DSA and FN-DSA; round-3
/// Falcon and SNOVA have none).
pub const CTX: &[u8] = &[];

/// A scheme family: implementations are compared within one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    MlDsa,
    Falcon,
    FnDsa,
    Snova,
}

/// One parameter set of one family.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Alg {
    MlDsa(mldsa::ParamSet),
    Falcon(falcon::ParamSet),
    FnDsa(FnDsaParamSet),
    Snova(snova::ParamSet),
}

impl Alg {
    /// Every parameter set, in report order; the padded Falcon sets only on request.
    pub fn all(padded: bool) -> Vec<Alg> {
        let mut v: Vec<Alg> = mldsa::ParamSet::ALL
            .iter()
            .map(|&p| Alg::MlDsa(p))
            .collect();
        v.extend(
            falcon::ParamSet::ALL
                .iter()
                .filter(|p| padded || !p.padded())
                .map(|&p| Alg::Falcon(p)),
        );
        v.extend(FnDsaParamSet::ALL.iter().map(|&p| Alg::FnDsa(p)));
        v.extend(snova::ParamSet::ALL.iter().map(|&p| Alg::Snova(p)));
        v
    }

    pub fn name(self) -> &'static str {
        match self {
            Alg::MlDsa(p) => p.name(),
            Alg::Falcon(p) => p.name(),
            Alg::FnDsa(p) => p.name(),
            Alg::Snova(p) => p.name(),
        }
    }

    pub fn family(self) -> Family {
        match self {
            Alg::MlDsa(_) => Family::MlDsa,
            Alg::Falcon(_) => Family::Falcon,
            Alg::FnDsa(_) => Family::FnDsa,
            Alg::Snova(_) => Family::Snova,
        }
    }

    /// log2 of the degree (Falcon and FN-DSA; 8 for ML-DSA's n = 256; 0 for SNOVA).
    pub fn logn(self) -> u32 {
        match self {
            Alg::MlDsa(_) => 8,
            Alg::Snova(_) => 0,
            Alg::Falcon(p) => p.logn(),
            Alg::FnDsa(p) => p.logn(),
        }
    }

    /// The FN-DSA set of the same degree as a Falcon set (and vice versa for FN-DSA).
    pub fn fndsa_sibling(self) -> Option<FnDsaParamSet> {
        match self.logn() {
            9 if matches!(self.family(), Family::Falcon | Family::FnDsa) => {
                Some(FnDsaParamSet::FnDsa512)
            }
            10 if matches!(self.family(), Family::Falcon | Family::FnDsa) => {
                Some(FnDsaParamSet::FnDsa1024)
            }
            _ => None,
        }
    }

    /// Key-generation seed length: ξ (32) for ML-DSA, the NIST API's 48-byte draw for
    /// Falcon and for SNOVA (s_pub ‖ s_priv), the 32-byte seed for FN-DSA.
    pub fn seed_len(self) -> usize {
        match self {
            Alg::MlDsa(_) | Alg::FnDsa(_) => 32,
            Alg::Falcon(_) => falcon::keys::SEED_LEN,
            Alg::Snova(_) => snova::SEED_LEN,
        }
    }

    /// Signing randomness per signature: none for ML-DSA (deterministic, rnd = 0),
    /// nonce (40) ‖ sampler seed (48) for Falcon, the 40-byte seed for FN-DSA, the
    /// 16-byte salt for SNOVA.
    pub fn rand_len(self) -> usize {
        match self {
            Alg::MlDsa(_) => 0,
            Alg::Falcon(_) => falcon::keys::NONCE_LEN + falcon::keys::SIGN_SEED_LEN,
            Alg::FnDsa(_) => 40,
            Alg::Snova(_) => snova::SALT_LEN,
        }
    }

    /// Bytes drawn for a seed / for signing randomness. Falcon and FN-DSA of one degree
    /// draw the same amounts (FN-DSA keeps a prefix), so their fixtures share their
    /// seeds, messages and randomness prefixes: fn-dsa, timed as a Falcon stand-in, then
    /// works on the same inputs as in its own FN-DSA group.
    fn draw_lens(self) -> (usize, usize) {
        match self.family() {
            Family::MlDsa => (32, 0),
            Family::Falcon | Family::FnDsa => (48, 88),
            Family::Snova => (snova::SEED_LEN, snova::SALT_LEN),
        }
    }

    /// The fixture generator's tag (ML-DSA: the index in `ParamSet::ALL`, as before
    /// Falcon was added; Falcon / FN-DSA: by degree, shared by padded and unpadded sets;
    /// SNOVA: 0x200 + the index in `snova::ParamSet::ALL`).
    fn tag(self) -> u64 {
        match self {
            Alg::Snova(p) => {
                0x200
                    + snova::ParamSet::ALL
                        .iter()
                        .position(|&q| q == p)
                        .expect("listed") as u64
            }
            Alg::MlDsa(p) => mldsa::ParamSet::ALL
                .iter()
                .position(|&q| q == p)
                .expect("listed") as u64,
            _ => 0x100 + self.logn() as u64,
        }
    }
}

/// Keys, messages, signing randomness and reference signatures for one parameter set.
pub struct Fixture {
    pub alg: Alg,
    /// Key-generation seed of every key (`alg.seed_len()` bytes).
    pub seeds: Vec<Vec<u8>>,
    /// Private keys as pqsig encodes them (ML-DSA: expanded skEncode; Falcon: round-3
    /// compact `0x50+logn ‖ f ‖ g ‖ F`; FN-DSA: the fn-dsa encoding), one per seed.
    pub sk: Vec<Vec<u8>>,
    /// Public keys, one per seed.
    pub pk: Vec<Vec<u8>>,
    /// Messages, one per (key, message) pair.
    pub msgs: Vec<Vec<u8>>,
    /// The key of each pair (pairs are key-major: consecutive pairs share a key).
    pub key_of: Vec<usize>,
    /// Signing randomness of each pair (`alg.rand_len()` bytes; empty for ML-DSA).
    pub rand: Vec<Vec<u8>>,
    /// pqsig's signatures, one per pair: deterministic (ML-DSA rnd = 0, empty context),
    /// or from `rand` (Falcon: nonce ‖ seed; FN-DSA: the 40-byte seed, empty context).
    pub sigs: Vec<Vec<u8>>,
    dims: (usize, usize, usize),
}

/// pqsig's signing key of each family, for the reference signatures.
enum RefSigner {
    MlDsa(mldsa::SigningKey),
    Falcon(falcon::SigningKey),
    FnDsa(fndsa::SigningKey),
    Snova(snova::SigningKey),
}

impl RefSigner {
    /// Key pair from `seed`: (signer, sk bytes, pk bytes). Portable backend.
    fn keygen(alg: Alg, seed: &[u8]) -> (RefSigner, Vec<u8>, Vec<u8>) {
        match alg {
            Alg::MlDsa(ps) => {
                let xi: &[u8; 32] = seed.try_into().expect("32-byte ξ");
                let (s, v) =
                    mldsa::keygen_internal_on(ps, xi, Backend::Portable).expect("portable");
                let sk = s.to_expanded_bytes().to_vec();
                (RefSigner::MlDsa(s), sk, v.to_bytes().to_vec())
            }
            Alg::Falcon(ps) => {
                let (s, v) = falcon::keygen_from_seed(ps, seed).expect("Falcon keygen");
                let s = s.with_backend(Backend::Portable).expect("portable");
                let sk = s.to_bytes().to_vec();
                (RefSigner::Falcon(s), sk, v.to_bytes().to_vec())
            }
            Alg::FnDsa(ps) => {
                let (s, v) = fndsa::keygen_from_seed(ps.logn(), seed).expect("FN-DSA keygen");
                let s = s.with_backend(Backend::Portable).expect("portable");
                let sk = s.to_bytes().to_vec();
                (RefSigner::FnDsa(s), sk, v.to_bytes().to_vec())
            }
            Alg::Snova(ps) => {
                let (s, v) = snova::keygen_from_seed(ps, seed).expect("SNOVA keygen");
                let s = s.with_backend(Backend::Portable).expect("portable");
                let sk = s.to_bytes().to_vec();
                (RefSigner::Snova(s), sk, v.to_bytes().to_vec())
            }
        }
    }

    fn sign(&self, msg: &[u8], rand: &[u8]) -> Vec<u8> {
        match self {
            RefSigner::MlDsa(s) => s.sign_deterministic(msg, CTX),
            RefSigner::Falcon(s) => {
                let (nonce, seed) = falcon_rand(rand);
                s.sign_with_nonce_and_seed(msg, nonce, seed)
            }
            RefSigner::FnDsa(s) => s.sign_with_seed(msg, CTX, rand),
            RefSigner::Snova(s) => s.sign_with_salt(msg, snova_salt(rand)),
        }
        .expect("reference signature")
    }
}

/// SNOVA signing randomness: the 16-byte salt.
pub fn snova_salt(rand: &[u8]) -> &[u8; 16] {
    rand.try_into().expect("16-byte salt")
}

/// Splits Falcon signing randomness into (nonce, sampler seed).
pub fn falcon_rand(rand: &[u8]) -> (&[u8; 40], &[u8; 48]) {
    let (n, s) = rand.split_at(falcon::keys::NONCE_LEN);
    (
        n.try_into().expect("40-byte nonce"),
        s.try_into().expect("48-byte seed"),
    )
}

impl Fixture {
    /// `keys` keys, `msgs_per_key` messages of `msg_len` bytes each; everything is derived
    /// deterministically from the parameter set (so runs are comparable).
    pub fn new(alg: Alg, keys: usize, msgs_per_key: usize, msg_len: usize) -> Fixture {
        let tag = alg.tag();
        let mut rng = SplitMix(0x0005_eed0_fbe4_c000_u64 ^ tag.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let (seed_draw, rand_draw) = alg.draw_lens();
        let mut seeds = Vec::with_capacity(keys);
        let mut sk = Vec::with_capacity(keys);
        let mut pk = Vec::with_capacity(keys);
        let mut signers = Vec::with_capacity(keys);
        for _ in 0..keys {
            let mut seed = vec![0u8; seed_draw];
            rng.fill(&mut seed);
            seed.truncate(alg.seed_len());
            let (s, skb, pkb) = RefSigner::keygen(alg, &seed);
            seeds.push(seed);
            sk.push(skb);
            pk.push(pkb);
            signers.push(s);
        }
        let mut msgs = Vec::new();
        let mut key_of = Vec::new();
        let mut rand = Vec::new();
        let mut sigs = Vec::new();
        for (k, s) in signers.iter().enumerate() {
            for _ in 0..msgs_per_key {
                let mut m = vec![0u8; msg_len];
                rng.fill(&mut m);
                let mut r = vec![0u8; rand_draw];
                rng.fill(&mut r);
                r.truncate(alg.rand_len());
                sigs.push(s.sign(&m, &r));
                msgs.push(m);
                key_of.push(k);
                rand.push(r);
            }
        }
        Fixture {
            alg,
            seeds,
            sk,
            pk,
            msgs,
            key_of,
            rand,
            sigs,
            dims: (keys, msgs_per_key, msg_len),
        }
    }

    /// The fixture of `alg` with this one's sizes (for a Falcon set's FN-DSA sibling:
    /// the same seed and randomness prefixes and the same messages).
    pub fn twin(&self, alg: Alg) -> Fixture {
        let (k, m, l) = self.dims;
        Fixture::new(alg, k, m, l)
    }

    pub fn pairs(&self) -> usize {
        self.msgs.len()
    }
    pub fn keys(&self) -> usize {
        self.seeds.len()
    }

    /// The ML-DSA parameter set (adapters of ML-DSA peers only see ML-DSA fixtures).
    pub fn mldsa(&self) -> mldsa::ParamSet {
        match self.alg {
            Alg::MlDsa(p) => p,
            other => panic!("{} is not ML-DSA", other.name()),
        }
    }

    /// The 32-byte seed of key `k` (ML-DSA ξ, FN-DSA seed).
    #[inline]
    pub fn seed32(&self, k: usize) -> &[u8; 32] {
        self.seeds[k].as_slice().try_into().expect("32-byte seed")
    }

    /// Whether pqsig accepts `sig` on pair `i` (the check for signatures that cannot be
    /// byte-identical to ours).
    pub fn verify_ref(&self, i: usize, sig: &[u8]) -> bool {
        let (m, pk) = (&self.msgs[i], &self.pk[self.key_of[i]]);
        match self.alg {
            Alg::MlDsa(ps) => mldsa::VerifyingKey::from_bytes(ps, pk)
                .and_then(|vk| vk.verify(m, CTX, sig))
                .is_ok(),
            Alg::Falcon(ps) => falcon::VerifyingKey::from_bytes(ps, pk)
                .and_then(|vk| vk.verify(m, sig))
                .is_ok(),
            Alg::FnDsa(_) => fndsa::VerifyingKey::from_bytes(pk)
                .and_then(|vk| vk.verify(m, CTX, sig))
                .is_ok(),
            Alg::Snova(ps) => snova::VerifyingKey::from_bytes(ps, pk)
                .and_then(|vk| vk.verify(m, sig))
                .is_ok(),
        }
    }
}

/// A small deterministic generator for fixture bytes (not for keys in real use).
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
