//! AVX2 SamplerZ kernels (x86-64): the base sampler compares the 72-bit draw with all 18
//! table entries at once (three vectors of eight 32-bit lanes, one per 24-bit limb
//! triple), and ChaCha20 runs its eight instances in the eight lanes of each register.
//!
//! # Speculative slots (native `Fpr` builds)
//! The reference sampler is one long dependency chain per attempt (base sample → x →
//! exp(−x) polynomial → one byte compared → accept or retry), and the retry branch is
//! unpredictable, so a serial implementation is latency-bound. But almost every attempt
//! reads exactly 11 bytes (8 + 1 for the 72-bit draw, 1 sign byte, 1 BerExp byte: BerExp
//! needs a second byte only when the first equals the top byte of its threshold, with
//! probability 1/256). So the bytes ahead of the read position are cut into 11-byte
//! *slots*, each one attempt; the slots' candidate `z`, `c = z0²/(2σ0²)` and BerExp byte
//! do not depend on the request, and are computed eight at a time once per window into
//! the window's slot cache (from an anchor position to the end of the window; the cache
//! is anchored anew after a refill or after an attempt that took other than 11 bytes:
//! the mechanism of `avx512.rs`). For a pair of requests the kernel evaluates, in SIMD
//! lanes, the attempt each of the eight cached slots at the read position would be for
//! each request (four slots first, the next four only when needed). The serial order is
//! then replayed on bit masks: request 0 takes the first slot it accepts, request 1 the
//! first later slot it accepts. The outputs and the bytes consumed are exactly the
//! serial ones; whenever the shortcut cannot decide (see below) the kernel goes on with
//! the serial code from the first slot it could not decide; when the slots run out
//! (rejections, end of the window) it goes on with the next cached slots, refilling as
//! the serial reads would.
//!
//! In each slot, x, its reduction `x = s·ln 2 + r` and everything before the exponential
//! are computed with the reference's binary64 operations, bit-identical to the serial
//! code. The exponential's fixed-point polynomial (`fpr::expm_p63`) is *approximated* in
//! binary64 (same coefficients, Horner in floating point); the decision only needs the
//! integer `T = 2·expm_p63(r, ccs) − 1` compared with the byte thresholds
//! `w·2^(56+s)` and `(w+1)·2^(56+s)` (w the random byte): the attempt is accepted when
//! `T >= (w+1)·2^(56+s)`, rejected when `T < w·2^(56+s)`. The approximation is within
//! 2^16 of T (each Horner step adds at most 3·2^10 of rounding and truncation error and
//! shrinks the previous error by the factor r < ln 2, so the error stays below
//! 10·2^10, then the final scaling adds 2^11 — see `APPROX_MARGIN`); a lane whose
//! approximation lies within `APPROX_MARGIN` of a threshold (probability below 2^-30),
//! whose first byte equals the threshold byte (1/256), or whose r is negative (a
//! rounding corner) is undecided and handled by the exact serial code.
//!
//! The selection works on masks (no branch or memory index depends on which slot was
//! taken: the chosen z is extracted with masks); the cache is indexed by the read
//! position, and the branches to the slower paths depend on the rejection count, on
//! BerExp's second byte and, with probability below 2^-30, on the approximation band —
//! the leaks the serial sampler already has (module docs of [`super`]) — or on the
//! domain checks, which a Falcon key always passes.
//! Each table entry is a safe wrapper around a whole `#[target_feature(enable = "avx2")]`
//! function; the table is only handed out by [`super::kernels`] after AVX2 was detected,
//! which is what makes the wrappers sound.

// Value-only intrinsics are safe inside `#[target_feature]` functions; loads and stores
// keep explicit `unsafe` blocks with their SAFETY reasoning.
#![allow(unused_unsafe)]

use super::portable::SIGMA;
#[cfg(feature = "fpr-emulated")]
use super::run_batch;
#[cfg(not(feature = "fpr-emulated"))]
use super::{sample_one, split_request, Window};
use super::{Request, SamplerKernels, Stream, RCDT_LIMBS, WINDOW};
#[cfg(not(feature = "fpr-emulated"))]
use crate::kernels::falcon::fpr;
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

pub static KERNELS: SamplerKernels = SamplerKernels {
    backend: Backend::Avx2,
    sample,
    sample_pair,
    gaussian0,
    chacha20x8,
    chacha20x16: None,
};

/// The AVX-512 backend's table with the emulated `Fpr`: the same kernels.
#[cfg(feature = "fpr-emulated")]
pub static KERNELS_AVX512: SamplerKernels = SamplerKernels {
    backend: Backend::Avx512,
    ..KERNELS
};

/// The table limbs transposed for three 8-lane vectors: `LIMBS[l][k]` holds limb `l` of
/// entries `8k .. 8k + 8`; the six lanes past the 18 entries are zero, and a zero entry
/// never exceeds a value, so they add nothing.
#[repr(C, align(32))]
struct Limbs([[[u32; 8]; 3]; 3]);

static LIMBS: Limbs = {
    let mut t = [[[0u32; 8]; 3]; 3];
    let mut i = 0;
    while i < 18 {
        let mut l = 0;
        while l < 3 {
            t[l][i / 8][i % 8] = RCDT_LIMBS[i][l];
            l += 1;
        }
        i += 1;
    }
    Limbs(t)
};

/// z0 for the limbs `v`: the borrow chain of the portable scan, in all lanes at once.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn rcdt_avx2(v: &[u32; 3]) -> i32 {
    let v0 = _mm256_set1_epi32(v[0] as i32);
    let v1 = _mm256_set1_epi32(v[1] as i32);
    let v2 = _mm256_set1_epi32(v[2] as i32);
    let mut acc = _mm256_setzero_si256();
    for k in 0..3 {
        // SAFETY: each row is 32 bytes, 32-byte aligned (`Limbs` is align(32)).
        let (w0, w1, w2) = unsafe {
            (
                _mm256_load_si256(LIMBS.0[0][k].as_ptr().cast()),
                _mm256_load_si256(LIMBS.0[1][k].as_ptr().cast()),
                _mm256_load_si256(LIMBS.0[2][k].as_ptr().cast()),
            )
        };
        let mut cc = _mm256_srli_epi32::<31>(_mm256_sub_epi32(v0, w0));
        cc = _mm256_srli_epi32::<31>(_mm256_sub_epi32(_mm256_sub_epi32(v1, w1), cc));
        cc = _mm256_srli_epi32::<31>(_mm256_sub_epi32(_mm256_sub_epi32(v2, w2), cc));
        acc = _mm256_add_epi32(acc, cc);
    }
    // Horizontal sum of the eight lane counts.
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// The serial sampler with the AVX2 table comparison (the emulated-`Fpr` build: its
/// floating point must not run on the FPU).
#[cfg(feature = "fpr-emulated")]
#[target_feature(enable = "avx2")]
unsafe fn sample_avx2(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    run_batch(stream, sigma_min, reqs, out, |v| rcdt_avx2(v))
}

/// Through the slot cache, pairs with equal 1/σ together (module docs).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
unsafe fn sample_avx2(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    sample_cached(stream, sigma_min, reqs, out)
}

/// Bytes per attempt when BerExp decides on its first byte.
#[cfg(not(feature = "fpr-emulated"))]
const SLOT_BYTES: usize = 11;
// Every slot load (16 bytes at a slot start, slots up to 7 past the last start) stays
// within the window and its padding.
#[cfg(not(feature = "fpr-emulated"))]
const _: () = assert!(LAST_SLOT_START + SLOT_BYTES * 7 + 16 <= WINDOW + super::WINDOW_PAD);

/// Last window position a slot may start at: its bytes then end at index 510, so the
/// `u64` read happens below 503 and no `u8` read empties the window; consuming whole
/// slots never triggers a refill, exactly as in the serial reads.
#[cfg(not(feature = "fpr-emulated"))]
const LAST_SLOT_START: usize = WINDOW - 1 - SLOT_BYTES;

/// Half-width of the undecided band around each threshold, on the scale of T (< 2^64):
/// 2^24, 256 times the proven bound on the approximation error (module docs).
#[cfg(not(feature = "fpr-emulated"))]
const APPROX_MARGIN: f64 = 16777216.0;

/// The coefficients of `fpr::expm_p63`'s polynomial (FACCT, 2^63 fixed point, highest
/// degree first), for the binary64 approximation only; a test checks the approximate
/// decisions against the exact `fpr::expm_p63` on random and boundary inputs.
#[cfg(not(feature = "fpr-emulated"))]
const EXPM_POLY: [u64; 13] = crate::kernels::falcon::fpr::EXPM_COEFFS;

/// `Σ_k (−1)^k·EXPM_POLY[12 − k]·r^k`, the real polynomial the fixed-point Horner
/// evaluation of `fpr::expm_p63` follows (scaled by 2^63), evaluated in binary64 by
/// Estrin's scheme (depth 5 instead of 12 dependent steps). Terms are below 2^63 and
/// there are about twenty roundings, so the result is within 2^16 of the real value;
/// the fixed-point evaluation is within 4 units of it (a truncation per step, damped by
/// r < ln 2 < 0.7, plus the truncation of r·2^63).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn poly_estrin(r: __m256d) -> __m256d {
    let a = |k: usize| {
        let c = EXPM_POLY[12 - k] as f64;
        _mm256_set1_pd(if k.is_multiple_of(2) { c } else { -c })
    };
    let lin = |k: usize| _mm256_add_pd(a(k), _mm256_mul_pd(a(k + 1), r));
    let r2 = _mm256_mul_pd(r, r);
    let r4 = _mm256_mul_pd(r2, r2);
    let r8 = _mm256_mul_pd(r4, r4);
    let q0 = _mm256_add_pd(lin(0), _mm256_mul_pd(lin(2), r2));
    let q1 = _mm256_add_pd(lin(4), _mm256_mul_pd(lin(6), r2));
    let q2 = _mm256_add_pd(lin(8), _mm256_mul_pd(lin(10), r2));
    let lo = _mm256_add_pd(q0, _mm256_mul_pd(q1, r4));
    let hi = _mm256_add_pd(q2, _mm256_mul_pd(a(12), r4));
    _mm256_add_pd(lo, _mm256_mul_pd(hi, r8))
}

/// Per-request constants of the fast path.
#[cfg(not(feature = "fpr-emulated"))]
#[derive(Clone, Copy)]
struct ReqConst {
    /// floor(mu).
    s: i32,
    /// mu − floor(mu) and 1/(2σ²), exactly as the serial code has them.
    r: __m256d,
    dss: __m256d,
    /// 2·ccs_fixed/2^64, with ccs_fixed = trunc(ccs·2^63)·2 the integer factor
    /// `fpr::expm_p63` applies: T = 2·E − 1 ≈ y·ccs2 for the polynomial value y.
    ccs2: __m256d,
}

#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn req_const(req: &Request, sigma_min: Fpr) -> ReqConst {
    let (s, r, dss, ccs) = split_request(req, sigma_min);
    let ccs_fixed = (ccs.mul(fpr::PTWO63).trunc() as u64) << 1;
    ReqConst {
        s: s as i32,
        r: _mm256_set1_pd(f64::from_bits(r.to_bits())),
        dss: _mm256_set1_pd(f64::from_bits(dss.to_bits())),
        ccs2: _mm256_set1_pd(ccs_fixed as f64 * (2.0 / 18446744073709551616.0)),
    }
}

/// Four slots' values shared by both requests.
#[cfg(not(feature = "fpr-emulated"))]
#[derive(Clone, Copy)]
struct Quad {
    /// z, and z0²·(1/(2σ0²)) (z0² is exact, as the serial code's integer square).
    z: __m256d,
    c: __m256d,
    /// The BerExp byte w.
    w: __m256d,
}

/// One request's decisions on four slots: bits (accept, reject) of the four lanes, set
/// when the attempt is surely accepted / surely rejected.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn decide4(rc: &ReqConst, q: &Quad) -> (u32, u32) {
    // x = (z − r)²·dss − z0²/(2σ0²), the serial code's operations (no fusion).
    let d = _mm256_sub_pd(q.z, rc.r);
    let x = _mm256_sub_pd(_mm256_mul_pd(_mm256_mul_pd(d, d), rc.dss), q.c);
    // x = s·ln 2 + rr (x >= 0, so truncation is the floor; s < 2^31).
    let s = _mm256_cvttpd_epi32(_mm256_mul_pd(
        x,
        _mm256_set1_pd(f64::from_bits(fpr::INV_LOG2.to_bits())),
    ));
    let rr = _mm256_sub_pd(
        x,
        _mm256_mul_pd(
            _mm256_cvtepi32_pd(s),
            _mm256_set1_pd(f64::from_bits(fpr::LOG2.to_bits())),
        ),
    );
    // T = 2·expm_p63(rr, ccs) − 1, approximately.
    let t = _mm256_mul_pd(poly_estrin(rr), rc.ccs2);
    // Thresholds w·2^(56+s') and (w+1)·2^(56+s'), s' = min(s, 63); 2^(56+s') is built
    // from its exponent field.
    let sw = _mm_min_epi32(s, _mm_set1_epi32(63));
    let unit = _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_add_epi64(
        _mm256_cvtepi32_epi64(sw),
        _mm256_set1_epi64x(1023 + 56),
    )));
    let lo = _mm256_mul_pd(q.w, unit);
    let hi = _mm256_add_pd(lo, unit);
    let margin = _mm256_set1_pd(APPROX_MARGIN);
    // A negative rr (a rounding corner of the reduction) or x (out of the documented
    // domain) is left to the exact code.
    let zero = _mm256_setzero_pd();
    let ok = _mm256_and_pd(
        _mm256_cmp_pd::<_CMP_GE_OQ>(rr, zero),
        _mm256_cmp_pd::<_CMP_GE_OQ>(x, zero),
    );
    let a = _mm256_and_pd(
        ok,
        _mm256_cmp_pd::<_CMP_GE_OQ>(t, _mm256_add_pd(hi, margin)),
    );
    let j = _mm256_and_pd(
        ok,
        _mm256_cmp_pd::<_CMP_LT_OQ>(_mm256_add_pd(t, margin), lo),
    );
    (_mm256_movemask_pd(a) as u32, _mm256_movemask_pd(j) as u32)
}

/// The table constants as 8-lane vectors: `RCDT_VEC[k][l]` = limb l of entry k in every
/// lane.
#[cfg(not(feature = "fpr-emulated"))]
#[repr(C, align(32))]
struct RcdtVec([[[u32; 8]; 3]; 18]);

#[cfg(not(feature = "fpr-emulated"))]
static RCDT_VEC: RcdtVec = {
    let mut t = [[[0u32; 8]; 3]; 18];
    let mut k = 0;
    while k < 18 {
        let mut l = 0;
        while l < 3 {
            let mut i = 0;
            while i < 8 {
                t[k][l][i] = RCDT_LIMBS[k][l];
                i += 1;
            }
            l += 1;
        }
        k += 1;
    }
    RcdtVec(t)
};

// The zero limbs `rcdt8` relies on.
#[cfg(not(feature = "fpr-emulated"))]
const _: () = {
    let mut k = 10;
    while k < 18 {
        assert!(RCDT_LIMBS[k][2] == 0);
        assert!(k < 14 || RCDT_LIMBS[k][1] == 0);
        k += 1;
    }
};

/// Base sampler on eight draws (24-bit limbs v0, v1, v2 per lane): z0 = number of table
/// entries above the draw. Entries 10..18 have a zero top limb and 14..18 also a zero
/// middle limb; for them `draw < entry` needs the draw's upper limbs to be zero, which
/// saves the borrow steps (same result as the full comparison).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn rcdt8(v0: __m256i, v1: __m256i, v2: __m256i) -> __m256i {
    let ld = |k: usize, l: usize| {
        // SAFETY: a 32-byte aligned row of the static table.
        unsafe { _mm256_load_si256(RCDT_VEC.0[k][l].as_ptr().cast()) }
    };
    // Limbs are below 2^24, so signed 32-bit comparisons and borrows are exact.
    let mut acc = _mm256_setzero_si256();
    for k in 0..10 {
        let b0 = _mm256_cmpgt_epi32(ld(k, 0), v0);
        let b1 = _mm256_srai_epi32::<31>(_mm256_add_epi32(_mm256_sub_epi32(v1, ld(k, 1)), b0));
        let b2 = _mm256_srai_epi32::<31>(_mm256_add_epi32(_mm256_sub_epi32(v2, ld(k, 2)), b1));
        acc = _mm256_sub_epi32(acc, b2);
    }
    let zero = _mm256_setzero_si256();
    let top0 = _mm256_cmpeq_epi32(v2, zero);
    let top_mid0 = _mm256_and_si256(top0, _mm256_cmpeq_epi32(v1, zero));
    for k in 10..14 {
        let b0 = _mm256_cmpgt_epi32(ld(k, 0), v0);
        let b1 = _mm256_srai_epi32::<31>(_mm256_add_epi32(_mm256_sub_epi32(v1, ld(k, 1)), b0));
        acc = _mm256_sub_epi32(acc, _mm256_and_si256(b1, top0));
    }
    for k in 14..18 {
        let b0 = _mm256_cmpgt_epi32(ld(k, 0), v0);
        acc = _mm256_sub_epi32(acc, _mm256_and_si256(b0, top_mid0));
    }
    acc
}

// ---------------------------------------------------------------------------------------
// Slot cache (the scheme of `avx512.rs`): the slots' z, c and BerExp byte are computed
// once per window, eight at a time, and each pair of requests is decided on the eight
// cached slots at the read position with the exponential approximation of `decide4`.

/// Computes batch `b` (slots `8b .. 8b + 8`) of the cache's current anchor: layout
/// [`super::CACHE_AVX2`], the BerExp byte as `f64` in `ta`.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn batch(w: &mut Window, b: usize) {
    let wp: *mut Window = w;
    let src = wp as *const u8;
    // SAFETY: `wp` comes from `&mut Window`; the cache is written only through this
    // reference, the bytes only read through `src` (disjoint fields).
    let cache = unsafe { &mut (*wp).cache };
    // The batch's first slot is held (8b < count), so q <= LAST_SLOT_START.
    let q = (cache.start + 8 * SLOT_BYTES * b).min(LAST_SLOT_START);
    // SAFETY: slot i of this batch starts at q + 11i <= LAST_SLOT_START + 77, and the
    // 16 bytes from there lie within `bytes` and `pad`, contiguous in the repr(C)
    // `Window` whose whole extent `src` covers (const assertion above).
    let ld = |i: usize| unsafe { _mm_loadu_si128(src.add(q + SLOT_BYTES * i).cast()) };
    let shuf = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, -1, -1, 0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8,
        -1, 9, 10, -1, -1,
    );
    let pair = |i: usize| {
        _mm256_shuffle_epi8(
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(ld(i)), ld(i + 4)),
            shuf,
        )
    };
    let (a0, a1, a2, a3) = (pair(0), pair(1), pair(2), pair(3));
    let t0 = _mm256_unpacklo_epi32(a0, a1);
    let t1 = _mm256_unpacklo_epi32(a2, a3);
    let t2 = _mm256_unpackhi_epi32(a0, a1);
    let t3 = _mm256_unpackhi_epi32(a2, a3);
    let v0 = _mm256_unpacklo_epi64(t0, t1);
    let v1 = _mm256_unpackhi_epi64(t0, t1);
    let v2 = _mm256_unpacklo_epi64(t2, t3);
    let tail = _mm256_unpackhi_epi64(t2, t3);
    let z0 = rcdt8(v0, v1, v2);
    // z = b + (2b − 1)·z0, i.e. z0 + 1 (b = 1) or −z0 = !z0 + 1 (b = 0).
    let ones = _mm256_set1_epi32(1);
    let bm = _mm256_sub_epi32(_mm256_and_si256(tail, ones), ones);
    let z = _mm256_add_epi32(_mm256_xor_si256(z0, bm), ones);
    let wv = _mm256_srli_epi32::<8>(tail);
    let c0 = _mm256_set1_pd(f64::from_bits(fpr::INV_2SQRSIGMA0.to_bits()));
    let o = (8 * b).min(super::CACHE_LEN - 8);
    let halves = |v: __m256i| (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let (z_lo, z_hi) = halves(z);
    let (z0_lo, z0_hi) = halves(z0);
    let (w_lo, w_hi) = halves(wv);
    for (off, zh, z0h, wh) in [(0usize, z_lo, z0_lo, w_lo), (4, z_hi, z0_hi, w_hi)] {
        let z0d = _mm256_cvtepi32_pd(z0h);
        // SAFETY: o + off + 4 <= CACHE_LEN.
        unsafe {
            _mm256_storeu_pd(cache.zd.as_mut_ptr().add(o + off), _mm256_cvtepi32_pd(zh));
            // z0² is exact, as the serial code's integer square.
            _mm256_storeu_pd(
                cache.c.as_mut_ptr().add(o + off),
                _mm256_mul_pd(_mm256_mul_pd(z0d, z0d), c0),
            );
            _mm256_storeu_pd(cache.ta.as_mut_ptr().add(o + off), _mm256_cvtepi32_pd(wh));
        }
    }
}

#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn locate(stream: &mut Stream<'_>) -> Option<(usize, usize)> {
    super::locate(stream, super::CACHE_AVX2, |w, b| batch(w, b))
}

/// One request's (sure accept, sure reject) bit masks on the cached slots `k .. k + 8`.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn masks8(w: &Window, k: usize, rc: &ReqConst) -> (u32, u32) {
    let (qa, qb) = quads(w, k);
    let (a0, j0) = decide4(rc, &qa);
    let (a1, j1) = decide4(rc, &qb);
    (a0 | (a1 << 4), j0 | (j1 << 4))
}

/// The cached slots `k .. k + 4` and `k + 4 .. k + 8`.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn quads(w: &Window, k: usize) -> (Quad, Quad) {
    let c = &w.cache;
    // SAFETY: k < count <= 46, so k + 8 <= CACHE_LEN.
    let ld =
        |a: &[f64; super::CACHE_LEN], o: usize| unsafe { _mm256_loadu_pd(a.as_ptr().add(k + o)) };
    let qa = Quad {
        z: ld(&c.zd, 0),
        c: ld(&c.c, 0),
        w: ld(&c.ta, 0),
    };
    let qb = Quad {
        z: ld(&c.zd, 4),
        c: ld(&c.c, 4),
        w: ld(&c.ta, 4),
    };
    (qa, qb)
}

/// The cached z of slot `k + i` where `sel = 1 << i` (i < 8), selected with masks.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn select8(w: &Window, k: usize, sel: u32) -> f64 {
    let c = &w.cache;
    // SAFETY: as in `masks8`.
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_pd(c.zd.as_ptr().add(k)),
            _mm256_loadu_pd(c.zd.as_ptr().add(k + 4)),
        )
    };
    let bits = _mm256_setr_epi64x(1, 2, 4, 8);
    let m = |s: u32| {
        let v = _mm256_and_si256(_mm256_set1_epi64x(s as i64), bits);
        _mm256_castsi256_pd(_mm256_cmpeq_epi64(v, bits))
    };
    let v = _mm256_or_pd(_mm256_and_pd(lo, m(sel)), _mm256_and_pd(hi, m(sel >> 4)));
    // One lane holds z, the others +0.0 (all bits clear).
    let h = _mm_or_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd::<1>(v));
    _mm_cvtsd_f64(_mm_or_pd(h, _mm_unpackhi_pd(h, h)))
}

/// The serial code for one request (AVX2 table scan), as `f64`.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
fn serial(stream: &mut Stream<'_>, sigma_min: Fpr, req: &Request) -> f64 {
    sample_one(stream, sigma_min, req, &|v: &[u32; 3]| rcdt_avx2(v)) as f64
}

/// `n` (1 or 2) requests with the same 1/σ, in order, through the cache (the loop of
/// `avx512::run`, with exponential-domain decisions).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
fn run(stream: &mut Stream<'_>, sigma_min: Fpr, mu: [Fpr; 2], isigma: Fpr, n: usize) -> [f64; 2] {
    let mut out = [0.0; 2];
    let isg = f64::from_bits(isigma.to_bits());
    let ccs = isg * f64::from_bits(sigma_min.to_bits());
    let muf = mu.map(|m| f64::from_bits(m.to_bits()));
    let mut j = 0;
    if !(super::in_domain(muf[0], isg, ccs) & ((n < 2) | super::in_domain(muf[1], isg, ccs))) {
        while j < n {
            out[j] = serial(stream, sigma_min, &Request { mu: mu[j], isigma });
            j += 1;
        }
        return out;
    }
    let rc = [
        req_const(&Request { mu: mu[0], isigma }, sigma_min),
        req_const(&Request { mu: mu[1], isigma }, sigma_min),
    ];
    while j < n {
        let Some((k, avail)) = locate(stream) else {
            out[j] = serial(stream, sigma_min, &Request { mu: mu[j], isigma });
            j += 1;
            continue;
        };
        let start = stream.window.cache.start;
        let v = (1u32 << avail) - 1;
        let end = 1u32 << avail;
        let (a0, j0) = masks8(stream.window, k, &rc[j]);
        let stop0 = (v & !j0) | end;
        let f0 = stop0 & stop0.wrapping_neg();
        let ok0 = f0 & a0 & v != 0;
        if j + 1 < n {
            let upto0 = (f0 << 1).wrapping_sub(1);
            let (a1, j1) = masks8(stream.window, k, &rc[j + 1]);
            let stop1 = (v & !upto0 & !j1) | end;
            let f1 = stop1 & stop1.wrapping_neg();
            if ok0 & (f1 & a1 & v != 0) {
                out[j] = rc[j].s as f64 + select8(stream.window, k, f0);
                out[j + 1] = rc[j + 1].s as f64 + select8(stream.window, k, f1);
                stream.window.pos = start + SLOT_BYTES * (k + f1.trailing_zeros() as usize + 1);
                return out;
            }
        }
        if ok0 {
            out[j] = rc[j].s as f64 + select8(stream.window, k, f0);
            stream.window.pos = start + SLOT_BYTES * (k + f0.trailing_zeros() as usize + 1);
            j += 1;
            continue;
        }
        if f0 == end {
            // Every cached slot here rejected: consume them and go on.
            stream.window.pos = start + SLOT_BYTES * (k + avail);
            continue;
        }
        // Undecided at this slot: the serial code takes over there.
        stream.window.pos = start + SLOT_BYTES * (k + f0.trailing_zeros() as usize);
        out[j] = serial(stream, sigma_min, &Request { mu: mu[j], isigma });
        j += 1;
    }
    out
}

/// Two requests with the same 1/σ: both decided on the same eight cached slots when
/// possible, otherwise [`run`].
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
fn pair_cached(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    isigma: Fpr,
) -> [f64; 2] {
    let isg = f64::from_bits(isigma.to_bits());
    let ccs = isg * f64::from_bits(sigma_min.to_bits());
    let (m0, m1) = (f64::from_bits(mu0.to_bits()), f64::from_bits(mu1.to_bits()));
    if super::in_domain(m0, isg, ccs) & super::in_domain(m1, isg, ccs) {
        if let Some((k, avail)) = locate(stream) {
            let r0 = req_const(&Request { mu: mu0, isigma }, sigma_min);
            let r1 = req_const(&Request { mu: mu1, isigma }, sigma_min);
            // Slots k .. k + 4 first; the next four only when these do not decide both
            // requests (a branch on the rejection count, the sampler's documented leak).
            let (qa, qb) = quads(stream.window, k);
            let (mut a0, mut j0) = decide4(&r0, &qa);
            let (mut a1, mut j1) = decide4(&r1, &qa);
            let mut v = (1u32 << avail.min(4)) - 1;
            let mut end = 1u32 << avail.min(4);
            let stop0 = (v & !j0) | end;
            let f0 = stop0 & stop0.wrapping_neg();
            let upto0 = (f0 << 1).wrapping_sub(1);
            let stop1 = (v & !upto0 & !j1) | end;
            let f1 = stop1 & stop1.wrapping_neg();
            if !((f0 & a0 & v != 0) & (f1 & a1 & v != 0)) {
                let (x0, y0) = decide4(&r0, &qb);
                let (x1, y1) = decide4(&r1, &qb);
                a0 |= x0 << 4;
                j0 |= y0 << 4;
                a1 |= x1 << 4;
                j1 |= y1 << 4;
                v = (1u32 << avail) - 1;
                end = 1u32 << avail;
            }
            let stop0 = (v & !j0) | end;
            let f0 = stop0 & stop0.wrapping_neg();
            let upto0 = (f0 << 1).wrapping_sub(1);
            let stop1 = (v & !upto0 & !j1) | end;
            let f1 = stop1 & stop1.wrapping_neg();
            if (f0 & a0 & v != 0) & (f1 & a1 & v != 0) {
                let out = [
                    r0.s as f64 + select8(stream.window, k, f0),
                    r1.s as f64 + select8(stream.window, k, f1),
                ];
                let w = &mut *stream.window;
                w.pos = w.cache.start + SLOT_BYTES * (k + f1.trailing_zeros() as usize + 1);
                return out;
            }
        }
    }
    run(stream, sigma_min, [mu0, mu1], isigma, 2)
}

/// The batch entry through the cache: pairs with equal 1/σ together.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
fn sample_cached(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    let n = reqs.len().min(out.len());
    let mut i = 0;
    while i < n {
        let m = if i + 1 < n && reqs[i].isigma.to_bits() == reqs[i + 1].isigma.to_bits() {
            2
        } else {
            1
        };
        let mu1 = reqs[(i + 1).min(n - 1)].mu;
        let r = if m == 2 {
            pair_cached(stream, sigma_min, reqs[i].mu, mu1, reqs[i].isigma)
        } else {
            run(stream, sigma_min, [reqs[i].mu, mu1], reqs[i].isigma, 1)
        };
        for (o, &x) in out[i..i + m].iter_mut().zip(&r) {
            *o = x as i32;
        }
        i += m;
    }
}

/// See [`SamplerKernels::sample`].
pub fn sample(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    // SAFETY: the table is only handed out when AVX2 is available (module docs).
    unsafe { sample_avx2(stream, sigma_min, reqs, out) }
}

/// See [`SamplerKernels::sample_pair`].
pub fn sample_pair(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    isigma: Fpr,
) -> (Fpr, Fpr) {
    #[cfg(not(feature = "fpr-emulated"))]
    {
        // SAFETY: as for `sample`.
        let [a, b] = unsafe { pair_cached(stream, sigma_min, mu0, mu1, isigma) };
        (Fpr::from_bits(a.to_bits()), Fpr::from_bits(b.to_bits()))
    }
    #[cfg(feature = "fpr-emulated")]
    super::pair_via_batch(sample, stream, sigma_min, mu0, mu1, isigma)
}

#[target_feature(enable = "avx2")]
unsafe fn gaussian0_avx2(stream: &mut Stream<'_>) -> i32 {
    let v = super::draw72(stream);
    rcdt_avx2(&v)
}

/// See [`SamplerKernels::gaussian0`].
pub fn gaussian0(stream: &mut Stream<'_>) -> i32 {
    // SAFETY: as for `sample`.
    unsafe { gaussian0_avx2(stream) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<L>(x), _mm256_srli_epi32::<R>(x))
}

/// Rotations by 16 and 8 as byte shuffles (cheaper than two shifts and an or).
#[target_feature(enable = "avx2")]
#[inline]
fn rotl16(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    );
    _mm256_shuffle_epi8(x, m)
}

#[target_feature(enable = "avx2")]
#[inline]
fn rotl8(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
        15, 12, 13, 14,
    );
    _mm256_shuffle_epi8(x, m)
}

#[target_feature(enable = "avx2")]
#[inline]
fn quarter(s: &mut [__m256i; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = _mm256_add_epi32(s[a], s[b]);
    s[d] = rotl16(_mm256_xor_si256(s[d], s[a]));
    s[c] = _mm256_add_epi32(s[c], s[d]);
    s[b] = rotl::<12, 20>(_mm256_xor_si256(s[b], s[c]));
    s[a] = _mm256_add_epi32(s[a], s[b]);
    s[d] = rotl8(_mm256_xor_si256(s[d], s[a]));
    s[c] = _mm256_add_epi32(s[c], s[d]);
    s[b] = rotl::<7, 25>(_mm256_xor_si256(s[b], s[c]));
}

#[target_feature(enable = "avx2")]
unsafe fn chacha20x8_avx2(key_iv: &[u32; 12], counter: u64, out: &mut [u8; WINDOW]) {
    let mut init = [_mm256_setzero_si256(); 16];
    for (v, c) in SIGMA.iter().enumerate() {
        init[v] = _mm256_set1_epi32(*c as i32);
    }
    for v in 0..12 {
        init[4 + v] = _mm256_set1_epi32(key_iv[v] as i32);
    }
    // Lane u: counter + u, XORed into words 14 (low half) and 15 (high half).
    let mut lo = [0u32; 8];
    let mut hi = [0u32; 8];
    for u in 0..8 {
        let cc = counter.wrapping_add(u as u64);
        lo[u] = cc as u32;
        hi[u] = (cc >> 32) as u32;
    }
    // SAFETY: `lo` and `hi` are 32 bytes each (unaligned loads).
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_si256(lo.as_ptr().cast()),
            _mm256_loadu_si256(hi.as_ptr().cast()),
        )
    };
    init[14] = _mm256_xor_si256(init[14], lo);
    init[15] = _mm256_xor_si256(init[15], hi);
    let mut s = init;
    for _ in 0..10 {
        quarter(&mut s, 0, 4, 8, 12);
        quarter(&mut s, 1, 5, 9, 13);
        quarter(&mut s, 2, 6, 10, 14);
        quarter(&mut s, 3, 7, 11, 15);
        quarter(&mut s, 0, 5, 10, 15);
        quarter(&mut s, 1, 6, 11, 12);
        quarter(&mut s, 2, 7, 8, 13);
        quarter(&mut s, 3, 4, 9, 14);
    }
    // Word v of the eight instances is one register: 32 contiguous bytes at 32v.
    for v in 0..16 {
        let w = _mm256_add_epi32(s[v], init[v]);
        // SAFETY: bytes 32v .. 32v + 32 lie within the 512-byte `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(32 * v).cast(), w) };
    }
    // Key-derived registers: clear the stack copies.
    crate::wipe::wipe(&mut s, [_mm256_setzero_si256(); 16]);
    crate::wipe::wipe(&mut init, [_mm256_setzero_si256(); 16]);
}

/// See [`SamplerKernels::chacha20x8`].
pub fn chacha20x8(key_iv: &[u32; 12], counter: u64, out: &mut [u8; WINDOW]) {
    // SAFETY: as for `sample`; the stores stay within the 512-byte `out` (16 × 32 bytes).
    unsafe { chacha20x8_avx2(key_iv, counter, out) }
}

#[cfg(all(test, not(feature = "fpr-emulated")))]
mod tests {
    use super::*;

    /// The exact first-byte outcome of BerExp (serial code): Some(accept) when the
    /// random byte `w` differs from the threshold's top byte, None when they are equal.
    fn exact(x: Fpr, ccs: Fpr, w: u32) -> Option<bool> {
        let s = x.mul(fpr::INV_LOG2).trunc() as i32;
        let r = x.sub(Fpr::of(s as i64).mul(fpr::LOG2));
        let sw = (s as u32).min(63);
        let z = (fpr::expm_p63(r, ccs) << 1).wrapping_sub(1) >> sw;
        let top = (z >> 56) as u32;
        (w != top).then_some(w < top)
    }

    /// Every sure decision of the approximate test equals the exact one, on random and
    /// on near-threshold inputs, and undecided lanes are (almost) only the equal-byte
    /// ones.
    #[test]
    fn approximate_decisions_are_exact() {
        if !Backend::Avx2.is_available() {
            return;
        }
        let mut st = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            st
        };
        let (mut undecided, mut spurious) = (0u32, 0u32);
        for round in 0..200_000u32 {
            let logn = 1 + (next() % 10) as usize;
            let sm = f64::from_bits(fpr::SIGMA_MIN[logn].to_bits());
            // σ in [σ_min, σ0]: Falcon's leaves, where x >= 0.
            let sigma = sm + (next() >> 11) as f64 / (1u64 << 53) as f64 * (1.8205 - sm);
            let mu = ((next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 100.0;
            let req = Request {
                mu: Fpr::from_bits(mu.to_bits()),
                isigma: Fpr::from_bits((1.0 / sigma).to_bits()),
            };
            let (_, r, dss, ccs) = split_request(&req, fpr::SIGMA_MIN[logn]);
            // SAFETY: AVX2 checked above.
            unsafe {
                let rc = req_const(&req, fpr::SIGMA_MIN[logn]);
                let mut zv = [0i32; 4];
                let mut z0v = [0i32; 4];
                let mut wv = [0u32; 4];
                let mut xs = [Fpr::default(); 4];
                for l in 0..4 {
                    let z0 = (next() % 19) as i32;
                    let b = (next() & 1) as i32;
                    let z = b + ((b << 1) - 1) * z0;
                    let x = Fpr::of(z as i64).sub(r).sqr().mul(dss);
                    xs[l] = x.sub(Fpr::of((z0 * z0) as i64).mul(fpr::INV_2SQRSIGMA0));
                    zv[l] = z;
                    z0v[l] = z0;
                    // Half the time, a byte next to the threshold byte.
                    wv[l] = if round % 2 == 0 {
                        (next() & 0xFF) as u32
                    } else {
                        let s = xs[l].mul(fpr::INV_LOG2).trunc() as i32;
                        let rr = xs[l].sub(Fpr::of(s as i64).mul(fpr::LOG2));
                        let zz =
                            (fpr::expm_p63(rr, ccs) << 1).wrapping_sub(1) >> (s as u32).min(63);
                        let top = (zz >> 56) as i64;
                        (top + (next() % 3) as i64 - 1).clamp(0, 255) as u32
                    };
                }
                let cvt = |v: [i32; 4]| _mm256_cvtepi32_pd(_mm_loadu_si128(v.as_ptr().cast()));
                let z0d = cvt(z0v);
                let q = Quad {
                    z: cvt(zv),
                    c: _mm256_mul_pd(
                        _mm256_mul_pd(z0d, z0d),
                        _mm256_set1_pd(f64::from_bits(fpr::INV_2SQRSIGMA0.to_bits())),
                    ),
                    w: cvt(wv.map(|w| w as i32)),
                };
                let (acc, rej) = decide4(&rc, &q);
                for l in 0..4 {
                    let want = exact(xs[l], ccs, wv[l]);
                    let (a, j) = ((acc >> l) & 1 == 1, (rej >> l) & 1 == 1);
                    assert!(!(a && j));
                    match want {
                        Some(true) => assert!(!j, "round {round}: wrongly rejected"),
                        Some(false) => assert!(!a, "round {round}: wrongly accepted"),
                        None => assert!(!a && !j, "round {round}: equal byte decided"),
                    }
                    if !a && !j {
                        undecided += 1;
                        spurious += want.is_some() as u32;
                    }
                }
            }
        }
        // Equal bytes are common here by construction; undecided lanes with differing
        // bytes (the approximation's band) must be vanishingly rare.
        assert!(undecided > 0);
        assert!(
            spurious <= 2,
            "{spurious} lanes left undecided by the margin"
        );
    }
}
