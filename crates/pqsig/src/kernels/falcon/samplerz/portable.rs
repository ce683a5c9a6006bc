//! Portable SamplerZ kernels: the base sampler's table scan in 32-bit words, ChaCha20 one
//! block at a time.

use super::{run_batch, Request, SamplerKernels, Stream, RCDT_LIMBS, WINDOW};
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;

pub static KERNELS: SamplerKernels = SamplerKernels {
    backend: Backend::Portable,
    sample,
    sample_pair,
    sample_leaf,
    gaussian0,
    chacha20x8,
    chacha20x16: None,
};

/// z0 = number of table entries strictly above the 72-bit value `v` (limbs low first).
/// Scans the whole table; each comparison is a borrow chain over the three limbs, so no
/// branch or index depends on `v`.
#[inline(always)]
pub(crate) fn rcdt_scan(v: &[u32; 3]) -> i32 {
    let mut z = 0u32;
    for w in RCDT_LIMBS.iter() {
        // Borrow of v - w, limb by limb: 1 exactly when v < w.
        let mut cc = v[0].wrapping_sub(w[0]) >> 31;
        cc = v[1].wrapping_sub(w[1]).wrapping_sub(cc) >> 31;
        cc = v[2].wrapping_sub(w[2]).wrapping_sub(cc) >> 31;
        z += cc;
    }
    z as i32
}

/// See [`SamplerKernels::sample`].
pub fn sample(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    run_batch(stream, sigma_min, reqs, out, rcdt_scan)
}

/// See [`SamplerKernels::sample_pair`].
pub fn sample_pair(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    isigma: Fpr,
) -> (Fpr, Fpr) {
    super::pair_via_batch(sample, stream, sigma_min, mu0, mu1, isigma)
}

/// See [`SamplerKernels::sample_leaf`] (the serial sampler has no use for the leaf's
/// constant).
pub fn sample_leaf(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    leaf: super::Leaf,
) -> (Fpr, Fpr) {
    super::pair_via_batch(sample, stream, sigma_min, mu0, mu1, leaf.isigma())
}

/// See [`SamplerKernels::gaussian0`].
pub fn gaussian0(stream: &mut Stream<'_>) -> i32 {
    let v = super::draw72(stream);
    rcdt_scan(&v)
}

/// "expand 32-byte k".
pub(crate) const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

#[inline(always)]
fn quarter(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

/// See [`SamplerKernels::chacha20x8`].
pub fn chacha20x8(key_iv: &[u32; 12], counter: u64, out: &mut [u8; WINDOW]) {
    for u in 0..8 {
        let cc = counter.wrapping_add(u as u64);
        let mut init = [0u32; 16];
        init[..4].copy_from_slice(&SIGMA);
        init[4..].copy_from_slice(key_iv);
        init[14] ^= cc as u32;
        init[15] ^= (cc >> 32) as u32;
        let mut s = init;
        for _ in 0..10 {
            quarter(&mut s, 0, 4, 8, 12);
            quarter(&mut s, 1, 5, 9, 13);
            quarter(&mut s, 2, 6, 10, 14);
            quarter(&mut s, 3, 7, 11, 15);
            quarter(&mut s, 0, 5, 10, 15);
            quarter(&mut s, 1, 6, 11, 12);
            quarter(&mut s, 2, 7, 8, 13);
            quarter(&mut s, 3, 4, 9, 14);
        }
        for v in 0..16 {
            let w = s[v].wrapping_add(init[v]);
            let off = 4 * u + 32 * v;
            out[off..off + 4].copy_from_slice(&w.to_le_bytes());
        }
        crate::wipe::wipe(&mut s, [0; 16]);
        crate::wipe::wipe(&mut init, [0; 16]);
    }
}
