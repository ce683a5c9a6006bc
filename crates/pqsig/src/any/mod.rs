//! Algorithm-generic keys: one [`SigningKey`] / [`VerifyingKey`] type for every scheme,
//! chosen by [`Algorithm`] at run time.
//!
//! This is the one place outside the schemes that knows how each family is spelled
//! (seed lengths, context support, key encodings): the CLI, the C library, the Python
//! package and the server all dispatch through it, so adding a family means adding one
//! arm to each `match` here.
//!
//! Submodules: `stream` ([`Signer`] / [`Verifier`]: signing and verifying messages fed in
//! pieces, in constant memory) and, with the `kat` feature, [`kat`] (the NIST
//! `PQCgenKAT_sign` records of every algorithm).
//!
//! Encodings are the schemes' standard ones (the KAT `pk`/`sk` fields): ML-DSA FIPS 204
//! (the expanded secret key), Falcon round 3 (compact `0x5X ‖ f ‖ g ‖ F`), FN-DSA as in
//! the `fn-dsa` 0.4.0 draft, SNOVA Round 3 (`s_pub ‖ s_priv ‖ SHAKE256(pk)[..48]`).

use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::falcon::{self, fndsa};
use crate::kernels::select::Backend;
use crate::{mldsa, snova};
use alloc::vec::Vec;
use zeroize::Zeroizing;

#[cfg(feature = "kat")]
pub mod kat;
mod stream;

pub use crate::traits::AnySignature as Signature;
pub use stream::{Signer, Verifier};

impl Algorithm {
    /// Length of the key-generation seed ([`SigningKey::from_seed`]): ML-DSA 32 (ξ),
    /// Falcon 48 (the NIST `randombytes(48)` draw), FN-DSA 32, SNOVA 48
    /// (`s_pub(16) ‖ s_priv(32)`).
    pub fn seed_len(self) -> usize {
        match self {
            Algorithm::MlDsa(_) => mldsa::SEED_LEN,
            Algorithm::Falcon(_) => falcon::keys::SEED_LEN,
            Algorithm::FnDsa(_) => fndsa::params::KEYGEN_SEED_LEN,
            Algorithm::Snova(_) => snova::SEED_LEN,
        }
    }

    /// Whether a non-empty context string is accepted (ML-DSA, FN-DSA). Round-3 Falcon
    /// and SNOVA define none: only the empty context is accepted there.
    pub fn supports_context(self) -> bool {
        matches!(self, Algorithm::MlDsa(_) | Algorithm::FnDsa(_))
    }

    /// Whether there is a deterministic signing mode (ML-DSA only: rnd = 0^32).
    pub fn supports_deterministic(self) -> bool {
        matches!(self, Algorithm::MlDsa(_))
    }

    /// Whether signing and verification accept an externally computed 64-byte μ
    /// (ML-DSA per FIPS 204 §6 / RFC 9881 "external mu"; FN-DSA's analogous hash).
    pub fn supports_external_mu(self) -> bool {
        matches!(self, Algorithm::MlDsa(_) | Algorithm::FnDsa(_))
    }

    /// The signature length when every signature has the same length (`None` for
    /// compressed round-3 Falcon, whose signatures vary).
    pub fn fixed_signature_len(self) -> Option<usize> {
        match self {
            Algorithm::Falcon(ps) if !ps.padded() => None,
            _ => Some(self.signature_len()),
        }
    }
}

/// A secret key of any algorithm.
pub enum SigningKey {
    /// ML-DSA-44/65/87 (FIPS 204).
    MlDsa(mldsa::SigningKey),
    /// Round-3 Falcon (compressed or padded signatures).
    Falcon(falcon::SigningKey),
    /// FN-DSA (draft FIPS 206, as in `fn-dsa` 0.4.0).
    FnDsa(fndsa::SigningKey),
    /// SNOVA Round 3 (18 sets).
    Snova(snova::SigningKey),
}

/// A public key of any algorithm.
#[derive(Clone)]
pub enum VerifyingKey {
    /// ML-DSA-44/65/87 (FIPS 204).
    MlDsa(mldsa::VerifyingKey),
    /// Round-3 Falcon (compressed or padded signatures).
    Falcon(falcon::VerifyingKey),
    /// FN-DSA (draft FIPS 206, as in `fn-dsa` 0.4.0).
    FnDsa(fndsa::VerifyingKey),
    /// SNOVA Round 3 (18 sets).
    Snova(snova::VerifyingKey),
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "any::SigningKey({})", self.algorithm())
    }
}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "any::VerifyingKey({})", self.algorithm())
    }
}

/// Refuses a non-empty context for the families that define none.
fn no_context(ctx: &[u8]) -> Result<(), Error> {
    if ctx.is_empty() {
        Ok(())
    } else {
        Err(Error::Unsupported)
    }
}

/// A pair from a fresh OS-random seed.
#[cfg(feature = "std")]
pub fn keygen(alg: Algorithm) -> Result<(SigningKey, VerifyingKey), Error> {
    let sk = SigningKey::generate(alg)?;
    let vk = sk.verifying_key();
    Ok((sk, vk))
}

impl SigningKey {
    /// A new key from an OS-random seed.
    #[cfg(feature = "std")]
    pub fn generate(alg: Algorithm) -> Result<Self, Error> {
        let seed = random_seed(alg)?;
        Self::from_seed(alg, &seed)
    }

    /// Deterministic key generation from a seed of exactly [`Algorithm::seed_len`]
    /// bytes (`InvalidLength` otherwise), on the process-wide backend.
    pub fn from_seed(alg: Algorithm, seed: &[u8]) -> Result<Self, Error> {
        Self::from_seed_on(alg, seed, crate::kernels::select::active())
    }

    /// [`SigningKey::from_seed`] with key generation and the key on backend `b`.
    pub fn from_seed_on(alg: Algorithm, seed: &[u8], b: Backend) -> Result<Self, Error> {
        if seed.len() != alg.seed_len() {
            return Err(Error::InvalidLength);
        }
        Ok(match alg {
            Algorithm::MlDsa(ps) => {
                let xi: &[u8; 32] = seed.try_into().map_err(|_| Error::InvalidLength)?;
                SigningKey::MlDsa(mldsa::keygen_internal_on(ps, xi, b)?.0)
            }
            Algorithm::Falcon(ps) => {
                SigningKey::Falcon(falcon::keygen_from_seed_on(ps, seed, b)?.0)
            }
            Algorithm::FnDsa(ps) => {
                SigningKey::FnDsa(fndsa::SigningKey::from_seed_on(ps.logn(), seed, b)?)
            }
            Algorithm::Snova(ps) => SigningKey::Snova(snova::keygen_from_seed_on(ps, seed, b)?.0),
        })
    }

    /// Decodes a secret key: the standard encoding ([`Algorithm::secret_key_len`] bytes,
    /// validated) or, told apart by its length, a key-generation seed.
    pub fn from_bytes(alg: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() == alg.seed_len() && bytes.len() != alg.secret_key_len() {
            return Self::from_seed(alg, bytes);
        }
        if bytes.len() != alg.secret_key_len() {
            return Err(Error::InvalidKey);
        }
        Ok(match alg {
            Algorithm::MlDsa(ps) => SigningKey::MlDsa(mldsa::SigningKey::from_expanded(ps, bytes)?),
            Algorithm::Falcon(ps) => SigningKey::Falcon(falcon::SigningKey::from_bytes(ps, bytes)?),
            Algorithm::FnDsa(ps) => {
                SigningKey::FnDsa(fndsa::SigningKey::from_bytes_logn(ps.logn(), bytes)?)
            }
            Algorithm::Snova(ps) => SigningKey::Snova(snova::SigningKey::from_bytes(ps, bytes)?),
        })
    }

    /// The algorithm (family and parameter set) of this key.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            SigningKey::MlDsa(k) => Algorithm::MlDsa(k.param_set()),
            SigningKey::Falcon(k) => Algorithm::Falcon(k.param_set()),
            SigningKey::FnDsa(k) => Algorithm::FnDsa(if k.logn() == fndsa::LOGN_512 {
                falcon::FnDsaParamSet::FnDsa512
            } else {
                falcon::FnDsaParamSet::FnDsa1024
            }),
            SigningKey::Snova(k) => Algorithm::Snova(k.param_set()),
        }
    }

    /// The standard secret encoding (ML-DSA: the expanded FIPS 204 key).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        match self {
            SigningKey::MlDsa(k) => k.to_expanded_bytes(),
            SigningKey::Falcon(k) => Zeroizing::new(k.to_bytes().to_vec()),
            SigningKey::FnDsa(k) => Zeroizing::new(k.to_bytes().to_vec()),
            SigningKey::Snova(k) => Zeroizing::new(k.to_bytes().to_vec()),
        }
    }

    /// The public key (ML-DSA and Falcon keep it; FN-DSA and SNOVA recompute it when
    /// the key was decoded rather than generated).
    pub fn verifying_key(&self) -> VerifyingKey {
        match self {
            SigningKey::MlDsa(k) => VerifyingKey::MlDsa(k.verifying_key()),
            SigningKey::Falcon(k) => VerifyingKey::Falcon(k.verifying_key().clone()),
            SigningKey::FnDsa(k) => VerifyingKey::FnDsa(k.verifying_key()),
            SigningKey::Snova(k) => VerifyingKey::Snova(k.verifying_key()),
        }
    }

    /// The same key running on backend `b` (`BackendUnavailable` if this CPU lacks it).
    pub fn with_backend(self, b: Backend) -> Result<Self, Error> {
        Ok(match self {
            SigningKey::MlDsa(k) => SigningKey::MlDsa(k.with_backend(b)?),
            SigningKey::Falcon(k) => SigningKey::Falcon(k.with_backend(b)?),
            SigningKey::FnDsa(k) => SigningKey::FnDsa(k.with_backend(b)?),
            SigningKey::Snova(k) => SigningKey::Snova(k.with_backend(b)?),
        })
    }

    /// `Ok(())` if `vk` is this key's public key, `InvalidKey` otherwise (another
    /// algorithm included).
    pub fn check_against(&self, vk: &VerifyingKey) -> Result<(), Error> {
        if self.algorithm() != vk.algorithm() {
            return Err(Error::InvalidKey);
        }
        match self {
            SigningKey::MlDsa(k) => k.check_against_public(vk.to_bytes()),
            SigningKey::Falcon(k) => k.check_against_public(vk.to_bytes()),
            // FN-DSA and SNOVA: the secret key determines the public key; compare the
            // encodings (public data, so an ordinary comparison is fine).
            _ => {
                if self.verifying_key().to_bytes() == vk.to_bytes() {
                    Ok(())
                } else {
                    Err(Error::InvalidKey)
                }
            }
        }
    }

    /// Signs `msg` under the context string `ctx`, with fresh OS randomness (hedged
    /// ML-DSA; randomized Falcon, FN-DSA and SNOVA). `Unsupported` for a non-empty
    /// context where the algorithm has none; `ContextTooLong` over 255 bytes.
    #[cfg(feature = "std")]
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        match self {
            SigningKey::MlDsa(k) => k.sign(msg, ctx),
            SigningKey::FnDsa(k) => k.sign(msg, ctx),
            SigningKey::Falcon(k) => no_context(ctx).and_then(|()| k.sign(msg)),
            SigningKey::Snova(k) => no_context(ctx).and_then(|()| k.sign(msg)),
        }
    }

    /// Deterministic signing (ML-DSA only, rnd = 0^32; `Unsupported` elsewhere).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        match self {
            SigningKey::MlDsa(k) => k.sign_deterministic(msg, ctx),
            _ => Err(Error::Unsupported),
        }
    }

    /// Signs an externally computed 64-byte μ (ML-DSA: FIPS 204 external μ, hedged
    /// unless `deterministic`; FN-DSA: its 64-byte message hash). `Unsupported` for
    /// Falcon and SNOVA; `InvalidLength` if `mu` is not 64 bytes.
    #[cfg(feature = "std")]
    pub fn sign_mu(&self, mu: &[u8], deterministic: bool) -> Result<Vec<u8>, Error> {
        match self {
            SigningKey::MlDsa(k) => {
                let mut rnd = Zeroizing::new([0u8; 32]);
                if !deterministic {
                    crate::rng::os_fill(&mut rnd[..])?;
                }
                k.sign_mu(mu, &rnd)
            }
            SigningKey::FnDsa(k) if !deterministic => k.sign_mu(mu),
            _ => Err(Error::Unsupported),
        }
    }

    /// Signs with every random input drawn from `rng` (reproducible with a seeded DRBG).
    pub fn sign_with_rng(
        &self,
        rng: &mut impl rand_core::CryptoRngCore,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Vec<u8>, Error> {
        match self {
            SigningKey::MlDsa(k) => k.sign_with_rng(rng, msg, ctx),
            SigningKey::FnDsa(k) => k.sign_with_rng(rng, msg, ctx),
            SigningKey::Falcon(k) => no_context(ctx).and_then(|()| k.sign_with_rng(rng, msg)),
            SigningKey::Snova(k) => no_context(ctx).and_then(|()| k.sign_with_rng(msg, rng)),
        }
    }
}

impl VerifyingKey {
    /// Decodes a public key (`InvalidKey` for a wrong length or encoding).
    pub fn from_bytes(alg: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        Ok(match alg {
            Algorithm::MlDsa(ps) => {
                VerifyingKey::MlDsa(mldsa::VerifyingKey::from_bytes(ps, bytes)?)
            }
            Algorithm::Falcon(ps) => {
                VerifyingKey::Falcon(falcon::VerifyingKey::from_bytes(ps, bytes)?)
            }
            Algorithm::FnDsa(ps) => {
                VerifyingKey::FnDsa(fndsa::VerifyingKey::from_bytes_logn(ps.logn(), bytes)?)
            }
            Algorithm::Snova(ps) => {
                VerifyingKey::Snova(snova::VerifyingKey::from_bytes(ps, bytes)?)
            }
        })
    }

    /// The algorithm (family and parameter set) of this key.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            VerifyingKey::MlDsa(k) => Algorithm::MlDsa(k.param_set()),
            VerifyingKey::Falcon(k) => Algorithm::Falcon(k.param_set()),
            VerifyingKey::FnDsa(k) => Algorithm::FnDsa(if k.logn() == fndsa::LOGN_512 {
                falcon::FnDsaParamSet::FnDsa512
            } else {
                falcon::FnDsaParamSet::FnDsa1024
            }),
            VerifyingKey::Snova(k) => Algorithm::Snova(k.param_set()),
        }
    }

    /// The standard public encoding.
    pub fn to_bytes(&self) -> &[u8] {
        match self {
            VerifyingKey::MlDsa(k) => k.to_bytes(),
            VerifyingKey::Falcon(k) => k.to_bytes(),
            VerifyingKey::FnDsa(k) => k.to_bytes(),
            VerifyingKey::Snova(k) => k.to_bytes(),
        }
    }

    /// The same key running on backend `b`.
    pub fn with_backend(self, b: Backend) -> Result<Self, Error> {
        Ok(match self {
            VerifyingKey::MlDsa(k) => VerifyingKey::MlDsa(k.with_backend(b)?),
            VerifyingKey::Falcon(k) => VerifyingKey::Falcon(k.with_backend(b)?),
            VerifyingKey::FnDsa(k) => VerifyingKey::FnDsa(k.with_backend(b)?),
            VerifyingKey::Snova(k) => VerifyingKey::Snova(k.with_backend(b)?),
        })
    }

    /// `Ok(())` for a valid signature; `VerificationFailed` for a well-formed one that
    /// does not verify; `InvalidSignature` for malformed bytes; `Unsupported` for a
    /// non-empty context where the algorithm has none.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        match self {
            VerifyingKey::MlDsa(k) => k.verify(msg, ctx, sig),
            VerifyingKey::FnDsa(k) => k.verify(msg, ctx, sig),
            VerifyingKey::Falcon(k) => no_context(ctx).and_then(|()| k.verify(msg, sig)),
            VerifyingKey::Snova(k) => no_context(ctx).and_then(|()| k.verify(msg, sig)),
        }
    }

    /// Verifies a signature over an externally computed 64-byte μ (see
    /// [`SigningKey::sign_mu`]); `Unsupported` for Falcon and SNOVA.
    pub fn verify_mu(&self, mu: &[u8], sig: &[u8]) -> Result<(), Error> {
        match self {
            VerifyingKey::MlDsa(k) => k.verify_mu(mu, sig),
            VerifyingKey::FnDsa(k) => k.verify_mu(mu, sig),
            _ => Err(Error::Unsupported),
        }
    }

    /// μ of `msg` under `ctx` for this key, as [`SigningKey::sign_mu`] and
    /// [`VerifyingKey::verify_mu`] take it (`Unsupported` for Falcon and SNOVA).
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        match self {
            VerifyingKey::MlDsa(k) => k.compute_mu(msg, ctx),
            VerifyingKey::FnDsa(k) => k.compute_mu(msg, ctx),
            _ => Err(Error::Unsupported),
        }
    }
}

/// A fresh OS-random key-generation seed for `alg` (wiped on drop).
#[cfg(feature = "std")]
pub fn random_seed(alg: Algorithm) -> Result<Zeroizing<Vec<u8>>, Error> {
    let mut seed = Zeroizing::new(alloc::vec![0u8; alg.seed_len()]);
    crate::rng::os_fill(&mut seed[..])?;
    Ok(seed)
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    /// The fast sets of every family (the CLI, C and Python tests cover every name).
    pub(super) const FAST: [&str; 5] = [
        "ML-DSA-44",
        "Falcon-512",
        "Falcon-padded-512",
        "FN-DSA-512",
        "SNOVA_I_S",
    ];

    #[test]
    fn every_family_round_trips_through_the_generic_keys() {
        for name in FAST {
            let alg = Algorithm::from_name(name).unwrap();
            let seed = alloc::vec![7u8; alg.seed_len()];
            let sk = SigningKey::from_seed(alg, &seed).unwrap();
            assert_eq!(sk.algorithm(), alg, "{name}");
            let vk = sk.verifying_key();
            assert_eq!(vk.algorithm(), alg, "{name}");
            assert_eq!(vk.to_bytes().len(), alg.public_key_len(), "{name}");
            let enc = sk.to_bytes();
            assert_eq!(enc.len(), alg.secret_key_len(), "{name}");
            // Decoding the encoding and the seed gives the same key.
            for bytes in [&enc[..], &seed[..]] {
                let again = SigningKey::from_bytes(alg, bytes).unwrap();
                assert_eq!(&again.to_bytes()[..], &enc[..], "{name}");
                assert_eq!(again.check_against(&vk), Ok(()), "{name}");
            }
            let sig = sk.sign(b"m", b"").unwrap();
            assert!(sig.len() <= alg.signature_len(), "{name}");
            if let Some(n) = alg.fixed_signature_len() {
                assert_eq!(sig.len(), n, "{name}");
            }
            let vk2 = VerifyingKey::from_bytes(alg, vk.to_bytes()).unwrap();
            assert_eq!(vk2.verify(b"m", b"", &sig), Ok(()), "{name}");
            assert_eq!(
                vk2.verify(b"n", b"", &sig),
                Err(Error::VerificationFailed),
                "{name}"
            );
            // Context support is what the algorithm advertises.
            let ctx_sign = sk.sign(b"m", b"c");
            assert_eq!(ctx_sign.is_ok(), alg.supports_context(), "{name}");
            if !alg.supports_context() {
                assert_eq!(ctx_sign, Err(Error::Unsupported), "{name}");
                assert_eq!(
                    vk.verify(b"m", b"c", &sig),
                    Err(Error::Unsupported),
                    "{name}"
                );
            }
            assert_eq!(
                sk.sign_deterministic(b"m", b"").is_ok(),
                alg.supports_deterministic(),
                "{name}"
            );
            // External μ where the algorithm has it.
            match vk.compute_mu(b"m", b"") {
                Ok(mu) => {
                    assert!(alg.supports_external_mu(), "{name}");
                    let s = sk.sign_mu(&mu, false).unwrap();
                    assert_eq!(vk.verify_mu(&mu, &s), Ok(()), "{name}");
                    assert_eq!(vk.verify(b"m", b"", &s), Ok(()), "{name}");
                }
                Err(e) => {
                    assert_eq!(e, Error::Unsupported, "{name}");
                    assert!(!alg.supports_external_mu(), "{name}");
                    assert_eq!(sk.sign_mu(&[0u8; 64], false), Err(Error::Unsupported));
                }
            }
        }
    }

    #[test]
    fn malformed_inputs_get_typed_errors() {
        for name in FAST {
            let alg = Algorithm::from_name(name).unwrap();
            assert_eq!(
                SigningKey::from_seed(alg, &[1u8; 5]).err(),
                Some(Error::InvalidLength)
            );
            assert_eq!(
                SigningKey::from_bytes(alg, &[1u8; 5]).err(),
                Some(Error::InvalidKey)
            );
            assert_eq!(
                VerifyingKey::from_bytes(alg, &[1u8; 5]).err(),
                Some(Error::InvalidKey)
            );
            let seed = alloc::vec![3u8; alg.seed_len()];
            let sk = SigningKey::from_seed(alg, &seed).unwrap();
            let vk = sk.verifying_key();
            assert!(vk.verify(b"m", b"", &[0u8; 3]).is_err());
            // A key of another algorithm is not this key's public key.
            let other = if alg == Algorithm::from_name("ML-DSA-44").unwrap() {
                "FN-DSA-512"
            } else {
                "ML-DSA-44"
            };
            let o = Algorithm::from_name(other).unwrap();
            let ovk = SigningKey::from_seed(o, &alloc::vec![3u8; o.seed_len()])
                .unwrap()
                .verifying_key();
            assert_eq!(sk.check_against(&ovk), Err(Error::InvalidKey));
        }
    }
}
