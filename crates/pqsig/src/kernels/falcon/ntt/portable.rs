//! Portable NTT kernels mod 12289: plain u32 arithmetic, canonical residues throughout,
//! every conditional correction done with masks (no data-dependent branches).

use super::tables::{GM, IGM};
use super::{NttKernels, Q, Q0I, R, R2};
use crate::kernels::select::Backend;

pub static KERNELS: NttKernels = NttKernels {
    backend: Backend::Portable,
    ntt,
    intt,
    mul_monty,
    to_monty,
    div,
    add,
    sub,
    from_i16,
    from_i8,
    sqnorm_centered,
    sqnorm_i16,
    hash_words,
};

/// All-ones if the top bit of `x` is set, else 0.
#[inline(always)]
fn sign_mask(x: u32) -> u32 {
    0u32.wrapping_sub(x >> 31)
}

/// `x + y mod q` for x, y in [0, q).
#[inline(always)]
pub(crate) fn mq_add(x: u32, y: u32) -> u32 {
    let d = (x + y).wrapping_sub(Q);
    d.wrapping_add(Q & sign_mask(d))
}

/// `x − y mod q` for x, y in [0, q).
#[inline(always)]
pub(crate) fn mq_sub(x: u32, y: u32) -> u32 {
    let d = x.wrapping_sub(y);
    d.wrapping_add(Q & sign_mask(d))
}

/// `x·y/2^16 mod q` in [0, q) for x·y < q·2^16 (e.g. both in [0, q)).
#[inline(always)]
pub(crate) fn mq_montymul(x: u32, y: u32) -> u32 {
    let z = x * y;
    // k·q with k = −z/q mod 2^16 clears the low 16 bits; the quotient is below 2q.
    let k = (z.wrapping_mul(Q0I)) & 0xFFFF;
    let t = (z + k * Q) >> 16;
    let d = t.wrapping_sub(Q);
    d.wrapping_add(Q & sign_mask(d))
}

/// `x mod q` for |x| < q.
#[inline(always)]
pub(crate) fn mq_small(x: i32) -> u32 {
    let y = x as u32;
    y.wrapping_add(Q & sign_mask(y))
}

/// The representative of `x` in [−(q−1)/2, (q−1)/2], for x in [0, q).
#[inline(always)]
pub(crate) fn mq_center(x: u32) -> i32 {
    // x > (q−1)/2  ⇔  (q−1)/2 − x is negative.
    (x.wrapping_sub(Q & sign_mask((Q >> 1).wrapping_sub(x)))) as i32
}

/// `1/y · R mod q` from `y·R` (Montgomery form in, Montgomery form out): y^(q−2) by a
/// fixed addition chain for q − 2 = 12287 = 3·4095 + 2 (18 products). 0 maps to 0. The
/// exponent is public, so the sequence of operations is the same for every input.
#[inline(always)]
pub(crate) fn mq_inv_monty(y: u32) -> u32 {
    let m = mq_montymul;
    let y2 = m(y, y);
    let y3 = m(y2, y);
    let y6 = m(y3, y3);
    let y12 = m(y6, y6);
    let y15 = m(y12, y3);
    let mut t = y15;
    for _ in 0..4 {
        t = m(t, t);
    }
    let y255 = m(t, y15);
    t = y255;
    for _ in 0..4 {
        t = m(t, t);
    }
    let y4095 = m(t, y15);
    let y8190 = m(y4095, y4095);
    let y12285 = m(y8190, y4095);
    m(y12285, y2)
}

/// Forward NTT of one polynomial (Cooley–Tukey, bit-reversed output).
pub(crate) fn ntt_one(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let mut ht = n;
    let mut m = 1;
    while m < n {
        ht >>= 1;
        for i in 0..m {
            let s = GM[m + i] as u32;
            let j1 = 2 * i * ht;
            let (lo, hi) = a[j1..j1 + 2 * ht].split_at_mut(ht);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let u = *x as u32;
                let v = mq_montymul(*y as u32, s);
                *x = mq_add(u, v) as u16;
                *y = mq_sub(u, v) as u16;
            }
        }
        m <<= 1;
    }
}

/// `R/n mod q`: multiplying by it Montgomery-wise divides by n.
#[inline(always)]
pub(crate) fn inv_n_monty(logn: u32) -> u32 {
    // R is even-free modulo q: halve it logn times (adding q first when odd).
    let mut ni = R;
    for _ in 0..logn {
        ni = (ni + (Q & 0u32.wrapping_sub(ni & 1))) >> 1;
    }
    ni
}

/// Inverse NTT of one polynomial (Gentleman–Sande), including the 1/n factor.
pub(crate) fn intt_one(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        let hm = m >> 1;
        for i in 0..hm {
            let s = IGM[hm + i] as u32;
            let j1 = 2 * i * t;
            let (lo, hi) = a[j1..j1 + 2 * t].split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x as u32, *y as u32);
                *x = mq_add(u, v) as u16;
                *y = mq_montymul(mq_sub(u, v), s) as u16;
            }
        }
        t <<= 1;
        m = hm;
    }
    let ni = inv_n_monty(logn);
    for x in a[..n].iter_mut() {
        *x = mq_montymul(*x as u32, ni) as u16;
    }
}

fn ntt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    debug_assert!(a.len().is_multiple_of(n));
    for p in a.chunks_exact_mut(n) {
        ntt_one(p, logn);
    }
}

fn intt(a: &mut [u16], logn: u32) {
    let n = 1usize << logn;
    debug_assert!(a.len().is_multiple_of(n));
    for p in a.chunks_exact_mut(n) {
        intt_one(p, logn);
    }
}

/// Applies `f` to `a` coefficient-wise against `b` (one polynomial repeated, or as long
/// as `a`).
#[inline(always)]
fn zip_with(a: &mut [u16], b: &[u16], f: impl Fn(u32, u32) -> u32) {
    if b.is_empty() {
        return;
    }
    debug_assert!(a.len().is_multiple_of(b.len()));
    for chunk in a.chunks_mut(b.len()) {
        for (x, &y) in chunk.iter_mut().zip(b) {
            *x = f(*x as u32, y as u32) as u16;
        }
    }
}

fn mul_monty(a: &mut [u16], b: &[u16]) {
    zip_with(a, b, mq_montymul);
}

fn to_monty(a: &mut [u16]) {
    for x in a.iter_mut() {
        *x = mq_montymul(*x as u32, R2) as u16;
    }
}

fn add(a: &mut [u16], b: &[u16]) {
    zip_with(a, b, mq_add);
}

fn sub(a: &mut [u16], b: &[u16]) {
    zip_with(a, b, mq_sub);
}

fn div(a: &mut [u16], b: &[u16]) -> bool {
    if b.is_empty() {
        return true;
    }
    debug_assert!(a.len().is_multiple_of(b.len()));
    // Accumulates (b − 1) over all divisors: the top bit ends up set iff some b = 0.
    let mut zero = 0u32;
    for chunk in a.chunks_mut(b.len()) {
        for (x, &y) in chunk.iter_mut().zip(b) {
            let y = y as u32;
            zero |= y.wrapping_sub(1);
            let yi = mq_inv_monty(mq_montymul(y, R2));
            *x = mq_montymul(yi, *x as u32) as u16;
        }
    }
    zero >> 31 == 0
}

fn from_i16(out: &mut [u16], x: &[i16]) {
    debug_assert_eq!(out.len(), x.len());
    for (o, &v) in out.iter_mut().zip(x) {
        *o = mq_small(v as i32) as u16;
    }
}

fn from_i8(out: &mut [u16], x: &[i8]) {
    debug_assert_eq!(out.len(), x.len());
    for (o, &v) in out.iter_mut().zip(x) {
        *o = mq_small(v as i32) as u16;
    }
}

fn sqnorm_centered(a: &[u16]) -> u64 {
    a.iter()
        .map(|&x| {
            let c = mq_center(x as u32) as i64;
            (c * c) as u64
        })
        .sum()
}

fn sqnorm_i16(x: &[i16]) -> u64 {
    x.iter()
        .map(|&v| {
            let c = v as i64;
            (c * c) as u64
        })
        .sum()
}

/// Words at or above 5q are rejected by hash-to-point.
pub(crate) const HASH_REJECT: u32 = 5 * Q;

/// The four big-endian words of a lane (its bytes in stream order), first word first.
#[inline(always)]
pub(crate) fn lane_words(lane: u64) -> [u32; 4] {
    let be = lane.swap_bytes();
    [
        (be >> 48) as u32,
        ((be >> 32) & 0xFFFF) as u32,
        ((be >> 16) & 0xFFFF) as u32,
        (be & 0xFFFF) as u32,
    ]
}

pub(crate) fn hash_words(out: &mut [u16], mut filled: usize, lanes: &[u64]) -> (usize, usize) {
    let n = out.len();
    for (i, &lane) in lanes.iter().enumerate() {
        if filled >= n {
            return (filled, i);
        }
        let words = lane_words(lane);
        if filled + 4 <= n {
            // Room for all four: store each candidate and advance past the accepted ones
            // (no branch on the words).
            for w in words {
                out[filled] = (w % Q) as u16;
                filled += (w < HASH_REJECT) as usize;
            }
        } else {
            for w in words {
                if w < HASH_REJECT && filled < n {
                    out[filled] = (w % Q) as u16;
                    filled += 1;
                }
            }
        }
    }
    (filled, lanes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn montymul_and_inverse() {
        for x in [0u32, 1, 2, 77, 6144, 6145, 12288] {
            for y in [0u32, 1, 3, 4091, 12288] {
                let want = (x as u64 * y as u64 % Q as u64) as u32;
                let got = mq_montymul(mq_montymul(x, y), R2);
                assert_eq!(got, want);
            }
        }
        for y in 1..Q {
            let inv = mq_montymul(mq_inv_monty(mq_montymul(y, R2)), 1);
            assert_eq!(y as u64 * inv as u64 % Q as u64, 1, "y = {y}");
        }
        assert_eq!(mq_inv_monty(0), 0);
    }

    #[test]
    fn inv_n() {
        for logn in 1..=10 {
            let ni = inv_n_monty(logn);
            assert_eq!(mq_montymul(ni, 1 << logn), 1);
        }
    }

    #[test]
    fn center() {
        assert_eq!(mq_center(0), 0);
        assert_eq!(mq_center(6144), 6144);
        assert_eq!(mq_center(6145), -6144);
        assert_eq!(mq_center(12288), -1);
    }
}
