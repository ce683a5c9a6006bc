//! Falcon signing time, dynamic vs expanded key, per backend and degree, interleaved in
//! one process, with fn-dsa 0.4.0 signing (its dynamic mode) in the same rounds.
//!
//! Run: `cargo run -p pqsig --release --example falcon_sign_ticks [rounds] [512|1024]`.
//! Each round signs the same 32 messages with every (backend, mode) and with fn-dsa, one
//! block after the other, timing each block with this thread's CPU clock (time while
//! another process holds the core is not counted: the machine is shared); a sample is a
//! block's mean per signature. Printed: medians and minimums of the rounds, and the
//! expanded/dynamic ratios. Then the SamplerZ kernel alone (pairs of requests as the
//! signer makes them, independent and with each pair's centres depending on the
//! previous outputs) and the ChaCha20 refill, per window of 512 bytes.
//!
//! Profiling modes: `falcon_sign_ticks <count> <512|1024> <exp|dyn> <backend>` signs
//! `count` times in one mode; `falcon_sign_ticks <count> 0 k <backend>` runs the kernel's
//! dependent loop `count` times.

use pqsig::falcon::{keygen_from_seed, ParamSet, SigningKey};
use pqsig::kernels::falcon::fpr::{self, Fpr};
use pqsig::kernels::falcon::samplerz::{kernels, Request, WINDOW};
use pqsig::kernels::internals::falcon::sign::prng::{Prng, SEED_LEN};
use pqsig::Backend;
use std::hint::black_box;
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
impl fn_dsa::RngCore for Rng {
    fn next_u32(&mut self) -> u32 {
        self.next() as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.next()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for b in dest {
            *b = self.next() as u8;
        }
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), fn_dsa::RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}
impl fn_dsa::CryptoRng for Rng {}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}
extern "C" {
    fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
}

/// This thread's CPU time in ns (Linux `CLOCK_THREAD_CPUTIME_ID`).
fn cpu_ns() -> u64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: valid pointer; clock 3 = CLOCK_THREAD_CPUTIME_ID.
    unsafe { clock_gettime(3, &mut t) };
    t.sec as u64 * 1_000_000_000 + t.nsec as u64
}

fn time(f: impl FnOnce()) -> u64 {
    let t = cpu_ns();
    f();
    cpu_ns() - t
}

/// Pairs of requests as ffSampling makes them at n = 512 (σ in [1.3, 1.8], centres
/// within ±200).
fn requests(rng: &mut Rng, pairs: usize) -> Vec<[Request; 2]> {
    (0..pairs)
        .map(|_| {
            let sigma = 1.3 + (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * 0.5;
            let isigma = Fpr::from_bits((1.0 / sigma).to_bits());
            let mut mu = || {
                let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
                Fpr::from_bits(((u - 0.5) * 400.0).to_bits())
            };
            [Request { mu: mu(), isigma }, Request { mu: mu(), isigma }]
        })
        .collect()
}

/// The kernel on the pairs, each pair's centres shifted by a function of the previous
/// outputs (so the calls form a dependency chain, as in ffSampling).
fn dependent(
    k: &'static pqsig::kernels::falcon::samplerz::SamplerKernels,
    p: &mut Prng,
    reqs: &[[Request; 2]],
) -> Fpr {
    let mut prev = fpr::ZERO;
    for r in reqs {
        let e = prev.mul(Fpr::from_bits(1e-9f64.to_bits()));
        let (a, b) = (k.sample_pair)(
            &mut p.stream(),
            fpr::SIGMA_MIN[9],
            r[0].mu.add(e),
            r[1].mu.add(e),
            r[0].isigma,
        );
        prev = a.add(b);
    }
    prev
}

fn main() {
    use fn_dsa::{KeyPairGenerator, SigningKey as _};
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(21);
    let only: Option<u32> = args.get(2).and_then(|s| s.parse().ok());
    const PER_ROUND: usize = 32;
    let backends: Vec<Backend> = Backend::available().collect();
    let pick = |i: usize| {
        args.get(i)
            .and_then(|s| Backend::from_name(s))
            .unwrap_or(Backend::detect())
    };

    if only == Some(0) {
        let k = kernels(pick(4));
        let reqs = requests(&mut Rng(0x1234_5678), 1024);
        let mut p = Prng::from_seed(&[0x77; SEED_LEN], k);
        for _ in 0..rounds {
            black_box(dependent(k, &mut p, &reqs));
        }
        return;
    }
    if let Some(mode) = args.get(3) {
        let ps = if only == Some(1024) {
            ParamSet::Falcon1024
        } else {
            ParamSet::Falcon512
        };
        let (sk0, _) = keygen_from_seed(ps, &[0x42; 48]).unwrap();
        let k = SigningKey::from_bytes(ps, sk0.to_bytes())
            .unwrap()
            .with_backend(pick(4))
            .unwrap();
        let e = k.expand();
        let t = Instant::now();
        for i in 0..rounds {
            let m = [i as u8; 33];
            let nonce = [(i >> 8) as u8; 40];
            let seed = [i as u8; 48];
            if mode == "exp" {
                black_box(e.sign_with_nonce_and_seed(&m, &nonce, &seed)).unwrap();
            } else {
                black_box(k.sign_with_nonce_and_seed(&m, &nonce, &seed)).unwrap();
            }
        }
        println!("{} ns/sig", t.elapsed().as_nanos() / rounds as u128);
        return;
    }

    for ps in [ParamSet::Falcon512, ParamSet::Falcon1024] {
        let logn = ps.logn();
        if only.is_some_and(|d| d != 1 << logn) {
            continue;
        }
        let (sk0, _) = keygen_from_seed(ps, &[0x42; 48]).unwrap();
        let sk_bytes = sk0.to_bytes().to_vec();
        let keys: Vec<(SigningKey, _)> = backends
            .iter()
            .map(|&b| {
                let k = SigningKey::from_bytes(ps, &sk_bytes)
                    .unwrap()
                    .with_backend(b)
                    .unwrap();
                let e = k.expand();
                (k, e)
            })
            .collect();
        // fn-dsa key of the same degree.
        let mut fsk = vec![0u8; fn_dsa::sign_key_size(logn)];
        let mut fvk = vec![0u8; fn_dsa::vrfy_key_size(logn)];
        fn_dsa::KeyPairGeneratorStandard::default().keygen(logn, &mut Rng(7), &mut fsk, &mut fvk);
        let mut fkey = fn_dsa::SigningKeyStandard::decode(&fsk).unwrap();
        let mut fsig = vec![0u8; fn_dsa::signature_size(logn)];
        let mut frng = Rng(99);

        let msgs: Vec<Vec<u8>> = (0..PER_ROUND).map(|i| vec![i as u8; 33]).collect();
        let nonces: Vec<[u8; 40]> = (0..PER_ROUND).map(|i| [i as u8 ^ 0x33; 40]).collect();
        let seeds: Vec<[u8; 48]> = (0..PER_ROUND).map(|i| [i as u8 ^ 0x5A; 48]).collect();
        let mut dyn_s = vec![Vec::new(); backends.len()];
        let mut exp_s = vec![Vec::new(); backends.len()];
        let mut fn_s = Vec::new();
        for _ in 0..rounds {
            for (bi, (k, e)) in keys.iter().enumerate() {
                dyn_s[bi].push(
                    time(|| {
                        for i in 0..PER_ROUND {
                            black_box(k.sign_with_nonce_and_seed(&msgs[i], &nonces[i], &seeds[i]))
                                .unwrap();
                        }
                    }) / PER_ROUND as u64,
                );
                exp_s[bi].push(
                    time(|| {
                        for i in 0..PER_ROUND {
                            black_box(e.sign_with_nonce_and_seed(&msgs[i], &nonces[i], &seeds[i]))
                                .unwrap();
                        }
                    }) / PER_ROUND as u64,
                );
            }
            fn_s.push(
                time(|| {
                    for m in &msgs {
                        fkey.sign(
                            &mut frng,
                            &fn_dsa::DOMAIN_NONE,
                            &fn_dsa::HASH_ID_RAW,
                            m,
                            &mut fsig,
                        );
                        black_box(&fsig);
                    }
                }) / PER_ROUND as u64,
            );
        }
        println!(
            "{} (ns of thread CPU time per signature; median / min of {rounds} rounds of {PER_ROUND})",
            ps.name()
        );
        let fnm = median(fn_s.clone());
        println!(
            "  fn-dsa 0.4.0 sign: {fnm} / {}",
            fn_s.iter().min().unwrap()
        );
        for (bi, b) in backends.iter().enumerate() {
            let d = median(dyn_s[bi].clone());
            let e = median(exp_s[bi].clone());
            let dmin = *dyn_s[bi].iter().min().unwrap();
            let emin = *exp_s[bi].iter().min().unwrap();
            println!(
                "  {:<9} dynamic {:>7} / {:>7}  expanded {:>7} / {:>7}  ratio {:.3} / {:.3}  \
                 exp/fn-dsa {:.3}  dyn/fn-dsa {:.3}",
                b.name(),
                d,
                dmin,
                e,
                emin,
                d as f64 / e as f64,
                dmin as f64 / emin as f64,
                e as f64 / fnm as f64,
                d as f64 / fnm as f64
            );
        }
    }

    let reqs = requests(&mut Rng(0x1234_5678), 1024);
    let seed = [0x77u8; SEED_LEN];
    let mut samp = vec![Vec::new(); backends.len()];
    let mut dep = vec![Vec::new(); backends.len()];
    let mut cha = vec![Vec::new(); backends.len()];
    for _ in 0..rounds.max(5) {
        for (bi, &b) in backends.iter().enumerate() {
            let k = kernels(b);
            let mut p = Prng::from_seed(&seed, k);
            let mut out = [0i32; 2];
            samp[bi].push(time(|| {
                for r in &reqs {
                    (k.sample)(&mut p.stream(), fpr::SIGMA_MIN[9], r, &mut out);
                    black_box(&out);
                }
            }));
            let mut p = Prng::from_seed(&seed, k);
            dep[bi].push(time(|| {
                black_box(dependent(k, &mut p, &reqs));
            }));
            let (mut w, mut w2) = ([0u8; WINDOW], [0u8; WINDOW]);
            cha[bi].push(time(|| {
                for c in 0..32u64 {
                    if let Some(x16) = k.chacha20x16 {
                        x16(&[c as u32; 12], c, &mut w, &mut w2);
                    } else {
                        (k.chacha20x8)(&[c as u32; 12], c, &mut w);
                        (k.chacha20x8)(&[c as u32; 12], c + 8, &mut w2);
                    }
                    black_box((&w, &w2));
                }
            }));
        }
    }
    println!("SamplerZ kernel (ns per sample, medians) and ChaCha20 (ns per 512-byte window)");
    for (bi, b) in backends.iter().enumerate() {
        println!(
            "  {:<9} independent {:>6.1}  dependent {:>6.1}  chacha20 {:>6.1}",
            b.name(),
            median(samp[bi].clone()) as f64 / (2 * reqs.len()) as f64,
            median(dep[bi].clone()) as f64 / (2 * reqs.len()) as f64,
            median(cha[bi].clone()) as f64 / 64.0
        );
    }
}
