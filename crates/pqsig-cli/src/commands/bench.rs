//! `pqsig bench`: a quick benchmark of our own backends (no peer libraries; those are in
//! `pqsig-bench`). For each algorithm and each backend available here (or the one given
//! with `--backend`): median key generation (from distinct seeds), signing (hedged, as
//! `pqsig sign` does it) and verification times, as a table or one JSON object per line,
//! then a summary: the fastest backend per algorithm (smallest geometric mean of the
//! three medians) and its speedup over portable.
//! Progress lines go to stderr (when it is a terminal, or with `--progress`).
//!
//! With `--batch N`, each algorithm and backend also gets batch-engine rows
//! (`pqsig::batch`): `verify_batch` and `sign_batch` over N items under N distinct keys,
//! at 1 thread and at all cores, keys as encodings (`api` `bytes`) and as decoded
//! objects (`api` `object`); the time reported is the median over batch calls of the
//! call's time divided by N. Signing is deterministic where the algorithm has a mode for
//! it (ML-DSA), hedged otherwise. The device is `--device` / `PQSIG_DEVICE`'s.

use super::timing::{self, micros, Sample};
use crate::cli::BenchArgs;
use crate::exit::Failure;
use crate::io::{self, Out};
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::backend;
use pqsig::batch::Device;
use pqsig::batch::{
    sign_batch_with, verify_batch_with, Message, Options, SignItem, SignKey, VerifyItem, VerifyKey,
};
use pqsig::{Algorithm, Backend, Error};
use pqsig_card::{Breakdown, CardDevice};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The default selection: each ML-DSA level and the level-1 set of the other families.
const DEFAULT: [&str; 6] = [
    "ML-DSA-44",
    "ML-DSA-65",
    "ML-DSA-87",
    "Falcon-512",
    "FN-DSA-512",
    "SNOVA_I_S",
];

/// The message signed (its length hardly matters: every scheme hashes it first).
const MESSAGE: &[u8] = b"pqsig bench: a 64-byte message, signed and verified many times..";

/// One algorithm on one backend.
struct Row {
    alg: Algorithm,
    backend: Backend,
    keygen: Sample,
    sign: Sample,
    verify: Sample,
    sig_len: usize,
}

impl Row {
    /// What "fastest" ranks by: the geometric mean of the three medians (as a log sum),
    /// so that each operation weighs the same whatever its scale (Falcon's key
    /// generation takes milliseconds, its verification microseconds).
    fn score(&self) -> f64 {
        [self.keygen, self.sign, self.verify]
            .iter()
            .map(|s| s.median.as_secs_f64().max(1e-9).ln())
            .sum()
    }
}

/// One batch-engine operation on one backend: time per item.
struct BatchRow {
    op: &'static str,
    api: &'static str,
    batch: usize,
    threads: usize,
    /// Signing rows: deterministic (else hedged).
    deterministic: Option<bool>,
    per_item: Sample,
    /// With a card kernel device: where a call's time went (means per call).
    card: Option<CardRow>,
}

/// The card's breakdown of one row, means per call (ns).
struct CardRow {
    device_mode: &'static str,
    accel: &'static str,
    clock_mhz: f64,
    e2e: f64,
    host: f64,
    transfer: f64,
    wait: f64,
    alloc: f64,
    ring: f64,
    device: f64,
    requests: f64,
    overhead_mean: f64,
}

impl CardRow {
    /// From one breakdown per timed call (`e2e`: the call's wall time as the caller saw
    /// it): the figures of the median call by end-to-end time — the load of other
    /// processes on a shared machine shows up as rare long calls, which the mean
    /// keeps (`overhead_frac_mean`) but the median does not.
    /// host = e2e − transfer − wait: everything but copies and completion waits (for
    /// `ntt` / `intt`, the driver's system calls and the seam's own work; for the
    /// batch operations, all the CPU work of the schemes as well).
    fn new(src: &CardSource, mut runs: Vec<(Duration, Breakdown)>) -> CardRow {
        runs.sort_by_key(|r| r.0);
        let (e2e_total, dev_total) = runs.iter().fold((0u128, 0u128), |(e, d), r| {
            (e + r.0.as_nanos(), d + u128::from(r.1.device_ns))
        });
        let (e2e, b) = runs.get(runs.len() / 2).copied().unwrap_or_default();
        let e2e = e2e.as_nanos() as f64;
        let transfer = b.transfer_ns as f64;
        let wait = b.wait_ns as f64;
        let (device_mode, accel, clock_mhz) = src.labels();
        CardRow {
            device_mode,
            accel,
            clock_mhz,
            e2e,
            host: (e2e - transfer - wait).max(0.0),
            transfer,
            wait,
            alloc: b.alloc_ns as f64,
            ring: b.ring_ns as f64,
            device: b.device_ns as f64,
            requests: b.requests as f64,
            overhead_mean: if e2e_total > 0 {
                (e2e_total as f64 - dev_total as f64) / e2e_total as f64
            } else {
                0.0
            },
        }
    }

    fn json(&self) -> String {
        let overhead = if self.e2e > 0.0 {
            (self.e2e - self.device) / self.e2e
        } else {
            0.0
        };
        let rate = if self.e2e > 0.0 {
            self.device / self.e2e
        } else {
            0.0
        };
        format!(
            ",\"device_mode\":\"{}\",\"accel\":\"{}\",\"clock_mhz\":{},\"e2e_ns\":{:.0},\
             \"host_ns\":{:.0},\"transfer_ns\":{:.0},\"wait_ns\":{:.0},\"device_ns\":{:.0},\
             \"overhead_frac\":{:.4},\"model_rate_frac\":{:.4},\"overhead_frac_mean\":{:.4},\
             \"requests_per_call\":{},\"alloc_ns\":{:.0},\"ring_ns\":{:.0}",
            self.device_mode,
            self.accel,
            self.clock_mhz,
            self.e2e,
            self.host,
            self.transfer,
            self.wait,
            self.device,
            overhead,
            rate,
            self.overhead_mean,
            self.requests,
            self.alloc,
            self.ring
        )
    }

    fn text(&self) -> String {
        format!(
            "  [{} {}: e2e {:.1} µs = host {:.1} + transfer {:.1} + wait {:.1}; device {:.1} µs; \
             overhead {:.0}%]",
            self.device_mode,
            self.accel,
            self.e2e / 1e3,
            self.host / 1e3,
            self.transfer / 1e3,
            self.wait / 1e3,
            self.device / 1e3,
            if self.e2e > 0.0 {
                100.0 * (self.e2e - self.device) / self.e2e
            } else {
                0.0
            }
        )
    }
}

pub fn run(args: BenchArgs, forced: Option<Backend>, batch: &Options) -> Result<(), Failure> {
    let algs: Vec<Algorithm> = if args.all {
        Algorithm::ALL.to_vec()
    } else if args.alg.is_empty() {
        DEFAULT
            .iter()
            .map(|n| Algorithm::from_name(n).expect("a known name"))
            .collect()
    } else {
        args.alg.clone()
    };
    let backends: Vec<Backend> = match forced {
        Some(b) => vec![b],
        None => Backend::available().collect(),
    };
    let budget = Duration::from_secs_f64(args.time);
    let progress = io::progress_wanted(args.progress);
    let default = backend::active();
    let started = Instant::now();
    let mut out = Out::new();
    let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
    if !args.json {
        writeln!(
            out,
            "pqsig {} bench: backends {} (* = default); median of up to {} runs, at most \
             {} s per operation; times in µs\n",
            env!("CARGO_PKG_VERSION"),
            names.join(", "),
            args.iters,
            args.time
        )?;
        writeln!(
            out,
            "{:<18} {:<9} {:>11} {:>11} {:>11} {:>7}  runs k/s/v",
            "algorithm", "backend", "keygen µs", "sign µs", "verify µs", "sig B"
        )?;
        out.flush()?;
    }
    let mut rows = Vec::new();
    for (i, &alg) in algs.iter().enumerate() {
        if progress {
            eprintln!(
                "bench: [{}/{}] {alg} on {}",
                i + 1,
                algs.len(),
                names.join(", ")
            );
        }
        for &b in &backends {
            let row = measure(alg, b, args.iters, budget)
                .map_err(|e| Failure::error(format!("bench: {alg} on {b}: {e}")))?;
            if args.json {
                writeln!(out, "{}", row_json(&row, default))?;
            } else {
                writeln!(out, "{}", row_text(&row, default))?;
            }
            out.flush()?;
            if let Some(n) = args.batch {
                let brows = measure_batch(alg, b, n as usize, args.iters, budget, batch, &args.ops)
                    .map_err(|e| Failure::error(format!("bench: {alg} batch on {b}: {e}")))?;
                let device = device_name(batch);
                for r in &brows {
                    if args.json {
                        writeln!(out, "{}", batch_json(alg, b, default, &device, r))?;
                    } else {
                        writeln!(out, "{}", batch_text(r))?;
                    }
                }
                out.flush()?;
            }
            rows.push(row);
        }
    }
    summary(&mut out, &algs, &rows, args.json)?;
    if !args.json {
        writeln!(
            out,
            "\n{} algorithms × {} backends in {:.1} s",
            algs.len(),
            backends.len(),
            started.elapsed().as_secs_f64()
        )?;
    }
    out.flush()
}

/// Times one algorithm on one backend.
fn measure(alg: Algorithm, b: Backend, iters: u32, budget: Duration) -> Result<Row, Error> {
    let (keygen, sk, vk) = timing::keygen(alg, b, iters, Some(budget))?;
    let sign = timing::median(iters, Some(budget), |_| {
        let t = Instant::now();
        let r = sk.sign(MESSAGE, b"");
        (t.elapsed(), r.map(drop))
    })?;
    let sig = sk.sign(MESSAGE, b"")?;
    let verify = timing::median(iters, Some(budget), |_| {
        let t = Instant::now();
        let r = vk.verify(MESSAGE, b"", &sig);
        (t.elapsed(), r)
    })?;
    Ok(Row {
        alg,
        backend: b,
        keygen,
        sign,
        verify,
        sig_len: sig.len(),
    })
}

/// The batch engine on `alg` / `b`: N distinct keys, then every (op, threads, api) row.
fn measure_batch(
    alg: Algorithm,
    b: Backend,
    n: usize,
    iters: u32,
    budget: Duration,
    opts: &Options,
    only: &[String],
) -> Result<Vec<BatchRow>, Error> {
    let wanted = |op: &str| only.is_empty() || only.iter().any(|o| o == op);
    let card = card_source(opts)?;
    let mut rows = Vec::new();
    if let Some(CardSource::Kernel(dev)) = &card {
        if alg.name().starts_with("ML-DSA") && (wanted("ntt") || wanted("intt")) {
            rows.extend(
                measure_transforms(dev, b, n, iters, budget)?
                    .into_iter()
                    .filter(|r| wanted(r.op)),
            );
        }
    }
    if !wanted("verify_batch") && !wanted("sign_batch") {
        return Ok(rows);
    }
    let keys = distinct_keys(alg, b, n)?;
    let sks: Vec<_> = keys.iter().map(|(sk, _)| sk.to_bytes()).collect();
    let pks: Vec<&[u8]> = keys.iter().map(|(_, vk)| vk.to_bytes()).collect();
    let deterministic = alg.supports_deterministic();
    let sign_items = |object: bool| -> Vec<SignItem<'_>> {
        (0..n)
            .map(|i| SignItem {
                key: if object {
                    SignKey::Object(&keys[i].0)
                } else {
                    SignKey::Encoded { alg, sk: &sks[i] }
                },
                message: Message::Raw(MESSAGE),
                context: b"",
                deterministic,
            })
            .collect()
    };
    let sigs = sign_batch_with(&sign_items(true), &Options::default())
        .into_iter()
        .collect::<Result<Vec<_>, Error>>()?;
    let verify_items = |object: bool| -> Vec<VerifyItem<'_>> {
        (0..n)
            .map(|i| VerifyItem {
                key: if object {
                    VerifyKey::Object(&keys[i].1)
                } else {
                    VerifyKey::Encoded { alg, pk: pks[i] }
                },
                message: Message::Raw(MESSAGE),
                context: b"",
                signature: &sigs[i],
            })
            .collect()
    };
    let mut threads = vec![1];
    if cores() > 1 {
        threads.push(cores());
    }
    let per_item = |t: Duration| t / n as u32;
    for op in ["verify_batch", "sign_batch"]
        .into_iter()
        .filter(|op| wanted(op))
    {
        for &t in &threads {
            let o = Options {
                // All cores: the default pool, as callers who set nothing get it.
                threads: if t == 1 { Some(1) } else { None },
                backend: Some(b),
                ..opts.clone()
            };
            for api in ["bytes", "object"] {
                let object = api == "object";
                let mut runs = Vec::new();
                let mut record = |i: u32, took: Duration| {
                    if let (Some(dev), true) = (&card, i != u32::MAX) {
                        runs.push((took, dev.stats()));
                    }
                };
                let reset = || {
                    if let Some(dev) = &card {
                        dev.reset();
                    }
                };
                let sample = if op == "verify_batch" {
                    let items = verify_items(object);
                    timing::median(iters, Some(budget), |i| {
                        reset();
                        let start = Instant::now();
                        let r = verify_batch_with(&items, &o);
                        let took = start.elapsed();
                        record(i, took);
                        (per_item(took), r.into_iter().collect::<Result<(), Error>>())
                    })?
                } else {
                    let items = sign_items(object);
                    timing::median(iters, Some(budget), |i| {
                        reset();
                        let start = Instant::now();
                        let r = sign_batch_with(&items, &o);
                        let took = start.elapsed();
                        record(i, took);
                        let r = r.into_iter().try_for_each(|s| s.map(drop));
                        (per_item(took), r)
                    })?
                };
                // No breakdown where the card took none of the work (card-verify
                // declines signing jobs).
                let used = runs.iter().any(|r| r.1.calls > 0);
                let card = card
                    .as_ref()
                    .filter(|_| used)
                    .map(|d| CardRow::new(d, runs));
                rows.push(BatchRow {
                    op,
                    api,
                    batch: n,
                    threads: t,
                    deterministic: (op == "sign_batch").then_some(deterministic),
                    per_item: sample,
                    card,
                });
            }
        }
    }
    Ok(rows)
}

/// A card device whose breakdown the rows report.
enum CardSource {
    /// `card` / `card-per-call`: NTTs on the card.
    Kernel(Arc<CardDevice>),
    /// `card-verify`: whole verification jobs on the card's CPU engine.
    Whole(Arc<pqsig_card::ops_device::CardVerify>),
}

impl CardSource {
    fn reset(&self) {
        match self {
            CardSource::Kernel(d) => d.reset_stats(),
            CardSource::Whole(d) => d.reset_stats(),
        }
    }
    fn stats(&self) -> Breakdown {
        match self {
            CardSource::Kernel(d) => d.stats(),
            CardSource::Whole(d) => d.stats(),
        }
    }
    /// `device_mode`, `accel`, `clock_mhz` of the rows.
    fn labels(&self) -> (&'static str, &'static str, f64) {
        match self {
            CardSource::Kernel(d) => (
                d.mode().label(),
                d.accel().unwrap_or("timed"),
                d.clock_mhz(),
            ),
            CardSource::Whole(_) => ("whole-op", "cpu-engine", 0.0),
        }
    }
}

/// The card device `--device` names: a kernel device, connected (an error when its card
/// does not answer: a benchmark of the CPU fallback would be mislabelled), or the
/// whole-operation device.
fn card_source(opts: &Options) -> Result<Option<CardSource>, Error> {
    if let Some(d) = &opts.device {
        return Ok(pqsig_card::card_verify_device()
            .filter(|v| d.info().name == v.info().name)
            .map(CardSource::Whole));
    }
    Ok(card_device(opts)?.map(CardSource::Kernel))
}

/// The card kernel device `--device` names, connected.
fn card_device(opts: &Options) -> Result<Option<Arc<CardDevice>>, Error> {
    let Some(dev) = opts
        .kernel_device
        .as_ref()
        .and_then(|k| pqsig_card::card_device(&k.name()))
    else {
        return Ok(None);
    };
    dev.connect()
        .map_err(|_| Error::Device(pqsig::DeviceError::NotFound))?;
    Ok(Some(dev))
}

/// `ntt` and `intt` rows: N random ML-DSA polynomials through the kernel table (routed
/// to the card by `--device`), the seam's own work included; time per polynomial.
fn measure_transforms(
    dev: &Arc<CardDevice>,
    b: Backend,
    n: usize,
    iters: u32,
    budget: Duration,
) -> Result<Vec<BatchRow>, Error> {
    let k = pqsig::kernels::mldsa::kernels(b);
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let input: Vec<pqsig::batch::MlDsaPoly> = (0..n)
        .map(|_| {
            let mut p = pqsig::batch::MlDsaPoly::default();
            for c in p.coeffs.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *c = (x % 8_380_417) as i32;
            }
            p
        })
        .collect();
    let mut rows = Vec::new();
    for (op, f) in [("ntt", k.ntt), ("intt", k.invntt_tomont)] {
        let mut polys = input.clone();
        let mut runs = Vec::new();
        let mut all_on_card = true;
        let sample = timing::median(iters, Some(budget), |i| {
            polys.copy_from_slice(&input);
            dev.reset_stats();
            let start = Instant::now();
            f(&mut polys);
            let took = start.elapsed();
            let b = dev.stats();
            all_on_card &= b.polys == n as u64;
            if i != u32::MAX {
                runs.push((took, b));
            }
            (took / n as u32, Ok::<(), Error>(()))
        })?;
        if !all_on_card {
            // Some polynomials ran on the CPU (the card failed them): not a card row.
            return Err(Error::Device(pqsig::DeviceError::Failed));
        }
        rows.push(BatchRow {
            op,
            api: "kernel",
            batch: n,
            threads: 1,
            deterministic: None,
            per_item: sample,
            card: Some(CardRow::new(&CardSource::Kernel(dev.clone()), runs)),
        });
    }
    Ok(rows)
}

/// `n` key pairs on backend `b` from distinct seeds (seed i: 00 01 02 … with its first
/// four bytes xored with i), generated on every core (Falcon and SNOVA keygen is slow).
fn distinct_keys(
    alg: Algorithm,
    b: Backend,
    n: usize,
) -> Result<Vec<(SigningKey, VerifyingKey)>, Error> {
    let one = |i: usize| -> Result<(SigningKey, VerifyingKey), Error> {
        let mut seed: Vec<u8> = (0..alg.seed_len()).map(|j| j as u8).collect();
        for (s, x) in seed.iter_mut().zip((i as u32).to_le_bytes()) {
            *s ^= x;
        }
        let sk = SigningKey::from_seed_on(alg, &seed, b)?;
        let vk = sk.verifying_key().with_backend(b)?;
        Ok((sk, vk))
    };
    let per = n.div_ceil(cores()).max(1);
    std::thread::scope(|s| {
        let parts: Vec<_> = (0..n)
            .step_by(per)
            .map(|lo| s.spawn(move || (lo..(lo + per).min(n)).map(one).collect::<Vec<_>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().expect("keygen thread"))
            .collect()
    })
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn device_name(opts: &Options) -> String {
    match (&opts.device, &opts.kernel_device) {
        (Some(d), _) => d.info().name,
        (None, Some(k)) => k.name(),
        (None, None) => pqsig::batch::device::CPU.to_string(),
    }
}

fn batch_text(r: &BatchRow) -> String {
    let signing = match r.deterministic {
        Some(true) => "  deterministic",
        Some(false) => "  hedged",
        None => "",
    };
    format!(
        "  {:<13} api {:<7} batch {:<7} threads {:<4} {:>11} µs/item  runs {}{signing}{}",
        r.op,
        r.api,
        r.batch,
        r.threads,
        micros(r.per_item.median),
        r.per_item.runs,
        r.card.as_ref().map_or_else(String::new, CardRow::text)
    )
}

fn batch_json(alg: Algorithm, b: Backend, default: Backend, device: &str, r: &BatchRow) -> String {
    let signing = match r.deterministic {
        Some(true) => ",\"signing\":\"deterministic\"",
        Some(false) => ",\"signing\":\"hedged\"",
        None => "",
    };
    format!(
        "{{\"type\":\"batch\",\"algorithm\":\"{}\",\"backend\":\"{b}\",\"default_backend\":{},\
         \"op\":\"{}\",\"api\":\"{}\",\"batch\":{},\"threads\":{},\"device\":{}{signing},\
         \"median_ns\":{:.1},\"runs\":{}{}}}",
        alg.name(),
        b == default,
        r.op,
        r.api,
        r.batch,
        r.threads,
        serde_json::Value::String(device.to_string()),
        r.per_item.median.as_nanos() as f64,
        r.per_item.runs,
        r.card.as_ref().map_or_else(String::new, CardRow::json)
    )
}

fn backend_label(b: Backend, default: Backend) -> String {
    if b == default {
        format!("{b}*")
    } else {
        b.to_string()
    }
}

fn row_text(r: &Row, default: Backend) -> String {
    format!(
        "{:<18} {:<9} {:>11} {:>11} {:>11} {:>7}  {}/{}/{}",
        r.alg.name(),
        backend_label(r.backend, default),
        micros(r.keygen.median),
        micros(r.sign.median),
        micros(r.verify.median),
        r.sig_len,
        r.keygen.runs,
        r.sign.runs,
        r.verify.runs
    )
}

fn us(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e7).round() / 10.0
}

fn row_json(r: &Row, default: Backend) -> String {
    format!(
        "{{\"type\":\"result\",\"algorithm\":\"{}\",\"backend\":\"{}\",\"default_backend\":{},\
         \"keygen_us\":{},\"sign_us\":{},\"verify_us\":{},\"keygen_runs\":{},\"sign_runs\":{},\
         \"verify_runs\":{},\"pk_bytes\":{},\"sk_bytes\":{},\"sig_bytes\":{}}}",
        r.alg.name(),
        r.backend,
        r.backend == default,
        us(r.keygen.median),
        us(r.sign.median),
        us(r.verify.median),
        r.keygen.runs,
        r.sign.runs,
        r.verify.runs,
        r.alg.public_key_len(),
        r.alg.secret_key_len(),
        r.sig_len
    )
}

/// Portable time / fastest time, per operation.
fn speedups(portable: &Row, fastest: &Row) -> [f64; 3] {
    let ratio = |p: Sample, f: Sample| {
        (p.median.as_secs_f64() / f.median.as_secs_f64().max(1e-9) * 100.0).round() / 100.0
    };
    [
        ratio(portable.keygen, fastest.keygen),
        ratio(portable.sign, fastest.sign),
        ratio(portable.verify, fastest.verify),
    ]
}

/// The fastest backend of each algorithm and its speedup over portable.
fn summary(out: &mut Out, algs: &[Algorithm], rows: &[Row], json: bool) -> Result<(), Failure> {
    if !json {
        writeln!(
            out,
            "\nsummary: fastest backend per algorithm (speedup over portable: keygen / sign / verify)"
        )?;
    }
    for &alg in algs {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.alg == alg).collect();
        let Some(fastest) = mine.iter().min_by(|a, b| a.score().total_cmp(&b.score())) else {
            continue;
        };
        let portable = mine.iter().find(|r| r.backend == Backend::Portable);
        let ups = portable.map(|p| speedups(p, fastest));
        if json {
            let speed = match ups {
                Some([k, s, v]) => format!("{{\"keygen\":{k},\"sign\":{s},\"verify\":{v}}}"),
                None => "null".to_string(),
            };
            writeln!(
                out,
                "{{\"type\":\"summary\",\"algorithm\":\"{}\",\"fastest\":\"{}\",\
                 \"speedup_over_portable\":{speed}}}",
                alg.name(),
                fastest.backend
            )?;
        } else {
            let speed = match ups {
                Some([k, s, v]) => format!("{k:.2}x / {s:.2}x / {v:.2}x"),
                None => "(portable not measured)".to_string(),
            };
            writeln!(
                out,
                "  {:<18} {:<9} {speed}",
                alg.name(),
                fastest.backend.name()
            )?;
        }
    }
    Ok(())
}
