//! One `match` per operation over the library's [`Algorithm`] dispatch: the Python
//! classes only see [`Secret`] and [`Public`].

use pqsig::falcon::{self, fndsa};
use pqsig::{mldsa, snova, Algorithm, Error};
use zeroize::Zeroizing;

pub enum Public {
    MlDsa(mldsa::VerifyingKey),
    Falcon(falcon::VerifyingKey),
    FnDsa(fndsa::VerifyingKey),
    Snova(snova::VerifyingKey),
}

pub enum Secret {
    MlDsa(mldsa::SigningKey),
    Falcon(falcon::SigningKey),
    FnDsa(fndsa::SigningKey),
    Snova(snova::SigningKey),
}

/// Length of the key-generation seed (`from_seed`).
pub fn seed_len(alg: Algorithm) -> usize {
    match alg {
        Algorithm::MlDsa(_) => mldsa::SEED_LEN,
        Algorithm::Falcon(_) => falcon::keys::SEED_LEN,
        Algorithm::FnDsa(_) => fndsa::params::KEYGEN_SEED_LEN,
        Algorithm::Snova(_) => snova::SEED_LEN,
    }
}

/// Whether signing and verification take a context string (round-3 Falcon and SNOVA
/// define none: only the empty context is accepted there).
pub fn supports_context(alg: Algorithm) -> bool {
    matches!(alg, Algorithm::MlDsa(_) | Algorithm::FnDsa(_))
}

/// A fresh random seed of the right length for `alg`.
pub fn random_seed(alg: Algorithm) -> Result<Zeroizing<Vec<u8>>, Error> {
    let mut seed = Zeroizing::new(vec![0u8; seed_len(alg)]);
    pqsig::rng::os_fill(&mut seed[..])?;
    Ok(seed)
}

/// Deterministic key generation from a seed of exactly [`seed_len`] bytes.
pub fn keygen_from_seed(alg: Algorithm, seed: &[u8]) -> Result<(Secret, Public), Error> {
    if seed.len() != seed_len(alg) {
        return Err(Error::InvalidLength);
    }
    Ok(match alg {
        Algorithm::MlDsa(ps) => {
            let sk = mldsa::SigningKey::from_seed(ps, seed)?;
            let vk = sk.verifying_key();
            (Secret::MlDsa(sk), Public::MlDsa(vk))
        }
        Algorithm::Falcon(ps) => {
            let (sk, vk) = falcon::keygen_from_seed(ps, seed)?;
            (Secret::Falcon(sk), Public::Falcon(vk))
        }
        Algorithm::FnDsa(ps) => {
            let (sk, vk) = fndsa::keygen_from_seed(ps.logn(), seed)?;
            (Secret::FnDsa(sk), Public::FnDsa(vk))
        }
        Algorithm::Snova(ps) => {
            let (sk, vk) = snova::keygen_from_seed(ps, seed)?;
            (Secret::Snova(sk), Public::Snova(vk))
        }
    })
}

impl Secret {
    /// Decodes the standard private encoding (validated) or, by its length, a seed.
    /// Returns the key and whether `bytes` was a seed.
    pub fn from_bytes(alg: Algorithm, bytes: &[u8]) -> Result<(Self, bool), Error> {
        if bytes.len() == seed_len(alg) && bytes.len() != alg.secret_key_len() {
            return Ok((keygen_from_seed(alg, bytes)?.0, true));
        }
        if bytes.len() != alg.secret_key_len() {
            return Err(Error::InvalidLength);
        }
        let key = match alg {
            Algorithm::MlDsa(ps) => Secret::MlDsa(mldsa::SigningKey::from_expanded(ps, bytes)?),
            Algorithm::Falcon(ps) => Secret::Falcon(falcon::SigningKey::from_bytes(ps, bytes)?),
            Algorithm::FnDsa(ps) => {
                Secret::FnDsa(fndsa::SigningKey::from_bytes_logn(ps.logn(), bytes)?)
            }
            Algorithm::Snova(ps) => Secret::Snova(snova::SigningKey::from_bytes(ps, bytes)?),
        };
        Ok((key, false))
    }

    /// The standard private encoding (ML-DSA: the expanded FIPS 204 key; Falcon: the NIST
    /// `0x5X || f || g || F`; FN-DSA: the signing key; SNOVA: the 96-byte Round 3 key),
    /// the same bytes as the CLI's raw key files and the KAT `sk` fields.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        match self {
            Secret::MlDsa(k) => k.to_expanded_bytes(),
            Secret::Falcon(k) => Zeroizing::new(k.to_bytes().to_vec()),
            Secret::FnDsa(k) => Zeroizing::new(k.to_bytes().to_vec()),
            Secret::Snova(k) => Zeroizing::new(k.to_bytes().to_vec()),
        }
    }

    pub fn public(&self) -> Public {
        match self {
            Secret::MlDsa(k) => Public::MlDsa(k.verifying_key()),
            Secret::Falcon(k) => Public::Falcon(k.verifying_key().clone()),
            Secret::FnDsa(k) => Public::FnDsa(k.verifying_key()),
            Secret::Snova(k) => Public::Snova(k.verifying_key()),
        }
    }

    /// Signs with fresh randomness (hedged ML-DSA; randomized Falcon, FN-DSA, SNOVA).
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        match self {
            Secret::MlDsa(k) => k.sign(msg, ctx),
            Secret::FnDsa(k) => k.sign(msg, ctx),
            Secret::Falcon(k) => {
                no_context(ctx)?;
                k.sign(msg)
            }
            Secret::Snova(k) => {
                no_context(ctx)?;
                k.sign(msg)
            }
        }
    }

    /// Deterministic signing (ML-DSA only: rnd = 0^32).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        match self {
            Secret::MlDsa(k) => k.sign_deterministic(msg, ctx),
            _ => Err(Error::Unsupported),
        }
    }
}

impl Public {
    pub fn from_bytes(alg: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        Ok(match alg {
            Algorithm::MlDsa(ps) => Public::MlDsa(mldsa::VerifyingKey::from_bytes(ps, bytes)?),
            Algorithm::Falcon(ps) => Public::Falcon(falcon::VerifyingKey::from_bytes(ps, bytes)?),
            Algorithm::FnDsa(ps) => {
                Public::FnDsa(fndsa::VerifyingKey::from_bytes_logn(ps.logn(), bytes)?)
            }
            Algorithm::Snova(ps) => Public::Snova(snova::VerifyingKey::from_bytes(ps, bytes)?),
        })
    }

    pub fn to_bytes(&self) -> &[u8] {
        match self {
            Public::MlDsa(k) => k.to_bytes(),
            Public::Falcon(k) => k.to_bytes(),
            Public::FnDsa(k) => k.to_bytes(),
            Public::Snova(k) => k.to_bytes(),
        }
    }

    /// `Ok(())` for a valid signature; `VerificationFailed` / `InvalidSignature` otherwise.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        match self {
            Public::MlDsa(k) => k.verify(msg, ctx, sig),
            Public::FnDsa(k) => k.verify(msg, ctx, sig),
            Public::Falcon(k) => {
                no_context(ctx)?;
                k.verify(msg, sig)
            }
            Public::Snova(k) => {
                no_context(ctx)?;
                k.verify(msg, sig)
            }
        }
    }
}

fn no_context(ctx: &[u8]) -> Result<(), Error> {
    if ctx.is_empty() {
        Ok(())
    } else {
        Err(Error::Unsupported)
    }
}
