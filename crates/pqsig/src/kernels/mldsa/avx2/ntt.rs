//! AVX2 NTT, inverse NTT and NTT-domain products for q = 8380417, n = 256.
//!
//! # Representation
//! A polynomial is 32 vectors of 8 coefficients (`__m256i`, 32-bit lanes). Coefficient
//! `i` lives in vector `i / 8`, lane `i % 8`, both on input and on output: the transforms
//! return the FIPS 204 (bit-reversed) order of the portable backend, so NTT-domain data
//! is interchangeable between backends.
//!
//! # Twiddle multiplication
//! The transforms multiply by the plain twiddle `z` (not its Montgomery form) with a
//! Shoup-style product: with the companion `z' = round(z·2^32 / q)` (precomputed),
//!
//! ```text
//! t = ⌊h·z' / 2^32⌋  or  round(h·z' / 2^32)   (two 32×32→64 multiplies, even/odd lanes)
//! r = h·z − t·q   (mod 2^32)                   (two low multiplies, all eight lanes)
//! ```
//!
//! Then `r ≡ h·z (mod q)`, and for |z| < q/2 and any i32 `h` the true `r` fits in 32 bits
//! (so the wrapping arithmetic yields it exactly):
//! * floor:   −q·|h|/2^33 < r < q·(1 + |h|/2^33);
//! * rounded: |r| ≤ q·(1/2 + |h|/2^33), for two more additions.
//!
//! Four multiplies per eight coefficients instead of the six of a lane-split Montgomery
//! product. Most layers use the floor; the rounded form is used where the bounds need it:
//! forward layer 1 (without it eight layers could reach 9.04q, above the seam's 9q) and
//! the last inverse layer (so the output stays below q).
//!
//! # Layer schedule
//! Forward (Cooley–Tukey, layers of distance 128, 64, …, 1):
//! * layers 1–3: four passes over eight vectors 4 apart (coefficients 32 apart), all
//!   held in registers, broadcast twiddles;
//! * layers 4–8: four passes over a 64-coefficient block (8 consecutive vectors):
//!   layers 4–5 between vectors, then an 8×8 transpose so that layers 6–8 are also
//!   between vectors (per-lane twiddle vectors), then the transpose back.
//!
//! The inverse (Gentleman–Sande) runs the same schedule backwards and folds the final
//! scaling by 2^32/256 into its last layer.
//!
//! The products `pointwise_montgomery` and `matvec_montgomery` compute exactly what the
//! portable kernels compute (Montgomery reduction of the i64 product or sum of products),
//! bit for bit.
//!
//! Nothing here branches on or indexes memory with coefficient data.

// Value-only intrinsics are safe inside `#[target_feature]` functions (Rust ≥ 1.87); the
// code keeps explicit `unsafe` blocks around intrinsic sequences anyway, so that loads,
// stores and their SAFETY reasoning stay grouped. Hence `allow(unused_unsafe)`.
#![allow(unused_unsafe)]

use super::super::zetas::{lane_twiddles, shoup, F_SCALE, F_Z1, ZP};
use super::super::{Poly, N, Q, QINV};
use core::arch::x86_64::*;

// ---------------------------------------------------------------------------------------
// Constant tables (computed at compile time from the shared plain twiddles `ZP`).

/// Shoup companions of `ZP`.
const ZS: [i32; N] = {
    let mut t = [0i32; N];
    let mut k = 0;
    while k < N {
        t[k] = shoup(ZP[k]);
        k += 1;
    }
    t
};

/// Shoup companions of the inverse twiddles `−z_k`.
const ZS_NEG: [i32; N] = {
    let mut t = [0i32; N];
    let mut k = 0;
    while k < N {
        t[k] = shoup(-ZP[k]);
        k += 1;
    }
    t
};

/// A per-lane twiddle vector: `[z, z', z'_odd]`, where `z'_odd` holds the companions of
/// the odd lanes in the even lanes (what `_mm256_mul_epi32` reads for the odd products).
type LaneTw = [__m256i; 3];

const fn lane_tw(ks: [usize; 8], neg: bool) -> LaneTw {
    let [z, s, so] = lane_twiddles(ks, neg);
    // SAFETY: [i32; 8] and __m256i have the same size and every bit pattern is valid
    // for both.
    unsafe {
        [
            core::mem::transmute::<[i32; 8], __m256i>(z),
            core::mem::transmute::<[i32; 8], __m256i>(s),
            core::mem::transmute::<[i32; 8], __m256i>(so),
        ]
    }
}

/// Per-lane twiddles of forward layers 6–8, 7 vectors per 64-coefficient block `b`:
/// `[7b]` layer 6, `[7b+1+h]` layer 7, `[7b+3+u]` layer 8 (lane `L` of the transposed
/// block holds coefficients `64b + 8L + j`, `j` the register).
static FWD_LANE: [LaneTw; 28] = {
    // Placeholder value; every entry is overwritten below.
    let mut t = [lane_tw([0; 8], false); 28];
    let mut b = 0;
    while b < 4 {
        let mut k6 = [0usize; 8];
        let mut l = 0;
        while l < 8 {
            k6[l] = 32 + 8 * b + l;
            l += 1;
        }
        t[7 * b] = lane_tw(k6, false);
        let mut h = 0;
        while h < 2 {
            let mut k7 = [0usize; 8];
            let mut l = 0;
            while l < 8 {
                k7[l] = 64 + 16 * b + 2 * l + h;
                l += 1;
            }
            t[7 * b + 1 + h] = lane_tw(k7, false);
            h += 1;
        }
        let mut u = 0;
        while u < 4 {
            let mut k8 = [0usize; 8];
            let mut l = 0;
            while l < 8 {
                k8[l] = 128 + 32 * b + 4 * l + u;
                l += 1;
            }
            t[7 * b + 3 + u] = lane_tw(k8, false);
            u += 1;
        }
        b += 1;
    }
    t
};

/// Per-lane twiddles (negated, as the inverse uses them) of the inverse layers of
/// distance 1, 2, 4, per block `b`: `[7b+u]` distance 1, `[7b+4+h]` distance 2,
/// `[7b+6]` distance 4.
static INV_LANE: [LaneTw; 28] = {
    let mut t = [lane_tw([0; 8], true); 28];
    let mut b = 0;
    while b < 4 {
        let mut u = 0;
        while u < 4 {
            let mut k1 = [0usize; 8];
            let mut l = 0;
            while l < 8 {
                k1[l] = 255 - (32 * b + 4 * l + u);
                l += 1;
            }
            t[7 * b + u] = lane_tw(k1, true);
            u += 1;
        }
        let mut h = 0;
        while h < 2 {
            let mut k2 = [0usize; 8];
            let mut l = 0;
            while l < 8 {
                k2[l] = 127 - (16 * b + 2 * l + h);
                l += 1;
            }
            t[7 * b + 4 + h] = lane_tw(k2, true);
            h += 1;
        }
        let mut k4 = [0usize; 8];
        let mut l = 0;
        while l < 8 {
            k4[l] = 63 - (8 * b + l);
            l += 1;
        }
        t[7 * b + 6] = lane_tw(k4, true);
        b += 1;
    }
    t
};

// ---------------------------------------------------------------------------------------
// Building blocks. Every `unsafe fn` below has one safety requirement: the CPU supports
// AVX2 (they are only called from the `*_avx2` entry points, which require the same).

/// The 32 coefficient vectors of a polynomial.
#[inline]
fn vecs(p: &Poly) -> &[__m256i; 32] {
    // SAFETY: `Poly` is `repr(C, align(64))` around exactly 256 i32 (1024 bytes): the same
    // size and alignment as [__m256i; 32], and every bit pattern is valid for both.
    unsafe { &*(p as *const Poly as *const [__m256i; 32]) }
}

#[inline]
fn vecs_mut(p: &mut Poly) -> &mut [__m256i; 32] {
    // SAFETY: as in `vecs`; the exclusive borrow is carried over.
    unsafe { &mut *(p as *mut Poly as *mut [__m256i; 32]) }
}

/// A broadcast twiddle: `[z, z', z']` (the companion is the same in every lane).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn bcast(z: i32, s: i32) -> LaneTw {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let s = _mm256_set1_epi32(s);
        [_mm256_set1_epi32(z), s, s]
    }
}

/// Copies the odd 32-bit lanes onto the even ones (what `_mm256_mul_epi32` reads).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn odd_to_even(a: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe { _mm256_shuffle_epi32::<0xF5>(a) }
}

/// `h·z mod q` by the Shoup product (module docs), any i32 `h`, |z| < q/2.
///
/// With `ROUND`, t = round(h·z'/2^32) and |r| ≤ q·(1/2 + |h|/2^33). Without, t is the
/// floor (two additions fewer) and −q·|h|/2^33 < r < q·(1 + |h|/2^33).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mulq<const ROUND: bool>(h: __m256i, tw: &LaneTw) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let mut pe = _mm256_mul_epi32(h, tw[1]);
        let mut po = _mm256_mul_epi32(odd_to_even(h), tw[2]);
        if ROUND {
            let half = _mm256_set1_epi64x(1 << 31);
            pe = _mm256_add_epi64(pe, half);
            po = _mm256_add_epi64(po, half);
        }
        // t: high halves of the even products (moved down) and of the odd ones (in place).
        let t = _mm256_blend_epi32::<0xAA>(odd_to_even(pe), po);
        let hz = _mm256_mullo_epi32(h, tw[0]);
        let tq = _mm256_mullo_epi32(t, _mm256_set1_epi32(Q));
        _mm256_sub_epi32(hz, tq)
    }
}

/// Cooley–Tukey butterfly on registers `i`, `j`: (a, b) → (a + b·z, a − b·z).
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn ct<const ROUND: bool>(x: &mut [__m256i; 8], i: usize, j: usize, tw: &LaneTw) {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let t = mulq::<ROUND>(x[j], tw);
        x[j] = _mm256_sub_epi32(x[i], t);
        x[i] = _mm256_add_epi32(x[i], t);
    }
}

/// Gentleman–Sande butterfly on registers `i`, `j`: (a, b) → (a + b, (a − b)·z), with
/// the floor product.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn gs(x: &mut [__m256i; 8], i: usize, j: usize, tw: &LaneTw) {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let d = _mm256_sub_epi32(x[i], x[j]);
        x[i] = _mm256_add_epi32(x[i], x[j]);
        x[j] = mulq::<false>(d, tw);
    }
}

/// 8×8 transpose of 32-bit lanes of `x[..8]` (an involution): lane `l` of register `r`
/// ↔ lane `r` of register `l`. Also the NTT study's (`kernels/ntt/avx2/mldsa.rs`).
/// Requires AVX2; inlined into its callers' `#[target_feature]` code.
#[inline(always)]
pub(crate) unsafe fn transpose8(x: &mut [__m256i]) {
    // SAFETY: AVX2 is available (precondition).
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
// Forward NTT.

/// Forward NTT of one polynomial (vectors `v`). In: |a| < q. Out: |a| < 8.54q.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn ntt_one(v: &mut [__m256i; 32]) {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let mut x = [_mm256_setzero_si256(); 8];

        // Layers 1–3 (distances 128, 64, 32): register m holds coefficients
        // 32m + 8c + lane. Layer 1 uses the rounded product (bounds of `ntt`).
        for c in 0..4 {
            for (m, xm) in x.iter_mut().enumerate() {
                *xm = v[c + 4 * m];
            }
            let tw = bcast(ZP[1], ZS[1]);
            for m in 0..4 {
                ct::<true>(&mut x, m, m + 4, &tw);
            }
            for h in 0..2 {
                let tw = bcast(ZP[2 + h], ZS[2 + h]);
                ct::<false>(&mut x, 4 * h, 4 * h + 2, &tw);
                ct::<false>(&mut x, 4 * h + 1, 4 * h + 3, &tw);
            }
            for u in 0..4 {
                let tw = bcast(ZP[4 + u], ZS[4 + u]);
                ct::<false>(&mut x, 2 * u, 2 * u + 1, &tw);
            }
            for (m, xm) in x.iter().enumerate() {
                v[c + 4 * m] = *xm;
            }
        }

        // Layers 4–8 (distances 16, 8, 4, 2, 1), one 64-coefficient block at a time.
        for b in 0..4 {
            x.copy_from_slice(&v[8 * b..8 * b + 8]);
            // Register j holds coefficients 64b + 8j + lane.
            for h in 0..2 {
                let k = 8 + 2 * b + h;
                let tw = bcast(ZP[k], ZS[k]);
                ct::<false>(&mut x, 4 * h, 4 * h + 2, &tw);
                ct::<false>(&mut x, 4 * h + 1, 4 * h + 3, &tw);
            }
            for u in 0..4 {
                let k = 16 + 4 * b + u;
                let tw = bcast(ZP[k], ZS[k]);
                ct::<false>(&mut x, 2 * u, 2 * u + 1, &tw);
            }
            // Now register j holds coefficients 64b + 8·lane + j.
            transpose8(&mut x);
            let tw = &FWD_LANE[7 * b..7 * b + 7];
            for j in 0..4 {
                ct::<false>(&mut x, j, j + 4, &tw[0]);
            }
            for h in 0..2 {
                ct::<false>(&mut x, 4 * h, 4 * h + 2, &tw[1 + h]);
                ct::<false>(&mut x, 4 * h + 1, 4 * h + 3, &tw[1 + h]);
            }
            for u in 0..4 {
                ct::<false>(&mut x, 2 * u, 2 * u + 1, &tw[3 + u]);
            }
            transpose8(&mut x);
            v[8 * b..8 * b + 8].copy_from_slice(&x);
        }
    }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn ntt_avx2(a: &mut [Poly]) {
    for p in a.iter_mut() {
        // SAFETY: AVX2 is available (precondition).
        unsafe { ntt_one(vecs_mut(p)) }
    }
}

/// Forward NTT of each polynomial, in place, output in the FIPS 204 order (as portable).
///
/// In: |a| < q. Out: |a| < 8.54q (the seam allows < 9q). Each layer adds at most
/// q·(1 + B/2^33) to the bound B of the previous one, the first (rounded) layer at most
/// q·(1/2 + B/2^33): 1.501q, 2.503q, …, 8.532q.
pub(crate) fn ntt(a: &mut [Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { ntt_avx2(a) }
}

// ---------------------------------------------------------------------------------------
// Inverse NTT.

/// Inverse NTT times 2^32 of one polynomial. In: |a| < q. Out: |a| < 3q/4.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn invntt_one(v: &mut [__m256i; 32]) {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let mut x = [_mm256_setzero_si256(); 8];

        // Distances 1, 2, 4, 8, 16, one 64-coefficient block at a time.
        for b in 0..4 {
            x.copy_from_slice(&v[8 * b..8 * b + 8]);
            transpose8(&mut x);
            // Register j holds coefficients 64b + 8·lane + j.
            let tw = &INV_LANE[7 * b..7 * b + 7];
            for (u, t) in tw[..4].iter().enumerate() {
                gs(&mut x, 2 * u, 2 * u + 1, t);
            }
            for h in 0..2 {
                gs(&mut x, 4 * h, 4 * h + 2, &tw[4 + h]);
                gs(&mut x, 4 * h + 1, 4 * h + 3, &tw[4 + h]);
            }
            for j in 0..4 {
                gs(&mut x, j, j + 4, &tw[6]);
            }
            transpose8(&mut x);
            // Register j holds coefficients 64b + 8j + lane.
            for u in 0..4 {
                let k = 31 - (4 * b + u);
                let tw = bcast(-ZP[k], ZS_NEG[k]);
                gs(&mut x, 2 * u, 2 * u + 1, &tw);
            }
            for h in 0..2 {
                let k = 15 - (2 * b + h);
                let tw = bcast(-ZP[k], ZS_NEG[k]);
                gs(&mut x, 4 * h, 4 * h + 2, &tw);
                gs(&mut x, 4 * h + 1, 4 * h + 3, &tw);
            }
            v[8 * b..8 * b + 8].copy_from_slice(&x);
        }

        // Distances 32, 64, 128: register m holds coefficients 32m + 8c + lane.
        let scale = bcast(F_SCALE, shoup(F_SCALE));
        let last = bcast(F_Z1, shoup(F_Z1));
        for c in 0..4 {
            for (m, xm) in x.iter_mut().enumerate() {
                *xm = v[c + 4 * m];
            }
            for u in 0..4 {
                let k = 7 - u;
                let tw = bcast(-ZP[k], ZS_NEG[k]);
                gs(&mut x, 2 * u, 2 * u + 1, &tw);
            }
            for h in 0..2 {
                let k = 3 - h;
                let tw = bcast(-ZP[k], ZS_NEG[k]);
                gs(&mut x, 4 * h, 4 * h + 2, &tw);
                gs(&mut x, 4 * h + 1, 4 * h + 3, &tw);
            }
            // Last layer with the scaling folded in, rounded products:
            // (a + b)·f, (a − b)·(−z_1·f).
            for m in 0..4 {
                let s = _mm256_add_epi32(x[m], x[m + 4]);
                let d = _mm256_sub_epi32(x[m], x[m + 4]);
                x[m] = mulq::<true>(s, &scale);
                x[m + 4] = mulq::<true>(d, &last);
            }
            for (m, xm) in x.iter().enumerate() {
                v[c + 4 * m] = *xm;
            }
        }
    }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn invntt_tomont_avx2(a: &mut [Poly]) {
    for p in a.iter_mut() {
        // SAFETY: AVX2 is available (precondition).
        unsafe { invntt_one(vecs_mut(p)) }
    }
}

/// Inverse NTT of each polynomial times 2^32 (the Montgomery factor), in place; input in
/// the FIPS 204 order. The result is congruent to portable's.
///
/// In: |a| < q. Out: |a| < 3q/4. (No reduction of the sums: after layer s they are at
/// most 2^s·(q−1), and the floor products of layers 1–7 stay below 1.13q, so the last
/// sums and differences stay within 256(q−1) < 2^31; the rounded products of the last
/// layer are then below q·(1/2 + 256q/2^33) < 3q/4.)
pub(crate) fn invntt_tomont(a: &mut [Poly]) {
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { invntt_tomont_avx2(a) }
}

// ---------------------------------------------------------------------------------------
// Pointwise products.

/// Montgomery reduction of 64-bit lanes: the high 32 bits of `a − t·q` with
/// `t = lo32(a)·q^−1 mod 2^32` (as in portable `montgomery_reduce`), left in the high
/// half of each 64-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn mont_reduce64(a: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe {
        let t = _mm256_mul_epi32(a, _mm256_set1_epi32(QINV));
        let tq = _mm256_mul_epi32(t, _mm256_set1_epi32(Q));
        _mm256_sub_epi64(a, tq)
    }
}

/// Joins two vectors of reduced 64-bit lanes (results in the high halves; `e` from the
/// even coefficients, `o` from the odd ones) into eight 32-bit results.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn join_high(e: __m256i, o: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (precondition).
    unsafe { _mm256_blend_epi32::<0xAA>(odd_to_even(e), o) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn pointwise_montgomery_avx2(out: &mut [Poly], c: &Poly, v: &[Poly]) {
    let cv = vecs(c);
    for (o, p) in out.iter_mut().zip(v) {
        for (ov, (&a, &b)) in vecs_mut(o).iter_mut().zip(cv.iter().zip(vecs(p))) {
            // SAFETY: AVX2 is available (precondition).
            unsafe {
                let pe = _mm256_mul_epi32(a, b);
                let po = _mm256_mul_epi32(odd_to_even(a), odd_to_even(b));
                *ov = join_high(mont_reduce64(pe), mont_reduce64(po));
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
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { pointwise_montgomery_avx2(out, c, v) }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn matvec_montgomery_avx2(out: &mut [Poly], mat: &[Poly], v: &[Poly]) {
    let l = v.len();
    for (i, o) in out.iter_mut().enumerate() {
        let row = &mat[i * l..(i + 1) * l];
        let ov = vecs_mut(o);
        // Two coefficient vectors per step: four independent 64-bit accumulators.
        for c in (0..32).step_by(2) {
            // SAFETY: AVX2 is available (precondition).
            unsafe {
                let mut acc = [_mm256_setzero_si256(); 4];
                for (a, b) in row.iter().zip(v) {
                    let (av, bv) = (vecs(a), vecs(b));
                    for h in 0..2 {
                        let (x, y) = (av[c + h], bv[c + h]);
                        acc[2 * h] = _mm256_add_epi64(acc[2 * h], _mm256_mul_epi32(x, y));
                        let odd = _mm256_mul_epi32(odd_to_even(x), odd_to_even(y));
                        acc[2 * h + 1] = _mm256_add_epi64(acc[2 * h + 1], odd);
                    }
                }
                for h in 0..2 {
                    let (e, o) = (mont_reduce64(acc[2 * h]), mont_reduce64(acc[2 * h + 1]));
                    ov[c + h] = join_high(e, o);
                }
            }
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
    // SAFETY: this backend's table is only handed out after AVX2 was detected
    // (`kernels::mldsa::kernels`).
    unsafe { matvec_montgomery_avx2(out, mat, v) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The companion tables of this backend (`ZP`, `shoup` and the scaling constants are
    /// checked with the shared tables, `zetas::tests`).
    #[test]
    fn twiddle_tables() {
        let q = Q as i64;
        for k in 1..N {
            for (z, s) in [(ZP[k], ZS[k]), (-ZP[k], ZS_NEG[k])] {
                let exact = (z as f64) * 4294967296.0 / q as f64;
                assert!((s as f64 - exact).abs() <= 0.5, "k = {k}");
            }
        }
    }
}
