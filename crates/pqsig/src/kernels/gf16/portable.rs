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
    0u8.wrapping_sub((s >> j) & 1)
}

/// `0xFF` if `v == 0` else `0`, without a branch.
#[inline(always)]
pub(crate) fn is_zero_mask(v: u8) -> u8 {
    (((v as u16).wrapping_sub(1)) >> 8) as u8
}

/// `x·t mod (t⁴+t+1)` for a reduced `x`.
#[inline(always)]
fn xtime(x: u8) -> u8 {
    ((x << 1) & 15) ^ (((x >> 3) & 1) * 3)
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
            0..=8 => gemm_w::<8>(args),
            9..=16 => gemm_w::<16>(args),
            17..=24 => gemm_w::<24>(args),
            25..=32 => gemm_w::<32>(args),
            33..=48 => gemm_w::<48>(args),
            _ => gemm_w::<64>(args),
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

/// Columns `j0 .. j0+w` of the product, `w ≤ W`, rows of C accumulated in a `W`-byte
/// array (registers), B's column block expanded once into its four shifted copies.
#[inline(always)]
fn gemm_w<const W: usize>((c, ldc, a, a_rs, a_cs, b, ldb, m, kk, j0, w): GemmArgs<'_>) {
    // bs[k] = [x ≪ 0, x ≪ 1, x ≪ 2, x ≪ 3] for B's row k (zero beyond w).
    let mut bs: Vec<[[u8; W]; 4]> = vec![[[0u8; W]; 4]; kk];
    for (k, e) in bs.iter_mut().enumerate() {
        let row = &b[k * ldb + j0..k * ldb + j0 + w];
        for (t, &x) in row.iter().enumerate() {
            let x = x & 15;
            e[0][t] = x;
            e[1][t] = x << 1;
            e[2][t] = x << 2;
            e[3][t] = x << 3;
        }
    }
    // Two rows of C at a time: each expanded B row is loaded once for both.
    let mut i = 0;
    while i + 2 <= m {
        let mut acc0 = [0u8; W];
        let mut acc1 = [0u8; W];
        for (k, e) in bs.iter().enumerate() {
            let s0 = a[i * a_rs + k * a_cs];
            let s1 = a[(i + 1) * a_rs + k * a_cs];
            let (p0, p1, p2, p3) = (
                bit_mask(s0, 0),
                bit_mask(s0, 1),
                bit_mask(s0, 2),
                bit_mask(s0, 3),
            );
            let (q0, q1, q2, q3) = (
                bit_mask(s1, 0),
                bit_mask(s1, 1),
                bit_mask(s1, 2),
                bit_mask(s1, 3),
            );
            for t in 0..W {
                acc0[t] ^= (e[0][t] & p0) ^ (e[1][t] & p1) ^ (e[2][t] & p2) ^ (e[3][t] & p3);
                acc1[t] ^= (e[0][t] & q0) ^ (e[1][t] & q1) ^ (e[2][t] & q2) ^ (e[3][t] & q3);
            }
        }
        let r0 = &mut c[i * ldc + j0..i * ldc + j0 + w];
        for (o, v) in r0.iter_mut().zip(acc0.iter()) {
            *o ^= v;
        }
        let r1 = &mut c[(i + 1) * ldc + j0..(i + 1) * ldc + j0 + w];
        for (o, v) in r1.iter_mut().zip(acc1.iter()) {
            *o ^= v;
        }
        i += 2;
    }
    if i < m {
        let mut acc0 = [0u8; W];
        for (k, e) in bs.iter().enumerate() {
            let s0 = a[i * a_rs + k * a_cs];
            let (p0, p1, p2, p3) = (
                bit_mask(s0, 0),
                bit_mask(s0, 1),
                bit_mask(s0, 2),
                bit_mask(s0, 3),
            );
            for t in 0..W {
                acc0[t] ^= (e[0][t] & p0) ^ (e[1][t] & p1) ^ (e[2][t] & p2) ^ (e[3][t] & p3);
            }
        }
        let r0 = &mut c[i * ldc + j0..i * ldc + j0 + w];
        for (o, v) in r0.iter_mut().zip(acc0.iter()) {
            *o ^= v;
        }
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

/// `dst[t] = ⊕ⱼ maskⱼ(s) & mult[j][t]`: the reduced product `s · row` from the row's
/// four reduced multiples `row·tʲ`.
#[inline(always)]
fn scale_into(dst: &mut [u8], s: u8, m0: &[u8], m1: &[u8], m2: &[u8], m3: &[u8]) {
    let (p0, p1, p2, p3) = (
        bit_mask(s, 0),
        bit_mask(s, 1),
        bit_mask(s, 2),
        bit_mask(s, 3),
    );
    for ((((d, &a0), &a1), &a2), &a3) in dst.iter_mut().zip(m0).zip(m1).zip(m2).zip(m3) {
        *d ^= (a0 & p0) ^ (a1 & p1) ^ (a2 & p2) ^ (a3 & p3);
    }
}

/// The four reduced multiples `row·tʲ`, j = 0..3, of a reduced row.
fn multiples(mult: &mut [u8], row: &[u8], w: usize) {
    let (m0, rest) = mult.split_at_mut(w);
    let (m1, rest) = rest.split_at_mut(w);
    let (m2, m3) = rest.split_at_mut(w);
    for t in 0..w {
        let x0 = row[t];
        let x1 = xtime(x0);
        let x2 = xtime(x1);
        m0[t] = x0;
        m1[t] = x1;
        m2[t] = x2;
        m3[t] = xtime(x2);
    }
}

/// Constant-time Gaussian elimination (see [`Kernels::solve`]).
///
/// For pivot `i`: every later row `j` whose entry in column `i` is the first non-zero
/// one is added to row `i` when row `i`'s own entry is zero (one mask-selected addition
/// per row, all rows visited); the pivot is inverted by exponentiation (`a¹⁴`), the row
/// normalised and eliminated from the rows below. Back substitution on the unit upper
/// triangle gives `x`. A zero pivot after the search means the system is singular: the
/// flag records it and the elimination continues with a zero row (same operations).
pub fn solve(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    if n == 0 {
        return true;
    }
    let w = n + 1;
    assert!(stride >= w && aug.len() >= (n - 1) * stride + w && x.len() >= n);
    let mut ok = 0xFFu8;
    let mut mult = vec![0u8; 4 * w];
    let mut tmp = vec![0u8; w];
    for i in 0..n {
        let (head, tail) = aug.split_at_mut((i + 1) * stride);
        let ri = &mut head[i * stride + i..i * stride + w];
        // Pivot search: add the first later row with a non-zero entry in column i, if
        // row i's entry is zero.
        let pz = is_zero_mask(ri[0]);
        let mut found = 0u8;
        for j in 0..n - i - 1 {
            let rj = &tail[j * stride + i..j * stride + w];
            let nz = !is_zero_mask(rj[0]);
            let sel = pz & nz & !found;
            found |= nz;
            for (d, &v) in ri.iter_mut().zip(rj) {
                *d ^= v & sel;
            }
        }
        let p = ri[0];
        ok &= !is_zero_mask(p);
        // Normalise: row i ← row i · p⁻¹.
        multiples(&mut mult, ri, w - i);
        let ww = w - i;
        tmp[..ww].fill(0);
        scale_into(
            &mut tmp[..ww],
            inv(p),
            &mult[..ww],
            &mult[ww..2 * ww],
            &mult[2 * ww..3 * ww],
            &mult[3 * ww..4 * ww],
        );
        ri.copy_from_slice(&tmp[..ww]);
        // Eliminate column i below.
        multiples(&mut mult, ri, ww);
        for j in 0..n - i - 1 {
            let rj = &mut tail[j * stride + i..j * stride + w];
            let f = rj[0];
            scale_into(
                rj,
                f,
                &mult[..ww],
                &mult[ww..2 * ww],
                &mult[2 * ww..3 * ww],
                &mult[3 * ww..4 * ww],
            );
        }
    }
    // Back substitution (unit upper triangle).
    for i in (0..n).rev() {
        let row = &aug[i * stride..i * stride + w];
        let mut s = row[n];
        for k in i + 1..n {
            s ^= super::clmul4(row[k], x[k]);
        }
        x[i] = reduce1(s);
    }
    // Scratch rows held multiples of secret rows.
    mult.zeroize();
    tmp.zeroize();
    ok == 0xFF
}
