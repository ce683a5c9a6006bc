//! Big integers for both NTRU solvers: base 2^31 words (little-endian, two's complement
//! in 31 bits for signed values), or RNS modulo the first primes of [`PRIMES`]. The
//! words of one integer may be interleaved with others: `stride` is the distance between
//! consecutive words (polynomials are stored word-major: word j of coefficient i at
//! `x[j·n + i]`, so RNS rows and the CRT rebuild work in place and inner loops run over
//! coefficients). All loops run over public lengths; no branch or index depends on
//! values.

use super::modp::{add, mmul, set_u, sub, tbmask, SmallPrime, PRIMES};

const MASK31: u32 = 0x7FFF_FFFF;

/// m ← m·x (x < 2^31, m unsigned, stride 1); returns the carry word.
pub(crate) fn mul_small(m: &mut [u32], x: u32) -> u32 {
    let mut cc = 0u32;
    for w in m.iter_mut() {
        let z = *w as u64 * x as u64 + cc as u64;
        *w = z as u32 & MASK31;
        cc = (z >> 31) as u32;
    }
    cc
}

/// d mod p, d unsigned with `dlen` words at `stride` (the AVX2 kernels' tails and the
/// tests; the portable batch runs row-wise).
#[cfg(any(test, target_arch = "x86_64"))]
pub(crate) fn mod_small_unsigned(d: &[u32], dlen: usize, stride: usize, sp: &SmallPrime) -> u32 {
    // Horner from the top word (c31: the Montgomery form of 2^31).
    let z = sp.c31();
    let mut x = 0u32;
    for j in (0..dlen).rev() {
        x = sp.mmul(x, z);
        x = add(x, set_u(d[j * stride], sp.p), sp.p);
    }
    x
}

/// d mod p, d signed with `dlen` words at `stride`; `rx = 2^(31·dlen) mod p`
/// ([`SmallPrime::pow2_31`]).
#[cfg(any(test, target_arch = "x86_64"))]
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
    let r = mod_small_unsigned(d, dlen, stride, sp);
    sub(r, rx & (d[stride * (dlen - 1)] >> 30).wrapping_neg(), sp.p)
}

/// `out[j] = x_j mod p` for the n signed integers of `len` words at `x[j..]` (stride
/// n); `rx = 2^(31·len) mod p`. The portable entry of
/// `kernels::falcon::ntru::NtruKernels::mod_small_signed_batch`.
pub(crate) fn mod_small_signed_batch(
    out: &mut [u32],
    x: &[u32],
    len: usize,
    n: usize,
    sp: &SmallPrime,
    rx: u32,
) {
    // Row by row over the n integers (Horner from the top word), so the inner loops
    // run over coefficients and vectorise.
    let (p, c31) = (sp.p, sp.c31());
    let out = &mut out[..n];
    out.fill(0);
    if len == 0 {
        return;
    }
    for j in (0..len).rev() {
        for (o, &w) in out.iter_mut().zip(&x[j * n..j * n + n]) {
            *o = add(sp.mmul(*o, c31), set_u(w, p), p);
        }
    }
    for (o, &w) in out.iter_mut().zip(&x[(len - 1) * n..len * n]) {
        *o = sub(*o, rx & (w >> 30).wrapping_neg(), p);
    }
}

/// x ← x − m if x > ⌊m/2⌋ (x in [0, m), at `stride`; m stride 1, same length).
pub(crate) fn norm_zero(x: &mut [u32], stride: usize, m: &[u32]) {
    // Compare x with ⌊m/2⌋ from the top word down: r = −1, 0, 1.
    let mut r = 0u32;
    let mut bb = 0u32;
    for i in (0..m.len()).rev() {
        let mw = m[i];
        let hmw = (mw >> 1) | (bb << 30);
        bb = mw & 1;
        let xw = x[i * stride];
        let cc = hmw.wrapping_sub(xw);
        let cc = (cc.wrapping_neg() >> 31) | tbmask(cc);
        r |= cc & crate::ct::barrier32((r & 1).wrapping_sub(1));
    }
    // Through the barrier: LLVM unswitched the loop below on an all-zeros mask (a branch
    // on the secret comparison; memcheck saw it).
    let mk = crate::ct::barrier32(tbmask(r));
    let mut cc = 0u32;
    for (i, &mw) in m.iter().enumerate() {
        let j = i * stride;
        let xw = x[j].wrapping_sub(mw & mk).wrapping_sub(cc);
        x[j] = xw & MASK31;
        cc = xw >> 31;
    }
}

/// One CRT step for one integer at `x` (stride n): its first i words hold x mod q_i
/// (q_i = the first i primes' product, `q`), word i holds x mod p_i; afterwards words
/// 0..=i hold x mod q_{i+1}. Used by the AVX2 CRT rebuild (`kernels::falcon::ntru`).
#[cfg(target_arch = "x86_64")]
pub(crate) fn crt_step(x: &mut [u32], i: usize, n: usize, q: &[u32]) {
    let sp = &PRIMES[i];
    let (p, p0i) = (sp.p, sp.p0i);
    let z = sp.c31();
    let mut xr = 0u32;
    for j in (0..i).rev() {
        xr = add(mmul(xr, z, p, p0i), set_u(x[j * n], p), p);
    }
    let xr = mmul(sp.s, sub(x[i * n], xr, p), p, p0i);
    let mut cc = 0u32;
    for (j, &qj) in q[..i].iter().enumerate() {
        let v = xr as u64 * qj as u64 + x[j * n] as u64 + cc as u64;
        x[j * n] = v as u32 & MASK31;
        cc = (v >> 31) as u32;
    }
    x[i * n] = cc;
}

/// CRT reconstruction in place. `xx` holds `sets` consecutive groups of `n` integers,
/// each in RNS over the first `xlen` primes, interleaved (stride n). On output each is
/// in base 2^31 (xlen words, same layout), in [0, m) or, if `signed`, in [−m/2, m/2]
/// (m = product of the primes). `tmp` needs `xlen` words.
///
/// The n integers of a group are processed side by side, word by word (independent
/// dependency chains), which gives the same values as one integer at a time.
pub(crate) fn rebuild_crt(
    xx: &mut [u32],
    xlen: usize,
    n: usize,
    sets: usize,
    signed: bool,
    tmp: &mut [u32],
) {
    let mut lanes = zeroize::Zeroizing::new(alloc::vec![0u32; 2 * n]);
    let (xr, cc) = lanes.split_at_mut(n);
    tmp[0] = PRIMES[0].p;
    for i in 1..xlen {
        // The first i words of each integer hold x mod q_i (q_i = p_0···p_{i−1}, in
        // tmp[..i]); word i holds x mod p_i. x mod q_{i+1} = xq + q_i·(s_i·(xp − xq) mod
        // p_i).
        let sp = &PRIMES[i];
        let (p, p0i) = (sp.p, sp.p0i);
        let z = sp.c31(); // Montgomery form of 2^31
        for set in 0..sets {
            let x = &mut xx[set * n * xlen..(set + 1) * n * xlen];
            // xr = xq mod p_i (Horner from the top word).
            xr.fill(0);
            for j in (0..i).rev() {
                for (r, &w) in xr.iter_mut().zip(&x[j * n..(j + 1) * n]) {
                    *r = add(mmul(*r, z, p, p0i), set_u(w, p), p);
                }
            }
            // xr = s_i·(xp − xq) mod p_i.
            for (r, &w) in xr.iter_mut().zip(&x[i * n..(i + 1) * n]) {
                *r = mmul(sp.s, sub(w, *r, p), p, p0i);
            }
            // x += q_i·xr (i words of q_i; the carry becomes word i).
            cc.fill(0);
            for (j, &qj) in tmp[..i].iter().enumerate() {
                for ((w, c), &t) in x[j * n..(j + 1) * n]
                    .iter_mut()
                    .zip(cc.iter_mut())
                    .zip(xr.iter())
                {
                    let v = t as u64 * qj as u64 + *w as u64 + *c as u64;
                    *w = v as u32 & MASK31;
                    *c = (v >> 31) as u32;
                }
            }
            x[i * n..(i + 1) * n].copy_from_slice(cc);
        }
        tmp[i] = mul_small(&mut tmp[..i], p);
    }
    if signed {
        for set in 0..sets {
            for k in 0..n {
                norm_zero(&mut xx[set * n * xlen + k..], n, &tmp[..xlen]);
            }
        }
    }
}

/// 2^62 − 1.
const M62: i64 = (1 << 62) - 1;

/// 62 divsteps (Bernstein–Yang) on the low 64 bits of f (odd) and g, from `delta`:
/// returns the new delta and the transition matrix (u, v, q, r), with
/// `2^62·f' = u·f + v·g` and `2^62·g' = q·f + r·g` for the full integers, and
/// `|u| + |v|, |q| + |r| <= 2^62`. Each step: if delta > 0 and g is odd,
/// (delta, f, g) ← (1 − delta, g, (g − f)/2); else if g is odd,
/// (1 + delta, f, (g + f)/2); else (1 + delta, f, g/2). Only the low bits decide the
/// steps, so 64-bit wrapping arithmetic is exact for 62 of them. Branch-free.
fn divsteps62(mut delta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    let (mut u, mut v, mut q, mut r) = (1i64, 0i64, 0i64, 1i64);
    let (mut f, mut g) = (f0, g0);
    for _ in 0..62 {
        let godd = (g & 1).wrapping_neg();
        // delta > 0 (delta stays far from i64 bounds: |delta| <= steps + 1).
        let dpos = (delta.wrapping_neg() >> 63) as u64;
        let c1 = godd & dpos;
        let c1s = c1 as i64;
        // If c1: (f, g, delta) ← (g, −f, −delta), rows (u, v) ↔ (q, r) with the new
        // second row negated.
        let t = c1 & (f ^ g);
        f ^= t;
        g ^= t;
        g = (g ^ c1).wrapping_sub(c1);
        delta = (delta ^ c1s).wrapping_sub(c1s);
        let t = c1s & (u ^ q);
        u ^= t;
        q ^= t;
        let t = c1s & (v ^ r);
        v ^= t;
        r ^= t;
        q = (q ^ c1s).wrapping_sub(c1s);
        r = (r ^ c1s).wrapping_sub(c1s);
        // g odd: g ← g + f (and the second row gets the first).
        let gs = godd as i64;
        g = g.wrapping_add(f & godd);
        q = q.wrapping_add(u & gs);
        r = r.wrapping_add(v & gs);
        g >>= 1;
        u = u.wrapping_shl(1);
        v = v.wrapping_shl(1);
        delta = delta.wrapping_add(1);
    }
    (delta, [u, v, q, r])
}

/// (f, g) ← ((u·f + v·g)/2^62, (q·f + r·g)/2^62), signed 62-bit limbs (top one
/// signed); the divisions are exact by construction of the matrix.
fn update_fg62(f: &mut [i64], g: &mut [i64], t: &[i64; 4]) {
    let [u, v, q, r] = t.map(|x| x as i128);
    let len = f.len();
    let mut cf = u * f[0] as i128 + v * g[0] as i128;
    let mut cg = q * f[0] as i128 + r * g[0] as i128;
    cf >>= 62;
    cg >>= 62;
    for i in 1..len {
        cf += u * f[i] as i128 + v * g[i] as i128;
        cg += q * f[i] as i128 + r * g[i] as i128;
        f[i - 1] = cf as i64 & M62;
        g[i - 1] = cg as i64 & M62;
        cf >>= 62;
        cg >>= 62;
    }
    f[len - 1] = cf as i64;
    g[len - 1] = cg as i64;
}

/// (d, e) ← ((u·d + v·e)/2^62, (q·d + r·e)/2^62) modulo m (odd; `minv` = 1/m mod 2^62),
/// keeping both in (−2m, m): a multiple of m is added so that the low 62 bits vanish
/// (with u·m or v·m more when d or e is negative, which keeps the range).
fn update_de62(d: &mut [i64], e: &mut [i64], t: &[i64; 4], m: &[i64], minv: i64) {
    let [u, v, q, r] = *t;
    let len = d.len();
    let sd = d[len - 1] >> 63;
    let se = e[len - 1] >> 63;
    let mut md = (u & sd).wrapping_add(v & se);
    let mut me = (q & sd).wrapping_add(r & se);
    let (u, v, q, r) = (u as i128, v as i128, q as i128, r as i128);
    let mut cd = u * d[0] as i128 + v * e[0] as i128;
    let mut ce = q * d[0] as i128 + r * e[0] as i128;
    md = md.wrapping_sub(minv.wrapping_mul(cd as i64).wrapping_add(md) & M62);
    me = me.wrapping_sub(minv.wrapping_mul(ce as i64).wrapping_add(me) & M62);
    cd += m[0] as i128 * md as i128;
    ce += m[0] as i128 * me as i128;
    cd >>= 62;
    ce >>= 62;
    for i in 1..len {
        cd += u * d[i] as i128 + v * e[i] as i128 + m[i] as i128 * md as i128;
        ce += q * d[i] as i128 + r * e[i] as i128 + m[i] as i128 * me as i128;
        d[i - 1] = cd as i64 & M62;
        e[i - 1] = ce as i64 & M62;
        cd >>= 62;
        ce >>= 62;
    }
    d[len - 1] = cd as i64;
    e[len - 1] = ce as i64;
}

/// a ← a + (m & mask) (signed 62-bit limbs), carries propagated.
fn add_masked62(a: &mut [i64], m: &[i64], mask: i64) {
    // A secret mask: through the barrier, or LLVM branches on it (memcheck saw it).
    let mask = crate::ct::barrier(mask as u64) as i64;
    let len = a.len();
    let mut c = 0i64;
    for (i, (w, &mw)) in a.iter_mut().zip(m).enumerate() {
        c += *w + (mw & mask);
        if i + 1 < len {
            *w = c & M62;
            c >>= 62;
        } else {
            *w = c;
        }
    }
}

/// a ← −a if mask (signed 62-bit limbs).
fn neg_masked62(a: &mut [i64], mask: i64) {
    let len = a.len();
    let mut c = mask & 1;
    for (i, w) in a.iter_mut().enumerate() {
        if i + 1 < len {
            c += (*w ^ mask) & M62;
            *w = c & M62;
            c >>= 62;
        } else {
            *w = c + (*w ^ mask);
        }
    }
}

/// The Bezout coefficient v of two odd positive integers x, y (unsigned, same length,
/// 31-bit words): if gcd(x, y) = 1, sets v to the unique value with `x·u − y·v = 1` for
/// some u, `0 <= u <= y`, `0 <= v <= x` (that is `v = −1/y mod x`, 0 when x = 1), and
/// returns all-ones; otherwise (gcd > 1 or x or y even) returns 0. The same outputs as
/// fn-dsa's binary GCD (`bezout_v_bingcd` in the tests), computed as a modular inverse
/// by constant-time safegcd (Bernstein–Yang, "Fast constant-time gcd computation and
/// modular inversion", 2019): batches of 62 divsteps on the low bits, applied to 62-bit
/// limbs; ⌊(49·d + 80)/17⌋ divsteps suffice for d-bit inputs (their Theorem 11.2, with
/// f² + 4g² <= 5·2^(2d)).
pub(crate) fn bezout_v(v: &mut [u32], x: &[u32], y: &[u32]) -> u32 {
    let len = x.len();
    if len == 0 {
        return 0;
    }
    let l62 = len.div_ceil(2) + 1;
    let mut buf = zeroize::Zeroizing::new(alloc::vec![0i64; 5 * l62]);
    let (f, rest) = buf.split_at_mut(l62);
    let (g, rest) = rest.split_at_mut(l62);
    let (d, rest) = rest.split_at_mut(l62);
    let (e, m) = rest.split_at_mut(l62);
    for i in 0..len {
        let sh = 31 * (i & 1);
        f[i / 2] |= (x[i] as i64) << sh;
        g[i / 2] |= (y[i] as i64) << sh;
    }
    m.copy_from_slice(f);
    e[0] = 1;
    // 1/m mod 2^62 by Newton (m forced odd: an even x fails below anyway).
    let m0 = m[0] | 1;
    let mut minv = m0;
    for _ in 0..6 {
        minv = minv.wrapping_mul(2i64.wrapping_sub(m0.wrapping_mul(minv)));
    }
    let minv = minv & M62;
    let bits = 31 * len as u64;
    let steps = (49 * bits + 80) / 17;
    let mut delta = 1i64;
    for _ in 0..steps.div_ceil(62) {
        let (nd, t) = divsteps62(
            delta,
            f[0] as u64 | ((f[1] as u64) << 62),
            g[0] as u64 | ((g[1] as u64) << 62),
        );
        delta = nd;
        update_fg62(f, g, &t);
        update_de62(d, e, &t, m, minv);
    }
    // g = 0 and f = ±gcd. d·y = f (mod m), d in (−2m, m): w = sign(f)·d mod m.
    let sf = f[l62 - 1] >> 63;
    add_masked62(d, m, d[l62 - 1] >> 63);
    neg_masked62(d, sf);
    add_masked62(d, m, d[l62 - 1] >> 63);
    // |f| = 1?
    neg_masked62(f, sf);
    let mut bad = f[0] ^ 1;
    for &w in &f[1..] {
        bad |= w;
    }
    // v = m − w, or 0 when w = 0 (m = 1).
    let mut wz = 0i64;
    for &w in d.iter() {
        wz |= w;
    }
    let keep = -(((wz | wz.wrapping_neg()) >> 63) & 1); // all-ones if w != 0
    neg_masked62(d, -1);
    add_masked62(d, m, keep);
    for i in 0..len {
        let sh = 31 * (i & 1);
        v[i] = (d[i / 2] >> sh) as u32 & MASK31;
    }
    // Both odd, gcd 1.
    let ok = (bad == 0) as u32 & x[0] & y[0] & 1;
    ok.wrapping_neg()
}

/// Both Bezout coefficients of two odd positive integers x, y (same length): on success
/// (gcd 1) sets v as [`bezout_v`] does and u = (1 + y·v)/x, so that `x·u − y·v = 1`
/// with `0 <= u <= y` and `0 <= v <= x`, and returns all-ones; otherwise returns 0 (u
/// and v are then meaningless). The pair is unique, so any exact method gives the values
/// of the Falcon reference's binary GCD. `tmp` needs `len` words.
pub(crate) fn bezout_uv(
    u: &mut [u32],
    v: &mut [u32],
    x: &[u32],
    y: &[u32],
    tmp: &mut [u32],
) -> u32 {
    let len = x.len();
    let ok = bezout_v(v, x, y);
    if len == 0 {
        return ok;
    }
    // r = y·v + 1 mod 2^(31·len); u = r/x exactly (u <= y < 2^(31·len)), by Hensel
    // division with the 2-adic inverse of x, word by word.
    let r = &mut tmp[..len];
    r.fill(0);
    r[0] = 1;
    for i in 0..len {
        let vi = v[i] as u64;
        let mut cc = 0u64;
        for t in 0..len - i {
            let z = (y[t] as u64) * vi + (r[i + t] as u64) + cc;
            r[i + t] = (z as u32) & MASK31;
            cc = z >> 31;
        }
    }
    // 1/x mod 2^31 by Newton (x odd when ok).
    let x0 = x[0] | 1;
    let mut xi = x0;
    for _ in 0..4 {
        xi = xi.wrapping_mul(2u32.wrapping_sub(x0.wrapping_mul(xi)));
    }
    for j in 0..len {
        let q = r[j].wrapping_mul(xi) & MASK31;
        u[j] = q;
        // r ← r − q·x·2^(31·j), truncated (word j becomes zero).
        let mut cc = 0u64;
        for t in 0..len - j {
            let p = (q as u64) * (x[t] as u64) + cc;
            let d = r[j + t].wrapping_sub((p as u32) & MASK31);
            r[j + t] = d & MASK31;
            cc = (p >> 31) + (d >> 31) as u64;
        }
    }
    ok
}

// Plain products of the deep levels (both solvers: degree <= 16, where the RNS route
// costs more in CRT rebuilds than it saves).

/// |x| of the signed integer with `len` words at `x[w·stride]`, into `out[..len]`;
/// returns all-ones if x < 0, else 0.
pub(crate) fn abs_words(out: &mut [u32], x: &[u32], len: usize, stride: usize) -> u32 {
    let m = ((x[(len - 1) * stride] >> 30) & 1).wrapping_neg();
    let mut cc = m & 1;
    for (w, o) in out[..len].iter_mut().enumerate() {
        let z = ((x[w * stride] ^ m) & MASK31) + cc;
        *o = z & MASK31;
        cc = z >> 31;
    }
    m
}

/// `out[..a.len() + b.len()] = a·b` (unsigned, contiguous words), operand scanning with
/// 64-bit carries (measured faster here than product scanning with a 128-bit column sum).
pub(crate) fn mul_words(out: &mut [u32], a: &[u32], b: &[u32]) {
    let la = a.len();
    out[..la + b.len()].fill(0);
    for (i, &bw) in b.iter().enumerate() {
        let mut cc = 0u64;
        let row = &mut out[i..i + la + 1];
        for (o, &aw) in row[..la].iter_mut().zip(a) {
            let z = (aw as u64) * (bw as u64) + (*o as u64) + cc;
            *o = (z as u32) & MASK31;
            cc = z >> 31;
        }
        row[la] = cc as u32;
    }
}

/// `x ← x + (−1)^neg·p` modulo 2^(31·xlen) (x: signed, `xlen` words at stride; p:
/// unsigned contiguous words, zero-extended or truncated to xlen; neg a mask).
pub(crate) fn add_signed_words(x: &mut [u32], xlen: usize, stride: usize, p: &[u32], neg: u32) {
    let mut cc = neg & 1;
    for w in 0..xlen {
        let pw = if w < p.len() { p[w] } else { 0 };
        let z = x[w * stride] + ((pw ^ neg) & MASK31) + cc;
        x[w * stride] = z & MASK31;
        cc = z >> 31;
    }
}

/// Magnitudes and sign masks of the n signed integers of `len` words at `x[i..]`
/// (stride n), gathered contiguously: `mag[i·len..]`, `neg[i]` (all-ones if negative).
pub(crate) fn split_signs(mag: &mut [u32], neg: &mut [u32], x: &[u32], len: usize, n: usize) {
    for i in 0..n {
        neg[i] = abs_words(&mut mag[i * len..], &x[i..], len, n);
    }
}

/// Bit length of x (0 for 0), constant-time.
#[inline(always)]
pub(crate) fn bitlength(x: u32) -> u32 {
    32 - x.leading_zeros()
}

/// x ← x + k·2^(31·sch + scl)·y (signed, truncated to x's `xlen` words; x and y share
/// `stride`; scl in 0..=30). The schoolbook step of fn-dsa's `poly_sub_scaled`, kept as
/// the reference of the column form.
#[cfg(test)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn add_scaled_mul_small(
    x: &mut [u32],
    xlen: usize,
    y: &[u32],
    ylen: usize,
    stride: usize,
    k: i32,
    sch: u32,
    scl: u32,
) {
    let sch = sch as usize;
    if ylen == 0 || sch >= xlen {
        return;
    }
    let ysign = (y[(ylen - 1) * stride] >> 30).wrapping_neg() >> 1;
    let mut tw = 0u32;
    let mut cc = 0i32;
    for u in sch..xlen {
        let i = u * stride;
        let j = (u - sch) * stride;
        let wy = if u < sch + ylen { y[j] } else { ysign };
        let wys = ((wy << scl) & MASK31) | tw;
        tw = wy >> (31 - scl);
        let z = wys as i64 * k as i64 + x[i] as i64 + cc as i64;
        x[i] = z as u32 & MASK31;
        cc = (z >> 31) as i32;
    }
}

/// `x <- x - y·2^(31·sch + scl)` modulo 2^(31·xlen) for `n` integers at once (x:
/// `xlen` words, y: signed `ylen` words sign-extended, both word-major with stride n).
/// `scl < 31`; `tmp` needs 2n words. Vectorises over the coefficients (round 3 builds
/// it per ISA: `keygen::poly::sub_scaled_batch`).
#[inline(always)]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain value of a (small) base-2^31 unsigned integer.
    fn val(a: &[u32]) -> u128 {
        a.iter()
            .rev()
            .fold(0u128, |acc, &w| (acc << 31) | w as u128)
    }

    fn words(mut x: u128, len: usize) -> Vec<u32> {
        (0..len)
            .map(|_| {
                let w = (x & 0x7FFF_FFFF) as u32;
                x >>= 31;
                w
            })
            .collect()
    }

    /// a·b as plain words.
    fn mul(a: &[u32], b: &[u32]) -> Vec<u32> {
        let mut out = vec![0u32; a.len() + b.len()];
        for (i, &bw) in b.iter().enumerate() {
            let mut cc = 0u64;
            for (j, &aw) in a.iter().enumerate() {
                let z = aw as u64 * bw as u64 + out[i + j] as u64 + cc;
                out[i + j] = z as u32 & MASK31;
                cc = z >> 31;
            }
            out[i + a.len()] = cc as u32;
        }
        out
    }

    /// a <= b as unsigned words (same length).
    fn le(a: &[u32], b: &[u32]) -> bool {
        a.iter().rev().cmp(b.iter().rev()) != core::cmp::Ordering::Greater
    }

    /// On random odd inputs of every solver length, `bezout_uv` returns the unique
    /// pair with x·u − y·v = 1, 0 <= u <= y, 0 <= v <= x (checked exactly), or fails
    /// exactly when gcd > 1 or an input is even (planted common factors).
    #[test]
    fn bezout_identity_and_bounds() {
        let mut st = 0x5eed_1234u64;
        let mut next = || {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            st
        };
        for len in [1usize, 2, 3, 4, 7, 13, 53, 104, 209] {
            for t in 0..24 {
                let mut x: Vec<u32> = (0..len).map(|_| next() as u32 & MASK31).collect();
                let mut y: Vec<u32> = (0..len).map(|_| next() as u32 & MASK31).collect();
                x[0] |= 1;
                y[0] |= 1;
                let mut expect_fail = false;
                match t % 8 {
                    0 => {
                        x[0] &= !1;
                        expect_fail = true;
                    }
                    1 => {
                        y[0] &= !1;
                        expect_fail = true;
                    }
                    2 => {
                        // x = 1: u = 1, v = 0.
                        x.fill(0);
                        x[0] = 1;
                    }
                    3 => {
                        // A planted common factor 3·5 (the top word keeps the length).
                        let xs = mul(&x[..len - 1], &[15]);
                        let ys = mul(&y[..len - 1], &[15]);
                        x.copy_from_slice(&xs[..len]);
                        y.copy_from_slice(&ys[..len]);
                        expect_fail = true;
                    }
                    4 => x[len / 2..].fill(0),
                    _ => {}
                }
                let mut u = vec![0u32; len];
                let mut v = vec![0u32; len];
                let mut tmp = vec![0u32; len];
                let r = bezout_uv(&mut u, &mut v, &x, &y, &mut tmp);
                let mut v2 = vec![0u32; len];
                assert_eq!(bezout_v(&mut v2, &x, &y), r);
                if expect_fail {
                    assert_eq!(r, 0, "len {len} t {t}");
                    continue;
                }
                if r == 0 {
                    continue; // gcd > 1 by chance (checked by the u128 cases below)
                }
                assert_eq!(v, v2);
                assert!(le(&u, &y) && le(&v, &x), "bounds len {len} t {t}");
                // x·u = y·v + 1.
                let mut yv1 = mul(&y, &v);
                yv1[0] += 1;
                let xu = mul(&x, &u);
                let (mut a, mut b) = (xu, yv1);
                // Normalise the +1 carry.
                for k in 0..b.len() - 1 {
                    let c = b[k] >> 31;
                    b[k] &= MASK31;
                    b[k + 1] += c;
                }
                a.truncate(2 * len);
                b.truncate(2 * len);
                assert_eq!(a, b, "identity len {len} t {t}");
            }
        }
    }

    #[test]
    fn bezout_small() {
        let cases: [(u128, u128); 4] = [
            (3, 7),
            (1_000_000_007, 998_244_353),
            ((1u128 << 61) - 1, (1u128 << 89) - 1),
            (12289 * 3 * 5, 77 * 13),
        ];
        for (x, y) in cases {
            let xw = words(x, 3);
            let yw = words(y, 3);
            let mut u = vec![0u32; 3];
            let mut v = vec![0u32; 3];
            let mut tmp = vec![0u32; 3];
            let r = bezout_uv(&mut u, &mut v, &xw, &yw, &mut tmp);
            let g = {
                let (mut a, mut b) = (x, y);
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                a
            };
            if g == 1 {
                assert_eq!(r, u32::MAX);
                let v = val(&v);
                // x·u − y·v = 1 with 0 <= u <= y, 0 <= v <= x  <=>  v < x and
                // y·v = −1 mod x (x < 2^64 in these cases, so the products fit).
                assert!(v < x);
                assert_eq!(((y % x) * v + 1) % x, 0);
                assert!(val(&u) <= y);
            } else {
                assert_eq!(r, 0);
            }
        }
    }

    #[test]
    fn crt_round_trip() {
        // Two signed integers over 3 primes, one set, n = 2.
        let vals: [i128; 2] = [-123_456_789_012_345_678_901, 987_654_321_098_765_432];
        let n = 2;
        let xlen = 3;
        let mut xx = vec![0u32; n * xlen];
        for (k, &v) in vals.iter().enumerate() {
            for i in 0..xlen {
                let p = PRIMES[i].p as i128;
                xx[i * n + k] = v.rem_euclid(p) as u32;
            }
        }
        let mut tmp = vec![0u32; xlen];
        rebuild_crt(&mut xx, xlen, n, 1, true, &mut tmp);
        for (k, &v) in vals.iter().enumerate() {
            let w: Vec<u32> = (0..xlen).map(|i| xx[i * n + k]).collect();
            let mut x = val(&w) as i128;
            if w[xlen - 1] >> 30 != 0 {
                x -= 1i128 << (31 * xlen);
            }
            assert_eq!(x, v);
        }
    }
}
