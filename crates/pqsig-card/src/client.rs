//! The host's side of one card connection: the mapped register page and window, the
//! doorbell, completion waits, and per-call buffers. Low level (registers as they
//! are); the kernel devices in [`crate::device`] build the two driver paths on it.

use crate::card::poll_readable;
use crate::cycles::CycleModel;
use crate::futex;
use crate::regs::{self, RegPage, Status};
use crate::shm::{fd_len, Mapping};
use crate::wire::{self, Msg};
use pqsig::batch::RequestCycles;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A completed request as its slot's registers report it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Completed {
    pub status: u32,
    pub cycles: RequestCycles,
    pub device_ns: u64,
    pub queued_ns: u64,
}

impl Completed {
    pub fn status(&self) -> Status {
        Status::from_u32(self.status)
    }
}

/// One connection to a card.
pub struct Conn {
    sock: UnixStream,
    page: Mapping,
    seq: [u32; regs::SLOTS],
    /// The card's cycle model and clock (from the register page), to predict when each
    /// slot's request completes: `expected[slot]`, and when the accelerator is free.
    model: Option<CycleModel>,
    clock_hz: f64,
    expected: [Option<Instant>; regs::SLOTS],
    busy_until: Instant,
    /// How long a completion wait polls before it sleeps.
    pub spin: Duration,
    /// How long a completion wait lasts at most, beyond the request's device time.
    pub timeout: Duration,
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("card: {what}"))
}

impl Conn {
    /// Connects to the card at `path` and maps the memory it hands over.
    pub fn connect(path: &Path) -> io::Result<Conn> {
        let sock = UnixStream::connect(path)?;
        sock.set_read_timeout(Some(Duration::from_secs(5)))?;
        let (m, fd) = wire::recv_with_fd(&sock)?;
        let fd = fd.ok_or_else(|| bad("HELLO without memory"))?;
        let len = regs::WINDOW_OFFSET + regs::WINDOW_LEN;
        if m.op != wire::OP_HELLO || m.size != len as u64 || fd_len(&fd)? < len {
            return Err(bad("unexpected HELLO"));
        }
        let page = Mapping::map(&fd, len)?;
        let mut conn = Conn {
            sock,
            page,
            seq: [0; regs::SLOTS],
            model: None,
            clock_hz: 0.0,
            expected: [None; regs::SLOTS],
            busy_until: Instant::now(),
            spin: Duration::from_micros(spin_us_from_env()),
            timeout: Duration::from_secs(5),
        };
        let h = &conn.regs().header;
        if h.magic.load(Ordering::Acquire) != regs::MAGIC
            || h.version.load(Ordering::Acquire) != regs::VERSION
            || h.slots.load(Ordering::Acquire) != regs::SLOTS as u32
        {
            return Err(bad("register page of another version"));
        }
        let model = CycleModel {
            bfus: h.bfus.load(Ordering::Relaxed),
            setup: h.setup.load(Ordering::Relaxed),
        };
        conn.clock_hz = conn.clock_hz();
        conn.model = (model.bfus > 0 && conn.clock_hz > 0.0).then_some(model);
        Ok(conn)
    }

    /// The register page.
    pub fn regs(&self) -> &RegPage {
        // SAFETY: `page` is a page-aligned shared mapping of WINDOW_OFFSET + WINDOW_LEN
        // bytes (checked in `connect`), alive as long as `self`; RegPage is all atomics,
        // valid for any bit pattern and for concurrent writes by the card.
        unsafe { &*(self.page.as_ptr() as *const RegPage) }
    }

    /// `regs::ACCEL_TIMED` or `regs::ACCEL_RTL`.
    pub fn accel(&self) -> u32 {
        self.regs().header.accel.load(Ordering::Relaxed)
    }

    /// The modelled clock in Hz.
    pub fn clock_hz(&self) -> f64 {
        f64::from(self.regs().header.clock_khz.load(Ordering::Relaxed)) * 1e3
    }

    /// Copies `src` into the window at `offset`; `false` if it does not fit.
    pub fn window_write(&self, offset: usize, src: &[u8]) -> bool {
        offset < regs::WINDOW_LEN
            && src.len() <= regs::WINDOW_LEN - offset
            && self.page.write(regs::WINDOW_OFFSET + offset, src)
    }

    /// Copies from the window at `offset` into `dst`; `false` if it does not fit.
    pub fn window_read(&self, offset: usize, dst: &mut [u8]) -> bool {
        offset < regs::WINDOW_LEN
            && dst.len() <= regs::WINDOW_LEN - offset
            && self.page.read(regs::WINDOW_OFFSET + offset, dst)
    }

    /// Writes slot `slot`'s buffer address, mode and size registers, then `start`, and
    /// rings the doorbell. Returns the request's sequence number. The registers are
    /// written as given (no checks: the card's job).
    pub fn submit(
        &mut self,
        slot: usize,
        region: u32,
        offset: u64,
        mode: u32,
        num_polys: u32,
    ) -> u32 {
        let seq = self.seq[slot].wrapping_add(1).max(1);
        self.seq[slot] = seq;
        // When the card should finish it (it queues behind this client's earlier ones).
        self.expected[slot] = match (self.model, regs::Mode::decode(mode)) {
            (Some(m), Some(md)) if num_polys <= regs::MAX_POLYS => {
                let ns = CycleModel::nanos(m.request(md, num_polys).total, self.clock_hz);
                let end = self.busy_until.max(Instant::now()) + Duration::from_nanos(ns);
                self.busy_until = end;
                Some(end)
            }
            _ => None,
        };
        let regs = self.regs();
        let s = &regs.slots[slot];
        s.region.store(region, Ordering::Relaxed);
        s.offset.store(offset, Ordering::Relaxed);
        s.mode.store(mode, Ordering::Relaxed);
        s.num_polys.store(num_polys, Ordering::Relaxed);
        s.rung_ns
            .store(crate::card::monotonic_ns(), Ordering::Relaxed);
        s.start.store(seq, Ordering::SeqCst);
        let h = &regs.header;
        h.doorbell.fetch_add(1, Ordering::SeqCst);
        if h.card_sleeping.load(Ordering::SeqCst) != 0 {
            futex::wake(&h.doorbell);
        }
        seq
    }

    /// Waits for request `seq` of `slot` and reads its completion registers.
    /// `TimedOut` after `timeout` (`expected` device time added), or at once when the
    /// card has gone away.
    /// With a cycle model the host first sleeps (precise timers) until shortly before
    /// the predicted completion, then polls until `spin` after it, then sleeps on the
    /// futex.
    pub fn wait(&self, slot: usize, seq: u32, expected: Duration) -> io::Result<Completed> {
        let s = &self.regs().slots[slot];
        if let Some(at) = self.expected[slot] {
            if s.done.load(Ordering::Acquire) != seq {
                PRECISE.with(|p| {
                    if !p.replace(true) {
                        futex::precise_timers();
                    }
                });
                futex::sleep_until_near(at, WAKE_EARLY);
            }
        }
        let now = Instant::now();
        let deadline = now + expected + self.timeout;
        // Poll until `spin` past the predicted completion, not `spin` from now: a
        // completion due in more than `spin` (a 64-polynomial request takes 0.26 ms at
        // 125 MHz) would otherwise find the host asleep on the futex, whose wake-up costs
        // 0.04-4 ms on a loaded machine and leaves the card's queue empty meanwhile.
        let spin = self.expected[slot].map_or(self.spin, |at| {
            at.saturating_duration_since(now) + self.spin
        });
        let fd = self.sock.as_raw_fd();
        let ok = futex::wait_until(
            &s.done,
            &s.host_sleeping,
            spin,
            deadline,
            || s.done.load(Ordering::Acquire) == seq,
            // A readable socket here is end of file: the card closed it.
            || poll_readable(fd, 0),
        );
        if !ok {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "card: no completion",
            ));
        }
        Ok(Completed {
            status: s.status.load(Ordering::Relaxed),
            cycles: RequestCycles {
                load: s.cycles_load.load(Ordering::Relaxed),
                compute: s.cycles_compute.load(Ordering::Relaxed),
                store: s.cycles_store.load(Ordering::Relaxed),
                total: s.cycles_total.load(Ordering::Relaxed),
            },
            device_ns: s.device_ns.load(Ordering::Relaxed),
            queued_ns: s.queued_ns.load(Ordering::Relaxed),
        })
    }

    /// Asks the card for a fresh buffer of `size` bytes and maps it: `(region, map)`.
    pub fn alloc(&mut self, size: usize) -> io::Result<(u32, Mapping)> {
        wire::send(
            &self.sock,
            Msg {
                op: wire::OP_ALLOC,
                id: 0,
                size: size as u64,
            },
            None,
        )?;
        let (m, fd) = wire::recv_with_fd(&self.sock)?;
        if m.op != wire::OK {
            return Err(bad("allocation refused"));
        }
        let fd = fd.ok_or_else(|| bad("allocation without memory"))?;
        if m.size != size as u64 || fd_len(&fd)? < size {
            return Err(bad("allocation of the wrong size"));
        }
        Ok((m.id, Mapping::map(&fd, size)?))
    }

    /// Tells the card to forget region `id` (unmap the host's mapping first).
    pub fn free(&mut self, id: u32) -> io::Result<()> {
        wire::send(
            &self.sock,
            Msg {
                op: wire::OP_FREE,
                id,
                size: 0,
            },
            None,
        )?;
        let (m, _) = wire::recv_with_fd(&self.sock)?;
        if m.op != wire::OK {
            return Err(bad("free refused"));
        }
        Ok(())
    }
}

/// How long before a request's predicted completion a waiting host wakes to poll
/// (covers the card's own per-request work beyond the model: copies, wake-ups).
const WAKE_EARLY: Duration = Duration::from_micros(300);

thread_local! {
    /// Whether this thread asked for precise timers already.
    static PRECISE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// `PQSIG_CARD_SPIN_US`: how long a host polls for a completion (after the predicted
/// completion time, when there is one) before sleeping on the futex (default 200 µs).
pub fn spin_us_from_env() -> u64 {
    std::env::var("PQSIG_CARD_SPIN_US")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(200)
}
