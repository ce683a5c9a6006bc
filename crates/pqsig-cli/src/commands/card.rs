//! `pqsig card`: runs a simulated NTT accelerator card (crate `pqsig-card`) in the
//! foreground until SIGINT or SIGTERM. Clients reach it with `PQSIG_CARD=PATH` and
//! `--device card` (pooled) or `--device card-per-call` (the FPGA design's scheme).

use crate::exit::Failure;
use clap::{Args, ValueEnum};
use pqsig_card::{AccelKind, CardConfig, CycleModel};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub const AFTER_HELP: &str = "\
The card prints one line when it listens and one with its request counters when it
stops; `pqsig card --stats --socket PATH` prints a running card's counters as JSON
(requests, ntt_requests, intt_requests, verify_requests, polys, errors, device_ns, ...).
`--accel rtl` needs a build with the Verilator model (feature hw-sim).

Examples:
  pqsig card --accel timed --socket /tmp/card.sock &
  pqsig card --accel timed --ivshmem /dev/shm/pqsig-ivshmem &   (a QEMU guest: hw/linux/run.sh)
  PQSIG_CARD=/tmp/card.sock pqsig --device card bench --alg ML-DSA-44 --batch 64 --json
  PQSIG_CARD=/tmp/card.sock pqsig --device card-per-call sign --alg ML-DSA-44 --sk k.pem --in m --out s
  pqsig card --stats --socket /tmp/card.sock";

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Accel {
    /// CPU kernels, results released when the cycle model says the hardware finishes.
    Timed,
    /// The Verilator model of hw/ntt (needs the hw-sim build).
    Rtl,
}

#[derive(Debug, Args)]
pub struct CardArgs {
    /// The accelerator behind the card.
    #[arg(long, value_enum, required_unless_present = "stats")]
    pub accel: Option<Accel>,
    /// Do not run a card: print the request counters of the card on --socket as one
    /// JSON line and exit.
    #[arg(long, conflicts_with_all = ["accel", "clock_mhz", "bfus", "spin_us"])]
    pub stats: bool,
    /// The modelled clock in MHz (125: the design's board).
    #[arg(long, value_name = "F", default_value_t = 125.0)]
    pub clock_mhz: f64,
    /// The Unix socket to listen on (a stale socket file is replaced).
    #[arg(
        long,
        value_name = "PATH",
        required_unless_present = "ivshmem",
        conflicts_with = "ivshmem"
    )]
    pub socket: Option<PathBuf>,
    /// Serve a VM instead: map FILE (created or grown to 4 MiB), the memory of QEMU's
    /// `-object memory-backend-file,share=on,mem-path=FILE -device ivshmem-plain`, and
    /// poll its start registers (the guest's driver is hw/linux/ntt_hw.c).
    #[arg(long, value_name = "FILE")]
    pub ivshmem: Option<PathBuf>,
    /// Butterfly units of the cycle model.
    #[arg(long, value_name = "N", default_value_t = CycleModel::default().bfus,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub bfus: u32,
    /// How long the card polls a client's doorbell after a request before sleeping on it
    /// (µs). The card stands for hardware, which is always listening: a doorbell that
    /// has to wake a sleeping thread costs 0.04-0.4 ms on a loaded machine.
    #[arg(long, value_name = "US", default_value_t = 5000)]
    pub spin_us: u64,
}

pub fn run(args: CardArgs) -> Result<(), Failure> {
    if args.stats {
        let Some(socket) = &args.socket else {
            return Err(Failure::error(
                "card --stats reads a card's counters over its --socket (not --ivshmem)",
            ));
        };
        let text = pqsig_card::stats::query(socket)
            .map_err(|e| Failure::error(format!("card --stats: {}: {e}", socket.display())))?;
        println!("{text}");
        return Ok(());
    }
    let accel = args.accel.unwrap_or(Accel::Timed);
    let cfg = CardConfig {
        accel: match accel {
            Accel::Timed => AccelKind::Timed,
            Accel::Rtl => AccelKind::Rtl,
        },
        clock_mhz: args.clock_mhz,
        model: CycleModel {
            bfus: args.bfus,
            ..CycleModel::default()
        },
        spin: Duration::from_micros(args.spin_us),
        ..CardConfig::new(args.socket.clone().unwrap_or_default())
    };
    let accel = format!("{accel:?}").to_lowercase();
    let ready = |on: String| {
        eprintln!(
            "pqsig card: {accel} accelerator at {} MHz ({} butterfly units, {} kernels) on {on}",
            cfg.clock_mhz, cfg.model.bfus, cfg.backend,
        );
    };
    let counters = match &args.ivshmem {
        Some(file) => pqsig_card::ivshmem::run_foreground(&cfg, file, || {
            ready(format!("ivshmem {}", file.display()))
        }),
        None => pqsig_card::run_foreground(&cfg, || ready(cfg.socket.display().to_string())),
    }
    .map_err(|e| Failure::error(format!("card: {e}")))?;
    eprintln!(
        "pqsig card: stopped; {} clients, {} requests, {} polynomials, {} errors, {:.3} ms device time, \
         {} released late by {:.3} ms in all",
        counters.clients.load(Ordering::Relaxed),
        counters.requests.load(Ordering::Relaxed),
        counters.polys.load(Ordering::Relaxed),
        counters.errors.load(Ordering::Relaxed),
        counters.device_ns.load(Ordering::Relaxed) as f64 / 1e6,
        counters.late.load(Ordering::Relaxed),
        counters.late_ns.load(Ordering::Relaxed) as f64 / 1e6
    );
    Ok(())
}
