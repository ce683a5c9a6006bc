//! The kernels of Falcon round-3 key generation, fetched once per key generation and
//! passed down to every solver step, so that a key generated "on backend b" runs all of
//! its arithmetic on b whatever the process-wide backend is.

use crate::kernels::falcon::{fft, ntt};
use crate::kernels::keccak::f1600::{permute1_for, Permute1};
use crate::kernels::select::Backend;

/// One backend's key-generation kernels.
#[derive(Clone, Copy)]
pub struct KeygenKernels {
    pub backend: Backend,
    /// Whether the solver's integer loops run their AVX2 builds. Set only by
    /// [`kernels`] after detection: scheme code relies on it before entering AVX2 code.
    pub(crate) avx2: bool,
    /// FFT over `Fpr` (norm checks, Babai reductions).
    pub fft: &'static fft::FftKernels,
    /// NTT mod q (the public key h = g/f).
    pub ntt: &'static ntt::NttKernels,
    /// Keccak-f\[1600\] of the SHAKE256 sampling stream.
    pub permute1: Permute1,
}

/// The key-generation kernels of backend `b` (portable where `b` is unavailable).
pub fn kernels(b: Backend) -> KeygenKernels {
    crate::kernels::trace::record("falcon::keygen::kernels", b);
    KeygenKernels {
        backend: b,
        avx2: matches!(b, Backend::Avx2 | Backend::Avx512) && b.is_available(),
        fft: fft::kernels(b),
        ntt: ntt::kernels(b),
        permute1: permute1_for(b),
    }
}
