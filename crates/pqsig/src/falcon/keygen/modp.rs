//! Arithmetic modulo the small RNS primes (2^31 - 2^23 < p < 2^31, p = 1 mod 2048) and
//! their number-theoretic transform over Z_p[X]/(X^n + 1).
//!
//! Representation: residues are `u32` in `[0, p)` (canonical, so any correct modular
//! method yields the same values as the reference implementation). Multiplication is
//! Montgomery's with R = 2^32: `mmul(a, b) = a·b / 2^32 mod p`. Every function here is
//! constant-time (masks, no data-dependent branches or indices).
//!
//! NTT layout: for a polynomial of degree n = 2^logn, the NTT holds a(w_i) for the n
//! roots of X^n + 1 in bit-reversed order, so that positions 2i and 2i+1 hold a(w) and
//! a(-w) for one root w, and w^2 is the root at position i of the half-size NTT. The
//! field-norm step of NTRUSolve relies on exactly that pairing.

pub(crate) use super::primes::PRIMES;
use crate::kernels::falcon::keygen::KeygenKernels;

/// One RNS modulus and its precomputed constants (see the `primes` table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SmallPrime {
    /// The prime.
    pub p: u32,
    /// -1/p mod 2^32.
    pub p0i: u32,
    /// 2^64 mod p (R^2, converts into Montgomery representation).
    pub r2: u32,
    /// A primitive 2048-th root of unity mod p.
    pub g: u32,
    /// 1/g mod p.
    pub ig: u32,
    /// R / (product of the earlier primes of the table) mod p, for the CRT.
    pub s: u32,
}

/// All-ones if the top bit of `x` is set, else zero.
#[inline(always)]
pub(crate) const fn tbmask(x: u32) -> u32 {
    ((x as i32) >> 31) as u32
}

/// `v mod p` for `-p < v < p`.
#[inline(always)]
pub(crate) fn set(v: i32, p: u32) -> u32 {
    let w = v as u32;
    w.wrapping_add(p & tbmask(w))
}

/// The representative of `x` in `[-(p-1)/2, (p-1)/2]`.
#[inline(always)]
pub(crate) fn norm(x: u32, p: u32) -> i32 {
    let c = tbmask(x.wrapping_sub((p + 1) >> 1));
    x.wrapping_sub(p & !c) as i32
}

#[inline(always)]
pub(crate) fn add(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_add(b).wrapping_sub(p);
    d.wrapping_add(p & tbmask(d))
}

#[inline(always)]
pub(crate) fn sub(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(b);
    d.wrapping_add(p & tbmask(d))
}

/// `a / 2 mod p`.
#[inline(always)]
pub(crate) fn half(a: u32, p: u32) -> u32 {
    a.wrapping_add(p & (a & 1).wrapping_neg()) >> 1
}

/// Montgomery product `a·b / 2^32 mod p` for `a, b < p`.
#[inline(always)]
pub(crate) fn mmul(a: u32, b: u32, p: u32, p0i: u32) -> u32 {
    let z = (a as u64) * (b as u64);
    let w = ((z as u32).wrapping_mul(p0i) as u64) * (p as u64);
    // z + w < 2^62 + 2^63 and is a multiple of 2^32; the quotient is below 2p.
    let d = (((z + w) >> 32) as u32).wrapping_sub(p);
    d.wrapping_add(p & tbmask(d))
}

/// R = 2^32 mod p (Montgomery representation of 1); valid because 2p < 2^32 < 3p.
#[inline(always)]
pub(crate) fn mont_one(p: u32) -> u32 {
    p.wrapping_neg().wrapping_mul(2)
}

impl SmallPrime {
    #[inline(always)]
    pub(crate) fn mmul(&self, a: u32, b: u32) -> u32 {
        mmul(a, b, self.p, self.p0i)
    }

    /// 2^31 in Montgomery representation (2^63 mod p): `mmul(x, c31)` is `x·2^31 mod p`.
    #[inline(always)]
    pub(crate) fn c31(&self) -> u32 {
        half(self.r2, self.p)
    }

    /// 2^(31·e) mod p (normal representation), for e >= 0.
    pub(crate) fn pow2_31(&self, e: usize) -> u32 {
        // Square-and-multiply in Montgomery representation over the public exponent.
        let mut base = self.c31(); // 2^31 · R
        let mut acc = mont_one(self.p); // 1 · R
        let mut e = e;
        while e != 0 {
            if e & 1 != 0 {
                acc = self.mmul(acc, base);
            }
            base = self.mmul(base, base);
            e >>= 1;
        }
        self.mmul(acc, 1)
    }

    /// 1/n in Montgomery representation (R/n mod p), n = 2^logn.
    #[inline]
    pub(crate) fn inv_n(&self, logn: u32) -> u32 {
        let mut x = mont_one(self.p);
        for _ in 0..logn {
            x = half(x, self.p);
        }
        x
    }

    /// Fills `gm[..n]` and `igm[..n]` (n = 2^logn) with the powers of a primitive 2n-th
    /// root of unity and of its inverse, in Montgomery representation and bit-reversed
    /// order: `gm[rev(i)] = w^i`.
    pub(crate) fn mkgm(&self, logn: u32, gm: &mut [u32], igm: &mut [u32]) {
        let n = 1usize << logn;
        let (mut w, mut iw) = (self.mmul(self.g, self.r2), self.mmul(self.ig, self.r2));
        for _ in logn..10 {
            w = self.mmul(w, w);
            iw = self.mmul(iw, iw);
        }
        let one = mont_one(self.p);
        let (mut x1, mut x2) = (one, one);
        for i in 0..n {
            let r = rev(i, logn);
            gm[r] = x1;
            igm[r] = x2;
            x1 = self.mmul(x1, w);
            x2 = self.mmul(x2, iw);
        }
    }

    /// Forward table only (see [`SmallPrime::mkgm`]).
    pub(crate) fn mkgm_fwd(&self, logn: u32, gm: &mut [u32]) {
        let n = 1usize << logn;
        let mut w = self.mmul(self.g, self.r2);
        for _ in logn..10 {
            w = self.mmul(w, w);
        }
        let mut x1 = mont_one(self.p);
        for i in 0..n {
            gm[rev(i, logn)] = x1;
            x1 = self.mmul(x1, w);
        }
    }

    /// Inverse table only (see [`SmallPrime::mkgm`]).
    pub(crate) fn mkgm_inv(&self, logn: u32, igm: &mut [u32]) {
        let n = 1usize << logn;
        let mut iw = self.mmul(self.ig, self.r2);
        for _ in logn..10 {
            iw = self.mmul(iw, iw);
        }
        let mut x2 = mont_one(self.p);
        for i in 0..n {
            igm[rev(i, logn)] = x2;
            x2 = self.mmul(x2, iw);
        }
    }

    /// In-place NTT of `a[..2^logn]` (coefficients `< p`) with a table from `mkgm`
    /// built for a degree >= 2^logn (only its first 2^logn entries are read).
    #[inline]
    pub(crate) fn ntt(&self, kk: &KeygenKernels, a: &mut [u32], gm: &[u32], logn: u32) {
        ntt_impl(kk, self.p, self.p0i, a, gm, logn)
    }

    /// In-place inverse NTT (including the division by n) with an inverse table from
    /// `mkgm` built for a degree >= 2^logn.
    #[inline]
    pub(crate) fn intt(&self, kk: &KeygenKernels, a: &mut [u32], igm: &[u32], logn: u32) {
        intt_impl(kk, self.p, self.p0i, self.inv_n(logn), a, igm, logn)
    }
}

/// NTT dispatch: the AVX2 version (8-lane butterflies for the layers whose butterflies
/// are at least 8 apart) when `kk` has AVX2, else portable. Both give the
/// same canonical residues.
fn ntt_impl(kk: &KeygenKernels, p: u32, p0i: u32, a: &mut [u32], gm: &[u32], logn: u32) {
    let n = 1usize << logn;
    let a = &mut a[..n];
    let gm = &gm[..n];
    #[cfg(target_arch = "x86_64")]
    if kk.avx2 {
        // SAFETY: `kk.avx2` is set only by `keygen::kernels` after AVX2 was detected.
        unsafe { avx2::ntt(p, p0i, a, gm) };
        return;
    }
    let mut t = n;
    let mut m = 1;
    while m < n {
        ntt_layer_scalar(p, p0i, a, gm, m, t);
        t >>= 1;
        m <<= 1;
    }
}

/// Inverse NTT dispatch (see [`ntt_impl`]); includes the multiplication by `ni` = R/n.
fn intt_impl(kk: &KeygenKernels, p: u32, p0i: u32, ni: u32, a: &mut [u32], igm: &[u32], logn: u32) {
    let n = 1usize << logn;
    let a = &mut a[..n];
    let igm = &igm[..n];
    #[cfg(target_arch = "x86_64")]
    if kk.avx2 {
        // SAFETY: `kk.avx2` is set only by `keygen::kernels` after AVX2 was detected.
        unsafe { avx2::intt(p, p0i, ni, a, igm) };
        return;
    }
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        intt_layer_scalar(p, p0i, a, igm, m, t);
        t <<= 1;
        m >>= 1;
    }
    if logn > 0 {
        for x in a.iter_mut() {
            *x = mmul(*x, ni, p, p0i);
        }
    }
}

/// One forward layer: m blocks of size t, twiddle gm[m + u] for block u, butterflies
/// t/2 apart.
#[inline(always)]
fn ntt_layer_scalar(p: u32, p0i: u32, a: &mut [u32], gm: &[u32], m: usize, t: usize) {
    let ht = t >> 1;
    for (u, blk) in a.chunks_exact_mut(t).enumerate() {
        let s = gm[m + u];
        let (lo, hi) = blk.split_at_mut(ht);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let xv = *x;
            let yv = mmul(*y, s, p, p0i);
            *x = add(xv, yv, p);
            *y = sub(xv, yv, p);
        }
    }
}

/// One inverse layer: m/2 blocks of size 2t, twiddle igm[m/2 + u], butterflies t apart.
#[inline(always)]
fn intt_layer_scalar(p: u32, p0i: u32, a: &mut [u32], igm: &[u32], m: usize, t: usize) {
    let hm = m >> 1;
    for (u, blk) in a.chunks_exact_mut(t << 1).enumerate() {
        let s = igm[hm + u];
        let (lo, hi) = blk.split_at_mut(t);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let xv = *x;
            let yv = *y;
            *x = add(xv, yv, p);
            *y = mmul(sub(xv, yv, p), s, p, p0i);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! 8-lane versions of the butterflies (Montgomery with R = 2^32 on the even and odd
    //! 32-bit lanes through `vpmuludq`; reductions by unsigned minimum).
    // Value-only intrinsics are safe inside `#[target_feature]` functions; explicit
    // `unsafe` blocks are kept around them anyway (as in the other AVX2 kernels).
    #![allow(unused_unsafe)]
    use super::{intt_layer_scalar, mmul, ntt_layer_scalar};
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
    pub(super) unsafe fn ntt(p: u32, p0i: u32, a: &mut [u32], gm: &[u32]) {
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
    pub(super) unsafe fn intt(p: u32, p0i: u32, ni: u32, a: &mut [u32], igm: &[u32]) {
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
}

/// Bit reversal of `i` over `logn` bits.
#[inline(always)]
pub(crate) fn rev(i: usize, logn: u32) -> usize {
    if logn == 0 {
        0
    } else {
        ((i as u32).reverse_bits() >> (32 - logn)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_prime(n: u64) -> bool {
        if n < 2 {
            return false;
        }
        let mut d = 2;
        while d * d <= n {
            if n % d == 0 {
                return false;
            }
            d += 1;
        }
        true
    }

    fn powmod(mut b: u64, mut e: u64, m: u64) -> u64 {
        let mut r = 1u64;
        b %= m;
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % m;
            }
            b = b * b % m;
            e >>= 1;
        }
        r
    }

    #[test]
    fn prime_table() {
        // Recompute every entry from its definition.
        let mut expect_p = (1u64 << 31) + 1 - 2048;
        let mut prod_mod: alloc::vec::Vec<u64> = alloc::vec::Vec::new();
        for (i, sp) in PRIMES.iter().enumerate() {
            while !is_prime(expect_p) {
                expect_p -= 2048;
            }
            let p = sp.p as u64;
            assert_eq!(p, expect_p, "entry {i}");
            expect_p -= 2048;
            assert_eq!((p as u32).wrapping_mul(sp.p0i), u32::MAX, "p0i {i}");
            assert_eq!(sp.r2 as u64, powmod(2, 64, p));
            assert_eq!(powmod(sp.g as u64, 1024, p), p - 1);
            assert_eq!(sp.g as u64 * sp.ig as u64 % p, 1);
            // s * (product of earlier primes) = 2^32 mod p.
            let mut q = 1u64;
            for &e in &prod_mod {
                q = q * (e % p) % p;
            }
            assert_eq!(sp.s as u64 * q % p, (1u64 << 32) % p, "s {i}");
            prod_mod.push(p);
        }
    }

    /// The AVX2 NTT / inverse NTT against the portable layers, bit for bit.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_ntt_matches_portable() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut st = 0x9e37_79b9_7f4a_7c15u64;
        for (pi, sp) in PRIMES.iter().enumerate().step_by(37) {
            for logn in 0..=10u32 {
                let n = 1usize << logn;
                let mut gm = alloc::vec![0u32; n];
                let mut igm = alloc::vec![0u32; n];
                sp.mkgm(logn, &mut gm, &mut igm);
                let a: alloc::vec::Vec<u32> = (0..n)
                    .map(|_| {
                        st ^= st << 13;
                        st ^= st >> 7;
                        st ^= st << 17;
                        (st % sp.p as u64) as u32
                    })
                    .collect();
                let mut x = a.clone();
                let mut y = a.clone();
                let (mut t, mut m) = (n, 1);
                while m < n {
                    ntt_layer_scalar(sp.p, sp.p0i, &mut x, &gm, m, t);
                    t >>= 1;
                    m <<= 1;
                }
                // SAFETY: AVX2 detected above.
                unsafe { avx2::ntt(sp.p, sp.p0i, &mut y, &gm) };
                assert_eq!(x, y, "ntt prime {pi} logn {logn}");
                let ni = sp.inv_n(logn);
                let (mut t, mut m) = (1, n);
                while m > 1 {
                    intt_layer_scalar(sp.p, sp.p0i, &mut x, &igm, m, t);
                    t <<= 1;
                    m >>= 1;
                }
                if logn > 0 {
                    for v in x.iter_mut() {
                        *v = mmul(*v, ni, sp.p, sp.p0i);
                    }
                }
                // SAFETY: AVX2 detected above.
                unsafe { avx2::intt(sp.p, sp.p0i, ni, &mut y, &igm) };
                assert_eq!(x, y, "intt prime {pi} logn {logn}");
                assert_eq!(x, a, "round trip prime {pi} logn {logn}");
            }
        }
    }

    #[test]
    fn ntt_roundtrip_and_product() {
        let kk =
            &crate::kernels::falcon::keygen::kernels(crate::kernels::select::Backend::detect());
        let sp = PRIMES[3];
        let p = sp.p;
        for logn in 0..=10u32 {
            let n = 1usize << logn;
            let mut gm = alloc::vec![0u32; n];
            let mut igm = alloc::vec![0u32; n];
            sp.mkgm(logn, &mut gm, &mut igm);
            let a: alloc::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 7919 + 13) % p).collect();
            let b: alloc::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 104729 + 5) % p).collect();
            let mut ta = a.clone();
            let mut tb = b.clone();
            sp.ntt(kk, &mut ta, &gm, logn);
            sp.ntt(kk, &mut tb, &gm, logn);
            // Pointwise product, then back: compare with the schoolbook negacyclic product.
            for i in 0..n {
                ta[i] = sp.mmul(sp.mmul(ta[i], tb[i]), sp.r2);
            }
            sp.intt(kk, &mut ta, &igm, logn);
            let mut c = alloc::vec![0u64; n];
            for i in 0..n {
                for j in 0..n {
                    let pr = a[i] as u64 * b[j] as u64 % p as u64;
                    let k = i + j;
                    if k < n {
                        c[k] = (c[k] + pr) % p as u64;
                    } else {
                        c[k - n] = (c[k - n] + p as u64 - pr) % p as u64;
                    }
                }
            }
            for i in 0..n {
                assert_eq!(ta[i] as u64, c[i], "logn {logn} i {i}");
            }
            // Pairing: positions 2i, 2i+1 are a(w), a(-w).
            if logn >= 1 {
                let mut x = alloc::vec![0u32; n];
                x[1] = 1; // a(X) = X
                sp.ntt(kk, &mut x, &gm, logn);
                for i in 0..n / 2 {
                    assert_eq!(add(x[2 * i], x[2 * i + 1], p), 0);
                }
            }
        }
        assert_eq!(sp.pow2_31(0), 1);
        assert_eq!(sp.pow2_31(1) as u64, (1u64 << 31) % p as u64);
        assert_eq!(sp.pow2_31(2) as u64, powmod(2, 62, p as u64));
        assert_eq!(norm(p - 1, p), -1);
        assert_eq!(set(-1, p), p - 1);
    }
}
