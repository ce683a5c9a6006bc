//! The per-algorithm layer: everything the commands need from a signature scheme.
//!
//! Commands only see [`PublicKey`], [`SecretKey`] and the free functions here; each
//! operation is one `match` over [`Algorithm`] (or over the key enums). Adding an
//! algorithm family = one variant in each key enum and one arm per `match` below.

use pqsig::falcon::{self, fndsa};
use pqsig::mldsa;
use pqsig::rng::drbg::KatDrbg;
use pqsig::snova;
use pqsig::{Algorithm, Backend, Error};
use zeroize::Zeroizing;

/// A decoded public key.
pub enum PublicKey {
    MlDsa(mldsa::VerifyingKey),
    Falcon(falcon::VerifyingKey),
    FnDsa(fndsa::VerifyingKey),
    Snova(snova::VerifyingKey),
}

/// A decoded secret key.
pub enum SecretKey {
    MlDsa(mldsa::SigningKey),
    Falcon(falcon::SigningKey),
    FnDsa(fndsa::SigningKey),
    Snova(snova::SigningKey),
}

/// How signing gets its randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signing {
    /// Fresh randomness from the operating system (the default).
    Hedged,
    /// No randomness (ML-DSA: rnd = 0^32); the same inputs give the same signature.
    /// Falcon, FN-DSA and SNOVA define no deterministic mode (`Error::Unsupported`).
    Deterministic,
}

/// Whether the algorithm takes a context string (round-3 Falcon and SNOVA do not).
pub fn supports_context(alg: Algorithm) -> bool {
    !matches!(alg, Algorithm::Falcon(_) | Algorithm::Snova(_))
}

/// Whether the algorithm has a deterministic signing mode (ML-DSA only).
pub fn supports_deterministic(alg: Algorithm) -> bool {
    matches!(alg, Algorithm::MlDsa(_))
}

/// Length of the key-generation seed accepted by `keygen --seed` and as a secret key file.
pub fn seed_len(alg: Algorithm) -> usize {
    match alg {
        Algorithm::MlDsa(_) => mldsa::SEED_LEN,
        Algorithm::Falcon(_) => falcon::keys::SEED_LEN,
        Algorithm::FnDsa(_) => fndsa::params::KEYGEN_SEED_LEN,
        Algorithm::Snova(_) => snova::SEED_LEN,
    }
}

/// The signature length when every signature has the same length (`None` if variable).
pub fn fixed_signature_len(alg: Algorithm) -> Option<usize> {
    match alg {
        Algorithm::MlDsa(ps) => Some(ps.signature_len()),
        Algorithm::Falcon(ps) if ps.padded() => Some(ps.signature_len()),
        Algorithm::Falcon(_) => None,
        Algorithm::FnDsa(ps) => Some(ps.signature_len()),
        Algorithm::Snova(ps) => Some(ps.signature_len()),
    }
}

/// Generates a key pair from `seed` (OS randomness when `None`), on `backend` (the
/// process-wide default when `None`).
pub fn keygen(
    alg: Algorithm,
    seed: Option<&[u8]>,
    backend: Option<Backend>,
) -> Result<(PublicKey, SecretKey), Error> {
    match alg {
        Algorithm::MlDsa(ps) => {
            let mut xi = Zeroizing::new([0u8; mldsa::SEED_LEN]);
            match seed {
                Some(s) if s.len() == xi.len() => xi.copy_from_slice(s),
                Some(_) => return Err(Error::InvalidLength),
                None => pqsig::rng::os_fill(&mut xi[..])?,
            }
            let (sk, vk) = match backend {
                Some(b) => mldsa::keygen_internal_on(ps, &xi, b)?,
                None => mldsa::keygen_internal(ps, &xi),
            };
            Ok((PublicKey::MlDsa(vk), SecretKey::MlDsa(sk)))
        }
        Algorithm::Falcon(ps) => {
            let mut s = Zeroizing::new([0u8; falcon::keys::SEED_LEN]);
            fill_seed(&mut s[..], seed)?;
            let (sk, vk) = falcon::keygen_from_seed(ps, &s[..])?;
            let (sk, vk) = pin(
                sk,
                vk,
                backend,
                |k, b| k.with_backend(b),
                |k, b| k.with_backend(b),
            )?;
            Ok((PublicKey::Falcon(vk), SecretKey::Falcon(sk)))
        }
        Algorithm::FnDsa(ps) => {
            let mut s = Zeroizing::new([0u8; fndsa::params::KEYGEN_SEED_LEN]);
            fill_seed(&mut s[..], seed)?;
            let (sk, vk) = fndsa::keygen_from_seed(ps.logn(), &s[..])?;
            let (sk, vk) = pin(
                sk,
                vk,
                backend,
                |k, b| k.with_backend(b),
                |k, b| k.with_backend(b),
            )?;
            Ok((PublicKey::FnDsa(vk), SecretKey::FnDsa(sk)))
        }
        Algorithm::Snova(ps) => {
            // The 48 bytes the NIST keygen draws: s_pub (16) ‖ s_priv (32).
            let mut s = Zeroizing::new([0u8; snova::SEED_LEN]);
            fill_seed(&mut s[..], seed)?;
            // keygen_from_seed runs on the process-wide backend: switch to the requested
            // one for the call (the CLI is single-threaded), so that `demo` times SNOVA
            // key generation on each backend.
            let (sk, vk) = on_backend(backend, || snova::keygen_from_seed(ps, &s[..]))?;
            let (sk, vk) = pin(
                sk,
                vk,
                backend,
                |k, b| k.with_backend(b),
                |k, b| k.with_backend(b),
            )?;
            Ok((PublicKey::Snova(vk), SecretKey::Snova(sk)))
        }
    }
}

/// Copies a given seed (exact length required) or draws one from the OS.
fn fill_seed(out: &mut [u8], seed: Option<&[u8]>) -> Result<(), Error> {
    match seed {
        Some(s) if s.len() == out.len() => {
            out.copy_from_slice(s);
            Ok(())
        }
        Some(_) => Err(Error::InvalidLength),
        None => pqsig::rng::os_fill(out),
    }
}

/// Runs `f` with the process-wide backend set to `backend` (when given), then restores
/// the previous one.
fn on_backend<T>(
    backend: Option<Backend>,
    f: impl FnOnce() -> Result<T, Error>,
) -> Result<T, Error> {
    let Some(b) = backend else { return f() };
    let prev = pqsig::kernels::select::active();
    pqsig::kernels::select::set_backend(b)?;
    let r = f();
    pqsig::kernels::select::set_backend(prev)?;
    r
}

/// Moves both keys of a fresh pair to `backend` when one is requested.
fn pin<S, V>(
    sk: S,
    vk: V,
    backend: Option<Backend>,
    sk_on: impl FnOnce(S, Backend) -> Result<S, Error>,
    vk_on: impl FnOnce(V, Backend) -> Result<V, Error>,
) -> Result<(S, V), Error> {
    match backend {
        Some(b) => Ok((sk_on(sk, b)?, vk_on(vk, b)?)),
        None => Ok((sk, vk)),
    }
}

/// The secret key encodings accepted by [`SecretKey::from_bytes`], for messages.
pub fn secret_key_forms(alg: Algorithm) -> String {
    match alg {
        Algorithm::MlDsa(ps) => {
            format!(
                "{} bytes (expanded key) or {} bytes (seed)",
                ps.secret_key_len(),
                mldsa::SEED_LEN
            )
        }
        Algorithm::Falcon(ps) => format!(
            "{} bytes (compact key 0x{:02x}||f||g||F) or {} bytes (seed)",
            ps.secret_key_len(),
            0x50 + ps.logn(),
            falcon::keys::SEED_LEN
        ),
        Algorithm::FnDsa(ps) => format!(
            "{} bytes (signing key) or {} bytes (seed)",
            ps.secret_key_len(),
            fndsa::params::KEYGEN_SEED_LEN
        ),
        Algorithm::Snova(ps) => format!(
            "{} bytes (s_pub||s_priv||H(pk)) or {} bytes (seed s_pub||s_priv)",
            ps.secret_key_len(),
            snova::SEED_LEN
        ),
    }
}

impl SecretKey {
    /// Decodes a secret key file: the expanded encoding (validated) or, by length, a seed.
    pub fn from_bytes(alg: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        match alg {
            Algorithm::MlDsa(ps) => {
                let key = if bytes.len() == mldsa::SEED_LEN {
                    mldsa::SigningKey::from_seed(ps, bytes)?
                } else if bytes.len() == ps.secret_key_len() {
                    mldsa::SigningKey::from_expanded(ps, bytes)?
                } else {
                    return Err(Error::InvalidLength);
                };
                Ok(SecretKey::MlDsa(key))
            }
            Algorithm::Falcon(ps) => {
                let key = if bytes.len() == falcon::keys::SEED_LEN {
                    falcon::keygen_from_seed(ps, bytes)?.0
                } else if bytes.len() == ps.secret_key_len() {
                    falcon::SigningKey::from_bytes(ps, bytes)?
                } else {
                    return Err(Error::InvalidLength);
                };
                Ok(SecretKey::Falcon(key))
            }
            Algorithm::FnDsa(ps) => {
                let key = if bytes.len() == fndsa::params::KEYGEN_SEED_LEN {
                    fndsa::SigningKey::from_seed(ps.logn(), bytes)?
                } else if bytes.len() == ps.secret_key_len() {
                    fndsa::SigningKey::from_bytes_logn(ps.logn(), bytes)?
                } else {
                    return Err(Error::InvalidLength);
                };
                Ok(SecretKey::FnDsa(key))
            }
            Algorithm::Snova(ps) => {
                let key = if bytes.len() == snova::SEED_LEN {
                    snova::keygen_from_seed(ps, bytes)?.0
                } else if bytes.len() == ps.secret_key_len() {
                    snova::SigningKey::from_bytes(ps, bytes)?
                } else {
                    return Err(Error::InvalidLength);
                };
                Ok(SecretKey::Snova(key))
            }
        }
    }

    /// The encoding written to secret key files (ML-DSA: the expanded FIPS 204 key).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        match self {
            SecretKey::MlDsa(k) => k.to_expanded_bytes(),
            SecretKey::Falcon(k) => Zeroizing::new(k.to_bytes().to_vec()),
            SecretKey::FnDsa(k) => Zeroizing::new(k.to_bytes().to_vec()),
            SecretKey::Snova(k) => Zeroizing::new(k.to_bytes().to_vec()),
        }
    }

    /// The raw public key belonging to this secret key.
    pub fn public_key_bytes(&self) -> Vec<u8> {
        match self {
            SecretKey::MlDsa(k) => k.verifying_key().to_bytes().to_vec(),
            SecretKey::Falcon(k) => k.verifying_key().to_bytes().to_vec(),
            SecretKey::FnDsa(k) => k.verifying_key().to_bytes().to_vec(),
            SecretKey::Snova(k) => k.verifying_key().to_bytes().to_vec(),
        }
    }

    /// The same key running on another backend.
    pub fn with_backend(self, b: Backend) -> Result<Self, Error> {
        match self {
            SecretKey::MlDsa(k) => Ok(SecretKey::MlDsa(k.with_backend(b)?)),
            SecretKey::Falcon(k) => Ok(SecretKey::Falcon(k.with_backend(b)?)),
            SecretKey::FnDsa(k) => Ok(SecretKey::FnDsa(k.with_backend(b)?)),
            SecretKey::Snova(k) => Ok(SecretKey::Snova(k.with_backend(b)?)),
        }
    }

    /// Checks that this secret key belongs to `pk` (`Error::InvalidKey` if not).
    pub fn check_against(&self, pk: &PublicKey) -> Result<(), Error> {
        match (self, pk) {
            (SecretKey::MlDsa(k), PublicKey::MlDsa(p)) if k.param_set() == p.param_set() => {
                k.check_against_public(p.to_bytes())
            }
            (SecretKey::Falcon(k), PublicKey::Falcon(p)) if k.param_set() == p.param_set() => {
                k.check_against_public(p.to_bytes())
            }
            (SecretKey::FnDsa(k), PublicKey::FnDsa(p)) if k.logn() == p.logn() => {
                if k.verifying_key().to_bytes() == p.to_bytes() {
                    Ok(())
                } else {
                    Err(Error::InvalidKey)
                }
            }
            // The secret key holds the seeds: recompute P22 and compare.
            (SecretKey::Snova(k), PublicKey::Snova(p)) if k.param_set() == p.param_set() => {
                if k.verifying_key().to_bytes() == p.to_bytes() {
                    Ok(())
                } else {
                    Err(Error::InvalidKey)
                }
            }
            _ => Err(Error::InvalidKey),
        }
    }

    /// Pure signing of `msg` under the context string `ctx`.
    pub fn sign(&self, msg: &[u8], ctx: &[u8], mode: Signing) -> Result<Vec<u8>, Error> {
        match (self, mode) {
            (SecretKey::MlDsa(k), Signing::Hedged) => k.sign(msg, ctx),
            (SecretKey::MlDsa(k), Signing::Deterministic) => k.sign_deterministic(msg, ctx),
            (SecretKey::Falcon(k), Signing::Hedged) => {
                if !ctx.is_empty() {
                    return Err(Error::Unsupported);
                }
                k.sign(msg)
            }
            (SecretKey::FnDsa(k), Signing::Hedged) => k.sign(msg, ctx),
            (SecretKey::Snova(k), Signing::Hedged) => {
                if !ctx.is_empty() {
                    return Err(Error::Unsupported);
                }
                k.sign(msg)
            }
            (
                SecretKey::Falcon(_) | SecretKey::FnDsa(_) | SecretKey::Snova(_),
                Signing::Deterministic,
            ) => Err(Error::Unsupported),
        }
    }
}

impl SecretKey {
    /// Signs with every random input drawn from `rng` (reproducible with a seeded DRBG:
    /// the demo uses it to compare backends on the same inputs).
    pub fn sign_with_rng(
        &self,
        rng: &mut KatDrbg,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Vec<u8>, Error> {
        match self {
            SecretKey::MlDsa(k) => k.sign_with_rng(rng, msg, ctx),
            SecretKey::Falcon(k) => {
                if !ctx.is_empty() {
                    return Err(Error::Unsupported);
                }
                k.sign_with_rng(rng, msg)
            }
            SecretKey::FnDsa(k) => k.sign_with_rng(rng, msg, ctx),
            SecretKey::Snova(k) => {
                if !ctx.is_empty() {
                    return Err(Error::Unsupported);
                }
                k.sign_with_rng(msg, rng)
            }
        }
    }
}

impl PublicKey {
    /// Decodes a public key file (`Error::InvalidKey` for a wrong length or encoding).
    pub fn from_bytes(alg: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        match alg {
            Algorithm::MlDsa(ps) => Ok(PublicKey::MlDsa(mldsa::VerifyingKey::from_bytes(
                ps, bytes,
            )?)),
            Algorithm::Falcon(ps) => Ok(PublicKey::Falcon(falcon::VerifyingKey::from_bytes(
                ps, bytes,
            )?)),
            Algorithm::FnDsa(ps) => Ok(PublicKey::FnDsa(fndsa::VerifyingKey::from_bytes_logn(
                ps.logn(),
                bytes,
            )?)),
            Algorithm::Snova(ps) => Ok(PublicKey::Snova(snova::VerifyingKey::from_bytes(
                ps, bytes,
            )?)),
        }
    }

    pub fn to_bytes(&self) -> &[u8] {
        match self {
            PublicKey::MlDsa(k) => k.to_bytes(),
            PublicKey::Falcon(k) => k.to_bytes(),
            PublicKey::FnDsa(k) => k.to_bytes(),
            PublicKey::Snova(k) => k.to_bytes(),
        }
    }

    /// The same key running on another backend.
    pub fn with_backend(self, b: Backend) -> Result<Self, Error> {
        match self {
            PublicKey::MlDsa(k) => Ok(PublicKey::MlDsa(k.with_backend(b)?)),
            PublicKey::Falcon(k) => Ok(PublicKey::Falcon(k.with_backend(b)?)),
            PublicKey::FnDsa(k) => Ok(PublicKey::FnDsa(k.with_backend(b)?)),
            PublicKey::Snova(k) => Ok(PublicKey::Snova(k.with_backend(b)?)),
        }
    }

    /// Pure verification: `Ok(())` if valid, `Err(VerificationFailed)` if not,
    /// `Err(InvalidSignature)` for malformed bytes, `Err(ContextTooLong)`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        match self {
            PublicKey::MlDsa(k) => k.verify(msg, ctx, sig),
            PublicKey::Falcon(k) => k.verify_with_context(msg, ctx, sig),
            PublicKey::FnDsa(k) => k.verify(msg, ctx, sig),
            PublicKey::Snova(k) => {
                if !ctx.is_empty() {
                    return Err(Error::Unsupported);
                }
                k.verify(msg, sig)
            }
        }
    }
}

/// One KAT record's outputs: the encodings `crypto_sign_keypair` / `crypto_sign` produce.
pub struct KatRecord {
    pub pk: Vec<u8>,
    pub sk: Zeroizing<Vec<u8>>,
    /// The signed message `sm` as `crypto_sign` writes it.
    pub sm: Vec<u8>,
}

/// Runs `crypto_sign_keypair` then `crypto_sign(msg)` with `randombytes` = `drbg`, as the
/// scheme's NIST reference implementation does.
///
/// ML-DSA (pq-crystals reference, FIPS 204 final): keypair draws ξ = 32 bytes; signing
/// draws rnd = 32 bytes; pure ML-DSA with an empty context; `sm = sig || msg`.
///
/// SNOVA (Round 3, liboqs PR #2562 / the official `dist/KATs`): keypair draws 48 bytes
/// (s_pub ‖ s_priv); signing draws the 16-byte salt; `sk` is the 96-byte
/// s_pub ‖ s_priv ‖ SHAKE256(pk)[..48]; `sm = sig || msg` (the salt ends `sig`).
pub fn kat_record(alg: Algorithm, drbg: &mut KatDrbg, msg: &[u8]) -> Result<KatRecord, Error> {
    match alg {
        Algorithm::MlDsa(ps) => {
            let (sk, vk) = mldsa::keygen_with_rng(ps, drbg)?;
            let mut sm = sk.sign_with_rng(drbg, msg, &[])?;
            sm.extend_from_slice(msg);
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: sk.to_expanded_bytes(),
                sm,
            })
        }
        Algorithm::Falcon(ps) => {
            let (sk, vk) = falcon::keygen_with_rng(ps, drbg)?;
            let sig = sk.sign_with_rng(drbg, msg)?;
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: Zeroizing::new(sk.to_bytes().to_vec()),
                sm: falcon::keys::signed_message(ps, &sig, msg)?,
            })
        }
        Algorithm::FnDsa(ps) => {
            let (sk, vk) = fndsa::keygen_with_rng(ps.logn(), drbg)?;
            let mut sm = sk.sign_with_rng(drbg, msg, &[])?;
            sm.extend_from_slice(msg);
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: Zeroizing::new(sk.to_bytes().to_vec()),
                sm,
            })
        }
        Algorithm::Snova(ps) => {
            let (sk, vk) = snova::keygen_with_rng(ps, drbg)?;
            let sig = sk.sign_with_rng(msg, drbg)?;
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: Zeroizing::new(sk.to_bytes().to_vec()),
                sm: snova::signed_message(ps, &sig, msg)?,
            })
        }
    }
}

/// `crypto_sign_open`: checks a KAT signed message against `pk` and returns the message.
pub fn kat_open(alg: Algorithm, pk: &[u8], sm: &[u8]) -> Result<Vec<u8>, Error> {
    match alg {
        Algorithm::MlDsa(ps) => {
            let n = ps.signature_len();
            if sm.len() < n {
                return Err(Error::InvalidSignature);
            }
            let (sig, msg) = sm.split_at(n);
            mldsa::VerifyingKey::from_bytes(ps, pk)?.verify(msg, &[], sig)?;
            Ok(msg.to_vec())
        }
        Algorithm::Falcon(ps) => Ok(falcon::VerifyingKey::from_bytes(ps, pk)?.open(sm)?.to_vec()),
        Algorithm::FnDsa(ps) => {
            let n = ps.signature_len();
            if sm.len() < n {
                return Err(Error::InvalidSignature);
            }
            let (sig, msg) = sm.split_at(n);
            fndsa::VerifyingKey::from_bytes_logn(ps.logn(), pk)?.verify(msg, &[], sig)?;
            Ok(msg.to_vec())
        }
        Algorithm::Snova(ps) => Ok(snova::VerifyingKey::from_bytes(ps, pk)?.open(sm)?.to_vec()),
    }
}
