//! `oqs` (liboqs Rust bindings; liboqs built from the vendored sources as a "distributable"
//! build, which picks the AVX2 code at run time when the CPU has it: pq-crystals ML-DSA,
//! PQClean's Falcon AVX2 port): `Sig::keypair`, `Sig::sign_with_ctx_str` / `Sig::sign`,
//! `Sig::verify_with_ctx_str` / `Sig::verify`. Byte-oriented API (keys and signatures
//! are byte buffers). The oqs 0.11 bindings name Falcon-512 and Falcon-1024 only (not the
//! padded sets).
//!
//! liboqs takes all its randomness from `OQS_randombytes`, which its public API lets the
//! caller replace (`OQS_randombytes_custom_algorithm`, the hook liboqs uses for KATs). We
//! install a source that replays a script of bytes and then returns zeros: ML-DSA keygen
//! gets ξ and sign gets rnd = 0^32; Falcon keygen gets the 48-byte seed and sign the
//! nonce (40) then the sampler seed (48), the two draws `crypto_sign_signature` makes.
//! That makes liboqs reproduce pqsig's keys and signatures with no change to the code
//! being timed.
//!
//! **Falcon and the symbol clash.** liboqs vendors PQClean's Falcon under PQClean's own
//! symbol names (`PQCLEAN_FALCON512_AVX2_crypto_sign_keypair`, ...), and so does
//! `pqcrypto-falcon`. Both are static archives in this binary and the linker keeps one
//! copy of each object: liboqs's Falcon entry points may end up calling pqcrypto-falcon's
//! copy, which draws randomness from getrandom (`PQCRYPTO_RUST_randombytes`) instead of
//! `OQS_randombytes`. The source is the same PQClean code either way. Which copy was
//! kept is probed at start-up ([`super::pqcrypto_falcon::reads_oqs_randombytes`]): if the
//! hook does not reach it, the oqs Falcon rows run unseeded (own RNG, signatures checked
//! with pqsig's verify) and say so in their note.

use super::{avx2_or_portable, Alg, Fixture, Loaded, SigImpl, CTX};
use oqs::sig::{Algorithm, PublicKey, SecretKey, Sig, Signature};
use pqsig::falcon::ParamSet as FalconPs;
use pqsig::mldsa::ParamSet;
use std::cell::RefCell;

/// The longest script: Falcon's nonce ‖ sampler seed.
const SCRIPT_MAX: usize = 88;

/// Bytes for the next `OQS_randombytes` calls, consumed in order; zeros once used up.
struct Script {
    bytes: [u8; SCRIPT_MAX],
    len: usize,
    pos: usize,
}

thread_local! {
    static SCRIPT: RefCell<Script> = const {
        RefCell::new(Script { bytes: [0; SCRIPT_MAX], len: 0, pos: 0 })
    };
}

/// Makes the next `OQS_randombytes` calls return `bytes` (then zeros).
#[inline]
pub(super) fn script(bytes: &[u8]) {
    SCRIPT.with(|s| {
        let mut s = s.borrow_mut();
        s.bytes[..bytes.len()].copy_from_slice(bytes);
        s.len = bytes.len();
        s.pos = 0;
    });
}

/// Our `OQS_randombytes` source: the rest of the script, then zeros.
unsafe extern "C" fn scripted_randombytes(buf: *mut u8, len: usize) {
    if buf.is_null() || len == 0 {
        return;
    }
    // SAFETY: liboqs passes a writable buffer of `len` bytes.
    let out = unsafe { std::slice::from_raw_parts_mut(buf, len) };
    SCRIPT.with(|s| {
        let mut s = s.borrow_mut();
        let take = (s.len - s.pos).min(len);
        out[..take].copy_from_slice(&s.bytes[s.pos..s.pos + take]);
        out[take..].fill(0);
        s.pos += take;
    });
}

pub(super) fn install_rng_hook() {
    oqs::init();
    // SAFETY: the callback matches liboqs' `void (*)(uint8_t *, size_t)` and never unwinds.
    unsafe { oqs::ffi::rand::OQS_randombytes_custom_algorithm(Some(scripted_randombytes)) };
}

fn algorithm(alg: Alg) -> Option<Algorithm> {
    Some(match alg {
        Alg::MlDsa(ParamSet::MlDsa44) => Algorithm::MlDsa44,
        Alg::MlDsa(ParamSet::MlDsa65) => Algorithm::MlDsa65,
        Alg::MlDsa(ParamSet::MlDsa87) => Algorithm::MlDsa87,
        Alg::Falcon(FalconPs::Falcon512) => Algorithm::Falcon512,
        Alg::Falcon(FalconPs::Falcon1024) => Algorithm::Falcon1024,
        _ => return None,
    })
}

pub struct Oqs {
    /// Whether `OQS_randombytes` reaches the code (always for ML-DSA; for Falcon, see the
    /// module docs).
    hooked: bool,
    falcon: bool,
}

impl Oqs {
    pub fn mldsa() -> Self {
        install_rng_hook();
        Oqs {
            hooked: true,
            falcon: false,
        }
    }

    /// `hooked`: whether the randomness hook reaches the Falcon code liboqs calls.
    pub fn falcon(hooked: bool) -> Self {
        install_rng_hook();
        Oqs {
            hooked,
            falcon: true,
        }
    }

    /// Whether the bindings name this parameter set.
    pub fn supports(alg: Alg) -> bool {
        algorithm(alg).is_some()
    }
}

impl SigImpl for Oqs {
    fn name(&self) -> &'static str {
        "oqs"
    }
    fn backend(&self) -> String {
        avx2_or_portable()
    }
    fn api(&self) -> &'static str {
        "bytes"
    }
    fn seeded_keygen(&self) -> bool {
        self.hooked
    }
    fn deterministic(&self) -> bool {
        self.hooked
    }
    fn fpr(&self) -> Option<&'static str> {
        if !self.falcon {
            return None;
        }
        // Falcon: the AVX2 port uses hardware binary64 (this CPU has AVX2 whenever the
        // backend column says so; liboqs's portable Falcon would emulate).
        Some(if avx2_or_portable() == "avx2" {
            "native"
        } else {
            "emulated"
        })
    }
    fn note(&self, alg: Alg, op: super::Op) -> Option<String> {
        let ml = matches!(alg, Alg::MlDsa(_));
        if !self.hooked {
            return match op {
                super::Op::Verify => None,
                _ => Some(
                    "own RNG: liboqs's Falcon symbols resolve to pqcrypto-falcon's PQClean copy"
                        .into(),
                ),
            };
        }
        match op {
            super::Op::Keygen if ml => Some("ξ via OQS_randombytes hook".into()),
            super::Op::Keygen => Some("seed via OQS_randombytes hook".into()),
            super::Op::Sign if ml => Some("rnd=0 via OQS_randombytes hook".into()),
            super::Op::Sign => Some("nonce, seed via OQS_randombytes hook".into()),
            super::Op::Verify => None,
        }
    }
    fn load(&self, fx: &Fixture) -> Result<Box<dyn Loaded>, String> {
        install_rng_hook();
        let alg = algorithm(fx.alg).ok_or("not in the oqs 0.11 bindings")?;
        let sig = Sig::new(alg).map_err(|e| format!("{e}"))?;
        if sig.length_secret_key() != fx.sk[0].len() || sig.length_public_key() != fx.pk[0].len() {
            return Err("key lengths differ from pqsig's".into());
        }
        Ok(Box::new(L {
            sig,
            with_ctx: matches!(fx.alg, Alg::MlDsa(_)),
            kg: None,
            last: None,
        }))
    }
}

struct L {
    sig: Sig,
    /// ML-DSA: the context-string API (empty context); Falcon has none.
    with_ctx: bool,
    kg: Option<(PublicKey, SecretKey)>,
    last: Option<Signature>,
}

impl Loaded for L {
    #[inline]
    fn keygen(&mut self, fx: &Fixture, k: usize) {
        script(&fx.seeds[k]);
        self.kg = Some(self.sig.keypair().expect("keypair"));
    }
    fn last_pk(&self) -> Option<Vec<u8>> {
        self.kg.as_ref().map(|(pk, _)| pk.clone().into_vec())
    }
    #[inline]
    fn sign(&mut self, fx: &Fixture, i: usize) {
        let sk = self
            .sig
            .secret_key_from_bytes(&fx.sk[fx.key_of[i]])
            .expect("sk length");
        // ML-DSA: empty script, rnd = 0^32; Falcon: nonce ‖ seed.
        script(&fx.rand[i]);
        let sig = if self.with_ctx {
            self.sig.sign_with_ctx_str(&fx.msgs[i], CTX, sk)
        } else {
            self.sig.sign(&fx.msgs[i], sk)
        };
        self.last = Some(sig.expect("sign"));
    }
    fn last_sig(&self) -> Option<Vec<u8>> {
        self.last.as_ref().map(|s| s.clone().into_vec())
    }
    #[inline]
    fn verify(&mut self, fx: &Fixture, i: usize) -> bool {
        let (Some(pk), Some(sig)) = (
            self.sig.public_key_from_bytes(&fx.pk[fx.key_of[i]]),
            self.sig.signature_from_bytes(&fx.sigs[i]),
        ) else {
            return false;
        };
        if self.with_ctx {
            self.sig.verify_with_ctx_str(&fx.msgs[i], sig, CTX, pk)
        } else {
            self.sig.verify(&fx.msgs[i], sig, pk)
        }
        .is_ok()
    }
    fn clear(&mut self) {
        self.kg = None;
        self.last = None;
    }
}
