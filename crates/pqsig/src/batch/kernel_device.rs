//! Devices behind kernel-table entries: a device serves the NTT / inverse NTT of an
//! otherwise-CPU kernel table, and receives each of the engine's lockstep groups as one
//! request — the ML-DSA FPGA design's `{buffer, num_polys, mode}`.
//!
//! Requests are fallible: an error, or a reply with a coefficient outside the kernel's
//! documented output bound, makes the engine restore the input and run the CPU kernel
//! on it, so a device can never change a verdict. Requests larger than
//! [`KernelDevice::max_polys`] are split.

use crate::error::DeviceError;
use crate::kernels::mldsa::{Kernels, Poly, Q};
use crate::mldsa::batch::Transforms;
use alloc::string::String;

pub use crate::kernels::mldsa::Poly as MlDsaPoly;

/// What a request asks for (ML-DSA, q = 8380417, n = 256; the kernels' conventions:
/// FIPS 204 output order, inverse NTT times the Montgomery factor 2^32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransformMode {
    /// Forward NTT. Input |a| < q; output must be congruent to the portable kernel's
    /// mod q with |a| < 9q.
    MlDsaNtt,
    /// Inverse NTT times 2^32. Input |a| < q; output congruent with |a| < q.
    MlDsaInvNttToMont,
}

/// A device serving kernel-table entries.
pub trait KernelDevice: Send + Sync {
    /// Its name.
    fn name(&self) -> String;
    /// Most polynomials in one request.
    fn max_polys(&self) -> usize;
    /// Transforms every polynomial of `polys` in place.
    fn transform(&self, mode: TransformMode, polys: &mut [Poly]) -> Result<(), DeviceError>;
}

/// The engine's transforms with a kernel device in front of the kernel table.
pub(crate) struct DeviceTransforms<'a> {
    pub kern: &'a Kernels,
    pub dev: &'a dyn KernelDevice,
}

impl DeviceTransforms<'_> {
    fn run(&self, mode: TransformMode, polys: &mut [Poly], bound: i32, cpu: fn(&mut [Poly])) {
        let step = self.dev.max_polys().max(1);
        for chunk in polys.chunks_mut(step) {
            let backup = chunk.to_vec();
            let ok = self.dev.transform(mode, chunk).is_ok()
                && chunk
                    .iter()
                    .all(|p| p.coeffs.iter().all(|&c| c > -bound && c < bound));
            if !ok {
                chunk.copy_from_slice(&backup);
                cpu(chunk);
            }
        }
    }
}

impl Transforms for DeviceTransforms<'_> {
    fn ntt(&self, polys: &mut [Poly]) {
        self.run(TransformMode::MlDsaNtt, polys, 9 * Q, self.kern.ntt)
    }
    fn invntt_tomont(&self, polys: &mut [Poly]) {
        self.run(
            TransformMode::MlDsaInvNttToMont,
            polys,
            Q,
            self.kern.invntt_tomont,
        )
    }
}
