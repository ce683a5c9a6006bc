//! Ours, on one backend, in one of two API forms:
//! * `object`: keys decoded once into `SigningKey` / `VerifyingKey` (which cache Â and the
//!   NTT-form secrets), then sign/verify many times — the natural use of the API;
//! * `bytes`: decode the key from bytes and sign/verify, all inside the timed region —
//!   what a byte-oriented API (libcrux, PQClean, liboqs) does on every call.

use super::{Api, Fixture, Loaded, SigImpl, CTX};
use pqsig::backend::set_backend;
use pqsig::mldsa::{self, SigningKey, VerifyingKey};
use pqsig::Backend;

/// ML-DSA keys have no separate expanded form (the key object already caches Â and the
/// NTT-form secrets): `Api::Expanded` behaves as `Api::Object` and is not listed.
pub struct Pqsig {
    backend: Backend,
    api: Api,
}

impl Pqsig {
    pub fn new(backend: Backend, api: Api) -> Self {
        Pqsig { backend, api }
    }
}

impl SigImpl for Pqsig {
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
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        set_backend(self.backend).map_err(|e| format!("{e:?}"))?;
        let (mut sks, mut vks) = (Vec::new(), Vec::new());
        if self.api != Api::Bytes {
            for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
                let s = SigningKey::from_expanded(fx.mldsa(), sk).map_err(|e| format!("{e:?}"))?;
                let v = VerifyingKey::from_bytes(fx.mldsa(), pk).map_err(|e| format!("{e:?}"))?;
                sks.push(s.with_backend(self.backend).map_err(|e| format!("{e:?}"))?);
                vks.push(v.with_backend(self.backend).map_err(|e| format!("{e:?}"))?);
            }
        }
        Ok(Box::new(PqsigLoaded {
            backend: self.backend,
            api: self.api,
            sks,
            vks,
            kg: None,
            kg_bytes: None,
            sig: None,
        }))
    }
}

struct PqsigLoaded {
    backend: Backend,
    api: Api,
    sks: Vec<SigningKey>,
    vks: Vec<VerifyingKey>,
    kg: Option<(SigningKey, VerifyingKey)>,
    kg_bytes: Option<(zeroize::Zeroizing<Vec<u8>>, Vec<u8>)>,
    sig: Option<Vec<u8>>,
}

impl Loaded for PqsigLoaded {
    fn begin(&mut self) {
        // The bytes form decodes on the process-wide backend: pin ours.
        set_backend(self.backend).expect("backend available");
    }

    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        match self.api {
            Api::Object | Api::Expanded | Api::Prepared => {
                let kp = mldsa::keygen_internal_on(fx.mldsa(), fx.seed32(k), self.backend);
                self.kg = Some(kp.expect("keygen"));
            }
            // Straight to the encodings, as a caller that stores keys as bytes (and a C
            // library's keypair call) gets them: no key objects, no NTT-domain caches.
            Api::Bytes => {
                let (pk, sk) =
                    mldsa::keygen_internal_bytes_on(fx.mldsa(), fx.seed32(k), self.backend)
                        .expect("keygen");
                self.kg_bytes = Some((sk, pk));
            }
        }
    }

    fn last_pk(&self) -> Option<Vec<u8>> {
        match self.api {
            Api::Object | Api::Expanded | Api::Prepared => {
                self.kg.as_ref().map(|(_, v)| v.to_bytes().to_vec())
            }
            Api::Bytes => self.kg_bytes.as_ref().map(|(_, p)| p.clone()),
        }
    }

    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let k = fx.key_of[i];
        let sig = match self.api {
            Api::Object | Api::Expanded | Api::Prepared => {
                self.sks[k].sign_deterministic(&fx.msgs[i], CTX)
            }
            Api::Bytes => SigningKey::from_expanded(fx.mldsa(), &fx.sk[k])
                .and_then(|s| s.sign_deterministic(&fx.msgs[i], CTX)),
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
                self.vks[k].verify(&fx.msgs[i], CTX, &fx.sigs[i]).is_ok()
            }
            Api::Bytes => VerifyingKey::from_bytes(fx.mldsa(), &fx.pk[k])
                .and_then(|v| v.verify(&fx.msgs[i], CTX, &fx.sigs[i]))
                .is_ok(),
        }
    }

    fn clear(&mut self) {
        self.kg = None;
        self.kg_bytes = None;
        self.sig = None;
    }
}
