//! Modular reductions for q = 8380417.

use super::super::{Poly, Q, QINV};

/// Montgomery reduction. In: −2^31·q ≤ a ≤ 2^31·q. Out: r ≡ a·2^−32 (mod q), −q < r < q.
#[inline(always)]
pub(crate) fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - (t as i64) * (Q as i64)) >> 32) as i32
}

/// In: a ≤ 2^31 − 2^22 − 1. Out: r ≡ a (mod q), −6283008 ≤ r ≤ 6283008.
#[inline(always)]
pub(crate) fn reduce32_coeff(a: i32) -> i32 {
    let t = (a.wrapping_add(1 << 22)) >> 23;
    a.wrapping_sub(t.wrapping_mul(Q))
}

/// Adds q if a is negative (branch-free).
#[inline(always)]
pub(crate) fn caddq_coeff(a: i32) -> i32 {
    a.wrapping_add((a >> 31) & Q)
}

/// Standard representative in [0, q). In: a ≤ 2^31 − 2^22 − 1.
#[inline(always)]
pub fn freeze_coeff(a: i32) -> i32 {
    caddq_coeff(reduce32_coeff(a))
}

pub fn reduce32(a: &mut [Poly]) {
    for p in a.iter_mut() {
        for x in p.coeffs.iter_mut() {
            *x = reduce32_coeff(*x);
        }
    }
}

pub fn caddq(a: &mut [Poly]) {
    for p in a.iter_mut() {
        for x in p.coeffs.iter_mut() {
            *x = caddq_coeff(*x);
        }
    }
}
