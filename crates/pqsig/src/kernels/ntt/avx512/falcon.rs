//! AVX-512 primitives of the Falcon NTT variants (q = 12289): 32 u16 lanes per zmm
//! register, canonical arithmetic (the algorithm, plans and constants are the shared
//! body's, `super::super::simd::{units, falcon}`).
//!
//! Data movement for strides `s < 32`: log2(P) passes of two-source word permutes
//! (`vpermt2w`, taking the even or the odd chunks of s lanes of a pair), undone by as
//! many passes; per-lane constants are 32 table entries by group spread over s lanes
//! each by one permute.

use super::permute::permute_tables;
use crate::kernels::falcon::ntt::{avx512 as radix2, Q};
use crate::kernels::ntt::simd::falcon::falcon_simd_kernels;
use crate::kernels::ntt::simd::{Cst, Lanes};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

/// Falcon on AVX-512 F/BW (value, companion registers as the constant).
pub(crate) struct Avx512Falcon;

#[inline(always)]
unsafe fn qv() -> __m512i {
    unsafe { _mm512_set1_epi16(Q as i16) }
}

permute_tables!(i16, 32, 5);

/// Entries `g..` of row `t`, `s` lanes each (s ≥ 32: all lanes entry g).
#[inline(always)]
unsafe fn spread(t: &[u16], g: usize, s: usize) -> __m512i {
    unsafe {
        if s >= 32 {
            return _mm512_set1_epi16(t[g] as i16);
        }
        let v = _mm512_loadu_si512(t[g..g + 32].as_ptr() as *const __m512i);
        if s == 1 {
            v
        } else {
            _mm512_permutexvar_epi16(idx(&SPREAD[s.trailing_zeros() as usize]), v)
        }
    }
}

impl Lanes for Avx512Falcon {
    type E = u16;
    type V = __m512i;
    type C = (__m512i, __m512i);
    const N: usize = 32;

    #[inline(always)]
    unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
        unsafe {
            let s = _mm512_add_epi16(a, b);
            _mm512_min_epu16(s, _mm512_sub_epi16(s, qv()))
        }
    }

    #[inline(always)]
    unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
        unsafe {
            let d = _mm512_sub_epi16(a, b);
            _mm512_min_epu16(d, _mm512_add_epi16(d, qv()))
        }
    }

    /// `x·w/2^16 mod q` in `[0, q)`, x and w canonical (`w.1` the companion).
    #[inline(always)]
    unsafe fn mul(x: __m512i, w: &Self::C) -> __m512i {
        unsafe {
            let m = _mm512_mullo_epi16(x, w.1);
            let hi = _mm512_mulhi_epi16(x, w.0);
            let t = _mm512_mulhi_epu16(m, qv());
            let r = _mm512_sub_epi16(hi, t);
            _mm512_min_epu16(r, _mm512_add_epi16(r, qv()))
        }
    }

    #[inline(always)]
    unsafe fn reduce(x: __m512i) -> __m512i {
        x
    }

    #[inline(always)]
    unsafe fn splat(c: Cst<u16>) -> Self::C {
        unsafe { (_mm512_set1_epi16(c.v as i16), _mm512_set1_epi16(c.c as i16)) }
    }

    #[inline(always)]
    unsafe fn lanes(v: &[u16], c: &[u16], g: usize, s: usize) -> Self::C {
        unsafe { (spread(v, g, s), spread(c, g, s)) }
    }

    #[inline(always)]
    unsafe fn load(a: &[u16], o: usize) -> __m512i {
        // SAFETY: 32 readable u16 (slice-checked).
        unsafe { _mm512_loadu_si512(a[o..o + 32].as_ptr() as *const __m512i) }
    }

    #[inline(always)]
    unsafe fn store(a: &mut [u16], o: usize, v: __m512i) {
        // SAFETY: 32 writable u16 (slice-checked).
        unsafe { _mm512_storeu_si512(a[o..o + 32].as_mut_ptr() as *mut __m512i, v) }
    }

    #[inline(always)]
    unsafe fn unzip(a: __m512i, b: __m512i, s: usize) -> (__m512i, __m512i) {
        unsafe {
            let z = &ZIP[s.trailing_zeros() as usize];
            (
                _mm512_permutex2var_epi16(a, idx(&z[0]), b),
                _mm512_permutex2var_epi16(a, idx(&z[1]), b),
            )
        }
    }

    #[inline(always)]
    unsafe fn zip(e: __m512i, o: __m512i, s: usize) -> (__m512i, __m512i) {
        unsafe {
            let z = &ZIP[s.trailing_zeros() as usize];
            (
                _mm512_permutex2var_epi16(e, idx(&z[2]), o),
                _mm512_permutex2var_epi16(e, idx(&z[3]), o),
            )
        }
    }
}

falcon_simd_kernels!(
    Avx512Falcon,
    "avx2,avx512f,avx512bw",
    Backend::Avx512,
    radix2::KERNELS
);
