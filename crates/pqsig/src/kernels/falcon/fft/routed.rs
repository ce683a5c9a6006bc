//! FFT tables whose `fft` / `ifft` go to the process-wide kernel device (the rest of each
//! table is the backend's own): what `fft::kernels` hands out while a device is set.
//!
//! Each routed entry reads the slot once per call: a call whose `(direction, logn)` the
//! device supports goes through `kernels::device::serve_fft` (CPU fallback on a fault),
//! anything else — no device any more, another degree — runs the backend's kernel.

use super::{FftKernels, PORTABLE};
use crate::kernels::device::{self, FftDirection};
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;

#[inline]
fn route(dir: FftDirection, f: &mut [Fpr], logn: u32, cpu: fn(&mut [Fpr], u32)) {
    match device::kernel_device() {
        Some(d) if d.supports_fft(dir, logn) => device::serve_fft(&*d, dir, logn, f, cpu),
        _ => cpu(f, logn),
    }
}

// One routed table per base table.
macro_rules! routed {
    ($m:ident, $base:expr) => {
        mod $m {
            use super::*;
            fn fft(f: &mut [Fpr], logn: u32) {
                route(FftDirection::Forward, f, logn, $base.fft)
            }
            fn ifft(f: &mut [Fpr], logn: u32) {
                route(FftDirection::Inverse, f, logn, $base.ifft)
            }
            pub(super) static KERNELS: FftKernels = FftKernels { fft, ifft, ..$base };
        }
    };
}

routed!(portable, PORTABLE);
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
routed!(avx2, super::super::avx2::KERNELS);

/// The routed table of the backend whose FFT kernels run for `b`.
pub(super) fn table(b: Backend) -> &'static FftKernels {
    // SAFETY (the AVX2 arm): `base_kernels` returns the AVX2 table only after
    // `b.is_available()`; the routed table holds that table's entries.
    match super::base_kernels(b).backend {
        #[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
        Backend::Avx2 | Backend::Avx512 => &avx2::KERNELS,
        _ => &portable::KERNELS,
    }
}
