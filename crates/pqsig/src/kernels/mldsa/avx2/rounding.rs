//! AVX2 Power2Round, Decompose, MakeHint, UseHint and the infinity-norm check: eight
//! coefficients per vector, the same integer functions as `portable::rounding` (outputs
//! are bit-identical to portable for every input within the documented bounds).
//!
//! Constant time: no branches or memory indices depend on coefficient values. The only
//! branch is on γ2, a public parameter. `chknorm` and `make_hint` reduce their results to
//! a scalar only after every coefficient was processed.
//!
//! Every public function is a safe wrapper around an `unsafe` function compiled with
//! AVX2 enabled; see the SAFETY comments.

use super::super::{Poly, D, N, Q};
use core::arch::x86_64::*;

const GAMMA2_32: i32 = (Q - 1) / 32;

/// Pointer to the `k`-th group of eight coefficients of a polynomial.
///
/// `Poly` is `repr(C, align(64))` with the coefficients as its only field, so for
/// `k < N / 8` the result is an aligned, in-bounds `__m256i` pointer.
#[inline(always)]
fn vec_ptr(p: &Poly, k: usize) -> *const __m256i {
    debug_assert!(k < N / 8);
    p.coeffs[8 * k..].as_ptr() as *const __m256i
}

#[inline(always)]
fn vec_ptr_mut(p: &mut Poly, k: usize) -> *mut __m256i {
    debug_assert!(k < N / 8);
    p.coeffs[8 * k..].as_mut_ptr() as *mut __m256i
}

/// Power2Round on every polynomial pair (zipped; the shorter slice bounds the work).
///
/// In: `t1` std, i.e. [0, q). Out: `t1` ∈ [0, 2^10), `t0` ∈ (−2^12, 2^12], with
/// t = t1·2^13 + t0.
pub(crate) fn power2round(t1: &mut [Poly], t0: &mut [Poly]) {
    // SAFETY: `power2round_avx2` needs AVX2. This function is only reachable through
    // `avx2::KERNELS`, which `kernels::mldsa::kernels` hands out only after AVX2 was
    // detected (`Backend::Avx2.is_available()`).
    unsafe { power2round_avx2(t1, t0) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn power2round_avx2(t1: &mut [Poly], t0: &mut [Poly]) {
    // Value-only intrinsics are safe here (Rust ≥ 1.87); one block covers the whole body
    // including its loads and stores.
    #[allow(unused_unsafe)]
    unsafe {
        let half = _mm256_set1_epi32((1 << (D - 1)) - 1);
        for (p1, p0) in t1.iter_mut().zip(t0.iter_mut()) {
            for k in 0..N / 8 {
                // SAFETY: aligned in-bounds pointers into the borrowed polynomials
                // (`vec_ptr_mut`).
                let a = _mm256_load_si256(vec_ptr_mut(p1, k));
                let hi = _mm256_srai_epi32::<{ D as i32 }>(_mm256_add_epi32(a, half));
                let lo = _mm256_sub_epi32(a, _mm256_slli_epi32::<{ D as i32 }>(hi));
                _mm256_store_si256(vec_ptr_mut(p1, k), hi);
                _mm256_store_si256(vec_ptr_mut(p0, k), lo);
            }
        }
    }
}

/// Decompose of eight coefficients `a` ∈ [0, q); returns (a1, a0) exactly as
/// `portable::rounding::decompose_coeff`, with the same 32-bit multiply-shift
/// constants (x = ⌈a / 128⌉ ≤ 65472, so x·11275 + 2^23 < 2^31 does not overflow).
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn decompose_vec(gamma2: i32, a: __m256i) -> (__m256i, __m256i) {
    #[allow(unused_unsafe)]
    unsafe {
        let x = _mm256_srai_epi32::<7>(_mm256_add_epi32(a, _mm256_set1_epi32(127)));
        let a1 = if gamma2 == GAMMA2_32 {
            // (x·1025 + 2^21) >> 22 with x·1025 = (x << 10) + x, then mod 16 (16 → 0).
            let t = _mm256_add_epi32(_mm256_slli_epi32::<10>(x), x);
            let t = _mm256_add_epi32(t, _mm256_set1_epi32(1 << 21));
            _mm256_and_si256(_mm256_srai_epi32::<22>(t), _mm256_set1_epi32(15))
        } else {
            // (x·11275 + 2^23) >> 24, then 44 → 0.
            let t = _mm256_mullo_epi32(x, _mm256_set1_epi32(11275));
            let t = _mm256_srai_epi32::<24>(_mm256_add_epi32(t, _mm256_set1_epi32(1 << 23)));
            _mm256_andnot_si256(_mm256_cmpgt_epi32(t, _mm256_set1_epi32(43)), t)
        };
        // a0 = a − a1·2γ2, then subtract q where a0 > (q − 1)/2 (the q − 1 corner case).
        let a0 = _mm256_sub_epi32(a, _mm256_mullo_epi32(a1, _mm256_set1_epi32(2 * gamma2)));
        let big = _mm256_cmpgt_epi32(a0, _mm256_set1_epi32((Q - 1) / 2));
        let a0 = _mm256_sub_epi32(a0, _mm256_and_si256(big, _mm256_set1_epi32(Q)));
        (a1, a0)
    }
}

/// Decompose on every polynomial pair (zipped), γ2 ∈ {(q−1)/88, (q−1)/32} (any other
/// value is treated like (q−1)/88, as portable does).
///
/// In: `a1` std. Out: HighBits in `a1` ∈ [0, (q−1)/(2γ2)), LowBits in `a0` ∈ [−γ2, γ2],
/// a ≡ a1·2γ2 + a0 (mod q). a0 = −γ2 occurs only in the FIPS 204 corner case
/// (a > q − 1 − γ2: a1 = 0, a0 = a − q).
pub(crate) fn decompose(gamma2: i32, a1: &mut [Poly], a0: &mut [Poly]) {
    // SAFETY: AVX2 was detected before this table entry could be reached (see
    // `power2round`).
    unsafe { decompose_avx2(gamma2, a1, a0) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn decompose_avx2(gamma2: i32, a1: &mut [Poly], a0: &mut [Poly]) {
    for (p1, p0) in a1.iter_mut().zip(a0.iter_mut()) {
        for k in 0..N / 8 {
            // SAFETY: aligned in-bounds pointers (`vec_ptr_mut`); AVX2 is enabled here.
            unsafe {
                let a = _mm256_load_si256(vec_ptr_mut(p1, k));
                let (hi, lo) = decompose_vec(gamma2, a);
                _mm256_store_si256(vec_ptr_mut(p1, k), hi);
                _mm256_store_si256(vec_ptr_mut(p0, k), lo);
            }
        }
    }
}

/// MakeHint on every triple (zipped): `h = (a0 > γ2) | (a0 < −γ2) | (a0 = −γ2 & a1 ≠ 0)`,
/// as 0/1; returns the number of ones.
///
/// In: |a0| ≤ 2^31 − 1 − γ2 and a1 ≠ i32::MIN (the ranges where portable's i32
/// arithmetic cannot overflow; in ML-DSA |a0| < 2γ2 and a1 is a HighBits value).
/// Out: `h` ∈ {0, 1}.
pub(crate) fn make_hint(gamma2: i32, h: &mut [Poly], a0: &[Poly], a1: &[Poly]) -> usize {
    // SAFETY: AVX2 was detected before this table entry could be reached (see
    // `power2round`).
    unsafe { make_hint_avx2(gamma2, h, a0, a1) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn make_hint_avx2(gamma2: i32, h: &mut [Poly], a0: &[Poly], a1: &[Poly]) -> usize {
    #[allow(unused_unsafe)]
    unsafe {
        let g = _mm256_set1_epi32(gamma2);
        let neg_g = _mm256_set1_epi32(gamma2.wrapping_neg());
        let zero = _mm256_setzero_si256();
        // Per-element count of ones, as a negative number (masks are −1).
        let mut neg_count = _mm256_setzero_si256();
        for ((ph, p0), p1) in h.iter_mut().zip(a0).zip(a1) {
            for k in 0..N / 8 {
                // SAFETY: aligned in-bounds pointers (`vec_ptr`, `vec_ptr_mut`).
                let lo = _mm256_load_si256(vec_ptr(p0, k));
                let hi = _mm256_load_si256(vec_ptr(p1, k));
                let above = _mm256_cmpgt_epi32(lo, g);
                let below = _mm256_cmpgt_epi32(neg_g, lo);
                let at_neg = _mm256_cmpeq_epi32(lo, neg_g);
                // at_neg & !(a1 == 0)
                let edge = _mm256_andnot_si256(_mm256_cmpeq_epi32(hi, zero), at_neg);
                let m = _mm256_or_si256(_mm256_or_si256(above, below), edge);
                _mm256_store_si256(vec_ptr_mut(ph, k), _mm256_srli_epi32::<31>(m));
                neg_count = _mm256_add_epi32(neg_count, m);
            }
        }
        // Horizontal sum of the eight counters.
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(neg_count),
            _mm256_extracti128_si256::<1>(neg_count),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        (_mm_cvtsi128_si32(s) as u32).wrapping_neg() as usize
    }
}

/// UseHint on every pair (zipped), in place: `a ← UseHint(h, a)`.
///
/// In: `a` std, `h` ∈ {0, 1}. Out: `a` ∈ [0, (q−1)/(2γ2)).
pub(crate) fn use_hint(gamma2: i32, a: &mut [Poly], h: &[Poly]) {
    // SAFETY: AVX2 was detected before this table entry could be reached (see
    // `power2round`).
    unsafe { use_hint_avx2(gamma2, a, h) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn use_hint_avx2(gamma2: i32, a: &mut [Poly], h: &[Poly]) {
    #[allow(unused_unsafe)]
    unsafe {
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi32(1);
        let m44 = _mm256_set1_epi32(44);
        let c43 = _mm256_set1_epi32(43);
        let c15 = _mm256_set1_epi32(15);
        for (pa, ph) in a.iter_mut().zip(h) {
            for k in 0..N / 8 {
                // SAFETY: aligned in-bounds pointers (`vec_ptr`, `vec_ptr_mut`).
                let v = _mm256_load_si256(vec_ptr_mut(pa, k));
                let hv = _mm256_load_si256(vec_ptr(ph, k));
                let (a1, a0) = decompose_vec(gamma2, v);
                // s = +1 where a0 > 0, −1 elsewhere; delta = h·s.
                let not_pos = _mm256_xor_si256(_mm256_cmpgt_epi32(a0, zero), _mm256_set1_epi32(-1));
                let s = _mm256_or_si256(not_pos, one);
                let r = _mm256_add_epi32(a1, _mm256_sign_epi32(hv, s));
                let r = if gamma2 == GAMMA2_32 {
                    _mm256_and_si256(r, c15)
                } else {
                    // Wrap −1 → 43 and 44 → 0.
                    let r = _mm256_add_epi32(r, _mm256_and_si256(_mm256_srai_epi32::<31>(r), m44));
                    let over = _mm256_srai_epi32::<31>(_mm256_sub_epi32(c43, r));
                    _mm256_sub_epi32(r, _mm256_and_si256(over, m44))
                };
                _mm256_store_si256(vec_ptr_mut(pa, k), r);
            }
        }
    }
}

/// True if some coefficient has |a| ≥ bound. Scans every coefficient; the only
/// data-dependent step is the final reduction of the OR-ed flags to one bool.
///
/// In: `a` reduced by `reduce32` (|a| < 2^30 suffices), 1 ≤ bound ≤ (q−1)/8.
pub(crate) fn chknorm(a: &[Poly], bound: i32) -> bool {
    // SAFETY: AVX2 was detected before this table entry could be reached (see
    // `power2round`).
    unsafe { chknorm_avx2(a, bound) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn chknorm_avx2(a: &[Poly], bound: i32) -> bool {
    #[allow(unused_unsafe)]
    unsafe {
        let lim = _mm256_set1_epi32(bound.wrapping_sub(1));
        // Sign bit set in some element iff some (bound − 1 − |a|) was negative.
        let mut acc = _mm256_setzero_si256();
        for p in a {
            for k in 0..N / 8 {
                // SAFETY: aligned in-bounds pointer (`vec_ptr`).
                let v = _mm256_load_si256(vec_ptr(p, k));
                acc = _mm256_or_si256(acc, _mm256_sub_epi32(lim, _mm256_abs_epi32(v)));
            }
        }
        _mm256_movemask_ps(_mm256_castsi256_ps(acc)) != 0
    }
}
