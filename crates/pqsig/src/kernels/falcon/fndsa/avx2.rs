//! AVX2 kernels of FN-DSA: the public-key 14-bit unpacking, hash-to-point's word
//! reduction and packing, and the fixed-point division of key generation. Whole
//! `#[target_feature(enable = "avx2")]` functions, entered only through the table that
//! `kernels::falcon::fndsa::kernels` hands out after AVX2 was detected.

// Value-only intrinsics are safe inside `#[target_feature]` functions.
#![allow(unused_unsafe)]

/// The 14-bit unpacking eight values (14 bytes) at a time.
pub(super) mod modq {
    use crate::falcon::fndsa::params::Q;
    use core::arch::x86_64::*;

    /// Decodes the leading groups of 8 values whose 16-byte load stays inside `buf`;
    /// returns the number of values written and a non-zero flag if one was `>= q`.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn decode(buf: &[u8], h: &mut [u16]) -> (usize, u32) {
        // Per 128-bit lane, four 32-bit words holding the three (or two) bytes of one
        // value each (lane 0: bytes 0..7, lane 1: bytes 7..14), then per-word shifts.
        let shuf = _mm256_setr_epi8(
            0, 1, 2, -1, 1, 2, 3, -1, 3, 4, 5, -1, 5, 6, -1, -1, 7, 8, 9, -1, 8, 9, 10, -1, 10, 11,
            12, -1, 12, 13, -1, -1,
        );
        let shifts = _mm256_setr_epi32(0, 6, 4, 2, 0, 6, 4, 2);
        let mask = _mm256_set1_epi32(0x3FFF);
        let qm1 = _mm256_set1_epi32(Q as i32 - 1);
        let mut bad = _mm256_setzero_si256();
        let mut i = 0;
        while i + 8 <= h.len() && 7 * i / 4 + 16 <= buf.len() {
            let src = &buf[7 * i / 4..7 * i / 4 + 16];
            // SAFETY: 16 readable bytes.
            let x = unsafe { _mm_loadu_si128(src.as_ptr().cast()) };
            let x = _mm256_broadcastsi128_si256(x);
            let v = _mm256_and_si256(
                _mm256_srlv_epi32(_mm256_shuffle_epi8(x, shuf), shifts),
                mask,
            );
            bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(v, qm1));
            // To 16 bits: each lane's four values, then the two lanes' halves together.
            let p = _mm256_permute4x64_epi64::<0b10_00>(_mm256_packus_epi32(v, v));
            let dst = &mut h[i..i + 8];
            // SAFETY: 8 writable u16.
            unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm256_castsi256_si128(p)) };
            i += 8;
        }
        (i, _mm256_movemask_epi8(bad) as u32)
    }
}

/// Hash-to-point words sixteen at a time: reduction by a multiply-high, acceptance
/// mask, left-packing of the accepted words with a byte shuffle per half.
pub(super) mod hash {
    use core::arch::x86_64::*;

    /// `PACK[m]`: byte shuffle moving the 16-bit lanes selected by the bits of m to the
    /// front, in order.
    static PACK: [[u8; 16]; 256] = {
        let mut t = [[0x80u8; 16]; 256];
        let mut m = 0;
        while m < 256 {
            let mut j = 0;
            let mut k = 0;
            while k < 8 {
                if (m >> k) & 1 != 0 {
                    t[m][2 * j] = 2 * k as u8;
                    t[m][2 * j + 1] = 2 * k as u8 + 1;
                    j += 1;
                }
                k += 1;
            }
            m += 1;
        }
        t
    };

    /// Consumes the first 64 words of `block` (four vectors) while at least 16 outputs
    /// remain free in `c` after index `i`; returns the new index and the number of words
    /// consumed (0, 16, 32, 48 or 64).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn words64(block: &[u8; 136], c: &mut [u16], mut i: usize) -> (usize, usize) {
        let q = _mm256_set1_epi16(12289);
        let lim = _mm256_set1_epi16(61444u16 as i16);
        let mut k = 0;
        while k < 64 && i + 16 <= c.len() {
            let src = &block[2 * k..2 * k + 32];
            // SAFETY: 32 readable bytes.
            let w = unsafe { _mm256_loadu_si256(src.as_ptr().cast()) };
            // w mod q: t = floor(w·43687/2^29) is floor(w/q) or one less, so
            // w − t·q is in [0, 2q) and one conditional subtraction finishes.
            let t =
                _mm256_srli_epi16::<13>(_mm256_mulhi_epu16(w, _mm256_set1_epi16(43687u16 as i16)));
            let r = _mm256_sub_epi16(w, _mm256_mullo_epi16(t, q));
            let r = _mm256_min_epu16(r, _mm256_sub_epi16(r, q));
            // Accepted: w <= 61444.
            let ok = _mm256_cmpeq_epi16(_mm256_min_epu16(w, lim), w);
            let m = _mm256_movemask_epi8(_mm256_packs_epi16(ok, _mm256_setzero_si256())) as u32;
            // packs works per 128-bit half: bits 0..8 are the low half's lanes, bits
            // 16..24 the high half's.
            let (m0, m1) = ((m & 0xFF) as usize, ((m >> 16) & 0xFF) as usize);
            for (half, mk) in [
                (_mm256_castsi256_si128(r), m0),
                (_mm256_extracti128_si256::<1>(r), m1),
            ] {
                // SAFETY: PACK rows are 16 bytes.
                let sh = unsafe { _mm_loadu_si128(PACK[mk].as_ptr().cast()) };
                let v = _mm_shuffle_epi8(half, sh);
                let dst = &mut c[i..i + 8];
                // SAFETY: 8 writable u16.
                unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) };
                i += mk.count_ones() as usize;
            }
            k += 16;
        }
        (i, k)
    }
}

/// [`Fxr::div`] in AVX2 lanes.
pub(super) mod div {
    use crate::falcon::fndsa::fxp::Fxr;
    use core::arch::x86_64::*;

    /// Four divisions: the scalar loop on vectors. The quotient bits are shifted in
    /// from the top; the dividend's low 31 bits enter `num` from a register shifted
    /// left one bit per step (zeros once they are used up, as in the scalar loop).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn div4(x: __m256i, y: __m256i) -> __m256i {
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        let sx = _mm256_cmpgt_epi64(zero, x);
        let sy = _mm256_cmpgt_epi64(zero, y);
        let x = _mm256_sub_epi64(_mm256_xor_si256(x, sx), sx);
        let y = _mm256_sub_epi64(_mm256_xor_si256(y, sy), sy);
        let mut num = _mm256_srli_epi64::<31>(x);
        let mut src = _mm256_slli_epi64::<33>(x);
        let mut q = zero;
        for _ in 0..64 {
            // b = 1 unless num − y is negative as a signed 64-bit value.
            let neg = _mm256_cmpgt_epi64(zero, _mm256_sub_epi64(num, y));
            q = _mm256_or_si256(_mm256_slli_epi64::<1>(q), _mm256_andnot_si256(neg, one));
            num = _mm256_sub_epi64(num, _mm256_andnot_si256(neg, y));
            num = _mm256_or_si256(_mm256_slli_epi64::<1>(num), _mm256_srli_epi64::<63>(src));
            src = _mm256_slli_epi64::<1>(src);
        }
        let neg = _mm256_cmpgt_epi64(zero, _mm256_sub_epi64(num, y));
        q = _mm256_add_epi64(q, _mm256_andnot_si256(neg, one));
        let s = _mm256_xor_si256(sx, sy);
        _mm256_sub_epi64(_mm256_xor_si256(q, s), s)
    }

    /// `x[i] /= y[i]` for the leading multiple of 8 entries (two vectors interleaved);
    /// returns how many were done.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn div8s(x: &mut [Fxr], y: &[Fxr]) -> usize {
        let n = x.len().min(y.len()) & !7;
        let mut i = 0;
        while i < n {
            // Through u64 copies (no layout assumption on Fxr).
            let mut a = [0u64; 8];
            let mut b = [0u64; 8];
            for k in 0..8 {
                a[k] = x[i + k].0;
                b[k] = y[i + k].0;
            }
            // SAFETY: a, b are 8 × u64 (two 32-byte halves).
            let (xa, xb, ya, yb) = unsafe {
                (
                    _mm256_loadu_si256(a.as_ptr().cast()),
                    _mm256_loadu_si256(a[4..].as_ptr().cast()),
                    _mm256_loadu_si256(b.as_ptr().cast()),
                    _mm256_loadu_si256(b[4..].as_ptr().cast()),
                )
            };
            let (ra, rb) = (div4(xa, ya), div4(xb, yb));
            // SAFETY: a is 8 × u64.
            unsafe {
                _mm256_storeu_si256(a.as_mut_ptr().cast(), ra);
                _mm256_storeu_si256(a[4..].as_mut_ptr().cast(), rb);
            }
            for k in 0..8 {
                x[i + k] = Fxr(a[k]);
            }
            i += 8;
        }
        n
    }
}
