//! AVX2 GF(16) kernels, 32 elements per ymm register, in two variants sharing one code
//! body (generic over [`Mul`], the way a broadcast scalar multiplies a vector):
//!
//! * **`gfni`** (CPUs with GFNI; VEX-encoded `vgf2p8mulb ymm`): the GF(2⁸) product of
//!   two nibbles has degree ≤ 6 < 8, so `vgf2p8mulb` never reduces and returns exactly the
//!   carry-less product the unreduced accumulators hold. Reduction modulo t⁴+t+1 is a
//!   GF(2)-linear map on bytes: one `vgf2p8affineqb` with the constant bit matrix
//!   [`RED_AFFINE`].
//! * **`shuffle`** (any AVX2 CPU): for a scalar `s` the 16-entry table `x ↦ s ⊗ x` is
//!   built in a register, `table(s) = ⊕ⱼ Cⱼ & (s ≪ j)` with constant lane masks
//!   `Cⱼ[x] = 0 − xⱼ` (so no memory is indexed by `s`), and `vpshufb` looks all 32 lanes
//!   up at once. The reduced table for `solve` is that table reduced in the register.
//!   Reduction of a vector is `(v & 15) ⊕ vpshufb(R, v ≫ 4)` with `R[h] = (h·t⁴ mod
//!   t⁴+t+1)`, again a register table indexed by lanes.
//!
//! `gemm_acc` keeps a 4-row × 64-column block of C in eight registers and runs k inside
//! (B's column block is first packed into zero-padded 64-byte rows, so tails need no
//! special loads). `solve` works on a zero-padded copy of the system (rows of 32-byte
//! multiples) and follows the portable algorithm (mask-selected pivot row, pivot inverse
//! by exponentiation, elimination below, back substitution with lane-wise dot products).
//! `mat_mul_batch` multiplies one small matrix at a time, an output row per register
//! (A's elements broadcast against B's rows).
//!
//! # Bounds and constant time
//! As in [`super`]: reduced inputs, unreduced accumulators `< 0x80`. Shapes, strides and
//! loop bounds are public; scalars only become register tables, masks and multiplier
//! operands. Out-of-range shapes panic in the up-front length checks, before any
//! pointer arithmetic.
//!
//! Each table entry is a safe wrapper around a whole `#[target_feature]` function; the
//! tables are only handed out by [`super::kernels`] / [`implementations`] after AVX2 (and
//! GFNI for the `gfni` table) was detected, which is what makes the wrappers sound.

#![allow(unused_unsafe)]

use super::{inv, reduce1, Kernels};
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// `vgf2p8affineqb` matrix of the reduction modulo t⁴+t+1 of a byte `< 0x80`
/// (t⁴ = t+1, t⁵ = t²+t, t⁶ = t³+t²): byte `7−i` of the qword selects the input bits
/// whose parity is output bit `i`: bit0 = x0⊕x4, bit1 = x1⊕x4⊕x5, bit2 = x2⊕x5⊕x6,
/// bit3 = x3⊕x6, bits 4..7 = 0.
pub(crate) const RED_AFFINE: i64 = 0x1132_6448_0000_0000u64 as i64;

/// Whether the CPU has GFNI (the `gfni` variants need it on top of AVX2/AVX-512).
pub(crate) fn gfni_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("gfni")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "gfni")
    }
}

/// The shuffle-table variant (any AVX2 CPU).
pub(super) const SHUFFLE: Kernels = Kernels {
    backend: Backend::Avx2,
    gemm_acc: gemm_expand,
    axpy_acc: axpy_shuffle,
    reduce: reduce_shuffle,
    mat_mul_batch: mmb_shuffle_or_swar,
    solve: solve_shuffle,
};

/// The GFNI variant (AVX2 + GFNI).
pub(super) const GFNI: Kernels = Kernels {
    backend: Backend::Avx2,
    gemm_acc: gemm_gfni,
    axpy_acc: axpy_gfni,
    reduce: reduce_gfni,
    mat_mul_batch: mmb_gfni,
    solve: solve_gfni,
};

pub(super) static KERNELS_SHUFFLE: Kernels = SHUFFLE;
pub(super) static KERNELS_GFNI: Kernels = GFNI;

/// The variant [`super::kernels`] hands out (caller checked AVX2).
pub(crate) fn best() -> &'static Kernels {
    if gfni_detected() {
        &KERNELS_GFNI
    } else {
        &KERNELS_SHUFFLE
    }
}

/// The runnable variants (caller checked AVX2).
pub(crate) fn implementations(v: &mut Vec<&'static Kernels>) {
    v.push(&KERNELS_SHUFFLE);
    if gfni_detected() {
        v.push(&KERNELS_GFNI);
    }
}

pub(crate) fn name_of(k: &Kernels) -> Option<&'static str> {
    if core::ptr::eq(k, &KERNELS_SHUFFLE) {
        Some("shuffle")
    } else if core::ptr::eq(k, &KERNELS_GFNI) {
        Some("gfni")
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------
// Length checks shared with the AVX-512 kernels (public shapes; panics like slicing).

/// Panics unless the slices cover every element `gemm_acc` addresses.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_gemm(
    c: &[u8],
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
    if m == 0 || kk == 0 || n == 0 {
        return;
    }
    let a_last = (m - 1)
        .checked_mul(a_rs)
        .and_then(|x| (kk - 1).checked_mul(a_cs).and_then(|y| x.checked_add(y)));
    assert!(
        matches!(a_last, Some(v) if v < a.len()),
        "gemm_acc: A too short"
    );
    let b_need = (kk - 1).checked_mul(ldb).and_then(|x| x.checked_add(n));
    assert!(
        matches!(b_need, Some(v) if v <= b.len()),
        "gemm_acc: B too short"
    );
    let c_need = (m - 1).checked_mul(ldc).and_then(|x| x.checked_add(n));
    assert!(
        matches!(c_need, Some(v) if v <= c.len()),
        "gemm_acc: C too short"
    );
}

/// Panics unless `aug`/`x` cover an `n × (n+1)` system with row stride `stride`.
pub(crate) fn check_solve(aug: &[u8], n: usize, stride: usize, x: &[u8]) {
    assert!(stride > n, "solve: stride too small");
    let need = (n - 1)
        .checked_mul(stride)
        .and_then(|v| v.checked_add(n + 1));
    assert!(
        matches!(need, Some(v) if v <= aug.len()),
        "solve: aug too short"
    );
    assert!(x.len() >= n, "solve: x too short");
}

// ---------------------------------------------------------------------------------
// The two ways of multiplying.

/// How a broadcast scalar multiplies 32 lanes. All functions must be called from a
/// function with AVX2 enabled (and GFNI for [`Gfni`]); they are `inline(always)` so that
/// they take the caller's features.
pub(crate) trait Mul {
    /// The scalar prepared for unreduced products.
    type S: Copy;
    unsafe fn prep(s: u8) -> Self::S;
    /// `s ⊗ x`, carry-less, unreduced.
    unsafe fn mul(s: Self::S, x: __m256i) -> __m256i;
    /// The scalar prepared for reduced products.
    unsafe fn prep_red(s: u8) -> Self::S;
    /// `s · x` reduced.
    unsafe fn mul_red(s: Self::S, x: __m256i) -> __m256i;
    /// Lane-wise `a ⊗ b`, unreduced.
    unsafe fn mul_lanes(a: __m256i, b: __m256i) -> __m256i;
    /// Lane-wise reduction of unreduced bytes.
    unsafe fn reduce(v: __m256i) -> __m256i;
}

pub(crate) struct Gfni;
pub(crate) struct Shuffle;

impl Mul for Gfni {
    type S = __m256i;
    #[inline(always)]
    unsafe fn prep(s: u8) -> __m256i {
        unsafe { _mm256_set1_epi8(s as i8) }
    }
    #[inline(always)]
    unsafe fn mul(s: __m256i, x: __m256i) -> __m256i {
        unsafe { _mm256_gf2p8mul_epi8(x, s) }
    }
    #[inline(always)]
    unsafe fn prep_red(s: u8) -> __m256i {
        unsafe { _mm256_set1_epi8(s as i8) }
    }
    #[inline(always)]
    unsafe fn mul_red(s: __m256i, x: __m256i) -> __m256i {
        unsafe { Self::reduce(_mm256_gf2p8mul_epi8(x, s)) }
    }
    #[inline(always)]
    unsafe fn mul_lanes(a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_gf2p8mul_epi8(a, b) }
    }
    #[inline(always)]
    unsafe fn reduce(v: __m256i) -> __m256i {
        unsafe { _mm256_gf2p8affine_epi64_epi8::<0>(v, _mm256_set1_epi64x(RED_AFFINE)) }
    }
}

/// `Cⱼ[x] = 0xFF if bit j of x (x = lane index mod 16) else 0`, both 128-bit halves.
#[inline(always)]
unsafe fn lane_bit_mask(j: u32) -> __m256i {
    unsafe {
        let idx = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
            11, 12, 13, 14, 15,
        );
        let bit = _mm256_set1_epi8(1 << j);
        _mm256_cmpeq_epi8(_mm256_and_si256(idx, bit), bit)
    }
}

/// `R[h] = (h·t⁴) mod (t⁴+t+1)` for h < 8, in both halves.
#[inline(always)]
unsafe fn red_table() -> __m256i {
    unsafe {
        let t: [i8; 16] = {
            let mut t = [0i8; 16];
            let mut h = 0;
            while h < 16 {
                t[h] = reduce1(((h & 7) << 4) as u8) as i8;
                h += 1;
            }
            t
        };
        _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr() as *const __m128i))
    }
}

impl Mul for Shuffle {
    type S = __m256i;
    #[inline(always)]
    unsafe fn prep(s: u8) -> __m256i {
        unsafe {
            // table(s)[x] = ⊕ⱼ xⱼ·(s ≪ j); s < 16 so the 16-bit shifts stay in the byte.
            let sb = _mm256_set1_epi8(s as i8);
            let t0 = _mm256_and_si256(lane_bit_mask(0), sb);
            let t1 = _mm256_and_si256(lane_bit_mask(1), _mm256_slli_epi16::<1>(sb));
            let t2 = _mm256_and_si256(lane_bit_mask(2), _mm256_slli_epi16::<2>(sb));
            let t3 = _mm256_and_si256(lane_bit_mask(3), _mm256_slli_epi16::<3>(sb));
            _mm256_xor_si256(_mm256_xor_si256(t0, t1), _mm256_xor_si256(t2, t3))
        }
    }
    #[inline(always)]
    unsafe fn mul(s: __m256i, x: __m256i) -> __m256i {
        unsafe { _mm256_shuffle_epi8(s, x) }
    }
    #[inline(always)]
    unsafe fn prep_red(s: u8) -> __m256i {
        unsafe { Self::reduce(Self::prep(s)) }
    }
    #[inline(always)]
    unsafe fn mul_red(s: __m256i, x: __m256i) -> __m256i {
        unsafe { _mm256_shuffle_epi8(s, x) }
    }
    #[inline(always)]
    unsafe fn mul_lanes(a: __m256i, b: __m256i) -> __m256i {
        unsafe {
            let mut r = _mm256_setzero_si256();
            let mut sh = a;
            for j in 0..4 {
                let bit = _mm256_set1_epi8(1 << j);
                let m = _mm256_cmpeq_epi8(_mm256_and_si256(b, bit), bit);
                r = _mm256_xor_si256(r, _mm256_and_si256(m, sh));
                sh = _mm256_add_epi8(sh, sh);
            }
            r
        }
    }
    #[inline(always)]
    unsafe fn reduce(v: __m256i) -> __m256i {
        unsafe {
            let lo = _mm256_and_si256(v, _mm256_set1_epi8(15));
            let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), _mm256_set1_epi8(15));
            _mm256_xor_si256(lo, _mm256_shuffle_epi8(red_table(), hi))
        }
    }
}

// ---------------------------------------------------------------------------------
// gemm_acc

#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_impl<M: Mul>(
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
        check_gemm(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n);
        if m == 0 || kk == 0 || n == 0 {
            return;
        }
        let mut bp: Vec<[u8; 64]> = vec![[0u8; 64]; kk];
        let mut j0 = 0;
        while j0 < n {
            let w = (n - j0).min(64);
            for (k, row) in bp.iter_mut().enumerate() {
                row[..w].copy_from_slice(&b[k * ldb + j0..k * ldb + j0 + w]);
                row[w..].fill(0);
            }
            if w <= 32 {
                gemm_block::<M, 1>(c, ldc, a, a_rs, a_cs, &bp, m, kk, j0, w);
            } else {
                gemm_block::<M, 2>(c, ldc, a, a_rs, a_cs, &bp, m, kk, j0, w);
            }
            j0 += w;
        }
        // B's rows (secret operands: T12, W_v, F21).
        crate::wipe::wipe_slice(&mut bp, [0u8; 64]);
    }
}

/// Rows of C four at a time (the last block repeats its last row; only real rows are
/// stored), `H` ymm per row, k innermost.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_block<M: Mul, const H: usize>(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    bp: &[[u8; 64]],
    m: usize,
    kk: usize,
    j0: usize,
    w: usize,
) {
    unsafe {
        const R: usize = 4;
        let ap = a.as_ptr();
        let mut i = 0;
        while i < m {
            let rows = (m - i).min(R);
            let mut acc = [[_mm256_setzero_si256(); H]; R];
            let mut arow = [ap; R];
            for (r, p) in arow.iter_mut().enumerate() {
                *p = ap.add((i + r.min(rows - 1)) * a_rs);
            }
            for (k, brow) in bp.iter().enumerate().take(kk) {
                let mut bv = [_mm256_setzero_si256(); H];
                for (h, v) in bv.iter_mut().enumerate() {
                    *v = _mm256_loadu_si256(brow.as_ptr().add(32 * h) as *const __m256i);
                }
                for r in 0..R {
                    let s = M::prep(*arow[r].add(k * a_cs));
                    for h in 0..H {
                        acc[r][h] = _mm256_xor_si256(acc[r][h], M::mul(s, bv[h]));
                    }
                }
            }
            for (r, accr) in acc.iter().enumerate().take(rows) {
                let dst = &mut c[(i + r) * ldc + j0..(i + r) * ldc + j0 + w];
                xor_into(dst, accr);
            }
            i += R;
        }
    }
}

/// `dst ^= lanes of v` for `dst.len() ≤ 32·H`.
#[inline(always)]
unsafe fn xor_into<const H: usize>(dst: &mut [u8], v: &[__m256i; H]) {
    unsafe {
        let w = dst.len();
        for (h, vh) in v.iter().enumerate() {
            let lo = 32 * h;
            if lo >= w {
                break;
            }
            if lo + 32 <= w {
                let p = dst.as_mut_ptr().add(lo) as *mut __m256i;
                _mm256_storeu_si256(p, _mm256_xor_si256(_mm256_loadu_si256(p), *vh));
            } else {
                let mut buf = [0u8; 32];
                _mm256_storeu_si256(buf.as_mut_ptr() as *mut __m256i, *vh);
                for (d, s) in dst[lo..].iter_mut().zip(buf.iter()) {
                    *d ^= s;
                }
            }
        }
    }
}

/// The shuffle variant's `gemm_acc`: the "expanded element" product instead of tables.
/// B's elements are spread to bits 0, 4, 8, 12 of a `u16` (`expand`); for a scalar
/// `s < 16` the lane product `s · expand(x)` (`vpmullw`) holds `s·xⱼ` in nibble j with
/// no carries, so products XOR-accumulate nibble-wise and one `compress` per output
/// (`⊕ⱼ nibbleⱼ ≪ j`) gives the carry-less sum. One multiplication per sixteen products,
/// and the scalar needs only a broadcast (a table would cost a dozen instructions per
/// scalar). Rows of C four at a time, 32 columns (two ymm of u16 lanes) per block.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_expand_impl(
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
        check_gemm(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n);
        if m == 0 || kk == 0 || n == 0 {
            return;
        }
        let mut bx: Vec<[u16; 32]> = vec![[0u16; 32]; kk];
        let mut j0 = 0;
        while j0 < n {
            let w = (n - j0).min(32);
            for (k, row) in bx.iter_mut().enumerate() {
                row.fill(0);
                for (d, &x) in row.iter_mut().zip(&b[k * ldb + j0..k * ldb + j0 + w]) {
                    let x = (x & 15) as u16;
                    *d = (x | (x << 3) | (x << 6) | (x << 9)) & 0x1111;
                }
            }
            if w <= 16 {
                gemm_expand_block::<1>(c, ldc, a, a_rs, a_cs, &bx, m, j0, w);
            } else {
                gemm_expand_block::<2>(c, ldc, a, a_rs, a_cs, &bx, m, j0, w);
            }
            j0 += w;
        }
        crate::wipe::wipe_slice(&mut bx, [0u16; 32]);
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_expand_block<const H: usize>(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    bx: &[[u16; 32]],
    m: usize,
    j0: usize,
    w: usize,
) {
    unsafe {
        const R: usize = 4;
        let ap = a.as_ptr();
        let mut i = 0;
        while i < m {
            let rows = (m - i).min(R);
            let mut acc = [[_mm256_setzero_si256(); H]; R];
            let mut arow = [ap; R];
            for (r, p) in arow.iter_mut().enumerate() {
                *p = ap.add((i + r.min(rows - 1)) * a_rs);
            }
            for (k, brow) in bx.iter().enumerate() {
                let mut bv = [_mm256_setzero_si256(); H];
                for (h, v) in bv.iter_mut().enumerate() {
                    *v = _mm256_loadu_si256(brow.as_ptr().add(16 * h) as *const __m256i);
                }
                for r in 0..R {
                    let s = _mm256_set1_epi16((*arow[r].add(k * a_cs) & 15) as i16);
                    for h in 0..H {
                        acc[r][h] = _mm256_xor_si256(acc[r][h], _mm256_mullo_epi16(bv[h], s));
                    }
                }
            }
            for (r, accr) in acc.iter().enumerate().take(rows) {
                let mut cv = [_mm256_setzero_si256(); H];
                for h in 0..H {
                    cv[h] = compress16(accr[h]);
                }
                // u16 lanes → bytes: packus works per 128-bit half, the qword permute
                // restores the order.
                let hi = if H == 2 {
                    cv[1]
                } else {
                    _mm256_setzero_si256()
                };
                let packed = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi16(cv[0], hi));
                let dst = &mut c[(i + r) * ldc + j0..(i + r) * ldc + j0 + w];
                xor_into(dst, &[packed]);
            }
            i += R;
        }
    }
}

/// `⊕ⱼ nibbleⱼ(v) ≪ j` on u16 lanes (the unreduced product byte, in the low byte).
#[inline(always)]
unsafe fn compress16(v: __m256i) -> __m256i {
    unsafe {
        let t0 = _mm256_and_si256(v, _mm256_set1_epi16(0xF));
        let t1 = _mm256_and_si256(_mm256_srli_epi16::<3>(v), _mm256_set1_epi16(0x1E));
        let t2 = _mm256_and_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0x3C));
        let t3 = _mm256_and_si256(_mm256_srli_epi16::<9>(v), _mm256_set1_epi16(0x78));
        _mm256_xor_si256(_mm256_xor_si256(t0, t1), _mm256_xor_si256(t2, t3))
    }
}

// ---------------------------------------------------------------------------------
// axpy_acc, reduce

#[inline(always)]
unsafe fn axpy_impl<M: Mul>(acc: &mut [u8], s: u8, x: &[u8]) {
    unsafe {
        let len = acc.len().min(x.len());
        let sv = M::prep(s);
        let mut j = 0;
        while j + 32 <= len {
            let p = acc.as_mut_ptr().add(j) as *mut __m256i;
            let xv = _mm256_loadu_si256(x.as_ptr().add(j) as *const __m256i);
            _mm256_storeu_si256(p, _mm256_xor_si256(_mm256_loadu_si256(p), M::mul(sv, xv)));
            j += 32;
        }
        if j < len {
            let mut xb = [0u8; 32];
            xb[..len - j].copy_from_slice(&x[j..len]);
            let xv = _mm256_loadu_si256(xb.as_ptr() as *const __m256i);
            xor_into(&mut acc[j..len], &[M::mul(sv, xv)]);
        }
    }
}

#[inline(always)]
unsafe fn reduce_impl<M: Mul>(v: &mut [u8]) {
    unsafe {
        let len = v.len();
        let mut j = 0;
        while j + 32 <= len {
            let p = v.as_mut_ptr().add(j) as *mut __m256i;
            _mm256_storeu_si256(p, M::reduce(_mm256_loadu_si256(p)));
            j += 32;
        }
        if j < len {
            let mut b = [0u8; 32];
            b[..len - j].copy_from_slice(&v[j..]);
            let r = M::reduce(_mm256_loadu_si256(b.as_ptr() as *const __m256i));
            _mm256_storeu_si256(b.as_mut_ptr() as *mut __m256i, r);
            v[j..].copy_from_slice(&b[..len - j]);
        }
    }
}

// ---------------------------------------------------------------------------------
// mat_mul_batch

/// Small products one matrix at a time, a row of the output per register (`q ≤ 32`
/// columns per ymm, wider rows in several): `out[i] = ⊕_l A[i][l] ⊗ B[l]` with A's
/// elements broadcast, reduced once at the end. Rows of B are read with whole-vector
/// loads where the slice has 32 bytes left, else through a zero-padded copy; output rows
/// are stored whole where 32 bytes remain in `out` and the spill only reaches bytes
/// written afterwards (later rows or matrices), else through a buffer.
#[inline(always)]
unsafe fn mmb_impl<M: Mul>(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    unsafe {
        if p == 0 || q == 0 {
            return;
        }
        let (sa, sb, so) = (p * k, k * q, p * q);
        let count = out.len() / so;
        assert!(
            a.len() >= count * sa && b.len() >= count * sb,
            "mat_mul_batch: input too short"
        );
        let mut pad = [0u8; 32];
        for t in 0..count {
            let (at, bt) = (a.as_ptr().add(t * sa), t * sb);
            let mut j0 = 0;
            while j0 < q {
                let w = (q - j0).min(32);
                for i in 0..p {
                    let mut acc = _mm256_setzero_si256();
                    for l in 0..k {
                        let off = bt + l * q + j0;
                        let bv = if off + 32 <= b.len() {
                            _mm256_loadu_si256(b.as_ptr().add(off) as *const __m256i)
                        } else {
                            pad = [0u8; 32];
                            pad[..b.len() - off].copy_from_slice(&b[off..]);
                            _mm256_loadu_si256(pad.as_ptr() as *const __m256i)
                        };
                        let s = M::prep(*at.add(i * k + l) & 15);
                        acc = _mm256_xor_si256(acc, M::mul(s, bv));
                    }
                    let r = M::reduce(acc);
                    let o = t * so + i * q + j0;
                    // A whole store spills into later rows only (first column chunk, or
                    // a full chunk); a partial later chunk would overwrite the start of
                    // the next row, already written.
                    if (j0 == 0 || w == 32) && o + 32 <= out.len() {
                        _mm256_storeu_si256(out.as_mut_ptr().add(o) as *mut __m256i, r);
                    } else {
                        let mut buf = [0u8; 32];
                        _mm256_storeu_si256(buf.as_mut_ptr() as *mut __m256i, r);
                        out[o..o + w].copy_from_slice(&buf[..w]);
                    }
                }
                j0 += w;
            }
        }
        pad.zeroize();
    }
}

// ---------------------------------------------------------------------------------
// solve

/// Branch-free `0xFF if v == 0 else 0`.
#[inline(always)]
fn is_zero_mask(v: u8) -> u8 {
    (((v as u16).wrapping_sub(1)) >> 8) as u8
}

/// XOR of the 32 bytes of `v`.
#[inline(always)]
pub(crate) unsafe fn hxor256(v: __m256i) -> u8 {
    unsafe {
        let x = _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let mut q = (_mm_cvtsi128_si64(x) ^ _mm_extract_epi64::<1>(x)) as u64;
        q ^= q >> 32;
        q ^= q >> 16;
        q ^= q >> 8;
        q as u8
    }
}

#[inline(always)]
unsafe fn solve_impl<M: Mul>(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    unsafe {
        if n == 0 {
            return true;
        }
        check_solve(aug, n, stride, x);
        let w = n + 1;
        let nc = w.div_ceil(32);
        let rs = nc * 32;
        // Zero-padded working copy: whole-vector loads and stores everywhere.
        let mut buf = vec![0u8; n * rs];
        for i in 0..n {
            buf[i * rs..i * rs + w].copy_from_slice(&aug[i * stride..i * stride + w]);
        }
        let bp = buf.as_mut_ptr();
        let mut sel = vec![0u8; n];
        let mut ok = 0xFFu8;
        for i in 0..n {
            let c0 = i / 32;
            let ri = bp.add(i * rs);
            // Pivot search: the first later row with a non-zero entry in column i is added
            // when row i's entry is zero (masks decided first, then added chunk by chunk).
            let pz = is_zero_mask(*ri.add(i));
            let mut found = 0u8;
            let mut p = *ri.add(i);
            #[allow(clippy::needless_range_loop)]
            for j in i + 1..n {
                let vj = *bp.add(j * rs + i);
                let nz = !is_zero_mask(vj);
                let s = pz & nz & !found;
                found |= nz;
                p ^= vj & s;
                sel[j] = s;
            }
            for cidx in c0..nc {
                let pi = ri.add(32 * cidx) as *mut __m256i;
                let mut r = _mm256_loadu_si256(pi);
                for (j, &s) in sel.iter().enumerate().skip(i + 1) {
                    let v = _mm256_loadu_si256(bp.add(j * rs + 32 * cidx) as *const __m256i);
                    r = _mm256_xor_si256(r, _mm256_and_si256(_mm256_set1_epi8(s as i8), v));
                }
                _mm256_storeu_si256(pi, r);
            }
            ok &= !is_zero_mask(p);
            // Normalise row i.
            let pinv = M::prep_red(inv(p));
            for cidx in c0..nc {
                let pi = ri.add(32 * cidx) as *mut __m256i;
                _mm256_storeu_si256(pi, M::mul_red(pinv, _mm256_loadu_si256(pi)));
            }
            // Eliminate column i below.
            for j in i + 1..n {
                let rj = bp.add(j * rs);
                let f = M::prep_red(*rj.add(i));
                for cidx in c0..nc {
                    let pj = rj.add(32 * cidx) as *mut __m256i;
                    let v = M::mul_red(f, _mm256_loadu_si256(ri.add(32 * cidx) as *const __m256i));
                    _mm256_storeu_si256(pj, _mm256_xor_si256(_mm256_loadu_si256(pj), v));
                }
            }
        }
        // Back substitution: x_i = b_i ⊕ Σ_{k>i} U[i][k]·x_k as a lane-wise dot product with
        // the solution vector (zero at positions ≤ i and at the right-hand side column).
        let mut xv = vec![0u8; rs];
        for i in (0..n).rev() {
            let ri = bp.add(i * rs);
            let mut acc = _mm256_setzero_si256();
            for cidx in i / 32..nc {
                let r = _mm256_loadu_si256(ri.add(32 * cidx) as *const __m256i);
                let xx = _mm256_loadu_si256(xv.as_ptr().add(32 * cidx) as *const __m256i);
                acc = _mm256_xor_si256(acc, M::mul_lanes(r, xx));
            }
            let xi = reduce1(hxor256(acc) ^ *ri.add(n));
            xv[i] = xi;
            x[i] = xi;
        }
        // The working copy held secrets (the solution, the system).
        crate::wipe::wipe_slice(&mut buf, 0);
        crate::wipe::wipe_slice(&mut xv, 0);
        crate::wipe::wipe_slice(&mut sel, 0);
        ok == 0xFF
    }
}

// ---------------------------------------------------------------------------------
// Monomorphic target-feature entry points and their safe wrappers.

#[allow(clippy::too_many_arguments)]
fn gemm_expand(
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
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn inner(
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
        unsafe { gemm_expand_impl(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n) }
    }
    // SAFETY: the table holding this wrapper is only handed out after AVX2 was detected.
    unsafe { inner(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n) }
}

macro_rules! entry_points {
    ($feat:literal, $m:ty, $axpy:ident, $reduce:ident, $solve:ident, $mmb:ident) => {
        pub(crate) fn $mmb(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
            #[target_feature(enable = $feat)]
            unsafe fn inner(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
                unsafe { mmb_impl::<$m>(out, a, b, p, k, q) }
            }
            // SAFETY: the table holding this wrapper is only handed out after the
            // features were detected (module docs).
            unsafe { inner(out, a, b, p, k, q) }
        }
        fn $axpy(acc: &mut [u8], s: u8, x: &[u8]) {
            #[target_feature(enable = $feat)]
            unsafe fn inner(acc: &mut [u8], s: u8, x: &[u8]) {
                unsafe { axpy_impl::<$m>(acc, s, x) }
            }
            // SAFETY: as above.
            unsafe { inner(acc, s, x) }
        }
        fn $reduce(v: &mut [u8]) {
            #[target_feature(enable = $feat)]
            unsafe fn inner(v: &mut [u8]) {
                unsafe { reduce_impl::<$m>(v) }
            }
            // SAFETY: as above.
            unsafe { inner(v) }
        }
        fn $solve(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
            #[target_feature(enable = $feat)]
            unsafe fn inner(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
                unsafe { solve_impl::<$m>(aug, n, stride, x) }
            }
            // SAFETY: as above.
            unsafe { inner(aug, n, stride, x) }
        }
    };
}

/// The shuffle variant's `mat_mul_batch`: rows of at most four elements are faster as
/// the portable SWAR words (four products per integer multiplication) than as a
/// 32-lane register per row.
fn mmb_shuffle_or_swar(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    if q <= 4 {
        super::portable::mat_mul_batch(out, a, b, p, k, q)
    } else {
        mmb_shuffle(out, a, b, p, k, q)
    }
}

/// The GFNI variant's `gemm_acc` (the generic register-blocked kernel).
#[allow(clippy::too_many_arguments)]
fn gemm_gfni(
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
    #[target_feature(enable = "avx2,gfni")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn inner(
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
        unsafe { gemm_impl::<Gfni>(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n) }
    }
    // SAFETY: the table holding this wrapper is only handed out after the
    // features were detected (module docs).
    unsafe { inner(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n) }
}

entry_points!(
    "avx2",
    Shuffle,
    axpy_shuffle,
    reduce_shuffle,
    solve_shuffle,
    mmb_shuffle
);
entry_points!(
    "avx2,gfni",
    Gfni,
    axpy_gfni,
    reduce_gfni,
    solve_gfni,
    mmb_gfni
);
