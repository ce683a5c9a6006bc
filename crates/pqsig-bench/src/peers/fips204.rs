//! `fips204` (IntegrityChain): `KG::keygen_from_seed(ξ)`, `PrivateKey::try_sign_with_seed`
//! with a zero seed (= deterministic ML-DSA), `PublicKey::verify`. Keys are objects
//! (`PrivateKey` / `PublicKey` hold NTT-form vectors; Â is re-expanded per call).

use super::{Fixture, Loaded, SigImpl, CTX};
use fips204::traits::{KeyGen, SerDes, Signer, Verifier};
use pqsig::mldsa::ParamSet;

pub struct Fips204;

impl SigImpl for Fips204 {
    fn name(&self) -> &'static str {
        "fips204"
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
            ParamSet::MlDsa44 => p44::load(fx),
            ParamSet::MlDsa65 => p65::load(fx),
            ParamSet::MlDsa87 => p87::load(fx),
        }
    }
}

macro_rules! adapter {
    ($m:ident, $module:ident) => {
        mod $m {
            use super::*;
            use fips204::$module as p;

            pub struct L {
                sks: Vec<p::PrivateKey>,
                pks: Vec<p::PublicKey>,
                sigs: Vec<[u8; p::SIG_LEN]>,
                kg: Option<(p::PublicKey, p::PrivateKey)>,
                sig: Option<[u8; p::SIG_LEN]>,
            }

            pub fn load(fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
                let mut sks = Vec::new();
                let mut pks = Vec::new();
                for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
                    let sk: [u8; p::SK_LEN] = sk.as_slice().try_into().map_err(|_| "sk length")?;
                    let pk: [u8; p::PK_LEN] = pk.as_slice().try_into().map_err(|_| "pk length")?;
                    sks.push(p::PrivateKey::try_from_bytes(sk)?);
                    pks.push(p::PublicKey::try_from_bytes(pk)?);
                }
                let sigs = fx
                    .sigs
                    .iter()
                    .map(|s| {
                        s.as_slice()
                            .try_into()
                            .map_err(|_| "sig length".to_string())
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Box::new(L {
                    sks,
                    pks,
                    sigs,
                    kg: None,
                    sig: None,
                }))
            }

            impl Loaded for L {
                #[inline]
                fn keygen(&mut self, fx: &Fixture, k: usize) {
                    self.kg = Some(p::KG::keygen_from_seed(fx.seed32(k)));
                }
                fn last_pk(&self) -> Option<Vec<u8>> {
                    self.kg
                        .as_ref()
                        .map(|(pk, _)| pk.clone().into_bytes().to_vec())
                }
                #[inline]
                fn sign(&mut self, fx: &Fixture, i: usize) {
                    let sk = &self.sks[fx.key_of[i]];
                    self.sig = Some(
                        sk.try_sign_with_seed(&[0u8; 32], &fx.msgs[i], CTX)
                            .expect("sign"),
                    );
                }
                fn last_sig(&self) -> Option<Vec<u8>> {
                    self.sig.map(|s| s.to_vec())
                }
                #[inline]
                fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
                    self.pks[fx.key_of[i]].verify(&fx.msgs[i], &self.sigs[i], CTX)
                }
                fn clear(&mut self) {
                    self.kg = None;
                    self.sig = None;
                }
            }
        }
    };
}

adapter!(p44, ml_dsa_44);
adapter!(p65, ml_dsa_65);
adapter!(p87, ml_dsa_87);
