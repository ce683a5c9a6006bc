//! The accelerators behind a card: one instance per card, shared by every client, so
//! that requests of all clients queue for the same (modelled) hardware.

#[cfg(feature = "rtl")]
mod rtl;
mod timed;

#[cfg(feature = "rtl")]
pub use rtl::Rtl;
pub use timed::{release_at, Timed};

use crate::regs::{Mode, Status};
use pqsig::batch::RequestCycles;
use std::time::Instant;

/// What a finished request reports into its slot's registers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Completion {
    pub cycles: RequestCycles,
    /// Device time of the request (its cycles at the clock).
    pub device_ns: u64,
    /// Time it waited for the accelerator behind other requests.
    pub queued_ns: u64,
    /// When the result may be released (the card stores the data back first, then
    /// waits for this instant): the modelled end of the request. `None`: at once.
    pub release_at: Option<Instant>,
}

/// An accelerator: runs one request on its data (the request's bytes, already copied
/// out of the client's memory: the "DMA load"), in place. `picked_up` is when the card
/// saw the doorbell (device time counts from there).
pub trait Accelerator: Send + Sync {
    /// `regs::ACCEL_TIMED` or `regs::ACCEL_RTL`.
    fn kind(&self) -> u32;
    /// The clock its cycles are counted at.
    fn clock_hz(&self) -> f64;
    /// The cycle model it follows, if any (reported in the register page).
    fn model(&self) -> Option<crate::cycles::CycleModel>;
    /// Runs the request; an error status for data it refuses (never a panic).
    fn run(
        &self,
        mode: Mode,
        num_polys: u32,
        data: &mut [u8],
        picked_up: Instant,
    ) -> Result<Completion, Status>;
}

/// Checks the transform's input bound on `data` (ML-DSA: |a| < q; Falcon: [0, q)), so
/// that no kernel ever sees input outside its documented domain.
pub(crate) fn input_in_bounds(mode: Mode, data: &[u8]) -> bool {
    match mode {
        Mode::Nop | Mode::Verify => true,
        Mode::MlDsaNtt | Mode::MlDsaIntt => data.chunks_exact(4).all(|c| {
            let v = i32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            v > -8_380_417 && v < 8_380_417
        }),
        Mode::FalconNtt(_) | Mode::FalconIntt(_) => data
            .chunks_exact(2)
            .all(|c| u16::from_le_bytes([c[0], c[1]]) < 12289),
    }
}
