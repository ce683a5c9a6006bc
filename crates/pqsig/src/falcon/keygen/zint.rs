//! Big integers for NTRUSolve: little-endian sequences of 31-bit words (each `u32`
//! keeps its top bit clear), signed values in two's complement over 31·len bits.
//!
//! Polynomials with big coefficients are stored *word-major*: word j of coefficient i
//! is at `x[j * stride + i]` (stride = number of coefficients). The same layout holds
//! RNS residues (row j = residues modulo prime j), so the CRT rebuild works in place and
//! every inner loop runs over coefficients (vectorisable, data-independent).
//!
//! All functions are constant-time with respect to the values (the lengths, scales and
//! strides are public).

use super::modp::{self, SmallPrime, PRIMES};

const MASK31: u32 = 0x7FFF_FFFF;

/// `m <- m * x` over `m.len()` words (contiguous); returns the carry word. `x < 2^31`.
pub(crate) fn mul_small(m: &mut [u32], x: u32) -> u32 {
    let mut cc = 0u32;
    for w in m.iter_mut() {
        let z = (*w as u64) * (x as u64) + cc as u64;
        *w = (z as u32) & MASK31;
        cc = (z >> 31) as u32;
    }
    cc
}

/// `d mod p` for the unsigned integer of `dlen` words at `d[j * stride]`.
#[inline]
#[cfg(test)]
pub(crate) fn mod_small_unsigned(d: &[u32], dlen: usize, stride: usize, sp: &SmallPrime) -> u32 {
    let p = sp.p;
    let c31 = sp.c31();
    let mut x = 0u32;
    for j in (0..dlen).rev() {
        // x <- x·2^31 + w (w < 2^31 < 2p, reduced once).
        x = sp.mmul(x, c31);
        let w = d[j * stride].wrapping_sub(p);
        let w = w.wrapping_add(p & modp::tbmask(w));
        x = modp::add(x, w, p);
    }
    x
}

/// `d mod p` for the signed integer of `dlen` words at `d[j * stride]`; `rx` must be
/// 2^(31·dlen) mod p ([`SmallPrime::pow2_31`]).
#[inline]
#[cfg(test)]
pub(crate) fn mod_small_signed(
    d: &[u32],
    dlen: usize,
    stride: usize,
    sp: &SmallPrime,
    rx: u32,
) -> u32 {
    if dlen == 0 {
        return 0;
    }
    let z = mod_small_unsigned(d, dlen, stride, sp);
    let neg = (d[(dlen - 1) * stride] >> 30).wrapping_neg();
    modp::sub(z, rx & neg, sp.p)
}

solver_loop! {
/// Residues modulo `sp` of `n` signed integers of `dlen` words (word-major with stride
/// `stride`, coefficient i at offset i) into `out[..n]`.
pub(crate) fn mod_small_signed_batch(
    out: &mut [u32],
    d: &[u32],
    dlen: usize,
    stride: usize,
    n: usize,
    sp: &SmallPrime,
) {
    let p = sp.p;
    let out = &mut out[..n];
    if dlen == 0 {
        out.fill(0);
        return;
    }
    let c31 = sp.c31();
    let rx = sp.pow2_31(dlen);
    out.fill(0);
    for j in (0..dlen).rev() {
        let row = &d[j * stride..j * stride + n];
        for (x, &w) in out.iter_mut().zip(row) {
            let t = sp.mmul(*x, c31);
            let w = w.wrapping_sub(p);
            let w = w.wrapping_add(p & modp::tbmask(w));
            *x = modp::add(t, w, p);
        }
    }
    let top = &d[(dlen - 1) * stride..(dlen - 1) * stride + n];
    for (x, &w) in out.iter_mut().zip(top) {
        let neg = (w >> 30).wrapping_neg();
        *x = modp::sub(*x, rx & neg, p);
    }
}
}

solver_loop! {
/// Rebuilds `n` integers of `xlen` words from their RNS form, in place: on input row j
/// (`xx[j*stride .. j*stride+n]`) holds the residues modulo `PRIMES[j]`; on output it
/// holds word j of each integer. With `signed`, values are normalised into
/// `[-(P-1)/2, (P-1)/2]` (P = product of the `xlen` primes), two's complement.
/// `tmp` needs `xlen + 2n` words.
pub(crate) fn rebuild_crt(
    xx: &mut [u32],
    xlen: usize,
    stride: usize,
    n: usize,
    signed: bool,
    tmp: &mut [u32],
) {
    if xlen == 0 {
        return;
    }
    let (prod, rest) = tmp.split_at_mut(xlen);
    let (acc, rest) = rest.split_at_mut(n);
    let cc = &mut rest[..n];
    // prod = product of the primes processed so far (u words).
    prod[0] = PRIMES[0].p;
    for u in 1..xlen {
        let sp = &PRIMES[u];
        let p = sp.p;
        let c31 = sp.c31();
        // acc[i] = (current value of integer i, u words) mod p.
        acc.fill(0);
        for j in (0..u).rev() {
            let row = &xx[j * stride..j * stride + n];
            for (a, &w) in acc.iter_mut().zip(row) {
                let t = sp.mmul(*a, c31);
                let w = w.wrapping_sub(p);
                let w = w.wrapping_add(p & modp::tbmask(w));
                *a = modp::add(t, w, p);
            }
        }
        // acc[i] <- s·(x_p - x_q) mod p: the multiple of prod to add.
        {
            let row = &xx[u * stride..u * stride + n];
            for (a, &xp) in acc.iter_mut().zip(row) {
                *a = sp.mmul(sp.s, modp::sub(xp, *a, p));
            }
        }
        // x_i += prod * acc[i]; the carry becomes word u.
        cc.fill(0);
        for (j, &pw) in prod[..u].iter().enumerate() {
            let row = &mut xx[j * stride..j * stride + n];
            for ((x, &a), c) in row.iter_mut().zip(acc.iter()).zip(cc.iter_mut()) {
                let z = (pw as u64) * (a as u64) + (*x as u64) + (*c as u64);
                *x = (z as u32) & MASK31;
                *c = (z >> 31) as u32;
            }
        }
        xx[u * stride..u * stride + n].copy_from_slice(cc);
        prod[u] = mul_small(&mut prod[..u], p);
    }
    if signed {
        // If x > (P-1)/2, replace x with x - P, for every coefficient at once. The
        // comparison with (P-1)/2 (P odd: its halving shifts bits between words) is
        // decided by the highest differing word: r = -1, 0 or 1 per coefficient.
        let (r, rest) = (acc, cc);
        r.fill(0);
        let mut bb = 0u32;
        for j in (0..xlen).rev() {
            let wp = (prod[j] >> 1) | (bb << 30);
            bb = prod[j] & 1;
            let row = &xx[j * stride..j * stride + n];
            for (ri, &wx) in r.iter_mut().zip(row) {
                let c = wp.wrapping_sub(wx);
                let c = (c.wrapping_neg() >> 31) | (c >> 31).wrapping_neg();
                *ri |= c & ((*ri & 1).wrapping_sub(1));
            }
        }
        // Subtract P where r = -1.
        for ri in r.iter_mut() {
            *ri = (*ri >> 31).wrapping_neg();
        }
        rest.fill(0);
        for (j, &pw) in prod[..xlen].iter().enumerate() {
            let row = &mut xx[j * stride..j * stride + n];
            for ((x, &m), c) in row.iter_mut().zip(r.iter()).zip(rest.iter_mut()) {
                let w = x.wrapping_sub(pw).wrapping_sub(*c);
                *c = w >> 31;
                *x ^= ((w & MASK31) ^ *x) & m;
            }
        }
    }
}
}

solver_loop! {
/// `x <- x - y·2^(31·sch + scl)` modulo 2^(31·xlen) for `n` integers at once (x:
/// `xlen` words, y: signed `ylen` words sign-extended, both word-major with stride n).
/// `scl < 31`; `tmp` needs 2n words. Vectorises over the coefficients.
#[allow(clippy::too_many_arguments)]
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
    if ylen == 0 || sch >= xlen {
        return;
    }
    let (tw, cc) = tmp[..2 * n].split_at_mut(n);
    tw.fill(0);
    cc.fill(0);
    let top = &y[(ylen - 1) * n..ylen * n];
    for u in sch..xlen {
        let v = u - sch;
        let xr = &mut x[u * n..(u + 1) * n];
        if v < ylen {
            let yr = &y[v * n..(v + 1) * n];
            for i in 0..n {
                let wy = yr[i];
                let wys = ((wy << scl) & MASK31) | tw[i];
                tw[i] = wy >> (31 - scl);
                let w = xr[i].wrapping_sub(wys).wrapping_sub(cc[i]);
                xr[i] = w & MASK31;
                cc[i] = w >> 31;
            }
        } else {
            for i in 0..n {
                let wy = (top[i] >> 30).wrapping_neg() >> 1;
                let wys = ((wy << scl) & MASK31) | tw[i];
                tw[i] = wy >> (31 - scl);
                let w = xr[i].wrapping_sub(wys).wrapping_sub(cc[i]);
                xr[i] = w & MASK31;
                cc[i] = w >> 31;
            }
        }
    }
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

/// Gathers `n` signed integers of `len` words (word-major, stride n) into contiguous
/// absolute values (`abs[i*len..]`) and sign flags (`neg[i]` = 1 if negative).
pub(crate) fn abs_gather(abs: &mut [u32], neg: &mut [u32], x: &[u32], len: usize, n: usize) {
    for i in 0..n {
        let s = x[(len - 1) * n + i] >> 30;
        let m = s.wrapping_neg() >> 1;
        let mut cc = s;
        for j in 0..len {
            let w = (x[j * n + i] ^ m).wrapping_add(cc);
            abs[i * len + j] = w & MASK31;
            cc = w >> 31;
        }
        neg[i] = s;
    }
}

/// `out <- a·b` for unsigned integers (out has a.len() + b.len() words).
pub(crate) fn mul_abs(out: &mut [u32], a: &[u32], b: &[u32]) {
    let la = a.len();
    out.fill(0);
    for (i, &bw) in b.iter().enumerate() {
        let mut cc = 0u64;
        let row = &mut out[i..i + la + 1];
        for (o, &aw) in row[..la].iter_mut().zip(a.iter()) {
            let z = (aw as u64) * (bw as u64) + (*o as u64) + cc;
            *o = (z as u32) & MASK31;
            cc = z >> 31;
        }
        row[la] = cc as u32;
    }
}

/// `acc <- acc + (−1)^neg · p` modulo 2^(31·acc.len()) (acc two's complement; p unsigned,
/// no longer than acc).
pub(crate) fn add_signed(acc: &mut [u32], p: &[u32], neg: u32) {
    let m = neg.wrapping_neg() >> 1;
    let mut cc = neg;
    for (j, a) in acc.iter_mut().enumerate() {
        let pw = if j < p.len() { p[j] } else { 0 };
        let w = a.wrapping_add(pw ^ m).wrapping_add(cc);
        *a = w & MASK31;
        cc = w >> 31;
    }
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

// ---------------------------------------------------------------------------------
// Extended binary GCD (deepest level of NTRUSolve). Contiguous integers.

/// `a <- -a` if `ctl == 1` (ctl in {0, 1}).
fn negate(a: &mut [u32], ctl: u32) {
    let mut cc = ctl;
    let m = ctl.wrapping_neg() >> 1;
    for w in a.iter_mut() {
        let aw = (*w ^ m).wrapping_add(cc);
        *w = aw & MASK31;
        cc = aw >> 31;
    }
}

/// `(a, b) <- ((a·xa + b·xb) / 2^31, (a·ya + b·yb) / 2^31)` (the low 31 bits are
/// expected to be zero and are dropped); a negative result is negated. Returns bit 0
/// set if a was negated, bit 1 if b was.
fn co_reduce(a: &mut [u32], b: &mut [u32], xa: i64, xb: i64, ya: i64, yb: i64) -> u32 {
    let len = a.len();
    let mut cca = 0i64;
    let mut ccb = 0i64;
    for u in 0..len {
        let wa = a[u] as u64;
        let wb = b[u] as u64;
        let za = wa
            .wrapping_mul(xa as u64)
            .wrapping_add(wb.wrapping_mul(xb as u64))
            .wrapping_add(cca as u64);
        let zb = wa
            .wrapping_mul(ya as u64)
            .wrapping_add(wb.wrapping_mul(yb as u64))
            .wrapping_add(ccb as u64);
        if u > 0 {
            a[u - 1] = (za as u32) & MASK31;
            b[u - 1] = (zb as u32) & MASK31;
        }
        cca = (za as i64) >> 31;
        ccb = (zb as i64) >> 31;
    }
    a[len - 1] = cca as u32;
    b[len - 1] = ccb as u32;
    let nega = ((cca as u64) >> 63) as u32;
    let negb = ((ccb as u64) >> 63) as u32;
    negate(a, nega);
    negate(b, negb);
    nega | (negb << 1)
}

/// Final correction of a Montgomery-style reduction: if `neg`, -m <= a < 0 and m is
/// added; otherwise 0 <= a < 2m (top word may use 32 bits) and m is subtracted if
/// a >= m.
fn finish_mod(a: &mut [u32], m: &[u32], neg: u32) {
    let len = a.len();
    let mut cc = 0u32;
    for u in 0..len {
        cc = a[u].wrapping_sub(m[u]).wrapping_sub(cc) >> 31;
    }
    let xm = neg.wrapping_neg() >> 1;
    let ym = (neg | (1 - cc)).wrapping_neg();
    let mut cc = neg;
    for u in 0..len {
        let mw = (m[u] ^ xm) & ym;
        let aw = a[u].wrapping_sub(mw).wrapping_sub(cc);
        a[u] = aw & MASK31;
        cc = aw >> 31;
    }
}

/// `(a, b) <- ((a·xa + b·xb) / 2^31 mod m, (a·ya + b·yb) / 2^31 mod m)`, m odd,
/// `m0i = -1/m[0] mod 2^31`.
#[allow(clippy::too_many_arguments)]
fn co_reduce_mod(
    a: &mut [u32],
    b: &mut [u32],
    m: &[u32],
    m0i: u32,
    xa: i64,
    xb: i64,
    ya: i64,
    yb: i64,
) {
    let len = a.len();
    let mut cca = 0i64;
    let mut ccb = 0i64;
    let fa = (a[0]
        .wrapping_mul(xa as u32)
        .wrapping_add(b[0].wrapping_mul(xb as u32)))
    .wrapping_mul(m0i)
        & MASK31;
    let fb = (a[0]
        .wrapping_mul(ya as u32)
        .wrapping_add(b[0].wrapping_mul(yb as u32)))
    .wrapping_mul(m0i)
        & MASK31;
    for u in 0..len {
        let wa = a[u] as u64;
        let wb = b[u] as u64;
        let mu = m[u] as u64;
        let za = wa
            .wrapping_mul(xa as u64)
            .wrapping_add(wb.wrapping_mul(xb as u64))
            .wrapping_add(mu.wrapping_mul(fa as u64))
            .wrapping_add(cca as u64);
        let zb = wa
            .wrapping_mul(ya as u64)
            .wrapping_add(wb.wrapping_mul(yb as u64))
            .wrapping_add(mu.wrapping_mul(fb as u64))
            .wrapping_add(ccb as u64);
        if u > 0 {
            a[u - 1] = (za as u32) & MASK31;
            b[u - 1] = (zb as u32) & MASK31;
        }
        cca = (za as i64) >> 31;
        ccb = (zb as i64) >> 31;
    }
    a[len - 1] = cca as u32;
    b[len - 1] = ccb as u32;
    finish_mod(a, m, ((cca as u64) >> 63) as u32);
    finish_mod(b, m, ((ccb as u64) >> 63) as u32);
}

/// `(a, b) <- ((a·xa + b·xb) / 2^62 mod m, (a·ya + b·yb) / 2^62 mod m)` for
/// 0 <= a, b < m (m odd), with |xa| + |xb| <= 2^62 and |ya| + |yb| <= 2^62;
/// `m0i = -1/m mod 2^62`, at least two words. The same Montgomery-style step as
/// [`co_reduce_mod`], two words at a time.
#[allow(clippy::too_many_arguments)]
fn co_reduce_mod62(
    a: &mut [u32],
    b: &mut [u32],
    m: &[u32],
    m0i: u64,
    xa: i64,
    xb: i64,
    ya: i64,
    yb: i64,
) {
    const M62: u64 = (1u64 << 62) - 1;
    let len = a.len();
    let a0 = a[0] as u64 | ((a[1] as u64) << 31);
    let b0 = b[0] as u64 | ((b[1] as u64) << 31);
    let fa = (a0
        .wrapping_mul(xa as u64)
        .wrapping_add(b0.wrapping_mul(xb as u64)))
    .wrapping_mul(m0i)
        & M62;
    let fb = (a0
        .wrapping_mul(ya as u64)
        .wrapping_add(b0.wrapping_mul(yb as u64)))
    .wrapping_mul(m0i)
        & M62;
    let (xa, xb, ya, yb) = (xa as i128, xb as i128, ya as i128, yb as i128);
    let (fa, fb) = (fa as i128, fb as i128);
    let mut cca = 0i128;
    let mut ccb = 0i128;
    for u in 0..len {
        let wa = a[u] as i128;
        let wb = b[u] as i128;
        let mu = m[u] as i128;
        let za = wa * xa + wb * xb + mu * fa + cca;
        let zb = wa * ya + wb * yb + mu * fb + ccb;
        if u >= 2 {
            a[u - 2] = (za as u32) & MASK31;
            b[u - 2] = (zb as u32) & MASK31;
        }
        cca = za >> 31;
        ccb = zb >> 31;
    }
    a[len - 2] = (cca as u32) & MASK31;
    b[len - 2] = (ccb as u32) & MASK31;
    let ta = cca >> 31;
    let tb = ccb >> 31;
    a[len - 1] = ta as u32;
    b[len - 1] = tb as u32;
    finish_mod(a, m, ((ta as u64) >> 63) as u32);
    finish_mod(b, m, ((tb as u64) >> 63) as u32);
}

/// -1/m mod 2^62 for odd m (from its two low 31-bit words).
fn ninv62(m: &[u32]) -> u64 {
    let x = m[0] as u64 | ((*m.get(1).unwrap_or(&0) as u64) << 31);
    let mut y = x; // correct to 3 bits (x odd)
    for _ in 0..5 {
        y = y.wrapping_mul(2u64.wrapping_sub(x.wrapping_mul(y)));
    }
    y.wrapping_neg() & ((1u64 << 62) - 1)
}

/// -1/x mod 2^31 for odd x.
fn ninv31(x: u32) -> u32 {
    let mut y = 2u32.wrapping_sub(x);
    for _ in 0..4 {
        y = y.wrapping_mul(2u32.wrapping_sub(x.wrapping_mul(y)));
    }
    y.wrapping_neg() & MASK31
}

/// Extended GCD of two odd positive integers x, y of the same length `len`.
/// On success (gcd = 1, both odd) returns true and sets u, v with
/// 0 <= u <= y, 0 <= v <= x and x·u - y·v = 1. `tmp` needs 4·len words.
///
/// Binary GCD driven by the top two and the low word of (a, b), 31 steps at a time,
/// with the same invariants (a = x·u0 - y·v0, b = x·u1 - y·v1) as the Falcon
/// reference; only the u side is tracked, and v = (x·u - 1)/y is obtained at the end by
/// an exact (Hensel) division. The result is the canonical one (u = 1/x mod y, and v
/// follows from u), and the running time depends only on `len`.
pub(crate) fn bezout(u: &mut [u32], v: &mut [u32], x: &[u32], y: &[u32], tmp: &mut [u32]) -> bool {
    let len = x.len();
    if len == 0 {
        return false;
    }
    let (u1, rest) = tmp.split_at_mut(len);
    let (a, rest) = rest.split_at_mut(len);
    let (b, rest) = rest.split_at_mut(len);
    let r = &mut rest[..len];
    let u0 = &mut u[..len];

    let y0i = ninv31(y[0]);

    // a = x, u0 = 1; b = y, u1 = y.
    a.copy_from_slice(x);
    b.copy_from_slice(y);
    u0.fill(0);
    u0[0] = 1;
    u1.copy_from_slice(y);

    // Each outer step removes at least 30 bits from len(a) + len(b): after t steps both
    // fit in min(len, ceil((62·len − 30·t)/31)) words, a public bound that limits the
    // words the steps touch. The matrices of two consecutive steps are multiplied and
    // applied to (u0, u1) at once (a division by 2^62).
    let mut num = 62 * len as u32 + 30;
    let mut step = 0usize;
    let mut pending: Option<[i64; 4]> = None;
    let y0i62 = ninv62(y);
    while num >= 30 {
        let bound_bits = (62 * len).saturating_sub(30 * step);
        let wl = len.min(bound_bits.div_ceil(31)).max(1);
        step += 1;
        let a = &mut a[..wl];
        let b = &mut b[..wl];
        // Top words: two highest words at the highest index >= 1 where a or b is
        // non-zero (constant-time scan), or the single low word.
        let mut c0 = u32::MAX;
        let mut c1 = u32::MAX;
        let (mut a0, mut a1, mut b0, mut b1) = (0u32, 0u32, 0u32, 0u32);
        for j in (0..wl).rev() {
            let aw = a[j];
            let bw = b[j];
            a0 ^= (a0 ^ aw) & c0;
            a1 ^= (a1 ^ aw) & c1;
            b0 ^= (b0 ^ bw) & c0;
            b1 ^= (b1 ^ bw) & c1;
            c1 = c0;
            c0 &= (((aw | bw).wrapping_add(MASK31)) >> 31).wrapping_sub(1);
        }
        a1 |= a0 & c1;
        a0 &= !c1;
        b1 |= b0 & c1;
        b0 &= !c1;
        let mut a_hi = ((a0 as u64) << 31) + a1 as u64;
        let mut b_hi = ((b0 as u64) << 31) + b1 as u64;
        let mut a_lo = a[0];
        let mut b_lo = b[0];

        // 31 binary-GCD steps on the approximations, tracked as a 2x2 matrix.
        let (mut pa, mut pb, mut qa, mut qb) = (1i64, 0i64, 0i64, 1i64);
        for i in 0..31 {
            // rt = 1 iff a_hi > b_hi.
            let rz = b_hi.wrapping_sub(a_hi);
            let rt = ((rz ^ ((a_hi ^ b_hi) & (a_hi ^ rz))) >> 63) as u32;
            let oa = (a_lo >> i) & 1;
            let ob = (b_lo >> i) & 1;
            let c_ab = oa & ob & rt;
            let c_ba = oa & ob & !rt;
            let c_a = c_ab | (oa ^ 1);

            a_lo = a_lo.wrapping_sub(b_lo & c_ab.wrapping_neg());
            a_hi = a_hi.wrapping_sub(b_hi & (c_ab as u64).wrapping_neg());
            pa = pa.wrapping_sub(qa & (c_ab as i64).wrapping_neg());
            pb = pb.wrapping_sub(qb & (c_ab as i64).wrapping_neg());
            b_lo = b_lo.wrapping_sub(a_lo & c_ba.wrapping_neg());
            b_hi = b_hi.wrapping_sub(a_hi & (c_ba as u64).wrapping_neg());
            qa = qa.wrapping_sub(pa & (c_ba as i64).wrapping_neg());
            qb = qb.wrapping_sub(pb & (c_ba as i64).wrapping_neg());

            a_lo = a_lo.wrapping_add(a_lo & c_a.wrapping_sub(1));
            pa = pa.wrapping_add(pa & (c_a as i64).wrapping_sub(1));
            pb = pb.wrapping_add(pb & (c_a as i64).wrapping_sub(1));
            a_hi ^= (a_hi ^ (a_hi >> 1)) & (c_a as u64).wrapping_neg();
            b_lo = b_lo.wrapping_add(b_lo & c_a.wrapping_neg());
            qa = qa.wrapping_add(qa & (c_a as i64).wrapping_neg());
            qb = qb.wrapping_add(qb & (c_a as i64).wrapping_neg());
            b_hi ^= (b_hi ^ (b_hi >> 1)) & (c_a as u64).wrapping_sub(1);
        }

        // Apply to (a, b); fix the signs of the coefficients if a or b was negated.
        let rr = co_reduce(a, b, pa, pb, qa, qb);
        let ra = ((rr & 1) as i64).wrapping_neg();
        let rb = ((rr >> 1) as i64).wrapping_neg();
        pa = pa.wrapping_sub(pa.wrapping_add(pa) & ra);
        pb = pb.wrapping_sub(pb.wrapping_add(pb) & ra);
        qa = qa.wrapping_sub(qa.wrapping_add(qa) & rb);
        qb = qb.wrapping_sub(qb.wrapping_add(qb) & rb);
        match pending.take() {
            None if len < 2 => co_reduce_mod(u0, u1, y, y0i, pa, pb, qa, qb),
            None => pending = Some([pa, pb, qa, qb]),
            Some([pa1, pb1, qa1, qb1]) => {
                // This step's matrix times the previous one; entries stay below 2^62.
                let xa = pa.wrapping_mul(pa1).wrapping_add(pb.wrapping_mul(qa1));
                let xb = pa.wrapping_mul(pb1).wrapping_add(pb.wrapping_mul(qb1));
                let ya = qa.wrapping_mul(pa1).wrapping_add(qb.wrapping_mul(qa1));
                let yb = qa.wrapping_mul(pb1).wrapping_add(qb.wrapping_mul(qb1));
                co_reduce_mod62(u0, u1, y, y0i62, xa, xb, ya, yb);
            }
        }
        num -= 30;
    }
    if let Some([pa, pb, qa, qb]) = pending {
        co_reduce_mod(u0, u1, y, y0i, pa, pb, qa, qb);
    }

    // a holds the GCD: require a = 1, and x, y odd.
    let mut rc = a[0] ^ 1;
    for &w in &a[1..] {
        rc |= w;
    }
    let is_one = 1 - ((rc | rc.wrapping_neg()) >> 31);
    // Whether the GCD is 1 decides a keygen rejection (declassified: docs/ARCHITECTURE.md).
    let ok = crate::ct::public((is_one & x[0] & y[0]) == 1);
    // v = (x·u - 1) / y, exact: computed modulo 2^(31·len) (v <= x < 2^(31·len)) with
    // the 2-adic inverse of y, word by word.
    mul_low(r, x, u0);
    sub_one(r);
    let yi = ninv31(y[0]).wrapping_neg() & MASK31; // 1/y mod 2^31
    let v = &mut v[..len];
    for j in 0..len {
        let q = r[j].wrapping_mul(yi) & MASK31;
        v[j] = q;
        // r <- r - q·y·2^(31·j), truncated (word j becomes zero).
        let mut cc = 0u64;
        for t in 0..len - j {
            let p = (q as u64) * (y[t] as u64) + cc;
            let d = r[j + t].wrapping_sub((p as u32) & MASK31);
            r[j + t] = d & MASK31;
            cc = (p >> 31) + (d >> 31) as u64;
        }
    }
    ok
}

/// `r <- x·u mod 2^(31·len)` (all three `len` words, unsigned).
fn mul_low(r: &mut [u32], x: &[u32], u: &[u32]) {
    let len = r.len();
    r.fill(0);
    for i in 0..len {
        let ui = u[i] as u64;
        let mut cc = 0u64;
        for t in 0..len - i {
            let z = (x[t] as u64) * ui + (r[i + t] as u64) + cc;
            r[i + t] = (z as u32) & MASK31;
            cc = z >> 31;
        }
    }
}

/// `r <- r - 1 mod 2^(31·len)`.
fn sub_one(r: &mut [u32]) {
    let mut cc = 1u32;
    for w in r.iter_mut() {
        let d = w.wrapping_sub(cc);
        *w = d & MASK31;
        cc = d >> 31;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    // Tiny bignum helpers over u128 for checks.
    fn to_words(mut x: u128, len: usize) -> Vec<u32> {
        let mut v = vec![0u32; len];
        for w in v.iter_mut() {
            *w = (x as u32) & MASK31;
            x >>= 31;
        }
        v
    }
    fn from_words(v: &[u32]) -> u128 {
        let mut x = 0u128;
        for &w in v.iter().rev() {
            x = (x << 31) | w as u128;
        }
        x
    }

    #[test]
    fn bezout_small() {
        let cases: [(u128, u128); 4] = [
            (3, 5),
            (123456789, 987654321),
            ((1u128 << 90) + 1, (1u128 << 89) + 3),
            (1_000_000_007, 998_244_353),
        ];
        for &(x, y) in &cases {
            let len = 3;
            let xw = to_words(x, len);
            let yw = to_words(y, len);
            let mut u = vec![0u32; len];
            let mut v = vec![0u32; len];
            let mut tmp = vec![0u32; 4 * len];
            let ok = bezout(&mut u, &mut v, &xw, &yw, &mut tmp);
            let g = {
                let (mut a, mut b) = (x, y);
                while b != 0 {
                    let t = a % b;
                    a = b;
                    b = t;
                }
                a
            };
            assert_eq!(ok, g == 1, "{x} {y}");
            if ok {
                let (uu, vv) = (from_words(&u), from_words(&v));
                assert!(uu <= y && vv <= x);
                // x*u - y*v == 1 (mod 2^128 is enough here: values < 2^93 · 2^93 overflow,
                // so check modulo a prime instead).
                let m = 1_000_000_000_000_000_003u128;
                let lhs = (x % m) * (uu % m) % m;
                let rhs = ((y % m) * (vv % m) + 1) % m;
                assert_eq!(lhs, rhs);
            }
        }
    }

    /// x·u − y·v = 1 checked modulo several primes, 0 <= u <= y, 0 <= v <= x, and the
    /// gcd decision checked against a plain gcd of the residues' integers (small cases).
    #[test]
    fn bezout_random_sizes() {
        let mut st = 0x1234_5678_9abc_def0u64;
        let mut rnd = || {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            st
        };
        let cmp_le = |a: &[u32], b: &[u32]| {
            for j in (0..a.len()).rev() {
                if a[j] != b[j] {
                    return a[j] < b[j];
                }
            }
            true
        };
        let mut ok_count = 0;
        for len in 1..=12usize {
            for _ in 0..40 {
                let mut x: Vec<u32> = (0..len).map(|_| rnd() as u32 & MASK31).collect();
                let mut y: Vec<u32> = (0..len).map(|_| rnd() as u32 & MASK31).collect();
                x[0] |= 1;
                y[0] |= 1;
                // Random sizes: clear some top words.
                let cx = (rnd() % len as u64) as usize;
                let cy = (rnd() % len as u64) as usize;
                for w in &mut x[len - cx..] {
                    *w = 0;
                }
                for w in &mut y[len - cy..] {
                    *w = 0;
                }
                x[0] |= 1;
                y[0] |= 1;
                let mut u = vec![0u32; len];
                let mut v = vec![0u32; len];
                let mut tmp = vec![0u32; 4 * len];
                if !bezout(&mut u, &mut v, &x, &y, &mut tmp) {
                    continue;
                }
                ok_count += 1;
                assert!(cmp_le(&u, &y) && cmp_le(&v, &x), "len {len}");
                for sp in PRIMES.iter().take(6) {
                    let p = sp.p as u64;
                    let xm = mod_small_unsigned(&x, len, 1, sp) as u64;
                    let ym = mod_small_unsigned(&y, len, 1, sp) as u64;
                    let um = mod_small_unsigned(&u, len, 1, sp) as u64;
                    let vm = mod_small_unsigned(&v, len, 1, sp) as u64;
                    assert_eq!((xm * um % p + p - ym * vm % p) % p, 1, "len {len}");
                }
            }
        }
        assert!(ok_count > 300);
    }

    #[test]
    fn crt_rebuild_signed() {
        let n = 3usize;
        let xlen = 4usize;
        let vals: [i128; 3] = [-5, 123456789012345678901234, -(1i128 << 100) + 17];
        let mut xx = vec![0u32; xlen * n];
        for (i, &v) in vals.iter().enumerate() {
            for j in 0..xlen {
                let p = PRIMES[j].p as i128;
                xx[j * n + i] = v.rem_euclid(p) as u32;
            }
        }
        let mut tmp = vec![0u32; xlen + 2 * n];
        rebuild_crt(
            &crate::kernels::falcon::keygen::kernels(crate::kernels::select::Backend::detect()),
            &mut xx,
            xlen,
            n,
            n,
            true,
            &mut tmp,
        );
        for (i, &v) in vals.iter().enumerate() {
            let words: Vec<u32> = (0..xlen).map(|j| xx[j * n + i]).collect();
            let u = from_words(&words);
            let bits = 31 * xlen as u32;
            let s = if u >> (bits - 1) != 0 {
                u as i128 - (1i128 << bits)
            } else {
                u as i128
            };
            assert_eq!(s, v);
            // Residues round-trip.
            for sp in &PRIMES[..xlen] {
                let r = mod_small_signed(&xx[i..], xlen, n, sp, sp.pow2_31(xlen));
                assert_eq!(r as i128, v.rem_euclid(sp.p as i128));
            }
        }
    }
}
