//! AVX2 bit unpacking: z (FIPS 204 BitUnpack(·, γ1 − 1, γ1), 18 or 20 bits a coefficient),
//! eight coefficients per step. Signing unpacks every ExpandMask output y with it, and
//! verification the signature's z; the scalar form was a tenth of avx512 signing.
//!
//! Eight coefficients are `bits` bytes (18 or 20). Each 128-bit half of a ymm register
//! gets the bytes of four of them (two unaligned 16-byte loads, `bits / 2` bytes apart),
//! one byte shuffle puts each coefficient's first four bytes into its 32-bit element, a
//! variable shift drops the bits of the previous coefficient, and a mask those of the
//! next one. The last group's second load would pass the end of the input, so that group
//! is copied into a zero-padded buffer first.
//!
//! Constant time: no branch or index depends on the data (the tail branch depends on
//! the group number only); y is secret in signing.

use crate::kernels::mldsa::Poly;
use core::arch::x86_64::*;

/// BitUnpack of z: `p[i] = γ1 − (the i-th bits-bit field of inp)`, with `bits` 18 (γ1 =
/// 2^17) or 20 (γ1 = 2^19) and `inp.len() == 32 · bits`, as the portable
/// `mldsa::encode::unpack_z`.
pub(crate) fn unpack_z(inp: &[u8], gamma1: i32, bits: usize, p: &mut Poly) {
    // SAFETY: AVX2 was detected before this table entry could be reached: the AVX2 and
    // AVX-512 ML-DSA tables are only handed out by `kernels::mldsa::kernels` after
    // `Backend::is_available()`.
    unsafe { unpack_z_avx2(inp, gamma1, bits, p) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn unpack_z_avx2(inp: &[u8], gamma1: i32, bits: usize, p: &mut Poly) {
    assert!(
        bits == 18 || bits == 20,
        "z has 18 or 20 bits a coefficient"
    );
    assert_eq!(inp.len(), 32 * bits, "BitUnpack input length");
    let half = bits / 2;
    // Per half: the byte offset and bit shift of coefficient i (0..4) are
    // (bits·i / 8, bits·i mod 8): 18 bits → (0,0) (2,2) (4,4) (6,6);
    // 20 bits → (0,0) (2,4) (5,0) (7,4). Each takes bytes off..off+3.
    let (shuf, shift, mask) = if bits == 18 {
        (
            _mm256_setr_epi8(
                0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, //
                0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9,
            ),
            _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6),
            _mm256_set1_epi32((1 << 18) - 1),
        )
    } else {
        (
            _mm256_setr_epi8(
                0, 1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 10, //
                0, 1, 2, 3, 2, 3, 4, 5, 5, 6, 7, 8, 7, 8, 9, 10,
            ),
            _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4),
            _mm256_set1_epi32((1 << 20) - 1),
        )
    };
    let g1 = _mm256_set1_epi32(gamma1);
    let out = p.coeffs.as_mut_ptr();
    for j in 0..32 {
        let off = j * bits;
        let v = if off + half + 16 <= inp.len() {
            // SAFETY: off + half + 16 <= inp.len(), so both 16-byte loads (at off and
            // off + half) are in bounds.
            unsafe {
                let lo = _mm_loadu_si128(inp.as_ptr().add(off) as *const __m128i);
                let hi = _mm_loadu_si128(inp.as_ptr().add(off + half) as *const __m128i);
                _mm256_set_m128i(hi, lo)
            }
        } else {
            // The last group: its `bits` bytes, zero-padded to 32.
            let mut b = [0u8; 32];
            b[..bits].copy_from_slice(&inp[off..off + bits]);
            // SAFETY: both loads lie inside `b` (half + 16 <= 26 < 32).
            unsafe {
                let lo = _mm_loadu_si128(b.as_ptr() as *const __m128i);
                let hi = _mm_loadu_si128(b.as_ptr().add(half) as *const __m128i);
                _mm256_set_m128i(hi, lo)
            }
        };
        let v = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(v, shuf), shift), mask);
        // SAFETY: 8·j + 8 <= 256 = p.coeffs.len(): the 32-byte store is in bounds.
        unsafe { _mm256_storeu_si256(out.add(8 * j) as *mut __m256i, _mm256_sub_epi32(g1, v)) };
    }
}

#[cfg(test)]
mod tests {
    use crate::kernels::select::Backend;
    use crate::mldsa::encode;

    /// Against the portable BitUnpack on random inputs of both widths, all-ones and
    /// all-zero inputs included.
    #[test]
    fn matches_portable() {
        if !Backend::Avx2.is_available() {
            return;
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for trial in 0..200 {
            for (bits, gamma1) in [(18usize, 1 << 17), (20, 1 << 19)] {
                let inp: alloc::vec::Vec<u8> = (0..32 * bits)
                    .map(|_| match trial {
                        0 => 0,
                        1 => 0xFF,
                        _ => {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            x as u8
                        }
                    })
                    .collect();
                let (mut got, mut want) = (Default::default(), Default::default());
                super::unpack_z(&inp, gamma1, bits, &mut got);
                encode::unpack_z(&inp, gamma1, bits, &mut want);
                assert_eq!(got, want, "bits {bits}, trial {trial}");
            }
        }
    }
}
