//! The `timed` accelerator: computes on the CPU with the library's kernels and
//! releases each result only when the cycle model says the hardware would have
//! finished, so that host-side overhead is real time measured against realistic
//! device time.
//!
//! Time is reserved on one accelerator for all clients: a request starts at
//! `max(now, end of the previous request)` and ends its modelled duration later. The
//! CPU work (copies and transforms) runs inside that window; the release waits on the
//! monotonic clock — sleeping with precise timers until [`SLEEP_MARGIN`] remains (so a
//! request does not hold a core: on a shared machine a spinning card thread is what
//! gets preempted, and then releases late), then busy-waiting to the exact instant.

use super::{input_in_bounds, Accelerator, Completion};
use crate::cycles::CycleModel;
use crate::regs::{Mode, Status, ACCEL_TIMED};
use pqsig::batch::MlDsaPoly;
use pqsig::Backend;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The release sleeps (precise timers, `futex::precise_timers`) until this long before
/// its instant, then busy-waits.
const SLEEP_MARGIN: Duration = Duration::from_micros(300);

pub struct Timed {
    model: CycleModel,
    clock_hz: f64,
    backend: Backend,
    /// When the accelerator is free again.
    busy_until: Mutex<Instant>,
}

impl Timed {
    /// A timed accelerator at `clock_mhz` computing with `backend`'s kernels.
    pub fn new(model: CycleModel, clock_mhz: f64, backend: Backend) -> Timed {
        Timed {
            model,
            clock_hz: clock_mhz * 1e6,
            backend,
            busy_until: Mutex::new(Instant::now()),
        }
    }

    fn compute(&self, mode: Mode, data: &mut [u8]) {
        match mode {
            Mode::Nop | Mode::Verify => {}
            Mode::MlDsaNtt | Mode::MlDsaIntt => {
                let mut polys: Vec<MlDsaPoly> = data
                    .chunks_exact(1024)
                    .map(|c| {
                        let mut p = MlDsaPoly::default();
                        for (o, w) in p.coeffs.iter_mut().zip(c.chunks_exact(4)) {
                            *o = i32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                        }
                        p
                    })
                    .collect();
                let k = pqsig::kernels::mldsa::base_kernels(self.backend);
                if mode == Mode::MlDsaNtt {
                    (k.ntt)(&mut polys);
                } else {
                    (k.invntt_tomont)(&mut polys);
                }
                for (p, c) in polys.iter().zip(data.chunks_exact_mut(1024)) {
                    for (v, w) in p.coeffs.iter().zip(c.chunks_exact_mut(4)) {
                        w.copy_from_slice(&v.to_le_bytes());
                    }
                }
            }
            Mode::FalconNtt(logn) | Mode::FalconIntt(logn) => {
                let mut a: Vec<u16> = data
                    .chunks_exact(2)
                    .map(|c| u16::from_le_bytes([c[0], c[1]]))
                    .collect();
                let k = pqsig::kernels::falcon::ntt::base_kernels(self.backend);
                if matches!(mode, Mode::FalconNtt(_)) {
                    (k.ntt)(&mut a, logn);
                } else {
                    (k.intt)(&mut a, logn);
                }
                for (v, w) in a.iter().zip(data.chunks_exact_mut(2)) {
                    w.copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }
}

/// Returns at `at` on the monotonic clock: sleeps while more than [`SLEEP_MARGIN`]
/// remains, then busy-waits.
pub fn release_at(at: Instant) {
    crate::futex::sleep_until_near(at, SLEEP_MARGIN);
    while Instant::now() < at {
        core::hint::spin_loop();
    }
}

impl Accelerator for Timed {
    fn kind(&self) -> u32 {
        ACCEL_TIMED
    }
    fn clock_hz(&self) -> f64 {
        self.clock_hz
    }
    fn model(&self) -> Option<CycleModel> {
        Some(self.model)
    }

    fn run(
        &self,
        mode: Mode,
        num_polys: u32,
        data: &mut [u8],
        picked_up: Instant,
    ) -> Result<Completion, Status> {
        if !input_in_bounds(mode, data) {
            return Err(Status::BadData);
        }
        let cycles = self.model.request(mode, num_polys);
        let device_ns = CycleModel::nanos(cycles.total, self.clock_hz);
        let now = picked_up;
        let (start, end) = {
            let mut busy = self
                .busy_until
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let start = (*busy).max(now);
            let end = start + Duration::from_nanos(device_ns);
            *busy = end;
            (start, end)
        };
        self.compute(mode, data);
        Ok(Completion {
            cycles,
            device_ns,
            queued_ns: (start - now).as_nanos() as u64,
            release_at: Some(end),
        })
    }
}
