//! AVX2 primitives of the Falcon NTT variants (q = 12289): sixteen u16 lanes per ymm
//! register, canonical arithmetic (the algorithm, plans and constants are the shared
//! body's, `super::super::simd::{units, falcon}`).
//!
//! Data movement for strides `s < 16`: log2(P) "unzip" passes on chunks of s lanes
//! (pack / 64-bit unpack / 128-bit permutes, then a qword permute), undone by as many
//! "zip" passes; per-lane constants are table entries by group expanded to s lanes each
//! by one broadcast and one byte shuffle.

use super::chunks;
use crate::kernels::falcon::ntt::{portable, Q};
use crate::kernels::ntt::simd::falcon::falcon_simd_kernels;
use crate::kernels::ntt::simd::{Cst, Lanes};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

/// Falcon on AVX2 (value, companion registers as the constant).
pub(crate) struct Avx2Falcon;

#[inline(always)]
unsafe fn qv() -> __m256i {
    unsafe { _mm256_set1_epi16(Q as i16) }
}

/// Entries `g..` of row `t`, `s` lanes each (s ≥ 16: all lanes entry g).
#[inline(always)]
unsafe fn spread(t: &[u16], g: usize, s: usize) -> __m256i {
    unsafe {
        match s {
            1 => _mm256_loadu_si256(t[g..g + 16].as_ptr() as *const __m256i),
            2 => {
                let v = _mm256_broadcastsi128_si256(_mm_loadu_si128(
                    t[g..g + 8].as_ptr() as *const __m128i
                ));
                _mm256_shuffle_epi8(
                    v,
                    _mm256_setr_epi8(
                        0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 8, 9, 10, 11, 10, 11,
                        12, 13, 12, 13, 14, 15, 14, 15,
                    ),
                )
            }
            4 => {
                let x = t[g] as u64
                    | (t[g + 1] as u64) << 16
                    | (t[g + 2] as u64) << 32
                    | (t[g + 3] as u64) << 48;
                _mm256_shuffle_epi8(
                    _mm256_set1_epi64x(x as i64),
                    _mm256_setr_epi8(
                        0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3, 4, 5, 4, 5, 4, 5, 4, 5, 6,
                        7, 6, 7, 6, 7, 6, 7,
                    ),
                )
            }
            8 => _mm256_set_m128i(_mm_set1_epi16(t[g + 1] as i16), _mm_set1_epi16(t[g] as i16)),
            _ => _mm256_set1_epi16(t[g] as i16),
        }
    }
}

impl Lanes for Avx2Falcon {
    type E = u16;
    type V = __m256i;
    type C = (__m256i, __m256i);
    const N: usize = 16;

    #[inline(always)]
    unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
        unsafe {
            let s = _mm256_add_epi16(a, b);
            _mm256_min_epu16(s, _mm256_sub_epi16(s, qv()))
        }
    }

    #[inline(always)]
    unsafe fn sub(a: __m256i, b: __m256i) -> __m256i {
        unsafe {
            let d = _mm256_sub_epi16(a, b);
            _mm256_min_epu16(d, _mm256_add_epi16(d, qv()))
        }
    }

    /// `x·w/2^16 mod q` in `[0, q)`, x and w canonical (`w.1` the companion).
    #[inline(always)]
    unsafe fn mul(x: __m256i, w: &Self::C) -> __m256i {
        unsafe {
            let m = _mm256_mullo_epi16(x, w.1);
            let hi = _mm256_mulhi_epi16(x, w.0);
            let t = _mm256_mulhi_epu16(m, qv());
            let r = _mm256_sub_epi16(hi, t);
            _mm256_min_epu16(r, _mm256_add_epi16(r, qv()))
        }
    }

    #[inline(always)]
    unsafe fn reduce(x: __m256i) -> __m256i {
        x
    }

    #[inline(always)]
    unsafe fn splat(c: Cst<u16>) -> Self::C {
        unsafe { (_mm256_set1_epi16(c.v as i16), _mm256_set1_epi16(c.c as i16)) }
    }

    #[inline(always)]
    unsafe fn lanes(v: &[u16], c: &[u16], g: usize, s: usize) -> Self::C {
        unsafe { (spread(v, g, s), spread(c, g, s)) }
    }

    #[inline(always)]
    unsafe fn load(a: &[u16], o: usize) -> __m256i {
        // SAFETY: 16 readable u16 (slice-checked).
        unsafe { _mm256_loadu_si256(a[o..o + 16].as_ptr() as *const __m256i) }
    }

    #[inline(always)]
    unsafe fn store(a: &mut [u16], o: usize, v: __m256i) {
        // SAFETY: 16 writable u16 (slice-checked).
        unsafe { _mm256_storeu_si256(a[o..o + 16].as_mut_ptr() as *mut __m256i, v) }
    }

    /// Even and odd chunks (of `s` lanes) of the sequence (a, b).
    #[inline(always)]
    unsafe fn unzip(a: __m256i, b: __m256i, s: usize) -> (__m256i, __m256i) {
        unsafe {
            match s {
                1 => {
                    let m = _mm256_set1_epi32(0xFFFF);
                    let e = _mm256_packus_epi32(_mm256_and_si256(a, m), _mm256_and_si256(b, m));
                    let o =
                        _mm256_packus_epi32(_mm256_srli_epi32::<16>(a), _mm256_srli_epi32::<16>(b));
                    (
                        _mm256_permute4x64_epi64::<0xD8>(e),
                        _mm256_permute4x64_epi64::<0xD8>(o),
                    )
                }
                _ => chunks::unzip(a, b, 2 * s),
            }
        }
    }

    /// Inverse of [`Lanes::unzip`].
    #[inline(always)]
    unsafe fn zip(e: __m256i, o: __m256i, s: usize) -> (__m256i, __m256i) {
        unsafe { chunks::zip(e, o, 2 * s) }
    }
}

falcon_simd_kernels!(Avx2Falcon, "avx2", Backend::Avx2, portable::KERNELS);
