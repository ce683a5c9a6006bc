//! AVX-512 SamplerZ kernel (x86-64, native `Fpr` builds; with the emulated `Fpr` the
//! AVX-512 backend uses the AVX2 kernels), and ChaCha20 sixteen blocks at a time
//! ([`chacha20x16`]: two windows per call, rotations by `vprold`). The eight-block
//! ChaCha20 and the lone base sampler are the AVX2 kernels.
//!
//! # What limits the sampler
//! ffSampling asks for one pair of integers at a time, and the centres of each pair
//! depend on the integers of the previous ones, so the sampler's *latency* from a
//! centre to its integer is what a signature pays, about a thousand times. This kernel
//! moves everything that does not depend on the centre off that path:
//!
//! * **Slot cache.** As in the AVX2 kernel, the bytes ahead of the read position are
//!   cut into 11-byte *slots* (one attempt each: 8 + 1 bytes of base-sampler draw, a
//!   sign byte, the first BerExp byte), but once per window rather than per call: the
//!   window's slot cache (`SlotCache`) holds, for every slot from an anchor
//!   position to the end of the window, the candidate `z`, `c = z0²/(2σ0²)` and two
//!   thresholds derived from the BerExp byte `w` (below), eight slots per vector. A
//!   call finds its read position in the cache (or rebuilds the cache from there:
//!   after a refill, or after an attempt that did not take exactly 11 bytes).
//! * **Log-domain BerExp.** BerExp's first byte accepts the attempt when
//!   `w < ⌊T/2^(56+s)⌋` and rejects it when `w > ⌊T/2^(56+s)⌋`, where
//!   `T/2^s = 2·expm_p63(r, ccs) − 1 >> s ≈ 2^64·ccs·e^(−x)` (module docs of
//!   [`super`]). Taking logarithms, the attempt is accepted when
//!   `x ≤ 8 ln 2 − ln(w + 1) + ln ccs` and rejected when `x > 8 ln 2 − ln w + ln ccs`;
//!   the thresholds `8 ln 2 − ln(w+1) + c` and `8 ln 2 − ln w + c` are computed once
//!   per slot (in the cache) and `ln ccs` once per pair (or once per leaf for an
//!   expanded key: [`super::Leaf`], [`sample_leaf`]), so a request's path from its
//!   centre is: `r = mu − ⌊mu⌋`, `y = (z − r)²·dss` (= `x + c`, the serial code's
//!   operations), two comparisons per slot, and mask arithmetic.
//!
//! # Exactness
//! Only decisions that surely agree with the serial (reference) code are taken:
//! * the serial code's `T` is `2^64·ccs·e^(−r)·(1 + ε)` with `|ε| < 2^-50.8` (the FACCT
//!   polynomial of `fpr::expm_p63` is within `2^-51` of `e^(−r)` on `[0, ln 2]`, plus
//!   fixed-point truncations of relative size `2^-59` or less for `ccs >= 1/4`), and
//!   its `r` is `x − s·ln 2` up to `2^-44.8` (`s ≤ 2^9` times the rounding of `LOG2`
//!   and of the product): so its decisions are those of the exact real comparisons
//!   above with `x` moved by less than `2^-44.5`;
//! * `y` carries the same rounding as the serial `x + c` (`2^-46`), the thresholds are
//!   within `2^-49` (a 16-entry reciprocal table and a degree-9 series for `ln`, see
//!   `ln_parts`), and their sums with `c` and `ln ccs` round by `2^-47`;
//! * a slot is decided only when `y` is at least `MARGIN` = `2^-32` away from the
//!   threshold (far more than the sum of these errors); a slot within the margin (an
//!   event of probability about `2^-31` per attempt), whose byte equals the threshold
//!   byte (both thresholds straddle `y`: the serial code reads a second byte,
//!   probability 1/256), or where the serial code's reduction `r = x − s·ln 2` comes
//!   out negative (a rounding corner where `expm_p63` leaves its domain; detected with
//!   the serial operations, off the latency path) is left to the serial code, which
//!   then continues from that attempt.
//! * when `s >= 64` the serial code saturates the shift at 63; its top byte is then 0,
//!   and so is the log-domain one (`x > 44 > 8 ln 2`): the byte rejects unless it is 0,
//!   which both leave undecided.
//! * requests outside the analysed domain (`|mu| >= 2^31 − 64`, `1/σ` outside
//!   `[1/4, 4]`, `ccs` outside `[1/4, 1)`, NaN) go to the serial code entirely.
//!
//! The selection replays the serial order on bit masks as the AVX2 kernel does:
//! request 0 takes the first of the eight slots it accepts (every earlier one surely
//! rejected), request 1 the first later one. Outputs and stream consumption are
//! exactly the serial code's.
//!
//! # Constant time
//! No memory index or branch depends on a centre, on σ or on sampled values beyond the
//! sampler's documented leaks (module docs of [`super`]): the cache is indexed by the
//! read position (public: it counts the attempts), the selected slot is extracted with
//! a compress instruction, and the branches to the slower paths are taken on the
//! rejection count (more than eight attempts for a pair, or the window running out),
//! on BerExp reading a second byte, on the domain checks (always passed with a Falcon
//! key), or — with probability below `2^-30` per attempt — on the margin and rounding
//! corner above, which reveal no more than the second-byte event does (that the random
//! byte is close to the acceptance threshold).
//!
//! Each table entry is a safe wrapper around a whole `#[target_feature]` function; the
//! table is only handed out by [`super::kernels`] after AVX-512 (F, VL, BW, DQ) and
//! AVX2 were detected, which is what makes the wrappers sound.

// Value-only intrinsics are safe inside `#[target_feature]` functions; loads and stores
// keep explicit `unsafe` blocks with their SAFETY reasoning.
#![allow(unused_unsafe)]

use super::avx2::{self, rcdt_avx2};
use super::{sample_one, Leaf, Request, SamplerKernels, SlotCache, Stream, Window};
use super::{CACHE_AVX512, CACHE_LEN, LAST_SLOT_START, LN2, MARGIN, RCDT, SLOT, WINDOW};
use crate::kernels::falcon::fpr::{self, Fpr};
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

pub(super) static KERNELS: SamplerKernels = SamplerKernels {
    backend: Backend::Avx512,
    sample,
    sample_pair,
    sample_leaf,
    gaussian0: avx2::gaussian0,
    chacha20x8: avx2::chacha20x8,
    chacha20x16: Some(chacha20x16),
};

/// Most slots a cache holds (anchored at 0).
const MAX_SLOTS: usize = LAST_SLOT_START / SLOT + 1;
// Rebuilds write whole vectors of eight, and a lookup loads eight from any slot held.
const _: () = assert!(MAX_SLOTS.div_ceil(8) * 8 <= CACHE_LEN && MAX_SLOTS - 1 + 8 <= CACHE_LEN);
// The rebuild's 16-byte loads (slots up to seven past the last one held) stay within the
// window and its padding.
const _: () = assert!(LAST_SLOT_START + 7 * SLOT + 16 <= WINDOW + super::WINDOW_PAD);

/// Low 64 bits and top 8 bits of the [`RCDT`] entries.
const RCDT_LO: [u64; 18] = {
    let mut t = [0u64; 18];
    let mut k = 0;
    while k < 18 {
        t[k] = RCDT[k] as u64;
        k += 1;
    }
    t
};
const RCDT_HI: [u64; 18] = {
    let mut t = [0u64; 18];
    let mut k = 0;
    while k < 18 {
        t[k] = (RCDT[k] >> 64) as u64;
        k += 1;
    }
    t
};

#[inline(always)]
fn f(x: Fpr) -> f64 {
    f64::from_bits(x.to_bits())
}

/// `ln v = e·ln 2 + s` as `(e, s)`, for positive normal `v`: `v = 2^e·m` with `m` in
/// `[1, 2)`, `u = m·RCP[j] − 1` (`j` the top four fraction bits of `m`; `|u| < 0.0304`)
/// and `s = LNR[j] + ln(1 + u)`, the series to degree 9 (truncation below `2^-53`).
/// `s` is within `2^-51` of its real value for the integers 1..=256 (where `m·RCP[j]`
/// is exact) and for `v` in `[1/4, 1)`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn ln_parts(v: __m512d, rcp: (__m512d, __m512d), lnr: (__m512d, __m512d)) -> (__m512d, __m512d) {
    let m = _mm512_getmant_pd::<_MM_MANT_NORM_1_2, _MM_MANT_SIGN_ZERO>(v);
    let e = _mm512_getexp_pd(v);
    // The permutes read only the low four bits of each index: the top fraction bits.
    let j = _mm512_srli_epi64::<48>(_mm512_castpd_si512(m));
    let r = _mm512_permutex2var_pd(rcp.0, j, rcp.1);
    let l = _mm512_permutex2var_pd(lnr.0, j, lnr.1);
    let u = _mm512_fmadd_pd(m, r, _mm512_set1_pd(-1.0));
    let c = |k: u32| {
        let v = 1.0 / k as f64;
        _mm512_set1_pd(if k.is_multiple_of(2) { -v } else { v })
    };
    // ln(1 + u) = u·P(u), P of degree 8 by Estrin's scheme (short latency: `ln ccs` is
    // computed per pair).
    let fma = |a: __m512d, b: __m512d, c: __m512d| _mm512_fmadd_pd(a, b, c);
    let u2 = _mm512_mul_pd(u, u);
    let u4 = _mm512_mul_pd(u2, u2);
    let p01 = fma(c(2), u, c(1));
    let p23 = fma(c(4), u, c(3));
    let p45 = fma(c(6), u, c(5));
    let p67 = fma(c(8), u, c(7));
    let p03 = fma(p23, u2, p01);
    let p47 = fma(p67, u2, p45);
    let p07 = fma(p47, u4, p03);
    let p = fma(_mm512_mul_pd(u4, u4), c(9), p07);
    let q = _mm512_mul_pd(p, u);
    (e, _mm512_add_pd(l, q))
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn tables() -> ((__m512d, __m512d), (__m512d, __m512d)) {
    // SAFETY: two 8-value halves of each 16-value static table.
    let (rcp, lnr) = super::ln_tables();
    unsafe {
        (
            (
                _mm512_loadu_pd(rcp.as_ptr()),
                _mm512_loadu_pd(rcp.as_ptr().add(8)),
            ),
            (
                _mm512_loadu_pd(lnr.as_ptr()),
                _mm512_loadu_pd(lnr.as_ptr().add(8)),
            ),
        )
    }
}

/// `8·ln 2 − ln v` (see [`ln_parts`]).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn threshold(v: __m512d, rcp: (__m512d, __m512d), lnr: (__m512d, __m512d)) -> __m512d {
    let (e, s) = ln_parts(v, rcp, lnr);
    _mm512_fmsub_pd(
        _mm512_sub_pd(_mm512_set1_pd(8.0), e),
        _mm512_set1_pd(LN2),
        s,
    )
}

/// Base sampler on eight 72-bit draws `lo + 2^64·hi`: the number of [`RCDT`] entries
/// above each (masked unsigned 64-bit comparisons; entries 5..18 have a zero top byte,
/// so they only count when `hi = 0`).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn rcdt_count(lo: __m512i, hi: __m512i) -> __m512i {
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi64(1);
    let hz = _mm512_cmpeq_epi64_mask(hi, zero);
    // Entry k's "draw < entry" mask (constant folded per entry once unrolled).
    let lt = |k: usize| {
        let lk = _mm512_set1_epi64(RCDT_LO[k] as i64);
        if RCDT_HI[k] == 0 {
            _mm512_mask_cmplt_epu64_mask(hz, lo, lk)
        } else {
            let hk = _mm512_set1_epi64(RCDT_HI[k] as i64);
            _mm512_cmplt_epu64_mask(hi, hk)
                | _mm512_mask_cmplt_epu64_mask(_mm512_cmpeq_epi64_mask(hi, hk), lo, lk)
        }
    };
    let add = |acc: __m512i, m: __mmask8| _mm512_mask_add_epi64(acc, m, acc, one);
    // Unrolled by hand (a loop keeps the accumulators in memory); three accumulators
    // shorten the dependency chain.
    let (mut a0, mut a1, mut a2) = (zero, zero, zero);
    macro_rules! three {
        ($($k:literal)*) => {$(
            a0 = add(a0, lt(3 * $k));
            a1 = add(a1, lt(3 * $k + 1));
            a2 = add(a2, lt(3 * $k + 2));
        )*};
    }
    three!(0 1 2 3 4 5);
    _mm512_add_epi64(_mm512_add_epi64(a0, a1), a2)
}

/// Computes batch `b` (slots `8b .. 8b + 8`) of the cache's current anchor.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn batch(w: &mut Window, b: usize) {
    let wp: *mut Window = w;
    let src = wp as *const u8;
    // SAFETY: `wp` comes from `&mut Window`; the cache is written only through this
    // reference, the bytes only read through `src` (disjoint fields).
    let cache = unsafe { &mut (*wp).cache };
    let q = cache.start + 8 * SLOT * b;
    // The batch's first slot is held (8b < count), so q <= LAST_SLOT_START.
    debug_assert!(8 * b < cache.count && q <= LAST_SLOT_START);
    // SAFETY: slot i of this batch starts at q + 11i <= LAST_SLOT_START + 77, and 16
    // bytes from there lie within `bytes` and `pad`, contiguous in the repr(C) `Window`
    // whose whole extent `src` covers (checked by the const assertion above).
    unsafe { batch_at(cache, src, q.min(LAST_SLOT_START), 8 * b) }
}

/// Eight slots of the next window (positions 0, 11, ..., 77) into cache entries `dst ..`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn vbatch(cache: &mut SlotCache, next: &[u8; WINDOW], dst: usize) {
    // SAFETY: the loads end at byte 77 + 16 < WINDOW.
    unsafe { batch_at(cache, next.as_ptr(), 0, dst) }
}

/// Slots at `src + q + 11i` (i < 8) into cache entries `dst .. dst + 8` (`dst` clamped
/// so that the stores stay within the cache).
///
/// # Safety
/// `src .. src + q + 93` must be readable.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
unsafe fn batch_at(cache: &mut SlotCache, src: *const u8, q: usize, dst: usize) {
    let (rcp, lnr) = tables();
    // Per 128-bit lane: the eight draw bytes, then (hi, sign, w) in the next word.
    let keep = _mm512_set_epi64(0xFF_FFFF, -1, 0xFF_FFFF, -1, 0xFF_FFFF, -1, 0xFF_FFFF, -1);
    let byte = _mm512_set1_epi64(0xFF);
    let one = _mm512_set1_epi64(1);
    let oned = _mm512_set1_pd(1.0);
    let c0 = _mm512_set1_pd(f(fpr::INV_2SQRSIGMA0));
    // SAFETY: within the caller's guarantee.
    let ld = |i: usize| unsafe { _mm_loadu_si128(src.add(q + SLOT * i).cast()) };
    let gather4 = |a: usize| {
        let v = _mm512_castsi128_si512(ld(a));
        let v = _mm512_inserti32x4::<1>(v, ld(a + 2));
        let v = _mm512_inserti32x4::<2>(v, ld(a + 4));
        _mm512_and_si512(_mm512_inserti32x4::<3>(v, ld(a + 6)), keep)
    };
    let (even, odd) = (gather4(0), gather4(1));
    let lo = _mm512_unpacklo_epi64(even, odd);
    let tail = _mm512_unpackhi_epi64(even, odd);
    let hi = _mm512_and_si512(tail, byte);
    let sign = _mm512_and_si512(_mm512_srli_epi64::<8>(tail), one);
    let wv = _mm512_srli_epi64::<16>(tail);
    let z0 = rcdt_count(lo, hi);
    // z = b + (2b − 1)·z0: z0 + 1 (b = 1) or −z0 = !z0 + 1 (b = 0).
    let z = _mm512_add_epi64(_mm512_xor_si512(z0, _mm512_sub_epi64(sign, one)), one);
    let zd = _mm512_cvtepi64_pd(z);
    let z0d = _mm512_cvtepi64_pd(z0);
    // z0² is exact, as the serial code's integer square.
    let c = _mm512_mul_pd(_mm512_mul_pd(z0d, z0d), c0);
    let wd = _mm512_cvtepi64_pd(wv);
    let ta = threshold(_mm512_add_pd(wd, oned), rcp, lnr);
    // w = 0 never rejects: threshold +∞.
    let tr = _mm512_mask_mov_pd(
        threshold(_mm512_max_pd(wd, oned), rcp, lnr),
        _mm512_cmpeq_epi64_mask(wv, _mm512_setzero_si512()),
        _mm512_set1_pd(f64::INFINITY),
    );
    let o = dst.min(CACHE_LEN - 8);
    // SAFETY: o + 8 <= CACHE_LEN.
    unsafe {
        _mm512_storeu_pd(cache.zd.as_mut_ptr().add(o), zd);
        _mm512_storeu_pd(cache.c.as_mut_ptr().add(o), c);
        _mm512_storeu_pd(cache.ta.as_mut_ptr().add(o), _mm512_add_pd(ta, c));
        _mm512_storeu_pd(cache.tr.as_mut_ptr().add(o), _mm512_add_pd(tr, c));
    }
}

/// The whole cache from the read position (tests).
#[cfg(all(test, feature = "std"))]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn rebuild(w: &mut Window) {
    super::anchor(w, CACHE_AVX512);
    while w.cache.ready < w.cache.count {
        batch(w, w.cache.ready / 8);
        w.cache.ready += 8;
    }
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn locate(stream: &mut Stream<'_>) -> Option<super::Loc> {
    super::locate(
        stream,
        CACHE_AVX512,
        8,
        8,
        |w, first| batch(w, first / 8),
        |c, next, dst| vbatch(c, next, dst),
    )
}

/// Computes one more batch ahead of slot `k` if the cache has slots left there: work
/// that the out-of-order core overlaps with the latency-bound sampling that follows.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn look_ahead(w: &mut Window, k: usize) {
    let c = &w.cache;
    if c.ready < c.count && c.ready < k + 16 {
        batch(w, c.ready / 8);
        w.cache.ready += 8;
    }
}

/// Per-request constants: `1/(2σ²)` as the serial code has it, and `ln ccs ∓ MARGIN`.
#[derive(Clone, Copy)]
struct PairConst {
    dss: __m512d,
    ta_off: __m512d,
    tr_off: __m512d,
}

/// Per-pair constants from `1/σ`, `ccs` and, when the caller has it, `ln ccs` (else it
/// is computed here).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn pair_const(isigma: f64, ccs: f64, lnccs: Option<f64>) -> PairConst {
    let lnccs = match lnccs {
        Some(l) => _mm512_set1_pd(l),
        None => {
            let (rcp, lnr) = tables();
            let (e, s) = ln_parts(_mm512_set1_pd(ccs), rcp, lnr);
            _mm512_fmadd_pd(e, _mm512_set1_pd(LN2), s)
        }
    };
    let m = _mm512_set1_pd(MARGIN);
    PairConst {
        dss: _mm512_set1_pd((isigma * isigma) * 0.5),
        ta_off: _mm512_sub_pd(lnccs, m),
        tr_off: _mm512_add_pd(lnccs, m),
    }
}

/// The cached vectors of slots `k .. k + 8`: (z, c, accept threshold, reject
/// threshold).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn load_slots(w: &Window, k: usize) -> (__m512d, __m512d, __m512d, __m512d) {
    let c = &w.cache;
    // SAFETY: k < count + virt <= 54, so k + 8 <= CACHE_LEN.
    unsafe {
        (
            _mm512_loadu_pd(c.zd.as_ptr().add(k)),
            _mm512_loadu_pd(c.c.as_ptr().add(k)),
            _mm512_loadu_pd(c.ta.as_ptr().add(k)),
            _mm512_loadu_pd(c.tr.as_ptr().add(k)),
        )
    }
}

/// One request on eight slots: `floor(mu)` and the bit masks (sure accept, sure
/// reject, serial reduction negative); the thresholds are offset by the request's
/// `ln ccs ∓ MARGIN`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn masks(
    slots: &(__m512d, __m512d, __m512d, __m512d),
    pc: &PairConst,
    mu: f64,
) -> (f64, u32, u32, u32) {
    let (zd, c, ta, tr) = *slots;
    let (ta, tr, dss) = (
        _mm512_add_pd(ta, pc.ta_off),
        _mm512_add_pd(tr, pc.tr_off),
        pc.dss,
    );
    let m = _mm_set_sd(mu);
    let fl = _mm_cvtsd_f64(_mm_round_sd::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(m, m));
    // The serial code's operations: r = mu − floor(mu), y = (z − r)²·dss, x = y − c.
    let r = mu - fl;
    let d = _mm512_sub_pd(zd, _mm512_set1_pd(r));
    let y = _mm512_mul_pd(_mm512_mul_pd(d, d), dss);
    let acc = _mm512_cmp_pd_mask::<_CMP_LE_OQ>(y, ta);
    let rej = _mm512_cmp_pd_mask::<_CMP_GT_OQ>(y, tr);
    // The serial reduction x = s·ln 2 + rr (s = trunc(x/ln 2)); rr < 0 (or x < 0, or
    // NaN) leaves the slot to the serial code.
    let x = _mm512_sub_pd(y, c);
    let s = _mm512_roundscale_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm512_mul_pd(
        x,
        _mm512_set1_pd(f(fpr::INV_LOG2)),
    ));
    let rr = _mm512_sub_pd(x, _mm512_mul_pd(s, _mm512_set1_pd(f(fpr::LOG2))));
    let ok = _mm512_cmp_pd_mask::<_CMP_GE_OQ>(rr, _mm512_setzero_pd());
    (fl, acc as u32, rej as u32, (!ok) as u32)
}

/// Lane `sel` (a one-hot mask) of `v`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn select(v: __m512d, sel: u32) -> f64 {
    _mm_cvtsd_f64(_mm512_castpd512_pd128(_mm512_maskz_compress_pd(
        sel as __mmask8,
        v,
    )))
}

/// The serial code (AVX2 table scan) for one request.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
fn serial(stream: &mut Stream<'_>, sigma_min: Fpr, req: &Request) -> f64 {
    sample_one(stream, sigma_min, req, &|v: &[u32; 3]| rcdt_avx2(v)) as f64
}

/// One or two requests in order, with their constants; `inside` when all are in the
/// domain of the analysis.
struct Reqs {
    req: [Request; 2],
    mu: [f64; 2],
    pc: [PairConst; 2],
    inside: bool,
}

impl Reqs {
    /// Two requests with the same 1/σ (and `ln ccs` if known): one set of constants.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
    #[inline]
    fn pair(sigma_min: Fpr, mu: [Fpr; 2], isigma: Fpr, lnccs: Option<f64>) -> Reqs {
        let isg = f(isigma);
        let ccs = isg * f(sigma_min);
        let muf = [f(mu[0]), f(mu[1])];
        let pc = pair_const(isg, ccs, lnccs);
        Reqs {
            req: mu.map(|mu| Request { mu, isigma }),
            mu: muf,
            pc: [pc, pc],
            inside: super::in_domain(muf[0], isg, ccs) & super::in_domain(muf[1], isg, ccs),
        }
    }

    /// The first `n` (1 or 2) of `reqs`, each with its own constants.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
    #[inline]
    fn batch(sigma_min: Fpr, reqs: &[Request], n: usize) -> Reqs {
        let req = [reqs[0], reqs[n - 1]];
        let isg = req.map(|r| f(r.isigma));
        let ccs = isg.map(|i| i * f(sigma_min));
        let mu = req.map(|r| f(r.mu));
        // Both ln ccs in one vector evaluation.
        let (rcp, lnr) = tables();
        let (e, s) = ln_parts(
            _mm512_setr_pd(ccs[0], ccs[1], 0.5, 0.5, 0.5, 0.5, 0.5, 0.5),
            rcp,
            lnr,
        );
        let mut l = [0.0f64; 8];
        // SAFETY: eight f64 into an 8-value array.
        unsafe { _mm512_storeu_pd(l.as_mut_ptr(), _mm512_fmadd_pd(e, _mm512_set1_pd(LN2), s)) };
        Reqs {
            req,
            mu,
            pc: [
                pair_const(isg[0], ccs[0], Some(l[0])),
                pair_const(isg[1], ccs[1], Some(l[1])),
            ],
            inside: super::in_domain(mu[0], isg[0], ccs[0])
                & super::in_domain(mu[1], isg[1], ccs[1]),
        }
    }
}

/// `n` (1 or 2) requests in order (module docs). Both are decided on the same eight
/// slots when possible (the common case); otherwise the first pending one is decided
/// (or taken over by the serial code at its first undecided attempt) and the loop goes
/// on from the new read position, across refills.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
fn run(stream: &mut Stream<'_>, sigma_min: Fpr, r: &Reqs, n: usize) -> [f64; 2] {
    let mut out = [0.0; 2];
    let mut j = 0;
    if !r.inside {
        // Outside the analysed domain (never with a Falcon key): the serial code.
        while j < n {
            out[j] = serial(stream, sigma_min, &r.req[j]);
            j += 1;
        }
        return out;
    }
    while j < n {
        let Some(super::Loc {
            k, regular: avail, ..
        }) = locate(stream)
        else {
            // The next attempt straddles a refill.
            out[j] = serial(stream, sigma_min, &r.req[j]);
            j += 1;
            continue;
        };
        let slots = load_slots(stream.window, k);
        let start = stream.window.cache.start;
        let v = (1u32 << avail) - 1;
        let end = 1u32 << avail;
        let (fl0, a0, j0, b0) = masks(&slots, &r.pc[j], r.mu[j]);
        // First slot that is not a sure rejection for request j.
        let stop0 = (v & !j0) | end;
        let f0 = stop0 & stop0.wrapping_neg();
        let upto0 = (f0 << 1).wrapping_sub(1);
        let ok0 = (f0 & a0 & v != 0) & (b0 & upto0 == 0);
        if j + 1 < n {
            // Request j + 1: the first later slot it does not surely reject.
            let (fl1, a1, j1, b1) = masks(&slots, &r.pc[j + 1], r.mu[j + 1]);
            let stop1 = (v & !upto0 & !j1) | end;
            let f1 = stop1 & stop1.wrapping_neg();
            let upto1 = (f1 << 1).wrapping_sub(1);
            let ok1 = (f1 & a1 & v != 0) & (b1 & upto1 & !upto0 == 0);
            if ok0 & ok1 {
                stream.window.pos = start + SLOT * (k + f1.trailing_zeros() as usize + 1);
                out[j] = fl0 + select(slots.0, f0);
                out[j + 1] = fl1 + select(slots.0, f1);
                return out;
            }
        }
        if ok0 {
            stream.window.pos = start + SLOT * (k + f0.trailing_zeros() as usize + 1);
            out[j] = fl0 + select(slots.0, f0);
            j += 1;
            continue;
        }
        // Request j is not decided on these slots: either all of them are sure
        // rejections, or the first one that is not is undecided (slots whose reduction
        // went negative count as undecided).
        let stop = (v & !(j0 & !b0)) | end;
        let first = stop & stop.wrapping_neg();
        if first == end {
            stream.window.pos = start + SLOT * (k + avail);
            continue;
        }
        stream.window.pos = start + SLOT * (k + first.trailing_zeros() as usize);
        out[j] = serial(stream, sigma_min, &r.req[j]);
        j += 1;
    }
    out
}

/// Two requests: the common case (both decided on the same eight slots) straight
/// through, anything else by [`run`] from the same read position.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
fn pair(stream: &mut Stream<'_>, sigma_min: Fpr, r: &Reqs) -> [f64; 2] {
    if r.inside {
        if let Some(super::Loc {
            k, total: avail, ..
        }) = locate(stream)
        {
            let slots = load_slots(stream.window, k);
            let (fl0, a0, j0, b0) = masks(&slots, &r.pc[0], r.mu[0]);
            let (fl1, a1, j1, b1) = masks(&slots, &r.pc[1], r.mu[1]);
            let v = (1u32 << avail) - 1;
            let end = 1u32 << avail;
            let stop0 = (v & !j0) | end;
            let f0 = stop0 & stop0.wrapping_neg();
            let upto0 = (f0 << 1).wrapping_sub(1);
            let stop1 = (v & !upto0 & !j1) | end;
            let f1 = stop1 & stop1.wrapping_neg();
            let upto1 = (f1 << 1).wrapping_sub(1);
            let decided = (f0 & a0 & v != 0)
                & (f1 & a1 & v != 0)
                & ((b0 & upto0) | (b1 & upto1 & !upto0) == 0);
            if decided {
                let next = k + f1.trailing_zeros() as usize + 1;
                let out = [fl0 + select(slots.0, f0), fl1 + select(slots.0, f1)];
                let w = &mut *stream.window;
                if next <= w.cache.count {
                    w.pos = w.cache.start + SLOT * next;
                    look_ahead(w, next);
                } else {
                    // Into the next window's slots.
                    super::cross(stream, CACHE_AVX512, next);
                }
                return out;
            }
        }
    }
    run(stream, sigma_min, r, 2)
}

/// The batch entry: requests two by two (each with its own constants: nothing is
/// compared between them), a last odd one alone.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn sample_avx512(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    reqs: &[Request],
    out: &mut [i32],
) {
    let n = reqs.len().min(out.len());
    let mut i = 0;
    while i < n {
        let m = (n - i).min(2);
        let r = Reqs::batch(sigma_min, &reqs[i..], m);
        let v = if m == 2 {
            pair(stream, sigma_min, &r)
        } else {
            run(stream, sigma_min, &r, 1)
        };
        for (o, &x) in out[i..i + m].iter_mut().zip(&v) {
            *o = x as i32;
        }
        i += m;
    }
}

/// See [`SamplerKernels::sample`].
pub(super) fn sample(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    // SAFETY: the table is only handed out when AVX-512 and AVX2 are available (module
    // docs).
    unsafe { sample_avx512(stream, sigma_min, reqs, out) }
}

/// See [`SamplerKernels::sample_pair`].
pub(super) fn sample_pair(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    isigma: Fpr,
) -> (Fpr, Fpr) {
    // SAFETY: as for `sample`.
    let [a, b] = unsafe {
        let r = Reqs::pair(sigma_min, [mu0, mu1], isigma, None);
        pair(stream, sigma_min, &r)
    };
    (Fpr::from_bits(a.to_bits()), Fpr::from_bits(b.to_bits()))
}

/// See [`SamplerKernels::sample_leaf`].
pub(super) fn sample_leaf(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    leaf: Leaf,
) -> (Fpr, Fpr) {
    let lnccs = f(leaf.lnccs());
    // SAFETY: as for `sample`.
    let [a, b] = unsafe {
        let r = Reqs::pair(sigma_min, [mu0, mu1], leaf.isigma(), Some(lnccs));
        pair(stream, sigma_min, &r)
    };
    (Fpr::from_bits(a.to_bits()), Fpr::from_bits(b.to_bits()))
}

/// "expand 32-byte k".
use super::portable::SIGMA;

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
#[inline]
fn quarter(s: &mut [__m512i; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = _mm512_add_epi32(s[a], s[b]);
    s[d] = _mm512_rol_epi32::<16>(_mm512_xor_si512(s[d], s[a]));
    s[c] = _mm512_add_epi32(s[c], s[d]);
    s[b] = _mm512_rol_epi32::<12>(_mm512_xor_si512(s[b], s[c]));
    s[a] = _mm512_add_epi32(s[a], s[b]);
    s[d] = _mm512_rol_epi32::<8>(_mm512_xor_si512(s[d], s[a]));
    s[c] = _mm512_add_epi32(s[c], s[d]);
    s[b] = _mm512_rol_epi32::<7>(_mm512_xor_si512(s[b], s[c]));
}

/// Sixteen ChaCha20 instances, one per 32-bit lane (counters `counter + u`), rotations
/// by `vprold`; lanes 0..8 form window `a`, lanes 8..16 window `b`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn chacha20x16_avx512(
    key_iv: &[u32; 12],
    counter: u64,
    a: &mut [u8; WINDOW],
    b: &mut [u8; WINDOW],
) {
    let mut init = [_mm512_setzero_si512(); 16];
    for (v, c) in SIGMA.iter().enumerate() {
        init[v] = _mm512_set1_epi32(*c as i32);
    }
    for v in 0..12 {
        init[4 + v] = _mm512_set1_epi32(key_iv[v] as i32);
    }
    let mut lo = [0u32; 16];
    let mut hi = [0u32; 16];
    for u in 0..16 {
        let cc = counter.wrapping_add(u as u64);
        lo[u] = cc as u32;
        hi[u] = (cc >> 32) as u32;
    }
    // SAFETY: `lo` and `hi` are 64 bytes each (unaligned loads).
    let (lo, hi) = unsafe {
        (
            _mm512_loadu_si512(lo.as_ptr().cast()),
            _mm512_loadu_si512(hi.as_ptr().cast()),
        )
    };
    init[14] = _mm512_xor_si512(init[14], lo);
    init[15] = _mm512_xor_si512(init[15], hi);
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
    for v in 0..16 {
        let w = _mm512_add_epi32(s[v], init[v]);
        // SAFETY: bytes 32v .. 32v + 32 lie within each 512-byte window.
        unsafe {
            _mm256_storeu_si256(a.as_mut_ptr().add(32 * v).cast(), _mm512_castsi512_si256(w));
            _mm256_storeu_si256(
                b.as_mut_ptr().add(32 * v).cast(),
                _mm512_extracti64x4_epi64::<1>(w),
            );
        }
    }
    // Key-derived registers: clear the stack copies.
    crate::wipe::wipe(&mut s, [_mm512_setzero_si512(); 16]);
    crate::wipe::wipe(&mut init, [_mm512_setzero_si512(); 16]);
}

/// See [`SamplerKernels::chacha20x16`].
pub(super) fn chacha20x16(
    key_iv: &[u32; 12],
    counter: u64,
    a: &mut [u8; WINDOW],
    b: &mut [u8; WINDOW],
) {
    // SAFETY: as for `sample`.
    unsafe { chacha20x16_avx512(key_iv, counter, a, b) }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::super::isa_tests::{self, unit_values};
    use super::*;

    /// The vector `ln` against the standard library's on the integers the thresholds
    /// use and on the range of `ccs`.
    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn ln_is_accurate() {
        assert!(Backend::Avx512.is_available(), "{}", isa_tests::MISSING);
        let mut vals: alloc::vec::Vec<f64> = (1..=256).map(|v| v as f64).collect();
        vals.extend(unit_values(0x1234_5678_9ABC_DEF1, 20_000).map(|u| 0.25 + u * 0.75));
        vals.push(1.0 - f64::EPSILON / 2.0);
        for c in vals.chunks(8) {
            let mut v = [1.0f64; 8];
            v[..c.len()].copy_from_slice(c);
            let mut got = [0.0f64; 8];
            // SAFETY: AVX-512 asserted above.
            unsafe {
                let (rcp, lnr) = tables();
                let (e, s) = ln_parts(_mm512_loadu_pd(v.as_ptr()), rcp, lnr);
                _mm512_storeu_pd(got.as_mut_ptr(), _mm512_fmadd_pd(e, _mm512_set1_pd(LN2), s));
            }
            for i in 0..8 {
                let err = (got[i] - v[i].ln()).abs();
                assert!(err < 2f64.powi(-49), "ln({}) off by {err:e}", v[i]);
            }
        }
    }

    /// The AVX-512 log-domain first-byte test of eight cached slots.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
    fn decide8(w: &Window, k: usize, isigma: f64, ccs: f64, mu: f64) -> (f64, u32, u32, u32) {
        masks(&load_slots(w, k), &pair_const(isigma, ccs, None), mu)
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn cache_and_decisions_are_exact() {
        assert!(Backend::Avx512.is_available(), "{}", isa_tests::MISSING);
        // SAFETY: AVX-512 (and AVX2) asserted above.
        unsafe { isa_tests::cache_and_decisions_are_exact(rebuild, decide8) }
    }
}
