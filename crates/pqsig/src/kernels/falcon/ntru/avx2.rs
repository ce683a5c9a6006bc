//! AVX2 versions of the NTRU solver's arithmetic modulo the 31-bit RNS primes: eight
//! 32-bit lanes, Montgomery products (R = 2^32) on the even and odd lanes with
//! `vpmuludq`, reductions with unsigned minima. Every function computes exactly the
//! values of its portable counterpart in `falcon::ntru` (all results are canonical, in
//! `[0, p)`), so the solver's outputs do not depend on the backend; the tests compare
//! them on random inputs.
//!
//! Each function is a whole `#[target_feature(enable = "avx2")]` function; the safe
//! entry points ([`ntt`], [`intt`], ...) are only reached through `ntru::kernels` after
//! AVX2 was detected.

// Value-only intrinsics are safe inside `#[target_feature]` functions.
#![allow(unused_unsafe)]

use crate::falcon::ntru::modp::{SmallPrime, PRIMES};
use crate::falcon::ntru::zint;
use core::arch::x86_64::*;

/// Loads 8 words at `a[i..]`.
#[inline(always)]
fn ld(a: &[u32], i: usize) -> __m256i {
    let s = &a[i..i + 8];
    // SAFETY: `s` is 8 readable u32.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Stores 8 words at `a[i..]`.
#[inline(always)]
fn st(a: &mut [u32], i: usize, v: __m256i) {
    let s = &mut a[i..i + 8];
    // SAFETY: `s` is 8 writable u32.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
}

/// The prime's constants in every lane.
#[derive(Clone, Copy)]
pub(super) struct Pv {
    p: __m256i,
    p0i: __m256i,
}

impl Pv {
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn new(sp: &SmallPrime) -> Pv {
        Pv {
            p: _mm256_set1_epi32(sp.p as i32),
            p0i: _mm256_set1_epi32(sp.p0i as i32),
        }
    }
}

/// a + b mod p (inputs in [0, p)).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn add(a: __m256i, b: __m256i, pv: Pv) -> __m256i {
    let s = _mm256_add_epi32(a, b);
    _mm256_min_epu32(s, _mm256_sub_epi32(s, pv.p))
}

/// a − b mod p (inputs in [0, p)).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn sub(a: __m256i, b: __m256i, pv: Pv) -> __m256i {
    let d = _mm256_sub_epi32(a, b);
    _mm256_min_epu32(d, _mm256_add_epi32(d, pv.p))
}

/// a/2 mod p.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn half(a: __m256i, pv: Pv) -> __m256i {
    let odd = _mm256_sub_epi32(
        _mm256_setzero_si256(),
        _mm256_and_si256(a, _mm256_set1_epi32(1)),
    );
    _mm256_srli_epi32::<1>(_mm256_add_epi32(a, _mm256_and_si256(odd, pv.p)))
}

/// a·b/2^32 mod p (inputs in [0, p)).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn mmul(a: __m256i, b: __m256i, pv: Pv) -> __m256i {
    // Even lanes, then odd lanes moved down: z = a·b, w = z·p0i mod 2^32,
    // (z + w·p)/2^32 < 2p.
    let ze = _mm256_mul_epu32(a, b);
    let zo = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    let we = _mm256_mul_epu32(_mm256_mul_epu32(ze, pv.p0i), pv.p);
    let wo = _mm256_mul_epu32(_mm256_mul_epu32(zo, pv.p0i), pv.p);
    let de = _mm256_srli_epi64::<32>(_mm256_add_epi64(ze, we));
    let dd = _mm256_add_epi64(zo, wo);
    let d = _mm256_blend_epi32::<0xAA>(de, dd);
    _mm256_min_epu32(d, _mm256_sub_epi32(d, pv.p))
}

/// One Cooley–Tukey butterfly on vectors: (x1 + x2·s, x1 − x2·s).
#[target_feature(enable = "avx2")]
#[inline]
fn ct(x1: __m256i, x2: __m256i, s: __m256i, pv: Pv) -> (__m256i, __m256i) {
    let t = mmul(x2, s, pv);
    (add(x1, t, pv), sub(x1, t, pv))
}

/// One Gentleman–Sande butterfly: ((x1 + x2)/2, (x1 − x2)·s).
#[target_feature(enable = "avx2")]
#[inline]
fn gs(x1: __m256i, x2: __m256i, s: __m256i, pv: Pv) -> (__m256i, __m256i) {
    (half(add(x1, x2, pv), pv), mmul(sub(x1, x2, pv), s, pv))
}

/// Twiddles of the three in-register layers for the 16 values at `16c`: the layer with
/// half-distance 4 (groups 2c, 2c+1 of `m = n/8`), 2 (groups 4c..4c+4 of `n/4`) and 1
/// (pairs 8c..8c+8 of `n/2`), in the lane orders of the shuffles below.
#[target_feature(enable = "avx2")]
#[inline]
fn tw4(t: &[u32], m: usize, c: usize) -> __m256i {
    let s = &t[m + 2 * c..m + 2 * c + 2];
    // SAFETY: `s` is 2 readable u32 (8 bytes).
    let v = unsafe { _mm_loadl_epi64(s.as_ptr().cast()) };
    _mm256_permutevar8x32_epi32(
        _mm256_castsi128_si256(v),
        _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1),
    )
}

#[target_feature(enable = "avx2")]
#[inline]
fn tw2(t: &[u32], m: usize, c: usize) -> __m256i {
    let s = &t[m + 4 * c..m + 4 * c + 4];
    // SAFETY: `s` is 4 readable u32.
    let v = unsafe { _mm_loadu_si128(s.as_ptr().cast()) };
    _mm256_permutevar8x32_epi32(
        _mm256_castsi128_si256(v),
        _mm256_setr_epi32(0, 0, 2, 2, 1, 1, 3, 3),
    )
}

#[target_feature(enable = "avx2")]
#[inline]
fn tw1(t: &[u32], m: usize, c: usize) -> __m256i {
    _mm256_permutevar8x32_epi32(ld(t, m + 8 * c), _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7))
}

/// Splits (A, B) = 16 consecutive values into the (first, second) operands of the
/// butterflies at half-distance 4, 2 or 1, and back.
#[target_feature(enable = "avx2")]
#[inline]
fn split4(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_permute2x128_si256::<0x20>(a, b),
        _mm256_permute2x128_si256::<0x31>(a, b),
    )
}

#[target_feature(enable = "avx2")]
#[inline]
fn split2(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
}

#[target_feature(enable = "avx2")]
#[inline]
fn join2(lo: __m256i, hi: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi))
}

#[target_feature(enable = "avx2")]
#[inline]
fn split1(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    let (fa, fb) = (_mm256_castsi256_ps(a), _mm256_castsi256_ps(b));
    (
        _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(fa, fb)),
        _mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(fa, fb)),
    )
}

#[target_feature(enable = "avx2")]
#[inline]
fn join1(lo: __m256i, hi: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi32(lo, hi), _mm256_unpackhi_epi32(lo, hi))
}

/// Forward NTT, as [`SmallPrime::ntt`] (logn >= 4; smaller degrees use the portable
/// code).
#[target_feature(enable = "avx2")]
unsafe fn ntt_avx2(sp: &SmallPrime, logn: u32, a: &mut [u32], gm: &[u32]) {
    let n = 1usize << logn;
    let pv = Pv::new(sp);
    // Layers with half-distance >= 8: vectors along j.
    let mut t = n;
    let mut m = 1usize;
    while t > 8 {
        let ht = t >> 1;
        for i in 0..m {
            let s = _mm256_set1_epi32(gm[i + m] as i32);
            let j0 = i * t;
            for j in (j0..j0 + ht).step_by(8) {
                let (x, y) = ct(ld(a, j), ld(a, j + ht), s, pv);
                st(a, j, x);
                st(a, j + ht, y);
            }
        }
        t = ht;
        m <<= 1;
    }
    // The last three layers on 16 values at a time.
    for c in 0..n / 16 {
        let (va, vb) = (ld(a, 16 * c), ld(a, 16 * c + 8));
        let (lo, hi) = split4(va, vb);
        let (lo, hi) = ct(lo, hi, tw4(gm, n / 8, c), pv);
        let (va, vb) = split4(lo, hi);
        let (lo, hi) = split2(va, vb);
        let (lo, hi) = ct(lo, hi, tw2(gm, n / 4, c), pv);
        let (va, vb) = join2(lo, hi);
        let (lo, hi) = split1(va, vb);
        let (lo, hi) = ct(lo, hi, tw1(gm, n / 2, c), pv);
        let (va, vb) = join1(lo, hi);
        st(a, 16 * c, va);
        st(a, 16 * c + 8, vb);
    }
}

/// Inverse NTT, as [`SmallPrime::intt`] (logn >= 4).
#[target_feature(enable = "avx2")]
unsafe fn intt_avx2(sp: &SmallPrime, logn: u32, a: &mut [u32], igm: &[u32]) {
    let n = 1usize << logn;
    let pv = Pv::new(sp);
    for c in 0..n / 16 {
        let (va, vb) = (ld(a, 16 * c), ld(a, 16 * c + 8));
        let (lo, hi) = split1(va, vb);
        let (lo, hi) = gs(lo, hi, tw1(igm, n / 2, c), pv);
        let (va, vb) = join1(lo, hi);
        let (lo, hi) = split2(va, vb);
        let (lo, hi) = gs(lo, hi, tw2(igm, n / 4, c), pv);
        let (va, vb) = join2(lo, hi);
        let (lo, hi) = split4(va, vb);
        let (lo, hi) = gs(lo, hi, tw4(igm, n / 8, c), pv);
        let (va, vb) = split4(lo, hi);
        st(a, 16 * c, va);
        st(a, 16 * c + 8, vb);
    }
    let mut t = 8usize;
    while t < n {
        let hm = n / (2 * t);
        let dt = t << 1;
        for i in 0..hm {
            let s = _mm256_set1_epi32(igm[i + hm] as i32);
            let j0 = i * dt;
            for j in (j0..j0 + t).step_by(8) {
                let (x, y) = gs(ld(a, j), ld(a, j + t), s, pv);
                st(a, j, x);
                st(a, j + t, y);
            }
        }
        t = dt;
    }
}

/// Forward NTT (AVX2 from degree 16; portable below).
pub(super) fn ntt(sp: &SmallPrime, logn: u32, a: &mut [u32], gm: &[u32]) {
    if logn < 4 {
        return sp.ntt(logn, a, gm);
    }
    assert!(a.len() >= 1 << logn && gm.len() >= 1 << logn);
    // SAFETY: reached only through the AVX2 kernel table, handed out after detection.
    unsafe { ntt_avx2(sp, logn, a, gm) }
}

/// Inverse NTT (AVX2 from degree 16; portable below).
pub(super) fn intt(sp: &SmallPrime, logn: u32, a: &mut [u32], igm: &[u32]) {
    if logn < 4 {
        return sp.intt(logn, a, igm);
    }
    assert!(a.len() >= 1 << logn && igm.len() >= 1 << logn);
    // SAFETY: as for `ntt`.
    unsafe { intt_avx2(sp, logn, a, igm) }
}

/// w mod p for w in [0, 2^31) (one conditional subtraction).
#[target_feature(enable = "avx2")]
#[inline]
fn set_u(w: __m256i, pv: Pv) -> __m256i {
    _mm256_min_epu32(w, _mm256_sub_epi32(w, pv.p))
}

/// Residues modulo `sp` of the unsigned integers of `len` words at `x[c..]` (stride
/// `n`, eight integers side by side): Horner from the top word, as
/// [`zint::mod_small_unsigned`].
#[target_feature(enable = "avx2")]
#[inline]
fn mod_unsigned8(x: &[u32], c: usize, len: usize, n: usize, z: __m256i, pv: Pv) -> __m256i {
    let mut r = _mm256_setzero_si256();
    for j in (0..len).rev() {
        r = add(mmul(r, z, pv), set_u(ld(x, j * n + c), pv), pv);
    }
    r
}

/// `x += y·q` for eight integers side by side (`x`: words at `x[j·n + c]`, j < q.len(),
/// the carry going to word q.len(); `y` eight values below 2^31, `q` unsigned words).
#[target_feature(enable = "avx2")]
#[inline]
fn add_mul_small8(x: &mut [u32], c: usize, n: usize, q: &[u32], y: __m256i) {
    let y0 = y;
    let y1 = _mm256_srli_epi64::<32>(y);
    let lo32 = _mm256_set1_epi64x(0xFFFF_FFFF);
    let m31 = _mm256_set1_epi32(0x7FFF_FFFF);
    let (mut c0, mut c1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    for (j, &qj) in q.iter().enumerate() {
        let qv = _mm256_set1_epi64x(qj as i64);
        let w = ld(x, j * n + c);
        // Even lanes and odd lanes: y·q_j + x_j + carry < 2^63.
        let z0 = _mm256_add_epi64(
            _mm256_mul_epu32(qv, y0),
            _mm256_add_epi64(_mm256_and_si256(w, lo32), c0),
        );
        let z1 = _mm256_add_epi64(
            _mm256_mul_epu32(qv, y1),
            _mm256_add_epi64(_mm256_srli_epi64::<32>(w), c1),
        );
        c0 = _mm256_srli_epi64::<31>(z0);
        c1 = _mm256_srli_epi64::<31>(z1);
        let r = _mm256_blend_epi32::<0xAA>(z0, _mm256_slli_epi64::<32>(z1));
        st(x, j * n + c, _mm256_and_si256(r, m31));
    }
    let r = _mm256_blend_epi32::<0xAA>(c0, _mm256_slli_epi64::<32>(c1));
    st(x, q.len() * n + c, _mm256_and_si256(r, m31));
}

/// [`zint`]'s `norm_zero` on eight integers side by side: x ← x − m if x > ⌊m/2⌋ (m
/// unsigned, `m.len()` words; x at `x[j·n + c]`).
#[target_feature(enable = "avx2")]
#[inline]
fn norm_zero8(x: &mut [u32], c: usize, n: usize, m: &[u32]) {
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi32(1);
    // r: −1, 0 or 1 per lane, the sign of ⌊m/2⌋ − x decided at the top differing word.
    let mut r = zero;
    let mut bb = 0u32;
    for i in (0..m.len()).rev() {
        let mw = m[i];
        let hmw = _mm256_set1_epi32(((mw >> 1) | (bb << 30)) as i32);
        bb = mw & 1;
        let cc = _mm256_sub_epi32(hmw, ld(x, i * n + c));
        let cc = _mm256_or_si256(
            _mm256_srli_epi32::<31>(_mm256_sub_epi32(zero, cc)),
            _mm256_srai_epi32::<31>(cc),
        );
        r = _mm256_or_si256(
            r,
            _mm256_and_si256(cc, _mm256_sub_epi32(_mm256_and_si256(r, one), one)),
        );
    }
    let mk = _mm256_srai_epi32::<31>(r);
    let m31 = _mm256_set1_epi32(0x7FFF_FFFF);
    let mut cc = zero;
    for (j, &mw) in m.iter().enumerate() {
        let w = _mm256_sub_epi32(
            _mm256_sub_epi32(
                ld(x, j * n + c),
                _mm256_and_si256(_mm256_set1_epi32(mw as i32), mk),
            ),
            cc,
        );
        st(x, j * n + c, _mm256_and_si256(w, m31));
        cc = _mm256_srli_epi32::<31>(w);
    }
}

/// [`zint::rebuild_crt`], eight coefficients at a time (the remainder of n mod 8 runs
/// the portable steps).
#[target_feature(enable = "avx2")]
unsafe fn rebuild_crt_avx2(
    xx: &mut [u32],
    xlen: usize,
    n: usize,
    sets: usize,
    signed: bool,
    tmp: &mut [u32],
) {
    let n8 = n & !7;
    tmp[0] = PRIMES[0].p;
    for i in 1..xlen {
        let sp = &PRIMES[i];
        let pv = Pv::new(sp);
        // Montgomery form of 2^31, and s_i.
        let z = _mm256_set1_epi32(sp.c31() as i32);
        let sv = _mm256_set1_epi32(sp.s as i32);
        for set in 0..sets {
            let x = &mut xx[set * n * xlen..(set + 1) * n * xlen];
            for c in (0..n8).step_by(8) {
                let xq = mod_unsigned8(x, c, i, n, z, pv);
                let xr = mmul(sv, sub(ld(x, i * n + c), xq, pv), pv);
                add_mul_small8(x, c, n, &tmp[..i], xr);
            }
            for c in n8..n {
                zint::crt_step(&mut x[c..], i, n, &tmp[..i]);
            }
        }
        tmp[i] = zint::mul_small(&mut tmp[..i], sp.p);
    }
    if signed {
        for set in 0..sets {
            let x = &mut xx[set * n * xlen..(set + 1) * n * xlen];
            for c in (0..n8).step_by(8) {
                norm_zero8(x, c, n, &tmp[..xlen]);
            }
            for c in n8..n {
                zint::norm_zero(&mut x[c..], n, &tmp[..xlen]);
            }
        }
    }
}

/// `out[j] = x_j mod p` for the n signed integers of `len` words at `x[j..]` (stride
/// n), as [`zint::mod_small_signed`]; `rx = 2^(31·len) mod p`.
#[target_feature(enable = "avx2")]
unsafe fn mod_small_signed_avx2(
    out: &mut [u32],
    x: &[u32],
    len: usize,
    n: usize,
    sp: &SmallPrime,
    rx: u32,
) {
    let n8 = n & !7;
    if len == 0 {
        out[..n].fill(0);
        return;
    }
    let pv = Pv::new(sp);
    let z = _mm256_set1_epi32(sp.c31() as i32);
    let rxv = _mm256_set1_epi32(rx as i32);
    for c in (0..n8).step_by(8) {
        let r = mod_unsigned8(x, c, len, n, z, pv);
        // Minus 2^(31·len) for negative values (bit 30 of the top word).
        let neg = _mm256_sub_epi32(
            _mm256_setzero_si256(),
            _mm256_srli_epi32::<30>(ld(x, (len - 1) * n + c)),
        );
        st(out, c, sub(r, _mm256_and_si256(rxv, neg), pv));
    }
    for c in n8..n {
        out[c] = zint::mod_small_signed(&x[c..], len, n, sp, rx);
    }
}

/// CRT reconstruction (AVX2 over the coefficients).
pub(super) fn rebuild_crt(
    xx: &mut [u32],
    xlen: usize,
    n: usize,
    sets: usize,
    signed: bool,
    tmp: &mut [u32],
) {
    assert!(xx.len() >= xlen * n * sets && tmp.len() >= xlen);
    // SAFETY: as for `ntt`.
    unsafe { rebuild_crt_avx2(xx, xlen, n, sets, signed, tmp) }
}

/// Residues of n signed integers (AVX2 over the integers).
pub(super) fn mod_small_signed_batch(
    out: &mut [u32],
    x: &[u32],
    len: usize,
    n: usize,
    sp: &SmallPrime,
    rx: u32,
) {
    assert!(out.len() >= n && (len == 0 || x.len() >= (len - 1) * n + n));
    // SAFETY: as for `ntt`.
    unsafe { mod_small_signed_avx2(out, x, len, n, sp, rx) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(st: &mut u64) -> u64 {
        *st ^= *st << 13;
        *st ^= *st >> 7;
        *st ^= *st << 17;
        *st
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn ntt_matches_portable() {
        assert!(crate::kernels::select::Backend::Avx2.is_available());
        let mut st = 5u64;
        for pi in [0usize, 1, 17, 307] {
            let sp = &PRIMES[pi];
            for logn in 1..=10u32 {
                let n = 1usize << logn;
                let mut gm = vec![0u32; n];
                let mut igm = vec![0u32; n];
                sp.mkgm(logn, &mut gm);
                sp.mkigm(logn, &mut igm);
                for t in 0..4 {
                    let a: Vec<u32> = (0..n)
                        .map(|i| match t {
                            0 => sp.p - 1 - (i as u32 & 1),
                            _ => (rng(&mut st) % sp.p as u64) as u32,
                        })
                        .collect();
                    let (mut x, mut y) = (a.clone(), a.clone());
                    sp.ntt(logn, &mut x, &gm);
                    ntt(sp, logn, &mut y, &gm);
                    assert_eq!(x, y, "ntt prime {pi} logn {logn}");
                    sp.intt(logn, &mut x, &igm);
                    intt(sp, logn, &mut y, &igm);
                    assert_eq!(x, y, "intt prime {pi} logn {logn}");
                    assert_eq!(x, a);
                }
            }
        }
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn crt_and_residues_match_portable() {
        assert!(crate::kernels::select::Backend::Avx2.is_available());
        let mut st = 11u64;
        for (xlen, n, sets) in [
            (1usize, 8usize, 1usize),
            (3, 8, 2),
            (7, 16, 1),
            (15, 19, 2),
            (40, 32, 1),
        ] {
            for signed in [false, true] {
                let mut a: Vec<u32> = (0..xlen * n * sets)
                    .map(|k| {
                        let p = PRIMES[(k / n) % xlen].p as u64;
                        (rng(&mut st) % p) as u32
                    })
                    .collect();
                // A few extreme residues.
                a[0] = PRIMES[0].p - 1;
                let mut b = a.clone();
                let mut t1 = vec![0u32; xlen];
                let mut t2 = vec![0u32; xlen];
                zint::rebuild_crt(&mut a, xlen, n, sets, signed, &mut t1);
                rebuild_crt(&mut b, xlen, n, sets, signed, &mut t2);
                assert_eq!(a, b, "rebuild xlen {xlen} n {n} signed {signed}");
                // Residues of the rebuilt (signed) integers modulo a later prime.
                if signed && sets == 1 {
                    let sp = &PRIMES[xlen + 3];
                    let rx = sp.pow2_31(xlen);
                    let mut o1 = vec![0u32; n];
                    let mut o2 = vec![0u32; n];
                    for c in 0..n {
                        o1[c] = zint::mod_small_signed(&a[c..], xlen, n, sp, rx);
                    }
                    mod_small_signed_batch(&mut o2, &a, xlen, n, sp, rx);
                    assert_eq!(o1, o2);
                }
            }
        }
    }
}
