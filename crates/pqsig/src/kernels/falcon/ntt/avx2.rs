//! AVX2 NTT kernels mod 12289: 16 coefficients per vector as u16 lanes.
//!
//! The transforms are the shared SIMD body's radix-4 kernels (`kernels/ntt/avx2/falcon.rs`
//! over `kernels/ntt/simd`): one AVX2 NTT mod 12289 in the library. This file holds the
//! coefficient-wise kernels. Every value stays canonical (in `[0, q)`), exactly as in
//! the portable code, so results are bit-identical to it. The tools:
//! * Montgomery product with `mullo`/`mulhi` on u16 lanes: for x·y < q·2^16,
//!   `hi(x·y) − hi(m·q)` with `m = lo(x·y)·q⁻¹ mod 2^16` is `x·y/2^16 mod q` in (−q, q);
//! * canonical correction by an unsigned minimum: `min(r, r + q)` maps (−q, q) (as u16)
//!   to `[0, q)`, `min(s, s − q)` maps `[0, 2q)` to `[0, q)`.
//!
//! Each table entry is a safe wrapper around a whole `#[target_feature(enable = "avx2")]`
//! function; the table is only handed out by [`super::kernels`] after AVX2 was detected,
//! which is what makes the wrappers sound.

// Value-only intrinsics are safe inside `#[target_feature]` functions; explicit `unsafe`
// blocks stay around loads and stores.
#![allow(unused_unsafe)]

use super::portable;
use super::{NttKernels, Q, QINV, R2};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

pub(crate) static KERNELS: NttKernels = NttKernels {
    backend: Backend::Avx2,
    // The one AVX2 transform: radix-4 units on the shared SIMD body (kernels/ntt).
    ntt: crate::kernels::ntt::avx2::falcon_ntt_radix4,
    intt: crate::kernels::ntt::avx2::falcon_intt_radix4,
    mul_monty,
    to_monty,
    div,
    add,
    sub,
    from_i16,
    from_i8,
    sqnorm_centered,
    sqnorm_i16,
    hash_words,
};

// ---------------------------------------------------------------------------------------
// Lane arithmetic.

#[inline(always)]
unsafe fn load(p: &[u16]) -> __m256i {
    debug_assert!(p.len() >= 16);
    // SAFETY: 16 readable u16 (caller's slice), unaligned load.
    unsafe { _mm256_loadu_si256(p.as_ptr() as *const __m256i) }
}

#[inline(always)]
unsafe fn store(p: &mut [u16], v: __m256i) {
    debug_assert!(p.len() >= 16);
    // SAFETY: 16 writable u16 (caller's slice), unaligned store.
    unsafe { _mm256_storeu_si256(p.as_mut_ptr() as *mut __m256i, v) }
}

/// `[0, 2q) → [0, q)`.
#[inline(always)]
unsafe fn csubq(s: __m256i, q: __m256i) -> __m256i {
    unsafe { _mm256_min_epu16(s, _mm256_sub_epi16(s, q)) }
}

/// `(−q, q)` (two's complement in u16) `→ [0, q)`.
#[inline(always)]
unsafe fn caddq(r: __m256i, q: __m256i) -> __m256i {
    unsafe { _mm256_min_epu16(r, _mm256_add_epi16(r, q)) }
}

#[inline(always)]
unsafe fn addmod(a: __m256i, b: __m256i, q: __m256i) -> __m256i {
    unsafe { csubq(_mm256_add_epi16(a, b), q) }
}

#[inline(always)]
unsafe fn submod(a: __m256i, b: __m256i, q: __m256i) -> __m256i {
    unsafe { caddq(_mm256_sub_epi16(a, b), q) }
}

/// `x·y/2^16 mod q` in `[0, q)` for x·y < q·2^16 (one operand in `[0, q)`).
#[inline(always)]
unsafe fn montymul(x: __m256i, y: __m256i, q: __m256i, qinv: __m256i) -> __m256i {
    unsafe {
        let lo = _mm256_mullo_epi16(x, y);
        let hi = _mm256_mulhi_epu16(x, y);
        let m = _mm256_mullo_epi16(lo, qinv);
        let t = _mm256_mulhi_epu16(m, q);
        caddq(_mm256_sub_epi16(hi, t), q)
    }
}

// ---------------------------------------------------------------------------------------
// Coefficient-wise kernels. Vector bodies over 16 lanes; the (short) tails of slices
// not a multiple of 16 long use the portable formulas, which compute the same values.

/// `a ← f(a, b)` lane-wise, `b` one polynomial repeated over `a` or as long as `a`.
#[inline(always)]
unsafe fn zip_vec(
    a: &mut [u16],
    b: &[u16],
    fv: impl Fn(__m256i, __m256i) -> __m256i,
    fs: impl Fn(u32, u32) -> u32,
) {
    if b.is_empty() {
        return;
    }
    debug_assert!(a.len().is_multiple_of(b.len()));
    for chunk in a.chunks_mut(b.len()) {
        let mut xs = chunk.chunks_exact_mut(16);
        let mut ys = b.chunks_exact(16);
        for (x, y) in (&mut xs).zip(&mut ys) {
            unsafe { store(x, fv(load(x), load(y))) };
        }
        for (x, &y) in xs.into_remainder().iter_mut().zip(ys.remainder()) {
            *x = fs(*x as u32, y as u32) as u16;
        }
    }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn mul_monty_avx2(a: &mut [u16], b: &[u16]) {
    let (q, qi) = unsafe { (_mm256_set1_epi16(Q as i16), _mm256_set1_epi16(QINV as i16)) };
    unsafe { zip_vec(a, b, |x, y| montymul(x, y, q, qi), portable::mq_montymul) }
}

fn mul_monty(a: &mut [u16], b: &[u16]) {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { mul_monty_avx2(a, b) }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn add_avx2(a: &mut [u16], b: &[u16]) {
    let q = unsafe { _mm256_set1_epi16(Q as i16) };
    unsafe { zip_vec(a, b, |x, y| addmod(x, y, q), portable::mq_add) }
}

fn add(a: &mut [u16], b: &[u16]) {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { add_avx2(a, b) }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn sub_avx2(a: &mut [u16], b: &[u16]) {
    let q = unsafe { _mm256_set1_epi16(Q as i16) };
    unsafe { zip_vec(a, b, |x, y| submod(x, y, q), portable::mq_sub) }
}

fn sub(a: &mut [u16], b: &[u16]) {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { sub_avx2(a, b) }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn to_monty_avx2(a: &mut [u16]) {
    let (q, qi) = unsafe { (_mm256_set1_epi16(Q as i16), _mm256_set1_epi16(QINV as i16)) };
    let r2 = unsafe { _mm256_set1_epi16(R2 as i16) };
    let mut xs = a.chunks_exact_mut(16);
    for x in &mut xs {
        unsafe { store(x, montymul(load(x), r2, q, qi)) };
    }
    for x in xs.into_remainder() {
        *x = portable::mq_montymul(*x as u32, R2) as u16;
    }
}

fn to_monty(a: &mut [u16]) {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { to_monty_avx2(a) }
}

/// y^(q−2) in Montgomery form, the addition chain of `portable::mq_inv_monty`.
#[inline(always)]
unsafe fn inv_monty(y: __m256i, q: __m256i, qi: __m256i) -> __m256i {
    unsafe {
        let m = |a, b| montymul(a, b, q, qi);
        let y2 = m(y, y);
        let y3 = m(y2, y);
        let y6 = m(y3, y3);
        let y12 = m(y6, y6);
        let y15 = m(y12, y3);
        let mut t = y15;
        for _ in 0..4 {
            t = m(t, t);
        }
        let y255 = m(t, y15);
        t = y255;
        for _ in 0..4 {
            t = m(t, t);
        }
        let y4095 = m(t, y15);
        let y8190 = m(y4095, y4095);
        let y12285 = m(y8190, y4095);
        m(y12285, y2)
    }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn div_avx2(a: &mut [u16], b: &[u16]) -> bool {
    if b.is_empty() {
        return true;
    }
    debug_assert!(a.len().is_multiple_of(b.len()));
    let (q, qi) = unsafe { (_mm256_set1_epi16(Q as i16), _mm256_set1_epi16(QINV as i16)) };
    let r2 = unsafe { _mm256_set1_epi16(R2 as i16) };
    let mut zero_v = unsafe { _mm256_setzero_si256() };
    let mut zero_s = 0u32;
    for chunk in a.chunks_mut(b.len()) {
        let mut xs = chunk.chunks_exact_mut(16);
        let mut ys = b.chunks_exact(16);
        for (x, y) in (&mut xs).zip(&mut ys) {
            unsafe {
                let yv = load(y);
                zero_v = _mm256_or_si256(zero_v, _mm256_cmpeq_epi16(yv, _mm256_setzero_si256()));
                let yi = inv_monty(montymul(yv, r2, q, qi), q, qi);
                store(x, montymul(yi, load(x), q, qi));
            }
        }
        for (x, &y) in xs.into_remainder().iter_mut().zip(ys.remainder()) {
            let y = y as u32;
            zero_s |= y.wrapping_sub(1);
            let yi = portable::mq_inv_monty(portable::mq_montymul(y, R2));
            *x = portable::mq_montymul(yi, *x as u32) as u16;
        }
    }
    let zero_v = unsafe { _mm256_testz_si256(zero_v, zero_v) } == 0;
    !zero_v && zero_s >> 31 == 0
}

fn div(a: &mut [u16], b: &[u16]) -> bool {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { div_avx2(a, b) }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn from_i16_avx2(out: &mut [u16], x: &[i16]) {
    debug_assert_eq!(out.len(), x.len());
    let q = unsafe { _mm256_set1_epi16(Q as i16) };
    let mut os = out.chunks_exact_mut(16);
    let mut xs = x.chunks_exact(16);
    for (o, v) in (&mut os).zip(&mut xs) {
        // SAFETY: 16 readable i16.
        unsafe {
            let v = _mm256_loadu_si256(v.as_ptr() as *const __m256i);
            store(o, caddq(v, q));
        }
    }
    for (o, &v) in os.into_remainder().iter_mut().zip(xs.remainder()) {
        *o = portable::mq_small(v as i32) as u16;
    }
}

fn from_i16(out: &mut [u16], x: &[i16]) {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { from_i16_avx2(out, x) }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn from_i8_avx2(out: &mut [u16], x: &[i8]) {
    debug_assert_eq!(out.len(), x.len());
    let q = unsafe { _mm256_set1_epi16(Q as i16) };
    let mut os = out.chunks_exact_mut(16);
    let mut xs = x.chunks_exact(16);
    for (o, v) in (&mut os).zip(&mut xs) {
        // SAFETY: 16 readable i8.
        unsafe {
            let v = _mm256_cvtepi8_epi16(_mm_loadu_si128(v.as_ptr() as *const __m128i));
            store(o, caddq(v, q));
        }
    }
    for (o, &v) in os.into_remainder().iter_mut().zip(xs.remainder()) {
        *o = portable::mq_small(v as i32) as u16;
    }
}

fn from_i8(out: &mut [u16], x: &[i8]) {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { from_i8_avx2(out, x) }
}

/// Adds the eight u32 lanes of `s` (each < 2^32) into a u64 pair accumulator.
#[inline(always)]
unsafe fn widen_acc(acc: __m256i, s: __m256i) -> __m256i {
    unsafe {
        let z = _mm256_setzero_si256();
        let lo = _mm256_unpacklo_epi32(s, z);
        let hi = _mm256_unpackhi_epi32(s, z);
        _mm256_add_epi64(acc, _mm256_add_epi64(lo, hi))
    }
}

#[inline(always)]
unsafe fn hsum64(acc: __m256i) -> u64 {
    let mut l = [0u64; 4];
    // SAFETY: 32 writable bytes.
    unsafe { _mm256_storeu_si256(l.as_mut_ptr() as *mut __m256i, acc) };
    l.iter().fold(0u64, |s, &v| s.wrapping_add(v))
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn sqnorm_centered_avx2(a: &[u16]) -> u64 {
    let (q, half) = unsafe {
        (
            _mm256_set1_epi16(Q as i16),
            _mm256_set1_epi16((Q >> 1) as i16),
        )
    };
    let mut acc = unsafe { _mm256_setzero_si256() };
    let mut xs = a.chunks_exact(16);
    for x in &mut xs {
        unsafe {
            let v = load(x);
            // Subtract q where v > (q−1)/2 (signed compare is fine: v < 2^15).
            let big = _mm256_cmpgt_epi16(v, half);
            let c = _mm256_sub_epi16(v, _mm256_and_si256(big, q));
            // |c| ≤ 6144: each i32 lane of madd is ≤ 2·6144² < 2^27.
            acc = widen_acc(acc, _mm256_madd_epi16(c, c));
        }
    }
    let mut s = unsafe { hsum64(acc) };
    for &x in xs.remainder() {
        let c = portable::mq_center(x as u32) as i64;
        s += (c * c) as u64;
    }
    s
}

fn sqnorm_centered(a: &[u16]) -> u64 {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { sqnorm_centered_avx2(a) }
}

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn sqnorm_i16_avx2(x: &[i16]) -> u64 {
    let mut acc = unsafe { _mm256_setzero_si256() };
    let mut xs = x.chunks_exact(16);
    for v in &mut xs {
        // SAFETY: 16 readable i16. madd of two i16 squares: each lane ≤ 2·2^30 = 2^31,
        // which only -32768 in both slots reaches; read as u32 it is exact.
        unsafe {
            let v = _mm256_loadu_si256(v.as_ptr() as *const __m256i);
            acc = widen_acc(acc, _mm256_madd_epi16(v, v));
        }
    }
    let mut s = unsafe { hsum64(acc) };
    for &v in xs.remainder() {
        let c = v as i64;
        s += (c * c) as u64;
    }
    s
}

fn sqnorm_i16(x: &[i16]) -> u64 {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { sqnorm_i16_avx2(x) }
}

// ---------------------------------------------------------------------------------------
// Hash-to-point sampling.

/// `pshufb` controls that move the words of an 8-word vector selected by a mask to its
/// front, in order (the rest zeroed): entry `m` gathers the words whose bit is set in `m`.
static COMPACT: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        let mut j = 0;
        while j < 8 {
            if m >> j & 1 == 1 {
                t[m][2 * k] = 2 * j as u8;
                t[m][2 * k + 1] = 2 * j as u8 + 1;
                k += 1;
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// The number of set bits of each byte value.
static POPCOUNT8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    t
};

/// # Safety
/// AVX2 must be available.
#[target_feature(enable = "avx2")]
unsafe fn hash_words_avx2(out: &mut [u16], mut filled: usize, lanes: &[u64]) -> (usize, usize) {
    let n = out.len();
    let mut i = 0;
    // Sixteen words (four lanes) per step while sixteen more outputs fit: each half's
    // accepted words are packed to the front with one byte shuffle and stored whole (the
    // slots past them are overwritten later or lie beyond what is kept).
    unsafe {
        // Swap the bytes of each 16-bit word: stream order to big-endian values.
        let swap = _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11,
            10, 13, 12, 15, 14,
        );
        let last = _mm256_set1_epi16((portable::HASH_REJECT - 1) as i16);
        let q1 = _mm256_set1_epi16(Q as i16);
        let q2 = _mm256_set1_epi16(2 * Q as i16);
        let q4 = _mm256_set1_epi16((4 * Q) as i16);
        while i + 4 <= lanes.len() && filled + 16 <= n {
            // SAFETY: lanes[i..i + 4] are 32 readable bytes; on x86-64 (little-endian)
            // their memory order is the stream order.
            let v = _mm256_loadu_si256(lanes[i..].as_ptr() as *const __m256i);
            let w = _mm256_shuffle_epi8(v, swap);
            let keep = _mm256_cmpeq_epi16(_mm256_min_epu16(w, last), w);
            // w mod q for w < 5q: subtract 4q, 2q, q where that does not wrap (an
            // unsigned minimum keeps the smaller of r and r − kq).
            let r = _mm256_min_epu16(w, _mm256_sub_epi16(w, q4));
            let r = _mm256_min_epu16(r, _mm256_sub_epi16(r, q2));
            let r = _mm256_min_epu16(r, _mm256_sub_epi16(r, q1));
            // One mask byte per half (bits 0..8: words 0..8, bits 16..24: words 8..16).
            let bits = _mm256_movemask_epi8(_mm256_packs_epi16(keep, keep)) as u32;
            for (h, half) in [_mm256_castsi256_si128(r), _mm256_extracti128_si256::<1>(r)]
                .into_iter()
                .enumerate()
            {
                let m = (bits >> (16 * h)) & 0xFF;
                let ctl = _mm_loadu_si128(COMPACT[m as usize].as_ptr() as *const __m128i);
                // SAFETY: filled + 8 ≤ filled + 16 ≤ n: eight writable u16.
                _mm_storeu_si128(
                    out[filled..filled + 8].as_mut_ptr() as *mut __m128i,
                    _mm_shuffle_epi8(half, ctl),
                );
                filled += POPCOUNT8[m as usize] as usize;
            }
            i += 4;
        }
    }
    let (f, used) = portable::hash_words(out, filled, &lanes[i..]);
    (f, i + used)
}

fn hash_words(out: &mut [u16], filled: usize, lanes: &[u64]) -> (usize, usize) {
    // SAFETY: AVX2 was detected before this table was handed out.
    unsafe { hash_words_avx2(out, filled, lanes) }
}
