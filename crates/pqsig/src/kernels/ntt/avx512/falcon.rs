//! AVX-512 NTT variants for Falcon (q = 12289, n = 2^logn): radix-4, Winograd radix-8
//! and Winograd radix-16, forward and inverse, 32 u16 lanes per vector. Arithmetic
//! (canonical throughout, so bit-identical to portable), plans, units and constants are
//! those of the AVX2 variants (`super::super::avx2::falcon`); the vector width and the
//! data movement differ:
//!
//! A stage with stride `s ≥ 32` runs 32 consecutive offsets of one group per vector.
//! With `s < 32` a block of `32/s` consecutive groups (`32·P` contiguous coefficients, P
//! vectors) is transposed in registers (log2(P) passes of two-source word permutes,
//! `vpermt2w`, taking the even or the odd chunks of s lanes of a pair; undone by as many
//! passes), so that vector t holds point t of every unit; per-lane constants are 32
//! table entries by group spread over s lanes each by one permute. Degrees where a level
//! has fewer than 32 lanes of work (n < 32·P) run the AVX-512 radix-2 kernel (same
//! output).

#![allow(unused_unsafe)]

use crate::kernels::falcon::ntt::portable::{inv_n_monty, mq_montymul};
use crate::kernels::falcon::ntt::tables::{GM, IGM};
use crate::kernels::falcon::ntt::{avx512 as radix2, Q, QINV, R};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

// ---------------------------------------------------------------------------------------
// Constants (compile time).

const fn pow_mod(b: u32, mut e: u32) -> u32 {
    let (mut r, mut b) = (1u64, (b % Q) as u64);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % Q as u64;
        }
        b = b * b % Q as u64;
        e >>= 1;
    }
    r as u32
}

const fn brv10(x: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 10 {
        r |= ((x >> i) & 1) << (9 - i);
        i += 1;
    }
    r
}

/// 7^e (e mod 2048), times R (Montgomery form).
const fn g7(e: i64) -> u32 {
    pow_mod(7, e.rem_euclid(2048) as u32) * R % Q
}

const fn qinv(w: u32) -> u16 {
    (w as u16).wrapping_mul(QINV)
}

/// A Montgomery-form constant and its companion.
#[derive(Clone, Copy)]
struct Cst {
    w: u16,
    wq: u16,
}

const fn cst(w: u32) -> Cst {
    Cst {
        w: w as u16,
        wq: qinv(w),
    }
}

/// Short-DFT constants (Montgomery form) of one direction.
#[derive(Clone, Copy)]
struct Dft {
    iota: Cst,
    a8: Cst,
    b8: Cst,
    w16: [Cst; 4],
}

const fn dft_consts(inv: bool) -> Dft {
    let sg: i64 = if inv { -1 } else { 1 };
    let w8 = g7(sg * 256);
    let w8_3 = g7(sg * 768);
    let half = Q.div_ceil(2);
    Dft {
        iota: cst(g7(sg * 512)),
        a8: cst(((w8 + w8_3) % Q) * half % Q),
        b8: cst(((w8 + Q - w8_3) % Q) * half % Q),
        w16: [
            cst(g7(sg * 128)),
            cst(g7(sg * 5 * 128)),
            cst(g7(sg * 3 * 128)),
            cst(g7(sg * 7 * 128)),
        ],
    }
}

const DFT_F: Dft = dft_consts(false);
const DFT_I: Dft = dft_consts(true);

/// Per-group constant rows: `w[k][g]`, `q[k][g]` (value and companion of constant `k` of
/// the unit of group key g = m + i), `K` constants, `G` group keys.
struct Rows<const K: usize, const G: usize> {
    w: [[u16; G]; K],
    q: [[u16; G]; K],
}

/// Radix-4 unit constants by group key g < 512: ζ(g), ζ(2g), ζ(2g + 1).
const fn r4_rows(src: &[u16; 1024]) -> Rows<3, 512> {
    let mut t = Rows {
        w: [[0; 512]; 3],
        q: [[0; 512]; 3],
    };
    let mut g = 1;
    while g < 512 {
        let v = [src[g] as u32, src[2 * g] as u32, src[2 * g + 1] as u32];
        let mut k = 0;
        while k < 3 {
            t.w[k][g] = v[k] as u16;
            t.q[k][g] = qinv(v[k]);
            k += 1;
        }
        g += 1;
    }
    t
}

/// Radix-2 unit constants by group key g < 1024: ζ(g).
const fn r2_rows(src: &[u16; 1024]) -> Rows<1, 1024> {
    let mut t = Rows {
        w: [[0; 1024]; 1],
        q: [[0; 1024]; 1],
    };
    let mut g = 1;
    while g < 1024 {
        t.w[0][g] = src[g];
        t.q[0][g] = qinv(src[g] as u32);
        g += 1;
    }
    t
}

/// Twist powers r^k (or r^−k), k < P, of the Winograd unit of 2^L points by group key
/// g < G: r = ζ(2^(L−1)·g) = 7^brv10(2^(L−1)·g).
const fn twist_rows<const P: usize, const G: usize>(l: u32, inv: bool) -> Rows<P, G> {
    let mut t = Rows {
        w: [[0; G]; P],
        q: [[0; G]; P],
    };
    let mut g = 1;
    while g < G {
        let e = brv10(g << (l - 1)) as i64;
        let mut k = 0;
        while k < P {
            let v = g7(if inv { -e * k as i64 } else { e * k as i64 });
            t.w[k][g] = v as u16;
            t.q[k][g] = qinv(v);
            k += 1;
        }
        g += 1;
    }
    t
}

static R2F: Rows<1, 1024> = r2_rows(&GM);
static R2I: Rows<1, 1024> = r2_rows(&IGM);
static R4F: Rows<3, 512> = r4_rows(&GM);
static R4I: Rows<3, 512> = r4_rows(&IGM);
// Winograd-8 levels have m ≤ 128 (g < 256); Winograd-16 levels m ≤ 64 (g < 128).
static W8F: Rows<8, 256> = twist_rows(3, false);
static W8I: Rows<8, 256> = twist_rows(3, true);
static W16F: Rows<16, 128> = twist_rows(4, false);
static W16I: Rows<16, 128> = twist_rows(4, true);

// ---------------------------------------------------------------------------------------
// Lane arithmetic (canonical). Every `unsafe fn` requires AVX-512 F/BW.

type Tw = (__m512i, __m512i);

#[inline(always)]
unsafe fn qv() -> __m512i {
    unsafe { _mm512_set1_epi16(Q as i16) }
}

#[inline(always)]
unsafe fn addm(a: __m512i, b: __m512i) -> __m512i {
    unsafe {
        let s = _mm512_add_epi16(a, b);
        _mm512_min_epu16(s, _mm512_sub_epi16(s, qv()))
    }
}

#[inline(always)]
unsafe fn subm(a: __m512i, b: __m512i) -> __m512i {
    unsafe {
        let d = _mm512_sub_epi16(a, b);
        _mm512_min_epu16(d, _mm512_add_epi16(d, qv()))
    }
}

/// `x·w/2^16 mod q` in `[0, q)`, x and w canonical (`wq` the companion).
#[inline(always)]
unsafe fn mulm(x: __m512i, w: &Tw) -> __m512i {
    unsafe {
        let m = _mm512_mullo_epi16(x, w.1);
        let hi = _mm512_mulhi_epi16(x, w.0);
        let t = _mm512_mulhi_epu16(m, qv());
        let r = _mm512_sub_epi16(hi, t);
        _mm512_min_epu16(r, _mm512_add_epi16(r, qv()))
    }
}

#[inline(always)]
unsafe fn bc(c: Cst) -> Tw {
    unsafe {
        (
            _mm512_set1_epi16(c.w as i16),
            _mm512_set1_epi16(c.wq as i16),
        )
    }
}

#[inline(always)]
unsafe fn idx(t: &[i16; 32]) -> __m512i {
    unsafe { _mm512_loadu_si512(t.as_ptr() as *const __m512i) }
}

/// `l / s` in lane `l`.
const fn spread_idx(s: usize) -> [i16; 32] {
    let mut t = [0i16; 32];
    let mut l = 0;
    while l < 32 {
        t[l] = (l / s) as i16;
        l += 1;
    }
    t
}

static SPREAD: [[i16; 32]; 5] = [
    spread_idx(1),
    spread_idx(2),
    spread_idx(4),
    spread_idx(8),
    spread_idx(16),
];

/// Lane constants of row `(w, q)` for the groups from key `g` with `s` lanes each
/// (s ≥ 32: all lanes group g).
#[inline(always)]
unsafe fn lanes(w: &[u16], q: &[u16], g: usize, s: usize) -> Tw {
    unsafe { (lanes1(w, g, s), lanes1(q, g, s)) }
}

#[inline(always)]
unsafe fn lanes1(t: &[u16], g: usize, s: usize) -> __m512i {
    unsafe {
        if s >= 32 {
            return _mm512_set1_epi16(t[g] as i16);
        }
        let v = _mm512_loadu_si512(t[g..g + 32].as_ptr() as *const __m512i);
        if s == 1 {
            v
        } else {
            _mm512_permutexvar_epi16(idx(&SPREAD[s.trailing_zeros() as usize]), v)
        }
    }
}

#[inline(always)]
unsafe fn ld(a: &[u16], o: usize) -> __m512i {
    // SAFETY: 32 readable u16 (slice-checked).
    unsafe { _mm512_loadu_si512(a[o..o + 32].as_ptr() as *const __m512i) }
}

#[inline(always)]
unsafe fn st(a: &mut [u16], o: usize, v: __m512i) {
    // SAFETY: 32 writable u16 (slice-checked).
    unsafe { _mm512_storeu_si512(a[o..o + 32].as_mut_ptr() as *mut __m512i, v) }
}

/// Two-source permute indices of the even (`odd` false) or odd chunks of `s` lanes.
const fn unzip_idx(s: usize, odd: bool) -> [i16; 32] {
    let mut t = [0i16; 32];
    let mut l = 0;
    while l < 32 {
        t[l] = ((2 * (l / s) + odd as usize) * s + l % s) as i16;
        l += 1;
    }
    t
}

/// The inverse: lanes of `a` (`hi` false) or `b` from `(e, o)`.
const fn zip_idx(s: usize, hi: bool) -> [i16; 32] {
    let mut t = [0i16; 32];
    let mut l = 0;
    while l < 32 {
        let e = l + 32 * hi as usize;
        let c = e / s;
        t[l] = ((c % 2) * 32 + (c / 2) * s + e % s) as i16;
        l += 1;
    }
    t
}

/// [even, odd, zip-a, zip-b] index vectors for s = 1, 2, 4, 8, 16.
static ZIP: [[[i16; 32]; 4]; 5] = {
    let mut t = [[[0i16; 32]; 4]; 5];
    let mut k = 0;
    while k < 5 {
        let s = 1 << k;
        t[k] = [
            unzip_idx(s, false),
            unzip_idx(s, true),
            zip_idx(s, false),
            zip_idx(s, true),
        ];
        k += 1;
    }
    t
};

/// P contiguous vectors (units of P points at stride s < 32) to point-major.
#[inline(always)]
unsafe fn to_points<const P: usize>(x: &mut [__m512i; P], s: usize) {
    unsafe {
        let z = &ZIP[s.trailing_zeros() as usize];
        let (ie, io) = (idx(&z[0]), idx(&z[1]));
        let mut k = 1;
        while k < P {
            let mut y = *x;
            for i in 0..P / 2 {
                y[i] = _mm512_permutex2var_epi16(x[2 * i], ie, x[2 * i + 1]);
                y[P / 2 + i] = _mm512_permutex2var_epi16(x[2 * i], io, x[2 * i + 1]);
            }
            *x = y;
            k *= 2;
        }
    }
}

#[inline(always)]
unsafe fn from_points<const P: usize>(x: &mut [__m512i; P], s: usize) {
    unsafe {
        let z = &ZIP[s.trailing_zeros() as usize];
        let (ia, ib) = (idx(&z[2]), idx(&z[3]));
        let mut k = 1;
        while k < P {
            let mut y = *x;
            for i in 0..P / 2 {
                y[2 * i] = _mm512_permutex2var_epi16(x[i], ia, x[P / 2 + i]);
                y[2 * i + 1] = _mm512_permutex2var_epi16(x[i], ib, x[P / 2 + i]);
            }
            *x = y;
            k *= 2;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Units.

/// What a stage runs: the unit kind and direction, the top-stage factors of the inverse.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    R2,
    R4,
    W8,
    W16,
}

/// The inverse top stage's scaling: n⁻¹ (Montgomery, `inv_n_monty`) as a constant.
#[derive(Clone, Copy)]
struct Top {
    ni: u32,
}

struct DftV {
    iota: Tw,
    a8: Tw,
    b8: Tw,
    w16: [Tw; 4],
}

#[inline(always)]
unsafe fn dftv(d: &Dft) -> DftV {
    unsafe {
        DftV {
            iota: bc(d.iota),
            a8: bc(d.a8),
            b8: bc(d.b8),
            w16: [bc(d.w16[0]), bc(d.w16[1]), bc(d.w16[2]), bc(d.w16[3])],
        }
    }
}

#[inline(always)]
unsafe fn dft8(x: &[__m512i], c: &DftV) -> [__m512i; 8] {
    unsafe {
        let u = [
            addm(x[0], x[4]),
            addm(x[1], x[5]),
            addm(x[2], x[6]),
            addm(x[3], x[7]),
        ];
        let v = [
            subm(x[0], x[4]),
            subm(x[1], x[5]),
            subm(x[2], x[6]),
            subm(x[3], x[7]),
        ];
        let s02 = addm(u[0], u[2]);
        let d02 = subm(u[0], u[2]);
        let s13 = addm(u[1], u[3]);
        let j = mulm(subm(u[1], u[3]), &c.iota);
        let iv = mulm(v[2], &c.iota);
        let e = addm(v[0], iv);
        let f = subm(v[0], iv);
        let s = mulm(addm(v[1], v[3]), &c.a8);
        let p = mulm(subm(v[1], v[3]), &c.b8);
        let (g1, g3) = (addm(s, p), subm(s, p));
        [
            addm(s02, s13),
            addm(e, g1),
            addm(d02, j),
            addm(f, g3),
            subm(s02, s13),
            subm(e, g1),
            subm(d02, j),
            subm(f, g3),
        ]
    }
}

#[inline(always)]
unsafe fn dft16(x: &[__m512i], c: &DftV) -> [__m512i; 16] {
    unsafe {
        let mut u = [x[0]; 8];
        let mut v = [x[0]; 8];
        for t in 0..8 {
            u[t] = addm(x[t], x[t + 8]);
            v[t] = subm(x[t], x[t + 8]);
        }
        let ev = dft8(&u, c);
        let iv4 = mulm(v[4], &c.iota);
        let iv5 = mulm(v[5], &c.iota);
        let (c0, d0) = (addm(v[0], iv4), subm(v[0], iv4));
        let (c1, d1) = (addm(v[1], iv5), subm(v[1], iv5));
        let a2 = mulm(addm(v[2], v[6]), &c.a8);
        let b2 = mulm(subm(v[2], v[6]), &c.b8);
        let a3 = mulm(addm(v[3], v[7]), &c.a8);
        let b3 = mulm(subm(v[3], v[7]), &c.b8);
        let (wc2, iwd2) = (addm(a2, b2), subm(a2, b2));
        let (wc3, iwd3) = (addm(a3, b3), subm(a3, b3));
        let p1 = (addm(c0, wc2), mulm(addm(c1, wc3), &c.w16[0]));
        let p5 = (subm(c0, wc2), mulm(subm(c1, wc3), &c.w16[1]));
        let p3 = (addm(d0, iwd2), mulm(addm(d1, iwd3), &c.w16[2]));
        let p7 = (subm(d0, iwd2), mulm(subm(d1, iwd3), &c.w16[3]));
        [
            ev[0],
            addm(p1.0, p1.1),
            ev[1],
            addm(p3.0, p3.1),
            ev[2],
            addm(p5.0, p5.1),
            ev[3],
            addm(p7.0, p7.1),
            ev[4],
            subm(p1.0, p1.1),
            ev[5],
            subm(p3.0, p3.1),
            ev[6],
            subm(p5.0, p5.1),
            ev[7],
            subm(p7.0, p7.1),
        ]
    }
}

const fn brv(k: usize, l: u32) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < l {
        r |= ((k >> i) & 1) << (l - 1 - i);
        i += 1;
    }
    r
}

/// Scales a Montgomery-form constant by n⁻¹ (for the inverse's top stage).
#[inline(always)]
unsafe fn scaled(w: u16, top: Top) -> Tw {
    unsafe { bc(cst(mq_montymul(w as u32, top.ni))) }
}

/// Twist constant `k` of the Winograd unit of P points (see [`unit`]).
#[inline(always)]
unsafe fn wrow<const P: usize>(k: usize, inv: bool, top: Option<Top>, g: usize, s: usize) -> Tw {
    unsafe {
        if let Some(tp) = top {
            let w = if P == 8 { W8I.w[k][1] } else { W16I.w[k][1] };
            scaled(w, tp)
        } else if P == 8 {
            let t = if inv { &W8I } else { &W8F };
            lanes(&t.w[k], &t.q[k], g, s)
        } else {
            let t = if inv { &W16I } else { &W16F };
            lanes(&t.w[k], &t.q[k], g, s)
        }
    }
}

/// One unit on registers `x` (P points, natural order in; stored order out), constants
/// for the groups from key `g` with `s` lanes each; `top`: the inverse's top stage.
#[inline(always)]
unsafe fn unit<const P: usize>(
    x: &mut [__m512i; P],
    kind: Kind,
    inv: bool,
    g: usize,
    s: usize,
    c: &DftV,
    top: Option<Top>,
) {
    unsafe {
        match kind {
            Kind::R2 => {
                let t = if inv { &R2I } else { &R2F };
                let (u, v) = (x[0], x[1]);
                if let Some(tp) = top {
                    let ni = bc(cst(tp.ni));
                    let wni = scaled(t.w[0][1], tp);
                    x[0] = mulm(addm(u, v), &ni);
                    x[1] = mulm(subm(u, v), &wni);
                } else {
                    let w = lanes(&t.w[0], &t.q[0], g, s);
                    if inv {
                        x[0] = addm(u, v);
                        x[1] = mulm(subm(u, v), &w);
                    } else {
                        let p = mulm(v, &w);
                        x[0] = addm(u, p);
                        x[1] = subm(u, p);
                    }
                }
            }
            Kind::R4 => {
                let t = if inv { &R4I } else { &R4F };
                if inv {
                    let zb0 = lanes(&t.w[1], &t.q[1], g, s);
                    let zb1 = lanes(&t.w[2], &t.q[2], g, s);
                    let y0 = addm(x[0], x[1]);
                    let y1 = mulm(subm(x[0], x[1]), &zb0);
                    let y2 = addm(x[2], x[3]);
                    let y3 = mulm(subm(x[2], x[3]), &zb1);
                    let (one, za) = match top {
                        Some(tp) => (Some(bc(cst(tp.ni))), scaled(t.w[0][1], tp)),
                        None => (None, lanes(&t.w[0], &t.q[0], g, s)),
                    };
                    let (s02, s13) = (addm(y0, y2), addm(y1, y3));
                    x[0] = match &one {
                        Some(ni) => mulm(s02, ni),
                        None => s02,
                    };
                    x[1] = match &one {
                        Some(ni) => mulm(s13, ni),
                        None => s13,
                    };
                    x[2] = mulm(subm(y0, y2), &za);
                    x[3] = mulm(subm(y1, y3), &za);
                } else {
                    let za = lanes(&t.w[0], &t.q[0], g, s);
                    let zb0 = lanes(&t.w[1], &t.q[1], g, s);
                    let zb1 = lanes(&t.w[2], &t.q[2], g, s);
                    let t2 = mulm(x[2], &za);
                    let t3 = mulm(x[3], &za);
                    let (y0, y2) = (addm(x[0], t2), subm(x[0], t2));
                    let (y1, y3) = (addm(x[1], t3), subm(x[1], t3));
                    let t1 = mulm(y1, &zb0);
                    let t3 = mulm(y3, &zb1);
                    x[0] = addm(y0, t1);
                    x[1] = subm(y0, t1);
                    x[2] = addm(y2, t3);
                    x[3] = subm(y2, t3);
                }
            }
            Kind::W8 | Kind::W16 => {
                let l = if P == 8 { 3 } else { 4 };
                if inv {
                    let mut y = *x;
                    for (k, yk) in y.iter_mut().enumerate() {
                        *yk = x[brv(k, l)];
                    }
                    let d: [__m512i; P] = dft_any::<P>(&y, c);
                    x[0] = if top.is_some() {
                        mulm(d[0], &wrow::<P>(0, inv, top, g, s))
                    } else {
                        d[0]
                    };
                    for t in 1..P {
                        x[t] = mulm(d[t], &wrow::<P>(t, inv, top, g, s));
                    }
                } else {
                    let mut y = *x;
                    for (t, yt) in y.iter_mut().enumerate().skip(1) {
                        *yt = mulm(*yt, &wrow::<P>(t, inv, top, g, s));
                    }
                    let d: [__m512i; P] = dft_any::<P>(&y, c);
                    for (k, dk) in d.iter().enumerate() {
                        x[brv(k, l)] = *dk;
                    }
                }
            }
        }
    }
}

#[inline(always)]
unsafe fn dft_any<const P: usize>(y: &[__m512i; P], c: &DftV) -> [__m512i; P] {
    let mut out = *y;
    unsafe {
        if P == 8 {
            out.copy_from_slice(&dft8(y, c));
        } else {
            out.copy_from_slice(&dft16(y, c));
        }
    }
    out
}

/// One stage: the units of P = 2^L points at the level with `m` groups over `a` (n
/// coefficients), as laid out in the module docs.
#[inline(always)]
unsafe fn stage<const P: usize>(
    a: &mut [u16],
    n: usize,
    m: usize,
    kind: Kind,
    inv: bool,
    top: Option<Top>,
) {
    let s = n / (m * P);
    let c = unsafe { dftv(if inv { &DFT_I } else { &DFT_F }) };
    unsafe {
        if s >= 32 {
            for i in 0..m {
                for j in (0..s).step_by(32) {
                    let o = i * P * s + j;
                    let mut x = [ld(a, o); P];
                    for (t, xt) in x.iter_mut().enumerate() {
                        *xt = ld(a, o + t * s);
                    }
                    unit::<P>(&mut x, kind, inv, m + i, 32, &c, top);
                    for (t, xt) in x.iter().enumerate() {
                        st(a, o + t * s, *xt);
                    }
                }
            }
        } else {
            let g = 32 / s;
            for i in (0..m).step_by(g) {
                let o = i * P * s;
                let mut x = [ld(a, o); P];
                for (k, xk) in x.iter_mut().enumerate() {
                    *xk = ld(a, o + 32 * k);
                }
                to_points::<P>(&mut x, s);
                unit::<P>(&mut x, kind, inv, m + i, s, &c, top);
                from_points::<P>(&mut x, s);
                for (k, xk) in x.iter().enumerate() {
                    st(a, o + 32 * k, *xk);
                }
            }
        }
    }
}

#[inline(always)]
unsafe fn run_stage(a: &mut [u16], n: usize, m: usize, layers: u32, inv: bool, top: Option<Top>) {
    unsafe {
        match layers {
            1 => stage::<2>(a, n, m, Kind::R2, inv, top),
            2 => stage::<4>(a, n, m, Kind::R4, inv, top),
            3 => stage::<8>(a, n, m, Kind::W8, inv, top),
            _ => stage::<16>(a, n, m, Kind::W16, inv, top),
        }
    }
}

/// The plan of a variant with units of `k` layers: the leftover first, then full units.
fn plan(logn: u32, k: u32) -> ([u32; 12], usize) {
    let mut p = [0u32; 12];
    let mut len = 0;
    if !logn.is_multiple_of(k) {
        p[0] = logn % k;
        len = 1;
    }
    let mut done = logn % k;
    while done < logn {
        p[len] = k;
        len += 1;
        done += k;
    }
    (p, len)
}

#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn ntt_one(a: &mut [u16], logn: u32, k: u32) {
    let n = 1usize << logn;
    let (p, len) = plan(logn, k);
    let mut m = 1;
    for &l in &p[..len] {
        unsafe { run_stage(a, n, m, l, false, None) };
        m <<= l;
    }
}

#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn intt_one(a: &mut [u16], logn: u32, k: u32) {
    let n = 1usize << logn;
    let (p, len) = plan(logn, k);
    let mut m = n;
    for (idx, &l) in p[..len].iter().enumerate().rev() {
        m >>= l;
        let top = if idx == 0 {
            Some(Top {
                ni: inv_n_monty(logn),
            })
        } else {
            None
        };
        unsafe { run_stage(a, n, m, l, true, top) };
    }
}

/// Smallest logn each variant vectorises (every level has at least 32 lanes of work).
const fn min_logn(k: u32) -> u32 {
    match k {
        2 => 7,
        3 => 8,
        _ => 9,
    }
}

fn fwd(a: &mut [u16], logn: u32, k: u32) {
    assert!(
        Backend::Avx512.is_available(),
        "AVX-512 kernel without AVX-512"
    );
    if logn < min_logn(k) {
        return (radix2::KERNELS.ntt)(a, logn);
    }
    let n = 1usize << logn;
    debug_assert!(a.len().is_multiple_of(n));
    for p in a.chunks_exact_mut(n) {
        // SAFETY: AVX-512 F/BW (and AVX2) are available (checked above).
        unsafe { ntt_one(p, logn, k) }
    }
}

fn inv(a: &mut [u16], logn: u32, k: u32) {
    assert!(
        Backend::Avx512.is_available(),
        "AVX-512 kernel without AVX-512"
    );
    if logn < min_logn(k) {
        return (radix2::KERNELS.intt)(a, logn);
    }
    let n = 1usize << logn;
    debug_assert!(a.len().is_multiple_of(n));
    for p in a.chunks_exact_mut(n) {
        // SAFETY: AVX-512 F/BW (and AVX2) are available (checked above).
        unsafe { intt_one(p, logn, k) }
    }
}

#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn stage_one(a: &mut [u16], logn: u32, m: usize, layers: u32, inverse: bool) {
    unsafe { run_stage(a, 1 << logn, m, layers, inverse, None) }
}

/// One stage of units alone, on every polynomial of `a` (a study and benchmark hook, not
/// a transform): `layers` = 1 (radix-2), 2 (radix-4), 3 (Winograd radix-8) or 4
/// (Winograd radix-16) units at the level with `m` groups, forward or inverse (the
/// inverse without the top stage's 1/n). Canonical in, canonical out. Requires
/// `m · 2^layers ≤ n` and at least 32 lanes of work per point (`n ≥ 32·2^layers`).
#[doc(hidden)]
pub fn falcon_stage(a: &mut [u16], logn: u32, m: usize, layers: u32, inverse: bool) {
    assert!(
        Backend::Avx512.is_available(),
        "AVX-512 kernel without AVX-512"
    );
    let n = 1usize << logn;
    assert!((1..=4).contains(&layers) && m.is_power_of_two());
    assert!(m << layers <= n && n >> layers >= 32, "stage shape");
    for p in a.chunks_exact_mut(n) {
        // SAFETY: AVX-512 F/BW (and AVX2) is available (checked above); the shape was checked.
        unsafe { stage_one(p, logn, m, layers, inverse) }
    }
}

/// Forward NTT, radix-4 units (semantics of `NttKernels::ntt`).
pub fn falcon_ntt_radix4(a: &mut [u16], logn: u32) {
    fwd(a, logn, 2)
}

/// Inverse NTT (with 1/n), radix-4 units (semantics of `NttKernels::intt`).
pub fn falcon_intt_radix4(a: &mut [u16], logn: u32) {
    inv(a, logn, 2)
}

/// Forward NTT, Winograd radix-8 units.
pub fn falcon_ntt_winograd8(a: &mut [u16], logn: u32) {
    fwd(a, logn, 3)
}

/// Inverse NTT (with 1/n), Winograd radix-8 units.
pub fn falcon_intt_winograd8(a: &mut [u16], logn: u32) {
    inv(a, logn, 3)
}

/// Forward NTT, Winograd radix-16 units.
pub fn falcon_ntt_winograd16(a: &mut [u16], logn: u32) {
    fwd(a, logn, 4)
}

/// Inverse NTT (with 1/n), Winograd radix-16 units.
pub fn falcon_intt_winograd16(a: &mut [u16], logn: u32) {
    inv(a, logn, 4)
}
