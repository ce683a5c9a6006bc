//! The round-3 solver's big-coefficient polynomial loops (the Babai reduction's scaled
//! subtractions, the exact products by small k, the deep levels' plain products), over
//! big integers in the shared layout of `falcon::ntru::zint`: little-endian 31-bit words,
//! two's complement, word-major (word j of coefficient i at `x[j * stride + i]`).
//!
//! All functions are constant-time with respect to the values (the lengths, scales and
//! strides are public).

const MASK31: u32 = 0x7FFF_FFFF;

solver_loop! {
/// `x <- x - y·2^(31·sch + scl)` for `n` integers at once: the shared
/// `falcon::ntru::zint::sub_scaled_batch`, built per ISA.
pub(crate) fn sub_scaled_batch(
    x: &mut [u32],
    xlen: usize,
    y: &[u32],
    ylen: usize,
    n: usize,
    sch: usize,
    scl: u32,
    tmp: &mut [u32],
) {
    crate::falcon::ntru::zint::sub_scaled_batch(x, xlen, y, ylen, n, sch, scl, tmp)
}
}

/// Digit padding of [`sub_mul_small_exact`]: f's digit rows are padded to a multiple of
/// this (vector width) with zeros.
pub(crate) const DIG_PAD: usize = 4;

solver_loop! {
/// `X <- X − (k·f)·2^(31·sch + scl)` modulo 2^(31·xlen), negacyclic (X^n + 1), with
/// the product computed exactly: k has n signed 32-bit coefficients (|k| < 2^31), f has
/// n big coefficients given as signed 31-bit digits (`dig`: n rows of `dlen` digits,
/// `dlen` a multiple of DIG_PAD, zero-padded; digit j weighs 2^(31·j)). X: `xlen` words
/// per coefficient, word-major (stride n). k is split into 16-bit halves so that every
/// column sum fits an i64 (n <= 64), and the column loops vectorise; one carry pass per
/// coefficient then subtracts the shifted product. `cols`: scratch of 2·dlen.
pub(crate) fn sub_mul_small_exact(
    x: &mut [u32],
    xlen: usize,
    dig: &[i32],
    dlen: usize,
    k: &[u32],
    n: usize,
    sch: usize,
    scl: u32,
    cols: &mut [i64],
) {
    debug_assert!(n <= 64 && dlen.is_multiple_of(DIG_PAD));
    let (lo, hi) = cols[..2 * dlen].split_at_mut(dlen);
    for kk in 0..n {
        lo.fill(0);
        hi.fill(0);
        for (u, &ku) in k[..n].iter().enumerate() {
            // u + v = kk, or u + v = kk + n (coefficient of X^(kk+n) = −X^kk).
            let (v, s) = if u <= kk { (kk - u, 1i64) } else { (kk + n - u, -1i64) };
            let ku = ku as i32 as i64;
            let kh = (ku >> 16) * s;
            let kl = (ku & 0xFFFF) * s;
            let d = &dig[v * dlen..(v + 1) * dlen];
            for ((l, h), &dj) in lo.iter_mut().zip(hi.iter_mut()).zip(d) {
                let dj = dj as i64;
                *l += kl * dj;
                *h += kh * dj;
            }
        }
        // P = sum_j (hi[j]·2^16 + lo[j])·2^(31·j): carry pass producing its 31-bit
        // words, shifted by scl bits on the fly and subtracted from X at word offset
        // sch; then the borrow and the sign of P propagate to the top word.
        if sch >= xlen {
            continue;
        }
        // hi·2^16 = (hi >> 15)·2^31 + (hi mod 2^15)·2^16: the first part goes straight
        // to the carry, so everything stays within i64 (|lo| < 2^52, |c| < 2^37).
        let mut c = 0i64;
        let mut borrow = 0u32;
        let mut tw = 0u32;
        let jmax = dlen.min(xlen - sch);
        let xcol = &mut x[kk..];
        for j in 0..jmax {
            let t = lo[j] + ((hi[j] & 0x7FFF) << 16) + c;
            let w = (t as u32) & MASK31;
            c = (t >> 31) + (hi[j] >> 15);
            let ws = ((w << scl) & MASK31) | tw;
            tw = w >> (31 - scl);
            let xi = &mut xcol[(sch + j) * n];
            let dd = xi.wrapping_sub(ws).wrapping_sub(borrow);
            *xi = dd & MASK31;
            borrow = dd >> 31;
        }
        for u in sch + jmax..xlen {
            let w = (c as u32) & MASK31;
            c >>= 31;
            let ws = ((w << scl) & MASK31) | tw;
            tw = w >> (31 - scl);
            let xi = &mut xcol[u * n];
            let dd = xi.wrapping_sub(ws).wrapping_sub(borrow);
            *xi = dd & MASK31;
            borrow = dd >> 31;
        }
    }
}
}

solver_loop! {
/// `out <- k·f` exactly, negacyclic, vectorised across the n outputs: `ext` holds, per
/// digit j of f (signed 31-bit digits, j < slen, the top one signed), the row
/// (−f_0[j], …, −f_{n−1}[j], f_0[j], …, f_{n−1}[j]); k has n signed 32-bit
/// coefficients split into 16-bit halves so that column sums fit an i64 (n <= 64).
/// Output: (slen + 2) words per coefficient, two's complement, word-major. `lo`, `hi`:
/// slen·n scratch each.
#[allow(clippy::too_many_arguments)]
pub(crate) fn mul_small_exact_wide(
    out: &mut [u32],
    ext: &[i32],
    slen: usize,
    k: &[u32],
    n: usize,
    lo: &mut [i64],
    hi: &mut [i64],
) {
    let lo = &mut lo[..slen * n];
    let hi = &mut hi[..slen * n];
    lo.fill(0);
    hi.fill(0);
    for (u, &ku) in k[..n].iter().enumerate() {
        let ku = ku as i32 as i64;
        let kh = ku >> 16;
        let kl = ku & 0xFFFF;
        for j in 0..slen {
            // Coefficient kk gets k_u·f_{kk−u} (kk >= u) or −k_u·f_{kk−u+n}.
            let row = &ext[j * 2 * n + n - u..j * 2 * n + 2 * n - u];
            let l = &mut lo[j * n..(j + 1) * n];
            let h = &mut hi[j * n..(j + 1) * n];
            for ((lv, hv), &d) in l.iter_mut().zip(h.iter_mut()).zip(row) {
                let d = d as i64;
                *lv += kl * d;
                *hv += kh * d;
            }
        }
    }
    // Carry pass, all coefficients at once: value = sum_j (hi·2^16 + lo)·2^(31·j), with
    // hi·2^16 = (hi >> 15)·2^31 + (hi mod 2^15)·2^16 to stay within i64.
    let mut c = [0i64; 64];
    for j in 0..slen + 2 {
        let o = &mut out[j * n..(j + 1) * n];
        if j < slen {
            let l = &lo[j * n..(j + 1) * n];
            let h = &hi[j * n..(j + 1) * n];
            for kk in 0..n {
                let t = l[kk] + ((h[kk] & 0x7FFF) << 16) + c[kk];
                o[kk] = (t as u32) & MASK31;
                c[kk] = (t >> 31) + (h[kk] >> 15);
            }
        } else {
            for kk in 0..n {
                let t = c[kk];
                o[kk] = (t as u32) & MASK31;
                c[kk] = t >> 31;
            }
        }
    }
    crate::wipe::wipe(&mut c, [0; 64]);
}
}

/// The signed value of a one-word integer (bit 30 is the sign).
#[inline(always)]
pub(crate) fn one_to_plain(w: u32) -> i32 {
    (w | ((w & 0x4000_0000) << 1)) as i32
}

/// 1 if the signed integer x (two's complement over all its words) has |x| >= 2^bits
/// (more precisely: is outside [-2^bits, 2^bits)), else 0. Constant time.
pub(crate) fn exceeds_bits(x: &[u32], bits: usize) -> u32 {
    let len = x.len();
    let sign = (x[len - 1] >> 30).wrapping_neg(); // all ones if negative
    let mut diff = 0u32;
    for (j, &w) in x.iter().enumerate() {
        // Bits at positions >= `bits` must all equal the sign.
        let lo = 31 * j;
        let mask = if lo + 31 <= bits {
            0
        } else if lo >= bits {
            MASK31
        } else {
            MASK31 & !((1u32 << (bits - lo)) - 1)
        };
        diff |= (w ^ sign) & mask;
    }
    (diff | diff.wrapping_neg()) >> 31
}
