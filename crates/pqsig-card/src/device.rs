//! The host driver path as kernel devices of the library's seam
//! (`pqsig::batch::KernelDevice`), in the two modes of the study:
//!
//! * `card-per-call` — the ML-DSA FPGA design's scheme. Each call allocates a fresh
//!   buffer (an `ALLOC` round trip to the card: a new memfd, mapped by both sides),
//!   copies the polynomials in, writes the registers and rings, waits, copies out,
//!   unmaps and frees (a `FREE` round trip). One request per call, one in flight.
//! * `card` (pooled) — the fix the design's authors proposed: the window mapped once
//!   at connect is a pool of [`regs::SLOTS`] buffers. A call is cut into chunks; each
//!   chunk is written straight into a free buffer and rung at once, so the host copies
//!   chunk `i+1` in (and chunk `i−1` out) while the card computes chunk `i`: up to
//!   [`regs::SLOTS`] requests in flight.
//!
//! Every call records a breakdown ([`Breakdown`]): host (system calls, register
//! writes, bookkeeping), transfer (copies), wait (for completions) and device time
//! (the card's cycle counters at its clock). host + transfer + wait = the call's
//! end-to-end time; the device time overlaps them.
//!
//! Failures (no card, a dead card, an error status) fail the request: the seam then
//! runs the CPU kernel on the restored input, so results never change. After a failed
//! connect the device does not try again for [`RETRY`], so a missing card costs the
//! CPU path almost nothing.

use crate::client::{Completed, Conn};
use crate::pool::{Pool, SYNC};
use crate::regs::{self, Mode, Status};
use pqsig::batch::{KernelDevice, MlDsaPoly, RequestCycles, TransformMode};
use pqsig::DeviceError;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Time between connection attempts after one failed.
pub const RETRY: Duration = Duration::from_secs(1);
/// Smallest chunk the pooled mode cuts a call into (below it, per-request costs
/// outweigh the overlap).
const MIN_CHUNK: usize = 16;

/// Which driver path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverMode {
    Pooled,
    PerCall,
}

impl DriverMode {
    /// `pooled` / `per-call` (the bench rows' `device_mode`).
    pub fn label(self) -> &'static str {
        match self {
            DriverMode::Pooled => "pooled",
            DriverMode::PerCall => "per-call",
        }
    }
}

/// Where the time of calls went (sums over calls; ns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub calls: u64,
    pub requests: u64,
    pub polys: u64,
    /// Wall time of the calls.
    pub e2e_ns: u64,
    /// e2e − transfer − wait: system calls, register writes, bookkeeping.
    pub host_ns: u64,
    /// Copies into and out of the shared buffers.
    pub transfer_ns: u64,
    /// Waiting for completions.
    pub wait_ns: u64,
    /// Part of `host_ns`: per-call buffers — `ALLOC` (the card's memfd, its mapping on
    /// both sides), and `FREE` with the unmapping.
    pub alloc_ns: u64,
    /// Part of `host_ns`: writing the slot registers and ringing the doorbell.
    pub ring_ns: u64,
    /// The requests' device time (cycle counters at the card's clock).
    pub device_ns: u64,
    /// Time requests queued behind other clients' requests on the card.
    pub queued_ns: u64,
    /// Sum of the requests' cycle counters.
    pub cycles: RequestCycles,
}

impl Breakdown {
    pub(crate) fn add(&mut self, o: &Breakdown) {
        self.calls += o.calls;
        self.requests += o.requests;
        self.polys += o.polys;
        self.e2e_ns += o.e2e_ns;
        self.host_ns += o.host_ns;
        self.transfer_ns += o.transfer_ns;
        self.wait_ns += o.wait_ns;
        self.alloc_ns += o.alloc_ns;
        self.ring_ns += o.ring_ns;
        self.device_ns += o.device_ns;
        self.queued_ns += o.queued_ns;
        add_cycles(&mut self.cycles, &o.cycles);
    }

    pub(crate) fn completed(&mut self, c: &Completed) {
        self.requests += 1;
        self.device_ns += c.device_ns;
        self.queued_ns += c.queued_ns;
        add_cycles(&mut self.cycles, &c.cycles);
    }

    /// (end-to-end − device time) / end-to-end.
    pub fn overhead_frac(&self) -> f64 {
        if self.e2e_ns == 0 {
            return 0.0;
        }
        (self.e2e_ns as f64 - self.device_ns as f64) / self.e2e_ns as f64
    }
}

fn add_cycles(a: &mut RequestCycles, b: &RequestCycles) {
    a.load += b.load;
    a.compute += b.compute;
    a.store += b.store;
    a.total += b.total;
}

struct Link {
    conn: Option<Conn>,
    failed_at: Option<Instant>,
    accel: Option<u32>,
    clock_hz: f64,
    /// The pooled mode's slots and asynchronous requests.
    pool: Pool,
}

/// A card reached through its socket, as a kernel device.
pub struct CardDevice {
    mode: DriverMode,
    path: PathBuf,
    link: Mutex<Link>,
    totals: Mutex<(Breakdown, Breakdown)>,
}

impl CardDevice {
    pub fn new(mode: DriverMode, path: PathBuf) -> CardDevice {
        CardDevice {
            mode,
            path,
            link: Mutex::new(Link {
                conn: None,
                failed_at: None,
                accel: None,
                clock_hz: 0.0,
                pool: Pool::default(),
            }),
            totals: Mutex::default(),
        }
    }

    pub fn mode(&self) -> DriverMode {
        self.mode
    }

    /// The accelerator of the card last reached: `timed` / `rtl` (None before the first
    /// connection).
    pub fn accel(&self) -> Option<&'static str> {
        let link = self.link.lock().unwrap_or_else(PoisonError::into_inner);
        link.accel
            .map(|a| if a == regs::ACCEL_RTL { "rtl" } else { "timed" })
    }

    /// The card's clock in MHz (0 before the first connection).
    pub fn clock_mhz(&self) -> f64 {
        self.link
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clock_hz
            / 1e6
    }

    /// The sums over every successful call since the last [`CardDevice::reset_stats`].
    pub fn stats(&self) -> Breakdown {
        self.totals.lock().unwrap_or_else(PoisonError::into_inner).0
    }

    /// The last successful call's breakdown.
    pub fn last_breakdown(&self) -> Breakdown {
        self.totals.lock().unwrap_or_else(PoisonError::into_inner).1
    }

    pub fn reset_stats(&self) {
        self.totals.lock().unwrap_or_else(PoisonError::into_inner).0 = Breakdown::default();
    }

    /// Connects to the card on `PQSIG_CARD`'s path (a no-op when connected). Errors
    /// when no card answers.
    pub fn connect(&self) -> std::io::Result<()> {
        let mut link = self.link.lock().unwrap_or_else(PoisonError::into_inner);
        self.ensure(&mut link).map(drop)
    }

    fn ensure<'a>(&self, link: &'a mut Link) -> std::io::Result<&'a mut Conn> {
        if link.conn.is_none() {
            let c = Conn::connect(&self.path)?;
            link.accel = Some(c.accel());
            link.clock_hz = c.clock_hz();
            link.conn = Some(c);
        }
        Ok(link.conn.as_mut().expect("just connected"))
    }

    /// The connection, made if needed; `Failed` while a failed connect is recent.
    fn open<'a>(&self, link: &'a mut Link) -> Result<(&'a mut Conn, &'a mut Pool), DeviceError> {
        if link.conn.is_none() && link.failed_at.is_some_and(|t| t.elapsed() < RETRY) {
            return Err(DeviceError::Failed);
        }
        if self.ensure(link).is_err() {
            link.failed_at = Some(Instant::now());
            return Err(DeviceError::Failed);
        }
        let Link { conn, pool, .. } = link;
        conn.as_mut().map(|c| (c, pool)).ok_or(DeviceError::Failed)
    }

    /// After a broken link: the connection is in an unknown state (a lost completion),
    /// so it is dropped, and with it everything in flight.
    fn drop_link(link: &mut Link) -> DeviceError {
        link.conn = None;
        link.failed_at = Some(Instant::now());
        link.pool.broken();
        DeviceError::TimedOut
    }

    fn record(&self, b: &Breakdown) {
        let mut t = self.totals.lock().unwrap_or_else(PoisonError::into_inner);
        t.0.add(b);
        t.1 = *b;
    }

    /// Runs `data` (whole polynomials of `mode`) through the card, in place.
    fn transform(&self, mode: Mode, data: &mut [u8]) -> Result<(), DeviceError> {
        let start = Instant::now();
        let mut link = self.link.lock().unwrap_or_else(PoisonError::into_inner);
        let (conn, pool) = self.open(&mut link)?;
        let mut b = Breakdown {
            calls: 1,
            polys: (data.len() / mode.poly_bytes()) as u64,
            ..Breakdown::default()
        };
        let r = match self.mode {
            DriverMode::Pooled => pooled(conn, pool, mode, data, &mut b),
            DriverMode::PerCall => per_call(conn, mode, data, &mut b),
        };
        match r {
            Ok(()) => {}
            Err(Fail::Link) => return Err(Self::drop_link(&mut link)),
            Err(Fail::Status(s)) => return Err(status_error(s)),
        }
        drop(link);
        b.e2e_ns = start.elapsed().as_nanos() as u64;
        b.host_ns = b.e2e_ns.saturating_sub(b.transfer_ns + b.wait_ns);
        self.record(&b);
        Ok(())
    }

    /// Starts `data` (whole polynomials of `mode`) on the card: copied into slots and
    /// rung, in requests of at most a slot's size. Returns its ticket.
    fn submit(&self, mode: Mode, data: &[u8]) -> Result<u64, DeviceError> {
        let start = Instant::now();
        let mut link = self.link.lock().unwrap_or_else(PoisonError::into_inner);
        let (conn, pool) = self.open(&mut link)?;
        let pb = mode.poly_bytes();
        let step = (regs::SLOT_BYTES / pb).min(regs::MAX_POLYS as usize).max(1) * pb;
        let id = pool.open(data.len(), data.len() / pb);
        let mut b = Breakdown::default();
        for lo in (0..data.len()).step_by(step) {
            let hi = (lo + step).min(data.len());
            // As nobody's: a piece of this ticket met again (more pieces than slots) is
            // staged like another ticket's.
            let slot = match pool.acquire(conn, u64::MAX, &mut [], &mut b) {
                Ok((slot, _)) => slot,
                Err(_) => return Err(Self::drop_link(&mut link)),
            };
            pool.issue(conn, slot, id, mode, &data[lo..hi], lo, &mut b);
        }
        b.e2e_ns = start.elapsed().as_nanos() as u64;
        if let Some(t) = pool.tickets.get_mut(&id) {
            t.b.add(&b);
        }
        Ok(id)
    }

    /// Waits for ticket `id` and writes its results into `data`.
    fn complete(&self, id: u64, data: &mut [u8]) -> Result<(), DeviceError> {
        let start = Instant::now();
        let mut link = self.link.lock().unwrap_or_else(PoisonError::into_inner);
        let Link { conn, pool, .. } = &mut *link;
        let Some(len) = pool.tickets.get(&id).map(|t| t.len) else {
            return Err(DeviceError::Failed);
        };
        if len != data.len() {
            pool.cancel(id);
            return Err(DeviceError::Failed);
        }
        let mut b = Breakdown::default();
        let mut error = None;
        if let Some(conn) = conn.as_ref() {
            for slot in pool.slots_of(id) {
                match pool.retire(conn, slot, id, data, &mut b) {
                    Ok(Some(s)) if s != Status::Ok => {
                        error.get_or_insert(Fail::Status(s));
                    }
                    Ok(_) => {}
                    Err(f) => {
                        error = Some(f);
                        break;
                    }
                }
            }
        }
        if matches!(error, Some(Fail::Link)) {
            let e = Self::drop_link(&mut link);
            link.pool.tickets.remove(&id);
            return Err(e);
        }
        let pool = &mut link.pool;
        pool.unstage(id, data, &mut b);
        let Some(t) = pool.tickets.remove(&id) else {
            return Err(DeviceError::Failed);
        };
        drop(link);
        match error.or(t.failed) {
            Some(Fail::Status(s)) => return Err(status_error(s)),
            Some(Fail::Link) => return Err(DeviceError::TimedOut),
            None => {}
        }
        let mut total = t.b;
        b.e2e_ns = start.elapsed().as_nanos() as u64;
        total.add(&b);
        total.host_ns = total
            .e2e_ns
            .saturating_sub(total.transfer_ns + total.wait_ns);
        self.record(&total);
        Ok(())
    }
}

fn status_error(s: Status) -> DeviceError {
    if s == Status::BadMode {
        DeviceError::Declined
    } else {
        DeviceError::Failed
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Fail {
    /// The connection broke or a completion did not come.
    Link,
    /// The card answered with an error status.
    Status(Status),
}

pub(crate) fn ns(since: Instant) -> u64 {
    since.elapsed().as_nanos() as u64
}

/// A bound on a request's device time, for the wait's deadline (generous: 100 µs per
/// polynomial covers the model down to a few MHz).
pub(crate) fn expected(polys: usize) -> Duration {
    Duration::from_micros(100 * polys as u64)
}

/// The design's scheme: allocate, map, copy in, ring, wait, copy out, unmap, free.
fn per_call(conn: &mut Conn, mode: Mode, data: &mut [u8], b: &mut Breakdown) -> Result<(), Fail> {
    let polys = data.len() / mode.poly_bytes();
    let t = Instant::now();
    let (id, buf) = conn.alloc(data.len()).map_err(|_| Fail::Link)?;
    b.alloc_ns += ns(t);
    let t = Instant::now();
    let copied = buf.write(0, data);
    b.transfer_ns += ns(t);
    if !copied {
        return Err(Fail::Link);
    }
    let t = Instant::now();
    let seq = conn.submit(0, id, 0, mode.encode(), polys as u32);
    b.ring_ns += ns(t);
    let t = Instant::now();
    let c = conn.wait(0, seq, expected(polys)).map_err(|_| Fail::Link)?;
    b.wait_ns += ns(t);
    b.completed(&c);
    let ok = c.status() == Status::Ok;
    if ok {
        let t = Instant::now();
        buf.read(0, data);
        b.transfer_ns += ns(t);
    }
    let t = Instant::now();
    drop(buf);
    conn.free(id).map_err(|_| Fail::Link)?;
    b.alloc_ns += ns(t);
    if ok {
        Ok(())
    } else {
        Err(Fail::Status(c.status()))
    }
}

/// The pooled path: chunks written straight into the window's slots, up to
/// `SLOTS` in flight, results copied out as they complete.
fn pooled(
    conn: &mut Conn,
    pool: &mut Pool,
    mode: Mode,
    data: &mut [u8],
    b: &mut Breakdown,
) -> Result<(), Fail> {
    let pb = mode.poly_bytes();
    let n = data.len() / pb;
    let cap = (regs::SLOT_BYTES / pb).min(regs::MAX_POLYS as usize);
    // About SLOTS chunks, so that copies overlap device time, but none tiny.
    let chunk = n.div_ceil(regs::SLOTS).max(MIN_CHUNK).min(cap).max(1);
    let mut error = None;
    let mut check = |s: Option<Status>| {
        if let Some(s) = s.filter(|&s| s != Status::Ok) {
            error.get_or_insert(s);
        }
    };
    for lo in (0..n).step_by(chunk) {
        let hi = (lo + chunk).min(n);
        let (slot, retired) = pool.acquire(conn, SYNC, data, b)?;
        check(retired);
        // The chunk's bytes, copied before the call goes on to touch `data` again.
        let (lo, hi) = (lo * pb, hi * pb);
        let src = &data[lo..hi];
        pool.issue(conn, slot, SYNC, mode, src, lo, b);
    }
    for slot in pool.slots_of(SYNC) {
        check(pool.retire(conn, slot, SYNC, data, b)?);
    }
    match error {
        Some(s) => Err(Fail::Status(s)),
        None => Ok(()),
    }
}

fn mode_of(m: TransformMode) -> Option<Mode> {
    match m {
        TransformMode::MlDsaNtt => Some(Mode::MlDsaNtt),
        TransformMode::MlDsaInvNttToMont => Some(Mode::MlDsaIntt),
        TransformMode::FalconNtt { logn } if (1..=10).contains(&logn) => {
            Some(Mode::FalconNtt(logn))
        }
        TransformMode::FalconIntt { logn } if (1..=10).contains(&logn) => {
            Some(Mode::FalconIntt(logn))
        }
        _ => None,
    }
}

impl KernelDevice for CardDevice {
    fn name(&self) -> String {
        match self.mode {
            DriverMode::Pooled => "card".into(),
            DriverMode::PerCall => "card-per-call".into(),
        }
    }

    fn description(&self) -> String {
        let how = match self.mode {
            DriverMode::Pooled => "pooled: a buffer pool in the shared window, up to 4 requests in flight",
            DriverMode::PerCall => {
                "per-call: the FPGA design's scheme (allocate, map, copy, ring, wait, copy back, free)"
            }
        };
        format!(
            "NTT card at {} ({how}; CPU fallback when it does not answer)",
            self.path.display()
        )
    }

    fn max_polys(&self) -> usize {
        match self.mode {
            // Cut into slot-sized chunks here, so a bigger call overlaps better.
            DriverMode::Pooled => 4 * regs::MAX_POLYS as usize,
            DriverMode::PerCall => regs::MAX_POLYS as usize,
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
            Some(m @ (Mode::MlDsaNtt | Mode::MlDsaIntt)) if cfg!(target_endian = "little") => m,
            _ => return Err(DeviceError::Declined),
        };
        const _: () = assert!(core::mem::size_of::<MlDsaPoly>() == 1024);
        // SAFETY: MlDsaPoly is `repr(C)` around `[i32; 256]`, 1024 bytes with no padding
        // (asserted above), so the slice is `polys.len() * 1024` initialised bytes; any
        // byte pattern is a valid i32; the borrow of `polys` covers the view's lifetime.
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(polys.as_mut_ptr().cast::<u8>(), polys.len() * 1024)
        };
        self.transform(m, bytes)
    }

    fn transform_falcon(&self, mode: TransformMode, coeffs: &mut [u16]) -> Result<(), DeviceError> {
        let m = match mode_of(mode) {
            Some(m @ (Mode::FalconNtt(_) | Mode::FalconIntt(_)))
                if cfg!(target_endian = "little") =>
            {
                m
            }
            _ => return Err(DeviceError::Declined),
        };
        let whole = coeffs.len() / (m.poly_bytes() / 2) * (m.poly_bytes() / 2);
        // SAFETY: `whole` u16 values are `2 * whole` initialised bytes; any byte pattern
        // is a valid u16; the borrow of `coeffs` covers the view's lifetime.
        let bytes =
            unsafe { core::slice::from_raw_parts_mut(coeffs.as_mut_ptr().cast::<u8>(), whole * 2) };
        self.transform(m, bytes)
    }

    fn pipelines(&self) -> bool {
        self.mode == DriverMode::Pooled && cfg!(target_endian = "little")
    }

    fn submit_mldsa(&self, mode: TransformMode, polys: &[MlDsaPoly]) -> Result<u64, DeviceError> {
        let m = match mode_of(mode) {
            Some(m @ (Mode::MlDsaNtt | Mode::MlDsaIntt)) if self.pipelines() => m,
            _ => return Err(DeviceError::Declined),
        };
        // SAFETY: as in `transform_mldsa` (1024 bytes per polynomial, no padding), read
        // only, for the duration of the borrow of `polys`.
        let bytes =
            unsafe { core::slice::from_raw_parts(polys.as_ptr().cast::<u8>(), polys.len() * 1024) };
        self.submit(m, bytes)
    }

    fn complete_mldsa(&self, ticket: u64, polys: &mut [MlDsaPoly]) -> Result<(), DeviceError> {
        // SAFETY: as in `transform_mldsa`.
        let bytes = unsafe {
            core::slice::from_raw_parts_mut(polys.as_mut_ptr().cast::<u8>(), polys.len() * 1024)
        };
        self.complete(ticket, bytes)
    }

    fn cancel(&self, ticket: u64) {
        self.link
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pool
            .cancel(ticket);
    }

    fn last_cycles(&self) -> Option<RequestCycles> {
        let b = self.last_breakdown();
        (b.requests > 0).then_some(b.cycles)
    }
}
