//! AVX2 one-state Keccak-f\[1600\]: the 25 lanes of one state in seven `__m256i`.
//!
//! A sponge permutes one state at a time, so the vector unit can only help by doing a
//! round's work in fewer instructions, not by running states side by side. The layout
//! (the idea is Polyakov's for OpenSSL's AVX2 Keccak; this arrangement and its operation
//! sequence are derived here) puts lane A\[y\]\[x\] (index x + 5y) in register
//! element p as follows:
//!
//! | register | elements 0–3 (lane index) | rule |
//! |---|---|---|
//! | `z`  | 0, 0, 0, 0 | A\[0\]\[0\] in every element |
//! | `rw` | 1, 2, 3, 4 | row 0, column p + 1 |
//! | `cl` | 5, 10, 15, 20 | column 0, row p + 1 |
//! | `m1` | 6, 12, 18, 24 | column c = p + 1, row c |
//! | `m2` | 11, 22, 8, 19 | column c, row 2c mod 5 |
//! | `m3` | 16, 7, 23, 14 | column c, row 3c mod 5 |
//! | `m4` | 21, 17, 13, 9 | column c, row 4c mod 5 |
//!
//! Why this shape:
//!
//! * θ: element p of `rw` and `m1`–`m4` is always column p + 1, so four XORs give the
//!   column parities C1–C4 in order; C0 is `cl`'s horizontal XOR with `z`.
//! * ρ: one variable shift pair per register (`vpsllvq`/`vpsrlvq`).
//! * π: lane (x, y) moves to (y, 2x + 3y). It maps the family "column c, row k·c" onto
//!   itself (k ↦ 2/k + 3 mod 5), row 0 onto column 0 and column 0 onto k = 3, so π is a
//!   renaming of the seven registers and a reordering of elements within each.
//! * π and χ's operands are built together: χ needs each lane's two right-hand
//!   neighbours in its row aligned with it. Any element of a register reaches any
//!   position through one of four forms (itself, its 64-bit elements swapped within each
//!   128-bit half, its halves swapped, or both), so every operand is a blend of at most
//!   four such forms: one lane-crossing `vperm2i128` per register and round, the rest
//!   in-half shuffles and `vpblendd`.
//!
//! Lane crossings are what a single-state layout pays for: `vpermq` has six cycles of
//! latency on Zen 3 against one for an in-half shuffle, and a form with about twenty
//! `vpermq` per round was no faster than the scalar code there. This one runs about
//! 125 instructions a round with seven lane crossings (`keccak_ticks`: about 980 TSC
//! ticks per permutation on a Zen 3 EPYC, steady, where the scalar code takes 910–1,750
//! depending on what shares the core; XKCP's AVX2 assembly measured 910 on the same
//! machine). See docs/PERFORMANCE.md.
//!
//! Constant time: no data-dependent branches or memory indices; every instruction has
//! data-independent timing.

use super::f1600::RC;
use core::arch::x86_64::*;

/// The permutation on `s` (lane x + 5y at index x + 5y).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn keccak_f1600_avx2(s: &mut [u64; 25]) {
    let g = |a: usize, b: usize, c: usize, d: usize| {
        _mm256_set_epi64x(s[d] as i64, s[c] as i64, s[b] as i64, s[a] as i64)
    };
    let mut z = _mm256_set1_epi64x(s[0] as i64);
    let mut rw = g(1, 2, 3, 4);
    let mut cl = g(5, 10, 15, 20);
    let mut m1 = g(6, 12, 18, 24);
    let mut m2 = g(11, 22, 8, 19);
    let mut m3 = g(16, 7, 23, 14);
    let mut m4 = g(21, 17, 13, 9);

    // ρ's offsets for each register's elements (FIPS 202 Table 2, in the layout above).
    let rot = |a: i64, b: i64, c: i64, d: i64| {
        (
            _mm256_set_epi64x(d, c, b, a),
            _mm256_set_epi64x(64 - d, 64 - c, 64 - b, 64 - a),
        )
    };
    let r_rw = rot(1, 62, 28, 27);
    let r_cl = rot(36, 3, 41, 18);
    let r_m1 = rot(44, 43, 21, 14);
    let r_m2 = rot(10, 61, 55, 8);
    let r_m3 = rot(45, 6, 56, 39);
    let r_m4 = rot(2, 15, 25, 20);

    for &rc in RC.iter() {
        // θ: C1–C4 in one register, C0 broadcast; D1–D4 and D0 the same way.
        let c14 = xor(xor(xor(rw, m1), xor(m2, m3)), m4);
        let sc = swap128(c14); // C3 C4 C1 C2
        let cc = xor(cl, swap128(cl));
        let c0 = xor(xor(cc, swap64(cc)), z);
        let c4123 = alignr8(c14, sc); // C4 C1 C2 C3
        let q = blend::<0x03>(c4123, c0); // C0 C1 C2 C3
        let p = blend::<0xC0>(alignr8(sc, c14), c0); // C2 C3 C4 C0
        let d14 = xor(q, rotl1(p));
        let d0 = bcast0(xor(c4123, rotl1(c14)));

        // θ applied, then ρ.
        let a_z = xor(z, d0);
        let a_rw = rotv(xor(rw, d14), r_rw);
        let a_cl = rotv(xor(cl, d0), r_cl);
        let a_m1 = rotv(xor(m1, d14), r_m1);
        let a_m2 = rotv(xor(m2, d14), r_m2);
        let a_m3 = rotv(xor(m3, d14), r_m3);
        let a_m4 = rotv(xor(m4, d14), r_m4);

        // π and χ's operands together. Every element of a register reaches every
        // position through one of four forms: itself, its 64-bit elements swapped within
        // each half (x_), its halves swapped (s_, the one lane-crossing operation per
        // register), or both (xs_). π's image of each register (b_) and, for χ, its
        // lanes' right neighbours (n1_) and the ones after (n2_) are blends of those.
        let x_rw = swap64(a_rw);
        let s_rw = swap128(a_rw);
        let xs_rw = swap64(s_rw);
        let x_cl = swap64(a_cl);
        let s_cl = swap128(a_cl);
        let xs_cl = swap64(s_cl);
        let x_m1 = swap64(a_m1);
        let s_m1 = swap128(a_m1);
        let xs_m1 = swap64(s_m1);
        let x_m2 = swap64(a_m2);
        let s_m2 = swap128(a_m2);
        let xs_m2 = swap64(s_m2);
        let x_m3 = swap64(a_m3);
        let s_m3 = swap128(a_m3);
        let xs_m3 = swap64(s_m3);
        let x_m4 = swap64(a_m4);
        let s_m4 = swap128(a_m4);
        let xs_m4 = swap64(s_m4);
        let b_rw = a_m1;
        let n1_rw = blend::<0xC0>(blend::<0x0C>(x_m1, xs_m1), a_z);
        let n2_rw = blend::<0xC0>(blend::<0x30>(s_m1, a_z), xs_m1);
        let b_cl = blend::<0x3C>(s_rw, x_rw);
        let n1_cl = blend::<0xF0>(blend::<0x0C>(xs_m4, a_m3), blend::<0xC0>(s_cl, x_m2));
        let n2_cl = blend::<0xF0>(blend::<0x0C>(x_cl, xs_m4), blend::<0xC0>(s_m2, a_m3));
        let b_m1 = xs_m4;
        let n1_m1 = blend::<0xF0>(blend::<0x0C>(x_cl, s_m2), blend::<0xC0>(a_m3, s_rw));
        let n2_m1 = blend::<0xF0>(blend::<0x0C>(a_m3, s_cl), blend::<0xC0>(x_rw, x_m2));
        let b_m2 = blend::<0x3C>(x_m3, s_m3);
        let n1_m2 = blend::<0xF0>(blend::<0x0C>(s_m4, xs_cl), blend::<0xC0>(xs_m2, a_rw));
        let n2_m2 = blend::<0xF0>(blend::<0x0C>(xs_m2, x_m4), blend::<0xC0>(a_rw, xs_cl));
        let b_m3 = a_cl;
        let n1_m3 = blend::<0xF0>(blend::<0x0C>(a_m2, x_m3), blend::<0xC0>(s_m4, xs_rw));
        let n2_m3 = blend::<0xF0>(blend::<0x0C>(x_m4, a_m2), blend::<0xC0>(xs_rw, s_m3));
        let b_m4 = blend::<0x3C>(s_m2, x_m2);
        let n1_m4 = blend::<0xF0>(blend::<0x0C>(xs_m3, a_m4), blend::<0xC0>(x_cl, x_rw));
        let n2_m4 = blend::<0xF0>(blend::<0x0C>(s_cl, xs_m3), blend::<0xC0>(s_rw, a_m4));

        // χ. A[0][0] = B00 ^ (!B01 & B02): element 0 of !b_rw & n1_rw, broadcast.
        z = xor(a_z, bcast0(andnot(b_rw, n1_rw)));
        rw = xor(b_rw, andnot(n1_rw, n2_rw));
        cl = xor(b_cl, andnot(n1_cl, n2_cl));
        m1 = xor(b_m1, andnot(n1_m1, n2_m1));
        m2 = xor(b_m2, andnot(n1_m2, n2_m2));
        m3 = xor(b_m3, andnot(n1_m3, n2_m3));
        m4 = xor(b_m4, andnot(n1_m4, n2_m4));

        // ι
        z = xor(z, _mm256_set1_epi64x(rc as i64));
    }

    let mut out = [[0u64; 4]; 7];
    for (o, v) in out.iter_mut().zip([z, rw, cl, m1, m2, m3, m4]) {
        // SAFETY: `o` is 32 writable bytes; the unaligned store has no alignment need.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr() as *mut __m256i, v) };
    }
    let [[z0, ..], rw, cl, m1, m2, m3, m4] = out;
    s[0] = z0;
    for (lanes, idx) in [
        (rw, [1, 2, 3, 4]),
        (cl, [5, 10, 15, 20]),
        (m1, [6, 12, 18, 24]),
        (m2, [11, 22, 8, 19]),
        (m3, [16, 7, 23, 14]),
        (m4, [21, 17, 13, 9]),
    ] {
        for (v, i) in lanes.into_iter().zip(idx) {
            s[i] = v;
        }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn xor(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

/// `!a & b`.
#[inline]
#[target_feature(enable = "avx2")]
fn andnot(a: __m256i, b: __m256i) -> __m256i {
    _mm256_andnot_si256(a, b)
}

/// `vpblendd`: 32-bit element i from `b` where bit i of `M` is set, else from `a`
/// (a 64-bit element p is bits 2p and 2p + 1).
#[inline]
#[target_feature(enable = "avx2")]
fn blend<const M: i32>(a: __m256i, b: __m256i) -> __m256i {
    _mm256_blend_epi32::<M>(a, b)
}

/// Swaps the two 128-bit halves (the only lane-crossing operation in a round, besides
/// `bcast0`: it costs three cycles where in-half shuffles and blends cost one).
#[inline]
#[target_feature(enable = "avx2")]
fn swap128(a: __m256i) -> __m256i {
    // Written as assembly because LLVM's shuffle combiner would otherwise merge it with
    // the in-half shuffles and blends around it into `vpermq`, which is slower (six
    // cycles of latency on Zen 3, against three for `vperm2i128`), and there would be
    // about twenty of those per round instead of seven lane crossings.
    let r: __m256i;
    // SAFETY: `vperm2i128` reads and writes registers only (no memory, no flags, no
    // stack); the enclosing function requires AVX2, which is all this instruction needs.
    unsafe {
        core::arch::asm!(
            "vperm2i128 {r}, {a}, {a}, 1",
            r = lateout(ymm_reg) r,
            a = in(ymm_reg) a,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    r
}

/// Element 0 in all four elements.
#[inline]
#[target_feature(enable = "avx2")]
fn bcast0(a: __m256i) -> __m256i {
    _mm256_broadcastq_epi64(_mm256_castsi256_si128(a))
}

/// Per 128-bit half: `[b.hi, a.lo]` (`vpalignr` by 8 bytes).
#[inline]
#[target_feature(enable = "avx2")]
fn alignr8(a: __m256i, b: __m256i) -> __m256i {
    _mm256_alignr_epi8::<8>(a, b)
}

/// Swaps the two 64-bit elements of each 128-bit half.
#[inline]
#[target_feature(enable = "avx2")]
fn swap64(a: __m256i) -> __m256i {
    _mm256_shuffle_epi32::<0x4E>(a)
}

#[inline]
#[target_feature(enable = "avx2")]
fn rotl1(a: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_add_epi64(a, a), _mm256_srli_epi64::<63>(a))
}

/// Rotates element p left by `r.0[p]` (`r.1[p]` = 64 − `r.0[p]`; a count of 64 shifts
/// to zero, so a rotation by 0 works).
#[inline]
#[target_feature(enable = "avx2")]
fn rotv(a: __m256i, r: (__m256i, __m256i)) -> __m256i {
    _mm256_or_si256(_mm256_sllv_epi64(a, r.0), _mm256_srlv_epi64(a, r.1))
}
