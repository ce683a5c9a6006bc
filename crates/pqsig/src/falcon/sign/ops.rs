//! The FFT-domain operations ffSampling needs, behind one trait so that its recursion can
//! run the large levels through the backend's kernel table and the small ones through
//! inlined scalar code: below degree 2^[`INLINE_MAX_LOGN`] a kernel call costs more than
//! the arithmetic it does, and ffSampling makes thousands of such calls per signature.
//!
//! The inlined versions perform the round-3 reference's operations (`fft.c`) in its order
//! with the same twiddles (`fft::gm`), like every FFT backend: results are bit-identical
//! (tested against the portable kernels).

use crate::kernels::falcon::fft::{gm, FftKernels};
use crate::kernels::falcon::fpr::Fpr;

/// Largest logn handled by [`Inline`] inside the recursions.
pub(crate) const INLINE_MAX_LOGN: u32 = 4;

/// Split, merge, add, sub, product and LDL in the FFT domain (semantics of the
/// same-named `fft` kernels).
pub(crate) trait PolyOps {
    fn split(&self, f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], logn: u32);
    fn merge(&self, f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr], logn: u32);
    fn add(&self, a: &mut [Fpr], b: &[Fpr], logn: u32);
    fn sub(&self, a: &mut [Fpr], b: &[Fpr], logn: u32);
    fn mul(&self, a: &mut [Fpr], b: &[Fpr], logn: u32);
    fn ldl(&self, g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], logn: u32);
}

/// Through a backend's kernel table.
pub(crate) struct Table(pub &'static FftKernels);

impl PolyOps for Table {
    #[inline(always)]
    fn split(&self, f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], logn: u32) {
        (self.0.poly_split_fft)(f0, f1, f, logn)
    }
    #[inline(always)]
    fn merge(&self, f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr], logn: u32) {
        (self.0.poly_merge_fft)(f, f0, f1, logn)
    }
    #[inline(always)]
    fn add(&self, a: &mut [Fpr], b: &[Fpr], logn: u32) {
        (self.0.poly_add)(a, b, logn)
    }
    #[inline(always)]
    fn sub(&self, a: &mut [Fpr], b: &[Fpr], logn: u32) {
        (self.0.poly_sub)(a, b, logn)
    }
    #[inline(always)]
    fn mul(&self, a: &mut [Fpr], b: &[Fpr], logn: u32) {
        (self.0.poly_mul_fft)(a, b, logn)
    }
    #[inline(always)]
    fn ldl(&self, g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], logn: u32) {
        (self.0.poly_ldl_fft)(g00, g01, g11, logn)
    }
}

/// Scalar code inlined into the recursion (for logn <= [`INLINE_MAX_LOGN`]).
pub(crate) struct Inline;

#[inline(always)]
fn cmul(a_re: Fpr, a_im: Fpr, b_re: Fpr, b_im: Fpr) -> (Fpr, Fpr) {
    (
        a_re.mul(b_re).sub(a_im.mul(b_im)),
        a_re.mul(b_im).add(a_im.mul(b_re)),
    )
}

impl PolyOps for Inline {
    #[inline(always)]
    fn split(&self, f0: &mut [Fpr], f1: &mut [Fpr], f: &[Fpr], logn: u32) {
        let n = 1usize << logn;
        let hn = n >> 1;
        let qn = hn >> 1;
        if qn == 0 {
            f0[0] = f[0];
            f1[0] = f[1];
            return;
        }
        let (fre, fim) = f[..n].split_at(hn);
        let (f0re, f0im) = f0[..hn].split_at_mut(qn);
        let (f1re, f1im) = f1[..hn].split_at_mut(qn);
        for u in 0..qn {
            let (a_re, a_im) = (fre[2 * u], fim[2 * u]);
            let (b_re, b_im) = (fre[2 * u + 1], fim[2 * u + 1]);
            f0re[u] = a_re.add(b_re).half();
            f0im[u] = a_im.add(b_im).half();
            let (s_re, s_im) = gm(u + hn);
            let (t_re, t_im) = cmul(a_re.sub(b_re), a_im.sub(b_im), s_re, s_im.neg());
            f1re[u] = t_re.half();
            f1im[u] = t_im.half();
        }
    }

    #[inline(always)]
    fn merge(&self, f: &mut [Fpr], f0: &[Fpr], f1: &[Fpr], logn: u32) {
        let n = 1usize << logn;
        let hn = n >> 1;
        let qn = hn >> 1;
        let (fre, fim) = f[..n].split_at_mut(hn);
        if qn == 0 {
            fre[0] = f0[0];
            fim[0] = f1[0];
            return;
        }
        let (f0re, f0im) = f0[..hn].split_at(qn);
        let (f1re, f1im) = f1[..hn].split_at(qn);
        for u in 0..qn {
            let (a_re, a_im) = (f0re[u], f0im[u]);
            let (s_re, s_im) = gm(u + hn);
            let (b_re, b_im) = cmul(f1re[u], f1im[u], s_re, s_im);
            fre[2 * u] = a_re.add(b_re);
            fim[2 * u] = a_im.add(b_im);
            fre[2 * u + 1] = a_re.sub(b_re);
            fim[2 * u + 1] = a_im.sub(b_im);
        }
    }

    #[inline(always)]
    fn add(&self, a: &mut [Fpr], b: &[Fpr], logn: u32) {
        let n = 1usize << logn;
        for (x, &y) in a[..n].iter_mut().zip(&b[..n]) {
            *x = x.add(y);
        }
    }

    #[inline(always)]
    fn sub(&self, a: &mut [Fpr], b: &[Fpr], logn: u32) {
        let n = 1usize << logn;
        for (x, &y) in a[..n].iter_mut().zip(&b[..n]) {
            *x = x.sub(y);
        }
    }

    #[inline(always)]
    fn mul(&self, a: &mut [Fpr], b: &[Fpr], logn: u32) {
        let hn = 1usize << (logn - 1);
        let (are, aim) = a[..2 * hn].split_at_mut(hn);
        let (bre, bim) = b[..2 * hn].split_at(hn);
        for u in 0..hn {
            (are[u], aim[u]) = cmul(are[u], aim[u], bre[u], bim[u]);
        }
    }

    #[inline(always)]
    fn ldl(&self, g00: &[Fpr], g01: &mut [Fpr], g11: &mut [Fpr], logn: u32) {
        let hn = 1usize << (logn - 1);
        let (g00re, g00im) = g00[..2 * hn].split_at(hn);
        let (g01re, g01im) = g01[..2 * hn].split_at_mut(hn);
        let (g11re, g11im) = g11[..2 * hn].split_at_mut(hn);
        for u in 0..hn {
            let (o_re, o_im) = (g01re[u], g01im[u]);
            // o / g00: the inverse of |g00|², then the product with conj(g00).
            let (b_re, b_im) = (g00re[u], g00im[u]);
            let m = b_re.sqr().add(b_im.sqr()).inv();
            let (mu_re, mu_im) = cmul(o_re, o_im, b_re.mul(m), b_im.neg().mul(m));
            let (p_re, p_im) = cmul(mu_re, mu_im, o_re, o_im.neg());
            g11re[u] = g11re[u].sub(p_re);
            g11im[u] = g11im[u].sub(p_im);
            g01re[u] = mu_re;
            g01im[u] = mu_im.neg();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::falcon::fft::PORTABLE;

    fn rand_poly(seed: &mut u64, n: usize) -> alloc::vec::Vec<Fpr> {
        (0..n)
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                Fpr::scaled((*seed >> 11) as i64 - (1 << 52), -40)
            })
            .collect()
    }

    fn bits(v: &[Fpr]) -> alloc::vec::Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// The inlined operations equal the portable kernels bit for bit.
    #[test]
    fn inline_matches_portable() {
        let t = Table(&PORTABLE);
        let mut seed = 0x0123_4567_89AB_CDEFu64;
        for logn in 1..=INLINE_MAX_LOGN + 1 {
            let n = 1usize << logn;
            let hn = n / 2;
            for _ in 0..200 {
                let a = rand_poly(&mut seed, n);
                let b = rand_poly(&mut seed, n);
                let c = rand_poly(&mut seed, n);
                for op in 0..4 {
                    let (mut x, mut y) = (a.clone(), a.clone());
                    match op {
                        0 => (t.add(&mut x, &b, logn), Inline.add(&mut y, &b, logn)),
                        1 => (t.sub(&mut x, &b, logn), Inline.sub(&mut y, &b, logn)),
                        2 => (t.mul(&mut x, &b, logn), Inline.mul(&mut y, &b, logn)),
                        _ => {
                            let (mut x1, mut y1) = (c.clone(), c.clone());
                            t.ldl(&b, &mut x, &mut x1, logn);
                            Inline.ldl(&b, &mut y, &mut y1, logn);
                            assert_eq!(bits(&x1), bits(&y1), "ldl d11, logn {logn}");
                            ((), ())
                        }
                    };
                    assert_eq!(bits(&x), bits(&y), "op {op}, logn {logn}");
                }
                let (mut p0, mut p1) = (
                    alloc::vec![Fpr::default(); hn],
                    alloc::vec![Fpr::default(); hn],
                );
                let (mut q0, mut q1) = (p0.clone(), p1.clone());
                t.split(&mut p0, &mut p1, &a, logn);
                Inline.split(&mut q0, &mut q1, &a, logn);
                assert_eq!(
                    (bits(&p0), bits(&p1)),
                    (bits(&q0), bits(&q1)),
                    "split, logn {logn}"
                );
                let (mut m, mut m2) = (
                    alloc::vec![Fpr::default(); n],
                    alloc::vec![Fpr::default(); n],
                );
                t.merge(&mut m, &b[..hn], &b[hn..], logn);
                Inline.merge(&mut m2, &b[..hn], &b[hn..], logn);
                assert_eq!(bits(&m), bits(&m2), "merge, logn {logn}");
            }
        }
    }
}
