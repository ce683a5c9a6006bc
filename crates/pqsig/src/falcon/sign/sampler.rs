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
use crate::kernels::falcon::samplerz::{Leaf, SamplerKernels};
use crate::kernels::keccak::sponge::Shake256;

/// The sampler of one signing attempt.
pub struct Sampler {
    prng: Prng,
    sigma_min: Fpr,
    kernels: &'static SamplerKernels,
    /// Set when a leaf's 1/σ fell outside the kernel's domain: the key is not a valid
    /// Falcon key (never for keys from key generation).
    bad_leaf: bool,
}

/// The kernel's domain for 1/σ is [1/2, 1]; Falcon's leaves lie in [1/1.8205, 1/σ_min].
/// Outside (with a small allowance for rounding), the key is rejected rather than
/// sampled with, so that a crafted key cannot make the rejection loop endless.
const ISIGMA_LO: Fpr = Fpr::from_bits(0.49f64.to_bits());
const ISIGMA_HI: Fpr = Fpr::from_bits(1.01f64.to_bits());

/// Whether `isigma` is in the accepted range (false for NaN).
#[inline(always)]
pub fn isigma_ok(isigma: Fpr) -> bool {
    ISIGMA_LO.lt(isigma) & isigma.lt(ISIGMA_HI)
}

impl Sampler {
    /// A fresh PRNG from the next 56 bytes of `rng`; σ_min of degree `logn` (1..=10).
    pub fn new(rng: &mut Shake256, logn: u32, kernels: &'static SamplerKernels) -> Sampler {
        Sampler {
            prng: Prng::new(rng, kernels),
            sigma_min: fpr::SIGMA_MIN[logn as usize],
            kernels,
            bad_leaf: false,
        }
    }

    /// Whether an out-of-range leaf was seen (the attempt's output is then meaningless).
    pub fn bad_leaf(&self) -> bool {
        self.bad_leaf
    }

    /// Samples `mu[0]` then `mu[1]` with the same `isigma` (the two real coordinates of
    /// one complex leaf: Falcon's only batch shape). Returns them as `Fpr`.
    /// A leaf outside the accepted range (see [`isigma_ok`]; only for keys that are not
    /// Falcon keys) marks the sampler bad and samples nothing.
    #[inline]
    pub fn pair(&mut self, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> (Fpr, Fpr) {
        // A branch on key validity only: it goes the same way for every valid key.
        if !isigma_ok(isigma) {
            self.bad_leaf = true;
            return (fpr::ZERO, fpr::ZERO);
        }
        (self.kernels.sample_pair)(&mut self.prng.stream(), self.sigma_min, mu0, mu1, isigma)
    }

    /// [`Sampler::pair`] for a leaf of an expanded key, whose sampler constant `lnccs`
    /// was computed with the key (`tree::leaf_consts`).
    #[inline]
    pub fn pair_leaf(&mut self, mu0: Fpr, mu1: Fpr, isigma: Fpr, lnccs: Fpr) -> (Fpr, Fpr) {
        if !isigma_ok(isigma) {
            self.bad_leaf = true;
            return (fpr::ZERO, fpr::ZERO);
        }
        let leaf = Leaf::from_parts(isigma, lnccs);
        (self.kernels.sample_leaf)(&mut self.prng.stream(), self.sigma_min, mu0, mu1, leaf)
    }
}
