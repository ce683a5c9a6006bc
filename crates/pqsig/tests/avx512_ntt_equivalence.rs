//! Kernel-level equivalence of the AVX-512 NTT kernels (`ntt`, `invntt_tomont`,
//! `pointwise_montgomery`, `matvec_montgomery`) with portable, on random inputs spanning
//! each kernel's documented input bounds (kernels/mldsa/mod.rs and the avx512 doc
//! comments): congruence mod q and the documented output bounds for the transforms,
//! bit-identity for the products, bit-identity of the transforms with the AVX2 kernels
//! (they promise the same arithmetic), and NTT-based products against a schoolbook
//! negacyclic product. Skipped (with a message) where AVX-512 is unavailable.

mod common;

use common::XorShift;
use pqsig::kernels::mldsa::{kernels, Kernels, Poly, Q};
use pqsig::Backend;

const N: usize = 256;
const QL: i64 = Q as i64;

/// Uniform in [lo, hi] (inclusive).
fn range(rng: &mut XorShift, lo: i64, hi: i64) -> i32 {
    (lo + (rng.next() % (hi - lo + 1) as u64) as i64) as i32
}

/// A polynomial with coefficients in [lo, hi]: uniform, or (one in four) mostly the
/// extreme values, to reach the corners of the bounds.
fn poly(rng: &mut XorShift, lo: i64, hi: i64) -> Poly {
    let extremes = rng.next() & 3 == 0;
    let mut p = Poly::default();
    for c in p.coeffs.iter_mut() {
        *c = if extremes {
            match rng.next() % 4 {
                0 => lo as i32,
                1 => hi as i32,
                _ => range(rng, lo, hi),
            }
        } else {
            range(rng, lo, hi)
        };
    }
    p
}

fn polys(rng: &mut XorShift, n: usize, lo: i64, hi: i64) -> Vec<Poly> {
    (0..n).map(|_| poly(rng, lo, hi)).collect()
}

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

fn modq(x: i64) -> i64 {
    x.rem_euclid(QL)
}

/// Congruence mod q, coefficient by coefficient, and `|got| < bound_num/bound_den · q`.
fn check_congruent(what: &str, want: &[Poly], got: &[Poly], bound_num: i64, bound_den: i64) {
    assert_eq!(want.len(), got.len());
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        for c in 0..N {
            let (wv, gv) = (w.coeffs[c] as i64, g.coeffs[c] as i64);
            assert_eq!(
                modq(wv),
                modq(gv),
                "{what}: poly {i} coeff {c}: {wv} vs {gv}"
            );
            assert!(
                gv.abs() * bound_den < bound_num * QL,
                "{what}: poly {i} coeff {c}: |{gv}| exceeds {bound_num}/{bound_den}·q"
            );
        }
    }
}

fn max_abs(p: &[Poly]) -> i64 {
    p.iter()
        .flat_map(|x| x.coeffs.iter())
        .map(|&c| (c as i64).abs())
        .max()
        .unwrap_or(0)
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
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    let mut seen = 0;
    for round in 0..400 {
        let n = 1 + round % 8;
        let input = polys(&mut rng, n, -(QL - 1), QL - 1);
        let mut want = input.clone();
        let mut got = input.clone();
        let mut avx2 = input.clone();
        (pk.ntt)(&mut want);
        (zk.ntt)(&mut got);
        (ak.ntt)(&mut avx2);
        // Documented: |a| < 8.54q (the seam allows 9q).
        check_congruent("ntt", &want, &got, 854, 100);
        assert_eq!(avx2, got, "ntt: avx512 differs from avx2, round {round}");
        seen = seen.max(max_abs(&got));
    }
    println!("ntt: largest |output| seen {:.3}q", seen as f64 / QL as f64);
}

#[test]
fn invntt_matches_portable_and_avx2() {
    let Some((pk, ak, zk)) = tables() else { return };
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    let mut seen = 0;
    for round in 0..400 {
        let n = 1 + round % 8;
        let input = polys(&mut rng, n, -(QL - 1), QL - 1);
        let mut want = input.clone();
        let mut got = input.clone();
        let mut avx2 = input.clone();
        (pk.invntt_tomont)(&mut want);
        (zk.invntt_tomont)(&mut got);
        (ak.invntt_tomont)(&mut avx2);
        // Documented: |a| < 3q/4 (the seam allows 3q/4: keygen relies on it).
        check_congruent("invntt_tomont", &want, &got, 3, 4);
        assert_eq!(avx2, got, "invntt: avx512 differs from avx2, round {round}");
        seen = seen.max(max_abs(&got));
    }
    // The all-extreme inputs that maximise the unreduced sums, and alternating ones.
    for v in [QL - 1, -(QL - 1)] {
        for alt in [false, true] {
            let mut input = vec![Poly {
                coeffs: [v as i32; N],
            }];
            if alt {
                for (i, c) in input[0].coeffs.iter_mut().enumerate() {
                    if i % 2 == 1 {
                        *c = -*c;
                    }
                }
            }
            let mut want = input.clone();
            let mut got = input.clone();
            (pk.invntt_tomont)(&mut want);
            (zk.invntt_tomont)(&mut got);
            check_congruent("invntt_tomont (extreme input)", &want, &got, 3, 4);
            seen = seen.max(max_abs(&got));
        }
    }
    println!(
        "invntt_tomont: largest |output| seen {:.3}q",
        seen as f64 / QL as f64
    );
}

#[test]
fn pointwise_matches_portable_exactly() {
    let Some((pk, _, zk)) = tables() else { return };
    let mut rng = XorShift(0x1357_9BDF_2468_ACE0);
    // Operand ranges whose products stay within 2^31·q: NTT outputs (< 9q) times each
    // other, and a wide operand times a reduced one.
    let ranges = [
        (9 * QL - 1, 9 * QL - 1),
        (16 * QL - 1, QL - 1),
        (QL - 1, 16 * QL - 1),
        (QL - 1, QL - 1),
    ];
    for round in 0..600 {
        let (rc, rv) = ranges[round % ranges.len()];
        let n = 1 + round % 8;
        let c = poly(&mut rng, -rc, rc);
        let v = polys(&mut rng, n, -rv, rv);
        // Sometimes a longer `out` than `v` (the kernel works over the shorter).
        let extra = round % 3 == 0;
        let mut want = vec![Poly::default(); n + extra as usize];
        let mut got = vec![Poly { coeffs: [777; N] }; n + extra as usize];
        if extra {
            want[n] = Poly { coeffs: [777; N] };
        }
        (pk.pointwise_montgomery)(&mut want, &c, &v);
        (zk.pointwise_montgomery)(&mut got, &c, &v);
        assert_eq!(want, got, "pointwise_montgomery, round {round}");
        assert!(
            max_abs(&got[..n]) < QL,
            "pointwise_montgomery: output not below q"
        );
    }
}

#[test]
fn matvec_matches_portable_exactly() {
    let Some((pk, _, zk)) = tables() else { return };
    let mut rng = XorShift(0x0F1E_2D3C_4B5A_6978);
    for round in 0..400 {
        let k = 1 + round % 8;
        // 0..=9 terms: l = 0 gives zeros (as portable does), l = 9 takes the long-vector
        // path. The matrix is std (some rounds signed, to reach the corners), the vector
        // an NTT output (< 9q): |Σ| ≤ 9·9q·q < 2^31·q.
        let l = round / 8 % 10;
        let mat = if round % 5 == 0 {
            polys(&mut rng, k * l, -(QL - 1), QL - 1)
        } else {
            polys(&mut rng, k * l, 0, QL - 1)
        };
        let v = polys(&mut rng, l, -(9 * QL - 1), 9 * QL - 1);
        let mut want = vec![Poly::default(); k];
        let mut got = vec![Poly { coeffs: [12345; N] }; k];
        (pk.matvec_montgomery)(&mut want, &mat, &v);
        (zk.matvec_montgomery)(&mut got, &mat, &v);
        assert_eq!(want, got, "matvec_montgomery, k {k} l {l}");
        assert!(max_abs(&got) < QL, "matvec_montgomery: output not below q");
    }
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

/// Negacyclic schoolbook product mod q, coefficients in [0, q).
fn schoolbook(a: &Poly, b: &Poly) -> [i64; N] {
    let mut r = [0i64; N];
    for i in 0..N {
        for j in 0..N {
            let p = modq(a.coeffs[i] as i64) * modq(b.coeffs[j] as i64) % QL;
            if i + j < N {
                r[i + j] = (r[i + j] + p) % QL;
            } else {
                r[i + j - N] = (r[i + j - N] - p).rem_euclid(QL);
            }
        }
    }
    r
}

#[test]
fn ntt_products_round_trip() {
    let Some((pk, ak, zk)) = tables() else { return };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    // Combinations of backends for (forward, product, inverse): NTT-domain data is
    // interchangeable.
    let combos = [
        (zk, zk, zk),
        (zk, pk, pk),
        (pk, zk, zk),
        (zk, zk, pk),
        (pk, pk, zk),
        (ak, zk, zk),
        (zk, ak, ak),
    ];
    for round in 0..40 {
        let a = poly(&mut rng, -(QL - 1), QL - 1);
        // Small second factor (like c, s1, s2) or a full-size one.
        let b = if round % 2 == 0 {
            poly(&mut rng, -4, 4)
        } else {
            poly(&mut rng, -(QL - 1), QL - 1)
        };
        let want = schoolbook(&a, &b);
        for (i, &(f, m, inv)) in combos.iter().enumerate() {
            let mut ah = [a];
            let mut bh = [b];
            (f.ntt)(&mut ah);
            (f.ntt)(&mut bh);
            let mut prod = [Poly::default()];
            (m.pointwise_montgomery)(&mut prod, &bh[0], &ah);
            (inv.invntt_tomont)(&mut prod);
            for (c, (&got, &w)) in prod[0].coeffs.iter().zip(&want).enumerate() {
                assert_eq!(modq(got as i64), w, "round {round} combo {i} coeff {c}");
            }
            // The matrix product with a 1×1 matrix is the same product.
            let mut mv = [Poly::default()];
            (m.matvec_montgomery)(&mut mv, &bh, &ah);
            (inv.invntt_tomont)(&mut mv);
            for (c, (&got, &w)) in mv[0].coeffs.iter().zip(&want).enumerate() {
                assert_eq!(
                    modq(got as i64),
                    w,
                    "matvec round {round} combo {i} coeff {c}"
                );
            }
        }
    }
}

#[test]
fn ntt_inverse_round_trip() {
    let Some((_, _, zk)) = tables() else { return };
    let mut rng = XorShift(0xA5A5_5A5A_0F0F_F0F0);
    // 2^32 mod q: invntt_tomont(ntt(a)) = a·2^32.
    let mont = (1i64 << 32) % QL;
    for round in 0..200 {
        let n = 1 + round % 8;
        let input = polys(&mut rng, n, -(QL - 1), QL - 1);
        let mut x = input.clone();
        (zk.ntt)(&mut x);
        (zk.reduce32)(&mut x);
        (zk.invntt_tomont)(&mut x);
        for (p, r) in input.iter().zip(&x) {
            for c in 0..N {
                assert_eq!(modq(p.coeffs[c] as i64 * mont), modq(r.coeffs[c] as i64));
            }
        }
    }
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
