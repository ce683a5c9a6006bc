//! Portable NTT for q = 8380417: Cooley–Tukey forward (bit-reversed output, the FIPS 204
//! order), Gentleman–Sande inverse, Montgomery twiddles.

use super::super::{Poly, N};
use super::reduce::montgomery_reduce;

// The Montgomery-form twiddles, computed with the SIMD backends' tables (`zetas`).
pub(crate) use super::super::zetas::ZETAS;

/// Forward NTT of one polynomial. In: |a| < q. Out: |a| < 9q.
pub(crate) fn ntt_poly(a: &mut [i32; N]) {
    let mut k = 0;
    let mut len = 128;
    while len > 0 {
        let mut start = 0;
        while start < N {
            k += 1;
            let zeta = ZETAS[k] as i64;
            for j in start..start + len {
                let t = montgomery_reduce(zeta * a[j + len] as i64);
                a[j + len] = a[j] - t;
                a[j] += t;
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// Inverse NTT times 2^32. In: |a| < q. Out: |a| < q/2 + 2^-32·41978·256q < 0.51q (the final
/// Montgomery multiplication by F bounds it).
pub(crate) fn invntt_poly(a: &mut [i32; N]) {
    // 41978 = 2^64 / 256 mod q: undoes the Montgomery factor of the last multiplication,
    // divides by n and leaves the output multiplied by 2^32.
    const F: i64 = 41978;
    let mut k = N;
    let mut len = 1;
    while len < N {
        let mut start = 0;
        while start < N {
            k -= 1;
            let zeta = -(ZETAS[k] as i64);
            for j in start..start + len {
                let t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = t - a[j + len];
                a[j + len] = montgomery_reduce(zeta * a[j + len] as i64);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    for x in a.iter_mut() {
        *x = montgomery_reduce(F * *x as i64);
    }
}

pub fn ntt(a: &mut [Poly]) {
    for p in a.iter_mut() {
        ntt_poly(&mut p.coeffs);
    }
}

pub fn invntt_tomont(a: &mut [Poly]) {
    for p in a.iter_mut() {
        invntt_poly(&mut p.coeffs);
    }
}

pub fn pointwise_montgomery(out: &mut [Poly], c: &Poly, v: &[Poly]) {
    for (o, p) in out.iter_mut().zip(v) {
        for i in 0..N {
            o.coeffs[i] = montgomery_reduce(c.coeffs[i] as i64 * p.coeffs[i] as i64);
        }
    }
}

pub fn matvec_montgomery(out: &mut [Poly], mat: &[Poly], v: &[Poly]) {
    let l = v.len();
    for (i, o) in out.iter_mut().enumerate() {
        let row = &mat[i * l..(i + 1) * l];
        for c in 0..N {
            // Accumulate in i64 and reduce once: each product < 2^31·q... sum of ≤ 8 products
            // of reduced inputs (|x| < 9q, |y| < q) stays far below 2^63, and the final
            // Montgomery input must be ≤ 2^31·q: true for |Σ| ≤ 8·9q·q < 2^31·q.
            let mut acc = 0i64;
            for (a, b) in row.iter().zip(v) {
                acc += a.coeffs[c] as i64 * b.coeffs[c] as i64;
            }
            o.coeffs[c] = montgomery_reduce(acc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::mldsa::Q;

    /// Schoolbook negacyclic product mod q.
    fn schoolbook(a: &[i32; N], b: &[i32; N]) -> [i32; N] {
        let q = Q as i64;
        let mut r = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = a[i] as i64 * b[j] as i64 % q;
                if i + j < N {
                    r[i + j] += p;
                } else {
                    r[i + j - N] -= p;
                }
            }
        }
        core::array::from_fn(|i| r[i].rem_euclid(q) as i32)
    }

    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let mut a = [0i32; N];
        let mut b = [0i32; N];
        let mut s = 12345u32;
        for i in 0..N {
            s = s.wrapping_mul(1103515245).wrapping_add(12345);
            a[i] = (s >> 8) as i32 % Q;
            s = s.wrapping_mul(1103515245).wrapping_add(12345);
            b[i] = (s >> 8) as i32 % 5 - 2;
        }
        let want = schoolbook(&a, &b);
        let mut pa = [Poly { coeffs: a }];
        let mut pb = Poly { coeffs: b };
        ntt(&mut pa);
        ntt(core::slice::from_mut(&mut pb));
        let mut out = [Poly::default()];
        pointwise_montgomery(&mut out, &pb, &pa);
        invntt_tomont(&mut out);
        #[allow(clippy::needless_range_loop)] // i names the coefficient in the message
        for i in 0..N {
            assert_eq!(
                (out[0].coeffs[i] as i64).rem_euclid(Q as i64) as i32,
                want[i]
            );
        }
    }
}
