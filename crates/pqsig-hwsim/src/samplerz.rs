//! Cycle-accurate co-simulation of `hw/falcon/rtl/falcon_samplerz.v`, the device half of
//! Falcon's SamplerZ (base sampler, sign bit, BerExp), Verilated by the build script and
//! driven by the C++ harness `hw/falcon/sim/falcon_samplerz_sim.cpp`.
//!
//! [`RtlSamplerZ::serve`] takes the library's [`SamplerZRequest`] and answers like
//! [`serve_on_cpu`](pqsig::kernels::falcon::samplerz::device::serve_on_cpu), the golden
//! model: the same integers, the same stream advance, `NeedMore` exactly when the
//! supplied windows do not suffice. The harness writes the current window and the windows
//! ahead into the device's window RAM (four 512-byte slots; a window beyond those is
//! written when the device asks for it, into the slot of a window it has left), issues
//! the requests one after the other and reads the results.

use pqsig::kernels::falcon::samplerz::device::{SamplerZReply, SamplerZRequest, StreamAdvance};
use pqsig::kernels::falcon::samplerz::WINDOW;
use pqsig::DeviceError;
use std::ptr::NonNull;

mod ffi {
    use core::ffi::c_int;
    pub const OK: c_int = 0;
    pub const EBADARG: c_int = 1;

    #[repr(C)]
    pub struct FalconSz {
        _private: [u8; 0],
    }

    #[repr(C)]
    #[derive(Default)]
    pub struct FalconSzResult {
        pub need_more: u32,
        pub refills: u32,
        pub pos: u32,
        pub cycles: u64,
        pub stall_cycles: u64,
        pub load_cycles: u64,
    }

    extern "C" {
        pub fn falcon_sz_new() -> *mut FalconSz;
        pub fn falcon_sz_free(h: *mut FalconSz);
        pub fn falcon_sz_serve(
            h: *mut FalconSz,
            sigma_min: u64,
            mu: *const u64,
            isigma: *const u64,
            count: usize,
            window: *const u8,
            pos: u32,
            ahead: *const u8,
            n_ahead: usize,
            out: *mut i32,
            attempts: *mut u32,
            req_cycles: *mut u64,
            res: *mut FalconSzResult,
        ) -> c_int;
    }
}

/// What the last [`RtlSamplerZ::serve`] call measured on the model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SamplerZTrace {
    /// Device cycles of each request served, start to done (a `NeedMore` batch: up to and
    /// including the request that ran out).
    pub req_cycles: Vec<u64>,
    /// Rejection-loop iterations of each of those requests.
    pub attempts: Vec<u32>,
    /// Cycles the device waited for the host to write a window beyond the four its RAM
    /// holds (not in the request cycles).
    pub stall_cycles: u64,
    /// Host-port cycles writing the windows before the batch (one 64-bit word a cycle;
    /// not in the request cycles).
    pub load_cycles: u64,
}

/// One simulated SamplerZ device (its own Verilator context: handles on different
/// threads do not interfere).
pub struct RtlSamplerZ {
    h: NonNull<ffi::FalconSz>,
    trace: SamplerZTrace,
}

// SAFETY: the handle owns its Verilated model and context exclusively (nothing shared
// between handles or thread-local), and `&mut self` serialises calls.
unsafe impl Send for RtlSamplerZ {}

impl RtlSamplerZ {
    /// A fresh device. Panics only if the harness cannot allocate the model.
    pub fn new() -> Self {
        // SAFETY: no arguments; the result is checked for null.
        let h = unsafe { ffi::falcon_sz_new() };
        RtlSamplerZ {
            h: NonNull::new(h).expect("falcon_sz_new: allocation failed"),
            trace: SamplerZTrace::default(),
        }
    }

    /// Serves `req` on the RTL: `out[..req.reqs.len()]` and the reply as
    /// `serve_on_cpu(req, out)` gives them, plus the device cycles (the sum of the
    /// requests' start-to-done cycles; per request in [`RtlSamplerZ::trace`]).
    /// `DeviceError::Declined` for a malformed request (a position past the window, `out`
    /// too short, more than 65535 windows ahead), `DeviceError::Failed` if the model does
    /// not answer. On `NeedMore` (or an error) `out` is untouched.
    pub fn serve(
        &mut self,
        req: &SamplerZRequest<'_>,
        out: &mut [i32],
    ) -> Result<(SamplerZReply, u64), DeviceError> {
        let n = req.reqs.len();
        if req.pos > WINDOW || out.len() < n || req.ahead.len() > 65535 {
            return Err(DeviceError::Declined);
        }
        self.trace = SamplerZTrace::default();
        if n == 0 {
            // Nothing is read: the stream stays where it is.
            return Ok((
                SamplerZReply::Done(StreamAdvance {
                    refills: 0,
                    pos: req.pos,
                }),
                0,
            ));
        }
        let mu: Vec<u64> = req.reqs.iter().map(|r| r.mu.to_bits()).collect();
        let isigma: Vec<u64> = req.reqs.iter().map(|r| r.isigma.to_bits()).collect();
        let mut tmp = vec![0i32; n];
        let mut attempts = vec![0u32; n];
        let mut cycles = vec![0u64; n];
        let mut res = ffi::FalconSzResult::default();
        // SAFETY: mu, isigma, tmp, attempts and cycles hold n elements; window is WINDOW
        // bytes; `ahead` is a slice of [u8; WINDOW] arrays, i.e. ahead.len() * WINDOW
        // contiguous bytes. The harness reads/writes within those lengths only and keeps
        // no pointer after returning; the handle is live and used by this thread only.
        let rc = unsafe {
            ffi::falcon_sz_serve(
                self.h.as_ptr(),
                req.sigma_min.to_bits(),
                mu.as_ptr(),
                isigma.as_ptr(),
                n,
                req.window.as_ptr(),
                req.pos as u32,
                req.ahead.as_ptr().cast::<u8>(),
                req.ahead.len(),
                tmp.as_mut_ptr(),
                attempts.as_mut_ptr(),
                cycles.as_mut_ptr(),
                &mut res,
            )
        };
        match rc {
            ffi::OK => {}
            ffi::EBADARG => return Err(DeviceError::Declined),
            _ => return Err(DeviceError::Failed),
        }
        // Requests actually run (all of them unless the windows ran out).
        let ran = cycles.iter().take_while(|&&c| c > 0).count();
        cycles.truncate(ran);
        attempts.truncate(ran);
        let total = cycles.iter().sum();
        self.trace = SamplerZTrace {
            req_cycles: cycles,
            attempts,
            stall_cycles: res.stall_cycles,
            load_cycles: res.load_cycles,
        };
        if res.need_more != 0 {
            return Ok((SamplerZReply::NeedMore, total));
        }
        out[..n].copy_from_slice(&tmp);
        Ok((
            SamplerZReply::Done(StreamAdvance {
                refills: res.refills as usize,
                pos: res.pos as usize,
            }),
            total,
        ))
    }

    /// Per-request cycles and attempts of the last [`RtlSamplerZ::serve`].
    pub fn trace(&self) -> &SamplerZTrace {
        &self.trace
    }
}

impl Default for RtlSamplerZ {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for RtlSamplerZ {
    fn drop(&mut self) {
        // SAFETY: the handle came from `falcon_sz_new` and is freed once.
        unsafe { ffi::falcon_sz_free(self.h.as_ptr()) };
    }
}
