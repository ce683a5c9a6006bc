//! Four SHAKE sponges advanced in lock-step (the "four-way" Keccak kernel): the
//! multi-way sponge of [`xn`](super::xn) with W = 4.
//!
//! State layout: `s[i][j]` is lane i (x + 5y) of instance j, so one 256-bit vector holds
//! lane i of all four instances. Absorbing and squeezing are generic; only the
//! permutation [`Permute4`] is backend-specific.

use super::xn::{permute_portable, PermuteN, ShakeXN, StateXN};
use crate::kernels::select::Backend;

/// Four interleaved Keccak states.
pub type StateX4 = StateXN<4>;

/// A four-way Keccak-f\[1600\] permutation.
pub type Permute4 = PermuteN<4>;

/// Four SHAKE sponges (rate `RATE` bytes, domain byte 0x1F) over equal-length inputs.
pub(crate) type ShakeX4<const RATE: usize> = ShakeXN<4, RATE>;

/// Portable four-way permutation: four scalar permutations.
pub fn permute4_portable(st: &mut StateX4) {
    permute_portable(st)
}

/// The four-way permutation of a backend.
pub fn permute4_for(b: Backend) -> Permute4 {
    crate::kernels::trace::record("keccak::permute4_for", b);
    match b {
        Backend::Portable => permute4_portable,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2.is_available()`: AVX2 detected.
        Backend::Avx2 if b.is_available() => super::x4_avx2::permute4_avx2,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512.is_available()`: AVX2, AVX-512 F/VL/BW/DQ detected.
        Backend::Avx512 if b.is_available() => super::x4_avx512::permute4_avx512,
        #[allow(unreachable_patterns)]
        _ => permute4_portable,
    }
}

/// Test body shared by the unit tests of the ISA files (`x4_avx2.rs`, `x4_avx512.rs`):
/// `p` against four one-state permutations and the portable four-way one, on fresh
/// random states (even steps) and on its own previous output (odd steps).
#[cfg(test)]
pub(crate) fn check_four_scalar_permutations(p: Permute4, steps: usize) {
    use super::f1600::keccak_f1600;
    let mut x = 0x0123_4567_89AB_CDEFu64;
    let mut st = StateX4::default();
    for step in 0..steps {
        if step % 2 == 0 {
            for lane in st.s.iter_mut() {
                for w in lane.iter_mut() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    *w = x;
                }
            }
        }
        let mut want = [[0u64; 25]; 4];
        for (j, one) in want.iter_mut().enumerate() {
            for (o, lane) in one.iter_mut().zip(st.s.iter()) {
                *o = lane[j];
            }
            keccak_f1600(one);
        }
        let mut four = st.clone();
        permute4_portable(&mut four);
        p(&mut st);
        assert_eq!(st.s, four.s, "step {step}: portable four-way");
        for (j, one) in want.iter().enumerate() {
            assert!(
                (0..25).all(|i| st.s[i][j] == one[i]),
                "step {step} state {j}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::keccak::xn::check_against_single;

    #[test]
    fn x4_matches_single_every_backend() {
        for b in Backend::available() {
            for len in [0, 1, 34, 66, 135, 136, 167, 168, 169, 400] {
                check_against_single::<4, 168>(permute4_for(b), b, len);
                check_against_single::<4, 136>(permute4_for(b), b, len);
            }
        }
    }
}
