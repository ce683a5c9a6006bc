//! Message representatives: M' for pure and pre-hash ML-DSA (FIPS 204 Algorithms 2, 4)
//! and μ = H(tr ‖ M', 64), also incrementally for messages streamed from files.

use super::prehash::HashAlg;
use crate::error::Error;
use crate::kernels::keccak::f1600::{keccak_f1600_active, Permute1};
use crate::kernels::keccak::sponge::Shake256;

/// Length of μ.
pub const MU_LEN: usize = 64;

/// Incremental μ = H(tr ‖ 0 ‖ |ctx| ‖ ctx ‖ M): absorb the message in pieces, then
/// [`MuHasher::finalize`]. Use it to sign or verify data of any size through the
/// external-μ interface.
#[derive(Clone)]
pub struct MuHasher {
    h: Shake256,
}

impl MuHasher {
    /// Starts μ for pure ML-DSA with context `ctx` (at most 255 bytes).
    pub fn new(tr: &[u8; 64], ctx: &[u8]) -> Result<Self, Error> {
        Self::new_on(keccak_f1600_active, tr, ctx)
    }

    /// [`MuHasher::new`] with the Keccak permutation `perm` (a key's backend's).
    pub fn new_on(perm: Permute1, tr: &[u8; 64], ctx: &[u8]) -> Result<Self, Error> {
        if ctx.len() > 255 {
            return Err(Error::ContextTooLong);
        }
        let mut h = Shake256::new().with_permutation(perm);
        h.absorb(tr);
        h.absorb(&[0u8, ctx.len() as u8]);
        h.absorb(ctx);
        Ok(MuHasher { h })
    }

    /// Starts μ over a raw M' (Sign_internal's message), no domain prefix.
    pub fn new_internal(tr: &[u8; 64]) -> Self {
        Self::new_internal_on(keccak_f1600_active, tr)
    }

    /// [`MuHasher::new_internal`] with the Keccak permutation `perm`.
    pub fn new_internal_on(perm: Permute1, tr: &[u8; 64]) -> Self {
        let mut h = Shake256::new().with_permutation(perm);
        h.absorb(tr);
        MuHasher { h }
    }

    pub fn update(&mut self, data: &[u8]) {
        self.h.absorb(data);
    }

    pub fn finalize(mut self) -> [u8; MU_LEN] {
        let mut mu = [0u8; MU_LEN];
        self.h.squeeze(&mut mu);
        mu
    }
}

/// μ for pure ML-DSA from tr, context and message.
pub fn compute_mu(tr: &[u8; 64], ctx: &[u8], msg: &[u8]) -> Result<[u8; MU_LEN], Error> {
    compute_mu_on(keccak_f1600_active, tr, ctx, msg)
}

/// [`compute_mu`] with the Keccak permutation `perm`.
pub fn compute_mu_on(
    perm: Permute1,
    tr: &[u8; 64],
    ctx: &[u8],
    msg: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    let mut h = MuHasher::new_on(perm, tr, ctx)?;
    h.update(msg);
    Ok(h.finalize())
}

/// μ for pure ML-DSA from the encoded public key (tr = H(pk, 64) is computed here;
/// the key is not otherwise decoded, so this is cheap).
pub fn compute_mu_from_public_key(
    pk: &[u8],
    ctx: &[u8],
    msg: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    let mut tr = [0u8; 64];
    crate::kernels::keccak::sponge::shake256(&[pk], &mut tr);
    compute_mu(&tr, ctx, msg)
}

/// μ for HashML-DSA: H(tr ‖ 1 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(M)).
pub fn compute_mu_prehash(
    tr: &[u8; 64],
    ctx: &[u8],
    hash: HashAlg,
    msg: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    let mut ph = [0u8; 64];
    let n = hash.digest(msg, &mut ph);
    compute_mu_prehashed(tr, ctx, hash, &ph[..n])
}

/// [`compute_mu_prehash`] with the Keccak permutation `perm` for μ (PH itself: see
/// [`HashAlg::digest`]).
pub fn compute_mu_prehash_on(
    perm: Permute1,
    tr: &[u8; 64],
    ctx: &[u8],
    hash: HashAlg,
    msg: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    let mut ph = [0u8; 64];
    let n = hash.digest_on(perm, msg, &mut ph);
    compute_mu_prehashed_on(perm, tr, ctx, hash, &ph[..n])
}

/// μ for HashML-DSA when the caller already computed PH(M) (`digest` must have the
/// hash's output length).
pub fn compute_mu_prehashed(
    tr: &[u8; 64],
    ctx: &[u8],
    hash: HashAlg,
    digest: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    compute_mu_prehashed_on(keccak_f1600_active, tr, ctx, hash, digest)
}

/// [`compute_mu_prehashed`] with the Keccak permutation `perm`.
pub fn compute_mu_prehashed_on(
    perm: Permute1,
    tr: &[u8; 64],
    ctx: &[u8],
    hash: HashAlg,
    digest: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong);
    }
    if digest.len() != hash.output_len() {
        return Err(Error::InvalidLength);
    }
    let mut h = Shake256::new().with_permutation(perm);
    h.absorb(tr);
    h.absorb(&[1u8, ctx.len() as u8]);
    h.absorb(ctx);
    h.absorb(&hash.oid_der());
    h.absorb(digest);
    let mut mu = [0u8; MU_LEN];
    h.squeeze(&mut mu);
    Ok(mu)
}

/// μ for Sign_internal / Verify_internal over a caller-formatted M'.
pub fn compute_mu_internal(tr: &[u8; 64], m_prime: &[u8]) -> [u8; MU_LEN] {
    compute_mu_internal_on(keccak_f1600_active, tr, m_prime)
}

/// [`compute_mu_internal`] with the Keccak permutation `perm`.
pub fn compute_mu_internal_on(perm: Permute1, tr: &[u8; 64], m_prime: &[u8]) -> [u8; MU_LEN] {
    let mut h = MuHasher::new_internal_on(perm, tr);
    h.update(m_prime);
    h.finalize()
}
