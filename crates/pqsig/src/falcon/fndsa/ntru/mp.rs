//! Arithmetic modulo the 31-bit RNS primes p (1.34·2^30 < p < 2^31, p = 1 mod 2048) and
//! the NTT over `Z_p[X]/(X^n + 1)` used by the FN-DSA NTRU solver.
//!
//! Values are in `[0, p)` ("unsigned form"); Montgomery products use R = 2^32:
//! `mmul(a, b) = a·b/2^32 mod p`. Every function is branch-free.
//!
//! The NTT layout is the one the solver's pairing steps rely on: `gm[rev(i)]` holds
//! `g^i·R` for the primitive 2n-th root g (rev = bit reversal over logn bits), and the
//! transform pairs `a[2j]`, `a[2j+1]` as the values at w and −w.

use super::primes::PRIMES;
/// The free helpers are exactly round 3's (one copy, see `keygen::modp`).
pub(crate) use crate::falcon::keygen::modp::{
    add, half, mmul, mont_one, norm, rev, set, sub, tbmask,
};
use crate::kernels::falcon::fndsa::FnDsaKernels;
use crate::kernels::falcon::ntru::NttKern;

/// One RNS modulus with its constants (`g`, `ig`, `s` in Montgomery form).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SmallPrime {
    pub p: u32,
    /// −1/p mod 2^32.
    pub p0i: u32,
    /// 2^64 mod p.
    pub r2: u32,
    /// A primitive 2048-th root of 1 (Montgomery form).
    pub g: u32,
    /// 1/g (Montgomery form).
    pub ig: u32,
    /// 1/(product of the earlier primes) mod p (Montgomery form).
    pub s: u32,
}

/// v mod p for v in [0, 2p).
#[inline(always)]
pub(crate) fn set_u(v: u32, p: u32) -> u32 {
    let w = v.wrapping_sub(p);
    w.wrapping_add(p & tbmask(w))
}

/// 2^31 mod p (= 2^31 − p), the Montgomery form of 1/2.
#[inline(always)]
pub(crate) fn mont_half(p: u32) -> u32 {
    0x8000_0000 - p
}

/// x/y mod p (0 if y = 0), by a constant-time binary extended GCD (60 steps): fn-dsa's
/// division, the reference for [`SmallPrime::batch_inv_mont`].
#[cfg(test)]
pub(crate) fn div(x: u32, y: u32, p: u32) -> u32 {
    // a·x = u·y and b·x = v·y (mod p) throughout; b stays odd; when a reaches 0, b is
    // gcd(y, p) (= 1 for y != 0) and v = x/y.
    let (mut a, mut b, mut u, mut v) = (y, p, x, 0u32);
    for _ in 0..60 {
        let a_odd = (a & 1).wrapping_neg();
        let swap = tbmask(a.wrapping_sub(b)) & a_odd;
        let t = swap & (a ^ b);
        a ^= t;
        b ^= t;
        let t = swap & (u ^ v);
        u ^= t;
        v ^= t;
        a -= a_odd & b;
        u = sub(u, a_odd & v, p);
        a >>= 1;
        u = half(u, p);
    }
    v & tbmask(b.wrapping_sub(2))
}

impl SmallPrime {
    /// The first modulus (used alone at depth 0).
    #[inline(always)]
    pub(crate) fn p0() -> &'static SmallPrime {
        &PRIMES[0]
    }

    #[inline(always)]
    pub(crate) fn mmul(&self, a: u32, b: u32) -> u32 {
        mmul(a, b, self.p, self.p0i)
    }

    /// 2^(31·e) mod p (e public), plain form.
    pub(crate) fn pow2_31(&self, e: u32) -> u32 {
        // x = 2^63 mod p is the Montgomery form of 2^31.
        let mut x = half(self.r2, self.p);
        let mut d = 1u32;
        let mut e = e;
        loop {
            if e & 1 != 0 {
                d = self.mmul(d, x);
            }
            e >>= 1;
            if e == 0 {
                return d;
            }
            x = self.mmul(x, x);
        }
    }

    /// `out[i] = R/y[i] mod p` (R = 2^32) for non-zero `y[i]` in `[0, p)`, so that
    /// `mmul(x, out[i]) = x/y[i]` (what fn-dsa's 60-step `div` computes). Montgomery's batch inversion:
    /// prefix products, one inversion by exponentiation (x^(p−2)), and a backward pass;
    /// no branch on values. A zero `y[i]` gives zeros.
    pub(crate) fn batch_inv_mont(&self, y: &[u32], out: &mut [u32]) {
        let n = y.len();
        if n == 0 {
            return;
        }
        // out[i] = y[0]···y[i]·R (Montgomery form of the prefix product).
        let mut acc = self.mmul(y[0], self.r2);
        out[0] = acc;
        for i in 1..n {
            acc = self.mmul(acc, self.mmul(y[i], self.r2));
            out[i] = acc;
        }
        // inv = (y[0]···y[n−1])^(−1)·R, by square-and-multiply over the public p − 2.
        let e = self.p - 2;
        let mut inv = mont_one(self.p);
        for b in (0..31).rev() {
            inv = self.mmul(inv, inv);
            let t = self.mmul(inv, acc);
            let m = ((e >> b) & 1).wrapping_neg();
            inv = (t & m) | (inv & !m);
        }
        // Backward: out[i] = prefix(i−1)·inv(prefix(i)), then inv ← inv·y[i].
        for i in (1..n).rev() {
            let yi = self.mmul(y[i], self.r2);
            out[i] = self.mmul(out[i - 1], inv);
            inv = self.mmul(inv, yi);
        }
        out[0] = inv;
    }

    /// Root of 1 of order 2n (Montgomery form), from g (order 2048).
    fn root(&self, mut g: u32, logn: u32) -> u32 {
        for _ in logn..10 {
            g = self.mmul(g, g);
        }
        g
    }

    /// Forward twiddles: `gm[rev(i)] = g^i · R` for i < n.
    pub(crate) fn mkgm(&self, logn: u32, gm: &mut [u32]) {
        let g = self.root(self.g, logn);
        let mut x = mont_one(self.p);
        for i in 0..(1usize << logn) {
            gm[rev(i, logn)] = x;
            x = self.mmul(x, g);
        }
    }

    /// Inverse twiddles, with the 1/2 of each inverse layer folded in:
    /// `igm[rev(i)] = g^(−i) · R/2`.
    pub(crate) fn mkigm(&self, logn: u32, igm: &mut [u32]) {
        let ig = self.root(self.ig, logn);
        let mut x = mont_half(self.p);
        for i in 0..(1usize << logn) {
            igm[rev(i, logn)] = x;
            x = self.mmul(x, ig);
        }
    }

    /// NTT in place (unsigned inputs), `a.len() >= n`.
    pub(crate) fn ntt(&self, logn: u32, a: &mut [u32], gm: &[u32]) {
        let p = self.p;
        let mut t = 1usize << logn;
        for lm in 0..logn {
            let m = 1usize << lm;
            let ht = t >> 1;
            for i in 0..m {
                let s = gm[i + m];
                let j0 = i * t;
                for j in j0..(j0 + ht) {
                    let x1 = a[j];
                    let x2 = self.mmul(a[j + ht], s);
                    a[j] = add(x1, x2, p);
                    a[j + ht] = sub(x1, x2, p);
                }
            }
            t = ht;
        }
    }

    /// Inverse NTT in place (including the 1/n factor through the halvings).
    pub(crate) fn intt(&self, logn: u32, a: &mut [u32], igm: &[u32]) {
        let p = self.p;
        let mut t = 1usize;
        for lm in 0..logn {
            let hm = 1usize << (logn - 1 - lm);
            let dt = t << 1;
            for i in 0..hm {
                let s = igm[i + hm];
                let j0 = i * dt;
                for j in j0..(j0 + t) {
                    let x1 = a[j];
                    let x2 = a[j + t];
                    a[j] = half(add(x1, x2, p), p);
                    a[j + t] = self.mmul(sub(x1, x2, p), s);
                }
            }
            t = dt;
        }
    }
}

/// The NTT twiddle tables of the solver's primes (computed once per key generation)
/// and the backend's NTT kernels.
///
/// For a prime the tables of degree 2^(logn − 1) are the first halves of those of
/// degree 2^logn (the root of order 2^logn is the square of the one of order
/// 2^(logn+1), and `rev_logn(2i) = rev_(logn−1)(i)`), so each prime keeps one table pair
/// at the largest degree it is used with, and every smaller degree reads a prefix.
pub(crate) struct NttCtx {
    gm: alloc::vec::Vec<u32>,
    igm: alloc::vec::Vec<u32>,
    /// Offset of each prime's tables and their logn.
    at: alloc::vec::Vec<(usize, u32)>,
    k: &'static NttKern,
    /// The backend's FN-DSA kernels (the fixed-point divisions of the Babai steps).
    fk: &'static FnDsaKernels,
}

impl NttCtx {
    /// Tables for the first `max_logn.len()` primes, prime i at degree `2^max_logn[i]`.
    pub(crate) fn new(max_logn: &[u32], k: &'static NttKern, fk: &'static FnDsaKernels) -> Self {
        let mut at = alloc::vec::Vec::with_capacity(max_logn.len());
        let mut total = 0usize;
        for &l in max_logn {
            at.push((total, l));
            total += 1usize << l;
        }
        let mut gm = alloc::vec![0u32; total];
        let mut igm = alloc::vec![0u32; total];
        for (i, &(off, l)) in at.iter().enumerate() {
            let sp = &PRIMES[i];
            sp.mkgm(l, &mut gm[off..off + (1 << l)]);
            sp.mkigm(l, &mut igm[off..off + (1 << l)]);
        }
        NttCtx { gm, igm, at, k, fk }
    }

    /// The backend's FN-DSA kernels.
    pub(crate) fn fxk(&self) -> &'static FnDsaKernels {
        self.fk
    }

    /// Forward NTT modulo prime i, degree 2^logn (`a.len() >= 2^logn`).
    #[inline]
    pub(crate) fn ntt(&self, i: usize, logn: u32, a: &mut [u32]) {
        (self.k.ntt)(&PRIMES[i], logn, a, self.gm(i, logn))
    }

    /// Inverse NTT modulo prime i, degree 2^logn.
    #[inline]
    pub(crate) fn intt(&self, i: usize, logn: u32, a: &mut [u32]) {
        (self.k.intt)(&PRIMES[i], logn, a, self.igm(i, logn))
    }

    /// CRT reconstruction (see [`super::zint::rebuild_crt`]).
    #[inline]
    pub(crate) fn rebuild_crt(
        &self,
        xx: &mut [u32],
        xlen: usize,
        n: usize,
        sets: usize,
        signed: bool,
        tmp: &mut [u32],
    ) {
        (self.k.rebuild_crt)(xx, xlen, n, sets, signed, tmp)
    }

    /// Residues modulo prime i of the n signed integers of `len` words at `x[j..]`
    /// (stride n), into `out[..n]`.
    #[inline]
    pub(crate) fn mod_small_signed_batch(
        &self,
        out: &mut [u32],
        x: &[u32],
        len: usize,
        n: usize,
        i: usize,
    ) {
        let sp = &PRIMES[i];
        (self.k.mod_small_signed_batch)(out, x, len, n, sp, sp.pow2_31(len as u32))
    }

    /// Forward twiddles of prime i for degree 2^logn.
    #[inline]
    pub(crate) fn gm(&self, i: usize, logn: u32) -> &[u32] {
        let (off, l) = self.at[i];
        debug_assert!(logn <= l);
        &self.gm[off..off + (1 << logn.min(l))]
    }

    /// Inverse twiddles of prime i for degree 2^logn.
    #[inline]
    pub(crate) fn igm(&self, i: usize, logn: u32) -> &[u32] {
        let (off, l) = self.at[i];
        debug_assert!(logn <= l);
        &self.igm[off..off + (1 << logn.min(l))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_prime(n: u64) -> bool {
        let (mut d, mut r) = (n - 1, 0);
        while d % 2 == 0 {
            d /= 2;
            r += 1;
        }
        let mulm = |a: u64, b: u64| ((a as u128 * b as u128) % n as u128) as u64;
        let powm = |mut b: u64, mut e: u64| {
            let mut x = 1;
            while e > 0 {
                if e & 1 == 1 {
                    x = mulm(x, b);
                }
                b = mulm(b, b);
                e >>= 1;
            }
            x
        };
        'w: for a in [2u64, 3, 5, 7, 11, 13, 17] {
            let mut x = powm(a, d);
            if x == 1 || x == n - 1 {
                continue;
            }
            for _ in 0..r - 1 {
                x = mulm(x, x);
                if x == n - 1 {
                    continue 'w;
                }
            }
            return false;
        }
        true
    }

    #[test]
    fn table() {
        let mut expect = (1u64 << 31) - 2047;
        for (i, sp) in PRIMES.iter().enumerate() {
            while !is_prime(expect) {
                expect -= 2048;
            }
            assert_eq!(sp.p as u64, expect, "prime {i}");
            expect -= 2048;
            let p = sp.p as u128;
            assert_eq!(sp.p.wrapping_mul(sp.p0i), u32::MAX);
            assert_eq!(sp.r2 as u128, (1u128 << 64) % p);
            let r_inv = {
                // 1/2^32 mod p.
                let mut x = 1u64;
                for _ in 0..32 {
                    x = (x + (x & 1) * sp.p as u64) >> 1;
                }
                x as u128
            };
            let g = sp.g as u128 * r_inv % p;
            let ig = sp.ig as u128 * r_inv % p;
            assert_eq!(g * ig % p, 1);
            let mut x = g;
            for _ in 0..10 {
                x = x * x % p;
            }
            assert_eq!(x, p - 1, "g has order 2048");
            let mut s = sp.s as u128 * r_inv % p;
            for q in &PRIMES[..i] {
                s = s * q.p as u128 % p;
            }
            assert_eq!(s, 1);
        }
    }

    #[test]
    fn ntt_round_trip_and_product() {
        let sp = &PRIMES[3];
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            let mut gm = vec![0u32; n];
            let mut igm = vec![0u32; n];
            sp.mkgm(logn, &mut gm);
            sp.mkigm(logn, &mut igm);
            let a: Vec<u32> = (0..n as u32).map(|i| (i * 7919 + 13) % sp.p).collect();
            let b: Vec<u32> = (0..n as u32).map(|i| (i * 104729 + 5) % sp.p).collect();
            let mut x = a.clone();
            sp.ntt(logn, &mut x, &gm);
            let mut y = b.clone();
            sp.ntt(logn, &mut y, &gm);
            let r2 = sp.r2;
            for i in 0..n {
                x[i] = sp.mmul(sp.mmul(x[i], y[i]), r2);
            }
            sp.intt(logn, &mut x, &igm);
            // Schoolbook negacyclic product.
            let p = sp.p as u64;
            let mut c = vec![0u64; n];
            for i in 0..n {
                for j in 0..n {
                    let t = a[i] as u64 * b[j] as u64 % p;
                    if i + j < n {
                        c[i + j] = (c[i + j] + t) % p;
                    } else {
                        c[i + j - n] = (c[i + j - n] + p - t) % p;
                    }
                }
            }
            for i in 0..n {
                assert_eq!(x[i] as u64, c[i], "logn {logn} i {i}");
            }
        }
    }

    #[test]
    fn twiddle_prefixes() {
        let tw = NttCtx::new(
            &[10, 9, 4],
            crate::kernels::falcon::ntru::kernels(crate::kernels::select::Backend::Portable),
            crate::kernels::falcon::fndsa::kernels(crate::kernels::select::Backend::Portable),
        );
        for (i, top) in [(0usize, 10u32), (1, 9), (2, 4)] {
            for logn in 1..=top {
                let n = 1usize << logn;
                let mut gm = vec![0u32; n];
                let mut igm = vec![0u32; n];
                PRIMES[i].mkgm(logn, &mut gm);
                PRIMES[i].mkigm(logn, &mut igm);
                assert_eq!(tw.gm(i, logn), &gm[..]);
                assert_eq!(tw.igm(i, logn), &igm[..]);
            }
        }
    }

    #[test]
    fn batch_inverse_matches_div() {
        let sp = &PRIMES[0];
        let mut st = 3u64;
        for n in [1usize, 2, 7, 512] {
            let y: Vec<u32> = (0..n)
                .map(|_| {
                    st ^= st << 13;
                    st ^= st >> 7;
                    st ^= st << 17;
                    1 + (st % (sp.p as u64 - 1)) as u32
                })
                .collect();
            let mut inv = vec![0u32; n];
            sp.batch_inv_mont(&y, &mut inv);
            for i in 0..n {
                let x = (i as u32 * 7919 + 5) % sp.p;
                assert_eq!(sp.mmul(x, inv[i]), div(x, y[i], sp.p));
            }
        }
    }

    #[test]
    fn division() {
        let sp = &PRIMES[0];
        let p = sp.p;
        for (x, y) in [(1u32, 2u32), (12345, 678910), (p - 1, p - 2), (5, 0)] {
            let q = div(x, y, p);
            if y == 0 {
                assert_eq!(q, 0);
            } else {
                assert_eq!((q as u64 * y as u64 % p as u64) as u32, x);
            }
        }
    }
}
