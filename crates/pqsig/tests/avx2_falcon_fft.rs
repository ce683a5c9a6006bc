//! The Falcon FFT kernels of the SIMD backends against portable, bit for bit, on random
//! inputs for every logn in 1..=10. The avx512 backend reuses the AVX2 table (in
//! emulated-float builds both are the portable table). One body per kernel group, taking
//! the table under test; the modules `avx2` and `avx512` at the end call every body.
//! Their tests are ignored where the build host lacks the ISA (build.rs) and fail where
//! the running CPU lacks it.

mod common;

use common::XorShift;
use pqsig::kernels::falcon::fft::{kernels, FftKernels};
use pqsig::kernels::falcon::fpr::Fpr;
use pqsig::Backend;

/// A random finite value: random sign and 52-bit mantissa, exponent in 2^-30..2^30;
/// about one in 16 is ±0 unless `nonzero`.
fn value(rng: &mut XorShift, nonzero: bool) -> Fpr {
    let r = rng.next();
    if !nonzero && r & 15 == 0 {
        return Fpr::from_bits((r >> 4 & 1) << 63);
    }
    let sign = (r >> 63) << 63;
    let exp = 1023 - 30 + (r >> 52 & 63) % 61;
    Fpr::from_bits(sign | exp << 52 | (rng.next() >> 12))
}

fn vec_of(rng: &mut XorShift, len: usize, nonzero: bool) -> Vec<Fpr> {
    (0..len).map(|_| value(rng, nonzero)).collect()
}

fn bits(v: &[Fpr]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Extra entries past the required length: the kernels must leave them alone.
const PAD: usize = 3;

/// Runs `op` on copies of the same inputs with the portable table and `k`, and
/// compares every output bit for bit (padding included).
fn check(
    k: &FftKernels,
    name: &str,
    iters: usize,
    mut op: impl FnMut(&FftKernels, &mut XorShift, u32) -> Vec<Vec<Fpr>>,
) {
    let p = kernels(Backend::Portable);
    let b = k.backend;
    for logn in 1..=10u32 {
        for it in 0..iters {
            let seed = 0x9E37_79B9_7F4A_7C15 ^ ((logn as u64) << 32) ^ it as u64;
            let want = op(p, &mut XorShift(seed), logn);
            let got = op(k, &mut XorShift(seed), logn);
            for (i, (w, g)) in want.iter().zip(&got).enumerate() {
                assert_eq!(
                    bits(g),
                    bits(w),
                    "{name}: backend {b}, logn {logn}, iteration {it}, output {i}"
                );
            }
        }
    }
}

const ITERS: usize = 20;

fn fft_and_ifft(k: &FftKernels) {
    check(k, "fft", ITERS, |k, rng, logn| {
        let mut f = vec_of(rng, (1 << logn) + PAD, false);
        (k.fft)(&mut f, logn);
        vec![f]
    });
    check(k, "ifft", ITERS, |k, rng, logn| {
        let mut f = vec_of(rng, (1 << logn) + PAD, false);
        (k.ifft)(&mut f, logn);
        vec![f]
    });
    check(k, "fft then ifft", ITERS, |k, rng, logn| {
        let mut f = vec_of(rng, (1 << logn) + PAD, false);
        (k.fft)(&mut f, logn);
        let g = f.clone();
        (k.ifft)(&mut f, logn);
        vec![g, f]
    });
}

fn linear_operations(k: &FftKernels) {
    check(k, "add", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_add)(&mut a, &b, logn);
        vec![a]
    });
    check(k, "sub", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_sub)(&mut a, &b, logn);
        vec![a]
    });
    check(k, "neg", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        (k.poly_neg)(&mut a, logn);
        vec![a]
    });
    check(k, "adj", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        (k.poly_adj_fft)(&mut a, logn);
        vec![a]
    });
    check(k, "mulconst", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        let x = value(rng, false);
        (k.poly_mulconst)(&mut a, x, logn);
        vec![a]
    });
}

fn products_and_quotients(k: &FftKernels) {
    check(k, "mul", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_mul_fft)(&mut a, &b, logn);
        vec![a]
    });
    check(k, "muladj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_muladj_fft)(&mut a, &b, logn);
        vec![a]
    });
    check(k, "mulselfadj", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        (k.poly_mulselfadj_fft)(&mut a, logn);
        vec![a]
    });
    check(k, "div", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, true));
        (k.poly_div_fft)(&mut a, &b, logn);
        vec![a]
    });
    check(k, "invnorm2", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (a, b) = (vec_of(rng, n, true), vec_of(rng, n, false));
        let mut d = vec_of(rng, n / 2 + PAD, false);
        (k.poly_invnorm2_fft)(&mut d, &a, &b, logn);
        vec![d]
    });
    check(k, "add_muladj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let v: Vec<Vec<Fpr>> = (0..4).map(|_| vec_of(rng, n, false)).collect();
        let mut d = vec_of(rng, n + PAD, false);
        (k.poly_add_muladj_fft)(&mut d, &v[0], &v[1], &v[2], &v[3], logn);
        vec![d]
    });
    check(k, "mul_autoadj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n / 2, false));
        (k.poly_mul_autoadj_fft)(&mut a, &b, logn);
        vec![a]
    });
    check(k, "div_autoadj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n / 2, true));
        (k.poly_div_autoadj_fft)(&mut a, &b, logn);
        vec![a]
    });
}

fn ldl(k: &FftKernels) {
    check(k, "ldl", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let g00 = vec_of(rng, n, true);
        let (mut g01, mut g11) = (vec_of(rng, n + PAD, false), vec_of(rng, n + PAD, false));
        (k.poly_ldl_fft)(&g00, &mut g01, &mut g11, logn);
        vec![g01, g11]
    });
    check(k, "ldlmv", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let g00 = vec_of(rng, n, true);
        let (g01, g11) = (vec_of(rng, n, false), vec_of(rng, n, false));
        let (mut d11, mut l10) = (vec_of(rng, n + PAD, false), vec_of(rng, n + PAD, false));
        (k.poly_ldlmv_fft)(&mut d11, &mut l10, &g00, &g01, &g11, logn);
        vec![d11, l10]
    });
}

fn split_and_merge(k: &FftKernels) {
    check(k, "split", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let f = vec_of(rng, n, false);
        let (mut f0, mut f1) = (
            vec_of(rng, n / 2 + PAD, false),
            vec_of(rng, n / 2 + PAD, false),
        );
        (k.poly_split_fft)(&mut f0, &mut f1, &f, logn);
        vec![f0, f1]
    });
    check(k, "merge", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (f0, f1) = (vec_of(rng, n / 2, false), vec_of(rng, n / 2, false));
        let mut f = vec_of(rng, n + PAD, false);
        (k.poly_merge_fft)(&mut f, &f0, &f1, logn);
        vec![f]
    });
}

/// The bodies above on the AVX2 backend's table.
mod avx2 {
    use super::*;

    /// The AVX2 backend's table (asserting that this CPU has AVX2): the AVX2 build, or
    /// portable in emulated-float builds.
    fn table() -> &'static FftKernels {
        common::require(Backend::Avx2);
        let k = kernels(Backend::Avx2);
        let want = if cfg!(feature = "fpr-emulated") {
            Backend::Portable
        } else {
            Backend::Avx2
        };
        assert_eq!(k.backend, want);
        k
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn fft_and_ifft() {
        super::fft_and_ifft(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn linear_operations() {
        super::linear_operations(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn products_and_quotients() {
        super::products_and_quotients(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn ldl() {
        super::ldl(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn split_and_merge() {
        super::split_and_merge(table());
    }
}

/// The bodies above on the AVX-512 backend's table.
mod avx512 {
    use super::*;

    /// The AVX-512 backend's table (asserting that this CPU has AVX-512): the AVX2 build, or
    /// portable in emulated-float builds.
    fn table() -> &'static FftKernels {
        common::require(Backend::Avx512);
        let k = kernels(Backend::Avx512);
        let want = if cfg!(feature = "fpr-emulated") {
            Backend::Portable
        } else {
            Backend::Avx2
        };
        assert_eq!(k.backend, want);
        k
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn fft_and_ifft() {
        super::fft_and_ifft(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn linear_operations() {
        super::linear_operations(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn products_and_quotients() {
        super::products_and_quotients(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn ldl() {
        super::ldl(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn split_and_merge() {
        super::split_and_merge(table());
    }
}
