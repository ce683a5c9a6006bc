//! `fn-dsa` 0.4.0 (Thomas Pornin's FN-DSA, the putative FIPS 206 draft; AVX2 code picked at
//! run time, hardware binary64 on x86-64): `KeyPairGeneratorStandard::keygen` from a
//! 32-byte seed (its RNG argument is fed the fixture's seed), `SigningKeyStandard::sign`
//! (fed the fixture's 40-byte randomness, so the signatures are byte-identical to
//! pqsig's FN-DSA ones) and `VerifyingKeyStandard::verify`, pure mode with an empty
//! context. Object API: keys decoded once.
//!
//! Two roles:
//! * in the FN-DSA groups, the peer of pqsig's FN-DSA on the same fixture;
//! * in the Falcon groups, a **stand-in**: fn-dsa does not implement round-3 Falcon (other
//!   hashing, encodings and key generation), so it runs FN-DSA of the same degree on its
//!   FN-DSA fixture (the same seeds, messages and randomness prefixes) while the Falcon
//!   implementations run, and its rows carry a note saying so. The lattice work (NTRU
//!   generation, ffSampling, the norm checks) is the same, which is why the targets take
//!   fn-dsa as the fastest Falcon peer.

use super::{avx2_or_portable, Alg, Fixture, Loaded, SigImpl};
use fn_dsa::{
    sign_key_size, signature_size, vrfy_key_size, CryptoRng, KeyPairGenerator,
    KeyPairGeneratorStandard, RngCore, RngError, SigningKey as _, SigningKeyStandard,
    VerifyingKey as _, VerifyingKeyStandard, DOMAIN_NONE, HASH_ID_RAW,
};

/// An "RNG" handing out fixed bytes (fn-dsa draws exactly 32 bytes for keygen and 40
/// for signing).
struct Replay<'a>(&'a [u8]);

impl CryptoRng for Replay<'_> {}
impl RngCore for Replay<'_> {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
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

pub struct FnDsa {
    /// Timed in a Falcon group on its own FN-DSA fixture (module docs).
    pub stand_in: bool,
}

impl SigImpl for FnDsa {
    fn name(&self) -> &'static str {
        "fn-dsa"
    }
    fn backend(&self) -> String {
        avx2_or_portable()
    }
    fn api(&self) -> &'static str {
        "object"
    }
    fn seeded_keygen(&self) -> bool {
        true
    }
    fn deterministic(&self) -> bool {
        true
    }
    fn stand_in(&self) -> bool {
        self.stand_in
    }
    fn fpr(&self) -> Option<&'static str> {
        Some("native")
    }
    fn note(&self, alg: Alg, _op: super::Op) -> Option<String> {
        match (self.stand_in, alg.fndsa_sibling()) {
            (true, Some(s)) => Some(format!(
                "stand-in: {} (draft) on its own keys, not round-3 Falcon",
                s.name()
            )),
            _ => None,
        }
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        if self.stand_in {
            let sib = fx
                .alg
                .fndsa_sibling()
                .ok_or("no FN-DSA set of this degree")?;
            let own = fx.twin(Alg::FnDsa(sib));
            let inner = L::load(&own)?;
            Ok(Box::new(OnOwnFixture { fx: own, inner }))
        } else {
            Ok(Box::new(L::load(fx)?))
        }
    }
}

struct L {
    logn: u32,
    kgen: Box<KeyPairGeneratorStandard>,
    sks: Vec<Box<SigningKeyStandard>>,
    vks: Vec<VerifyingKeyStandard>,
    kg: Option<(Vec<u8>, Vec<u8>)>,
    sig: Option<Vec<u8>>,
}

impl L {
    fn load(fx: &Fixture) -> Result<L, String> {
        let Alg::FnDsa(ps) = fx.alg else {
            return Err("not an FN-DSA parameter set".into());
        };
        let mut sks = Vec::new();
        let mut vks = Vec::new();
        for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
            sks.push(Box::new(
                SigningKeyStandard::decode(sk).ok_or("fn-dsa rejects pqsig's signing key")?,
            ));
            vks.push(
                VerifyingKeyStandard::decode(pk).ok_or("fn-dsa rejects pqsig's verifying key")?,
            );
        }
        Ok(L {
            logn: ps.logn(),
            kgen: Box::default(),
            sks,
            vks,
            kg: None,
            sig: None,
        })
    }
}

impl Loaded for L {
    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        let mut sk = vec![0u8; sign_key_size(self.logn)];
        let mut vk = vec![0u8; vrfy_key_size(self.logn)];
        self.kgen
            .keygen(self.logn, &mut Replay(&fx.seeds[k]), &mut sk, &mut vk);
        self.kg = Some((sk, vk));
    }
    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|(_, vk)| vk.clone())
    }
    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let mut sig = vec![0u8; signature_size(self.logn)];
        self.sks[fx.key_of[i]]
            .sign(
                &mut Replay(&fx.rand[i]),
                &DOMAIN_NONE,
                &HASH_ID_RAW,
                &fx.msgs[i],
                &mut sig,
            )
            .expect("fn-dsa sign");
        self.sig = Some(sig);
    }
    fn last_sig(&self) -> Option<Vec<u8>> {
        self.sig.clone()
    }
    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        self.vks[fx.key_of[i]].verify(&fx.sigs[i], &DOMAIN_NONE, &HASH_ID_RAW, &fx.msgs[i])
    }
    fn clear(&mut self) {
        self.kg = None;
        self.sig = None;
    }
}

/// A loaded implementation working on its own fixture, whatever fixture it is handed.
struct OnOwnFixture {
    fx: Fixture,
    inner: L,
}

impl Loaded for OnOwnFixture {
    fn begin(&mut self) {
        self.inner.begin();
    }
    #[inline]
    fn keygen(&mut self, _fx: &Fixture, k: usize) {
        self.inner.keygen(&self.fx, k);
    }
    fn last_pk(&self) -> Option<Vec<u8>> {
        self.inner.last_pk()
    }
    #[inline]
    fn sign(&mut self, _fx: &Fixture, i: usize) {
        self.inner.sign(&self.fx, i);
    }
    fn last_sig(&self) -> Option<Vec<u8>> {
        self.inner.last_sig()
    }
    #[inline]
    fn verify(&mut self, _fx: &Fixture, i: usize) -> bool {
        self.inner.verify(&self.fx, i)
    }
    fn clear(&mut self) {
        self.inner.clear();
    }
}
