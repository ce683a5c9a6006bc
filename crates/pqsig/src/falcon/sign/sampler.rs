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
    /// The process-wide kernel device, when it runs SamplerZ (taken once per attempt).
    #[cfg(feature = "std")]
    device: Option<alloc::sync::Arc<dyn crate::batch::KernelDevice>>,
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
            #[cfg(feature = "std")]
            device: if crate::kernels::device::active() {
                crate::kernels::device::kernel_device().filter(|d| d.supports_samplerz())
            } else {
                None
            },
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
        if !crate::ct::public(isigma_ok(isigma)) {
            self.bad_leaf = true;
            return (fpr::ZERO, fpr::ZERO);
        }
        #[cfg(feature = "std")]
        if self.device.is_some() {
            if let Some(z) = self.pair_on_device(mu0, mu1, isigma) {
                return z;
            }
        }
        (self.kernels.sample_pair)(&mut self.prng.stream(), self.sigma_min, mu0, mu1, isigma)
    }

    /// [`Sampler::pair`] for a leaf of an expanded key, whose sampler constant `lnccs`
    /// was computed with the key (`tree::leaf_consts`).
    #[inline]
    pub fn pair_leaf(&mut self, mu0: Fpr, mu1: Fpr, isigma: Fpr, lnccs: Fpr) -> (Fpr, Fpr) {
        if !crate::ct::public(isigma_ok(isigma)) {
            self.bad_leaf = true;
            return (fpr::ZERO, fpr::ZERO);
        }
        #[cfg(feature = "std")]
        if self.device.is_some() {
            if let Some(z) = self.pair_on_device(mu0, mu1, isigma) {
                return z;
            }
        }
        let leaf = Leaf::from_parts(isigma, lnccs);
        (self.kernels.sample_leaf)(&mut self.prng.stream(), self.sigma_min, mu0, mu1, leaf)
    }

    /// The pair as one request to the SamplerZ device, if one is installed and answers
    /// plausibly (see [`crate::kernels::falcon::samplerz::device`]): the current window
    /// and one window ahead, doubled up to `MAX_AHEAD` while the device asks for more.
    /// `None` (stream untouched) sends the pair to the CPU kernels. How many windows
    /// were needed depends on the bytes consumed, i.e. on the number of rejection-loop
    /// iterations: the leak the sampler already documents, nothing more.
    #[cfg(feature = "std")]
    #[inline(never)]
    fn pair_on_device(&mut self, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> Option<(Fpr, Fpr)> {
        use crate::kernels::falcon::samplerz::device::{
            advance_ok, outputs_ok, SamplerZReply, SamplerZRequest, MAX_AHEAD,
        };
        use crate::kernels::falcon::samplerz::{Request, WINDOW};
        let dev = self.device.as_ref()?;
        let reqs = [Request { mu: mu0, isigma }, Request { mu: mu1, isigma }];
        let mut out = zeroize::Zeroizing::new([0i32; 2]);
        // Secret bytes of the stream: wiped on drop.
        let mut ahead = zeroize::Zeroizing::new([[0u8; WINDOW]; MAX_AHEAD]);
        let mut supplied = 1;
        loop {
            self.prng.windows_ahead(&mut ahead[..supplied]);
            let (window, pos) = self.prng.window();
            let req = SamplerZRequest {
                sigma_min: self.sigma_min,
                reqs: &reqs,
                window,
                pos,
                ahead: &ahead[..supplied],
            };
            match dev.samplerz(&req, &mut out[..]) {
                Ok(SamplerZReply::Done(adv))
                    if advance_ok(adv, pos, supplied) && outputs_ok(&reqs, &out[..]) =>
                {
                    self.prng.advance(adv.refills, adv.pos);
                    return Some((Fpr::of(i64::from(out[0])), Fpr::of(i64::from(out[1]))));
                }
                Ok(SamplerZReply::NeedMore) if supplied < MAX_AHEAD => supplied *= 2,
                _ => return None,
            }
        }
    }
}
