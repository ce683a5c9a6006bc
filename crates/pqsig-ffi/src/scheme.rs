//! One `match` over [`Algorithm`] per operation: the only place that knows the schemes.
//!
//! Everything here works on byte slices and returns `pqsig::Error`; the C layer in
//! `lib.rs` does the pointer checks, the panic guard and the error reporting.

use pqsig::falcon::{self, fndsa};
use pqsig::mldsa;
use pqsig::snova;
use pqsig::{Algorithm, Error};
use zeroize::Zeroizing;

/// Length of the key-generation seed `pqsig_sig_keypair_from_seed` takes.
pub fn seed_len(alg: Algorithm) -> usize {
    match alg {
        Algorithm::MlDsa(_) => mldsa::SEED_LEN,
        Algorithm::Falcon(_) => falcon::keys::SEED_LEN,
        Algorithm::FnDsa(_) => fndsa::params::KEYGEN_SEED_LEN,
        Algorithm::Snova(_) => snova::SEED_LEN,
    }
}

/// Whether a non-empty context string is accepted (ML-DSA, FN-DSA). Round-3 Falcon and
/// SNOVA define none.
pub fn supports_context(alg: Algorithm) -> bool {
    matches!(alg, Algorithm::MlDsa(_) | Algorithm::FnDsa(_))
}

/// A fresh key pair as (public key, secret key) in the encodings of
/// `Algorithm::public_key_len` / `Algorithm::secret_key_len`, from `seed`.
pub fn keypair_from_seed(
    alg: Algorithm,
    seed: &[u8],
) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>), Error> {
    if seed.len() != seed_len(alg) {
        return Err(Error::InvalidLength);
    }
    match alg {
        Algorithm::MlDsa(ps) => {
            let mut xi = Zeroizing::new([0u8; mldsa::SEED_LEN]);
            xi.copy_from_slice(seed);
            let (sk, vk) = mldsa::keygen_internal(ps, &xi);
            Ok((vk.to_bytes().to_vec(), sk.to_expanded_bytes()))
        }
        Algorithm::Falcon(ps) => {
            let (sk, vk) = falcon::keygen_from_seed(ps, seed)?;
            Ok((
                vk.to_bytes().to_vec(),
                Zeroizing::new(sk.to_bytes().to_vec()),
            ))
        }
        Algorithm::FnDsa(ps) => {
            let (sk, vk) = fndsa::keygen_from_seed(ps.logn(), seed)?;
            Ok((
                vk.to_bytes().to_vec(),
                Zeroizing::new(sk.to_bytes().to_vec()),
            ))
        }
        Algorithm::Snova(ps) => {
            let (sk, vk) = snova::keygen_from_seed(ps, seed)?;
            Ok((
                vk.to_bytes().to_vec(),
                Zeroizing::new(sk.to_bytes().to_vec()),
            ))
        }
    }
}

/// A fresh key pair from operating-system randomness.
pub fn keypair(alg: Algorithm) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>), Error> {
    let mut seed = Zeroizing::new(vec![0u8; seed_len(alg)]);
    pqsig::rng::os_fill(&mut seed[..])?;
    keypair_from_seed(alg, &seed)
}

/// Hedged signing of `msg` under `ctx` with the encoded secret key `sk`.
pub fn sign(alg: Algorithm, sk: &[u8], msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
    if sk.len() != alg.secret_key_len() {
        return Err(Error::InvalidLength);
    }
    if !ctx.is_empty() && !supports_context(alg) {
        return Err(Error::Unsupported);
    }
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong);
    }
    match alg {
        Algorithm::MlDsa(ps) => mldsa::SigningKey::from_expanded(ps, sk)?.sign(msg, ctx),
        Algorithm::Falcon(ps) => falcon::SigningKey::from_bytes(ps, sk)?.sign(msg),
        Algorithm::FnDsa(ps) => fndsa::SigningKey::from_bytes_logn(ps.logn(), sk)?.sign(msg, ctx),
        Algorithm::Snova(ps) => snova::SigningKey::from_bytes(ps, sk)?.sign(msg),
    }
}

/// Verification: `Ok(())` if valid, `VerificationFailed` if well-formed but wrong,
/// `InvalidSignature` if malformed.
pub fn verify(alg: Algorithm, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
    if pk.len() != alg.public_key_len() {
        return Err(Error::InvalidLength);
    }
    if !ctx.is_empty() && !supports_context(alg) {
        return Err(Error::Unsupported);
    }
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong);
    }
    if sig.len() > alg.signature_len() {
        return Err(Error::InvalidSignature);
    }
    match alg {
        Algorithm::MlDsa(ps) => mldsa::VerifyingKey::from_bytes(ps, pk)?.verify(msg, ctx, sig),
        Algorithm::Falcon(ps) => falcon::VerifyingKey::from_bytes(ps, pk)?.verify(msg, sig),
        Algorithm::FnDsa(ps) => {
            fndsa::VerifyingKey::from_bytes_logn(ps.logn(), pk)?.verify(msg, ctx, sig)
        }
        Algorithm::Snova(ps) => snova::VerifyingKey::from_bytes(ps, pk)?.verify(msg, sig),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_have_the_advertised_lengths() {
        // The fast sets only (the C tests cover every algorithm).
        for name in [
            "ML-DSA-44",
            "Falcon-512",
            "Falcon-padded-512",
            "FN-DSA-512",
            "SNOVA_I_S",
        ] {
            let alg = Algorithm::from_name(name).unwrap();
            let seed = vec![7u8; seed_len(alg)];
            let (pk, sk) = keypair_from_seed(alg, &seed).unwrap();
            assert_eq!(pk.len(), alg.public_key_len(), "{name}");
            assert_eq!(sk.len(), alg.secret_key_len(), "{name}");
            let sig = sign(alg, &sk, b"m", b"").unwrap();
            assert!(sig.len() <= alg.signature_len(), "{name}");
            assert_eq!(verify(alg, &pk, b"m", b"", &sig), Ok(()), "{name}");
            assert!(verify(alg, &pk, b"n", b"", &sig).is_err(), "{name}");
        }
    }
}
