//! Polynomials with big-integer coefficients for the FN-DSA NTRU solver: the words of
//! the n coefficients are interleaved (word j of coefficient i at `i + j·n`). Plain
//! coefficients are signed base-2^31 integers.
//!
//! These helpers fix the exact arithmetic of the Babai reduction steps (fixed-point
//! approximations, scaled subtractions), which decides which (f, g) fn-dsa keeps; they
//! follow its operations exactly.

use super::super::fxp::Fxr;
use super::NttCtx;
use crate::falcon::ntru::modp::{self as mp, tbmask, SmallPrime, PRIMES};
use crate::falcon::ntru::zint::{self, bitlength};

/// Largest bit length of the coefficients of x (`xlen` words each, signed; the length
/// of a negative value is that of its complement). Constant-time.
pub(crate) fn max_bitlength(logn: u32, x: &[u32], xlen: usize) -> u32 {
    let n = 1usize << logn;
    let (mut t, mut tk) = (0u32, 0u32);
    for i in 0..n {
        // Sign mask over 31 bits, then the top non-zero sign-adjusted word and its index.
        let m = (x[i + ((xlen - 1) << logn)] >> 30).wrapping_neg() & 0x7FFF_FFFF;
        let (mut c, mut ck) = (0u32, 0u32);
        for j in 0..xlen {
            let w = x[i + (j << logn)] ^ m;
            let nz = (w.wrapping_sub(1) >> 31).wrapping_sub(1);
            c ^= nz & (c ^ w);
            ck ^= nz & (ck ^ j as u32);
        }
        // Keep (c, ck) if it is larger than (t, tk).
        let nz1 = tk.wrapping_sub(ck);
        let nz2 = (tk ^ ck).wrapping_sub(1) & t.wrapping_sub(c);
        let nz = tbmask(nz1 | nz2);
        t ^= nz & (t ^ c);
        tk ^= nz & (tk ^ ck);
    }
    31 * tk + bitlength(t)
}

/// (x / 31, x % 31) for x <= 63487.
#[inline(always)]
pub(crate) const fn divrem31(x: u32) -> (u32, u32) {
    let q = x.wrapping_mul(67651) >> 21;
    (q, x - 31 * q)
}

/// Fixed-point approximations `x / 2^sc` of the coefficients of f (`flen` words each;
/// requires |x| < 2^(30 + sc)): the three words around bit `sc` are gathered without
/// secret-dependent indexing (sc depends on the key) and shifted into 32.32 form
/// (truncating toward −∞).
pub(crate) fn big_to_fixed(logn: u32, f: &[u32], flen: usize, sc: u32, d: &mut [Fxr]) {
    let n = 1usize << logn;
    if flen == 0 {
        d[..n].fill(Fxr::ZERO);
        return;
    }
    // sc = 31·sch + scl with scl in 1..=31 (sch wraps to −1 when sc = 0, harmlessly).
    let (mut sch, mut scl) = divrem31(sc);
    let t = scl.wrapping_sub(1) >> 5;
    sch = sch.wrapping_sub(t & 1);
    scl |= t & 31;
    let t0 = sch.wrapping_sub(1) & 0xFFFF;
    let t1 = sch & 0xFFFF;
    let t2 = sch.wrapping_add(1) & 0xFFFF;
    for i in 0..n {
        let (mut w0, mut w1, mut w2) = (0u32, 0u32, 0u32);
        for j in 0..flen {
            let w = f[i + (j << logn)];
            let t = j as u32;
            w0 |= w & (((t ^ t0).wrapping_sub(1) as i32 >> 16) as u32);
            w1 |= w & (((t ^ t1).wrapping_sub(1) as i32 >> 16) as u32);
            w2 |= w & (((t ^ t2).wrapping_sub(1) as i32 >> 16) as u32);
        }
        // Words beyond the top one are sign copies.
        let ws = (f[i + ((flen - 1) << logn)] >> 30).wrapping_neg() >> 1;
        let ff = (flen as u32).wrapping_sub(sch) as i32;
        w0 |= ws & ((ff >> 31) as u32);
        w1 |= ws & ((ff.wrapping_sub(1) >> 31) as u32);
        w2 |= ws & ((ff.wrapping_sub(2) >> 31) as u32);
        w2 |= (w2 & 0x4000_0000) << 1;
        let xl = (w0 >> (scl - 1)) | (w1 << (32 - scl));
        let xh = (w1 >> scl) | (w2 << (31 - scl));
        d[i] = Fxr(xl as u64 | (xh as u64) << 32);
    }
}

/// F ← F − k·f·2^sc (mod X^n + 1, n <= 8; F has `flen_big` words, f `flen` words, k
/// signed 32-bit values stored as u32), truncated to F's words.
///
/// Column form: for every word position the n products feeding each output coefficient
/// are summed first, then one carry chain per coefficient runs over the words. The
/// coefficient of f_m in output j is `−k_i` (i = j − m) or, wrapping around,
/// `+k_i` (i = j − m + n), with fn-dsa's 32-bit wrap (`−k` of −2^31 is −2^31 in both
/// places, as its schoolbook form computes it). Products (|c·w| < 2^62) are added two
/// at a time in 64 bits (< 2^63) and summed in 128 bits, so every value is exact: the
/// result is F − k·f·2^sc modulo 2^(31·flen_big), as the schoolbook form
/// (`tests::sub_scaled_schoolbook`) gives.
pub(crate) fn sub_scaled(
    logn: u32,
    cf: &mut [u32],
    flen_big: usize,
    f: &[u32],
    flen: usize,
    k: &[u32],
    sc: u32,
) {
    match logn {
        0 => sub_scaled_n::<1>(cf, flen_big, f, flen, k, sc),
        1 => sub_scaled_n::<2>(cf, flen_big, f, flen, k, sc),
        2 => sub_scaled_n::<4>(cf, flen_big, f, flen, k, sc),
        3 => sub_scaled_n::<8>(cf, flen_big, f, flen, k, sc),
        _ => panic!("sub_scaled: degree above 8"),
    }
}

#[inline(always)]
fn sub_scaled_n<const N: usize>(
    cf: &mut [u32],
    flen_big: usize,
    f: &[u32],
    flen: usize,
    k: &[u32],
    sc: u32,
) {
    if flen == 0 {
        return;
    }
    let (sch, scl) = divrem31(sc);
    let sch = sch as usize;
    if sch >= flen_big {
        return;
    }
    // Words of f past flen_big − sch never reach F's words.
    let flen = flen.min(flen_big - sch);
    let mut c = [[0i64; N]; N];
    for (j, row) in c.iter_mut().enumerate() {
        for (m, cm) in row.iter_mut().enumerate() {
            let (i, wrap) = if m <= j {
                (j - m, false)
            } else {
                (j + N - m, true)
            };
            let nk = k[i].wrapping_neg() as i32;
            *cm = if wrap { nk.wrapping_neg() } else { nk } as i64;
        }
    }
    let mut fsign = [0u32; N];
    for (m, s) in fsign.iter_mut().enumerate() {
        *s = (f[(flen - 1) * N + m] >> 30).wrapping_neg() >> 1;
    }
    let mut tw = [0u32; N];
    let mut cc = [0i128; N];
    for u in sch..flen_big {
        let w = u - sch;
        // Word w of f·2^scl (sign words past the top), per coefficient.
        let mut fs = [0i64; N];
        for m in 0..N {
            let wy = if w < flen { f[w * N + m] } else { fsign[m] };
            fs[m] = (((wy << scl) & 0x7FFF_FFFF) | tw[m]) as i64;
            tw[m] = wy >> (31 - scl);
        }
        for j in 0..N {
            let mut z = cf[u * N + j] as i128 + cc[j];
            let mut m = 0;
            while m + 1 < N {
                z += (c[j][m] * fs[m] + c[j][m + 1] * fs[m + 1]) as i128;
                m += 2;
            }
            if m < N {
                z += (c[j][m] * fs[m]) as i128;
            }
            cf[u * N + j] = z as u32 & 0x7FFF_FFFF;
            cc[j] = z >> 31;
        }
    }
}

/// F ← F − k·f·2^sc with k·f computed by NTT: f is given in RNS+NTT over `flen + 1`
/// primes; `tmp` needs `n·(flen + 3)` words. logn >= 3.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sub_scaled_ntt(
    logn: u32,
    cf: &mut [u32],
    flen_big: usize,
    f: &[u32],
    flen: usize,
    k: &[u32],
    sc: u32,
    tw: &NttCtx,
    tmp: &mut [u32],
) {
    let n = 1usize << logn;
    let tlen = flen + 1;
    let (fk, t1) = tmp.split_at_mut(tlen * n);
    for i in 0..tlen {
        let sp = &PRIMES[i];
        for j in 0..n {
            t1[j] = mp::set(k[j] as i32, sp.p);
        }
        tw.ntt(i, logn, t1);
        let fs = &f[i << logn..];
        let ff = &mut fk[i << logn..(i + 1) << logn];
        for j in 0..n {
            ff[j] = sp.mmul(sp.mmul(t1[j], fs[j]), sp.r2);
        }
        tw.intt(i, logn, ff);
    }
    tw.rebuild_crt(fk, tlen, n, 1, true, t1);
    let (sch, scl) = divrem31(sc);
    zint::sub_scaled_batch(cf, flen_big, fk, tlen, n, sch as usize, scl, t1);
}

/// F ← F − k·2^sc·N(f) at depth 1 (degree n = 2^(logn_top − 1)), where N(f) =
/// f_e² − X·f_o² is recomputed from the top-level f modulo each prime, and F has
/// `flen_big` (1 or 2) words per coefficient. k is temporarily replaced by its scaled
/// NTT form and restored between primes. `tmp` needs 2n words.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sub_kf_scaled_depth1(
    logn_top: u32,
    cf: &mut [u32],
    flen_big: usize,
    k: &mut [u32],
    sc: u32,
    f: &[i8],
    tw: &NttCtx,
    tmp: &mut [u32],
) {
    let logn = logn_top - 1;
    let n = 1usize << logn;
    let hn = n >> 1;
    let (t1, rest) = tmp.split_at_mut(n);
    let t2 = &mut rest[..n];

    // F to RNS (1 or 2 primes).
    if flen_big == 1 {
        let p = PRIMES[0].p;
        for x in cf[..n].iter_mut() {
            let w = *x | ((*x & 0x4000_0000) << 1);
            *x = mp::set(w as i32, p);
        }
    } else {
        debug_assert_eq!(flen_big, 2);
        let (s0, s1) = (&PRIMES[0], &PRIMES[1]);
        let z0 = mp::half(s0.r2, s0.p);
        let z1 = mp::half(s1.r2, s1.p);
        for i in 0..n {
            let xl = cf[i];
            let xh = cf[i + n] | ((cf[i + n] & 0x4000_0000) << 1);
            let r0 = mp::add(
                mp::set_u(xl, s0.p),
                s0.mmul(mp::set(xh as i32, s0.p), z0),
                s0.p,
            );
            let r1 = mp::add(
                mp::set_u(xl, s1.p),
                s1.mmul(mp::set(xh as i32, s1.p), z1),
                s1.p,
            );
            cf[i] = r0;
            cf[i + n] = r1;
        }
    }

    for i in 0..flen_big {
        let sp: &SmallPrime = &PRIMES[i];
        let p = sp.p;
        let r3 = sp.mmul(sp.r2, sp.r2);
        let gm = tw.gm(i, logn);

        // k ← 2^sc·k, into the NTT domain.
        let mut scv = sp.mmul(1u32 << (sc & 31), sp.r2);
        for _ in 0..(sc >> 5) {
            scv = sp.mmul(scv, sp.r2);
        }
        for x in k[..n].iter_mut() {
            *x = sp.mmul(scv, mp::set(*x as i32, p));
        }
        tw.ntt(i, logn, k);

        let fu = &mut cf[i << logn..(i + 1) << logn];
        tw.ntt(i, logn, fu);

        // N(f) from the even and odd halves of the top-level f; NTT(X) at the pair
        // (2j, 2j+1) is (gm[j + n/2], −gm[j + n/2]).
        for j in 0..n {
            t1[j] = mp::set(f[2 * j] as i32, p);
            t2[j] = mp::set(f[2 * j + 1] as i32, p);
        }
        tw.ntt(i, logn, t1);
        tw.ntt(i, logn, t2);
        for j in 0..hn {
            let (xe0, xe1) = (t1[2 * j], t1[2 * j + 1]);
            let (xo0, xo1) = (t2[2 * j], t2[2 * j + 1]);
            let xv0 = gm[j + hn];
            let xv1 = p - xv0;
            let xe0 = sp.mmul(xe0, xe0);
            let xe1 = sp.mmul(xe1, xe1);
            let xo0 = sp.mmul(xo0, xo0);
            let xo1 = sp.mmul(xo1, xo1);
            let xf0 = mp::sub(xe0, sp.mmul(xo0, xv0), p);
            let xf1 = mp::sub(xe1, sp.mmul(xo1, xv1), p);
            let xkf0 = sp.mmul(sp.mmul(xf0, k[2 * j]), r3);
            let xkf1 = sp.mmul(sp.mmul(xf1, k[2 * j + 1]), r3);
            fu[2 * j] = mp::sub(fu[2 * j], xkf0, p);
            fu[2 * j + 1] = mp::sub(fu[2 * j + 1], xkf1, p);
        }

        tw.intt(i, logn, fu);

        // Restore k for the next prime.
        if i + 1 < flen_big {
            tw.intt(i, logn, k);
            let mut scv = 1u32 << (sc.wrapping_neg() & 31);
            for _ in 0..(sc >> 5) {
                scv = sp.mmul(scv, 1);
            }
            for x in k[..n].iter_mut() {
                *x = mp::norm(sp.mmul(scv, *x), p) as u32;
            }
        }
    }

    // Back to plain signed words.
    if flen_big == 1 {
        let p = PRIMES[0].p;
        for x in cf[..n].iter_mut() {
            *x = (mp::norm(*x, p) as u32) & 0x7FFF_FFFF;
        }
    } else {
        let (p0, s1) = (PRIMES[0].p, &PRIMES[1]);
        let p1 = s1.p;
        let pp = p0 as u64 * p1 as u64;
        let hpp = pp >> 1;
        for i in 0..n {
            let x0 = cf[i];
            let x1 = cf[i + n];
            let x0m1 = x0.wrapping_sub(p1 & !tbmask(x0.wrapping_sub(p1)));
            let y = s1.mmul(mp::sub(x1, x0m1, p1), s1.s);
            let z = x0 as u64 + p0 as u64 * y as u64;
            let z = z.wrapping_sub(pp & (hpp.wrapping_sub(z) >> 63).wrapping_neg());
            cf[i] = z as u32 & 0x7FFF_FFFF;
            cf[i + n] = (z >> 31) as u32 & 0x7FFF_FFFF;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::falcon::ntru::zint::add_scaled_mul_small;

    /// The schoolbook form of [`sub_scaled`] (fn-dsa's portable code): one
    /// scaled multiply-add pass per pair of coefficients.
    fn sub_scaled_schoolbook(
        logn: u32,
        cf: &mut [u32],
        flen_big: usize,
        f: &[u32],
        flen: usize,
        k: &[u32],
        sc: u32,
    ) {
        if flen == 0 {
            return;
        }
        let (sch, scl) = divrem31(sc);
        if sch as usize >= flen_big {
            return;
        }
        let flen = flen.min(flen_big - sch as usize);
        let n = 1usize << logn;
        for i in 0..n {
            let kf = (k[i].wrapping_neg()) as i32;
            for j in i..n {
                add_scaled_mul_small(&mut cf[j..], flen_big, &f[(j - i)..], flen, n, kf, sch, scl);
            }
            let kf = kf.wrapping_neg();
            for j in 0..i {
                add_scaled_mul_small(
                    &mut cf[j..],
                    flen_big,
                    &f[(j + n - i)..],
                    flen,
                    n,
                    kf,
                    sch,
                    scl,
                );
            }
        }
    }

    fn rng(st: &mut u64) -> u64 {
        *st ^= *st << 13;
        *st ^= *st >> 7;
        *st ^= *st << 17;
        *st
    }

    #[test]
    fn column_sub_matches_schoolbook() {
        let mut st = 0x1234_5678u64;
        for logn in 0..=3u32 {
            let n = 1usize << logn;
            for t in 0..400 {
                let flen_big = 1 + (rng(&mut st) % 12) as usize;
                let flen = 1 + (rng(&mut st) % 8) as usize;
                let sc = (rng(&mut st) % (31 * 14)) as u32;
                let cf0: Vec<u32> = (0..flen_big * n)
                    .map(|_| rng(&mut st) as u32 & 0x7FFF_FFFF)
                    .collect();
                let f: Vec<u32> = (0..flen * n)
                    .map(|_| rng(&mut st) as u32 & 0x7FFF_FFFF)
                    .collect();
                let k: Vec<u32> = (0..n)
                    .map(|i| match (t + i) % 7 {
                        0 => 0x8000_0000,
                        1 => 0x7FFF_FFFF,
                        2 => (rng(&mut st) % 2048) as u32,
                        3 => ((rng(&mut st) % 2048) as i32 - 1024) as u32,
                        _ => rng(&mut st) as u32,
                    })
                    .collect();
                let mut a = cf0.clone();
                let mut b = cf0.clone();
                sub_scaled(logn, &mut a, flen_big, &f, flen, &k, sc);
                sub_scaled_schoolbook(logn, &mut b, flen_big, &f, flen, &k, sc);
                assert_eq!(a, b, "logn {logn} t {t}");
            }
        }
    }
}
