//! Kernel-level equivalence of the AVX2 NTT and arithmetic kernels with portable, on
//! random inputs spanning each kernel's documented input bounds (kernels/mldsa/mod.rs and
//! the avx2 doc comments): congruence mod q (bit-identity where the AVX2 kernel promises
//! it), the documented output bounds, and NTT-based products against a schoolbook
//! negacyclic product. The bodies are `common`'s `check_*`, shared with
//! `avx512_ntt_equivalence.rs`. Ignored where the build host lacks AVX2 (build.rs);
//! failing where the running CPU lacks it.

mod common;

use common::{
    check_arith, check_invntt_extremes, check_matvec, check_matvec_short_matrix_panics,
    check_ntt_inverse_round_trip, check_ntt_products, check_ntt_unit_vectors, check_pointwise,
    check_transform, QL,
};
use pqsig::kernels::mldsa::{kernels, Kernels};
use pqsig::Backend;

/// (portable, avx2) tables, asserting that this CPU has AVX2.
fn tables() -> (&'static Kernels, &'static Kernels) {
    common::require(Backend::Avx2);
    let (p, a) = (kernels(Backend::Portable), kernels(Backend::Avx2));
    assert_eq!(p.backend, Backend::Portable);
    assert_eq!(a.backend, Backend::Avx2);
    (p, a)
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn ntt_unit_vectors() {
    let (pk, ak) = tables();
    check_ntt_unit_vectors(pk, ak);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn ntt_matches_portable() {
    let (pk, ak) = tables();
    // Documented: |a| < 8.54q (the seam allows 9q).
    let seen = check_transform(
        "ntt",
        |k| k.ntt,
        pk,
        &[ak],
        0x0123_4567_89AB_CDEF,
        (854, 100),
    );
    println!("ntt: largest |output| seen {:.3}q", seen as f64 / QL as f64);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn invntt_matches_portable() {
    let (pk, ak) = tables();
    // Documented: |a| < 3q/4 (the seam allows q).
    check_transform(
        "invntt_tomont",
        |k| k.invntt_tomont,
        pk,
        &[ak],
        0xDEAD_BEEF_CAFE_F00D,
        (3, 4),
    );
    // The all-extreme inputs that maximise the unreduced sums, and alternating ones.
    check_invntt_extremes(pk, ak);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn pointwise_matches_portable_exactly() {
    let (pk, ak) = tables();
    // Operand ranges whose products stay within 2^31·q: NTT outputs of both backends
    // (< 9q) times each other, and a wide operand times a reduced one.
    let ranges = [
        (9 * QL - 1, 9 * QL - 1),
        (16 * QL - 1, QL - 1),
        (QL - 1, QL - 1),
    ];
    check_pointwise(pk, ak, &ranges, false);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn matvec_matches_portable_exactly() {
    let (pk, ak) = tables();
    // Up to 7 terms: |Σ| ≤ 7·9q·q < 2^31·q.
    check_matvec(pk, ak, 300, 7, false);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn matvec_short_matrix_panics() {
    let (_, ak) = tables();
    check_matvec_short_matrix_panics(ak);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn arith_matches_portable_exactly() {
    let (pk, ak) = tables();
    check_arith(pk, ak);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn ntt_products_round_trip() {
    let (pk, ak) = tables();
    // Every combination of backends for (forward, product, inverse).
    check_ntt_products(&[
        (ak, ak, ak),
        (ak, pk, pk),
        (pk, ak, ak),
        (ak, ak, pk),
        (pk, pk, ak),
    ]);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn ntt_inverse_round_trip() {
    let (_, ak) = tables();
    check_ntt_inverse_round_trip(ak);
}
