//! AVX-512 GF(16) kernels: GFNI on zmm registers, 64 elements per instruction.
//!
//! * Products: `vgf2p8mulb zmm` multiplies 64 byte pairs in GF(2⁸); for two nibbles the
//!   product has degree ≤ 6, so the instruction's own reduction modulo x⁸+x⁴+x³+x+1
//!   never fires and the result is exactly the carry-less product (`< 0x80`) that the
//!   unreduced accumulators hold.
//! * Reduction modulo t⁴+t+1: a GF(2)-linear map on each byte, one `vgf2p8affineqb` with
//!   the bit matrix [`avx2::RED_AFFINE`].
//! * Row tails: masked loads/stores (`vmovdqu8` with a k-mask): no padding copies, and
//!   bytes outside the shape are never read or written. The masks depend on shapes only.
//!
//! `gemm_acc`, general path: rows of C in register blocks (eight rows × one zmm, or four
//! rows × two or four zmm for wide products, so that one broadcast A element serves up
//! to four products), k inside, two k at a time: per (row, k) one `vpbroadcastb` of A's
//! element, one `vgf2p8mulb` with B's row (loaded once per k for the block), and per
//! two k one `vpternlogq 0x96` (three-way XOR) into the accumulator. With VBMI, narrow
//! products (n ≤ 32) fill the 64 lanes by interleaving (see `gemm_vbmi_inner`):
//! G = 2, 4 or 8 values of k (A row-major) or rows of C (A column-major) share one
//! register, fed by one broadcast of G adjacent A elements (`vpbroadcastw/d/q`) and B's
//! rows interleaved or repeated by `vpermb`.
//! `mat_mul_batch` (with VBMI) puts several small matrices in one register: for each
//! inner index l two `vpermi2b` byte gathers bring `A[t][i][l]` and `B[t][l][j]` to
//! output lane (t,i,j) (index vectors depend on the public shape only), one
//! `vgf2p8mulb` multiplies them; outputs over 64 elements go by row blocks of one matrix.
//! `solve` works on a zero-padded copy (whole-register rows, so stores forward to the
//! scalar reads of the next pivot column), keeps the pivot row in up to four zmm
//! registers (systems up to 255 unknowns; larger ones use the portable kernel) and
//! follows the portable algorithm: mask-selected pivot row addition, pivot inverse by
//! exponentiation, normalisation and elimination below with GFNI products, back
//! substitution by lane-wise dot products (`vgf2p8mulb` of the row with the solution so
//! far, horizontal XOR).
//!
//! Without GFNI the backend uses the AVX2 shuffle kernels ([`avx2::SHUFFLE`]); without
//! VBMI `mat_mul_batch` (and shapes the register gathers cannot hold) use the AVX2 GFNI
//! kernel, and `gemm_acc` the general path.
//!
//! # Bounds and constant time
//! As in [`super`]. Loop bounds, k-masks and permutation indices depend on the public
//! shapes; secret values are only broadcast, multiplied, XORed and turned into masks.
//!
//! Each table entry is a safe wrapper around a whole `#[target_feature]` function; the
//! tables are only handed out by [`super::kernels`] / [`implementations`] after the
//! AVX-512 backend's features (and GFNI, VBMI where used) were detected, which is what
//! makes the wrappers sound.

#![allow(unused_unsafe)]
// Loops index register arrays by constants after unrolling (kept in registers).
#![allow(clippy::needless_range_loop)]

use super::avx2::{self, check_gemm, check_solve, hxor256, RED_AFFINE};
use super::{inv, portable, reduce1, Kernels};
use crate::kernels::select::Backend;
use alloc::vec::Vec;
use core::arch::x86_64::*;

/// GFNI kernels (`mat_mul_batch`: the AVX2 GFNI one).
pub(super) const GFNI: Kernels = Kernels {
    backend: Backend::Avx512,
    gemm_acc,
    axpy_acc,
    reduce,
    mat_mul_batch: avx2::mmb_gfni,
    solve,
};

/// GFNI kernels and the VBMI `mat_mul_batch`.
pub(super) const GFNI_VBMI: Kernels = Kernels {
    gemm_acc: gemm_acc_vbmi,
    mat_mul_batch,
    ..GFNI
};

/// CPUs without GFNI: the AVX2 shuffle kernels.
pub(super) const SHUFFLE: Kernels = Kernels {
    backend: Backend::Avx512,
    ..avx2::SHUFFLE
};

pub(super) static KERNELS_GFNI: Kernels = GFNI;
pub(super) static KERNELS_GFNI_VBMI: Kernels = GFNI_VBMI;
pub(super) static KERNELS_SHUFFLE: Kernels = SHUFFLE;

fn vbmi_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx512vbmi")
    }
}

/// The variant [`super::kernels`] hands out (caller checked the AVX-512 backend).
pub(crate) fn best() -> &'static Kernels {
    match (avx2::gfni_detected(), vbmi_detected()) {
        (true, true) => &KERNELS_GFNI_VBMI,
        (true, false) => &KERNELS_GFNI,
        _ => &KERNELS_SHUFFLE,
    }
}

/// The runnable variants (caller checked the AVX-512 backend).
pub(crate) fn implementations(v: &mut Vec<&'static Kernels>) {
    v.push(&KERNELS_SHUFFLE);
    if avx2::gfni_detected() {
        v.push(&KERNELS_GFNI);
        if vbmi_detected() {
            v.push(&KERNELS_GFNI_VBMI);
        }
    }
}

pub(crate) fn name_of(k: &Kernels) -> Option<&'static str> {
    if core::ptr::eq(k, &KERNELS_SHUFFLE) {
        Some("shuffle")
    } else if core::ptr::eq(k, &KERNELS_GFNI) {
        Some("gfni")
    } else if core::ptr::eq(k, &KERNELS_GFNI_VBMI) {
        Some("gfni+vbmi")
    } else {
        None
    }
}

/// k-mask of the first `len` bytes (`len ≥ 64`: all).
#[inline(always)]
fn kmask(len: usize) -> __mmask64 {
    if len >= 64 {
        !0
    } else {
        (1u64 << len) - 1
    }
}

#[inline(always)]
unsafe fn reduce_v(v: __m512i) -> __m512i {
    unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(v, _mm512_set1_epi64(RED_AFFINE)) }
}

/// XOR of the 64 bytes of `v`.
#[inline(always)]
unsafe fn hxor512(v: __m512i) -> u8 {
    unsafe {
        hxor256(_mm256_xor_si256(
            _mm512_castsi512_si256(v),
            _mm512_extracti64x4_epi64::<1>(v),
        ))
    }
}

// ---------------------------------------------------------------------------------
// gemm_acc

#[allow(clippy::too_many_arguments)]
fn gemm_acc(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    b: &[u8],
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) {
    check_gemm(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n);
    // SAFETY: features detected before this table was handed out (module docs); the
    // slices cover every addressed element (checked above).
    unsafe { gemm_inner(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n) }
}

#[target_feature(enable = "avx512f,avx512bw,gfni")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_inner(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    b: &[u8],
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) {
    unsafe {
        if m == 0 || kk == 0 || n == 0 {
            return;
        }
        let (cp, ap, bp) = (c.as_mut_ptr(), a.as_ptr(), b.as_ptr());
        gemm_generic(cp, ldc, ap, a_rs, a_cs, bp, ldb, m, kk, n);
    }
}

/// The general product: column blocks of one, two or four zmm (64, 128, 256 columns)
/// chosen by the remaining width, so that each broadcast A element serves up to four
/// products; rows in register blocks.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_generic(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    a_cs: usize,
    bp: *const u8,
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) {
    unsafe {
        let mut j0 = 0;
        while j0 < n {
            let rem = n - j0;
            let (cj, bj) = (cp.add(j0), bp.add(j0));
            if rem > 128 {
                gemm_cols::<4, 4>(cj, ldc, ap, a_rs, a_cs, bj, ldb, m, kk, rem);
                j0 += 256;
            } else if rem > 64 {
                gemm_cols::<4, 2>(cj, ldc, ap, a_rs, a_cs, bj, ldb, m, kk, rem);
                j0 += 128;
            } else {
                gemm_cols::<8, 1>(cj, ldc, ap, a_rs, a_cs, bj, ldb, m, kk, rem);
                j0 += 64;
            }
        }
    }
}

/// All rows of one column block of `H` zmm (`rem` columns left from here): blocks of `R`
/// rows, then four, then single rows.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_cols<const R: usize, const H: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    a_cs: usize,
    bp: *const u8,
    ldb: usize,
    m: usize,
    kk: usize,
    rem: usize,
) {
    unsafe {
        let mut km = [0 as __mmask64; H];
        for (h, k) in km.iter_mut().enumerate() {
            *k = kmask(rem.saturating_sub(64 * h));
        }
        let mut i = 0;
        while i + R <= m {
            gemm_rows::<R, H>(cp, ldc, ap, a_rs, a_cs, bp, ldb, i, kk, &km);
            i += R;
        }
        if R > 4 && i + 4 <= m {
            gemm_rows::<4, H>(cp, ldc, ap, a_rs, a_cs, bp, ldb, i, kk, &km);
            i += 4;
        }
        while i < m {
            gemm_rows::<1, H>(cp, ldc, ap, a_rs, a_cs, bp, ldb, i, kk, &km);
            i += 1;
        }
    }
}

/// `R` rows of C from row `i0` × `H` zmm of columns (masks `km`), k innermost and two at
/// a time: the two products join the accumulator in one three-input XOR
/// (`vpternlogq 0x96`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_rows<const R: usize, const H: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    a_cs: usize,
    bp: *const u8,
    ldb: usize,
    i0: usize,
    kk: usize,
    km: &[__mmask64; H],
) {
    unsafe {
        let mut acc = [[_mm512_setzero_si512(); H]; R];
        let mut arow = [ap; R];
        for (r, p) in arow.iter_mut().enumerate() {
            *p = ap.add((i0 + r) * a_rs);
        }
        let mut k = 0;
        while k + 2 <= kk {
            let mut b0 = [_mm512_setzero_si512(); H];
            let mut b1 = [_mm512_setzero_si512(); H];
            for h in 0..H {
                b0[h] = _mm512_maskz_loadu_epi8(km[h], bp.add(k * ldb + 64 * h) as *const i8);
                b1[h] = _mm512_maskz_loadu_epi8(km[h], bp.add((k + 1) * ldb + 64 * h) as *const i8);
            }
            for r in 0..R {
                let s0 = _mm512_set1_epi8(*arow[r].add(k * a_cs) as i8);
                let s1 = _mm512_set1_epi8(*arow[r].add((k + 1) * a_cs) as i8);
                for h in 0..H {
                    acc[r][h] = _mm512_ternarylogic_epi64::<0x96>(
                        acc[r][h],
                        _mm512_gf2p8mul_epi8(b0[h], s0),
                        _mm512_gf2p8mul_epi8(b1[h], s1),
                    );
                }
            }
            k += 2;
        }
        if k < kk {
            let mut b0 = [_mm512_setzero_si512(); H];
            for h in 0..H {
                b0[h] = _mm512_maskz_loadu_epi8(km[h], bp.add(k * ldb + 64 * h) as *const i8);
            }
            for r in 0..R {
                let s0 = _mm512_set1_epi8(*arow[r].add(k * a_cs) as i8);
                for h in 0..H {
                    acc[r][h] = _mm512_xor_si512(acc[r][h], _mm512_gf2p8mul_epi8(b0[h], s0));
                }
            }
        }
        for (r, accr) in acc.iter().enumerate() {
            for h in 0..H {
                let p = cp.add((i0 + r) * ldc + 64 * h) as *mut i8;
                let cv = _mm512_maskz_loadu_epi8(km[h], p);
                _mm512_mask_storeu_epi8(p, km[h], _mm512_xor_si512(cv, accr[h]));
            }
        }
    }
}

// ----- narrow products (n ≤ 32) with VBMI: several rows or several k per register -----

#[allow(clippy::too_many_arguments)]
fn gemm_acc_vbmi(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    b: &[u8],
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) {
    check_gemm(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n);
    // SAFETY: features detected before this table was handed out (module docs); the
    // slices cover every addressed element (checked above).
    unsafe { gemm_vbmi_inner(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n) }
}

/// Narrow products (`n ≤ 32`, most of SNOVA's) waste most of a 64-lane register when a
/// register holds one row of C. Two layouts fill it, both fed by one broadcast of G
/// *adjacent* A elements (`vpbroadcastw/d/q` from memory; `vpbroadcastd/q` are plain
/// loads):
/// * A row-major (`a_cs = 1`): **k-interleaved**. Lane `t·G+u` multiplies
///   `A[i][k+u]` by `B[k+u][t]` (G rows of B interleaved by masked `vpermb`, once per
///   call); the G partial sums of C[i][t] are folded by shifts and narrowed
///   (`vpmovdb/qb`) at the end. G = 8 (n ≤ 8), else 4; for 16 < n ≤ 32 two registers
///   of 16 columns share each broadcast (`gemm_kint4h`).
/// * A column-major (`a_rs = 1`): **row-interleaved**. Lane `t·G+u` accumulates
///   `C[i+u][t]`, multiplying `A[i+u][k]` by `B[k][t]` (B's row repeated G times by
///   `vpermb`); the block is de-interleaved by one `vpermb` at the end. G = 8 (n ≤ 8),
///   4 (n ≤ 16), else 2.
///
/// Other shapes take the general path.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_vbmi_inner(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    b: &[u8],
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) {
    unsafe {
        if m == 0 || kk == 0 || n == 0 {
            return;
        }
        let (cp, ap, bp) = (c.as_mut_ptr(), a.as_ptr(), b.as_ptr());
        if n <= 32 && a_cs == 1 && kk >= 4 && m >= 4 {
            // Whole groups of k interleaved, the k tail by the general path.
            let done = if n <= 8 {
                gemm_kint::<8>(cp, ldc, ap, a_rs, bp, ldb, m, kk, n)
            } else if n <= 16 {
                gemm_kint::<4>(cp, ldc, ap, a_rs, bp, ldb, m, kk, n)
            } else {
                gemm_kint4h::<2>(cp, ldc, ap, a_rs, bp, ldb, m, kk, n)
            };
            if done < kk {
                gemm_generic(
                    cp,
                    ldc,
                    ap.add(done),
                    a_rs,
                    1,
                    bp.add(done * ldb),
                    ldb,
                    m,
                    kk - done,
                    n,
                );
            }
        } else if n <= 32 && a_rs == 1 && m >= 8 {
            // Whole groups of rows interleaved, the row tail by the general path.
            let done = if n <= 8 && m >= 16 {
                gemm_rint::<8>(cp, ldc, ap, a_cs, bp, ldb, m, kk, n)
            } else if n <= 16 {
                gemm_rint::<4>(cp, ldc, ap, a_cs, bp, ldb, m, kk, n)
            } else {
                gemm_rint::<2>(cp, ldc, ap, a_cs, bp, ldb, m, kk, n)
            };
            if done < m {
                gemm_generic(
                    cp.add(done * ldc),
                    ldc,
                    ap.add(done),
                    1,
                    a_cs,
                    bp,
                    ldb,
                    m - done,
                    kk,
                    n,
                );
            }
        } else {
            gemm_generic(cp, ldc, ap, a_rs, a_cs, bp, ldb, m, kk, n);
        }
    }
}

/// Broadcast of G adjacent bytes at `p` (G = 2, 4 or 8) to every G-byte group (from
/// memory: `vpbroadcastd/q` are plain loads).
#[inline(always)]
unsafe fn bcast_group<const G: usize>(p: *const u8) -> __m512i {
    unsafe {
        if G == 2 {
            _mm512_set1_epi16((p as *const i16).read_unaligned())
        } else if G == 4 {
            _mm512_set1_epi32((p as *const i32).read_unaligned())
        } else {
            _mm512_set1_epi64((p as *const i64).read_unaligned())
        }
    }
}

/// Groups of k interleaved per pass of the k-interleaved products: their B registers
/// live on the stack (64 × 64 B; 4 KB per 16-column block), and a longer k is done in
/// several passes, each accumulating into C. (A heap vector per call cost an aligned
/// `malloc`/`free` pair, measured at ~5% of an SNOVA_I_S signature.)
const KINT_GROUPS: usize = 64;

/// B's rows interleaved by groups of G: `out[g·step]` holds `B[gG+u][t]` in lane `tG+u`
/// for g < `groups` (`vpermb` of each row into its lanes under a lane mask; rows at or
/// past `kk` are zero).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn interleave_b<const G: usize>(
    bp: *const u8,
    ldb: usize,
    groups: usize,
    kk: usize,
    n: usize,
    out: &mut [__m512i],
    step: usize,
) {
    unsafe {
        let km = kmask(n);
        let mut ix = [0u8; 64];
        let mut lanes = [0u64; G];
        for (e, v) in ix.iter_mut().enumerate() {
            *v = (e / G) as u8;
            if e < G * n {
                lanes[e % G] |= 1u64 << e;
            }
        }
        let ix = _mm512_loadu_si512(ix.as_ptr() as *const _);
        for g in 0..groups {
            let mut v = _mm512_setzero_si512();
            for (u, &lm) in lanes.iter().enumerate() {
                let k = g * G + u;
                if k < kk {
                    let row = _mm512_maskz_loadu_epi8(km, bp.add(k * ldb) as *const i8);
                    v = _mm512_mask_permutexvar_epi8(v, lm, ix, row);
                }
            }
            out[g * step] = v;
        }
    }
}

/// k-interleaved product over the whole groups of G values of k; returns the k done.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_kint<const G: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    bp: *const u8,
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) -> usize {
    unsafe {
        let all = kk / G;
        let mut buf = [_mm512_setzero_si512(); KINT_GROUPS];
        let mut g0 = 0;
        while g0 < all {
            let groups = (all - g0).min(KINT_GROUPS);
            let (ap, bp) = (ap.add(g0 * G), bp.add(g0 * G * ldb));
            interleave_b::<G>(bp, ldb, groups, kk - g0 * G, n, &mut buf, 1);
            let bi = &buf[..groups];
            let mut i = 0;
            while i + 8 <= m {
                kint_rows::<G, 8>(cp, ldc, ap, a_rs, bi, i, n);
                i += 8;
            }
            if i + 4 <= m {
                kint_rows::<G, 4>(cp, ldc, ap, a_rs, bi, i, n);
                i += 4;
            }
            while i < m {
                kint_rows::<G, 1>(cp, ldc, ap, a_rs, bi, i, n);
                i += 1;
            }
            g0 += groups;
        }
        // B's rows (secret operands: T12, W_v, F21).
        crate::wipe::wipe_slice(&mut buf[..all.min(KINT_GROUPS)], _mm512_setzero_si512());
        all * G
    }
}

#[inline(always)]
unsafe fn kint_rows<const G: usize, const R: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    bi: &[__m512i],
    i0: usize,
    n: usize,
) {
    unsafe {
        let mut acc = [_mm512_setzero_si512(); R];
        let mut arow = [ap; R];
        for (r, p) in arow.iter_mut().enumerate() {
            *p = ap.add((i0 + r) * a_rs);
        }
        for (g, bv) in bi.iter().enumerate() {
            for r in 0..R {
                let s = bcast_group::<G>(arow[r].add(g * G));
                acc[r] = _mm512_xor_si512(acc[r], _mm512_gf2p8mul_epi8(*bv, s));
            }
        }
        for (r, &v) in acc.iter().enumerate() {
            let p = cp.add((i0 + r) * ldc) as *mut i8;
            if G == 2 {
                let f = _mm512_xor_si512(v, _mm512_srli_epi16::<8>(v));
                let nar = _mm512_cvtepi16_epi8(f);
                let k32 = kmask(n) as __mmask32;
                let cv = _mm256_maskz_loadu_epi8(k32, p);
                _mm256_mask_storeu_epi8(p, k32, _mm256_xor_si256(cv, nar));
            } else if G == 4 {
                let f = _mm512_xor_si512(v, _mm512_srli_epi32::<8>(v));
                let f = _mm512_xor_si512(f, _mm512_srli_epi32::<16>(f));
                let nar = _mm512_cvtepi32_epi8(f);
                let k16 = kmask(n) as __mmask16;
                let cv = _mm_maskz_loadu_epi8(k16, p);
                _mm_mask_storeu_epi8(p, k16, _mm_xor_si128(cv, nar));
            } else {
                let f = _mm512_xor_si512(v, _mm512_srli_epi64::<8>(v));
                let f = _mm512_xor_si512(f, _mm512_srli_epi64::<16>(f));
                let f = _mm512_xor_si512(f, _mm512_srli_epi64::<32>(f));
                let nar = _mm512_cvtepi64_epi8(f);
                let k16 = kmask(n) as __mmask16;
                let cv = _mm_maskz_loadu_epi8(k16, p);
                _mm_mask_storeu_epi8(p, k16, _mm_xor_si128(cv, nar));
            }
        }
    }
}

/// k-interleaved product with groups of four k over `H` blocks of 16 columns
/// (17 ≤ n ≤ 16·H): one broadcast of four A elements (`vpbroadcastd`, a plain load)
/// serves `H` registers, and two groups join the accumulators in one `vpternlogq`.
/// Returns the k done (whole groups of four).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_kint4h<const H: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    bp: *const u8,
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) -> usize {
    unsafe {
        let all = kk / 4;
        let mut buf = [[_mm512_setzero_si512(); H]; KINT_GROUPS];
        let mut g0 = 0;
        while g0 < all {
            let groups = (all - g0).min(KINT_GROUPS);
            let (ap, bp) = (ap.add(g0 * 4), bp.add(g0 * 4 * ldb));
            let flat = buf.as_flattened_mut();
            for h in 0..H {
                let nh = n.saturating_sub(16 * h).min(16);
                interleave_b::<4>(
                    bp.add(16 * h),
                    ldb,
                    groups,
                    kk - g0 * 4,
                    nh,
                    &mut flat[h..],
                    H,
                );
            }
            let bi = &buf[..groups];
            let mut i = 0;
            while i + 4 <= m {
                kint4h_rows::<H, 4>(cp, ldc, ap, a_rs, bi, i, n);
                i += 4;
            }
            while i < m {
                kint4h_rows::<H, 1>(cp, ldc, ap, a_rs, bi, i, n);
                i += 1;
            }
            g0 += groups;
        }
        crate::wipe::wipe_slice(
            &mut buf[..all.min(KINT_GROUPS)],
            [_mm512_setzero_si512(); H],
        );
        all * 4
    }
}

#[inline(always)]
unsafe fn kint4h_rows<const H: usize, const R: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    bi: &[[__m512i; H]],
    i0: usize,
    n: usize,
) {
    unsafe {
        let mut acc = [[_mm512_setzero_si512(); H]; R];
        let mut arow = [ap; R];
        for (r, p) in arow.iter_mut().enumerate() {
            *p = ap.add((i0 + r) * a_rs);
        }
        let mut g = 0;
        while g + 2 <= bi.len() {
            for r in 0..R {
                let s0 = bcast_group::<4>(arow[r].add(4 * g));
                let s1 = bcast_group::<4>(arow[r].add(4 * g + 4));
                for h in 0..H {
                    acc[r][h] = _mm512_ternarylogic_epi64::<0x96>(
                        acc[r][h],
                        _mm512_gf2p8mul_epi8(bi[g][h], s0),
                        _mm512_gf2p8mul_epi8(bi[g + 1][h], s1),
                    );
                }
            }
            g += 2;
        }
        if g < bi.len() {
            for r in 0..R {
                let s0 = bcast_group::<4>(arow[r].add(4 * g));
                for h in 0..H {
                    acc[r][h] = _mm512_xor_si512(acc[r][h], _mm512_gf2p8mul_epi8(bi[g][h], s0));
                }
            }
        }
        for (r, accr) in acc.iter().enumerate() {
            for (h, &v) in accr.iter().enumerate() {
                let nh = n.saturating_sub(16 * h).min(16);
                let p = cp.add((i0 + r) * ldc + 16 * h) as *mut i8;
                let f = _mm512_xor_si512(v, _mm512_srli_epi32::<8>(v));
                let f = _mm512_xor_si512(f, _mm512_srli_epi32::<16>(f));
                let nar = _mm512_cvtepi32_epi8(f);
                let k16 = kmask(nh) as __mmask16;
                let cv = _mm_maskz_loadu_epi8(k16, p);
                _mm_mask_storeu_epi8(p, k16, _mm_xor_si128(cv, nar));
            }
        }
    }
}

/// Row-interleaved product over the whole groups of 8·G (then G) rows; returns the
/// number of rows done.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_rint<const G: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_cs: usize,
    bp: *const u8,
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) -> usize {
    unsafe {
        let km = kmask(n);
        // Repeat index (lane tG+u ← t) and de-interleave index (lane u·n+t ← tG+u).
        let mut rep = [0u8; 64];
        let mut de = [0u8; 64];
        for e in 0..64 {
            rep[e] = (e / G) as u8;
        }
        for u in 0..G {
            for t in 0..n {
                de[u * n + t] = (t * G + u) as u8;
            }
        }
        let rep = _mm512_loadu_si512(rep.as_ptr() as *const _);
        let de = _mm512_loadu_si512(de.as_ptr() as *const _);
        let mut i = 0;
        while i + 8 * G <= m {
            rint_rows::<G, 8>(cp, ldc, ap, a_cs, bp, ldb, i, kk, n, km, rep, de);
            i += 8 * G;
        }
        while i + G <= m {
            rint_rows::<G, 1>(cp, ldc, ap, a_cs, bp, ldb, i, kk, n, km, rep, de);
            i += G;
        }
        i
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn rint_rows<const G: usize, const R: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_cs: usize,
    bp: *const u8,
    ldb: usize,
    i0: usize,
    kk: usize,
    n: usize,
    km: __mmask64,
    rep: __m512i,
    de: __m512i,
) {
    unsafe {
        let mut acc = [_mm512_setzero_si512(); R];
        for k in 0..kk {
            let bv = _mm512_maskz_loadu_epi8(km, bp.add(k * ldb) as *const i8);
            let bd = _mm512_permutexvar_epi8(rep, bv);
            let ak = ap.add(i0 + k * a_cs);
            for r in 0..R {
                let s = bcast_group::<G>(ak.add(r * G));
                acc[r] = _mm512_xor_si512(acc[r], _mm512_gf2p8mul_epi8(bd, s));
            }
        }
        let mut buf = [0u8; 64];
        for (r, &v) in acc.iter().enumerate() {
            _mm512_storeu_si512(buf.as_mut_ptr() as *mut _, _mm512_permutexvar_epi8(de, v));
            for u in 0..G {
                let p = cp.add((i0 + r * G + u) * ldc) as *mut i8;
                let x = _mm512_maskz_loadu_epi8(km, buf.as_ptr().add(u * n) as *const i8);
                let cv = _mm512_maskz_loadu_epi8(km, p);
                _mm512_mask_storeu_epi8(p, km, _mm512_xor_si512(cv, x));
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// axpy_acc, reduce

fn axpy_acc(acc: &mut [u8], s: u8, x: &[u8]) {
    // SAFETY: features detected (module docs); both pointers cover `len` bytes.
    unsafe { axpy_inner(acc, s, x) }
}

#[target_feature(enable = "avx512f,avx512bw,gfni")]
unsafe fn axpy_inner(acc: &mut [u8], s: u8, x: &[u8]) {
    unsafe {
        let len = acc.len().min(x.len());
        let sv = _mm512_set1_epi8(s as i8);
        let (ap, xp) = (acc.as_mut_ptr() as *mut i8, x.as_ptr() as *const i8);
        let mut j = 0;
        while j < len {
            let km = kmask(len - j);
            let xv = _mm512_maskz_loadu_epi8(km, xp.add(j));
            let av = _mm512_maskz_loadu_epi8(km, ap.add(j));
            _mm512_mask_storeu_epi8(
                ap.add(j),
                km,
                _mm512_xor_si512(av, _mm512_gf2p8mul_epi8(xv, sv)),
            );
            j += 64;
        }
    }
}

fn reduce(v: &mut [u8]) {
    // SAFETY: features detected (module docs); the pointer covers `len` bytes.
    unsafe { reduce_inner(v) }
}

#[target_feature(enable = "avx512f,avx512bw,gfni")]
unsafe fn reduce_inner(v: &mut [u8]) {
    unsafe {
        let len = v.len();
        let p = v.as_mut_ptr() as *mut i8;
        let mut j = 0;
        while j < len {
            let km = kmask(len - j);
            let x = _mm512_maskz_loadu_epi8(km, p.add(j));
            _mm512_mask_storeu_epi8(p.add(j), km, reduce_v(x));
            j += 64;
        }
    }
}

// ---------------------------------------------------------------------------------
// mat_mul_batch (VBMI)

/// Most inner dimension handled by the register kernel.
const MMB_MAX_K: usize = 16;

fn mat_mul_batch(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    if p == 0 || q == 0 {
        return;
    }
    let (sa, sb, so) = (p * k, k * q, p * q);
    if k == 0 || k > MMB_MAX_K || q > 64 || sb > 128 {
        return avx2::mmb_gfni(out, a, b, p, k, q);
    }
    // Matrices per register: the outputs fit 64 lanes, the operands two registers each.
    let mut t = 64 / so;
    while t > 0 && (t * sa > 128 || t * sb > 128) {
        t -= 1;
    }
    let count = out.len() / so;
    assert!(
        a.len() >= count * sa && b.len() >= count * sb,
        "mat_mul_batch: input too short"
    );
    if t > 0 {
        // SAFETY: features detected (module docs); lengths checked above.
        unsafe { mmb_inner(out, a, b, p, k, q, t, count) }
    } else {
        // Larger outputs: blocks of `pr` rows of one matrix per register.
        let pr = p.min(64 / q).min(128 / k);
        // SAFETY: as above.
        unsafe { mmb_rows_inner(out, a, b, p, k, q, pr, count) }
    }
}

/// One matrix at a time, `pr` output rows per register: lane (i', j) gathers
/// `A[i0+i'][l]` from the window of A's rows `i0..` and `B[l][j]` from the whole of B.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[allow(clippy::too_many_arguments)]
unsafe fn mmb_rows_inner(
    out: &mut [u8],
    a: &[u8],
    b: &[u8],
    p: usize,
    k: usize,
    q: usize,
    pr: usize,
    count: usize,
) {
    unsafe {
        let (sa, sb, so) = (p * k, k * q, p * q);
        let mut ia = [[0u8; 64]; MMB_MAX_K];
        let mut ib = [[0u8; 64]; MMB_MAX_K];
        for e in 0..pr * q {
            let (i, j) = (e / q, e % q);
            for l in 0..k {
                ia[l][e] = (i * k + l) as u8;
                ib[l][e] = (l * q + j) as u8;
            }
        }
        let mut iav = [_mm512_setzero_si512(); MMB_MAX_K];
        let mut ibv = [_mm512_setzero_si512(); MMB_MAX_K];
        for l in 0..k {
            iav[l] = _mm512_loadu_si512(ia[l].as_ptr() as *const _);
            ibv[l] = _mm512_loadu_si512(ib[l].as_ptr() as *const _);
        }
        let (ap, bp, op) = (
            a.as_ptr() as *const i8,
            b.as_ptr() as *const i8,
            out.as_mut_ptr() as *mut i8,
        );
        for u in 0..count {
            let pb = bp.add(u * sb);
            let b0 = _mm512_maskz_loadu_epi8(kmask(sb), pb);
            let b1 = _mm512_maskz_loadu_epi8(kmask(sb.saturating_sub(64)), pb.wrapping_add(64));
            let mut i0 = 0;
            while i0 < p {
                let rows = (p - i0).min(pr);
                let la = rows * k;
                let pa = ap.add(u * sa + i0 * k);
                let a0 = _mm512_maskz_loadu_epi8(kmask(la), pa);
                let a1 = _mm512_maskz_loadu_epi8(kmask(la.saturating_sub(64)), pa.wrapping_add(64));
                let mut acc = _mm512_setzero_si512();
                for l in 0..k {
                    let x = _mm512_permutex2var_epi8(a0, iav[l], a1);
                    let y = _mm512_permutex2var_epi8(b0, ibv[l], b1);
                    acc = _mm512_xor_si512(acc, _mm512_gf2p8mul_epi8(x, y));
                }
                _mm512_mask_storeu_epi8(op.add(u * so + i0 * q), kmask(rows * q), reduce_v(acc));
                i0 += pr;
            }
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
#[allow(clippy::too_many_arguments)]
unsafe fn mmb_inner(
    out: &mut [u8],
    a: &[u8],
    b: &[u8],
    p: usize,
    k: usize,
    q: usize,
    t: usize,
    count: usize,
) {
    unsafe {
        let (sa, sb, so) = (p * k, k * q, p * q);
        // Lane e = (matrix u, row i, column j) gathers A[u][i][l] and B[u][l][j].
        let mut ia = [[0u8; 64]; MMB_MAX_K];
        let mut ib = [[0u8; 64]; MMB_MAX_K];
        for e in 0..t * so {
            let (u, i, j) = (e / so, (e % so) / q, e % q);
            for l in 0..k {
                ia[l][e] = (u * sa + i * k + l) as u8;
                ib[l][e] = (u * sb + l * q + j) as u8;
            }
        }
        let mut iav = [_mm512_setzero_si512(); MMB_MAX_K];
        let mut ibv = [_mm512_setzero_si512(); MMB_MAX_K];
        for l in 0..k {
            iav[l] = _mm512_loadu_si512(ia[l].as_ptr() as *const _);
            ibv[l] = _mm512_loadu_si512(ib[l].as_ptr() as *const _);
        }
        let (ap, bp, op) = (
            a.as_ptr() as *const i8,
            b.as_ptr() as *const i8,
            out.as_mut_ptr() as *mut i8,
        );
        let mut g = 0;
        while g < count {
            let cnt = (count - g).min(t);
            let (la, lb) = (cnt * sa, cnt * sb);
            let pa = ap.wrapping_add(g * sa);
            let pb = bp.wrapping_add(g * sb);
            let a0 = _mm512_maskz_loadu_epi8(kmask(la), pa);
            let a1 = _mm512_maskz_loadu_epi8(kmask(la.saturating_sub(64)), pa.wrapping_add(64));
            let b0 = _mm512_maskz_loadu_epi8(kmask(lb), pb);
            let b1 = _mm512_maskz_loadu_epi8(kmask(lb.saturating_sub(64)), pb.wrapping_add(64));
            let mut acc = _mm512_setzero_si512();
            for l in 0..k {
                let x = _mm512_permutex2var_epi8(a0, iav[l], a1);
                let y = _mm512_permutex2var_epi8(b0, ibv[l], b1);
                acc = _mm512_xor_si512(acc, _mm512_gf2p8mul_epi8(x, y));
            }
            _mm512_mask_storeu_epi8(op.add(g * so), kmask(cnt * so), reduce_v(acc));
            g += t;
        }
    }
}

// ---------------------------------------------------------------------------------
// solve

#[inline(always)]
fn is_zero_mask(v: u8) -> u8 {
    (((v as u16).wrapping_sub(1)) >> 8) as u8
}

fn solve(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    if n == 0 {
        return true;
    }
    check_solve(aug, n, stride, x);
    // SAFETY: features detected (module docs); `aug` covers rows 0..n of n+1 bytes at
    // `stride` and `x` n bytes (checked above).
    unsafe {
        match (n + 1).div_ceil(64) {
            1 => solve_nc::<1>(aug, n, stride, x),
            2 => solve_nc::<2>(aug, n, stride, x),
            3 => solve_nc::<3>(aug, n, stride, x),
            4 => solve_nc::<4>(aug, n, stride, x),
            _ => portable::solve(aug, n, stride, x),
        }
    }
}

/// Rows of `NC` zmm chunks (`64·(NC−1) < n+1 ≤ 64·NC`). Chunks wholly left of the
/// pivot column are skipped (their bytes are zero in every row involved).
#[target_feature(enable = "avx512f,avx512bw,gfni")]
unsafe fn solve_nc<const NC: usize>(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    unsafe {
        let w = n + 1;
        let mut km = [0 as __mmask64; NC];
        for (c, k) in km.iter_mut().enumerate() {
            *k = kmask(w.saturating_sub(64 * c));
        }
        // Zero-padded working copy with whole-register rows: unmasked stores, so that
        // the scalar reads of column entries right after a row update are forwarded
        // from the store buffer (masked stores are not forwarded).
        let rs = 64 * NC;
        let mut buf = alloc::vec![0u8; n * rs];
        for i in 0..n {
            for c in 0..NC {
                let v = _mm512_maskz_loadu_epi8(
                    km[c],
                    aug.as_ptr().add(i * stride + 64 * c) as *const i8,
                );
                _mm512_storeu_si512(buf.as_mut_ptr().add(i * rs + 64 * c) as *mut _, v);
            }
        }
        let km = [!0 as __mmask64; NC];
        let stride = rs;
        let base = buf.as_mut_ptr();
        let zero = _mm512_setzero_si512();
        let mut ok = 0xFFu8;
        for i in 0..n {
            let c0 = i / 64;
            let ri = base.add(i * stride);
            let mut r = [zero; NC];
            for c in 0..NC {
                if c >= c0 {
                    r[c] = _mm512_maskz_loadu_epi8(km[c], ri.add(64 * c) as *const i8);
                }
            }
            // Pivot search: add the first later row whose column-i entry is non-zero, when
            // row i's is zero (every row visited, selection by mask).
            let vi = *ri.add(i);
            let pz = is_zero_mask(vi);
            let mut found = 0u8;
            let mut p = vi;
            for j in i + 1..n {
                let rj = base.add(j * stride);
                let vj = *rj.add(i);
                let nz = !is_zero_mask(vj);
                let s = pz & nz & !found;
                found |= nz;
                p ^= vj & s;
                let sv = _mm512_set1_epi8(s as i8);
                for c in 0..NC {
                    if c >= c0 {
                        let v = _mm512_maskz_loadu_epi8(km[c], rj.add(64 * c) as *const i8);
                        r[c] = _mm512_xor_si512(r[c], _mm512_and_si512(sv, v));
                    }
                }
            }
            ok &= !is_zero_mask(p);
            // Normalise row i and store it.
            let pinv = _mm512_set1_epi8(inv(p) as i8);
            for c in 0..NC {
                if c >= c0 {
                    r[c] = reduce_v(_mm512_gf2p8mul_epi8(r[c], pinv));
                    _mm512_mask_storeu_epi8(ri.add(64 * c) as *mut i8, km[c], r[c]);
                }
            }
            // Eliminate column i below.
            for j in i + 1..n {
                let rj = base.add(j * stride);
                let f = _mm512_set1_epi8(*rj.add(i) as i8);
                for c in 0..NC {
                    if c >= c0 {
                        let pj = rj.add(64 * c) as *mut i8;
                        let v = _mm512_maskz_loadu_epi8(km[c], pj);
                        let d = reduce_v(_mm512_gf2p8mul_epi8(r[c], f));
                        _mm512_mask_storeu_epi8(pj, km[c], _mm512_xor_si512(v, d));
                    }
                }
            }
        }
        // Back substitution: x_i = b_i ⊕ Σ_{k>i} U[i][k]·x_k, a lane-wise dot product with the
        // solution so far (zero at positions ≤ i and at the right-hand side column).
        let mut xv = [zero; NC];
        for i in (0..n).rev() {
            let ri = base.add(i * stride);
            let mut acc = zero;
            for c in 0..NC {
                if c >= i / 64 {
                    let v = _mm512_maskz_loadu_epi8(km[c], ri.add(64 * c) as *const i8);
                    acc = _mm512_xor_si512(acc, _mm512_gf2p8mul_epi8(v, xv[c]));
                }
            }
            let xi = reduce1(hxor512(acc) ^ *ri.add(n));
            x[i] = xi;
            for (c, xc) in xv.iter_mut().enumerate() {
                if c == i / 64 {
                    *xc = _mm512_mask_set1_epi8(*xc, 1u64 << (i % 64), xi as i8);
                }
            }
        }
        // The copy held the (secret) system.
        crate::wipe::wipe_slice(&mut buf, 0);
        ok == 0xFF
    }
}
