//! Arithmetic modulo the small RNS primes (2^31 - 2^23 < p < 2^31, p = 1 mod 2048) and
//! their number-theoretic transform over Z_p[X]/(X^n + 1), for both NTRU solvers.
//!
//! Representation: residues are `u32` in `[0, p)` (canonical, so any correct modular
//! method yields the same values as the reference implementation). Multiplication is
//! Montgomery's with R = 2^32: `mmul(a, b) = a·b / 2^32 mod p`. Every function here is
//! constant-time (masks, no data-dependent branches or indices).
//!
//! NTT layout: for a polynomial of degree n = 2^logn, the NTT holds a(w_i) for the n
//! roots of X^n + 1 in bit-reversed order, so that positions 2i and 2i+1 hold a(w) and
//! a(-w) for one root w, and w^2 is the root at position i of the half-size NTT. The
//! field-norm step of NTRUSolve relies on exactly that pairing.

pub(crate) use super::primes::PRIMES;

/// One RNS modulus and its precomputed constants (see the `primes` table).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SmallPrime {
    /// The prime.
    pub p: u32,
    /// -1/p mod 2^32.
    pub p0i: u32,
    /// 2^64 mod p (R^2, converts into Montgomery representation).
    pub r2: u32,
    /// A primitive 2048-th root of unity mod p.
    pub g: u32,
    /// 1/g mod p.
    pub ig: u32,
    /// R / (product of the earlier primes of the table) mod p, for the CRT.
    pub s: u32,
}

/// All-ones if the top bit of `x` is set, else zero.
#[inline(always)]
pub(crate) const fn tbmask(x: u32) -> u32 {
    ((x as i32) >> 31) as u32
}

/// `v mod p` for `-p < v < p`.
#[inline(always)]
pub(crate) fn set(v: i32, p: u32) -> u32 {
    let w = v as u32;
    w.wrapping_add(p & tbmask(w))
}

/// The representative of `x` in `[-(p-1)/2, (p-1)/2]`.
#[inline(always)]
pub(crate) fn norm(x: u32, p: u32) -> i32 {
    let c = tbmask(x.wrapping_sub((p + 1) >> 1));
    x.wrapping_sub(p & !c) as i32
}

#[inline(always)]
pub(crate) fn add(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_add(b).wrapping_sub(p);
    d.wrapping_add(p & tbmask(d))
}

#[inline(always)]
pub(crate) fn sub(a: u32, b: u32, p: u32) -> u32 {
    let d = a.wrapping_sub(b);
    d.wrapping_add(p & tbmask(d))
}

/// `a / 2 mod p`.
#[inline(always)]
pub(crate) fn half(a: u32, p: u32) -> u32 {
    a.wrapping_add(p & (a & 1).wrapping_neg()) >> 1
}

/// Montgomery product `a·b / 2^32 mod p` for `a, b < p`.
#[inline(always)]
pub(crate) fn mmul(a: u32, b: u32, p: u32, p0i: u32) -> u32 {
    let z = (a as u64) * (b as u64);
    let w = ((z as u32).wrapping_mul(p0i) as u64) * (p as u64);
    // z + w < 2^62 + 2^63 and is a multiple of 2^32; the quotient is below 2p.
    let d = (((z + w) >> 32) as u32).wrapping_sub(p);
    d.wrapping_add(p & tbmask(d))
}

/// R = 2^32 mod p (Montgomery representation of 1); valid because 2p < 2^32 < 3p.
#[inline(always)]
pub(crate) fn mont_one(p: u32) -> u32 {
    p.wrapping_neg().wrapping_mul(2)
}

/// 2^31 mod p (= 2^31 − p), the Montgomery representation of 1/2.
#[inline(always)]
pub(crate) fn mont_half(p: u32) -> u32 {
    0x8000_0000 - p
}

/// `v mod p` for `v` in `[0, 2p)`.
#[inline(always)]
pub(crate) fn set_u(v: u32, p: u32) -> u32 {
    let w = v.wrapping_sub(p);
    w.wrapping_add(p & tbmask(w))
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
    #[inline(always)]
    pub(crate) fn mmul(&self, a: u32, b: u32) -> u32 {
        mmul(a, b, self.p, self.p0i)
    }

    /// 2^31 in Montgomery representation (2^63 mod p): `mmul(x, c31)` is `x·2^31 mod p`.
    #[inline(always)]
    pub(crate) fn c31(&self) -> u32 {
        half(self.r2, self.p)
    }

    /// 2^(31·e) mod p (normal representation), for e >= 0.
    pub(crate) fn pow2_31(&self, e: usize) -> u32 {
        // Square-and-multiply in Montgomery representation over the public exponent.
        let mut base = self.c31(); // 2^31 · R
        let mut acc = mont_one(self.p); // 1 · R
        let mut e = e;
        while e != 0 {
            if e & 1 != 0 {
                acc = self.mmul(acc, base);
            }
            base = self.mmul(base, base);
            e >>= 1;
        }
        self.mmul(acc, 1)
    }

    /// `out[i] = R/y[i] mod p` (R = 2^32) for non-zero `y[i]` in `[0, p)`, so that
    /// `mmul(x, out[i]) = x/y[i]` (what fn-dsa's 60-step `div` computes). Montgomery's
    /// batch inversion: prefix products, one inversion by exponentiation (x^(p−2)), and
    /// a backward pass; no branch on values. A zero `y[i]` gives zeros.
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

    /// The Montgomery representation of a primitive 2n-th root of unity (n = 2^logn),
    /// from `x` (normal representation, order 2048).
    fn root(&self, x: u32, logn: u32) -> u32 {
        let mut w = self.mmul(x, self.r2);
        for _ in logn..10 {
            w = self.mmul(w, w);
        }
        w
    }

    /// Forward twiddles for degree n = 2^logn: `gm[rev(i)] = w^i·R` (Montgomery
    /// representation, bit-reversed order) for the root w of order 2n.
    pub(crate) fn mkgm(&self, logn: u32, gm: &mut [u32]) {
        self.powers(self.root(self.g, logn), mont_one(self.p), logn, gm)
    }

    /// Inverse twiddles, with the 1/2 of each inverse layer folded in:
    /// `igm[rev(i)] = w^(−i)·R/2`.
    pub(crate) fn mkigm(&self, logn: u32, igm: &mut [u32]) {
        self.powers(self.root(self.ig, logn), mont_half(self.p), logn, igm)
    }

    /// `out[rev(i)] = x0·w^i` for i < 2^logn (Montgomery products).
    fn powers(&self, w: u32, x0: u32, logn: u32, out: &mut [u32]) {
        let mut x = x0;
        for i in 0..(1usize << logn) {
            out[rev(i, logn)] = x;
            x = self.mmul(x, w);
        }
    }

    /// Portable NTT of `a[..2^logn]` (coefficients `< p`) in place, with a table from
    /// [`SmallPrime::mkgm`] built for a degree >= 2^logn (only its first 2^logn entries
    /// are read). The solvers call it through the backend's
    /// `kernels::falcon::ntru::NtruKernels`, which give the same canonical residues.
    pub(crate) fn ntt(&self, logn: u32, a: &mut [u32], gm: &[u32]) {
        let (p, p0i) = (self.p, self.p0i);
        let n = 1usize << logn;
        let a = &mut a[..n];
        // Layer with m blocks of t: twiddle gm[m + u] for block u, butterflies t/2 apart.
        let (mut m, mut t) = (1usize, n);
        while m < n {
            let ht = t >> 1;
            for (blk, &s) in a.chunks_exact_mut(t).zip(&gm[m..2 * m]) {
                let (lo, hi) = blk.split_at_mut(ht);
                for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                    let yv = mmul(*y, s, p, p0i);
                    (*x, *y) = (add(*x, yv, p), sub(*x, yv, p));
                }
            }
            m <<= 1;
            t = ht;
        }
    }

    /// Portable inverse NTT in place (the 1/n factor comes from the halvings folded into
    /// the [`SmallPrime::mkigm`] table and the sums).
    pub(crate) fn intt(&self, logn: u32, a: &mut [u32], igm: &[u32]) {
        let (p, p0i) = (self.p, self.p0i);
        let n = 1usize << logn;
        let a = &mut a[..n];
        // Layer with hm blocks of 2t: twiddle igm[hm + u] for block u, butterflies t apart.
        let (mut hm, mut t) = (n >> 1, 1usize);
        while hm >= 1 {
            for (blk, &s) in a.chunks_exact_mut(t << 1).zip(&igm[hm..2 * hm]) {
                let (lo, hi) = blk.split_at_mut(t);
                for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                    let (xv, yv) = (*x, *y);
                    *x = half(add(xv, yv, p), p);
                    *y = mmul(sub(xv, yv, p), s, p, p0i);
                }
            }
            hm >>= 1;
            t <<= 1;
        }
    }
}

/// Bit reversal of `i` over `logn` bits.
#[inline(always)]
pub(crate) fn rev(i: usize, logn: u32) -> usize {
    if logn == 0 {
        0
    } else {
        ((i as u32).reverse_bits() >> (32 - logn)) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_prime(n: u64) -> bool {
        if n < 2 {
            return false;
        }
        let mut d = 2;
        while d * d <= n {
            if n.is_multiple_of(d) {
                return false;
            }
            d += 1;
        }
        true
    }

    use crate::kernels::ntt::field::pow_mod as powmod;

    #[test]
    fn prime_table() {
        // Recompute every entry from its definition.
        let mut expect_p = (1u64 << 31) + 1 - 2048;
        let mut prod_mod: alloc::vec::Vec<u64> = alloc::vec::Vec::new();
        for (i, sp) in PRIMES.iter().enumerate() {
            while !is_prime(expect_p) {
                expect_p -= 2048;
            }
            let p = sp.p as u64;
            assert_eq!(p, expect_p, "entry {i}");
            expect_p -= 2048;
            assert_eq!((p as u32).wrapping_mul(sp.p0i), u32::MAX, "p0i {i}");
            assert_eq!(sp.r2 as u64, powmod(2, 64, p));
            assert_eq!(powmod(sp.g as u64, 1024, p), p - 1);
            assert_eq!(sp.g as u64 * sp.ig as u64 % p, 1);
            // s * (product of earlier primes) = 2^32 mod p.
            let mut q = 1u64;
            for &e in &prod_mod {
                q = q * (e % p) % p;
            }
            assert_eq!(sp.s as u64 * q % p, (1u64 << 32) % p, "s {i}");
            prod_mod.push(p);
        }
    }

    #[test]
    fn ntt_roundtrip_and_product() {
        let sp = PRIMES[3];
        let p = sp.p;
        for logn in 0..=10u32 {
            let n = 1usize << logn;
            let mut gm = alloc::vec![0u32; n];
            let mut igm = alloc::vec![0u32; n];
            sp.mkgm(logn, &mut gm);
            sp.mkigm(logn, &mut igm);
            let a: alloc::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 7919 + 13) % p).collect();
            let b: alloc::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 104729 + 5) % p).collect();
            let mut ta = a.clone();
            let mut tb = b.clone();
            sp.ntt(logn, &mut ta, &gm);
            sp.ntt(logn, &mut tb, &gm);
            // Pointwise product, then back: compare with the schoolbook negacyclic product.
            for i in 0..n {
                ta[i] = sp.mmul(sp.mmul(ta[i], tb[i]), sp.r2);
            }
            sp.intt(logn, &mut ta, &igm);
            let mut c = alloc::vec![0u64; n];
            #[allow(clippy::needless_range_loop)] // the schoolbook product reads as its formula
            for i in 0..n {
                for j in 0..n {
                    let pr = a[i] as u64 * b[j] as u64 % p as u64;
                    let k = i + j;
                    if k < n {
                        c[k] = (c[k] + pr) % p as u64;
                    } else {
                        c[k - n] = (c[k - n] + p as u64 - pr) % p as u64;
                    }
                }
            }
            for i in 0..n {
                assert_eq!(ta[i] as u64, c[i], "logn {logn} i {i}");
            }
            // Pairing: positions 2i, 2i+1 are a(w), a(-w).
            if logn >= 1 {
                let mut x = alloc::vec![0u32; n];
                x[1] = 1; // a(X) = X
                sp.ntt(logn, &mut x, &gm);
                for i in 0..n / 2 {
                    assert_eq!(add(x[2 * i], x[2 * i + 1], p), 0);
                }
            }
        }
        assert_eq!(sp.pow2_31(0), 1);
        assert_eq!(sp.pow2_31(1) as u64, (1u64 << 31) % p as u64);
        assert_eq!(sp.pow2_31(2) as u64, powmod(2, 62, p as u64));
        assert_eq!(norm(p - 1, p), -1);
        assert_eq!(set(-1, p), p - 1);
    }

    #[test]
    fn batch_inverse_matches_div() {
        let sp = &PRIMES[0];
        let mut st = 3u64;
        for n in [1usize, 2, 7, 512] {
            let y: alloc::vec::Vec<u32> = (0..n)
                .map(|_| {
                    st ^= st << 13;
                    st ^= st >> 7;
                    st ^= st << 17;
                    1 + (st % (sp.p as u64 - 1)) as u32
                })
                .collect();
            let mut inv = alloc::vec![0u32; n];
            sp.batch_inv_mont(&y, &mut inv);
            for i in 0..n {
                let x = (i as u32 * 7919 + 5) % sp.p;
                assert_eq!(sp.mmul(x, inv[i]), div(x, y[i], sp.p));
            }
        }
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
