//! Sustained request rate of a card against its cycle model: one client keeps every
//! slot of the pool busy with `POLYS`-polynomial ML-DSA NTT requests for `SECONDS`
//! (re-submitting each slot as soon as it completes), then reports the device time
//! the card delivered per second of wall time (1.0 = the rate the model allows).
//!
//! `cargo run --example stream -p pqsig-card [-- POLYS SECONDS]` with `PQSIG_CARD=PATH`
//! (else a card on a thread of this process).

use pqsig_card::client::Conn;
use pqsig_card::regs::{self, Mode, Status};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let polys: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2.0);
    let (_card, path) = match std::env::var_os(pqsig_card::ENV) {
        Some(p) => (None, p.into()),
        None => {
            let path =
                std::env::temp_dir().join(format!("pqsig-stream-{}.sock", std::process::id()));
            let card = pqsig_card::CardConfig::new(path.clone())
                .spawn()
                .expect("card");
            (Some(card), path)
        }
    };
    let mut c = Conn::connect(&path).expect("connect");
    let data = vec![0u8; polys as usize * 1024];
    for s in 0..regs::SLOTS {
        assert!(
            c.window_write(s * regs::SLOT_BYTES, &data),
            "POLYS too large for a slot"
        );
    }
    let mode = Mode::MlDsaNtt.encode();
    let mut seqs: Vec<u32> = (0..regs::SLOTS)
        .map(|s| c.submit(s, 0, (s * regs::SLOT_BYTES) as u64, mode, polys))
        .collect();
    let (mut requests, mut device_ns) = (0u64, 0u64);
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(seconds);
    let mut slot = 0;
    while Instant::now() < end {
        let done = c
            .wait(slot, seqs[slot], Duration::from_secs(1))
            .expect("completion");
        assert_eq!(done.status(), Status::Ok);
        requests += 1;
        device_ns += done.device_ns;
        // The NTT output stays within the input bound only for zero input: rewrite.
        c.window_write(slot * regs::SLOT_BYTES, &data);
        seqs[slot] = c.submit(slot, 0, (slot * regs::SLOT_BYTES) as u64, mode, polys);
        slot = (slot + 1) % regs::SLOTS;
    }
    let wall = start.elapsed().as_nanos() as f64;
    if let Some(card) = &_card {
        let c = &card.counters;
        eprintln!(
            "card: {} requests, {} late by {} µs in all",
            c.requests.load(std::sync::atomic::Ordering::Relaxed),
            c.late.load(std::sync::atomic::Ordering::Relaxed),
            c.late_ns.load(std::sync::atomic::Ordering::Relaxed) / 1000
        );
    }
    println!(
        "{{\"polys\":{polys},\"requests\":{requests},\"wall_s\":{:.3},\"requests_per_s\":{:.0},\
         \"device_ns_per_request\":{},\"model_rate_frac\":{:.4}}}",
        wall / 1e9,
        requests as f64 * 1e9 / wall,
        device_ns / requests.max(1),
        device_ns as f64 / wall
    );
}
