//! Median timings for `demo` and `bench`.

use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::{Algorithm, Backend, Error};
use std::time::{Duration, Instant};

/// A timed operation: the median and how many timed runs it came from.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub median: Duration,
    pub runs: u32,
}

/// Runs `f(i)` once as a warm-up (`i = u32::MAX`), then for i = 0, 1, … up to `iters`
/// times, stopping early once `budget` (when given) is spent — always after at least one
/// timed run. `f` returns the time of the part it measured. The first error ends it.
pub fn median<E>(
    iters: u32,
    budget: Option<Duration>,
    mut f: impl FnMut(u32) -> (Duration, Result<(), E>),
) -> Result<Sample, E> {
    f(u32::MAX).1?;
    let start = Instant::now();
    let mut times = Vec::with_capacity(iters.min(4096) as usize);
    for i in 0..iters {
        let (t, r) = f(i);
        r?;
        times.push(t);
        if budget.is_some_and(|b| start.elapsed() >= b) {
            break;
        }
    }
    times.sort_unstable();
    Ok(Sample {
        median: times[times.len() / 2],
        runs: times.len() as u32,
    })
}

/// Times key generation of `alg` on backend `b` over distinct seeds (the fixed seed
/// 00 01 02 … with its first two bytes varied per run), then returns the timing and the
/// key pair of the fixed seed, both keys on `b`.
pub fn keygen(
    alg: Algorithm,
    b: Backend,
    iters: u32,
    budget: Option<Duration>,
) -> Result<(Sample, SigningKey, VerifyingKey), Error> {
    let seed: Vec<u8> = (0..alg.seed_len()).map(|i| i as u8).collect();
    let sample = median(iters, budget, |i| {
        let mut s = seed.clone();
        s[0] ^= i as u8;
        s[1] ^= (i >> 8) as u8;
        let t = Instant::now();
        let r = SigningKey::from_seed_on(alg, &s, b);
        (t.elapsed(), r.map(drop))
    })?;
    let sk = SigningKey::from_seed_on(alg, &seed, b)?;
    let vk = sk.verifying_key().with_backend(b)?;
    Ok((sample, sk, vk))
}

/// Microseconds with one decimal, for tables.
pub fn micros(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}
