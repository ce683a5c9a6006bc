//! `aws-lc-rs` (AWS-LC, whose ML-DSA is mldsa-native: C with AVX2 assembly): `PqdsaKeyPair::from_seed(ξ)` (seeded
//! keygen), `PqdsaKeyPair::sign` (**hedged**: AWS-LC draws rnd itself, empty context) and
//! `ParsedPublicKey::verify_sig` (pure ML-DSA, empty context). The ML-DSA API is stable
//! since aws-lc-rs 1.18 (`aws_lc_rs::signature::ML_DSA_*`); the old
//! `aws_lc_rs::unstable::signature` names are deprecated aliases of it, so the `unstable`
//! feature is not needed. Signing keys are the fixture's expanded private keys
//! (`from_raw_private_key`), verifying keys parsed once (`object`).

use super::{avx2_or_portable, Fixture, Loaded, SigImpl};
use aws_lc_rs::signature::{
    KeyPair, ParsedPublicKey, PqdsaKeyPair, PqdsaSigningAlgorithm, PqdsaVerificationAlgorithm,
    ML_DSA_44, ML_DSA_44_SIGNING, ML_DSA_65, ML_DSA_65_SIGNING, ML_DSA_87, ML_DSA_87_SIGNING,
};
use pqsig::mldsa::ParamSet;

pub struct AwsLcRs;

fn algorithms(
    ps: ParamSet,
) -> (
    &'static PqdsaSigningAlgorithm,
    &'static PqdsaVerificationAlgorithm,
) {
    match ps {
        ParamSet::MlDsa44 => (&ML_DSA_44_SIGNING, &ML_DSA_44),
        ParamSet::MlDsa65 => (&ML_DSA_65_SIGNING, &ML_DSA_65),
        ParamSet::MlDsa87 => (&ML_DSA_87_SIGNING, &ML_DSA_87),
    }
}

impl SigImpl for AwsLcRs {
    fn name(&self) -> &'static str {
        "aws-lc-rs"
    }
    fn backend(&self) -> String {
        // AWS-LC's ML-DSA is mldsa-native, whose x86-64 AVX2 assembly (NTT, pointwise
        // products, rejection samplers, decompose/use-hint) is picked at run time.
        avx2_or_portable()
    }
    fn api(&self) -> &'static str {
        "object"
    }
    fn seeded_keygen(&self) -> bool {
        true
    }
    fn deterministic(&self) -> bool {
        false
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        let (signing, verification) = algorithms(fx.mldsa());
        let mut sks = Vec::new();
        let mut vks = Vec::new();
        for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
            sks.push(
                PqdsaKeyPair::from_raw_private_key(signing, sk).map_err(|e| format!("sk: {e}"))?,
            );
            vks.push(ParsedPublicKey::new(verification, pk).map_err(|e| format!("pk: {e}"))?);
        }
        Ok(Box::new(L {
            signing,
            sks,
            vks,
            kg: None,
            sig: None,
        }))
    }
}

struct L {
    signing: &'static PqdsaSigningAlgorithm,
    sks: Vec<PqdsaKeyPair>,
    vks: Vec<ParsedPublicKey>,
    kg: Option<PqdsaKeyPair>,
    sig: Option<Vec<u8>>,
}

impl Loaded for L {
    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        self.kg = Some(PqdsaKeyPair::from_seed(self.signing, fx.seed32(k)).expect("keygen"));
    }
    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|kp| kp.public_key().as_ref().to_vec())
    }
    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let kp = &self.sks[fx.key_of[i]];
        let mut sig = vec![0u8; self.signing.signature_len()];
        let n = kp.sign(&fx.msgs[i], &mut sig).expect("sign");
        sig.truncate(n);
        self.sig = Some(sig);
    }
    fn last_sig(&self) -> Option<Vec<u8>> {
        self.sig.clone()
    }
    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        self.vks[fx.key_of[i]]
            .verify_sig(&fx.msgs[i], &fx.sigs[i])
            .is_ok()
    }
    fn clear(&mut self) {
        self.kg = None;
        self.sig = None;
    }
}

#[cfg(test)]
mod tests {
    //! The cross-check the benchmark's self-checks make, as a test: aws-lc-rs and pqsig
    //! agree on keys from ξ and accept each other's signatures (and reject tampered ones).
    use super::*;
    use crate::peers::Alg;

    #[test]
    fn aws_lc_rs_and_pqsig_accept_each_other() {
        for ps in ParamSet::ALL {
            let fx = Fixture::new(Alg::MlDsa(ps), 3, 2, 33);
            let mut l = AwsLcRs.load(&fx).expect("load");
            for k in 0..fx.keys() {
                l.keygen(&fx, k);
                assert_eq!(l.last_pk().as_deref(), Some(fx.pk[k].as_slice()), "{ps:?}");
                l.clear();
            }
            for i in 0..fx.pairs() {
                // pqsig verifies aws-lc-rs's (hedged) signature ...
                l.sign(&fx, i);
                let mut sig = l.last_sig().expect("signature");
                l.clear();
                assert!(fx.verify_ref(i, &sig), "{ps:?} pair {i}");
                sig[7] ^= 1;
                assert!(!fx.verify_ref(i, &sig));
                // ... and aws-lc-rs verifies pqsig's.
                assert!(l.verify(&fx, i), "{ps:?} pair {i}");
            }
            let vk = &fx.pk[fx.key_of[0]];
            let parsed = ParsedPublicKey::new(algorithms(ps).1, vk).expect("pk");
            assert!(parsed.verify_sig(b"not the message", &fx.sigs[0]).is_err());
        }
    }
}
