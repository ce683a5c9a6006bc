//! Kernel devices on the Linux driver `/dev/ntt_hw` (hw/linux/ntt_hw.c): `ntt-hw`, the
//! FPGA design's per-call path, and `ntt-hw-pooled`, its proposed fix.
//!
//! * `ntt-hw`: per request, as the design's library does: open the device, one
//!   `NTT_HW_IOC_TRANSFORM` ioctl naming the caller's polynomials in place (the driver
//!   copies them into a coherent buffer and the card's window and back), close.
//! * `ntt-hw-pooled`: the device is opened and its window area mapped once, and with
//!   it the area's user slot (the doorbell page, `NTT_HW_DOORBELL_MMAP`) when the card
//!   offers one. A request names the polynomials' offset in the mapping, written into
//!   the doorbell page with plain stores and completed by polling it: **no system call
//!   per request**. Without a doorbell page (an older card, or
//!   `PQSIG_NTT_HW_SUBMIT=ioctl`) each request is one `NTT_HW_IOC_POOL_SUBMIT` ioctl.
//!   Either way no open/close, no copies in the kernel, no allocation. Polynomials that
//!   already lie in the mapping are transformed where they are (**zero copy**): the
//!   device lends the top [`WORKSPACE_POLYS`] of its area to a signer as its working
//!   memory (`KernelDevice::workspace`; ML-DSA signing keeps z, w1, c and the c·s
//!   products there). Others are copied into the staging part of the area and back.
//!
//! Both are registered when `/dev/ntt_hw` exists (else `--device ntt-hw` is an unknown
//! device, clearer than a silent CPU run). `PQSIG_NTT_HW_STATS=1` prints this
//! process's user-space counters (requests, failures, system calls, copies) on one
//! line to stderr at exit.
//!
//! The ABI below restates hw/linux/ntt_hw.h; the tests check sizes and numbers.

use crate::regs::{Slot, Status};
use crate::shm::Mapping;
use pqsig::batch::{DeviceWorkspace, KernelDevice, TransformMode};
use pqsig::kernels::mldsa::Poly as MlDsaPoly;
use pqsig::DeviceError;
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Where the driver's device node is.
pub const DEV_PATH: &str = "/dev/ntt_hw";

pub const MODE_MLDSA_NTT: u32 = 1;
pub const MODE_MLDSA_INTT: u32 = 2;
pub const POLY_BYTES: usize = 1024;
pub const MAX_POLYS: usize = 512;
pub const POOL_BYTES: usize = MAX_POLYS * POLY_BYTES;
pub const PHASES: usize = 11;

// The driver splits the card's window into 4 areas of POOL_BYTES (3 pooled, 1 per-call).
const _: () = assert!(crate::regs::WINDOW_LEN >= 4 * POOL_BYTES);
/// Polynomials at the top of the pooled area lent as a workspace (ML-DSA-87 signing
/// needs l + 2k + 1 = 24).
pub const WORKSPACE_POLYS: usize = 32;
/// Polynomials of the pooled area below the workspace: copied requests are staged
/// there, so a pooled request carries at most this many.
pub const STAGING_POLYS: usize = MAX_POLYS - WORKSPACE_POLYS;
const WORKSPACE_OFFSET: usize = STAGING_POLYS * POLY_BYTES;
const _: () = assert!(WORKSPACE_OFFSET.is_multiple_of(POOL_ALIGN));
/// `NTT_HW_POOL_ALIGN`: pooled offsets are multiples of it.
pub const POOL_ALIGN: usize = 64;
/// `NTT_HW_DOORBELL_MMAP`: the mmap offset of the file's user slot page.
pub const DOORBELL_MMAP: usize = 1 << 20;
/// `NTT_HW_DOORBELL_BYTES`.
pub const DOORBELL_BYTES: usize = 4096;
/// How long a doorbell request may take before the device reports a timeout (the
/// driver's own limit for an ioctl request).
const DOORBELL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// Spins between two clock reads while polling a doorbell completion: a clock read
/// can be a system call in a guest whose clock source has no vDSO, so they are few.
const SPINS_PER_CLOCK_READ: u32 = 1 << 14;
/// Names of the phases of `NTT_HW_PH_*`, in order.
pub const PHASE_NAMES: [&str; PHASES] = [
    "entry",
    "check",
    "alloc",
    "copy_in",
    "window_in",
    "regs",
    "poll",
    "window_out",
    "copy_out",
    "exit",
    "total",
];

/// `struct ntt_hw_req`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Req {
    pub buf: u64,
    pub num_polys: u32,
    pub mode: u32,
}

/// `struct ntt_hw_pool_req`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PoolReq {
    pub offset: u64,
    pub num_polys: u32,
    pub mode: u32,
}

/// `struct ntt_hw_stats`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub opens: u64,
    pub ioctls: u64,
    pub mmaps: u64,
    pub percall_requests: u64,
    pub pool_requests: u64,
    pub rejected: u64,
    pub card_errors: u64,
    pub polys: u64,
    pub allocs: u64,
    pub user_copies: u64,
    pub user_bytes: u64,
    pub window_copies: u64,
    pub window_bytes: u64,
    pub doorbells: u64,
    pub poll_reads: u64,
    pub card_device_ns: u64,
    pub percall_ns: [u64; PHASES],
    pub pool_ns: [u64; PHASES],
}

/// Linux's `_IOC(dir, 'N', nr, size)` (asm-generic encoding, as on x86 and arm64).
const fn ioc(dir: u64, nr: u64, size: usize) -> u64 {
    (dir << 30) | ((size as u64) << 16) | ((b'N' as u64) << 8) | nr
}
const IOC_WRITE: u64 = 1;
const IOC_READ: u64 = 2;
pub const IOC_TRANSFORM: u64 = ioc(IOC_WRITE, 1, core::mem::size_of::<Req>());
pub const IOC_POOL_SUBMIT: u64 = ioc(IOC_WRITE, 2, core::mem::size_of::<PoolReq>());
pub const IOC_STATS: u64 = ioc(IOC_READ, 3, core::mem::size_of::<Stats>());
pub const IOC_STATS_RESET: u64 = ioc(0, 4, 0);

/// This process's user-space side of the counts.
#[derive(Default, Debug)]
pub struct UserCounts {
    pub requests: AtomicU64,
    pub failures: AtomicU64,
    /// open, mmap, ioctl and close calls on the device.
    pub syscalls: AtomicU64,
    /// Copies of request data made in user space (pooled: into and out of the mapping).
    pub copies: AtomicU64,
    /// Pooled requests on polynomials already in the mapping (no copy).
    pub zero_copy: AtomicU64,
    /// Requests submitted through the user-mapped doorbell (no system call).
    pub doorbells: AtomicU64,
    /// Clock reads while polling doorbell completions (each at most one system call;
    /// none where the clock is read through the vDSO).
    pub clock_reads: AtomicU64,
}

/// Opens the device read-write.
pub fn open(path: &Path) -> std::io::Result<OwnedFd> {
    let c =
        CString::new(path.as_os_str().as_bytes()).map_err(|_| std::io::ErrorKind::InvalidInput)?;
    // SAFETY: `c` is a valid C string; the result is checked.
    let fd = unsafe { libc::open(c.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by open and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// One ioctl whose argument is `arg`'s address.
fn ioctl<T>(fd: &OwnedFd, cmd: u64, arg: &mut T) -> std::io::Result<()> {
    // SAFETY: `arg` is a valid, exclusively borrowed `repr(C)` value of the size `cmd`
    // encodes (the constants above are built from these very types); the driver
    // reads or writes at most that many bytes at it.
    let r = unsafe { libc::ioctl(fd.as_raw_fd(), cmd as _, arg as *mut T) };
    if r < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The driver's counters (`NTT_HW_IOC_STATS`).
pub fn stats(fd: &OwnedFd) -> std::io::Result<Stats> {
    let mut s = Stats::default();
    ioctl(fd, IOC_STATS, &mut s)?;
    Ok(s)
}

/// Clears the driver's counters.
pub fn reset_stats(fd: &OwnedFd) -> std::io::Result<()> {
    // SAFETY: an argument-less ioctl on a valid descriptor.
    let r = unsafe { libc::ioctl(fd.as_raw_fd(), IOC_STATS_RESET as _, 0usize) };
    if r < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

fn device_error(e: &std::io::Error) -> DeviceError {
    match e.raw_os_error() {
        Some(libc::EBUSY) | Some(libc::EINTR) => DeviceError::Busy,
        Some(libc::ETIMEDOUT) => DeviceError::TimedOut,
        Some(libc::ENOENT) | Some(libc::ENODEV) | Some(libc::ENXIO) => DeviceError::NotFound,
        _ => DeviceError::Failed,
    }
}

/// The pooled device's open file and mapped window area.
struct Pool {
    fd: OwnedFd,
    map: Mapping,
    /// The area's user slot page, when the driver mapped one.
    doorbell: Option<Mapping>,
    /// One request at a time: the staging polynomials and the doorbell are the file's.
    submit: Mutex<Submitter>,
    /// Whether the workspace is lent out.
    lent: AtomicBool,
}

/// The doorbell's state, under `Pool::submit`.
#[derive(Default)]
struct Submitter {
    /// A request timed out: the card may still serve it, so the slot is not rung
    /// again until `done` catches up with `start`.
    wedged: bool,
}

impl Pool {
    fn slot(&self) -> Option<&Slot> {
        let m = self.doorbell.as_ref()?;
        const _: () = assert!(core::mem::size_of::<Slot>() <= DOORBELL_BYTES);
        // SAFETY: the mapping is DOORBELL_BYTES ≥ size_of::<Slot>() long and page
        // aligned (≥ Slot's 64), alive as long as `self`; Slot is all atomics, valid for
        // any bytes, and the card writing it concurrently is what atomics are for.
        Some(unsafe { &*(m.as_ptr() as *const Slot) })
    }

    /// One request through the doorbell page: registers, `start` last, then polls
    /// `done` without a system call (see `SPINS_PER_CLOCK_READ`).
    fn ring(
        &self,
        slot: &Slot,
        sub: &mut Submitter,
        offset: usize,
        num_polys: u32,
        mode: u32,
        counts: &UserCounts,
    ) -> Result<(), DeviceError> {
        if sub.wedged {
            if slot.done.load(Ordering::Acquire) != slot.start.load(Ordering::Relaxed) {
                return Err(DeviceError::Busy);
            }
            sub.wedged = false;
        }
        slot.region.store(0, Ordering::Relaxed);
        slot.offset.store(offset as u64, Ordering::Relaxed);
        slot.mode.store(mode, Ordering::Relaxed);
        slot.num_polys.store(num_polys, Ordering::Relaxed);
        slot.rung_ns.store(0, Ordering::Relaxed);
        let seq = slot.start.load(Ordering::Relaxed).wrapping_add(1);
        // Release: the card reads the registers (and the data) after it sees `start`.
        slot.start.store(seq, Ordering::Release);
        counts.doorbells.fetch_add(1, Ordering::Relaxed);
        // The clock is first read after SPINS_PER_CLOCK_READ spins: a request that
        // completes sooner costs no clock read at all.
        let mut since: Option<std::time::Instant> = None;
        let mut spins = 0u32;
        while slot.done.load(Ordering::Acquire) != seq {
            core::hint::spin_loop();
            spins += 1;
            if spins == SPINS_PER_CLOCK_READ {
                spins = 0;
                counts.clock_reads.fetch_add(1, Ordering::Relaxed);
                let t0 = *since.get_or_insert_with(std::time::Instant::now);
                if t0.elapsed() > DOORBELL_TIMEOUT {
                    sub.wedged = true;
                    return Err(DeviceError::TimedOut);
                }
            }
        }
        match Status::from_u32(slot.status.load(Ordering::Relaxed)) {
            Status::Ok => Ok(()),
            _ => Err(DeviceError::Failed),
        }
    }
}

/// `ntt-hw` (per call) or `ntt-hw-pooled` on the driver at `path`.
pub struct NttHwDevice {
    pooled: bool,
    path: PathBuf,
    pool: Mutex<Option<Arc<Pool>>>,
    pub counts: Arc<UserCounts>,
}

/// The pooled area's workspace, lent to one signer at a time; wiped when returned.
struct HwWorkspace {
    pool: Arc<Pool>,
}

impl DeviceWorkspace for HwWorkspace {
    fn polys(&mut self) -> &mut [MlDsaPoly] {
        const _: () = assert!(core::mem::align_of::<MlDsaPoly>() <= POOL_ALIGN);
        // SAFETY: the mapping is POOL_BYTES long (mapped in `pool`), page-aligned, and
        // the workspace is its top WORKSPACE_POLYS * POLY_BYTES bytes (WORKSPACE_OFFSET
        // is a multiple of POOL_ALIGN ≥ the alignment of MlDsaPoly, which is `repr(C)`
        // around `[i32; 256]`: any bytes are a valid value). `lent` gives one loan at a
        // time and this `&mut self` one borrow at a time, and the mapping lives as long
        // as `self.pool`. The card writes these bytes only while a request naming them
        // is in flight, that is inside `transform_mldsa` on this very slice; a card that
        // writes them at another time changes values (as a wrong reply would), nothing
        // else.
        unsafe {
            core::slice::from_raw_parts_mut(
                self.pool
                    .map
                    .as_ptr()
                    .add(WORKSPACE_OFFSET)
                    .cast::<MlDsaPoly>(),
                WORKSPACE_POLYS,
            )
        }
    }
}

impl Drop for HwWorkspace {
    fn drop(&mut self) {
        // The signer's secrets (z, c·s1, ...) must not stay in the card's memory.
        let zeros = [0u8; POLY_BYTES];
        for i in 0..WORKSPACE_POLYS {
            self.pool
                .map
                .write(WORKSPACE_OFFSET + i * POLY_BYTES, &zeros);
        }
        core::sync::atomic::compiler_fence(Ordering::SeqCst);
        self.pool.lent.store(false, Ordering::Release);
    }
}

impl NttHwDevice {
    pub fn new(pooled: bool, path: PathBuf, counts: Arc<UserCounts>) -> NttHwDevice {
        NttHwDevice {
            pooled,
            path,
            pool: Mutex::new(None),
            counts,
        }
    }

    fn per_call(&self, mode: u32, polys: &mut [MlDsaPoly]) -> Result<(), DeviceError> {
        let c = &self.counts;
        c.syscalls.fetch_add(1, Ordering::Relaxed);
        let fd = open(&self.path).map_err(|e| device_error(&e))?;
        let mut req = Req {
            buf: polys.as_mut_ptr() as u64,
            num_polys: polys.len() as u32,
            mode,
        };
        c.syscalls.fetch_add(1, Ordering::Relaxed);
        let r = ioctl(&fd, IOC_TRANSFORM, &mut req);
        c.syscalls.fetch_add(1, Ordering::Relaxed);
        drop(fd);
        r.map_err(|e| device_error(&e))
    }

    /// The pooled area, opened and mapped on first use.
    fn pool(&self) -> Result<Arc<Pool>, DeviceError> {
        let mut guard = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(p) = guard.as_ref() {
            return Ok(p.clone());
        }
        self.counts.syscalls.fetch_add(2, Ordering::Relaxed);
        let fd = open(&self.path).map_err(|e| device_error(&e))?;
        let map = Mapping::map(&fd, POOL_BYTES).map_err(|e| device_error(&e))?;
        let doorbell = if submit_by_ioctl() {
            None
        } else {
            // ENODEV from a card without user slots: requests go by ioctl.
            self.counts.syscalls.fetch_add(1, Ordering::Relaxed);
            Mapping::map_at(&fd, DOORBELL_BYTES, DOORBELL_MMAP).ok()
        };
        let p = Arc::new(Pool {
            fd,
            map,
            doorbell,
            submit: Mutex::default(),
            lent: AtomicBool::new(false),
        });
        *guard = Some(p.clone());
        Ok(p)
    }

    fn pooled(&self, mode: u32, polys: &mut [MlDsaPoly]) -> Result<(), DeviceError> {
        let c = &self.counts;
        let pool = self.pool()?;
        let n = polys.len();
        let len = n * POLY_BYTES;
        let base = pool.map.as_ptr() as usize;
        let at = polys.as_ptr() as usize;
        // Already in the mapping (the lent workspace): name it where it is.
        let resident = at >= base && at - base + len <= pool.map.len();
        const _: () = assert!(core::mem::size_of::<MlDsaPoly>() == POLY_BYTES);
        // SAFETY: MlDsaPoly is `repr(C)` around `[i32; 256]`, POLY_BYTES bytes with
        // no padding (asserted), so the slice is n * POLY_BYTES initialised bytes;
        // any byte pattern is a valid i32; the borrow of `polys` covers the view.
        let bytes =
            unsafe { core::slice::from_raw_parts_mut(polys.as_mut_ptr().cast::<u8>(), len) };
        let mut sub = pool.submit.lock().unwrap_or_else(PoisonError::into_inner);
        let offset = if resident {
            c.zero_copy.fetch_add(1, Ordering::Relaxed);
            at - base
        } else {
            if n > STAGING_POLYS || !pool.map.write(0, bytes) {
                return Err(DeviceError::Declined);
            }
            c.copies.fetch_add(1, Ordering::Relaxed);
            0
        };
        if let Some(slot) = pool.slot() {
            pool.ring(slot, &mut sub, offset, n as u32, mode, c)?;
        } else {
            let mut req = PoolReq {
                offset: offset as u64,
                num_polys: n as u32,
                mode,
            };
            c.syscalls.fetch_add(1, Ordering::Relaxed);
            ioctl(&pool.fd, IOC_POOL_SUBMIT, &mut req).map_err(|e| device_error(&e))?;
        }
        if !resident {
            if !pool.map.read(0, bytes) {
                return Err(DeviceError::Failed);
            }
            c.copies.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }
}

fn mode_of(m: TransformMode) -> Option<u32> {
    match m {
        TransformMode::MlDsaNtt => Some(MODE_MLDSA_NTT),
        TransformMode::MlDsaInvNttToMont => Some(MODE_MLDSA_INTT),
        _ => None,
    }
}

impl KernelDevice for NttHwDevice {
    fn name(&self) -> String {
        if self.pooled {
            "ntt-hw-pooled"
        } else {
            "ntt-hw"
        }
        .into()
    }

    fn description(&self) -> String {
        let how = if self.pooled {
            "pooled: mmap of a preallocated window area; requests through its user-mapped \
             doorbell (no system call) when the card has one, else one ioctl each"
        } else {
            "per-call: the FPGA design's open, ioctl {buffer, num_polys, mode}, close"
        };
        format!(
            "Linux driver {} for the NTT card behind ivshmem ({how}; ML-DSA only)",
            self.path.display()
        )
    }

    fn max_polys(&self) -> usize {
        if self.pooled {
            STAGING_POLYS
        } else {
            MAX_POLYS
        }
    }

    fn supports(&self, mode: TransformMode) -> bool {
        cfg!(target_endian = "little") && mode_of(mode).is_some()
    }

    fn transform_mldsa(
        &self,
        mode: TransformMode,
        polys: &mut [MlDsaPoly],
    ) -> Result<(), DeviceError> {
        let m = match mode_of(mode) {
            Some(m) if cfg!(target_endian = "little") => m,
            _ => return Err(DeviceError::Declined),
        };
        if polys.is_empty() {
            return Ok(());
        }
        if polys.len() > MAX_POLYS {
            return Err(DeviceError::Declined);
        }
        let r = if self.pooled {
            self.pooled(m, polys)
        } else {
            self.per_call(m, polys)
        };
        let c = &self.counts;
        c.requests.fetch_add(1, Ordering::Relaxed);
        if r.is_err() {
            c.failures.fetch_add(1, Ordering::Relaxed);
        }
        r
    }

    fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }

    fn workspace(&self, polys: usize) -> Option<Box<dyn DeviceWorkspace>> {
        if !self.pooled || polys > WORKSPACE_POLYS {
            return None;
        }
        let pool = self.pool().ok()?;
        if pool.lent.swap(true, Ordering::Acquire) {
            return None;
        }
        let zeros = [0u8; POLY_BYTES];
        for i in 0..WORKSPACE_POLYS {
            pool.map.write(WORKSPACE_OFFSET + i * POLY_BYTES, &zeros);
        }
        Some(Box::new(HwWorkspace { pool }))
    }
}

/// `PQSIG_NTT_HW_SUBMIT=ioctl`: the pooled device submits by ioctl even where the
/// driver offers a doorbell page (to measure one against the other).
fn submit_by_ioctl() -> bool {
    std::env::var_os("PQSIG_NTT_HW_SUBMIT").is_some_and(|v| v == "ioctl")
}

static DEVICES: OnceLock<Vec<Arc<NttHwDevice>>> = OnceLock::new();

extern "C" fn print_counts() {
    for d in DEVICES.get().into_iter().flatten() {
        let c = &d.counts;
        if c.requests.load(Ordering::Relaxed) == 0 {
            continue;
        }
        eprintln!(
            "pqsig {}: requests={} failures={} syscalls={} user_copies={} zero_copy={} \
             doorbells={} clock_reads={}",
            d.name(),
            c.requests.load(Ordering::Relaxed),
            c.failures.load(Ordering::Relaxed),
            c.syscalls.load(Ordering::Relaxed),
            c.copies.load(Ordering::Relaxed),
            c.zero_copy.load(Ordering::Relaxed),
            c.doorbells.load(Ordering::Relaxed),
            c.clock_reads.load(Ordering::Relaxed)
        );
    }
}

/// Registers `ntt-hw` and `ntt-hw-pooled` when `/dev/ntt_hw` exists. Idempotent.
pub fn register() -> &'static [Arc<NttHwDevice>] {
    DEVICES.get_or_init(|| {
        let path = PathBuf::from(DEV_PATH);
        if !path.exists() {
            return Vec::new();
        }
        if std::env::var_os("PQSIG_NTT_HW_STATS").is_some_and(|v| v == "1") {
            // SAFETY: registers a plain extern "C" function with no arguments.
            unsafe { libc::atexit(print_counts) };
        }
        [false, true]
            .into_iter()
            .map(|pooled| Arc::new(NttHwDevice::new(pooled, path.clone(), Arc::default())))
            .filter(|d| pqsig::batch::register_kernel_device(d.clone()).is_ok())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers of hw/linux/ntt_hw.h.
    #[test]
    fn abi_matches_the_header() {
        assert_eq!(core::mem::size_of::<Req>(), 16);
        assert_eq!(core::mem::size_of::<PoolReq>(), 16);
        assert_eq!(core::mem::size_of::<Stats>(), (16 + 2 * PHASES) * 8);
        assert_eq!(IOC_TRANSFORM, 0x4010_4e01);
        assert_eq!(IOC_POOL_SUBMIT, 0x4010_4e02);
        assert_eq!(IOC_STATS, 0x8130_4e03);
        assert_eq!(IOC_STATS_RESET, 0x4e04);
        let h = include_str!("../../../hw/linux/ntt_hw.h");
        for (name, v) in [
            ("NTT_HW_MODE_MLDSA_NTT", MODE_MLDSA_NTT as usize),
            ("NTT_HW_MODE_MLDSA_INTT", MODE_MLDSA_INTT as usize),
            ("NTT_HW_POLY_BYTES", POLY_BYTES),
            ("NTT_HW_MAX_POLYS", MAX_POLYS),
            ("NTT_HW_POOL_ALIGN", POOL_ALIGN),
            ("NTT_HW_DOORBELL_MMAP", DOORBELL_MMAP),
            ("NTT_HW_DOORBELL_BYTES", DOORBELL_BYTES),
        ] {
            let line = h
                .lines()
                .find(|l| l.starts_with(&format!("#define {name}\t")))
                .unwrap_or_else(|| panic!("{name} not in ntt_hw.h"));
            let val = line.split_whitespace().nth(2).unwrap();
            assert_eq!(val.parse::<usize>().unwrap(), v, "{name}");
        }
        assert_eq!(h.matches("\tNTT_HW_PH_").count(), PHASES);
    }

    /// The register page offsets the driver hard-codes (hw/linux/ntt_hw.c).
    #[test]
    fn register_offsets_match_the_driver() {
        use crate::regs::{Header, RegPage, Slot};
        use core::mem::offset_of;
        assert_eq!(offset_of!(Header, magic), 0x00);
        assert_eq!(offset_of!(Header, version), 0x04);
        assert_eq!(offset_of!(Header, slots), 0x08);
        assert_eq!(offset_of!(Header, window_offset), 0x10);
        assert_eq!(offset_of!(Header, window_len), 0x18);
        assert_eq!(offset_of!(Header, caps), 0x48);
        assert_eq!(offset_of!(Header, user_slots_offset), 0x4c);
        assert_eq!(offset_of!(RegPage, slots), 0x80);
        assert_eq!(crate::ivshmem::USER_SLOTS_OFFSET, 0x20_1000);
        assert_eq!(offset_of!(Slot, host_sleeping), 0x28);
        assert_eq!(offset_of!(Slot, region), 0x00);
        assert_eq!(offset_of!(Slot, offset), 0x08);
        assert_eq!(offset_of!(Slot, mode), 0x10);
        assert_eq!(offset_of!(Slot, num_polys), 0x14);
        assert_eq!(offset_of!(Slot, rung_ns), 0x18);
        assert_eq!(offset_of!(Slot, start), 0x20);
        assert_eq!(offset_of!(Slot, done), 0x24);
        assert_eq!(offset_of!(Slot, status), 0x2c);
        assert_eq!(offset_of!(Slot, device_ns), 0x58);
        assert_eq!(crate::regs::WINDOW_OFFSET, 0x1000);
    }
}
