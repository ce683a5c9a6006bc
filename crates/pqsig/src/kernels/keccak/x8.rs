//! Eight SHAKE sponges advanced in lock-step (the "eight-way" Keccak kernel): the
//! multi-way sponge of [`xn`](super::xn) with W = 8.
//!
//! State layout: `s[i][j]` is lane i (x + 5y) of instance j, so one 512-bit vector holds
//! lane i of all eight instances, and each half of it (instances 0–3 and 4–7) is a
//! 32-byte-aligned 256-bit vector laid out like a [`StateX4`](super::x4::StateX4) lane.
//! Absorbing and squeezing are generic; only the permutation [`Permute8`] is
//! backend-specific:
//!
//! * portable: eight scalar permutations;
//! * avx2: the AVX2 four-way kernel on each half, in place (`x4_avx2::permute8_avx2`);
//! * avx512: one state per 64-bit element of 25 `__m512i` (`x8_avx512`).

use super::xn::{permute_portable, PermuteN, ShakeXN, StateXN};
use crate::kernels::select::Backend;

/// Eight interleaved Keccak states.
pub type StateX8 = StateXN<8>;

/// An eight-way Keccak-f\[1600\] permutation.
pub type Permute8 = PermuteN<8>;

/// Eight SHAKE sponges (rate `RATE` bytes, domain byte 0x1F) over equal-length inputs.
pub type ShakeX8<const RATE: usize> = ShakeXN<8, RATE>;

/// Portable eight-way permutation: eight scalar permutations.
pub fn permute8_portable(st: &mut StateX8) {
    permute_portable(st)
}

/// The eight-way permutation of a backend.
pub fn permute8_for(b: Backend) -> Permute8 {
    crate::kernels::trace::record("keccak::permute8_for", b);
    match b {
        Backend::Portable => permute8_portable,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2.is_available()`: AVX2 detected.
        Backend::Avx2 if b.is_available() => super::x4_avx2::permute8_avx2,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512.is_available()`: AVX2, AVX-512 F/VL/BW/DQ detected.
        Backend::Avx512 if b.is_available() => super::x8_avx512::permute8_avx512,
        #[allow(unreachable_patterns)]
        _ => permute8_portable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::keccak::xn::check_against_single;

    /// For every backend and input length: eight inputs (distinct per lane), three blocks
    /// squeezed from each, against eight single sponges.
    #[test]
    fn x8_matches_single_every_backend() {
        for b in Backend::available() {
            for len in (0..=48).chain([64, 66, 135, 136, 137, 167, 168, 169, 271, 272, 400, 504]) {
                check_against_single::<8, 168>(permute8_for(b), b, len);
                check_against_single::<8, 136>(permute8_for(b), b, len);
            }
        }
    }
}
