//! FN-DSA (draft, fn-dsa 0.4.0) signature generation. DRAFT.
//!
//! Per attempt `k = 0..27`: stream = SHAKE256(seed' ‖ k); nonce = its first 40 bytes;
//! `c = HashToPoint(nonce ‖ μ)`; target `(t0, t1) = (c, 0)·B⁻¹` in the FFT domain;
//! fast Fourier sampling with [`Sampler`] on the Gram matrix of `B = [[g, −f], [G, −F]]`;
//! `(s1, s2) = (c, 0) − z·B`; accept if short, L∞-bounded and compressible.
//!
//! The FFT-domain arithmetic goes through the shared kernel table
//! ([`crate::kernels::falcon::fft`]), whose operations are bit-identical to round 3 and,
//! for the ones used here, to fn-dsa. The LDL step and the split of self-adjoint
//! polynomials are written here, because fn-dsa computes them differently from round 3
//! (see [`ldl`]); the basis and the Gram matrix are round 3's (`falcon::sign::tree`:
//! the same FFT operations in the same order as fn-dsa).

use super::codec::comp_encode;
use super::hash::hash_to_point_on;
use super::params::{signature_size, B_INF, MU_LEN, NONCE_LEN, Q, SQBETA};
use super::prng::ShakeStream;
use super::sampler::Sampler;
use crate::kernels::falcon::fft::{self, FftKernels};
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;
use alloc::vec;
use zeroize::Zeroizing;

/// 1/q (the round-3 constant, bit-identical in fn-dsa).
const INV_Q: Fpr = Fpr::from_bits(4545632735260551042);

/// Attempts before the key is declared invalid (fn-dsa: failure probability < 2^-256
/// for a valid key at the standard degrees).
const MAX_ATTEMPTS: u8 = 27;

/// fn-dsa's LDL step on the self-adjoint `[[g00, g01], [adj g01, g11]]` (n ≥ 4 real
/// halves read from g00, g11): `μ = g01 · (1/g00)` with a *real* reciprocal, then
/// `d11 = g11 − Re(μ·adj(g01))` over g11 and `l10 = adj(μ)` over g01. (Round 3 inverts
/// g00 as a complex number, `g00·(1/g00²)`, and multiplies as complex numbers: other
/// roundings.)
fn ldl(g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], hn: usize) {
    let (l_re, l_im) = g01.split_at_mut(hn);
    for i in 0..hn {
        let inv = Fpr::of(1).div(g00[i]);
        let mu_re = l_re[i].mul(inv);
        let mu_im = l_im[i].mul(inv);
        let zo = mu_re.mul(l_re[i]).add(mu_im.mul(l_im[i]));
        g11[i] = g11[i].sub(zo);
        l_re[i] = mu_re;
        l_im[i] = mu_im.neg();
    }
}

/// Split of a self-adjoint polynomial given by its `n/2` real FFT values (n = 2·hn ≥ 4):
/// `f0` (self-adjoint: `n/4` reals then `n/4` zeros) and `f1` (n/2 values), as fn-dsa
/// computes it: `f0 = (a + b)/2`, `f1 = ((a − b)/2)·conj(w)`.
fn split_selfadj(f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], hn: usize) {
    let qn = hn >> 1;
    for i in 0..qn {
        let a = f[2 * i];
        let b = f[2 * i + 1];
        f0[i] = a.add(b).half();
        f0[i + qn] = Fpr::from_bits(0);
        let t = a.sub(b).half();
        let (w_re, w_im) = fft::gm(i + hn);
        f1[i] = t.mul(w_re);
        f1[i + qn] = t.mul(w_im.neg());
    }
}

/// Degree-2 leaf of fast Fourier sampling (one complex value per polynomial): the LDL
/// step, then (re, im) of t1 on `sqrt(d11)/σ`, then (re, im) of
/// `t0 + (t1 − z1)·l10` on `sqrt(d00)/σ`. Returns (z0, z1).
#[inline(always)]
fn leaf(
    samp: &mut Sampler,
    t0: [Fpr; 2],
    t1: [Fpr; 2],
    g00_re: Fpr,
    g01: [Fpr; 2],
    g11_re: Fpr,
) -> ([Fpr; 2], [Fpr; 2]) {
    let isig = samp.inv_sigma();
    let [g01_re, g01_im] = g01;
    let inv = Fpr::of(1).div(g00_re);
    let (mu_re, mu_im) = (g01_re.mul(inv), g01_im.mul(inv));
    let zo = mu_re.mul(g01_re).add(mu_im.mul(g01_im));
    let d00 = g00_re;
    let (l_re, l_im) = (mu_re, mu_im.neg());
    let d11 = g11_re.sub(zo);

    let [w0, w1] = t1;
    let leaf = d11.sqrt().mul(isig);
    let (y0, y1) = samp.next_pair(w0, w1, leaf);
    let (y0, y1) = (Fpr::of(y0 as i64), Fpr::of(y1 as i64));

    // t0 + (t1 − z1)·l10.
    let (a_re, a_im) = (w0.sub(y0), w1.sub(y1));
    let b_re = a_re.mul(l_re).sub(a_im.mul(l_im));
    let b_im = a_re.mul(l_im).add(a_im.mul(l_re));
    let (x0, x1) = (t0[0].add(b_re), t0[1].add(b_im));

    let leaf = d00.sqrt().mul(isig);
    let (z0, z1) = samp.next_pair(x0, x1, leaf);
    ([Fpr::of(z0 as i64), Fpr::of(z1 as i64)], [y0, y1])
}

/// `a·b` for complex numbers, the FFT kernels' operation order.
#[inline(always)]
fn cmul(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    (
        a_re.mul(b_re).sub(a_im.mul(b_im)),
        a_re.mul(b_im).add(a_im.mul(b_re)),
    )
}

/// Split of a degree-4 FFT-domain polynomial (re0, re1, im0, im1) into two degree-2 ones
/// (one complex value each), as `poly_split_fft` computes it.
#[inline(always)]
fn split4(f: [Fpr; 4]) -> ([Fpr; 2], [Fpr; 2]) {
    let (a_re, a_im) = (f[0], f[2]);
    let (b_re, b_im) = (f[1], f[3]);
    let f0 = [a_re.add(b_re).half(), a_im.add(b_im).half()];
    let (s_re, s_im) = fft::gm(2);
    let (t_re, t_im) = cmul(a_re.sub(b_re), a_im.sub(b_im), s_re, s_im.neg());
    (f0, [t_re.half(), t_im.half()])
}

/// Inverse of [`split4`], as `poly_merge_fft` computes it.
#[inline(always)]
fn merge4(f0: [Fpr; 2], f1: [Fpr; 2]) -> [Fpr; 4] {
    let (a_re, a_im) = (f0[0], f0[1]);
    let (s_re, s_im) = fft::gm(2);
    let (b_re, b_im) = cmul(f1[0], f1[1], s_re, s_im);
    [
        a_re.add(b_re),
        a_re.sub(b_re),
        a_im.add(b_im),
        a_im.sub(b_im),
    ]
}

/// Fast Fourier sampling at degree 4 on values in registers: exactly the operations of
/// the general level ([`ldl`], [`split_selfadj`], the kernels' split, merge, sub, mul and
/// add) for n = 4, without the calls and copies. Returns (z0, z1).
#[inline(always)]
fn ffsamp4(
    samp: &mut Sampler,
    t0: [Fpr; 4],
    t1: [Fpr; 4],
    g00: [Fpr; 2],
    g01: [Fpr; 4],
    g11: [Fpr; 2],
) -> ([Fpr; 4], [Fpr; 4]) {
    // LDL: l10 = adj(g01/g00) (real reciprocal), d11 = g11 − Re(mu·adj(g01)).
    let mut l10 = [Fpr::from_bits(0); 4];
    let mut d11 = g11;
    for i in 0..2 {
        let inv = Fpr::of(1).div(g00[i]);
        let mu_re = g01[i].mul(inv);
        let mu_im = g01[i + 2].mul(inv);
        let zo = mu_re.mul(g01[i]).add(mu_im.mul(g01[i + 2]));
        d11[i] = g11[i].sub(zo);
        l10[i] = mu_re;
        l10[i + 2] = mu_im.neg();
    }
    // Split of the self-adjoint d00 = g00 and d11: (f0 real, f1 complex).
    let split_sa = |a: Fpr, b: Fpr| {
        let f0 = a.add(b).half();
        let t = a.sub(b).half();
        let (w_re, w_im) = fft::gm(2);
        (f0, [t.mul(w_re), t.mul(w_im.neg())])
    };
    let (l_f0, l_f1) = split_sa(g00[0], g00[1]);
    let (r_f0, r_f1) = split_sa(d11[0], d11[1]);

    // Right sub-tree on split(t1).
    let (w0, w1) = split4(t1);
    let (w0, w1) = leaf(samp, w0, w1, r_f0, r_f1, r_f0);
    let z1 = merge4(w0, w1);

    // t0 + (t1 − z1)·l10.
    let mut tb0 = t0;
    for u in 0..2 {
        let (d_re, d_im) = (t1[u].sub(z1[u]), t1[u + 2].sub(z1[u + 2]));
        let (p_re, p_im) = cmul(l10[u], l10[u + 2], d_re, d_im);
        tb0[u] = t0[u].add(p_re);
        tb0[u + 2] = t0[u + 2].add(p_im);
    }

    // Left sub-tree on split(tb0).
    let (w0, w1) = split4(tb0);
    let (w0, w1) = leaf(samp, w0, w1, l_f0, l_f1, l_f0);
    (merge4(w0, w1), z1)
}

/// Fast Fourier sampling (fn-dsa's order of operations): on return `(t0, t1)` hold the
/// sampled `z` (FFT domain). The Gram matrix (`g00`, `g01`, `g11`, n entries each) is
/// destroyed. `tmp` needs `4n` entries.
#[allow(clippy::too_many_arguments)]
fn ffsamp(
    k: &FftKernels,
    samp: &mut Sampler,
    logn: u32,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    g00: &mut [Fpr],
    g01: &mut [Fpr],
    g11: &mut [Fpr],
    tmp: &mut [Fpr],
) {
    if logn == 1 {
        let (a, b) = leaf(
            samp,
            [t0[0], t0[1]],
            [t1[0], t1[1]],
            g00[0],
            [g01[0], g01[1]],
            g11[0],
        );
        t0[..2].copy_from_slice(&a);
        t1[..2].copy_from_slice(&b);
        return;
    }
    if logn == 2 {
        let (a, b) = ffsamp4(
            samp,
            [t0[0], t0[1], t0[2], t0[3]],
            [t1[0], t1[1], t1[2], t1[3]],
            [g00[0], g00[1]],
            [g01[0], g01[1], g01[2], g01[3]],
            [g11[0], g11[1]],
        );
        t0[..4].copy_from_slice(&a);
        t1[..4].copy_from_slice(&b);
        return;
    }

    let n = 1usize << logn;
    let hn = n >> 1;

    ldl(g00, g01, g11, hn);

    // Sub-trees: left from d00 (in g00), right from d11 (in g11); each becomes a half-size
    // Gram matrix [[f0, f1], [adj f1, f0]]. l10 is kept in tmp[..n].
    {
        let (w0, rest) = tmp.split_at_mut(hn);
        let (w1, _) = rest.split_at_mut(hn);
        split_selfadj(w0, w1, g00, hn);
        g00[..hn].copy_from_slice(w0);
        g00[hn..n].copy_from_slice(w1);
        split_selfadj(w0, w1, g11, hn);
        g11[..hn].copy_from_slice(w0);
        g11[hn..n].copy_from_slice(w1);
    }
    tmp[..n].copy_from_slice(&g01[..n]);
    g01[..hn].copy_from_slice(&g00[..hn]);
    g01[hn..n].copy_from_slice(&g11[..hn]);
    let (left_00, left_01) = g00.split_at_mut(hn);
    let (right_00, right_01) = g11.split_at_mut(hn);
    let (left_11, right_11) = g01.split_at_mut(hn);

    // Right sub-tree on split(t1); the merged z1 goes to tmp[2n..3n].
    {
        let (_, rest) = tmp.split_at_mut(n);
        let (w0, rest) = rest.split_at_mut(hn);
        let (w1, rest) = rest.split_at_mut(hn);
        (k.poly_split_fft)(w0, w1, t1, logn);
        ffsamp(
            k,
            samp,
            logn - 1,
            w0,
            w1,
            right_00,
            right_01,
            right_11,
            rest,
        );
        (k.poly_merge_fft)(rest, w0, w1, logn);
    }

    // tb0 = t0 + (t1 − z1)·l10 over t0; z1 moves to t1.
    {
        let (l10, rest) = tmp.split_at_mut(n);
        let (w, rest) = rest.split_at_mut(n);
        let z1 = &rest[..n];
        w.copy_from_slice(&t1[..n]);
        (k.poly_sub)(w, z1, logn);
        t1[..n].copy_from_slice(z1);
        (k.poly_mul_fft)(l10, w, logn);
        (k.poly_add)(t0, l10, logn);
    }

    // Left sub-tree on split(tb0).
    {
        let (w0, rest) = tmp.split_at_mut(hn);
        let (w1, rest) = rest.split_at_mut(hn);
        (k.poly_split_fft)(w0, w1, t0, logn);
        ffsamp(k, samp, logn - 1, w0, w1, left_00, left_01, left_11, rest);
        (k.poly_merge_fft)(t0, w0, w1, logn);
    }
}

/// Signs μ with the decoded key material; `seed` is the already hedged 40-byte seed'.
/// Writes the fixed-length signature into `sig` (its length must be
/// `signature_size(logn)`). Returns false if 27 attempts failed (invalid key).
pub(crate) fn sign_inner(
    b: Backend,
    logn: u32,
    basis: &[Fpr],
    gram: &[Fpr],
    seed: &[u8; 40],
    mu: &[u8; MU_LEN],
    sig: &mut [u8],
) -> bool {
    let k = fft::kernels(b);
    let n = 1usize << logn;
    debug_assert_eq!(sig.len(), signature_size(logn));
    let (b00, rest) = basis.split_at(n);
    let (b01, rest) = rest.split_at(n);
    let (b10, b11) = rest.split_at(n);

    let mut hm = vec![0u16; n];
    let mut s2 = Zeroizing::new(vec![0i16; n]);
    // Work area: g00 g01 g11 t0 t1 | tmp (4n); later tx, ty reuse the tmp area.
    let mut work = Zeroizing::new(vec![Fpr::from_bits(0); 9 * n]);

    for attempt in 0..MAX_ATTEMPTS {
        let mut rng = ShakeStream::new_on(b, &[&seed[..], &[attempt]]);
        let mut nonce = [0u8; NONCE_LEN];
        rng.fill(&mut nonce);
        // Published in the signature (a PRF output: says nothing about the key).
        crate::ct::public_mut(&mut nonce[..]);
        hash_to_point_on(b, &nonce, mu, &mut hm);

        let (g, rest) = work.split_at_mut(3 * n);
        let (t, tmp) = rest.split_at_mut(2 * n);
        g.copy_from_slice(&gram[..3 * n]);
        let (t0, t1) = t.split_at_mut(n);

        // Target: t0 = c·(−F)/q, t1 = −c·(−f)/q (FFT domain).
        for (x, &c) in t0.iter_mut().zip(hm.iter()) {
            *x = Fpr::of(c as i64);
        }
        (k.fft)(t0, logn);
        t1.copy_from_slice(t0);
        (k.poly_mul_fft)(t1, b01, logn);
        (k.poly_mulconst)(t1, INV_Q.neg(), logn);
        (k.poly_mul_fft)(t0, b11, logn);
        (k.poly_mulconst)(t0, INV_Q, logn);

        let mut samp = Sampler::new(rng, logn, b);
        {
            let (g00, rest) = g.split_at_mut(n);
            let (g01, g11) = rest.split_at_mut(n);
            ffsamp(k, &mut samp, logn, t0, t1, g00, g01, g11, tmp);
        }
        drop(samp);

        // (tx, ty) = z·B, back to coefficients.
        let (tx, rest) = tmp.split_at_mut(n);
        let (ty, _) = rest.split_at_mut(n);
        tx.copy_from_slice(t0);
        ty.copy_from_slice(t1);
        (k.poly_mul_fft)(tx, b00, logn);
        (k.poly_mul_fft)(ty, b10, logn);
        (k.poly_add)(tx, ty, logn);
        ty.copy_from_slice(t0);
        (k.poly_mul_fft)(ty, b01, logn);
        t0.copy_from_slice(tx);
        (k.poly_mul_fft)(t1, b11, logn);
        (k.poly_add)(t1, ty, logn);
        (k.ifft)(t0, logn);
        (k.ifft)(t1, logn);

        // s1 = c − round(tx), s2 = −round(ty). Squared norm with a sticky overflow flag
        // (bit 31 of ng) and the L∞ bound on s1; values are cast to i16 first as fn-dsa
        // does. No data-dependent branch until the final accept/reject decision.
        let mut sqn = 0u32;
        let mut ng = 0u32;
        for i in 0..n {
            let z = (hm[i] as i32).wrapping_sub(t0[i].rint() as i32);
            let z = z as i16 as i32;
            sqn = sqn.wrapping_add((z * z) as u32);
            ng |= sqn;
            ng |= (B_INF - z) as u32 | (B_INF + z) as u32;
        }
        for i in 0..n {
            let sz = (t1[i].rint().wrapping_neg()) as i16;
            let z = sz as i32;
            sqn = sqn.wrapping_add((z * z) as u32);
            ng |= sqn;
            s2[i] = sz;
        }
        sqn |= ((ng as i32) >> 31) as u32;
        // The norm verdict (a rejected attempt is retried with a fresh nonce).
        if crate::ct::public(sqn > SQBETA[logn as usize]) {
            continue;
        }
        // s2 is the signature (encoded next; comp_encode branches on its values).
        crate::ct::public_mut(&mut s2[..]);
        // comp_encode enforces the L∞ bound on s2 and the fixed length.
        if comp_encode(&s2, &mut sig[1 + NONCE_LEN..]) {
            sig[0] = 0x30 + logn as u8;
            sig[1..1 + NONCE_LEN].copy_from_slice(&nonce);
            return true;
        }
    }
    let _ = Q;
    false
}
