//! TSC ticks (rdtsc, median of many samples) of one ML-DSA NTT-256, inverse NTT and the
//! NTT-domain products, for the portable, AVX2 and AVX-512 kernel tables.
//!
//! Run: `cargo run -p pqsig --release --example ntt_ticks` (x86-64 only; the AVX2 and
//! AVX-512 columns are skipped when the CPU lacks the features). rdtsc counts reference (TSC) ticks, not core
//! cycles: on a CPU boosting above its TSC frequency a tick is more than one cycle.
//!
//! Each sample copies 16 fresh in-bound polynomials into an L1-resident buffer (untimed),
//! then times 16 single-polynomial calls through the kernel table and divides by 16. The
//! matrix product line is per call (8×7 polynomials, ML-DSA-87's shape).

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use pqsig::kernels::mldsa::{kernels, Kernels, Poly, Q};
    use pqsig::Backend;
    use std::hint::black_box;

    const BATCH: usize = 16;
    const SAMPLES: usize = 5001;

    /// Median ticks per polynomial of `f` applied to each of `BATCH` copies of `input`.
    fn median_ticks(input: &[Poly; BATCH], mut f: impl FnMut(&mut Poly)) -> u64 {
        let mut buf = *input;
        let mut t: Vec<u64> = (0..SAMPLES + 200)
            .map(|_| {
                buf.copy_from_slice(input);
                // SAFETY: rdtsc is available on every x86-64 CPU.
                let t0 = unsafe { _rdtsc() };
                for p in buf.iter_mut() {
                    f(black_box(p));
                }
                // SAFETY: as above.
                let t1 = unsafe { _rdtsc() };
                (t1 - t0) / BATCH as u64
            })
            .skip(200) // warm-up
            .collect();
        t.sort_unstable();
        t[SAMPLES / 2]
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

    let rows = |k: &'static Kernels| -> [u64; 4] {
        let mut out = [Poly::default(); 8];
        [
            median_ticks(&polys, |p| (k.ntt)(core::slice::from_mut(p))),
            median_ticks(&polys, |p| (k.invntt_tomont)(core::slice::from_mut(p))),
            median_ticks(&polys, |p| {
                (k.pointwise_montgomery)(core::slice::from_mut(p), &other, &vecl[..1])
            }),
            median_ticks(&polys, |p| {
                (k.matvec_montgomery)(&mut out, &mat, vecl);
                p.coeffs[0] = black_box(out[7].coeffs[255]);
            }),
        ]
    };

    let names = [
        "ntt",
        "invntt_tomont",
        "pointwise_montgomery (1 poly)",
        "matvec_montgomery (8x7)",
    ];
    let portable = rows(kernels(Backend::Portable));
    let avx2 = Backend::Avx2
        .is_available()
        .then(|| rows(kernels(Backend::Avx2)));
    let avx512 = Backend::Avx512
        .is_available()
        .then(|| rows(kernels(Backend::Avx512)));
    let cell =
        |r: Option<[u64; 4]>, i: usize| r.map_or("skipped".to_string(), |r| r[i].to_string());
    let ratio = |num: Option<[u64; 4]>, den: Option<[u64; 4]>, i: usize| match (num, den) {
        (Some(n), Some(d)) => format!("{:.2}x", n[i] as f64 / d[i] as f64),
        _ => "-".to_string(),
    };
    println!(
        "{:<32} {:>10} {:>10} {:>10} {:>13} {:>13}",
        "kernel (ticks, median)", "portable", "avx2", "avx512", "avx2/avx512", "port/avx512"
    );
    for i in 0..4 {
        println!(
            "{:<32} {:>10} {:>10} {:>10} {:>13} {:>13}",
            names[i],
            portable[i],
            cell(avx2, i),
            cell(avx512, i),
            ratio(avx2, avx512, i),
            ratio(Some(portable), avx512, i),
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("ntt_ticks: x86-64 only");
}
