//! AVX2 SamplerZ kernels (x86-64): the base sampler compares the 72-bit draw with all 18
//! table entries at once (three vectors of eight 32-bit lanes, one per 24-bit limb
//! triple), and ChaCha20 runs its eight instances in the eight lanes of each register.
//!
//! # SamplerZ (native `Fpr` builds): the scheme of `avx512.rs` in four-lane vectors
//! The reference sampler is one long dependency chain per attempt, and ffSampling asks
//! for one pair of integers at a time, each depending on the previous ones. Almost every
//! attempt reads exactly 11 bytes (8 + 1 for the 72-bit draw, 1 sign byte, 1 BerExp
//! byte), so the bytes ahead of the read position are cut into 11-byte *slots*, one
//! attempt each, and what does not depend on the request is computed once per window,
//! sixteen slots at a time, into the window's slot cache (from an anchor position to the
//! end of the window; anchored anew after a refill or after an attempt that took other
//! than 11 bytes): the candidate `z`, `c = z0²/(2σ0²)` and the two log-domain BerExp
//! thresholds `8 ln 2 − ln(w + 1) + c` and `8 ln 2 − ln w + c` of the slot's byte `w`.
//! A pair of requests is then decided on the eight cached slots at the read position:
//! `y = (z − r)²·dss` (the serial code's operations) compared with the thresholds
//! shifted by `ln ccs` and the margin, for each request in two vectors of four slots;
//! the serial order is replayed on bit masks (request 0 takes the first slot it
//! accepts, request 1 the first later one). The exactness argument, the margin
//! (`2^-32`), the undecided cases left to the serial code (margin band, equal byte,
//! negative reduction) and the domain checks are those of `avx512.rs`; here the
//! thresholds come from a table of `8 ln 2 − ln v` (`v` = 1..=256) in 40-bit fixed
//! point (`THR`, within `2^-38`), read with byte shuffles over all its entries (no
//! memory index depends on `w`), and `ln ccs` from `ln_parts4` (or precomputed per
//! leaf of an expanded key, [`super::Leaf`]).
//!
//! The selection works on masks (no branch or memory index depends on which slot was
//! taken: the chosen z is extracted with masks); the cache is indexed by the read
//! position, and the branches to the slower paths depend on the rejection count, on
//! BerExp's second byte and, with probability below 2^-30, on the margin band or the
//! rounding corner — the leaks the serial sampler already has (module docs of
//! [`super`]; see `avx512.rs`) — or on the domain checks, which a Falcon key always
//! passes.
//!
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
use super::{sample_one, Window};
use super::{Request, SamplerKernels, Stream, RCDT_LIMBS, WINDOW};
#[cfg(not(feature = "fpr-emulated"))]
use crate::kernels::falcon::fpr;
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

pub(super) static KERNELS: SamplerKernels = SamplerKernels {
    backend: Backend::Avx2,
    sample,
    sample_pair,
    sample_leaf,
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

// ---------------------------------------------------------------------------------------
// Log-domain decisions (the scheme of `avx512.rs`, in four-lane vectors).

/// `ln` reduction tables of `avx512.rs` as four-entry vectors (entries `4r .. 4r + 4` in
/// vector `r`).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn ln_tables() -> ([__m256d; 4], [__m256d; 4]) {
    let (rcp, lnr) = super::ln_tables();
    // SAFETY: four 4-value quarters of each 16-value static table.
    unsafe {
        (
            core::array::from_fn(|r| _mm256_loadu_pd(rcp.as_ptr().add(4 * r))),
            core::array::from_fn(|r| _mm256_loadu_pd(lnr.as_ptr().add(4 * r))),
        )
    }
}

/// `ln v = e·ln 2 + s` as `(e, s)` for positive normal `v` (the method and bounds of
/// `avx512::ln_parts`): exponent and mantissa from the bit fields, the two 16-entry
/// tables read with in-register permutes and blends, the degree-9 series by Horner's
/// rule (separate multiplies and adds: each rounding is below `2^-56` here).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn ln_parts4(v: __m256d, rcp: &[__m256d; 4], lnr: &[__m256d; 4]) -> (__m256d, __m256d) {
    let bits = _mm256_castpd_si256(v);
    // e: the biased exponent placed in the low mantissa bits of 2^52, minus 2^52 + 1023.
    let eb = _mm256_srli_epi64::<52>(bits);
    let e = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(
            eb,
            _mm256_set1_epi64x(0x4330_0000_0000_0000),
        )),
        _mm256_set1_pd(4503599627371519.0),
    );
    let m = _mm256_castsi256_pd(_mm256_or_si256(
        _mm256_and_si256(bits, _mm256_set1_epi64x(0x000F_FFFF_FFFF_FFFF)),
        _mm256_set1_epi64x(0x3FF0_0000_0000_0000),
    ));
    // j = top four fraction bits: entry j & 3 of vector j >> 2.
    let j = _mm256_srli_epi64::<48>(bits);
    let q2 = _mm256_slli_epi64::<1>(_mm256_and_si256(j, _mm256_set1_epi64x(3)));
    let idx = _mm256_or_si256(
        q2,
        _mm256_slli_epi64::<32>(_mm256_add_epi64(q2, _mm256_set1_epi64x(1))),
    );
    // Sign bits = bit 2 and bit 3 of j, for the blends.
    let b2 = _mm256_castsi256_pd(_mm256_slli_epi64::<61>(j));
    let b3 = _mm256_castsi256_pd(_mm256_slli_epi64::<60>(j));
    let look = |t: &[__m256d; 4]| {
        let p = |r: usize| {
            _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(t[r]), idx))
        };
        _mm256_blendv_pd(
            _mm256_blendv_pd(p(0), p(1), b2),
            _mm256_blendv_pd(p(2), p(3), b2),
            b3,
        )
    };
    let r = look(rcp);
    let l = look(lnr);
    let u = _mm256_sub_pd(_mm256_mul_pd(m, r), _mm256_set1_pd(1.0));
    let c = |k: u32| {
        let v = 1.0 / k as f64;
        _mm256_set1_pd(if k.is_multiple_of(2) { -v } else { v })
    };
    // ln(1 + u) = u·P(u), P of degree 8 by Estrin's scheme (short latency: `ln ccs` is
    // computed per pair).
    let ma = |a: __m256d, b: __m256d, c: __m256d| _mm256_add_pd(_mm256_mul_pd(a, b), c);
    let u2 = _mm256_mul_pd(u, u);
    let u4 = _mm256_mul_pd(u2, u2);
    let p01 = ma(c(2), u, c(1));
    let p23 = ma(c(4), u, c(3));
    let p45 = ma(c(6), u, c(5));
    let p67 = ma(c(8), u, c(7));
    let p03 = ma(p23, u2, p01);
    let p47 = ma(p67, u2, p45);
    let p07 = ma(p47, u4, p03);
    let p = ma(_mm256_mul_pd(u4, u4), c(9), p07);
    (e, _mm256_add_pd(l, _mm256_mul_pd(p, u)))
}

/// `THR[v] = round((8·ln 2 − ln v)·2^37)` for `v` in 1..=256 (computed with 300-bit
/// arithmetic; below `2^40`), the log-domain BerExp thresholds in fixed point; `THR[0]`
/// is unused (`w = 0` never rejects).
#[cfg(not(feature = "fpr-emulated"))]
static THR: [u64; 257] = [
    0x0000000000,
    0xB17217F7D2,
    0x9B43D4F8D8,
    0x8E4A430278,
    0x851591F9DD,
    0x7DF19407F7,
    0x781C00037E,
    0x732D329B6D,
    0x6EE74EFAE3,
    0x6B226E0D1E,
    0x67C35108FC,
    0x64B68919D5,
    0x61EDBD0483,
    0x5F5E074B0C,
    0x5CFEEF9C73,
    0x5AC9BF129D,
    0x58B90BFBE9,
    0x56C868EFE8,
    0x54F42B0E24,
    0x53393FDFBF,
    0x51950E0A02,
    0x50055DA613,
    0x4E88461ADB,
    0x4D1C20008B,
    0x4BBF7A0589,
    0x4A7110181C,
    0x492FC44C11,
    0x47FA9917C4,
    0x46D0AC9D79,
    0x45B134C89A,
    0x449B7C13A2,
    0x438EDED58D,
    0x428AC8FCEF,
    0x418EB4247B,
    0x409A25F0EE,
    0x3FACAEAB92,
    0x3EC5E80F29,
    0x3DE5743EE7,
    0x3D0AFCE0C5,
    0x3C363255B2,
    0x3B66CB0B08,
    0x3A9C82E197,
    0x39D71AA719,
    0x3916579F7E,
    0x385A031BE0,
    0x37A1EA1D43,
    0x36EDDD0191,
    0x363DAF398E,
    0x359137068F,
    0x34E84D3F08,
    0x3442CD1921,
    0x33A093FA8E,
    0x3301814D17,
    0x3265765749,
    0x31CC5618CA,
    0x31360529FA,
    0x30A2699E7E,
    0x30116AEA65,
    0x2F82F1C9A0,
    0x2EF6E82999,
    0x2E6D3914A8,
    0x2DE5D09F3E,
    0x2D609BD693,
    0x2CDD88B0B9,
    0x2C5C85FDF4,
    0x2BDD835B31,
    0x2B60712581,
    0x2AE5406E91,
    0x2A6BE2F1F3,
    0x29F44B0B31,
    0x297E6BAC98,
    0x290A3856AB,
    0x2897A5102F,
    0x2826A65EC0,
    0x27B7313FEC,
    0x27493B22C2,
    0x26DCB9E1CB,
    0x2671A3BD70,
    0x2607EF56B7,
    0x259F93AA54,
    0x2538880C0E,
    0x24D2C4226A,
    0x246E3FE29D,
    0x240AF38CBB,
    0x23A8D7A81F,
    0x2347E5000D,
    0x22E814A084,
    0x22895FD340,
    0x222BC01CE6,
    0x21CF2F3A5D,
    0x2173A71E48,
    0x211921EEA7,
    0x20BF9A0297,
    0x206709E033,
    0x200F6C3A94,
    0x1FB8BBEFE4,
    0x1F62F40795,
    0x1F0E0FB0A7,
    0x1EBA0A400E,
    0x1E66DF2F21,
    0x1E148A1A27,
    0x1DC306BEF4,
    0x1D7250FB94,
    0x1D2264CD09,
    0x1CD33E4E1D,
    0x1C84D9B638,
    0x1C3733584F,
    0x1BEA47A1D8,
    0x1B9E1319CF,
    0x1B52925FC7,
    0x1B07C22B00,
    0x1ABD9F498D,
    0x1A74269F84,
    0x1A2B552636,
    0x19E327EB6B,
    0x199B9C10B0,
    0x1954AECAA5,
    0x190E5D6058,
    0x18C8A52A9E,
    0x1883839383,
    0x183EF615AE,
    0x17FAFA3BD8,
    0x17B78DA044,
    0x1774ADEC3D,
    0x173258D799,
    0x16F08C2841,
    0x16AF45B1BF,
    0x166E8354D0,
    0x162E42FEFA,
    0x15EE82AA24,
    0x15AF405C36,
    0x15707A26BC,
    0x15322E2686,
    0x14F45A835A,
    0x14B6FD6F97,
    0x147A1527E9,
    0x143D9FF2F9,
    0x14019C2126,
    0x13C6080C37,
    0x138AE21719,
    0x135028AD9E,
    0x1315DA4434,
    0x12DBF557B1,
    0x12A2786D0F,
    0x1269621135,
    0x1230B0D8BF,
    0x11F8635FC6,
    0x11C07849AE,
    0x1188EE40F2,
    0x1151C3F6F3,
    0x111AF823C7,
    0x10E4898612,
    0x10AE76E2D0,
    0x1078BF0534,
    0x104360BE76,
    0x100E5AE5B2,
    0x0FD9AC57BD,
    0x0FA553F702,
    0x0F7150AB5A,
    0x0F3DA161EF,
    0x0F0A450D14,
    0x0ED73AA426,
    0x0EA481236F,
    0x0E72178C03,
    0x0E3FFCE3A3,
    0x0E0E3034A0,
    0x0DDCB08DC0,
    0x0DAB7D0223,
    0x0D7A94A924,
    0x0D49F69E45,
    0x0D19A20112,
    0x0CE995F50B,
    0x0CB9D1A18A,
    0x0C8A5431AE,
    0x0C5B1CD446,
    0x0C2C2ABBB7,
    0x0BFD7D1DEC,
    0x0BCF13343E,
    0x0BA0EC3B63,
    0x0B73077358,
    0x0B45641F4E,
    0x0B1801859D,
    0x0AEADEEFAD,
    0x0ABDFBA9E4,
    0x0A9157039C,
    0x0A64F04F0C,
    0x0A38C6E139,
    0x0A0CDA11EB,
    0x09E1293B9A,
    0x09B5B3BB5F,
    0x098A78F0EA,
    0x095F783E6E,
    0x0934B1089A,
    0x090A22B687,
    0x08DFCCB1AD,
    0x08B5AE65D6,
    0x088BC74114,
    0x086216B3B1,
    0x08389C3027,
    0x080F572B13,
    0x07E6471B2D,
    0x07BD6B7937,
    0x0794C3BFFA,
    0x076C4F6C35,
    0x07440DFC99,
    0x071BFEF1BC,
    0x06F421CE0F,
    0x06CC7615D7,
    0x06A4FB4F23,
    0x067DB101C2,
    0x065696B73E,
    0x062FABFACE,
    0x0608F05954,
    0x05E2636151,
    0x05BC04A2DD,
    0x0595D3AFA3,
    0x056FD01AD5,
    0x0549F97928,
    0x05244F60CD,
    0x04FED16966,
    0x04D97F2C05,
    0x04B4584322,
    0x048F5C4A92,
    0x046A8ADF89,
    0x0445E3A08A,
    0x0421662D68,
    0x03FD12273B,
    0x03D8E73061,
    0x03B4E4EC71,
    0x03910B0038,
    0x036D5911B6,
    0x0349CEC816,
    0x03266BCBAB,
    0x03032FC5E8,
    0x02E01A615D,
    0x02BD2B49B3,
    0x029A622BA4,
    0x0277BEB4FA,
    0x0255409489,
    0x0232E77A29,
    0x0210B316B4,
    0x01EEA31C00,
    0x01CCB73CDE,
    0x01AAEF2D10,
    0x01894AA14A,
    0x0167C94F2D,
    0x01466AED43,
    0x01252F32F9,
    0x010415D89E,
    0x00E31E9761,
    0x00C2492946,
    0x00A195492D,
    0x008102B2C5,
    0x006091228E,
    0x00404055D6,
    0x0020100AB3,
    0x0000000000,
];

/// `THR` as byte planes for in-register lookups (`vpshufb`): `PLANES[p][g]` holds byte
/// `p` of `THR[16g + l]` for `l` in 0..16 (reject thresholds, low lane) and of
/// `THR[16g + l + 1]` (accept thresholds, high lane).
#[cfg(not(feature = "fpr-emulated"))]
#[repr(C, align(32))]
struct Planes([[[u8; 32]; 16]; 5]);

#[cfg(not(feature = "fpr-emulated"))]
static PLANES: Planes = {
    let mut t = [[[0u8; 32]; 16]; 5];
    let mut p = 0;
    while p < 5 {
        let mut g = 0;
        while g < 16 {
            let mut l = 0;
            while l < 16 {
                t[p][g][l] = (THR[16 * g + l] >> (8 * p)) as u8;
                t[p][g][16 + l] = (THR[16 * g + l + 1] >> (8 * p)) as u8;
                l += 1;
            }
            g += 1;
        }
        p += 1;
    }
    Planes(t)
};

/// The thresholds `(8·ln 2 − ln w, 8·ln 2 − ln(w + 1))` of sixteen bytes `w` (`ww`
/// holds them in order in both 128-bit lanes), as four vectors of four slots each:
/// `(reject, accept)`. The reject threshold of `w = 0` is left at 0 (the caller masks
/// it). Constant time: every table byte is read, the byte `w` only selects lanes.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn thresholds16(ww: __m256i) -> ([__m256d; 4], [__m256d; 4]) {
    let lo4 = _mm256_set1_epi8(0x0F);
    let l = _mm256_and_si256(ww, lo4);
    let h = _mm256_and_si256(_mm256_srli_epi16::<4>(ww), lo4);
    let top = _mm256_set1_epi8(-128);
    let mut acc = [_mm256_setzero_si256(); 5];
    for g in 0..16 {
        // Index l where the high nibble is g, else a zeroing index (bit 7 set).
        let idx = _mm256_or_si256(
            l,
            _mm256_andnot_si256(_mm256_cmpeq_epi8(h, _mm256_set1_epi8(g as i8)), top),
        );
        for (p, a) in acc.iter_mut().enumerate() {
            // SAFETY: a 32-byte aligned row of the static planes.
            let t = unsafe { _mm256_load_si256(PLANES.0[p][g].as_ptr().cast()) };
            *a = _mm256_or_si256(*a, _mm256_shuffle_epi8(t, idx));
        }
    }
    // Bytes to 64-bit integers (per lane: slots in order), then to f64 (exact: below
    // 2^40, placed in the mantissa of 2^52) scaled by 2^-37.
    let z = _mm256_setzero_si256();
    let b01 = (
        _mm256_unpacklo_epi8(acc[0], acc[1]),
        _mm256_unpackhi_epi8(acc[0], acc[1]),
    );
    let b23 = (
        _mm256_unpacklo_epi8(acc[2], acc[3]),
        _mm256_unpackhi_epi8(acc[2], acc[3]),
    );
    let b4 = (
        _mm256_unpacklo_epi8(acc[4], z),
        _mm256_unpackhi_epi8(acc[4], z),
    );
    let magic = _mm256_set1_epi64x(0x4330_0000_0000_0000);
    let two52 = _mm256_set1_pd(4503599627370496.0);
    let scale = _mm256_set1_pd(1.0 / 137438953472.0);
    let cvt = |q: __m256i| {
        _mm256_mul_pd(
            _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(q, magic)), two52),
            scale,
        )
    };
    let mut rej = [_mm256_setzero_pd(); 4];
    let mut acc_t = [_mm256_setzero_pd(); 4];
    for (half, (x01, x23, x4)) in [(b01.0, b23.0, b4.0), (b01.1, b23.1, b4.1)]
        .into_iter()
        .enumerate()
    {
        for quarter in 0..2 {
            let (d, e) = if quarter == 0 {
                (
                    _mm256_unpacklo_epi16(x01, x23),
                    _mm256_unpacklo_epi16(x4, z),
                )
            } else {
                (
                    _mm256_unpackhi_epi16(x01, x23),
                    _mm256_unpackhi_epi16(x4, z),
                )
            };
            let q0 = _mm256_unpacklo_epi32(d, e);
            let q1 = _mm256_unpackhi_epi32(d, e);
            let g4 = 2 * half + quarter;
            rej[g4] = cvt(_mm256_permute2x128_si256::<0x20>(q0, q1));
            acc_t[g4] = cvt(_mm256_permute2x128_si256::<0x31>(q0, q1));
        }
    }
    (rej, acc_t)
}

/// Eight slots at `src + q + 11i`: extraction and base sampler (z, z0, w as 32-bit
/// lanes, slots in order).
///
/// # Safety
/// `src .. src + q + 93` must be readable.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn slots8(src: *const u8, q: usize) -> (__m256i, __m256i, __m256i) {
    // SAFETY: slot i starts at q + 11i <= q + 77, and the caller guarantees the 16 bytes
    // from there readable.
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
    (z, z0, _mm256_srli_epi32::<8>(tail))
}

/// Computes slots `first .. first + 16` of the cache's current anchor: layout
/// [`super::CACHE_AVX2`], the values of the AVX-512 layout (z, c, thresholds + c).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn batch_log(w: &mut Window, first: usize) {
    let wp: *mut Window = w;
    let src = wp as *const u8;
    // SAFETY: `wp` comes from `&mut Window`; the cache is written only through this
    // reference, the bytes only read through `src` (disjoint fields).
    let cache = unsafe { &mut (*wp).cache };
    // Slots past the end of the window read from a clamped position (garbage, never
    // used: at most `count` slots are).
    let q = |i: usize| (cache.start + SLOT_BYTES * i).min(LAST_SLOT_START);
    let (qa, qb) = (q(first), q(first + 8));
    // SAFETY: both starts are at most LAST_SLOT_START: the loads stay within `bytes`
    // and `pad` (const assertion above), which `src` covers.
    unsafe { batch_at(cache, src, qa, qb, first) }
}

/// Sixteen slots of the next window (positions 0, 11, ..., 165) into cache entries
/// `dst ..`.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn vbatch(cache: &mut super::SlotCache, next: &[u8; WINDOW], dst: usize) {
    // SAFETY: the loads end at byte 88 + 77 + 16 < WINDOW.
    unsafe { batch_at(cache, next.as_ptr(), 0, 8 * SLOT_BYTES, dst) }
}

/// Slots at `src + qa + 11i` and `src + qb + 11i` (i < 8) into cache entries
/// `first .. first + 16` (clamped so that the stores stay within the cache).
///
/// # Safety
/// `src .. src + max(qa, qb) + 93` must be readable.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn batch_at(
    cache: &mut super::SlotCache,
    src: *const u8,
    qa: usize,
    qb: usize,
    first: usize,
) {
    // SAFETY: the caller's guarantee.
    let ((za, z0a, wa), (zb, z0b, wb)) = unsafe { (slots8(src, qa), slots8(src, qb)) };
    // The sixteen bytes w in order, in both lanes.
    let w16 = _mm256_permutevar8x32_epi32(
        _mm256_packus_epi16(_mm256_packus_epi32(wa, wb), _mm256_packus_epi32(wa, wb)),
        _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5),
    );
    let (tr, ta) = thresholds16(w16);
    let c0 = _mm256_set1_pd(f64::from_bits(fpr::INV_2SQRSIGMA0.to_bits()));
    let halves = |v: __m256i| (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let groups = [halves(za), halves(zb)];
    let groups0 = [halves(z0a), halves(z0b)];
    let groupsw = [halves(wa), halves(wb)];
    let inf = _mm256_set1_pd(f64::INFINITY);
    for g4 in 0..4 {
        let pick = |g: &[(__m128i, __m128i); 2]| {
            let h = g[g4 / 2];
            if g4 % 2 == 0 {
                h.0
            } else {
                h.1
            }
        };
        let zd = _mm256_cvtepi32_pd(pick(&groups));
        let z0d = _mm256_cvtepi32_pd(pick(&groups0));
        // z0² is exact, as the serial code's integer square.
        let c = _mm256_mul_pd(_mm256_mul_pd(z0d, z0d), c0);
        // w = 0 never rejects: threshold +∞.
        let w0 =
            _mm256_cmp_pd::<_CMP_EQ_OQ>(_mm256_cvtepi32_pd(pick(&groupsw)), _mm256_setzero_pd());
        let trg = _mm256_blendv_pd(tr[g4], inf, w0);
        let o = (first + 4 * g4).min(super::CACHE_LEN - 4);
        // SAFETY: o + 4 <= CACHE_LEN.
        unsafe {
            _mm256_storeu_pd(cache.zd.as_mut_ptr().add(o), zd);
            _mm256_storeu_pd(cache.c.as_mut_ptr().add(o), c);
            _mm256_storeu_pd(cache.ta.as_mut_ptr().add(o), _mm256_add_pd(ta[g4], c));
            _mm256_storeu_pd(cache.tr.as_mut_ptr().add(o), _mm256_add_pd(trg, c));
        }
    }
}

#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn locate_log(stream: &mut Stream<'_>) -> Option<super::Loc> {
    super::locate(
        stream,
        super::CACHE_AVX2,
        16,
        16,
        |w, first| batch_log(w, first),
        |c, next, dst| vbatch(c, next, dst),
    )
}

/// Per-request constants: `1/(2σ²)` as the serial code has it, and `ln ccs ∓ MARGIN`.
#[cfg(not(feature = "fpr-emulated"))]
#[derive(Clone, Copy)]
struct PairConst4 {
    dss: __m256d,
    ta_off: __m256d,
    tr_off: __m256d,
}

/// Per-pair constants from `1/σ`, `ccs` and, when the caller has it, `ln ccs` (else it
/// is computed here).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn pair_const4(isigma: f64, ccs: f64, lnccs: Option<f64>) -> PairConst4 {
    let lnccs = match lnccs {
        Some(l) => _mm256_set1_pd(l),
        None => {
            let (rcp, lnr) = ln_tables();
            let (e, s) = ln_parts4(_mm256_set1_pd(ccs), &rcp, &lnr);
            _mm256_add_pd(_mm256_mul_pd(e, _mm256_set1_pd(super::LN2)), s)
        }
    };
    let m = _mm256_set1_pd(super::MARGIN);
    PairConst4 {
        dss: _mm256_set1_pd((isigma * isigma) * 0.5),
        ta_off: _mm256_sub_pd(lnccs, m),
        tr_off: _mm256_add_pd(lnccs, m),
    }
}

/// One request on the cached slots `k .. k + 8`: `floor(mu)` and the bit masks (sure
/// accept, sure reject, serial reduction negative), as `avx512::masks`.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
#[inline]
fn masks_log(w: &Window, k: usize, pc: &PairConst4, mu: f64) -> (f64, u32, u32, u32) {
    let cache = &w.cache;
    let m = _mm_set_sd(mu);
    let fl = _mm_cvtsd_f64(_mm_round_sd::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(m, m));
    let r = _mm256_set1_pd(mu - fl);
    let (mut acc, mut rej, mut bad) = (0u32, 0u32, 0u32);
    for h in 0..2 {
        let o = k + 4 * h;
        // SAFETY: k < count + virt <= 62, so o + 4 <= CACHE_LEN.
        let (zd, c, ta, tr) = unsafe {
            (
                _mm256_loadu_pd(cache.zd.as_ptr().add(o)),
                _mm256_loadu_pd(cache.c.as_ptr().add(o)),
                _mm256_loadu_pd(cache.ta.as_ptr().add(o)),
                _mm256_loadu_pd(cache.tr.as_ptr().add(o)),
            )
        };
        let d = _mm256_sub_pd(zd, r);
        let y = _mm256_mul_pd(_mm256_mul_pd(d, d), pc.dss);
        let a = _mm256_cmp_pd::<_CMP_LE_OQ>(y, _mm256_add_pd(ta, pc.ta_off));
        let j = _mm256_cmp_pd::<_CMP_GT_OQ>(y, _mm256_add_pd(tr, pc.tr_off));
        let x = _mm256_sub_pd(y, c);
        let s = _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(_mm256_mul_pd(
            x,
            _mm256_set1_pd(f64::from_bits(fpr::INV_LOG2.to_bits())),
        ));
        let rr = _mm256_sub_pd(
            x,
            _mm256_mul_pd(s, _mm256_set1_pd(f64::from_bits(fpr::LOG2.to_bits()))),
        );
        let ok = _mm256_cmp_pd::<_CMP_GE_OQ>(rr, _mm256_setzero_pd());
        acc |= (_mm256_movemask_pd(a) as u32) << (4 * h);
        rej |= (_mm256_movemask_pd(j) as u32) << (4 * h);
        bad |= ((_mm256_movemask_pd(ok) as u32) ^ 0xF) << (4 * h);
    }
    (fl, acc, rej, bad)
}

/// One or two requests in order, with their constants; `inside` when all are in the
/// domain of the analysis (`avx512::Reqs`).
#[cfg(not(feature = "fpr-emulated"))]
struct Reqs {
    req: [Request; 2],
    mu: [f64; 2],
    pc: [PairConst4; 2],
    inside: bool,
}

#[cfg(not(feature = "fpr-emulated"))]
impl Reqs {
    /// Two requests with the same 1/σ (and `ln ccs` if known): one set of constants.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn pair(sigma_min: Fpr, mu: [Fpr; 2], isigma: Fpr, lnccs: Option<f64>) -> Reqs {
        let isg = f64::from_bits(isigma.to_bits());
        let ccs = isg * f64::from_bits(sigma_min.to_bits());
        let muf = mu.map(|m| f64::from_bits(m.to_bits()));
        let pc = pair_const4(isg, ccs, lnccs);
        Reqs {
            req: mu.map(|mu| Request { mu, isigma }),
            mu: muf,
            pc: [pc, pc],
            inside: super::in_domain(muf[0], isg, ccs) & super::in_domain(muf[1], isg, ccs),
        }
    }

    /// The first `n` (1 or 2) of `reqs`, each with its own constants.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn batch(sigma_min: Fpr, reqs: &[Request], n: usize) -> Reqs {
        let req = [reqs[0], reqs[n - 1]];
        let isg = req.map(|r| f64::from_bits(r.isigma.to_bits()));
        let ccs = isg.map(|i| i * f64::from_bits(sigma_min.to_bits()));
        let mu = req.map(|r| f64::from_bits(r.mu.to_bits()));
        // Both ln ccs in one vector evaluation.
        let (rcp, lnr) = ln_tables();
        let (e, s) = ln_parts4(_mm256_setr_pd(ccs[0], ccs[1], 0.5, 0.5), &rcp, &lnr);
        let mut l = [0.0f64; 4];
        let lv = _mm256_add_pd(_mm256_mul_pd(e, _mm256_set1_pd(super::LN2)), s);
        // SAFETY: four f64 into a 4-value array.
        unsafe { _mm256_storeu_pd(l.as_mut_ptr(), lv) };
        Reqs {
            req,
            mu,
            pc: [
                pair_const4(isg[0], ccs[0], Some(l[0])),
                pair_const4(isg[1], ccs[1], Some(l[1])),
            ],
            inside: super::in_domain(mu[0], isg[0], ccs[0])
                & super::in_domain(mu[1], isg[1], ccs[1]),
        }
    }
}

/// `n` (1 or 2) requests in order (the loop of `avx512::run`).
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
fn run_log(stream: &mut Stream<'_>, sigma_min: Fpr, r: &Reqs, n: usize) -> [f64; 2] {
    let mut out = [0.0; 2];
    let mut j = 0;
    // Declassified (docs/ARCHITECTURE.md, "SamplerZ look-ahead"): the domain check, which
    // the requests of a valid key always pass.
    if !crate::ct::public(r.inside) {
        while j < n {
            out[j] = serial(stream, sigma_min, &r.req[j]);
            j += 1;
        }
        return out;
    }
    while j < n {
        let Some(super::Loc {
            k, regular: avail, ..
        }) = locate_log(stream)
        else {
            out[j] = serial(stream, sigma_min, &r.req[j]);
            j += 1;
            continue;
        };
        let start = stream.window.cache.start;
        let v = (1u32 << avail) - 1;
        let end = 1u32 << avail;
        let (fl0, a0, j0, b0) = masks_log(stream.window, k, &r.pc[j], r.mu[j]);
        let stop0 = (v & !j0) | end;
        let f0 = stop0 & stop0.wrapping_neg();
        let upto0 = (f0 << 1).wrapping_sub(1);
        let ok0 = (f0 & a0 & v != 0) & (b0 & upto0 == 0);
        if j + 1 < n {
            let (fl1, a1, j1, b1) = masks_log(stream.window, k, &r.pc[j + 1], r.mu[j + 1]);
            let stop1 = (v & !upto0 & !j1) | end;
            let f1 = stop1 & stop1.wrapping_neg();
            let upto1 = (f1 << 1).wrapping_sub(1);
            let ok1 = (f1 & a1 & v != 0) & (b1 & upto1 & !upto0 == 0);
            // Declassified: both requests decided on these slots (a function of the
            // accepted attempts' positions, BerExp's second-byte events and the rare
            // margin and rounding corners up to them; docs/ARCHITECTURE.md).
            if crate::ct::public(ok0 & ok1) {
                out[j] = fl0 + select8(stream.window, k, f0);
                out[j + 1] = fl1 + select8(stream.window, k, f1);
                // Declassified: the attempt count.
                let used = crate::ct::public(f1.trailing_zeros()) as usize + 1;
                stream.window.pos = start + SLOT_BYTES * (k + used);
                return out;
            }
        }
        if crate::ct::public(ok0) {
            out[j] = fl0 + select8(stream.window, k, f0);
            let used = crate::ct::public(f0.trailing_zeros()) as usize + 1;
            stream.window.pos = start + SLOT_BYTES * (k + used);
            j += 1;
            continue;
        }
        let stop = (v & !(j0 & !b0)) | end;
        // Declassified: the position of the first attempt that is not a sure reject (the
        // serial sampler reads up to it too).
        let first = crate::ct::public(stop & stop.wrapping_neg());
        if first == end {
            stream.window.pos = start + SLOT_BYTES * (k + avail);
            continue;
        }
        stream.window.pos = start + SLOT_BYTES * (k + first.trailing_zeros() as usize);
        out[j] = serial(stream, sigma_min, &r.req[j]);
        j += 1;
    }
    out
}

/// Two requests: both decided on the same eight cached slots when possible, otherwise
/// [`run_log`].
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
fn pair_log(stream: &mut Stream<'_>, sigma_min: Fpr, r: &Reqs) -> [f64; 2] {
    // Declassified: the domain check (see `run_log`).
    if crate::ct::public(r.inside) {
        if let Some(super::Loc {
            k, total: avail, ..
        }) = locate_log(stream)
        {
            let (fl0, a0, j0, b0) = masks_log(stream.window, k, &r.pc[0], r.mu[0]);
            let (fl1, a1, j1, b1) = masks_log(stream.window, k, &r.pc[1], r.mu[1]);
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
            // Declassified: a function of the two accepted attempts' positions, BerExp's
            // second-byte events and the rare margin and rounding corners up to them
            // (docs/ARCHITECTURE.md, "SamplerZ look-ahead").
            if crate::ct::public(decided) {
                let out = [
                    fl0 + select8(stream.window, k, f0),
                    fl1 + select8(stream.window, k, f1),
                ];
                // Declassified: the attempt count.
                let next = k + crate::ct::public(f1.trailing_zeros()) as usize + 1;
                let w = &mut *stream.window;
                if next <= w.cache.count {
                    w.pos = w.cache.start + SLOT_BYTES * next;
                } else {
                    // Into the next window's slots.
                    super::cross(stream, super::CACHE_AVX2, next);
                }
                return out;
            }
        }
    }
    run_log(stream, sigma_min, r, 2)
}

/// The batch entry: requests two by two (each with its own constants: nothing is
/// compared between them), a last odd one alone.
#[cfg(not(feature = "fpr-emulated"))]
#[target_feature(enable = "avx2")]
fn sample_cached(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    let n = reqs.len().min(out.len());
    let mut i = 0;
    while i < n {
        let m = (n - i).min(2);
        let r = Reqs::batch(sigma_min, &reqs[i..], m);
        let v = if m == 2 {
            pair_log(stream, sigma_min, &r)
        } else {
            run_log(stream, sigma_min, &r, 1)
        };
        for (o, &x) in out[i..i + m].iter_mut().zip(&v) {
            *o = x as i32;
        }
        i += m;
    }
}

/// See [`SamplerKernels::sample`].
pub(super) fn sample(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    // SAFETY: the table is only handed out when AVX2 is available (module docs).
    unsafe { sample_avx2(stream, sigma_min, reqs, out) }
}

/// See [`SamplerKernels::sample_pair`].
pub(super) fn sample_pair(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    isigma: Fpr,
) -> (Fpr, Fpr) {
    #[cfg(not(feature = "fpr-emulated"))]
    {
        // SAFETY: as for `sample`.
        let [a, b] = unsafe {
            let r = Reqs::pair(sigma_min, [mu0, mu1], isigma, None);
            pair_log(stream, sigma_min, &r)
        };
        (Fpr::from_bits(a.to_bits()), Fpr::from_bits(b.to_bits()))
    }
    #[cfg(feature = "fpr-emulated")]
    super::pair_via_batch(sample, stream, sigma_min, mu0, mu1, isigma)
}

/// See [`SamplerKernels::sample_leaf`].
pub(super) fn sample_leaf(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    leaf: super::Leaf,
) -> (Fpr, Fpr) {
    #[cfg(not(feature = "fpr-emulated"))]
    {
        let lnccs = f64::from_bits(leaf.lnccs().to_bits());
        // SAFETY: as for `sample`.
        let [a, b] = unsafe {
            let r = Reqs::pair(sigma_min, [mu0, mu1], leaf.isigma(), Some(lnccs));
            pair_log(stream, sigma_min, &r)
        };
        (Fpr::from_bits(a.to_bits()), Fpr::from_bits(b.to_bits()))
    }
    #[cfg(feature = "fpr-emulated")]
    super::pair_via_batch(sample, stream, sigma_min, mu0, mu1, leaf.isigma())
}

#[target_feature(enable = "avx2")]
unsafe fn gaussian0_avx2(stream: &mut Stream<'_>) -> i32 {
    let v = super::draw72(stream);
    rcdt_avx2(&v)
}

/// See [`SamplerKernels::gaussian0`].
pub(super) fn gaussian0(stream: &mut Stream<'_>) -> i32 {
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
pub(super) fn chacha20x8(key_iv: &[u32; 12], counter: u64, out: &mut [u8; WINDOW]) {
    // SAFETY: as for `sample`; the stores stay within the 512-byte `out` (16 × 32 bytes).
    unsafe { chacha20x8_avx2(key_iv, counter, out) }
}

#[cfg(all(test, feature = "std", not(feature = "fpr-emulated")))]
mod tests {
    use super::super::isa_tests;
    use super::*;

    /// The fixed-point thresholds against the standard library's `ln`.
    #[test]
    fn thresholds_are_accurate() {
        for v in 1..=256u64 {
            let want = 8.0 * core::f64::consts::LN_2 - (v as f64).ln();
            let got = THR[v as usize] as f64 / 137438953472.0;
            assert!((got - want).abs() < 2f64.powi(-37), "v = {v}");
        }
    }

    /// The AVX2 cache: `anchor`, then every 16-slot batch.
    #[target_feature(enable = "avx2")]
    fn rebuild(w: &mut Window) {
        super::super::anchor(w, super::super::CACHE_AVX2);
        while w.cache.ready < w.cache.count {
            let first = w.cache.ready;
            batch_log(w, first);
            w.cache.ready += 16;
        }
    }

    /// The AVX2 log-domain first-byte test of eight cached slots.
    #[target_feature(enable = "avx2")]
    fn decide8(w: &Window, k: usize, isigma: f64, ccs: f64, mu: f64) -> (f64, u32, u32, u32) {
        masks_log(w, k, &pair_const4(isigma, ccs, None), mu)
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn cache_and_decisions_are_exact() {
        assert!(Backend::Avx2.is_available(), "{}", isa_tests::MISSING);
        // SAFETY: AVX2 asserted above.
        unsafe { isa_tests::cache_and_decisions_are_exact(rebuild, decide8) }
    }
}
