//! 32.32 fixed-point arithmetic and the fixed-point FFT of fn-dsa's key generator (the
//! ntrugen design), used here for the Gram–Schmidt norm test on (f, g). DRAFT.
//!
//! fn-dsa decides whether to keep (f, g) with this fixed-point computation, not with
//! binary64; to make the same decision on borderline keys we perform the same integer
//! operations: truncating products (`(a·b) >> 32` on 128 bits), halving with rounding
//! (`(x + 1) >> 1`), a bit-by-bit rounded division, three-multiplication complex
//! products, and the same butterflies and twiddles. All operations wrap at 64 bits
//! exactly as fn-dsa's do (they never overflow on reachable inputs).
//!
//! Constant time: no branch or index depends on values (the division runs all 64
//! steps).

use crate::kernels::falcon::fndsa::FnDsaKernels;

/// A fixed-point number `x / 2^32`, stored as a two's-complement `u64`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fxr(pub(crate) u64);

impl zeroize::DefaultIsZeroes for Fxr {}

impl Fxr {
    pub(crate) const ZERO: Fxr = Fxr(0);

    #[inline(always)]
    pub(crate) const fn of_i32(j: i32) -> Fxr {
        Fxr(((j as u32) as u64) << 32)
    }

    #[inline(always)]
    pub(crate) fn add(self, o: Fxr) -> Fxr {
        Fxr(self.0.wrapping_add(o.0))
    }

    #[inline(always)]
    pub(crate) fn sub(self, o: Fxr) -> Fxr {
        Fxr(self.0.wrapping_sub(o.0))
    }

    #[inline(always)]
    pub(crate) fn neg(self) -> Fxr {
        Fxr(self.0.wrapping_neg())
    }

    /// Product, truncated toward −∞ at 2^-32 (floor of the exact product).
    #[inline(always)]
    pub(crate) fn mul(self, o: Fxr) -> Fxr {
        let z = (self.0 as i64 as i128) * (o.0 as i64 as i128);
        Fxr((z >> 32) as u64)
    }

    #[inline(always)]
    pub(crate) fn sqr(self) -> Fxr {
        self.mul(self)
    }

    /// Halving, rounded to nearest (ties up).
    #[inline(always)]
    pub(crate) fn half(self) -> Fxr {
        Fxr(((self.0.wrapping_add(1) as i64) >> 1) as u64)
    }

    /// Division with the rounding of fn-dsa's reference code: quotient of the absolute
    /// values bit by bit (64 steps), plus one unit if the remainder is at least half the
    /// divisor, then the sign.
    pub(crate) fn div(self, o: Fxr) -> Fxr {
        let (x, y) = (self.0, o.0);
        let sx = ((x as i64) >> 63) as u64;
        let x = (x ^ sx).wrapping_sub(sx);
        let sy = ((y as i64) >> 63) as u64;
        let y = (y ^ sy).wrapping_sub(sy);
        let mut q = 0u64;
        let mut num = x >> 31;
        for i in (33..64).rev() {
            let b = (((num.wrapping_sub(y) as i64) >> 63) + 1) as u64;
            q |= b << i;
            num = num.wrapping_sub(y & b.wrapping_neg());
            num <<= 1;
            num |= (x >> (i - 33)) & 1;
        }
        for i in (0..33).rev() {
            let b = (((num.wrapping_sub(y) as i64) >> 63) + 1) as u64;
            q |= b << i;
            num = num.wrapping_sub(y & b.wrapping_neg());
            num <<= 1;
        }
        let b = (((num.wrapping_sub(y) as i64) >> 63) + 1) as u64;
        q = q.wrapping_add(b);
        let s = sx ^ sy;
        Fxr((q ^ s).wrapping_sub(s))
    }

    /// Multiplication by 2^e (wrapping), e < 64, with no shift by `e`: the solver's
    /// scales derive from the secret key's bit lengths, and memcheck (rightly, for
    /// some targets) wants a shift count defined. 2^e is built from e's six bits by
    /// masked constant multiplications.
    #[inline(always)]
    pub(crate) fn mul2e(self, e: u32) -> Fxr {
        let mut p = 1u64;
        for k in 0..6 {
            let bit = crate::ct::barrier((u64::from(e) >> k) & 1);
            // 2^(2^k) when the bit is set, else 1.
            p = p.wrapping_mul(1 + (((1u64 << (1u32 << k)) - 1) & bit.wrapping_neg()));
        }
        Fxr(self.0.wrapping_mul(p))
    }

    /// Nearest integer (ties up); wraps to −2^31 at 2^31 − 1/2 and above.
    #[inline(always)]
    pub(crate) fn round(self) -> i32 {
        ((self.0.wrapping_add(0x8000_0000) as i64) >> 32) as i32
    }

    /// Signed comparison.
    #[inline(always)]
    pub(crate) fn lt(self, o: Fxr) -> bool {
        (self.0 as i64) < (o.0 as i64)
    }
}

/// A complex number with fixed-point parts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fxc {
    pub(crate) re: Fxr,
    pub(crate) im: Fxr,
}

impl Fxc {
    #[inline(always)]
    fn add(self, o: Fxc) -> Fxc {
        Fxc {
            re: self.re.add(o.re),
            im: self.im.add(o.im),
        }
    }

    #[inline(always)]
    fn sub(self, o: Fxc) -> Fxc {
        Fxc {
            re: self.re.sub(o.re),
            im: self.im.sub(o.im),
        }
    }

    #[inline(always)]
    fn half(self) -> Fxc {
        Fxc {
            re: self.re.half(),
            im: self.im.half(),
        }
    }

    #[inline(always)]
    fn conj(self) -> Fxc {
        Fxc {
            re: self.re,
            im: self.im.neg(),
        }
    }

    /// `(a + ib)(c + id)` with three products: `ac`, `bd`, `(a + b)(c + d)` (the
    /// reference's formula; the truncations make it differ from four products).
    #[inline(always)]
    fn mul(self, o: Fxc) -> Fxc {
        let z0 = self.re.mul(o.re);
        let z1 = self.im.mul(o.im);
        let z2 = self.re.add(self.im).mul(o.re.add(o.im));
        Fxc {
            re: z0.sub(z1),
            im: z2.sub(z0.add(z1)),
        }
    }
}

// ---------------------------------------------------------------------------------
// Twiddle factors, built at compile time.
// ---------------------------------------------------------------------------------

/// π · 2^60 (rounded down).
const PI60: i128 = 3622009729038561421;
const ONE60: i128 = 1 << 60;

/// (cos θ, sin θ) · 2^60 for θ = π·j/1024, 0 <= j <= 512, by Taylor series on 2^-60
/// fixed point (absolute error below 2^-55).
const fn cos_sin_60(j: i128) -> (i128, i128) {
    let x = (PI60 * j) >> 10;
    let x2 = (x * x) >> 60;
    // cos: sum of (-1)^k x^(2k)/(2k)!
    let mut c = 0i128;
    let mut t = ONE60;
    let mut k = 1i128;
    while k < 40 {
        c += t;
        t = -((t * x2) >> 60) / ((2 * k - 1) * (2 * k));
        k += 1;
    }
    // sin: sum of (-1)^k x^(2k+1)/(2k+1)!
    let mut s = 0i128;
    let mut t = x;
    let mut k = 1i128;
    while k < 40 {
        s += t;
        t = -((t * x2) >> 60) / ((2 * k) * (2 * k + 1));
        k += 1;
    }
    (c, s)
}

/// Rounds a 2^-60 fixed-point value to 2^-32 (nearest; no value is close to a tie).
const fn round_to_32(v: i128) -> u64 {
    (((v + (1 << 27)) >> 28) as i64) as u64
}

const fn rev10(k: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 10 {
        r |= ((k >> i) & 1) << (9 - i);
        i += 1;
    }
    r
}

/// `GM[k] = exp(iπ · rev10(k) / 1024)` at 2^-32 precision (the reference table's
/// definition; entry 0 is 1, entry 1 is i).
pub(crate) const GM: [Fxc; 1024] = {
    let mut t = [Fxc {
        re: Fxr(0),
        im: Fxr(0),
    }; 1024];
    let mut k = 0;
    while k < 1024 {
        let j = rev10(k) as i128;
        // cos(π − a) = −cos a, sin(π − a) = sin a keeps the series argument ≤ π/2.
        let (c, s) = if j <= 512 {
            cos_sin_60(j)
        } else {
            let (c, s) = cos_sin_60(1024 - j);
            (-c, s)
        };
        let re = if c < 0 {
            round_to_32(-c).wrapping_neg()
        } else {
            round_to_32(c)
        };
        let im = if s < 0 {
            round_to_32(-s).wrapping_neg()
        } else {
            round_to_32(s)
        };
        t[k] = Fxc {
            re: Fxr(re),
            im: Fxr(im),
        };
        k += 1;
    }
    t
};

// ---------------------------------------------------------------------------------
// Vectors in the FFT domain: n/2 real parts then n/2 imaginary parts (logn >= 1).
// ---------------------------------------------------------------------------------

#[inline(always)]
fn load(f: &[Fxr], j: usize, hn: usize) -> Fxc {
    Fxc {
        re: f[j],
        im: f[j + hn],
    }
}

#[inline(always)]
fn store(f: &mut [Fxr], j: usize, hn: usize, v: Fxc) {
    f[j] = v.re;
    f[j + hn] = v.im;
}

/// Forward FFT in place (real input of n values).
pub(crate) fn fft(logn: u32, f: &mut [Fxr]) {
    let hn = 1usize << (logn - 1);
    let mut t = hn;
    for lm in 1..logn {
        let m = 1usize << lm;
        let ht = t >> 1;
        let mut j0 = 0;
        for i in 0..(m >> 1) {
            let s = GM[m + i];
            for j in j0..(j0 + ht) {
                let x = load(f, j, hn);
                let z = s.mul(load(f, j + ht, hn));
                store(f, j, hn, x.add(z));
                store(f, j + ht, hn, x.sub(z));
            }
            j0 += t;
        }
        t = ht;
    }
}

/// Inverse FFT in place (the halvings are spread over the layers).
pub(crate) fn ifft(logn: u32, f: &mut [Fxr]) {
    let hn = 1usize << (logn - 1);
    let mut ht = 1;
    for lm in (1..logn).rev() {
        let m = 1usize << lm;
        let t = ht << 1;
        let mut j0 = 0;
        for i in 0..(m >> 1) {
            let s = GM[m + i].conj();
            for j in j0..(j0 + ht) {
                let x = load(f, j, hn);
                let y = load(f, j + ht, hn);
                store(f, j, hn, x.add(y).half());
                store(f, j + ht, hn, s.mul(x.sub(y).half()));
            }
            j0 += t;
        }
        ht = t;
    }
}

/// `a ← a·b` (FFT domain).
pub(crate) fn mul_fft(logn: u32, a: &mut [Fxr], b: &[Fxr]) {
    let hn = 1usize << (logn - 1);
    for i in 0..hn {
        let z = load(a, i, hn).mul(load(b, i, hn));
        store(a, i, hn, z);
    }
}

/// `x[i] ← x[i] / y[i]` ([`Fxr::div`]) for every i < x.len(); a leading part by `fk`'s
/// kernel (AVX2: eight at a time, the same 64-step division in four 64-bit lanes,
/// bit-identical).
pub(crate) fn div_many(x: &mut [Fxr], y: &[Fxr], fk: &FnDsaKernels) {
    let done = (fk.div_prefix)(x, y);
    for (a, &b) in x[done..].iter_mut().zip(&y[done..]) {
        *a = a.div(b);
    }
}

/// `a ← a / b` for a self-adjoint b given by its `n/2` real FFT values (two real
/// divisions, as the reference does).
pub(crate) fn div_selfadj_fft(logn: u32, a: &mut [Fxr], b: &[Fxr], fk: &FnDsaKernels) {
    let hn = 1usize << (logn - 1);
    let (re, im) = a[..2 * hn].split_at_mut(hn);
    div_many(re, &b[..hn], fk);
    div_many(im, &b[..hn], fk);
}

/// `a ← 2^e / a` (FFT domain): `2^e·conj(a) / |a|²`.
pub(crate) fn inv_mul2e_fft(logn: u32, a: &mut [Fxr], e: u32, fk: &FnDsaKernels) {
    let hn = 1usize << (logn - 1);
    let mut z = zeroize::Zeroizing::new(alloc::vec![Fxr::ZERO; hn]);
    for i in 0..hn {
        let re = a[i];
        let im = a[i + hn].neg();
        z[i] = a[i].sqr().add(a[i + hn].sqr());
        a[i] = re.mul2e(e);
        a[i + hn] = im.mul2e(e);
    }
    let (re, im) = a[..2 * hn].split_at_mut(hn);
    div_many(re, &z, fk);
    div_many(im, &z, fk);
}

/// Squared norm of the second Gram–Schmidt vector of the NTRU basis of (f, g),
/// `‖q·adj(f)/(f·adj f + g·adj g)‖² + ‖q·adj(g)/(…)‖²`, computed as fn-dsa does, and
/// compared with its bound `(0.999 · 1.17)² · q` (as 32.32 fixed point). `tmp` needs
/// `5n/2` entries. True if (f, g) passes.
pub(crate) fn ortho_norm_ok(
    logn: u32,
    f: &[i8],
    g: &[i8],
    tmp: &mut [Fxr],
    fk: &FnDsaKernels,
) -> bool {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (fx, rest) = tmp.split_at_mut(n);
    let (gx, rest) = rest.split_at_mut(n);
    let inv = &mut rest[..hn];
    for i in 0..n {
        fx[i] = Fxr::of_i32(f[i] as i32);
        gx[i] = Fxr::of_i32(g[i] as i32);
    }
    fft(logn, fx);
    fft(logn, gx);
    // inv = 1/(|f|² + |g|²) (real).
    let mut z = zeroize::Zeroizing::new(alloc::vec![Fxr::ZERO; hn]);
    for i in 0..hn {
        let z1 = fx[i].sqr().add(fx[i + hn].sqr());
        let z2 = gx[i].sqr().add(gx[i + hn].sqr());
        z[i] = z1.add(z2);
        inv[i] = Fxr::of_i32(1);
    }
    div_many(inv, &z, fk);
    let q = Fxr::of_i32(12289);
    for v in [&mut *fx, &mut *gx] {
        // adj, times q, times the real inverse.
        for x in v[hn..].iter_mut() {
            *x = x.neg();
        }
        for x in v.iter_mut() {
            *x = x.mul(q);
        }
        for i in 0..hn {
            v[i] = v[i].mul(inv[i]);
            v[i + hn] = v[i + hn].mul(inv[i]);
        }
        ifft(logn, v);
    }
    let mut sn = Fxr::ZERO;
    for i in 0..n {
        sn = sn.add(fx[i].sqr().add(gx[i].sqr()));
    }
    sn.lt(Fxr(72107278641426))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shift-free `mul2e` is the wrapping shift, for every exponent.
    #[test]
    fn mul2e_is_the_shift() {
        for x in [0u64, 1, 3, 0x8000_0000, 0x1234_5678_9abc_def1, u64::MAX] {
            for e in 0..64 {
                assert_eq!(Fxr(x).mul2e(e).0, x << e, "{x:#x} << {e}");
            }
        }
    }

    #[test]
    fn twiddles_are_correctly_rounded() {
        // Spot values from the definition.
        assert_eq!(GM[0].re.0, 1 << 32);
        assert_eq!(GM[0].im.0, 0);
        assert_eq!(GM[1].re.0, 0);
        assert_eq!(GM[1].im.0, 1 << 32);
        assert_eq!(GM[2].re.0, 3037000500);
        assert_eq!(GM[3].re.0, 3037000500u64.wrapping_neg());
        assert_eq!(GM[4].re.0, 3968032378);
        assert_eq!(GM[4].im.0, 1643612827);
        // Against the binary64 table (correctly rounded cos/sin): rounding that to 2^-32
        // gives the same integers (no entry is within 2^-21 units of a tie).
        for (k, w) in GM.iter().enumerate().skip(2) {
            let (re, im) = crate::kernels::falcon::fft::gm(k);
            let scale = 4294967296.0f64;
            let r = (f64::from_bits(re.to_bits()) * scale).round() as i64;
            let i = (f64::from_bits(im.to_bits()) * scale).round() as i64;
            assert_eq!(w.re.0 as i64, r, "re {k}");
            assert_eq!(w.im.0 as i64, i, "im {k}");
        }
    }

    #[test]
    fn fft_round_trip() {
        let mut st = 1u32;
        for logn in 1..=10 {
            let n = 1usize << logn;
            let v: Vec<i32> = (0..n)
                .map(|_| {
                    st = st.wrapping_mul(1664525).wrapping_add(1013904223);
                    ((st >> 24) as i32) - 128
                })
                .collect();
            let mut f: Vec<Fxr> = v.iter().map(|&x| Fxr::of_i32(x)).collect();
            fft(logn, &mut f);
            ifft(logn, &mut f);
            for i in 0..n {
                let r = ((f[i].0.wrapping_add(1 << 31) as i64) >> 32) as i32;
                assert_eq!(r, v[i]);
            }
        }
    }

    #[test]
    fn batched_division_matches_scalar() {
        let mut st = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            st
        };
        for b in crate::kernels::select::Backend::available() {
            let fk = crate::kernels::falcon::fndsa::kernels(b);
            for len in [1usize, 7, 8, 9, 64, 77] {
                let mut x: Vec<Fxr> = Vec::new();
                let mut y: Vec<Fxr> = Vec::new();
                for k in 0..len {
                    // Typical magnitudes, extremes and sign mixes.
                    let (a, b) = match k % 5 {
                        0 => (next() >> (next() % 40), (next() >> (20 + next() % 40)) | 1),
                        1 => (next(), next() | 1),
                        2 => (next() >> 33, 1u64 << 32),
                        3 => ((next() >> 20).wrapping_neg(), next() >> 25 | 1),
                        _ => (i64::MIN as u64, next() | 1),
                    };
                    x.push(Fxr(a));
                    y.push(Fxr(b));
                }
                let want: Vec<Fxr> = x.iter().zip(&y).map(|(&a, &b)| a.div(b)).collect();
                div_many(&mut x, &y, fk);
                assert_eq!(x, want, "{b} len {len}");
            }
        }
    }

    #[test]
    fn division() {
        let a = Fxr::of_i32(7);
        let b = Fxr::of_i32(-2);
        assert_eq!(a.div(b).0 as i64, -(7i64 << 31));
        assert_eq!(Fxr::of_i32(1).div(Fxr::of_i32(3)).0, 1431655765);
    }
}
