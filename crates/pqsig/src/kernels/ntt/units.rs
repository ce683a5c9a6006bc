//! The butterfly units, generic over the [`Field`]: radix-2 (one layer), radix-4 (two
//! layers merged in registers) and the Winograd radix-8 and radix-16 units (three and
//! four layers), forward and inverse, each applied to every group of one level.
//!
//! Indexing (shared by both moduli): a unit spanning `L` layers starting at the level
//! with `m` groups works, for each group `i < m` and offset `j < s` with
//! `s = n / (m·2^L)`, on the `2^L` coefficients `x_t = a[i·2^L·s + j + t·s]`. These hold
//! the polynomial `P(y) = Σ_t x_t y^t` (y = X^s) modulo `y^(2^L) − c`, and the radix-2
//! layers of the reference split it down to its values at the roots `r·ω^e`
//! (r = ζ(2^(L−1)(m+i)), the first twiddle of the unit's last layer; ω = ψ^(order/2^L) a
//! primitive 2^L-th root of unity), the value at `r·ω^brv_L(k)` landing at `t = k`.
//!
//! The Winograd units compute exactly that, in three steps: the *twist*
//! `x'_t = r^t · x_t` (2^L − 1 multiplications; `x_0` is only reduced), which turns
//! the negacyclic-type block into a plain cyclic DFT of length 2^L; the short DFT with
//! the fewest modular multiplications we could derive ([`dft8`]: 4; [`dft16`]: 14); and
//! the bit-reversed store. The inverse units run the inverse DFT (same algorithm, every
//! root replaced by its inverse) on the bit-reversed inputs and untwist by `r^−t`; the
//! factor 2^L they leave is part of the final 1/n scaling, as in the reference.
//!
//! Bounds, ML-DSA (lazy additions, |x| in units of q; reduce32 gives ≤ 0.75q and every
//! Montgomery product < q): radix-2/4 as the reference (each forward layer adds q; each
//! inverse layer doubles the sum path). Forward Winograd-8: twisted inputs < q, outputs
//! < 8q; Winograd-16: the eight sums of its first level are reduced, outputs < 6q. Inverse
//! Winograd units: any input < q → output < q (every output is a product or reduced).

use super::field::{brv, Field, WConst};

/// One forward radix-2 (Cooley–Tukey) layer with `m` groups.
#[inline(always)]
pub(crate) fn fwd_r2<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    let h = n / (2 * m);
    for i in 0..m {
        let z = F::zeta(m + i);
        let (lo, hi) = a[2 * i * h..2 * i * h + 2 * h].split_at_mut(h);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let t = F::mul(*y, z);
            *y = F::sub(*x, t);
            *x = F::add(*x, t);
        }
    }
}

/// One inverse radix-2 (Gentleman–Sande) layer with `m` groups.
#[inline(always)]
pub(crate) fn inv_r2<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    let h = n / (2 * m);
    for i in 0..m {
        let z = F::zeta_inv(m + i);
        let (lo, hi) = a[2 * i * h..2 * i * h + 2 * h].split_at_mut(h);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let (u, v) = (*x, *y);
            *x = F::add(u, v);
            *y = F::mul(F::sub(u, v), z);
        }
    }
}

/// `blk` (4s long) as four slices of `s`.
#[inline(always)]
fn quarters<F: Field>(blk: &mut [F::E], s: usize) -> [&mut [F::E]; 4] {
    let (h0, h1) = blk.split_at_mut(2 * s);
    let (q0, q1) = h0.split_at_mut(s);
    let (q2, q3) = h1.split_at_mut(s);
    [q0, q1, q2, q3]
}

/// Two forward layers (`m` and `2m` groups) in one pass: four coefficients in registers,
/// the same operations as two radix-2 layers (so the same results, bit for bit).
#[inline(always)]
pub(crate) fn fwd_r4<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    let s = n / (4 * m);
    for i in 0..m {
        let za = F::zeta(m + i);
        let zb0 = F::zeta(2 * m + 2 * i);
        let zb1 = F::zeta(2 * m + 2 * i + 1);
        let [q0, q1, q2, q3] = quarters::<F>(&mut a[4 * i * s..4 * i * s + 4 * s], s);
        for (((p0, p1), p2), p3) in q0.iter_mut().zip(q1).zip(q2).zip(q3) {
            let (x0, x1, x2, x3) = (*p0, *p1, *p2, *p3);
            let t2 = F::mul(x2, za);
            let t3 = F::mul(x3, za);
            let (y0, y2) = (F::add(x0, t2), F::sub(x0, t2));
            let (y1, y3) = (F::add(x1, t3), F::sub(x1, t3));
            let t1 = F::mul(y1, zb0);
            let t3 = F::mul(y3, zb1);
            *p0 = F::add(y0, t1);
            *p1 = F::sub(y0, t1);
            *p2 = F::add(y2, t3);
            *p3 = F::sub(y2, t3);
        }
    }
}

/// Two inverse layers (`2m`, then `m` groups) in one pass.
#[inline(always)]
pub(crate) fn inv_r4<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    let s = n / (4 * m);
    for i in 0..m {
        let za = F::zeta_inv(m + i);
        let zb0 = F::zeta_inv(2 * m + 2 * i);
        let zb1 = F::zeta_inv(2 * m + 2 * i + 1);
        let [q0, q1, q2, q3] = quarters::<F>(&mut a[4 * i * s..4 * i * s + 4 * s], s);
        for (((p0, p1), p2), p3) in q0.iter_mut().zip(q1).zip(q2).zip(q3) {
            let (x0, x1, x2, x3) = (*p0, *p1, *p2, *p3);
            let y0 = F::add(x0, x1);
            let y1 = F::mul(F::sub(x0, x1), zb0);
            let y2 = F::add(x2, x3);
            let y3 = F::mul(F::sub(x2, x3), zb1);
            *p0 = F::add(y0, y2);
            *p2 = F::mul(F::sub(y0, y2), za);
            *p1 = F::add(y1, y3);
            *p3 = F::mul(F::sub(y1, y3), za);
        }
    }
}

/// The constants of one direction of the short DFTs: ι = ω4, the radix-8 pair (A, B),
/// and the four odd roots ω16^(1,5,3,7) of the radix-16 unit.
#[derive(Clone, Copy)]
pub(crate) struct DftConsts<C> {
    pub iota: C,
    pub a8: C,
    pub b8: C,
    pub w16: [C; 4],
}

impl<C: Copy> DftConsts<C> {
    /// Forward (`inverse = false`) or inverse constants of the field.
    #[inline(always)]
    pub fn new<F: Field<C = C>>(inverse: bool) -> Self {
        let order = 1usize << F::LOG_ORDER;
        // ω_k^e as a power of ψ, inverted when asked.
        let root = |k: usize, e: usize| {
            let x = (order / k * e) % order;
            F::pow(if inverse { (order - x) % order } else { x })
        };
        let (a8, b8) = if inverse {
            (F::wconst(WConst::InvA8), F::wconst(WConst::InvB8))
        } else {
            (F::wconst(WConst::A8), F::wconst(WConst::B8))
        };
        DftConsts {
            iota: root(4, 1),
            a8,
            b8,
            w16: [root(16, 1), root(16, 5), root(16, 3), root(16, 7)],
        }
    }
}

/// Cyclic DFT of length 8, natural order in and out: `D_e = Σ_t x_t ω8^(e·t)`.
/// 4 modular multiplications (ι twice, A and B once each), 26 additions/subtractions.
///
/// Even outputs are a length-4 DFT of `u_t = x_t + x_(t+4)` (one product by ι). Odd
/// outputs are `Σ v_t ω8^t ι^(tk)` with `v_t = x_t − x_(t+4)`: `ω8 v1 ± ω8³ v3` and
/// `ι(ω8 v1 − ω8³ v3)` are the two rows of the circulant `[[ω8, ω8³], [ω8³, ω8]]`
/// applied to (v1, v3) — since ι·ω8 = ω8³ and ι·ω8³ = −ω8 —, which sums and differences
/// diagonalise: `S = A(v1 + v3)`, `P = B(v1 − v3)` give `S + P` and `S − P`; and `ι v2`.
/// In the complex FFT the products by ι are free; in Z_q each is a full modular
/// multiplication and is counted as one.
#[inline(always)]
pub(crate) fn dft8<F: Field>(x: [F::E; 8], c: &DftConsts<F::C>) -> [F::E; 8] {
    let (add, sub) = (F::add, F::sub);
    let u = [
        add(x[0], x[4]),
        add(x[1], x[5]),
        add(x[2], x[6]),
        add(x[3], x[7]),
    ];
    let v = [
        sub(x[0], x[4]),
        sub(x[1], x[5]),
        sub(x[2], x[6]),
        sub(x[3], x[7]),
    ];
    let s02 = add(u[0], u[2]);
    let d02 = sub(u[0], u[2]);
    let s13 = add(u[1], u[3]);
    let j = F::mul(sub(u[1], u[3]), c.iota);
    let iv = F::mul(v[2], c.iota);
    let e = add(v[0], iv);
    let f = sub(v[0], iv);
    let s = F::mul(add(v[1], v[3]), c.a8);
    let p = F::mul(sub(v[1], v[3]), c.b8);
    let sp = add(s, p);
    let sm = sub(s, p);
    [
        add(s02, s13),
        add(e, sp),
        add(d02, j),
        add(f, sm),
        sub(s02, s13),
        sub(e, sp),
        sub(d02, j),
        sub(f, sm),
    ]
}

/// Cyclic DFT of length 16, natural order in and out: `D_e = Σ_t x_t ω16^(e·t)`.
/// 14 modular multiplications (4 in the even half, 10 in the odd half), 70
/// additions/subtractions, and (lazy fields) 8 reductions of the first-level sums.
///
/// Even outputs: [`dft8`] of `u_t = x_t + x_(t+8)`. Odd outputs are the values of
/// `V(y) = Σ v_t y^t` (`v_t = x_t − x_(t+8)`) at the roots of y^8 + 1, split as
/// (y^4 ∓ ι), then (y^2 ∓ ω8) and (y^2 ∓ ιω8), then the four pairs ±ω16^(1,5,3,7). The
/// second level needs `ω8·c2`, `ιω8·d2` (and the same for index 3) where
/// `c_t, d_t = v_t ± ι v_(t+4)`: as functions of (v2, v6) these are the circulant
/// `[[ω8, ιω8], [ιω8, ω8]]`, two products instead of three — the Winograd step;
/// ι·v4 and ι·v5 are one product each, and the last level four.
#[inline(always)]
pub(crate) fn dft16<F: Field>(x: [F::E; 16], c: &DftConsts<F::C>) -> [F::E; 16] {
    let (add, sub) = (F::add, F::sub);
    let mut u = [x[0]; 8];
    let mut v = [x[0]; 8];
    for t in 0..8 {
        u[t] = add(x[t], x[t + 8]);
        v[t] = sub(x[t], x[t + 8]);
        if F::LAZY {
            u[t] = F::reduce(u[t]);
        }
    }
    let ev = dft8::<F>(u, c);
    let iv4 = F::mul(v[4], c.iota);
    let iv5 = F::mul(v[5], c.iota);
    let (c0, d0) = (add(v[0], iv4), sub(v[0], iv4));
    let (c1, d1) = (add(v[1], iv5), sub(v[1], iv5));
    let a2 = F::mul(add(v[2], v[6]), c.a8);
    let b2 = F::mul(sub(v[2], v[6]), c.b8);
    let a3 = F::mul(add(v[3], v[7]), c.a8);
    let b3 = F::mul(sub(v[3], v[7]), c.b8);
    let (wc2, iwd2) = (add(a2, b2), sub(a2, b2));
    let (wc3, iwd3) = (add(a3, b3), sub(a3, b3));
    let e1 = (add(c0, wc2), F::mul(add(c1, wc3), c.w16[0]));
    let e2 = (sub(c0, wc2), F::mul(sub(c1, wc3), c.w16[1]));
    let e3 = (add(d0, iwd2), F::mul(add(d1, iwd3), c.w16[2]));
    let e4 = (sub(d0, iwd2), F::mul(sub(d1, iwd3), c.w16[3]));
    [
        ev[0],
        add(e1.0, e1.1),
        ev[1],
        add(e3.0, e3.1),
        ev[2],
        add(e2.0, e2.1),
        ev[3],
        add(e4.0, e4.1),
        ev[4],
        sub(e1.0, e1.1),
        ev[5],
        sub(e3.0, e3.1),
        ev[6],
        sub(e2.0, e2.1),
        ev[7],
        sub(e4.0, e4.1),
    ]
}

/// A Winograd unit of `2^L` points (L = 3 or 4), forward, at the level with `m` groups.
#[inline(always)]
fn fwd_w<F: Field, const P: usize, const L: u32>(
    a: &mut [F::E],
    n: usize,
    m: usize,
    dft: impl Fn([F::E; P], &DftConsts<F::C>) -> [F::E; P],
) {
    let order = 1usize << F::LOG_ORDER;
    let c = DftConsts::<F::C>::new::<F>(false);
    let s = n / (m * P);
    // Offset of the k-th value of the unit's bit-reversed order.
    let pos: [usize; P] = core::array::from_fn(|k| brv(k, L) * s);
    for i in 0..m {
        let e = brv((m + i) << (L - 1), F::LOG_ORDER - 1);
        // r^t, t = 1..P (index 0 unused).
        let mut rt = [c.iota; P];
        for (t, r) in rt.iter_mut().enumerate().skip(1) {
            *r = F::pow((e * t) % order);
        }
        let blk = &mut a[i * P * s..(i + 1) * P * s];
        for j in 0..s {
            let mut x = [blk[j]; P];
            if F::LAZY {
                x[0] = F::reduce(x[0]);
            }
            for t in 1..P {
                x[t] = F::mul(blk[j + t * s], rt[t]);
            }
            let d = dft(x, &c);
            for (k, &p) in pos.iter().enumerate() {
                blk[j + p] = d[k];
            }
        }
    }
}

/// The inverse of [`fwd_w`] times 2^L.
#[inline(always)]
fn inv_w<F: Field, const P: usize, const L: u32>(
    a: &mut [F::E],
    n: usize,
    m: usize,
    dft: impl Fn([F::E; P], &DftConsts<F::C>) -> [F::E; P],
) {
    let order = 1usize << F::LOG_ORDER;
    let c = DftConsts::<F::C>::new::<F>(true);
    let s = n / (m * P);
    // Offset of the k-th value of the unit's bit-reversed order.
    let pos: [usize; P] = core::array::from_fn(|k| brv(k, L) * s);
    for i in 0..m {
        let e = brv((m + i) << (L - 1), F::LOG_ORDER - 1);
        let mut rt = [c.iota; P];
        for (t, r) in rt.iter_mut().enumerate().skip(1) {
            *r = F::pow((order - (e * t) % order) % order);
        }
        let blk = &mut a[i * P * s..(i + 1) * P * s];
        for j in 0..s {
            let mut x = [blk[j]; P];
            for (xk, &p) in x.iter_mut().zip(pos.iter()) {
                *xk = blk[j + p];
            }
            let d = dft(x, &c);
            blk[j] = if F::LAZY { F::reduce(d[0]) } else { d[0] };
            for t in 1..P {
                blk[j + t * s] = F::mul(d[t], rt[t]);
            }
        }
    }
}

/// Forward Winograd radix-8 unit (three layers) at the level with `m` groups.
#[inline(always)]
pub(crate) fn fwd_w8<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    fwd_w::<F, 8, 3>(a, n, m, dft8::<F>)
}

/// Inverse Winograd radix-8 unit (three layers) at the level with `m` groups.
#[inline(always)]
pub(crate) fn inv_w8<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    inv_w::<F, 8, 3>(a, n, m, dft8::<F>)
}

/// Forward Winograd radix-16 unit (four layers) at the level with `m` groups.
#[inline(always)]
pub(crate) fn fwd_w16<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    fwd_w::<F, 16, 4>(a, n, m, dft16::<F>)
}

/// Inverse Winograd radix-16 unit (four layers) at the level with `m` groups.
#[inline(always)]
pub(crate) fn inv_w16<F: Field>(a: &mut [F::E], n: usize, m: usize) {
    inv_w::<F, 16, 4>(a, n, m, dft16::<F>)
}
