//! The `rtl` accelerator slot: the Verilator model of hw/ntt (crate `pqsig-hwsim`,
//! `RtlNtt`, branch hw-ntt). Not wired yet: the lead replaces `run` with a call into
//! `RtlNtt` (same data layout as `Timed`: ML-DSA 256 × i32 LE, Falcon 2^logn × u16 LE)
//! and reports its simulated cycle counters. Until then every request fails cleanly.

use super::{Accelerator, Completion};
use crate::regs::{Mode, Status, ACCEL_RTL};
use std::time::Instant;

pub struct Rtl {
    pub clock_mhz: f64,
}

impl Rtl {
    /// The RTL accelerator; an error until `pqsig_hwsim::RtlNtt` is wired in here (the
    /// lead's step once branch hw-ntt is merged), so that `pqsig card --accel rtl` never
    /// starts a card that fails every request.
    pub fn new(clock_mhz: f64) -> Result<Rtl, String> {
        let _ = Rtl { clock_mhz };
        Err("--accel rtl: the rtl slot is not wired to pqsig-hwsim yet \
             (crates/pqsig-card/src/accel/rtl.rs)"
            .into())
    }
}

impl Accelerator for Rtl {
    fn kind(&self) -> u32 {
        ACCEL_RTL
    }
    fn clock_hz(&self) -> f64 {
        self.clock_mhz * 1e6
    }
    fn model(&self) -> Option<crate::cycles::CycleModel> {
        None
    }
    fn run(&self, _: Mode, _: u32, _: &mut [u8], _: Instant) -> Result<Completion, Status> {
        Err(Status::Failed)
    }
}
