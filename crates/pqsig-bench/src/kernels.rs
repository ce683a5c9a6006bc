//! Kernels alone, per backend: a table of (alg, op, backend, unit).
//!
//! To add a kernel (e.g. Falcon `fft` / `ifft` / `samplerz`, SNOVA `gf16_matmul`), push one
//! [`KernelCase`] per available backend in [`cases`]: for a kernel over ML-DSA polynomials
//! [`PolyKernel`] does everything; for other data write a small [`Unit`] that refreshes its
//! inputs in `before` (untimed) and makes `ops_per_sample` calls in `run`. Cases with the
//! same (alg, op) are measured interleaved with each other.

use crate::measure::Unit;
use pqsig::kernels::mldsa::{self as km, Poly, N, Q};
use pqsig::Backend;

/// One kernel on one backend.
pub struct KernelCase {
    /// Report name of the scheme family ("ML-DSA", later "Falcon", "SNOVA").
    pub alg: &'static str,
    pub op: &'static str,
    pub backend: String,
    pub unit: Box<dyn Unit>,
}

/// Calls per sample: one call is too short to time alone, so a sample times this many
/// calls (each on its own one-polynomial slice) and reports the mean per call.
pub const CALLS_PER_SAMPLE: usize = 16;

/// Every kernel case, in report order.
pub fn cases() -> Vec<KernelCase> {
    let mut v = Vec::new();
    let backends: Vec<Backend> = Backend::available().collect();
    for &b in &backends {
        let k = km::kernels(b);
        v.push(KernelCase {
            alg: "ML-DSA",
            op: "ntt",
            backend: b.name().into(),
            unit: Box::new(PolyKernel::new(k.ntt, 1)),
        });
    }
    for &b in &backends {
        let k = km::kernels(b);
        v.push(KernelCase {
            alg: "ML-DSA",
            op: "intt",
            backend: b.name().into(),
            unit: Box::new(PolyKernel::new(k.invntt_tomont, 2)),
        });
    }
    v
}

/// An in-place kernel over `&mut [Poly]`, called on one polynomial at a time. Inputs are
/// uniform in (−q, q) (valid for `ntt` and `invntt_tomont`), refreshed before every
/// sample so no call sees another call's output.
pub struct PolyKernel {
    f: fn(&mut [Poly]),
    src: Vec<Poly>,
    work: Vec<Poly>,
}

impl PolyKernel {
    pub fn new(f: fn(&mut [Poly]), seed: u64) -> Self {
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
        let work = src.clone();
        PolyKernel { f, src, work }
    }
}

impl Unit for PolyKernel {
    fn before(&mut self, _j: usize) {
        self.work.copy_from_slice(&self.src);
    }
    #[inline]
    fn run(&mut self, _j: usize) {
        for i in 0..CALLS_PER_SAMPLE {
            (self.f)(std::hint::black_box(&mut self.work[i..i + 1]));
        }
    }
    fn ops_per_sample(&self) -> usize {
        CALLS_PER_SAMPLE
    }
}
