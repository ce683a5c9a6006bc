//! Portable GF(16) kernels: plain Rust, constant time, no tables indexed by data.
//!
//! # How a product is formed without tables
//! For a scalar `s = s₀ + 2s₁ + 4s₂ + 8s₃` and a reduced element `x < 16`, the
//! carry-less product is `s ⊗ x = ⊕ⱼ sⱼ·(x ≪ j)`, a byte `< 0x80` (see the module docs
//! of [`super`]). Each bit `sⱼ` becomes a byte mask `0 − sⱼ` (0x00 or 0xFF), so
//! `s ⊗ x = ⊕ⱼ (x ≪ j) & maskⱼ(s)`: four ANDs and four XORs, no branch, no index. The
//! shifted copies `x ≪ j` of a matrix row are computed once and reused for every scalar
//! that multiplies that row, so the inner loops are plain byte-wise AND/XOR over
//! fixed-width arrays, which LLVM turns into SIMD on every target (SSE2 on the x86-64
//! baseline, 16 elements per instruction). For reduced products (`solve`) the same
//! identity is used with the reduced multiples `x·tʲ mod (t⁴+t+1)` instead of `x ≪ j`.
//!
//! `mat_mul_batch` rows (`q ≤ 8` elements) are SWAR words: eight elements per `u64`,
//! the bit-plane `(x ≫ j) & 0x0101…01` times the scalar gives `sⱼ`-selected copies of
//! the scalar in every byte (products `≤ 15`, no carry between bytes).
//!
//! # Constant time
//! Shapes and strides are public; every loop bound depends on them only. Scalars enter
//! only through masks and multiplications (`imul` is constant time on the targets we
//! build for); `solve` selects its pivot row with masks and inverts with a fixed
//! exponentiation chain.

use super::{inv, reduce1, Kernels};
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroize;

pub static KERNELS: Kernels = TABLE;

/// The portable table (also the base of backends that only replace some entries).
pub const TABLE: Kernels = Kernels {
    backend: Backend::Portable,
    gemm_acc,
    axpy_acc,
    reduce,
    mat_mul_batch,
    solve,
};

/// Byte mask `0xFF` if bit `j` of `s` is set, else `0`.
#[inline(always)]
fn bit_mask(s: u8, j: u32) -> u8 {
    // Through the barrier: see `super::barrier_u8` (LLVM otherwise branches on the bit).
    super::barrier_u8(0u8.wrapping_sub((s >> j) & 1))
}

/// `0xFF` if `v == 0` else `0`, without a branch.
#[inline(always)]
pub(crate) fn is_zero_mask(v: u8) -> u8 {
    super::barrier_u8((((v as u16).wrapping_sub(1)) >> 8) as u8)
}

#[allow(clippy::too_many_arguments)]
pub fn gemm_acc(
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
    let mut j0 = 0;
    while j0 < n {
        let w = (n - j0).min(64);
        let args = (&mut *c, ldc, a, a_rs, a_cs, b, ldb, m, kk, j0, w);
        match w {
            0..=8 => gemm_w::<4>(args),
            9..=16 => gemm_w::<8>(args),
            17..=24 => gemm_w::<12>(args),
            25..=32 => gemm_w::<16>(args),
            33..=48 => gemm_w::<24>(args),
            _ => gemm_w::<32>(args),
        }
        j0 += w;
    }
}

type GemmArgs<'a> = (
    &'a mut [u8],
    usize,
    &'a [u8],
    usize,
    usize,
    &'a [u8],
    usize,
    usize,
    usize,
    usize,
    usize,
);

/// Bit-plane `j` of a row: `x & 2ʲ` per byte, two bytes per `u16` lane (little-endian).
/// Multiplying a lane by a scalar `s < 16` gives `xⱼ·(s ≪ j)` in each byte (`≤ 120`, no
/// carry into the next byte): one partial product of `s ⊗ x` for two elements. Plain
/// `u16` loops, which LLVM vectorises to `pmullw` (8 lanes = 16 elements on SSE2).
#[inline(always)]
fn planes_into<const HW: usize>(dst: &mut [[u16; HW]; 4], row: &[u8]) {
    let mut lanes = [0u16; HW];
    let mut pairs = row.chunks_exact(2);
    for (l, ch) in lanes.iter_mut().zip(&mut pairs) {
        *l = u16::from_le_bytes([ch[0], ch[1]]);
    }
    if let [last] = pairs.remainder() {
        lanes[row.len() / 2] = *last as u16;
    }
    for h in 0..HW {
        let v = lanes[h];
        dst[0][h] = v & 0x0101;
        dst[1][h] = v & 0x0202;
        dst[2][h] = v & 0x0404;
        dst[3][h] = v & 0x0808;
    }
}

/// `acc ^= s ⊗ row` from the row's bit planes (unreduced, two elements per lane).
#[inline(always)]
fn mac<const HW: usize>(acc: &mut [u16; HW], e: &[[u16; HW]; 4], s: u16) {
    for h in 0..HW {
        acc[h] ^= e[0][h].wrapping_mul(s)
            ^ e[1][h].wrapping_mul(s)
            ^ e[2][h].wrapping_mul(s)
            ^ e[3][h].wrapping_mul(s);
    }
}

/// `dst ^= lanes` (bytes of the `u16` lanes, `dst.len() ≤ 2·HW`).
#[inline(always)]
fn xor_lanes<const HW: usize>(dst: &mut [u8], acc: &[u16; HW]) {
    for (t, d) in dst.iter_mut().enumerate() {
        *d ^= (acc[t / 2] >> (8 * (t & 1))) as u8;
    }
}

/// Columns `j0 .. j0+w` of the product, `w ≤ 2·HW`: B's column block expanded once into
/// bit planes, rows of C accumulated two at a time in `u16` arrays (registers).
#[inline(always)]
fn gemm_w<const HW: usize>((c, ldc, a, a_rs, a_cs, b, ldb, m, kk, j0, w): GemmArgs<'_>) {
    let mut bs: Vec<[[u16; HW]; 4]> = vec![[[0u16; HW]; 4]; kk];
    for (k, e) in bs.iter_mut().enumerate() {
        planes_into(e, &b[k * ldb + j0..k * ldb + j0 + w]);
    }
    let mut i = 0;
    while i + 2 <= m {
        let mut acc0 = [0u16; HW];
        let mut acc1 = [0u16; HW];
        for (k, e) in bs.iter().enumerate() {
            let s0 = (a[i * a_rs + k * a_cs] & 15) as u16;
            let s1 = (a[(i + 1) * a_rs + k * a_cs] & 15) as u16;
            mac(&mut acc0, e, s0);
            mac(&mut acc1, e, s1);
        }
        xor_lanes(&mut c[i * ldc + j0..i * ldc + j0 + w], &acc0);
        xor_lanes(&mut c[(i + 1) * ldc + j0..(i + 1) * ldc + j0 + w], &acc1);
        i += 2;
    }
    if i < m {
        let mut acc0 = [0u16; HW];
        for (k, e) in bs.iter().enumerate() {
            mac(&mut acc0, e, (a[i * a_rs + k * a_cs] & 15) as u16);
        }
        xor_lanes(&mut c[i * ldc + j0..i * ldc + j0 + w], &acc0);
    }
}

pub fn axpy_acc(acc: &mut [u8], s: u8, x: &[u8]) {
    let (p0, p1, p2, p3) = (
        bit_mask(s, 0),
        bit_mask(s, 1),
        bit_mask(s, 2),
        bit_mask(s, 3),
    );
    for (o, &v) in acc.iter_mut().zip(x) {
        let v = v & 15;
        *o ^= (v & p0) ^ ((v << 1) & p1) ^ ((v << 2) & p2) ^ ((v << 3) & p3);
    }
}

pub fn reduce(x: &mut [u8]) {
    for v in x.iter_mut() {
        *v = reduce1(*v);
    }
}

const LSB: u64 = 0x0101_0101_0101_0101;

/// Up to eight elements (a row of at most eight) as a little-endian SWAR word.
#[inline(always)]
fn load_word(s: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    buf[..s.len()].copy_from_slice(s);
    u64::from_le_bytes(buf) & (LSB * 15)
}

/// SWAR reduction of eight unreduced bytes.
#[inline(always)]
fn reduce_word(v: u64) -> u64 {
    let h = (v >> 4) & (LSB * 7);
    (v ^ h ^ (h << 1)) & (LSB * 15)
}

pub fn mat_mul_batch(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    if p == 0 || q == 0 {
        return;
    }
    let count = out.len() / (p * q);
    let (sa, sb, so) = (p * k, k * q, p * q);
    // Bit planes of B's rows: planes[l][j] = (B[l] ≫ j) & 0x01…01, eight columns a word.
    let mut planes: Vec<[u64; 4]> = vec![[0u64; 4]; k];
    for t in 0..count {
        let (o, x, y) = (
            &mut out[t * so..(t + 1) * so],
            &a[t * sa..(t + 1) * sa],
            &b[t * sb..(t + 1) * sb],
        );
        let mut j0 = 0;
        while j0 < q {
            let w = (q - j0).min(8);
            for (l, pl) in planes.iter_mut().enumerate() {
                let r = load_word(&y[l * q + j0..l * q + j0 + w]);
                *pl = [r & LSB, (r >> 1) & LSB, (r >> 2) & LSB, (r >> 3) & LSB];
            }
            for i in 0..p {
                let mut acc = 0u64;
                for (l, pl) in planes.iter().enumerate() {
                    let s = (x[i * k + l] & 15) as u64;
                    acc ^=
                        (pl[0] * s) ^ ((pl[1] * s) << 1) ^ ((pl[2] * s) << 2) ^ ((pl[3] * s) << 3);
                }
                let r = reduce_word(acc).to_le_bytes();
                o[i * q + j0..i * q + j0 + w].copy_from_slice(&r[..w]);
            }
            j0 += w;
        }
    }
}

/// Byte at column `t` of a row of little-endian words.
#[inline(always)]
fn word_byte(row: &[u64], t: usize) -> u8 {
    (row[t / 8] >> (8 * (t % 8))) as u8
}

/// `x·t mod (t⁴+t+1)` on the eight reduced bytes of a word.
#[inline(always)]
fn xtime64(v: u64) -> u64 {
    ((v << 1) & (LSB * 0x0E)) ^ (((v >> 3) & LSB) * 3)
}

/// Word mask `0xFF…` in every byte if bit `j` of `s` is set, else 0 (through the
/// barrier of [`bit_mask`], then spread by a multiplication).
#[inline(always)]
fn word_mask(s: u8, j: u32) -> u64 {
    (bit_mask(s, j) as u64) * LSB
}

/// Constant-time Gaussian elimination (see [`Kernels::solve`]).
///
/// Works on a copy of the system with eight elements per `u64` word (SWAR; rows padded
/// to whole words). For pivot `i`: the first later row whose entry in column `i` is
/// non-zero is added to row `i` when row `i`'s own entry is zero (masks decided for all
/// later rows first, then every later row added under its mask); the pivot is inverted by
/// exponentiation (`a¹⁴`), the row normalised and eliminated from the rows below. A
/// product `f · row` is `⊕ⱼ maskⱼ(f) & (row·tʲ)` with the pivot row's four reduced
/// multiples `row·tʲ` computed once per pivot, so it is reduced without a reduction
/// step. Back substitution on the unit upper triangle is a word-wise dot product with the
/// solution so far. A zero pivot after the search means the system is singular: the flag
/// records it and the elimination continues with a zero row (same operations).
pub fn solve(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    if n == 0 {
        return true;
    }
    let w = n + 1;
    assert!(stride >= w && aug.len() >= (n - 1) * stride + w && x.len() >= n);
    let hw = w.div_ceil(8);
    let mut rows = vec![0u64; n * hw];
    for i in 0..n {
        let src = &aug[i * stride..i * stride + w];
        for (d, ch) in rows[i * hw..(i + 1) * hw].iter_mut().zip(src.chunks(8)) {
            *d = load_word(ch);
        }
    }
    // mult[j·hw + c]: word c of (pivot row)·tʲ; sels[j]: selection mask of row i+1+j.
    let mut mult = vec![0u64; 4 * hw];
    let mut sels = vec![0u64; n];
    let mut ok = 0xFFu8;
    for i in 0..n {
        let c0 = i / 8;
        let (head, tail) = rows.split_at_mut((i + 1) * hw);
        let ri = &mut head[i * hw..];
        // Pivot search.
        let vi = word_byte(ri, i);
        let pz = is_zero_mask(vi);
        let mut found = 0u8;
        let mut p = vi;
        for (rj, sj) in tail.chunks_exact(hw).zip(sels.iter_mut()) {
            let vj = word_byte(rj, i);
            let nz = !is_zero_mask(vj);
            let sel = pz & nz & !found;
            found |= nz;
            p ^= vj & sel;
            *sj = (sel as u64) * LSB;
        }
        for c in c0..hw {
            let mut acc = ri[c];
            for (rj, &sj) in tail.chunks_exact(hw).zip(sels.iter()) {
                acc ^= rj[c] & sj;
            }
            ri[c] = acc;
        }
        ok &= !is_zero_mask(p);
        // Normalise row i, then its reduced multiples.
        let pinv = inv(p);
        let pm = [
            word_mask(pinv, 0),
            word_mask(pinv, 1),
            word_mask(pinv, 2),
            word_mask(pinv, 3),
        ];
        for c in c0..hw {
            let v0 = ri[c];
            let v1 = xtime64(v0);
            let v2 = xtime64(v1);
            let v3 = xtime64(v2);
            let r = (v0 & pm[0]) ^ (v1 & pm[1]) ^ (v2 & pm[2]) ^ (v3 & pm[3]);
            ri[c] = r;
            let r1 = xtime64(r);
            let r2 = xtime64(r1);
            mult[c] = r;
            mult[hw + c] = r1;
            mult[2 * hw + c] = r2;
            mult[3 * hw + c] = xtime64(r2);
        }
        // Eliminate column i below.
        let (m0, rest) = mult.split_at(hw);
        let (m1, rest) = rest.split_at(hw);
        let (m2, m3) = rest.split_at(hw);
        for rj in tail.chunks_exact_mut(hw) {
            let f = word_byte(rj, i);
            let (f0, f1, f2, f3) = (
                word_mask(f, 0),
                word_mask(f, 1),
                word_mask(f, 2),
                word_mask(f, 3),
            );
            for c in c0..hw {
                rj[c] ^= (m0[c] & f0) ^ (m1[c] & f1) ^ (m2[c] & f2) ^ (m3[c] & f3);
            }
        }
    }
    // Back substitution (unit upper triangle): x_i = b_i ⊕ Σ_{k>i} U[i][k]·x_k, a
    // word-wise dot product with the solution so far (zero at positions ≤ i and at the
    // right-hand side column).
    let xw = &mut mult[..hw];
    xw.fill(0);
    for i in (0..n).rev() {
        let row = &rows[i * hw..(i + 1) * hw];
        let mut acc = 0u64;
        for (&a, &b) in row[i / 8..].iter().zip(&xw[i / 8..]) {
            // Byte-wise a ⊗ b: bit j of b (spread to a byte mask by ·0xFF) selects a ≪ j.
            for j in 0..4 {
                acc ^= ((b >> j) & LSB).wrapping_mul(0xFF) & (a << j);
            }
        }
        acc ^= acc >> 32;
        acc ^= acc >> 16;
        acc ^= acc >> 8;
        let xi = reduce1((acc as u8) ^ word_byte(row, n));
        x[i] = xi;
        xw[i / 8] |= (xi as u64) << (8 * (i % 8));
    }
    // The copy held the (secret) system.
    rows.zeroize();
    mult.zeroize();
    sels.zeroize();
    ok == 0xFF
}
