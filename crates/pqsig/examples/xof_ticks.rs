//! Cycle counts (rdtsc, median) of SNOVA's public-seed expansion per backend: the
//! SHAKE128 counter stream and the AES-128-CTR keystream, for the public-stream sizes
//! m1·(v² + 2vo)·l²/2 of the smallest (SNOVA_I_S: 39 960 bytes) and largest (SNOVA_V_S:
//! 156 000 bytes) sets, and for AES each engine on its own.
//!
//! Also the two portable SHAKE strategies side by side (one state at a time, which
//! `shake128_ctr` uses, against the portable four- and eight-way sponges), the measurement
//! behind that choice.
//!
//! Run: `cargo run -p pqsig --release --example xof_ticks` (x86-64 only; rdtsc counts
//! reference cycles, not core cycles).

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use pqsig::kernels::aes::{Aes128, Engine};
    use pqsig::kernels::keccak::x4::permute4_portable;
    use pqsig::kernels::keccak::x8::permute8_portable;
    use pqsig::kernels::keccak::xn::{PermuteN, ShakeXN};
    use pqsig::kernels::xof::{aes128_ctr, aes_engine, shake128_ctr};
    use pqsig::Backend;
    use std::hint::black_box;

    const SAMPLES: usize = 301;

    fn median_ticks(mut f: impl FnMut()) -> u64 {
        for _ in 0..20 {
            f();
        }
        let mut t: Vec<u64> = (0..SAMPLES)
            .map(|_| {
                // SAFETY: rdtsc is available on every x86-64 CPU.
                let t0 = unsafe { _rdtsc() };
                f();
                // SAFETY: as above.
                let t1 = unsafe { _rdtsc() };
                t1 - t0
            })
            .collect();
        t.sort_unstable();
        t[SAMPLES / 2]
    }

    /// The SHAKE128 counter stream with a portable W-way sponge on every batch (the
    /// strategy `shake128_ctr` does not use for portable; here only to compare).
    fn shake_multi_portable<const W: usize>(p: PermuteN<W>, seed: &[u8], out: &mut [u8]) {
        let n = seed.len() + 8;
        let mut inputs = vec![0u8; W * n];
        let mut first = 0u64;
        for group in out.chunks_mut(W * 168) {
            for (j, lane) in inputs.chunks_exact_mut(n).enumerate() {
                lane[..seed.len()].copy_from_slice(seed);
                lane[seed.len()..].copy_from_slice(&(first + j as u64).to_le_bytes());
            }
            let ins: [&[u8]; W] = core::array::from_fn(|j| &inputs[j * n..(j + 1) * n]);
            let mut tmp = [[0u8; 168]; W];
            ShakeXN::<W, 168>::absorb_once(p, ins)
                .squeeze_blocks(tmp.each_mut().map(|t| &mut t[..]), 1);
            for (dst, src) in group.chunks_mut(168).zip(tmp.iter()) {
                dst.copy_from_slice(&src[..dst.len()]);
            }
            first += W as u64;
        }
    }

    let seed = [0x42u8; 16];
    let sets = [
        ("SNOVA_I_S", 5usize, 27usize, 5usize, 4usize),
        ("SNOVA_V_S", 6, 40, 6, 5),
    ];
    for (name, m1, v, o, l) in sets {
        let len = m1 * (v * v + 2 * v * o) * l * l / 2;
        let mut out = vec![0u8; len];
        println!("{name}: {len} bytes of public stream");
        let mut base_shake = 0;
        let mut base_aes = 0;
        for b in Backend::available() {
            let s = median_ticks(|| shake128_ctr(b, black_box(&seed), black_box(&mut out)));
            let a = median_ticks(|| aes128_ctr(b, black_box(&seed), black_box(&mut out)));
            if b == Backend::Portable {
                base_shake = s;
                base_aes = a;
            }
            println!(
                "  {:<9} shake128_ctr {:>9} ticks ({:>5.2}/B, {:>5.1}x)   aes128_ctr [{:<9}] {:>9} ticks ({:>5.2}/B, {:>6.1}x)",
                b.name(),
                s,
                s as f64 / len as f64,
                base_shake as f64 / s as f64,
                aes_engine(b).name(),
                a,
                a as f64 / len as f64,
                base_aes as f64 / a as f64,
            );
        }
        for e in Engine::available() {
            let aes = Aes128::with_engine(e, &seed).expect("available");
            let t = median_ticks(|| aes.ctr(0, black_box(&mut out)));
            let k = median_ticks(|| {
                black_box(Aes128::with_engine(e, black_box(&seed)));
            });
            println!(
                "  AES engine {:<9} ctr {:>9} ticks ({:>5.2}/B); key schedule {:>6} ticks",
                e.name(),
                t,
                t as f64 / len as f64,
                k
            );
        }
        let x4 = median_ticks(|| {
            shake_multi_portable::<4>(permute4_portable, black_box(&seed), black_box(&mut out))
        });
        let x8 = median_ticks(|| {
            shake_multi_portable::<8>(permute8_portable, black_box(&seed), black_box(&mut out))
        });
        println!(
            "  portable SHAKE strategies: one state at a time {base_shake} ticks, \
             portable x4 {x4}, portable x8 {x8}"
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("xof_ticks: x86-64 only (rdtsc)");
}
