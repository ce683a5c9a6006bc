//! Backend selection: detected once, cached, overridable.
//!
//! Order of precedence for the process-wide default:
//! 1. [`set_backend`] (an API call; fails if the CPU lacks the features),
//! 2. the `PQSIG_BACKEND` environment variable (`portable`, `avx2`, `avx512`, `neon`; with
//!    `std` only),
//! 3. the best backend the CPU supports.
//!
//! An unknown or unsupported `PQSIG_BACKEND` value falls back to detection rather than
//! aborting: a misconfigured environment must not make signing impossible. The CLI reports
//! the effective backend so the fallback is visible.

use crate::error::Error;
use core::sync::atomic::{AtomicU8, Ordering};

/// An implementation of the kernel seam.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Plain Rust, constant-time, every target. The reference for all tests.
    Portable,
    /// x86-64 AVX2 (Haswell and later). Whole functions under `#[target_feature]`.
    Avx2,
    /// x86-64 AVX-512 (F, VL, BW, DQ): the AVX2 kernels plus AVX-512 versions where the
    /// wider instruction set wins (three-input logic and rotates for Keccak).
    Avx512,
    /// AArch64 Advanced SIMD (NEON; mandatory in ARMv8-A, so always present on
    /// aarch64 Linux). Kernel families without a NEON implementation (ML-DSA, Falcon,
    /// Keccak) run their portable kernels under this backend; SNOVA's GF(16) kernels use
    /// in-register table lookups (`tbl`) and polynomial multiplication (`pmul`).
    Neon,
}

impl Backend {
    /// Every backend this build knows about, available or not.
    /// Within an architecture, slower first: detection picks the last available one.
    pub const ALL: &'static [Backend] = &[
        Backend::Portable,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Neon,
    ];

    /// Lower-case name as accepted by `PQSIG_BACKEND`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
        }
    }

    /// Parses a name as accepted by `PQSIG_BACKEND` (case-insensitive).
    pub fn from_name(s: &str) -> Option<Backend> {
        Self::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(s.trim()))
    }

    /// Whether this CPU and build can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Avx2 => avx2_detected(),
            Backend::Avx512 => avx512_detected(),
            Backend::Neon => neon_detected(),
        }
    }

    /// The backends available here, portable first.
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::ALL.iter().copied().filter(|b| b.is_available())
    }

    /// The fastest available backend (what detection picks).
    pub fn detect() -> Backend {
        if Backend::Neon.is_available() {
            Backend::Neon
        } else if Backend::Avx512.is_available() {
            Backend::Avx512
        } else if Backend::Avx2.is_available() {
            Backend::Avx2
        } else {
            Backend::Portable
        }
    }

    fn to_u8(self) -> u8 {
        match self {
            Backend::Portable => 1,
            Backend::Avx2 => 2,
            Backend::Avx512 => 3,
            Backend::Neon => 4,
        }
    }
    fn from_u8(v: u8) -> Option<Backend> {
        match v {
            1 => Some(Backend::Portable),
            2 => Some(Backend::Avx2),
            3 => Some(Backend::Avx512),
            4 => Some(Backend::Neon),
            _ => None,
        }
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(target_arch = "x86_64")]
fn avx2_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(feature = "std"))]
    {
        // Without std there is no runtime detection; trust the compile-time target.
        cfg!(target_feature = "avx2")
    }
}
#[cfg(not(target_arch = "x86_64"))]
fn avx2_detected() -> bool {
    false
}

/// AVX-512 backend: F, VL, BW and DQ, and AVX2 (its tables reuse the AVX2 kernels).
#[cfg(target_arch = "x86_64")]
fn avx512_detected() -> bool {
    #[cfg(feature = "std")]
    {
        avx2_detected()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512dq")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(
            target_feature = "avx2",
            target_feature = "avx512f",
            target_feature = "avx512vl",
            target_feature = "avx512bw",
            target_feature = "avx512dq"
        ))
    }
}
#[cfg(not(target_arch = "x86_64"))]
fn avx512_detected() -> bool {
    false
}

/// NEON (Advanced SIMD). Architecturally mandatory for AArch64 Linux, but asked anyway
/// (runtime detection with `std`, the compile-time target otherwise) so that a
/// `-C target-feature=-neon` build falls back to portable instead of faulting.
#[cfg(target_arch = "aarch64")]
fn neon_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::arch::is_aarch64_feature_detected!("neon")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "neon")
    }
}
#[cfg(not(target_arch = "aarch64"))]
fn neon_detected() -> bool {
    false
}

/// 0 = not yet decided; otherwise `Backend::to_u8`.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// The backend from `PQSIG_BACKEND`, if set to a known and available one.
pub fn env_override() -> Option<Backend> {
    #[cfg(feature = "std")]
    {
        let v = std::env::var("PQSIG_BACKEND").ok()?;
        Backend::from_name(&v).filter(|b| b.is_available())
    }
    #[cfg(not(feature = "std"))]
    {
        None
    }
}

/// The initial choice: environment override, else detection. Pure: no caching.
pub(crate) fn initial_choice() -> Backend {
    env_override().unwrap_or_else(Backend::detect)
}

/// The process-wide backend (decided on first use and cached).
pub fn active() -> Backend {
    let b = active_untraced();
    // A read of the process-wide choice: an operation on a pinned key must never get here.
    crate::kernels::trace::record("select::active", b);
    b
}

fn active_untraced() -> Backend {
    if let Some(b) = Backend::from_u8(ACTIVE.load(Ordering::Relaxed)) {
        return b;
    }
    let b = initial_choice();
    // A racing first call computes the same value; either store wins.
    ACTIVE.store(b.to_u8(), Ordering::Relaxed);
    b
}

/// Pins the process-wide backend. Errors if it cannot run here.
pub fn set_backend(b: Backend) -> Result<(), Error> {
    if !b.is_available() {
        return Err(Error::BackendUnavailable);
    }
    ACTIVE.store(b.to_u8(), Ordering::Relaxed);
    Ok(())
}

/// Forgets the pinned/cached choice so the next [`active`] call decides again.
pub fn reset() {
    ACTIVE.store(0, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    /// The unit tests that loop over `Backend::available()` (`every_backend` in the
    /// Keccak modules and others) cover a SIMD backend only where the CPU has it; these
    /// are ignored where it is missing, so such a run reports the gap.
    fn covered(b: Backend) {
        assert!(
            b.is_available(),
            "{b} is not available on this CPU (see build.rs)"
        );
        assert!(Backend::available().any(|x| x == b));
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn coverage_avx2() {
        covered(Backend::Avx2)
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn coverage_avx512() {
        covered(Backend::Avx512)
    }

    #[test]
    #[cfg_attr(not(pqsig_test_neon), ignore = "NEON not on this target")]
    fn coverage_neon() {
        covered(Backend::Neon)
    }

    use super::*;

    #[test]
    fn names_round_trip() {
        for &b in Backend::ALL {
            assert_eq!(Backend::from_name(b.name()), Some(b));
            assert_eq!(Backend::from_name(&b.name().to_uppercase()), Some(b));
        }
        assert_eq!(Backend::from_name("sse9"), None);
    }

    #[test]
    fn portable_always_available_and_detect_is_available() {
        assert!(Backend::Portable.is_available());
        assert!(Backend::detect().is_available());
        assert!(Backend::available().any(|b| b == Backend::Portable));
    }

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn detection_matches_cpu() {
        assert_eq!(
            Backend::Avx2.is_available(),
            std::is_x86_feature_detected!("avx2")
        );
        let avx512 = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512dq");
        assert_eq!(Backend::Avx512.is_available(), avx512);
        if avx512 {
            assert_eq!(Backend::detect(), Backend::Avx512);
        } else if std::is_x86_feature_detected!("avx2") {
            assert_eq!(Backend::detect(), Backend::Avx2);
        }
        assert!(!Backend::Neon.is_available());
    }

    #[cfg(all(target_arch = "aarch64", feature = "std"))]
    #[test]
    fn detection_matches_cpu_aarch64() {
        let neon = std::arch::is_aarch64_feature_detected!("neon");
        assert_eq!(Backend::Neon.is_available(), neon);
        assert!(!Backend::Avx2.is_available());
        assert!(!Backend::Avx512.is_available());
        assert_eq!(
            Backend::detect(),
            if neon {
                Backend::Neon
            } else {
                Backend::Portable
            }
        );
    }

    #[test]
    fn u8_round_trip() {
        for &b in Backend::ALL {
            assert_eq!(Backend::from_u8(b.to_u8()), Some(b));
        }
        assert_eq!(Backend::from_u8(0), None);
    }
}
