//! The card: a device process serving clients over a Unix socket.
//!
//! Per client: one sealed memfd (register page + window, [`crate::regs`]) created at
//! accept and handed over with `HELLO`; a control thread reading the socket (`ALLOC` /
//! `FREE` of per-call buffers; end of file = the client is gone) and a service thread
//! that waits on the client's doorbell and serves its slots in ring order. Every
//! client's requests go through the one shared [`Accelerator`], so they queue for the
//! same hardware time, and live in that client's own memory, so they never mix.
//!
//! Nothing a client writes can crash the card: every register is validated (mode,
//! region, range, alignment, `num_polys`, input bounds) and a bad request completes
//! with an error status; the accelerator runs under `catch_unwind` as a last guard. A
//! client that dies mid-request only loses its result: the card still holds the
//! mapping, finishes, notices the closed socket and drops that client's state.

use crate::accel::{release_at, Accelerator};
use crate::futex;
use crate::regs::{self, Mode, RegPage, Status};
use crate::shm::{memfd, Mapping};
use crate::wire::{self, Msg};
use std::collections::HashMap;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Card-wide counters (what `pqsig card` prints when it stops, and `STATS` returns
/// live: [`crate::stats`]).
#[derive(Default, Debug)]
pub struct Counters {
    pub clients: AtomicU64,
    pub live_clients: AtomicU64,
    pub requests: AtomicU64,
    /// Requests by mode: forward transforms (ML-DSA and Falcon), inverse transforms,
    /// whole verification jobs.
    pub ntt_requests: AtomicU64,
    pub intt_requests: AtomicU64,
    pub verify_requests: AtomicU64,
    pub polys: AtomicU64,
    pub errors: AtomicU64,
    /// Sum of modelled device time, ns.
    pub device_ns: AtomicU64,
    /// Requests whose results were ready only after their modelled end (the CPU was
    /// slower than the modelled hardware, or the card thread was preempted), and by
    /// how much in all, ns.
    pub late: AtomicU64,
    pub late_ns: AtomicU64,
    /// Time the card spent picking up requests: doorbell seen → data loaded, ns.
    pub pickup_ns: AtomicU64,
}

/// A bound card, not yet serving.
pub struct Card {
    listener: UnixListener,
    path: PathBuf,
    accel: Arc<dyn Accelerator>,
    spin: Duration,
    counters: Arc<Counters>,
    stop: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<UnixStream>>>,
}

impl Card {
    /// Binds `path` (a stale socket file nobody answers on is replaced). `spin`: how
    /// long a service thread polls its doorbell after a request before it sleeps.
    pub fn bind(path: &Path, accel: Arc<dyn Accelerator>, spin: Duration) -> io::Result<Card> {
        if path.exists() {
            match UnixStream::connect(path) {
                Ok(_) => {
                    return Err(io::Error::new(
                        io::ErrorKind::AddrInUse,
                        format!("a card already answers on {}", path.display()),
                    ))
                }
                Err(_) => std::fs::remove_file(path)?,
            }
        }
        let listener = UnixListener::bind(path)?;
        listener.set_nonblocking(true)?;
        Ok(Card {
            listener,
            path: path.to_path_buf(),
            accel,
            spin,
            counters: Arc::default(),
            stop: Arc::default(),
            conns: Arc::default(),
        })
    }

    pub fn counters(&self) -> Arc<Counters> {
        self.counters.clone()
    }

    /// The flag that ends [`Card::serve`].
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Accepts and serves clients until the stop flag is set (checked every 50 ms),
    /// then disconnects every client and removes the socket file.
    pub fn serve(&self) {
        let mut threads: Vec<JoinHandle<()>> = Vec::new();
        while !self.stop.load(Ordering::Acquire) {
            match self.listener.accept() {
                Ok((sock, _)) => {
                    // Blocking from here: the control thread sleeps in read().
                    if sock.set_nonblocking(false).is_err() {
                        continue;
                    }
                    if let Ok(c) = sock.try_clone() {
                        self.conns
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push(c);
                    }
                    let (accel, counters, stop, spin) = (
                        self.accel.clone(),
                        self.counters.clone(),
                        self.stop.clone(),
                        self.spin,
                    );
                    threads.retain(|t| !t.is_finished());
                    threads.push(std::thread::spawn(move || {
                        counters.clients.fetch_add(1, Ordering::Relaxed);
                        counters.live_clients.fetch_add(1, Ordering::Relaxed);
                        let _ = client(sock, accel, &counters, &stop, spin);
                        counters.live_clients.fetch_sub(1, Ordering::Relaxed);
                    }));
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    poll_readable(self.listener.as_raw_fd(), 50);
                }
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        for c in self
            .conns
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
        {
            let _ = c.shutdown(std::net::Shutdown::Both);
        }
        for t in threads {
            let _ = t.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }

    /// Serves on a background thread (tests, benchmarks); stopped when the handle drops.
    pub fn spawn(self) -> CardHandle {
        let stop = self.stop.clone();
        let counters = self.counters.clone();
        let thread = std::thread::spawn(move || self.serve());
        CardHandle {
            stop,
            counters,
            thread: Some(thread),
        }
    }
}

/// A card serving on a background thread.
pub struct CardHandle {
    stop: Arc<AtomicBool>,
    pub counters: Arc<Counters>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for CardHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Waits up to `ms` for `fd` to become readable (or hung up).
pub(crate) fn poll_readable(fd: i32, ms: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd for the duration of the call.
    unsafe { libc::poll(&mut p, 1, ms) > 0 }
}

/// One client's state, shared by its control and service threads (also the state of
/// an ivshmem guest, [`crate::ivshmem`], which has no per-call regions).
pub(crate) struct ClientState {
    pub(crate) page: Mapping,
    pub(crate) regions: Mutex<HashMap<u32, Arc<Mapping>>>,
    pub(crate) closed: AtomicBool,
}

impl ClientState {
    pub(crate) fn new(page: Mapping) -> ClientState {
        ClientState {
            page,
            regions: Mutex::default(),
            closed: AtomicBool::new(false),
        }
    }

    /// Writes the card-wide header (magic, sizes, clock, cycle model) and marks every
    /// slot idle.
    pub(crate) fn init_header(&self, accel: &dyn Accelerator) {
        let h = &self.regs().header;
        h.magic.store(regs::MAGIC, Ordering::Relaxed);
        h.version.store(regs::VERSION, Ordering::Relaxed);
        h.slots.store(regs::SLOTS as u32, Ordering::Relaxed);
        h.max_polys.store(regs::MAX_POLYS, Ordering::Relaxed);
        h.window_offset
            .store(regs::WINDOW_OFFSET as u64, Ordering::Relaxed);
        h.window_len
            .store(regs::WINDOW_LEN as u64, Ordering::Relaxed);
        h.clock_khz
            .store((accel.clock_hz() / 1e3).round() as u32, Ordering::Relaxed);
        h.accel.store(accel.kind(), Ordering::Relaxed);
        if let Some(m) = accel.model() {
            h.bfus.store(m.bfus, Ordering::Relaxed);
            h.setup.store(m.setup, Ordering::Relaxed);
        }
        for s in &self.regs().slots {
            s.idle.store(1, Ordering::Relaxed);
        }
    }

    pub(crate) fn regs(&self) -> &RegPage {
        // SAFETY: `page` is a page-aligned shared mapping of at least WINDOW_OFFSET ≥
        // size_of::<RegPage>() bytes (checked at compile time in regs.rs), alive as long
        // as `self`; RegPage is all atomics, valid for any bit pattern, so the other
        // process writing it concurrently is fine.
        unsafe { &*(self.page.as_ptr() as *const RegPage) }
    }
}

fn client(
    sock: UnixStream,
    accel: Arc<dyn Accelerator>,
    counters: &Arc<Counters>,
    stop: &Arc<AtomicBool>,
    spin: Duration,
) -> io::Result<()> {
    let len = regs::WINDOW_OFFSET + regs::WINDOW_LEN;
    let fd = memfd("pqsig-card", len)?;
    let page = Mapping::map(&fd, len)?;
    let st = Arc::new(ClientState::new(page));
    st.init_header(&*accel);
    wire::send(
        &sock,
        Msg {
            op: wire::OP_HELLO,
            id: 0,
            size: len as u64,
        },
        Some(&fd),
    )?;
    drop(fd);

    let service = {
        let (st, accel, counters, stop) = (st.clone(), accel, counters.clone(), stop.clone());
        std::thread::spawn(move || serve_slots(&st, &*accel, &counters, &stop, spin))
    };
    let mut next_id = 1u32;
    // Control loop: per-call buffers; any error or end of file ends the client.
    while let Ok(Some(m)) = wire::recv(&sock) {
        if m.op == wire::OP_STATS {
            if crate::stats::reply(&sock, counters).is_err() {
                break;
            }
            continue;
        }
        let reply = match m.op {
            wire::OP_ALLOC => alloc(&st, m.size, &mut next_id),
            wire::OP_FREE => {
                let gone = st
                    .regions
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&m.id);
                Ok((
                    Msg {
                        op: if gone.is_some() {
                            wire::OK
                        } else {
                            wire::REFUSED
                        },
                        id: m.id,
                        size: 0,
                    },
                    None,
                ))
            }
            _ => Ok((
                Msg {
                    op: wire::REFUSED,
                    id: 0,
                    size: 0,
                },
                None,
            )),
        };
        let sent = match reply {
            Ok((msg, fd)) => wire::send(&sock, msg, fd.as_ref()),
            Err(_) => wire::send(
                &sock,
                Msg {
                    op: wire::REFUSED,
                    id: 0,
                    size: 0,
                },
                None,
            ),
        };
        if sent.is_err() {
            break;
        }
    }
    st.closed.store(true, Ordering::SeqCst);
    futex::wake(&st.regs().header.doorbell);
    let _ = service.join();
    Ok(())
}

/// `ALLOC`: a fresh sealed memfd, mapped here, registered as the next region id.
fn alloc(
    st: &ClientState,
    size: u64,
    next_id: &mut u32,
) -> io::Result<(Msg, Option<std::os::fd::OwnedFd>)> {
    let refused = Ok((
        Msg {
            op: wire::REFUSED,
            id: 0,
            size: 0,
        },
        None,
    ));
    let mut regions = st.regions.lock().unwrap_or_else(PoisonError::into_inner);
    if size == 0 || size > wire::MAX_ALLOC || regions.len() >= wire::MAX_REGIONS {
        return refused;
    }
    let fd = memfd("pqsig-card-buf", size as usize)?;
    let map = Arc::new(Mapping::map(&fd, size as usize)?);
    let id = *next_id;
    *next_id = next_id.wrapping_add(1).max(1);
    regions.insert(id, map);
    Ok((
        Msg {
            op: wire::OK,
            id,
            size,
        },
        Some(fd),
    ))
}

/// The service thread: waits on the doorbell, serves pending slots in ring order.
fn serve_slots(
    st: &ClientState,
    accel: &dyn Accelerator,
    counters: &Counters,
    stop: &AtomicBool,
    spin: Duration,
) {
    crate::futex::precise_timers();
    let regs = st.regs();
    let h = &regs.header;
    let mut served = [0u32; regs::SLOTS];
    let mut next = 0usize;
    let mut last_work = Instant::now();
    let pending = |served: &[u32; regs::SLOTS], i: usize| {
        regs.slots[i].start.load(Ordering::Acquire) != served[i]
    };
    loop {
        if st.closed.load(Ordering::Acquire) || stop.load(Ordering::Acquire) {
            return;
        }
        if let Some(i) = (0..regs::SLOTS)
            .map(|k| (next + k) % regs::SLOTS)
            .find(|&i| pending(&served, i))
        {
            served[i] = regs.slots[i].start.load(Ordering::Acquire);
            serve_one(
                st,
                &regs.slots[i],
                Window::WHOLE,
                served[i],
                accel,
                counters,
            );
            next = i + 1;
            last_work = Instant::now();
            continue;
        }
        if last_work.elapsed() < spin {
            core::hint::spin_loop();
            continue;
        }
        h.card_sleeping.store(1, Ordering::SeqCst);
        let seen = h.doorbell.load(Ordering::SeqCst);
        if !(0..regs::SLOTS).any(|i| pending(&served, i)) && !st.closed.load(Ordering::SeqCst) {
            futex::wait(&h.doorbell, seen, Duration::from_millis(100));
        }
        h.card_sleeping.store(0, Ordering::SeqCst);
    }
}

/// The part of the client's data window a slot's region-0 buffers must lie in (bytes
/// of the client's memory): the whole window for the register page's slots, one area
/// for an ivshmem user slot ([`crate::ivshmem`]), which an unprivileged process drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) base: usize,
    pub(crate) len: usize,
}

impl Window {
    pub(crate) const WHOLE: Window = Window {
        base: regs::WINDOW_OFFSET,
        len: regs::WINDOW_LEN,
    };
}

/// Serves request `seq` of slot `s` (whose region-0 buffers lie in `window`) and
/// signals its completion.
pub(crate) fn serve_one(
    st: &ClientState,
    s: &regs::Slot,
    window: Window,
    seq: u32,
    accel: &dyn Accelerator,
    counters: &Counters,
) {
    let picked_up = doorbell_instant(s.rung_ns.load(Ordering::Relaxed));
    counters
        .pickup_ns
        .fetch_add(picked_up.elapsed().as_nanos() as u64, Ordering::Relaxed);
    s.idle.store(0, Ordering::Release);
    let result = run_request(st, s, window, accel, picked_up, counters);
    let (status, c) = match result {
        Ok(c) => (Status::Ok, c),
        Err(e) => (e, Default::default()),
    };
    s.status.store(status as u32, Ordering::Relaxed);
    s.cycles_load.store(c.cycles.load, Ordering::Relaxed);
    s.cycles_compute.store(c.cycles.compute, Ordering::Relaxed);
    s.cycles_store.store(c.cycles.store, Ordering::Relaxed);
    s.cycles_total.store(c.cycles.total, Ordering::Relaxed);
    s.device_ns.store(c.device_ns, Ordering::Relaxed);
    s.queued_ns.store(c.queued_ns, Ordering::Relaxed);
    st.regs().header.requests.fetch_add(1, Ordering::Relaxed);
    counters.requests.fetch_add(1, Ordering::Relaxed);
    let by_mode = match Mode::decode(s.mode.load(Ordering::Relaxed)) {
        Some(Mode::MlDsaNtt | Mode::FalconNtt(_)) => Some(&counters.ntt_requests),
        Some(Mode::MlDsaIntt | Mode::FalconIntt(_)) => Some(&counters.intt_requests),
        Some(Mode::Verify) => Some(&counters.verify_requests),
        Some(Mode::Nop) | None => None,
    };
    if let (Some(c), Status::Ok) = (by_mode, status) {
        c.fetch_add(1, Ordering::Relaxed);
    }
    counters.device_ns.fetch_add(c.device_ns, Ordering::Relaxed);
    if status == Status::Ok {
        counters.polys.fetch_add(
            u64::from(s.num_polys.load(Ordering::Relaxed)),
            Ordering::Relaxed,
        );
    } else {
        counters.errors.fetch_add(1, Ordering::Relaxed);
    }
    s.idle.store(1, Ordering::Release);
    futex::publish(&s.done, seq, &s.host_sleeping);
}

/// A whole-operation request on the card's CPU engine: the buffer runs from `offset`
/// to the end of the region; the results go to its start. Device time = CPU time.
fn run_verify(
    map: &Mapping,
    base: usize,
    len: usize,
    offset: usize,
    count: u32,
) -> Result<crate::accel::Completion, Status> {
    if offset >= len {
        return Err(Status::BadRange);
    }
    let mut data = vec![0u8; len - offset];
    if !map.read(base + offset, &mut data) {
        return Err(Status::BadRange);
    }
    let t = Instant::now();
    let results = std::panic::catch_unwind(|| crate::ops::run_verify(&data, count))
        .map_err(|_| Status::Failed)?
        .ok_or(Status::BadData)?;
    let device_ns = t.elapsed().as_nanos() as u64;
    if !map.write(base + offset, &results) {
        return Err(Status::BadRange);
    }
    Ok(crate::accel::Completion {
        device_ns,
        ..Default::default()
    })
}

/// CLOCK_MONOTONIC in ns (the clock `Instant` reads on Linux; one per machine, so
/// host and card timestamps compare).
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The instant a request was rung, from its `rung_ns` register: the device time of a
/// request counts from there, as on hardware, so the card thread's own pickup delay
/// (wake-up, scheduling) is not charged as device time. A timestamp in the future or
/// more than 10 ms back (a host's clock register is not trusted) counts as now.
fn doorbell_instant(rung_ns: u64) -> Instant {
    let now = Instant::now();
    let back = monotonic_ns().wrapping_sub(rung_ns);
    if back <= 10_000_000 {
        now.checked_sub(Duration::from_nanos(back)).unwrap_or(now)
    } else {
        now
    }
}

/// Validates the registers, loads the data, runs it, stores it back and holds the
/// release until the accelerator's modelled end.
fn run_request(
    st: &ClientState,
    s: &regs::Slot,
    window: Window,
    accel: &dyn Accelerator,
    picked_up: Instant,
    counters: &Counters,
) -> Result<crate::accel::Completion, Status> {
    let mode = Mode::decode(s.mode.load(Ordering::Relaxed)).ok_or(Status::BadMode)?;
    let num_polys = s.num_polys.load(Ordering::Relaxed);
    let limit = if mode == Mode::Verify {
        crate::ops::MAX_ITEMS
    } else {
        regs::MAX_POLYS
    };
    if num_polys > limit {
        return Err(Status::TooManyPolys);
    }
    let region = s.region.load(Ordering::Relaxed);
    let offset = s.offset.load(Ordering::Relaxed);
    let bytes = num_polys as usize * mode.poly_bytes();
    // The memory the buffer address names, and its base inside that mapping.
    let holder;
    let (map, base, len): (&Mapping, usize, usize) = if region == 0 {
        (&st.page, window.base, window.len)
    } else {
        holder = st
            .regions
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&region)
            .cloned()
            .ok_or(Status::BadRange)?;
        (&*holder, 0, holder.len())
    };
    let offset = usize::try_from(offset).map_err(|_| Status::BadRange)?;
    if mode == Mode::Verify {
        return run_verify(map, base, len, offset, num_polys);
    }
    if offset % 4 != 0 || offset.checked_add(bytes).is_none_or(|end| end > len) {
        return Err(Status::BadRange);
    }
    // The "DMA load": a private copy, so that the client scribbling on its buffer
    // meanwhile cannot change what the kernels see after validation.
    let mut data = vec![0u8; bytes];
    if !map.read(base + offset, &mut data) {
        return Err(Status::BadRange);
    }
    let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        accel.run(mode, num_polys, &mut data, picked_up)
    }))
    .unwrap_or(Err(Status::Failed))?;
    // The "DMA store", inside the modelled time.
    map.write(base + offset, &data);
    if let Some(at) = done.release_at {
        let now = Instant::now();
        if now > at {
            counters.late.fetch_add(1, Ordering::Relaxed);
            counters
                .late_ns
                .fetch_add((now - at).as_nanos() as u64, Ordering::Relaxed);
        }
        release_at(at);
    }
    Ok(done)
}
