//! Ours for Falcon (round 3) and FN-DSA (draft), on one backend, in one API form:
//! * `object`: keys decoded once into `SigningKey` / `VerifyingKey` and reused; Falcon
//!   signs in *dynamic* mode (the LDL tree recomputed per signature, as the reference's
//!   `sign_dyn`);
//! * `expanded` (Falcon, sign only): `SigningKey::expand()` once, then signing with the
//!   precomputed tree (the reference's `sign_tree`);
//! * `bytes`: decode the key from bytes and sign/verify, all inside the timed region —
//!   what PQClean and liboqs do on every call.
//!
//! Signing takes the fixture's randomness (Falcon: nonce and sampler seed; FN-DSA: the
//! 40-byte seed), so every form reproduces the fixture's signatures byte for byte.
//! Keygen is timed in the `object` form only (building the key objects from the seed;
//! the encodings come with them).

use super::{falcon_rand, Alg, Api, Fixture, Loaded, Op, SigImpl, CTX};
use pqsig::backend::set_backend;
use pqsig::falcon::{self, fndsa, ExpandedSigningKey, SigningKey, VerifyingKey};
use pqsig::kernels::falcon::fpr::FPR_IMPL;
use pqsig::Backend;

fn err(e: pqsig::Error) -> String {
    format!("{e:?}")
}

/// Round-3 Falcon.
pub struct PqsigFalcon {
    backend: Backend,
    api: Api,
}

impl PqsigFalcon {
    pub fn new(backend: Backend, api: Api) -> Self {
        PqsigFalcon { backend, api }
    }
}

impl SigImpl for PqsigFalcon {
    fn name(&self) -> &'static str {
        "pqsig"
    }
    fn backend(&self) -> String {
        self.backend.name().into()
    }
    fn api(&self) -> &'static str {
        self.api.name()
    }
    fn seeded_keygen(&self) -> bool {
        true
    }
    fn deterministic(&self) -> bool {
        true
    }
    fn runs(&self, op: Op) -> bool {
        match self.api {
            Api::Object | Api::Prepared => true,
            Api::Expanded => op == Op::Sign,
            Api::Bytes => op != Op::Keygen,
        }
    }
    fn fpr(&self) -> Option<&'static str> {
        Some(FPR_IMPL)
    }
    fn note(&self, _alg: Alg, op: Op) -> Option<String> {
        match (self.api, op) {
            (Api::Object, Op::Sign) => Some("dynamic (tree per signature)".into()),
            (Api::Expanded, Op::Sign) => Some("expanded key (precomputed tree)".into()),
            _ => None,
        }
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        let Alg::Falcon(ps) = fx.alg else {
            return Err("not a Falcon parameter set".into());
        };
        set_backend(self.backend).map_err(err)?;
        let (mut sks, mut esks, mut vks) = (Vec::new(), Vec::new(), Vec::new());
        if self.api != Api::Bytes {
            for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
                let s = SigningKey::from_bytes(ps, sk).map_err(err)?;
                let s = s.with_backend(self.backend).map_err(err)?;
                if self.api == Api::Expanded {
                    esks.push(s.expand());
                } else {
                    sks.push(s);
                }
                let v = VerifyingKey::from_bytes(ps, pk).map_err(err)?;
                vks.push(v.with_backend(self.backend).map_err(err)?);
            }
        }
        Ok(Box::new(FalconLoaded {
            ps,
            backend: self.backend,
            api: self.api,
            sks,
            esks,
            vks,
            kg: None,
            sig: None,
        }))
    }
}

struct FalconLoaded {
    ps: falcon::ParamSet,
    backend: Backend,
    api: Api,
    sks: Vec<SigningKey>,
    esks: Vec<ExpandedSigningKey>,
    vks: Vec<VerifyingKey>,
    kg: Option<(SigningKey, VerifyingKey)>,
    sig: Option<Vec<u8>>,
}

impl Loaded for FalconLoaded {
    fn begin(&mut self) {
        // Keygen and the bytes form run on the process-wide backend: pin ours.
        set_backend(self.backend).expect("backend available");
    }

    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        self.kg = Some(falcon::keygen_from_seed(self.ps, &fx.seeds[k]).expect("keygen"));
    }

    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|(_, v)| v.to_bytes().to_vec())
    }

    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let k = fx.key_of[i];
        let (nonce, seed) = falcon_rand(&fx.rand[i]);
        let m = &fx.msgs[i];
        let sig = match self.api {
            Api::Object | Api::Prepared => self.sks[k].sign_with_nonce_and_seed(m, nonce, seed),
            Api::Expanded => self.esks[k].sign_with_nonce_and_seed(m, nonce, seed),
            Api::Bytes => SigningKey::from_bytes(self.ps, &fx.sk[k])
                .and_then(|s| s.sign_with_nonce_and_seed(m, nonce, seed)),
        };
        self.sig = Some(sig.expect("sign"));
    }

    fn last_sig(&self) -> Option<Vec<u8>> {
        self.sig.clone()
    }

    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        let k = fx.key_of[i];
        match self.api {
            Api::Object | Api::Expanded | Api::Prepared => {
                self.vks[k].verify(&fx.msgs[i], &fx.sigs[i])
            }
            Api::Bytes => VerifyingKey::from_bytes(self.ps, &fx.pk[k])
                .and_then(|v| v.verify(&fx.msgs[i], &fx.sigs[i])),
        }
        .is_ok()
    }

    fn clear(&mut self) {
        self.kg = None;
        self.sig = None;
    }
}

/// FN-DSA (draft).
pub struct PqsigFnDsa {
    backend: Backend,
    api: Api,
}

impl PqsigFnDsa {
    pub fn new(backend: Backend, api: Api) -> Self {
        PqsigFnDsa { backend, api }
    }
}

impl SigImpl for PqsigFnDsa {
    fn name(&self) -> &'static str {
        "pqsig"
    }
    fn backend(&self) -> String {
        self.backend.name().into()
    }
    fn api(&self) -> &'static str {
        self.api.name()
    }
    fn seeded_keygen(&self) -> bool {
        true
    }
    fn deterministic(&self) -> bool {
        true
    }
    fn runs(&self, op: Op) -> bool {
        self.api == Api::Object || op != Op::Keygen
    }
    fn fpr(&self) -> Option<&'static str> {
        Some(FPR_IMPL)
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        let Alg::FnDsa(ps) = fx.alg else {
            return Err("not an FN-DSA parameter set".into());
        };
        set_backend(self.backend).map_err(err)?;
        let (mut sks, mut vks) = (Vec::new(), Vec::new());
        if self.api != Api::Bytes {
            for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
                let s = fndsa::SigningKey::from_bytes(sk).map_err(err)?;
                sks.push(s.with_backend(self.backend).map_err(err)?);
                let v = fndsa::VerifyingKey::from_bytes(pk).map_err(err)?;
                vks.push(v.with_backend(self.backend).map_err(err)?);
            }
        }
        Ok(Box::new(FnDsaLoaded {
            logn: ps.logn(),
            backend: self.backend,
            api: self.api,
            sks,
            vks,
            kg: None,
            sig: None,
        }))
    }
}

struct FnDsaLoaded {
    logn: u32,
    backend: Backend,
    api: Api,
    sks: Vec<fndsa::SigningKey>,
    vks: Vec<fndsa::VerifyingKey>,
    kg: Option<(fndsa::SigningKey, fndsa::VerifyingKey)>,
    sig: Option<Vec<u8>>,
}

impl Loaded for FnDsaLoaded {
    fn begin(&mut self) {
        set_backend(self.backend).expect("backend available");
    }

    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        self.kg = Some(fndsa::keygen_from_seed(self.logn, &fx.seeds[k]).expect("keygen"));
    }

    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|(_, v)| v.to_bytes().to_vec())
    }

    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let k = fx.key_of[i];
        let (m, r) = (&fx.msgs[i], &fx.rand[i]);
        let sig = match self.api {
            Api::Bytes => {
                fndsa::SigningKey::from_bytes(&fx.sk[k]).and_then(|s| s.sign_with_seed(m, CTX, r))
            }
            _ => self.sks[k].sign_with_seed(m, CTX, r),
        };
        self.sig = Some(sig.expect("sign"));
    }

    fn last_sig(&self) -> Option<Vec<u8>> {
        self.sig.clone()
    }

    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        let k = fx.key_of[i];
        let (m, s) = (&fx.msgs[i], &fx.sigs[i]);
        match self.api {
            Api::Bytes => {
                fndsa::VerifyingKey::from_bytes(&fx.pk[k]).and_then(|v| v.verify(m, CTX, s))
            }
            _ => self.vks[k].verify(m, CTX, s),
        }
        .is_ok()
    }

    fn clear(&mut self) {
        self.kg = None;
        self.sig = None;
    }
}
