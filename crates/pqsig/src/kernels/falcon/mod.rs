//! Falcon / FN-DSA kernels (q = 12289, n = 2^logn for logn = 1..=10).
//!
//! * [`codec`] — which build of the compressed-signature decoder runs (BMI or plain).
//! * [`fndsa`] — FN-DSA's own kernels (public-key unpacking, hash-to-point words,
//!   fixed-point division, the sampler's vector path).
//! * [`fpr`] — the binary64 abstraction (native `f64` or integer emulation, build-time).
//! * [`ntt`] — NTT / inverse NTT mod 12289, batch-shaped (verification, public keys).
//! * [`fft`] — FFT / inverse FFT over `Fpr` and the FFT-domain polynomial operations
//!   (multiply, adjoint, LDL split/merge) the signer and key generator use.
//! * [`keygen`] — the kernels of round-3 key generation (NTRUSolve), one bundle per
//!   backend.
//! * `norm` — which build of the signer's rounding and norm pass runs (native `f64`).
//! * [`ntru`] — FN-DSA's NTRU solver arithmetic modulo its RNS primes.
//! * [`samplerz`] — the hardware side of SamplerZ: base sampler plus BerExp acceptance over
//!   a caller-provided random stream, for a batch of (centre, 1/σ) requests.
//!
//! Each submodule has its own kernel table per backend (`kernels(Backend)`), in the same
//! shape as [`super::mldsa`].

pub mod codec;
pub mod fft;
pub mod fndsa;
pub mod fpr;
pub mod keygen;
#[cfg(not(feature = "fpr-emulated"))]
pub mod norm;
pub mod ntru;
pub mod ntt;
pub mod samplerz;
