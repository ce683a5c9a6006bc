//! The units on registers and one stage over a polynomial, generic over [`Lanes`].
//!
//! # Units (level with `m` groups, group `i`, stride `s = n/(m·P)`)
//! * radix-2: one Cooley–Tukey layer (twiddle ζ(m+i)); inverse one Gentleman–Sande layer.
//! * radix-4: two Cooley–Tukey layers (twiddles ζ(m+i), ζ(2m+2i), ζ(2m+2i+1)); inverse
//!   two Gentleman–Sande layers with the inverse twiddles.
//! * Winograd radix-P (P = 8, 16): the block `x_t = a[i·P·s + j + t·s]` holds a
//!   polynomial mod `y^P − r^P`, r = ζ(2^(L−1)(m+i)); its L radix-2 layers are the
//!   twist `x_t ← r^t x_t` (P − 1 products; `x_0` is reduced), the cyclic DFT of length P
//!   (8: 4 products; 16: 14 products) and the bit-reversed store (`D_e` to `t = brv(e)`).
//!   The inverse runs the inverse DFT (the same algorithm with every root inverted) on
//!   the bit-reversed inputs and untwists by `r^−t`; the factor P it leaves is part of
//!   the final scaling.
//! * DFT8 (4 products): with `u_t = x_t + x_(t+4)`, `v_t = x_t − x_(t+4)`: `D_0, D_4 =
//!   (u0 + u2) ± (u1 + u3)`, `D_2, D_6 = (u0 − u2) ± ι(u1 − u3)`, `D_1, D_5 = (v0 + ιv2)
//!   ± G1`, `D_3, D_7 = (v0 − ιv2) ± G3` with `G1 = ω v1 + ω³ v3`, `G3 = ω³ v1 + ω v3`,
//!   a circulant pair computed as `S ± P`, `S = A(v1 + v3)`, `P = B(v1 − v3)`,
//!   `A = (ω + ω³)/2`, `B = (ω − ω³)/2` (ω = ω8, ι = ω²).
//! * DFT16 (14 products): the even outputs are DFT8 of `u_t = x_t + x_(t+8)` (reduced);
//!   the odd ones evaluate `V(y) = Σ v_t y^t` at the roots of `y^8 + 1`: split by
//!   `y^4 ∓ ι` (`c_t, d_t = v_t ± ι v_(t+4)`: products ι·v4, ι·v5; for t = 2, 3 the
//!   next level's `ω8·c_t` and `ιω8·d_t` form the same circulant as in DFT8, two
//!   products each), then `y^2 ∓ ω8`, `y^2 ∓ ιω8`, and the last level by ω16^(1,5,3,7).
//!
//! Bounds: Falcon is canonical everywhere (every output in [0, q), bit-identical to the
//! portable kernels). ML-DSA's lazy bounds are in `super::mldsa`.
//!
//! # Vectorisation
//! A stage with stride `s ≥ N` runs `N` consecutive offsets of one group per vector
//! (broadcast constants). With `s < N` a block of `N/s` consecutive groups (`N·P`
//! contiguous coefficients, P vectors) is transposed in registers
//! ([`Lanes::load_points`]) so that vector `t` holds point `t` of every unit, with
//! per-lane constants from the tables by group ([`Lanes::lanes`]). Every lane runs the
//! scalar unit.

use super::{brv, Cst, DftC, Lanes, Scale};

/// The DFT constants in registers.
pub(crate) struct DftV<L: Lanes> {
    iota: L::C,
    a8: L::C,
    b8: L::C,
    w16: [L::C; 4],
}

impl<L: Lanes> DftV<L> {
    /// Broadcasts `d`.
    #[inline(always)]
    pub(crate) unsafe fn new(d: &DftC<L::E>) -> Self {
        unsafe {
            DftV {
                iota: L::splat(d.iota),
                a8: L::splat(d.a8),
                b8: L::splat(d.b8),
                w16: [
                    L::splat(d.w16[0]),
                    L::splat(d.w16[1]),
                    L::splat(d.w16[2]),
                    L::splat(d.w16[3]),
                ],
            }
        }
    }
}

/// Where a stage's per-group constants come from: row `k` of the unit's table, as
/// (values, companions) by group key.
pub(crate) trait RowSrc<E> {
    /// Row `k`.
    fn row(&self, k: usize) -> (&[E], &[E]);
}

impl<E, const K: usize, const G: usize> RowSrc<E> for super::Rows<E, K, G> {
    #[inline(always)]
    fn row(&self, k: usize) -> (&[E], &[E]) {
        (&self.v[k], &self.c[k])
    }
}

/// Constant `k` of `rows` for the groups from key `g`, `s` lanes each.
#[inline(always)]
unsafe fn lanes<L: Lanes, R: RowSrc<L::E>>(rows: &R, k: usize, g: usize, s: usize) -> L::C {
    let (v, c) = rows.row(k);
    unsafe { L::lanes(v, c, g, s) }
}

/// Cyclic DFT of length 8, natural order in and out (4 products, 26 additions).
#[inline(always)]
unsafe fn dft8<L: Lanes>(x: &[L::V], c: &DftV<L>) -> [L::V; 8] {
    unsafe {
        let (add, sub) = (L::add, L::sub);
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
        let j = L::mul(sub(u[1], u[3]), &c.iota);
        let iv = L::mul(v[2], &c.iota);
        let e = add(v[0], iv);
        let f = sub(v[0], iv);
        let s = L::mul(add(v[1], v[3]), &c.a8);
        let p = L::mul(sub(v[1], v[3]), &c.b8);
        let (g1, g3) = (add(s, p), sub(s, p));
        [
            add(s02, s13),
            add(e, g1),
            add(d02, j),
            add(f, g3),
            sub(s02, s13),
            sub(e, g1),
            sub(d02, j),
            sub(f, g3),
        ]
    }
}

/// Cyclic DFT of length 16, natural order in and out (14 products, 70 additions, 8
/// reductions on a lazy field).
#[inline(always)]
unsafe fn dft16<L: Lanes>(x: &[L::V], c: &DftV<L>) -> [L::V; 16] {
    unsafe {
        let (add, sub) = (L::add, L::sub);
        let mut u = [x[0]; 8];
        let mut v = [x[0]; 8];
        for t in 0..8 {
            u[t] = L::reduce(add(x[t], x[t + 8]));
            v[t] = sub(x[t], x[t + 8]);
        }
        let ev = dft8::<L>(&u, c);
        let iv4 = L::mul(v[4], &c.iota);
        let iv5 = L::mul(v[5], &c.iota);
        let (c0, d0) = (add(v[0], iv4), sub(v[0], iv4));
        let (c1, d1) = (add(v[1], iv5), sub(v[1], iv5));
        let a2 = L::mul(add(v[2], v[6]), &c.a8);
        let b2 = L::mul(sub(v[2], v[6]), &c.b8);
        let a3 = L::mul(add(v[3], v[7]), &c.a8);
        let b3 = L::mul(sub(v[3], v[7]), &c.b8);
        // ω8·c2, ιω8·d2 (and for index 3).
        let (wc2, iwd2) = (add(a2, b2), sub(a2, b2));
        let (wc3, iwd3) = (add(a3, b3), sub(a3, b3));
        // y² = ω8: roots ±ω16; y² = −ω8: ±ω16^5; y² = ιω8: ±ω16^3; y² = −ιω8: ±ω16^7.
        let p1 = (add(c0, wc2), L::mul(add(c1, wc3), &c.w16[0]));
        let p5 = (sub(c0, wc2), L::mul(sub(c1, wc3), &c.w16[1]));
        let p3 = (add(d0, iwd2), L::mul(add(d1, iwd3), &c.w16[2]));
        let p7 = (sub(d0, iwd2), L::mul(sub(d1, iwd3), &c.w16[3]));
        [
            ev[0],
            add(p1.0, p1.1),
            ev[1],
            add(p3.0, p3.1),
            ev[2],
            add(p5.0, p5.1),
            ev[3],
            add(p7.0, p7.1),
            ev[4],
            sub(p1.0, p1.1),
            ev[5],
            sub(p3.0, p3.1),
            ev[6],
            sub(p5.0, p5.1),
            ev[7],
            sub(p7.0, p7.1),
        ]
    }
}

/// DFT8 or DFT16 on P = 8 or 16 registers.
#[inline(always)]
unsafe fn dft<L: Lanes, const P: usize>(y: &[L::V; P], c: &DftV<L>) -> [L::V; P] {
    let mut out = *y;
    unsafe {
        if P == 8 {
            out.copy_from_slice(&dft8::<L>(y, c));
        } else {
            out.copy_from_slice(&dft16::<L>(y, c));
        }
    }
    out
}

/// `x·c`, with `c` a top-stage constant.
#[inline(always)]
unsafe fn mul_top<L: Lanes>(x: L::V, c: Cst<L::E>) -> L::V {
    unsafe { L::mul(x, &L::splat(c)) }
}

/// One unit of P points (2: radix-2, 4: radix-4, 8 / 16: Winograd) on registers `x`
/// (natural order in; stored order out), constants from `rows` for the groups from key
/// `g` with `s` lanes each; `scale`: where the inverse's scaling is (see [`Scale`]).
#[inline(always)]
unsafe fn unit<L: Lanes, const P: usize, R: RowSrc<L::E>>(
    x: &mut [L::V; P],
    inv: bool,
    rows: &R,
    g: usize,
    s: usize,
    c: &DftV<L>,
    scale: Scale<'_, L::E>,
) {
    unsafe {
        let (add, sub, mul) = (L::add, L::sub, L::mul);
        if P == 2 {
            let (u, v) = (x[0], x[1]);
            if let Scale::Top(t) = scale {
                x[0] = mul_top::<L>(add(u, v), t[0]);
                x[1] = mul_top::<L>(sub(u, v), t[1]);
            } else {
                let w = lanes::<L, R>(rows, 0, g, s);
                if inv {
                    x[0] = add(u, v);
                    x[1] = mul(sub(u, v), &w);
                } else {
                    let p = mul(v, &w);
                    x[0] = add(u, p);
                    x[1] = sub(u, p);
                }
            }
        } else if P == 4 {
            if inv {
                let zb0 = lanes::<L, R>(rows, 1, g, s);
                let zb1 = lanes::<L, R>(rows, 2, g, s);
                let y0 = add(x[0], x[1]);
                let y1 = mul(sub(x[0], x[1]), &zb0);
                let y2 = add(x[2], x[3]);
                let y3 = mul(sub(x[2], x[3]), &zb1);
                if let Scale::Top(t) = scale {
                    x[0] = mul_top::<L>(add(y0, y2), t[0]);
                    x[2] = mul_top::<L>(sub(y0, y2), t[1]);
                    x[1] = mul_top::<L>(add(y1, y3), t[0]);
                    x[3] = mul_top::<L>(sub(y1, y3), t[1]);
                } else {
                    let za = lanes::<L, R>(rows, 0, g, s);
                    x[0] = L::reduce(add(y0, y2));
                    x[2] = mul(sub(y0, y2), &za);
                    x[1] = if let Scale::ReduceSums = scale {
                        L::reduce(add(y1, y3))
                    } else {
                        add(y1, y3)
                    };
                    x[3] = mul(sub(y1, y3), &za);
                }
            } else {
                let za = lanes::<L, R>(rows, 0, g, s);
                let zb0 = lanes::<L, R>(rows, 1, g, s);
                let zb1 = lanes::<L, R>(rows, 2, g, s);
                let t2 = mul(x[2], &za);
                let t3 = mul(x[3], &za);
                let (y0, y2) = (add(x[0], t2), sub(x[0], t2));
                let (y1, y3) = (add(x[1], t3), sub(x[1], t3));
                let t1 = mul(y1, &zb0);
                let t3 = mul(y3, &zb1);
                x[0] = add(y0, t1);
                x[1] = sub(y0, t1);
                x[2] = add(y2, t3);
                x[3] = sub(y2, t3);
            }
        } else {
            let l = if P == 8 { 3 } else { 4 };
            if inv {
                let mut y = *x;
                for (k, yk) in y.iter_mut().enumerate() {
                    *yk = x[brv(k, l)];
                }
                let d = dft::<L, P>(&y, c);
                match scale {
                    Scale::Top(t) => {
                        for k in 0..P {
                            x[k] = mul_top::<L>(d[k], t[k]);
                        }
                    }
                    Scale::ScaledRows => {
                        for k in 0..P {
                            x[k] = mul(d[k], &lanes::<L, R>(rows, k, g, s));
                        }
                    }
                    _ => {
                        x[0] = L::reduce(d[0]);
                        for k in 1..P {
                            x[k] = mul(d[k], &lanes::<L, R>(rows, k, g, s));
                        }
                    }
                }
            } else {
                let mut y = *x;
                y[0] = L::reduce(y[0]);
                for (k, yk) in y.iter_mut().enumerate().skip(1) {
                    *yk = mul(*yk, &lanes::<L, R>(rows, k, g, s));
                }
                let d = dft::<L, P>(&y, c);
                for (k, dk) in d.iter().enumerate() {
                    x[brv(k, l)] = *dk;
                }
            }
        }
    }
}

/// One stage: the units of P points (see [`unit`]) at the level with `m` groups over
/// `a` (`n` coefficients), constants from `rows` (the table of this unit and direction)
/// and `dft`, the inverse's scaling as `scale` says.
#[inline(always)]
pub(crate) unsafe fn stage<L: Lanes, const P: usize, R: RowSrc<L::E>>(
    a: &mut [L::E],
    n: usize,
    m: usize,
    inv: bool,
    rows: &R,
    dft: &DftC<L::E>,
    scale: Scale<'_, L::E>,
) {
    let s = n / (m * P);
    let c = unsafe { DftV::<L>::new(dft) };
    unsafe {
        if s >= L::N {
            for i in 0..m {
                for j in (0..s).step_by(L::N) {
                    let o = i * P * s + j;
                    let mut x = [L::load(a, o); P];
                    for (t, xt) in x.iter_mut().enumerate() {
                        *xt = L::load(a, o + t * s);
                    }
                    unit::<L, P, R>(&mut x, inv, rows, m + i, L::N, &c, scale);
                    for (t, xt) in x.iter().enumerate() {
                        L::store(a, o + t * s, *xt);
                    }
                }
            }
        } else {
            for i in (0..m).step_by(L::N / s) {
                let o = i * P * s;
                let mut x = L::load_points::<P>(a, o, s);
                unit::<L, P, R>(&mut x, inv, rows, m + i, s, &c, scale);
                L::store_points::<P>(a, o, s, x);
            }
        }
    }
}
