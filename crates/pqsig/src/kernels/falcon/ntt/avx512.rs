//! AVX-512 NTT kernels mod 12289: 32 coefficients per vector as 16-bit lanes.
//!
//! Unlike the AVX2 kernels, the transforms are *lazy inside*: coefficients are signed
//! 16-bit values congruent to the true ones, corrected to `[0, q)` only at the boundary,
//! so a butterfly is a signed Montgomery product (three multiplications and a
//! subtraction) plus one addition and one subtraction, with no correction. q = 12289
//! leaves little headroom in i16 (|x| ≤ 32767 ≈ 2.67q), so a Barrett reduction
//! (to `[−6145, 6145]`, about q/2) runs on the layers listed below. The tools:
//! * signed Montgomery product by a twiddle `w` taken centred (|w| ≤ (q−1)/2) with its
//!   companion `wq = w·(1/q) mod 2^16`: `hi(x·w) − hi(lo(x·wq)·q)` is `x·w/2^16 mod q`
//!   exactly (the two products agree modulo 2^16), of absolute value at most
//!   |x|·6144/2^16 + q/2 < 0.75q for every i16 `x`;
//! * centred Barrett reduction `x − round(round⌊x·5461/2^16⌉/2^10)·q` (`mulhi`, `mulhrs`,
//!   `mullo`, `sub`): |result| ≤ 6145 for every i16 `x` (checked exhaustively in the unit
//!   tests below);
//! * final correction `min_u16(r, r + q)`, which maps (−q, q) to `[0, q)`.
//!
//! Since every result is then the canonical residue of the same value the portable code
//! computes, outputs are bit-identical to it.
//!
//! # Coefficient bounds (multiples of q; layer ℓ = 1..logn, outer layers first)
//! * Forward (Cooley–Tukey): a layer maps a bound B to B + 0.094B + 0.5 (the product is
//!   below 0.094B + 0.5). From canonical input (B < 1): 1.59, 2.24; from a Barrett output
//!   (0.5): 1.05, 1.65, 2.30. So the outputs are Barrett-reduced after layers 2, 5, 8
//!   (ℓ ≡ 2 mod 3) and the last layer's outputs get Barrett plus the final correction.
//! * Inverse (Gentleman–Sande): the difference goes through the Montgomery product
//!   (< 0.75q after it), the sum doubles. Tracking the bound of every position, reducing
//!   the sums after every layer ℓ with ℓ mod 3 ≠ 0 (not the last) keeps every sum below
//!   2.6q. The last layer multiplies both outputs by n⁻¹ (Montgomery) and corrects.
//!
//! # Layout
//! A 64-coefficient chunk lives in two vectors X (offsets 0..32), Y (32..64). The first
//! inner layer (half-distance 32) pairs X with Y directly; the next five (16, 8, 4, 2, 1)
//! first apply a lane permutation of granularity 16, 8, 4, 2, 1 lanes (`sh16` … `sh1`,
//! each an involution: within groups of 2g lanes, X' = (X.lo_g, Y.lo_g), Y' = (X.hi_g,
//! Y.hi_g)) that brings every butterfly pair into the same lane of X and Y; the chunk is
//! permuted back before it is stored. Layers with half-distance ≥ 64 (outer) run merged:
//! all of them in one pass over the vectors j, j + 2, j + 4, … (j = 0, 1), which is a
//! transform of n/64 vectors held in registers.
//!
//! For logn < 6 (a polynomial shorter than two vectors) the AVX2 kernels run (which fall
//! back to portable below logn = 5).
//!
//! `mul_monty`, `to_monty`, `add` and `sub` run 32 lanes at a time (the AVX2 kernels for
//! lengths that are not multiples of 32); the other coefficient-wise kernels are AVX2's.
//!
//! Each table entry is a safe wrapper around a `#[target_feature]` function; the table
//! is only handed out by [`super::kernels`] after AVX-512 F/BW (and AVX2) was detected.

#![allow(unused_unsafe)]

use super::portable;
use super::tables::{GM, IGM};
use super::{avx2, NttKernels, Q, QINV};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

/// The AVX-512 table: its own transforms and NTT-domain products, sums and differences;
/// the AVX2 kernels for the rest.
pub(crate) static KERNELS: NttKernels = NttKernels {
    backend: Backend::Avx512,
    ntt,
    intt,
    mul_monty,
    to_monty,
    add,
    sub,
    ..avx2::KERNELS
};

// ---------------------------------------------------------------------------------------
// Tables.

/// A 64-byte-aligned row of 32 lanes.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Row([i16; 32]);

/// Twiddle entries centred to `(−q/2, q/2]`.
const fn centred(src: &[u16; 1024]) -> [i16; 1024] {
    let mut t = [0i16; 1024];
    let mut i = 0;
    while i < 1024 {
        let w = src[i] as i32;
        t[i] = (if w > (Q as i32) / 2 { w - Q as i32 } else { w }) as i16;
        i += 1;
    }
    t
}

/// `w · (1/q) mod 2^16` of each entry (the Montgomery companion).
const fn companion(src: &[i16; 1024]) -> [i16; 1024] {
    let mut t = [0i16; 1024];
    let mut i = 0;
    while i < 1024 {
        t[i] = (src[i] as u16).wrapping_mul(QINV) as i16;
        i += 1;
    }
    t
}

static GMC: [i16; 1024] = centred(&GM);
static IGMC: [i16; 1024] = centred(&IGM);
static GMCQ: [i16; 1024] = companion(&GMC);
static IGMCQ: [i16; 1024] = companion(&IGMC);

/// Chunk offset of the coefficient in lane `i` of X while the layer with half-distance
/// `ht` (32, 16, …, 1) runs: the natural layout permuted by `sh16`, … down to `sh_ht`.
const fn lane_map(ht: usize) -> [u8; 32] {
    let mut x = [0u8; 32];
    let mut y = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        x[i] = i as u8;
        y[i] = 32 + i as u8;
        i += 1;
    }
    let mut g = 16;
    while g >= ht {
        let (nx, ny) = super::tables::shuffle_model(&x, &y, g);
        x = nx;
        y = ny;
        g /= 2;
    }
    x
}

/// Per-lane twiddles of the inner layer with half-distance `ht`: row `v` serves chunk
/// `p` of a degree-n transform with `v = n/64 + p` (the layer has n/(2ht) groups, chunk
/// `p` covers the 32/ht groups from p·32/ht, the group `i` twiddle is entry
/// `n/(2ht) + i` = `v·32/ht + offset/(2ht)`).
const fn lane_table(src: &[i16; 1024], ht: usize) -> [Row; 32] {
    let map = lane_map(ht);
    let per = 32 / ht;
    let mut t = [Row([0; 32]); 32];
    let mut v = 0;
    while v < 32 {
        let mut i = 0;
        while i < 32 {
            t[v].0[i] = src[v * per + map[i] as usize / (2 * ht)];
            i += 1;
        }
        v += 1;
    }
    t
}

/// The six inner layers' lane tables (half-distance 32, 16, 8, 4, 2, 1), twiddle and
/// companion.
struct Inner {
    w: [[Row; 32]; 6],
    wq: [[Row; 32]; 6],
}

const fn inner(src: &[i16; 1024]) -> Inner {
    let q = companion(src);
    Inner {
        w: [
            lane_table(src, 32),
            lane_table(src, 16),
            lane_table(src, 8),
            lane_table(src, 4),
            lane_table(src, 2),
            lane_table(src, 1),
        ],
        wq: [
            lane_table(&q, 32),
            lane_table(&q, 16),
            lane_table(&q, 8),
            lane_table(&q, 4),
            lane_table(&q, 2),
            lane_table(&q, 1),
        ],
    }
}

static FWD: Inner = inner(&GMC);
static INV: Inner = inner(&IGMC);

// ---------------------------------------------------------------------------------------
// Lane arithmetic (signed 16-bit lanes).

#[inline(always)]
unsafe fn load(p: &[u16]) -> __m512i {
    debug_assert!(p.len() >= 32);
    // SAFETY: 32 readable u16 (caller's slice), unaligned load.
    unsafe { _mm512_loadu_si512(p.as_ptr() as *const __m512i) }
}

#[inline(always)]
unsafe fn store(p: &mut [u16], v: __m512i) {
    debug_assert!(p.len() >= 32);
    // SAFETY: 32 writable u16 (caller's slice), unaligned store.
    unsafe { _mm512_storeu_si512(p.as_mut_ptr() as *mut __m512i, v) }
}

#[inline(always)]
unsafe fn row(r: &Row) -> __m512i {
    // SAFETY: 64 aligned readable bytes.
    unsafe { _mm512_load_si512(r.0.as_ptr() as *const __m512i) }
}

/// Constants: q, the Barrett factor, the rounding multiplier.
#[derive(Clone, Copy)]
struct K {
    q: __m512i,
    v: __m512i,
    r: __m512i,
}

#[inline(always)]
unsafe fn consts() -> K {
    unsafe {
        K {
            q: _mm512_set1_epi16(Q as i16),
            v: _mm512_set1_epi16(5461),
            r: _mm512_set1_epi16(32),
        }
    }
}

/// A twiddle vector and its companion.
type Tw = (__m512i, __m512i);

/// Signed Montgomery product `x·w/2^16 mod q`, |result| ≤ |x|·|w|/2^16 + q/2.
#[inline(always)]
unsafe fn mont(x: __m512i, w: Tw, k: K) -> __m512i {
    unsafe {
        let m = _mm512_mullo_epi16(x, w.1);
        let hi = _mm512_mulhi_epi16(x, w.0);
        let t = _mm512_mulhi_epi16(m, k.q);
        _mm512_sub_epi16(hi, t)
    }
}

/// Centred Barrett reduction: |result| ≤ 6145.
#[inline(always)]
unsafe fn barrett(x: __m512i, k: K) -> __m512i {
    unsafe {
        let t = _mm512_mulhi_epi16(x, k.v);
        let t = _mm512_mulhrs_epi16(t, k.r);
        _mm512_sub_epi16(x, _mm512_mullo_epi16(t, k.q))
    }
}

/// `(−q, q) → [0, q)`.
#[inline(always)]
unsafe fn caddq(x: __m512i, k: K) -> __m512i {
    unsafe { _mm512_min_epu16(x, _mm512_add_epi16(x, k.q)) }
}

/// `(−2q, 2q) → [0, q)` without multiplications: add 2q where negative, then subtract q
/// where that does not wrap (unsigned minimum).
#[inline(always)]
unsafe fn canon2(x: __m512i, k: K) -> __m512i {
    unsafe {
        let neg = _mm512_movepi16_mask(x);
        let s = _mm512_mask_add_epi16(x, neg, x, _mm512_add_epi16(k.q, k.q));
        _mm512_min_epu16(s, _mm512_sub_epi16(s, k.q))
    }
}

/// The forward transform's last correction: after layer logn the bound is 1.05q or
/// 1.65q (one or two layers after a Barrett), below 2q, unless logn ≡ 2 mod 3 (three
/// layers, 2.3q), which takes a Barrett reduction first.
#[inline(always)]
unsafe fn fwd_final<const LOGN: u32>(x: __m512i, k: K) -> __m512i {
    unsafe {
        if LOGN % 3 == 2 {
            caddq(barrett(x, k), k)
        } else {
            canon2(x, k)
        }
    }
}

/// Cooley–Tukey butterfly: (x, y) ← (x + y·w, x − y·w).
#[inline(always)]
unsafe fn ct(x: &mut __m512i, y: &mut __m512i, w: Tw, k: K) {
    unsafe {
        let t = mont(*y, w, k);
        *y = _mm512_sub_epi16(*x, t);
        *x = _mm512_add_epi16(*x, t);
    }
}

/// Gentleman–Sande butterfly: (x, y) ← (x + y, (x − y)·w).
#[inline(always)]
unsafe fn gs(x: &mut __m512i, y: &mut __m512i, w: Tw, k: K) {
    unsafe {
        let d = _mm512_sub_epi16(*x, *y);
        *x = _mm512_add_epi16(*x, *y);
        *y = mont(d, w, k);
    }
}

/// Entry `i` of a centred table and its companion, in every lane.
#[inline(always)]
unsafe fn splat(t: &[i16; 1024], tq: &[i16; 1024], i: usize) -> Tw {
    unsafe { (_mm512_set1_epi16(t[i]), _mm512_set1_epi16(tq[i])) }
}

#[inline(always)]
unsafe fn sh16(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    unsafe {
        (
            _mm512_shuffle_i64x2::<0b01_00_01_00>(x, y),
            _mm512_shuffle_i64x2::<0b11_10_11_10>(x, y),
        )
    }
}

#[inline(always)]
unsafe fn sh8(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    unsafe {
        let lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
        let hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
        (
            _mm512_permutex2var_epi64(x, lo, y),
            _mm512_permutex2var_epi64(x, hi, y),
        )
    }
}

#[inline(always)]
unsafe fn sh4(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    unsafe { (_mm512_unpacklo_epi64(x, y), _mm512_unpackhi_epi64(x, y)) }
}

#[inline(always)]
unsafe fn sh2(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    unsafe {
        (
            _mm512_mask_blend_epi32(0xAAAA, x, _mm512_slli_epi64::<32>(y)),
            _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(x), y),
        )
    }
}

#[inline(always)]
unsafe fn sh1(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    unsafe {
        (
            _mm512_mask_blend_epi16(0xAAAA_AAAA, x, _mm512_slli_epi32::<16>(y)),
            _mm512_mask_blend_epi16(0xAAAA_AAAA, _mm512_srli_epi32::<16>(x), y),
        )
    }
}

/// Word indices into (X, Y) of the permutation between the natural chunk layout and the
/// one of the half-distance-1 layer (`sh16` … `sh1` applied in turn): `[to X, to Y,
/// from X, from Y]`.
const fn chunk_perms() -> [[i16; 32]; 4] {
    let map = lane_map(1);
    let mut t = [[0i16; 32]; 4];
    let mut i = 0;
    while i < 32 {
        // Lane i of X holds offset map[i], lane i of Y its partner map[i] + 1.
        t[0][i] = map[i] as i16;
        t[1][i] = map[i] as i16 + 1;
        i += 1;
    }
    let mut i = 0;
    while i < 32 {
        let (cx, cy) = (map[i] as usize, map[i] as usize + 1);
        // Offset c goes to lane c % 32 of X (c < 32) or Y.
        t[2 + cx / 32][cx % 32] = i as i16;
        t[2 + cy / 32][cy % 32] = 32 + i as i16;
        i += 1;
    }
    t
}

static CHUNK_PERM: [[i16; 32]; 4] = chunk_perms();

/// Natural chunk layout to the half-distance-1 layout (the composition of `sh16` …
/// `sh1`), one two-source word permute per vector.
#[inline(always)]
unsafe fn to_chunk_order(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    unsafe {
        let ix = _mm512_loadu_si512(CHUNK_PERM[0].as_ptr() as *const __m512i);
        let iy = _mm512_loadu_si512(CHUNK_PERM[1].as_ptr() as *const __m512i);
        (
            _mm512_permutex2var_epi16(x, ix, y),
            _mm512_permutex2var_epi16(x, iy, y),
        )
    }
}

/// The inverse of `to_chunk_order`.
#[inline(always)]
unsafe fn from_chunk_order(x: __m512i, y: __m512i) -> (__m512i, __m512i) {
    unsafe {
        let ix = _mm512_loadu_si512(CHUNK_PERM[2].as_ptr() as *const __m512i);
        let iy = _mm512_loadu_si512(CHUNK_PERM[3].as_ptr() as *const __m512i);
        (
            _mm512_permutex2var_epi16(x, ix, y),
            _mm512_permutex2var_epi16(x, iy, y),
        )
    }
}

/// Inner-layer twiddles: table `t` (0: half-distance 32 … 5: 1), row `v`.
#[inline(always)]
unsafe fn twl(tab: &Inner, t: usize, v: usize) -> Tw {
    unsafe { (row(&tab.w[t][v]), row(&tab.wq[t][v])) }
}

// ---------------------------------------------------------------------------------------
// Reduction schedules (see the module docs).

/// Forward: Barrett after layer ℓ (1-based) when ℓ ≡ 2 mod 3, before the last.
const fn fwd_reduce(logn: u32, l: u32) -> bool {
    l % 3 == 2 && l < logn
}

/// Inverse: Barrett of the sums after layer ℓ when ℓ mod 3 ≠ 0, before the last.
const fn inv_reduce(logn: u32, l: u32) -> bool {
    !l.is_multiple_of(3) && l < logn
}

// ---------------------------------------------------------------------------------------
// Transforms.

/// Most vectors the merged outer pass holds (n/64 for n = 1024).
const OUTER_MAX: usize = 16;

/// One forward outer layer on the vectors held in `r` (transform of n/64 vectors):
/// `M` groups, half-distance `HK` vectors; then the layer's Barrett reduction if the
/// schedule has one (the layer index is log2(M) + 1).
#[inline(always)]
unsafe fn fwd_layer<const LOGN: u32, const HK: usize, const M: usize>(
    r: &mut [__m512i; OUTER_MAX],
    k: K,
) {
    for g in 0..M {
        let w = unsafe { splat(&GMC, &GMCQ, M + g) };
        for i in 0..HK {
            let b = 2 * g * HK + i;
            let (mut x, mut y) = (r[b], r[b + HK]);
            unsafe { ct(&mut x, &mut y, w, k) };
            r[b] = x;
            r[b + HK] = y;
        }
    }
    if fwd_reduce(LOGN, M.trailing_zeros() + 1) {
        for ri in r.iter_mut().take(2 * HK * M) {
            *ri = unsafe { barrett(*ri, k) };
        }
    }
}

/// One inverse outer layer (not the last): `M` groups, half-distance `HK` vectors,
/// layer index `L`.
#[inline(always)]
unsafe fn inv_layer<const LOGN: u32, const HK: usize, const M: usize, const L: u32>(
    r: &mut [__m512i; OUTER_MAX],
    k: K,
) {
    for g in 0..M {
        let w = unsafe { splat(&IGMC, &IGMCQ, M + g) };
        for i in 0..HK {
            let b = 2 * g * HK + i;
            let (mut x, mut y) = (r[b], r[b + HK]);
            unsafe { gs(&mut x, &mut y, w, k) };
            if inv_reduce(LOGN, L) {
                x = unsafe { barrett(x, k) };
            }
            r[b] = x;
            r[b + HK] = y;
        }
    }
}

/// Forward outer layers (half-distance ≥ 64, layers 1..=logn − 6), merged: for j in
/// {0, 1}, the vectors j, j + 2, … form a transform of n/64 vectors in registers.
///
/// # Safety
/// AVX-512 F/BW must be available (inlined into the `#[target_feature]` caller).
#[inline(always)]
unsafe fn fwd_outer<const LOGN: u32>(a: &mut [u16], k: K) {
    let nv = 1usize << (LOGN - 6);
    for j in 0..2 {
        let mut r = [unsafe { _mm512_setzero_si512() }; OUTER_MAX];
        for (i, ri) in r.iter_mut().enumerate().take(nv) {
            let o = 32 * (j + 2 * i);
            *ri = unsafe { load(&a[o..o + 32]) };
        }
        // One layer at a time with constant shapes, so that the loops unroll and `r`
        // stays in registers.
        unsafe {
            match LOGN {
                7 => fwd_layer::<LOGN, 1, 1>(&mut r, k),
                8 => {
                    fwd_layer::<LOGN, 2, 1>(&mut r, k);
                    fwd_layer::<LOGN, 1, 2>(&mut r, k);
                }
                9 => {
                    fwd_layer::<LOGN, 4, 1>(&mut r, k);
                    fwd_layer::<LOGN, 2, 2>(&mut r, k);
                    fwd_layer::<LOGN, 1, 4>(&mut r, k);
                }
                _ => {
                    fwd_layer::<LOGN, 8, 1>(&mut r, k);
                    fwd_layer::<LOGN, 4, 2>(&mut r, k);
                    fwd_layer::<LOGN, 2, 4>(&mut r, k);
                    fwd_layer::<LOGN, 1, 8>(&mut r, k);
                }
            }
        }
        for (i, ri) in r.iter().enumerate().take(nv) {
            let o = 32 * (j + 2 * i);
            unsafe { store(&mut a[o..o + 32], *ri) };
        }
    }
}

/// The six inner forward layers (layers logn − 5 ..= logn) on chunk `p`, natural order
/// in and out, canonical out.
///
/// # Safety
/// As for `fwd_outer`.
#[inline(always)]
unsafe fn fwd_chunk<const LOGN: u32>(
    mut x: __m512i,
    mut y: __m512i,
    p: usize,
    k: K,
) -> (__m512i, __m512i) {
    let v = (1usize << (LOGN - 6)) + p;
    let l0 = LOGN - 5;
    unsafe {
        let red = |x: &mut __m512i, y: &mut __m512i, l: u32| {
            if fwd_reduce(LOGN, l) {
                *x = barrett(*x, k);
                *y = barrett(*y, k);
            }
        };
        ct(&mut x, &mut y, twl(&FWD, 0, v), k);
        red(&mut x, &mut y, l0);
        (x, y) = sh16(x, y);
        ct(&mut x, &mut y, twl(&FWD, 1, v), k);
        red(&mut x, &mut y, l0 + 1);
        (x, y) = sh8(x, y);
        ct(&mut x, &mut y, twl(&FWD, 2, v), k);
        red(&mut x, &mut y, l0 + 2);
        (x, y) = sh4(x, y);
        ct(&mut x, &mut y, twl(&FWD, 3, v), k);
        red(&mut x, &mut y, l0 + 3);
        (x, y) = sh2(x, y);
        ct(&mut x, &mut y, twl(&FWD, 4, v), k);
        red(&mut x, &mut y, l0 + 4);
        (x, y) = sh1(x, y);
        ct(&mut x, &mut y, twl(&FWD, 5, v), k);
        x = fwd_final::<LOGN>(x, k);
        y = fwd_final::<LOGN>(y, k);
        (x, y) = from_chunk_order(x, y);
    }
    (x, y)
}

/// The last inverse layer's factors with the division by n folded in: x ← (u + v)·n⁻¹,
/// y ← (u − v)·(w·n⁻¹), both Montgomery products then corrected, so each output is the
/// canonical residue of the value the portable code computes.
#[inline(always)]
unsafe fn last_consts(logn: u32) -> (Tw, Tw) {
    let ni = portable::inv_n_monty(logn);
    let wni = portable::mq_montymul(IGM[1] as u32, ni);
    let c = |w: u32| {
        let w = if w > Q / 2 {
            w as i32 - Q as i32
        } else {
            w as i32
        } as i16;
        let wq = (w as u16).wrapping_mul(QINV) as i16;
        unsafe { (_mm512_set1_epi16(w), _mm512_set1_epi16(wq)) }
    };
    (c(ni), c(wni))
}

/// The six inner inverse layers (1..=6) on chunk `p`, natural order in; natural order
/// out. For logn = 6 the last one is the final layer (with n⁻¹, canonical out).
///
/// # Safety
/// As for `fwd_outer`.
#[inline(always)]
unsafe fn inv_chunk<const LOGN: u32>(
    mut x: __m512i,
    mut y: __m512i,
    p: usize,
    k: K,
) -> (__m512i, __m512i) {
    let v = (1usize << (LOGN - 6)) + p;
    unsafe {
        let red = |x: &mut __m512i, l: u32| {
            if inv_reduce(LOGN, l) {
                *x = barrett(*x, k);
            }
        };
        (x, y) = to_chunk_order(x, y);
        gs(&mut x, &mut y, twl(&INV, 5, v), k);
        red(&mut x, 1);
        (x, y) = sh1(x, y);
        gs(&mut x, &mut y, twl(&INV, 4, v), k);
        red(&mut x, 2);
        (x, y) = sh2(x, y);
        gs(&mut x, &mut y, twl(&INV, 3, v), k);
        red(&mut x, 3);
        (x, y) = sh4(x, y);
        gs(&mut x, &mut y, twl(&INV, 2, v), k);
        red(&mut x, 4);
        (x, y) = sh8(x, y);
        gs(&mut x, &mut y, twl(&INV, 1, v), k);
        red(&mut x, 5);
        (x, y) = sh16(x, y);
        if LOGN == 6 {
            let (ni, wni) = last_consts(LOGN);
            let (u, w) = (x, y);
            x = caddq(mont(_mm512_add_epi16(u, w), ni, k), k);
            y = caddq(mont(_mm512_sub_epi16(u, w), wni, k), k);
        } else {
            gs(&mut x, &mut y, twl(&INV, 0, v), k);
            red(&mut x, 6);
        }
    }
    (x, y)
}

/// Inverse outer layers (7..=logn), merged like `fwd_outer`; the last one with n⁻¹.
///
/// # Safety
/// As for `fwd_outer`.
#[inline(always)]
unsafe fn inv_outer<const LOGN: u32>(a: &mut [u16], k: K) {
    let nv = 1usize << (LOGN - 6);
    let (ni, wni) = unsafe { last_consts(LOGN) };
    for j in 0..2 {
        let mut r = [unsafe { _mm512_setzero_si512() }; OUTER_MAX];
        for (i, ri) in r.iter_mut().enumerate().take(nv) {
            let o = 32 * (j + 2 * i);
            *ri = unsafe { load(&a[o..o + 32]) };
        }
        unsafe {
            match LOGN {
                8 => inv_layer::<LOGN, 1, 2, 7>(&mut r, k),
                9 => {
                    inv_layer::<LOGN, 1, 4, 7>(&mut r, k);
                    inv_layer::<LOGN, 2, 2, 8>(&mut r, k);
                }
                10 => {
                    inv_layer::<LOGN, 1, 8, 7>(&mut r, k);
                    inv_layer::<LOGN, 2, 4, 8>(&mut r, k);
                    inv_layer::<LOGN, 4, 2, 9>(&mut r, k);
                }
                _ => {}
            }
        }
        // Last layer: half-distance nv/2.
        let h = nv / 2;
        for i in 0..h {
            unsafe {
                let (u, w) = (r[i], r[i + h]);
                r[i] = caddq(mont(_mm512_add_epi16(u, w), ni, k), k);
                r[i + h] = caddq(mont(_mm512_sub_epi16(u, w), wni, k), k);
            }
        }
        for (i, ri) in r.iter().enumerate().take(nv) {
            let o = 32 * (j + 2 * i);
            unsafe { store(&mut a[o..o + 32], *ri) };
        }
    }
}

/// # Safety
/// AVX-512 F/BW must be available. `a.len() == 2^LOGN`, LOGN in 6..=10.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn ntt_one<const LOGN: u32>(a: &mut [u16]) {
    let k = unsafe { consts() };
    if LOGN > 6 {
        unsafe { fwd_outer::<LOGN>(a, k) };
    }
    for (p, chunk) in a.chunks_exact_mut(64).enumerate() {
        let (c0, c1) = chunk.split_at_mut(32);
        unsafe {
            let (x, y) = fwd_chunk::<LOGN>(load(c0), load(c1), p, k);
            store(c0, x);
            store(c1, y);
        }
    }
}

/// # Safety
/// AVX-512 F/BW must be available. `a.len() == 2^LOGN`, LOGN in 6..=10.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn intt_one<const LOGN: u32>(a: &mut [u16]) {
    let k = unsafe { consts() };
    for (p, chunk) in a.chunks_exact_mut(64).enumerate() {
        let (c0, c1) = chunk.split_at_mut(32);
        unsafe {
            let (x, y) = inv_chunk::<LOGN>(load(c0), load(c1), p, k);
            store(c0, x);
            store(c1, y);
        }
    }
    if LOGN > 6 {
        unsafe { inv_outer::<LOGN>(a, k) };
    }
}

fn ntt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    debug_assert!(a.len().is_multiple_of(n));
    if logn < 6 {
        return (avx2::KERNELS.ntt)(a, logn);
    }
    for p in a.chunks_exact_mut(n) {
        // SAFETY: AVX-512 F/BW were detected before this table was handed out; p has
        // 2^logn entries.
        unsafe {
            match logn {
                6 => ntt_one::<6>(p),
                7 => ntt_one::<7>(p),
                8 => ntt_one::<8>(p),
                9 => ntt_one::<9>(p),
                _ => ntt_one::<10>(p),
            }
        }
    }
}

fn intt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    debug_assert!(a.len().is_multiple_of(n));
    if logn < 6 {
        return (avx2::KERNELS.intt)(a, logn);
    }
    for p in a.chunks_exact_mut(n) {
        // SAFETY: as in `ntt`.
        unsafe {
            match logn {
                6 => intt_one::<6>(p),
                7 => intt_one::<7>(p),
                8 => intt_one::<8>(p),
                9 => intt_one::<9>(p),
                _ => intt_one::<10>(p),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Coefficient-wise kernels (canonical in and out, the portable formulas lane-wise). Shapes
// whose lengths are not multiples of 32 run the AVX2 kernels.

/// `a ← f(a, b)` over 32-lane vectors, `b` one polynomial repeated over `a` or as long as
/// `a`; both lengths multiples of 32 (checked by the callers).
#[inline(always)]
unsafe fn zip32(a: &mut [u16], b: &[u16], f: impl Fn(__m512i, __m512i) -> __m512i) {
    for chunk in a.chunks_mut(b.len()) {
        for (x, y) in chunk.chunks_exact_mut(32).zip(b.chunks_exact(32)) {
            unsafe { store(x, f(load(x), load(y))) };
        }
    }
}

/// Whether the 32-lane bodies cover the shapes exactly.
fn whole(a: &[u16], b: &[u16]) -> bool {
    !b.is_empty() && b.len().is_multiple_of(32) && a.len().is_multiple_of(b.len())
}

/// Canonical Montgomery product `x·y/2^16 mod q` (x, y canonical).
#[inline(always)]
unsafe fn montymul_c(x: __m512i, y: __m512i, k: K) -> __m512i {
    unsafe {
        let lo = _mm512_mullo_epi16(x, y);
        let hi = _mm512_mulhi_epu16(x, y);
        let m = _mm512_mullo_epi16(lo, _mm512_set1_epi16(QINV as i16));
        let t = _mm512_mulhi_epu16(m, k.q);
        caddq(_mm512_sub_epi16(hi, t), k)
    }
}

#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn mul_monty_512(a: &mut [u16], b: &[u16]) {
    let k = unsafe { consts() };
    unsafe { zip32(a, b, |x, y| montymul_c(x, y, k)) }
}

fn mul_monty(a: &mut [u16], b: &[u16]) {
    if !whole(a, b) {
        return (avx2::KERNELS.mul_monty)(a, b);
    }
    // SAFETY: AVX-512 F/BW were detected before this table was handed out.
    unsafe { mul_monty_512(a, b) }
}

#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn add_512(a: &mut [u16], b: &[u16]) {
    let k = unsafe { consts() };
    unsafe {
        zip32(a, b, |x, y| {
            let s = _mm512_add_epi16(x, y);
            _mm512_min_epu16(s, _mm512_sub_epi16(s, k.q))
        })
    }
}

fn add(a: &mut [u16], b: &[u16]) {
    if !whole(a, b) {
        return (avx2::KERNELS.add)(a, b);
    }
    // SAFETY: as in `mul_monty`.
    unsafe { add_512(a, b) }
}

#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn sub_512(a: &mut [u16], b: &[u16]) {
    let k = unsafe { consts() };
    unsafe { zip32(a, b, |x, y| caddq(_mm512_sub_epi16(x, y), k)) }
}

fn sub(a: &mut [u16], b: &[u16]) {
    if !whole(a, b) {
        return (avx2::KERNELS.sub)(a, b);
    }
    // SAFETY: as in `mul_monty`.
    unsafe { sub_512(a, b) }
}

#[target_feature(enable = "avx2,avx512f,avx512bw")]
unsafe fn to_monty_512(a: &mut [u16]) {
    let k = unsafe { consts() };
    let r2 = unsafe { _mm512_set1_epi16(super::R2 as i16) };
    for x in a.chunks_exact_mut(32) {
        unsafe { store(x, montymul_c(load(x), r2, k)) };
    }
}

fn to_monty(a: &mut [u16]) {
    if !a.len().is_multiple_of(32) {
        return (avx2::KERNELS.to_monty)(a);
    }
    // SAFETY: as in `mul_monty`.
    unsafe { to_monty_512(a) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scalar model of `barrett`.
    fn barrett_model(x: i16) -> i32 {
        let t = (x as i32 * 5461) >> 16;
        let t = (t * 32 + (1 << 14)) >> 15;
        x as i32 - t * Q as i32
    }

    #[test]
    fn barrett_is_congruent_and_centred_for_every_i16() {
        for x in i16::MIN..=i16::MAX {
            let r = barrett_model(x);
            assert!(r.abs() <= 6145, "{x} -> {r}");
            assert_eq!((x as i32 - r).rem_euclid(Q as i32), 0);
        }
    }

    /// The bound tracking behind the reduction schedules, position by position, with
    /// the worst-case Montgomery bound |x|·6144/2^16 + q/2.
    #[test]
    fn reduction_schedules_stay_in_i16() {
        let mont = |b: i64| b * 6144 / 65536 + 1 + (32768 * Q as i64) / 65536;
        for logn in 6..=10u32 {
            let n = 1usize << logn;
            // Forward: uniform bound.
            let mut b = Q as i64 - 1;
            for l in 1..=logn {
                b += mont(b);
                assert!(b <= 32767, "fwd logn {logn} layer {l}");
                if l == logn && logn % 3 != 2 {
                    // `canon2` takes (−2q, 2q).
                    assert!(b < 2 * Q as i64, "fwd logn {logn} final");
                }
                if fwd_reduce(logn, l) {
                    b = 6145;
                }
            }
            // Inverse: per position.
            let mut b = vec![Q as i64 - 1; n];
            for l in 1..=logn {
                let ht = 1usize << (l - 1);
                for j in (0..n).filter(|j| j & ht == 0) {
                    let s = b[j] + b[j + ht];
                    assert!(s <= 32767, "inv logn {logn} layer {l}");
                    b[j] = if inv_reduce(logn, l) { 6145 } else { s };
                    b[j + ht] = mont(s);
                    assert!(b[j + ht] < Q as i64);
                }
            }
        }
    }

    #[test]
    fn lane_maps_pair_at_the_right_distance() {
        for ht in [1usize, 2, 4, 8, 16, 32] {
            let m = lane_map(ht);
            for (i, &c) in m.iter().enumerate() {
                assert_eq!((c as usize / ht) % 2, 0, "ht={ht} lane {i}");
            }
        }
    }
}
