//! Ours for SNOVA (Round 3), on one backend, in one API form:
//! * `object`: `SigningKey` / `VerifyingKey` decoded once and reused. `SigningKey` holds
//!   only the 96-byte seeds, so every signature expands the secret key (T12 from
//!   SHAKE256(s_priv), P11/P12/P21 from the public seed, F11/F12/F21), and every
//!   verification expands P from the public seed: the work the reference code does per
//!   call (its `crypto_sign` / `crypto_sign_open` take key bytes). Keygen is timed in this
//!   form (`keygen_from_seed` from the 48-byte draw).
//! * `expanded` (sign only): `SigningKey::expand()` once, then signing with the
//!   precomputed T12 / F11 / F12 / F21 (`ExpandedSigningKey`).
//! * `prepared` (verify only): `VerifyingKey::prepare()` once (the expanded public
//!   matrices cached), then verification (`PreparedVerifyingKey`).
//!
//! Signing takes the fixture's 16-byte salt (`sign_with_salt`), so every form reproduces
//! the fixture's signatures byte for byte.

use super::{snova_salt, Alg, Api, Fixture, Loaded, Op, SigImpl};
use pqsig::backend::set_backend;
use pqsig::snova::{self, ExpandedSigningKey, PreparedVerifyingKey, SigningKey, VerifyingKey};
use pqsig::Backend;

fn err(e: pqsig::Error) -> String {
    format!("{e:?}")
}

/// SNOVA Round 3 (all 18 sets).
pub struct PqsigSnova {
    backend: Backend,
    api: Api,
}

impl PqsigSnova {
    pub fn new(backend: Backend, api: Api) -> Self {
        PqsigSnova { backend, api }
    }
}

impl SigImpl for PqsigSnova {
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
            Api::Expanded => op == Op::Sign,
            Api::Prepared => op == Op::Verify,
            _ => true,
        }
    }
    fn note(&self, _alg: Alg, op: Op) -> Option<String> {
        match (self.api, op) {
            (Api::Object, Op::Sign) => Some("secret key expanded per signature".into()),
            (Api::Object, Op::Verify) => Some("P expanded from the seed per call".into()),
            (Api::Expanded, Op::Sign) => Some("expanded key (T12, F11/F12/F21 cached)".into()),
            (Api::Prepared, Op::Verify) => Some("prepared key (expanded P cached)".into()),
            _ => None,
        }
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        let Alg::Snova(ps) = fx.alg else {
            return Err("not a SNOVA parameter set".into());
        };
        set_backend(self.backend).map_err(err)?;
        let (mut sks, mut esks, mut vks, mut pvks) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (sk, pk) in fx.sk.iter().zip(fx.pk.iter()) {
            let s = SigningKey::from_bytes(ps, sk)
                .and_then(|s| s.with_backend(self.backend))
                .map_err(err)?;
            let v = VerifyingKey::from_bytes(ps, pk)
                .and_then(|v| v.with_backend(self.backend))
                .map_err(err)?;
            match self.api {
                Api::Expanded => esks.push(s.expand()),
                Api::Prepared => pvks.push(v.prepare()),
                _ => {
                    sks.push(s);
                    vks.push(v);
                }
            }
        }
        Ok(Box::new(SnovaLoaded {
            ps,
            backend: self.backend,
            api: self.api,
            sks,
            esks,
            vks,
            pvks,
            kg: None,
            sig: None,
        }))
    }
}

struct SnovaLoaded {
    ps: snova::ParamSet,
    backend: Backend,
    api: Api,
    sks: Vec<SigningKey>,
    esks: Vec<ExpandedSigningKey>,
    vks: Vec<VerifyingKey>,
    pvks: Vec<PreparedVerifyingKey>,
    kg: Option<(SigningKey, VerifyingKey)>,
    sig: Option<Vec<u8>>,
}

impl Loaded for SnovaLoaded {
    fn begin(&mut self) {
        // Keygen runs on the process-wide backend: pin ours.
        set_backend(self.backend).expect("backend available");
    }

    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        self.kg = Some(snova::keygen_from_seed(self.ps, &fx.seeds[k]).expect("keygen"));
    }

    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|(_, v)| v.to_bytes().to_vec())
    }

    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let k = fx.key_of[i];
        let salt = snova_salt(&fx.rand[i]);
        let m = &fx.msgs[i];
        let sig = match self.api {
            Api::Expanded => self.esks[k].sign_with_salt(m, salt),
            _ => self.sks[k].sign_with_salt(m, salt),
        };
        self.sig = Some(sig.expect("sign"));
    }

    fn last_sig(&self) -> Option<Vec<u8>> {
        self.sig.clone()
    }

    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        let k = fx.key_of[i];
        let (m, sig) = (&fx.msgs[i], &fx.sigs[i]);
        match self.api {
            Api::Prepared => self.pvks[k].verify(m, sig),
            _ => self.vks[k].verify(m, sig),
        }
        .is_ok()
    }

    fn clear(&mut self) {
        self.kg = None;
        self.sig = None;
        let _ = self.backend;
    }
}
