//! Doorbell → completion latency of a card: no-op requests (`Mode::Nop`: no data, no
//! device time beyond the model's setup cycles) rung and awaited one at a time.
//!
//! `cargo run --example doorbell -p pqsig-card [-- ROUNDS [GAP_US]]` with
//! `PQSIG_CARD=PATH` (a card started with `pqsig card`); without it, a card on a thread
//! of this process. `PQSIG_CARD_SPIN_US=0` makes the host sleep on the futex at once;
//! a GAP_US longer than the card's `--spin-us` (default 5000) between rounds lets the
//! card's service thread fall asleep on its doorbell each time: both futex paths.

use pqsig_card::client::Conn;
use pqsig_card::regs::Mode;
use std::time::{Duration, Instant};

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let gap_us: u64 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(0);
    let (_card, path) = match std::env::var_os(pqsig_card::ENV) {
        Some(p) => (None, p.into()),
        None => {
            let path =
                std::env::temp_dir().join(format!("pqsig-doorbell-{}.sock", std::process::id()));
            let card = pqsig_card::CardConfig::new(path.clone())
                .spawn()
                .expect("card");
            (Some(card), path)
        }
    };
    let mut c = Conn::connect(&path).expect("connect");
    let mut lat = Vec::with_capacity(rounds);
    for i in 0..rounds + 100 {
        if gap_us > 0 {
            std::thread::sleep(Duration::from_micros(gap_us));
        }
        let t = Instant::now();
        let seq = c.submit(0, 0, 0, Mode::Nop.encode(), 0);
        let done = c.wait(0, seq, Duration::from_secs(1)).expect("completion");
        let took = t.elapsed();
        if i >= 100 {
            // Minus the modelled setup time the card holds a no-op for.
            lat.push(took.as_nanos() as u64 - done.device_ns.min(took.as_nanos() as u64));
        }
    }
    lat.sort_unstable();
    let q = |f: f64| lat[((lat.len() - 1) as f64 * f) as usize];
    println!(
        "{{\"rounds\":{rounds},\"gap_us\":{gap_us},\"spin_us\":{},\"p10_ns\":{},\"median_ns\":{},\"p90_ns\":{},\"p99_ns\":{}}}",
        c.spin.as_micros(),
        q(0.1),
        q(0.5),
        q(0.9),
        q(0.99)
    );
}
