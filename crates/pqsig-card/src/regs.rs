//! The register page: the accelerator's AXI-Lite register map as one client sees it,
//! at offset 0 of the client's shared memory; the data window (standing for DMA
//! memory) follows at [`WINDOW_OFFSET`].
//!
//! MUST MATCH the register map of docs/HARDWARE.md (branch hw-ntt) once that lands:
//! buffer address, mode, num_polys, start, done, idle, cycle counters. Two changes for
//! memory shared between processes rather than a bus:
//! * `start` and `done` are sequence numbers, not bits: the host writes `start = s`
//!   (after the other registers, with release ordering) to start request `s`; the card
//!   writes `done = s` when its results are in memory. Neither side has to clear a bit
//!   the other one set, so there is no clear-on-read race over shared memory.
//! * the page holds [`SLOTS`] register sets (a small descriptor queue), so that a host
//!   can have more than one request in flight; the card serves each client's slots in
//!   ring order. The design's single register set is slot 0.
//!
//! The RTL's registers (hw/ntt/rtl/ntt_accel.v, branch hw-ntt, word offsets) and their
//! counterparts here: CTRL 0x00 (bit 0 start/busy, bit 1 done, bit 2 idle) → `start`,
//! `done`, `idle`; ERR 0x08 → `status`; BUF_ADDR 0x10 / BUF_ADDR_HI 0x14 → `region`,
//! `offset`; MODE 0x18 (bit 0 inverse) → `mode` (which also names the scheme and n: a
//! card holds one accelerator instance per (q, n), the RTL is built per (q, n, BFUS));
//! NUM_POLYS 0x1c → `num_polys`; CYC_LOAD/COMPUTE/STORE/TOTAL 0x20..0x2c →
//! `cycles_*`; ID 0x30..0x38 → the header's `magic`, `version`, `bfus`.
//!
//! The buffer address is `(region, offset)`: region 0 is the client's window in this
//! memory, region `k > 0` a buffer the client allocated for one call (`per-call` mode,
//! [`crate::wire`]). Every field is an atomic: the other side may write it at any time.

use core::sync::atomic::{AtomicU32, AtomicU64};

/// `"PQCD"`, little-endian.
pub const MAGIC: u32 = 0x4443_5150;
pub const VERSION: u32 = 1;
/// Register sets (request slots) per client.
pub const SLOTS: usize = 4;
/// Most polynomials in one request (`num_polys` above it: [`Status::TooManyPolys`]).
pub const MAX_POLYS: u32 = 1024;
/// The window starts one page after the registers.
pub const WINDOW_OFFSET: usize = 4096;
/// Bytes of the window each slot owns in pooled mode (`SLOTS` of them): 512 ML-DSA or
/// 256 Falcon-1024 polynomials.
pub const SLOT_BYTES: usize = 512 * 1024;
/// Bytes of the window.
pub const WINDOW_LEN: usize = SLOTS * SLOT_BYTES;

/// Accelerator kinds (`Header::accel`).
pub const ACCEL_TIMED: u32 = 1;
pub const ACCEL_RTL: u32 = 2;

/// Card-wide facts, written once by the card before it hands the memory over.
#[repr(C)]
pub struct Header {
    pub magic: AtomicU32,
    pub version: AtomicU32,
    pub slots: AtomicU32,
    pub max_polys: AtomicU32,
    pub window_offset: AtomicU64,
    pub window_len: AtomicU64,
    /// Modelled clock in kHz.
    pub clock_khz: AtomicU32,
    /// `ACCEL_TIMED` or `ACCEL_RTL`.
    pub accel: AtomicU32,
    /// The cycle model's parameters (`cycles::CycleModel`; 0 bfus: no model, e.g.
    /// `rtl`, whose cycles come from simulation), so a driver can predict when a
    /// request will complete and sleep until then instead of polling.
    pub bfus: AtomicU32,
    /// Reserved (0): parameters of an earlier cycle model, kept so the layout stays.
    pub bfu_latency: AtomicU32,
    /// Reserved (0), as `bfu_latency`.
    pub bus_bits: AtomicU32,
    pub setup: AtomicU32,
    /// Doorbell (a futex word): the host adds 1 after writing a slot's `start`.
    pub doorbell: AtomicU32,
    /// 1 while the card's service thread sleeps on `doorbell` (the host then wakes it).
    pub card_sleeping: AtomicU32,
    /// Requests this client had served (any status).
    pub requests: AtomicU64,
    /// Capabilities (`CAP_*`); 0 on a card that has none.
    pub caps: AtomicU32,
    /// With [`CAP_USER_SLOTS`]: where the first user slot page is (bytes from the start
    /// of the memory; one [`Slot`] per page, page `k` bound to area `k` of the window).
    pub user_slots_offset: AtomicU32,
}

/// `Header::caps`: the card also serves per-area user slots, each on its own page so
/// that a driver can map one into one process (the ivshmem card, [`crate::ivshmem`]).
pub const CAP_USER_SLOTS: u32 = 1;

/// One register set.
#[repr(C, align(64))]
pub struct Slot {
    /// Buffer address: region (0 = the window, else a per-call buffer id) ...
    pub region: AtomicU32,
    /// ... and the byte offset in it.
    pub offset: AtomicU64,
    /// [`Mode::encode`].
    pub mode: AtomicU32,
    pub num_polys: AtomicU32,
    /// When the host rang for this request (CLOCK_MONOTONIC, ns): what hardware would
    /// latch on the doorbell write. A queued request starts on the modelled
    /// accelerator at `max(rung, end of the previous request)`, not when the card's
    /// software thread gets round to it (see `card::doorbell_instant`).
    pub rung_ns: AtomicU64,
    /// Request sequence number written by the host last (see the module docs).
    pub start: AtomicU32,
    /// Sequence number of the last completed request (a futex word: the completion).
    pub done: AtomicU32,
    /// 1 while the host sleeps on `done` (the card then wakes it).
    pub host_sleeping: AtomicU32,
    /// [`Status`] of the last completed request.
    pub status: AtomicU32,
    /// 1 when the slot has no request in progress.
    pub idle: AtomicU32,
    /// Cycle counters of the last request (the cycle model's, or the RTL's).
    pub cycles_load: AtomicU64,
    pub cycles_compute: AtomicU64,
    pub cycles_store: AtomicU64,
    pub cycles_total: AtomicU64,
    /// `cycles_total` at the clock, in ns: the device time of the request.
    pub device_ns: AtomicU64,
    /// Time the request waited for the accelerator behind other clients' requests.
    pub queued_ns: AtomicU64,
}

/// The whole register page.
#[repr(C)]
pub struct RegPage {
    pub header: Header,
    pub slots: [Slot; SLOTS],
}

const _: () = assert!(core::mem::size_of::<RegPage>() <= WINDOW_OFFSET);

/// What a request asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// No work: a doorbell / completion round trip (latency measurement).
    Nop,
    MlDsaNtt,
    /// ML-DSA inverse NTT times 2^32 (`invntt_tomont`).
    MlDsaIntt,
    /// Falcon NTT mod 12289 of `2^logn` coefficients, canonical in and out.
    FalconNtt(u32),
    FalconIntt(u32),
    /// A whole-operation request: verify `num_polys` signatures serialised in the
    /// buffer, which runs from its offset to the end of its region ([`crate::ops`]).
    Verify,
}

impl Mode {
    /// The register encoding: operation in bits 0..8, Falcon's logn in bits 8..16.
    pub fn encode(self) -> u32 {
        match self {
            Mode::Nop => 0,
            Mode::MlDsaNtt => 1,
            Mode::MlDsaIntt => 2,
            Mode::FalconNtt(l) => 3 | (l << 8),
            Mode::FalconIntt(l) => 4 | (l << 8),
            Mode::Verify => 5,
        }
    }

    /// The mode a register value names; `None` for an unknown one.
    pub fn decode(v: u32) -> Option<Mode> {
        let logn = (v >> 8) & 0xff;
        let falcon_ok = (1..=10).contains(&logn);
        match (v & 0xff, v >> 16) {
            (0, 0) if logn == 0 => Some(Mode::Nop),
            (1, 0) if logn == 0 => Some(Mode::MlDsaNtt),
            (2, 0) if logn == 0 => Some(Mode::MlDsaIntt),
            (3, 0) if falcon_ok => Some(Mode::FalconNtt(logn)),
            (4, 0) if falcon_ok => Some(Mode::FalconIntt(logn)),
            (5, 0) if logn == 0 => Some(Mode::Verify),
            _ => None,
        }
    }

    /// Bytes of one polynomial in memory (ML-DSA: 256 × i32; Falcon: 2^logn × u16,
    /// little-endian; 0 for requests without polynomials).
    pub fn poly_bytes(self) -> usize {
        match self {
            Mode::Nop | Mode::Verify => 0,
            Mode::MlDsaNtt | Mode::MlDsaIntt => 1024,
            Mode::FalconNtt(l) | Mode::FalconIntt(l) => 2usize << l,
        }
    }
}

/// A completed request's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Status {
    Ok = 0,
    /// `mode` names no operation.
    BadMode = 1,
    /// The buffer (region, offset, `num_polys` × polynomial size) is not inside a
    /// region of this client, or the offset is misaligned.
    BadRange = 2,
    /// `num_polys` over [`MAX_POLYS`].
    TooManyPolys = 3,
    /// An input coefficient outside the transform's input bound.
    BadData = 4,
    /// The accelerator failed (e.g. the simulation reported an error).
    Failed = 5,
}

impl Status {
    pub fn from_u32(v: u32) -> Status {
        match v {
            0 => Status::Ok,
            1 => Status::BadMode,
            2 => Status::BadRange,
            3 => Status::TooManyPolys,
            4 => Status::BadData,
            _ => Status::Failed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_round_trip() {
        for m in [
            Mode::Nop,
            Mode::MlDsaNtt,
            Mode::MlDsaIntt,
            Mode::FalconNtt(9),
            Mode::FalconIntt(10),
            Mode::FalconNtt(1),
            Mode::Verify,
        ] {
            assert_eq!(Mode::decode(m.encode()), Some(m));
        }
        for bad in [6, 3, 3 | (11 << 8), 1 | (9 << 8), 0x1_0001, u32::MAX] {
            assert_eq!(Mode::decode(bad), None, "{bad:#x}");
        }
    }
}
