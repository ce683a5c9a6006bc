//! Cycle-accurate co-simulation of the `hw/ntt` NTT/INTT accelerator (Verilator), with
//! the library's portable kernels as golden model.
//!
//! The RTL (`hw/ntt/rtl`) is Verilated once per configuration by the build script; the
//! C++ harness (`hw/ntt/sim`) plays the host and the memory: it programs the AXI-Lite
//! registers, serves the AXI4 master from a buffer standing for the DMA window and
//! checks every burst (inside the buffer, INCR, full width, at most 256 beats, no 4 KiB
//! crossing, WLAST where the burst ends). [`RtlNtt`] is the safe handle on one
//! simulated card.
//!
//! Module [`falcon`]: the `hw/falcon` binary64 adder, multiplier and FFT/iFFT engine
//! (Falcon, n = 512 / 1024), with `fpr::emulated` and the FFT kernels as golden model;
//! [`falcon_device`]: that engine as kernel device `rtl-falcon` (Falcon's FFT/iFFT, and
//! SamplerZ once a sampler is plugged in).
//!
//! # The host boundary
//! One request is `{buffer, num_polys, mode}`: `num_polys` polynomials of `n` 32-bit
//! words each, one after the other, transformed in place. Words are canonical residues
//! in `[0, q)`. The hardware computes exactly the library's transform, reduced to
//! `[0, q)`:
//! * ML-DSA (q = 8380417, n = 256) forward: `ntt` (Cooley–Tukey, FIPS 204 bit-reversed
//!   output order), canonical; inverse: `invntt_tomont` (including 1/n and the factor
//!   2^32), canonical. The ML-DSA kernels take signed inputs with |a| < q: the host maps
//!   them to `[0, q)` first ([`golden::mldsa_to_words`]).
//! * Falcon (q = 12289, n = 512, 1024): the kernels' `ntt` / `intt` (reference `mq_NTT`
//!   order; inverse including 1/n), which are canonical already.

pub mod device;
pub mod falcon;
pub mod falcon_device;
mod ffi;
pub mod golden;
pub mod samplerz;

use core::ffi::c_char;
use core::fmt;
use core::ptr::NonNull;

/// The butterfly unit kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BfuKind {
    /// Radix-2 Cooley–Tukey (forward) / Gentleman–Sande (inverse) butterflies.
    Radix2,
    /// The Winograd radix-8 unit (`ntt_core_w8`): `bfus` counts radix-8 units (one is
    /// built: 8 points per cycle, three NTT layers per pass, a 256-bit bus).
    Winograd8,
}

/// One accelerator configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// 8380417 (with n = 256) or 12289 (with n = 512 or 1024).
    pub q: u32,
    pub n: u32,
    /// Butterfly units: 1, 2 or 4 radix-2 units, or 1 Winograd radix-8 unit.
    pub bfus: u32,
    pub kind: BfuKind,
    /// Memory model: percentage of cycles in which each AXI channel stalls (0..=90).
    pub stall_pct: u32,
    /// Seed of the stall pattern.
    pub seed: u32,
    /// Byte offset of the buffer inside its 4 KiB page (a multiple of the bus width,
    /// [`Config::beat_bytes`], or the device rejects the request).
    pub buf_offset: u32,
}

impl Config {
    pub const fn new(q: u32, n: u32, bfus: u32) -> Self {
        Config {
            q,
            n,
            bfus,
            kind: BfuKind::Radix2,
            stall_pct: 0,
            seed: 1,
            buf_offset: 0,
        }
    }
    /// One Winograd radix-8 unit for (q, n).
    pub const fn winograd8(q: u32, n: u32) -> Self {
        Config {
            kind: BfuKind::Winograd8,
            ..Config::new(q, n, 1)
        }
    }
    /// log2 n.
    pub fn logn(&self) -> u32 {
        self.n.trailing_zeros()
    }
    /// Ideal compute cycles of one transform: n/2 · log2 n / bfus (radix-2); for the
    /// Winograd core, passes · n/8 (a pass = three layers, or one for the remainder:
    /// ceil(log2 n / 3) + (log2 n mod 3 == 2) passes: 4, 3, 4 for n = 256, 512, 1024).
    pub fn ideal_cycles(&self) -> u64 {
        match self.kind {
            BfuKind::Radix2 => (self.n as u64 / 2) * self.logn() as u64 / self.bfus as u64,
            BfuKind::Winograd8 => {
                let l = self.logn();
                let passes = l / 3 + l % 3;
                passes as u64 * self.n as u64 / 8 / self.bfus as u64
            }
        }
    }
    /// Bus width in bytes (the alignment BUF_ADDR needs): 8·bfus (radix-2), 32·bfus
    /// (Winograd).
    pub fn beat_bytes(&self) -> u32 {
        match self.kind {
            BfuKind::Radix2 => 8 * self.bfus,
            BfuKind::Winograd8 => 32 * self.bfus,
        }
    }
    fn ffi(&self) -> ffi::NttSimConfig {
        ffi::NttSimConfig {
            q: self.q,
            n: self.n,
            bfus: self.bfus,
            kind: match self.kind {
                BfuKind::Radix2 => 0,
                BfuKind::Winograd8 => 1,
            },
            stall_pct: self.stall_pct,
            seed: self.seed,
            buf_offset: self.buf_offset,
        }
    }
}

/// Every (q, n, bfus) of the accelerator with radix-2 units.
pub const ALL_CONFIGS: [Config; 9] = [
    Config::new(8380417, 256, 1),
    Config::new(8380417, 256, 2),
    Config::new(8380417, 256, 4),
    Config::new(12289, 512, 1),
    Config::new(12289, 512, 2),
    Config::new(12289, 512, 4),
    Config::new(12289, 1024, 1),
    Config::new(12289, 1024, 2),
    Config::new(12289, 1024, 4),
];

/// Every (q, n) of the accelerator with one Winograd radix-8 unit.
pub const WINOGRAD_CONFIGS: [Config; 3] = [
    Config::winograd8(8380417, 256),
    Config::winograd8(12289, 512),
    Config::winograd8(12289, 1024),
];

/// Transform direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Forward NTT.
    Ntt,
    /// Inverse NTT (with the 1/n factor; for ML-DSA also times 2^32).
    Intt,
}

/// The cycles of one request, from the device's counters. The engines overlap, so
/// `load + compute + store` may exceed `total`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cycles {
    /// Cycles in which the loader was receiving a polynomial.
    pub load: u64,
    /// Cycles in which a butterfly was issued or in flight.
    pub compute: u64,
    /// Cycles in which the storer had a beat or a burst pending.
    pub store: u64,
    /// Cycles from start to done.
    pub total: u64,
}

/// Why a simulated request failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimError {
    /// The configuration is not compiled into this build (or not implemented).
    Config(Config),
    /// Bad argument (buffer length, mode, too many polynomials).
    BadArg(String),
    /// A word is not a canonical residue.
    NotCanonical { index: usize, value: u32 },
    /// AXI access outside the buffer.
    Outside(String),
    /// Illegal AXI burst.
    Burst(String),
    /// AXI protocol violation (W beats, WLAST, outstanding bursts at done).
    Protocol(String),
    /// The device did not signal done in time.
    Timeout(String),
    /// The device reported an error (ERR register).
    Device(String),
    /// Stopped by the caller's cycle limit ([`RtlNtt::run_for`]).
    Incomplete,
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for SimError {}

/// Most polynomials in one request (the NUM_POLYS register has 16 bits).
pub const MAX_POLYS: usize = 65535;

/// One simulated accelerator card.
pub struct RtlNtt {
    h: NonNull<ffi::NttSim>,
    cfg: Config,
}

// SAFETY: the handle owns its Verilated model and memory model exclusively; nothing in
// them is shared between handles or thread-local, and `&mut self` serialises calls.
unsafe impl Send for RtlNtt {}

impl RtlNtt {
    /// Instantiates the simulated card of `cfg`.
    pub fn new(cfg: Config) -> Result<Self, SimError> {
        let c = cfg.ffi();
        let mut err = 0;
        // SAFETY: `c` and `err` are valid for the call; the harness copies the config.
        let h = unsafe { ffi::ntt_sim_new(&c, &mut err) };
        match NonNull::new(h) {
            Some(h) => Ok(RtlNtt { h, cfg }),
            None if err == ffi::EBADARG => Err(SimError::BadArg(format!("{cfg:?}"))),
            None => Err(SimError::Config(cfg)),
        }
    }

    /// The configurations compiled into this build.
    pub fn available() -> Vec<Config> {
        // SAFETY: a null output pointer asks for the count only.
        let k = unsafe { ffi::ntt_sim_configs(core::ptr::null_mut(), 0) };
        let mut v = vec![ffi::NttSimConfig::default(); k as usize];
        // SAFETY: `v` has room for `k` entries.
        let k = unsafe { ffi::ntt_sim_configs(v.as_mut_ptr(), k) };
        v.truncate(k as usize);
        v.iter()
            .map(|c| Config {
                kind: if c.kind == 1 {
                    BfuKind::Winograd8
                } else {
                    BfuKind::Radix2
                },
                ..Config::new(c.q, c.n, c.bfus)
            })
            .collect()
    }

    pub fn config(&self) -> Config {
        self.cfg
    }

    fn check(&self, buf: &[u32], num_polys: usize) -> Result<usize, SimError> {
        if num_polys > MAX_POLYS {
            return Err(SimError::BadArg(format!(
                "num_polys {num_polys} > {MAX_POLYS}"
            )));
        }
        let words = num_polys * self.cfg.n as usize;
        if buf.len() < words {
            return Err(SimError::BadArg(format!(
                "buffer of {} words < {num_polys} polys of {}",
                buf.len(),
                self.cfg.n
            )));
        }
        if let Some((index, &value)) = buf[..words]
            .iter()
            .enumerate()
            .find(|(_, &w)| w >= self.cfg.q)
        {
            return Err(SimError::NotCanonical { index, value });
        }
        Ok(words)
    }

    fn error(&self, code: i32) -> SimError {
        let mut b = [0 as c_char; 256];
        // SAFETY: `b` is writable for its length; the handle is live.
        unsafe { ffi::ntt_sim_error_message(self.h.as_ptr(), b.as_mut_ptr(), b.len() as u32) };
        let msg: String = b
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8 as char)
            .collect();
        match code {
            ffi::EBADARG => SimError::BadArg(msg),
            ffi::ECONFIG => SimError::Config(self.cfg),
            ffi::EOUTSIDE => SimError::Outside(msg),
            ffi::EBURST => SimError::Burst(msg),
            ffi::EPROTOCOL => SimError::Protocol(msg),
            ffi::ETIMEOUT => SimError::Timeout(msg),
            ffi::EDEVICE => SimError::Device(msg),
            ffi::EINCOMPLETE => SimError::Incomplete,
            _ => SimError::Protocol(format!("code {code}: {msg}")),
        }
    }

    /// Runs one request: transforms the first `num_polys` polynomials of `buf` in place
    /// (each `n` canonical words). On error `buf` is unchanged.
    pub fn run(
        &mut self,
        mode: Mode,
        buf: &mut [u32],
        num_polys: usize,
    ) -> Result<Cycles, SimError> {
        self.run_inner(mode, buf, num_polys, None)
    }

    /// Starts a request and stops after `max_cycles` clock cycles whether it finished
    /// or not (`Err(Incomplete)` then; the card stays mid-request until [`reset`]).
    ///
    /// [`reset`]: RtlNtt::reset
    pub fn run_for(
        &mut self,
        mode: Mode,
        buf: &mut [u32],
        num_polys: usize,
        max_cycles: u64,
    ) -> Result<Cycles, SimError> {
        self.run_inner(mode, buf, num_polys, Some(max_cycles.max(1)))
    }

    fn run_inner(
        &mut self,
        mode: Mode,
        buf: &mut [u32],
        num_polys: usize,
        limit: Option<u64>,
    ) -> Result<Cycles, SimError> {
        let words = self.check(buf, num_polys)?;
        let m = match mode {
            Mode::Ntt => 0,
            Mode::Intt => 1,
        };
        let mut c = ffi::NttSimCycles::default();
        let mut tmp = buf[..words].to_vec();
        // SAFETY: `tmp` holds `num_polys * n` words as the harness requires; `c` is valid.
        let rc = unsafe {
            match limit {
                None => ffi::ntt_sim_run(
                    self.h.as_ptr(),
                    tmp.as_mut_ptr(),
                    num_polys as u32,
                    m,
                    &mut c,
                ),
                Some(l) => ffi::ntt_sim_run_for(
                    self.h.as_ptr(),
                    tmp.as_mut_ptr(),
                    num_polys as u32,
                    m,
                    l,
                    &mut c,
                ),
            }
        };
        if rc != ffi::OK {
            return Err(self.error(rc));
        }
        buf[..words].copy_from_slice(&tmp);
        Ok(Cycles {
            load: c.load,
            compute: c.compute,
            store: c.store,
            total: c.total,
        })
    }

    /// Pulses the card's reset (ARESETn) and clears the memory model.
    pub fn reset(&mut self) {
        // SAFETY: the handle is live.
        unsafe { ffi::ntt_sim_reset(self.h.as_ptr()) };
    }

    /// Test hook: the next requests program BUF_ADDR `delta` bytes away from the real
    /// buffer, so the device reads and writes outside it (the AXI checks must fire).
    pub fn set_addr_skew(&mut self, delta: i32) {
        // SAFETY: the handle is live.
        unsafe { ffi::ntt_sim_set_addr_skew(self.h.as_ptr(), delta) };
    }

    /// Memory model latency (cycles): from an AR handshake to its first data beat, and
    /// from a burst's last W beat to its B response (defaults 0 and 2). Results do not
    /// depend on it; cycle counts do.
    pub fn set_latency(&mut self, read_cycles: u32, write_cycles: u32) -> Result<(), SimError> {
        // SAFETY: the handle is live.
        let rc = unsafe { ffi::ntt_sim_set_latency(self.h.as_ptr(), read_cycles, write_cycles) };
        if rc == ffi::OK {
            Ok(())
        } else {
            Err(SimError::BadArg(format!(
                "latency {read_cycles}/{write_cycles}"
            )))
        }
    }

    /// Moves the buffer to `offset` bytes inside its 4 KiB page (< 4096).
    pub fn set_buf_offset(&mut self, offset: u32) -> Result<(), SimError> {
        // SAFETY: the handle is live.
        let rc = unsafe { ffi::ntt_sim_set_buf_offset(self.h.as_ptr(), offset) };
        if rc == ffi::OK {
            self.cfg.buf_offset = offset;
            Ok(())
        } else {
            Err(SimError::BadArg(format!("buffer offset {offset}")))
        }
    }
}

impl Drop for RtlNtt {
    fn drop(&mut self) {
        // SAFETY: the handle came from `ntt_sim_new` and is freed once.
        unsafe { ffi::ntt_sim_free(self.h.as_ptr()) };
    }
}

pub use device::{register, RtlNttDevice};
