//! Fast Fourier sampling (ffSampling) in its two round-3 forms:
//!
//! * [`with_tree`]: over a precomputed, normalized LDL tree (expanded key). The two lowest
//!   recursion levels (degrees 4 and 2) are unrolled with the reference's constants
//!   (`1/√8` and `1/√2` instead of the general twiddle products), because the reference
//!   does so and its floating-point results differ in the last bits from the general
//!   split/merge; matching it keeps signatures identical to the reference's `sign_tree`.
//! * [`dynamic`]: recomputes the LDL decomposition on the way down from the Gram matrix
//!   (the reference's `ffSampling_fft_dyntree`), normalizing each leaf when it is reached.
//!
//! Both consume the sampler's stream in the same order: at each node, the right subtree
//! (target t1) first, then the left one (t0 corrected by L10); at a leaf, the real then
//! the imaginary coordinate.

use super::ops::{Inline, PolyOps, INLINE_MAX_LOGN};
use super::sampler::Sampler;
use super::tree::tree_size;
use crate::kernels::falcon::fpr::{self, Fpr};

/// Complex product (the reference's operation order).
#[inline(always)]
fn cmul(a: (Fpr, Fpr), b: (Fpr, Fpr)) -> (Fpr, Fpr) {
    (
        a.0.mul(b.0).sub(a.1.mul(b.1)),
        a.0.mul(b.1).add(a.1.mul(b.0)),
    )
}

/// Split of a degree-4 FFT polynomial `[re0, re1, im0, im1]` into its two degree-2
/// halves, each as (re, im), with the unrolled formulas.
#[inline(always)]
fn split4(t: [Fpr; 4]) -> ((Fpr, Fpr), (Fpr, Fpr)) {
    let (a_re, a_im, b_re, b_im) = (t[0], t[2], t[1], t[3]);
    let s_re = a_re.add(b_re);
    let s_im = a_im.add(b_im);
    let d_re = a_re.sub(b_re);
    let d_im = a_im.sub(b_im);
    (
        (s_re.half(), s_im.half()),
        (
            d_re.add(d_im).mul(fpr::INVSQRT8),
            d_im.sub(d_re).mul(fpr::INVSQRT8),
        ),
    )
}

/// Merge of two degree-2 halves into a degree-4 FFT polynomial (unrolled formulas).
#[inline(always)]
fn merge4(a: (Fpr, Fpr), b: (Fpr, Fpr)) -> [Fpr; 4] {
    let c_re = b.0.sub(b.1).mul(fpr::INVSQRT2);
    let c_im = b.0.add(b.1).mul(fpr::INVSQRT2);
    [a.0.add(c_re), a.0.sub(c_re), a.1.add(c_im), a.1.sub(c_im)]
}

/// Degree 2 (one complex value per target): `tree = [l10_re, l10_im, leaf0, leaf1]`.
/// Returns (z0, z1).
#[inline(always)]
fn leaf2(
    samp: &mut Sampler,
    tree: &[Fpr],
    lc: &[Fpr],
    t0: (Fpr, Fpr),
    t1: (Fpr, Fpr),
) -> ((Fpr, Fpr), (Fpr, Fpr)) {
    let z1 = samp.pair_leaf(t1.0, t1.1, tree[3], lc[1]);
    let c = cmul((t1.0.sub(z1.0), t1.1.sub(z1.1)), (tree[0], tree[1]));
    let z0 = samp.pair_leaf(c.0.add(t0.0), c.1.add(t0.1), tree[2], lc[0]);
    (z0, z1)
}

/// Degree 4, unrolled as in the reference.
#[allow(clippy::too_many_arguments)]
fn deg4(
    samp: &mut Sampler,
    z0: &mut [Fpr],
    z1: &mut [Fpr],
    tree: &[Fpr],
    lc: &[Fpr],
    t0: &[Fpr],
    t1: &[Fpr],
) {
    let (tree0, tree1) = (&tree[4..8], &tree[8..12]);
    let t1v = [t1[0], t1[1], t1[2], t1[3]];
    let (h0, h1) = split4(t1v);
    let (a, b) = leaf2(samp, tree1, &lc[2..4], h0, h1);
    let zz1 = merge4(a, b);
    z1[..4].copy_from_slice(&zz1);
    // tb0 = t0 + (t1 − z1)·L10, slot by slot.
    let w: [Fpr; 4] = core::array::from_fn(|i| t1v[i].sub(zz1[i]));
    let p0 = cmul((w[0], w[2]), (tree[0], tree[2]));
    let p1 = cmul((w[1], w[3]), (tree[1], tree[3]));
    let tb0 = [
        p0.0.add(t0[0]),
        p1.0.add(t0[1]),
        p0.1.add(t0[2]),
        p1.1.add(t0[3]),
    ];
    let (h0, h1) = split4(tb0);
    let (a, b) = leaf2(samp, tree0, &lc[..2], h0, h1);
    z0[..4].copy_from_slice(&merge4(a, b));
}

/// ffSampling over a normalized tree of degree `2^logn` (logn 1..=10), with the leaves'
/// sampler constants `lc` (n values, in leaf order): `(z0, z1)` ← a sample near the
/// target `(t0, t1)`. `z0`, `z1` hold n values each (z1 is also used as
/// scratch); `tmp` at least 2n.
#[allow(clippy::too_many_arguments)]
pub(crate) fn with_tree<O: PolyOps>(
    fk: &O,
    samp: &mut Sampler,
    z0: &mut [Fpr],
    z1: &mut [Fpr],
    tree: &[Fpr],
    lc: &[Fpr],
    t0: &[Fpr],
    t1: &[Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    if logn == 1 {
        let (a, b) = leaf2(samp, tree, lc, (t0[0], t0[1]), (t1[0], t1[1]));
        z0[0] = a.0;
        z0[1] = a.1;
        z1[0] = b.0;
        z1[1] = b.1;
        return;
    }
    if logn == 2 {
        deg4(samp, z0, z1, tree, lc, t0, t1);
        return;
    }
    let n = 1usize << logn;
    let hn = n >> 1;
    let (l10, subtrees) = tree.split_at(n);
    let (tree0, tree1) = subtrees.split_at(tree_size(logn - 1));
    let (lc0, lc1) = lc[..n].split_at(hn);
    let (z0, z1) = (&mut z0[..n], &mut z1[..n]);
    let (out, scratch) = tmp.split_at_mut(n);

    // Right subtree on the split t1 (split into z1, sampled into `out`, merged to z1).
    {
        let (a, b) = z1.split_at_mut(hn);
        fk.split(a, b, t1, logn);
    }
    {
        let (oa, ob) = out.split_at_mut(hn);
        let (a, b) = z1.split_at(hn);
        with_tree_child(fk, samp, oa, ob, tree1, lc1, a, b, logn - 1, scratch);
    }
    {
        let (oa, ob) = out.split_at(hn);
        fk.merge(z1, oa, ob, logn);
    }

    // tb0 = t0 + (t1 − z1)·L10 into `out`.
    out.copy_from_slice(&t1[..n]);
    fk.sub(out, z1, logn);
    fk.mul(out, l10, logn);
    fk.add(out, t0, logn);

    // Left subtree on the split tb0 (split into z0, sampled into `out`, merged to z0).
    {
        let (a, b) = z0.split_at_mut(hn);
        fk.split(a, b, out, logn);
    }
    {
        let (oa, ob) = out.split_at_mut(hn);
        let (a, b) = z0.split_at(hn);
        with_tree_child(fk, samp, oa, ob, tree0, lc0, a, b, logn - 1, scratch);
    }
    let (oa, ob) = out.split_at(hn);
    fk.merge(z0, oa, ob, logn);
}

/// ffSampling with the LDL tree recomputed on the fly: `(t0, t1)` ← a sample near the
/// target `(t0, t1)`, from the Gram matrix `(g00, g01, g11)` of degree `2^logn` (all
/// three consumed). Leaves are normalized with σ of degree `orig_logn`. `tmp` holds at
/// least 4n values.
#[allow(clippy::too_many_arguments)]
pub(crate) fn dynamic<O: PolyOps>(
    fk: &O,
    samp: &mut Sampler,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    g00: &mut [Fpr],
    g01: &mut [Fpr],
    g11: &mut [Fpr],
    orig_logn: u32,
    logn: u32,
    tmp: &mut [Fpr],
) {
    if logn == 0 {
        let leaf = g00[0].sqrt().mul(fpr::INV_SIGMA[orig_logn as usize]);
        let (a, b) = samp.pair(t0[0], t1[0], leaf);
        t0[0] = a;
        t1[0] = b;
        return;
    }
    let n = 1usize << logn;
    let hn = n >> 1;
    let (g00, g01, g11) = (&mut g00[..n], &mut g01[..n], &mut g11[..n]);
    let (t0, t1) = (&mut t0[..n], &mut t1[..n]);

    // In place: g01 ← L10, g11 ← D11 (D00 = g00).
    fk.ldl(g00, g01, g11, logn);

    // Split D00 and D11 in place (through tmp), keep L10 in tmp[0..n], and build the two
    // half-size Gram matrices: left (g00[..hn], g00[hn..], g01[..hn]) and right
    // (g11[..hn], g11[hn..], g01[hn..]).
    let (l10, rest) = tmp.split_at_mut(n);
    {
        let (a, b) = l10.split_at_mut(hn);
        fk.split(a, b, g00, logn);
    }
    g00.copy_from_slice(l10);
    {
        let (a, b) = l10.split_at_mut(hn);
        fk.split(a, b, g11, logn);
    }
    g11.copy_from_slice(l10);
    l10.copy_from_slice(g01);
    g01[..hn].copy_from_slice(&g00[..hn]);
    g01[hn..].copy_from_slice(&g11[..hn]);

    // Right subtree on the split t1: z1 in rest[0..n], merged into rest[n..2n].
    let (z1, rest) = rest.split_at_mut(n);
    {
        let (a, b) = z1.split_at_mut(hn);
        fk.split(a, b, t1, logn);
    }
    {
        let (za, zb) = z1.split_at_mut(hn);
        let (ga, gb) = g11.split_at_mut(hn);
        dynamic_child(
            fk,
            samp,
            za,
            zb,
            ga,
            gb,
            &mut g01[hn..],
            orig_logn,
            logn - 1,
            rest,
        );
    }
    let merged = &mut rest[..n];
    {
        let (a, b) = z1.split_at(hn);
        fk.merge(merged, a, b, logn);
    }

    // tb0 = t0 + (t1 − z1)·L10 into t0; z1 replaces t1.
    z1.copy_from_slice(t1);
    fk.sub(z1, merged, logn);
    t1.copy_from_slice(merged);
    fk.mul(l10, z1, logn);
    fk.add(t0, l10, logn);

    // Left subtree on the split tb0 (split into tmp[0..n]), merged back into t0.
    let (z0, rest) = tmp.split_at_mut(n);
    {
        let (a, b) = z0.split_at_mut(hn);
        fk.split(a, b, t0, logn);
    }
    {
        let (za, zb) = z0.split_at_mut(hn);
        let (ga, gb) = g00.split_at_mut(hn);
        dynamic_child(
            fk,
            samp,
            za,
            zb,
            ga,
            gb,
            &mut g01[..hn],
            orig_logn,
            logn - 1,
            rest,
        );
    }
    let (a, b) = z0.split_at(hn);
    fk.merge(t0, a, b, logn);
}

/// [`with_tree`] on a subtree of degree 8 or 16 (`$logn` 3 or 4) with the inputs and
/// outputs in local arrays: the same operations through [`Inline`], unrolled at a
/// constant degree, so the values stay in registers along ffSampling's dependency chain.
macro_rules! small_tree {
    ($name:ident, $logn:expr, $child:ident) => {
        #[inline(always)]
        fn $name(
            samp: &mut Sampler,
            z0: &mut [Fpr; 1 << $logn],
            z1: &mut [Fpr; 1 << $logn],
            tree: &[Fpr],
            lc: &[Fpr],
            t0: &[Fpr; 1 << $logn],
            t1: &[Fpr; 1 << $logn],
        ) {
            const N: usize = 1 << $logn;
            const HN: usize = N / 2;
            let (l10, subtrees) = tree.split_at(N);
            let (tree0, tree1) = subtrees.split_at(tree_size($logn - 1));
            let (lc0, lc1) = lc[..N].split_at(HN);
            let (mut a, mut b) = ([fpr::ZERO; HN], [fpr::ZERO; HN]);
            let (mut oa, mut ob) = ([fpr::ZERO; HN], [fpr::ZERO; HN]);
            // Right subtree on the split t1, merged into z1.
            Inline.split(&mut a, &mut b, t1, $logn);
            $child(samp, &mut oa, &mut ob, tree1, lc1, &a, &b);
            Inline.merge(z1, &oa, &ob, $logn);
            // tb0 = t0 + (t1 − z1)·L10.
            let mut tb = *t1;
            Inline.sub(&mut tb, z1, $logn);
            Inline.mul(&mut tb, l10, $logn);
            Inline.add(&mut tb, t0, $logn);
            // Left subtree on the split tb0, merged into z0.
            Inline.split(&mut a, &mut b, &tb, $logn);
            $child(samp, &mut oa, &mut ob, tree0, lc0, &a, &b);
            Inline.merge(z0, &oa, &ob, $logn);
        }
    };
}

/// [`deg4`] on arrays.
#[inline(always)]
fn deg4a(
    samp: &mut Sampler,
    z0: &mut [Fpr; 4],
    z1: &mut [Fpr; 4],
    tree: &[Fpr],
    lc: &[Fpr],
    t0: &[Fpr; 4],
    t1: &[Fpr; 4],
) {
    deg4(samp, z0, z1, tree, lc, t0, t1)
}

small_tree!(deg8, 3, deg4a);
small_tree!(deg16, 4, deg8);

/// [`with_tree`] at degree 16 or 8 through [`deg16`] / [`deg8`]: the slices are copied
/// into arrays and back.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn with_tree_small(
    samp: &mut Sampler,
    z0: &mut [Fpr],
    z1: &mut [Fpr],
    tree: &[Fpr],
    lc: &[Fpr],
    t0: &[Fpr],
    t1: &[Fpr],
    logn: u32,
) {
    macro_rules! run {
        ($f:ident, $n:expr) => {{
            let mut a0 = [fpr::ZERO; $n];
            let mut a1 = [fpr::ZERO; $n];
            let mut b0 = [fpr::ZERO; $n];
            let mut b1 = [fpr::ZERO; $n];
            b0.copy_from_slice(&t0[..$n]);
            b1.copy_from_slice(&t1[..$n]);
            $f(samp, &mut a0, &mut a1, tree, lc, &b0, &b1);
            z0[..$n].copy_from_slice(&a0);
            z1[..$n].copy_from_slice(&a1);
        }};
    }
    if logn == 4 {
        run!(deg16, 16)
    } else {
        run!(deg8, 8)
    }
}

/// [`with_tree`] one level down: the unrolled small-degree code at degrees 16 and 8,
/// inlined scalar operations at lower degrees, `fk` above [`INLINE_MAX_LOGN`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn with_tree_child<O: PolyOps>(
    fk: &O,
    samp: &mut Sampler,
    z0: &mut [Fpr],
    z1: &mut [Fpr],
    tree: &[Fpr],
    lc: &[Fpr],
    t0: &[Fpr],
    t1: &[Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    if logn == 3 || logn == 4 {
        with_tree_small(samp, z0, z1, tree, lc, t0, t1, logn)
    } else if logn <= INLINE_MAX_LOGN {
        with_tree(&Inline, samp, z0, z1, tree, lc, t0, t1, logn, tmp)
    } else {
        with_tree(fk, samp, z0, z1, tree, lc, t0, t1, logn, tmp)
    }
}

/// [`dynamic`] one level down (see [`with_tree_child`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn dynamic_child<O: PolyOps>(
    fk: &O,
    samp: &mut Sampler,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    g00: &mut [Fpr],
    g01: &mut [Fpr],
    g11: &mut [Fpr],
    orig_logn: u32,
    logn: u32,
    tmp: &mut [Fpr],
) {
    if logn <= INLINE_MAX_LOGN {
        dynamic(&Inline, samp, t0, t1, g00, g01, g11, orig_logn, logn, tmp)
    } else {
        dynamic(fk, samp, t0, t1, g00, g01, g11, orig_logn, logn, tmp)
    }
}
