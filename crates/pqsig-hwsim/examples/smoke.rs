use pqsig_hwsim::{golden, Config, Mode, RtlNtt};
fn main() {
    for cfg in RtlNtt::available() {
        for mode in [Mode::Ntt, Mode::Intt] {
            let mut sim = RtlNtt::new(cfg).unwrap();
            let mut w = golden::Words::new(7).residues(cfg.q, cfg.n as usize * 2);
            let mut g = w.clone();
            golden::transform(&cfg, mode, &mut g, 2);
            let r = sim.run(mode, &mut w, 2);
            let bad = w.iter().zip(&g).filter(|(a, b)| a != b).count();
            println!("{:?} {:?} {:?} mismatches {} first {:?}", (cfg.q, cfg.n, cfg.bfus), mode, r, bad,
                w.iter().zip(&g).take(4).collect::<Vec<_>>());
        }
    }
    let _ = Config::new(1, 1, 1);
}
