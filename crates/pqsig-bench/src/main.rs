//! pqsig-bench: ML-DSA keygen / sign / verify of pqsig (every available backend, two API
//! forms) against peer implementations, all in one process, interleaved round-robin, on
//! the same keys and messages; plus the arithmetic kernels alone per backend.
//!
//! ```text
//! CARGO_TARGET_DIR=target-bench cargo run -p pqsig-bench --release -- [options]
//! ```
//! See `--help` and README.md.

mod kernels;
mod measure;
mod peers;
mod report;

use measure::{Plan, Totals, Unit};
use peers::{Fixture, Loaded, Op, OpUnit, SigImpl, CTX};
use pqsig::mldsa::{ParamSet, VerifyingKey};
use report::Row;
use std::time::{Duration, Instant};

const HELP: &str = "\
pqsig-bench: ML-DSA (FIPS 204) benchmark, pqsig against peer implementations

USAGE: cargo run -p pqsig-bench --release -- [OPTIONS]

OPTIONS:
  --json               JSON lines on stdout (the table goes to stderr)
  --filter SUBSTRING   only algorithms whose name contains SUBSTRING (case-insensitive);
                       kernel rows count as alg \"ML-DSA\"
  --impl SUBSTRING     only implementations whose name contains SUBSTRING
  --iters-scale F      multiply every iteration count by F (default 1; e.g. 0.1 for a smoke run)
  --keys N             keys per parameter set (default 16)
  --msgs-per-key M     messages per key (default 4; pairs = N x M, at least 64 by default)
  --msg-len L          message length in bytes (default 32)
  --no-kernels         skip the kernel rows
  --no-schemes         only the kernel rows
  -h, --help           this text
";

struct Args {
    json: bool,
    filter: Option<String>,
    imp: Option<String>,
    scale: f64,
    keys: usize,
    msgs_per_key: usize,
    msg_len: usize,
    kernels: bool,
    schemes: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        json: false,
        filter: None,
        imp: None,
        scale: 1.0,
        keys: 16,
        msgs_per_key: 4,
        msg_len: 32,
        kernels: true,
        schemes: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--json" => a.json = true,
            "--filter" => a.filter = Some(value("--filter")?),
            "--impl" => a.imp = Some(value("--impl")?),
            "--iters-scale" => {
                a.scale = value("--iters-scale")?
                    .parse()
                    .map_err(|e| format!("--iters-scale: {e}"))?;
                if a.scale.is_nan() || a.scale <= 0.0 {
                    return Err("--iters-scale must be > 0".into());
                }
            }
            "--keys" => {
                a.keys = value("--keys")?
                    .parse()
                    .map_err(|e| format!("--keys: {e}"))?
            }
            "--msgs-per-key" => {
                a.msgs_per_key = value("--msgs-per-key")?
                    .parse()
                    .map_err(|e| format!("--msgs-per-key: {e}"))?
            }
            "--msg-len" => {
                a.msg_len = value("--msg-len")?
                    .parse()
                    .map_err(|e| format!("--msg-len: {e}"))?
            }
            "--no-kernels" => a.kernels = false,
            "--no-schemes" => a.schemes = false,
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    if a.keys == 0 || a.msgs_per_key == 0 {
        return Err("--keys and --msgs-per-key must be at least 1".into());
    }
    Ok(a)
}

fn matches(filter: &Option<String>, name: &str) -> bool {
    filter
        .as_ref()
        .is_none_or(|f| name.to_ascii_lowercase().contains(&f.to_ascii_lowercase()))
}

/// Rounds of each measurement at scale 1 (the per-round batch is one sample per key for
/// keygen, one per (key, message) pair for sign and verify).
/// Chosen so that the full run (3 parameter sets × all implementations + kernels) takes
/// about 3 minutes on a 2-core Xeon (mostly sign); the per-group cap bounds the worst case.
const KEYGEN_ROUNDS: f64 = 400.0;
const SIGN_ROUNDS: f64 = 256.0;
const VERIFY_ROUNDS: f64 = 320.0;
const KERNEL_ROUNDS: f64 = 320.0;
const KERNEL_SAMPLES_PER_ROUND: usize = 64;
/// Safety cap per measurement group (one alg × op, all implementations), at scale 1.
const GROUP_CAP_SECS: f64 = 60.0;

fn rounds(base: f64, scale: f64) -> usize {
    ((base * scale).round() as usize).max(1)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: built without optimisations; run with --release for meaningful numbers"
        );
    }
    let started = Instant::now();
    let mut totals = Totals::default();
    let mut rows: Vec<Row> = Vec::new();
    let cap = Duration::from_secs_f64(GROUP_CAP_SECS * args.scale.max(1.0));

    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    eprintln!("pqsig-bench: {cpu}, {threads} hardware thread(s)");
    eprintln!(
        "pqsig-bench: backends available: {}; {} key(s) x {} message(s) of {} bytes per parameter set",
        pqsig::Backend::available().map(|b| b.name()).collect::<Vec<_>>().join(", "),
        args.keys,
        args.msgs_per_key,
        args.msg_len
    );

    if args.schemes {
        let impls: Vec<Box<dyn SigImpl>> = peers::all()
            .into_iter()
            .filter(|i| matches(&args.imp, i.name()))
            .collect();
        for (idx, ps) in ParamSet::ALL.iter().copied().enumerate() {
            if !matches(&args.filter, ps.name()) {
                continue;
            }
            bench_param_set(ps, idx as u64, &impls, &args, cap, &mut totals, &mut rows);
        }
    }

    if args.kernels && matches(&args.filter, "ML-DSA") {
        bench_kernels(&args, cap, &mut totals, &mut rows);
    }

    let table = report::table(&rows);
    if args.json {
        for r in &rows {
            println!("{}", report::json_line(r));
        }
        eprint!("\n{table}");
    } else {
        print!("\n{table}");
    }
    let ghz = if totals.ns > 0 {
        totals.ticks as f64 / totals.ns as f64
    } else {
        f64::NAN
    };
    eprintln!(
        "\nTSC rate {ghz:.3} ticks/ns; total run time {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

/// Loads, checks and measures every implementation on one parameter set.
fn bench_param_set(
    ps: ParamSet,
    tag: u64,
    impls: &[Box<dyn SigImpl>],
    args: &Args,
    cap: Duration,
    totals: &mut Totals,
    rows: &mut Vec<Row>,
) {
    let alg = ps.name();
    let fx = Fixture::new(ps, args.keys, args.msgs_per_key, args.msg_len, tag);
    eprintln!(
        "[{alg}] {} keys, {} (key, message) pairs",
        fx.keys(),
        fx.pairs()
    );

    // Load every implementation; the ones that fail become warning rows.
    let mut loaded: Vec<(&dyn SigImpl, Box<dyn Loaded>)> = Vec::new();
    for imp in impls {
        match imp.load(&fx) {
            Ok(l) => loaded.push((imp.as_ref(), l)),
            Err(e) => rows.push(Row::warning(
                alg,
                "load",
                imp.name(),
                &imp.backend(),
                Some(imp.api()),
                format!("could not load keys: {e}"),
            )),
        }
    }

    // Correctness checks (untimed).
    let mut warnings = Vec::new();
    for (imp, l) in loaded.iter_mut() {
        warnings.extend(check(*imp, l.as_mut(), &fx));
    }

    for op in Op::ALL {
        let (base, per_round) = match op {
            Op::Keygen => (KEYGEN_ROUNDS, fx.keys()),
            Op::Sign => (SIGN_ROUNDS, fx.pairs()),
            Op::Verify => (VERIFY_ROUNDS, fx.pairs()),
        };
        let plan = Plan {
            rounds: rounds(base, args.scale),
            samples_per_round: per_round,
            warmup_rounds: 1,
            max_time: cap,
        };
        let t = Instant::now();
        let mut units: Vec<OpUnit> = loaded
            .iter_mut()
            .map(|(_, l)| OpUnit {
                loaded: l.as_mut(),
                fx: &fx,
                op,
                failures: 0,
            })
            .collect();
        let stats = {
            let mut dyn_units: Vec<&mut dyn Unit> =
                units.iter_mut().map(|u| u as &mut dyn Unit).collect();
            measure::interleaved(&mut dyn_units, plan, totals)
        };
        eprintln!(
            "[{alg}] {:<6} {} impls x {} rounds x {} samples: {:.1} s",
            op.name(),
            units.len(),
            plan.rounds,
            per_round,
            t.elapsed().as_secs_f64()
        );
        let failures: Vec<usize> = units.iter().map(|u| u.failures).collect();
        drop(units);
        for (((imp, _), s), fails) in loaded.iter().zip(stats.iter()).zip(failures) {
            rows.push(Row {
                alg: alg.into(),
                op: op.name().into(),
                imp: imp.name().into(),
                backend: imp.backend(),
                api: Some(imp.api().into()),
                note: imp.note(op),
                median_ns: s.median_ns,
                median_ticks: s.median_ticks,
                iters: s.iters,
                warning: None,
            });
            if fails > 0 {
                rows.push(Row::warning(
                    alg,
                    op.name(),
                    imp.name(),
                    &imp.backend(),
                    Some(imp.api()),
                    format!("{fails} verifications failed while timing"),
                ));
            }
        }
        // Warnings go right after the rows of the operation they concern.
        rows.extend(warnings.iter().filter(|w| w.op == op.name()).cloned());
    }
}

/// Checks one implementation against the fixture: seeded keygen gives our public keys,
/// deterministic signatures are byte-identical to ours (hedged ones verify under our
/// verifier), and it accepts our signatures.
fn check(imp: &dyn SigImpl, l: &mut dyn Loaded, fx: &Fixture) -> Vec<Row> {
    let alg = fx.ps.name();
    let w = |op: &str, msg: String| {
        Row::warning(alg, op, imp.name(), &imp.backend(), Some(imp.api()), msg)
    };
    let mut out = Vec::new();
    l.begin();

    if imp.seeded_keygen() {
        let mut bad = 0;
        for k in 0..fx.keys() {
            l.keygen(fx, k);
            if l.last_pk().as_deref() != Some(fx.pk[k].as_slice()) {
                bad += 1;
            }
            l.clear();
        }
        if bad > 0 {
            out.push(w(
                "keygen",
                format!(
                    "{bad}/{} public keys from the same ξ differ from pqsig",
                    fx.keys()
                ),
            ));
        }
    } else {
        l.keygen(fx, 0);
        if l.last_pk().map(|p| p.len()) != Some(fx.pk[0].len()) {
            out.push(w("keygen", "public key has the wrong length".into()));
        }
        l.clear();
    }

    let mut bad = 0;
    for i in 0..fx.pairs() {
        l.sign(fx, i);
        let sig = l.last_sig();
        l.clear();
        let ok = match sig {
            None => false,
            Some(s) if imp.deterministic() => s == fx.sigs[i],
            Some(s) => VerifyingKey::from_bytes(fx.ps, &fx.pk[fx.key_of[i]])
                .and_then(|vk| vk.verify(&fx.msgs[i], CTX, &s))
                .is_ok(),
        };
        if !ok {
            bad += 1;
        }
    }
    if bad > 0 {
        let what = if imp.deterministic() {
            "deterministic signatures differ from pqsig's"
        } else {
            "hedged signatures rejected by pqsig's verify"
        };
        out.push(w("sign", format!("{bad}/{} {what}", fx.pairs())));
    }

    let bad = (0..fx.pairs()).filter(|&i| !l.verify(fx, i)).count();
    if bad > 0 {
        out.push(w(
            "verify",
            format!("{bad}/{} of pqsig's signatures rejected", fx.pairs()),
        ));
    }
    out
}

/// The kernel table, interleaving the backends of each (alg, op).
fn bench_kernels(args: &Args, cap: Duration, totals: &mut Totals, rows: &mut Vec<Row>) {
    let mut cases = kernels::cases();
    let names: Vec<(&'static str, &'static str)> = cases.iter().map(|c| (c.alg, c.op)).collect();
    let plan = Plan {
        rounds: rounds(KERNEL_ROUNDS, args.scale),
        samples_per_round: KERNEL_SAMPLES_PER_ROUND,
        warmup_rounds: 1,
        max_time: cap,
    };
    let mut start = 0;
    while start < names.len() {
        let (alg, op) = names[start];
        let end = start
            + names[start..]
                .iter()
                .take_while(|n| **n == (alg, op))
                .count();
        let t = Instant::now();
        let stats = {
            let mut units: Vec<&mut dyn Unit> = cases[start..end]
                .iter_mut()
                .map(|c| &mut *c.unit as &mut dyn Unit)
                .collect();
            measure::interleaved(&mut units, plan, totals)
        };
        eprintln!(
            "[{alg}] kernel {op}: {} backends: {:.1} s",
            end - start,
            t.elapsed().as_secs_f64()
        );
        for (c, s) in cases[start..end].iter().zip(stats) {
            rows.push(Row {
                alg: c.alg.into(),
                op: c.op.into(),
                imp: "pqsig".into(),
                backend: c.backend.clone(),
                api: None,
                note: Some(format!(
                    "1 poly/call, mean of {} calls/sample",
                    c.unit.ops_per_sample()
                )),
                median_ns: s.median_ns,
                median_ticks: s.median_ticks,
                iters: s.iters,
                warning: None,
            });
        }
        start = end;
    }
}
