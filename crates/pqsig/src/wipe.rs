//! Wiping secrets fast: one volatile store of a whole value (the compiler may not elide
//! it) instead of the element-by-element volatile stores of `zeroize` on large arrays.

use core::sync::atomic::{compiler_fence, Ordering};

/// Overwrites `*x` with `zero` so that the store is not optimised away.
#[inline]
pub(crate) fn wipe<T: Copy>(x: &mut T, zero: T) {
    // SAFETY: `x` is a valid, aligned, exclusive reference to a `T`.
    unsafe { core::ptr::write_volatile(x, zero) };
    compiler_fence(Ordering::SeqCst);
}

/// Overwrites every element of `s` with `zero` so that the stores are not optimised away
/// (plain wide stores, then an opaque read of the slice the optimiser must honour).
#[inline]
pub(crate) fn wipe_slice<T: Copy>(s: &mut [T], zero: T) {
    s.fill(zero);
    core::hint::black_box(&*s);
    compiler_fence(Ordering::SeqCst);
}
