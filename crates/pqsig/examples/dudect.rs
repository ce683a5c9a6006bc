//! Statistical constant-time test in the dudect style (Reparaz, Balasch, Verbauwhede,
//! "Dude, is my code constant time?", 2017): the second method for code valgrind cannot
//! run (AVX-512: valgrind's CPUID hides it, so examples/ct_check.rs covers portable and
//! AVX2 only). Not a timed unit test: a bench-like run, documented in
//! docs/ARCHITECTURE.md ("Secrets and constant time").
//!
//! For each secret-handling kernel of the chosen backend, two classes of inputs are timed
//! in random interleaving: *fixed* (one secret input, reused) and *random* (a fresh
//! secret input each time, prepared outside the timed region). Timings (rdtsc) are cropped
//! at several percentiles (as dudect does, to drop long tails from interrupts) and a
//! Welch t-test compares the classes; |t| > 4.5 on any crop means the time depends on the
//! secret and the run fails (exit 1). A clean run is evidence, not proof: it bounds the
//! leakage that N measurements on this machine can see.
//!
//!   cargo run --release -p pqsig --example dudect -- [--backend avx512|avx2|portable]
//!       [--samples N]     (default: the best available backend, N = 200000 per kernel)
//!
//! Kernels: ML-DSA `ntt`, `pointwise_montgomery`, `chknorm` (the full scan; the bool is
//! public), `decompose`, `caddq`; four- or eight-way Keccak-f[1600] (by backend); SNOVA's
//! GF(16) `gemm_acc` on a secret matrix.

use pqsig::kernels::gf16;
use pqsig::kernels::keccak::x4::{permute4_for, StateX4};
use pqsig::kernels::keccak::x8::{permute8_for, StateX8};
use pqsig::kernels::mldsa::{kernels, Poly, Q};
use pqsig::Backend;
use std::hint::black_box;

/// xorshift64*: the class choice and the random secrets (not cryptographic; it only has
/// to be independent of the timing).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn poly(&mut self, lo: i32, hi: i32) -> Poly {
        let mut p = Poly::default();
        for c in p.coeffs.iter_mut() {
            *c = lo + (self.next() % (hi - lo + 1) as u64) as i32;
        }
        p
    }
}

#[cfg(target_arch = "x86_64")]
fn ticks() -> u64 {
    // SAFETY: rdtsc exists on every x86-64 CPU and touches no memory.
    unsafe { core::arch::x86_64::_rdtsc() }
}
#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> u64 {
    std::time::Instant::now().elapsed().as_nanos() as u64
}

/// Welch's t statistic of two samples.
fn welch(a: &[f64], b: &[f64]) -> f64 {
    let stats = |x: &[f64]| {
        let n = x.len() as f64;
        let m = x.iter().sum::<f64>() / n;
        let v = x.iter().map(|y| (y - m) * (y - m)).sum::<f64>() / (n - 1.0);
        (n, m, v)
    };
    let ((na, ma, va), (nb, mb, vb)) = (stats(a), stats(b));
    (ma - mb) / (va / na + vb / nb).sqrt()
}

/// Times `run` on `samples` inputs, each from `make(class)` (class 0 fixed, 1 random);
/// returns the largest |t| over the crops (all, below the 50/75/90/99th percentiles).
fn test<T>(
    samples: usize,
    rng: &mut Rng,
    mut make: impl FnMut(usize, &mut Rng) -> T,
    mut run: impl FnMut(&mut T),
) -> f64 {
    let mut times: [Vec<f64>; 2] = [Vec::with_capacity(samples), Vec::with_capacity(samples)];
    for _ in 0..samples {
        let class = (rng.next() & 1) as usize;
        let mut input = make(class, rng);
        let t0 = ticks();
        run(black_box(&mut input));
        let t1 = ticks();
        black_box(&input);
        times[class].push(t1.wrapping_sub(t0) as f64);
    }
    let mut all: Vec<f64> = times.iter().flatten().copied().collect();
    all.sort_by(f64::total_cmp);
    let mut worst: f64 = 0.0;
    for pct in [100usize, 99, 90, 75, 50] {
        let cut = all[(all.len() - 1) * pct / 100];
        let crop = |v: &Vec<f64>| {
            v.iter()
                .copied()
                .filter(|&x| x <= cut)
                .collect::<Vec<f64>>()
        };
        let (a, b) = (crop(&times[0]), crop(&times[1]));
        if a.len() > 100 && b.len() > 100 {
            worst = worst.max(welch(&a, &b).abs());
        }
    }
    worst
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let backend = match arg("--backend") {
        Some(s) => Backend::from_name(s).unwrap_or_else(|| {
            eprintln!("dudect: unknown backend {s}");
            std::process::exit(2)
        }),
        None => Backend::available().last().unwrap_or(Backend::Portable),
    };
    if !backend.is_available() {
        eprintln!("dudect: SKIPPED: backend {backend} is not available on this CPU");
        return;
    }
    let samples: usize = arg("--samples")
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let k = kernels(backend);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ticks());
    let q = Q;
    let fixed_poly = rng.poly(-(q - 1), q - 1);
    let fixed_std = rng.poly(0, q - 1);
    let fixed_small = rng.poly(-200_000, 200_000);
    let other = vec![rng.poly(-(q - 1), q - 1); 4];
    let mut results: Vec<(&str, f64)> = Vec::new();

    let pick = |fixed: &Poly, lo: i32, hi: i32| {
        let fixed = *fixed;
        move |class: usize, r: &mut Rng| vec![if class == 0 { fixed } else { r.poly(lo, hi) }; 4]
    };
    results.push((
        "mldsa ntt",
        test(samples, &mut rng, pick(&fixed_poly, -(q - 1), q - 1), |a| {
            (k.ntt)(a)
        }),
    ));
    results.push((
        "mldsa pointwise_montgomery",
        test(samples, &mut rng, pick(&fixed_poly, -(q - 1), q - 1), |a| {
            let mut out = vec![Poly::default(); 4];
            (k.pointwise_montgomery)(&mut out, &other[0], a);
            black_box(&out);
        }),
    ));
    results.push((
        "mldsa chknorm",
        test(
            samples,
            &mut rng,
            pick(&fixed_small, -200_000, 200_000),
            |a| {
                black_box((k.chknorm)(a, 130_000));
            },
        ),
    ));
    results.push((
        "mldsa decompose",
        test(samples, &mut rng, pick(&fixed_std, 0, q - 1), |a| {
            let mut a0 = vec![Poly::default(); 4];
            (k.decompose)((q - 1) / 32, a, &mut a0);
            black_box(&a0);
        }),
    ));
    results.push((
        "mldsa caddq",
        test(samples, &mut rng, pick(&fixed_poly, -(q - 1), q - 1), |a| {
            (k.caddq)(a)
        }),
    ));

    let fixed_lanes: Vec<u64> = (0..200).map(|_| rng.next()).collect();
    if backend == Backend::Avx512 {
        let permute = permute8_for(backend);
        let make = |class: usize, r: &mut Rng| {
            let mut st = StateX8::default();
            for (i, w) in st.s.iter_mut().flatten().enumerate() {
                *w = if class == 0 { fixed_lanes[i] } else { r.next() };
            }
            st
        };
        results.push(("keccak x8", test(samples, &mut rng, make, permute)));
    } else {
        let permute = permute4_for(backend);
        let make = |class: usize, r: &mut Rng| {
            let mut st = StateX4::default();
            for (i, w) in st.s.iter_mut().flatten().enumerate() {
                *w = if class == 0 { fixed_lanes[i] } else { r.next() };
            }
            st
        };
        results.push(("keccak x4", test(samples, &mut rng, make, permute)));
    }

    let g = gf16::kernels(backend);
    let (m, kk, n) = (16usize, 16usize, 64usize);
    let fixed_a: Vec<u8> = (0..m * kk).map(|_| (rng.next() & 15) as u8).collect();
    let b: Vec<u8> = (0..kk * n).map(|_| (rng.next() & 15) as u8).collect();
    results.push((
        "gf16 gemm_acc",
        test(
            samples,
            &mut rng,
            |class, r| {
                if class == 0 {
                    fixed_a.clone()
                } else {
                    (0..m * kk).map(|_| (r.next() & 15) as u8).collect()
                }
            },
            |a| {
                let mut c = vec![0u8; m * n];
                (g.gemm_acc)(&mut c, n, a, kk, 1, &b, n, m, kk, n);
                black_box(&c);
            },
        ),
    ));

    let mut leak = false;
    println!("dudect: backend {backend}, {samples} samples per kernel (|t| > 4.5 = leak)");
    for (name, t) in &results {
        let verdict = if *t > 4.5 { "LEAK?" } else { "ok" };
        leak |= *t > 4.5;
        println!("  {name:<28} max |t| = {t:6.2}  {verdict}");
    }
    if leak {
        eprintln!("dudect: FAILED: a kernel's time depends on its secret input (rerun to confirm)");
        std::process::exit(1);
    }
}
