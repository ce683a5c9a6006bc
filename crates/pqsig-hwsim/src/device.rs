//! `rtl-ntt`: the simulated accelerator behind the library's kernel-device seam
//! (`pqsig::batch::KernelDevice`). Every call is one request `{buffer, num_polys, mode}`
//! to a simulated card (split by [`RtlNttDevice::max_polys`]); the cycles of the last
//! request are kept for `last_cycles`.
//!
//! Cards: ML-DSA (q = 8380417, n = 256) and Falcon (q = 12289, n = 512 and 1024), each
//! with 4 radix-2 butterfly units (the fastest configuration to simulate: fewest cycles
//! per transform). Falcon degrees other than 512 and 1024 are not supported (`supports`
//! says so and the library runs them on the CPU).

use crate::{Config, Cycles, Mode, RtlNtt, SimError};
use pqsig::batch::{KernelDevice, MlDsaPoly, RequestCycles, TransformMode};
use pqsig::kernels::mldsa::{self, N};
use pqsig::DeviceError;
use std::sync::{Arc, Mutex, PoisonError};

/// Most polynomials per request.
pub const MAX_POLYS: usize = 1024;

/// The simulated NTT accelerator as a kernel device.
pub struct RtlNttDevice {
    mldsa: Mutex<RtlNtt>,
    falcon512: Mutex<RtlNtt>,
    falcon1024: Mutex<RtlNtt>,
    last: Mutex<Option<RequestCycles>>,
    bfus: u32,
}

impl RtlNttDevice {
    /// Three cards with 4 radix-2 butterfly units each.
    pub fn new() -> Result<Self, SimError> {
        Self::with_bfus(4)
    }

    /// Three cards with `bfus` (1, 2 or 4) radix-2 butterfly units each.
    pub fn with_bfus(bfus: u32) -> Result<Self, SimError> {
        Ok(RtlNttDevice {
            mldsa: Mutex::new(RtlNtt::new(Config::new(8380417, 256, bfus))?),
            falcon512: Mutex::new(RtlNtt::new(Config::new(12289, 512, bfus))?),
            falcon1024: Mutex::new(RtlNtt::new(Config::new(12289, 1024, bfus))?),
            last: Mutex::new(None),
            bfus,
        })
    }

    fn record(&self, c: Cycles) {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Some(RequestCycles {
            load: c.load,
            compute: c.compute,
            store: c.store,
            total: c.total,
        });
    }

    fn card(&self, logn: u32) -> Option<&Mutex<RtlNtt>> {
        match logn {
            9 => Some(&self.falcon512),
            10 => Some(&self.falcon1024),
            _ => None,
        }
    }
}

impl KernelDevice for RtlNttDevice {
    fn name(&self) -> String {
        "rtl-ntt".into()
    }

    fn description(&self) -> String {
        format!(
            "Verilator co-simulation of hw/ntt ({} radix-2 BFUs; ML-DSA n=256, Falcon n=512/1024)",
            self.bfus
        )
    }

    fn max_polys(&self) -> usize {
        MAX_POLYS
    }

    fn supports(&self, mode: TransformMode) -> bool {
        match mode {
            TransformMode::MlDsaNtt | TransformMode::MlDsaInvNttToMont => true,
            TransformMode::FalconNtt { logn } | TransformMode::FalconIntt { logn } => {
                logn == 9 || logn == 10
            }
        }
    }

    fn transform_mldsa(
        &self,
        mode: TransformMode,
        polys: &mut [MlDsaPoly],
    ) -> Result<(), DeviceError> {
        let m = match mode {
            TransformMode::MlDsaNtt => Mode::Ntt,
            TransformMode::MlDsaInvNttToMont => Mode::Intt,
            _ => return Err(DeviceError::Declined),
        };
        if polys.len() > MAX_POLYS {
            return Err(DeviceError::Declined);
        }
        if polys.is_empty() {
            return Ok(());
        }
        // host side: signed coefficients (|a| < q by contract) to canonical words
        let mut words = Vec::with_capacity(polys.len() * N);
        for p in polys.iter() {
            words.extend(p.coeffs.iter().map(|&c| c.rem_euclid(mldsa::Q) as u32));
        }
        let c = {
            let mut card = self.mldsa.lock().unwrap_or_else(PoisonError::into_inner);
            card.run(m, &mut words, polys.len())
                .map_err(|_| DeviceError::Failed)?
        };
        for (p, w) in polys.iter_mut().zip(words.chunks(N)) {
            for (d, &s) in p.coeffs.iter_mut().zip(w) {
                *d = s as i32;
            }
        }
        self.record(c);
        Ok(())
    }

    fn transform_falcon(&self, mode: TransformMode, coeffs: &mut [u16]) -> Result<(), DeviceError> {
        let (m, logn) = match mode {
            TransformMode::FalconNtt { logn } => (Mode::Ntt, logn),
            TransformMode::FalconIntt { logn } => (Mode::Intt, logn),
            _ => return Err(DeviceError::Declined),
        };
        let card = self.card(logn).ok_or(DeviceError::Declined)?;
        let n = 1usize << logn;
        if !coeffs.len().is_multiple_of(n) || coeffs.len() / n > MAX_POLYS {
            return Err(DeviceError::Declined);
        }
        let k = coeffs.len() / n;
        if k == 0 {
            return Ok(());
        }
        let mut words: Vec<u32> = coeffs.iter().map(|&c| c as u32).collect();
        let c = {
            let mut card = card.lock().unwrap_or_else(PoisonError::into_inner);
            card.run(m, &mut words, k).map_err(|e| match e {
                SimError::NotCanonical { .. } | SimError::BadArg(_) => DeviceError::Declined,
                _ => DeviceError::Failed,
            })?
        };
        for (d, s) in coeffs.iter_mut().zip(words) {
            *d = s as u16;
        }
        self.record(c);
        Ok(())
    }

    fn last_cycles(&self) -> Option<RequestCycles> {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Registers an `rtl-ntt` device (4 radix-2 BFUs) with the library, so that `--device
/// rtl-ntt` / `PQSIG_DEVICE=rtl-ntt` / `kernel_device_by_name("rtl-ntt")` find it.
pub fn register() -> Result<(), pqsig::Error> {
    let dev = RtlNttDevice::new().map_err(|_| pqsig::Error::Device(DeviceError::Failed))?;
    pqsig::batch::register_kernel_device(Arc::new(dev))
}
