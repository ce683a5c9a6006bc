//! The batch engine's side of kernel devices (`kernels::device`): a batch whose
//! `Options::kernel_device` is set runs its ML-DSA lockstep groups' transforms on that
//! device, each group's NTT stage as one request (split at the device's `max_polys`),
//! with the CPU table as fallback.

use crate::kernels::device::{serve_mldsa, KernelDevice, TransformMode};
use crate::kernels::mldsa::{Kernels, Poly};
use crate::mldsa::batch::Transforms;

pub use crate::kernels::device::{
    kernel_device, kernel_device_by_name, kernel_devices, register_kernel_device,
    set_kernel_device, RequestCycles,
};
pub use crate::kernels::mldsa::Poly as MlDsaPoly;

/// Runs the ML-DSA transform `mode` over `polys` on `dev` exactly as the routed kernel
/// tables do: requests of at most `dev.max_polys()`, and any request that fails or comes
/// back outside the kernel's output bound restored and run on the CPU table `cpu`. For
/// callers outside the library that hold polynomials themselves (the C library's
/// `pqsig_mldsa_ntt_batch`). `Error::Unsupported` for a Falcon mode.
pub fn transform_mldsa_on(
    dev: &dyn KernelDevice,
    mode: TransformMode,
    polys: &mut [Poly],
    cpu: &Kernels,
) -> Result<(), crate::Error> {
    let kernel = match mode {
        TransformMode::MlDsaNtt => cpu.ntt,
        TransformMode::MlDsaInvNttToMont => cpu.invntt_tomont,
        _ => return Err(crate::Error::Unsupported),
    };
    serve_mldsa(dev, mode, polys, kernel);
    Ok(())
}

/// The engine's transforms with a kernel device in front of the kernel table.
pub(crate) struct DeviceTransforms<'a> {
    pub kern: &'a Kernels,
    pub dev: &'a dyn KernelDevice,
}

impl Transforms for DeviceTransforms<'_> {
    fn ntt(&self, polys: &mut [Poly]) {
        serve_mldsa(self.dev, TransformMode::MlDsaNtt, polys, self.kern.ntt)
    }
    fn invntt_tomont(&self, polys: &mut [Poly]) {
        serve_mldsa(
            self.dev,
            TransformMode::MlDsaInvNttToMont,
            polys,
            self.kern.invntt_tomont,
        )
    }
    fn pipelined(&self) -> Option<&dyn KernelDevice> {
        self.dev.pipelines().then_some(self.dev)
    }
}
