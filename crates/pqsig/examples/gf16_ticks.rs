//! TSC ticks (rdtsc, medians) of the GF(16) kernels for SNOVA's shapes, per backend
//! implementation (portable SWAR, AVX2 shuffle/GFNI, AVX-512 shuffle/GFNI/GFNI+VBMI, as
//! far as the CPU has them), with the speed-up over portable.
//!
//! Run: `cargo run -p pqsig --release --example gf16_ticks [-- --quick]` (x86-64).
//!
//! Shapes, for each Round 3 parameter set (v, o, l, r), n = v + o:
//! * `gemm_acc` m = kk = n·l, columns l·r and o·l, A row-major; the public-map
//!   evaluation Wᵀ·P (l·r × n·l × m1·n·l, A column-major) and signing's W_vᵀ·F21
//!   (l·r × v·l × o·l, A column-major);
//! * `solve` of the o·l·r system;
//! * `mat_mul_batch` of 64 products l×l·l×l, r×r·r×l and l×l·l×r (where r ≠ l);
//! * `axpy_acc` and `reduce` over 4096 bytes (per call).
//!
//! The implementations take turns sample by sample, so clock changes affect all columns
//! alike. rdtsc counts reference ticks, not core cycles.

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use pqsig::kernels::gf16::{implementation_name, implementations, Kernels};
    use pqsig::Backend;
    use std::hint::black_box;

    let quick = std::env::args().any(|a| a == "--quick");
    let samples = if quick { 15 } else { 61 };

    let ks: Vec<&'static Kernels> = Backend::ALL
        .iter()
        .flat_map(|&b| implementations(b))
        .collect();
    let names: Vec<String> = ks
        .iter()
        .map(|k| format!("{}/{}", k.backend, implementation_name(k)))
        .collect();

    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut nibs = |len: usize| -> Vec<u8> {
        (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed >> 20) as u8 & 15
            })
            .collect()
    };

    /// Median ticks of `f(k)` for each implementation, interleaved.
    fn medians(ks: &[&'static Kernels], samples: usize, mut f: impl FnMut(&Kernels)) -> Vec<u64> {
        let mut t = vec![Vec::with_capacity(samples); ks.len()];
        for s in 0..samples + 3 {
            for (i, k) in ks.iter().enumerate() {
                // SAFETY: rdtsc exists on every x86-64 CPU.
                let t0 = unsafe { _rdtsc() };
                f(k);
                // SAFETY: as above.
                let t1 = unsafe { _rdtsc() };
                if s >= 3 {
                    t[i].push(t1 - t0);
                }
            }
        }
        t.into_iter()
            .map(|mut v| {
                v.sort_unstable();
                v[v.len() / 2]
            })
            .collect()
    }

    let print = |label: &str, t: &[u64]| {
        let mut line = format!("{label:<40}");
        for (i, v) in t.iter().enumerate() {
            let sp = t[0] as f64 / *v as f64;
            if i == 0 {
                line += &format!(" {v:>9}");
            } else {
                line += &format!(" {v:>9} ({sp:>5.1}x)");
            }
        }
        println!("{line}");
    };

    let mut header = format!("{:<40}", "kernel / shape (ticks, median)");
    for (i, n) in names.iter().enumerate() {
        if i == 0 {
            header += &format!(" {n:>9}");
        } else {
            header += &format!(" {n:>18}");
        }
    }
    println!("{header}");

    // (name, v, o, l, r, m1)
    let sets = [
        ("I_K", 29, 3, 4, 8, 5),
        ("I_B", 27, 4, 4, 6, 5),
        ("I_S", 27, 5, 4, 4, 5),
        ("III_K", 38, 4, 4, 8, 7),
        ("III_B", 38, 5, 4, 6, 7),
        ("III_S", 38, 6, 4, 5, 7),
        ("V_K", 40, 4, 5, 8, 6),
        ("V_B", 40, 5, 5, 6, 6),
        ("V_S", 40, 6, 5, 5, 6),
    ];
    for &(name, v, o, l, r, m1) in &sets {
        let n = v + o;
        let nl = n * l;
        for cols in [l * r, o * l] {
            let a = nibs(nl * nl);
            let b = nibs(nl * cols);
            let mut c = vec![0u8; nl * cols];
            let t = medians(&ks, samples, |k| {
                (k.gemm_acc)(black_box(&mut c), cols, &a, nl, 1, &b, cols, nl, nl, cols);
                c.fill(0);
            });
            print(&format!("{name} gemm {nl}x{nl}x{cols} A rows"), &t);
        }
        // The public-map evaluation Uᵀ = Wᵀ·P (verification: dim = n·l), A = W
        // column-major, B = P with the m1 matrices interleaved (width m1·dim).
        {
            let (lr, dim, wide) = (l * r, nl, m1 * nl);
            let a = nibs(dim * lr);
            let b = nibs(dim * wide);
            let mut c = vec![0u8; lr * wide];
            let t = medians(&ks, samples, |k| {
                (k.gemm_acc)(black_box(&mut c), wide, &a, 1, lr, &b, wide, lr, dim, wide);
                c.fill(0);
            });
            print(&format!("{name} eval W'P {lr}x{dim}x{wide} A cols"), &t);
        }
        // Signing's linear part W_vᵀ·F21[mi] (per mi): (l·r) × v·l × o·l, A column-major.
        {
            let (lr, vl, ol) = (l * r, v * l, o * l);
            let a = nibs(vl * lr);
            let b = nibs(vl * ol);
            let mut c = vec![0u8; lr * ol];
            let t = medians(&ks, samples, |k| {
                (k.gemm_acc)(black_box(&mut c), ol, &a, 1, lr, &b, ol, lr, vl, ol);
                c.fill(0);
            });
            print(&format!("{name} sign W'F {lr}x{vl}x{ol} A cols"), &t);
        }
        let ns = o * l * r;
        let stride = ns + 1;
        // A random system (almost surely non-singular; the time does not depend on it).
        let sys = nibs(ns * stride);
        let mut work = sys.clone();
        let mut x = vec![0u8; ns];
        let t = medians(&ks, samples, |k| {
            work.copy_from_slice(&sys);
            black_box((k.solve)(black_box(&mut work), ns, stride, &mut x));
        });
        print(&format!("{name} solve n={ns}"), &t);
    }
    for l in [4usize, 5] {
        let mut shapes = vec![(l, l, l)];
        for r in [4usize, 5, 6, 8] {
            if r != l {
                shapes.push((r, r, l));
                shapes.push((l, l, r));
            }
        }
        // Signing's batches for o = 5: l×r·r×ol, (l·o)×l·l×l, r×r·r×ol (r = 4).
        shapes.push((l, 4, 5 * l));
        shapes.push((l * 5, l, l));
        shapes.push((4, 4, 5 * l));
        for (p, kd, q) in shapes {
            let count = 64;
            let a = nibs(count * p * kd);
            let b = nibs(count * kd * q);
            let mut out = vec![0u8; count * p * q];
            let t = medians(&ks, samples, |k| {
                (k.mat_mul_batch)(black_box(&mut out), &a, &b, p, kd, q);
            });
            print(&format!("mat_mul_batch 64 x {p}x{kd}.{kd}x{q}"), &t);
        }
    }
    let x = nibs(4096);
    let mut acc = vec![0u8; 4096];
    let t = medians(&ks, samples, |k| {
        (k.axpy_acc)(black_box(&mut acc), 7, &x);
    });
    print("axpy_acc 4096", &t);
    let t = medians(&ks, samples, |k| {
        acc.iter_mut().for_each(|v| *v &= 0x7F);
        (k.reduce)(black_box(&mut acc));
    });
    print("reduce 4096 (incl. 4096-byte mask)", &t);
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("gf16_ticks: x86-64 only (rdtsc)");
}
