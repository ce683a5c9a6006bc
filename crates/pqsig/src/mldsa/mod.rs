//! ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87.
//!
//! * Keys: [`SigningKey`] (from a 32-byte seed ξ — the recommended form, kept in the key —
//!   or from the expanded FIPS 204 encoding, validated) and [`VerifyingKey`].
//! * Pure ML-DSA with a context string (≤ 255 bytes): hedged by default
//!   ([`SigningKey::sign`]), deterministic on request ([`SigningKey::sign_deterministic`]).
//! * HashML-DSA with every FIPS 204 / ACVP pre-hash ([`HashAlg`]).
//! * External μ: [`SigningKey::sign_mu`], [`VerifyingKey::verify_mu`], and [`MuHasher`] /
//!   [`compute_mu`] to compute μ from (tr, ctx, message), also streamed.
//! * The internal functions for testing: [`keygen_internal`], [`SigningKey::sign_internal`],
//!   [`VerifyingKey::verify_internal`].
//!
//! File map (FIPS 204 algorithm numbers in each file): `params` (Table 1), `encode`
//! (§7), `sample` (Alg. 29–34), `keygen` (Alg. 6), `sign` (Alg. 7), `verify` (Alg. 8),
//! `mu` (Alg. 2/4 message formatting), `prehash` (§5.4), `keys` (decoded key types).

#[cfg(feature = "std")]
pub(crate) mod batch;
pub(crate) mod encode;
pub(crate) mod keygen;
pub mod keys;
pub mod mu;
pub mod params;
#[cfg(feature = "std")]
mod pipeline;
pub mod prehash;
pub(crate) mod sample;
pub(crate) mod sign;
pub(crate) mod verify;

pub use crate::traits::MlDsaSignature as Signature;
pub use keys::{SigningKey, VerifyingKey};
pub use mu::{
    compute_mu, compute_mu_from_public_key, compute_mu_internal, compute_mu_internal_on,
    compute_mu_on, compute_mu_prehash, compute_mu_prehash_on, compute_mu_prehashed,
    compute_mu_prehashed_on, MuHasher, MU_LEN,
};
pub use params::{ParamSet, Params};
pub use prehash::HashAlg;

use crate::error::Error;
use crate::kernels::mldsa as km;
use crate::kernels::select::Backend;
use alloc::vec::Vec;

/// Length of the seed ξ and of the signing randomness rnd.
pub const SEED_LEN: usize = 32;
pub const RND_LEN: usize = 32;

/// ML-DSA.KeyGen_internal(ξ) on the process-wide backend.
pub fn keygen_internal(ps: ParamSet, xi: &[u8; 32]) -> (SigningKey, VerifyingKey) {
    keygen::keygen_internal(ps, km::active(), xi)
}

/// KeyGen_internal(ξ) returning only the encodings `(pk, expanded sk)`, without
/// building key objects (cheaper when keys go straight to storage).
pub fn keygen_internal_bytes(
    ps: ParamSet,
    xi: &[u8; 32],
) -> (Vec<u8>, zeroize::Zeroizing<Vec<u8>>) {
    keygen::keygen_internal_bytes(ps, km::active(), xi)
}

/// [`keygen_internal_bytes`] on a chosen backend.
pub fn keygen_internal_bytes_on(
    ps: ParamSet,
    xi: &[u8; 32],
    backend: Backend,
) -> Result<(Vec<u8>, zeroize::Zeroizing<Vec<u8>>), Error> {
    if !backend.is_available() {
        return Err(Error::BackendUnavailable);
    }
    Ok(keygen::keygen_internal_bytes(ps, km::kernels(backend), xi))
}

/// KeyGen from a seed on a chosen backend.
pub fn keygen_internal_on(
    ps: ParamSet,
    xi: &[u8; 32],
    backend: Backend,
) -> Result<(SigningKey, VerifyingKey), Error> {
    if !backend.is_available() {
        return Err(Error::BackendUnavailable);
    }
    Ok(keygen::keygen_internal(ps, km::kernels(backend), xi))
}

/// ML-DSA.KeyGen with ξ drawn from `rng`.
pub fn keygen_with_rng(
    ps: ParamSet,
    rng: &mut impl rand_core::CryptoRngCore,
) -> Result<(SigningKey, VerifyingKey), Error> {
    let mut xi = zeroize::Zeroizing::new([0u8; 32]);
    rng.try_fill_bytes(&mut xi[..])
        .map_err(|_| Error::RandomnessFailure)?;
    Ok(keygen_internal(ps, &xi))
}

/// ML-DSA.KeyGen with ξ from the operating system.
#[cfg(feature = "std")]
pub fn keygen(ps: ParamSet) -> Result<(SigningKey, VerifyingKey), Error> {
    let mut xi = zeroize::Zeroizing::new([0u8; 32]);
    crate::rng::os_fill(&mut xi[..])?;
    Ok(keygen_internal(ps, &xi))
}

fn check_ctx(ctx: &[u8]) -> Result<(), Error> {
    if ctx.len() > 255 {
        Err(Error::ContextTooLong)
    } else {
        Ok(())
    }
}

impl SigningKey {
    /// Expands a 32-byte seed ξ (the seed is kept; [`SigningKey::seed`] returns it).
    pub fn from_seed(ps: ParamSet, seed: &[u8]) -> Result<Self, Error> {
        let xi: &[u8; 32] = seed.try_into().map_err(|_| Error::InvalidLength)?;
        Ok(keygen_internal(ps, xi).0)
    }

    /// μ for pure ML-DSA under this key.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; MU_LEN], Error> {
        compute_mu_on(self.kern.permute1, &self.tr, ctx, msg)
    }

    /// Pure ML-DSA.Sign, hedged with randomness from `rng`.
    pub fn sign_with_rng(
        &self,
        rng: &mut impl rand_core::CryptoRngCore,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let mut rnd = zeroize::Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut rnd[..])
            .map_err(|_| Error::RandomnessFailure)?;
        self.sign_with_rnd(msg, ctx, &rnd)
    }

    /// Pure ML-DSA.Sign, hedged with OS randomness (the default).
    #[cfg(feature = "std")]
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        let mut rnd = zeroize::Zeroizing::new([0u8; 32]);
        crate::rng::os_fill(&mut rnd[..])?;
        self.sign_with_rnd(msg, ctx, &rnd)
    }

    /// Pure ML-DSA.Sign, deterministic variant (rnd = 0^32).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        self.sign_with_rnd(msg, ctx, &[0u8; 32])
    }

    /// Pure ML-DSA.Sign with caller-supplied rnd (for tests and KATs).
    pub fn sign_with_rnd(&self, msg: &[u8], ctx: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
        let mu = compute_mu_on(self.kern.permute1, &self.tr, ctx, msg)?;
        Ok(sign::sign_mu(self, &mu, rnd))
    }

    /// HashML-DSA.Sign over the message `msg` (hashed here with `hash`).
    pub fn sign_prehash_with_rnd(
        &self,
        hash: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Vec<u8>, Error> {
        let mu = compute_mu_prehash_on(self.kern.permute1, &self.tr, ctx, hash, msg)?;
        Ok(sign::sign_mu(self, &mu, rnd))
    }

    /// HashML-DSA.Sign over a digest PH(M) the caller computed.
    pub fn sign_prehashed_with_rnd(
        &self,
        hash: HashAlg,
        digest: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Vec<u8>, Error> {
        let mu = compute_mu_prehashed_on(self.kern.permute1, &self.tr, ctx, hash, digest)?;
        Ok(sign::sign_mu(self, &mu, rnd))
    }

    /// HashML-DSA.Sign, hedged with OS randomness.
    #[cfg(feature = "std")]
    pub fn sign_prehash(&self, hash: HashAlg, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        let mut rnd = zeroize::Zeroizing::new([0u8; 32]);
        crate::rng::os_fill(&mut rnd[..])?;
        self.sign_prehash_with_rnd(hash, msg, ctx, &rnd)
    }

    /// External μ: Sign_internal from line 6 on, given μ (64 bytes).
    pub fn sign_mu(&self, mu: &[u8], rnd: &[u8; 32]) -> Result<Vec<u8>, Error> {
        let mu: &[u8; 64] = mu.try_into().map_err(|_| Error::InvalidLength)?;
        Ok(sign::sign_mu(self, mu, rnd))
    }

    /// ML-DSA.Sign_internal(sk, M', rnd): M' is used as given (no domain prefix).
    pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Vec<u8> {
        let mu = compute_mu_internal_on(self.kern.permute1, &self.tr, m_prime);
        sign::sign_mu(self, &mu, rnd)
    }
}

impl VerifyingKey {
    /// μ for pure ML-DSA under this key.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; MU_LEN], Error> {
        compute_mu_on(self.kern.permute1, &self.tr, ctx, msg)
    }

    /// Pure ML-DSA.Verify. `Ok(())` if valid; `Err(VerificationFailed)` if not;
    /// `Err(InvalidSignature)` for malformed bytes; `Err(ContextTooLong)`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        check_ctx(ctx)?;
        let mu = compute_mu_on(self.kern.permute1, &self.tr, ctx, msg)?;
        verify::verify_mu(self, &mu, sig)
    }

    /// HashML-DSA.Verify.
    pub fn verify_prehash(
        &self,
        hash: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        let mu = compute_mu_prehash_on(self.kern.permute1, &self.tr, ctx, hash, msg)?;
        verify::verify_mu(self, &mu, sig)
    }

    /// HashML-DSA.Verify over a digest PH(M) the caller computed.
    pub fn verify_prehashed(
        &self,
        hash: HashAlg,
        digest: &[u8],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        let mu = compute_mu_prehashed_on(self.kern.permute1, &self.tr, ctx, hash, digest)?;
        verify::verify_mu(self, &mu, sig)
    }

    /// External μ verification.
    pub fn verify_mu(&self, mu: &[u8], sig: &[u8]) -> Result<(), Error> {
        let mu: &[u8; 64] = mu.try_into().map_err(|_| Error::InvalidLength)?;
        verify::verify_mu(self, mu, sig)
    }

    /// ML-DSA.Verify_internal(pk, M', σ).
    pub fn verify_internal(&self, m_prime: &[u8], sig: &[u8]) -> Result<(), Error> {
        let mu = compute_mu_internal_on(self.kern.permute1, &self.tr, m_prime);
        verify::verify_mu(self, &mu, sig)
    }
}
