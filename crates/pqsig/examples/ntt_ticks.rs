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
//!
//! The second table times every NTT variant (kernels/ntt: radix2, radix4, winograd8,
//! winograd16) through the kernel table each backend hands out for it, forward and
//! inverse, for ML-DSA (n = 256, per polynomial) and Falcon (n = 512 and 1024, per
//! polynomial); a `*` marks a cell where the backend has no SIMD kernel of the variant
//! and runs the portable variant kernel (radix2 is each backend's own kernel). With
//! `--json` the variant table is also printed as JSON lines (one object per cell).

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
                // SAFETY: rdtsc exists on every x86-64 CPU and touches no memory.
                while unsafe { _rdtsc() } - idle < 1 << 21 {
                    core::hint::spin_loop();
                }
                // SAFETY: rdtsc exists on every x86-64 CPU and touches no memory.
                let t0 = unsafe { _rdtsc() };
                f(black_box(&mut p));
                // SAFETY: rdtsc exists on every x86-64 CPU and touches no memory.
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
    println!();
    variants::run(&polys, &avail, std::env::args().any(|a| a == "--json"));
}

/// The per-variant table (both moduli).
#[cfg(target_arch = "x86_64")]
mod variants {
    use core::arch::x86_64::_rdtsc;
    use pqsig::kernels::mldsa::Poly;
    use pqsig::kernels::ntt::field::{Falcon, MlDsa};
    use pqsig::kernels::ntt::{falcon_kernels, mldsa_kernels, portable, transform, NttVariant};
    use pqsig::Backend;
    use std::hint::black_box;

    const ROUNDS: usize = 8;
    const PER_ROUND: usize = 101;
    const WARMUP: usize = 10;

    /// Median ticks per polynomial of `f(b, buf)` over copies of `input` (`polys`
    /// polynomials), backends taking turns in rounds as in `medians` above.
    fn medians_of<T: Copy>(
        input: &[T],
        polys: usize,
        nb: usize,
        mut f: impl FnMut(usize, &mut [T]),
    ) -> Vec<u64> {
        let mut buf = input.to_vec();
        let mut t = vec![Vec::with_capacity(ROUNDS * PER_ROUND); nb];
        for _ in 0..ROUNDS {
            for (b, tb) in t.iter_mut().enumerate() {
                for s in 0..WARMUP + PER_ROUND {
                    buf.copy_from_slice(input);
                    // SAFETY: rdtsc is available on every x86-64 CPU.
                    let t0 = unsafe { _rdtsc() };
                    f(b, black_box(&mut buf[..]));
                    // SAFETY: as above.
                    let t1 = unsafe { _rdtsc() };
                    if s >= WARMUP {
                        tb.push((t1 - t0) / polys as u64);
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

    pub fn run(polys: &[Poly; 16], avail: &[Backend], json: bool) {
        let cols = [Backend::Portable, Backend::Avx2, Backend::Avx512];
        let nb = avail.len();
        println!(
            "{:<34} {:>10} {:>10} {:>10}",
            "NTT variant (ticks/poly, median)", "portable", "avx2", "avx512"
        );
        let mut json_rows = Vec::new();
        let mut print = |name: &str,
                         modulus: &str,
                         n: usize,
                         v: NttVariant,
                         dir: &str,
                         r: &[u64],
                         portable_fn: &[bool]| {
            let cell = |c: Backend| {
                avail
                    .iter()
                    .position(|&b| b == c)
                    .map_or("skipped".to_string(), |i| {
                        format!(
                            "{}{}",
                            r[i],
                            if portable_fn[i] && c != Backend::Portable {
                                "*"
                            } else {
                                ""
                            }
                        )
                    })
            };
            println!(
                "{:<34} {:>10} {:>10} {:>10}",
                name,
                cell(cols[0]),
                cell(cols[1]),
                cell(cols[2])
            );
            for (i, b) in avail.iter().enumerate() {
                json_rows.push(format!(
                    "{{\"modulus\": \"{modulus}\", \"n\": {n}, \"variant\": \"{}\", \"direction\": \"{dir}\", \"backend\": \"{}\", \"portable_kernel\": {}, \"ticks\": {}}}",
                    v.name(),
                    b.name(),
                    portable_fn[i],
                    r[i]
                ));
            }
        };

        // ML-DSA, 4 polynomials per sample, |a| < q.
        let input: Vec<Poly> = polys[..4].to_vec();
        for &v in NttVariant::ALL {
            let ks: Vec<_> = avail.iter().map(|&b| mldsa_kernels(b, v)).collect();
            let (pf, pi) = portable::mldsa_fns(v);
            let is_port_f: Vec<bool> = ks
                .iter()
                .map(|k| v != NttVariant::Radix2 && k.ntt as usize == pf as usize)
                .collect();
            let is_port_i: Vec<bool> = ks
                .iter()
                .map(|k| v != NttVariant::Radix2 && k.invntt_tomont as usize == pi as usize)
                .collect();
            let r = medians_of(&input, 4, nb, |b, p| (ks[b].ntt)(p));
            print(
                &format!("mldsa ntt-256 {v}"),
                "mldsa",
                256,
                v,
                "forward",
                &r,
                &is_port_f,
            );
            let r = medians_of(&input, 4, nb, |b, p| (ks[b].invntt_tomont)(p));
            print(
                &format!("mldsa invntt-256 {v}"),
                "mldsa",
                256,
                v,
                "inverse",
                &r,
                &is_port_i,
            );
        }

        // The generic radix-2 body (kernels/ntt/units.rs) against the reference kernels:
        // same operations; any gap is the cost of the generic code itself.
        let (gf, gi) = portable::mldsa_fns(NttVariant::Radix2);
        let r = medians_of(&input, 4, 1, |_, p| gf(p));
        println!("{:<34} {:>10}", "mldsa ntt-256 radix2 (generic)", r[0]);
        let r = medians_of(&input, 4, 1, |_, p| gi(p));
        println!("{:<34} {:>10}", "mldsa invntt-256 radix2 (generic)", r[0]);

        // Falcon, 2 polynomials per sample, canonical inputs.
        for logn in [9u32, 10] {
            let n = 1usize << logn;
            let input: Vec<u16> = (0..2 * n)
                .map(|i| (polys[i / 256 % 16].coeffs[i % 256].rem_euclid(12289)) as u16)
                .collect();
            let (gf, gi) = portable::falcon_fns(NttVariant::Radix2);
            let r = medians_of(&input, 2, 1, |_, p| gf(p, logn));
            println!(
                "{:<34} {:>10}",
                format!("falcon ntt-{n} radix2 (generic)"),
                r[0]
            );
            let r = medians_of(&input, 2, 1, |_, p| gi(p, logn));
            println!(
                "{:<34} {:>10}",
                format!("falcon intt-{n} radix2 (generic)"),
                r[0]
            );
            for &v in NttVariant::ALL {
                let ks: Vec<_> = avail.iter().map(|&b| falcon_kernels(b, v)).collect();
                let (pf, pi) = portable::falcon_fns(v);
                let is_port_f: Vec<bool> = ks
                    .iter()
                    .map(|k| v != NttVariant::Radix2 && k.ntt as usize == pf as usize)
                    .collect();
                let is_port_i: Vec<bool> = ks
                    .iter()
                    .map(|k| v != NttVariant::Radix2 && k.intt as usize == pi as usize)
                    .collect();
                let r = medians_of(&input, 2, nb, |b, p| (ks[b].ntt)(p, logn));
                print(
                    &format!("falcon ntt-{n} {v}"),
                    "falcon",
                    n,
                    v,
                    "forward",
                    &r,
                    &is_port_f,
                );
                let r = medians_of(&input, 2, nb, |b, p| (ks[b].intt)(p, logn));
                print(
                    &format!("falcon intt-{n} {v}"),
                    "falcon",
                    n,
                    v,
                    "inverse",
                    &r,
                    &is_port_i,
                );
            }
        }
        println!(
            "* the backend has no SIMD kernel of this variant: the portable variant kernel ran"
        );

        // The butterfly unit alone (the paper's experiment, natively, portable): the
        // transform of N = 8 / 16 points — three / four radix-2 layers against one
        // Winograd radix-8 / radix-16 unit — through the same generic code, per call.
        println!();
        println!(
            "{:<34} {:>10} {:>10}",
            "unit alone (ticks/call, portable)", "mldsa", "falcon"
        );
        for (logn, w) in [(3u32, NttVariant::Winograd8), (4, NttVariant::Winograd16)] {
            let n = 1usize << logn;
            for v in [NttVariant::Radix2, w] {
                for (dir, inv) in [("forward", false), ("inverse", true)] {
                    // 64 independent transforms per sample (one call is only tens of
                    // ticks, close to rdtsc's own overhead).
                    let mi: Vec<i32> = (0..64 * n)
                        .map(|i| polys[i / 256 % 16].coeffs[i % 256])
                        .collect();
                    let fi: Vec<u16> = mi.iter().map(|&c| c.rem_euclid(12289) as u16).collect();
                    let rm = medians_of(&mi, 64, 1, |_, p| {
                        for c in p.chunks_exact_mut(n) {
                            if inv {
                                transform::inverse::<MlDsa>(c, logn, v)
                            } else {
                                transform::forward::<MlDsa>(c, logn, v)
                            }
                        }
                    });
                    let rf = medians_of(&fi, 64, 1, |_, p| {
                        for c in p.chunks_exact_mut(n) {
                            if inv {
                                transform::inverse::<Falcon>(c, logn, v)
                            } else {
                                transform::forward::<Falcon>(c, logn, v)
                            }
                        }
                    });
                    let name = format!("N={n} {v} {dir}");
                    println!("{:<34} {:>10} {:>10}", name, rm[0], rf[0]);
                    json_rows.push(format!(
                        "{{\"unit_alone\": true, \"n\": {n}, \"variant\": \"{}\", \"direction\": \"{dir}\", \"backend\": \"portable\", \"mldsa_ticks\": {}, \"falcon_ticks\": {}}}",
                        v.name(),
                        rm[0],
                        rf[0]
                    ));
                }
            }
        }
        if json {
            for r in json_rows {
                println!("{r}");
            }
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("ntt_ticks: x86-64 only");
}
