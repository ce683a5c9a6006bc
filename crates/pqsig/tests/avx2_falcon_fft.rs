//! The AVX2 (and AVX-512, which reuses it) Falcon FFT kernels against portable, bit for
//! bit, on random inputs for every logn in 1..=10. Skipped where the CPU lacks AVX2 (the
//! tables are then the portable one anyway).

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

fn simd_tables() -> Vec<(Backend, &'static FftKernels)> {
    let v: Vec<_> = [Backend::Avx2, Backend::Avx512]
        .into_iter()
        .filter(|b| b.is_available())
        .map(|b| (b, kernels(b)))
        .collect();
    if v.is_empty() {
        eprintln!("AVX2 not available: nothing to compare");
    }
    v
}

/// Runs `op` on copies of the same inputs with both tables and compares every output
/// bit for bit (padding included).
fn check(
    name: &str,
    iters: usize,
    mut op: impl FnMut(&FftKernels, &mut XorShift, u32) -> Vec<Vec<Fpr>>,
) {
    let p = kernels(Backend::Portable);
    for (b, k) in simd_tables() {
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
}

const ITERS: usize = 20;

#[test]
fn fft_and_ifft() {
    check("fft", ITERS, |k, rng, logn| {
        let mut f = vec_of(rng, (1 << logn) + PAD, false);
        (k.fft)(&mut f, logn);
        vec![f]
    });
    check("ifft", ITERS, |k, rng, logn| {
        let mut f = vec_of(rng, (1 << logn) + PAD, false);
        (k.ifft)(&mut f, logn);
        vec![f]
    });
    check("fft then ifft", ITERS, |k, rng, logn| {
        let mut f = vec_of(rng, (1 << logn) + PAD, false);
        (k.fft)(&mut f, logn);
        let g = f.clone();
        (k.ifft)(&mut f, logn);
        vec![g, f]
    });
}

#[test]
fn linear_operations() {
    check("add", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_add)(&mut a, &b, logn);
        vec![a]
    });
    check("sub", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_sub)(&mut a, &b, logn);
        vec![a]
    });
    check("neg", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        (k.poly_neg)(&mut a, logn);
        vec![a]
    });
    check("adj", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        (k.poly_adj_fft)(&mut a, logn);
        vec![a]
    });
    check("mulconst", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        let x = value(rng, false);
        (k.poly_mulconst)(&mut a, x, logn);
        vec![a]
    });
}

#[test]
fn products_and_quotients() {
    check("mul", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_mul_fft)(&mut a, &b, logn);
        vec![a]
    });
    check("muladj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, false));
        (k.poly_muladj_fft)(&mut a, &b, logn);
        vec![a]
    });
    check("mulselfadj", ITERS, |k, rng, logn| {
        let mut a = vec_of(rng, (1 << logn) + PAD, false);
        (k.poly_mulselfadj_fft)(&mut a, logn);
        vec![a]
    });
    check("div", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n, true));
        (k.poly_div_fft)(&mut a, &b, logn);
        vec![a]
    });
    check("invnorm2", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (a, b) = (vec_of(rng, n, true), vec_of(rng, n, false));
        let mut d = vec_of(rng, n / 2 + PAD, false);
        (k.poly_invnorm2_fft)(&mut d, &a, &b, logn);
        vec![d]
    });
    check("add_muladj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let v: Vec<Vec<Fpr>> = (0..4).map(|_| vec_of(rng, n, false)).collect();
        let mut d = vec_of(rng, n + PAD, false);
        (k.poly_add_muladj_fft)(&mut d, &v[0], &v[1], &v[2], &v[3], logn);
        vec![d]
    });
    check("mul_autoadj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n / 2, false));
        (k.poly_mul_autoadj_fft)(&mut a, &b, logn);
        vec![a]
    });
    check("div_autoadj", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (mut a, b) = (vec_of(rng, n + PAD, false), vec_of(rng, n / 2, true));
        (k.poly_div_autoadj_fft)(&mut a, &b, logn);
        vec![a]
    });
}

#[test]
fn ldl() {
    check("ldl", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let g00 = vec_of(rng, n, true);
        let (mut g01, mut g11) = (vec_of(rng, n + PAD, false), vec_of(rng, n + PAD, false));
        (k.poly_ldl_fft)(&g00, &mut g01, &mut g11, logn);
        vec![g01, g11]
    });
    check("ldlmv", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let g00 = vec_of(rng, n, true);
        let (g01, g11) = (vec_of(rng, n, false), vec_of(rng, n, false));
        let (mut d11, mut l10) = (vec_of(rng, n + PAD, false), vec_of(rng, n + PAD, false));
        (k.poly_ldlmv_fft)(&mut d11, &mut l10, &g00, &g01, &g11, logn);
        vec![d11, l10]
    });
}

#[test]
fn split_and_merge() {
    check("split", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let f = vec_of(rng, n, false);
        let (mut f0, mut f1) = (
            vec_of(rng, n / 2 + PAD, false),
            vec_of(rng, n / 2 + PAD, false),
        );
        (k.poly_split_fft)(&mut f0, &mut f1, &f, logn);
        vec![f0, f1]
    });
    check("merge", ITERS, |k, rng, logn| {
        let n = 1 << logn;
        let (f0, f1) = (vec_of(rng, n / 2, false), vec_of(rng, n / 2, false));
        let mut f = vec_of(rng, n + PAD, false);
        (k.poly_merge_fft)(&mut f, &f0, &f1, logn);
        vec![f]
    });
}

#[test]
fn simd_table_is_selected_when_available() {
    for (b, k) in simd_tables() {
        if cfg!(feature = "fpr-emulated") {
            assert_eq!(
                k.backend,
                Backend::Portable,
                "{b}: emulated builds use portable"
            );
        } else {
            assert_eq!(k.backend, Backend::Avx2, "{b}");
        }
    }
}
