//! Median timings for `demo` and `bench`.

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

/// Microseconds with one decimal, for tables.
pub fn micros(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}
