//! AVX-512 primitives of the ML-DSA NTT variants (q = 8380417): sixteen i32 lanes per
//! zmm register, lazy additions and rounded Shoup products (the algorithm, plans,
//! constants and bounds are the shared body's, `super::super::simd::{units, mldsa}`).
//!
//! Data movement for strides `s < 16`: log2(P) passes of two-source lane permutes
//! (`vpermt2d`, taking the even or the odd chunks of s lanes of a pair), undone by as
//! many passes; per-lane constants are sixteen table entries by group, spread to s lanes
//! each by one permute. The 32 zmm registers hold a whole Winograd-16 unit with its
//! constants.

use super::permute::permute_tables;
use crate::kernels::mldsa::Q;
use crate::kernels::ntt::simd::mldsa::mldsa_simd_kernels;
use crate::kernels::ntt::simd::{Cst, Lanes};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

/// ML-DSA on AVX-512 F. The constant is [values, companions (even lanes), companions of
/// the odd lanes moved to the even ones].
pub(crate) struct Avx512MlDsa;

#[inline(always)]
unsafe fn odd_even(a: __m512i) -> __m512i {
    unsafe { _mm512_shuffle_epi32::<0xF5>(a) }
}

permute_tables!(i32, 16, 4);

#[inline(always)]
unsafe fn ldv(t: &[i32], g: usize) -> __m512i {
    // SAFETY: 16 readable i32 (slice-checked).
    unsafe { _mm512_loadu_si512(t[g..g + 16].as_ptr() as *const __m512i) }
}

impl Lanes for Avx512MlDsa {
    type E = i32;
    type V = __m512i;
    type C = [__m512i; 3];
    const N: usize = 16;

    #[inline(always)]
    unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_add_epi32(a, b) }
    }

    #[inline(always)]
    unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_sub_epi32(a, b) }
    }

    /// `h·z mod q`, rounded Shoup product: |r| ≤ q(1/2 + |h|/2^33).
    #[inline(always)]
    unsafe fn mul(h: __m512i, c: &Self::C) -> __m512i {
        unsafe {
            let half = _mm512_set1_epi64(1 << 31);
            let pe = _mm512_add_epi64(_mm512_mul_epi32(h, c[1]), half);
            let po = _mm512_add_epi64(_mm512_mul_epi32(odd_even(h), c[2]), half);
            let t = _mm512_mask_blend_epi32(0xAAAA, odd_even(pe), po);
            let hz = _mm512_mullo_epi32(h, c[0]);
            _mm512_sub_epi32(hz, _mm512_mullo_epi32(t, _mm512_set1_epi32(Q)))
        }
    }

    /// `a − round(a/2^23)·q`: |out| ≤ 0.75q for a ≤ 2^31 − 2^22 − 1.
    #[inline(always)]
    unsafe fn reduce(a: __m512i) -> __m512i {
        unsafe {
            let t = _mm512_srai_epi32::<23>(_mm512_add_epi32(a, _mm512_set1_epi32(1 << 22)));
            _mm512_sub_epi32(a, _mm512_mullo_epi32(t, _mm512_set1_epi32(Q)))
        }
    }

    #[inline(always)]
    unsafe fn splat(c: Cst<i32>) -> Self::C {
        unsafe {
            let s = _mm512_set1_epi32(c.c);
            [_mm512_set1_epi32(c.v), s, s]
        }
    }

    #[inline(always)]
    unsafe fn lanes(z: &[i32], c: &[i32], g: usize, s: usize) -> Self::C {
        unsafe {
            if s >= 16 {
                return Self::splat(Cst { v: z[g], c: c[g] });
            }
            let (mut zv, mut sv) = (ldv(z, g), ldv(c, g));
            if s > 1 {
                let i = idx(&SPREAD[s.trailing_zeros() as usize]);
                zv = _mm512_permutexvar_epi32(i, zv);
                sv = _mm512_permutexvar_epi32(i, sv);
            }
            [zv, sv, odd_even(sv)]
        }
    }

    #[inline(always)]
    unsafe fn load(a: &[i32], o: usize) -> __m512i {
        // SAFETY: 16 readable i32 (slice-checked).
        unsafe { _mm512_loadu_si512(a[o..o + 16].as_ptr() as *const __m512i) }
    }

    #[inline(always)]
    unsafe fn store(a: &mut [i32], o: usize, v: __m512i) {
        // SAFETY: 16 writable i32 (slice-checked).
        unsafe { _mm512_storeu_si512(a[o..o + 16].as_mut_ptr() as *mut __m512i, v) }
    }

    #[inline(always)]
    unsafe fn unzip(a: __m512i, b: __m512i, s: usize) -> (__m512i, __m512i) {
        unsafe {
            let z = &ZIP[s.trailing_zeros() as usize];
            (
                _mm512_permutex2var_epi32(a, idx(&z[0]), b),
                _mm512_permutex2var_epi32(a, idx(&z[1]), b),
            )
        }
    }

    #[inline(always)]
    unsafe fn zip(e: __m512i, o: __m512i, s: usize) -> (__m512i, __m512i) {
        unsafe {
            let z = &ZIP[s.trailing_zeros() as usize];
            (
                _mm512_permutex2var_epi32(e, idx(&z[2]), o),
                _mm512_permutex2var_epi32(e, idx(&z[3]), o),
            )
        }
    }
}

mldsa_simd_kernels!(Avx512MlDsa, "avx2,avx512f", Backend::Avx512);
