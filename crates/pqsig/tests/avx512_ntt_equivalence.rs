//! Kernel-level equivalence of the AVX-512 NTT kernels (`ntt`, `invntt_tomont`,
//! `pointwise_montgomery`, `matvec_montgomery`) with portable, on random inputs spanning
//! each kernel's documented input bounds (kernels/mldsa/mod.rs and the avx512 doc
//! comments): congruence mod q and the documented output bounds for the transforms,
//! bit-identity for the products, bit-identity of the transforms with the AVX2 kernels
//! (they promise the same arithmetic), and NTT-based products against a schoolbook
//! negacyclic product. The bodies are `common`'s `check_*`, shared with
//! `avx2_ntt_equivalence.rs`. Ignored where the build host lacks AVX-512 (build.rs);
//! failing where the running CPU lacks it.

mod common;

use common::{
    check_arith, check_invntt_extremes, check_matvec, check_matvec_short_matrix_panics,
    check_ntt_inverse_round_trip, check_ntt_products, check_ntt_unit_vectors, check_pointwise,
    check_transform, N, QL,
};
use pqsig::kernels::mldsa::{kernels, Kernels, Poly};
use pqsig::Backend;

/// (portable, avx2, avx512) tables, asserting that this CPU has AVX-512 (and so AVX2,
/// which the avx512 backend requires).
fn tables() -> (&'static Kernels, &'static Kernels, &'static Kernels) {
    common::require(Backend::Avx512);
    common::require(Backend::Avx2);
    let (p, a, z) = (
        kernels(Backend::Portable),
        kernels(Backend::Avx2),
        kernels(Backend::Avx512),
    );
    assert_eq!(p.backend, Backend::Portable);
    assert_eq!(a.backend, Backend::Avx2);
    assert_eq!(z.backend, Backend::Avx512);
    (p, a, z)
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn ntt_unit_vectors() {
    let (pk, _, zk) = tables();
    check_ntt_unit_vectors(pk, zk);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn ntt_matches_portable_and_avx2() {
    let (pk, ak, zk) = tables();
    // Documented: |a| < 8.54q (the seam allows 9q); bit-identical to avx2.
    let seen = check_transform(
        "ntt",
        |k| k.ntt,
        pk,
        &[zk, ak],
        0x0123_4567_89AB_CDEF,
        (854, 100),
    );
    println!("ntt: largest |output| seen {:.3}q", seen as f64 / QL as f64);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn invntt_matches_portable_and_avx2() {
    let (pk, ak, zk) = tables();
    // Documented: |a| < 3q/4 (the seam allows 3q/4: keygen relies on it); bit-identical
    // to avx2.
    let mut seen = check_transform(
        "invntt_tomont",
        |k| k.invntt_tomont,
        pk,
        &[zk, ak],
        0xDEAD_BEEF_CAFE_F00D,
        (3, 4),
    );
    // The all-extreme inputs that maximise the unreduced sums, and alternating ones.
    seen = seen.max(check_invntt_extremes(pk, zk));
    println!(
        "invntt_tomont: largest |output| seen {:.3}q",
        seen as f64 / QL as f64
    );
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn pointwise_matches_portable_exactly() {
    let (pk, _, zk) = tables();
    // Operand ranges whose products stay within 2^31·q: NTT outputs (< 9q) times each
    // other, and a wide operand times a reduced one. Sometimes a longer `out` than `v`.
    let ranges = [
        (9 * QL - 1, 9 * QL - 1),
        (16 * QL - 1, QL - 1),
        (QL - 1, 16 * QL - 1),
        (QL - 1, QL - 1),
    ];
    check_pointwise(pk, zk, &ranges, true);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn matvec_matches_portable_exactly() {
    let (pk, _, zk) = tables();
    // Up to 9 terms (9 takes the long-vector path), some matrices signed:
    // |Σ| ≤ 9·9q·q < 2^31·q.
    check_matvec(pk, zk, 400, 9, true);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn matvec_short_matrix_panics() {
    let (_, _, zk) = tables();
    check_matvec_short_matrix_panics(zk);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn arith_matches_portable_exactly() {
    // The avx512 table takes these kernels from the AVX2 one; checked all the same.
    let (pk, _, zk) = tables();
    check_arith(pk, zk);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn ntt_products_round_trip() {
    let (pk, ak, zk) = tables();
    // Combinations of backends for (forward, product, inverse).
    check_ntt_products(&[
        (zk, zk, zk),
        (zk, pk, pk),
        (pk, zk, zk),
        (zk, zk, pk),
        (pk, pk, zk),
        (ak, zk, zk),
        (zk, ak, ak),
    ]);
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn ntt_inverse_round_trip() {
    let (_, _, zk) = tables();
    check_ntt_inverse_round_trip(zk);
}

/// The kernels use aligned 64-byte loads and stores: `Poly` is 64-byte aligned, so every
/// polynomial of a slice (here from a `Vec`, as callers allocate them) starts a cache
/// line.
#[test]
fn polys_are_64_byte_aligned() {
    assert_eq!(core::mem::align_of::<Poly>(), 64);
    assert_eq!(core::mem::size_of::<Poly>(), 4 * N);
    for n in 1..=9 {
        let v = vec![Poly::default(); n];
        for (i, p) in v.iter().enumerate() {
            assert_eq!(p as *const Poly as usize % 64, 0, "poly {i} of {n}");
        }
    }
}
