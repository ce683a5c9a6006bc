//! AVX-512 NTT variants for ML-DSA (q = 8380417, n = 256): radix-4, Winograd radix-8
//! (plan 4·8·8) and Winograd radix-16 (plan 16·16), forward and inverse, sixteen i32
//! lanes per vector. The arithmetic, units, constants and bounds are those of the AVX2
//! variants (`super::super::avx2::mldsa`, whose module docs give the DFT algorithms and
//! the bound analysis); only the vector width and the data movement differ.
//!
//! # Vectorisation
//! A stage with stride `s ≥ 16` runs sixteen consecutive offsets of one group per vector
//! (broadcast constants). With `s < 16`, a block of `16/s` consecutive groups (`16·P`
//! contiguous coefficients, P vectors) is transposed in registers so that vector `t`
//! holds point `t` of every unit (lane `l`: group `l / s`, offset `l mod s`): log2(P)
//! "unzip" passes (each output one two-source lane permute, `vpermt2d`, taking the even
//! or the odd chunks of s lanes of a pair), undone by as many "zip" passes. Per-lane
//! constants are sixteen table entries by group, spread to s lanes each by one permute.
//! The 32 zmm registers hold a whole Winograd-16 unit with its constants.

#![allow(unused_unsafe)]

use crate::kernels::mldsa::{Poly, N, Q};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

// ---------------------------------------------------------------------------------------
// Constants (compile time).

const QL: i64 = Q as i64;
/// ψ = 1753, a primitive 512-th root of unity mod q (ζ of FIPS 204).
const PSI: i64 = 1753;

const fn pow_mod(mut b: i64, mut e: u64) -> i64 {
    let mut r = 1i64;
    b = b.rem_euclid(QL);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % QL;
        }
        b = b * b % QL;
        e >>= 1;
    }
    r
}

const fn centre(x: i64) -> i32 {
    let x = x.rem_euclid(QL);
    (if x > QL / 2 { x - QL } else { x }) as i32
}

const fn brv8(x: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 8 {
        r |= ((x >> i) & 1) << (7 - i);
        i += 1;
    }
    r
}

/// ψ^e (e taken mod 512), centred.
const fn psi(e: i64) -> i32 {
    centre(pow_mod(PSI, e.rem_euclid(512) as u64))
}

/// Shoup companion round(z·2^32/q) of a centred z.
const fn shoup(z: i32) -> i32 {
    ((((z as i64) << 33) + QL).div_euclid(2 * QL)) as i32
}

/// 1/2 mod q.
const INV2: i64 = (QL + 1) / 2;
/// 2^32 / 256 mod q: the inverse's scaling (1/n and the Montgomery factor 2^32).
const SCALE: i64 = (1i64 << 24) % QL;

/// A constant and its companion.
#[derive(Clone, Copy)]
struct Cst {
    z: i32,
    s: i32,
}

const fn cst(z: i64) -> Cst {
    let z = centre(z);
    Cst { z, s: shoup(z) }
}

/// ζ(k) = ψ^brv8(k), forward; its inverse for `inv`.
const fn zeta(k: usize, inv: bool) -> i64 {
    let e = brv8(k) as i64;
    psi(if inv { -e } else { e }) as i64
}

/// The short-DFT constants of one direction.
#[derive(Clone, Copy)]
struct Dft {
    iota: Cst,
    a8: Cst,
    b8: Cst,
    w16: [Cst; 4],
}

const fn dft_consts(inv: bool) -> Dft {
    // ω_P = ψ^(512/P); inverse: every root inverted.
    let sg = if inv { -1 } else { 1 };
    let w8 = psi(sg * 64) as i64;
    let w8_3 = psi(sg * 192) as i64;
    Dft {
        iota: cst(psi(sg * 128) as i64),
        a8: cst((w8 + w8_3) * INV2),
        b8: cst((w8 - w8_3) * INV2),
        w16: [
            cst(psi(sg * 32) as i64),
            cst(psi(sg * 5 * 32) as i64),
            cst(psi(sg * 3 * 32) as i64),
            cst(psi(sg * 7 * 32) as i64),
        ],
    }
}

const DFT_F: Dft = dft_consts(false);
const DFT_I: Dft = dft_consts(true);

/// Radix-4 twiddles by group key g = m + i: `A[g] = ζ(g)`, `B0[g] = ζ(2g)`,
/// `B1[g] = ζ(2g + 1)` (forward or inverse), for g < 128, as (values, companions) rows
/// so that eight consecutive groups are one load. Index 0 unused.
struct R4 {
    a: [[i32; 128]; 2],
    b0: [[i32; 128]; 2],
    b1: [[i32; 128]; 2],
    /// The top unit's (g = 1) inverse constants with the scaling folded in:
    /// [SCALE, ζ⁻¹(1)·SCALE] as (z, s).
    top: [Cst; 2],
}

const fn r4_table(inv: bool) -> R4 {
    let mut t = R4 {
        a: [[0; 128]; 2],
        b0: [[0; 128]; 2],
        b1: [[0; 128]; 2],
        top: [cst(SCALE), cst(zeta(1, true) * SCALE)],
    };
    let mut g = 1;
    while g < 128 {
        let a = cst(zeta(g, inv));
        let b0 = cst(zeta(2 * g, inv));
        let b1 = cst(zeta(2 * g + 1, inv));
        t.a[0][g] = a.z;
        t.a[1][g] = a.s;
        t.b0[0][g] = b0.z;
        t.b0[1][g] = b0.s;
        t.b1[0][g] = b1.z;
        t.b1[1][g] = b1.s;
        g += 1;
    }
    t
}

/// Radix-2 twiddles ζ(g) (forward or inverse) by group key g < 256: (values,
/// companions).
const fn r2_table(inv: bool) -> [[i32; 256]; 2] {
    let mut t = [[0; 256]; 2];
    let mut g = 1;
    while g < 256 {
        let c = cst(zeta(g, inv));
        t[0][g] = c.z;
        t[1][g] = c.s;
        g += 1;
    }
    t
}

static R2F: [[i32; 256]; 2] = r2_table(false);
static R2I: [[i32; 256]; 2] = r2_table(true);
static R4F: R4 = r4_table(false);
static R4I: R4 = r4_table(true);

/// Twist powers of the Winograd units of `P = 2^L` points by group key g = m + i < G:
/// `t[k][0][g]`, `t[k][1][g]` = r^k (or r^−k) and its companion, r = ζ(2^(L−1)·g);
/// with `scale`, times SCALE (the inverse's top unit, and k = 0 included).
struct Twist<const P: usize, const G: usize> {
    t: [[[i32; G]; 2]; P],
}

const fn twist<const P: usize, const G: usize>(l: u32, inv: bool, scale: bool) -> Twist<P, G> {
    let mut t = Twist {
        t: [[[0; G]; 2]; P],
    };
    let mut g = 1;
    while g < G {
        let e = brv8(g << (l - 1)) as i64;
        let mut k = 0;
        while k < P {
            let mut v = psi(if inv { -e * k as i64 } else { e * k as i64 }) as i64;
            if scale {
                v = v * SCALE % QL;
            }
            let c = cst(v);
            t.t[k][0][g] = c.z;
            t.t[k][1][g] = c.s;
            k += 1;
        }
        g += 1;
    }
    t
}

// Winograd-8 levels: m = 4 (g < 8) and m = 32 (g < 64). Winograd-16: m = 1, 16 (g < 32).
static TW8F: Twist<8, 64> = twist(3, false, false);
static TW8I: Twist<8, 64> = twist(3, true, false);
static TW16F: Twist<16, 32> = twist(4, false, false);
static TW16I: Twist<16, 32> = twist(4, true, false);
static TW16IS: Twist<16, 2> = twist(4, true, true);

// ---------------------------------------------------------------------------------------
// Lane arithmetic. Every `unsafe fn` requires AVX-512 F (inlined into the
// `#[target_feature]` entry points).

/// A constant vector: values, companions (even lanes), companions of the odd lanes moved
/// to the even ones.
type Tw = [__m512i; 3];

#[inline(always)]
unsafe fn odd_even(a: __m512i) -> __m512i {
    unsafe { _mm512_shuffle_epi32::<0xF5>(a) }
}

#[inline(always)]
unsafe fn bc(c: Cst) -> Tw {
    unsafe {
        let s = _mm512_set1_epi32(c.s);
        [_mm512_set1_epi32(c.z), s, s]
    }
}

#[inline(always)]
unsafe fn ldv(t: &[i32], g: usize) -> __m512i {
    // SAFETY: 16 readable i32 (slice-checked).
    unsafe { _mm512_loadu_si512(t[g..g + 16].as_ptr() as *const __m512i) }
}

/// `l / s` in lane `l`: spreads entry `k` of a vector over lanes `k·s..(k+1)·s`.
const fn spread_idx(s: usize) -> [i32; 16] {
    let mut t = [0i32; 16];
    let mut l = 0;
    while l < 16 {
        t[l] = (l / s) as i32;
        l += 1;
    }
    t
}

static SPREAD: [[i32; 16]; 4] = [spread_idx(1), spread_idx(2), spread_idx(4), spread_idx(8)];

#[inline(always)]
unsafe fn idx(t: &[i32; 16]) -> __m512i {
    unsafe { _mm512_loadu_si512(t.as_ptr() as *const __m512i) }
}

/// Per-lane constants for the groups from key `g`, `s` lanes each (s ≥ 16: broadcast).
#[inline(always)]
unsafe fn lanes(z: &[i32], s_: &[i32], g: usize, s: usize) -> Tw {
    unsafe {
        if s >= 16 {
            return bc(Cst { z: z[g], s: s_[g] });
        }
        let (mut zv, mut sv) = (ldv(z, g), ldv(s_, g));
        if s > 1 {
            let i = idx(&SPREAD[s.trailing_zeros() as usize]);
            zv = _mm512_permutexvar_epi32(i, zv);
            sv = _mm512_permutexvar_epi32(i, sv);
        }
        [zv, sv, odd_even(sv)]
    }
}

/// `h·z mod q`, rounded Shoup product: |r| ≤ q(1/2 + |h|/2^33).
#[inline(always)]
unsafe fn mulc(h: __m512i, c: &Tw) -> __m512i {
    unsafe {
        let half = _mm512_set1_epi64(1 << 31);
        let pe = _mm512_add_epi64(_mm512_mul_epi32(h, c[1]), half);
        let po = _mm512_add_epi64(_mm512_mul_epi32(odd_even(h), c[2]), half);
        let t = _mm512_mask_blend_epi32(0xAAAA, odd_even(pe), po);
        let hz = _mm512_mullo_epi32(h, c[0]);
        _mm512_sub_epi32(hz, _mm512_mullo_epi32(t, _mm512_set1_epi32(Q)))
    }
}

/// `a − round(a/2^23)·q`: |out| ≤ 0.75q for a ≤ 2^31 − 2^22 − 1.
#[inline(always)]
unsafe fn red(a: __m512i) -> __m512i {
    unsafe {
        let t = _mm512_srai_epi32::<23>(_mm512_add_epi32(a, _mm512_set1_epi32(1 << 22)));
        _mm512_sub_epi32(a, _mm512_mullo_epi32(t, _mm512_set1_epi32(Q)))
    }
}

#[inline(always)]
unsafe fn add(a: __m512i, b: __m512i) -> __m512i {
    unsafe { _mm512_add_epi32(a, b) }
}

#[inline(always)]
unsafe fn sub(a: __m512i, b: __m512i) -> __m512i {
    unsafe { _mm512_sub_epi32(a, b) }
}

#[inline(always)]
unsafe fn ld(a: &[i32; N], o: usize) -> __m512i {
    // SAFETY: o + 16 ≤ 256 (slice-checked).
    unsafe { _mm512_loadu_si512(a[o..o + 16].as_ptr() as *const __m512i) }
}

#[inline(always)]
unsafe fn st(a: &mut [i32; N], o: usize, v: __m512i) {
    // SAFETY: o + 16 ≤ 256 (slice-checked).
    unsafe { _mm512_storeu_si512(a[o..o + 16].as_mut_ptr() as *mut __m512i, v) }
}

/// Two-source permute indices (into the 32 lanes of `(a, b)`) of the even chunks (`odd`
/// false) or odd chunks of `s` lanes.
const fn unzip_idx(s: usize, odd: bool) -> [i32; 16] {
    let mut t = [0i32; 16];
    let mut l = 0;
    while l < 16 {
        let c = l / s;
        t[l] = ((2 * c + odd as usize) * s + l % s) as i32;
        l += 1;
    }
    t
}

/// The inverse: lanes of `a` (`hi` false) or `b` from `(e, o)`.
const fn zip_idx(s: usize, hi: bool) -> [i32; 16] {
    let mut t = [0i32; 16];
    let mut l = 0;
    while l < 16 {
        let e = l + 16 * hi as usize;
        let c = e / s;
        t[l] = ((c % 2) * 16 + (c / 2) * s + e % s) as i32;
        l += 1;
    }
    t
}

/// [even, odd, zip-a, zip-b] index vectors for s = 1, 2, 4, 8.
static ZIP: [[[i32; 16]; 4]; 4] = {
    let mut t = [[[0i32; 16]; 4]; 4];
    let mut k = 0;
    while k < 4 {
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

/// P contiguous vectors (units of P points at stride s < 16, 16/s groups) to
/// point-major: vector t holds point t of every unit.
#[inline(always)]
unsafe fn to_points<const P: usize>(x: &mut [__m512i; P], s: usize) {
    unsafe {
        let z = &ZIP[s.trailing_zeros() as usize];
        let (ie, io) = (idx(&z[0]), idx(&z[1]));
        let mut k = 1;
        while k < P {
            let mut y = *x;
            for i in 0..P / 2 {
                y[i] = _mm512_permutex2var_epi32(x[2 * i], ie, x[2 * i + 1]);
                y[P / 2 + i] = _mm512_permutex2var_epi32(x[2 * i], io, x[2 * i + 1]);
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
                y[2 * i] = _mm512_permutex2var_epi32(x[i], ia, x[P / 2 + i]);
                y[2 * i + 1] = _mm512_permutex2var_epi32(x[i], ib, x[P / 2 + i]);
            }
            *x = y;
            k *= 2;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Units on registers.

/// The DFT constants as vectors.
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

/// Cyclic DFT of length 8, natural order in and out (4 products).
#[inline(always)]
unsafe fn dft8(x: &[__m512i], c: &DftV) -> [__m512i; 8] {
    unsafe {
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
        let j = mulc(sub(u[1], u[3]), &c.iota);
        let iv = mulc(v[2], &c.iota);
        let e = add(v[0], iv);
        let f = sub(v[0], iv);
        let s = mulc(add(v[1], v[3]), &c.a8);
        let p = mulc(sub(v[1], v[3]), &c.b8);
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

/// Cyclic DFT of length 16, natural order in and out (14 products, 8 reductions).
#[inline(always)]
unsafe fn dft16(x: &[__m512i], c: &DftV) -> [__m512i; 16] {
    unsafe {
        let mut u = [x[0]; 8];
        let mut v = [x[0]; 8];
        for t in 0..8 {
            u[t] = red(add(x[t], x[t + 8]));
            v[t] = sub(x[t], x[t + 8]);
        }
        let ev = dft8(&u, c);
        let iv4 = mulc(v[4], &c.iota);
        let iv5 = mulc(v[5], &c.iota);
        let (c0, d0) = (add(v[0], iv4), sub(v[0], iv4));
        let (c1, d1) = (add(v[1], iv5), sub(v[1], iv5));
        let a2 = mulc(add(v[2], v[6]), &c.a8);
        let b2 = mulc(sub(v[2], v[6]), &c.b8);
        let a3 = mulc(add(v[3], v[7]), &c.a8);
        let b3 = mulc(sub(v[3], v[7]), &c.b8);
        let (wc2, iwd2) = (add(a2, b2), sub(a2, b2));
        let (wc3, iwd3) = (add(a3, b3), sub(a3, b3));
        let p1 = (add(c0, wc2), mulc(add(c1, wc3), &c.w16[0]));
        let p5 = (sub(c0, wc2), mulc(sub(c1, wc3), &c.w16[1]));
        let p3 = (add(d0, iwd2), mulc(add(d1, iwd3), &c.w16[2]));
        let p7 = (sub(d0, iwd2), mulc(sub(d1, iwd3), &c.w16[3]));
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

const fn brv(k: usize, l: u32) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < l {
        r |= ((k >> i) & 1) << (l - 1 - i);
        i += 1;
    }
    r
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

/// Twist constant `k` of the Winograd unit of P points for the groups from key `g`.
#[inline(always)]
unsafe fn wrow<const P: usize>(k: usize, inv: bool, top: bool, g: usize, s: usize) -> Tw {
    unsafe {
        if top {
            bc(Cst {
                z: TW16IS.t[k][0][1],
                s: TW16IS.t[k][1][1],
            })
        } else if P == 8 {
            let t = if inv { &TW8I } else { &TW8F };
            lanes(&t.t[k][0], &t.t[k][1], g, s)
        } else {
            let t = if inv { &TW16I } else { &TW16F };
            lanes(&t.t[k][0], &t.t[k][1], g, s)
        }
    }
}

/// One unit on registers (natural point order in, stored order out) for the groups from
/// key `g` with `s` lanes each; `top`: the inverse's top stage (m = 1), with the
/// scaling folded in.
#[inline(always)]
unsafe fn unit<const P: usize>(
    x: &mut [__m512i; P],
    inv: bool,
    g: usize,
    s: usize,
    c: &DftV,
    top: bool,
) {
    unsafe {
        if P == 2 {
            // Radix-2 (only for `mldsa_stage`; never the top stage).
            let t = if inv { &R2I } else { &R2F };
            let z = lanes(&t[0], &t[1], g, s);
            let (u, v) = (x[0], x[1]);
            if inv {
                x[0] = add(u, v);
                x[1] = mulc(sub(u, v), &z);
            } else {
                let p = mulc(v, &z);
                x[0] = add(u, p);
                x[1] = sub(u, p);
            }
        } else if P == 4 {
            let t = if inv { &R4I } else { &R4F };
            let zb0 = lanes(&t.b0[0], &t.b0[1], g, s);
            let zb1 = lanes(&t.b1[0], &t.b1[1], g, s);
            if inv {
                let y0 = add(x[0], x[1]);
                let y1 = mulc(sub(x[0], x[1]), &zb0);
                let y2 = add(x[2], x[3]);
                let y3 = mulc(sub(x[2], x[3]), &zb1);
                if top {
                    let (sc, zsc) = (bc(t.top[0]), bc(t.top[1]));
                    x[0] = mulc(add(y0, y2), &sc);
                    x[2] = mulc(sub(y0, y2), &zsc);
                    x[1] = mulc(add(y1, y3), &sc);
                    x[3] = mulc(sub(y1, y3), &zsc);
                } else {
                    let za = lanes(&t.a[0], &t.a[1], g, s);
                    x[0] = red(add(y0, y2));
                    x[2] = mulc(sub(y0, y2), &za);
                    x[1] = add(y1, y3);
                    x[3] = mulc(sub(y1, y3), &za);
                }
            } else {
                let za = lanes(&t.a[0], &t.a[1], g, s);
                let t2 = mulc(x[2], &za);
                let t3 = mulc(x[3], &za);
                let (y0, y2) = (add(x[0], t2), sub(x[0], t2));
                let (y1, y3) = (add(x[1], t3), sub(x[1], t3));
                let t1 = mulc(y1, &zb0);
                let t3 = mulc(y3, &zb1);
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
                let d = dft_any::<P>(&y, c);
                x[0] = if top {
                    mulc(d[0], &wrow::<P>(0, inv, top, g, s))
                } else {
                    red(d[0])
                };
                for (t, xt) in x.iter_mut().enumerate().skip(1) {
                    *xt = mulc(d[t], &wrow::<P>(t, inv, top, g, s));
                }
            } else {
                let mut y = *x;
                y[0] = red(y[0]);
                for (t, yt) in y.iter_mut().enumerate().skip(1) {
                    *yt = mulc(*yt, &wrow::<P>(t, inv, top, g, s));
                }
                let d = dft_any::<P>(&y, c);
                for (k, dk) in d.iter().enumerate() {
                    x[brv(k, l)] = *dk;
                }
            }
        }
    }
}

/// One stage: the units of P points at the level with `m` groups.
#[inline(always)]
unsafe fn stage<const P: usize>(a: &mut [i32; N], m: usize, inv: bool) {
    let s = N / (m * P);
    let top = inv && m == 1;
    let c = unsafe { dftv(if inv { &DFT_I } else { &DFT_F }) };
    unsafe {
        if s >= 16 {
            for i in 0..m {
                for j in (0..s).step_by(16) {
                    let o = i * P * s + j;
                    let mut x = [ld(a, o); P];
                    for (t, xt) in x.iter_mut().enumerate() {
                        *xt = ld(a, o + t * s);
                    }
                    unit::<P>(&mut x, inv, m + i, 16, &c, top);
                    for (t, xt) in x.iter().enumerate() {
                        st(a, o + t * s, *xt);
                    }
                }
            }
        } else {
            let g = 16 / s;
            for i in (0..m).step_by(g) {
                let o = i * P * s;
                let mut x = [ld(a, o); P];
                for (k, xk) in x.iter_mut().enumerate() {
                    *xk = ld(a, o + 16 * k);
                }
                to_points::<P>(&mut x, s);
                unit::<P>(&mut x, inv, m + i, s, &c, top);
                from_points::<P>(&mut x, s);
                for (k, xk) in x.iter().enumerate() {
                    st(a, o + 16 * k, *xk);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Transforms.

#[target_feature(enable = "avx2,avx512f")]
unsafe fn ntt_radix4_one(a: &mut [i32; N]) {
    for m in [1, 4, 16, 64] {
        unsafe { stage::<4>(a, m, false) };
    }
}

#[target_feature(enable = "avx2,avx512f")]
unsafe fn invntt_radix4_one(a: &mut [i32; N]) {
    for m in [64, 16, 4, 1] {
        unsafe { stage::<4>(a, m, true) };
    }
}

#[target_feature(enable = "avx2,avx512f")]
unsafe fn ntt_w8_one(a: &mut [i32; N]) {
    unsafe {
        stage::<4>(a, 1, false);
        stage::<8>(a, 4, false);
        stage::<8>(a, 32, false);
    }
}

#[target_feature(enable = "avx2,avx512f")]
unsafe fn invntt_w8_one(a: &mut [i32; N]) {
    unsafe {
        stage::<8>(a, 32, true);
        stage::<8>(a, 4, true);
        stage::<4>(a, 1, true);
    }
}

#[target_feature(enable = "avx2,avx512f")]
unsafe fn ntt_w16_one(a: &mut [i32; N]) {
    unsafe {
        stage::<16>(a, 1, false);
        stage::<16>(a, 16, false);
    }
}

#[target_feature(enable = "avx2,avx512f")]
unsafe fn invntt_w16_one(a: &mut [i32; N]) {
    unsafe {
        stage::<16>(a, 16, true);
        stage::<16>(a, 1, true);
    }
}

fn each(a: &mut [Poly], f: unsafe fn(&mut [i32; N])) {
    assert!(
        Backend::Avx512.is_available(),
        "AVX-512 kernel without AVX-512"
    );
    for p in a.iter_mut() {
        // SAFETY: AVX-512 F (and AVX2) is available (checked above).
        unsafe { f(&mut p.coeffs) }
    }
}

#[target_feature(enable = "avx2,avx512f")]
unsafe fn stage_one(a: &mut [i32; N], m: usize, layers: u32, inverse: bool) {
    // The inverse's top-stage scaling is not applied here: `stage` would fold it in at
    // m = 1, so the hook runs those as plain units (m ≥ 2 only, checked by the caller).
    unsafe {
        match layers {
            1 => stage::<2>(a, m, inverse),
            2 => stage::<4>(a, m, inverse),
            3 => stage::<8>(a, m, inverse),
            _ => stage::<16>(a, m, inverse),
        }
    }
}

/// One stage of units alone, on every polynomial (a study and benchmark hook, not a
/// transform): `layers` = 1 (radix-2), 2 (radix-4), 3 (Winograd radix-8) or 4 (Winograd
/// radix-16) units at the level with `m` groups (the inverse needs m ≥ 2), forward or
/// inverse. Inputs |a| < q; outputs congruent to the units' exact results.
#[doc(hidden)]
pub fn mldsa_stage(a: &mut [Poly], m: usize, layers: u32, inverse: bool) {
    assert!(
        Backend::Avx512.is_available(),
        "AVX-512 kernel without AVX-512"
    );
    assert!((1..=4).contains(&layers) && m.is_power_of_two() && m << layers <= N);
    assert!(!inverse || m >= 2, "stage shape");
    for p in a.iter_mut() {
        // SAFETY: AVX-512 F (and AVX2) is available (checked above).
        unsafe { stage_one(&mut p.coeffs, m, layers, inverse) }
    }
}

/// Forward NTT, radix-4 (two layers per pass). Bounds of `mldsa::Kernels::ntt`.
pub fn mldsa_ntt_radix4(a: &mut [Poly]) {
    each(a, ntt_radix4_one)
}

/// Inverse NTT times 2^32, radix-4. Bounds of `mldsa::Kernels::invntt_tomont`.
pub fn mldsa_invntt_radix4(a: &mut [Poly]) {
    each(a, invntt_radix4_one)
}

/// Forward NTT, Winograd radix-8 units (radix-4 lead stage, then two radix-8 stages).
pub fn mldsa_ntt_winograd8(a: &mut [Poly]) {
    each(a, ntt_w8_one)
}

/// Inverse NTT times 2^32, Winograd radix-8 units.
pub fn mldsa_invntt_winograd8(a: &mut [Poly]) {
    each(a, invntt_w8_one)
}

/// Forward NTT, Winograd radix-16 units (two stages).
pub fn mldsa_ntt_winograd16(a: &mut [Poly]) {
    each(a, ntt_w16_one)
}

/// Inverse NTT times 2^32, Winograd radix-16 units.
pub fn mldsa_invntt_winograd16(a: &mut [Poly]) {
    each(a, invntt_w16_one)
}
