//! Devices behind kernel-table entries: a device (a simulated or real NTT accelerator)
//! serves the NTT and inverse NTT of otherwise-CPU kernel tables, one request per call
//! in the ML-DSA FPGA design's shape `{buffer, num_polys, mode}`. A device may also
//! serve Falcon's FFT and inverse FFT over binary64 ([`KernelDevice::supports_fft`],
//! [`KernelDevice::transform_fft`]) and its SamplerZ ([`KernelDevice::supports_samplerz`]),
//! the two halves of the Falcon co-design's hardware.
//!
//! Two ways a device is used:
//! * **process-wide** ([`set_kernel_device`]): every ML-DSA and Falcon (q = 12289) table
//!   that `kernels::mldsa::kernels` / `kernels::falcon::ntt::kernels` hand out has its
//!   transforms routed to the device — single calls (keygen, sign, verify, KATs) and the
//!   batch engine's lockstep groups alike;
//! * **per batch** (`batch::Options::kernel_device`): only that batch's ML-DSA groups.
//!
//! Requests are fallible. An error, or a reply with a coefficient outside the kernel's
//! documented output bound, makes the caller restore the input and run the CPU kernel
//! on it, so a device can slow a result down but never change it. Requests larger than
//! [`KernelDevice::max_polys`] are split. The backup of the input is wiped afterwards
//! (these polynomials can be secret: `s1`, `y`, Falcon's `f`); a device receives secret
//! data by design, as the hardware of the papers does.
//!
//! # Falcon's FFT
//! The FFT is not a [`TransformMode`]: its data is binary64 (`Fpr`), one polynomial of
//! `2^logn` values (the FFT kernels' layout) per request, and devices that predate it
//! (which match `TransformMode` exhaustively or say yes to every mode) must not receive
//! it by accident. So it has its own pair of trait methods, both off by default. While a
//! process-wide device is set, `kernels::falcon::fft::kernels(b)` hands out the
//! backend's FFT table with `fft` / `ifft` routed (`fft/routed.rs`): a call whose
//! `(direction, logn)` the device supports goes to `serve_fft`, any other runs the
//! backend's kernel. That table serves the round-3 signer (target vector, the compact
//! key's basis, the final iFFTs), key expansion, key generation's norm checks and Babai
//! reductions, and FN-DSA's signer. A reply is accepted when the call succeeded and
//! every value is finite; otherwise the input is restored from a wiped backup and the
//! CPU kernel runs. A device lying with finite values would change the result: the
//! check guards against faults, not against a malicious device (which sees the secret
//! basis anyway).
//!
//! # Cycles per kind
//! A device that counts its cycles per kind of Falcon request returns running totals
//! from [`KernelDevice::falcon_cycles`]; a caller takes differences around an operation
//! (the CLI's `kat --cycles`).
//!
//! Without `std` there is no device slot and no serving: the tables are the CPU's.

use super::falcon::fpr::Fpr;
use super::falcon::samplerz::device::{SamplerZReply, SamplerZRequest};
use super::mldsa::Poly;
use alloc::string::String;

/// What a request asks for. The conventions are the portable kernels' (their module
/// docs); a device answers with residues congruent to the kernel's output inside the
/// kernel's output bound (canonical residues are always accepted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransformMode {
    /// ML-DSA forward NTT (q = 8380417, n = 256, FIPS 204 bit-reversed output order).
    /// In: |a| < q. Out: |a| < 9q.
    MlDsaNtt,
    /// ML-DSA inverse NTT times 2^32 (includes 1/n). In: |a| < q. Out: |a| < q.
    MlDsaInvNttToMont,
    /// Falcon forward NTT mod 12289 of `2^logn` coefficients (reference `mq_NTT` order).
    /// In and out canonical, `[0, q)`.
    FalconNtt { logn: u32 },
    /// Falcon inverse NTT mod 12289 (includes 1/n). In and out canonical.
    FalconIntt { logn: u32 },
}

/// The direction of a Falcon FFT request: `kernels::falcon::fft::portable::fft` or
/// `ifft` (bit-exact: the KATs depend on every rounding), in place on `2^logn` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftDirection {
    /// Forward FFT (coefficients to FFT domain).
    Forward,
    /// Inverse FFT (includes the 2/n scaling).
    Inverse,
}

/// Requests of one kind and the device cycles they took (running totals).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCycles {
    /// Requests served (including ones whose reply the host rejected).
    pub requests: u64,
    /// Device cycles spent on them.
    pub cycles: u64,
}

impl KindCycles {
    /// The requests and cycles added since `earlier` (a previous reading).
    pub fn since(self, earlier: KindCycles) -> KindCycles {
        KindCycles {
            requests: self.requests.wrapping_sub(earlier.requests),
            cycles: self.cycles.wrapping_sub(earlier.cycles),
        }
    }
}

/// A Falcon device's running totals per kind of request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FalconDeviceCycles {
    /// Forward FFTs.
    pub fft: KindCycles,
    /// Inverse FFTs.
    pub ifft: KindCycles,
    /// SamplerZ requests (`None`: the device does not run SamplerZ, so it has no
    /// cycles to report; not the same as zero requests).
    pub samplerz: Option<KindCycles>,
}

impl FalconDeviceCycles {
    /// What was added since `earlier`.
    pub fn since(self, earlier: FalconDeviceCycles) -> FalconDeviceCycles {
        FalconDeviceCycles {
            fft: self.fft.since(earlier.fft),
            ifft: self.ifft.since(earlier.ifft),
            samplerz: match (self.samplerz, earlier.samplerz) {
                (Some(now), Some(then)) => Some(now.since(then)),
                (now, _) => now,
            },
        }
    }
}

/// Cycles a device reports for one request (simulated hardware: from the simulation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RequestCycles {
    /// Moving the batch from memory into the device.
    pub load: u64,
    /// The transforms.
    pub compute: u64,
    /// Moving the results back.
    pub store: u64,
    /// From start to done (load, compute and store overlap in a pipelined device).
    pub total: u64,
}

/// A device serving kernel-table entries.
pub trait KernelDevice: Send + Sync {
    /// Its name (what `--device` / `PQSIG_DEVICE` select it by).
    fn name(&self) -> String;
    /// A one-line description for `pqsig device list`.
    fn description(&self) -> String {
        String::from("kernel device (NTT / inverse NTT)")
    }
    /// Most polynomials in one request.
    fn max_polys(&self) -> usize;
    /// Whether the device takes requests of this mode (others run on the CPU).
    fn supports(&self, mode: TransformMode) -> bool;
    /// Transforms every polynomial of `polys` in place (ML-DSA modes).
    fn transform_mldsa(
        &self,
        mode: TransformMode,
        polys: &mut [Poly],
    ) -> Result<(), crate::DeviceError>;
    /// Transforms the `coeffs.len() >> logn` polynomials of `coeffs` in place (Falcon
    /// modes).
    fn transform_falcon(
        &self,
        mode: TransformMode,
        coeffs: &mut [u16],
    ) -> Result<(), crate::DeviceError>;
    /// The cycles of the last request this device completed, where it counts them.
    fn last_cycles(&self) -> Option<RequestCycles> {
        None
    }
    /// Whether the device takes asynchronous ML-DSA requests
    /// ([`KernelDevice::submit_mldsa`] / [`KernelDevice::complete_mldsa`]), so that a
    /// caller can keep several in flight and work on the host meanwhile (the batch
    /// engine then pipelines its ML-DSA verification groups). Devices that say no are
    /// only ever called through [`KernelDevice::transform_mldsa`].
    fn pipelines(&self) -> bool {
        false
    }
    /// Starts transforming `polys` (ML-DSA modes; at most [`KernelDevice::max_polys`]):
    /// the device takes its own copy of the input before returning, so the caller's
    /// polynomials are untouched until [`KernelDevice::complete_mldsa`]. Returns a
    /// ticket for that call.
    fn submit_mldsa(&self, mode: TransformMode, polys: &[Poly]) -> Result<u64, crate::DeviceError> {
        let _ = (mode, polys);
        Err(crate::DeviceError::Declined)
    }
    /// Waits for the request `ticket` and writes its results into `polys` (the same
    /// length as submitted). On an error `polys` may be partly written; the seam restores
    /// it. Each ticket is completed or cancelled once.
    fn complete_mldsa(&self, ticket: u64, polys: &mut [Poly]) -> Result<(), crate::DeviceError> {
        let _ = (ticket, polys);
        Err(crate::DeviceError::Declined)
    }
    /// Forgets the request `ticket` (its results are not wanted).
    fn cancel(&self, ticket: u64) {
        let _ = ticket;
    }
    /// Whether the device runs Falcon's SamplerZ (base sampler and BerExp; see
    /// [`crate::kernels::falcon::samplerz::device`]). A process-wide device that says
    /// yes gets every round-3 Falcon signature's sampling requests.
    fn supports_samplerz(&self) -> bool {
        false
    }
    /// Serves one SamplerZ request: `out[..req.reqs.len()]` and where the stream stands
    /// afterwards, or `NeedMore` when the supplied windows ran out. The host checks the
    /// reply and samples on the CPU on an error or an implausible reply.
    fn samplerz(
        &self,
        req: &SamplerZRequest<'_>,
        out: &mut [i32],
    ) -> Result<SamplerZReply, crate::DeviceError> {
        let _ = (req, out);
        Err(crate::DeviceError::Declined)
    }
    /// Lends `polys` zeroed polynomials of memory the device reaches itself (its DMA
    /// window), for a signer to compute in: a request on polynomials inside it needs no
    /// copies (the zero-copy interface; [`DeviceWorkspace`]). `None` (the default): the
    /// device has none, or it is lent out; the caller uses its own memory.
    fn workspace(&self, polys: usize) -> Option<alloc::boxed::Box<dyn DeviceWorkspace>> {
        let _ = polys;
        None
    }
    /// Whether the device runs Falcon FFTs of this direction and degree `2^logn` (module
    /// docs, "Falcon's FFT"). A process-wide device that says yes gets every such call
    /// of the FFT tables handed out while it is set; other calls stay on the CPU.
    fn supports_fft(&self, dir: FftDirection, logn: u32) -> bool {
        let _ = (dir, logn);
        false
    }
    /// Transforms `values` (exactly `2^logn` binary64 values, the FFT kernels' layout) in
    /// place, bit-exactly as the portable kernel. The host restores the input and
    /// recomputes on the CPU on an error or a non-finite value.
    fn transform_fft(
        &self,
        dir: FftDirection,
        logn: u32,
        values: &mut [Fpr],
    ) -> Result<(), crate::DeviceError> {
        let _ = (dir, logn, values);
        Err(crate::DeviceError::Declined)
    }
    /// Running totals of Falcon requests and their device cycles, per kind, where the
    /// device counts them.
    fn falcon_cycles(&self) -> Option<FalconDeviceCycles> {
        None
    }
}

/// Device-reachable memory lent to a signer ([`KernelDevice::workspace`]).
///
/// The signer keeps its working polynomials there (ML-DSA's y·A products, z, c and the
/// c·s products: secret), so the device must wipe it when the loan ends (on drop) and
/// must not lend it twice at once. What a device could do to memory it shares is what
/// it could do to any request it serves — return wrong values — and the seam's checks
/// (the output bound, the CPU fallback on an error) apply to requests on it as to any.
pub trait DeviceWorkspace: Send {
    /// The lent polynomials (all zero when lent).
    fn polys(&mut self) -> &mut [Poly];
}

/// A workspace of `polys` polynomials from the process-wide device, if it lends one.
#[cfg(feature = "std")]
pub(crate) fn workspace(polys: usize) -> Option<alloc::boxed::Box<dyn DeviceWorkspace>> {
    if !active() {
        return None;
    }
    kernel_device()?.workspace(polys)
}

/// Without `std` there is no device: never a workspace.
#[cfg(not(feature = "std"))]
pub(crate) fn workspace(_polys: usize) -> Option<alloc::boxed::Box<dyn DeviceWorkspace>> {
    None
}

#[cfg(feature = "std")]
/// Runs one Falcon FFT (`f[..2^logn]`) through `dev`, and falls back to `cpu` on the
/// restored input when the device fails or answers with a non-finite value (the caller
/// checked `dev.supports_fft(dir, logn)`). The values can be secret (the basis, the
/// sample): the backup is wiped, and the check reads every value without an early exit.
pub(crate) fn serve_fft(
    dev: &dyn KernelDevice,
    dir: FftDirection,
    logn: u32,
    f: &mut [Fpr],
    cpu: fn(&mut [Fpr], u32),
) {
    let n = 1usize << logn;
    if logn > 10 || f.len() < n {
        // Outside the kernels' contract: the CPU kernel reports it as it always has.
        return cpu(f, logn);
    }
    let v = &mut f[..n];
    let backup = zeroize::Zeroizing::new(
        v.iter()
            .map(|x| x.to_bits())
            .collect::<alloc::vec::Vec<u64>>(),
    );
    let ok = dev.transform_fft(dir, logn, v).is_ok() && all_finite(v);
    if !ok {
        for (d, &b) in v.iter_mut().zip(backup.iter()) {
            *d = Fpr::from_bits(b);
        }
        cpu(v, logn);
    }
}

/// Whether no value has the all-ones exponent (infinity or NaN), without branching on
/// the values: `exponent + 1` reaches bit 11 only for 0x7FF.
#[cfg(feature = "std")]
fn all_finite(v: &[Fpr]) -> bool {
    let bad = v.iter().fold(0u64, |acc, x| {
        acc | ((((x.to_bits() >> 52) & 0x7FF) + 1) >> 11)
    });
    bad == 0
}

#[cfg(feature = "std")]
/// Runs ML-DSA polynomials through `dev`, in requests of at most `max_polys`, and
/// falls back to `cpu` for any request that fails or comes back out of bounds.
pub(crate) fn serve_mldsa(
    dev: &dyn KernelDevice,
    mode: TransformMode,
    polys: &mut [Poly],
    cpu: fn(&mut [Poly]),
) {
    let bound = match mode {
        TransformMode::MlDsaNtt => 9 * super::mldsa::Q,
        _ => super::mldsa::Q,
    };
    if !dev.supports(mode) {
        return cpu(polys);
    }
    let step = dev.max_polys().max(1);
    for chunk in polys.chunks_mut(step) {
        // Wiped when dropped (Zeroizing): the polynomials may be secret.
        let backup = zeroize::Zeroizing::new(chunk.to_vec());
        let ok = dev.transform_mldsa(mode, chunk).is_ok()
            && chunk
                .iter()
                .all(|p| p.coeffs.iter().all(|&c| c > -bound && c < bound));
        if !ok {
            chunk.copy_from_slice(&backup);
            cpu(chunk);
        }
    }
}

#[cfg(feature = "std")]
/// An ML-DSA transform started by [`start_mldsa`] and not yet finished: one ticket per
/// request of at most `max_polys` (`None`: the device refused it, the CPU will run it).
/// Dropped unfinished, it cancels its tickets.
pub(crate) struct Started<'d> {
    dev: &'d dyn KernelDevice,
    mode: TransformMode,
    len: usize,
    step: usize,
    tickets: alloc::vec::Vec<Option<u64>>,
}

#[cfg(feature = "std")]
impl Drop for Started<'_> {
    fn drop(&mut self) {
        for t in self.tickets.drain(..).flatten() {
            self.dev.cancel(t);
        }
    }
}

#[cfg(feature = "std")]
/// Starts the ML-DSA transform `mode` of `polys` on `dev` without waiting for it
/// ([`KernelDevice::submit_mldsa`], in requests of at most `max_polys`); the host works
/// on while the device computes, and [`finish_mldsa`] collects the results. On a device
/// that does not pipeline, or a mode it does not take, nothing is sent now and
/// [`finish_mldsa`] runs [`serve_mldsa`].
pub(crate) fn start_mldsa<'d>(
    dev: &'d dyn KernelDevice,
    mode: TransformMode,
    polys: &[Poly],
) -> Started<'d> {
    let step = dev.max_polys().max(1);
    let tickets = if dev.pipelines() && dev.supports(mode) {
        polys
            .chunks(step)
            .map(|c| dev.submit_mldsa(mode, c).ok())
            .collect()
    } else {
        alloc::vec::Vec::new()
    };
    Started {
        dev,
        mode,
        len: polys.len(),
        step,
        tickets,
    }
}

#[cfg(feature = "std")]
/// Finishes what [`start_mldsa`] started on the same (unchanged) `polys`: each request's
/// results, or — for a request that was refused, fails, or comes back out of bounds —
/// the input restored and `cpu` run on it, as [`serve_mldsa`] does.
pub(crate) fn finish_mldsa(mut s: Started<'_>, polys: &mut [Poly], cpu: fn(&mut [Poly])) {
    let (dev, mode) = (s.dev, s.mode);
    if s.tickets.is_empty() || s.len != polys.len() {
        drop(s); // cancels whatever was sent
        return serve_mldsa(dev, mode, polys, cpu);
    }
    let bound = match mode {
        TransformMode::MlDsaNtt => 9 * super::mldsa::Q,
        _ => super::mldsa::Q,
    };
    let tickets = core::mem::take(&mut s.tickets);
    for (chunk, t) in polys.chunks_mut(s.step).zip(tickets) {
        // Wiped when dropped (Zeroizing): the polynomials may be secret.
        let backup = zeroize::Zeroizing::new(chunk.to_vec());
        let ok = t.is_some_and(|t| dev.complete_mldsa(t, chunk).is_ok())
            && chunk
                .iter()
                .all(|p| p.coeffs.iter().all(|&c| c > -bound && c < bound));
        if !ok {
            chunk.copy_from_slice(&backup);
            cpu(chunk);
        }
    }
}

#[cfg(feature = "std")]
/// Runs Falcon polynomials of `2^logn` coefficients through `dev` (as [`serve_mldsa`];
/// the bound is canonical, `[0, 12289)`).
pub(crate) fn serve_falcon(
    dev: &dyn KernelDevice,
    mode: TransformMode,
    logn: u32,
    a: &mut [u16],
    cpu: fn(&mut [u16], u32),
) {
    let n = 1usize << logn;
    // Whole polynomials only; a trailing partial one (never produced by the library)
    // stays with the CPU kernel, which leaves it untouched.
    let whole = a.len() / n * n;
    if !dev.supports(mode) || whole == 0 {
        return cpu(a, logn);
    }
    let step = dev.max_polys().max(1) * n;
    for chunk in a[..whole].chunks_mut(step) {
        let backup = zeroize::Zeroizing::new(chunk.to_vec());
        let ok = dev.transform_falcon(mode, chunk).is_ok()
            && chunk.iter().all(|&c| u32::from(c) < super::falcon::ntt::Q);
        if !ok {
            chunk.copy_from_slice(&backup);
            cpu(chunk, logn);
        }
    }
}

#[cfg(feature = "std")]
pub use slot::*;

#[cfg(feature = "std")]
mod slot {
    use super::*;
    use crate::kernels::falcon::ntt::NttKernels;
    use crate::kernels::mldsa::Kernels;
    use crate::kernels::select::Backend;
    use crate::Error;
    use alloc::sync::Arc;
    use alloc::vec::Vec;
    use core::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Mutex, PoisonError, RwLock};

    static ACTIVE: AtomicBool = AtomicBool::new(false);
    static SLOT: RwLock<Option<Arc<dyn KernelDevice>>> = RwLock::new(None);
    static REGISTRY: Mutex<Vec<Arc<dyn KernelDevice>>> = Mutex::new(Vec::new());

    /// Registers a kernel device under its name. `Error::Unsupported` if the name is
    /// empty, `cpu`, or taken (by a kernel device or a batch device: `--device` names
    /// either kind).
    pub fn register_kernel_device(dev: Arc<dyn KernelDevice>) -> Result<(), Error> {
        let name = dev.name();
        let mut reg = REGISTRY.lock().unwrap_or_else(PoisonError::into_inner);
        let taken = reg.iter().any(|d| d.name().eq_ignore_ascii_case(&name))
            || crate::batch::device::list()
                .iter()
                .any(|d| d.info().name.eq_ignore_ascii_case(&name));
        if name.is_empty() || name.eq_ignore_ascii_case("cpu") || taken {
            return Err(Error::Unsupported);
        }
        reg.push(dev);
        Ok(())
    }

    /// The registered kernel devices, in registration order.
    pub fn kernel_devices() -> Vec<Arc<dyn KernelDevice>> {
        REGISTRY
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The kernel device registered as `name` (case-insensitive, as batch devices).
    pub fn kernel_device_by_name(name: &str) -> Option<Arc<dyn KernelDevice>> {
        let name = name.trim();
        kernel_devices()
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// Routes the NTT / inverse NTT of every ML-DSA and Falcon kernel table handed out
    /// from now on to `dev` (`None`: back to the CPU), and the Falcon FFT / iFFT of
    /// every FFT table when `dev` supports them. Process-wide, like
    /// `backend::set_backend`; tables fetched before the call keep what they had.
    pub fn set_kernel_device(dev: Option<Arc<dyn KernelDevice>>) {
        let mut slot = SLOT.write().unwrap_or_else(PoisonError::into_inner);
        ACTIVE.store(dev.is_some(), Ordering::Release);
        *slot = dev;
    }

    /// The process-wide kernel device, if one is set.
    pub fn kernel_device() -> Option<Arc<dyn KernelDevice>> {
        SLOT.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Whether a process-wide kernel device is set (one relaxed load per table fetch).
    #[inline]
    pub(crate) fn active() -> bool {
        ACTIVE.load(Ordering::Relaxed)
    }

    fn with_device(f: impl FnOnce(Option<&dyn KernelDevice>)) {
        let dev = kernel_device();
        f(dev.as_deref())
    }

    // One routed table per backend: the backend's own (radix-2) table with its two
    // transforms going through the slot's device, the backend's transforms as fallback.
    macro_rules! routed {
        ($mt:ident, $mbase:expr, $fbase:expr) => {
            pub(super) mod $mt {
                use super::*;
                fn ntt(a: &mut [Poly]) {
                    let cpu = $mbase.ntt;
                    with_device(|d| match d {
                        Some(d) => serve_mldsa(d, TransformMode::MlDsaNtt, a, cpu),
                        None => cpu(a),
                    })
                }
                fn invntt(a: &mut [Poly]) {
                    let cpu = $mbase.invntt_tomont;
                    with_device(|d| match d {
                        Some(d) => serve_mldsa(d, TransformMode::MlDsaInvNttToMont, a, cpu),
                        None => cpu(a),
                    })
                }
                fn fntt(a: &mut [u16], logn: u32) {
                    let cpu = $fbase.ntt;
                    with_device(|d| match d {
                        Some(d) => serve_falcon(d, TransformMode::FalconNtt { logn }, logn, a, cpu),
                        None => cpu(a, logn),
                    })
                }
                fn fintt(a: &mut [u16], logn: u32) {
                    let cpu = $fbase.intt;
                    with_device(|d| match d {
                        Some(d) => {
                            serve_falcon(d, TransformMode::FalconIntt { logn }, logn, a, cpu)
                        }
                        None => cpu(a, logn),
                    })
                }
                pub(in super::super) static MLDSA: Kernels = Kernels {
                    ntt,
                    invntt_tomont: invntt,
                    ..$mbase
                };
                pub(in super::super) static FALCON: NttKernels = NttKernels {
                    ntt: fntt,
                    intt: fintt,
                    ..$fbase
                };
            }
        };
    }

    routed!(
        portable,
        crate::kernels::mldsa::portable::KERNELS,
        crate::kernels::falcon::ntt::portable::KERNELS
    );
    #[cfg(target_arch = "x86_64")]
    routed!(
        avx2,
        crate::kernels::mldsa::avx2::KERNELS,
        crate::kernels::falcon::ntt::avx2::KERNELS
    );
    #[cfg(target_arch = "x86_64")]
    routed!(
        avx512,
        crate::kernels::mldsa::avx512::KERNELS,
        crate::kernels::falcon::ntt::avx512::KERNELS
    );

    /// The routed ML-DSA table of the backend whose kernels run for `b`.
    pub(crate) fn mldsa_routed(b: Backend) -> &'static Kernels {
        // SAFETY (every SIMD arm): `base_kernels` returns a SIMD table only after
        // `b.is_available()`, so its `backend` names a detected backend; the routed
        // table holds that backend's entries.
        match crate::kernels::mldsa::base_kernels(b).backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => &avx2::MLDSA,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => &avx512::MLDSA,
            _ => &portable::MLDSA,
        }
    }

    /// The routed Falcon NTT table of the backend whose kernels run for `b`.
    pub(crate) fn falcon_routed(b: Backend) -> &'static NttKernels {
        // SAFETY (every SIMD arm): as in `mldsa_routed`.
        match crate::kernels::falcon::ntt::base_kernels(b).backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => &avx2::FALCON,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => &avx512::FALCON,
            _ => &portable::FALCON,
        }
    }
}
