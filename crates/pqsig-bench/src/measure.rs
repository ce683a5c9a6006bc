//! Timing: wall-clock nanoseconds (`Instant`) and TSC ticks (`rdtsc` between `lfence`s)
//! per sample, medians, and the interleaved (round-robin) driver.
//!
//! A *unit* is one thing being measured (an implementation × operation, or a kernel ×
//! backend). Units that are compared against each other are measured together: in every
//! round each unit runs one batch of samples, and the unit that goes first rotates from
//! round to round, so frequency drift, thermal state and background noise fall on all of
//! them alike.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Reads the time-stamp counter, serialised on both sides with `lfence` so that the read
/// neither drifts into the measured code nor is overtaken by it.
#[inline(always)]
pub fn tsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: lfence and rdtsc are available on every x86-64 CPU.
        unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

/// One measured thing. The driver calls, per round: `begin_batch` once, then for each
/// sample `j` in `0..samples_per_round`: `before(j)` (untimed), `run(j)` (timed),
/// `after(j)` (untimed).
pub trait Unit {
    /// Untimed set-up before this unit's batch in a round (e.g. pin a backend).
    fn begin_batch(&mut self) {}
    /// Untimed, before sample `j` (e.g. refresh kernel inputs).
    fn before(&mut self, _j: usize) {}
    /// The timed work of sample `j`.
    fn run(&mut self, j: usize);
    /// Untimed, after sample `j` (e.g. drop the outputs, so destructors are not timed).
    fn after(&mut self, _j: usize) {}
    /// How many operations one sample performs (the sample time is divided by this).
    fn ops_per_sample(&self) -> usize {
        1
    }
}

/// How many samples to take.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Timed rounds (each unit runs `samples_per_round` samples per round).
    pub rounds: usize,
    pub samples_per_round: usize,
    /// Untimed rounds first (caches, branch predictors, CPU frequency).
    pub warmup_rounds: usize,
    /// Stop after the round in which the group's timed work passed this (0 = no cap).
    pub max_time: Duration,
}

/// Per-operation samples of one unit.
#[derive(Default, Clone)]
pub struct Samples {
    ns: Vec<f64>,
    ticks: Vec<f64>,
}

/// The result for one unit.
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    pub median_ns: f64,
    pub median_ticks: f64,
    /// Operations timed (samples × ops per sample).
    pub iters: usize,
}

impl Samples {
    fn push(&mut self, ns: u64, ticks: u64, ops: usize) {
        self.ns.push(ns as f64 / ops as f64);
        self.ticks.push(ticks as f64 / ops as f64);
    }

    pub fn stats(&self, ops_per_sample: usize) -> Stats {
        Stats {
            median_ns: median(&self.ns),
            median_ticks: median(&self.ticks),
            iters: self.ns.len() * ops_per_sample,
        }
    }
}

/// Median (mean of the two middle values for an even count; NaN when empty).
pub fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).expect("no NaN samples"));
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Times one sample of `u`: (nanoseconds, ticks).
#[inline(always)]
fn sample(u: &mut dyn Unit, j: usize) -> (u64, u64) {
    u.before(j);
    let t0 = Instant::now();
    let c0 = tsc();
    u.run(black_box(j));
    let c1 = tsc();
    let t1 = Instant::now();
    u.after(j);
    ((t1 - t0).as_nanos() as u64, c1.wrapping_sub(c0))
}

/// Running totals over a whole run, to report the TSC rate.
#[derive(Default, Clone, Copy)]
pub struct Totals {
    pub ns: u128,
    pub ticks: u128,
}

/// Measures `units` interleaved: round-robin within every round, with a rotating start.
/// Returns one [`Stats`] per unit, in order.
pub fn interleaved(units: &mut [&mut dyn Unit], plan: Plan, totals: &mut Totals) -> Vec<Stats> {
    let n = units.len();
    let mut samples = vec![Samples::default(); n];
    if n == 0 {
        return Vec::new();
    }
    for w in 0..plan.warmup_rounds {
        for k in 0..n {
            let u = &mut *units[(k + w) % n];
            u.begin_batch();
            for j in 0..plan.samples_per_round {
                let _ = sample(u, j);
            }
        }
    }
    let start = Instant::now();
    for r in 0..plan.rounds {
        for k in 0..n {
            let idx = (k + r) % n;
            let u = &mut *units[idx];
            let ops = u.ops_per_sample();
            u.begin_batch();
            for j in 0..plan.samples_per_round {
                let (ns, ticks) = sample(u, j);
                samples[idx].push(ns, ticks, ops);
                totals.ns += ns as u128;
                totals.ticks += ticks as u128;
            }
        }
        if !plan.max_time.is_zero() && start.elapsed() > plan.max_time {
            break;
        }
    }
    units
        .iter()
        .zip(samples.iter())
        .map(|(u, s)| s.stats(u.ops_per_sample()))
        .collect()
}
