//! Cycle counts (rdtsc, median) of each backend's one-state permutation (and of each
//! candidate `f1600_choice` measures for it, with the one it chose), of the four-way Keccak-f[1600] kernels against four calls
//! of the portable one-state permutation, and of the eight-way kernels (per eight states,
//! with the ticks per four states for comparison).
//!
//! Run: `cargo run -p pqsig --release --example keccak_ticks` (x86-64 only; the AVX2 and
//! AVX-512 lines are skipped when the CPU lacks those). rdtsc counts reference cycles, not
//! core cycles.

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use pqsig::kernels::keccak::f1600::{keccak_f1600, permute1_for};
    use pqsig::kernels::keccak::f1600_choice;
    use pqsig::kernels::keccak::x4::{permute4_for, StateX4};
    use pqsig::kernels::keccak::x8::{permute8_for, StateX8};
    use pqsig::Backend;
    use std::hint::black_box;

    const INNER: u64 = 16;
    const SAMPLES: usize = 2001;

    fn median_ticks(mut f: impl FnMut()) -> u64 {
        for _ in 0..200 {
            f();
        }
        let mut t: Vec<u64> = (0..SAMPLES)
            .map(|_| {
                // SAFETY: rdtsc is available on every x86-64 CPU.
                let t0 = unsafe { _rdtsc() };
                for _ in 0..INNER {
                    f();
                }
                // SAFETY: as above.
                let t1 = unsafe { _rdtsc() };
                (t1 - t0) / INNER
            })
            .collect();
        t.sort_unstable();
        t[SAMPLES / 2]
    }

    let mut st = StateX4::default();
    for (i, lane) in st.s.iter_mut().enumerate() {
        for (j, w) in lane.iter_mut().enumerate() {
            *w = (i as u64 * 0x9E37_79B9_7F4A_7C15) ^ (j as u64) << 32;
        }
    }
    let mut one = [[0u64; 25]; 4];
    let scalar = median_ticks(|| {
        for s in one.iter_mut() {
            keccak_f1600(black_box(s));
        }
    });
    println!("4 x keccak_f1600 (portable):  {scalar:>6} ticks");
    let mut s1 = one[0];
    for b in Backend::available() {
        let p = permute1_for(b);
        let t = median_ticks(|| p(black_box(&mut s1)));
        println!(
            "permute1 {:<9}            {t:>6} ticks (runs {})",
            b.name(),
            f1600_choice::chosen(b).name()
        );
        for &imp in f1600_choice::candidates(b) {
            let t = median_ticks(|| f1600_choice::run(imp, black_box(&mut s1)));
            println!("  candidate {:<13}      {t:>6} ticks", imp.name());
        }
    }
    let p = permute4_for(Backend::Portable);
    let portable = median_ticks(|| p(black_box(&mut st)));
    println!("permute4 portable:            {portable:>6} ticks");
    if Backend::Avx2.is_available() {
        let p = permute4_for(Backend::Avx2);
        let avx2 = median_ticks(|| p(black_box(&mut st)));
        println!(
            "permute4 avx2:                {avx2:>6} ticks ({:.2}x vs 4 x keccak_f1600)",
            scalar as f64 / avx2 as f64
        );
    } else {
        println!("permute4 avx2: skipped (no AVX2 on this CPU)");
    }
    if Backend::Avx512.is_available() {
        let p = permute4_for(Backend::Avx512);
        let avx512 = median_ticks(|| p(black_box(&mut st)));
        println!(
            "permute4 avx512:              {avx512:>6} ticks ({:.2}x vs 4 x keccak_f1600)",
            scalar as f64 / avx512 as f64
        );
    } else {
        println!("permute4 avx512: skipped (no AVX-512 F/VL/BW/DQ on this CPU)");
    }

    let mut st8 = StateX8::default();
    for (i, lane) in st8.s.iter_mut().enumerate() {
        for (j, w) in lane.iter_mut().enumerate() {
            *w = (i as u64 * 0x9E37_79B9_7F4A_7C15) ^ (j as u64) << 32;
        }
    }
    for b in Backend::available() {
        let p = permute8_for(b);
        let t = median_ticks(|| p(black_box(&mut st8)));
        println!(
            "permute8 {:<9}            {t:>6} ticks ({:>4} per 4 states, {:.2}x vs 8 x keccak_f1600)",
            b.name(),
            t / 2,
            2.0 * scalar as f64 / t as f64
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("keccak_ticks: x86-64 only");
}
