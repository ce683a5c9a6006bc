//! FN-DSA SamplerZ with AVX2 (x86-64, native `Fpr`): two requests at a time over
//! speculative slots. DRAFT (follows fn-dsa 0.4.0's byte consumption exactly).
//!
//! # Why slots
//! The serial sampler is one long dependency chain per attempt (10-byte base draw →
//! table scan → x → the exp(−x) polynomial → one byte compared → accept or retry) with
//! an unpredictable retry branch. But nearly every attempt reads exactly 11 bytes: the
//! u64 and u16 of the base draw and one BerExp byte (a second one is needed only when
//! the first equals the top byte of the threshold, probability 1/256). So the 88 bytes
//! ahead of the read position are cut into 8 slots of 11 bytes, and for every slot and
//! for both requests the attempt that slot would be is computed at once in SIMD lanes.
//! The serial order is then replayed on bit masks: request 0 takes the first slot it
//! accepts, request 1 the first later slot it accepts. Outputs and bytes consumed are
//! exactly the serial ones ([`Sampler::next`]); whenever a slot cannot be decided here
//! the rest of the pair runs serially from that slot.
//!
//! # Exactness
//! The base draw (79-bit comparison with the cumulative table, 24/24/31-bit limbs with
//! borrows), z, x = (z − r)²·dss − z0²/(2σ0²), and its reduction x = s·ln 2 + rr are the
//! serial code's integer and binary64 operations (no fusion), so they are bit-identical.
//! Only the exponential is approximated: the decision needs the integer
//! `T = 2·expm_p63(rr, ccs) − 1` against the byte thresholds `w·2^(56+s')` and
//! `(w+1)·2^(56+s')` (w the BerExp byte, s' = min(s, 63)): accept when
//! `T >= (w+1)·2^(56+s')`, reject when `T < w·2^(56+s')`, otherwise the serial code
//! reads more bytes. `expm_p63` evaluates, in 2^63 fixed point with truncations, the
//! polynomial `y(r) = Σ_k (−1)^k·C[12−k]·r^k` (C = [`EXPM_COEFFS`]) and scales it by
//! `ccs`; here y is evaluated in binary64 (Estrin's scheme) and multiplied by
//! `2·ccs_fixed/2^64`. Every term is below 2^63 and there are about twenty roundings
//! of relative size 2^-53, so the binary64 value is within 2^15 of the real polynomial;
//! the fixed-point value is within a few units of it (one truncation per step, damped
//! by r < ln 2); so |T_approx − T| < 2^17 (the test `approx_exp_error` measures it). A
//! lane is decided only if T_approx is at least [`APPROX_MARGIN`] = 2^24 away from both
//! thresholds; lanes with a negative rr or x (rounding corners, outside the domain)
//! are left undecided. An undecided lane happens with probability about 1/256 + 2^-31.
//!
//! # Constant time
//! Branches and memory indices depend only on the two leaks the serial sampler already
//! has (the number of rejections, and whether BerExp needed a second byte), plus
//! 2^-31-rare approximation fallbacks. The output of the selected slot is extracted with
//! masks, not by an index.

// Value-only intrinsics are safe inside `#[target_feature]` functions.
#![allow(unused_unsafe)]

use crate::falcon::fndsa::prng::{MAX_LOOKAHEAD, WINDOW_PAD};
use crate::falcon::fndsa::sampler::{Sampler, GAUSS0, INV_2SQRSIGMA0, INV_LOG2, LOG2, SIGMA_MIN};
use crate::kernels::falcon::fpr::{Fpr, EXPM_COEFFS, PTWO63};
use core::arch::x86_64::*;

/// Slots examined per pair.
const SLOTS: usize = 8;
/// Bytes of an attempt whose BerExp decides on its first byte.
const SLOT_BYTES: usize = 11;
/// Stream bytes the slots cover.
const SPAN: usize = SLOTS * SLOT_BYTES;
// The window holds SPAN stream bytes then WINDOW_PAD more; the last slot's 16-byte load
// ends 5 bytes past SPAN.
const _: () = assert!(SPAN <= MAX_LOOKAHEAD && (SLOTS - 1) * SLOT_BYTES + 16 <= SPAN + WINDOW_PAD);

/// Half-width of the undecided band around each threshold, on the scale of T (< 2^64).
const APPROX_MARGIN: f64 = 16777216.0;

/// `(s.next(mu0, isigma), s.next(mu1, isigma))` through the slots. Only reachable
/// through the AVX2 table of `kernels::falcon::fndsa` (AVX2 detected).
pub(super) fn next_pair(s: &mut Sampler, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> (i32, i32) {
    // SAFETY: reachable only through `fndsa::AVX2`, handed out after AVX2 was detected.
    unsafe { pair_avx2(s, mu0, mu1, isigma) }
}

/// Per-request constants.
#[derive(Clone, Copy)]
struct Req {
    /// floor(mu).
    s: i32,
    /// mu − floor(mu), 1/(2σ²) as the serial code has them; 2·ccs_fixed/2^64.
    r: __m256d,
    dss: __m256d,
    ccs2: __m256d,
}

#[target_feature(enable = "avx2")]
#[inline]
fn req(mu: Fpr, isigma: Fpr, logn: u32) -> Req {
    let s = mu.floor();
    let r = mu.sub(Fpr::of(s));
    let dss = isigma.sqr().half();
    let ccs = isigma.mul(SIGMA_MIN[logn as usize]);
    let ccs_fixed = (ccs.mul(PTWO63).trunc() as u64) << 1;
    let bits = |x: Fpr| f64::from_bits(x.to_bits());
    Req {
        s: s as i32,
        r: _mm256_set1_pd(bits(r)),
        dss: _mm256_set1_pd(bits(dss)),
        ccs2: _mm256_set1_pd(ccs_fixed as f64 * (1.0 / 9223372036854775808.0)),
    }
}

/// Four slots' request-independent values.
#[derive(Clone, Copy)]
struct Quad {
    /// z, and z0²·(1/(2σ0²)) (z0² exact, as the serial integer square).
    z: __m256d,
    c: __m256d,
    /// The BerExp byte.
    w: __m256d,
}

/// `Σ_k (−1)^k·C[12 − k]·r^k` in binary64 (Estrin; see the module docs for the error).
#[target_feature(enable = "avx2")]
#[inline]
fn poly(r: __m256d) -> __m256d {
    let a = |k: usize| {
        let c = EXPM_COEFFS[12 - k] as f64;
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

/// One request on four slots: bit masks (sure accept, sure reject) of the four lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn decide4(rq: &Req, q: &Quad) -> (u32, u32) {
    let cst = |x: Fpr| _mm256_set1_pd(f64::from_bits(x.to_bits()));
    // x = (z − r)²·dss − z0²/(2σ0²): the serial operations in the serial order.
    let d = _mm256_sub_pd(q.z, rq.r);
    let x = _mm256_sub_pd(_mm256_mul_pd(_mm256_mul_pd(d, d), rq.dss), q.c);
    // s = trunc(x/ln 2), rr = x − s·ln 2.
    let s = _mm256_cvttpd_epi32(_mm256_mul_pd(x, cst(INV_LOG2)));
    let rr = _mm256_sub_pd(x, _mm256_mul_pd(_mm256_cvtepi32_pd(s), cst(LOG2)));
    // T ≈ 2·expm_p63(rr, ccs) − 1.
    let t = _mm256_mul_pd(poly(rr), rq.ccs2);
    // Thresholds w·2^(56+s') and (w+1)·2^(56+s'), s' = min(s, 63) (s >= 0 wherever the
    // lane can be decided); 2^(56+s') from its exponent field.
    let sw = _mm_min_epi32(_mm_max_epi32(s, _mm_setzero_si128()), _mm_set1_epi32(63));
    let unit = _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_add_epi64(
        _mm256_cvtepi32_epi64(sw),
        _mm256_set1_epi64x(1023 + 56),
    )));
    let lo = _mm256_mul_pd(q.w, unit);
    let hi = _mm256_add_pd(lo, unit);
    let margin = _mm256_set1_pd(APPROX_MARGIN);
    let zero = _mm256_setzero_pd();
    let ok = _mm256_and_pd(
        _mm256_cmp_pd::<_CMP_GE_OQ>(rr, zero),
        _mm256_cmp_pd::<_CMP_GE_OQ>(x, zero),
    );
    let acc = _mm256_and_pd(
        ok,
        _mm256_cmp_pd::<_CMP_GE_OQ>(t, _mm256_add_pd(hi, margin)),
    );
    let rej = _mm256_and_pd(
        ok,
        _mm256_cmp_pd::<_CMP_LT_OQ>(_mm256_add_pd(t, margin), lo),
    );
    (
        _mm256_movemask_pd(acc) as u32,
        _mm256_movemask_pd(rej) as u32,
    )
}

/// Base sampler on eight draws given as limbs (v0: bits 0..24, v1: 24..48, v2: 48..79
/// of the 79-bit value): z0 = number of table entries above the draw, by the borrow of
/// `v − T[k]` over the three limbs (every entry visited). Entries 11..18 have a zero top
/// limb and 15..18 a zero middle limb too: for them the borrow out of the lower limbs
/// counts only when the draw's upper limbs are zero, which is what the full chain
/// computes (checked at build time below).
#[target_feature(enable = "avx2")]
#[inline]
fn gauss8(v0: __m256i, v1: __m256i, v2: __m256i) -> __m256i {
    let zero = _mm256_setzero_si256();
    let mut z0 = zero;
    // Limbs below 2^24 (v0, v1) and 2^31 (v2): each difference's sign bit is the borrow.
    let lo = |k: usize| {
        _mm256_srli_epi32::<31>(_mm256_sub_epi32(v0, _mm256_set1_epi32(GAUSS0[k][2] as i32)))
    };
    let mid = |k: usize, cc: __m256i| {
        _mm256_srli_epi32::<31>(_mm256_sub_epi32(
            _mm256_sub_epi32(v1, _mm256_set1_epi32(GAUSS0[k][1] as i32)),
            cc,
        ))
    };
    for (k, t) in GAUSS0.iter().enumerate().take(11) {
        let cc = mid(k, lo(k));
        let cc = _mm256_srli_epi32::<31>(_mm256_sub_epi32(
            _mm256_sub_epi32(v2, _mm256_set1_epi32(t[0] as i32)),
            cc,
        ));
        z0 = _mm256_add_epi32(z0, cc);
    }
    // Masks: v2 == 0, and v1 == v2 == 0.
    let top0 = _mm256_cmpeq_epi32(v2, zero);
    let top_mid0 = _mm256_and_si256(top0, _mm256_cmpeq_epi32(v1, zero));
    let mut acc = zero;
    for k in 11..15 {
        acc = _mm256_add_epi32(acc, mid(k, lo(k)));
    }
    let mut acc2 = zero;
    for k in 15..18 {
        acc2 = _mm256_add_epi32(acc2, lo(k));
    }
    z0 = _mm256_add_epi32(z0, _mm256_and_si256(acc, top0));
    _mm256_add_epi32(z0, _mm256_and_si256(acc2, top_mid0))
}

// The zero limbs `gauss8` relies on.
const _: () = {
    let mut k = 11;
    while k < 18 {
        assert!(GAUSS0[k][0] == 0);
        assert!(k < 15 || GAUSS0[k][1] == 0);
        k += 1;
    }
    assert!(GAUSS0[10][0] != 0);
};

/// The value of the slot selected by the one-hot mask `sel`, without an index that
/// depends on it.
#[inline(always)]
fn pick(z: &[i32; SLOTS], sel: u32) -> i32 {
    let mut v = 0;
    for (i, &zi) in z.iter().enumerate() {
        v |= zi & (((sel >> i) & 1) as i32).wrapping_neg();
    }
    v
}

/// First slot at or after the open ones that is not a sure rejection, as a one-hot
/// mask (bit `SLOTS` if every open slot is rejected).
#[inline(always)]
fn first_stop(open: u32, rej: u32) -> u32 {
    let stop = (open & !rej) | (1 << SLOTS);
    stop & stop.wrapping_neg()
}

#[target_feature(enable = "avx2")]
unsafe fn pair_avx2(sp: &mut Sampler, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> (i32, i32) {
    sp.rng.ensure(SPAN);
    let win = sp.rng.window();
    // Slot i = the 11 bytes at 11i: u64 (bytes 0..8), u16 (8..10), BerExp byte (10). A
    // 16-byte load per slot (slots i and i + 4 share a register) is shuffled into four
    // 32-bit words: bytes 0..4, 3..7, 6..10 (holding the limbs, after a shift by one bit
    // that drops the bimodal bit) and (byte 0 | byte 10 << 8); a 4×4 transpose then puts
    // each field of slots 0..8 in one vector.
    let ld = |i: usize| {
        let b = &win[SLOT_BYTES * i..SLOT_BYTES * i + 16];
        // SAFETY: `b` is 16 readable bytes.
        unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
    };
    let shuf = _mm256_setr_epi8(
        0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 0, 10, -1, -1, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 0,
        10, -1, -1,
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
    let m24 = _mm256_set1_epi32(0xFF_FFFF);
    let v0 = _mm256_and_si256(_mm256_srli_epi32::<1>(_mm256_unpacklo_epi64(t0, t1)), m24);
    let v1 = _mm256_and_si256(_mm256_srli_epi32::<1>(_mm256_unpackhi_epi64(t0, t1)), m24);
    let v2 = _mm256_srli_epi32::<1>(_mm256_unpacklo_epi64(t2, t3));
    let tail = _mm256_unpackhi_epi64(t2, t3);
    let z0 = gauss8(v0, v1, v2);
    // z = b + (2b − 1)·z0: z0 + 1 (b = 1) or −z0 = !z0 + 1 (b = 0).
    let ones = _mm256_set1_epi32(1);
    let bm = _mm256_sub_epi32(_mm256_and_si256(tail, ones), ones);
    let z = _mm256_add_epi32(_mm256_xor_si256(z0, bm), ones);
    let w = _mm256_and_si256(_mm256_srli_epi32::<8>(tail), _mm256_set1_epi32(0xFF));
    let mut zs = [0i32; SLOTS];
    // SAFETY: `zs` is 8 × 32 bits.
    unsafe { _mm256_storeu_si256(zs.as_mut_ptr().cast(), z) };
    let c0 = _mm256_set1_pd(f64::from_bits(INV_2SQRSIGMA0.to_bits()));
    let quad = |h: __m128i, h0: __m128i, hw: __m128i| {
        let z0d = _mm256_cvtepi32_pd(h0);
        Quad {
            z: _mm256_cvtepi32_pd(h),
            c: _mm256_mul_pd(_mm256_mul_pd(z0d, z0d), c0),
            w: _mm256_cvtepi32_pd(hw),
        }
    };
    let qa = quad(
        _mm256_castsi256_si128(z),
        _mm256_castsi256_si128(z0),
        _mm256_castsi256_si128(w),
    );
    let qb = quad(
        _mm256_extracti128_si256::<1>(z),
        _mm256_extracti128_si256::<1>(z0),
        _mm256_extracti128_si256::<1>(w),
    );

    let all = (1u32 << SLOTS) - 1;
    let mut out = [0i32; 2];
    let mut open = all;
    for (k, mu) in [mu0, mu1].into_iter().enumerate() {
        let rq = req(mu, isigma, sp.logn);
        // Slots 0..4 first; slots 4..8 only when no open slot among 0..4 stops this
        // request (a branch on the rejection count, the sampler's documented leak;
        // declassified, docs/ARCHITECTURE.md "SamplerZ look-ahead").
        let (mut acc, mut rej) = decide4(&rq, &qa);
        if crate::ct::public(open & 0xF & !rej == 0) {
            let (a, r) = decide4(&rq, &qb);
            acc |= a << 4;
            rej |= r << 4;
        }
        // Declassified: the position of this request's first attempt that is not a sure
        // reject (its attempt count), and whether that attempt is decided here (not when
        // BerExp needs more bytes, or in the rare margin band).
        let first = crate::ct::public(first_stop(open, rej));
        if crate::ct::public(first & acc != 0) {
            out[k] = rq.s.wrapping_add(pick(&zs, first));
            open = all & !((first << 1) - 1);
        } else {
            // Undecided slot, or all open slots rejected: the open slots before it were
            // rejections of this request; resume serially at that slot.
            let idx = first.trailing_zeros() as usize;
            sp.rng.advance(SLOT_BYTES * idx);
            out[k] = sp.next(mu, isigma);
            if k == 0 {
                out[1] = sp.next(mu1, isigma);
            }
            return (out[0], out[1]);
        }
    }
    // Both accepted: every slot up to the last one taken was consumed.
    let used = SLOTS - open.count_ones() as usize;
    sp.rng.advance(SLOT_BYTES * used);
    (out[0], out[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::falcon::fndsa::prng::ShakeStream;
    use crate::kernels::select::Backend;

    fn rng(st: &mut u64) -> u64 {
        *st ^= *st << 13;
        *st ^= *st >> 7;
        *st ^= *st << 17;
        *st
    }

    /// The slots give exactly the serial samples and leave the stream at the same place.
    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn pairs_match_serial() {
        assert!(
            Backend::Avx2.is_available(),
            "this CPU lacks the ISA of this test (see build.rs)"
        );
        let mut st = 0x5eed_u64;
        for logn in [2u32, 5, 9, 10] {
            for t in 0..20u8 {
                let mut a = Sampler::new(ShakeStream::new(&[b"pair", &[t]]), logn, Backend::Avx2);
                let mut b =
                    Sampler::new(ShakeStream::new(&[b"pair", &[t]]), logn, Backend::Portable);
                for _ in 0..2000 {
                    // Centres up to ±2^14, widths between σ_min and σ0.
                    let mu0 = Fpr::scaled((rng(&mut st) % (1 << 25)) as i64 - (1 << 24), -10);
                    let mu1 = Fpr::scaled((rng(&mut st) % (1 << 25)) as i64 - (1 << 24), -10);
                    let smin = SIGMA_MIN[logn as usize];
                    let u = Fpr::scaled((rng(&mut st) % (1 << 20)) as i64, -20);
                    let sigma0 = Fpr::of(18205).div(Fpr::of(10000));
                    let sigma = smin.add(sigma0.sub(smin).mul(u));
                    let isig = Fpr::of(1).div(sigma);
                    let x = a.next_pair(mu0, mu1, isig);
                    let y0 = b.next(mu0, isig);
                    let y1 = b.next(mu1, isig);
                    assert_eq!(x, (y0, y1));
                }
                assert_eq!(a.rng.next_u64(), b.rng.next_u64());
            }
        }
    }

    /// |T_approx − T| over the whole domain of rr and ccs, against the exact
    /// fixed-point value.
    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn approx_exp_error() {
        assert!(
            Backend::Avx2.is_available(),
            "this CPU lacks the ISA of this test (see build.rs)"
        );
        let mut st = 99u64;
        let mut worst = 0f64;
        for i in 0..200_000u64 {
            let r = if i < 1000 {
                // Ends of the range.
                if i % 2 == 0 {
                    Fpr::scaled(i as i64, -60)
                } else {
                    LOG2.sub(Fpr::scaled(i as i64, -50))
                }
            } else {
                LOG2.mul(Fpr::scaled((rng(&mut st) >> 11) as i64, -53))
            };
            let ccs =
                Fpr::scaled(((rng(&mut st) >> 11) | (1 << 52)) as i64, -53).mul(Fpr::scaled(1, 0));
            let ccs = if ccs.lt(Fpr::scaled(1, -1)) {
                ccs.add(Fpr::scaled(1, -1))
            } else {
                ccs
            };
            let exact = (crate::kernels::falcon::fpr::expm_p63(r, ccs) << 1).wrapping_sub(1);
            let ccs_fixed = (ccs.mul(PTWO63).trunc() as u64) << 1;
            // SAFETY: AVX2 checked above.
            let approx = unsafe {
                let v = _mm256_mul_pd(
                    poly(_mm256_set1_pd(f64::from_bits(r.to_bits()))),
                    _mm256_set1_pd(ccs_fixed as f64 * (1.0 / 9223372036854775808.0)),
                );
                let mut o = [0f64; 4];
                _mm256_storeu_pd(o.as_mut_ptr(), v);
                o[0]
            };
            let err = (approx - exact as f64).abs();
            worst = worst.max(err);
        }
        eprintln!("approx_exp_error: worst {worst}");
        assert!(worst < (1u64 << 17) as f64, "worst error {worst}");
        assert!(worst * 128.0 < APPROX_MARGIN);
    }
}
