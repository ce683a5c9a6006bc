//! Evaluation of the whipped public map, shared by verification (P, the whole signature)
//! and signing (P11, the vinegar part: the constant term Fvv of the linear system).
//!
//! With W the whipped signature (rows (block i, row k), columns (power a, column j):
//! `W[(i,k)][(a,j)] = (S^a·X_i)[k][j]`), the reference's sums become:
//!
//! 1. `Uᵀ = Wᵀ · P` with P row-interleaved (`P[x][(mi, y)]`), so that one GEMM with rows of
//!    m1·dim elements covers all m1 matrices (`Uᵀ[a][(mi, y)] = (P_miᵀ W)[y][a]`);
//! 2. `M[mi] = Uᵀ[mi] · W = Wᵀ P_mi W` ((l·r)×(l·r); its r×r block (a, b) is
//!    `(S^a X)ᵀ P (S^b X)`);
//! 3. per pair (mi, alpha) with mi' = (mi + alpha) mod m1:
//!    `temp1 = Σ_{a,b} q1[a]·q2[b]·M[mi'](a,b)` — GEMMs over the pairs that share mi'
//!    (they sit at stride m1 in alpha), coefficients `q1[a]q2[b]` precomputed;
//! 4. `temp2 = temp1 · B` (batched r×r·r×l);
//! 5. `out[mi] = Σ_alpha A·temp2 = [A_0 | A_1 | …] · [temp2_0; temp2_1; …]` (one GEMM per
//!    mi).
//!
//! Inputs may be secret (signing): every step is a kernel call or a fixed-shape copy.

use super::abq::Abq;
use super::params::Shape;
use super::scratch::take;
use crate::kernels::gf16::Kernels;

/// Whips the blocks `x` (`rows` blocks of l×r, i.e. a (rows·l)×r flat matrix) into
/// `w` ((rows·l) × (l·r)): one GEMM with the whipping map.
pub(crate) fn whip(sh: &Shape, k: &Kernels, abq: &Abq, x: &[u8], rows: usize, w: &mut [u8]) {
    let lr = sh.lr();
    w[..rows * sh.l * lr].fill(0);
    (k.gemm_acc)(
        w,
        sh.l * lr,
        x,
        lr,
        1,
        &abq.whip,
        sh.l * lr,
        rows,
        lr,
        sh.l * lr,
    );
    (k.reduce)(&mut w[..rows * sh.l * lr]);
}

/// `out` (o·l·r, reduced; per mi an r×l matrix) = the whipped map of the m1 `dim × dim`
/// matrices in `p` (row-interleaved: dim × m1·dim) at the whipped signature `w`
/// (dim × l·r).
///
/// `scratch` (at least [`scratch_len`] bytes) holds the temporaries; they depend on `w`
/// (secret when signing): the caller wipes it. On return its first `m1·dim·l·r` bytes
/// hold `Wᵀ·P` (reduced, `l·r × m1·dim`), which signing reuses.
#[allow(clippy::too_many_arguments)]
pub(crate) fn eval(
    sh: &Shape,
    k: &Kernels,
    abq: &Abq,
    p: &[u8],
    dim: usize,
    w: &[u8],
    out: &mut [u8],
    scratch: &mut [u8],
) {
    let (m1, lr) = (sh.m1, sh.lr());
    // 1. Uᵀ = Wᵀ · P (lr × m1·dim): P row-interleaved, one wide GEMM for all mi.
    let ut = &mut scratch[..m1 * dim * lr];
    ut.fill(0);
    (k.gemm_acc)(ut, m1 * dim, w, 1, lr, p, m1 * dim, lr, dim, m1 * dim);
    (k.reduce)(ut);
    eval_from_ut(sh, k, abq, dim, w, out, scratch);
}

/// [`eval`] from step 2 on, with `Uᵀ = Wᵀ·P` (reduced, `l·r × m1·dim`) already in the first
/// `m1·dim·l·r` bytes of `scratch` (the streamed verifier accumulates it block row by
/// block row while decoding P).
pub(crate) fn eval_from_ut(
    sh: &Shape,
    k: &Kernels,
    abq: &Abq,
    dim: usize,
    w: &[u8],
    out: &mut [u8],
    scratch: &mut [u8],
) {
    let (o, l, r, m1, na) = (sh.o, sh.l, sh.r, sh.m1, sh.alpha());
    let (lr, l2, r2) = (sh.lr(), l * l, r * r);
    let items = sh.items();
    let mut rest = &mut scratch[..scratch_len(sh, dim)];
    let ut = take(&mut rest, m1 * dim * lr);
    let m = take(&mut rest, m1 * lr * lr);
    let mblk = take(&mut rest, m1 * l2 * r2);
    let temp1 = take(&mut rest, items * r2);
    let temp2 = take(&mut rest, items * lr);
    m.fill(0);
    temp1.fill(0);

    // 2. M[mi] = Uᵀ[mi] · W = Wᵀ·P_mi·W (A read from the mi-th column block of Uᵀ).
    for mi in 0..m1 {
        (k.gemm_acc)(
            &mut m[mi * lr * lr..(mi + 1) * lr * lr],
            lr,
            &ut[mi * dim..],
            m1 * dim,
            1,
            w,
            lr,
            lr,
            dim,
            lr,
        );
    }
    (k.reduce)(m);
    // Blocks: mblk[mi][(a,b)][(i,j)] = M[mi][(a,i)][(b,j)].
    for mi in 0..m1 {
        for a in 0..l {
            for b in 0..l {
                for i in 0..r {
                    let s = mi * lr * lr + (a * r + i) * lr + b * r;
                    let d = mi * l2 * r2 + (a * l + b) * r2 + i * r;
                    mblk[d..d + r].copy_from_slice(&m[s..s + r]);
                }
            }
        }
    }

    // 3. temp1 per pair.
    for mi in 0..o {
        for mp in 0..m1 {
            let a0 = (mp + m1 - mi % m1) % m1;
            if a0 >= na {
                continue;
            }
            let cnt = (na - a0).div_ceil(m1);
            let it0 = mi * na + a0;
            (k.gemm_acc)(
                &mut temp1[it0 * r2..],
                m1 * r2,
                &abq.coef[it0 * l2..],
                m1 * l2,
                1,
                &mblk[mp * l2 * r2..(mp + 1) * l2 * r2],
                r2,
                cnt,
                l2,
                r2,
            );
        }
    }
    (k.reduce)(temp1);

    // 4. temp2 = temp1 · B.
    (k.mat_mul_batch)(temp2, temp1, &abq.b, r, r, l);

    // 5. out[mi] = [A…] · [temp2…].
    out[..o * lr].fill(0);
    for mi in 0..o {
        (k.gemm_acc)(
            &mut out[mi * lr..(mi + 1) * lr],
            l,
            &abq.ah[mi * r * na * r..(mi + 1) * r * na * r],
            na * r,
            1,
            &temp2[mi * na * lr..(mi + 1) * na * lr],
            l,
            r,
            na * r,
            l,
        );
    }
    (k.reduce)(&mut out[..o * lr]);
}

/// Bytes of scratch [`eval`] needs for `dim`-row matrices.
pub(crate) fn scratch_len(sh: &Shape, dim: usize) -> usize {
    let (l, r, m1) = (sh.l, sh.r, sh.m1);
    let lr = sh.lr();
    m1 * dim * lr + m1 * lr * lr + m1 * l * l * r * r + sh.items() * (r * r + lr)
}
