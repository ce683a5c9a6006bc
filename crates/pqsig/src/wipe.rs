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

#[cfg(test)]
mod tests {
    use super::*;

    /// Both wipers leave zeros behind, on a large array (the volatile whole-value store)
    /// and on slices of several element types (Miri checks the pointer use:
    /// scripts/miri.sh).
    #[test]
    fn wipes_values_and_slices() {
        let mut big = [0x5au8; 4096];
        wipe(&mut big, [0u8; 4096]);
        assert!(big.iter().all(|&b| b == 0));
        let mut words = [u64::MAX; 33];
        wipe_slice(&mut words[1..], 0);
        assert_eq!(words[0], u64::MAX);
        assert!(words[1..].iter().all(|&w| w == 0));
        let mut v: alloc::vec::Vec<i16> = (0..1000).map(|i| i as i16 - 500).collect();
        wipe_slice(&mut v, 0);
        assert!(v.iter().all(|&x| x == 0));
        let mut empty: [u32; 0] = [];
        wipe_slice(&mut empty, 7);
    }
}
