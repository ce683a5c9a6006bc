//! Arithmetic modulo the small RNS primes (2^31 - 2^23 < p < 2^31, p = 1 mod 2048) and
//! their number-theoretic transform over Z_p[X]/(X^n + 1).
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
use crate::kernels::falcon::keygen::KeygenKernels;

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

    /// 1/n in Montgomery representation (R/n mod p), n = 2^logn.
    #[inline]
    pub(crate) fn inv_n(&self, logn: u32) -> u32 {
        let mut x = mont_one(self.p);
        for _ in 0..logn {
            x = half(x, self.p);
        }
        x
    }

    /// Fills `gm[..n]` and `igm[..n]` (n = 2^logn) with the powers of a primitive 2n-th
    /// root of unity and of its inverse, in Montgomery representation and bit-reversed
    /// order: `gm[rev(i)] = w^i`.
    pub(crate) fn mkgm(&self, logn: u32, gm: &mut [u32], igm: &mut [u32]) {
        let n = 1usize << logn;
        let (mut w, mut iw) = (self.mmul(self.g, self.r2), self.mmul(self.ig, self.r2));
        for _ in logn..10 {
            w = self.mmul(w, w);
            iw = self.mmul(iw, iw);
        }
        let one = mont_one(self.p);
        let (mut x1, mut x2) = (one, one);
        for i in 0..n {
            let r = rev(i, logn);
            gm[r] = x1;
            igm[r] = x2;
            x1 = self.mmul(x1, w);
            x2 = self.mmul(x2, iw);
        }
    }

    /// Forward table only (see [`SmallPrime::mkgm`]).
    pub(crate) fn mkgm_fwd(&self, logn: u32, gm: &mut [u32]) {
        let n = 1usize << logn;
        let mut w = self.mmul(self.g, self.r2);
        for _ in logn..10 {
            w = self.mmul(w, w);
        }
        let mut x1 = mont_one(self.p);
        for i in 0..n {
            gm[rev(i, logn)] = x1;
            x1 = self.mmul(x1, w);
        }
    }

    /// Inverse table only (see [`SmallPrime::mkgm`]).
    pub(crate) fn mkgm_inv(&self, logn: u32, igm: &mut [u32]) {
        let n = 1usize << logn;
        let mut iw = self.mmul(self.ig, self.r2);
        for _ in logn..10 {
            iw = self.mmul(iw, iw);
        }
        let mut x2 = mont_one(self.p);
        for i in 0..n {
            igm[rev(i, logn)] = x2;
            x2 = self.mmul(x2, iw);
        }
    }

    /// In-place NTT of `a[..2^logn]` (coefficients `< p`) with a table from `mkgm`
    /// built for a degree >= 2^logn (only its first 2^logn entries are read).
    #[inline]
    pub(crate) fn ntt(&self, kk: &KeygenKernels, a: &mut [u32], gm: &[u32], logn: u32) {
        ntt_impl(kk, self.p, self.p0i, a, gm, logn)
    }

    /// In-place inverse NTT (including the division by n) with an inverse table from
    /// `mkgm` built for a degree >= 2^logn.
    #[inline]
    pub(crate) fn intt(&self, kk: &KeygenKernels, a: &mut [u32], igm: &[u32], logn: u32) {
        intt_impl(kk, self.p, self.p0i, self.inv_n(logn), a, igm, logn)
    }
}

/// NTT through `kk`'s kernel (`kernels::falcon::keygen`: 8-lane butterflies on AVX2,
/// else [`ntt_scalar`]); both give the same canonical residues.
#[inline]
fn ntt_impl(kk: &KeygenKernels, p: u32, p0i: u32, a: &mut [u32], gm: &[u32], logn: u32) {
    let n = 1usize << logn;
    (kk.solver.ntt)(p, p0i, &mut a[..n], &gm[..n])
}

/// Inverse NTT through `kk`'s kernel (see [`ntt_impl`]); includes the multiplication by
/// `ni` = R/n.
#[inline]
fn intt_impl(kk: &KeygenKernels, p: u32, p0i: u32, ni: u32, a: &mut [u32], igm: &[u32], logn: u32) {
    let n = 1usize << logn;
    (kk.solver.intt)(p, p0i, ni, &mut a[..n], &igm[..n])
}

/// Portable forward NTT of `a` (a power-of-two length, `gm` as long).
pub(crate) fn ntt_scalar(p: u32, p0i: u32, a: &mut [u32], gm: &[u32]) {
    let n = a.len();
    let mut t = n;
    let mut m = 1;
    while m < n {
        ntt_layer_scalar(p, p0i, a, gm, m, t);
        t >>= 1;
        m <<= 1;
    }
}

/// Portable inverse NTT of `a`, with the multiplication by `ni`.
pub(crate) fn intt_scalar(p: u32, p0i: u32, ni: u32, a: &mut [u32], igm: &[u32]) {
    let n = a.len();
    let mut t = 1;
    let mut m = n;
    while m > 1 {
        intt_layer_scalar(p, p0i, a, igm, m, t);
        t <<= 1;
        m >>= 1;
    }
    if n > 1 {
        for x in a.iter_mut() {
            *x = mmul(*x, ni, p, p0i);
        }
    }
}

/// One forward layer: m blocks of size t, twiddle gm[m + u] for block u, butterflies
/// t/2 apart.
#[inline(always)]
pub(crate) fn ntt_layer_scalar(p: u32, p0i: u32, a: &mut [u32], gm: &[u32], m: usize, t: usize) {
    let ht = t >> 1;
    for (u, blk) in a.chunks_exact_mut(t).enumerate() {
        let s = gm[m + u];
        let (lo, hi) = blk.split_at_mut(ht);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let xv = *x;
            let yv = mmul(*y, s, p, p0i);
            *x = add(xv, yv, p);
            *y = sub(xv, yv, p);
        }
    }
}

/// One inverse layer: m/2 blocks of size 2t, twiddle igm[m/2 + u], butterflies t apart.
#[inline(always)]
pub(crate) fn intt_layer_scalar(p: u32, p0i: u32, a: &mut [u32], igm: &[u32], m: usize, t: usize) {
    let hm = m >> 1;
    for (u, blk) in a.chunks_exact_mut(t << 1).enumerate() {
        let s = igm[hm + u];
        let (lo, hi) = blk.split_at_mut(t);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let xv = *x;
            let yv = *y;
            *x = add(xv, yv, p);
            *y = mmul(sub(xv, yv, p), s, p, p0i);
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

    fn powmod(mut b: u64, mut e: u64, m: u64) -> u64 {
        let mut r = 1u64;
        b %= m;
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % m;
            }
            b = b * b % m;
            e >>= 1;
        }
        r
    }

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

    /// The detected backend's NTT / inverse NTT (AVX2 on x86-64) against the portable
    /// layers, bit for bit.
    #[test]
    fn simd_ntt_matches_portable() {
        let kk = crate::kernels::falcon::keygen::kernels(crate::kernels::select::Backend::detect());
        let mut st = 0x9e37_79b9_7f4a_7c15u64;
        for (pi, sp) in PRIMES.iter().enumerate().step_by(37) {
            for logn in 0..=10u32 {
                let n = 1usize << logn;
                let mut gm = alloc::vec![0u32; n];
                let mut igm = alloc::vec![0u32; n];
                sp.mkgm(logn, &mut gm, &mut igm);
                let a: alloc::vec::Vec<u32> = (0..n)
                    .map(|_| {
                        st ^= st << 13;
                        st ^= st >> 7;
                        st ^= st << 17;
                        (st % sp.p as u64) as u32
                    })
                    .collect();
                let mut x = a.clone();
                let mut y = a.clone();
                let (mut t, mut m) = (n, 1);
                while m < n {
                    ntt_layer_scalar(sp.p, sp.p0i, &mut x, &gm, m, t);
                    t >>= 1;
                    m <<= 1;
                }
                (kk.solver.ntt)(sp.p, sp.p0i, &mut y, &gm);
                assert_eq!(x, y, "ntt prime {pi} logn {logn}");
                let ni = sp.inv_n(logn);
                let (mut t, mut m) = (1, n);
                while m > 1 {
                    intt_layer_scalar(sp.p, sp.p0i, &mut x, &igm, m, t);
                    t <<= 1;
                    m >>= 1;
                }
                if logn > 0 {
                    for v in x.iter_mut() {
                        *v = mmul(*v, ni, sp.p, sp.p0i);
                    }
                }
                (kk.solver.intt)(sp.p, sp.p0i, ni, &mut y, &igm);
                assert_eq!(x, y, "intt prime {pi} logn {logn}");
                assert_eq!(x, a, "round trip prime {pi} logn {logn}");
            }
        }
    }

    #[test]
    fn ntt_roundtrip_and_product() {
        let kk =
            &crate::kernels::falcon::keygen::kernels(crate::kernels::select::Backend::detect());
        let sp = PRIMES[3];
        let p = sp.p;
        for logn in 0..=10u32 {
            let n = 1usize << logn;
            let mut gm = alloc::vec![0u32; n];
            let mut igm = alloc::vec![0u32; n];
            sp.mkgm(logn, &mut gm, &mut igm);
            let a: alloc::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 7919 + 13) % p).collect();
            let b: alloc::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 104729 + 5) % p).collect();
            let mut ta = a.clone();
            let mut tb = b.clone();
            sp.ntt(kk, &mut ta, &gm, logn);
            sp.ntt(kk, &mut tb, &gm, logn);
            // Pointwise product, then back: compare with the schoolbook negacyclic product.
            for i in 0..n {
                ta[i] = sp.mmul(sp.mmul(ta[i], tb[i]), sp.r2);
            }
            sp.intt(kk, &mut ta, &igm, logn);
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
                sp.ntt(kk, &mut x, &gm, logn);
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
}
