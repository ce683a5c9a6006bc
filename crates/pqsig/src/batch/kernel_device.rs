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
}
