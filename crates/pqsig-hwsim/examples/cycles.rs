//! Prints the cycle counts of every configuration compiled in, one JSON line each:
//! {"modulus","n","bfu","bfus","ntt_cycles","intt_cycles","batch64_cycles_per_poly",
//!  "ideal_per_poly","ntt","intt","batch64_ntt","batch64_intt"} (the last four:
//!  {load,compute,store,total} of that request). Optional argument `q:n:bfus` (radix-2)
//!  or `q:n:1:w8` (Winograd radix-8) selects one; "bfu" is "radix2" or "winograd8".
//! ntt_cycles / intt_cycles: one polynomial, start to done, load and store included.
//! batch64_cycles_per_poly: the larger of the forward and inverse batch of 64 totals,
//! divided by 64 (fill and drain included). Every result is checked against the
//! library kernels. Used by hw/ntt/report.sh.
use pqsig_hwsim::{golden, BfuKind, Config, Cycles, Mode, RtlNtt};

fn js(c: &Cycles) -> String {
    format!(
        "{{\"load\":{},\"compute\":{},\"store\":{},\"total\":{}}}",
        c.load, c.compute, c.store, c.total
    )
}

fn name(cfg: &Config) -> String {
    match cfg.kind {
        BfuKind::Radix2 => format!("{}:{}:{}", cfg.q, cfg.n, cfg.bfus),
        BfuKind::Winograd8 => format!("{}:{}:{}:w8", cfg.q, cfg.n, cfg.bfus),
    }
}

fn main() {
    let filter: Option<String> = std::env::args().nth(1);
    for cfg in RtlNtt::available() {
        if let Some(f) = &filter {
            if *f != name(&cfg) {
                continue;
            }
        }
        let mut sim = RtlNtt::new(cfg).expect("config");
        let mut gen = golden::Words::new(cfg.n as u64 + cfg.bfus as u64);
        let mut one = |mode, k: usize| -> Cycles {
            let mut w = gen.residues(cfg.q, k * cfg.n as usize);
            let mut g = w.clone();
            golden::transform(&cfg, mode, &mut g, k);
            let c = sim.run(mode, &mut w, k).expect("run");
            assert!(w == g, "mismatch against the kernels for {cfg:?} {mode:?}");
            c
        };
        let n1 = one(Mode::Ntt, 1);
        let i1 = one(Mode::Intt, 1);
        let n64 = one(Mode::Ntt, 64);
        let i64 = one(Mode::Intt, 64);
        let per = n64.total.max(i64.total) as f64 / 64.0;
        println!(
            "{{\"modulus\":{},\"n\":{},\"bfu\":\"{}\",\"bfus\":{},\"ntt_cycles\":{},\"intt_cycles\":{},\"batch64_cycles_per_poly\":{:.1},\"ideal_per_poly\":{},\"ntt\":{},\"intt\":{},\"batch64_ntt\":{},\"batch64_intt\":{}}}",
            cfg.q,
            cfg.n,
            match cfg.kind {
                BfuKind::Radix2 => "radix2",
                BfuKind::Winograd8 => "winograd8",
            },
            cfg.bfus,
            n1.total, i1.total, per, cfg.ideal_cycles(),
            js(&n1), js(&i1), js(&n64), js(&i64)
        );
    }
}
