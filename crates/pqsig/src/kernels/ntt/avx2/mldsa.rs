//! AVX2 primitives of the ML-DSA NTT variants (q = 8380417): eight i32 lanes per ymm
//! register, lazy additions and rounded Shoup products (the algorithm, plans, constants
//! and bounds are the shared body's, `super::super::simd::{units, mldsa}`).
//!
//! Data movement for strides `s < 8`, specialised for the shapes of the plans: at s = 4
//! (radix-4) one vector covers two groups (128-bit halves, no shuffle); at s = 1 the
//! lanes are eight consecutive groups after an in-register transpose (4×4 per 128-bit
//! half for radix-4, 8×8 for Winograd; Winograd-16 as two 8×8). Other shapes (the stage
//! hook only) use the generic unzip passes. Per-lane constants are loaded from tables
//! laid out by group.

use super::chunks;
use crate::kernels::mldsa::avx2::ntt::transpose8;
use crate::kernels::mldsa::Q;
use crate::kernels::ntt::simd::mldsa::mldsa_simd_kernels;
use crate::kernels::ntt::simd::{load_points_by_unzip, store_points_by_zip, Cst, Lanes};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

/// ML-DSA on AVX2. The constant is [values, companions (even lanes), companions of the
/// odd lanes moved to the even ones].
pub(crate) struct Avx2MlDsa;

#[inline(always)]
unsafe fn odd_even(a: __m256i) -> __m256i {
    unsafe { _mm256_shuffle_epi32::<0xF5>(a) }
}

/// Lanes 0..4 from `a[lo..lo+4]`, lanes 4..8 from `a[hi..hi+4]`.
#[inline(always)]
unsafe fn ld2(a: &[i32], lo: usize, hi: usize) -> __m256i {
    // SAFETY: both ranges slice-checked.
    unsafe {
        _mm256_loadu2_m128i(
            a[hi..hi + 4].as_ptr() as *const __m128i,
            a[lo..lo + 4].as_ptr() as *const __m128i,
        )
    }
}

#[inline(always)]
unsafe fn st2(a: &mut [i32], lo: usize, hi: usize, v: __m256i) {
    // SAFETY: both ranges slice-checked.
    unsafe {
        _mm_storeu_si128(
            a[lo..lo + 4].as_mut_ptr() as *mut __m128i,
            _mm256_castsi256_si128(v),
        );
        _mm_storeu_si128(
            a[hi..hi + 4].as_mut_ptr() as *mut __m128i,
            _mm256_extracti128_si256::<1>(v),
        );
    }
}

/// 4×4 transpose of 32-bit lanes within each 128-bit half (an involution) of `x[..4]`.
#[inline(always)]
unsafe fn transpose4(x: &mut [__m256i]) {
    unsafe {
        let t0 = _mm256_unpacklo_epi32(x[0], x[1]);
        let t1 = _mm256_unpackhi_epi32(x[0], x[1]);
        let t2 = _mm256_unpacklo_epi32(x[2], x[3]);
        let t3 = _mm256_unpackhi_epi32(x[2], x[3]);
        x[0] = _mm256_unpacklo_epi64(t0, t2);
        x[1] = _mm256_unpackhi_epi64(t0, t2);
        x[2] = _mm256_unpacklo_epi64(t1, t3);
        x[3] = _mm256_unpackhi_epi64(t1, t3);
    }
}

/// Unit `u` of a Winograd-16 block at s = 1 is vectors 2u (points 0..8) and 2u + 1
/// (8..16): as two 8×8 matrices, `x[..8]` from the even and `x[8..]` from the odd ones.
#[inline(always)]
unsafe fn w16_halves(a: &[i32], o: usize, x: &mut [__m256i]) {
    unsafe {
        for u in 0..8 {
            x[u] = Avx2MlDsa::load(a, o + 16 * u);
            x[8 + u] = Avx2MlDsa::load(a, o + 16 * u + 8);
        }
        transpose8(&mut x[..8]);
        transpose8(&mut x[8..]);
    }
}

impl Lanes for Avx2MlDsa {
    type E = i32;
    type V = __m256i;
    type C = [__m256i; 3];
    const N: usize = 8;
    const MLDSA_W8_SCALE_BELOW_TOP: bool = true;

    #[inline(always)]
    unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_add_epi32(a, b) }
    }

    #[inline(always)]
    unsafe fn sub(a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_sub_epi32(a, b) }
    }

    /// `h·z mod q`, rounded Shoup product: |r| ≤ q(1/2 + |h|/2^33).
    #[inline(always)]
    unsafe fn mul(h: __m256i, c: &Self::C) -> __m256i {
        unsafe {
            let half = _mm256_set1_epi64x(1 << 31);
            let pe = _mm256_add_epi64(_mm256_mul_epi32(h, c[1]), half);
            let po = _mm256_add_epi64(_mm256_mul_epi32(odd_even(h), c[2]), half);
            let t = _mm256_blend_epi32::<0xAA>(odd_even(pe), po);
            let hz = _mm256_mullo_epi32(h, c[0]);
            _mm256_sub_epi32(hz, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)))
        }
    }

    /// `a − round(a/2^23)·q`: |out| ≤ 0.75q for a ≤ 2^31 − 2^22 − 1.
    #[inline(always)]
    unsafe fn reduce(a: __m256i) -> __m256i {
        unsafe {
            let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)));
            _mm256_sub_epi32(a, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)))
        }
    }

    #[inline(always)]
    unsafe fn splat(c: Cst<i32>) -> Self::C {
        unsafe {
            let s = _mm256_set1_epi32(c.c);
            [_mm256_set1_epi32(c.v), s, s]
        }
    }

    #[inline(always)]
    unsafe fn lanes(z: &[i32], c: &[i32], g: usize, s: usize) -> Self::C {
        unsafe {
            let (zv, sv) = match s {
                1 => (
                    _mm256_loadu_si256(z[g..g + 8].as_ptr() as *const __m256i),
                    _mm256_loadu_si256(c[g..g + 8].as_ptr() as *const __m256i),
                ),
                2 => {
                    let i = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3);
                    let ld = |t: &[i32]| {
                        _mm256_permutevar8x32_epi32(
                            _mm256_castsi128_si256(_mm_loadu_si128(
                                t[g..g + 4].as_ptr() as *const __m128i
                            )),
                            i,
                        )
                    };
                    (ld(z), ld(c))
                }
                4 => (
                    _mm256_set_m128i(_mm_set1_epi32(z[g + 1]), _mm_set1_epi32(z[g])),
                    _mm256_set_m128i(_mm_set1_epi32(c[g + 1]), _mm_set1_epi32(c[g])),
                ),
                _ => return Self::splat(Cst { v: z[g], c: c[g] }),
            };
            [zv, sv, odd_even(sv)]
        }
    }

    #[inline(always)]
    unsafe fn load(a: &[i32], o: usize) -> __m256i {
        // SAFETY: 8 readable i32 (slice-checked).
        unsafe { _mm256_loadu_si256(a[o..o + 8].as_ptr() as *const __m256i) }
    }

    #[inline(always)]
    unsafe fn store(a: &mut [i32], o: usize, v: __m256i) {
        // SAFETY: 8 writable i32 (slice-checked).
        unsafe { _mm256_storeu_si256(a[o..o + 8].as_mut_ptr() as *mut __m256i, v) }
    }

    #[inline(always)]
    unsafe fn unzip(a: __m256i, b: __m256i, s: usize) -> (__m256i, __m256i) {
        unsafe { chunks::unzip(a, b, 4 * s) }
    }

    #[inline(always)]
    unsafe fn zip(e: __m256i, o: __m256i, s: usize) -> (__m256i, __m256i) {
        unsafe { chunks::zip(e, o, 4 * s) }
    }

    #[inline(always)]
    unsafe fn load_points<const P: usize>(a: &[i32], o: usize, s: usize) -> [__m256i; P] {
        unsafe {
            let mut x = [_mm256_setzero_si256(); P];
            match (P, s) {
                // Two groups per vector: lanes 0..4 group i, 4..8 group i + 1.
                (4, 4) => {
                    for (t, xt) in x.iter_mut().enumerate() {
                        *xt = ld2(a, o + 4 * t, o + 16 + 4 * t);
                    }
                }
                // Units of four consecutive coefficients, eight per vector (lanes 0..4:
                // units 0..4 of the first 16 coefficients, 4..8 the next 16).
                (4, 1) => {
                    for (k, xk) in x.iter_mut().enumerate() {
                        *xk = ld2(a, o + 4 * k, o + 16 + 4 * k);
                    }
                    transpose4(&mut x);
                }
                (8, 1) => {
                    for (k, xk) in x.iter_mut().enumerate() {
                        *xk = Self::load(a, o + 8 * k);
                    }
                    transpose8(&mut x);
                }
                (16, 1) => w16_halves(a, o, &mut x),
                _ => return load_points_by_unzip::<Self, P>(a, o, s),
            }
            x
        }
    }

    #[inline(always)]
    unsafe fn store_points<const P: usize>(a: &mut [i32], o: usize, s: usize, x: [__m256i; P]) {
        unsafe {
            let mut x = x;
            match (P, s) {
                (4, 4) => {
                    for (t, xt) in x.iter().enumerate() {
                        st2(a, o + 4 * t, o + 16 + 4 * t, *xt);
                    }
                }
                (4, 1) => {
                    transpose4(&mut x);
                    for (k, xk) in x.iter().enumerate() {
                        st2(a, o + 4 * k, o + 16 + 4 * k, *xk);
                    }
                }
                (8, 1) => {
                    transpose8(&mut x);
                    for (k, xk) in x.iter().enumerate() {
                        Self::store(a, o + 8 * k, *xk);
                    }
                }
                (16, 1) => {
                    transpose8(&mut x[..8]);
                    transpose8(&mut x[8..]);
                    for u in 0..8 {
                        Self::store(a, o + 16 * u, x[u]);
                        Self::store(a, o + 16 * u + 8, x[8 + u]);
                    }
                }
                _ => store_points_by_zip::<Self, P>(a, o, s, x),
            }
        }
    }
}

mldsa_simd_kernels!(Avx2MlDsa, "avx2", Backend::Avx2);
