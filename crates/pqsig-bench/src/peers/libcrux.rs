//! `libcrux-ml-dsa` (Cryspen, formally verified): `ml_dsa_NN::generate_key_pair(ξ)`,
//! `ml_dsa_NN::sign(sk, msg, ctx, rnd = 0^32)` (deterministic), `ml_dsa_NN::verify`.
//! Byte-oriented API: keys and signatures are byte arrays, decoded on every call. The
//! top-level functions pick the AVX2 instantiation at run time when the CPU has it.

use super::{avx2_or_portable, Fixture, Loaded, SigImpl, CTX};
use pqsig::mldsa::ParamSet;

pub struct Libcrux;

impl SigImpl for Libcrux {
    fn name(&self) -> &'static str {
        "libcrux-ml-dsa"
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
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        match fx.mldsa() {
            ParamSet::MlDsa44 => p44::load(fx),
            ParamSet::MlDsa65 => p65::load(fx),
            ParamSet::MlDsa87 => p87::load(fx),
        }
    }
}

macro_rules! adapter {
    ($m:ident, $module:ident, $Kp:ident, $Sk:ident, $Vk:ident, $Sig:ident) => {
        mod $m {
            use super::*;
            use libcrux_ml_dsa::$module::{self as p, $Kp, $Sig, $Sk, $Vk};

            pub struct L {
                sks: Vec<$Sk>,
                vks: Vec<$Vk>,
                sigs: Vec<$Sig>,
                kg: Option<$Kp>,
                sig: Option<$Sig>,
            }

            pub fn load(fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
                let mut sks = Vec::new();
                let mut vks = Vec::new();
                for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
                    sks.push($Sk::new(sk.as_slice().try_into().map_err(|_| "sk length")?));
                    vks.push($Vk::new(pk.as_slice().try_into().map_err(|_| "pk length")?));
                }
                let mut sigs = Vec::new();
                for s in &fx.sigs {
                    sigs.push($Sig::new(
                        s.as_slice().try_into().map_err(|_| "sig length")?,
                    ));
                }
                Ok(Box::new(L {
                    sks,
                    vks,
                    sigs,
                    kg: None,
                    sig: None,
                }))
            }

            impl Loaded for L {
                #[inline]
                fn keygen(&mut self, fx: &Fixture, k: usize) {
                    self.kg = Some(p::generate_key_pair(*fx.seed32(k)));
                }
                fn last_pk(&self) -> Option<Vec<u8>> {
                    self.kg
                        .as_ref()
                        .map(|kp| kp.verification_key.as_slice().to_vec())
                }
                #[inline]
                fn sign(&mut self, fx: &Fixture, i: usize) {
                    let sk = &self.sks[fx.key_of[i]];
                    self.sig = Some(p::sign(sk, &fx.msgs[i], CTX, [0u8; 32]).expect("sign"));
                }
                fn last_sig(&self) -> Option<Vec<u8>> {
                    self.sig.as_ref().map(|s| s.as_slice().to_vec())
                }
                #[inline]
                fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
                    p::verify(&self.vks[fx.key_of[i]], &fx.msgs[i], CTX, &self.sigs[i]).is_ok()
                }
                fn clear(&mut self) {
                    self.kg = None;
                    self.sig = None;
                }
            }
        }
    };
}

adapter!(
    p44,
    ml_dsa_44,
    MLDSA44KeyPair,
    MLDSA44SigningKey,
    MLDSA44VerificationKey,
    MLDSA44Signature
);
adapter!(
    p65,
    ml_dsa_65,
    MLDSA65KeyPair,
    MLDSA65SigningKey,
    MLDSA65VerificationKey,
    MLDSA65Signature
);
adapter!(
    p87,
    ml_dsa_87,
    MLDSA87KeyPair,
    MLDSA87SigningKey,
    MLDSA87VerificationKey,
    MLDSA87Signature
);
