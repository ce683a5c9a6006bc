//! Power2Round, Decompose, MakeHint, UseHint and the infinity-norm check (FIPS 204
//! Algorithms 35–40), branch-free.

use super::super::{Poly, D, Q};

/// In: a std. Out: (a1, a0) with a = a1·2^13 + a0, a0 ∈ (−2^12, 2^12].
#[inline(always)]
pub(crate) fn power2round_coeff(a: i32) -> (i32, i32) {
    let a1 = (a + (1 << (D - 1)) - 1) >> D;
    (a1, a - (a1 << D))
}

/// In: a std. Out: (a1, a0) with a ≡ a1·2γ2 + a0, a0 ∈ (−γ2, γ2] (and the q−1 corner case
/// mapped to a1 = 0, a0 = a − q, as FIPS 204 Algorithm 36 specifies).
#[inline(always)]
pub(crate) fn decompose_coeff(gamma2: i32, a: i32) -> (i32, i32) {
    // ceil(a / 128), then a multiply-shift that divides by 2γ2/128 with exact results
    // for every a < q (the pq-crystals constants).
    let mut a1 = (a + 127) >> 7;
    if gamma2 == (Q - 1) / 32 {
        a1 = (a1 * 1025 + (1 << 21)) >> 22;
        a1 &= 15;
    } else {
        a1 = (a1 * 11275 + (1 << 23)) >> 24;
        a1 ^= ((43 - a1) >> 31) & a1;
    }
    let mut a0 = a - a1 * 2 * gamma2;
    a0 -= (((Q - 1) / 2 - a0) >> 31) & Q;
    (a1, a0)
}

/// 1 if the low part a0 (with high part a1) makes HighBits change when the
/// hint-correcting term is added; see FIPS 204 Algorithm 39 and pq-crystals `make_hint`.
#[inline(always)]
pub(crate) fn make_hint_coeff(gamma2: i32, a0: i32, a1: i32) -> i32 {
    // (a0 > γ2) | (a0 < −γ2) | (a0 == −γ2 & a1 != 0), without branches.
    let gt = ((gamma2 - a0) >> 31) & 1;
    let lt = ((a0 + gamma2) >> 31) & 1;
    let eq = ((((a0 + gamma2) | -(a0 + gamma2)) >> 31) + 1) & 1; // a0 == −γ2
    let nz = ((a1 | -a1) >> 31) & 1; // a1 != 0
    gt | lt | (eq & nz)
}

/// UseHint (Algorithm 40). In: a std, h ∈ {0, 1}.
#[inline(always)]
pub(crate) fn use_hint_coeff(gamma2: i32, a: i32, h: i32) -> i32 {
    let (a1, a0) = decompose_coeff(gamma2, a);
    // Verification works on public data; the selects are still branch-free.
    let pos = (-a0 >> 31) & 1; // a0 > 0
    let delta = h * (2 * pos - 1); // +1, −1 or 0
    if gamma2 == (Q - 1) / 32 {
        (a1 + delta) & 15
    } else {
        // m = 44: wrap −1 → 43 and 44 → 0.
        let r = a1 + delta;
        let r = r + ((r >> 31) & 44);
        r - (((43 - r) >> 31) & 44)
    }
}

pub fn power2round(t1: &mut [Poly], t0: &mut [Poly]) {
    for (p1, p0) in t1.iter_mut().zip(t0.iter_mut()) {
        for i in 0..super::super::N {
            let (a1, a0) = power2round_coeff(p1.coeffs[i]);
            p1.coeffs[i] = a1;
            p0.coeffs[i] = a0;
        }
    }
}

pub fn decompose(gamma2: i32, a1: &mut [Poly], a0: &mut [Poly]) {
    for (p1, p0) in a1.iter_mut().zip(a0.iter_mut()) {
        for i in 0..super::super::N {
            let (h, l) = decompose_coeff(gamma2, p1.coeffs[i]);
            p1.coeffs[i] = h;
            p0.coeffs[i] = l;
        }
    }
}

pub fn make_hint(gamma2: i32, h: &mut [Poly], a0: &[Poly], a1: &[Poly]) -> usize {
    let mut n = 0usize;
    for ((ph, p0), p1) in h.iter_mut().zip(a0).zip(a1) {
        for i in 0..super::super::N {
            let b = make_hint_coeff(gamma2, p0.coeffs[i], p1.coeffs[i]);
            ph.coeffs[i] = b;
            n += b as usize;
        }
    }
    n
}

pub fn use_hint(gamma2: i32, a: &mut [Poly], h: &[Poly]) {
    for (pa, ph) in a.iter_mut().zip(h) {
        for i in 0..super::super::N {
            pa.coeffs[i] = use_hint_coeff(gamma2, pa.coeffs[i], ph.coeffs[i]);
        }
    }
}

/// True if some |a| ≥ bound. In: a reduced by `reduce32`; bound ≤ (q−1)/8.
/// Scans every coefficient (no early exit) and never branches on the sign.
pub fn chknorm(a: &[Poly], bound: i32) -> bool {
    let mut bad = 0i32;
    for p in a {
        for &x in p.coeffs.iter() {
            let t = x >> 31;
            let abs = x - (t & (2 * x));
            bad |= (bound - 1 - abs) >> 31; // −1 when abs ≥ bound
        }
    }
    bad != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decompose_matches_definition_exhaustively() {
        for &g2 in &[(Q - 1) / 88, (Q - 1) / 32] {
            for a in (0..Q).step_by(7).chain(Q - 300..Q) {
                let (a1, a0) = decompose_coeff(g2, a);
                // FIPS 204 Algorithm 36.
                let mut r0 = a % (2 * g2);
                if r0 > g2 {
                    r0 -= 2 * g2;
                }
                let (w1, w0) = if a - r0 == Q - 1 {
                    (0, r0 - 1)
                } else {
                    ((a - r0) / (2 * g2), r0)
                };
                assert_eq!((a1, a0), (w1, w0), "a = {a}, γ2 = {g2}");
            }
        }
    }

    #[test]
    fn use_hint_matches_definition() {
        for &g2 in &[(Q - 1) / 88, (Q - 1) / 32] {
            let m = (Q - 1) / (2 * g2);
            for a in (0..Q).step_by(13).chain(Q - 50..Q) {
                let (a1, a0) = decompose_coeff(g2, a);
                assert_eq!(use_hint_coeff(g2, a, 0), a1);
                let want = if a0 > 0 {
                    (a1 + 1).rem_euclid(m)
                } else {
                    (a1 - 1).rem_euclid(m)
                };
                assert_eq!(use_hint_coeff(g2, a, 1), want);
            }
        }
    }

    #[test]
    fn make_hint_cases() {
        let g2 = (Q - 1) / 32;
        assert_eq!(make_hint_coeff(g2, g2, 5), 0);
        assert_eq!(make_hint_coeff(g2, g2 + 1, 5), 1);
        assert_eq!(make_hint_coeff(g2, -g2, 0), 0);
        assert_eq!(make_hint_coeff(g2, -g2, 3), 1);
        assert_eq!(make_hint_coeff(g2, -g2 - 1, 0), 1);
        assert_eq!(make_hint_coeff(g2, 0, 0), 0);
    }

    #[test]
    fn chknorm_bounds() {
        let mut p = [Poly::default()];
        assert!(!chknorm(&p, 10));
        p[0].coeffs[17] = -10;
        assert!(chknorm(&p, 10));
        assert!(!chknorm(&p, 11));
        p[0].coeffs[17] = 9;
        assert!(!chknorm(&p, 10));
    }
}
