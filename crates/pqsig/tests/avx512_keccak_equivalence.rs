//! The avx512 four-way Keccak-f[1600] (`permute4_for(Backend::Avx512)`) against four calls
//! of the portable one-state permutation: random states, chained outputs, and edge states
//! (all zero, all ones, single bits, one instance set and the others zero); the bodies are
//! `common`'s. Ignored where the build host lacks AVX-512 (build.rs); failing where the
//! running CPU lacks it.

mod common;

use common::{check_chained_states, check_edge_states, check_random_states, XorShift};
use pqsig::kernels::keccak::x4::{permute4_for, Permute4};
use pqsig::Backend;

/// The avx512 four-way permutation, asserting that this CPU has AVX-512.
fn avx512() -> Permute4 {
    common::require(Backend::Avx512);
    permute4_for(Backend::Avx512)
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn random_states_match_portable() {
    let p = avx512();
    check_random_states(p, "avx512", 256);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn chained_states_match_portable() {
    let p = avx512();
    check_chained_states(p, "avx512", 256, 7);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn edge_states_match_portable() {
    let p = avx512();
    check_edge_states(p, "avx512");
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn avx512_matches_avx2_kernel() {
    let p = avx512();
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
