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
//! `gemm_acc` holds eight rows × 64 columns of C in eight zmm registers and runs k
//! inside: per (row, k) one `vpbroadcastb` of A's element, one `vgf2p8mulb` with B's row
//! (loaded once per k for the eight rows) and one XOR. `mat_mul_batch` (with AVX-512
//! VBMI) puts several small matrices in one register: for each inner index l two
//! `vpermi2b` byte gathers bring `A[t][i][l]` and `B[t][l][j]` to output lane (t,i,j)
//! (index vectors depend on the public shape only), one `vgf2p8mulb` multiplies them.
//! `solve` keeps the pivot row in up to four zmm registers (systems up to 255 unknowns;
//! larger ones use the portable kernel) and follows the portable algorithm:
//! mask-selected pivot row addition, pivot inverse by exponentiation, normalisation and
//! elimination below with GFNI products, back substitution by lane-wise dot products.
//!
//! Without GFNI the backend uses the AVX2 shuffle kernels ([`avx2::SHUFFLE`]); without
//! VBMI `mat_mul_batch` is the portable SWAR kernel.
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

use super::avx2::{self, check_gemm, check_solve, hxor256, RED_AFFINE};
use super::{inv, portable, reduce1, Kernels};
use crate::kernels::select::Backend;
use alloc::vec::Vec;
use core::arch::x86_64::*;

/// GFNI kernels, portable `mat_mul_batch`.
pub const GFNI: Kernels = Kernels {
    backend: Backend::Avx512,
    gemm_acc,
    axpy_acc,
    reduce,
    mat_mul_batch: portable::mat_mul_batch,
    solve,
};

/// GFNI kernels and the VBMI `mat_mul_batch`.
pub const GFNI_VBMI: Kernels = Kernels {
    mat_mul_batch,
    ..GFNI
};

/// CPUs without GFNI: the AVX2 shuffle kernels.
pub const SHUFFLE: Kernels = Kernels {
    backend: Backend::Avx512,
    ..avx2::SHUFFLE
};

pub static KERNELS_GFNI: Kernels = GFNI;
pub static KERNELS_GFNI_VBMI: Kernels = GFNI_VBMI;
pub static KERNELS_SHUFFLE: Kernels = SHUFFLE;

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
        let mut j0 = 0;
        while j0 < n {
            let km = kmask(n - j0);
            let (cj, bj) = (cp.add(j0), bp.add(j0));
            let mut i = 0;
            while i + 8 <= m {
                gemm_rows::<8>(cj, ldc, ap, a_rs, a_cs, bj, ldb, i, kk, km);
                i += 8;
            }
            if i + 4 <= m {
                gemm_rows::<4>(cj, ldc, ap, a_rs, a_cs, bj, ldb, i, kk, km);
                i += 4;
            }
            while i < m {
                gemm_rows::<1>(cj, ldc, ap, a_rs, a_cs, bj, ldb, i, kk, km);
                i += 1;
            }
            j0 += 64;
        }
    }
}

/// `R` rows of C from row `i0`, the 64-column block starting at `cp`/`bp` (mask `km`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_rows<const R: usize>(
    cp: *mut u8,
    ldc: usize,
    ap: *const u8,
    a_rs: usize,
    a_cs: usize,
    bp: *const u8,
    ldb: usize,
    i0: usize,
    kk: usize,
    km: __mmask64,
) {
    unsafe {
        let mut acc = [_mm512_setzero_si512(); R];
        let mut arow = [ap; R];
        for (r, p) in arow.iter_mut().enumerate() {
            *p = ap.add((i0 + r) * a_rs);
        }
        let mut ak = 0;
        for k in 0..kk {
            let bv = _mm512_maskz_loadu_epi8(km, bp.add(k * ldb) as *const i8);
            for r in 0..R {
                let s = _mm512_set1_epi8(*arow[r].add(ak) as i8);
                acc[r] = _mm512_xor_si512(acc[r], _mm512_gf2p8mul_epi8(bv, s));
            }
            ak += a_cs;
        }
        for (r, v) in acc.iter().enumerate() {
            let p = cp.add((i0 + r) * ldc) as *mut i8;
            let cv = _mm512_maskz_loadu_epi8(km, p);
            _mm512_mask_storeu_epi8(p, km, _mm512_xor_si512(cv, *v));
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
    // Matrices per register: the outputs fit 64 lanes, the operands two registers each.
    let mut t = 64 / so;
    while t > 0 && (t * sa > 128 || t * sb > 128) {
        t -= 1;
    }
    if t == 0 || k == 0 || k > MMB_MAX_K {
        return portable::mat_mul_batch(out, a, b, p, k, q);
    }
    let count = out.len() / so;
    assert!(
        a.len() >= count * sa && b.len() >= count * sb,
        "mat_mul_batch: input too short"
    );
    // SAFETY: features detected (module docs); lengths checked above.
    unsafe { mmb_inner(out, a, b, p, k, q, t, count) }
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
        let base = aug.as_mut_ptr();
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
        ok == 0xFF
    }
}
