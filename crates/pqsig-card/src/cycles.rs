//! The accelerator's cycle model: cycles per request as a function of the transform
//! size, the number of polynomials, the mode and the number of butterfly units.
//!
//! MUST MATCH docs/HARDWARE.md ("cycle model", branch hw-ntt) once that lands: this is
//! the one place the card's timing comes from; replace the formulas here, not elsewhere.
//!
//! The shape (the ML-DSA FPGA design: AXI master bursts into BRAM, ping-pong buffers,
//! a butterfly pipeline at II = 1):
//! * per polynomial, `load` and `store` are bursts of `n · 32 / bus_bits` beats (every
//!   coefficient travels as a 32-bit word, and the AXI data bus is 64 bits per
//!   butterfly unit, as in hw/ntt/rtl/ntt_accel.v on branch hw-ntt);
//! * `compute` is `log2 n` stages of `n / 2 / bfus` butterflies plus the butterfly
//!   pipeline's drain (`bfu_latency`) per stage, since a stage reads the previous one's
//!   results; the inverse adds one pass for the `1/n` (ML-DSA: `2^32/n`) scaling,
//!   costed as a stage;
//! * across the polynomials of one request, loading polynomial `i+1` and storing
//!   `i−1` overlap the compute of `i` (ping-pong BRAMs); load and store share the one
//!   AXI master, so they serialise with each other:
//!   `total = setup + load + (P−1)·max(compute, load+store) + compute + store`.

use crate::regs::Mode;
use pqsig::batch::RequestCycles;

/// Parameters of the modelled accelerator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleModel {
    /// Butterfly units working in parallel.
    pub bfus: u32,
    /// Butterfly pipeline depth (read, multiply, reduce, add/sub, write: 5 in the design).
    pub bfu_latency: u32,
    /// AXI data bus width in bits per butterfly unit (64; hw-ntt's `m_rdata` is
    /// `64*BFUS` bits).
    pub bus_bits: u32,
    /// Fixed cycles per request: the start handshake and the first burst's address phase.
    pub setup: u32,
}

impl Default for CycleModel {
    fn default() -> Self {
        CycleModel {
            bfus: 2,
            bfu_latency: 5,
            bus_bits: 64,
            setup: 24,
        }
    }
}

impl CycleModel {
    /// Cycles of one request of `num_polys` polynomials in `mode`.
    pub fn request(&self, mode: Mode, num_polys: u32) -> RequestCycles {
        let (n, inverse) = match mode {
            Mode::Nop | Mode::Verify => {
                return RequestCycles {
                    total: u64::from(self.setup),
                    ..RequestCycles::default()
                }
            }
            Mode::MlDsaNtt => (256u64, false),
            Mode::MlDsaIntt => (256, true),
            Mode::FalconNtt(logn) => (1u64 << logn, false),
            Mode::FalconIntt(logn) => (1u64 << logn, true),
        };
        let bfus = u64::from(self.bfus.max(1));
        let lat = u64::from(self.bfu_latency);
        let bus = u64::from(self.bus_bits.max(32)) * bfus;
        let beats = (n * 32).div_ceil(bus);
        let stage = (n / 2).div_ceil(bfus) + lat;
        let stages = u64::from(n.trailing_zeros()) + u64::from(inverse);
        let compute = stages * stage;
        let p = u64::from(num_polys);
        let setup = u64::from(self.setup);
        let total = if p == 0 {
            setup
        } else {
            setup + beats + (p - 1) * compute.max(2 * beats) + compute + beats
        };
        RequestCycles {
            load: p * beats,
            compute: p * compute,
            store: p * beats,
            total,
        }
    }

    /// Nanoseconds of `cycles` at `clock_hz`.
    pub fn nanos(cycles: u64, clock_hz: f64) -> u64 {
        (cycles as f64 * 1e9 / clock_hz).round() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape() {
        let m = CycleModel::default();
        let one = m.request(Mode::MlDsaNtt, 1);
        // 8 stages of (64 + 5), 64 beats of 128 bits each way, 24 setup.
        assert_eq!(one.compute, 8 * 69);
        assert_eq!(one.total, 24 + 64 + 8 * 69 + 64);
        let four = m.request(Mode::MlDsaNtt, 4);
        assert_eq!(four.total, one.total + 3 * 8 * 69);
        assert!(m.request(Mode::MlDsaIntt, 4).total > four.total);
        assert_eq!(m.request(Mode::Nop, 0).total, 24);
        // Falcon-512: 9 stages of 128 + 5; 128 beats of 4 coefficients.
        assert_eq!(m.request(Mode::FalconNtt(9), 1).compute, 9 * 133);
        assert_eq!(m.request(Mode::FalconNtt(9), 1).load, 128);
    }
}
