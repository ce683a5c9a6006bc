//! Plain big-integer polynomial products for the deep levels of the NTRU solver (degree
//! n <= 8, coefficients of tens to hundreds of 31-bit words), where the RNS + NTT route
//! costs O(words²·n) in CRT reconstruction for O(n) transform work. Computing the same
//! exact integers directly (schoolbook products with 128-bit column sums) gives the
//! values the RNS route reconstructs (the word counts are those of fn-dsa, chosen so
//! that every value fits them), hence the same solver decisions.
//!
//! Layout: word-major (word w of coefficient i at `w·n + i`), signed values in 31-bit
//! two's complement words. Signs are secret: every sign-dependent step is a mask. The
//! word primitives are the shared ones (`falcon::ntru::zint`), as in round 3's
//! `keygen::solve`.

use crate::falcon::ntru::zint::{add_signed_words, mul_words, split_signs};
use alloc::vec;
use zeroize::Zeroizing;

/// `N(f)` for a plain polynomial f of degree n = 2^logn (n >= 2, `slen` words per
/// coefficient): the degree-n/2 polynomial `f_e(Y)² − Y·f_o(Y)²` mod `Y^(n/2) + 1`
/// (f = f_e(X²) + X·f_o(X²)), exact, on `tlen` words per coefficient, into `out`.
pub(crate) fn poly_norm(out: &mut [u32], f: &[u32], logn: u32, slen: usize, tlen: usize) {
    let n = 1usize << logn;
    let hn = n >> 1;
    out[..tlen * hn].fill(0);
    let mut mag = Zeroizing::new(vec![0u32; n * slen + 2 * slen]);
    let mut neg = Zeroizing::new(vec![0u32; n]);
    let (mag, prod) = mag.split_at_mut(n * slen);
    split_signs(mag, &mut neg, f, slen, n);
    for a in 0..hn {
        for b in 0..hn {
            for odd in [0usize, 1] {
                // f_e[a]·f_e[b]·Y^(a+b), or −f_o[a]·f_o[b]·Y^(a+b+1).
                let (ia, ib) = (2 * a + odd, 2 * b + odd);
                let e = a + b + odd;
                let wrap = (e >= hn) as u32;
                let s = neg[ia] ^ neg[ib] ^ (odd as u32 ^ wrap).wrapping_neg();
                mul_words(
                    prod,
                    &mag[ia * slen..(ia + 1) * slen],
                    &mag[ib * slen..(ib + 1) * slen],
                );
                add_signed_words(&mut out[e % hn..], tlen, hn, prod, s);
            }
        }
    }
}

/// The unreduced `F = F'(X²)·g(−X)` mod `X^n + 1` (degree n = 2^logn): F' has n/2
/// coefficients of `tlen` words, g has n of `slen` words; the exact result on `llen`
/// words per coefficient, into `out`.
pub(crate) fn lift(
    out: &mut [u32],
    fp: &[u32],
    g: &[u32],
    logn: u32,
    tlen: usize,
    slen: usize,
    llen: usize,
) {
    let n = 1usize << logn;
    let hn = n >> 1;
    out[..llen * n].fill(0);
    let mut buf = Zeroizing::new(vec![0u32; hn * tlen + n * slen + tlen + slen]);
    let (mf, rest) = buf.split_at_mut(hn * tlen);
    let (mg, prod) = rest.split_at_mut(n * slen);
    let mut nf = Zeroizing::new(vec![0u32; hn]);
    let mut ng = Zeroizing::new(vec![0u32; n]);
    split_signs(mf, &mut nf, fp, tlen, hn);
    split_signs(mg, &mut ng, g, slen, n);
    for j in 0..hn {
        for i in 0..n {
            // F'_j·X^(2j) · (−1)^i·g_i·X^i.
            let e = 2 * j + i;
            let wrap = (e >= n) as u32;
            let s = nf[j] ^ ng[i] ^ (((i & 1) as u32) ^ wrap).wrapping_neg();
            mul_words(
                prod,
                &mf[j * tlen..(j + 1) * tlen],
                &mg[i * slen..(i + 1) * slen],
            );
            add_signed_words(&mut out[e % n..], llen, n, prod, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const M31: u32 = 0x7FFF_FFFF;

    /// Signed value of `len` words at stride (len <= 4).
    fn val(x: &[u32], len: usize, stride: usize) -> i128 {
        let mut v = 0i128;
        for w in (0..len).rev() {
            v = (v << 31) | x[w * stride] as i128;
        }
        if x[(len - 1) * stride] >> 30 != 0 {
            v -= 1i128 << (31 * len);
        }
        v
    }

    fn put(x: &mut [u32], v: i128, len: usize, stride: usize) {
        let mut u = v;
        for w in 0..len {
            x[w * stride] = (u & M31 as i128) as u32;
            u >>= 31;
        }
    }

    fn rng(st: &mut u64) -> u64 {
        *st ^= *st << 13;
        *st ^= *st >> 7;
        *st ^= *st << 17;
        *st
    }

    #[test]
    fn norm_and_lift_match_i128() {
        let mut st = 77u64;
        for logn in 1..=3u32 {
            let n = 1usize << logn;
            let hn = n / 2;
            for _ in 0..200 {
                // Coefficients below 2^28 so that every result fits an i128 easily.
                let fv: Vec<i128> = (0..n)
                    .map(|_| (rng(&mut st) % (1 << 29)) as i128 - (1 << 28))
                    .collect();
                let mut f = vec![0u32; n];
                for i in 0..n {
                    put(&mut f[i..], fv[i], 1, n);
                }
                let mut out = vec![0u32; 3 * hn];
                poly_norm(&mut out, &f, logn, 1, 3);
                for e in 0..hn {
                    let mut want = 0i128;
                    for a in 0..hn {
                        for b in 0..hn {
                            for odd in 0..2 {
                                let t = fv[2 * a + odd] * fv[2 * b + odd];
                                let ee = a + b + odd;
                                let s = (if odd == 1 { -1 } else { 1 })
                                    * (if ee >= hn { -1 } else { 1 });
                                if ee % hn == e {
                                    want += s * t;
                                }
                            }
                        }
                    }
                    assert_eq!(val(&out[e..], 3, hn), want);
                }
                // lift: F' (hn coefficients, 2 words) times g(−X).
                let pv: Vec<i128> = (0..hn)
                    .map(|_| (rng(&mut st) % (1 << 50)) as i128 - (1 << 49))
                    .collect();
                let mut fp = vec![0u32; 2 * hn];
                for j in 0..hn {
                    put(&mut fp[j..], pv[j], 2, hn);
                }
                let mut out = vec![0u32; 4 * n];
                lift(&mut out, &fp, &f, logn, 2, 1, 4);
                for e in 0..n {
                    let mut want = 0i128;
                    for (j, &pj) in pv.iter().enumerate() {
                        for (i, &fi) in fv.iter().enumerate() {
                            let ee = 2 * j + i;
                            let s =
                                (if i % 2 == 1 { -1 } else { 1 }) * (if ee >= n { -1 } else { 1 });
                            if ee % n == e {
                                want += s * pj * fi;
                            }
                        }
                    }
                    assert_eq!(val(&out[e..], 4, n), want);
                }
            }
        }
    }
}
