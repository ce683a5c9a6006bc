//! A simulated NTT accelerator card as a separate device process, and the host driver
//! path to it — Step 3 of the hardware plan (the offload path of the ML-DSA FPGA
//! design: a driver-shaped request path, measured against realistic device time).
//!
//! The card ([`card::Card`], `pqsig card --accel timed --socket PATH`) stands for a
//! PCIe card: per client, a register page with the accelerator's register map and a
//! data window standing for DMA memory ([`regs`]), both in one sealed memfd the card
//! creates and hands over the Unix socket ([`shm`], [`wire`]). The host rings a
//! doorbell and the card signals completion through futex words in that page, polled
//! first ([`futex`]). Behind the card one accelerator serves every client:
//! * `timed` ([`accel::Timed`]): computes with the library's CPU kernels and releases
//!   each result when the cycle model ([`cycles::CycleModel`]) at the chosen clock
//!   (default 125 MHz, the design's board) says the hardware would finish;
//! * `rtl` (feature `rtl`, [`accel::Rtl`]): the Verilator model of hw/ntt
//!   (`pqsig_hwsim::RtlNtt`), exact and slow, reporting the simulated cycles as device
//!   time; without the feature a card refuses to start it.
//!
//! The host side ([`device`]) is two kernel devices of the library's seam: `card`
//! (pooled buffers, several requests in flight) and `card-per-call` (the design's
//! allocate–copy–ring–wait–copy–free scheme), both reaching the card whose socket
//! `PQSIG_CARD` names ([`register_from_env`]), and `card-verify`, whole-operation
//! requests (the card verifying N signatures on its CPU engine, a
//! `pqsig::batch::Device`, [`ops_device`]). `pqsig card --stats` reads a running
//! card's counters ([`stats`]). The study of this path: docs/OFFLOAD.md.
//!
//! Waiting, on both sides, is polling first and sleeping later, tuned on a shared
//! 2-core machine: the card polls an active client's doorbell for 5 ms (`--spin-us`)
//! before it sleeps on the futex, as hardware is always listening; a host sleeps
//! (precise timers) until 0.3 ms before the completion the cycle model predicts when
//! that is over 1 ms away, then polls for `PQSIG_CARD_SPIN_US` (200 µs), then sleeps on
//! the futex. Measured (examples/doorbell, card and host processes): a no-op round trip
//! through polling costs 0.4-0.9 µs at the median; through the futex wake paths, 40 µs
//! to 4 ms at the median depending on the machine's load, which is why nothing here
//! sleeps for short waits.
//!
//! Linux only (memfd, futex, SCM_RIGHTS).

pub mod accel;
pub mod card;
pub mod client;
pub mod cycles;
pub mod device;
pub mod futex;
pub mod ivshmem;
pub mod ntt_hw;
pub mod ops;
pub mod ops_device;
mod pool;
pub mod regs;
pub mod shm;
pub mod stats;
pub mod wire;

pub use card::{Card, CardHandle, Counters};
pub use cycles::CycleModel;
pub use device::{Breakdown, CardDevice, DriverMode};

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The environment variable naming the card's socket.
pub const ENV: &str = "PQSIG_CARD";

static DEVICES: OnceLock<Vec<Arc<CardDevice>>> = OnceLock::new();
static VERIFY: OnceLock<Option<Arc<ops_device::CardVerify>>> = OnceLock::new();

/// Registers the kernel devices `card` (pooled) and `card-per-call` and the batch
/// device `card-verify` (whole verification jobs), reaching the card on `PQSIG_CARD`'s
/// socket, when that variable is set; nothing otherwise (then `--device card` is an
/// unknown device, which says more than a silent CPU run). Idempotent. A card that
/// does not answer (yet) fails requests, which run on the CPU.
pub fn register_from_env() -> &'static [Arc<CardDevice>] {
    DEVICES.get_or_init(|| {
        let Some(path) = std::env::var_os(ENV).filter(|p| !p.is_empty()) else {
            return Vec::new();
        };
        let path = PathBuf::from(path);
        VERIFY.get_or_init(|| {
            let dev = Arc::new(ops_device::CardVerify::new(path.clone()));
            pqsig::batch::device::register(dev.clone())
                .ok()
                .map(|_| dev)
        });
        [DriverMode::Pooled, DriverMode::PerCall]
            .into_iter()
            .map(|m| Arc::new(CardDevice::new(m, path.clone())))
            .filter(|d| pqsig::batch::register_kernel_device(d.clone()).is_ok())
            .collect()
    })
}

/// The `card-verify` batch device, when [`register_from_env`] registered it.
pub fn card_verify_device() -> Option<Arc<ops_device::CardVerify>> {
    VERIFY.get().cloned().flatten()
}

/// The card device registered under `name` (`card` or `card-per-call`), if any.
pub fn card_device(name: &str) -> Option<Arc<CardDevice>> {
    use pqsig::batch::KernelDevice;
    DEVICES
        .get()?
        .iter()
        .find(|d| d.name().eq_ignore_ascii_case(name.trim()))
        .cloned()
}

/// Which accelerator a card runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccelKind {
    Timed,
    Rtl,
}

/// A card's settings (the `pqsig card` command line).
#[derive(Clone, Debug)]
pub struct CardConfig {
    pub socket: PathBuf,
    pub accel: AccelKind,
    pub clock_mhz: f64,
    pub model: CycleModel,
    /// How long a service thread polls its doorbell after a request before sleeping.
    pub spin: Duration,
    /// The kernels the `timed` accelerator computes with.
    pub backend: pqsig::Backend,
}

impl CardConfig {
    pub fn new(socket: PathBuf) -> CardConfig {
        CardConfig {
            socket,
            accel: AccelKind::Timed,
            clock_mhz: 125.0,
            model: CycleModel::default(),
            spin: Duration::from_micros(5000),
            backend: pqsig::backend::active(),
        }
    }

    /// The accelerator these settings describe; an error (to print) for `rtl` in a
    /// build without it, or a clock that is not a positive number.
    pub fn accelerator(&self) -> Result<Arc<dyn accel::Accelerator>, String> {
        if !(self.clock_mhz.is_finite() && self.clock_mhz > 0.0 && self.clock_mhz <= 10_000.0) {
            return Err(format!(
                "--clock-mhz {}: expected a number in (0, 10000]",
                self.clock_mhz
            ));
        }
        match self.accel {
            AccelKind::Timed => Ok(Arc::new(accel::Timed::new(self.model, self.clock_mhz, self.backend))),
            #[cfg(feature = "rtl")]
            AccelKind::Rtl => Ok(Arc::new(accel::Rtl::new(self.clock_mhz, self.model.bfus)?)),
            #[cfg(not(feature = "rtl"))]
            AccelKind::Rtl => Err("--accel rtl needs a build with the Verilator model (cargo feature \
                                   `hw-sim` of pqsig-cli, `rtl` of pqsig-card); this build has only \
                                   `timed`"
                .into()),
        }
    }

    /// Binds the socket and starts serving on a background thread.
    pub fn spawn(&self) -> Result<CardHandle, String> {
        let accel = self.accelerator()?;
        Card::bind(&self.socket, accel, self.spin)
            .map(Card::spawn)
            .map_err(|e| format!("{}: {e}", self.socket.display()))
    }
}

static SIGNALLED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    SIGNALLED.store(true, Ordering::SeqCst);
}

/// Installs the SIGINT/SIGTERM handlers and returns a flag that becomes true once
/// either arrives (a watcher thread polls the handler's flag every 20 ms).
pub(crate) fn stop_on_signals() -> Arc<AtomicBool> {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic (async-signal-safe); installing a
    // handler for SIGINT/SIGTERM has no other precondition.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    std::thread::spawn(move || {
        while !SIGNALLED.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
        flag.store(true, Ordering::SeqCst);
    });
    stop
}

/// Runs a card in the foreground until SIGINT or SIGTERM (then removes the socket);
/// `ready` runs once it listens. Returns its counters.
pub fn run_foreground(cfg: &CardConfig, ready: impl FnOnce()) -> Result<Arc<Counters>, String> {
    let accel = cfg.accelerator()?;
    let card = Card::bind(&cfg.socket, accel, cfg.spin)
        .map_err(|e| format!("{}: {e}", cfg.socket.display()))?;
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic (async-signal-safe); installing a
    // handler for SIGINT/SIGTERM has no other precondition.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
    let stop = card.stop_flag();
    let counters = card.counters();
    let watcher = std::thread::spawn(move || {
        while !SIGNALLED.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(20));
        }
        stop.store(true, Ordering::SeqCst);
    });
    ready();
    card.serve();
    let _ = watcher.join();
    Ok(counters)
}
