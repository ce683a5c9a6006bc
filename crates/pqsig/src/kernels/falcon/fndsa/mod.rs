//! FN-DSA's own SIMD kernels (fn-dsa 0.4.0 layer): one table per backend, fetched once per
//! operation from the key's backend. Each entry does the leading part of its job that
//! fits whole vectors and returns how far it got; the scheme code finishes the tail
//! (portable entries do nothing), so every backend gives the same results.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
mod sampler_avx2;

use crate::falcon::fndsa::fxp::Fxr;
use crate::falcon::fndsa::sampler::Sampler;
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;

/// `hash_words64(block, c, i)`: see [`FnDsaKernels::hash_words64`].
pub(crate) type HashWords64 = fn(block: &[u8; 136], c: &mut [u16], i: usize) -> (usize, usize);

/// One backend's FN-DSA kernels.
pub struct FnDsaKernels {
    pub backend: Backend,
    /// Unpacks the leading 14-bit values of `buf` into `h`: (values written, non-zero if
    /// one was ≥ q).
    pub(crate) modq_decode_prefix: fn(buf: &[u8], h: &mut [u16]) -> (usize, u32),
    /// Hash-to-point over the first 64 words of a SHAKE256 block while 16 outputs remain
    /// free after index `i`: (new index, words consumed).
    pub(crate) hash_words64: HashWords64,
    /// `x[i] /= y[i]` (`Fxr::div`) for a leading part: how many were done.
    pub(crate) div_prefix: fn(x: &mut [Fxr], y: &[Fxr]) -> usize,
    /// The signer's two samples at once (`Sampler::next_pair`) over speculative slots
    /// (AVX2, native `Fpr`); `None`: one after the other.
    pub(crate) sampler_pair: Option<SamplerPair>,
}

/// `(s.next(mu0, isigma), s.next(mu1, isigma))`, exactly (outputs and bytes consumed).
pub type SamplerPair = fn(s: &mut Sampler, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> (i32, i32);

static PORTABLE: FnDsaKernels = FnDsaKernels {
    backend: Backend::Portable,
    modq_decode_prefix: |_, _| (0, 0),
    hash_words64: |_, _, i| (i, 0),
    div_prefix: |_, _| 0,
    sampler_pair: None,
};

#[cfg(target_arch = "x86_64")]
static AVX2: FnDsaKernels = FnDsaKernels {
    backend: Backend::Avx2,
    modq_decode_prefix: avx2_entries::modq_decode_prefix,
    hash_words64: avx2_entries::hash_words64,
    div_prefix: avx2_entries::div_prefix,
    #[cfg(not(feature = "fpr-emulated"))]
    sampler_pair: Some(sampler_avx2::next_pair),
    #[cfg(feature = "fpr-emulated")]
    sampler_pair: None,
};

/// The FN-DSA kernels of backend `b`: AVX2 for AVX2 and AVX-512 when available, portable
/// otherwise.
pub fn kernels(b: Backend) -> &'static FnDsaKernels {
    crate::kernels::trace::record("falcon::fndsa::kernels", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `b.is_available()` for Avx2 or Avx512: AVX2 detected either way.
        Backend::Avx2 | Backend::Avx512 if b.is_available() => &AVX2,
        _ => &PORTABLE,
    }
}

/// Safe entries to the AVX2 kernels; only reachable through [`AVX2`] (AVX2 detected).
#[cfg(target_arch = "x86_64")]
mod avx2_entries {
    use super::{avx2, Fxr};

    pub(super) fn modq_decode_prefix(buf: &[u8], h: &mut [u16]) -> (usize, u32) {
        // SAFETY: reachable only through `AVX2`, handed out after detection.
        unsafe { avx2::modq::decode(buf, h) }
    }

    pub(super) fn hash_words64(block: &[u8; 136], c: &mut [u16], i: usize) -> (usize, usize) {
        // SAFETY: as above.
        unsafe { avx2::hash::words64(block, c, i) }
    }

    pub(super) fn div_prefix(x: &mut [Fxr], y: &[Fxr]) -> usize {
        // SAFETY: as above.
        unsafe { avx2::div::div8s(x, y) }
    }
}
