//! The simulated accelerator against the library's portable kernels, and its AXI side
//! against the harness's assertions. Short by default; `PQSIG_HWSIM_FULL=1` runs every
//! batch size 0..=64 for every configuration and mode, with stalls and offsets. The
//! configurations are the nine radix-2 ones and the three Winograd radix-8 ones.

use pqsig_hwsim::{golden, BfuKind, Config, Mode, RtlNtt, SimError, ALL_CONFIGS, WINOGRAD_CONFIGS};

fn full() -> bool {
    std::env::var("PQSIG_HWSIM_FULL")
        .map(|v| v == "1")
        .unwrap_or(false)
}

fn configs() -> Vec<Config> {
    let avail = RtlNtt::available();
    for c in ALL_CONFIGS.into_iter().chain(WINOGRAD_CONFIGS) {
        assert!(
            avail.contains(&c),
            "{c:?} not compiled in (PQSIG_HWSIM_CONFIGS?)"
        );
    }
    avail
}

/// Runs `k` random polys through the card and the kernel; panics on a difference.
fn check(sim: &mut RtlNtt, mode: Mode, k: usize, seed: u64) -> pqsig_hwsim::Cycles {
    let cfg = sim.config();
    let mut w = golden::Words::new(seed).residues(cfg.q, k * cfg.n as usize);
    let mut g = w.clone();
    golden::transform(&cfg, mode, &mut g, k);
    let c = sim
        .run(mode, &mut w, k)
        .unwrap_or_else(|e| panic!("{cfg:?} {mode:?} k={k}: {e}"));
    if let Some(i) = (0..w.len()).find(|&i| w[i] != g[i]) {
        panic!(
            "{cfg:?} {mode:?} k={k}: word {i} is {} expected {}",
            w[i], g[i]
        );
    }
    c
}

#[test]
fn every_config_and_mode_matches_the_kernels() {
    let sizes: Vec<usize> = if full() {
        (0..=64).collect()
    } else {
        vec![0, 1, 2, 3, 9]
    };
    for cfg in configs() {
        let mut sim = RtlNtt::new(cfg).unwrap();
        for mode in [Mode::Ntt, Mode::Intt] {
            for &k in &sizes {
                check(&mut sim, mode, k, (k as u64) << 8 | cfg.bfus as u64);
            }
        }
    }
}

#[test]
fn batches_of_64_per_modulus_and_targets() {
    // one configuration per (q, n) in the short form, all nine in the full form
    let list: Vec<Config> = if full() {
        configs()
    } else {
        let mut v = vec![
            Config::new(8380417, 256, 4),
            Config::new(12289, 512, 4),
            Config::new(12289, 1024, 4),
        ];
        v.extend(WINOGRAD_CONFIGS);
        v
    };
    for cfg in list {
        let mut sim = RtlNtt::new(cfg).unwrap();
        for mode in [Mode::Ntt, Mode::Intt] {
            let c = check(&mut sim, mode, 64, 64);
            let per = c.total as f64 / 64.0;
            assert!(
                per <= 1.1 * cfg.ideal_cycles() as f64,
                "{cfg:?} {mode:?}: {per} cycles/poly"
            );
        }
    }
}

#[test]
fn single_ntt256_cycle_targets() {
    // the Winograd core (one radix-8 unit, 8 points per cycle) is held to the 4-BFU bound
    for (cfg, bound) in [
        (Config::new(8380417, 256, 1), 1300),
        (Config::new(8380417, 256, 4), 400),
        (Config::winograd8(8380417, 256), 400),
    ] {
        let bfus = cfg.bfus;
        let mut sim = RtlNtt::new(cfg).unwrap();
        for mode in [Mode::Ntt, Mode::Intt] {
            let c = check(&mut sim, mode, 1, 3);
            assert!(
                c.total <= bound,
                "{:?} bfus {bfus} {mode:?}: {c:?}",
                cfg.kind
            );
            assert!(c.load > 0 && c.compute > 0 && c.store > 0);
        }
    }
}

#[test]
fn back_to_back_starts_without_reset() {
    for cfg in [
        Config::new(8380417, 256, 2),
        Config::new(12289, 512, 1),
        Config::winograd8(8380417, 256),
        Config::winograd8(12289, 1024),
    ] {
        let mut sim = RtlNtt::new(cfg).unwrap();
        for i in 0..8u64 {
            let mode = if i % 3 == 1 { Mode::Intt } else { Mode::Ntt };
            check(&mut sim, mode, (i as usize * 5) % 7 + 1, i);
        }
    }
}

#[test]
fn reset_in_the_middle_of_a_batch_then_a_clean_run() {
    for cfg in [
        Config::new(8380417, 256, 4),
        Config::new(12289, 1024, 2),
        Config::winograd8(8380417, 256),
        Config::winograd8(12289, 512),
    ] {
        let mut sim = RtlNtt::new(cfg).unwrap();
        for stop in [5u64, 300, 2000] {
            let mut w = golden::Words::new(stop).residues(cfg.q, 16 * cfg.n as usize);
            let before = w.clone();
            assert_eq!(
                sim.run_for(Mode::Ntt, &mut w, 16, stop),
                Err(SimError::Incomplete)
            );
            assert_eq!(
                w, before,
                "an incomplete request leaves the caller's buffer alone"
            );
            sim.reset();
            check(&mut sim, Mode::Intt, 5, stop);
            check(&mut sim, Mode::Ntt, 3, stop + 1);
        }
    }
}

#[test]
fn zero_polys_is_a_quick_no_op() {
    for cfg in configs() {
        let mut sim = RtlNtt::new(cfg).unwrap();
        let mut w: Vec<u32> = vec![];
        let c = sim.run(Mode::Ntt, &mut w, 0).unwrap();
        assert!(
            c.total < 8 && c.load == 0 && c.compute == 0 && c.store == 0,
            "{c:?}"
        );
        let mut w = vec![1u32; cfg.n as usize];
        sim.run(Mode::Intt, &mut w, 0).unwrap();
        assert!(w.iter().all(|&x| x == 1));
        check(&mut sim, Mode::Ntt, 2, 9);
    }
}

#[test]
fn axi_stalls_and_page_offsets_keep_bursts_legal() {
    let offsets: &[u32] = if full() {
        &[0, 64, 1024, 4032, 4064, 4088]
    } else {
        &[0, 4032, 4064]
    };
    let list: Vec<Config> = if full() {
        configs()
    } else {
        vec![
            Config::new(8380417, 256, 1),
            Config::new(12289, 512, 4),
            Config::new(12289, 1024, 1),
            Config::winograd8(8380417, 256),
            Config::winograd8(12289, 1024),
        ]
    };
    for base in list {
        for &off in offsets {
            let beat = base.beat_bytes();
            let off = off / beat * beat;
            for stall in [0, 40] {
                let cfg = Config {
                    stall_pct: stall,
                    seed: off + 7,
                    buf_offset: off,
                    ..base
                };
                let mut sim = RtlNtt::new(cfg).unwrap();
                check(&mut sim, Mode::Ntt, 3, off as u64);
                check(&mut sim, Mode::Intt, 2, off as u64 + 1);
            }
        }
    }
}

#[test]
fn axi_assertions_fire_on_a_bad_address() {
    for cfg in [Config::new(12289, 512, 2), Config::winograd8(12289, 512)] {
        let mut sim = RtlNtt::new(cfg).unwrap();
        let mut w = golden::Words::new(1).residues(cfg.q, 2 * 512);
        let before = w.clone();
        // the device is pointed one page past the buffer: its bursts leave the buffer
        sim.set_addr_skew(4096);
        assert!(matches!(
            sim.run(Mode::Ntt, &mut w, 2),
            Err(SimError::Outside(_))
        ));
        assert_eq!(w, before);
        sim.set_addr_skew(-64);
        assert!(matches!(
            sim.run(Mode::Ntt, &mut w, 2),
            Err(SimError::Outside(_))
        ));
        // misaligned buffer address: the device refuses (ERR register), moves nothing
        sim.reset();
        sim.set_addr_skew(4);
        assert!(matches!(
            sim.run(Mode::Ntt, &mut w, 2),
            Err(SimError::Device(_))
        ));
        sim.set_addr_skew(0);
        sim.reset();
        check(&mut sim, Mode::Ntt, 2, 5);
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let cfg = Config::new(8380417, 256, 1);
    let mut sim = RtlNtt::new(cfg).unwrap();
    let mut short = vec![0u32; 255];
    assert!(matches!(
        sim.run(Mode::Ntt, &mut short, 1),
        Err(SimError::BadArg(_))
    ));
    let mut w = vec![0u32; 512];
    w[300] = 8380417;
    assert_eq!(
        sim.run(Mode::Ntt, &mut w, 2),
        Err(SimError::NotCanonical {
            index: 300,
            value: 8380417
        })
    );
    assert!(matches!(
        sim.run(Mode::Ntt, &mut w, 70000),
        Err(SimError::BadArg(_))
    ));
    // one Winograd radix-8 unit is built, not two
    assert!(matches!(
        RtlNtt::new(Config {
            kind: BfuKind::Winograd8,
            bfus: 2,
            ..cfg
        }),
        Err(SimError::Config(_))
    ));
    assert!(matches!(
        RtlNtt::new(Config::new(8380417, 512, 1)),
        Err(SimError::Config(_))
    ));
    assert!(matches!(
        RtlNtt::new(Config {
            stall_pct: 99,
            ..cfg
        }),
        Err(SimError::BadArg(_))
    ));
    assert!(sim.set_buf_offset(5000).is_err());
    check(&mut sim, Mode::Ntt, 1, 1);
}

#[test]
fn mldsa_signed_inputs_map_to_words() {
    // |a| < q signed inputs: the host maps them to [0, q) and the result is the
    // kernel's (on the signed input) reduced to [0, q).
    use pqsig::kernels::mldsa::{base_kernels, Poly, Q};
    let cfg = Config::new(8380417, 256, 4);
    let mut sim = RtlNtt::new(cfg).unwrap();
    let mut gen = golden::Words::new(77);
    let mut p = Poly::default();
    for c in p.coeffs.iter_mut() {
        *c = (gen.next_u32() % (2 * Q as u32 - 1)) as i32 - (Q - 1);
    }
    for (mode, f) in [
        (Mode::Ntt, base_kernels(pqsig::Backend::Portable).ntt),
        (
            Mode::Intt,
            base_kernels(pqsig::Backend::Portable).invntt_tomont,
        ),
    ] {
        let mut w = golden::mldsa_to_words(&p.coeffs);
        sim.run(mode, &mut w, 1).unwrap();
        let mut q = [p];
        f(&mut q);
        let want = golden::mldsa_to_words(&q[0].coeffs);
        assert_eq!(w, want, "{mode:?}");
    }
}

#[test]
fn memory_latency_changes_cycles_not_results() {
    for cfg in [
        Config::new(8380417, 256, 1),
        Config::new(12289, 512, 4),
        Config::winograd8(12289, 512),
    ] {
        let mut sim = RtlNtt::new(cfg).unwrap();
        let base1 = check(&mut sim, Mode::Ntt, 1, 1).total;
        let base16 = check(&mut sim, Mode::Intt, 16, 2).total;
        sim.set_latency(40, 20).unwrap();
        let lat1 = check(&mut sim, Mode::Ntt, 1, 1).total;
        let lat16 = check(&mut sim, Mode::Intt, 16, 2).total;
        // the read latency is paid once per request (plus the write response at the end)
        assert!(
            lat1 > base1 && lat1 <= base1 + 40 + 20 + 8,
            "{cfg:?}: {base1} -> {lat1}"
        );
        assert!(
            lat16 <= base16 + 40 + 20 + 8,
            "{cfg:?}: {base16} -> {lat16}"
        );
    }
    let mut sim = RtlNtt::new(Config::new(8380417, 256, 1)).unwrap();
    assert!(sim.set_latency(100_000, 0).is_err());
}
