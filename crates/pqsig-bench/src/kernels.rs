//! Kernels alone, per backend: a table of (alg, op, backend, unit).
//!
//! * ML-DSA: `ntt`, `intt` on one polynomial per call;
//! * Falcon (alg `Falcon-512` / `Falcon-1024`): `fft`, `ifft` on one polynomial of the
//!   degree per call, and `samplerz`, the kernel side of SamplerZ (base sampler + BerExp)
//!   on requests of realistic centre and σ, per request.
//!
//! To add a kernel (e.g. SNOVA `gf16_matmul`), push one [`KernelCase`] per available
//! backend in [`cases`]: for an in-place kernel over slices [`SliceKernel`] does
//! everything; for other data write a small [`Unit`] that refreshes its inputs in
//! `before` (untimed) and makes `ops_per_sample` calls in `run`. Cases with the same
//! (alg, op) are measured interleaved with each other.

use crate::measure::Unit;
use crate::peers::fixture::SplitMix;
use pqsig::kernels::falcon::fft as kfft;
use pqsig::kernels::falcon::fpr::{self, Fpr};
use pqsig::kernels::falcon::samplerz::{self as ksz, Refill, Request, Stream, Window, WINDOW};
use pqsig::kernels::mldsa::{self as km, Poly, N, Q};
use pqsig::Backend;

/// One kernel on one backend.
pub struct KernelCase {
    /// Report name of the scheme ("ML-DSA"; "Falcon-512" / "Falcon-1024"; later "SNOVA").
    pub alg: &'static str,
    pub op: &'static str,
    pub backend: String,
    /// What one operation is and how samples are taken (the `note` column).
    pub note: String,
    /// Falcon: the binary64 implementation of this build.
    pub fpr: Option<&'static str>,
    pub unit: Box<dyn Unit>,
}

/// Calls per sample: one call is too short to time alone, so a sample times this many
/// calls (each on its own one-polynomial slice) and reports the mean per call.
pub const CALLS_PER_SAMPLE: usize = 16;

/// Every kernel case, in report order.
pub fn cases() -> Vec<KernelCase> {
    let mut v = Vec::new();
    let backends: Vec<Backend> = Backend::available().collect();
    mldsa_cases(&backends, &mut v);
    falcon_cases(&backends, &mut v);
    v
}

fn mldsa_cases(backends: &[Backend], v: &mut Vec<KernelCase>) {
    type Pick = fn(&'static km::Kernels) -> fn(&mut [Poly]);
    let ops: [(&'static str, Pick, u64); 2] =
        [("ntt", |k| k.ntt, 1), ("intt", |k| k.invntt_tomont, 2)];
    for (op, pick, seed) in ops {
        for &b in backends {
            let f = pick(km::kernels(b));
            v.push(KernelCase {
                alg: "ML-DSA",
                op,
                backend: b.name().into(),
                note: format!("1 poly/call, mean of {CALLS_PER_SAMPLE} calls/sample"),
                fpr: None,
                unit: Box::new(SliceKernel::new(1, mldsa_polys(seed), f)),
            });
        }
    }
}

fn falcon_cases(backends: &[Backend], v: &mut Vec<KernelCase>) {
    for (alg, logn) in [("Falcon-512", 9u32), ("Falcon-1024", 10)] {
        let n = 1usize << logn;
        for (op, seed) in [("fft", 3u64), ("ifft", 4)] {
            for &b in backends {
                let k = kfft::kernels(b);
                let f = if op == "fft" { k.fft } else { k.ifft };
                v.push(KernelCase {
                    alg,
                    op,
                    backend: b.name().into(),
                    note: format!("1 poly (n = {n})/call, mean of {CALLS_PER_SAMPLE} calls/sample"),
                    fpr: Some(fpr::FPR_IMPL),
                    unit: Box::new(SliceKernel::new(
                        n,
                        fft_inputs(n, seed),
                        move |p: &mut [Fpr]| f(p, logn),
                    )),
                });
            }
        }
        for &b in backends {
            let s = SamplerZ::new(b, logn);
            v.push(KernelCase {
                alg,
                op: "samplerz",
                backend: b.name().into(),
                note: format!(
                    "per request ({} per call, the signer's shape; {} per sample)",
                    SamplerZ::BATCH,
                    SamplerZ::PER_SAMPLE
                ),
                fpr: Some(fpr::FPR_IMPL),
                unit: Box::new(s),
            });
        }
    }
}

/// `CALLS_PER_SAMPLE` ML-DSA polynomials, coefficients uniform in (−q, q) (valid for
/// `ntt` and `invntt_tomont`).
fn mldsa_polys(seed: u64) -> Vec<Poly> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut src = vec![Poly::default(); CALLS_PER_SAMPLE];
    for p in src.iter_mut() {
        for c in p.coeffs.iter_mut().take(N) {
            // xorshift64*
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            let r = s.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
            *c = (r % (2 * Q as u64 - 1)) as i32 - (Q - 1);
        }
    }
    src
}

/// `CALLS_PER_SAMPLE` polynomials of n values for the FFT kernels: integers in
/// [−2^11, 2^11] like the short vectors and targets Falcon transforms (for `ifft`, the
/// values are then taken as an FFT representation, which is as good an input: the
/// operation count does not depend on the values, and no value is subnormal).
fn fft_inputs(n: usize, seed: u64) -> Vec<Fpr> {
    let mut rng = SplitMix(seed);
    (0..n * CALLS_PER_SAMPLE)
        .map(|_| Fpr::of((rng.next() % 4097) as i64 - 2048))
        .collect()
}

/// An in-place kernel over slices of `len` elements: each sample makes
/// [`CALLS_PER_SAMPLE`] calls, each on its own slice of a fresh copy of the inputs (so no
/// call sees another call's output).
pub struct SliceKernel<T: Copy, F: Fn(&mut [T])> {
    f: F,
    len: usize,
    src: Vec<T>,
    work: Vec<T>,
}

impl<T: Copy, F: Fn(&mut [T])> SliceKernel<T, F> {
    pub fn new(len: usize, src: Vec<T>, f: F) -> Self {
        assert_eq!(src.len(), len * CALLS_PER_SAMPLE);
        let work = src.clone();
        SliceKernel { f, len, src, work }
    }
}

impl<T: Copy, F: Fn(&mut [T])> Unit for SliceKernel<T, F> {
    fn before(&mut self, _j: usize) {
        self.work.copy_from_slice(&self.src);
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        for c in self.work.chunks_exact_mut(self.len) {
            (self.f)(std::hint::black_box(c));
        }
    }
    fn ops_per_sample(&self) -> usize {
        CALLS_PER_SAMPLE
    }
}

/// Random windows handed out in turn: the "software side" reduced to a copy, so that the
/// sample times the kernel side alone (the signer's ChaCha20 refill is not timed here).
struct WindowPool {
    windows: Vec<[u8; WINDOW]>,
    next: usize,
}

impl Refill for WindowPool {
    fn refill(&mut self, window: &mut [u8; WINDOW]) {
        window.copy_from_slice(&self.windows[self.next]);
        self.next = (self.next + 1) % self.windows.len();
    }
}

/// SamplerZ kernel on requests shaped as the signer makes them: pairs (the real and
/// imaginary leaf of one ffSampling step) sharing one 1/σ, σ uniform in
/// [σ_min, σ_0 = 1.8205] (the leaf widths of Falcon keys lie in that range), centres
/// uniform in [−2^11, 2^11) with a random fractional part. The random stream continues
/// from sample to sample (refilled from a pool of precomputed windows).
pub struct SamplerZ {
    k: &'static ksz::SamplerKernels,
    sigma_min: Fpr,
    reqs: Vec<Request>,
    out: Vec<i32>,
    /// Next request to use (the pool is cycled).
    at: usize,
    window: Window,
    pool: WindowPool,
}

impl SamplerZ {
    /// Requests per kernel call.
    pub const BATCH: usize = 2;
    /// Requests per sample.
    const PER_SAMPLE: usize = 64;
    /// Distinct requests (cycled).
    const POOL: usize = 4096;

    pub fn new(b: Backend, logn: u32) -> Self {
        let mut rng = SplitMix(0x5a3b_1e72 + logn as u64);
        let sigma_min = fpr::SIGMA_MIN[logn as usize];
        let smin = f64::from_bits(sigma_min.to_bits());
        let f = |x: f64| Fpr::from_bits(x.to_bits());
        let mut reqs = Vec::with_capacity(Self::POOL);
        while reqs.len() < Self::POOL {
            let sigma = smin + (1.8205 - smin) * rng.unit();
            let isigma = f(1.0 / sigma);
            for _ in 0..Self::BATCH {
                let mu = f((rng.unit() - 0.5) * 4096.0);
                reqs.push(Request { mu, isigma });
            }
        }
        let windows = (0..64)
            .map(|_| {
                let mut w = [0u8; WINDOW];
                rng.fill(&mut w);
                w
            })
            .collect();
        SamplerZ {
            k: ksz::kernels(b),
            sigma_min,
            reqs,
            out: vec![0; Self::PER_SAMPLE],
            at: 0,
            window: Window::default(),
            pool: WindowPool { windows, next: 0 },
        }
    }
}

impl Unit for SamplerZ {
    fn before(&mut self, _j: usize) {
        self.at = (self.at + Self::PER_SAMPLE) % Self::POOL;
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        let reqs = &self.reqs[self.at..self.at + Self::PER_SAMPLE];
        let mut stream = Stream {
            window: &mut self.window,
            source: &mut self.pool,
        };
        for (r, o) in reqs
            .chunks_exact(Self::BATCH)
            .zip(self.out.chunks_exact_mut(Self::BATCH))
        {
            (self.k.sample)(&mut stream, self.sigma_min, std::hint::black_box(r), o);
        }
        std::hint::black_box(&self.out);
    }
    fn ops_per_sample(&self) -> usize {
        Self::PER_SAMPLE
    }
}
