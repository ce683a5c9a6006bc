//! AVX2 FFT kernels (x86-64, native `f64` `Fpr` only): four values per `__m256d`.
//!
//! # Bit-exactness
//! Each lane performs exactly the binary64 operations of the portable kernel for its
//! element, in the same order (`_mm256_mul_pd`, `_add_pd`, `_sub_pd`, `_div_pd`, sign
//! flips by XOR; no FMA), so results are bit-identical to [`super::portable`] and to the
//! reference. Only the grouping of independent butterflies into vectors and the data
//! movement (shuffles) differ.
//!
//! # Schedule
//! * FFT: layers whose butterfly distance is at least 4 use one broadcast twiddle per
//!   block, as in the reference's AVX2 code; the last two layers (distances 2 and 1)
//!   work inside blocks of 4 entries and are done together, two blocks at a time, with
//!   in-register shuffles and per-lane twiddle vectors.
//! * Inverse FFT: the mirror image (first two layers fused, then broadcast layers); the
//!   final scaling by 2/n is applied in the last layer, on the values it stores.
//! * Element-wise operations: four complex values (or four reals) per step; split and
//!   merge (de)interleave even and odd entries with shuffles.
//!
//! Degrees too small for these shapes (logn < 4 for the transforms, split and merge;
//! logn < 3 for the other FFT-domain operations; logn < 2 for add/sub/neg/mulconst) run
//! the portable kernel, which computes the same bits.
//!
//! Every entry of the table is a safe wrapper that checks `logn` and slice lengths and
//! then calls a whole `#[target_feature(enable = "avx2")]` function; the table is only
//! handed out by [`super::kernels`] after AVX2 was detected, which makes the calls sound.
//! Memory is accessed through bounds-checked slices only. Nothing branches on data.

use super::portable;
use super::FftKernels;
use super::GM_BITS;
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

type V = __m256d;

pub(super) static KERNELS: FftKernels = FftKernels {
    backend: Backend::Avx2,
    fft,
    ifft,
    poly_add,
    poly_sub,
    poly_neg,
    poly_adj_fft,
    poly_mul_fft,
    poly_muladj_fft,
    poly_mulselfadj_fft,
    poly_mulconst,
    poly_div_fft,
    poly_invnorm2_fft,
    poly_add_muladj_fft,
    poly_mul_autoadj_fft,
    poly_div_autoadj_fft,
    poly_ldl_fft,
    poly_ldlmv_fft,
    poly_split_fft,
    poly_merge_fft,
};

// ---------------------------------------------------------------------------------------
// Twiddles, de-interleaved so four consecutive ones load as one vector.

const fn deinterleave(odd: usize) -> [f64; 1024] {
    let mut t = [0.0; 1024];
    let mut k = 0;
    while k < 1024 {
        t[k] = f64::from_bits(GM_BITS[2 * k + odd]);
        k += 1;
    }
    t
}

/// Real parts of the twiddles (same values as `GM_TAB[2k]`).
static GM_RE: [f64; 1024] = deinterleave(0);
/// Imaginary parts of the twiddles (same values as `GM_TAB[2k + 1]`).
static GM_IM: [f64; 1024] = deinterleave(1);

// ---------------------------------------------------------------------------------------
// Slice views and checks.

#[inline(always)]
fn view(s: &[Fpr]) -> &[f64] {
    // SAFETY: the native `Fpr` is `repr(transparent)` over `f64`: same size, alignment
    // and valid bit patterns; the borrow is carried over.
    unsafe { core::slice::from_raw_parts(s.as_ptr() as *const f64, s.len()) }
}

#[inline(always)]
fn view_mut(s: &mut [Fpr]) -> &mut [f64] {
    // SAFETY: as in `view`; the exclusive borrow is carried over.
    unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut f64, s.len()) }
}

/// `n = 2^logn` after checking the supported range (the same panic as portable).
#[inline(always)]
fn degree(logn: u32) -> usize {
    assert!(
        (1..=10).contains(&logn),
        "Falcon FFT: logn must be in 1..=10"
    );
    1usize << logn
}

// ---------------------------------------------------------------------------------------
// Vector helpers (safe: value-only intrinsics inside `target_feature` functions, loads and
// stores through bounds-checked sub-slices).

#[inline]
#[target_feature(enable = "avx2")]
fn ld(s: &[f64], i: usize) -> V {
    let c = &s[i..i + 4];
    // SAFETY: `c` holds 4 readable f64; unaligned load.
    unsafe { _mm256_loadu_pd(c.as_ptr()) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn st(s: &mut [f64], i: usize, v: V) {
    let c = &mut s[i..i + 4];
    // SAFETY: `c` holds 4 writable f64; unaligned store.
    unsafe { _mm256_storeu_pd(c.as_mut_ptr(), v) }
}

/// `[t[k], t[k], t[k+1], t[k+1]]`.
#[inline]
#[target_feature(enable = "avx2")]
fn ld_dup2(t: &[f64], k: usize) -> V {
    let c = &t[k..k + 2];
    // SAFETY: `c` holds 2 readable f64.
    let p = unsafe { _mm_loadu_pd(c.as_ptr()) };
    _mm256_permute4x64_pd::<0b01_01_00_00>(_mm256_castpd128_pd256(p))
}

#[inline]
#[target_feature(enable = "avx2")]
fn add(a: V, b: V) -> V {
    _mm256_add_pd(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn sub(a: V, b: V) -> V {
    _mm256_sub_pd(a, b)
}

#[inline]
#[target_feature(enable = "avx2")]
fn mul(a: V, b: V) -> V {
    _mm256_mul_pd(a, b)
}

/// `−a` (sign flip, as the scalar negation).
#[inline]
#[target_feature(enable = "avx2")]
fn neg(a: V) -> V {
    _mm256_xor_pd(a, _mm256_set1_pd(-0.0))
}

/// `1 / a`.
#[inline]
#[target_feature(enable = "avx2")]
fn inv(a: V) -> V {
    _mm256_div_pd(_mm256_set1_pd(1.0), a)
}

/// `a · 0.5` (the native `Fpr::half`).
#[inline]
#[target_feature(enable = "avx2")]
fn half(a: V) -> V {
    _mm256_mul_pd(a, _mm256_set1_pd(0.5))
}

/// Complex product `(a_re·b_re − a_im·b_im, a_re·b_im + a_im·b_re)`.
#[inline]
#[target_feature(enable = "avx2")]
fn cmul(a_re: V, a_im: V, b_re: V, b_im: V) -> (V, V) {
    (
        sub(mul(a_re, b_re), mul(a_im, b_im)),
        add(mul(a_re, b_im), mul(a_im, b_re)),
    )
}

/// Complex quotient as the portable `cdiv`: `m = 1/(b_re² + b_im²)`, then
/// `a · (b_re·m, (−b_im)·m)`.
#[inline]
#[target_feature(enable = "avx2")]
fn cdiv(a_re: V, a_im: V, b_re: V, b_im: V) -> (V, V) {
    let m = inv(add(mul(b_re, b_re), mul(b_im, b_im)));
    cmul(a_re, a_im, mul(b_re, m), mul(neg(b_im), m))
}

// ---------------------------------------------------------------------------------------
// FFT and inverse FFT.

/// Forward FFT, logn in 4..=10, `f.len() == n`.
#[target_feature(enable = "avx2")]
unsafe fn fft_avx2(f: &mut [f64], logn: u32) {
    let n = f.len();
    let hn = n >> 1;
    let (re, im) = f.split_at_mut(hn);
    // Broadcast layers: distance ht >= 4 (all but the last two layers).
    let mut t = hn;
    let mut m = 2;
    for _ in 1..logn - 2 {
        let ht = t >> 1;
        for i1 in 0..(m >> 1) {
            let s_re = _mm256_set1_pd(GM_RE[m + i1]);
            let s_im = _mm256_set1_pd(GM_IM[m + i1]);
            let j1 = i1 * t;
            for j in (j1..j1 + ht).step_by(4) {
                let (x_re, x_im) = (ld(re, j), ld(im, j));
                let (y_re, y_im) = cmul(ld(re, j + ht), ld(im, j + ht), s_re, s_im);
                st(re, j, add(x_re, y_re));
                st(im, j, add(x_im, y_im));
                st(re, j + ht, sub(x_re, y_re));
                st(im, j + ht, sub(x_im, y_im));
            }
        }
        t = ht;
        m <<= 1;
    }
    // Last two layers (t = 4 then t = 2, twiddle bases m = n/4 and n/2), on pairs of
    // 4-entry blocks A = [a0..a3], B = [b0..b3]:
    //   distance 2: x = [a0 a1 b0 b1], y = [a2 a3 b2 b3], twiddles [sA sA sB sB];
    //   distance 1: x = [a0 a2 b0 b2], y = [a1 a3 b1 b3], four consecutive twiddles.
    let m2 = n >> 2;
    let m1 = n >> 1;
    for g in 0..(hn >> 3) {
        let j = g << 3;
        let (a_re, b_re) = (ld(re, j), ld(re, j + 4));
        let (a_im, b_im) = (ld(im, j), ld(im, j + 4));
        let x_re = _mm256_permute2f128_pd::<0x20>(a_re, b_re);
        let y_re = _mm256_permute2f128_pd::<0x31>(a_re, b_re);
        let x_im = _mm256_permute2f128_pd::<0x20>(a_im, b_im);
        let y_im = _mm256_permute2f128_pd::<0x31>(a_im, b_im);
        let s_re = ld_dup2(&GM_RE, m2 + 2 * g);
        let s_im = ld_dup2(&GM_IM, m2 + 2 * g);
        let (y_re, y_im) = cmul(y_re, y_im, s_re, s_im);
        let (u_re, u_im) = (add(x_re, y_re), add(x_im, y_im));
        let (v_re, v_im) = (sub(x_re, y_re), sub(x_im, y_im));

        let x_re = _mm256_unpacklo_pd(u_re, v_re);
        let y_re = _mm256_unpackhi_pd(u_re, v_re);
        let x_im = _mm256_unpacklo_pd(u_im, v_im);
        let y_im = _mm256_unpackhi_pd(u_im, v_im);
        let s_re = ld(&GM_RE, m1 + 4 * g);
        let s_im = ld(&GM_IM, m1 + 4 * g);
        let (y_re, y_im) = cmul(y_re, y_im, s_re, s_im);
        let (u_re, u_im) = (add(x_re, y_re), add(x_im, y_im));
        let (v_re, v_im) = (sub(x_re, y_re), sub(x_im, y_im));

        // u = [a0 a2 b0 b2], v = [a1 a3 b1 b3] -> [a0 a1 b0 b1], [a2 a3 b2 b3] -> A, B.
        let p_re = _mm256_unpacklo_pd(u_re, v_re);
        let q_re = _mm256_unpackhi_pd(u_re, v_re);
        let p_im = _mm256_unpacklo_pd(u_im, v_im);
        let q_im = _mm256_unpackhi_pd(u_im, v_im);
        st(re, j, _mm256_permute2f128_pd::<0x20>(p_re, q_re));
        st(re, j + 4, _mm256_permute2f128_pd::<0x31>(p_re, q_re));
        st(im, j, _mm256_permute2f128_pd::<0x20>(p_im, q_im));
        st(im, j + 4, _mm256_permute2f128_pd::<0x31>(p_im, q_im));
    }
}

/// Inverse FFT, logn in 4..=10, `f.len() == n`.
#[target_feature(enable = "avx2")]
unsafe fn ifft_avx2(f: &mut [f64], logn: u32) {
    let n = f.len();
    let hn = n >> 1;
    let (re, im) = f.split_at_mut(hn);
    // First two layers (t = 1 then t = 2, twiddle bases n/2 and n/4, conjugated), on
    // pairs of 4-entry blocks A, B (the forward shuffles in reverse).
    let h1 = n >> 1;
    let h2 = n >> 2;
    for g in 0..(hn >> 3) {
        let j = g << 3;
        let (a_re, b_re) = (ld(re, j), ld(re, j + 4));
        let (a_im, b_im) = (ld(im, j), ld(im, j + 4));
        let p_re = _mm256_permute2f128_pd::<0x20>(a_re, b_re);
        let q_re = _mm256_permute2f128_pd::<0x31>(a_re, b_re);
        let p_im = _mm256_permute2f128_pd::<0x20>(a_im, b_im);
        let q_im = _mm256_permute2f128_pd::<0x31>(a_im, b_im);
        // x = [a0 a2 b0 b2], y = [a1 a3 b1 b3].
        let x_re = _mm256_unpacklo_pd(p_re, q_re);
        let y_re = _mm256_unpackhi_pd(p_re, q_re);
        let x_im = _mm256_unpacklo_pd(p_im, q_im);
        let y_im = _mm256_unpackhi_pd(p_im, q_im);
        let s_re = ld(&GM_RE, h1 + 4 * g);
        let s_im = neg(ld(&GM_IM, h1 + 4 * g));
        let (u_re, u_im) = (add(x_re, y_re), add(x_im, y_im));
        let (v_re, v_im) = cmul(sub(x_re, y_re), sub(x_im, y_im), s_re, s_im);

        // x = [a0 a1 b0 b1], y = [a2 a3 b2 b3].
        let x_re = _mm256_unpacklo_pd(u_re, v_re);
        let y_re = _mm256_unpackhi_pd(u_re, v_re);
        let x_im = _mm256_unpacklo_pd(u_im, v_im);
        let y_im = _mm256_unpackhi_pd(u_im, v_im);
        let s_re = ld_dup2(&GM_RE, h2 + 2 * g);
        let s_im = neg(ld_dup2(&GM_IM, h2 + 2 * g));
        let (u_re, u_im) = (add(x_re, y_re), add(x_im, y_im));
        let (v_re, v_im) = cmul(sub(x_re, y_re), sub(x_im, y_im), s_re, s_im);

        st(re, j, _mm256_permute2f128_pd::<0x20>(u_re, v_re));
        st(re, j + 4, _mm256_permute2f128_pd::<0x31>(u_re, v_re));
        st(im, j, _mm256_permute2f128_pd::<0x20>(u_im, v_im));
        st(im, j + 4, _mm256_permute2f128_pd::<0x31>(u_im, v_im));
    }
    // Broadcast layers t = 4 .. hn/2; the last one also applies the scaling by 2/n.
    let ni = _mm256_set1_pd(f64::from_bits(super::P2_TAB[logn as usize].to_bits()));
    let mut t = 4;
    let mut hm = n >> 3;
    while t < hn {
        let dt = t << 1;
        let last = dt == hn;
        for i1 in 0..(hn / dt) {
            let s_re = _mm256_set1_pd(GM_RE[hm + i1]);
            let s_im = neg(_mm256_set1_pd(GM_IM[hm + i1]));
            let j1 = i1 * dt;
            for j in (j1..j1 + t).step_by(4) {
                let (x_re, x_im) = (ld(re, j), ld(im, j));
                let (y_re, y_im) = (ld(re, j + t), ld(im, j + t));
                let (mut u_re, mut u_im) = (add(x_re, y_re), add(x_im, y_im));
                let (mut v_re, mut v_im) = cmul(sub(x_re, y_re), sub(x_im, y_im), s_re, s_im);
                if last {
                    u_re = mul(u_re, ni);
                    u_im = mul(u_im, ni);
                    v_re = mul(v_re, ni);
                    v_im = mul(v_im, ni);
                }
                st(re, j, u_re);
                st(im, j, u_im);
                st(re, j + t, v_re);
                st(im, j + t, v_im);
            }
        }
        t = dt;
        hm >>= 1;
    }
}

/// Forward FFT in place (see [`portable::fft`]).
fn fft(f: &mut [Fpr], logn: u32) {
    let n = degree(logn);
    if logn < 4 {
        return portable::fft(f, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { fft_avx2(view_mut(&mut f[..n]), logn) }
}

/// Inverse FFT in place (see [`portable::ifft`]).
fn ifft(f: &mut [Fpr], logn: u32) {
    let n = degree(logn);
    if logn < 4 {
        return portable::ifft(f, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { ifft_avx2(view_mut(&mut f[..n]), logn) }
}

// ---------------------------------------------------------------------------------------
// Element-wise operations over all n values.

/// The element-wise kernels over n reals.
#[derive(Clone, Copy)]
enum Lin {
    Add,
    Sub,
}

#[target_feature(enable = "avx2")]
unsafe fn lin_avx2(a: &mut [f64], b: &[f64], op: Lin) {
    for i in (0..a.len()).step_by(4) {
        let (x, y) = (ld(a, i), ld(b, i));
        let r = match op {
            Lin::Add => add(x, y),
            Lin::Sub => sub(x, y),
        };
        st(a, i, r);
    }
}

#[target_feature(enable = "avx2")]
unsafe fn neg_avx2(a: &mut [f64]) {
    for i in (0..a.len()).step_by(4) {
        st(a, i, neg(ld(a, i)));
    }
}

#[target_feature(enable = "avx2")]
unsafe fn mulconst_avx2(a: &mut [f64], x: f64) {
    let c = _mm256_set1_pd(x);
    for i in (0..a.len()).step_by(4) {
        st(a, i, mul(ld(a, i), c));
    }
}

fn poly_add(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 4 {
        return portable::poly_add(a, b, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { lin_avx2(view_mut(&mut a[..n]), view(&b[..n]), Lin::Add) }
}

fn poly_sub(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 4 {
        return portable::poly_sub(a, b, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { lin_avx2(view_mut(&mut a[..n]), view(&b[..n]), Lin::Sub) }
}

fn poly_neg(a: &mut [Fpr], logn: u32) {
    let n = degree(logn);
    if n < 4 {
        return portable::poly_neg(a, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { neg_avx2(view_mut(&mut a[..n])) }
}

fn poly_adj_fft(a: &mut [Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_adj_fft(a, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { neg_avx2(view_mut(&mut a[n >> 1..n])) }
}

fn poly_mulconst(a: &mut [Fpr], x: Fpr, logn: u32) {
    let n = degree(logn);
    if n < 4 {
        return portable::poly_mulconst(a, x, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { mulconst_avx2(view_mut(&mut a[..n]), f64::from_bits(x.to_bits())) }
}

// ---------------------------------------------------------------------------------------
// Complex element-wise operations over n/2 values (real half, imaginary half).

/// Which complex product `a ← a ∘ b` to apply.
#[derive(Clone, Copy)]
enum Prod {
    /// `a · b`
    Mul,
    /// `a · adj(b)`
    MulAdj,
    /// `a / b`
    Div,
}

#[target_feature(enable = "avx2")]
unsafe fn prod_avx2(a: &mut [f64], b: &[f64], op: Prod) {
    let hn = a.len() >> 1;
    let (are, aim) = a.split_at_mut(hn);
    let (bre, bim) = b.split_at(hn);
    for u in (0..hn).step_by(4) {
        let (x_re, x_im) = (ld(are, u), ld(aim, u));
        let (y_re, y_im) = (ld(bre, u), ld(bim, u));
        let (r_re, r_im) = match op {
            Prod::Mul => cmul(x_re, x_im, y_re, y_im),
            Prod::MulAdj => cmul(x_re, x_im, y_re, neg(y_im)),
            Prod::Div => cdiv(x_re, x_im, y_re, y_im),
        };
        st(are, u, r_re);
        st(aim, u, r_im);
    }
}

fn poly_mul_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_mul_fft(a, b, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { prod_avx2(view_mut(&mut a[..n]), view(&b[..n]), Prod::Mul) }
}

fn poly_muladj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_muladj_fft(a, b, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { prod_avx2(view_mut(&mut a[..n]), view(&b[..n]), Prod::MulAdj) }
}

fn poly_div_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_div_fft(a, b, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { prod_avx2(view_mut(&mut a[..n]), view(&b[..n]), Prod::Div) }
}

#[target_feature(enable = "avx2")]
unsafe fn mulselfadj_avx2(a: &mut [f64]) {
    let hn = a.len() >> 1;
    let (are, aim) = a.split_at_mut(hn);
    let zero = _mm256_setzero_pd();
    for u in (0..hn).step_by(4) {
        let (x_re, x_im) = (ld(are, u), ld(aim, u));
        st(are, u, add(mul(x_re, x_re), mul(x_im, x_im)));
        st(aim, u, zero);
    }
}

fn poly_mulselfadj_fft(a: &mut [Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_mulselfadj_fft(a, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { mulselfadj_avx2(view_mut(&mut a[..n])) }
}

/// `d[u] ← 1/(|a_u|² + |b_u|²)`, `d.len() == n/2`.
#[target_feature(enable = "avx2")]
unsafe fn invnorm2_avx2(d: &mut [f64], a: &[f64], b: &[f64]) {
    let hn = d.len();
    let (are, aim) = a.split_at(hn);
    let (bre, bim) = b.split_at(hn);
    for u in (0..hn).step_by(4) {
        let (a_re, a_im) = (ld(are, u), ld(aim, u));
        let (b_re, b_im) = (ld(bre, u), ld(bim, u));
        let na = add(mul(a_re, a_re), mul(a_im, a_im));
        let nb = add(mul(b_re, b_re), mul(b_im, b_im));
        st(d, u, inv(add(na, nb)));
    }
}

fn poly_invnorm2_fft(d: &mut [Fpr], a: &[Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_invnorm2_fft(d, a, b, logn);
    }
    let hn = n >> 1;
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { invnorm2_avx2(view_mut(&mut d[..hn]), view(&a[..n]), view(&b[..n])) }
}

#[allow(non_snake_case)]
#[target_feature(enable = "avx2")]
unsafe fn add_muladj_avx2(d: &mut [f64], F: &[f64], G: &[f64], f: &[f64], g: &[f64]) {
    let hn = d.len() >> 1;
    let (dre, dim) = d.split_at_mut(hn);
    let (Fre, Fim) = F.split_at(hn);
    let (Gre, Gim) = G.split_at(hn);
    let (fre, fim) = f.split_at(hn);
    let (gre, gim) = g.split_at(hn);
    for u in (0..hn).step_by(4) {
        let (a_re, a_im) = cmul(ld(Fre, u), ld(Fim, u), ld(fre, u), neg(ld(fim, u)));
        let (b_re, b_im) = cmul(ld(Gre, u), ld(Gim, u), ld(gre, u), neg(ld(gim, u)));
        st(dre, u, add(a_re, b_re));
        st(dim, u, add(a_im, b_im));
    }
}

#[allow(non_snake_case)]
fn poly_add_muladj_fft(d: &mut [Fpr], F: &[Fpr], G: &[Fpr], f: &[Fpr], g: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_add_muladj_fft(d, F, G, f, g, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe {
        add_muladj_avx2(
            view_mut(&mut d[..n]),
            view(&F[..n]),
            view(&G[..n]),
            view(&f[..n]),
            view(&g[..n]),
        )
    }
}

/// `a ← a · b` (`DIV = false`) or `a ← a · (1/b)` (`DIV = true`) for a real `b` of
/// `n/2` entries.
#[target_feature(enable = "avx2")]
unsafe fn autoadj_avx2<const DIV: bool>(a: &mut [f64], b: &[f64]) {
    let hn = a.len() >> 1;
    let (are, aim) = a.split_at_mut(hn);
    for u in (0..hn).step_by(4) {
        let s = ld(b, u);
        let s = if DIV { inv(s) } else { s };
        st(are, u, mul(ld(are, u), s));
        st(aim, u, mul(ld(aim, u), s));
    }
}

fn poly_mul_autoadj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_mul_autoadj_fft(a, b, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { autoadj_avx2::<false>(view_mut(&mut a[..n]), view(&b[..n >> 1])) }
}

fn poly_div_autoadj_fft(a: &mut [Fpr], b: &[Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_div_autoadj_fft(a, b, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { autoadj_avx2::<true>(view_mut(&mut a[..n]), view(&b[..n >> 1])) }
}

/// One LDL step on four values: `μ = g01/g00`; returns `g11 − μ·adj(g01)` (re, im)
/// and `adj(μ)` (re, im).
#[inline]
#[target_feature(enable = "avx2")]
fn ldl_step(g00re: V, g00im: V, o_re: V, o_im: V, g11re: V, g11im: V) -> (V, V, V, V) {
    let (mu_re, mu_im) = cdiv(o_re, o_im, g00re, g00im);
    let (p_re, p_im) = cmul(mu_re, mu_im, o_re, neg(o_im));
    (sub(g11re, p_re), sub(g11im, p_im), mu_re, neg(mu_im))
}

#[target_feature(enable = "avx2")]
unsafe fn ldl_avx2(g00: &[f64], g01: &mut [f64], g11: &mut [f64]) {
    let hn = g01.len() >> 1;
    let (g00re, g00im) = g00.split_at(hn);
    let (g01re, g01im) = g01.split_at_mut(hn);
    let (g11re, g11im) = g11.split_at_mut(hn);
    for u in (0..hn).step_by(4) {
        let (d_re, d_im, l_re, l_im) = ldl_step(
            ld(g00re, u),
            ld(g00im, u),
            ld(g01re, u),
            ld(g01im, u),
            ld(g11re, u),
            ld(g11im, u),
        );
        st(g11re, u, d_re);
        st(g11im, u, d_im);
        st(g01re, u, l_re);
        st(g01im, u, l_im);
    }
}

fn poly_ldl_fft(g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], logn: u32) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_ldl_fft(g00, g01, g11, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe {
        ldl_avx2(
            view(&g00[..n]),
            view_mut(&mut g01[..n]),
            view_mut(&mut g11[..n]),
        )
    }
}

#[target_feature(enable = "avx2")]
unsafe fn ldlmv_avx2(d11: &mut [f64], l10: &mut [f64], g00: &[f64], g01: &[f64], g11: &[f64]) {
    let hn = d11.len() >> 1;
    let (d11re, d11im) = d11.split_at_mut(hn);
    let (l10re, l10im) = l10.split_at_mut(hn);
    let (g00re, g00im) = g00.split_at(hn);
    let (g01re, g01im) = g01.split_at(hn);
    let (g11re, g11im) = g11.split_at(hn);
    for u in (0..hn).step_by(4) {
        let (d_re, d_im, l_re, l_im) = ldl_step(
            ld(g00re, u),
            ld(g00im, u),
            ld(g01re, u),
            ld(g01im, u),
            ld(g11re, u),
            ld(g11im, u),
        );
        st(d11re, u, d_re);
        st(d11im, u, d_im);
        st(l10re, u, l_re);
        st(l10im, u, l_im);
    }
}

fn poly_ldlmv_fft(
    d11: &mut [Fpr],
    l10: &mut [Fpr],
    g00: &[Fpr],
    g01: &[Fpr],
    g11: &[Fpr],
    logn: u32,
) {
    let n = degree(logn);
    if n < 8 {
        return portable::poly_ldlmv_fft(d11, l10, g00, g01, g11, logn);
    }
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe {
        ldlmv_avx2(
            view_mut(&mut d11[..n]),
            view_mut(&mut l10[..n]),
            view(&g00[..n]),
            view(&g01[..n]),
            view(&g11[..n]),
        )
    }
}

// ---------------------------------------------------------------------------------------
// Split and merge.

/// `f.len() == n`, `f0.len() == f1.len() == n/2`, n >= 16.
#[target_feature(enable = "avx2")]
unsafe fn split_avx2(f0: &mut [f64], f1: &mut [f64], f: &[f64]) {
    let hn = f0.len();
    let qn = hn >> 1;
    let (fre, fim) = f.split_at(hn);
    let (f0re, f0im) = f0.split_at_mut(qn);
    let (f1re, f1im) = f1.split_at_mut(qn);
    for u in (0..qn).step_by(4) {
        // Entries 2u..2u+8: p = [e0 e1 e2 e3], q = [e4 e5 e6 e7]; a = even, b = odd.
        let (p_re, q_re) = (ld(fre, 2 * u), ld(fre, 2 * u + 4));
        let (p_im, q_im) = (ld(fim, 2 * u), ld(fim, 2 * u + 4));
        // unpacklo = [e0 e4 e2 e6]; lanes (0 2 1 3) -> [e0 e2 e4 e6].
        let a_re = _mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_unpacklo_pd(p_re, q_re));
        let b_re = _mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_unpackhi_pd(p_re, q_re));
        let a_im = _mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_unpacklo_pd(p_im, q_im));
        let b_im = _mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_unpackhi_pd(p_im, q_im));
        st(f0re, u, half(add(a_re, b_re)));
        st(f0im, u, half(add(a_im, b_im)));
        let s_re = ld(&GM_RE, u + hn);
        let s_im = neg(ld(&GM_IM, u + hn));
        let (t_re, t_im) = cmul(sub(a_re, b_re), sub(a_im, b_im), s_re, s_im);
        st(f1re, u, half(t_re));
        st(f1im, u, half(t_im));
    }
}

fn poly_split_fft(f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], logn: u32) {
    let n = degree(logn);
    if logn < 4 {
        return portable::poly_split_fft(f0, f1, f, logn);
    }
    let hn = n >> 1;
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe {
        split_avx2(
            view_mut(&mut f0[..hn]),
            view_mut(&mut f1[..hn]),
            view(&f[..n]),
        )
    }
}

/// `f.len() == n`, `f0.len() == f1.len() == n/2`, n >= 16.
#[target_feature(enable = "avx2")]
unsafe fn merge_avx2(f: &mut [f64], f0: &[f64], f1: &[f64]) {
    let hn = f0.len();
    let qn = hn >> 1;
    let (fre, fim) = f.split_at_mut(hn);
    let (f0re, f0im) = f0.split_at(qn);
    let (f1re, f1im) = f1.split_at(qn);
    for u in (0..qn).step_by(4) {
        let (a_re, a_im) = (ld(f0re, u), ld(f0im, u));
        let s_re = ld(&GM_RE, u + hn);
        let s_im = ld(&GM_IM, u + hn);
        let (b_re, b_im) = cmul(ld(f1re, u), ld(f1im, u), s_re, s_im);
        let (e_re, e_im) = (add(a_re, b_re), add(a_im, b_im));
        let (o_re, o_im) = (sub(a_re, b_re), sub(a_im, b_im));
        // Interleave even e and odd o: [e0 o0 e1 o1], [e2 o2 e3 o3].
        let lo_re = _mm256_unpacklo_pd(e_re, o_re);
        let hi_re = _mm256_unpackhi_pd(e_re, o_re);
        let lo_im = _mm256_unpacklo_pd(e_im, o_im);
        let hi_im = _mm256_unpackhi_pd(e_im, o_im);
        st(fre, 2 * u, _mm256_permute2f128_pd::<0x20>(lo_re, hi_re));
        st(fre, 2 * u + 4, _mm256_permute2f128_pd::<0x31>(lo_re, hi_re));
        st(fim, 2 * u, _mm256_permute2f128_pd::<0x20>(lo_im, hi_im));
        st(fim, 2 * u + 4, _mm256_permute2f128_pd::<0x31>(lo_im, hi_im));
    }
}

fn poly_merge_fft(f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr], logn: u32) {
    let n = degree(logn);
    if logn < 4 {
        return portable::poly_merge_fft(f, f0, f1, logn);
    }
    let hn = n >> 1;
    // SAFETY: this table is only handed out after AVX2 was detected.
    unsafe { merge_avx2(view_mut(&mut f[..n]), view(&f0[..hn]), view(&f1[..hn])) }
}
