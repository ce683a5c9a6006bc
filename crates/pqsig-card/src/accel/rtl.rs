//! The `rtl` accelerator: the Verilator model of hw/ntt (crate `pqsig-hwsim`,
//! `RtlNtt`). Exact and slow: every request runs cycle by cycle through the simulated
//! RTL, its AXI master reading and writing a buffer that holds the request's data; the
//! device time reported is the simulation's own cycle count (start to done) at the
//! card's clock. Results are released as soon as the simulation ends (it is far
//! slower than the hardware it models, so there is nothing to wait for).
//!
//! One simulated card per transform size (ML-DSA n = 256; Falcon n = 512 and 1024 when
//! those models are compiled in), all with the card's number of butterfly units, behind
//! one lock: requests of all clients queue for the same hardware.
//!
//! The hardware takes canonical words in `[0, q)`: the card maps ML-DSA's signed
//! coefficients (|a| < q, checked) to them and returns canonical results, which the
//! library's later steps treat exactly like the CPU kernels' (equal modulo q).

use super::{input_in_bounds, Accelerator, Completion};
use crate::regs::{Mode, Status, ACCEL_RTL};
use pqsig_hwsim::{Config, RtlNtt, SimError};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

const MLDSA_Q: i32 = 8_380_417;
const FALCON_Q: u32 = 12_289;

struct Sims {
    mldsa: RtlNtt,
    falcon512: Option<RtlNtt>,
    falcon1024: Option<RtlNtt>,
}

pub struct Rtl {
    clock_hz: f64,
    bfus: u32,
    sims: Mutex<Sims>,
}

impl Rtl {
    /// The simulated accelerator with `bfus` radix-2 butterfly units (1, 2 or 4: the
    /// configurations hw/ntt builds); an error to print when the ML-DSA model of that
    /// configuration is not compiled into this build.
    pub fn new(clock_mhz: f64, bfus: u32) -> Result<Rtl, String> {
        let mldsa = RtlNtt::new(Config::new(MLDSA_Q as u32, 256, bfus)).map_err(|e| {
            format!(
                "--accel rtl: no Verilator model of ML-DSA with {bfus} butterfly units in this \
                 build ({e}; hw/ntt has 1, 2 and 4; PQSIG_HWSIM_CONFIGS selects those compiled)"
            )
        })?;
        let falcon = |n| RtlNtt::new(Config::new(FALCON_Q, n, bfus)).ok();
        Ok(Rtl {
            clock_hz: clock_mhz * 1e6,
            bfus,
            sims: Mutex::new(Sims {
                mldsa,
                falcon512: falcon(512),
                falcon1024: falcon(1024),
            }),
        })
    }

    /// Butterfly units of the simulated configuration.
    pub fn bfus(&self) -> u32 {
        self.bfus
    }
}

/// A simulation failure as a request status: bad input is the client's, the rest the
/// accelerator's.
fn status(e: SimError) -> Status {
    match e {
        SimError::NotCanonical { .. } | SimError::BadArg(_) => Status::BadData,
        _ => Status::Failed,
    }
}

impl Accelerator for Rtl {
    fn kind(&self) -> u32 {
        ACCEL_RTL
    }
    fn clock_hz(&self) -> f64 {
        self.clock_hz
    }
    fn model(&self) -> Option<crate::cycles::CycleModel> {
        None
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
        let (sim_mode, falcon_logn) = match mode {
            Mode::Nop => return Ok(Completion::default()),
            Mode::Verify => return Err(Status::BadMode),
            Mode::MlDsaNtt => (pqsig_hwsim::Mode::Ntt, None),
            Mode::MlDsaIntt => (pqsig_hwsim::Mode::Intt, None),
            Mode::FalconNtt(l) => (pqsig_hwsim::Mode::Ntt, Some(l)),
            Mode::FalconIntt(l) => (pqsig_hwsim::Mode::Intt, Some(l)),
        };
        let mut words: Vec<u32> = match falcon_logn {
            None => data
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]).rem_euclid(MLDSA_Q) as u32)
                .collect(),
            Some(_) => data
                .chunks_exact(2)
                .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
                .collect(),
        };
        let mut sims = self.sims.lock().unwrap_or_else(PoisonError::into_inner);
        let started = Instant::now();
        let sim = match falcon_logn {
            None => Some(&mut sims.mldsa),
            Some(9) => sims.falcon512.as_mut(),
            Some(10) => sims.falcon1024.as_mut(),
            Some(_) => None,
        }
        .ok_or(Status::BadMode)?;
        let c = sim
            .run(sim_mode, &mut words, num_polys as usize)
            .map_err(status)?;
        drop(sims);
        match falcon_logn {
            None => {
                for (w, out) in words.iter().zip(data.chunks_exact_mut(4)) {
                    out.copy_from_slice(&(*w as i32).to_le_bytes());
                }
            }
            Some(_) => {
                for (w, out) in words.iter().zip(data.chunks_exact_mut(2)) {
                    out.copy_from_slice(&(*w as u16).to_le_bytes());
                }
            }
        }
        Ok(Completion {
            cycles: pqsig::batch::RequestCycles {
                load: c.load,
                compute: c.compute,
                store: c.store,
                total: c.total,
            },
            device_ns: crate::cycles::CycleModel::nanos(c.total, self.clock_hz),
            queued_ns: started.saturating_duration_since(picked_up).as_nanos() as u64,
            release_at: None,
        })
    }
}
