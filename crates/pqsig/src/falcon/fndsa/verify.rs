//! FN-DSA (draft, fn-dsa 0.4.0) verification. DRAFT.
//!
//! Strict decoding (exact length, header `0x30 + logn`, canonical compressed s2 with
//! |s2_i| ≤ 840), `c = HashToPoint(nonce ‖ μ)`, `s1 = c − s2·h mod q` (NTT kernels),
//! then accept iff every |s1_i| ≤ 840, s2 ≠ 0 and `‖s1‖² + ‖s2‖² ≤ β²`. The s2 ≠ 0
//! condition mirrors fn-dsa's overflow test (`‖s1‖² < 2^32 − ‖s2‖²`, false when
//! ‖s2‖² = 0); such a signature could not satisfy the bound anyway.
//!
//! Everything here is public data; no constant-time requirement.

use super::codec::CompDecoder;
use super::hash::hash_to_point_interleaved_on;
use super::params::{signature_size, B_INF, MU_LEN, NONCE_LEN, Q, SQBETA};
use crate::error::Error;
use crate::kernels::falcon::ntt::NttKernels;

/// Largest degree.
const NMAX: usize = 1024;

/// Verifies `sig` on μ against `h_mont` (the public polynomial in the NTT domain, in
/// Montgomery form: `NTT(h)·R mod q`). Works in 6 KB of stack, no allocation.
pub(crate) fn verify_mu(
    k: &NttKernels,
    logn: u32,
    h_mont: &[u16],
    mu: &[u8; MU_LEN],
    sig: &[u8],
) -> Result<(), Error> {
    let n = 1usize << logn;
    if n > NMAX || sig.len() != signature_size(logn) || sig[0] != 0x30 + logn as u8 {
        return Err(Error::InvalidSignature);
    }
    let mut s2 = [0i16; NMAX];
    let s2 = &mut s2[..n];
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(&sig[1..1 + NONCE_LEN]);
    // s2 is decoded a slice at a time between the hash-to-point blocks (a serial bit
    // chain that the CPU can run beside the permutations); the signature is rejected
    // as malformed afterwards if its encoding was invalid.
    let mut dec = CompDecoder::new(&sig[1 + NONCE_LEN..]).ok_or(Error::InvalidSignature)?;
    let mut buf = [0u16; 2 * NMAX];
    let (c, t) = buf[..2 * n].split_at_mut(n);
    let step = (n / 16).max(3);
    let mut done = 0;
    hash_to_point_interleaved_on(k.backend, &nonce, mu, c, || {
        let end = (done + step).min(n);
        dec.decode(&mut s2[done..end]);
        done = end;
    });
    dec.decode(&mut s2[done..]);
    if !dec.finish() {
        return Err(Error::InvalidSignature);
    }
    // t = s2·h (|s2_i| <= 840 < q, as from_i16 requires).
    (k.from_i16)(t, s2);
    (k.ntt)(t, logn);
    (k.mul_monty)(t, h_mont);
    (k.intt)(t, logn);
    // c = s1 = c − s2·h.
    (k.sub)(c, t);

    // Centred s1: x − q when x > (q−1)/2. Branch-free so the loop vectorizes.
    let mut norm1 = 0u32;
    let mut over = 0i32;
    for &x in c.iter() {
        let x = x as i32;
        let s = x - (Q as i32 & (((Q as i32 - 1) / 2 - x) >> 31));
        let sq = s * s;
        // |s| <= 840 <=> s² <= 840² (|s| < q/2, so s² < 2^26: no overflow).
        over |= B_INF * B_INF - sq;
        norm1 = norm1.wrapping_add(sq as u32);
    }
    let mut norm2 = 0u32;
    for &x in s2.iter() {
        let x = x as i32;
        norm2 += (x * x) as u32;
    }
    // norm1 may wrap only if some |s| > 840 (n·840² < 2^30), and then `over` < 0.
    if over >= 0 && norm2 != 0 && norm1 as u64 + norm2 as u64 <= SQBETA[logn as usize] as u64 {
        Ok(())
    } else {
        Err(Error::VerificationFailed)
    }
}
