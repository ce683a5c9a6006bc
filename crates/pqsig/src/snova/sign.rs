//! Signing.
//!
//! # What is precomputed
//! The expanded secret key holds flat, row-interleaved matrices ([`super::expand`]): P11
//! (public), T12, F21[mi] = T12ᵀ·P11[mi] + P21[mi] and — for [`ExpandedSigningKey`] —
//! F12[mi] = P11[mi]·T12 + P12[mi] (all secret but P11). The one-shot expansion behind
//! `SigningKey::sign` skips F12 (a 540×108×20 product for SNOVA_I_S) and forms
//! `W_vᵀ·F12 = (W_vᵀ·P11)·T12 + W_vᵀ·P12` per attempt instead, reusing `W_vᵀ·P11`, which
//! the constant term computes anyway: less work for a single signature, the same bytes.
//!
//! # One attempt (counter c = 1, 2, …, 254)
//! 1. vinegar X_v = SHAKE256(s_priv ‖ digest ‖ salt ‖ c) (v blocks l×r), whipped to W_v;
//! 2. constant term Fvv = the public map of P11 at W_v ([`super::eval`]);
//! 3. linear part: `F21·W_v` (one GEMM for every mi: the rows of the row-interleaved F21
//!    are (c, mi)) gathered into `WF21ᵀ` per mi, `WF12ᵀ = W_vᵀ·F12` per mi, both split per
//!    oil block, combined with q2 / q1 per pair (mi, alpha) (GEMMs over the pairs of one
//!    mi' = (mi+alpha) mod m1), then four batched small products (Bᵀ·, ·Q1 and A·, ·Q2; every
//!    batch item at most 8×8), and finally per mi two GEMMs over alpha with the A and B
//!    entries as coefficients. The two results are laid out differently (A pairs with
//!    (equation row, unknown column), B with (equation column, unknown column)) and are
//!    merged into the augmented matrix by one index permutation;
//! 4. constant-time Gaussian elimination (`solve`); a singular system (probability about
//!    1/16 per attempt) is the only data-dependent branch: the next counter is tried, as
//!    the reference does. After 254 singular systems signing fails
//!    ([`Error::RandomnessFailure`]; probability about 16^-254);
//! 5. signature: X_v + T12·X_o ‖ X_o ‖ salt.
//!
//! Every temporary of an attempt lives in one [`Arena`], wiped when signing returns.
//!
//! [`ExpandedSigningKey`]: super::ExpandedSigningKey

use super::abq;
use super::codec;
use super::eval;
use super::expand;
use super::params::{
    ParamSet, DIGEST_LEN, PK_HASH_LEN, SALT_LEN, SEED_LEN, SEED_PRIV_LEN, SEED_PUB_LEN, SK_LEN,
};
use super::scratch::{take, Arena};
use super::scratch::{Buf, SecretVec};
use super::verify::{digest, target};
use crate::error::Error;
use crate::kernels::gf16;
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::Shake256;
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// The expanded secret key (flat matrices; the secret ones wiped on drop).
pub(crate) struct Expanded {
    pub s_priv: Zeroizing<[u8; SEED_PRIV_LEN]>,
    pub pk_hash: [u8; PK_HASH_LEN],
    /// P11 row-interleaved: (v·l) × (m1·v·l) (public).
    pub p11: Buf,
    /// (v·l)×(o·l).
    pub t12: SecretVec,
    /// F12 row-interleaved: (v·l) × (m1·o·l), `F12[x][(mi, c)]`; `None` for the one-shot
    /// expansion of [`super::keys::SigningKey`] (signing then uses
    /// `W_vᵀ·F12 = (W_vᵀ·P11)·T12 + W_vᵀ·P12`, whose first factor the constant term
    /// already computed: cheaper than F12 for one signature).
    pub f12: Option<SecretVec>,
    /// P12 row-interleaved: (v·l) × (m1·o·l) (public).
    pub p12: Buf,
    /// F21 row-interleaved: (o·l) × (m1·v·l), `F21[c][(mi, y)]`.
    pub f21: SecretVec,
}

/// Expands a secret key; `with_f12` also precomputes F12 (for many signatures).
pub(crate) fn expand_sk(ps: ParamSet, b: Backend, sk: &[u8; SK_LEN], with_f12: bool) -> Expanded {
    let sh = ps.shape();
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let abq: &abq::Abq = &abq;
    let (m1, vl, ol) = (sh.m1, sh.vl(), sh.ol());
    let s_pub: &[u8; SEED_PUB_LEN] = sk[..SEED_PUB_LEN].try_into().expect("16 bytes");
    let mut s_priv = Zeroizing::new([0u8; SEED_PRIV_LEN]);
    s_priv.copy_from_slice(&sk[SEED_PUB_LEN..SEED_LEN]);
    let mut pk_hash = [0u8; PK_HASH_LEN];
    pk_hash.copy_from_slice(&sk[SEED_LEN..]);
    let t12 = expand::t12(sh, b, k, abq, &s_priv[..]);
    let pm = expand::public_mats(ps, b, s_pub);

    // F21 (ol × m1·vl, row-interleaved) = T12ᵀ·P11 + P21: one wide GEMM.
    let mut f21 = pm.p21;
    (k.gemm_acc)(
        &mut f21,
        m1 * vl,
        &t12,
        1,
        ol,
        &pm.p11,
        m1 * vl,
        ol,
        vl,
        m1 * vl,
    );
    (k.reduce)(&mut f21);
    // F12[x][(mi, c)] = P11·T12 + P12: P11 read as rows (x, mi), one GEMM.
    let f12 = with_f12.then(|| {
        let mut f12 = pm.p12.duplicate();
        (k.gemm_acc)(&mut f12, ol, &pm.p11, vl, 1, &t12, ol, vl * m1, vl, ol);
        (k.reduce)(&mut f12);
        f12
    });
    Expanded {
        s_priv,
        pk_hash,
        p11: pm.p11,
        t12,
        f12,
        p12: pm.p12,
        f21,
    }
}

/// Signs `msg` with `salt`.
pub(crate) fn sign(
    ps: ParamSet,
    b: Backend,
    ek: &Expanded,
    msg: &[u8],
    salt: &[u8; SALT_LEN],
) -> Result<Vec<u8>, Error> {
    sign_digest(ps, b, ek, &digest(b, msg), salt)
}

/// Signs the message digest `dg` = SHAKE256(msg, 64) with `salt` (the message enters
/// signing only through it, so a digest computed incrementally gives the same bytes).
pub(crate) fn sign_digest(
    ps: ParamSet,
    b: Backend,
    ek: &Expanded,
    dg: &[u8; DIGEST_LEN],
    salt: &[u8; SALT_LEN],
) -> Result<Vec<u8>, Error> {
    let sh = ps.shape();
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let abq: &abq::Abq = &abq;
    let (o, l, r, m1, na, v) = (sh.o, sh.l, sh.r, sh.m1, sh.alpha(), sh.v);
    let (lr, vl, ol, olr, r2, l2) = (sh.lr(), sh.vl(), sh.ol(), sh.olr(), r * r, l * l);
    let items = sh.items();
    let rol = r * ol;
    let stride = olr + 1;

    let t = target(ps, b, &ek.pk_hash, dg, salt);

    // Every secret temporary lives in one arena, wiped on drop.
    let sizes = [
        sh.vinegar_bytes(),         // vinegar bytes
        v * lr,                     // X_v
        vl * lr,                    // W_v
        olr,                        // Fvv
        m1 * lr * ol,               // F21·W_v, rows (c, mi)
        m1 * lr * ol,               // WF12ᵀ
        items * rol,                // T0ᵀ (split per idx), then Uᵀ
        items * rol,                // T1ᵀ (split per idx), then V
        items * rol,                // WF21ᵀ split per idx, then Y (io·l² ≤ items·r·o·l)
        items * rol,                // WF12ᵀ split per idx, then Z
        r2 * o * l2,                // G1
        lr * o * lr,                // G2
        olr * stride,               // augmented matrix
        olr,                        // X_o
        eval::scratch_len(&sh, vl), // eval
    ];
    debug_assert!(l <= r);
    let mut arena = Arena::zeroed(sizes.iter().sum());
    let mut rest = &mut arena[..];
    let mut it = sizes.iter();
    let mut next = || take(&mut rest, *it.next().expect("size"));
    let (vin_bytes, xv, wv, fvv) = (next(), next(), next(), next());
    let (wf21, wf12, t0, t1, t0s, t1s) = (next(), next(), next(), next(), next(), next());
    let (g1, g2, gauss, xo, escratch) = (next(), next(), next(), next(), next());

    for ctr in 1u8..=254 {
        // 1. Vinegar and its whipping.
        let mut h = Shake256::new().with_permutation(permute1_for(b));
        h.absorb(&ek.s_priv[..]);
        h.absorb(dg);
        h.absorb(salt);
        h.absorb(&[ctr]);
        h.squeeze(vin_bytes);
        drop(h);
        codec::unpack(xv, vin_bytes);
        eval::whip(&sh, k, abq, xv, v, wv);

        // 2. Constant term.
        eval::eval(&sh, k, abq, &ek.p11, vl, wv, fvv, escratch);

        // 3. Linear part. F21·W_v: the row-interleaved F21 is m1·o·l rows (c, mi) of v·l,
        // so one GEMM serves every mi; WF21ᵀ[mi] is its transpose, gathered below.
        // WF12ᵀ[mi] = W_vᵀ · F12[mi]: (l·r)×(o·l).
        wf21.fill(0);
        wf12.fill(0);
        (k.gemm_acc)(wf21, lr, &ek.f21, vl, 1, wv, lr, ol * m1, vl, lr);
        for mi in 0..m1 {
            let a = mi * lr * ol;
            let wf12m = &mut wf12[a..a + lr * ol];
            match &ek.f12 {
                Some(f12) => {
                    (k.gemm_acc)(wf12m, ol, wv, 1, lr, &f12[mi * ol..], m1 * ol, lr, vl, ol)
                }
                None => {
                    // (W_vᵀ·P11[mi]) · T12 + W_vᵀ · P12[mi]; W_vᵀ·P11 (reduced) is the
                    // first region of the evaluation scratch.
                    (k.gemm_acc)(
                        wf12m,
                        ol,
                        &escratch[mi * vl..],
                        m1 * vl,
                        1,
                        &ek.t12,
                        ol,
                        lr,
                        vl,
                        ol,
                    );
                    (k.gemm_acc)(
                        wf12m,
                        ol,
                        wv,
                        1,
                        lr,
                        &ek.p12[mi * ol..],
                        m1 * ol,
                        lr,
                        vl,
                        ol,
                    );
                }
            }
        }
        (k.reduce)(wf21);
        (k.reduce)(wf12);
        // Split per oil block, [mi][b][j][(idx, i)] → [mi][b][idx][j][i], so that the pair
        // GEMMs below write T0ᵀ, T1ᵀ already split per (item, idx) (permuting here moves
        // m1·l·r·o·l bytes; after the GEMMs it would be items/(m1·l) ≈ 6–7 times more).
        // WF21ᵀ comes from F21·W_v, [(idx, i, mi)][(b, j)], in the same pass.
        let (wf21s, wf12s) = (&mut t0s[..m1 * lr * ol], &mut t1s[..m1 * lr * ol]);
        gather_wf21(wf21, wf21s, m1, l, r, o);
        split_blocks(wf12, wf12s, m1 * l, r, o, l);
        // Per pair: T0ᵀ = Σ_b q2[b]·WF21ᵀ[mi'](b rows), T1ᵀ = Σ_b q1[b]·WF12ᵀ[mi'](b rows),
        // each (o blocks) × r × l: GEMMs over the pairs of one mi' (stride m1 in alpha).
        t0.fill(0);
        t1.fill(0);
        for mi in 0..o {
            for mp in 0..m1 {
                let a0 = (mp + m1 - mi % m1) % m1;
                if a0 >= na {
                    continue;
                }
                let cnt = (na - a0).div_ceil(m1);
                let it0 = mi * na + a0;
                let src = mp * lr * ol..(mp + 1) * lr * ol;
                (k.gemm_acc)(
                    &mut t0[it0 * rol..],
                    m1 * rol,
                    &abq.q2[it0 * l..],
                    m1 * l,
                    1,
                    &wf21s[src.clone()],
                    rol,
                    cnt,
                    l,
                    rol,
                );
                (k.gemm_acc)(
                    &mut t1[it0 * rol..],
                    m1 * rol,
                    &abq.q1[it0 * l..],
                    m1 * l,
                    1,
                    &wf12s[src],
                    rol,
                    cnt,
                    l,
                    rol,
                );
            }
        }
        (k.reduce)(t0);
        (k.reduce)(t1);
        // Y = Bᵀ·T0s (l×l); Uᵀ = Y·Q1. Z = A·T1s (r×l); V = Z·Q2. Batches of items·o,
        // written over buffers whose contents are no longer needed.
        let (io, ol2, olr_) = (items * o, o * l2, o * lr);
        let (y, z) = (&mut t0s[..io * l2], &mut t1s[..io * lr]);
        (k.mat_mul_batch)(y, &abq.bt_rep, t0, l, r, l);
        (k.mat_mul_batch)(z, &abq.a_rep, t1, r, r, l);
        let (ut, vv) = (&mut t0[..io * l2], &mut t1[..io * lr]);
        (k.mat_mul_batch)(ut, y, &abq.qq1_rep, l, l, l);
        (k.mat_mul_batch)(vv, z, &abq.qq2_rep, r, l, l);

        for mi in 0..o {
            g1.fill(0);
            g2.fill(0);
            let it = mi * na;
            // G1[(ti1,tj2)][(idx,ti2,tj1)] = Σ_alpha A[ti1][tj2] · Uᵀ[idx][ti2][tj1].
            (k.gemm_acc)(
                g1,
                ol2,
                &abq.a[it * r2..],
                1,
                r2,
                &ut[it * ol2..(it + na) * ol2],
                ol2,
                r2,
                na,
                ol2,
            );
            // G2[(tj2,ti2)][(idx,ti1,tj1)] = Σ_alpha B[tj2][ti2] · V[idx][ti1][tj1].
            (k.gemm_acc)(
                g2,
                olr_,
                &abq.b[it * lr..],
                1,
                lr,
                &vv[it * olr_..(it + na) * olr_],
                olr_,
                lr,
                na,
                olr_,
            );
            (k.reduce)(g1);
            (k.reduce)(g2);
            assemble(gauss, stride, g1, g2, &t, fvv, mi, o, l, r);
        }

        // 4. Solve.
        // A singular system restarts with new vinegar: public (docs/ARCHITECTURE.md).
        if !crate::ct::public((k.solve)(gauss, olr, stride, xo)) {
            continue;
        }

        // 5. Signature: X_v += T12 · X_o (flat (v·l)×r += (v·l)×(o·l) · (o·l)×r).
        (k.gemm_acc)(xv, r, &ek.t12, ol, 1, xo, r, vl, ol, r);
        (k.reduce)(xv);
        let mut sig = vec![0u8; sh.sig_len()];
        let vb = v * lr / 2;
        let body = sig.len() - SALT_LEN;
        codec::pack(&mut sig[..vb], xv);
        codec::pack(&mut sig[vb..body], xo);
        sig[body..].copy_from_slice(salt);
        return Ok(sig);
    }
    Err(Error::RandomnessFailure)
}

/// Rows `(mi, ti1, ti2)` of the augmented matrix: column `(idx, tj1, tj2)` is
/// `G1[(ti1,tj2)][(idx,ti2,tj1)] ⊕ G2[(tj2,ti2)][(idx,ti1,tj1)]`, the last column
/// `t ⊕ Fvv`. Read as runs of l contiguous elements of each product, scattered at stride r;
/// specialised for every (l, r) of the Round-3 sets (fully unrolled, one bounds check per
/// run), generic otherwise.
#[allow(clippy::too_many_arguments)]
fn assemble(
    gauss: &mut [u8],
    stride: usize,
    g1: &[u8],
    g2: &[u8],
    t: &[u8],
    fvv: &[u8],
    mi: usize,
    o: usize,
    l: usize,
    r: usize,
) {
    let args = (gauss, stride, g1, g2, t, fvv, mi, o);
    match (l, r) {
        (4, 4) => assemble_lr::<4, 4>(args),
        (4, 5) => assemble_lr::<4, 5>(args),
        (4, 6) => assemble_lr::<4, 6>(args),
        (4, 8) => assemble_lr::<4, 8>(args),
        (5, 5) => assemble_lr::<5, 5>(args),
        (5, 6) => assemble_lr::<5, 6>(args),
        (5, 8) => assemble_lr::<5, 8>(args),
        _ => assemble_generic(args, l, r),
    }
}

type AssembleArgs<'a> = (
    &'a mut [u8],
    usize,
    &'a [u8],
    &'a [u8],
    &'a [u8],
    &'a [u8],
    usize,
    usize,
);

fn assemble_lr<const L: usize, const R: usize>(args: AssembleArgs<'_>) {
    assemble_body::<L, R>(args)
}

fn assemble_generic((gauss, stride, g1, g2, t, fvv, mi, o): AssembleArgs<'_>, l: usize, r: usize) {
    let (lr, l2) = (l * r, l * l);
    let (ol2, olr) = (o * l2, o * lr);
    for ti1 in 0..r {
        for ti2 in 0..l {
            let row = mi * lr + ti1 * l + ti2;
            let grow = &mut gauss[row * stride..(row + 1) * stride];
            for tj2 in 0..r {
                let r1 = &g1[(ti1 * r + tj2) * ol2..][..ol2];
                let r2 = &g2[(tj2 * l + ti2) * olr..][..olr];
                for idx in 0..o {
                    for tj1 in 0..l {
                        grow[idx * lr + tj1 * r + tj2] =
                            r1[idx * l2 + ti2 * l + tj1] ^ r2[idx * lr + ti1 * l + tj1];
                    }
                }
            }
            grow[olr] = t[row] ^ fvv[row];
        }
    }
}

#[inline(always)]
fn assemble_body<const L: usize, const R: usize>(
    (gauss, stride, g1, g2, t, fvv, mi, o): AssembleArgs<'_>,
) {
    let (lr, l2) = (L * R, L * L);
    let (ol2, olr) = (o * l2, o * lr);
    for ti1 in 0..R {
        for ti2 in 0..L {
            let row = mi * lr + ti1 * L + ti2;
            let grow = &mut gauss[row * stride..(row + 1) * stride];
            for tj2 in 0..R {
                let r1 = &g1[(ti1 * R + tj2) * ol2..][..ol2];
                let r2 = &g2[(tj2 * L + ti2) * olr..][..olr];
                for (idx, d) in grow[..olr].chunks_exact_mut(lr).enumerate() {
                    let d: &mut [u8] = d;
                    let x: &[u8; L] = r1[idx * l2 + ti2 * L..][..L].try_into().expect("L");
                    let y: &[u8; L] = r2[idx * lr + ti1 * L..][..L].try_into().expect("L");
                    for tj1 in 0..L {
                        d[tj1 * R + tj2] = x[tj1] ^ y[tj1];
                    }
                }
            }
            grow[olr] = t[row] ^ fvv[row];
        }
    }
}

/// `dst[mi][b][idx][j][i] = src[((idx, i), mi)][(b, j)]`: F21·W_v (rows (c, mi), c = (idx, i),
/// columns (b, j)) to the split WF21ᵀ per mi. Moves m1·o·l·l·r bytes (1.6–4.5 KB).
fn gather_wf21(src: &[u8], dst: &mut [u8], m1: usize, l: usize, r: usize, o: usize) {
    let lr = l * r;
    let mut d = dst.iter_mut();
    for mi in 0..m1 {
        for b in 0..l {
            for idx in 0..o {
                for j in 0..r {
                    for i in 0..l {
                        let row = (idx * l + i) * m1 + mi;
                        *d.next().expect("sized") = src[row * lr + b * r + j];
                    }
                }
            }
        }
    }
}

/// `dst[(item, idx)][j][i] = src[item][j][(idx, i)]` for `rows` = r rows of `o` blocks of
/// `l` elements per item.
fn split_blocks(src: &[u8], dst: &mut [u8], items: usize, rows: usize, o: usize, l: usize) {
    match l {
        4 => split_blocks_l::<4>(src, dst, items, rows, o),
        5 => split_blocks_l::<5>(src, dst, items, rows, o),
        _ => {
            let per = rows * o * l;
            for (s, d) in src
                .chunks_exact(per)
                .zip(dst.chunks_exact_mut(per))
                .take(items)
            {
                for j in 0..rows {
                    for idx in 0..o {
                        let (from, to) = (j * o * l + idx * l, idx * rows * l + j * l);
                        d[to..to + l].copy_from_slice(&s[from..from + l]);
                    }
                }
            }
        }
    }
}

/// [`split_blocks`] with fixed-size moves (no `memmove` calls).
fn split_blocks_l<const L: usize>(src: &[u8], dst: &mut [u8], items: usize, rows: usize, o: usize) {
    let per = rows * o * L;
    for (s, d) in src
        .chunks_exact(per)
        .zip(dst.chunks_exact_mut(per))
        .take(items)
    {
        for (j, srow) in s.chunks_exact(o * L).enumerate() {
            for (idx, piece) in srow.chunks_exact(L).enumerate() {
                let to = idx * rows * L + j * L;
                let d: &mut [u8; L] = (&mut d[to..to + L]).try_into().expect("L bytes");
                *d = piece.try_into().expect("L bytes");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unrolled assembly equals the generic one for every (l, r) of the Round-3 sets.
    #[test]
    fn assemble_specialisations_match_generic() {
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut rnd = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x & 15) as u8
                })
                .collect()
        };
        for (l, r) in [(4, 4), (4, 5), (4, 6), (4, 8), (5, 5), (5, 6), (5, 8)] {
            for (o, mi) in [(3, 0), (5, 2), (6, 5)] {
                let (lr, olr) = (l * r, o * l * r);
                let stride = olr + 1;
                let g1 = rnd(r * r * o * l * l);
                let g2 = rnd(l * r * o * l * r);
                let t = rnd((mi + 1) * lr);
                let fvv = rnd((mi + 1) * lr);
                let mut want = rnd((mi + 1) * lr * stride);
                let mut got = want.clone();
                assemble_generic((&mut want, stride, &g1, &g2, &t, &fvv, mi, o), l, r);
                assemble(&mut got, stride, &g1, &g2, &t, &fvv, mi, o, l, r);
                assert_eq!(got, want, "l={l} r={r} o={o}");
            }
        }
    }
}
