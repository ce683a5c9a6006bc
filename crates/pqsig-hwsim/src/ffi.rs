//! Raw bindings of hw/ntt/sim/ntt_sim.h (kept in step with that header by hand).

use core::ffi::{c_char, c_int};

#[repr(C)]
pub struct NttSim {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct NttSimConfig {
    pub q: u32,
    pub n: u32,
    pub bfus: u32,
    pub kind: u32,
    pub stall_pct: u32,
    pub seed: u32,
    pub buf_offset: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Default, Debug)]
pub struct NttSimCycles {
    pub load: u64,
    pub compute: u64,
    pub store: u64,
    pub total: u64,
    pub sim_cycles: u64,
}

pub const OK: c_int = 0;
pub const EBADARG: c_int = 1;
pub const ECONFIG: c_int = 2;
pub const EOUTSIDE: c_int = 3;
pub const EBURST: c_int = 4;
pub const EPROTOCOL: c_int = 5;
pub const ETIMEOUT: c_int = 6;
pub const EDEVICE: c_int = 7;
pub const EINCOMPLETE: c_int = 8;

extern "C" {
    pub fn ntt_sim_new(cfg: *const NttSimConfig, err: *mut c_int) -> *mut NttSim;
    pub fn ntt_sim_free(h: *mut NttSim);
    pub fn ntt_sim_run(
        h: *mut NttSim,
        words: *mut u32,
        num_polys: u32,
        mode: u32,
        cycles: *mut NttSimCycles,
    ) -> c_int;
    pub fn ntt_sim_run_for(
        h: *mut NttSim,
        words: *mut u32,
        num_polys: u32,
        mode: u32,
        max_cycles: u64,
        cycles: *mut NttSimCycles,
    ) -> c_int;
    pub fn ntt_sim_reset(h: *mut NttSim) -> c_int;
    pub fn ntt_sim_set_buf_offset(h: *mut NttSim, off: u32) -> c_int;
    pub fn ntt_sim_set_addr_skew(h: *mut NttSim, delta: i32) -> c_int;
    pub fn ntt_sim_set_latency(h: *mut NttSim, read_cycles: u32, write_cycles: u32) -> c_int;
    pub fn ntt_sim_error_message(h: *const NttSim, buf: *mut c_char, len: u32);
    pub fn ntt_sim_configs(out: *mut NttSimConfig, max: u32) -> u32;
}
