//! `ml-dsa` (RustCrypto): `SigningKey::<P>::from_seed(ξ)`, the `signature::Signer` impl
//! of `SigningKey` (deterministic ML-DSA, empty context) followed by `Signature::encode`,
//! and `VerifyingKey::verify_with_context` after `Signature::try_from(&[u8])` (sigDecode).
//! Keys are objects that cache Â (signing key from ξ, verifying key decoded from bytes).

use super::{Fixture, Loaded, SigImpl, CTX};
use ml_dsa::signature::{Keypair, Signer};
use ml_dsa::{
    EncodedVerifyingKey, MlDsa44, MlDsa65, MlDsa87, MlDsaParams, Seed, Signature, SigningKey,
    VerifyingKey,
};
use pqsig::mldsa::ParamSet;

pub struct MlDsa;

impl SigImpl for MlDsa {
    fn name(&self) -> &'static str {
        "ml-dsa"
    }
    fn backend(&self) -> String {
        "portable".into()
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
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        match fx.mldsa() {
            ParamSet::MlDsa44 => L::<MlDsa44>::load(fx),
            ParamSet::MlDsa65 => L::<MlDsa65>::load(fx),
            ParamSet::MlDsa87 => L::<MlDsa87>::load(fx),
        }
    }
}

struct L<P: MlDsaParams> {
    sks: Vec<SigningKey<P>>,
    vks: Vec<VerifyingKey<P>>,
    kg: Option<SigningKey<P>>,
    sig: Option<ml_dsa::EncodedSignature<P>>,
}

impl<P: MlDsaParams + 'static> L<P> {
    fn load(fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        let mut sks = Vec::new();
        let mut vks = Vec::new();
        for (k, pk) in fx.pk.iter().enumerate() {
            sks.push(SigningKey::<P>::from_seed(&Seed::from(*fx.seed32(k))));
            let enc = EncodedVerifyingKey::<P>::try_from(pk.as_slice()).map_err(|_| "pk length")?;
            vks.push(VerifyingKey::<P>::decode(&enc));
        }
        Ok(Box::new(L {
            sks,
            vks,
            kg: None,
            sig: None,
        }))
    }
}

impl<P: MlDsaParams + 'static> Loaded for L<P> {
    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        self.kg = Some(SigningKey::<P>::from_seed(&Seed::from(*fx.seed32(k))));
    }
    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg
            .as_ref()
            .map(|sk| sk.verifying_key().encode().to_vec())
    }
    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let sk = &self.sks[fx.key_of[i]];
        let sig: Signature<P> = sk.try_sign(&fx.msgs[i]).expect("sign");
        self.sig = Some(sig.encode());
    }
    fn last_sig(&self) -> Option<Vec<u8>> {
        self.sig.as_ref().map(|s| s.to_vec())
    }
    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        match Signature::<P>::try_from(fx.sigs[i].as_slice()) {
            Ok(sig) => self.vks[fx.key_of[i]].verify_with_context(&fx.msgs[i], CTX, &sig),
            Err(_) => false,
        }
    }
    fn clear(&mut self) {
        self.kg = None;
        self.sig = None;
    }
}
