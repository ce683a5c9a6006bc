//! The kernels of Falcon round-3 key generation, fetched once per key generation and
//! passed down to every solver step, so that a key generated "on backend b" runs all of
//! its arithmetic on b whatever the process-wide backend is.
//!
//! [`SolverKernels`] holds the round-3 solver's own loops, whose one body is scheme code
//! (`falcon::keygen::{poly, solve, gauss}`, each `name::body`, always inlined) that
//! this module builds twice, for the baseline target and with AVX2 enabled. The loops
//! modulo the RNS primes (NTT, CRT, residues) are the table both solvers share,
//! [`ntru::NtruKernels`].

use crate::falcon::keygen::{gauss, poly, solve};
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::falcon::{fft, ntru, ntt};
use crate::kernels::keccak::f1600::{permute1_for, Permute1};
use crate::kernels::select::Backend;

/// Declares [`SolverKernels`], its portable table, and (x86-64) an AVX2 table whose
/// entries are the same bodies compiled with AVX2 enabled, behind safe wrappers.
macro_rules! solver_kernels {
    ($(
        $(#[$doc:meta])*
        $name:ident: fn($($a:ident: $t:ty),*) = $body:path;
    )*) => {
        /// One backend's key-generation solver loops.
        pub struct SolverKernels {
            $( $(#[$doc])* pub(crate) $name: fn($($t),*), )*
        }

        static PORTABLE: SolverKernels = SolverKernels {
            $( $name: $body, )*
        };

        /// Safe entries to the AVX2 builds; only reachable through [`AVX2`], which
        /// [`kernels`] hands out after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        mod avx2_entries {
            use super::*;
            $(
                #[allow(clippy::too_many_arguments)]
                pub(super) fn $name($($a: $t),*) {
                    /// # Safety
                    /// The CPU must support AVX2.
                    #[target_feature(enable = "avx2")]
                    #[allow(clippy::too_many_arguments)]
                    unsafe fn imp($($a: $t),*) {
                        $body($($a),*)
                    }
                    // SAFETY: reachable only through `AVX2` (AVX2 detected).
                    unsafe { imp($($a),*) }
                }
            )*
        }

        #[cfg(target_arch = "x86_64")]
        static AVX2: SolverKernels = SolverKernels {
            $( $name: avx2_entries::$name, )*
        };
    };
}

solver_kernels! {
    /// `x` −= `y`·2^(31·sch + scl), batch (see `poly`).
    sub_scaled_batch: fn(
        x: &mut [u32], xlen: usize, y: &[u32], ylen: usize, n: usize, sch: usize, scl: u32,
        tmp: &mut [u32]
    ) = poly::sub_scaled_batch::body;
    /// `x` −= k·(digits) scaled, exact (see `poly`).
    sub_mul_small_exact: fn(
        x: &mut [u32], xlen: usize, dig: &[i32], dlen: usize, k: &[u32], n: usize,
        sch: usize, scl: u32, cols: &mut [i64]
    ) = poly::sub_mul_small_exact::body;
    /// Wide exact products by small k (see `poly`).
    mul_small_exact_wide: fn(
        out: &mut [u32], ext: &[i32], slen: usize, k: &[u32], n: usize, lo: &mut [i64],
        hi: &mut [i64]
    ) = poly::mul_small_exact_wide::body;
    /// Big integers to `Fpr` (the reference's `poly_big_to_fp`).
    big_to_fp: fn(d: &mut [Fpr], x: &[u32], flen: usize, stride: usize, n: usize)
        = solve::big_to_fp::body;
    /// Base samples of the Gaussian f, g sampler (16 bytes each).
    base_samples: fn(bytes: &[u8], out: &mut [i32]) = gauss::base_samples_body;
}

/// One backend's key-generation kernels.
#[derive(Clone, Copy)]
pub struct KeygenKernels {
    pub backend: Backend,
    /// The round-3 solver's own loops (big-integer batches, sampling).
    pub solver: &'static SolverKernels,
    /// The loops modulo the RNS primes (NTT, CRT, residues), shared with FN-DSA.
    pub ntru: &'static ntru::NtruKernels,
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
        solver: solver_for(b),
        ntru: ntru::kernels(b),
        fft: fft::kernels(b),
        ntt: ntt::kernels(b),
        permute1: permute1_for(b),
    }
}

fn solver_for(b: Backend) -> &'static SolverKernels {
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `b.is_available()` for Avx2 or Avx512: AVX2 detected either way.
        Backend::Avx2 | Backend::Avx512 if b.is_available() => &AVX2,
        _ => &PORTABLE,
    }
}
