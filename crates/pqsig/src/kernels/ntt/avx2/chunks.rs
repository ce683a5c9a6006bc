//! In-register unzip / zip of 32-, 64- and 128-bit chunks of a ymm pair, shared by the
//! primitives of both moduli (Falcon's chunks of s ≥ 2 u16 lanes and ML-DSA's of s i32
//! lanes are the same byte shuffles).
//!
//! Every `unsafe fn` requires AVX2.

use core::arch::x86_64::*;

/// Even and odd chunks of `bytes` bytes (4, 8 or 16) of the sequence (a, b).
#[inline(always)]
pub(super) unsafe fn unzip(a: __m256i, b: __m256i, bytes: usize) -> (__m256i, __m256i) {
    unsafe {
        match bytes {
            4 => {
                let (fa, fb) = (_mm256_castsi256_ps(a), _mm256_castsi256_ps(b));
                let e = _mm256_castps_si256(_mm256_shuffle_ps::<0x88>(fa, fb));
                let o = _mm256_castps_si256(_mm256_shuffle_ps::<0xDD>(fa, fb));
                (
                    _mm256_permute4x64_epi64::<0xD8>(e),
                    _mm256_permute4x64_epi64::<0xD8>(o),
                )
            }
            8 => (
                _mm256_permute4x64_epi64::<0xD8>(_mm256_unpacklo_epi64(a, b)),
                _mm256_permute4x64_epi64::<0xD8>(_mm256_unpackhi_epi64(a, b)),
            ),
            _ => (
                _mm256_permute2x128_si256::<0x20>(a, b),
                _mm256_permute2x128_si256::<0x31>(a, b),
            ),
        }
    }
}

/// The inverse of [`unzip`] (`e`, `o`: the even and odd chunks of `bytes` bytes, 2 to
/// 16; 2 only for [`zip`]).
#[inline(always)]
pub(super) unsafe fn zip(e: __m256i, o: __m256i, bytes: usize) -> (__m256i, __m256i) {
    unsafe {
        if bytes >= 16 {
            return (
                _mm256_permute2x128_si256::<0x20>(e, o),
                _mm256_permute2x128_si256::<0x31>(e, o),
            );
        }
        let e = _mm256_permute4x64_epi64::<0xD8>(e);
        let o = _mm256_permute4x64_epi64::<0xD8>(o);
        match bytes {
            2 => (_mm256_unpacklo_epi16(e, o), _mm256_unpackhi_epi16(e, o)),
            4 => (_mm256_unpacklo_epi32(e, o), _mm256_unpackhi_epi32(e, o)),
            _ => (_mm256_unpacklo_epi64(e, o), _mm256_unpackhi_epi64(e, o)),
        }
    }
}
