//! The eight-way Keccak of every backend against the portable one-state code:
//!
//! * `permute8` (both `permute8_for(b)` and the ML-DSA kernel table's entry) against eight
//!   calls of `keccak_f1600`: random states, chained outputs, edge states (zero, all ones,
//!   single bits, one instance set and the others zero);
//! * `ShakeX8` against eight single SHAKE128 / SHAKE256 sponges, for input lengths around
//!   every lane and block boundary, squeezing several blocks.
//!
//! One body per check, taking a backend; the modules at the end (one per backend) call
//! every body. A backend's tests are ignored where the build host lacks its ISA
//! (build.rs) and fail where the running CPU lacks it.

mod common;

use common::{check_chained_states, check_edge_states, check_random_states, XorShift};
use pqsig::kernels::keccak::sponge::{Shake128, Shake256, SHAKE128_RATE, SHAKE256_RATE};
use pqsig::kernels::keccak::x8::{permute8_for, Permute8, ShakeX8};
use pqsig::kernels::mldsa::kernels;
use pqsig::Backend;

/// The two ways backend `b`'s eight-way permutation is reached (asserting that this CPU
/// has `b`).
fn permutations(b: Backend) -> [(String, Permute8); 2] {
    common::require(b);
    [
        (format!("permute8_for({b:?})"), permute8_for(b)),
        (format!("kernels({b:?}).permute8"), kernels(b).permute8),
    ]
}

fn random_states_match_scalar(b: Backend) {
    for (name, p) in permutations(b) {
        check_random_states(p, &name, 128);
    }
}

fn chained_states_match_scalar(b: Backend) {
    for (name, p) in permutations(b) {
        check_chained_states(p, &name, 128, 5);
    }
}

fn edge_states_match_scalar(b: Backend) {
    for (name, p) in permutations(b) {
        check_edge_states(p, &name);
    }
}

/// Eight random inputs of length `len` through `ShakeX8<R>`, `blocks` blocks squeezed in
/// two calls, against eight single sponges.
fn check_shake<const R: usize>(
    p: Permute8,
    rng: &mut XorShift,
    len: usize,
    blocks: usize,
    what: &str,
) {
    let inputs: [Vec<u8>; 8] = core::array::from_fn(|_| rng.bytes(len));
    let mut x8 = ShakeX8::<R>::absorb_once(p, core::array::from_fn(|j| &inputs[j][..]));
    let mut outs: [Vec<u8>; 8] = core::array::from_fn(|_| vec![0u8; blocks * R]);
    let head = blocks / 2;
    x8.squeeze_blocks(outs.each_mut().map(|o| &mut o[..head * R]), head);
    x8.squeeze_blocks(outs.each_mut().map(|o| &mut o[head * R..]), blocks - head);
    for (j, (inp, got)) in inputs.iter().zip(outs.iter()).enumerate() {
        let mut want = vec![0u8; blocks * R];
        match R {
            SHAKE128_RATE => {
                let mut h = Shake128::new();
                h.absorb(inp);
                h.squeeze(&mut want);
            }
            SHAKE256_RATE => {
                let mut h = Shake256::new();
                h.absorb(inp);
                h.squeeze(&mut want);
            }
            _ => unreachable!("rate {R}"),
        }
        assert_eq!(got, &want, "{what}: len {len} lane {j}");
    }
}

fn shake_x8_matches_single_sponges(b: Backend) {
    // Every length up to three SHAKE128 blocks and a bit (all lane offsets and both
    // rates' block boundaries), then some longer ones.
    let lens: Vec<usize> = (0..=520)
        .chain([671, 672, 673, 1000, 1087, 1088, 1089])
        .collect();
    for (name, p) in permutations(b) {
        let mut rng = XorShift(0x5555_AAAA_3333_CCCC);
        for &len in &lens {
            let blocks = 1 + len % 5;
            check_shake::<SHAKE128_RATE>(p, &mut rng, len, blocks, &format!("{name} SHAKE128"));
            check_shake::<SHAKE256_RATE>(p, &mut rng, len, blocks, &format!("{name} SHAKE256"));
        }
    }
}

/// The bodies on the portable backend.
mod portable {
    use super::*;

    #[test]
    fn random_states_match_scalar() {
        super::random_states_match_scalar(Backend::Portable);
    }

    #[test]
    fn chained_states_match_scalar() {
        super::chained_states_match_scalar(Backend::Portable);
    }

    #[test]
    fn edge_states_match_scalar() {
        super::edge_states_match_scalar(Backend::Portable);
    }

    #[test]
    fn shake_x8_matches_single_sponges() {
        super::shake_x8_matches_single_sponges(Backend::Portable);
    }
}

/// The bodies on the avx2 backend.
mod avx2 {
    use super::*;

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn random_states_match_scalar() {
        super::random_states_match_scalar(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn chained_states_match_scalar() {
        super::chained_states_match_scalar(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn edge_states_match_scalar() {
        super::edge_states_match_scalar(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn shake_x8_matches_single_sponges() {
        super::shake_x8_matches_single_sponges(Backend::Avx2);
    }
}

/// The bodies on the avx512 backend.
mod avx512 {
    use super::*;

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn random_states_match_scalar() {
        super::random_states_match_scalar(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn chained_states_match_scalar() {
        super::chained_states_match_scalar(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn edge_states_match_scalar() {
        super::edge_states_match_scalar(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn shake_x8_matches_single_sponges() {
        super::shake_x8_matches_single_sponges(Backend::Avx512);
    }
}

/// The bodies on the neon backend (its eight-way Keccak is the portable code).
mod neon {
    use super::*;

    #[test]
    #[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
    fn random_states_match_scalar() {
        super::random_states_match_scalar(Backend::Neon);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
    fn chained_states_match_scalar() {
        super::chained_states_match_scalar(Backend::Neon);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
    fn edge_states_match_scalar() {
        super::edge_states_match_scalar(Backend::Neon);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
    fn shake_x8_matches_single_sponges() {
        super::shake_x8_matches_single_sponges(Backend::Neon);
    }
}
