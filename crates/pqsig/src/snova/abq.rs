//! The fixed public constants of a parameter set: the powers of S and the "ABQ" matrices
//! (A, B, Q1, Q2 per equation `mi` and term `alpha`), plus the tables derived from them in
//! the shapes the evaluation code consumes.
//!
//! Round 3 fixes ABQ (`FIXED_ABQ = 1`): they are expanded from SHAKE256("SNOVA_ABQ"), not
//! from the public seed, so they are the same for every key of a shape (the SHAKE and the
//! AES variant of a set share them). The stream is read as nibbles, low first: A (o·alpha
//! r×r matrices), B (o·alpha r×l), q1, q2 (o·alpha × l coefficients). When r = l the
//! square A and B are made invertible by adding f·S for f = 1, 2, … until det ≠ 0
//! (`ABQ_ALG2`); otherwise they are used as drawn. Q = Σ_k q_k S^k. Round 3 has no
//! "non-zero leading coefficient" fix (`ROUND2_T12 = 0`).
//!
//! With `std` each shape's tables are computed once (`OnceLock`); without `std` they are
//! recomputed per operation (a few thousand multiplications; no spin lock needed).

use super::params::Shape;
use crate::kernels::gf16::mul;
use crate::kernels::keccak::f1600::keccak_f1600;
use crate::kernels::keccak::sponge::shake256_on;
use alloc::vec;
use alloc::vec::Vec;

/// S with S[i][j] = 8 − (i + j) (as bit patterns), S₅[4][4] = 9.
pub(crate) fn s_matrix(l: usize) -> Vec<u8> {
    let mut s = vec![0u8; l * l];
    for i in 0..l {
        for j in 0..l {
            s[i * l + j] = (8 - (i + j)) as u8;
        }
    }
    if l == 5 {
        s[24] = 9;
    }
    s
}

fn mat_mul(a: &[u8], b: &[u8], p: usize, k: usize, q: usize) -> Vec<u8> {
    let mut c = vec![0u8; p * q];
    for i in 0..p {
        for j in 0..q {
            let mut s = 0;
            for t in 0..k {
                s ^= mul(a[i * k + t], b[t * q + j]);
            }
            c[i * q + j] = s;
        }
    }
    c
}

/// S^0 .. S^(l-1), each l×l row-major, concatenated (l·l² elements).
pub(crate) fn s_powers(l: usize) -> Vec<u8> {
    let l2 = l * l;
    let s = s_matrix(l);
    let mut out = vec![0u8; l * l2];
    for i in 0..l {
        out[i * l + i] = 1;
    }
    if l > 1 {
        out[l2..2 * l2].copy_from_slice(&s);
        for k in 2..l {
            let p = mat_mul(&s, &out[(k - 1) * l2..k * l2], l, l, l);
            out[k * l2..(k + 1) * l2].copy_from_slice(&p);
        }
    }
    out
}

/// Whether a square public matrix is singular (plain Gaussian elimination; public data).
fn singular(m: &[u8], l: usize) -> bool {
    let mut a = m.to_vec();
    for c in 0..l {
        let Some(p) = (c..l).find(|&r| a[r * l + c] != 0) else {
            return true;
        };
        for j in 0..l {
            a.swap(c * l + j, p * l + j);
        }
        let inv = crate::kernels::gf16::inv(a[c * l + c]);
        for r in c + 1..l {
            let f = mul(a[r * l + c], inv);
            for j in c..l {
                a[r * l + j] ^= mul(f, a[c * l + j]);
            }
        }
    }
    false
}

/// Σ_k q_k S^k.
fn fqs(q: &[u8], sp: &[u8], l: usize) -> Vec<u8> {
    let l2 = l * l;
    let mut m = vec![0u8; l2];
    for (k, &c) in q.iter().enumerate().take(l) {
        for i in 0..l2 {
            m[i] ^= mul(c, sp[k * l2 + i]);
        }
    }
    m
}

/// The fixed ABQ of a shape and the derived tables. Items are the pairs (mi, alpha) in
/// the order `mi·alpha_n + alpha`.
pub(crate) struct Abq {
    /// S^k, k < l (l·l² elements).
    pub s_pows: Vec<u8>,
    /// A per item (r×r).
    pub a: Vec<u8>,
    /// B per item (r×l).
    pub b: Vec<u8>,
    /// q1, q2 per item (l coefficients).
    pub q1: Vec<u8>,
    pub q2: Vec<u8>,
    /// q1[a]·q2[b] per item (l², index a·l + b).
    pub coef: Vec<u8>,
    /// Per mi, the r × (alpha·r) matrix [A_0 | A_1 | …] (row-major).
    pub ah: Vec<u8>,
    /// Bᵀ (l×r), Q1 (l×l, symmetric), A, Q2 repeated o times per item (one copy per oil block `idx`), the
    /// operand layout of the batched products of signing (items·o matrices).
    pub bt_rep: Vec<u8>,
    pub qq1_rep: Vec<u8>,
    pub a_rep: Vec<u8>,
    pub qq2_rep: Vec<u8>,
    /// The whipping map: (l·r) × (l·l·r), `whip[(k,j')][(i,a,j)] = S^a[i][k]·δ(j,j')`, so
    /// that a row of signature blocks `X (l×r)` times `whip` is `[S^a·X]` laid out as rows
    /// i of the whipped matrix (columns (a, j)).
    pub whip: Vec<u8>,
}

impl Abq {
    pub(crate) fn new(sh: Shape) -> Abq {
        let (o, l, r) = (sh.o, sh.l, sh.r);
        let (l2, r2, lr) = (l * l, r * r, l * r);
        let na = sh.alpha();
        let items = o * na;
        let s_pows = s_powers(l);
        let s1 = &s_pows[l2..2 * l2];

        let total = items * (r2 + lr + 2 * l);
        let mut bytes = vec![0u8; total.div_ceil(2)];
        // A constant of the scheme, computed once per process and cached: the portable
        // permutation, so that it belongs to no backend.
        shake256_on(keccak_f1600, &[b"SNOVA_ABQ"], &mut bytes);
        let mut gf = vec![0u8; total];
        super::codec::unpack(&mut gf, &bytes);
        let (ga, rest) = gf.split_at(items * r2);
        let (gb, rest) = rest.split_at(items * lr);
        let (q1, q2) = rest.split_at(items * l);

        let fix = |src: &[u8], rows: usize, cols: usize| -> Vec<u8> {
            let mut m = src.to_vec();
            if rows == l && cols == l {
                let mut f = 1u8;
                while singular(&m, l) && f < 16 {
                    for i in 0..l2 {
                        m[i] ^= mul(f, s1[i]);
                    }
                    f += 1;
                }
            }
            m
        };
        let mut a = Vec::with_capacity(items * r2);
        let mut b = Vec::with_capacity(items * lr);
        let mut bt = vec![0u8; items * lr];
        let mut qq1 = Vec::with_capacity(items * l2);
        let mut qq2 = Vec::with_capacity(items * l2);
        let mut coef = vec![0u8; items * l2];
        for it in 0..items {
            a.extend_from_slice(&fix(&ga[it * r2..(it + 1) * r2], r, r));
            let bm = fix(&gb[it * lr..(it + 1) * lr], r, l);
            for i in 0..r {
                for j in 0..l {
                    bt[it * lr + j * r + i] = bm[i * l + j];
                }
            }
            b.extend_from_slice(&bm);
            qq1.extend_from_slice(&fqs(&q1[it * l..(it + 1) * l], &s_pows, l));
            qq2.extend_from_slice(&fqs(&q2[it * l..(it + 1) * l], &s_pows, l));
            for x in 0..l {
                for y in 0..l {
                    coef[it * l2 + x * l + y] = mul(q1[it * l + x], q2[it * l + y]);
                }
            }
        }
        let mut ah = vec![0u8; o * r * na * r];
        for mi in 0..o {
            for al in 0..na {
                let it = mi * na + al;
                for i in 0..r {
                    for k in 0..r {
                        ah[(mi * r + i) * na * r + al * r + k] = a[it * r2 + i * r + k];
                    }
                }
            }
        }
        let mut whip = vec![0u8; lr * l * lr];
        for k in 0..l {
            for j in 0..r {
                let row = k * r + j;
                for i in 0..l {
                    for ab in 0..l {
                        whip[row * l * lr + i * lr + ab * r + j] = s_pows[ab * l2 + i * l + k];
                    }
                }
            }
        }
        let rep = |src: &[u8], sz: usize| -> Vec<u8> {
            let mut v = Vec::with_capacity(src.len() * o);
            for it in 0..items {
                for _ in 0..o {
                    v.extend_from_slice(&src[it * sz..(it + 1) * sz]);
                }
            }
            v
        };
        let (bt_rep, qq1_rep, a_rep, qq2_rep) =
            (rep(&bt, lr), rep(&qq1, l2), rep(&a, r2), rep(&qq2, l2));
        Abq {
            bt_rep,
            qq1_rep,
            a_rep,
            qq2_rep,
            s_pows,
            a,
            b,
            q1: q1.to_vec(),
            q2: q2.to_vec(),
            coef,
            ah,
            whip,
        }
    }
}

/// A handle on a shape's tables: shared and computed once with `std`, owned without.
pub(crate) struct AbqRef(
    #[cfg(feature = "std")] &'static Abq,
    #[cfg(not(feature = "std"))] alloc::boxed::Box<Abq>,
);

impl core::ops::Deref for AbqRef {
    type Target = Abq;
    // The borrow is needed for the `Box` (no-std) form.
    #[allow(clippy::needless_borrow)]
    fn deref(&self) -> &Abq {
        &self.0
    }
}

/// The tables of shape `sh`.
#[cfg(feature = "std")]
pub(crate) fn get(sh: Shape) -> AbqRef {
    use std::sync::OnceLock;
    static CELLS: [OnceLock<Abq>; 9] = [const { OnceLock::new() }; 9];
    AbqRef(CELLS[sh.base_index()].get_or_init(|| Abq::new(sh)))
}

/// The tables of shape `sh`.
#[cfg(not(feature = "std"))]
pub(crate) fn get(sh: Shape) -> AbqRef {
    AbqRef(alloc::boxed::Box::new(Abq::new(sh)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s_powers_commute_and_are_symmetric() {
        for l in [4usize, 5] {
            let sp = s_powers(l);
            let l2 = l * l;
            for k in 0..l {
                for i in 0..l {
                    for j in 0..l {
                        assert_eq!(sp[k * l2 + i * l + j], sp[k * l2 + j * l + i]);
                    }
                }
            }
        }
    }
}
