//! AVX-512 NTT, inverse NTT and NTT-domain products for q = 8380417, n = 256.
//!
//! # Representation
//! A polynomial is 16 vectors of 16 coefficients (`__m512i`, 32-bit lanes): the whole
//! polynomial lives in the register file (32 zmm registers) for all eight layers, and is
//! loaded and stored exactly once per transform. In memory, coefficient `i` is vector
//! `i / 16`, lane `i % 16`, on input and on output: the transforms return the FIPS 204
//! (bit-reversed) order of the portable backend, so NTT-domain data is interchangeable
//! between backends.
//!
//! # Twiddle multiplication
//! The same Shoup-style product as the AVX2 kernels (see `avx2::ntt`): for a plain
//! twiddle `z` (|z| < q/2) with companion `z' = round(z·2^32 / q)`,
//!
//! ```text
//! t = ⌊h·z' / 2^32⌋  or  round(h·z' / 2^32)   (two vpmuldq: even lanes, odd lanes)
//! r = h·z − t·q   (mod 2^32)                   (two vpmulld, all sixteen lanes)
//! ```
//!
//! so `r ≡ h·z (mod q)`, and for any i32 `h`:
//! * floor:   −q·|h|/2^33 < r < q·(1 + |h|/2^33);
//! * rounded: |r| ≤ q·(1/2 + |h|/2^33).
//!
//! Per 16 coefficients a butterfly is 11 vector µops: 2 vpmuldq, 2 vpmulld (2 µops each),
//! one shift (the odd lanes down for vpmuldq), one merge-masked vpshufd (the two high
//! halves into one vector), one subtraction and the butterfly's addition and
//! subtraction. Every coefficient goes through exactly the operations of the AVX2
//! kernel, in the same order, with the same twiddles and the same rounding choices, so
//! the outputs are bit-identical to the AVX2 backend's (and congruent to portable's).
//!
//! # Layer schedule and register layouts
//! Write a coefficient index as bits `i7…i0`, a register index as `R3…R0` and a lane
//! index as `L3…L0`. Loaded naturally, `R = i7 i6 i5 i4` and `L = i3 i2 i1 i0`, so
//! forward layers 1–4 (distances 128…16, i.e. bits i7…i4) are butterflies between
//! registers with broadcast twiddles. For layers 5–8 each register pair (2p, 2p+1)
//! (`R0` the pair bit, `p = i7 i6 i5`) swaps its pair bit with one lane bit before each
//! layer, two shuffle µops per pair:
//!
//! | before layer | step | op | layout after (R0; L3 L2 L1 L0) |
//! |---|---|---|---|
//! | 5 (dist. 8) | B: R0 ↔ L3 | `vshufi64x2` | i3; i4 i2 i1 i0 |
//! | 6 (dist. 4) | C: R0 ↔ L2 | `vpermt2q` | i2; i4 i3 i1 i0 |
//! | 7 (dist. 2) | D: R0 ↔ L1 | `vpunpck{l,h}qdq` | i1; i4 i3 i2 i0 |
//! | 8 (dist. 1) | E: R0 ↔ L0 | merge-masked `vpshufd` | i0; i4 i3 i2 i1 |
//! | (output) | F: back to natural | `vpermt2d` | i4; i3 i2 i1 i0 |
//!
//! Steps B–E are involutions, F is a fixed permutation of each pair; the inverse runs
//! F⁻¹, E, D, C, B. In every layout the butterfly group of a lane is
//! `g = (p << (4 − s)) + (lane >> s)` for the layer of distance 2^s, s ≤ 3, which gives
//! the per-lane twiddle vectors below. 80 shuffle µops per transform in all.
//!
//! The inverse (Gentleman–Sande) uses floor products throughout and folds the final
//! scaling by 2^32/256 into its last layer with rounded products, as the AVX2 kernel.
//!
//! # Products
//! `pointwise_montgomery` and `matvec_montgomery` compute exactly what the portable
//! kernels compute (Montgomery reduction of the i64 product or sum of products), bit for
//! bit: 64-bit `vpmuldq` products of the even and of the odd lanes, summed, reduced, and
//! joined. The odd-lane shifts of the shared operand (c, or the vector v) are done once
//! per call, and the matrix product runs two rows at a time (one load of v per two
//! products). They work on the same 16 vectors per polynomial as the transforms (vector
//! `r` holds coefficients [16r, 16r + 16)), so each coefficient's parity is its lane's
//! parity (the even/odd split of `vpmuldq`).
//!
//! # Memory accesses
//! `Poly` is 64-byte aligned (`#[repr(C, align(64))]`, asserted at compile time below),
//! so each 16-coefficient vector is one whole cache line: all loads and stores are
//! aligned 64-byte accesses (`ld`, `st`), none splits a line.
//!
//! Nothing here branches on or indexes memory with coefficient data; the instructions
//! used (integer add/sub/shift/multiply, shuffles with constant controls, plain loads
//! and stores) have data-independent timing.

// Intrinsic calls sit in `unsafe` blocks even where the compiler (≥ 1.87, inside
// target-feature functions) considers them safe.
#![allow(unused_unsafe)]

use super::super::zetas::{lane_twiddles, shoup, F_SCALE, F_Z1, ZP};
use super::super::{Poly, N, Q, QINV};
use core::arch::x86_64::*;

type V = __m512i;

// ---------------------------------------------------------------------------------------
// Constant tables (computed at compile time from the shared plain twiddles `ZP`).

const fn vec16(a: [i32; 16]) -> V {
    // SAFETY: [i32; 16] and __m512i have the same size and every bit pattern is valid
    // for both.
    unsafe { core::mem::transmute::<[i32; 16], V>(a) }
}

/// A twiddle operand of the Shoup product: `[z, z', z'_odd]`, per lane, where `z'_odd`
/// holds the companions of the odd lanes in the even lanes (what `vpmuldq` reads for
/// the odd products).
type Tw = [V; 3];

/// The twiddle operand for per-lane twiddle indices `ks` (negated for the inverse).
const fn lane_tw(ks: [usize; 16], neg: bool) -> Tw {
    let [z, s, so] = lane_twiddles(ks, neg);
    [vec16(z), vec16(s), vec16(so)]
}

/// Butterfly group of lane `j` of register pair `p` in the layout of the layer of
/// distance 2^s, s ≤ 3 (module docs).
const fn group(p: usize, j: usize, s: usize) -> usize {
    (p << (4 - s)) + (j >> s)
}

/// Per-lane twiddles of the layers of distance 2^s, s = 3, 2, 1, 0 (forward layers 5–8),
/// per register pair p: `FWD_LANE[p][3 − s]`. Forward layer of distance 2^s, group g
/// uses `z_k`, k = 2^(7−s) + g.
static FWD_LANE: [[Tw; 4]; 8] = {
    let mut t = [[lane_tw([0; 16], false); 4]; 8];
    let mut p = 0;
    while p < 8 {
        let mut s = 0;
        while s < 4 {
            let mut ks = [0usize; 16];
            let mut j = 0;
            while j < 16 {
                ks[j] = (1 << (7 - s)) + group(p, j, s);
                j += 1;
            }
            t[p][3 - s] = lane_tw(ks, false);
            s += 1;
        }
        p += 1;
    }
    t
};

/// Per-lane twiddles (negated) of the inverse layers of distance 2^s, s = 0…3, per
/// register pair p: `INV_LANE[p][s]`. Inverse layer of distance 2^s, group g uses
/// `−z_k`, k = 2^(8−s) − 1 − g (as portable's decreasing index).
static INV_LANE: [[Tw; 4]; 8] = {
    let mut t = [[lane_tw([0; 16], true); 4]; 8];
    let mut p = 0;
    while p < 8 {
        let mut s = 0;
        while s < 4 {
            let mut ks = [0usize; 16];
            let mut j = 0;
            while j < 16 {
                ks[j] = (1 << (8 - s)) - 1 - group(p, j, s);
                j += 1;
            }
            t[p][s] = lane_tw(ks, true);
            s += 1;
        }
        p += 1;
    }
    t
};

/// `vpermt2q` controls of step C: `[a.g0, b.g0, a.g2, b.g2]`, `[a.g1, b.g1, a.g3, b.g3]`
/// (128-bit granules g).
const C_LO: V = vec16([0, 0, 1, 0, 8, 0, 9, 0, 4, 0, 5, 0, 12, 0, 13, 0]);
const C_HI: V = vec16([2, 0, 3, 0, 10, 0, 11, 0, 6, 0, 7, 0, 14, 0, 15, 0]);

/// `vpermt2d` controls of step F (layout E → natural): output half c of the pair takes
/// lane `j` from register `j & 1`, lane `8c + (j >> 1)`.
const F_CTL: [V; 2] = {
    let mut t = [[0i32; 16]; 2];
    let mut c = 0;
    while c < 2 {
        let mut j = 0;
        while j < 16 {
            t[c][j] = ((j & 1) * 16 + c * 8 + (j >> 1)) as i32;
            j += 1;
        }
        c += 1;
    }
    [vec16(t[0]), vec16(t[1])]
};

/// `vpermt2d` controls of step F⁻¹ (natural → layout E): output c (bit i0 = c) takes
/// lane `j` from register `j >> 3` (bit i4), lane `2(j & 7) + c`.
const FINV_CTL: [V; 2] = {
    let mut t = [[0i32; 16]; 2];
    let mut c = 0;
    while c < 2 {
        let mut j = 0;
        while j < 16 {
            t[c][j] = ((j >> 3) * 16 + ((j & 7) << 1) + c) as i32;
            j += 1;
        }
        c += 1;
    }
    [vec16(t[0]), vec16(t[1])]
};

// ---------------------------------------------------------------------------------------
// Building blocks. Every `unsafe fn` below requires that the CPU supports AVX2 and
// AVX-512 F/VL/BW/DQ (they are only called from the `*_avx512` entry points, which
// require the same); `ld` and `st` also require `r < 16`.
//
// Every polynomial is 64-byte aligned (`Poly` is `#[repr(C, align(64))]`, checked here),
// so vector `r` of a polynomial, coefficients [16r, 16r + 16), is one whole cache line
// and is read and written with aligned 64-byte accesses.
const _: () = assert!(
    core::mem::align_of::<Poly>() == 64 && core::mem::size_of::<Poly>() == 4 * N,
    "the AVX-512 kernels use aligned 64-byte loads and stores of Poly"
);

/// Vector `r` of `p`: coefficients [16r, 16r + 16).
///
/// # Safety
/// AVX-512F is available and `r < 16`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn ld(p: &Poly, r: usize) -> V {
    debug_assert!(r < 16);
    // SAFETY: coefficients 16r .. 16r + 16 lie inside the 256 (r < 16); the address is
    // 64-byte aligned: `Poly` is align(64) with the coefficients at offset 0 (repr(C)),
    // and 16r coefficients are 64r bytes.
    unsafe {
        let src = p.coeffs.as_ptr().add(16 * r);
        debug_assert_eq!(src as usize % 64, 0);
        _mm512_load_si512(src as *const V)
    }
}

/// Stores `x` as vector `r` of `p` (as `ld` reads it).
///
/// # Safety
/// AVX-512F is available and `r < 16`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn st(p: &mut Poly, r: usize, x: V) {
    debug_assert!(r < 16);
    // SAFETY: as in `ld`, through the exclusive borrow.
    unsafe {
        let dst = p.coeffs.as_mut_ptr().add(16 * r);
        debug_assert_eq!(dst as usize % 64, 0);
        _mm512_store_si512(dst as *mut V, x)
    }
}

/// Loads the 16 coefficient vectors of a polynomial.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn load(p: &Poly) -> [V; 16] {
    let mut x = [unsafe { _mm512_setzero_si512() }; 16];
    for (r, xr) in x.iter_mut().enumerate() {
        // SAFETY: AVX-512F is available (precondition) and r < 16.
        *xr = unsafe { ld(p, r) };
    }
    x
}

/// Stores 16 coefficient vectors into a polynomial.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn store(p: &mut Poly, x: &[V; 16]) {
    for (r, &xr) in x.iter().enumerate() {
        // SAFETY: AVX-512F is available (precondition) and r < 16.
        unsafe { st(p, r, xr) };
    }
}

/// A broadcast twiddle operand for `z_k` (negated for the inverse).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn bcast(z: i32) -> Tw {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let s = _mm512_set1_epi32(shoup(z));
        [_mm512_set1_epi32(z), s, s]
    }
}

/// `h·z mod q` by the Shoup product (module docs), any i32 `h`, |z| < q/2.
///
/// With `ROUND`, t = round(h·z'/2^32) and |r| ≤ q·(1/2 + |h|/2^33). Without, t is the
/// floor and −q·|h|/2^33 < r < q·(1 + |h|/2^33).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn mulq<const ROUND: bool>(h: V, tw: &Tw) -> V {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let mut pe = _mm512_mul_epi32(h, tw[1]);
        let mut po = _mm512_mul_epi32(_mm512_srli_epi64::<32>(h), tw[2]);
        if ROUND {
            let half = _mm512_set1_epi64(1 << 31);
            pe = _mm512_add_epi64(pe, half);
            po = _mm512_add_epi64(po, half);
        }
        // t: the high halves of the even products (moved down into the even lanes) and
        // of the odd ones (already in the odd lanes).
        let t = _mm512_mask_shuffle_epi32::<0xF5>(po, 0x5555, pe);
        let hz = _mm512_mullo_epi32(h, tw[0]);
        let tq = _mm512_mullo_epi32(t, _mm512_set1_epi32(Q));
        _mm512_sub_epi32(hz, tq)
    }
}

/// Cooley–Tukey butterfly: (a, b) → (a + b·z, a − b·z).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn ct<const ROUND: bool>(a: &mut V, b: &mut V, tw: &Tw) {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let t = mulq::<ROUND>(*b, tw);
        *b = _mm512_sub_epi32(*a, t);
        *a = _mm512_add_epi32(*a, t);
    }
}

/// Gentleman–Sande butterfly: (a, b) → (a + b, (a − b)·z), floor product.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn gs(a: &mut V, b: &mut V, tw: &Tw) {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let d = _mm512_sub_epi32(*a, *b);
        *a = _mm512_add_epi32(*a, *b);
        *b = mulq::<false>(d, tw);
    }
}

/// Two distinct mutable registers of `x`.
#[inline]
fn pair(x: &mut [V; 16], i: usize, j: usize) -> (&mut V, &mut V) {
    debug_assert!(i < j);
    let (lo, hi) = x.split_at_mut(j);
    (&mut lo[i], &mut hi[0])
}

/// Step B (involution): swap the pair bit with lane bit 3 (256-bit halves).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn step_b(a: &mut V, b: &mut V) {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let (x, y) = (*a, *b);
        *a = _mm512_shuffle_i64x2::<0x44>(x, y);
        *b = _mm512_shuffle_i64x2::<0xEE>(x, y);
    }
}

/// Step C (involution): swap the pair bit with lane bit 2 (128-bit granules).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn step_c(a: &mut V, b: &mut V) {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let (x, y) = (*a, *b);
        *a = _mm512_permutex2var_epi64(x, C_LO, y);
        *b = _mm512_permutex2var_epi64(x, C_HI, y);
    }
}

/// Step D (involution): swap the pair bit with lane bit 1 (64-bit elements).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn step_d(a: &mut V, b: &mut V) {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let (x, y) = (*a, *b);
        *a = _mm512_unpacklo_epi64(x, y);
        *b = _mm512_unpackhi_epi64(x, y);
    }
}

/// Step E (involution): swap the pair bit with lane bit 0 (32-bit elements).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn step_e(a: &mut V, b: &mut V) {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let (x, y) = (*a, *b);
        // Odd lanes of a ← even lanes of b; even lanes of b ← odd lanes of a.
        *a = _mm512_mask_shuffle_epi32::<0xA0>(x, 0xAAAA, y);
        *b = _mm512_mask_shuffle_epi32::<0xF5>(y, 0x5555, x);
    }
}

/// Permutes a register pair with the `vpermt2d` controls `ctl`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn step_perm(a: &mut V, b: &mut V, ctl: &[V; 2]) {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let (x, y) = (*a, *b);
        *a = _mm512_permutex2var_epi32(x, ctl[0], y);
        *b = _mm512_permutex2var_epi32(x, ctl[1], y);
    }
}

// ---------------------------------------------------------------------------------------
// Forward NTT.

/// Forward NTT of one polynomial held in registers. In: |a| < q. Out: |a| < 8.54q.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn ntt_regs(x: &mut [V; 16]) {
    // SAFETY (all calls below): the CPU features are available (precondition).
    unsafe {
        // Layer 1 (distance 128, registers m and m + 8), rounded products (bounds of
        // `ntt`).
        let tw = bcast(ZP[1]);
        for m in 0..8 {
            let (a, b) = pair(x, m, m + 8);
            ct::<true>(a, b, &tw);
        }
        // Layer 2 (distance 64).
        for h in 0..2 {
            let tw = bcast(ZP[2 + h]);
            for m in 0..4 {
                let (a, b) = pair(x, 8 * h + m, 8 * h + m + 4);
                ct::<false>(a, b, &tw);
            }
        }
        // Layer 3 (distance 32).
        for u in 0..4 {
            let tw = bcast(ZP[4 + u]);
            for m in 0..2 {
                let (a, b) = pair(x, 4 * u + m, 4 * u + m + 2);
                ct::<false>(a, b, &tw);
            }
        }
        // Layer 4 (distance 16).
        for u in 0..8 {
            let tw = bcast(ZP[8 + u]);
            let (a, b) = pair(x, 2 * u, 2 * u + 1);
            ct::<false>(a, b, &tw);
        }
        // Layers 5–8 (distances 8, 4, 2, 1) within each register pair, each after the
        // step that makes its bit the pair bit.
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_b(a, b);
        }
        for (p, tw) in FWD_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            ct::<false>(a, b, &tw[0]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_c(a, b);
        }
        for (p, tw) in FWD_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            ct::<false>(a, b, &tw[1]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_d(a, b);
        }
        for (p, tw) in FWD_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            ct::<false>(a, b, &tw[2]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_e(a, b);
        }
        for (p, tw) in FWD_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            ct::<false>(a, b, &tw[3]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_perm(a, b, &F_CTL);
        }
    }
}

/// # Safety
/// The CPU must support AVX2 and AVX-512 F, VL, BW and DQ.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn ntt_avx512(a: &mut [Poly]) {
    for p in a.iter_mut() {
        // SAFETY: the CPU features are available (precondition).
        unsafe {
            let mut x = load(p);
            ntt_regs(&mut x);
            store(p, &x);
        }
    }
}

/// Forward NTT of each polynomial, in place, output in the FIPS 204 order (as portable);
/// bit-identical to the AVX2 kernel.
///
/// In: |a| < q. Out: |a| < 8.54q (the seam allows < 9q). Each layer adds at most
/// q·(1 + B/2^33) to the bound B of the previous one, the first (rounded) layer at most
/// q·(1/2 + B/2^33): 1.501q, 2.503q, …, 8.532q.
pub(crate) fn ntt(a: &mut [Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 and AVX-512 F, VL, BW
    // and DQ were detected (`kernels::mldsa::kernels` checks `Backend::Avx512
    // .is_available()`, i.e. `avx512_detected` in select.rs).
    unsafe { ntt_avx512(a) }
}

// ---------------------------------------------------------------------------------------
// Inverse NTT.

/// Inverse NTT times 2^32 of one polynomial held in registers. In: |a| < q.
/// Out: |a| < 3q/4.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn invntt_regs(x: &mut [V; 16]) {
    // SAFETY (all calls below): the CPU features are available (precondition).
    unsafe {
        // Distances 1, 2, 4, 8 within each register pair, each after the step that makes
        // its bit the pair bit.
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_perm(a, b, &FINV_CTL);
        }
        for (p, tw) in INV_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            gs(a, b, &tw[0]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_e(a, b);
        }
        for (p, tw) in INV_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            gs(a, b, &tw[1]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_d(a, b);
        }
        for (p, tw) in INV_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            gs(a, b, &tw[2]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_c(a, b);
        }
        for (p, tw) in INV_LANE.iter().enumerate() {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            gs(a, b, &tw[3]);
        }
        for p in 0..8 {
            let (a, b) = pair(x, 2 * p, 2 * p + 1);
            step_b(a, b);
        }
        // Natural layout again. Distance 16.
        for u in 0..8 {
            let tw = bcast(-ZP[15 - u]);
            let (a, b) = pair(x, 2 * u, 2 * u + 1);
            gs(a, b, &tw);
        }
        // Distance 32.
        for u in 0..4 {
            let tw = bcast(-ZP[7 - u]);
            for m in 0..2 {
                let (a, b) = pair(x, 4 * u + m, 4 * u + m + 2);
                gs(a, b, &tw);
            }
        }
        // Distance 64.
        for h in 0..2 {
            let tw = bcast(-ZP[3 - h]);
            for m in 0..4 {
                let (a, b) = pair(x, 8 * h + m, 8 * h + m + 4);
                gs(a, b, &tw);
            }
        }
        // Distance 128 with the scaling folded in, rounded products:
        // (a + b)·f, (a − b)·(−z_1·f).
        let scale = bcast(F_SCALE);
        let last = bcast(F_Z1);
        for m in 0..8 {
            let (a, b) = pair(x, m, m + 8);
            let s = _mm512_add_epi32(*a, *b);
            let d = _mm512_sub_epi32(*a, *b);
            *a = mulq::<true>(s, &scale);
            *b = mulq::<true>(d, &last);
        }
    }
}

/// # Safety
/// The CPU must support AVX2 and AVX-512 F, VL, BW and DQ.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn invntt_tomont_avx512(a: &mut [Poly]) {
    for p in a.iter_mut() {
        // SAFETY: the CPU features are available (precondition).
        unsafe {
            let mut x = load(p);
            invntt_regs(&mut x);
            store(p, &x);
        }
    }
}

/// Inverse NTT of each polynomial times 2^32 (the Montgomery factor), in place; input in
/// the FIPS 204 order. Bit-identical to the AVX2 kernel, congruent to portable's.
///
/// In: |a| < q. Out: |a| < 3q/4. (No reduction of the sums: after the layer of distance
/// 2^s they are at most 2^(s+1)·(q−1), and the floor products of the first seven layers
/// stay below 1.13q, so the last sums and differences stay within 256(q−1) < 2^31; the
/// rounded products of the last layer are then below q·(1/2 + 256q/2^33) < 0.75q.)
pub(crate) fn invntt_tomont(a: &mut [Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 and AVX-512 F, VL, BW
    // and DQ were detected (`kernels::mldsa::kernels` checks `Backend::Avx512
    // .is_available()`, i.e. `avx512_detected` in select.rs).
    unsafe { invntt_tomont_avx512(a) }
}

// ---------------------------------------------------------------------------------------
// Pointwise products.

/// `v` unchanged, hidden from the optimiser. Without it LLVM rewrites the Montgomery
/// reduction's `vpmuldq(vpmuldq(a, q^−1), q)` into a 64-bit `vpmullq` (3 µops) and
/// shifts, which made the products slower than the AVX2 ones.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn opaque(mut v: V) -> V {
    // SAFETY: an empty asm block that only claims to modify a zmm register; AVX-512F is
    // available (precondition).
    unsafe {
        core::arch::asm!(
            "/* {0} */",
            inout(zmm_reg) v,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    v
}

/// Montgomery reduction of 64-bit lanes: the high 32 bits of `a − t·q` with
/// `t = lo32(a)·q^−1 mod 2^32` (as in portable `montgomery_reduce`), left in the high
/// half of each 64-bit lane.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn mont_reduce64(a: V) -> V {
    // SAFETY: AVX-512F is available (precondition).
    unsafe {
        let t = opaque(_mm512_mul_epi32(a, _mm512_set1_epi32(QINV)));
        let tq = _mm512_mul_epi32(t, _mm512_set1_epi32(Q));
        _mm512_sub_epi64(a, tq)
    }
}

/// Joins two vectors of reduced 64-bit lanes (results in the high halves; `e` from the
/// even coefficients, `o` from the odd ones) into sixteen 32-bit results.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn join_high(e: V, o: V) -> V {
    // SAFETY: AVX-512F is available (precondition).
    unsafe { _mm512_mask_shuffle_epi32::<0xF5>(o, 0x5555, e) }
}

/// The odd 32-bit lanes moved into the even ones (what `vpmuldq` reads).
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn odd(a: V) -> V {
    // SAFETY: AVX-512F is available (precondition).
    unsafe { _mm512_srli_epi64::<32>(a) }
}

/// The odd lanes of each vector of `p`, moved into the even ones.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn odd_regs(p: &Poly) -> [V; 16] {
    let mut x = [unsafe { _mm512_setzero_si512() }; 16];
    for (r, xr) in x.iter_mut().enumerate() {
        // SAFETY: AVX-512F is available (precondition) and r < 16.
        *xr = unsafe { odd(ld(p, r)) };
    }
    x
}

/// # Safety
/// The CPU must support AVX2 and AVX-512 F, VL, BW and DQ.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn pointwise_montgomery_avx512(out: &mut [Poly], c: &Poly, v: &[Poly]) {
    // SAFETY (all calls below): the CPU features are available (precondition) and every
    // vector index is below 16.
    unsafe {
        // c's odd lanes are shifted once for the whole batch.
        let co = odd_regs(c);
        for (o, p) in out.iter_mut().zip(v) {
            for (r, &cor) in co.iter().enumerate() {
                let a = ld(c, r);
                let b = ld(p, r);
                let pe = _mm512_mul_epi32(a, b);
                let po = _mm512_mul_epi32(cor, odd(b));
                st(o, r, join_high(mont_reduce64(pe), mont_reduce64(po)));
            }
        }
    }
}

/// `out[i] = c ∘ v[i] · 2^−32`, over the shorter of `out` and `v`; bit-identical to
/// portable.
///
/// In: |c·v| ≤ 2^31·q per coefficient (e.g. both < 9q, or one < 16q and the other < q).
/// Out: |out| < q.
pub(crate) fn pointwise_montgomery(out: &mut [Poly], c: &Poly, v: &[Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 and AVX-512 F, VL, BW
    // and DQ were detected (`kernels::mldsa::kernels` checks `Backend::Avx512
    // .is_available()`, i.e. `avx512_detected` in select.rs).
    unsafe { pointwise_montgomery_avx512(out, c, v) }
}

/// Vector `r` of `R` output rows at once (sharing the loads of v):
/// `o[i] = Σ_j rows[i·l + j] ∘ v[j] · 2^−32`, with the odd lanes of vector `r` of `v[j]`
/// from `vo[j]` (`l = v.len() ≤ vo.len()`).
///
/// # Safety
/// The CPU features are available; `o.len() = R`, `rows.len() = R·l`, `r < 16`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn matvec_block<const R: usize>(
    o: &mut [Poly],
    rows: &[Poly],
    v: &[Poly],
    vo: &[V],
    r: usize,
) {
    let l = v.len();
    // SAFETY: the CPU features are available and the lengths and `r < 16` hold
    // (preconditions).
    unsafe {
        let mut acc_e = [_mm512_setzero_si512(); R];
        let mut acc_o = [_mm512_setzero_si512(); R];
        for (j, (b, &yo)) in v.iter().zip(vo).enumerate() {
            let y = ld(b, r);
            for i in 0..R {
                let x = ld(rows.get_unchecked(i * l + j), r);
                acc_e[i] = _mm512_add_epi64(acc_e[i], _mm512_mul_epi32(x, y));
                acc_o[i] = _mm512_add_epi64(acc_o[i], _mm512_mul_epi32(odd(x), yo));
            }
        }
        for i in 0..R {
            let res = join_high(mont_reduce64(acc_e[i]), mont_reduce64(acc_o[i]));
            st(o.get_unchecked_mut(i), r, res);
        }
    }
}

/// `R` output rows, all 16 vectors; `vodd[j]` the odd lanes of `v[j]`.
///
/// # Safety
/// The CPU features are available; `o.len() = R`, `rows.len() = R·l`,
/// `vodd.len() ≥ l = v.len()`.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn matvec_rows<const R: usize>(o: &mut [Poly], rows: &[Poly], v: &[Poly], vodd: &[[V; 16]]) {
    let l = v.len();
    let mut vo = [unsafe { _mm512_setzero_si512() }; MATVEC_MAX_L];
    for r in 0..16 {
        for (d, s) in vo.iter_mut().zip(vodd) {
            *d = s[r];
        }
        // SAFETY: the preconditions of `matvec_block` hold (r < 16).
        unsafe { matvec_block::<R>(o, rows, v, &vo[..l], r) };
    }
}

/// The longest vector the AVX-512 matrix product handles itself (ML-DSA: l ≤ 7).
const MATVEC_MAX_L: usize = 8;

/// # Safety
/// The CPU must support AVX2 and AVX-512 F, VL, BW and DQ.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw,avx512dq")]
unsafe fn matvec_montgomery_avx512(out: &mut [Poly], mat: &[Poly], v: &[Poly]) {
    let l = v.len();
    // Panics (as portable does) if the matrix is too short.
    let mat = &mat[..out.len() * l];
    if l == 0 {
        // Empty sums: zero rows, as portable.
        out.fill(Poly::default());
        return;
    }
    if l > MATVEC_MAX_L {
        // Longer than any ML-DSA vector: exact i64 sums of more terms than one pass
        // holds; defer to the AVX2 kernel (the avx512 backend requires AVX2), which
        // computes the same bits.
        super::super::avx2::ntt::matvec_montgomery(out, mat, v);
        return;
    }
    // SAFETY (all calls below): the CPU features are available (precondition);
    // 1 ≤ l ≤ 8 and `mat.len() = out.len()·l`, so every chunk below has the lengths
    // `matvec_rows` requires.
    unsafe {
        // The odd lanes of v's vectors, shifted once for all rows.
        let mut vodd = [[_mm512_setzero_si512(); 16]; MATVEC_MAX_L];
        for (d, p) in vodd.iter_mut().zip(v) {
            *d = odd_regs(p);
        }
        let vodd = &vodd[..l];
        // Two rows at a time (one load of v per two products), then the last row.
        let mut oc = out.chunks_exact_mut(2);
        for (o, m) in (&mut oc).zip(mat.chunks_exact(2 * l)) {
            matvec_rows::<2>(o, m, v, vodd);
        }
        let o = oc.into_remainder();
        if !o.is_empty() {
            matvec_rows::<1>(o, &mat[mat.len() - l..], v, vodd);
        }
    }
}

/// `out[i] = Σ_j mat[i·l + j] ∘ v[j] · 2^−32` with `l = v.len()`, accumulated in 64 bits
/// and reduced once: bit-identical to portable.
///
/// In: |Σ_j mat·v| ≤ 2^31·q per coefficient (e.g. l ≤ 8 terms with mat std and
/// |v| < 9q). Out: |out| < q. Panics, like portable, if `mat` has fewer than
/// `out.len()·l` polynomials.
pub(crate) fn matvec_montgomery(out: &mut [Poly], mat: &[Poly], v: &[Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 and AVX-512 F, VL, BW
    // and DQ were detected (`kernels::mldsa::kernels` checks `Backend::Avx512
    // .is_available()`, i.e. `avx512_detected` in select.rs).
    unsafe { matvec_montgomery_avx512(out, mat, v) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each lane group of the per-lane tables covers each butterfly group of its layer
    /// exactly as many times as the layer has butterflies per group.
    #[test]
    fn lane_groups_cover_each_layer() {
        for s in 0..4 {
            let mut seen = [0usize; 128];
            for p in 0..8 {
                for j in 0..16 {
                    seen[group(p, j, s)] += 1;
                }
            }
            let groups = 128 >> s;
            assert!(seen[..groups].iter().all(|&c| c == 1 << s), "s = {s}");
            assert!(seen[groups..].iter().all(|&c| c == 0), "s = {s}");
        }
    }
}
