//! FN-DSA (draft) message representative μ and hash-to-point. DRAFT: FIPS 206 may change
//! the domain separation, the pre-hash identifiers and the hash input layout.
//!
//! * `hvk = SHAKE256(vk)[..64]`;
//! * pure: `μ = SHAKE256(hvk ‖ 0x00 ‖ |ctx| ‖ ctx ‖ msg)[..64]`;
//! * pre-hash: `μ = SHAKE256(hvk ‖ 0x01 ‖ |ctx| ‖ ctx ‖ OID ‖ PH(msg))[..64]`;
//! * `c = HashToPoint(nonce ‖ μ)`: SHAKE256, little-endian 16-bit words, reject ≥ 61445,
//!   reduce mod q.

use super::params::{MU_LEN, NONCE_LEN, Q};
use crate::error::Error;
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::{shake256_on, Shake256};
use crate::kernels::select::{self, Backend};
use crate::mldsa::prehash::HashAlg;

/// `SHAKE256(vk)`, 64 bytes: binds μ to the verifying key.
pub fn hash_vrfy_key(vk: &[u8]) -> [u8; MU_LEN] {
    hash_vrfy_key_on(select::active(), vk)
}

/// [`hash_vrfy_key`] with backend `b`'s Keccak permutation.
pub fn hash_vrfy_key_on(b: Backend, vk: &[u8]) -> [u8; MU_LEN] {
    let mut r = [0u8; MU_LEN];
    shake256_on(permute1_for(b), &[vk], &mut r);
    r
}

/// Incremental μ for pure FN-DSA: absorb the message in pieces, then
/// [`MuHasher::finalize`]; sign or verify the result through the external-μ interface.
#[derive(Clone)]
pub struct MuHasher {
    h: Shake256,
}

impl MuHasher {
    /// Starts μ for the key hashed as `hvk` and context `ctx` (at most 255 bytes).
    pub fn new(hvk: &[u8; MU_LEN], ctx: &[u8]) -> Result<Self, Error> {
        Self::new_on(select::active(), hvk, ctx)
    }

    /// [`MuHasher::new`] with backend `b`'s Keccak permutation.
    pub fn new_on(b: Backend, hvk: &[u8; MU_LEN], ctx: &[u8]) -> Result<Self, Error> {
        if ctx.len() > 255 {
            return Err(Error::ContextTooLong);
        }
        let mut h = Shake256::new().with_permutation(permute1_for(b));
        h.absorb(hvk);
        h.absorb(&[0u8, ctx.len() as u8]);
        h.absorb(ctx);
        Ok(MuHasher { h })
    }

    /// Absorbs the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.h.absorb(data);
    }

    /// μ.
    pub fn finalize(mut self) -> [u8; MU_LEN] {
        let mut mu = [0u8; MU_LEN];
        self.h.squeeze(&mut mu);
        mu
    }
}

/// μ for pure FN-DSA.
pub fn compute_mu(hvk: &[u8; MU_LEN], ctx: &[u8], msg: &[u8]) -> Result<[u8; MU_LEN], Error> {
    compute_mu_on(select::active(), hvk, ctx, msg)
}

/// [`compute_mu`] with backend `b`'s Keccak permutation.
pub fn compute_mu_on(
    b: Backend,
    hvk: &[u8; MU_LEN],
    ctx: &[u8],
    msg: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    let mut h = MuHasher::new_on(b, hvk, ctx)?;
    h.update(msg);
    Ok(h.finalize())
}

/// μ for HashFN-DSA over `msg` (hashed here with `hash`).
pub fn compute_mu_prehash(
    hvk: &[u8; MU_LEN],
    ctx: &[u8],
    hash: HashAlg,
    msg: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    let mut ph = [0u8; 64];
    let n = hash.digest(msg, &mut ph);
    compute_mu_prehashed(hvk, ctx, hash, &ph[..n])
}

/// [`compute_mu_prehash`] with backend `b`'s Keccak permutation for μ.
pub fn compute_mu_prehash_on(
    b: Backend,
    hvk: &[u8; MU_LEN],
    ctx: &[u8],
    hash: HashAlg,
    msg: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    let mut ph = [0u8; 64];
    let n = hash.digest_on(permute1_for(b), msg, &mut ph);
    compute_mu_prehashed_on(b, hvk, ctx, hash, &ph[..n])
}

/// μ for HashFN-DSA over a digest the caller computed. The digest must have the hash's
/// output length (fn-dsa does not check this; we refuse a mismatch as
/// [`Error::InvalidLength`]).
pub fn compute_mu_prehashed(
    hvk: &[u8; MU_LEN],
    ctx: &[u8],
    hash: HashAlg,
    digest: &[u8],
) -> Result<[u8; MU_LEN], Error> {
    compute_mu_prehashed_on(select::active(), hvk, ctx, hash, digest)
}

/// [`compute_mu_prehashed`] with backend `b`'s Keccak permutation.
pub fn compute_mu_prehashed_on(
    b: Backend,
    hvk: &[u8; MU_LEN],
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
    let mut h = Shake256::new().with_permutation(permute1_for(b));
    h.absorb(hvk);
    h.absorb(&[1u8, ctx.len() as u8]);
    h.absorb(ctx);
    h.absorb(&hash.oid_der());
    h.absorb(digest);
    let mut mu = [0u8; MU_LEN];
    h.squeeze(&mut mu);
    Ok(mu)
}

/// Hash-to-point: `c` (n = c.len() values in `[0, q)`) from SHAKE256(nonce ‖ μ), read as
/// little-endian 16-bit words; words ≥ 61445 = 5q are skipped. The nonce and μ are
/// public, so the data-dependent loop is harmless. Runs on the process-wide backend.
pub fn hash_to_point(nonce: &[u8; NONCE_LEN], mu: &[u8; MU_LEN], c: &mut [u16]) {
    hash_to_point_on(select::active(), nonce, mu, c)
}

/// [`hash_to_point`] on backend `b` (all backends give the same values).
pub(crate) fn hash_to_point_on(
    b: crate::kernels::select::Backend,
    nonce: &[u8; NONCE_LEN],
    mu: &[u8; MU_LEN],
    c: &mut [u16],
) {
    hash_to_point_interleaved_on(b, nonce, mu, c, || {})
}

/// [`hash_to_point_on`], calling `between` after each squeezed block (independent work
/// the caller wants the CPU to overlap with the next permutation).
pub(crate) fn hash_to_point_interleaved_on(
    b: crate::kernels::select::Backend,
    nonce: &[u8; NONCE_LEN],
    mu: &[u8; MU_LEN],
    c: &mut [u16],
    mut between: impl FnMut(),
) {
    let mut h = Shake256::new().with_permutation(permute1_for(b));
    h.absorb(nonce);
    h.absorb(mu);
    let n = c.len();
    let mut block = [0u8; 136];
    let mut i = 0;
    let fk = crate::kernels::falcon::fndsa::kernels(b);
    while i < n {
        h.squeeze(&mut block);
        between();
        // Sixteen words at a time by `b`'s kernel where it has one, the rest below.
        let (i2, k) = (fk.hash_words64)(&block, c, i);
        i = i2;
        // Every word is reduced and written at the next free index, which advances only
        // for accepted words: a rejected word is overwritten by the next one, and the
        // loop stops once n words were accepted, so every write is in bounds and the
        // last one was accepted.
        for w in block[2 * k..].chunks_exact(2) {
            if i >= n {
                break;
            }
            let v = u16::from_le_bytes([w[0], w[1]]) as u32;
            c[i] = (v % Q) as u16;
            i += (v < 5 * Q) as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_to_point_matches_plain_loop() {
        for logn in 2..=10 {
            let n = 1usize << logn;
            let nonce = [logn as u8; NONCE_LEN];
            let mu = [0xA5u8; MU_LEN];
            let mut c = vec![0u16; n];
            hash_to_point(&nonce, &mu, &mut c);
            let mut h = Shake256::new();
            h.absorb(&nonce);
            h.absorb(&mu);
            let mut expect = Vec::new();
            while expect.len() < n {
                let mut w = [0u8; 2];
                h.squeeze(&mut w);
                let v = u16::from_le_bytes(w) as u32;
                if v < 61445 {
                    expect.push((v % Q) as u16);
                }
            }
            assert_eq!(c, expect);
            for b in crate::kernels::select::Backend::available() {
                let mut d = vec![0u16; n];
                hash_to_point_on(b, &nonce, &mu, &mut d);
                assert_eq!(d, expect, "{b:?}");
            }
        }
    }
}
