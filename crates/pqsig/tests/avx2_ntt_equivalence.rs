//! Kernel-level equivalence of the AVX2 NTT and arithmetic kernels with portable, on
//! random inputs spanning each kernel's documented input bounds (kernels/mldsa/mod.rs and
//! the avx2 doc comments): congruence mod q (bit-identity where the AVX2 kernel promises
//! it), the documented output bounds, and NTT-based products against a schoolbook
//! negacyclic product. Skipped (with a message) where AVX2 is unavailable.

mod common;

use common::{
    check_invntt_extremes, check_matvec, check_ntt_inverse_round_trip, check_ntt_products,
    check_pointwise, check_transform, max_abs, XorShift, QL,
};
use pqsig::kernels::mldsa::{kernels, Kernels, Q};
use pqsig::Backend;

fn tables() -> Option<(&'static Kernels, &'static Kernels)> {
    if !Backend::Avx2.is_available() {
        println!("skipped: AVX2 is not available on this CPU/target");
        return None;
    }
    let (p, a) = (kernels(Backend::Portable), kernels(Backend::Avx2));
    assert_eq!(p.backend, Backend::Portable);
    assert_eq!(a.backend, Backend::Avx2);
    Some((p, a))
}

#[test]
fn ntt_matches_portable() {
    let Some((pk, ak)) = tables() else { return };
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
fn invntt_matches_portable() {
    let Some((pk, ak)) = tables() else { return };
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
fn pointwise_matches_portable_exactly() {
    let Some((pk, ak)) = tables() else { return };
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
fn matvec_matches_portable_exactly() {
    let Some((pk, ak)) = tables() else { return };
    // Up to 7 terms: |Σ| ≤ 7·9q·q < 2^31·q.
    check_matvec(pk, ak, 300, 7, false);
}

#[test]
fn arith_matches_portable_exactly() {
    let Some((pk, ak)) = tables() else { return };
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for round in 0..300 {
        let n = 1 + round % 8;

        // reduce32: any a ≤ 2^31 − 2^22 − 1.
        let input = rng.polys(n, i32::MIN as i64, (1 << 31) - (1 << 22) - 1);
        let (mut want, mut got) = (input.clone(), input.clone());
        (pk.reduce32)(&mut want);
        (ak.reduce32)(&mut got);
        assert_eq!(want, got, "reduce32");
        assert!(max_abs(&got) <= 6283008, "reduce32 bound");

        // caddq: a > −q (any i32 above); std output when also a < q.
        for (lo, hi) in [(-(QL - 1), QL - 1), (-(QL - 1), i32::MAX as i64)] {
            let input = rng.polys(n, lo, hi);
            let (mut want, mut got) = (input.clone(), input.clone());
            (pk.caddq)(&mut want);
            (ak.caddq)(&mut got);
            assert_eq!(want, got, "caddq");
            if hi < QL {
                assert!(
                    got.iter()
                        .flat_map(|p| p.coeffs.iter())
                        .all(|&c| (0..Q).contains(&c)),
                    "caddq std"
                );
            }
        }

        // add, sub: wrapping, over the shorter slice.
        let x = rng.polys(n, i32::MIN as i64, i32::MAX as i64);
        let y = rng.polys(n + round % 2, i32::MIN as i64, i32::MAX as i64);
        for (name, pf, af) in [("add", pk.add, ak.add), ("sub", pk.sub, ak.sub)] {
            let (mut want, mut got) = (x.clone(), x.clone());
            pf(&mut want, &y);
            af(&mut got, &y);
            assert_eq!(want, got, "{name}");
        }

        // shiftl: |a| < 2^18.
        let input = rng.polys(n, -(1 << 18) + 1, (1 << 18) - 1);
        let (mut want, mut got) = (input.clone(), input.clone());
        (pk.shiftl)(&mut want);
        (ak.shiftl)(&mut got);
        assert_eq!(want, got, "shiftl");
    }
}

#[test]
fn ntt_products_round_trip() {
    let Some((pk, ak)) = tables() else { return };
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
fn ntt_inverse_round_trip() {
    let Some((_, ak)) = tables() else { return };
    check_ntt_inverse_round_trip(ak);
}
