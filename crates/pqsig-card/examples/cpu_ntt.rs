//! The CPU side of the offload crossover: ns per polynomial of the ML-DSA NTT and
//! inverse NTT on this machine's CPU backends (one core), per batch size, as JSON lines
//! `{"backend","op","batch","ns_per_poly"}` (median of repeated calls on fresh copies of
//! the same in-bound input). docs/OFFLOAD.md sets these beside the card's rows.
//!
//! `cargo run -p pqsig-card --example cpu_ntt [-- MAX_BATCH]` (default 4096).

use pqsig::batch::MlDsaPoly;
use pqsig::kernels::mldsa::base_kernels;
use pqsig::Backend;
use std::time::Instant;

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4096);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let input: Vec<MlDsaPoly> = (0..max)
        .map(|_| {
            let mut p = MlDsaPoly::default();
            for c in p.coeffs.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *c = (x % 8_380_417) as i32;
            }
            p
        })
        .collect();
    for b in Backend::available() {
        let k = base_kernels(b);
        for (op, f) in [("ntt", k.ntt), ("intt", k.invntt_tomont)] {
            let mut n = 1;
            while n <= max {
                let reps = (40_000 / n).clamp(15, 2001);
                let mut buf = input[..n].to_vec();
                let mut t: Vec<u64> = (0..reps)
                    .map(|_| {
                        buf.copy_from_slice(&input[..n]);
                        let s = Instant::now();
                        f(std::hint::black_box(&mut buf));
                        s.elapsed().as_nanos() as u64
                    })
                    .collect();
                t.sort_unstable();
                println!(
                    "{{\"backend\":\"{b}\",\"op\":\"{op}\",\"batch\":{n},\"ns_per_poly\":{:.1}}}",
                    t[t.len() / 2] as f64 / n as f64
                );
                n *= 4;
            }
        }
    }
}
