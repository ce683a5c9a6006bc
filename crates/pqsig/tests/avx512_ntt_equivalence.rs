//! Kernel-level equivalence of the AVX-512 NTT kernels (`ntt`, `invntt_tomont`,
//! `pointwise_montgomery`, `matvec_montgomery`) with portable, on random inputs spanning
//! each kernel's documented input bounds (kernels/mldsa/mod.rs and the avx512 doc
//! comments): congruence mod q and the documented output bounds for the transforms,
//! bit-identity for the products, bit-identity of the transforms with the AVX2 kernels
//! (they promise the same arithmetic), and NTT-based products against a schoolbook
//! negacyclic product. Skipped (with a message) where AVX-512 is unavailable.

mod common;

use common::{
    check_congruent, check_invntt_extremes, check_matvec, check_ntt_inverse_round_trip,
    check_ntt_products, check_pointwise, check_transform, N, QL,
};
use pqsig::kernels::mldsa::{kernels, Kernels, Poly};
use pqsig::Backend;

/// (portable, avx2, avx512) tables, or None (with a message) without AVX-512.
fn tables() -> Option<(&'static Kernels, &'static Kernels, &'static Kernels)> {
    if !Backend::Avx512.is_available() {
        println!("skipped: AVX-512 (F, VL, BW, DQ) is not available on this CPU/target");
        return None;
    }
    // The avx512 backend requires AVX2 as well.
    assert!(Backend::Avx2.is_available());
    let (p, a, z) = (
        kernels(Backend::Portable),
        kernels(Backend::Avx2),
        kernels(Backend::Avx512),
    );
    assert_eq!(p.backend, Backend::Portable);
    assert_eq!(a.backend, Backend::Avx2);
    assert_eq!(z.backend, Backend::Avx512);
    Some((p, a, z))
}

/// Unit vectors and single-coefficient inputs: each lands in a different lane and
/// register of each layout, so a wrong shuffle or twiddle shows up with its index.
#[test]
fn ntt_unit_vectors() {
    let Some((pk, _, zk)) = tables() else { return };
    for i in 0..N {
        for v in [1, -(QL - 1), QL - 1] {
            let mut input = Poly::default();
            input.coeffs[i] = v as i32;
            let mut want = [input];
            let mut got = [input];
            (pk.ntt)(&mut want);
            (zk.ntt)(&mut got);
            check_congruent(&format!("ntt(e_{i}·{v})"), &want, &got, 854, 100);
            let mut want = [input];
            let mut got = [input];
            (pk.invntt_tomont)(&mut want);
            (zk.invntt_tomont)(&mut got);
            check_congruent(&format!("invntt(e_{i}·{v})"), &want, &got, 3, 4);
        }
    }
}

#[test]
fn ntt_matches_portable_and_avx2() {
    let Some((pk, ak, zk)) = tables() else { return };
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
fn invntt_matches_portable_and_avx2() {
    let Some((pk, ak, zk)) = tables() else { return };
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
fn pointwise_matches_portable_exactly() {
    let Some((pk, _, zk)) = tables() else { return };
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
fn matvec_matches_portable_exactly() {
    let Some((pk, _, zk)) = tables() else { return };
    // Up to 9 terms (9 takes the long-vector path), some matrices signed:
    // |Σ| ≤ 9·9q·q < 2^31·q.
    check_matvec(pk, zk, 400, 9, true);
}

#[test]
fn matvec_short_matrix_panics() {
    let Some((_, _, zk)) = tables() else { return };
    let v = vec![Poly::default(); 3];
    let mat = vec![Poly::default(); 5];
    let r = std::panic::catch_unwind(|| {
        let mut out = vec![Poly::default(); 2];
        (zk.matvec_montgomery)(&mut out, &mat, &v);
    });
    assert!(
        r.is_err(),
        "a 2×3 product with 5 matrix polynomials must panic"
    );
}

#[test]
fn ntt_products_round_trip() {
    let Some((pk, ak, zk)) = tables() else { return };
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
fn ntt_inverse_round_trip() {
    let Some((_, _, zk)) = tables() else { return };
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
