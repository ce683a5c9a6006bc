//! Cycles of one transform and of a batch of 64 against a memory with a read latency
//! (AR handshake to first data) and a write-response latency, for every configuration
//! compiled in: `cargo run -p pqsig-hwsim --example latency -- [read] [write]`
//! (default 40 and 20 cycles). Results are checked against the kernels.
use pqsig_hwsim::{golden, Mode, RtlNtt};

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>().expect("cycles"));
    let (rl, wl) = (args.next().unwrap_or(40), args.next().unwrap_or(20));
    println!("| q | n | BFUs | NTT 1 poly (0 / {rl}+{wl}) | INTT 1 poly | batch 64 per poly |");
    println!("|---|---|---|---|---|---|");
    for cfg in RtlNtt::available() {
        let mut row = Vec::new();
        for (mode, k) in [(Mode::Ntt, 1), (Mode::Intt, 1), (Mode::Ntt, 64)] {
            let mut t = [0u64; 2];
            for (i, lat) in [(0, 2), (rl, wl)].into_iter().enumerate() {
                let mut sim = RtlNtt::new(cfg).unwrap();
                sim.set_latency(lat.0, lat.1).unwrap();
                let mut w = golden::Words::new(5).residues(cfg.q, k * cfg.n as usize);
                let mut g = w.clone();
                golden::transform(&cfg, mode, &mut g, k);
                t[i] = sim.run(mode, &mut w, k).unwrap().total;
                assert!(w == g);
            }
            row.push(if k == 1 {
                format!("{} / {}", t[0], t[1])
            } else {
                format!("{:.1} / {:.1}", t[0] as f64 / 64.0, t[1] as f64 / 64.0)
            });
        }
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            cfg.q, cfg.n, cfg.bfus, row[0], row[1], row[2]
        );
    }
}
