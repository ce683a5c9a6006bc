//! AVX2 NTT variants for ML-DSA (q = 8380417, n = 256): radix-4 (two layers per pass),
//! Winograd radix-8 (plan 4·8·8) and Winograd radix-16 (plan 16·16), forward and
//! inverse, eight i32 lanes per vector.
//!
//! # Arithmetic
//! Every product is by a constant `z` (twiddle, twist power or DFT constant, centred,
//! plain — not Montgomery form), as a rounded Shoup product: with `z' = round(z·2^32/q)`,
//! `t = round(h·z'/2^32)`, `r = h·z − t·q` (wrapping), exact and `|r| ≤ q(1/2 + |h|/2^33)`
//! for every i32 `h` (so below 0.75q always, 0.51q for |h| < 9q). Additions are lazy;
//! `reduce32` (`a − round(a/2^23)·q`, |out| ≤ 0.75q) resets the paths that grow.
//!
//! # Units (level with `m` groups, group `i`, stride `s = n/(m·P)`)
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
//! # Bounds
//! Forward, input |a| < q: radix-4 adds at most 0.51q per layer (≤ 5.1q after eight);
//! a Winograd unit's twisted inputs are below 0.75q (x_0 reduced), its outputs sums of
//! at most eight such terms (DFT16: the `u_t` are reduced, the odd outputs have at most
//! six terms): below 6q. Inverse, input |a| < q: within a stage the sum path grows by
//! at most P (radix-4: 4), the path's first output is reduced after every stage but the
//! last, every other output is a product; the last stage multiplies every output by a
//! constant with the scaling 2^32/256 folded in: |out| ≤ q/2 + 64·0.75q·q/2^33 < 0.51q.
//! (The Winograd-8 plan folds the scaling into its second stage instead, whose outputs
//! are all products, < 0.51q; its top radix-4 stage then reduces both sums, below 2q, by
//! `reduce32` to at most 2^22 + 2q·(2^23 − q)/2^23 < 0.503q, and multiplies the
//! differences: again < 0.51q, with two products fewer per four points.)
//!
//! Vectorisation: where the stride `s` is at least 8 the lanes are consecutive offsets
//! `j` of one group (broadcast constants); at s = 4 (radix-4) one vector covers two
//! groups (128-bit halves); at s = 1 the lanes are eight consecutive groups after an
//! in-register transpose (4×4 per 128-bit half for radix-4, 8×8 for Winograd), with
//! per-lane constants loaded from tables laid out by group.

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
/// The Winograd-8 plan's second inverse stage (m = 4, g < 8) takes the scaling, so that
/// its top radix-4 stage needs only reductions on its sums.
static TW8IS: Twist<8, 8> = twist(3, true, true);

// ---------------------------------------------------------------------------------------
// Lane arithmetic. Every `unsafe fn` requires AVX2 (inlined into the `#[target_feature]`
// entry points).

/// A constant vector: values, companions (even lanes), companions of the odd lanes moved
/// to the even ones.
type Tw = [__m256i; 3];

#[inline(always)]
unsafe fn bc(c: Cst) -> Tw {
    unsafe {
        let s = _mm256_set1_epi32(c.s);
        [_mm256_set1_epi32(c.z), s, s]
    }
}

#[inline(always)]
unsafe fn bc_raw(z: i32, s: i32) -> Tw {
    unsafe { bc(Cst { z, s }) }
}

/// Per-lane constants: entries `g..g + 8` of a (values, companions) row pair.
#[inline(always)]
unsafe fn lanes_of(z: &[i32], s: &[i32], g: usize) -> Tw {
    unsafe {
        let zv = _mm256_loadu_si256(z[g..g + 8].as_ptr() as *const __m256i);
        let sv = _mm256_loadu_si256(s[g..g + 8].as_ptr() as *const __m256i);
        [zv, sv, _mm256_shuffle_epi32::<0xF5>(sv)]
    }
}

/// Two groups per vector (lanes 0..4: entry g, lanes 4..8: entry g + 1).
#[inline(always)]
unsafe fn halves_of(z: &[i32], s: &[i32], g: usize) -> Tw {
    unsafe {
        let zv = _mm256_set_m128i(_mm_set1_epi32(z[g + 1]), _mm_set1_epi32(z[g]));
        let sv = _mm256_set_m128i(_mm_set1_epi32(s[g + 1]), _mm_set1_epi32(s[g]));
        [zv, sv, _mm256_shuffle_epi32::<0xF5>(sv)]
    }
}

/// `h·z mod q`, rounded Shoup product: |r| ≤ q(1/2 + |h|/2^33).
#[inline(always)]
unsafe fn mulc(h: __m256i, c: &Tw) -> __m256i {
    unsafe {
        let half = _mm256_set1_epi64x(1 << 31);
        let pe = _mm256_add_epi64(_mm256_mul_epi32(h, c[1]), half);
        let po = _mm256_add_epi64(
            _mm256_mul_epi32(_mm256_shuffle_epi32::<0xF5>(h), c[2]),
            half,
        );
        let t = _mm256_blend_epi32::<0xAA>(_mm256_shuffle_epi32::<0xF5>(pe), po);
        let hz = _mm256_mullo_epi32(h, c[0]);
        _mm256_sub_epi32(hz, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)))
    }
}

/// `a − round(a/2^23)·q`: |out| ≤ 0.75q for a ≤ 2^31 − 2^22 − 1.
#[inline(always)]
unsafe fn red(a: __m256i) -> __m256i {
    unsafe {
        let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)));
        _mm256_sub_epi32(a, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)))
    }
}

#[inline(always)]
unsafe fn add(a: __m256i, b: __m256i) -> __m256i {
    unsafe { _mm256_add_epi32(a, b) }
}

#[inline(always)]
unsafe fn sub(a: __m256i, b: __m256i) -> __m256i {
    unsafe { _mm256_sub_epi32(a, b) }
}

#[inline(always)]
unsafe fn ld(a: &[i32; N], o: usize) -> __m256i {
    // SAFETY: o + 8 ≤ 256 (slice-checked).
    unsafe { _mm256_loadu_si256(a[o..o + 8].as_ptr() as *const __m256i) }
}

#[inline(always)]
unsafe fn st(a: &mut [i32; N], o: usize, v: __m256i) {
    // SAFETY: o + 8 ≤ 256 (slice-checked).
    unsafe { _mm256_storeu_si256(a[o..o + 8].as_mut_ptr() as *mut __m256i, v) }
}

/// Lanes 0..4 from `a[lo..lo+4]`, lanes 4..8 from `a[hi..hi+4]`.
#[inline(always)]
unsafe fn ld2(a: &[i32; N], lo: usize, hi: usize) -> __m256i {
    // SAFETY: both ranges slice-checked.
    unsafe {
        _mm256_loadu2_m128i(
            a[hi..hi + 4].as_ptr() as *const __m128i,
            a[lo..lo + 4].as_ptr() as *const __m128i,
        )
    }
}

#[inline(always)]
unsafe fn st2(a: &mut [i32; N], lo: usize, hi: usize, v: __m256i) {
    unsafe {
        _mm_storeu_si128(
            a[lo..lo + 4].as_mut_ptr() as *mut __m128i,
            _mm256_castsi256_si128(v),
        );
        _mm_storeu_si128(
            a[hi..hi + 4].as_mut_ptr() as *mut __m128i,
            _mm256_extracti128_si256::<1>(v),
        );
    }
}

/// 4×4 transpose of 32-bit lanes within each 128-bit half (an involution).
#[inline(always)]
unsafe fn transpose4(x: &mut [__m256i; 4]) {
    unsafe {
        let t0 = _mm256_unpacklo_epi32(x[0], x[1]);
        let t1 = _mm256_unpackhi_epi32(x[0], x[1]);
        let t2 = _mm256_unpacklo_epi32(x[2], x[3]);
        let t3 = _mm256_unpackhi_epi32(x[2], x[3]);
        x[0] = _mm256_unpacklo_epi64(t0, t2);
        x[1] = _mm256_unpackhi_epi64(t0, t2);
        x[2] = _mm256_unpacklo_epi64(t1, t3);
        x[3] = _mm256_unpackhi_epi64(t1, t3);
    }
}

/// 8×8 transpose of 32-bit lanes (an involution).
#[inline(always)]
unsafe fn transpose8(x: &mut [__m256i; 8]) {
    unsafe {
        let t0 = _mm256_unpacklo_epi32(x[0], x[1]);
        let t1 = _mm256_unpackhi_epi32(x[0], x[1]);
        let t2 = _mm256_unpacklo_epi32(x[2], x[3]);
        let t3 = _mm256_unpackhi_epi32(x[2], x[3]);
        let t4 = _mm256_unpacklo_epi32(x[4], x[5]);
        let t5 = _mm256_unpackhi_epi32(x[4], x[5]);
        let t6 = _mm256_unpacklo_epi32(x[6], x[7]);
        let t7 = _mm256_unpackhi_epi32(x[6], x[7]);
        let s0 = _mm256_unpacklo_epi64(t0, t2);
        let s1 = _mm256_unpackhi_epi64(t0, t2);
        let s2 = _mm256_unpacklo_epi64(t1, t3);
        let s3 = _mm256_unpackhi_epi64(t1, t3);
        let s4 = _mm256_unpacklo_epi64(t4, t6);
        let s5 = _mm256_unpackhi_epi64(t4, t6);
        let s6 = _mm256_unpacklo_epi64(t5, t7);
        let s7 = _mm256_unpackhi_epi64(t5, t7);
        x[0] = _mm256_permute2x128_si256::<0x20>(s0, s4);
        x[1] = _mm256_permute2x128_si256::<0x20>(s1, s5);
        x[2] = _mm256_permute2x128_si256::<0x20>(s2, s6);
        x[3] = _mm256_permute2x128_si256::<0x20>(s3, s7);
        x[4] = _mm256_permute2x128_si256::<0x31>(s0, s4);
        x[5] = _mm256_permute2x128_si256::<0x31>(s1, s5);
        x[6] = _mm256_permute2x128_si256::<0x31>(s2, s6);
        x[7] = _mm256_permute2x128_si256::<0x31>(s3, s7);
    }
}

// ---------------------------------------------------------------------------------------
// Units on registers.

/// Forward radix-4 unit: twiddles (ζ(g), ζ(2g), ζ(2g+1)).
#[inline(always)]
unsafe fn fwd_r4(x: &mut [__m256i; 4], za: &Tw, zb0: &Tw, zb1: &Tw) {
    unsafe {
        let t2 = mulc(x[2], za);
        let t3 = mulc(x[3], za);
        let (y0, y2) = (add(x[0], t2), sub(x[0], t2));
        let (y1, y3) = (add(x[1], t3), sub(x[1], t3));
        let t1 = mulc(y1, zb0);
        let t3 = mulc(y3, zb1);
        x[0] = add(y0, t1);
        x[1] = sub(y0, t1);
        x[2] = add(y2, t3);
        x[3] = sub(y2, t3);
    }
}

/// Inverse radix-4 unit: inverse twiddles; `top`: the last stage, with the scaling
/// folded in (`sc` = [SCALE, ζ⁻¹(1)·SCALE]); otherwise the sum output is reduced, and
/// with `red_all` (the top stage of an already scaled input) the other sum too.
#[inline(always)]
unsafe fn inv_r4(
    x: &mut [__m256i; 4],
    za: &Tw,
    zb0: &Tw,
    zb1: &Tw,
    top: Option<&[Tw; 2]>,
    red_all: bool,
) {
    unsafe {
        let y0 = add(x[0], x[1]);
        let y1 = mulc(sub(x[0], x[1]), zb0);
        let y2 = add(x[2], x[3]);
        let y3 = mulc(sub(x[2], x[3]), zb1);
        match top {
            Some(sc) => {
                x[0] = mulc(add(y0, y2), &sc[0]);
                x[2] = mulc(sub(y0, y2), &sc[1]);
                x[1] = mulc(add(y1, y3), &sc[0]);
                x[3] = mulc(sub(y1, y3), &sc[1]);
            }
            None => {
                x[0] = red(add(y0, y2));
                x[2] = mulc(sub(y0, y2), za);
                x[1] = if red_all {
                    red(add(y1, y3))
                } else {
                    add(y1, y3)
                };
                x[3] = mulc(sub(y1, y3), za);
            }
        }
    }
}

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
unsafe fn dft8(x: [__m256i; 8], c: &DftV) -> [__m256i; 8] {
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
unsafe fn dft16(x: [__m256i; 16], c: &DftV) -> [__m256i; 16] {
    unsafe {
        let mut u = [x[0]; 8];
        let mut v = [x[0]; 8];
        for t in 0..8 {
            u[t] = red(add(x[t], x[t + 8]));
            v[t] = sub(x[t], x[t + 8]);
        }
        let ev = dft8(u, c);
        let iv4 = mulc(v[4], &c.iota);
        let iv5 = mulc(v[5], &c.iota);
        let (c0, d0) = (add(v[0], iv4), sub(v[0], iv4));
        let (c1, d1) = (add(v[1], iv5), sub(v[1], iv5));
        let a2 = mulc(add(v[2], v[6]), &c.a8);
        let b2 = mulc(sub(v[2], v[6]), &c.b8);
        let a3 = mulc(add(v[3], v[7]), &c.a8);
        let b3 = mulc(sub(v[3], v[7]), &c.b8);
        // ω8·c2, ιω8·d2 (and for index 3).
        let (wc2, iwd2) = (add(a2, b2), sub(a2, b2));
        let (wc3, iwd3) = (add(a3, b3), sub(a3, b3));
        // y² = ω8: roots ±ω16; y² = −ω8: ±ω16^5; y² = ιω8: ±ω16^3; y² = −ιω8: ±ω16^7.
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

/// Where a Winograd unit's twist constants come from (loaded when used, so that they do
/// not stay live across the unit).
trait TwSource {
    /// Constant `k` (r^k, possibly scaled) as a vector.
    unsafe fn get(&self, k: usize) -> Tw;
}

/// All lanes: group key `g`.
struct Bcast<'a, const P: usize, const G: usize> {
    tb: &'a Twist<P, G>,
    g: usize,
}

impl<const P: usize, const G: usize> TwSource for Bcast<'_, P, G> {
    #[inline(always)]
    unsafe fn get(&self, k: usize) -> Tw {
        unsafe { bc_raw(self.tb.t[k][0][self.g], self.tb.t[k][1][self.g]) }
    }
}

/// Lane `l`: group key `g + l`.
struct PerLane<'a, const P: usize, const G: usize> {
    tb: &'a Twist<P, G>,
    g: usize,
}

impl<const P: usize, const G: usize> TwSource for PerLane<'_, P, G> {
    #[inline(always)]
    unsafe fn get(&self, k: usize) -> Tw {
        unsafe { lanes_of(&self.tb.t[k][0], &self.tb.t[k][1], self.g) }
    }
}

/// Forward Winograd unit on registers (natural point order in, stored order out):
/// twist by `tw[1..]`, reduce `x[0]`, DFT, bit-reversed placement.
#[inline(always)]
unsafe fn fwd_w<const P: usize, const L: u32, S: TwSource>(x: &mut [__m256i; P], tw: &S, c: &DftV) {
    unsafe {
        let mut y = *x;
        y[0] = red(y[0]);
        for (t, yt) in y.iter_mut().enumerate().skip(1) {
            *yt = mulc(*yt, &tw.get(t));
        }
        let d = dft_p::<P>(y, c);
        for (k, dk) in d.iter().enumerate() {
            x[brv(k, L)] = *dk;
        }
    }
}

/// Inverse Winograd unit: gather bit-reversed, inverse DFT, untwist by `tw[1..]`;
/// `x[0]` is multiplied by `tw[0]` when `scale_first` (the top stage), else reduced.
#[inline(always)]
unsafe fn inv_w<const P: usize, const L: u32, S: TwSource>(
    x: &mut [__m256i; P],
    tw: &S,
    c: &DftV,
    scale_first: bool,
) {
    unsafe {
        let mut y = *x;
        for (k, yk) in y.iter_mut().enumerate() {
            *yk = x[brv(k, L)];
        }
        let d = dft_p::<P>(y, c);
        x[0] = if scale_first {
            mulc(d[0], &tw.get(0))
        } else {
            red(d[0])
        };
        for t in 1..P {
            x[t] = mulc(d[t], &tw.get(t));
        }
    }
}

#[inline(always)]
unsafe fn dft_p<const P: usize>(y: [__m256i; P], c: &DftV) -> [__m256i; P] {
    unsafe {
        let mut out = y;
        if P == 8 {
            let mut a = [y[0]; 8];
            a.copy_from_slice(&y[..8]);
            out[..8].copy_from_slice(&dft8(a, c));
        } else {
            let mut a = [y[0]; 16];
            a.copy_from_slice(&y[..16]);
            out[..16].copy_from_slice(&dft16(a, c));
        }
        out
    }
}

#[inline(always)]
unsafe fn r4_run(
    x: &mut [__m256i; 4],
    za: &Tw,
    zb0: &Tw,
    zb1: &Tw,
    inv: bool,
    top: Option<&[Tw; 2]>,
    red_all: bool,
) {
    unsafe {
        if inv {
            inv_r4(x, za, zb0, zb1, top, red_all)
        } else {
            fwd_r4(x, za, zb0, zb1)
        }
    }
}

#[inline(always)]
unsafe fn w16_run<S: TwSource>(x: &mut [__m256i; 16], tw: &S, c: &DftV, inv: bool, top: bool) {
    unsafe {
        if inv {
            inv_w::<16, 4, S>(x, tw, c, top)
        } else {
            fwd_w::<16, 4, S>(x, tw, c)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Stages (one level of units over the whole polynomial).

/// Radix-4 stage at the level with `m` groups, forward or inverse (inverse at m = 1:
/// the top stage, with the scaling — or, with `prescaled`, on input the previous stage
/// already scaled, reductions of both sums instead).
#[inline(always)]
unsafe fn r4_stage(a: &mut [i32; N], m: usize, inv: bool, prescaled: bool) {
    let s = N / (4 * m);
    let tb = if inv { &R4I } else { &R4F };
    let red_all = inv && m == 1 && prescaled;
    let top = if inv && m == 1 && !prescaled {
        Some(unsafe { [bc(tb.top[0]), bc(tb.top[1])] })
    } else {
        None
    };
    let top = top.as_ref();
    unsafe {
        if s >= 8 {
            for i in 0..m {
                let g = m + i;
                let za = bc_raw(tb.a[0][g], tb.a[1][g]);
                let zb0 = bc_raw(tb.b0[0][g], tb.b0[1][g]);
                let zb1 = bc_raw(tb.b1[0][g], tb.b1[1][g]);
                for j in (0..s).step_by(8) {
                    let o = 4 * i * s + j;
                    let mut x = [ld(a, o), ld(a, o + s), ld(a, o + 2 * s), ld(a, o + 3 * s)];
                    r4_run(&mut x, &za, &zb0, &zb1, inv, top, red_all);
                    for (t, xt) in x.iter().enumerate() {
                        st(a, o + t * s, *xt);
                    }
                }
            }
        } else if s == 4 {
            for i in (0..m).step_by(2) {
                let g = m + i;
                let za = halves_of(&tb.a[0], &tb.a[1], g);
                let zb0 = halves_of(&tb.b0[0], &tb.b0[1], g);
                let zb1 = halves_of(&tb.b1[0], &tb.b1[1], g);
                let (o0, o1) = (16 * i, 16 * i + 16);
                let mut x = [ld2(a, o0, o1); 4];
                for (t, xt) in x.iter_mut().enumerate() {
                    *xt = ld2(a, o0 + 4 * t, o1 + 4 * t);
                }
                r4_run(&mut x, &za, &zb0, &zb1, inv, top, red_all);
                for (t, xt) in x.iter().enumerate() {
                    st2(a, o0 + 4 * t, o1 + 4 * t, *xt);
                }
            }
        } else {
            // s = 1: units of four consecutive coefficients; eight units per vector
            // (lanes 0..4: units i..i+4 of the first 16 coefficients, 4..8 the next).
            for i in (0..m).step_by(8) {
                let g = m + i;
                let za = lanes_of(&tb.a[0], &tb.a[1], g);
                let zb0 = lanes_of(&tb.b0[0], &tb.b0[1], g);
                let zb1 = lanes_of(&tb.b1[0], &tb.b1[1], g);
                let o = 4 * i;
                let mut x = [ld2(a, o, o + 16); 4];
                for (k, xk) in x.iter_mut().enumerate() {
                    *xk = ld2(a, o + 4 * k, o + 16 + 4 * k);
                }
                transpose4(&mut x);
                r4_run(&mut x, &za, &zb0, &zb1, inv, top, red_all);
                transpose4(&mut x);
                for (k, xk) in x.iter().enumerate() {
                    st2(a, o + 4 * k, o + 16 + 4 * k, *xk);
                }
            }
        }
    }
}

/// Winograd radix-8 stage at the level with `m` groups (s = 8 or 1).
#[inline(always)]
unsafe fn w8_stage(a: &mut [i32; N], m: usize, inv: bool) {
    let s = N / (8 * m);
    let tb = if inv { &TW8I } else { &TW8F };
    let c = unsafe { dftv(if inv { &DFT_I } else { &DFT_F }) };
    unsafe {
        if s >= 8 {
            for i in 0..m {
                let tw = Bcast { tb, g: m + i };
                let tws = Bcast {
                    tb: &TW8IS,
                    g: m + i,
                };
                for j in (0..s).step_by(8) {
                    let o = 8 * i * s + j;
                    let mut x = [ld(a, o); 8];
                    for (t, xt) in x.iter_mut().enumerate() {
                        *xt = ld(a, o + t * s);
                    }
                    if inv && m == 4 {
                        // The plan's stage below the top: it takes the scaling.
                        inv_w::<8, 3, _>(&mut x, &tws, &c, true);
                    } else if inv {
                        inv_w::<8, 3, _>(&mut x, &tw, &c, false);
                    } else {
                        fwd_w::<8, 3, _>(&mut x, &tw, &c);
                    }
                    for (t, xt) in x.iter().enumerate() {
                        st(a, o + t * s, *xt);
                    }
                }
            }
        } else {
            for i in (0..m).step_by(8) {
                let tw = PerLane { tb, g: m + i };
                let o = 8 * i;
                let mut x = [ld(a, o); 8];
                for (k, xk) in x.iter_mut().enumerate() {
                    *xk = ld(a, o + 8 * k);
                }
                transpose8(&mut x);
                if inv {
                    inv_w::<8, 3, _>(&mut x, &tw, &c, false);
                } else {
                    fwd_w::<8, 3, _>(&mut x, &tw, &c);
                }
                transpose8(&mut x);
                for (k, xk) in x.iter().enumerate() {
                    st(a, o + 8 * k, *xk);
                }
            }
        }
    }
}

/// Winograd radix-16 stage at the level with `m` groups (m = 1: s = 16; m = 16: s = 1).
#[inline(always)]
unsafe fn w16_stage(a: &mut [i32; N], m: usize, inv: bool) {
    let s = N / (16 * m);
    let c = unsafe { dftv(if inv { &DFT_I } else { &DFT_F }) };
    unsafe {
        if s >= 8 {
            for i in 0..m {
                let g = m + i;
                let top = inv && m == 1;
                for j in (0..s).step_by(8) {
                    let o = 16 * i * s + j;
                    let mut x = [ld(a, o); 16];
                    for (t, xt) in x.iter_mut().enumerate() {
                        *xt = ld(a, o + t * s);
                    }
                    if top {
                        w16_run(&mut x, &Bcast { tb: &TW16IS, g }, &c, inv, true);
                    } else if inv {
                        w16_run(&mut x, &Bcast { tb: &TW16I, g }, &c, inv, false);
                    } else {
                        w16_run(&mut x, &Bcast { tb: &TW16F, g }, &c, inv, false);
                    }
                    for (t, xt) in x.iter().enumerate() {
                        st(a, o + t * s, *xt);
                    }
                }
            }
        } else {
            let tb = if inv { &TW16I } else { &TW16F };
            for i in (0..m).step_by(8) {
                let tw = PerLane { tb, g: m + i };
                let o = 16 * i;
                // Unit u of the block is vectors 2u (points 0..8) and 2u + 1 (8..16).
                let mut lo = [ld(a, o); 8];
                let mut hi = [ld(a, o); 8];
                for u in 0..8 {
                    lo[u] = ld(a, o + 16 * u);
                    hi[u] = ld(a, o + 16 * u + 8);
                }
                transpose8(&mut lo);
                transpose8(&mut hi);
                let mut x = [lo[0]; 16];
                x[..8].copy_from_slice(&lo);
                x[8..].copy_from_slice(&hi);
                w16_run(&mut x, &tw, &c, inv, false);
                lo.copy_from_slice(&x[..8]);
                hi.copy_from_slice(&x[8..]);
                transpose8(&mut lo);
                transpose8(&mut hi);
                for u in 0..8 {
                    st(a, o + 16 * u, lo[u]);
                    st(a, o + 16 * u + 8, hi[u]);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Transforms.

#[target_feature(enable = "avx2")]
unsafe fn ntt_radix4_one(a: &mut [i32; N]) {
    for m in [1, 4, 16, 64] {
        unsafe { r4_stage(a, m, false, false) };
    }
}

#[target_feature(enable = "avx2")]
unsafe fn invntt_radix4_one(a: &mut [i32; N]) {
    for m in [64, 16, 4, 1] {
        unsafe { r4_stage(a, m, true, false) };
    }
}

#[target_feature(enable = "avx2")]
unsafe fn ntt_w8_one(a: &mut [i32; N]) {
    unsafe {
        r4_stage(a, 1, false, false);
        w8_stage(a, 4, false);
        w8_stage(a, 32, false);
    }
}

#[target_feature(enable = "avx2")]
unsafe fn invntt_w8_one(a: &mut [i32; N]) {
    unsafe {
        w8_stage(a, 32, true);
        w8_stage(a, 4, true);
        r4_stage(a, 1, true, true);
    }
}

#[target_feature(enable = "avx2")]
unsafe fn ntt_w16_one(a: &mut [i32; N]) {
    unsafe {
        w16_stage(a, 1, false);
        w16_stage(a, 16, false);
    }
}

#[target_feature(enable = "avx2")]
unsafe fn invntt_w16_one(a: &mut [i32; N]) {
    unsafe {
        w16_stage(a, 16, true);
        w16_stage(a, 1, true);
    }
}

fn each(a: &mut [Poly], f: unsafe fn(&mut [i32; N])) {
    assert!(Backend::Avx2.is_available(), "AVX2 kernel without AVX2");
    for p in a.iter_mut() {
        // SAFETY: AVX2 is available (checked above).
        unsafe { f(&mut p.coeffs) }
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
