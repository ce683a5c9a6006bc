//! `rtl-falcon`: the hardware half of the Falcon co-design behind the library's
//! kernel-device seam. FFT and inverse FFT of degree 512 and 1024 run on the Verilated
//! `hw/falcon` engine ([`crate::falcon::fft_run_units`], one adder and one multiplier as
//! in the paper, or two of each); SamplerZ runs on a plugged-in sampler
//! ([`SamplerZEngine`]) once one is plugged. The NTT mod 12289 and everything else stay
//! on the CPU (the co-design's software half).
//!
//! The device counts its requests and cycles per kind (FFT, iFFT, SamplerZ):
//! [`KernelDevice::falcon_cycles`]. FFT cycles are the engine's, start to done, as
//! `fft_run` reports them; loading the n words through the host port and reading them
//! back (about n cycles each way) are not included. Without a sampler the device
//! reports no SamplerZ figures at all (`samplerz: None`), not zeros.
//!
//! # Plugging in the SamplerZ RTL
//! `supports_samplerz()` is false until a sampler is plugged: [`RtlFalconDevice::with_sampler`]
//! or [`RtlFalconDevice::plug_sampler`] with anything implementing [`SamplerZEngine`]
//! (a closure `FnMut(&SamplerZRequest, &mut [i32]) -> Result<(SamplerZReply, u64),
//! DeviceError> + Send` does). Its contract is `samplerz::device::serve_on_cpu`'s plus
//! the cycles the request took. [`register`] builds the CLI's device with
//! `pqsig_hwsim::samplerz::RtlSamplerZ`, the SamplerZ device RTL, plugged in.

use crate::falcon::{fft_run_units, FalconSimError};
use pqsig::batch::{KernelDevice, MlDsaPoly, TransformMode};
use pqsig::kernels::device::{FalconDeviceCycles, FftDirection, KindCycles};
use pqsig::kernels::falcon::fpr::Fpr;
use pqsig::kernels::falcon::samplerz::device::{SamplerZReply, SamplerZRequest};
use pqsig::DeviceError;
use std::sync::{Arc, Mutex, PoisonError};
use zeroize::Zeroizing;

/// A SamplerZ implementation the device can run: serves one request exactly as
/// `pqsig::kernels::falcon::samplerz::device::serve_on_cpu` and reports the device
/// cycles it took.
pub trait SamplerZEngine: Send {
    fn serve(
        &mut self,
        req: &SamplerZRequest<'_>,
        out: &mut [i32],
    ) -> Result<(SamplerZReply, u64), DeviceError>;
}

impl<F> SamplerZEngine for F
where
    F: FnMut(&SamplerZRequest<'_>, &mut [i32]) -> Result<(SamplerZReply, u64), DeviceError> + Send,
{
    fn serve(
        &mut self,
        req: &SamplerZRequest<'_>,
        out: &mut [i32],
    ) -> Result<(SamplerZReply, u64), DeviceError> {
        self(req, out)
    }
}

/// The simulated Falcon hardware as a kernel device.
pub struct RtlFalconDevice {
    units: u32,
    sampler: Mutex<Option<Box<dyn SamplerZEngine>>>,
    totals: Mutex<FalconDeviceCycles>,
}

impl RtlFalconDevice {
    /// The FFT engine with one adder and one multiplier (the paper's configuration), no
    /// sampler.
    pub fn new() -> Self {
        RtlFalconDevice {
            units: 1,
            sampler: Mutex::new(None),
            totals: Mutex::new(FalconDeviceCycles::default()),
        }
    }

    /// The FFT engine with `units` (1 or 2) adders and multipliers.
    pub fn with_units(units: u32) -> Result<Self, FalconSimError> {
        if !(units == 1 || units == 2) {
            return Err(FalconSimError::BadArg(format!("{units} units (1 or 2)")));
        }
        Ok(RtlFalconDevice {
            units,
            ..Self::new()
        })
    }

    /// The device with `sampler` running SamplerZ.
    pub fn with_sampler(self, sampler: Box<dyn SamplerZEngine>) -> Self {
        self.plug_sampler(sampler);
        self
    }

    /// Plugs `sampler` in (replacing any earlier one); from now on the device runs
    /// SamplerZ and counts its cycles.
    pub fn plug_sampler(&self, sampler: Box<dyn SamplerZEngine>) {
        *self.sampler.lock().unwrap_or_else(PoisonError::into_inner) = Some(sampler);
        let mut t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
        t.samplerz.get_or_insert_with(KindCycles::default);
    }

    /// Adders and multipliers of the FFT engine.
    pub fn units(&self) -> u32 {
        self.units
    }

    fn count(&self, kind: impl FnOnce(&mut FalconDeviceCycles) -> &mut KindCycles, cycles: u64) {
        let mut t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
        let k = kind(&mut t);
        k.requests += 1;
        k.cycles += cycles;
    }
}

impl Default for RtlFalconDevice {
    fn default() -> Self {
        Self::new()
    }
}

impl KernelDevice for RtlFalconDevice {
    fn name(&self) -> String {
        "rtl-falcon".into()
    }

    fn description(&self) -> String {
        let sampler = if self.supports_samplerz() {
            "SamplerZ on the plugged sampler"
        } else {
            "SamplerZ on the CPU (no sampler plugged)"
        };
        format!(
            "Verilator co-simulation of hw/falcon: FFT/iFFT n=512/1024 ({} adder(s), {} multiplier(s)); {sampler}; NTT on the CPU",
            self.units, self.units
        )
    }

    fn max_polys(&self) -> usize {
        1
    }

    /// No NTT: in the co-design the NTT mod q is software.
    fn supports(&self, _: TransformMode) -> bool {
        false
    }

    fn transform_mldsa(&self, _: TransformMode, _: &mut [MlDsaPoly]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }

    fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }

    fn supports_fft(&self, _: FftDirection, logn: u32) -> bool {
        logn == 9 || logn == 10
    }

    fn transform_fft(
        &self,
        dir: FftDirection,
        logn: u32,
        values: &mut [Fpr],
    ) -> Result<(), DeviceError> {
        if !self.supports_fft(dir, logn) || values.len() != 1 << logn {
            return Err(DeviceError::Declined);
        }
        // The values are secret (basis, sample): the host-side copy is wiped.
        let mut words = Zeroizing::new(values.iter().map(|x| x.to_bits()).collect::<Vec<u64>>());
        let inverse = dir == FftDirection::Inverse;
        let cycles = fft_run_units(self.units, logn, inverse, &mut words).map_err(|e| match e {
            FalconSimError::BadArg(_) => DeviceError::Declined,
            FalconSimError::Timeout => DeviceError::Failed,
        })?;
        for (v, &w) in values.iter_mut().zip(words.iter()) {
            *v = Fpr::from_bits(w);
        }
        self.count(
            |t| match dir {
                FftDirection::Forward => &mut t.fft,
                FftDirection::Inverse => &mut t.ifft,
            },
            cycles,
        );
        Ok(())
    }

    fn supports_samplerz(&self) -> bool {
        self.sampler
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }

    fn samplerz(
        &self,
        req: &SamplerZRequest<'_>,
        out: &mut [i32],
    ) -> Result<SamplerZReply, DeviceError> {
        let (reply, cycles) = {
            let mut s = self.sampler.lock().unwrap_or_else(PoisonError::into_inner);
            s.as_mut().ok_or(DeviceError::Declined)?.serve(req, out)?
        };
        self.count(
            |t| t.samplerz.get_or_insert_with(KindCycles::default),
            cycles,
        );
        Ok(reply)
    }

    fn falcon_cycles(&self) -> Option<FalconDeviceCycles> {
        Some(*self.totals.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl SamplerZEngine for crate::samplerz::RtlSamplerZ {
    fn serve(
        &mut self,
        req: &SamplerZRequest<'_>,
        out: &mut [i32],
    ) -> Result<(SamplerZReply, u64), DeviceError> {
        crate::samplerz::RtlSamplerZ::serve(self, req, out)
    }
}

/// Registers an `rtl-falcon` device (FFT engine with one adder and one multiplier, and
/// the SamplerZ device RTL, `crate::samplerz::RtlSamplerZ`) with the library, so that
/// `--device rtl-falcon` / `PQSIG_DEVICE=rtl-falcon` /
/// `kernel_device_by_name("rtl-falcon")` find it.
pub fn register() -> Result<(), pqsig::Error> {
    let dev = RtlFalconDevice::new().with_sampler(Box::new(crate::samplerz::RtlSamplerZ::new()));
    pqsig::batch::register_kernel_device(Arc::new(dev))
}
