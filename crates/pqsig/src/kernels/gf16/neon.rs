//! NEON GF(16) kernels (AArch64 Advanced SIMD), bit-exact with [`super::portable`].
//!
//! The ARMv8 SNOVA study's approach, behind the fixed [`Kernels`] signatures:
//! * **Products** by `pmul` (`vmulq_p8`): the polynomial product of two bytes, low eight
//!   bits. Two nibbles give a product of degree ≤ 6, so `pmul` computes exactly the
//!   unreduced carry-less product the seam's accumulators hold — sixteen per instruction,
//!   no tables at all.
//! * **Reduction** deferred to the end of an accumulation, then done with a register table:
//!   `v mod (x⁴+x+1) = (v & 15) ⊕ R[v >> 4]` with `R[h] = h ⊕ 2h` looked up by `tbl`
//!   (`vqtbl1q_u8`).
//! * **Gathers** by `tbl` as well: a small matrix (up to 64 elements) lives in up to four
//!   registers and `tbl` with public index vectors lays out its rows and columns for the
//!   products of [`mat_mul_batch`]. In [`solve`], `f·row` uses a per-factor product table
//!   `T_f[x] = f·x` built in a register (one `pmul` and one reduction) and looked up by
//!   `tbl`: one instruction per sixteen reduced products.
//!
//! # Constant time
//! Tables live only in registers; `tbl` and `pmul` take the same time for every value.
//! Memory addresses, loop bounds and branches depend on the public shapes only (the
//! partial-load paths below choose by lengths, never by values). Pivoting in [`solve`] is
//! by masks, as in the portable backend.
//!
//! # Inputs outside the documented bounds
//! The portable kernels use only the low nibble of each multiplicand (`clmul4`); these
//! kernels mask multiplicands with `0x0F` likewise, so the results agree bit for bit on
//! any bytes, not only on reduced ones.
//!
//! # Soundness
//! NEON is part of the AArch64 baseline; the table is still only handed out by
//! [`super::kernels`] after `Backend::Neon.is_available()` (runtime detection), which is
//! what makes the safe wrappers around the `#[target_feature(enable = "neon")]` bodies
//! sound. Every pointer access is preceded by a bounds check against the slice (the
//! portable kernels panic through slice indexing on a bad shape; these panic through an
//! explicit `assert!` before touching memory).

// Value-only intrinsics are safe inside `#[target_feature]` functions on recent Rust; the
// code keeps explicit `unsafe` blocks around intrinsic sequences anyway (loads, stores and
// their SAFETY reasoning grouped), hence `allow(unused_unsafe)`.
#![allow(unused_unsafe)]

use super::{inv, reduce1, Kernels};
use crate::kernels::select::Backend;
use crate::wipe::wipe;
use alloc::vec;
use alloc::vec::Vec;
use core::arch::aarch64::*;

pub(crate) static KERNELS: Kernels = Kernels {
    backend: Backend::Neon,
    gemm_acc,
    axpy_acc,
    reduce,
    mat_mul_batch,
    solve,
};

/// `R[h] = (h ⊕ 2h) & 15`: the reduction of `h·x⁴` (x⁴ = x + 1), for every high nibble
/// (entries 8..15 only matter for bytes ≥ 0x80, kept equal to the portable `reduce1`).
const RED: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut h = 0;
    while h < 16 {
        t[h] = ((h ^ (h << 1)) & 15) as u8;
        h += 1;
    }
    t
};

/// 0, 1, …, 15: the multiplicands of a product table.
const IOTA: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

// ---------------------------------------------------------------------------------------
// Register helpers (inlined into the `#[target_feature]` bodies).
// ---------------------------------------------------------------------------------------

/// Carry-less byte product (low 8 bits); exact for nibbles.
#[inline(always)]
fn pmul(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    // SAFETY: value-only NEON intrinsics; callers run with NEON available.
    unsafe { vreinterpretq_u8_p8(vmulq_p8(vreinterpretq_p8_u8(a), vreinterpretq_p8_u8(b))) }
}

/// Reduction of sixteen unreduced bytes (`rt` = [`RED`] in a register).
#[inline(always)]
fn red(v: uint8x16_t, rt: uint8x16_t, m15: uint8x16_t) -> uint8x16_t {
    // SAFETY: value-only NEON intrinsics.
    unsafe { veorq_u8(vandq_u8(v, m15), vqtbl1q_u8(rt, vshrq_n_u8::<4>(v))) }
}

/// The product table `T[x] = f·x` (reduced) of a reduced scalar `f`, in a register.
#[inline(always)]
fn mul_table(f: u8, iota: uint8x16_t, rt: uint8x16_t, m15: uint8x16_t) -> uint8x16_t {
    // SAFETY: value-only NEON intrinsics.
    unsafe { red(pmul(vdupq_n_u8(f & 15), iota), rt, m15) }
}

/// Loads `w ≤ 16` bytes of `s` from `off` into the low lanes (other lanes unspecified,
/// zero when staged). Reads sixteen bytes straight from the slice when they are inside
/// it (the lanes beyond `w` are then ignored by every caller), else stages the `w` bytes.
/// The choice depends on lengths only.
#[inline(always)]
fn load(s: &[u8], off: usize, w: usize) -> uint8x16_t {
    if s.len() >= 16 && off <= s.len() - 16 {
        // SAFETY: `off + 16 ≤ s.len()`.
        unsafe { vld1q_u8(s.as_ptr().add(off)) }
    } else {
        let mut t = [0u8; 16];
        t[..w].copy_from_slice(&s[off..off + w]);
        // SAFETY: `t` has 16 bytes.
        unsafe { vld1q_u8(t.as_ptr()) }
    }
}

/// Stores the low `w ≤ 16` lanes of `v` to `s[off..off + w]`.
#[inline(always)]
fn store(s: &mut [u8], off: usize, w: usize, v: uint8x16_t) {
    if w == 16 {
        let d = &mut s[off..off + 16];
        // SAFETY: `d` has 16 bytes.
        unsafe { vst1q_u8(d.as_mut_ptr(), v) }
    } else {
        let mut t = [0u8; 16];
        // SAFETY: `t` has 16 bytes.
        unsafe { vst1q_u8(t.as_mut_ptr(), v) };
        s[off..off + w].copy_from_slice(&t[..w]);
    }
}

// ---------------------------------------------------------------------------------------
// axpy, reduce
// ---------------------------------------------------------------------------------------

pub(crate) fn axpy_acc(acc: &mut [u8], s: u8, x: &[u8]) {
    // SAFETY: the table is handed out only when NEON was detected (module docs).
    unsafe { axpy_neon(acc, s, x) }
}

#[target_feature(enable = "neon")]
unsafe fn axpy_neon(acc: &mut [u8], s: u8, x: &[u8]) {
    let len = acc.len().min(x.len());
    let (acc, x) = (&mut acc[..len], &x[..len]);
    // SAFETY (all blocks): NEON available; loads/stores through `load`/`store` or on
    // 16-byte chunks of the slices.
    let m15 = unsafe { vdupq_n_u8(15) };
    let sv = unsafe { vdupq_n_u8(s & 15) };
    let mut ac = acc.chunks_exact_mut(16);
    let mut xc = x.chunks_exact(16);
    for (o, v) in (&mut ac).zip(&mut xc) {
        unsafe {
            let xv = vandq_u8(vld1q_u8(v.as_ptr()), m15);
            let r = veorq_u8(vld1q_u8(o.as_ptr()), pmul(sv, xv));
            vst1q_u8(o.as_mut_ptr(), r);
        }
    }
    let (o, v) = (ac.into_remainder(), xc.remainder());
    let w = o.len();
    if w > 0 {
        let xv = unsafe { vandq_u8(load(v, 0, w), m15) };
        let r = unsafe { veorq_u8(load(o, 0, w), pmul(sv, xv)) };
        store(o, 0, w, r);
    }
}

pub(crate) fn reduce(x: &mut [u8]) {
    // SAFETY: the table is handed out only when NEON was detected (module docs).
    unsafe { reduce_neon(x) }
}

#[target_feature(enable = "neon")]
unsafe fn reduce_neon(x: &mut [u8]) {
    // SAFETY (all blocks): NEON available; accesses on 16-byte chunks of `x`.
    let (rt, m15) = unsafe { (vld1q_u8(RED.as_ptr()), vdupq_n_u8(15)) };
    let mut ch = x.chunks_exact_mut(16);
    for c in &mut ch {
        unsafe { vst1q_u8(c.as_mut_ptr(), red(vld1q_u8(c.as_ptr()), rt, m15)) };
    }
    for v in ch.into_remainder() {
        *v = reduce1(*v);
    }
}

// ---------------------------------------------------------------------------------------
// gemm
// ---------------------------------------------------------------------------------------

#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_acc(
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
    if m == 0 || kk == 0 || n == 0 {
        return;
    }
    // The portable kernel panics through slice indexing on these; so do we, up front.
    let a_last = (m - 1)
        .checked_mul(a_rs)
        .and_then(|x| x.checked_add((kk - 1).checked_mul(a_cs)?));
    assert!(
        matches!(a_last, Some(i) if i < a.len()),
        "gemm_acc: A out of range"
    );
    let b_end = (kk - 1).checked_mul(ldb).and_then(|x| x.checked_add(n));
    assert!(
        matches!(b_end, Some(e) if e <= b.len()),
        "gemm_acc: B out of range"
    );
    let c_end = (m - 1).checked_mul(ldc).and_then(|x| x.checked_add(n));
    assert!(
        matches!(c_end, Some(e) if e <= c.len()),
        "gemm_acc: C out of range"
    );
    // SAFETY: NEON detected (module docs); shapes checked above.
    unsafe { gemm_neon(c, ldc, a, a_rs, a_cs, b, ldb, m, kk, n) }
}

/// Rows of C per register block: eight accumulators, one B vector, eight broadcasts.
const MR: usize = 8;

#[target_feature(enable = "neon")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_neon(
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
    let mut i = 0;
    while i + MR <= m {
        unsafe { gemm_block::<MR>(c, ldc, a, a_rs, a_cs, b, ldb, i, kk, n) };
        i += MR;
    }
    if m - i >= 4 {
        unsafe { gemm_block::<4>(c, ldc, a, a_rs, a_cs, b, ldb, i, kk, n) };
        i += 4;
    }
    if m - i >= 2 {
        unsafe { gemm_block::<2>(c, ldc, a, a_rs, a_cs, b, ldb, i, kk, n) };
        i += 2;
    }
    if m - i >= 1 {
        unsafe { gemm_block::<1>(c, ldc, a, a_rs, a_cs, b, ldb, i, kk, n) };
    }
}

/// Lane `l < 16` of `v` in every lane (`dup` by element). `l` is a public loop index; once
/// the loop is unrolled the match folds to the one instruction of its constant lane.
#[inline(always)]
fn dup_lane(v: uint8x16_t, l: usize) -> uint8x16_t {
    macro_rules! lanes {
        ($($n:literal)*) => {
            // SAFETY: value-only NEON intrinsics.
            unsafe {
                match l {
                    $($n => vdupq_laneq_u8::<$n>(v),)*
                    _ => vdupq_laneq_u8::<15>(v),
                }
            }
        };
    }
    lanes!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14)
}

/// Rows `i0..i0+R` of C, all columns, sixteen at a time: the accumulators stay in
/// registers over the whole `k` loop (deferred reduction: no reduction at all here). The
/// scalars of A come from vector loads and in-register broadcasts (`dup`, `tbl`) when A's rows
/// or columns are contiguous (every SNOVA call), from scalar loads otherwise.
#[target_feature(enable = "neon")]
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_block<const R: usize>(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    b: &[u8],
    ldb: usize,
    i0: usize,
    kk: usize,
    n: usize,
) {
    // SAFETY (all blocks): NEON available; memory only through `load`/`store` and
    // bounds-checked indexing.
    let m15 = unsafe { vdupq_n_u8(15) };
    let mut j = 0;
    while j < n {
        let w = (n - j).min(16);
        let mut acc = [unsafe { vdupq_n_u8(0) }; R];
        for (r, v) in acc.iter_mut().enumerate() {
            *v = load(c, (i0 + r) * ldc + j, w);
        }
        if a_rs == 1 {
            // A's columns are contiguous (a transposed operand): one load brings
            // A[i0..i0+R][k]; `dup` (element) broadcasts row r's entry.
            for k in 0..kk {
                let av = unsafe { vandq_u8(load(a, i0 + k * a_cs, R), m15) };
                let bv = unsafe { vandq_u8(load(b, k * ldb + j, w), m15) };
                for (r, v) in acc.iter_mut().enumerate() {
                    *v = unsafe { veorq_u8(*v, pmul(dup_lane(av, r), bv)) };
                }
            }
        } else if a_cs == 1 {
            // A's rows are contiguous: sixteen entries of each of the R rows per load;
            // `tbl` with the index k (one splat shared by the R rows) broadcasts entry k.
            let mut k0 = 0;
            while k0 < kk {
                let kw = (kk - k0).min(16);
                let mut ar = [unsafe { vdupq_n_u8(0) }; R];
                for (r, v) in ar.iter_mut().enumerate() {
                    *v = unsafe { vandq_u8(load(a, (i0 + r) * a_rs + k0, kw), m15) };
                }
                for kq in 0..kw {
                    let idx = unsafe { vdupq_n_u8(kq as u8) };
                    let bv = unsafe { vandq_u8(load(b, (k0 + kq) * ldb + j, w), m15) };
                    for (v, &x) in acc.iter_mut().zip(ar.iter()) {
                        *v = unsafe { veorq_u8(*v, pmul(vqtbl1q_u8(x, idx), bv)) };
                    }
                }
                k0 += 16;
            }
        } else {
            // Arbitrary strides: scalar loads and broadcasts.
            for k in 0..kk {
                let bv = unsafe { vandq_u8(load(b, k * ldb + j, w), m15) };
                for (r, v) in acc.iter_mut().enumerate() {
                    let s = a[(i0 + r) * a_rs + k * a_cs] & 15;
                    *v = unsafe { veorq_u8(*v, pmul(vdupq_n_u8(s), bv)) };
                }
            }
        }
        for (r, v) in acc.iter().enumerate() {
            store(c, (i0 + r) * ldc + j, w, *v);
        }
        j += 16;
    }
}

// ---------------------------------------------------------------------------------------
// Batched small products
// ---------------------------------------------------------------------------------------

/// Largest inner dimension of the register path (SNOVA: k = l ≤ 5, or r ≤ 8); larger
/// ones, and operands over 64 elements, take the gemm path.
const K_MAX: usize = 16;

pub(crate) fn mat_mul_batch(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    let count = out.len() / (p * q);
    if count == 0 {
        return;
    }
    assert!(
        a.len() >= count * p * k && b.len() >= count * k * q,
        "mat_mul_batch: inputs shorter than the output"
    );
    if k == 0 {
        // Empty products: zeros, exactly as the portable kernel writes them.
        super::portable::mat_mul_batch(out, a, b, p, k, q);
        return;
    }
    let (na, nb, no) = (
        (p * k).div_ceil(16),
        (k * q).div_ceil(16),
        (p * q).div_ceil(16),
    );
    if k > K_MAX || na > 4 || nb > 4 || no > 4 {
        // Larger products (SNOVA's l×r · r×(o·l) and (o·l)×l · l×l during signing): one
        // register-blocked gemm per product, rows of the output sixteen at a time.
        // SAFETY: NEON detected (module docs); lengths checked above.
        unsafe { mmb_rows(out, a, b, p, k, q, count) };
        return;
    }
    // SAFETY: NEON detected (module docs); lengths checked above.
    unsafe { mmb_dispatch(out, a, b, p, k, q, count, na, nb, no) }
}

/// Products too large for the register path: `out[t] = 0`, `out[t] ^= a[t]·b[t]` by the
/// gemm kernel (row-major, packed: A strides (k, 1), B and C rows of q), then one
/// reduction pass. Bytes past `count·p·q` are never written (gemm stores only the
/// addressed columns of each row).
#[target_feature(enable = "neon")]
unsafe fn mmb_rows(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize, count: usize) {
    let (pk, kq, pq) = (p * k, k * q, p * q);
    for t in 0..count {
        let o = &mut out[t * pq..];
        o[..pq].fill(0);
        // SAFETY: NEON available; the gemm shape (p×k at strides (k, 1), k×q, p×q) lies
        // inside `a[t·pk..]`, `b[t·kq..]` and `o` (lengths checked by the caller).
        unsafe {
            gemm_neon(o, q, &a[t * pk..], k, 1, &b[t * kq..], q, p, k, q);
            reduce_neon(&mut o[..pq]);
        }
    }
}

/// `tbl` over the first `N` registers of `t` (indices ≥ 16·N give 0).
#[inline(always)]
fn tbl<const N: usize>(t: &[uint8x16_t; 4], idx: uint8x16_t) -> uint8x16_t {
    // SAFETY: value-only NEON intrinsics.
    unsafe {
        match N {
            1 => vqtbl1q_u8(t[0], idx),
            2 => vqtbl2q_u8(uint8x16x2_t(t[0], t[1]), idx),
            3 => vqtbl3q_u8(uint8x16x3_t(t[0], t[1], t[2]), idx),
            _ => vqtbl4q_u8(uint8x16x4_t(t[0], t[1], t[2], t[3]), idx),
        }
    }
}

/// Loads `len ≤ 16·N` bytes from `s[off..]` into `N` registers, masked to nibbles.
#[inline(always)]
fn load_regs<const N: usize>(s: &[u8], off: usize, len: usize, m15: uint8x16_t) -> [uint8x16_t; 4] {
    // SAFETY (all blocks): NEON available; the direct path reads `off..off + 16·N`, inside
    // `s` by the check; the staged path copies `len` bytes (slice-checked).
    let mut t = [unsafe { vdupq_n_u8(0) }; 4];
    if s.len() >= 16 * N && off <= s.len() - 16 * N {
        for (r, v) in t.iter_mut().take(N).enumerate() {
            *v = unsafe { vandq_u8(vld1q_u8(s.as_ptr().add(off + 16 * r)), m15) };
        }
    } else {
        let mut buf = [0u8; 64];
        buf[..len].copy_from_slice(&s[off..off + len]);
        for (r, v) in t.iter_mut().take(N).enumerate() {
            *v = unsafe { vandq_u8(vld1q_u8(buf.as_ptr().add(16 * r)), m15) };
        }
        wipe(&mut buf, [0u8; 64]);
    }
    t
}

macro_rules! mmb_dispatch_arms {
    ($na:ident, $nb:ident, $no:ident, $call:ident; $( ($x:literal, $y:literal, $z:literal) )*) => {
        match ($na, $nb, $no) {
            $( ($x, $y, $z) => $call!($x, $y, $z), )*
            _ => unreachable!("register counts are 1..=4"),
        }
    };
}

#[target_feature(enable = "neon")]
#[allow(clippy::too_many_arguments)]
unsafe fn mmb_dispatch(
    out: &mut [u8],
    a: &[u8],
    b: &[u8],
    p: usize,
    k: usize,
    q: usize,
    count: usize,
    na: usize,
    nb: usize,
    no: usize,
) {
    macro_rules! call {
        ($x:literal, $y:literal, $z:literal) => {
            unsafe { mmb::<$x, $y, $z>(out, a, b, p, k, q, count) }
        };
    }
    mmb_dispatch_arms!(na, nb, no, call;
        (1,1,1) (1,1,2) (1,1,3) (1,1,4) (1,2,1) (1,2,2) (1,2,3) (1,2,4)
        (1,3,1) (1,3,2) (1,3,3) (1,3,4) (1,4,1) (1,4,2) (1,4,3) (1,4,4)
        (2,1,1) (2,1,2) (2,1,3) (2,1,4) (2,2,1) (2,2,2) (2,2,3) (2,2,4)
        (2,3,1) (2,3,2) (2,3,3) (2,3,4) (2,4,1) (2,4,2) (2,4,3) (2,4,4)
        (3,1,1) (3,1,2) (3,1,3) (3,1,4) (3,2,1) (3,2,2) (3,2,3) (3,2,4)
        (3,3,1) (3,3,2) (3,3,3) (3,3,4) (3,4,1) (3,4,2) (3,4,3) (3,4,4)
        (4,1,1) (4,1,2) (4,1,3) (4,1,4) (4,2,1) (4,2,2) (4,2,3) (4,2,4)
        (4,3,1) (4,3,2) (4,3,3) (4,3,4) (4,4,1) (4,4,2) (4,4,3) (4,4,4)
    )
}

/// The register path: matrix `t`'s A in `NA` registers, B in `NB`, the product in `NO`.
/// For every inner index `l`, `tbl` lays out `A[i][l]` and `B[l][j]` at the output
/// position `(i, j)`; one `pmul` and one XOR per output register and `l`, one reduction
/// per output register at the end.
#[target_feature(enable = "neon")]
#[allow(clippy::too_many_arguments)]
unsafe fn mmb<const NA: usize, const NB: usize, const NO: usize>(
    out: &mut [u8],
    a: &[u8],
    b: &[u8],
    p: usize,
    k: usize,
    q: usize,
    count: usize,
) {
    let (pk, kq, pq) = (p * k, k * q, p * q);
    // Public index vectors: lane e of output register r is element (i, j) = divmod(16r+e, q).
    let mut ia = [[0xFFu8; 16]; 4 * K_MAX];
    let mut ib = [[0xFFu8; 16]; 4 * K_MAX];
    for l in 0..k {
        for r in 0..NO {
            for e in 0..16 {
                let o = 16 * r + e;
                if o < pq {
                    let (i, j) = (o / q, o % q);
                    ia[l * 4 + r][e] = (i * k + l) as u8;
                    ib[l * 4 + r][e] = (l * q + j) as u8;
                }
            }
        }
    }
    // SAFETY (all blocks): NEON available; memory through `load_regs`, slice-checked
    // copies and stores inside `out` (checked).
    let (rt, m15) = unsafe { (vld1q_u8(RED.as_ptr()), vdupq_n_u8(15)) };
    let mut iav = [[unsafe { vdupq_n_u8(0) }; 4]; K_MAX];
    let mut ibv = [[unsafe { vdupq_n_u8(0) }; 4]; K_MAX];
    for l in 0..k {
        for r in 0..NO {
            unsafe {
                iav[l][r] = vld1q_u8(ia[l * 4 + r].as_ptr());
                ibv[l][r] = vld1q_u8(ib[l * 4 + r].as_ptr());
            }
        }
    }
    for t in 0..count {
        let ta = load_regs::<NA>(a, t * pk, pk, m15);
        let tb = load_regs::<NB>(b, t * kq, kq, m15);
        let mut acc = [unsafe { vdupq_n_u8(0) }; NO];
        for l in 0..k {
            for (r, v) in acc.iter_mut().enumerate() {
                let x = tbl::<NA>(&ta, iav[l][r]);
                let y = tbl::<NB>(&tb, ibv[l][r]);
                *v = unsafe { veorq_u8(*v, pmul(x, y)) };
            }
        }
        let off = t * pq;
        if off + 16 * NO <= count * pq {
            // Full registers: bytes past this product belong to later products, which
            // overwrite them afterwards (increasing t); bytes past the last product
            // (`out` beyond `count·pq`) are never touched.
            for (r, v) in acc.iter().enumerate() {
                unsafe { vst1q_u8(out.as_mut_ptr().add(off + 16 * r), red(*v, rt, m15)) };
            }
        } else {
            let mut buf = [0u8; 64];
            for (r, v) in acc.iter().enumerate() {
                unsafe { vst1q_u8(buf.as_mut_ptr().add(16 * r), red(*v, rt, m15)) };
            }
            out[off..off + pq].copy_from_slice(&buf[..pq]);
            wipe(&mut buf, [0u8; 64]);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Constant-time Gaussian elimination
// ---------------------------------------------------------------------------------------

/// Branch-free mask: 0xFF if v == 0 else 0.
#[inline(always)]
fn is_zero_mask(v: u8) -> u8 {
    (((v as u16).wrapping_sub(1)) >> 8) as u8
}

/// Heap buffer of 16-byte chunks, wiped on drop (it holds the secret linear system).
struct Chunks(Vec<[u8; 16]>);

impl Drop for Chunks {
    fn drop(&mut self) {
        for c in self.0.iter_mut() {
            wipe(c, [0u8; 16]);
        }
    }
}

pub(crate) fn solve(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    if n == 0 {
        return true;
    }
    let w = n + 1;
    assert!(
        stride >= w
            && (n - 1)
                .checked_mul(stride)
                .and_then(|e| e.checked_add(w))
                .is_some_and(|e| e <= aug.len())
            && x.len() >= n,
        "solve: shape out of range"
    );
    // SAFETY: NEON detected (module docs); shape checked above.
    unsafe { solve_neon(aug, n, stride, x) }
}

/// Constant-time Gaussian elimination (pivot search by masks, normalisation,
/// elimination below, back substitution), on a private copy whose rows are padded to
/// whole registers:
/// * rows live at `nc = ⌈(n+1)/16⌉` chunks each; the padding stays zero (zero times
///   anything is zero), and columns left of the pivot are already zero in every row at or
///   below it, so each row operation runs over the chunks from the pivot's chunk on;
/// * the pivot search picks, when the pivot is zero, the first later row with a non-zero
///   entry in its column (branch-free scalar masks), then adds it under its mask in one
///   pass that reads every later row (the access pattern is independent of the values);
/// * `f·row` is one `tbl` per chunk on the product table of `f`;
/// * back substitution runs over a transposed copy of the upper triangle, sixteen rows
///   at a time, with deferred reduction of the right-hand side.
#[target_feature(enable = "neon")]
unsafe fn solve_neon(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    let w = n + 1;
    let nc = w.div_ceil(16);
    // SAFETY (all blocks): NEON available; every pointer is into `m.0` / `tr.0` / `sels.0`
    // at a chunk index below their lengths (`n·nc`, `n·ncn + ncn`, `⌈n/16⌉` chunks, i.e.
    // byte index `j < n` for `sel`), or an in-bounds 16-byte chunk.
    let (rt, m15, iota) = unsafe {
        (
            vld1q_u8(RED.as_ptr()),
            vdupq_n_u8(15),
            vld1q_u8(IOTA.as_ptr()),
        )
    };
    let mut m = Chunks(vec![[0u8; 16]; n * nc]);
    for i in 0..n {
        let src = &aug[i * stride..i * stride + w];
        for (c, dst) in m.0[i * nc..(i + 1) * nc].iter_mut().enumerate() {
            let lo = 16 * c;
            let hi = (lo + 16).min(w);
            dst[..hi - lo].copy_from_slice(&src[lo..hi]);
            for v in dst.iter_mut() {
                *v &= 15;
            }
        }
    }
    let base = m.0.as_mut_ptr() as *mut u8;
    let row = |i: usize, c: usize| -> *mut u8 { unsafe { base.add((i * nc + c) * 16) } };
    // Selection masks of the pivot search (secret-dependent: wiped with the buffer).
    let mut sels = Chunks(vec![[0u8; 16]; n.div_ceil(16)]);
    let sel = sels.0.as_mut_ptr() as *mut u8;
    let mut singular = 0u8;
    for i in 0..n {
        let c0 = i / 16;
        // Pivot search: when the pivot is zero, the first later row with a non-zero entry
        // in column i is added to row i. The selection masks of all later rows are
        // decided first (scalar, branch-free), then one pass per chunk adds the selected
        // row under its mask: every later row is read, row i written once per chunk.
        let vi = unsafe { *row(i, c0).add(i % 16) };
        let pz = is_zero_mask(vi);
        let mut found = 0u8;
        for j in i + 1..n {
            let nz = !is_zero_mask(unsafe { *row(j, c0).add(i % 16) });
            unsafe { *sel.add(j) = pz & nz & !found };
            found |= nz;
        }
        for c in c0..nc {
            unsafe {
                let mut acc = vld1q_u8(row(i, c));
                for j in i + 1..n {
                    let mask = vdupq_n_u8(*sel.add(j));
                    acc = veorq_u8(acc, vandq_u8(vld1q_u8(row(j, c)), mask));
                }
                vst1q_u8(row(i, c), acc);
            }
        }
        // Normalise the pivot row.
        let p = unsafe { *row(i, c0).add(i % 16) };
        singular |= is_zero_mask(p);
        let tp = mul_table(inv(p), iota, rt, m15);
        for c in c0..nc {
            unsafe { vst1q_u8(row(i, c), vqtbl1q_u8(tp, vld1q_u8(row(i, c)))) };
        }
        // Eliminate below.
        for j in i + 1..n {
            let f = unsafe { *row(j, c0).add(i % 16) };
            let tf = mul_table(f, iota, rt, m15);
            for c in c0..nc {
                unsafe {
                    let v = veorq_u8(vld1q_u8(row(j, c)), vqtbl1q_u8(tf, vld1q_u8(row(i, c))));
                    vst1q_u8(row(j, c), v);
                }
            }
        }
    }
    // Back substitution: tr row i = column i of the rows above it (r < i), and the
    // right-hand side `rhs`, both padded to whole registers.
    let ncn = n.div_ceil(16);
    let mut tr = Chunks(vec![[0u8; 16]; n * ncn + ncn]);
    for i in 0..n {
        for r in 0..i {
            tr.0[i * ncn + r / 16][r % 16] = m.0[r * nc + i / 16][i % 16];
        }
        tr.0[n * ncn + i / 16][i % 16] = m.0[i * nc + n / 16][n % 16];
    }
    let tbase = tr.0.as_mut_ptr() as *mut u8;
    let rhs = |c: usize| -> *mut u8 { unsafe { tbase.add((n * ncn + c) * 16) } };
    for i in (0..n).rev() {
        let xi = reduce1(unsafe { *rhs(i / 16).add(i % 16) });
        x[i] = xi;
        let xv = unsafe { vdupq_n_u8(xi) };
        // Rows 0..i: chunks 0..⌈i/16⌉ (the transposed row is zero from lane i on).
        for c in 0..i.div_ceil(16) {
            unsafe {
                let col = vld1q_u8(tbase.add((i * ncn + c) * 16));
                vst1q_u8(rhs(c), veorq_u8(vld1q_u8(rhs(c)), pmul(xv, col)));
            }
        }
    }
    singular == 0
}
