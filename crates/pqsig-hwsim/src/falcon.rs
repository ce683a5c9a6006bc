//! Cycle-accurate co-simulation of `hw/falcon`: the binary64 adder and multiplier
//! (`falcon_fpadd`, `falcon_fpmul`) and the FFT/iFFT engine (`falcon_fft`, n = 512 and
//! 1024), Verilated by the build script, driven by the C++ harness `hw/falcon/sim`.
//!
//! Golden models (in the tests): the library's integer-only binary64
//! (`pqsig::kernels::falcon::fpr::emulated`) for the units, its portable FFT kernels
//! (`pqsig::kernels::falcon::fft::portable`) for the engine. Values cross the boundary
//! as binary64 bit patterns (`u64`).

use std::sync::Mutex;

mod ffi {
    use core::ffi::c_int;
    pub const OK: c_int = 0;
    pub const EBADARG: c_int = 1;
    extern "C" {
        pub fn falcon_fpu_stream(
            op: u32,
            a: *const u64,
            b: *const u64,
            out: *mut u64,
            count: usize,
            latency: *mut u32,
        ) -> c_int;
        pub fn falcon_fft_run(
            units: u32,
            logn: u32,
            inverse: u32,
            data: *mut u64,
            cycles: *mut u64,
        ) -> c_int;
    }
}

/// One Verilated model runs at a time (they share Verilator's default context).
static LOCK: Mutex<()> = Mutex::new(());

/// An operation of the binary64 units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpOp {
    /// `a + b` on `falcon_fpadd`.
    Add,
    /// `a - b` on `falcon_fpadd` (its `sub` input).
    Sub,
    /// `a · b` on `falcon_fpmul`.
    Mul,
}

/// Why a Falcon simulation call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FalconSimError {
    /// Mismatched slice lengths, a logn other than 9 or 10, ...
    BadArg(String),
    /// The model did not answer (no result within the harness's cycle limit).
    Timeout,
}

impl core::fmt::Display for FalconSimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{self:?}")
    }
}
impl std::error::Error for FalconSimError {}

fn status(rc: core::ffi::c_int, what: &str) -> Result<(), FalconSimError> {
    match rc {
        ffi::OK => Ok(()),
        ffi::EBADARG => Err(FalconSimError::BadArg(what.into())),
        _ => Err(FalconSimError::Timeout),
    }
}

/// Streams the operand pairs `(a[i], b[i])` through one unit, one pair per clock cycle
/// (initiation interval 1). Returns the results in order and the unit's latency in
/// cycles (measured on the model).
pub fn fpu_stream(op: FpOp, a: &[u64], b: &[u64]) -> Result<(Vec<u64>, u32), FalconSimError> {
    if a.len() != b.len() {
        return Err(FalconSimError::BadArg(format!(
            "operand slices of {} and {} words",
            a.len(),
            b.len()
        )));
    }
    let mut out = vec![0u64; a.len()];
    let mut lat = 0u32;
    let code = match op {
        FpOp::Add => 0,
        FpOp::Sub => 1,
        FpOp::Mul => 2,
    };
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: a, b and out hold a.len() words each (checked above); the harness reads a
    // and b and writes out within that length only, and keeps no pointer after returning.
    let rc = unsafe {
        ffi::falcon_fpu_stream(
            code,
            a.as_ptr(),
            b.as_ptr(),
            out.as_mut_ptr(),
            a.len(),
            &mut lat,
        )
    };
    status(rc, "fpu_stream")?;
    Ok((out, lat))
}

/// Runs the FFT engine of degree 2^logn (logn 9 or 10) with one adder and one multiplier
/// on `data` in place (n binary64 bit patterns in the library's layout): forward FFT, or
/// inverse when `inverse`. Returns the engine's cycles for the transform (start to done;
/// the host port's load and unload are not counted).
pub fn fft_run(logn: u32, inverse: bool, data: &mut [u64]) -> Result<u64, FalconSimError> {
    fft_run_units(1, logn, inverse, data)
}

/// [`fft_run`] on the engine with `units` adders and multipliers (1 or 2: the RTL's
/// `UNITS` parameter).
pub fn fft_run_units(
    units: u32,
    logn: u32,
    inverse: bool,
    data: &mut [u64],
) -> Result<u64, FalconSimError> {
    if !(logn == 9 || logn == 10) || data.len() != 1 << logn || !(units == 1 || units == 2) {
        return Err(FalconSimError::BadArg(format!(
            "logn {logn}, {units} units, {} words (engines: logn 9 and 10, 1 or 2 units, n words)",
            data.len()
        )));
    }
    let mut cycles = 0u64;
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: data holds exactly 2^logn words (checked above), all the harness touches;
    // it keeps no pointer after returning.
    let rc =
        unsafe { ffi::falcon_fft_run(units, logn, inverse as u32, data.as_mut_ptr(), &mut cycles) };
    status(rc, "fft_run")?;
    Ok(cycles)
}
