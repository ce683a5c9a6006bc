//! The secret basis in FFT form, its Gram matrix and the LDL tree (ffLDL) of the round-3
//! reference, and the expanded key that stores them.
//!
//! # Layout
//! * B0 = [[g, −f], [G, −F]] as four FFT-domain polynomials `b00 = g`, `b01 = −f`,
//!   `b10 = G`, `b11 = −F`.
//! * Gram matrix G = B0·B0*: `g00 = b00·adj(b00) + b01·adj(b01)`,
//!   `g01 = b00·adj(b10) + b01·adj(b11)`, `g11 = b10·adj(b10) + b11·adj(b11)`.
//! * Tree of degree `n = 2^logn`: `n` values of L10 (FFT form), then the tree of the left
//!   half-size Gram matrix (from D00), then the right one (from D11); a degree-1 tree is
//!   one leaf. Size `(logn + 1)·2^logn` ([`tree_size`]). Each leaf `x` (a Gram–Schmidt
//!   norm squared) is stored normalized as `sqrt(x)/σ` (= 1/σ_leaf, the sampler's
//!   `isigma`), as the reference does.
//!
//! Every step performs the reference's floating-point operations in its order
//! (`expand_privkey`, `ffLDL_fft`, `ffLDL_binary_normalize`).

use crate::error::Error;
use crate::kernels::falcon::fft::FftKernels;
use crate::kernels::falcon::fpr::{self, Fpr};
use crate::kernels::falcon::samplerz::Leaf;
use alloc::vec;
use alloc::vec::Vec;

/// Number of `Fpr` in an LDL tree of degree `2^logn`.
pub const fn tree_size(logn: u32) -> usize {
    ((logn as usize) + 1) << logn
}

/// Overwrites `buf` with zeros in a way the compiler does not elide.
pub(crate) fn wipe_fpr(buf: &mut [Fpr]) {
    let mut chunks = buf.chunks_exact_mut(64);
    for c in &mut chunks {
        if let Ok(a) = <&mut [Fpr; 64]>::try_from(c) {
            crate::wipe::wipe(a, [fpr::ZERO; 64]);
        }
    }
    for x in chunks.into_remainder() {
        crate::wipe::wipe(x, fpr::ZERO);
    }
}

/// A heap buffer of `Fpr` wiped on drop.
pub(crate) struct SecretBuf(pub Vec<Fpr>);

impl SecretBuf {
    pub fn new(len: usize) -> SecretBuf {
        SecretBuf(vec![fpr::ZERO; len])
    }
}

impl Drop for SecretBuf {
    fn drop(&mut self) {
        wipe_fpr(&mut self.0);
    }
}

/// `r[i] = t[i]` as `Fpr`, for the first `n` entries.
pub(crate) fn small_to_fpr(r: &mut [Fpr], t: &[i8]) {
    for (x, &v) in r.iter_mut().zip(t) {
        *x = Fpr::of(v as i64);
    }
}

/// `b = [b00 | b01 | b10 | b11]` (4n values) ← B0 = [[g, −f], [G, −F]] in FFT form.
#[allow(non_snake_case)]
pub(crate) fn basis_fft(
    fk: &FftKernels,
    b: &mut [Fpr],
    f: &[i8],
    g: &[i8],
    F: &[i8],
    G: &[i8],
    logn: u32,
) {
    let n = 1usize << logn;
    let (b00, rest) = b[..4 * n].split_at_mut(n);
    let (b01, rest) = rest.split_at_mut(n);
    let (b10, b11) = rest.split_at_mut(n);
    small_to_fpr(b01, f);
    small_to_fpr(b00, g);
    small_to_fpr(b11, F);
    small_to_fpr(b10, G);
    (fk.fft)(b01, logn);
    (fk.fft)(b00, logn);
    (fk.fft)(b11, logn);
    (fk.fft)(b10, logn);
    (fk.poly_neg)(b01, logn);
    (fk.poly_neg)(b11, logn);
}

/// `gram = [g00 | g01 | g11]` (3n values) ← B0·B0* from `b` (as from [`basis_fft`]);
/// `tmp` holds at least n values.
pub(crate) fn gram(fk: &FftKernels, gram: &mut [Fpr], b: &[Fpr], tmp: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let (b00, b01, b10, b11) = (&b[..n], &b[n..2 * n], &b[2 * n..3 * n], &b[3 * n..4 * n]);
    let (g00, rest) = gram[..3 * n].split_at_mut(n);
    let (g01, g11) = rest.split_at_mut(n);
    let t = &mut tmp[..n];

    g00.copy_from_slice(b00);
    (fk.poly_mulselfadj_fft)(g00, logn);
    t.copy_from_slice(b01);
    (fk.poly_mulselfadj_fft)(t, logn);
    (fk.poly_add)(g00, t, logn);

    g01.copy_from_slice(b00);
    (fk.poly_muladj_fft)(g01, b10, logn);
    t.copy_from_slice(b01);
    (fk.poly_muladj_fft)(t, b11, logn);
    (fk.poly_add)(g01, t, logn);

    g11.copy_from_slice(b10);
    (fk.poly_mulselfadj_fft)(g11, logn);
    t.copy_from_slice(b11);
    (fk.poly_mulselfadj_fft)(t, logn);
    (fk.poly_add)(g11, t, logn);
}

/// Tree of an auto-adjoint quasi-cyclic Gram matrix given by its first row (`g0`, `g1`),
/// both consumed as scratch; `tmp` holds at least `n` values.
fn ffldl_inner(
    fk: &FftKernels,
    tree: &mut [Fpr],
    g0: &mut [Fpr],
    g1: &mut [Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    if logn == 0 {
        tree[0] = g0[0];
        return;
    }
    let n = 1usize << logn;
    let hn = n >> 1;
    let (l10, subtrees) = tree.split_at_mut(n);
    let (left, right) = subtrees.split_at_mut(tree_size(logn - 1));
    // d11 into tmp, L10 into the tree; d00 = g0.
    (fk.poly_ldlmv_fft)(tmp, l10, g0, g1, g0, logn);
    // d00 splits into g1 halves, d11 into g0 halves.
    {
        let (a, b) = g1[..n].split_at_mut(hn);
        (fk.poly_split_fft)(a, b, g0, logn);
    }
    {
        let (a, b) = g0[..n].split_at_mut(hn);
        (fk.poly_split_fft)(a, b, tmp, logn);
    }
    {
        let (a, b) = g1[..n].split_at_mut(hn);
        ffldl_inner(fk, left, a, b, logn - 1, tmp);
    }
    let (a, b) = g0[..n].split_at_mut(hn);
    ffldl_inner(fk, right, a, b, logn - 1, tmp);
}

/// The LDL tree of the Gram matrix (`g00`, `g01`, `g11`, unchanged); `tmp` holds at
/// least 3n values.
pub(crate) fn ffldl(
    fk: &FftKernels,
    tree: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
    logn: u32,
    tmp: &mut [Fpr],
) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (d00, rest) = tmp[..3 * n].split_at_mut(n);
    let (d11, t) = rest.split_at_mut(n);
    let (l10, subtrees) = tree.split_at_mut(n);
    let (left, right) = subtrees.split_at_mut(tree_size(logn - 1));
    d00.copy_from_slice(&g00[..n]);
    (fk.poly_ldlmv_fft)(d11, l10, g00, g01, g11, logn);
    // d00 → t halves; d11 → d00 halves; then t moves to d11.
    {
        let (a, b) = t.split_at_mut(hn);
        (fk.poly_split_fft)(a, b, d00, logn);
    }
    {
        let (a, b) = d00.split_at_mut(hn);
        (fk.poly_split_fft)(a, b, d11, logn);
    }
    d11.copy_from_slice(t);
    {
        let (a, b) = d11.split_at_mut(hn);
        ffldl_inner(fk, left, a, b, logn - 1, t);
    }
    let (a, b) = d00.split_at_mut(hn);
    ffldl_inner(fk, right, a, b, logn - 1, t);
}

/// Replaces each leaf `x` of a tree of degree `2^logn` by `sqrt(x)/σ` (σ of degree
/// `orig_logn`).
fn normalize(tree: &mut [Fpr], orig_logn: u32, logn: u32) {
    if logn == 0 {
        tree[0] = tree[0].sqrt().mul(fpr::INV_SIGMA[orig_logn as usize]);
        return;
    }
    let n = 1usize << logn;
    let (left, right) = tree[n..].split_at_mut(tree_size(logn - 1));
    normalize(left, orig_logn, logn - 1);
    normalize(right, orig_logn, logn - 1);
}

/// Checks the degree and the lengths of f, g, F, G.
#[allow(non_snake_case)]
pub(crate) fn check_key(f: &[i8], g: &[i8], F: &[i8], G: &[i8], logn: u32) -> Result<usize, Error> {
    if !(1..=10).contains(&logn) {
        return Err(Error::InvalidKey);
    }
    let n = 1usize << logn;
    if f.len() != n || g.len() != n || F.len() != n || G.len() != n {
        return Err(Error::InvalidKey);
    }
    Ok(n)
}

/// B0 (4n values) followed by the normalized tree, as the reference's `expand_privkey`
/// lays out its expanded key, then the leaves' sampler constants (n values, see
/// [`leaf_consts`]), and whether every leaf (1/σ) is in the sampler's range
/// (false: the key is not a Falcon key).
#[allow(non_snake_case)]
pub(crate) fn expand(
    fk: &FftKernels,
    f: &[i8],
    g: &[i8],
    F: &[i8],
    G: &[i8],
    logn: u32,
) -> (SecretBuf, bool) {
    let n = 1usize << logn;
    let mut key = SecretBuf::new(4 * n + tree_size(logn) + n);
    let mut tmp = SecretBuf::new(7 * n);
    let (b, rest) = key.0.split_at_mut(4 * n);
    let (tree, lc) = rest.split_at_mut(tree_size(logn));
    basis_fft(fk, b, f, g, F, G, logn);
    let (gm, t) = tmp.0.split_at_mut(3 * n);
    gram(fk, gm, b, t, logn);
    ffldl(
        fk,
        tree,
        &gm[..n],
        &gm[n..2 * n],
        &gm[2 * n..3 * n],
        logn,
        t,
    );
    normalize(tree, logn, logn);
    leaf_consts(tree, logn, fpr::SIGMA_MIN[logn as usize], lc);
    // Key validity (the same for every valid key): all leaves, without early exit.
    let mut ok = true;
    leaves_ok(tree, logn, &mut ok);
    (key, ok)
}

/// `out[i]` ← `ln(ccs)` of leaf `i` of the normalized tree (leaves in the order
/// ffSampling visits them: left subtree first), see [`Leaf`]; `out` has `2^logn` values.
pub(crate) fn leaf_consts(tree: &[Fpr], logn: u32, sigma_min: Fpr, out: &mut [Fpr]) {
    if logn == 0 {
        out[0] = Leaf::new(tree[0], sigma_min).lnccs();
        return;
    }
    let n = 1usize << logn;
    let (left, right) = tree[n..].split_at(tree_size(logn - 1));
    let (ol, or) = out[..n].split_at_mut(n / 2);
    leaf_consts(left, logn - 1, sigma_min, ol);
    leaf_consts(right, logn - 1, sigma_min, or);
}

/// Clears `ok` if a leaf of the normalized tree is out of the sampler's range.
fn leaves_ok(tree: &[Fpr], logn: u32, ok: &mut bool) {
    if logn == 0 {
        *ok &= super::sampler::isigma_ok(tree[0]);
        return;
    }
    let n = 1usize << logn;
    let (left, right) = tree[n..].split_at(tree_size(logn - 1));
    leaves_ok(left, logn - 1, ok);
    leaves_ok(right, logn - 1, ok);
}
