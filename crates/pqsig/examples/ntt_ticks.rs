//! TSC ticks (rdtsc, median of many samples) of one ML-DSA NTT-256, inverse NTT and the
//! NTT-domain products, for the portable, AVX2 and AVX-512 kernel tables.
//!
//! Run: `cargo run -p pqsig --release --example ntt_ticks` (x86-64 only; the AVX2 and
//! AVX-512 columns are skipped when the CPU lacks the features). rdtsc counts reference
//! (TSC) ticks, not core cycles: on a CPU boosting above its TSC frequency a tick is
//! more than one cycle. The last line estimates the ratio with a chain of dependent
//! one-cycle additions.
//!
//! Each sample copies 16 fresh in-bound polynomials into an L1-resident buffer (untimed),
//! then times 16 single-polynomial calls through the kernel table and divides by 16. The
//! pointwise line is one polynomial per call; the matrix product line is per call (8×7
//! polynomials, ML-DSA-87's shape). The backends take turns in rounds (a few untimed
//! warm-up samples, then timed ones), so that clock changes during the run affect all
//! columns alike while each median is a steady-state figure.
//!
//! The "after 1 ms idle" line times a single NTT call after a pause without vector work:
//! on CPUs that power down the upper halves of their 512-bit units, the first AVX-512
//! instructions after such a pause run at a fraction of their throughput.

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use pqsig::kernels::mldsa::{kernels, Kernels, Poly, Q};
    use pqsig::Backend;
    use std::hint::black_box;

    const BATCH: usize = 16;
    /// Rounds × timed samples per round = samples per backend.
    const ROUNDS: usize = 20;
    const PER_ROUND: usize = 251;
    const WARMUP: usize = 20;

    /// Median ticks per polynomial of `f(b, ·)` applied to each of `BATCH` copies of
    /// `input`, for each backend index `b < nb`: rounds of `WARMUP` untimed and
    /// `PER_ROUND` timed samples of each backend in turn (steady state per backend, and
    /// clock drift spread over all of them).
    fn medians(input: &[Poly; BATCH], nb: usize, mut f: impl FnMut(usize, &mut Poly)) -> Vec<u64> {
        let mut buf = *input;
        let mut t = vec![Vec::with_capacity(ROUNDS * PER_ROUND); nb];
        for _ in 0..ROUNDS {
            for (b, tb) in t.iter_mut().enumerate() {
                for s in 0..WARMUP + PER_ROUND {
                    buf.copy_from_slice(input);
                    // SAFETY: rdtsc is available on every x86-64 CPU.
                    let t0 = unsafe { _rdtsc() };
                    for p in buf.iter_mut() {
                        f(b, black_box(p));
                    }
                    // SAFETY: as above.
                    let t1 = unsafe { _rdtsc() };
                    if s >= WARMUP {
                        tb.push((t1 - t0) / BATCH as u64);
                    }
                }
            }
        }
        t.into_iter()
            .map(|mut tb| {
                tb.sort_unstable();
                tb[tb.len() / 2]
            })
            .collect()
    }

    /// Median ticks of one call of `f` after about 1 ms (2^21 ticks) without vector
    /// work: AVX-512 units that were powered down run slowly for a while.
    fn cold_ticks(input: &Poly, mut f: impl FnMut(&mut Poly)) -> u64 {
        let mut t: Vec<u64> = (0..101)
            .map(|_| {
                let mut p = *input;
                // SAFETY: rdtsc is available on every x86-64 CPU (here and below).
                let idle = unsafe { _rdtsc() };
                while unsafe { _rdtsc() } - idle < 1 << 21 {
                    core::hint::spin_loop();
                }
                let t0 = unsafe { _rdtsc() };
                f(black_box(&mut p));
                let t1 = unsafe { _rdtsc() };
                black_box(&p);
                t1 - t0
            })
            .collect();
        t.sort_unstable();
        t[t.len() / 2]
    }

    /// TSC ticks per core cycle: a chain of dependent one-cycle register additions
    /// (register operands: recent Intel cores fold chains of immediate additions).
    fn ticks_per_cycle() -> f64 {
        const ADDS: u64 = 8 * 100_000;
        let mut best = u64::MAX;
        for _ in 0..20 {
            // SAFETY: rdtsc is available on every x86-64 CPU; the asm block only adds
            // registers it declares.
            unsafe {
                let t0 = _rdtsc();
                let mut x = 0u64;
                let y = black_box(1u64);
                for _ in 0..ADDS / 8 {
                    core::arch::asm!(
                        "add {x}, {y}", "add {x}, {y}", "add {x}, {y}", "add {x}, {y}",
                        "add {x}, {y}", "add {x}, {y}", "add {x}, {y}", "add {x}, {y}",
                        x = inout(reg) x,
                        y = in(reg) y,
                        options(nomem, nostack),
                    );
                }
                black_box(x);
                best = best.min(_rdtsc() - t0);
            }
        }
        best as f64 / ADDS as f64
    }

    // Inputs with |a| < q (what ntt and invntt_tomont accept).
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut polys = [Poly::default(); BATCH];
    for p in polys.iter_mut() {
        for c in p.coeffs.iter_mut() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            *c = (s % (2 * Q as u64 - 1)) as i32 - (Q - 1);
        }
    }
    let other = polys[3];
    // k = 8, l = 7 (ML-DSA-87) for the matrix product, std matrix entries.
    let mat: Vec<Poly> = (0..56)
        .map(|i| Poly {
            coeffs: polys[i % BATCH].coeffs.map(|c| c.rem_euclid(Q)),
        })
        .collect();
    let vecl = &polys[..7];

    let backends = [Backend::Portable, Backend::Avx2, Backend::Avx512];
    let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
    let avail: Vec<Backend> = backends
        .iter()
        .copied()
        .filter(|b| b.is_available())
        .collect();
    let ks: Vec<&'static Kernels> = avail.iter().map(|&b| kernels(b)).collect();
    let nb = ks.len();
    let mut out = vec![[Poly::default(); 8]; nb];
    let rows: [(&str, Vec<u64>); 4] = [
        (
            "ntt",
            medians(&polys, nb, |b, p| (ks[b].ntt)(core::slice::from_mut(p))),
        ),
        (
            "invntt_tomont",
            medians(&polys, nb, |b, p| {
                (ks[b].invntt_tomont)(core::slice::from_mut(p))
            }),
        ),
        (
            "pointwise_montgomery (1 poly)",
            medians(&polys, nb, |b, p| {
                (ks[b].pointwise_montgomery)(core::slice::from_mut(p), &other, &vecl[..1])
            }),
        ),
        (
            "matvec_montgomery (8x7)",
            medians(&polys, nb, |b, p| {
                (ks[b].matvec_montgomery)(&mut out[b], &mat, vecl);
                p.coeffs[0] = black_box(out[b][7].coeffs[255]);
            }),
        ),
    ];

    // Column of each backend (None: unavailable here).
    let col = |name: &str| avail.iter().position(|b| b.name() == name);
    let cell =
        |r: &[u64], name: &str| col(name).map_or("skipped".to_string(), |i| r[i].to_string());
    let ratio = |r: &[u64], num: &str, den: &str| match (col(num), col(den)) {
        (Some(n), Some(d)) => format!("{:.2}x", r[n] as f64 / r[d] as f64),
        _ => "-".to_string(),
    };
    println!(
        "{:<32} {:>10} {:>10} {:>10} {:>13} {:>13}",
        "kernel (ticks, median)", names[0], names[1], names[2], "avx2/avx512", "port/avx512"
    );
    for (name, r) in rows.iter() {
        println!(
            "{:<32} {:>10} {:>10} {:>10} {:>13} {:>13}",
            name,
            cell(r, "portable"),
            cell(r, "avx2"),
            cell(r, "avx512"),
            ratio(r, "avx2", "avx512"),
            ratio(r, "portable", "avx512"),
        );
    }
    let cold: Vec<u64> = ks
        .iter()
        .map(|k| cold_ticks(&polys[0], |p| (k.ntt)(core::slice::from_mut(p))))
        .collect();
    println!(
        "{:<32} {:>10} {:>10} {:>10} {:>13} {:>13}",
        "ntt, one call after 1 ms idle",
        cell(&cold, "portable"),
        cell(&cold, "avx2"),
        cell(&cold, "avx512"),
        ratio(&cold, "avx2", "avx512"),
        ratio(&cold, "portable", "avx512"),
    );
    let tpc = ticks_per_cycle();
    println!(
        "TSC ticks per core cycle ≈ {tpc:.3} (core clock ≈ {:.2}× the TSC rate)",
        1.0 / tpc
    );
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("ntt_ticks: x86-64 only");
}
