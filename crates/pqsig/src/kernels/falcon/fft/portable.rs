//! Portable FFT kernels: plain Rust over the `Fpr` API only, so the same code runs on the
//! native `f64` and on the integer emulation.
//!
//! Every function performs, element by element, the same binary64 operations in the same
//! order as the round-3 reference (`fft.c`): the complex product is
//! `(a_re·b_re − a_im·b_im, a_re·b_im + a_im·b_re)`, a quotient first inverts
//! `b_re² + b_im²` and multiplies the conjugate by it, and no operation is fused. Loop
//! nesting differs (slices instead of index arithmetic) but no value is computed
//! differently, so outputs are bit-identical to the reference's.
//!
//! Slices may be longer than required; only the first `n` (or `n/2`) entries are read or
//! written. A shorter slice panics (a caller bug, never input-dependent).

use super::{gm, P2_TAB};
use crate::kernels::falcon::fpr::{Fpr, ZERO};

/// `a · b` for complex numbers given as (re, im).
#[inline(always)]
fn cmul(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    (
        a_re.mul(b_re).sub(a_im.mul(b_im)),
        a_re.mul(b_im).add(a_im.mul(b_re)),
    )
}

/// `a / b`: `m = 1/(b_re² + b_im²)`, then `a · (b_re·m, (−b_im)·m)`.
#[inline(always)]
fn cdiv(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    let m = b_re.sqr().add(b_im.sqr()).inv();
    cmul(a_re, a_im, b_re.mul(m), b_im.neg().mul(m))
}

/// Degree `n = 2^logn` and half-degree, with the supported range checked.
#[inline(always)]
fn dims(logn: u32) -> (usize, usize) {
    assert!(
        (1..=10).contains(&logn),
        "Falcon FFT: logn must be in 1..=10"
    );
    let n = 1usize << logn;
    (n, n >> 1)
}

/// Forward FFT in place (real coefficients in, `n/2` real parts then `n/2` imaginary
/// parts out, in the reference's bit-reversed order).
///
/// Bounds: finite inputs; each output has magnitude at most `n · max|f|`.
pub fn fft(f: &mut [Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (re, im) = f[..n].split_at_mut(hn);
    // The layer by i (twiddle index 1) is free in the half representation; the others
    // pair index j with j + ht inside blocks of t = 2·ht entries, block i1 using twiddle
    // m + i1.
    let mut t = hn;
    let mut m = 2;
    for _ in 1..logn {
        let ht = t >> 1;
        for (i1, (bre, bim)) in re
            .chunks_exact_mut(t)
            .zip(im.chunks_exact_mut(t))
            .enumerate()
        {
            let (s_re, s_im) = gm(m + i1);
            let (xre, yre) = bre.split_at_mut(ht);
            let (xim, yim) = bim.split_at_mut(ht);
            for j in 0..ht {
                let (x_re, x_im) = (xre[j], xim[j]);
                let (y_re, y_im) = cmul(yre[j], yim[j], s_re, s_im);
                xre[j] = x_re.add(y_re);
                xim[j] = x_im.add(y_im);
                yre[j] = x_re.sub(y_re);
                yim[j] = x_im.sub(y_im);
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse FFT in place (FFT representation in, real coefficients out).
///
/// The last layer is folded into the final scaling by `2/n` (`P2_TAB[logn]`), as the
/// reference does. Bounds: finite inputs; outputs at most `2 · max|F|` in magnitude.
pub fn ifft(f: &mut [Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (re, im) = f[..n].split_at_mut(hn);
    // Blocks of dt = 2t entries pair j with j + t: x + y stays, (x − y)·conj(s) goes up,
    // with s the twiddle hm + (block index).
    let mut t = 1;
    let mut hm = n >> 1;
    for _ in 1..logn {
        let dt = t << 1;
        for (i1, (bre, bim)) in re
            .chunks_exact_mut(dt)
            .zip(im.chunks_exact_mut(dt))
            .enumerate()
        {
            let (s_re, s_im) = gm(hm + i1);
            let s_im = s_im.neg();
            let (xre, yre) = bre.split_at_mut(t);
            let (xim, yim) = bim.split_at_mut(t);
            for j in 0..t {
                let (x_re, x_im) = (xre[j], xim[j]);
                let (y_re, y_im) = (yre[j], yim[j]);
                xre[j] = x_re.add(y_re);
                xim[j] = x_im.add(y_im);
                let (d_re, d_im) = (x_re.sub(y_re), x_im.sub(y_im));
                let (z_re, z_im) = cmul(d_re, d_im, s_re, s_im);
                yre[j] = z_re;
                yim[j] = z_im;
            }
        }
        t = dt;
        hm >>= 1;
    }
    let ni = P2_TAB[logn as usize];
    for x in re.iter_mut().chain(im.iter_mut()) {
        *x = x.mul(ni);
    }
}

/// `a ← a + b` coefficient-wise (either domain).
pub fn poly_add(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let (n, _) = dims(logn);
    for (x, &y) in a[..n].iter_mut().zip(&b[..n]) {
        *x = x.add(y);
    }
}

/// `a ← a − b` coefficient-wise (either domain).
pub fn poly_sub(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let (n, _) = dims(logn);
    for (x, &y) in a[..n].iter_mut().zip(&b[..n]) {
        *x = x.sub(y);
    }
}

/// `a ← −a` (either domain).
pub fn poly_neg(a: &mut [Fpr], logn: u32) {
    let (n, _) = dims(logn);
    for x in a[..n].iter_mut() {
        *x = x.neg();
    }
}

/// Adjoint in the FFT domain: conjugates every value (negates the imaginary half).
pub fn poly_adj_fft(a: &mut [Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    for x in a[hn..n].iter_mut() {
        *x = x.neg();
    }
}

/// `a ← a · b` (FFT domain).
pub fn poly_mul_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (are, aim) = a[..n].split_at_mut(hn);
    let (bre, bim) = b[..n].split_at(hn);
    for u in 0..hn {
        (are[u], aim[u]) = cmul(are[u], aim[u], bre[u], bim[u]);
    }
}

/// `a ← a · adj(b)` (FFT domain).
pub fn poly_muladj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (are, aim) = a[..n].split_at_mut(hn);
    let (bre, bim) = b[..n].split_at(hn);
    for u in 0..hn {
        (are[u], aim[u]) = cmul(are[u], aim[u], bre[u], bim[u].neg());
    }
}

/// `a ← a · adj(a)` (FFT domain): `|a|²` in the real half, zeros in the imaginary half.
pub fn poly_mulselfadj_fft(a: &mut [Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (are, aim) = a[..n].split_at_mut(hn);
    for (r, i) in are.iter_mut().zip(aim.iter_mut()) {
        *r = r.sqr().add(i.sqr());
        *i = ZERO;
    }
}

/// `a ← a · x` for a real constant `x` (either domain).
pub fn poly_mulconst(a: &mut [Fpr], x: Fpr, logn: u32) {
    let (n, _) = dims(logn);
    for c in a[..n].iter_mut() {
        *c = c.mul(x);
    }
}

/// `a ← a / b` (FFT domain). `b` must have no zero value.
pub fn poly_div_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (are, aim) = a[..n].split_at_mut(hn);
    let (bre, bim) = b[..n].split_at(hn);
    for u in 0..hn {
        (are[u], aim[u]) = cdiv(are[u], aim[u], bre[u], bim[u]);
    }
}

/// `d ← 1 / (|a|² + |b|²)` (FFT domain; the result is real, so only the `n/2` real
/// parts are written and `d` needs only `n/2` entries). `a`, `b` not both zero anywhere.
pub fn poly_invnorm2_fft(d: &mut [Fpr], a: &[Fpr], b: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (are, aim) = a[..n].split_at(hn);
    let (bre, bim) = b[..n].split_at(hn);
    for (u, x) in d[..hn].iter_mut().enumerate() {
        let na = are[u].sqr().add(aim[u].sqr());
        let nb = bre[u].sqr().add(bim[u].sqr());
        *x = na.add(nb).inv();
    }
}

/// `d ← F · adj(f) + G · adj(g)` (FFT domain).
#[allow(non_snake_case)]
pub fn poly_add_muladj_fft(d: &mut [Fpr], F: &[Fpr], G: &[Fpr], f: &[Fpr], g: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (dre, dim) = d[..n].split_at_mut(hn);
    let (Fre, Fim) = F[..n].split_at(hn);
    let (Gre, Gim) = G[..n].split_at(hn);
    let (fre, fim) = f[..n].split_at(hn);
    let (gre, gim) = g[..n].split_at(hn);
    for u in 0..hn {
        let (a_re, a_im) = cmul(Fre[u], Fim[u], fre[u], fim[u].neg());
        let (b_re, b_im) = cmul(Gre[u], Gim[u], gre[u], gim[u].neg());
        dre[u] = a_re.add(b_re);
        dim[u] = a_im.add(b_im);
    }
}

/// `a ← a · b` where `b` is auto-adjoint (real in the FFT domain: only its `n/2` real
/// parts are read, so `b` needs only `n/2` entries).
pub fn poly_mul_autoadj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (are, aim) = a[..n].split_at_mut(hn);
    for ((r, i), &s) in are.iter_mut().zip(aim.iter_mut()).zip(&b[..hn]) {
        *r = r.mul(s);
        *i = i.mul(s);
    }
}

/// `a ← a / b` where `b` is auto-adjoint (only its `n/2` real parts are read; none zero):
/// one inversion, then two products.
pub fn poly_div_autoadj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (are, aim) = a[..n].split_at_mut(hn);
    for ((r, i), &s) in are.iter_mut().zip(aim.iter_mut()).zip(&b[..hn]) {
        let ib = s.inv();
        *r = r.mul(ib);
        *i = i.mul(ib);
    }
}

/// One LDL step of a 2×2 Gram matrix `[[g00, g01], [adj(g01), g11]]` (FFT domain):
/// `μ = g01 / g00`, then `g11 ← g11 − μ · adj(g01)` (= D11) and `g01 ← adj(μ)` (= L10).
/// `g00` must have no zero value.
pub fn poly_ldl_fft(g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let (g00re, g00im) = g00[..n].split_at(hn);
    let (g01re, g01im) = g01[..n].split_at_mut(hn);
    let (g11re, g11im) = g11[..n].split_at_mut(hn);
    for u in 0..hn {
        let (o_re, o_im) = (g01re[u], g01im[u]);
        let (mu_re, mu_im) = cdiv(o_re, o_im, g00re[u], g00im[u]);
        let (p_re, p_im) = cmul(mu_re, mu_im, o_re, o_im.neg());
        g11re[u] = g11re[u].sub(p_re);
        g11im[u] = g11im[u].sub(p_im);
        g01re[u] = mu_re;
        g01im[u] = mu_im.neg();
    }
}

/// [`poly_ldl_fft`] with separate outputs: `d11 ← g11 − μ · adj(g01)`, `l10 ← adj(μ)`,
/// `μ = g01 / g00`; the Gram matrix is left unchanged.
pub fn poly_ldlmv_fft(
    d11: &mut [Fpr],
    l10: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
    logn: u32,
) {
    let (n, hn) = dims(logn);
    let (d11re, d11im) = d11[..n].split_at_mut(hn);
    let (l10re, l10im) = l10[..n].split_at_mut(hn);
    let (g00re, g00im) = g00[..n].split_at(hn);
    let (g01re, g01im) = g01[..n].split_at(hn);
    let (g11re, g11im) = g11[..n].split_at(hn);
    for u in 0..hn {
        let (o_re, o_im) = (g01re[u], g01im[u]);
        let (mu_re, mu_im) = cdiv(o_re, o_im, g00re[u], g00im[u]);
        let (p_re, p_im) = cmul(mu_re, mu_im, o_re, o_im.neg());
        d11re[u] = g11re[u].sub(p_re);
        d11im[u] = g11im[u].sub(p_im);
        l10re[u] = mu_re;
        l10im[u] = mu_im.neg();
    }
}

/// Splits `f` (FFT domain, degree n) into `f0`, `f1` (FFT domain, degree n/2 each) with
/// `f(x) = f0(x²) + x·f1(x²)`. `f0` and `f1` need `n/2` entries.
pub fn poly_split_fft(f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let qn = hn >> 1;
    if qn == 0 {
        // logn = 1: one complex value, which is its own half.
        f0[0] = f[0];
        f1[0] = f[1];
        return;
    }
    let (fre, fim) = f[..n].split_at(hn);
    let (f0re, f0im) = f0[..hn].split_at_mut(qn);
    let (f1re, f1im) = f1[..hn].split_at_mut(qn);
    // Values 2u and 2u+1 are f at ±w: the half sum is f0, the half difference times
    // conj(w) is f1 (w = twiddle u + n/2).
    for u in 0..qn {
        let (a_re, a_im) = (fre[2 * u], fim[2 * u]);
        let (b_re, b_im) = (fre[2 * u + 1], fim[2 * u + 1]);
        f0re[u] = a_re.add(b_re).half();
        f0im[u] = a_im.add(b_im).half();
        let (s_re, s_im) = gm(u + hn);
        let (t_re, t_im) = cmul(a_re.sub(b_re), a_im.sub(b_im), s_re, s_im.neg());
        f1re[u] = t_re.half();
        f1im[u] = t_im.half();
    }
}

/// Inverse of [`poly_split_fft`]: `f ← f0(x²) + x·f1(x²)` (FFT domain). `f0`, `f1` are
/// read on their first `n/2` entries.
pub fn poly_merge_fft(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr], logn: u32) {
    let (n, hn) = dims(logn);
    let qn = hn >> 1;
    let (fre, fim) = f[..n].split_at_mut(hn);
    if qn == 0 {
        fre[0] = f0[0];
        fim[0] = f1[0];
        return;
    }
    let (f0re, f0im) = f0[..hn].split_at(qn);
    let (f1re, f1im) = f1[..hn].split_at(qn);
    for u in 0..qn {
        let (a_re, a_im) = (f0re[u], f0im[u]);
        let (s_re, s_im) = gm(u + hn);
        let (b_re, b_im) = cmul(f1re[u], f1im[u], s_re, s_im);
        fre[2 * u] = a_re.add(b_re);
        fim[2 * u] = a_im.add(b_im);
        fre[2 * u + 1] = a_re.sub(b_re);
        fim[2 * u + 1] = a_im.sub(b_im);
    }
}
