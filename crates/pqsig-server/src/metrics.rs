//! Prometheus metrics in text exposition format, kept by hand (a few maps under one
//! mutex; batch items are recorded with one lock per batch, not per item).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Histogram bucket bounds in seconds (50 µs to 10 s: verify is tens of µs, SNOVA
/// keygen and large batches take longer).
const BUCKETS: [f64; 16] = [
    0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0,
    2.5, 10.0,
];

#[derive(Default, Clone)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

impl Histogram {
    fn observe(&mut self, secs: f64) {
        for (c, b) in self.counts.iter_mut().zip(BUCKETS) {
            if secs <= b {
                *c += 1;
            }
        }
        self.count += 1;
        self.sum += secs;
    }
}

#[derive(Default)]
struct Inner {
    /// (method, route, status) -> count
    requests: BTreeMap<(String, String, u16), u64>,
    /// (method, route) -> latency
    request_latency: BTreeMap<(String, String), Histogram>,
    /// (operation, algorithm, outcome) -> count
    operations: BTreeMap<(&'static str, &'static str, &'static str), u64>,
    /// (operation, algorithm) -> latency
    op_latency: BTreeMap<(&'static str, &'static str), Histogram>,
    /// error code -> count
    errors: BTreeMap<&'static str, u64>,
}

/// The outcome label of one cryptographic operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Signed, or verified as valid.
    Ok,
    /// Verified as invalid (not an error).
    Invalid,
    /// Refused (bad input) or failed.
    Error,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Invalid => "invalid",
            Outcome::Error => "error",
        }
    }
}

/// One item's observation: algorithm, outcome, duration.
pub type Observation = (&'static str, Outcome, Duration);

/// The process-wide registry.
#[derive(Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
    in_flight: AtomicI64,
}

/// Counts one request in flight until dropped.
pub struct InFlight<'a>(&'a AtomicI64);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Metrics {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Marks a request in flight (the `pqsig_http_requests_in_flight` gauge).
    pub fn begin_request(&self) -> InFlight<'_> {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(&self.in_flight)
    }

    /// Counts one HTTP request by route template (never the raw path: ids would
    /// explode the label set).
    pub fn http_request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let mut g = self.lock();
        *g.requests
            .entry((method.to_string(), route.to_string(), status))
            .or_default() += 1;
        g.request_latency
            .entry((method.to_string(), route.to_string()))
            .or_default()
            .observe(elapsed.as_secs_f64());
    }

    /// Counts one error response by code.
    pub fn error(&self, code: &'static str) {
        *self.lock().errors.entry(code).or_default() += 1;
    }

    /// Records cryptographic operations: `(algorithm, outcome, duration)` per item.
    pub fn operations(&self, op: &'static str, items: &[Observation]) {
        let mut g = self.lock();
        for &(alg, outcome, d) in items {
            *g.operations.entry((op, alg, outcome.label())).or_default() += 1;
            g.op_latency
                .entry((op, alg))
                .or_default()
                .observe(d.as_secs_f64());
        }
    }

    /// The text exposition (`text/plain; version=0.0.4`).
    pub fn render(&self) -> String {
        let g = self.lock();
        let mut out = String::new();
        out.push_str("# HELP pqsig_http_requests_in_flight HTTP requests being processed.\n");
        out.push_str("# TYPE pqsig_http_requests_in_flight gauge\n");
        let _ = writeln!(
            out,
            "pqsig_http_requests_in_flight {}",
            self.in_flight.load(Ordering::Relaxed)
        );
        out.push_str(
            "# HELP pqsig_http_requests_total HTTP requests by method, route and status.\n",
        );
        out.push_str("# TYPE pqsig_http_requests_total counter\n");
        for ((m, r, s), n) in &g.requests {
            let _ = writeln!(
                out,
                "pqsig_http_requests_total{{method=\"{m}\",route=\"{r}\",status=\"{s}\"}} {n}"
            );
        }
        out.push_str("# HELP pqsig_http_request_duration_seconds HTTP request latency.\n");
        out.push_str("# TYPE pqsig_http_request_duration_seconds histogram\n");
        for ((m, r), h) in &g.request_latency {
            write_histogram(
                &mut out,
                "pqsig_http_request_duration_seconds",
                &format!("method=\"{m}\",route=\"{r}\""),
                h,
            );
        }
        out.push_str("# HELP pqsig_errors_total Error responses by error code.\n");
        out.push_str("# TYPE pqsig_errors_total counter\n");
        for (code, n) in &g.errors {
            let _ = writeln!(out, "pqsig_errors_total{{code=\"{code}\"}} {n}");
        }
        out.push_str("# HELP pqsig_operations_total Cryptographic operations by operation, algorithm and outcome.\n");
        out.push_str("# TYPE pqsig_operations_total counter\n");
        for ((op, alg, o), n) in &g.operations {
            let _ = writeln!(out, "pqsig_operations_total{{operation=\"{op}\",algorithm=\"{alg}\",outcome=\"{o}\"}} {n}");
        }
        out.push_str(
            "# HELP pqsig_operation_duration_seconds Latency of one cryptographic operation.\n",
        );
        out.push_str("# TYPE pqsig_operation_duration_seconds histogram\n");
        for ((op, alg), h) in &g.op_latency {
            write_histogram(
                &mut out,
                "pqsig_operation_duration_seconds",
                &format!("operation=\"{op}\",algorithm=\"{alg}\""),
                h,
            );
        }
        out
    }
}

fn write_histogram(out: &mut String, name: &str, labels: &str, h: &Histogram) {
    for (c, b) in h.counts.iter().zip(BUCKETS) {
        let _ = writeln!(out, "{name}_bucket{{{labels},le=\"{b}\"}} {c}");
    }
    let _ = writeln!(out, "{name}_bucket{{{labels},le=\"+Inf\"}} {}", h.count);
    let _ = writeln!(out, "{name}_sum{{{labels}}} {}", h.sum);
    let _ = writeln!(out, "{name}_count{{{labels}}} {}", h.count);
}
