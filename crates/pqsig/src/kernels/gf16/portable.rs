//! Portable GF(16) kernels: plain Rust, constant time, no tables indexed by data.
//!
//! # How products are formed without tables
//! * `gemm_acc` ("expanded elements", the trick of the reference C code): B's elements
//!   are spread to bits 0, 4, 8, 12 of a `u16` once per call. For a scalar `s < 16`
//!   the integer product `s · expand(x)` holds `s·xⱼ` in nibble j (four disjoint
//!   nibbles, no carries), so such products XOR-accumulate nibble-wise over the whole
//!   k loop, and one `compress` per output (`⊕ⱼ nibbleⱼ ≪ j`) yields the carry-less sum,
//!   a byte `< 0x80`. One 16-bit multiplication per product; the loops are plain `u16`
//!   arrays of fixed width that LLVM vectorises (`pmullw`, eight products per SSE2
//!   instruction on the x86-64 baseline). Four rows of C are accumulated at a time.
//! * `axpy_acc`: `s ⊗ x = ⊕ⱼ (x ≪ j) & maskⱼ(s)` with byte masks `0 − sⱼ`.
//! * `mat_mul_batch`: rows of up to four elements as expanded SWAR words (16-bit lanes,
//!   one multiplication per four products); wider rows as eight elements per `u64`,
//!   the bit-plane `(x ≫ j) & 0x0101…01` times the scalar selecting `sⱼ`-copies.
//! * `solve`: rows as `u64` words; `f · row = ⊕ⱼ maskⱼ(f) & (row·tʲ mod t⁴+t+1)` from the
//!   pivot row's four reduced multiples, already reduced.
//!
//! Masks made from data go through [`super::barrier_u8`], so that LLVM cannot turn
//! `v & (0 − bit)` into a select and then into a branch on the bit.
//!
//! # Constant time
//! Shapes and strides are public; every loop bound depends on them only. Scalars enter
//! only through masks and multiplications (`imul` is constant time on the targets we
//! build for); `solve` selects its pivot row with masks and inverts with a fixed
//! exponentiation chain.

// Fixed-width lane loops index several arrays at once (vectorised as written).
#![allow(clippy::needless_range_loop)]

use super::{inv, reduce1, Kernels};
use crate::kernels::select::Backend;
use crate::wipe::wipe_slice;
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
    // Wide products (three or more 16-column blocks): A's elements broadcast once into
    // memory, so that each block loads them instead of re-broadcasting.
    if n >= 48 && m >= 4 {
        let mut ab: Vec<[u16; 8]> = vec![[0u16; 8]; m * kk];
        for i in 0..m {
            for k in 0..kk {
                ab[i * kk + k] = [(a[i * a_rs + k * a_cs] & 15) as u16; 8];
            }
        }
        let mut j0 = 0;
        while j0 + 16 <= n {
            gemm_wide((&mut *c, ldc, &ab, b, ldb, m, kk, j0));
            j0 += 16;
        }
        wipe_slice(&mut ab, [0; 8]);
        if j0 < n {
            gemm_acc(
                &mut c[j0..],
                ldc,
                a,
                a_rs,
                a_cs,
                &b[j0..],
                ldb,
                m,
                kk,
                n - j0,
            );
        }
        return;
    }
    let mut j0 = 0;
    while j0 < n {
        let rem = n - j0;
        if (17..=24).contains(&rem) {
            // 16 + 8 columns sharing the broadcasts of A's elements.
            gemm_w24((&mut *c, ldc, a, a_rs, a_cs, b, ldb, m, kk, j0, rem));
            break;
        }
        let w = rem.min(16);
        let args = (&mut *c, ldc, a, a_rs, a_cs, b, ldb, m, kk, j0, w);
        if w <= 8 {
            gemm_w::<8, 4>(args)
        } else {
            gemm_w::<16, 4>(args)
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

/// The "expanded" form of a reduced element: its bits at positions 0, 4, 8, 12 of a
/// `u16`. For a scalar `s < 16`, the integer product `s · expand(x)` holds `s·xⱼ` in
/// nibble `j` (four disjoint nibbles, no carries), so XORs of such products accumulate
/// nibble-wise and [`compress`] turns the sum into the carry-less product sum.
#[inline(always)]
fn expand(x: u8) -> u16 {
    let x = (x & 15) as u16;
    (x | (x << 3) | (x << 6) | (x << 9)) & 0x1111
}

/// `⊕ⱼ nibbleⱼ(v) ≪ j`: from an accumulated expanded product to the unreduced byte.
#[inline(always)]
fn compress(v: u16) -> u8 {
    ((v & 0xF) ^ ((v >> 3) & 0x1E) ^ ((v >> 6) & 0x3C) ^ ((v >> 9) & 0x78)) as u8
}

/// Columns `j0 .. j0+w` of the product, `w ≤ W`: B's column block expanded once (one
/// element per `u16` lane), `R` rows of C accumulated at a time in `u16` arrays
/// (registers), one lane multiplication per product (LLVM: `pmullw`, eight per SSE2
/// instruction).
#[inline(always)]
fn gemm_w<const W: usize, const R: usize>(
    (c, ldc, a, a_rs, a_cs, b, ldb, m, kk, j0, w): GemmArgs<'_>,
) {
    let mut bx: Vec<[u16; W]> = vec![[0u16; W]; kk];
    for (k, e) in bx.iter_mut().enumerate() {
        for (d, &x) in e.iter_mut().zip(&b[k * ldb + j0..k * ldb + j0 + w]) {
            *d = expand(x);
        }
    }
    let mut i = 0;
    while i < m {
        let rows = (m - i).min(R);
        let mut acc = [[0u16; W]; R];
        // Rows past the end repeat the last row (computed, not stored).
        let mut base = [0usize; R];
        for (r, bse) in base.iter_mut().enumerate() {
            *bse = (i + r.min(rows - 1)) * a_rs;
        }
        for (k, e) in bx.iter().enumerate() {
            for r in 0..R {
                let s = (a[base[r] + k * a_cs] & 15) as u16;
                for t in 0..W {
                    acc[r][t] ^= e[t].wrapping_mul(s);
                }
            }
        }
        for (r, accr) in acc.iter().enumerate().take(rows) {
            let dst = &mut c[(i + r) * ldc + j0..(i + r) * ldc + j0 + w];
            for (d, &v) in dst.iter_mut().zip(accr.iter()) {
                *d ^= compress(v);
            }
        }
        i += R;
    }
    // B's expanded elements (secret operands: T12, W_v, F21).
    wipe_slice(&mut bx, [0u16; W]);
}

/// Columns `j0 .. j0+w`, `16 < w ≤ 24`: as [`gemm_w`] with a 16-lane and an 8-lane
/// accumulator per row, so that both share each broadcast scalar.
#[inline(always)]
fn gemm_w24((c, ldc, a, a_rs, a_cs, b, ldb, m, kk, j0, w): GemmArgs<'_>) {
    const R: usize = 4;
    let mut bx: Vec<([u16; 16], [u16; 8])> = vec![([0u16; 16], [0u16; 8]); kk];
    for (k, e) in bx.iter_mut().enumerate() {
        let row = &b[k * ldb + j0..k * ldb + j0 + w];
        for (d, &x) in e.0.iter_mut().zip(&row[..16]) {
            *d = expand(x);
        }
        for (d, &x) in e.1.iter_mut().zip(&row[16..]) {
            *d = expand(x);
        }
    }
    let mut i = 0;
    while i < m {
        let rows = (m - i).min(R);
        let mut acc0 = [[0u16; 16]; R];
        let mut acc1 = [[0u16; 8]; R];
        let mut base = [0usize; R];
        for (r, bse) in base.iter_mut().enumerate() {
            *bse = (i + r.min(rows - 1)) * a_rs;
        }
        for (k, e) in bx.iter().enumerate() {
            for r in 0..R {
                let s = (a[base[r] + k * a_cs] & 15) as u16;
                for t in 0..16 {
                    acc0[r][t] ^= e.0[t].wrapping_mul(s);
                }
                for t in 0..8 {
                    acc1[r][t] ^= e.1[t].wrapping_mul(s);
                }
            }
        }
        for r in 0..rows {
            let dst = &mut c[(i + r) * ldc + j0..(i + r) * ldc + j0 + w];
            let (d0, d1) = dst.split_at_mut(16);
            for (d, &v) in d0.iter_mut().zip(acc0[r].iter()) {
                *d ^= compress(v);
            }
            for (d, &v) in d1.iter_mut().zip(acc1[r].iter()) {
                *d ^= compress(v);
            }
        }
        i += R;
    }
    // B's expanded elements (secret operands: T12, W_v, F21).
    wipe_slice(&mut bx, Default::default());
}

/// One 16-column block of a wide product with A pre-broadcast (`ab[i·kk + k]` = eight
/// copies of `A[i][k]`): per (row, k) two loads, two multiplications, two XORs.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn gemm_wide(
    (c, ldc, ab, b, ldb, m, kk, j0): (
        &mut [u8],
        usize,
        &[[u16; 8]],
        &[u8],
        usize,
        usize,
        usize,
        usize,
    ),
) {
    const R: usize = 4;
    let mut bx: Vec<[u16; 16]> = vec![[0u16; 16]; kk];
    for (k, e) in bx.iter_mut().enumerate() {
        for (d, &x) in e.iter_mut().zip(&b[k * ldb + j0..k * ldb + j0 + 16]) {
            *d = expand(x);
        }
    }
    let mut i = 0;
    while i < m {
        let rows = (m - i).min(R);
        let mut acc = [[0u16; 16]; R];
        let mut base = [0usize; R];
        for (r, bse) in base.iter_mut().enumerate() {
            *bse = (i + r.min(rows - 1)) * kk;
        }
        for (k, e) in bx.iter().enumerate() {
            for r in 0..R {
                let sv = &ab[base[r] + k];
                for t in 0..16 {
                    acc[r][t] ^= e[t].wrapping_mul(sv[t & 7]);
                }
            }
        }
        for (r, accr) in acc.iter().enumerate().take(rows) {
            let dst = &mut c[(i + r) * ldc + j0..(i + r) * ldc + j0 + 16];
            for (d, &v) in dst.iter_mut().zip(accr.iter()) {
                *d ^= compress(v);
            }
        }
        i += R;
    }
    // B's expanded elements (secret operands: T12, W_v, F21).
    wipe_slice(&mut bx, Default::default());
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

/// Lane masks of four 16-bit lanes.
const L16: u64 = 0x0001_0001_0001_0001;

/// Up to four elements, expanded (bits 0, 4, 8, 12 of each 16-bit lane; see `expand`).
#[inline(always)]
fn expand4(s: &[u8]) -> u64 {
    let mut buf = [0u8; 4];
    buf[..s.len()].copy_from_slice(s);
    let v = u32::from_le_bytes(buf) as u64;
    // Bytes to 16-bit lanes.
    let v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF;
    let v = (v | (v << 8)) & (L16 * 0xF);
    (v | (v << 3) | (v << 6) | (v << 9)) & (L16 * 0x1111)
}

/// `compress` and reduction of four 16-bit lanes, then the four low bytes packed.
#[inline(always)]
fn compress_reduce4(v: u64) -> [u8; 4] {
    let c = (v & (L16 * 0xF))
        ^ ((v >> 3) & (L16 * 0x1E))
        ^ ((v >> 6) & (L16 * 0x3C))
        ^ ((v >> 9) & (L16 * 0x78));
    let h = (c >> 4) & (L16 * 7);
    let r = (c ^ h ^ (h << 1)) & (L16 * 15);
    let r = (r | (r >> 8)) & 0x0000_FFFF_0000_FFFF;
    ((r | (r >> 16)) as u32).to_le_bytes()
}

/// Largest inner dimension of the fixed-size `mat_mul_batch` kernels.
const MMB_K: usize = 16;

/// Small products: B's rows expanded four elements per `u64` (one element per 16-bit
/// lane, see `expand`); an output row accumulates `s · expand(B[l])` (one integer
/// multiplication per four products, no carries between lanes since each lane's product
/// stays below 2¹⁶) and is compressed and reduced once.
pub fn mat_mul_batch(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    if p == 0 || q == 0 {
        return;
    }
    if q <= 4 && k <= MMB_K {
        mmb_fixed::<1>(out, a, b, p, k, q)
    } else {
        mmb_swar(out, a, b, p, k, q)
    }
}

/// Wider rows: eight elements per `u64` word, the bit-plane `(x ≫ j) & 0x0101…01` of a
/// row of B times the scalar gives `sⱼ`-selected copies of the scalar in every byte
/// (products `≤ 15`, no carry between bytes).
fn mmb_swar(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
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

/// SWAR reduction of eight unreduced bytes.
#[inline(always)]
fn reduce_word(v: u64) -> u64 {
    let h = (v >> 4) & (LSB * 7);
    (v ^ h ^ (h << 1)) & (LSB * 15)
}

#[inline(always)]
/// `q ≤ 4·NW` columns, `k ≤ MMB_K`.
fn mmb_fixed<const NW: usize>(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    let count = out.len() / (p * q);
    let (sa, sb, so) = (p * k, k * q, p * q);
    let mut bx = [[0u64; NW]; MMB_K];
    for t in 0..count {
        let (o, x, y) = (
            &mut out[t * so..(t + 1) * so],
            &a[t * sa..(t + 1) * sa],
            &b[t * sb..(t + 1) * sb],
        );
        for (l, e) in bx.iter_mut().enumerate().take(k) {
            let row = &y[l * q..(l + 1) * q];
            e[0] = expand4(&row[..q.min(4)]);
            if NW == 2 {
                e[NW - 1] = expand4(&row[4..]);
            }
        }
        for i in 0..p {
            let mut acc = [0u64; NW];
            for (l, e) in bx.iter().enumerate().take(k) {
                let s = (x[i * k + l] & 15) as u64;
                for w in 0..NW {
                    acc[w] ^= e[w] * s;
                }
            }
            let orow = &mut o[i * q..(i + 1) * q];
            let lo = compress_reduce4(acc[0]);
            orow[..q.min(4)].copy_from_slice(&lo[..q.min(4)]);
            if NW == 2 {
                let hi = compress_reduce4(acc[NW - 1]);
                orow[4..].copy_from_slice(&hi[..q - 4]);
            }
        }
    }
    bx.zeroize();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook carry-less product (test reference).
    fn clmul_ref(a: u8, b: u8) -> u8 {
        (0..4)
            .filter(|i| (b >> i) & 1 == 1)
            .fold(0, |r, i| r ^ (a << i))
    }

    /// Field product by exp/log tables (test reference only: tables indexed by data).
    fn mul_ref(a: u8, b: u8) -> u8 {
        let mut exp = [0u8; 15];
        let mut log = [0u8; 16];
        let mut v = 1u8;
        for (i, e) in exp.iter_mut().enumerate() {
            *e = v;
            log[v as usize] = i as u8;
            v <<= 1;
            if v & 16 != 0 {
                v ^= 0x13;
            }
        }
        if a == 0 || b == 0 {
            0
        } else {
            exp[(log[a as usize] as usize + log[b as usize] as usize) % 15]
        }
    }

    #[test]
    fn expanded_products_are_carry_less() {
        for s in 0..16u8 {
            for x in 0..16u8 {
                let v = (s as u16).wrapping_mul(expand(x));
                assert_eq!(compress(v), clmul_ref(s, x), "{s}⊗{x}");
            }
        }
        // Accumulation: XOR of expanded products compresses to the XOR of products.
        let (mut acc, mut want) = (0u16, 0u8);
        for (s, x) in [(15u8, 15u8), (9, 7), (3, 12), (14, 1)] {
            acc ^= (s as u16).wrapping_mul(expand(x));
            want ^= clmul_ref(s, x);
        }
        assert_eq!(compress(acc), want);
    }

    #[test]
    fn swar_words() {
        for s in 0..16u8 {
            let row = [s, 15 - s, s ^ 5, 7];
            let e = expand4(&row);
            for f in 0..16u64 {
                let r = compress_reduce4(e * f);
                for t in 0..4 {
                    assert_eq!(r[t], mul_ref(f as u8, row[t]));
                }
            }
            let w = u64::from_le_bytes([s, 1, 2, 3, 4, 8, 15, 9]);
            let x = xtime64(w).to_le_bytes();
            for (t, &b) in w.to_le_bytes().iter().enumerate() {
                assert_eq!(x[t], mul_ref(b, 2));
            }
        }
    }

    #[test]
    fn kernels_against_reference() {
        // Small gemm (both code paths: narrow and wide) and solve against the
        // exp/log reference.
        let (m, kk) = (5usize, 7usize);
        for n in [3usize, 20, 50] {
            let a: Vec<u8> = (0..m * kk).map(|i| (i * 7 % 16) as u8).collect();
            let b: Vec<u8> = (0..kk * n).map(|i| (i * 11 % 16) as u8).collect();
            let mut c = vec![0u8; m * n];
            gemm_acc(&mut c, n, &a, kk, 1, &b, n, m, kk, n);
            reduce(&mut c);
            for i in 0..m {
                for j in 0..n {
                    let want = (0..kk).fold(0, |s, k| s ^ mul_ref(a[i * kk + k], b[k * n + j]));
                    assert_eq!(c[i * n + j], want);
                }
            }
        }
        // 3×3 system with a zero leading pivot.
        let mat = [[0u8, 1, 2], [3, 4, 5], [6, 7, 9]];
        let xs = [5u8, 9, 14];
        let mut aug = vec![0u8; 3 * 4];
        for i in 0..3 {
            aug[i * 4..i * 4 + 3].copy_from_slice(&mat[i]);
            aug[i * 4 + 3] = (0..3).fold(0, |s, j| s ^ mul_ref(mat[i][j], xs[j]));
        }
        let mut x = [0u8; 3];
        let ok = solve(&mut aug, 3, 4, &mut x);
        // det of mat over GF(16)
        let det = mul_ref(
            mat[0][0],
            mul_ref(mat[1][1], mat[2][2]) ^ mul_ref(mat[1][2], mat[2][1]),
        ) ^ mul_ref(
            mat[0][1],
            mul_ref(mat[1][0], mat[2][2]) ^ mul_ref(mat[1][2], mat[2][0]),
        ) ^ mul_ref(
            mat[0][2],
            mul_ref(mat[1][0], mat[2][1]) ^ mul_ref(mat[1][1], mat[2][0]),
        );
        assert_ne!(det, 0, "test matrix must be invertible");
        assert!(ok);
        assert_eq!(x, xs);
        // A singular one (third row = first + second) is flagged.
        let mut aug = vec![0u8; 3 * 4];
        for j in 0..4 {
            aug[j] = [0u8, 1, 2, 3][j];
            aug[4 + j] = [3u8, 4, 5, 6][j];
            aug[8 + j] = aug[j] ^ aug[4 + j];
        }
        assert!(!solve(&mut aug, 3, 4, &mut x));
    }
}
