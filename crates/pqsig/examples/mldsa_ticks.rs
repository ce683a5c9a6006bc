//! Cycle counts (rdtsc, median) of ML-DSA keygen, sign and verify on every available
//! backend, for the three parameter sets.
//!
//! Run: `cargo run -p pqsig --release --example mldsa_ticks` (x86-64 only). Backends take
//! turns in rounds, so slow drift of the machine (frequency, neighbours) spreads over all
//! columns instead of biasing one. rdtsc counts reference cycles, not core cycles.
//!
//! * `keygen (bytes)`: `keygen_internal_bytes_on` — KeyGen_internal to the encodings.
//! * `keygen (keys)`: `keygen_internal_on` — KeyGen_internal to key objects (with caches).
//! * `sign`: `sign_internal` over 64 fixed messages (deterministic, rnd = 0), so every
//!   backend and every build does the same rejection-loop iterations.
//! * `verify`: `verify_internal` of those signatures.

#[cfg(target_arch = "x86_64")]
fn main() {
    use core::arch::x86_64::_rdtsc;
    use pqsig::mldsa::{keygen_internal_bytes_on, keygen_internal_on, ParamSet};
    use pqsig::Backend;
    use std::hint::black_box;

    const ROUNDS: usize = 15;
    const PER_ROUND: usize = 64;

    fn ticks(f: impl FnOnce()) -> u64 {
        // SAFETY: rdtsc is available on every x86-64 CPU.
        let t0 = unsafe { _rdtsc() };
        f();
        // SAFETY: as above.
        let t1 = unsafe { _rdtsc() };
        t1 - t0
    }

    fn median(mut v: Vec<u64>) -> u64 {
        v.sort_unstable();
        v[v.len() / 2]
    }

    let backends: Vec<Backend> = Backend::available().collect();
    print!("{:<10} {:<15}", "", "");
    for b in &backends {
        print!(" {:>10}", b.name());
    }
    println!();
    for ps in ParamSet::ALL {
        let msgs: Vec<Vec<u8>> = (0..PER_ROUND).map(|i| vec![i as u8; 33]).collect();
        let seeds: Vec<[u8; 32]> = (0..PER_ROUND).map(|i| [i as u8 ^ 0x5A; 32]).collect();
        let keys: Vec<_> = backends
            .iter()
            .map(|&b| keygen_internal_on(ps, &[7; 32], b).expect("available backend"))
            .collect();
        let sigs: Vec<Vec<u8>> = msgs
            .iter()
            .map(|m| keys[0].0.sign_internal(m, &[0; 32]))
            .collect();

        let ops = ["keygen (bytes)", "keygen (keys)", "sign", "verify"];
        let mut samples = vec![vec![Vec::new(); backends.len()]; ops.len()];
        for _ in 0..ROUNDS {
            for (bi, &b) in backends.iter().enumerate() {
                let (sk, vk) = &keys[bi];
                for i in 0..PER_ROUND {
                    let t = ticks(|| {
                        black_box(keygen_internal_bytes_on(ps, black_box(&seeds[i]), b).ok());
                    });
                    samples[0][bi].push(t);
                    let t = ticks(|| {
                        black_box(keygen_internal_on(ps, black_box(&seeds[i]), b).ok());
                    });
                    samples[1][bi].push(t);
                    let t = ticks(|| {
                        black_box(sk.sign_internal(black_box(&msgs[i]), &[0; 32]));
                    });
                    samples[2][bi].push(t);
                    let t = ticks(|| {
                        black_box(vk.verify_internal(black_box(&msgs[i]), &sigs[i]).is_ok());
                    });
                    samples[3][bi].push(t);
                }
            }
        }
        for (op, per_backend) in ops.iter().zip(samples) {
            print!("{:<10} {:<15}", ps.name(), op);
            for s in per_backend {
                print!(" {:>10}", median(s));
            }
            println!();
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    println!("mldsa_ticks: x86-64 only");
}
