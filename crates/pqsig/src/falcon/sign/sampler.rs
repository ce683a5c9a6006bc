//! SamplerZ, software side: owns the PRNG and turns the fast Fourier sampler's centres and
//! leaf values into requests for the SamplerZ kernel
//! ([`crate::kernels::falcon::samplerz`]).
//!
//! The kernel gets each request's centre `mu` and `isigma = 1/σ` (the tree leaves already
//! hold `1/σ`, see [`super::tree`]) and the degree's `σ_min`; it consumes the PRNG stream
//! in the reference's order, so one [`Sampler`] per signing attempt, seeded from the
//! signing SHAKE256 context, reproduces the round-3 KATs.

use super::prng::Prng;
use crate::kernels::falcon::fpr::{self, Fpr};
use crate::kernels::falcon::samplerz::{Request, SamplerKernels};
use crate::kernels::keccak::sponge::Shake256;

/// The sampler of one signing attempt.
pub struct Sampler {
    prng: Prng,
    sigma_min: Fpr,
    kernels: &'static SamplerKernels,
}

impl Sampler {
    /// A fresh PRNG from the next 56 bytes of `rng`; σ_min of degree `logn` (1..=10).
    pub fn new(rng: &mut Shake256, logn: u32, kernels: &'static SamplerKernels) -> Sampler {
        Sampler {
            prng: Prng::new(rng, kernels),
            sigma_min: fpr::SIGMA_MIN[logn as usize],
            kernels,
        }
    }

    /// Samples `mu[0]` then `mu[1]` with the same `isigma` (the two real coordinates of
    /// one complex leaf: Falcon's only batch shape). Returns them as `Fpr`.
    #[inline]
    pub fn pair(&mut self, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> (Fpr, Fpr) {
        let reqs = [Request { mu: mu0, isigma }, Request { mu: mu1, isigma }];
        let mut out = [0i32; 2];
        (self.kernels.sample)(&mut self.prng.stream(), self.sigma_min, &reqs, &mut out);
        (Fpr::of(out[0] as i64), Fpr::of(out[1] as i64))
    }
}
