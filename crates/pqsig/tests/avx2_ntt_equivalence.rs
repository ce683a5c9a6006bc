//! Kernel-level equivalence of the AVX2 NTT and arithmetic kernels with portable, on
//! random inputs spanning each kernel's documented input bounds (kernels/mldsa/mod.rs and
//! the avx2 doc comments): congruence mod q (bit-identity where the AVX2 kernel promises
//! it), the documented output bounds, and NTT-based products against a schoolbook
//! negacyclic product. Skipped (with a message) where AVX2 is unavailable.

use pqsig::kernels::mldsa::{kernels, Kernels, Poly, Q};
use pqsig::Backend;

const N: usize = 256;
const QL: i64 = Q as i64;

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [lo, hi] (inclusive).
    fn range(&mut self, lo: i64, hi: i64) -> i32 {
        (lo + (self.next() % (hi - lo + 1) as u64) as i64) as i32
    }
    /// A polynomial with coefficients in [lo, hi]: uniform, or (one in four) mostly the
    /// extreme values, to reach the corners of the bounds.
    fn poly(&mut self, lo: i64, hi: i64) -> Poly {
        let extremes = self.next() & 3 == 0;
        let mut p = Poly::default();
        for c in p.coeffs.iter_mut() {
            *c = if extremes {
                match self.next() % 4 {
                    0 => lo as i32,
                    1 => hi as i32,
                    _ => self.range(lo, hi),
                }
            } else {
                self.range(lo, hi)
            };
        }
        p
    }
    fn polys(&mut self, n: usize, lo: i64, hi: i64) -> Vec<Poly> {
        (0..n).map(|_| self.poly(lo, hi)).collect()
    }
}

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

#[test]
fn ntt_matches_portable() {
    let Some((pk, ak)) = tables() else { return };
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    let mut seen = 0;
    for round in 0..400 {
        let n = 1 + round % 8;
        let input = rng.polys(n, -(QL - 1), QL - 1);
        let mut want = input.clone();
        let mut got = input.clone();
        (pk.ntt)(&mut want);
        (ak.ntt)(&mut got);
        // Documented: |a| < 8.54q (the seam allows 9q).
        check_congruent("ntt", &want, &got, 854, 100);
        seen = seen.max(max_abs(&got));
    }
    println!("ntt: largest |output| seen {:.3}q", seen as f64 / QL as f64);
}

#[test]
fn invntt_matches_portable() {
    let Some((pk, ak)) = tables() else { return };
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    for round in 0..400 {
        let n = 1 + round % 8;
        let input = rng.polys(n, -(QL - 1), QL - 1);
        let mut want = input.clone();
        let mut got = input.clone();
        (pk.invntt_tomont)(&mut want);
        (ak.invntt_tomont)(&mut got);
        // Documented: |a| < 3q/4 (the seam allows q).
        check_congruent("invntt_tomont", &want, &got, 3, 4);
    }
    // The all-extreme inputs that maximise the unreduced sums.
    for v in [QL - 1, -(QL - 1)] {
        let input = vec![Poly {
            coeffs: [v as i32; N],
        }];
        let mut want = input.clone();
        let mut got = input.clone();
        (pk.invntt_tomont)(&mut want);
        (ak.invntt_tomont)(&mut got);
        check_congruent("invntt_tomont (constant input)", &want, &got, 3, 4);
    }
}

#[test]
fn pointwise_matches_portable_exactly() {
    let Some((pk, ak)) = tables() else { return };
    let mut rng = XorShift(0x1357_9BDF_2468_ACE0);
    // Operand ranges whose products stay within 2^31·q: NTT outputs of both backends
    // (< 9q) times each other, and a wide operand times a reduced one.
    let ranges = [
        (9 * QL - 1, 9 * QL - 1),
        (16 * QL - 1, QL - 1),
        (QL - 1, QL - 1),
    ];
    for round in 0..600 {
        let (rc, rv) = ranges[round % ranges.len()];
        let n = 1 + round % 8;
        let c = rng.poly(-rc, rc);
        let v = rng.polys(n, -rv, rv);
        let mut want = vec![Poly::default(); n];
        let mut got = vec![Poly::default(); n];
        (pk.pointwise_montgomery)(&mut want, &c, &v);
        (ak.pointwise_montgomery)(&mut got, &c, &v);
        assert_eq!(want, got, "pointwise_montgomery, round {round}");
        assert!(
            max_abs(&got) < QL,
            "pointwise_montgomery: output not below q"
        );
    }
}

#[test]
fn matvec_matches_portable_exactly() {
    let Some((pk, ak)) = tables() else { return };
    let mut rng = XorShift(0x0F1E_2D3C_4B5A_6978);
    for round in 0..300 {
        let k = 1 + round % 8;
        let l = round / 8 % 8; // 0..=7 terms (l = 0 must give zeros, as portable does)
                               // Â is std; the vector is an NTT output (< 9q): |Σ| ≤ 7·9q·q < 2^31·q.
        let mat = rng.polys(k * l, 0, QL - 1);
        let v = rng.polys(l, -(9 * QL - 1), 9 * QL - 1);
        let mut want = vec![Poly::default(); k];
        let mut got = vec![Poly { coeffs: [12345; N] }; k];
        (pk.matvec_montgomery)(&mut want, &mat, &v);
        (ak.matvec_montgomery)(&mut got, &mat, &v);
        assert_eq!(want, got, "matvec_montgomery, k {k} l {l}");
        assert!(max_abs(&got) < QL, "matvec_montgomery: output not below q");
    }
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
    let Some((pk, ak)) = tables() else { return };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    // Every combination of backends for (forward, product, inverse): NTT-domain data is
    // interchangeable.
    let combos = [
        (ak, ak, ak),
        (ak, pk, pk),
        (pk, ak, ak),
        (ak, ak, pk),
        (pk, pk, ak),
    ];
    for round in 0..40 {
        let a = rng.poly(-(QL - 1), QL - 1);
        // Small second factor (like c, s1, s2) or a full-size one.
        let b = if round % 2 == 0 {
            rng.poly(-4, 4)
        } else {
            rng.poly(-(QL - 1), QL - 1)
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
    let Some((_, ak)) = tables() else { return };
    let mut rng = XorShift(0xA5A5_5A5A_0F0F_F0F0);
    // 2^32 mod q: invntt_tomont(ntt(a)) = a·2^32.
    let mont = (1i64 << 32) % QL;
    for round in 0..200 {
        let n = 1 + round % 8;
        let input = rng.polys(n, -(QL - 1), QL - 1);
        let mut x = input.clone();
        (ak.ntt)(&mut x);
        (ak.reduce32)(&mut x);
        (ak.invntt_tomont)(&mut x);
        for (p, r) in input.iter().zip(&x) {
            for c in 0..N {
                assert_eq!(modq(p.coeffs[c] as i64 * mont), modq(r.coeffs[c] as i64));
            }
        }
    }
}
