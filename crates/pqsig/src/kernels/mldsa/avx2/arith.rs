//! AVX2 coefficient-wise arithmetic: reduce32, caddq, add, sub, shiftl.
//!
//! Every kernel computes exactly what its portable counterpart computes (the same
//! wrapping 32-bit arithmetic, eight coefficients at a time), so the results are
//! bit-identical. No branches or memory indices depend on coefficient values.

// Value-only intrinsics are safe inside `#[target_feature]` functions (Rust ≥ 1.87); the
// code keeps explicit `unsafe` blocks around intrinsic sequences anyway, so that loads,
// stores and their SAFETY reasoning stay grouped. Hence `allow(unused_unsafe)`.
#![allow(unused_unsafe)]

use super::super::{Poly, D, Q};
use core::arch::x86_64::*;

/// The 32 coefficient vectors of a polynomial.
#[inline]
fn vecs(p: &Poly) -> &[__m256i; 32] {
    // SAFETY: `Poly` is `repr(C, align(64))` around exactly 256 i32 (1024 bytes): the same
    // size and alignment as [__m256i; 32], and every bit pattern is valid for both.
    unsafe { &*(p as *const Poly as *const [__m256i; 32]) }
}

#[inline]
fn vecs_mut(p: &mut Poly) -> &mut [__m256i; 32] {
    // SAFETY: as in `vecs`; the exclusive borrow is carried over.
    unsafe { &mut *(p as *mut Poly as *mut [__m256i; 32]) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn reduce32_avx2(a: &mut [Poly]) {
    // SAFETY (all blocks): AVX2 is available (precondition).
    let (q, half) = unsafe { (_mm256_set1_epi32(Q), _mm256_set1_epi32(1 << 22)) };
    for p in a.iter_mut() {
        for x in vecs_mut(p).iter_mut() {
            unsafe {
                let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(*x, half));
                *x = _mm256_sub_epi32(*x, _mm256_mullo_epi32(t, q));
            }
        }
    }
}

/// `a ← a − round(a / 2^23)·q`, congruent mod q.
///
/// In: a ≤ 2^31 − 2^22 − 1. Out: −6283008 ≤ a ≤ 6283008.
pub(crate) fn reduce32(a: &mut [Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { reduce32_avx2(a) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn caddq_avx2(a: &mut [Poly]) {
    // SAFETY (all blocks): AVX2 is available (precondition).
    let q = unsafe { _mm256_set1_epi32(Q) };
    for p in a.iter_mut() {
        for x in vecs_mut(p).iter_mut() {
            unsafe {
                let neg = _mm256_srai_epi32::<31>(*x);
                *x = _mm256_add_epi32(*x, _mm256_and_si256(neg, q));
            }
        }
    }
}

/// Adds q to the negative coefficients.
///
/// In: a > −q (any i32 above −q). Out: a unchanged if a ≥ 0, else a + q; std if −q < a < q.
pub(crate) fn caddq(a: &mut [Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { caddq_avx2(a) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn add_avx2(out: &mut [Poly], a: &[Poly]) {
    for (o, p) in out.iter_mut().zip(a) {
        for (x, y) in vecs_mut(o).iter_mut().zip(vecs(p)) {
            // SAFETY: AVX2 is available (precondition).
            *x = unsafe { _mm256_add_epi32(*x, *y) };
        }
    }
}

/// `out[i] += a[i]` coefficient-wise (wrapping), over the shorter of the two slices.
///
/// In: the caller keeps the sums within i32. Out: no reduction.
pub(crate) fn add(out: &mut [Poly], a: &[Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { add_avx2(out, a) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn sub_avx2(out: &mut [Poly], a: &[Poly]) {
    for (o, p) in out.iter_mut().zip(a) {
        for (x, y) in vecs_mut(o).iter_mut().zip(vecs(p)) {
            // SAFETY: AVX2 is available (precondition).
            *x = unsafe { _mm256_sub_epi32(*x, *y) };
        }
    }
}

/// `out[i] −= a[i]` coefficient-wise (wrapping), over the shorter of the two slices.
///
/// In: the caller keeps the differences within i32. Out: no reduction.
pub(crate) fn sub(out: &mut [Poly], a: &[Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { sub_avx2(out, a) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn shiftl_avx2(a: &mut [Poly]) {
    for p in a.iter_mut() {
        for x in vecs_mut(p).iter_mut() {
            // SAFETY: AVX2 is available (precondition).
            *x = unsafe { _mm256_slli_epi32::<{ D as i32 }>(*x) };
        }
    }
}

/// `a ← a·2^13` (FIPS 204 d = 13).
///
/// In: |a| < 2^(31−13) (t1 < 2^10 in practice). Out: a·2^13, no reduction.
pub(crate) fn shiftl(a: &mut [Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { shiftl_avx2(a) }
}
