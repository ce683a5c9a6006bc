//! TSC ticks (rdtsc, median of many samples) of the Falcon NTT (q = 12289, n = 512 and
//! 1024) per backend table, and of the SIMD NTT variants (radix-4 / merged, Winograd
//! radix-8 and radix-16) for both moduli.
//!
//! Run: `cargo run -p pqsig --release --example ntt_simd_ticks` (x86-64 only; lines whose
//! CPU features are missing are skipped). Same method as `ntt_ticks`: each sample copies
//! 16 fresh canonical polynomials into an L1-resident buffer (untimed), times 16
//! single-polynomial calls and divides by 16; the candidates take turns in rounds
//! (untimed warm-up samples, then timed ones) so that clock changes affect all alike.

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use pqsig::kernels::falcon::ntt as fntt;
    use pqsig::kernels::mldsa::{self, Poly};
    use pqsig::kernels::ntt::NttVariant;
    use pqsig::Backend;
    use std::hint::black_box;

    const BATCH: usize = 16;
    const ROUNDS: usize = 20;
    const PER_ROUND: usize = 101;
    const WARMUP: usize = 10;

    type Job<'a, T> = (String, Box<dyn FnMut(&mut T) + 'a>);
    /// A unit benchmark: name, units in the block, stages `(m, layers)` top first.
    type Plan = (&'static str, usize, Vec<(usize, u32)>);

    /// Median ticks per call of each job on each of `BATCH` copies of `input`.
    fn medians<T: Clone>(input: &[T], jobs: &mut [Job<'_, T>]) -> Vec<u64> {
        let mut buf = input.to_vec();
        let mut t = vec![Vec::with_capacity(ROUNDS * PER_ROUND); jobs.len()];
        for _ in 0..ROUNDS {
            for (j, tj) in t.iter_mut().enumerate() {
                for s in 0..WARMUP + PER_ROUND {
                    buf.clone_from_slice(input);
                    // SAFETY: rdtsc is available on every x86-64 CPU.
                    let t0 = unsafe { _rdtsc() };
                    for p in buf.iter_mut() {
                        (jobs[j].1)(black_box(p));
                    }
                    // SAFETY: as above.
                    let t1 = unsafe { _rdtsc() };
                    if s >= WARMUP {
                        tj.push((t1 - t0) / BATCH as u64);
                    }
                }
            }
        }
        t.into_iter()
            .map(|mut tj| {
                tj.sort_unstable();
                tj[tj.len() / 2]
            })
            .collect()
    }

    fn print(title: &str, jobs: &[(String, u64)], coefs: usize) {
        println!("{title}");
        for (name, t) in jobs {
            println!(
                "  {:<44} {:>7} ticks  {:>6.2} ticks/coef",
                name,
                t,
                *t as f64 / coefs as f64
            );
        }
    }

    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let backends: Vec<Backend> = [Backend::Portable, Backend::Avx2, Backend::Avx512]
        .into_iter()
        .filter(|b| b.is_available())
        .collect();

    // Falcon: per degree, forward and inverse per backend table (and variants).
    for logn in [9u32, 10] {
        let n = 1usize << logn;
        let input: Vec<Vec<u16>> = (0..BATCH)
            .map(|_| (0..n).map(|_| (next() % fntt::Q as u64) as u16).collect())
            .collect();
        let mut jobs: Vec<Job<'_, Vec<u16>>> = Vec::new();
        for &b in &backends {
            let k = fntt::kernels(b);
            jobs.push((format!("ntt [{b}]"), Box::new(move |p| (k.ntt)(p, logn))));
            jobs.push((format!("intt [{b}]"), Box::new(move |p| (k.intt)(p, logn))));
            let other: Vec<u16> = (0..n).map(|i| (i * 37 % 12289) as u16).collect();
            jobs.push((
                format!("mul_monty [{b}]"),
                Box::new(move |p| (k.mul_monty)(p, &other)),
            ));
        }
        // The SIMD variant kernels through the dispatch (detection-gated) tables.
        for b in [Backend::Avx2, Backend::Avx512] {
            if !b.is_available() {
                continue;
            }
            for v in [
                NttVariant::Radix4,
                NttVariant::Winograd8,
                NttVariant::Winograd16,
            ] {
                let k = pqsig::kernels::ntt::falcon_kernels(b, v);
                let (f, i) = (k.ntt, k.intt);
                let v = v.name();
                jobs.push((
                    format!("ntt {v} [{b} variant]"),
                    Box::new(move |p| f(p, logn)),
                ));
                jobs.push((
                    format!("intt {v} [{b} variant]"),
                    Box::new(move |p| i(p, logn)),
                ));
            }
        }
        let names: Vec<String> = jobs.iter().map(|j| j.0.clone()).collect();
        let t = medians(&input, &mut jobs);
        print(
            &format!("Falcon NTT, n = {n}"),
            &names.into_iter().zip(t).collect::<Vec<_>>(),
            n,
        );
    }

    // Units alone: the deepest 3 (4) layers of a degree-n transform as radix-2 stages or
    // as one stage of Winograd radix-8 (radix-4 / Winograd radix-16) units, through the
    // one-stage hooks (vectorised across units exactly as in the transforms).
    type Stage = fn(&mut [u16], u32, usize, u32, bool);
    let mut hooks: Vec<(&str, Stage)> = Vec::new();
    for (name, b) in [("avx2", Backend::Avx2), ("avx512", Backend::Avx512)] {
        if let Some(h) = pqsig::kernels::ntt::falcon_stage_for(b) {
            hooks.push((name, h));
        }
    }
    for logn in [9u32, 10] {
        let n = 1usize << logn;
        let input: Vec<Vec<u16>> = (0..BATCH)
            .map(|_| (0..n).map(|_| (next() % fntt::Q as u64) as u16).collect())
            .collect();
        let mut jobs: Vec<Job<'_, Vec<u16>>> = Vec::new();
        let mut units = Vec::new();
        for &(b, st) in &hooks {
            // (name, units of the block, [(m, layers)] top first)
            let m3 = n / 8;
            let m4 = n / 16;
            let plans: [Plan; 5] = [
                (
                    "N=8: 3 radix-2 stages",
                    m3,
                    vec![(m3, 1), (2 * m3, 1), (4 * m3, 1)],
                ),
                ("N=8: 1 Winograd-8 stage", m3, vec![(m3, 3)]),
                (
                    "N=16: 4 radix-2 stages",
                    m4,
                    vec![(m4, 1), (2 * m4, 1), (4 * m4, 1), (8 * m4, 1)],
                ),
                ("N=16: 2 radix-4 stages", m4, vec![(m4, 2), (4 * m4, 2)]),
                ("N=16: 1 Winograd-16 stage", m4, vec![(m4, 4)]),
            ];
            for (name, u, plan) in plans {
                for inverse in [false, true] {
                    let mut order = plan.clone();
                    if inverse {
                        order.reverse();
                    }
                    let dir = if inverse { "inv" } else { "fwd" };
                    jobs.push((
                        format!("{name} {dir} [{b}]"),
                        Box::new(move |p| {
                            for &(m, l) in &order {
                                st(p, logn, m, l, inverse);
                            }
                        }),
                    ));
                    units.push(u);
                }
            }
        }
        let names: Vec<String> = jobs.iter().map(|j| j.0.clone()).collect();
        let t = medians(&input, &mut jobs);
        println!("Falcon units alone, n = {n} (ticks for all units; ticks per unit)");
        for ((name, t), u) in names.iter().zip(t).zip(units) {
            println!(
                "  {:<44} {:>7} ticks  {:>6.2} ticks/unit",
                name,
                t,
                t as f64 / u as f64
            );
        }
    }

    // ML-DSA reference lines for the per-coefficient comparison.
    let input: Vec<Poly> = (0..BATCH)
        .map(|_| Poly {
            coeffs: core::array::from_fn(|_| {
                (next() % (2 * mldsa::Q as u64 - 1)) as i32 - (mldsa::Q - 1)
            }),
        })
        .collect();
    let mut jobs: Vec<Job<'_, Poly>> = Vec::new();
    for &b in &backends {
        let k = mldsa::kernels(b);
        jobs.push((
            format!("ntt [{b}]"),
            Box::new(move |p| (k.ntt)(core::slice::from_mut(p))),
        ));
        jobs.push((
            format!("invntt_tomont [{b}]"),
            Box::new(move |p| (k.invntt_tomont)(core::slice::from_mut(p))),
        ));
    }
    for b in [Backend::Avx2, Backend::Avx512] {
        if !b.is_available() {
            continue;
        }
        for v in [
            NttVariant::Radix4,
            NttVariant::Winograd8,
            NttVariant::Winograd16,
        ] {
            let k = pqsig::kernels::ntt::mldsa_kernels(b, v);
            let (f, i) = (k.ntt, k.invntt_tomont);
            let v = v.name();
            jobs.push((
                format!("ntt {v} [{b} variant]"),
                Box::new(move |p| f(core::slice::from_mut(p))),
            ));
            jobs.push((
                format!("invntt {v} [{b} variant]"),
                Box::new(move |p| i(core::slice::from_mut(p))),
            ));
        }
    }
    let mut units: Vec<(String, usize)> = Vec::new();
    if let Some(mldsa_stage) = pqsig::kernels::ntt::mldsa_stage_for(Backend::Avx512) {
        let plans: [Plan; 5] = [
            (
                "N=8: 3 radix-2 stages",
                32,
                vec![(32, 1), (64, 1), (128, 1)],
            ),
            ("N=8: 1 Winograd-8 stage", 32, vec![(32, 3)]),
            (
                "N=16: 4 radix-2 stages",
                16,
                vec![(16, 1), (32, 1), (64, 1), (128, 1)],
            ),
            ("N=16: 2 radix-4 stages", 16, vec![(16, 2), (64, 2)]),
            ("N=16: 1 Winograd-16 stage", 16, vec![(16, 4)]),
        ];
        for (name, u, plan) in plans {
            for inverse in [false, true] {
                let mut order = plan.clone();
                if inverse {
                    order.reverse();
                }
                let dir = if inverse { "inv" } else { "fwd" };
                let label = format!("units {name} {dir} [avx512]");
                units.push((label.clone(), u));
                jobs.push((
                    label,
                    Box::new(move |p| {
                        for &(m, l) in &order {
                            mldsa_stage(core::slice::from_mut(p), m, l, inverse);
                        }
                    }),
                ));
            }
        }
    }
    let names: Vec<String> = jobs.iter().map(|j| j.0.clone()).collect();
    let t = medians(&input, &mut jobs);
    let rows: Vec<(String, u64)> = names.into_iter().zip(t).collect();
    let (unit_rows, ntt_rows): (Vec<_>, Vec<_>) =
        rows.into_iter().partition(|(n, _)| n.starts_with("units "));
    print("ML-DSA NTT, n = 256", &ntt_rows, 256);
    if !unit_rows.is_empty() {
        println!("ML-DSA units alone, n = 256 (ticks for all units; ticks per unit)");
        for ((name, t), (_, u)) in unit_rows.iter().zip(&units) {
            println!(
                "  {:<44} {:>7} ticks  {:>6.2} ticks/unit",
                &name[6..],
                t,
                *t as f64 / *u as f64
            );
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("ntt_simd_ticks: x86-64 only");
}
