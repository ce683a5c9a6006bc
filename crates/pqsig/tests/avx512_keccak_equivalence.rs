//! The avx512 four-way Keccak-f[1600] (`permute4_for(Backend::Avx512)`) against four calls
//! of the portable one-state permutation: random states, chained outputs, and edge states
//! (all zero, all ones, single bits, one instance set and the others zero). Skipped, with
//! a message, when the CPU lacks AVX-512.

mod common;

use common::{check_chained_states, check_edge_states, check_random_states, XorShift};
use pqsig::kernels::keccak::x4::{permute4_for, Permute4};
use pqsig::Backend;

/// The avx512 four-way permutation, or `None` (after printing why) without AVX-512.
fn avx512_or_skip() -> Option<Permute4> {
    if Backend::Avx512.is_available() {
        Some(permute4_for(Backend::Avx512))
    } else {
        println!("skipped: the avx512 backend is not available on this CPU");
        None
    }
}

#[test]
fn random_states_match_portable() {
    let Some(p) = avx512_or_skip() else { return };
    check_random_states(p, "avx512", 256);
}

#[test]
fn chained_states_match_portable() {
    let Some(p) = avx512_or_skip() else { return };
    check_chained_states(p, "avx512", 256, 7);
}

#[test]
fn edge_states_match_portable() {
    let Some(p) = avx512_or_skip() else { return };
    check_edge_states(p, "avx512");
}

#[test]
fn avx512_matches_avx2_kernel() {
    let Some(p) = avx512_or_skip() else { return };
    // The avx512 backend requires AVX2 too, so both vector kernels can run here.
    let mut rng = XorShift(0x5555_AAAA_3333_CCCC);
    let mut a = rng.state::<4>();
    let mut b = a.clone();
    for _ in 0..64 {
        p(&mut a);
        permute4_for(Backend::Avx2)(&mut b);
        assert_eq!(a.s, b.s);
    }
}
