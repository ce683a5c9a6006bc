//! `pqcrypto-mldsa` (PQClean, AVX2 implementation when the CPU has it, else "clean"):
//! `keypair()` (its own RNG: PQClean has no seeded keygen), `detached_sign_ctx` (hedged:
//! PQClean always draws rnd from its RNG) and `verify_detached_signature_ctx`.
//! Byte-oriented API: `SecretKey` / `PublicKey` / `DetachedSignature` wrap byte arrays.
//! It signs with the fixture's private keys, so only rnd differs from the others.

use super::{avx2_or_portable, Fixture, Loaded, SigImpl, CTX};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};
use pqsig::mldsa::ParamSet;

pub struct Pqcrypto;

impl SigImpl for Pqcrypto {
    fn name(&self) -> &'static str {
        "pqcrypto-mldsa"
    }
    fn backend(&self) -> String {
        avx2_or_portable()
    }
    fn api(&self) -> &'static str {
        "bytes"
    }
    fn seeded_keygen(&self) -> bool {
        false
    }
    fn deterministic(&self) -> bool {
        false
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
            use pqcrypto_mldsa::$module as p;

            pub struct L {
                sks: Vec<p::SecretKey>,
                pks: Vec<p::PublicKey>,
                sigs: Vec<p::DetachedSignature>,
                kg: Option<(p::PublicKey, p::SecretKey)>,
                sig: Option<p::DetachedSignature>,
            }

            pub fn load(fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
                let mut sks = Vec::new();
                let mut pks = Vec::new();
                for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
                    sks.push(p::SecretKey::from_bytes(sk).map_err(|e| format!("{e:?}"))?);
                    pks.push(p::PublicKey::from_bytes(pk).map_err(|e| format!("{e:?}"))?);
                }
                let mut sigs = Vec::new();
                for s in &fx.sigs {
                    sigs.push(p::DetachedSignature::from_bytes(s).map_err(|e| format!("{e:?}"))?);
                }
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
                fn keygen(&mut self, _fx: &Fixture, _k: usize) {
                    self.kg = Some(p::keypair());
                }
                fn last_pk(&self) -> Option<Vec<u8>> {
                    self.kg.as_ref().map(|(pk, _)| pk.as_bytes().to_vec())
                }
                #[inline]
                fn sign(&mut self, fx: &Fixture, i: usize) {
                    let sk = &self.sks[fx.key_of[i]];
                    self.sig = Some(p::detached_sign_ctx(&fx.msgs[i], CTX, sk));
                }
                fn last_sig(&self) -> Option<Vec<u8>> {
                    self.sig.as_ref().map(|s| s.as_bytes().to_vec())
                }
                #[inline]
                fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
                    p::verify_detached_signature_ctx(
                        &self.sigs[i],
                        &fx.msgs[i],
                        CTX,
                        &self.pks[fx.key_of[i]],
                    )
                    .is_ok()
                }
                fn clear(&mut self) {
                    self.kg = None;
                    self.sig = None;
                }
            }
        }
    };
}

adapter!(p44, mldsa44);
adapter!(p65, mldsa65);
adapter!(p87, mldsa87);
