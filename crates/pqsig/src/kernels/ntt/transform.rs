//! Whole transforms of 2^logn points from the units of `units.rs`, following a variant's
//! plan; generic over the [`Field`], so the same body runs for ML-DSA, Falcon and the
//! counting wrapper.

use super::field::Field;
use super::units::{fwd_r2, fwd_r4, fwd_w16, fwd_w8, inv_r2, inv_r4, inv_w16, inv_w8};
use super::variant::NttVariant;

/// Forward NTT of one polynomial of `2^logn` coefficients (`a.len() ≥ 2^logn`), output in
/// the reference's bit-reversed order.
#[inline(always)]
pub fn forward<F: Field>(a: &mut [F::E], logn: u32, v: NttVariant) {
    let (plan, len) = v.plan(logn);
    forward_plan::<F>(a, logn, &plan[..len]);
}

/// Inverse NTT of one polynomial of `2^logn` coefficients, including the final scaling
/// by [`Field::inv_scale`] (1/n; for ML-DSA also the factor 2^32).
#[inline(always)]
pub fn inverse<F: Field>(a: &mut [F::E], logn: u32, v: NttVariant) {
    let (plan, len) = v.plan(logn);
    inverse_plan::<F>(a, logn, &plan[..len]);
}

/// [`forward`] with the plan given (unit layer counts, top first, summing to logn); with
/// a constant plan the compiler unrolls the unit sequence.
#[inline(always)]
pub(crate) fn forward_plan<F: Field>(a: &mut [F::E], logn: u32, plan: &[u32]) {
    let n = 1usize << logn;
    let a = &mut a[..n];
    let mut m = 1;
    for &l in plan {
        match l {
            1 => fwd_r2::<F>(a, n, m),
            2 => fwd_r4::<F>(a, n, m),
            3 => fwd_w8::<F>(a, n, m),
            _ => fwd_w16::<F>(a, n, m),
        }
        m <<= l;
    }
}

/// [`inverse`] with the plan given (the forward plan; run bottom-up).
#[inline(always)]
pub(crate) fn inverse_plan<F: Field>(a: &mut [F::E], logn: u32, plan: &[u32]) {
    let n = 1usize << logn;
    let a = &mut a[..n];
    let mut m = 1usize << logn;
    for &l in plan.iter().rev() {
        m >>= l;
        match l {
            1 => inv_r2::<F>(a, n, m),
            2 => inv_r4::<F>(a, n, m),
            3 => inv_w8::<F>(a, n, m),
            _ => inv_w16::<F>(a, n, m),
        }
    }
    let f = F::inv_scale(logn);
    for x in a.iter_mut() {
        *x = F::mul(*x, f);
    }
}
