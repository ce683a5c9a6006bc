//! NTT variant kernels. PLACEHOLDER in the `ntt-simd` branch only, so that the SIMD
//! variant files build and test before the `ntt-engine` branch (which owns this file)
//! lands: on merge, keep the engine's version and its `pub mod avx2;` line.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
