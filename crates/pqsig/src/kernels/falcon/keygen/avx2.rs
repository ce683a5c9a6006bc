//! AVX2 kernels of Falcon key generation: the NTT modulo the small RNS primes, 8-lane
//! versions of the butterflies (Montgomery with R = 2^32 on the even and odd
//! 32-bit lanes through `vpmuludq`; reductions by unsigned minimum).
// Value-only intrinsics are safe inside `#[target_feature]` functions; explicit
// `unsafe` blocks are kept around them anyway (as in the other AVX2 kernels).
#![allow(unused_unsafe)]
use crate::falcon::keygen::modp::{intt_layer_scalar, mmul, ntt_layer_scalar};
use core::arch::x86_64::*;

/// a·b/2^32 mod p on 8 lanes (a, b < p).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mmul8(a: __m256i, b: __m256i, p: __m256i, p0i: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let ze = _mm256_mul_epu32(a, b);
        let zo = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32));
        // z + (z·p0i mod 2^32)·p has zero low halves; the high halves are the
        // results, in [0, 2p).
        let te = _mm256_add_epi64(ze, _mm256_mul_epu32(_mm256_mul_epu32(ze, p0i), p));
        let to = _mm256_add_epi64(zo, _mm256_mul_epu32(_mm256_mul_epu32(zo, p0i), p));
        let r = _mm256_blend_epi32(_mm256_srli_epi64(te, 32), to, 0b1010_1010);
        _mm256_min_epu32(r, _mm256_sub_epi32(r, p))
    }
}

/// a + b mod p on 8 lanes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn add8(a: __m256i, b: __m256i, p: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let s = _mm256_add_epi32(a, b);
        _mm256_min_epu32(s, _mm256_sub_epi32(s, p))
    }
}

/// a − b mod p on 8 lanes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn sub8(a: __m256i, b: __m256i, p: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let d = _mm256_sub_epi32(a, b);
        _mm256_min_epu32(d, _mm256_add_epi32(d, p))
    }
}

/// For butterflies `d` apart (d = 4, 2, 1) within 8 lanes: permutation indices that
/// put each butterfly's x (resp. y) value in both of its lanes, and the blend mask
/// (all ones) selecting the y lanes (which receive x − y·s, resp. (x − y)·s).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn small_layer_lanes(d: usize) -> (__m256i, __m256i, __m256i) {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        match d {
            4 => (
                _mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3),
                _mm256_setr_epi32(4, 5, 6, 7, 4, 5, 6, 7),
                _mm256_setr_epi32(0, 0, 0, 0, -1, -1, -1, -1),
            ),
            2 => (
                _mm256_setr_epi32(0, 1, 0, 1, 4, 5, 4, 5),
                _mm256_setr_epi32(2, 3, 2, 3, 6, 7, 6, 7),
                _mm256_setr_epi32(0, 0, -1, -1, 0, 0, -1, -1),
            ),
            _ => (
                _mm256_setr_epi32(0, 0, 2, 2, 4, 4, 6, 6),
                _mm256_setr_epi32(1, 1, 3, 3, 5, 5, 7, 7),
                _mm256_setr_epi32(0, -1, 0, -1, 0, -1, 0, -1),
            ),
        }
    }
}

/// The `per` twiddles of the blocks of one vector (1, 2 or 4), each repeated over
/// its block's 8/per lanes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn twiddles(tw: &[u32], per: usize) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        match per {
            1 => _mm256_set1_epi32(tw[0] as i32),
            2 => _mm256_setr_epi32(
                tw[0] as i32,
                tw[0] as i32,
                tw[0] as i32,
                tw[0] as i32,
                tw[1] as i32,
                tw[1] as i32,
                tw[1] as i32,
                tw[1] as i32,
            ),
            _ => _mm256_setr_epi32(
                tw[0] as i32,
                tw[0] as i32,
                tw[1] as i32,
                tw[1] as i32,
                tw[2] as i32,
                tw[2] as i32,
                tw[3] as i32,
                tw[3] as i32,
            ),
        }
    }
}

/// Forward NTT (same layout and results as the portable one).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn ntt(p: u32, p0i: u32, a: &mut [u32], gm: &[u32]) {
    // SAFETY (whole body): AVX2 is available (precondition); every vector access
    // is 8 words inside a block half checked by the loop bounds.
    unsafe { ntt_body(p, p0i, a, gm) }
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn ntt_body(p: u32, p0i: u32, a: &mut [u32], gm: &[u32]) {
    unsafe {
        let n = a.len();
        let vp = _mm256_set1_epi32(p as i32);
        let vq = _mm256_set1_epi32(p0i as i32);
        let mut t = n;
        let mut m = 1;
        while m < n {
            let ht = t >> 1;
            if ht >= 8 {
                for u in 0..m {
                    let s = _mm256_set1_epi32(gm[m + u] as i32);
                    let blk = &mut a[u * t..(u + 1) * t];
                    let (lo, hi) = blk.split_at_mut(ht);
                    for j in (0..ht).step_by(8) {
                        // SAFETY: j + 8 <= ht: in bounds of lo and hi.
                        let px = lo.as_mut_ptr().add(j) as *mut __m256i;
                        let py = hi.as_mut_ptr().add(j) as *mut __m256i;
                        let x = _mm256_loadu_si256(px);
                        let y = mmul8(_mm256_loadu_si256(py), s, vp, vq);
                        _mm256_storeu_si256(px, add8(x, y, vp));
                        _mm256_storeu_si256(py, sub8(x, y, vp));
                    }
                }
            } else if n >= 8 {
                // Butterflies 4, 2 or 1 apart: 8 consecutive words hold whole
                // blocks; the x and y halves are spread by lane permutations.
                let (xi, yi, keep) = small_layer_lanes(ht);
                let per = 8 / t; // blocks per vector
                for (v, u) in (0..n).step_by(8).zip((0..m).step_by(per)) {
                    let tw = twiddles(&gm[m + u..m + u + per], per);
                    let pa = a.as_mut_ptr().add(v) as *mut __m256i;
                    let w = _mm256_loadu_si256(pa);
                    let x = _mm256_permutevar8x32_epi32(w, xi);
                    let y = mmul8(_mm256_permutevar8x32_epi32(w, yi), tw, vp, vq);
                    let r = _mm256_blendv_epi8(add8(x, y, vp), sub8(x, y, vp), keep);
                    _mm256_storeu_si256(pa, r);
                }
            } else {
                ntt_layer_scalar(p, p0i, a, gm, m, t);
            }
            t = ht;
            m <<= 1;
        }
    }
}

/// Inverse NTT with the scaling by `ni` (same results as the portable one).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn intt(p: u32, p0i: u32, ni: u32, a: &mut [u32], igm: &[u32]) {
    // SAFETY: as for `ntt`.
    unsafe { intt_body(p, p0i, ni, a, igm) }
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn intt_body(p: u32, p0i: u32, ni: u32, a: &mut [u32], igm: &[u32]) {
    unsafe {
        let n = a.len();
        let vp = _mm256_set1_epi32(p as i32);
        let vq = _mm256_set1_epi32(p0i as i32);
        let mut t = 1;
        let mut m = n;
        while m > 1 {
            if t >= 8 {
                let hm = m >> 1;
                for u in 0..hm {
                    let s = _mm256_set1_epi32(igm[hm + u] as i32);
                    let blk = &mut a[u * 2 * t..(u + 1) * 2 * t];
                    let (lo, hi) = blk.split_at_mut(t);
                    for j in (0..t).step_by(8) {
                        // SAFETY: j + 8 <= t: in bounds of lo and hi.
                        let px = lo.as_mut_ptr().add(j) as *mut __m256i;
                        let py = hi.as_mut_ptr().add(j) as *mut __m256i;
                        let x = _mm256_loadu_si256(px);
                        let y = _mm256_loadu_si256(py);
                        _mm256_storeu_si256(px, add8(x, y, vp));
                        _mm256_storeu_si256(py, mmul8(sub8(x, y, vp), s, vp, vq));
                    }
                }
            } else if n >= 8 {
                let hm = m >> 1;
                let (xi, yi, keep) = small_layer_lanes(t);
                let per = 8 / (2 * t);
                for (v, u) in (0..n).step_by(8).zip((0..hm).step_by(per)) {
                    let tw = twiddles(&igm[hm + u..hm + u + per], per);
                    let pa = a.as_mut_ptr().add(v) as *mut __m256i;
                    let w = _mm256_loadu_si256(pa);
                    let x = _mm256_permutevar8x32_epi32(w, xi);
                    let y = _mm256_permutevar8x32_epi32(w, yi);
                    let d = mmul8(sub8(x, y, vp), tw, vp, vq);
                    let r = _mm256_blendv_epi8(add8(x, y, vp), d, keep);
                    _mm256_storeu_si256(pa, r);
                }
            } else {
                intt_layer_scalar(p, p0i, a, igm, m, t);
            }
            t <<= 1;
            m >>= 1;
        }
        if n > 1 {
            if n >= 8 {
                let vn = _mm256_set1_epi32(ni as i32);
                for j in (0..n).step_by(8) {
                    // SAFETY: n is a multiple of 8 here.
                    let px = a.as_mut_ptr().add(j) as *mut __m256i;
                    _mm256_storeu_si256(px, mmul8(_mm256_loadu_si256(px), vn, vp, vq));
                }
            } else {
                for x in a.iter_mut() {
                    *x = mmul(*x, ni, p, p0i);
                }
            }
        }
    }
}
