//! The per-algorithm layer: everything the commands need from a signature scheme.
//!
//! Commands only see [`PublicKey`], [`SecretKey`] and the free functions here; each
//! operation is one `match` over [`Algorithm`] (or over the key enums). Adding an
//! algorithm family = one variant in each key enum and one arm per `match` below.

use pqsig::mldsa;
use pqsig::rng::drbg::KatDrbg;
use pqsig::{Algorithm, Backend, Error};
use zeroize::Zeroizing;

/// A decoded public key.
pub enum PublicKey {
    MlDsa(mldsa::VerifyingKey),
}

/// A decoded secret key.
pub enum SecretKey {
    MlDsa(mldsa::SigningKey),
}

/// How signing gets its randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signing {
    /// Fresh randomness from the operating system (the default).
    Hedged,
    /// No randomness (ML-DSA: rnd = 0^32); the same inputs give the same signature.
    Deterministic,
}

/// Length of the key-generation seed accepted by `keygen --seed` and as a secret key file.
pub fn seed_len(alg: Algorithm) -> usize {
    match alg {
        Algorithm::MlDsa(_) => mldsa::SEED_LEN,
    }
}

/// The signature length when every signature has the same length (`None` if variable).
pub fn fixed_signature_len(alg: Algorithm) -> Option<usize> {
    match alg {
        Algorithm::MlDsa(ps) => Some(ps.signature_len()),
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
        }
    }

    /// The encoding written to secret key files (ML-DSA: the expanded FIPS 204 key).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        match self {
            SecretKey::MlDsa(k) => k.to_expanded_bytes(),
        }
    }

    /// The same key running on another backend.
    pub fn with_backend(self, b: Backend) -> Result<Self, Error> {
        match self {
            SecretKey::MlDsa(k) => Ok(SecretKey::MlDsa(k.with_backend(b)?)),
        }
    }

    /// Checks that this secret key belongs to `pk` (`Error::InvalidKey` if not).
    pub fn check_against(&self, pk: &PublicKey) -> Result<(), Error> {
        match (self, pk) {
            (SecretKey::MlDsa(k), PublicKey::MlDsa(p)) if k.param_set() == p.param_set() => {
                k.check_against_public(p.to_bytes())
            }
            _ => Err(Error::InvalidKey),
        }
    }

    /// Pure signing of `msg` under the context string `ctx`.
    pub fn sign(&self, msg: &[u8], ctx: &[u8], mode: Signing) -> Result<Vec<u8>, Error> {
        match (self, mode) {
            (SecretKey::MlDsa(k), Signing::Hedged) => k.sign(msg, ctx),
            (SecretKey::MlDsa(k), Signing::Deterministic) => k.sign_deterministic(msg, ctx),
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
        }
    }

    pub fn to_bytes(&self) -> &[u8] {
        match self {
            PublicKey::MlDsa(k) => k.to_bytes(),
        }
    }

    /// The same key running on another backend.
    pub fn with_backend(self, b: Backend) -> Result<Self, Error> {
        match self {
            PublicKey::MlDsa(k) => Ok(PublicKey::MlDsa(k.with_backend(b)?)),
        }
    }

    /// Pure verification: `Ok(())` if valid, `Err(VerificationFailed)` if not,
    /// `Err(InvalidSignature)` for malformed bytes, `Err(ContextTooLong)`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        match self {
            PublicKey::MlDsa(k) => k.verify(msg, ctx, sig),
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
    }
}
