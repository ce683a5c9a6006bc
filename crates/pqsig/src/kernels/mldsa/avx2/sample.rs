//! AVX2 rejection samplers: eight candidates per step, the same outputs as
//! `portable::sample` (same accepted values in the same order, same count, and nothing
//! written past the returned count).
//!
//! One step turns bytes into eight candidates in eight 32-bit elements, compares them
//! against the acceptance bound, and moves the accepted ones to the front with
//! `_mm256_permutevar8x32_epi32`, whose indices come from `COMPACT` at the 8-bit
//! acceptance mask. A masked store then writes exactly the accepted elements. Steps run
//! only while a full step fits in both `out` and `buf`; the rest (the tail) is finished
//! by the portable sampler from the same byte position, so where sampling stops and
//! which bytes it reads are exactly portable's.
//!
//! # Table lookups on the acceptance pattern
//! `COMPACT` and `COUNT` are indexed by which candidates were accepted, so the
//! pattern can leak through the cache. This is the rejection-sampling declassification
//! the portable code also makes (its loop length and stores depend on it):
//! * `rej_uniform` samples Â from the public seed ρ: there is nothing secret to leak.
//! * `rej_eta` samples the secret s1, s2. Whether a nibble is rejected depends only on
//!   that nibble (≥ 15 for η = 2, ≥ 9 for η = 4), and accepted nibbles are uniform on
//!   the accepted range whatever the pattern, so the pattern reveals the positions of
//!   discarded nibbles but nothing about the accepted values (the coefficients).
//!
//! The value computations themselves (masking, comparisons, the η nibble map, which is a
//! byte shuffle rather than a table load) are constant time.

use super::super::portable::sample as portable;
use super::super::Q;
use core::arch::x86_64::*;

/// For each 8-bit acceptance mask m: byte k (k < popcount(m)) is 0x80 | (index of the
/// k-th set bit of m), the remaining bytes are 0. Sign-extended to 32-bit elements this is
/// both the `permutevar8x32` index vector (only the low 3 bits count) and the
/// `maskstore` mask (the sign bit marks the elements to write).
static COMPACT: [[u8; 8]; 256] = compact_table();

/// Number of set bits of each byte value.
static COUNT: [u8; 256] = count_table();

const fn compact_table() -> [[u8; 8]; 256] {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        let mut j = 0;
        while j < 8 {
            if (m >> j) & 1 == 1 {
                t[m][k] = 0x80 | j as u8;
                k += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
}

const fn count_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
}

/// Writes the candidates of `v` selected by the 8-bit `mask` to `out[*ctr..]`, in order,
/// and advances `*ctr` by their number.
///
/// # Safety
/// The CPU must support AVX2, and `*ctr + 8 <= out.len()`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn compact_store(out: &mut [i32], ctr: &mut usize, v: __m256i, mask: usize) {
    debug_assert!(*ctr + 8 <= out.len());
    let mask = mask & 0xFF;
    // SAFETY: `COMPACT[mask]` is 8 readable bytes (an unaligned 64-bit load is allowed).
    // The masked store writes only the first popcount(mask) ≤ 8 elements at `out[*ctr..]`,
    // which the caller guarantees lie within `out`.
    unsafe {
        let idx = _mm256_cvtepi8_epi32(_mm_loadl_epi64(COMPACT[mask].as_ptr() as *const __m128i));
        let packed = _mm256_permutevar8x32_epi32(v, idx);
        _mm256_maskstore_epi32(out.as_mut_ptr().add(*ctr), idx, packed);
    }
    *ctr += COUNT[mask] as usize;
}

/// Uniform rejection sampling: 3-byte little-endian candidates, top bit of each third
/// byte cleared, accepted when < q; stops when `out` is full or fewer than 3 bytes are
/// left. Returns the number written to `out[..n]`; `out[n..]` is left untouched.
///
/// In: any bytes. Out: coefficients in [0, q).
pub(crate) fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
    // SAFETY: `rej_uniform_avx2` needs AVX2. This function is only reachable through
    // `avx2::KERNELS`, which `kernels::mldsa::kernels` hands out only after AVX2 was
    // detected (`Backend::Avx2.is_available()`).
    unsafe { rej_uniform_avx2(out, buf) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn rej_uniform_avx2(out: &mut [i32], buf: &[u8]) -> usize {
    let mut ctr = 0;
    let mut pos = 0;
    #[allow(unused_unsafe)]
    unsafe {
        // Per 128-bit half: bytes 3i, 3i+1, 3i+2 of the half → element i, top byte 0.
        // The low half holds buf[pos..pos+16] (candidates 0–3 at bytes 0, 3, 6, 9), the
        // high half buf[pos+8..pos+24] (candidates 4–7 at bytes 4, 7, 10, 13).
        let shuf = _mm256_setr_epi8(
            0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
            4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
        );
        let low23 = _mm256_set1_epi32(0x7F_FFFF);
        let q = _mm256_set1_epi32(Q);
        while ctr + 8 <= out.len() && pos + 24 <= buf.len() {
            // SAFETY: pos + 24 <= buf.len(): both 16-byte loads (at pos and pos + 8) are
            // in bounds; unaligned loads are allowed.
            let lo = _mm_loadu_si128(buf.as_ptr().add(pos) as *const __m128i);
            let hi = _mm_loadu_si128(buf.as_ptr().add(pos + 8) as *const __m128i);
            let v = _mm256_and_si256(
                _mm256_shuffle_epi8(
                    _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi),
                    shuf,
                ),
                low23,
            );
            let ok = _mm256_cmpgt_epi32(q, v);
            let mask = _mm256_movemask_ps(_mm256_castsi256_ps(ok)) as usize;
            // SAFETY: ctr + 8 <= out.len() (loop condition); AVX2 is enabled here.
            compact_store(out, &mut ctr, v, mask);
            pos += 24;
        }
    }
    ctr + portable::rej_uniform(&mut out[ctr..], &buf[pos..])
}

/// The eight low bytes of `bytes` as sixteen nibbles in stream order (low nibble of
/// each byte first): their coefficients (`map` applied as a byte shuffle, so no memory
/// index depends on the nibbles) and the 16-bit mask of nibbles below `bound`.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn eta_nibbles(bytes: __m128i, map: __m128i, bound: __m128i) -> (__m128i, usize) {
    #[allow(unused_unsafe)]
    unsafe {
        let nib = _mm_set1_epi8(0x0F);
        let lo = _mm_and_si128(bytes, nib);
        let hi = _mm_and_si128(_mm_srli_epi16::<4>(bytes), nib);
        let t = _mm_unpacklo_epi8(lo, hi);
        // The accept mask indexes the compaction table: which nibbles are rejected is
        // public (declassification, docs/ARCHITECTURE.md); the values stay secret.
        let mask = crate::ct::public(_mm_movemask_epi8(_mm_cmpgt_epi8(bound, t)) as usize);
        (_mm_shuffle_epi8(map, t), mask)
    }
}

/// Bounded rejection sampling of nibbles (low nibble of each byte first): η = 2 accepts
/// t < 15 as 2 − (t mod 5), any other η is treated as η = 4 and accepts t < 9 as 4 − t
/// (as portable does). Stops when `out` is full or `buf` is used up. Returns the number
/// written to `out[..n]`; `out[n..]` is left untouched.
///
/// In: any bytes. Out: coefficients in [−η, η].
pub(crate) fn rej_eta(eta: i32, out: &mut [i32], buf: &[u8]) -> usize {
    // SAFETY: AVX2 was detected before this table entry could be reached (see
    // `rej_uniform`).
    unsafe { rej_eta_avx2(eta, out, buf) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn rej_eta_avx2(eta: i32, out: &mut [i32], buf: &[u8]) -> usize {
    let mut ctr = 0;
    let mut pos = 0;
    #[allow(unused_unsafe)]
    unsafe {
        // Nibble t → coefficient, as a byte shuffle (entries for rejected t are unused).
        let (map, bound) = if eta == 2 {
            (
                _mm_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0),
                15,
            )
        } else {
            (
                _mm_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0),
                9,
            )
        };
        let bound = _mm_set1_epi8(bound);

        while ctr + 16 <= out.len() && pos + 8 <= buf.len() {
            // SAFETY: pos + 8 <= buf.len(): the 8-byte load is in bounds.
            let bytes = _mm_loadl_epi64(buf.as_ptr().add(pos) as *const __m128i);
            let (vals, mask) = eta_nibbles(bytes, map, bound);
            // SAFETY (both stores): ctr + 16 <= out.len() before the first, which
            // advances ctr by at most 8.
            compact_store(out, &mut ctr, _mm256_cvtepi8_epi32(vals), mask);
            compact_store(
                out,
                &mut ctr,
                _mm256_cvtepi8_epi32(_mm_srli_si128::<8>(vals)),
                mask >> 8,
            );
            pos += 8;
        }
        // Four bytes (eight nibbles) at a time while that still fits.
        while ctr + 8 <= out.len() && pos + 4 <= buf.len() {
            let w = u32::from_le_bytes([buf[pos], buf[pos + 1], buf[pos + 2], buf[pos + 3]]);
            let (vals, mask) = eta_nibbles(_mm_cvtsi32_si128(w as i32), map, bound);
            // SAFETY: ctr + 8 <= out.len() (loop condition).
            compact_store(out, &mut ctr, _mm256_cvtepi8_epi32(vals), mask & 0xFF);
            pos += 4;
        }
    }
    ctr + portable::rej_eta(eta, &mut out[ctr..], &buf[pos..])
}
