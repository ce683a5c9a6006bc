//! The accelerator's cycle model: cycles per request as a function of the transform
//! size, the number of polynomials, the mode and the number of butterfly units — the
//! model of the Step 2 RTL (hw/ntt, docs/HARDWARE.md "Cycle model and measurements"),
//! fitted exactly to its Verilator co-simulation.
//!
//! With `T = n / (2·BFUs)` (cycles per butterfly layer, also bus beats per polynomial),
//! `L = log2 n` layers and `P` polynomials in one request:
//! * `total = P·L·T + T/2 + 18`: the first layer starts once half a polynomial is in,
//!   each further polynomial costs exactly its `L·T` butterfly cycles (ping-pong banks:
//!   the loads and stores hide behind the compute), the last store trails by `T/2`, and
//!   18 cycles are the register handshake, the first burst's latency and the pipeline
//!   fill. Forward and inverse take the same time (the 1/n scaling is fused into the
//!   last layer's butterflies; there is no drain between layers).
//! * busy counters (they overlap, so their sum exceeds `total`): `load = P·(T+2)`,
//!   `compute = P·L·T + 8`, `store = P·(T+2) + 2` forward and `P·(3T/2+1) + 2` inverse
//!   (the inverse's storer waits on the fused scaling's later rows).
//!
//! `data/rtl-cycles.jsonl` holds the simulation's figures these formulas are checked
//! against (`cargo run -p pqsig-hwsim --example cycles > crates/pqsig-card/data/rtl-cycles.jsonl`);
//! with feature `rtl`, tests/cycles_rtl.rs also checks them against a live simulation
//! at other batch sizes. This is the one place the card's timing comes from.

use crate::regs::Mode;
use pqsig::batch::RequestCycles;

/// Parameters of the modelled accelerator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleModel {
    /// Radix-2 butterfly units working in parallel (hw/ntt builds 1, 2 and 4).
    pub bfus: u32,
    /// Fixed cycles per request: start handshake, first burst latency, pipeline fill
    /// (18 in hw/ntt with a memory answering at once).
    pub setup: u32,
}

impl Default for CycleModel {
    fn default() -> Self {
        CycleModel { bfus: 2, setup: 18 }
    }
}

impl CycleModel {
    /// Cycles of one request of `num_polys` polynomials in `mode`.
    pub fn request(&self, mode: Mode, num_polys: u32) -> RequestCycles {
        let setup = u64::from(self.setup);
        let (n, inverse) = match mode {
            Mode::Nop | Mode::Verify => {
                return RequestCycles {
                    total: setup,
                    ..RequestCycles::default()
                }
            }
            Mode::MlDsaNtt => (256u64, false),
            Mode::MlDsaIntt => (256, true),
            Mode::FalconNtt(logn) => (1u64 << logn, false),
            Mode::FalconIntt(logn) => (1u64 << logn, true),
        };
        let p = u64::from(num_polys);
        if p == 0 {
            return RequestCycles {
                total: setup,
                ..RequestCycles::default()
            };
        }
        let t = (n / 2).div_ceil(u64::from(self.bfus.max(1)));
        let layers = u64::from(n.trailing_zeros());
        let store_per_poly = if inverse { t + t / 2 + 1 } else { t + 2 };
        RequestCycles {
            load: p * (t + 2),
            compute: p * layers * t + 8,
            store: p * store_per_poly + 2,
            total: p * layers * t + t / 2 + setup,
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

    /// The unsigned integer after `"key":` in a JSON text (the table is flat enough).
    fn field(text: &str, key: &str) -> u64 {
        let at = text.find(&format!("\"{key}\":")).expect(key) + key.len() + 3;
        text[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .expect(key)
    }

    fn cycles(obj: &str) -> RequestCycles {
        RequestCycles {
            load: field(obj, "load"),
            compute: field(obj, "compute"),
            store: field(obj, "store"),
            total: field(obj, "total"),
        }
    }

    /// The object after `"key":`.
    fn object<'a>(line: &'a str, key: &str) -> &'a str {
        let at = line.find(&format!("\"{key}\":{{")).expect(key) + key.len() + 3;
        &line[at..at + line[at..].find('}').expect("}") + 1]
    }

    /// Every configuration of the Verilator figures, both directions, 1 and 64
    /// polynomials: all four counters exact.
    #[test]
    fn matches_the_verilator_table() {
        let table = include_str!("../data/rtl-cycles.jsonl");
        let mut rows = 0;
        for line in table.lines().filter(|l| !l.trim().is_empty()) {
            let (q, n, bfus) = (
                field(line, "modulus"),
                field(line, "n"),
                field(line, "bfus"),
            );
            let logn = n.trailing_zeros();
            let (fwd, inv) = if q == 8_380_417 {
                (Mode::MlDsaNtt, Mode::MlDsaIntt)
            } else {
                (Mode::FalconNtt(logn), Mode::FalconIntt(logn))
            };
            let m = CycleModel {
                bfus: bfus as u32,
                ..CycleModel::default()
            };
            for (key, mode, p) in [
                ("ntt", fwd, 1),
                ("intt", inv, 1),
                ("batch64_ntt", fwd, 64),
                ("batch64_intt", inv, 64),
            ] {
                assert_eq!(
                    m.request(mode, p),
                    cycles(object(line, key)),
                    "q {q} n {n} bfus {bfus} {key}"
                );
            }
            rows += 1;
        }
        assert_eq!(rows, 9, "the table covers the 9 configurations of hw/ntt");
    }

    #[test]
    fn empty_and_nop_cost_the_setup() {
        let m = CycleModel::default();
        assert_eq!(m.request(Mode::Nop, 0).total, 18);
        assert_eq!(m.request(Mode::MlDsaNtt, 0).total, 18);
        // ML-DSA, 2 BFUs: T = 64, 8 layers.
        assert_eq!(m.request(Mode::MlDsaNtt, 4).total, 4 * 512 + 32 + 18);
    }
}
