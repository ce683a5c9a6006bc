//! Which build of Falcon's signing norm pass runs: the branch-free rounding and squared
//! norm of `falcon::sign::norm` (scheme code, always inlined) compiled with AVX2 enabled
//! on x86-64 backends, or for the baseline target. Native `f64` builds only (the pass
//! relies on hardware binary64 addition).

use crate::falcon::sign::norm;
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;

/// `sqnorm_fast(hm, t0, t1)`: see [`NormKernels::sqnorm_fast`].
pub type SqnormFast = fn(hm: &[u16], t0: &[Fpr], t1: &[Fpr]) -> Option<u32>;

/// One backend's norm kernels.
pub struct NormKernels {
    pub backend: Backend,
    /// The saturated squared norm of `(hm − rint(t0), −rint(t1))` by the vectorisable
    /// pass, or `None` where its conditions fail (see `falcon::sign::norm`).
    pub sqnorm_fast: SqnormFast,
    /// `s2[i] ← −rint(t1[i])` (16 bits), where the fast pass applied.
    pub s2_fast: fn(s2: &mut [i16], t1: &[Fpr]),
}

static PORTABLE: NormKernels = NormKernels {
    backend: Backend::Portable,
    sqnorm_fast: norm::sqnorm_fast,
    s2_fast: norm::s2_fast,
};

#[cfg(target_arch = "x86_64")]
static AVX2: NormKernels = NormKernels {
    backend: Backend::Avx2,
    sqnorm_fast: sqnorm_fast_avx2,
    s2_fast: s2_fast_avx2,
};

/// The norm kernels of backend `b`: the AVX2 build for AVX2 and AVX-512 when available,
/// portable otherwise.
pub fn kernels(b: Backend) -> &'static NormKernels {
    crate::kernels::trace::record("falcon::norm::kernels", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `b.is_available()` for Avx2 or Avx512: AVX2 detected either way.
        Backend::Avx2 | Backend::Avx512 if b.is_available() => &AVX2,
        _ => &PORTABLE,
    }
}

/// Safe entry to the AVX2 build; only reachable through [`AVX2`] (AVX2 detected).
#[cfg(target_arch = "x86_64")]
fn sqnorm_fast_avx2(hm: &[u16], t0: &[Fpr], t1: &[Fpr]) -> Option<u32> {
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn imp(hm: &[u16], t0: &[Fpr], t1: &[Fpr]) -> Option<u32> {
        norm::sqnorm_fast(hm, t0, t1)
    }
    // SAFETY: reachable only through `AVX2`, handed out after detection.
    unsafe { imp(hm, t0, t1) }
}

/// Safe entry to the AVX2 build; only reachable through [`AVX2`] (AVX2 detected).
#[cfg(target_arch = "x86_64")]
fn s2_fast_avx2(s2: &mut [i16], t1: &[Fpr]) {
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn imp(s2: &mut [i16], t1: &[Fpr]) {
        norm::s2_fast(s2, t1)
    }
    // SAFETY: reachable only through `AVX2`, handed out after detection.
    unsafe { imp(s2, t1) }
}
