//! pqsig-bench: keygen / sign / verify of pqsig (every available backend, several API
//! forms) against peer implementations — ML-DSA (FIPS 204), round-3 Falcon and FN-DSA
//! (draft) — all in one process, interleaved round-robin, on the same keys and messages;
//! SNOVA Round 3 (all 18 sets; no peer crate exists: the official code's published and
//! measured figures are printed as reference lines, with a portable-vs-SIMD summary);
//! plus the arithmetic kernels alone per backend (ML-DSA NTT; Falcon FFT, iFFT,
//! SamplerZ; SNOVA GF(16) gemm / batched products / solve per l, and the seed XOFs).
//!
//! ```text
//! CARGO_TARGET_DIR=target-bench cargo run -p pqsig-bench --release -- [options]
//! ```
//! See `--help` and README.md.

mod batch;
mod kernels;
mod measure;
mod peers;
mod report;

use measure::{Plan, Totals, Unit};
use peers::{Alg, Family, Fixture, Loaded, Op, OpUnit, SigImpl};
use report::Row;
use std::time::{Duration, Instant};

const HELP: &str = "\
pqsig-bench: ML-DSA (FIPS 204), Falcon (round 3), FN-DSA (draft) and SNOVA (Round 3)
benchmark, pqsig against peer implementations (SNOVA: against reference figures)

USAGE: cargo run -p pqsig-bench --release [--features fpr-emulated] -- [OPTIONS]

OPTIONS:
  --json               JSON lines on stdout (the table goes to stderr)
  --filter SUBSTRING   only algorithms whose name contains SUBSTRING (case-insensitive);
                       kernel rows count as alg \"ML-DSA\", \"Falcon-512\", \"Falcon-1024\",
                       \"SNOVA l=4\", \"SNOVA l=5\" (GF(16) kernels) and \"SNOVA_<set>\" (XOFs);
                       e.g. --filter snova: the 18 SNOVA sets and their kernels only
  --impl SUBSTRING     only implementations whose name contains SUBSTRING
  --iters-scale F      multiply every iteration count by F (default 1; e.g. 0.1 for a smoke run)
  --keys N             keys per parameter set (default 16)
  --msgs-per-key M     messages per key (default 4; pairs = N x M, at least 64 by default)
  --msg-len L          message length in bytes (default 32)
  --padded             also Falcon-padded-512 / Falcon-padded-1024
  --no-kernels         skip the kernel rows
  --batch N            items per batch call in the batch rows (default 64; N distinct keys)
  --no-batch           skip the batch rows (pqsig's batch engine against a loop of single
                       calls: verify_batch / sign_batch at 1 and 2 threads, bytes and
                       object keys; ML-DSA-44/65/87, Falcon-512, FN-DSA-512, SNOVA_I_S)
  --no-schemes         skip the per-scheme rows (kernel and batch rows stay; with
                       --no-kernels: the batch rows alone)
  -h, --help           this text

EMULATED FLOATING POINT: built with `--features fpr-emulated`, pqsig's Falcon and FN-DSA
use the integer emulation of binary64. Such a build runs only pqsig's Falcon / FN-DSA rows
and the Falcon kernels (ML-DSA and the peers do not depend on it); its rows carry
\"fpr\":\"emulated\" and the note \"emulated fpr\". Run the bench twice and concatenate:
  B=\"cargo run -p pqsig-bench --release\"
  CARGO_TARGET_DIR=target-bench $B -- --json > bench.jsonl
  CARGO_TARGET_DIR=target-bench $B --features fpr-emulated -- --json >> bench.jsonl
  scripts/bench-report.py bench.jsonl
";

struct Args {
    json: bool,
    filter: Option<String>,
    imp: Option<String>,
    scale: f64,
    keys: usize,
    msgs_per_key: usize,
    msg_len: usize,
    padded: bool,
    kernels: bool,
    schemes: bool,
    batch: usize,
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
        padded: false,
        kernels: true,
        schemes: true,
        batch: 64,
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
            "--padded" => a.padded = true,
            "--no-kernels" => a.kernels = false,
            "--no-batch" => a.batch = 0,
            "--batch" => {
                a.batch = value("--batch")?
                    .parse()
                    .map_err(|e| format!("--batch: {e}"))?;
                if a.batch == 0 {
                    return Err("--batch must be at least 1 (or use --no-batch)".into());
                }
            }
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

/// Rounds of each measurement at scale 1, per family (the per-round batch is one sample
/// per key for keygen, one per (key, message) pair for sign and verify).
/// Chosen so that the full run takes about 3 minutes for ML-DSA and about as long for
/// Falcon and FN-DSA on a 2-core Xeon; the per-group cap bounds the worst case (the
/// emulated-float build and PQClean's clean Falcon are much slower).
struct Budget {
    keygen: f64,
    sign: f64,
    verify: f64,
}

fn budget(alg: Alg, emulated: bool) -> Budget {
    if let Alg::Snova(ps) = alg {
        // SNOVA: no peers, but 3 API forms × every backend, and the portable rows are
        // slow (up to milliseconds per signature for the level-V sets): fewer rounds for
        // the larger sets (still ≥ 256 samples per sign / verify row at scale 1).
        return match ps.v() {
            v if v < 30 => Budget {
                keygen: 24.0,
                sign: 8.0,
                verify: 8.0,
            },
            _ => Budget {
                keygen: 16.0,
                sign: 4.0,
                verify: 4.0,
            },
        };
    }
    match alg.family() {
        // The emulated-float build signs ~10-20x slower: fewer rounds (still 512 samples
        // per sign row).
        Family::Falcon | Family::FnDsa if emulated => Budget {
            keygen: 8.0,
            sign: 8.0,
            verify: 320.0,
        },
        Family::MlDsa => Budget {
            keygen: 400.0,
            sign: 256.0,
            verify: 320.0,
        },
        // Falcon keygen is milliseconds (NTRU solving); sign a few hundred µs.
        Family::Falcon | Family::FnDsa => Budget {
            keygen: 16.0,
            sign: 32.0,
            verify: 320.0,
        },
        Family::Snova => unreachable!("handled above"),
    }
}
const KERNEL_ROUNDS: f64 = 320.0;
/// Batch calls per batch-row unit at scale 1 (each call is `--batch` items).
const BATCH_ROUNDS: f64 = 40.0;
const KERNEL_SAMPLES_PER_ROUND: usize = 64;
/// Safety cap per measurement group (one alg × op, all implementations), at scale 1.
const GROUP_CAP_SECS: f64 = 60.0;
/// The same for one kernel group (one alg × op, all backends); only the emulated-float
/// FFT gets near it.
const KERNEL_CAP_SECS: f64 = 10.0;

fn rounds(base: f64, scale: f64) -> usize {
    ((base * scale).round() as usize).max(1)
}

/// The CPU as /proc/cpuinfo gives it: model name, family / model / stepping (a VM's model
/// name can be as bare as "AMD EPYC"), and the flags that decide the backends.
fn cpu_description() -> String {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return "unknown CPU".into();
    };
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_else(|| "?".into())
    };
    let flags = field("flags");
    const WANTED: [&str; 12] = [
        "avx2",
        "bmi2",
        "avx512f",
        "avx512vl",
        "avx512bw",
        "avx512dq",
        "avx512ifma",
        "avx512vbmi",
        "gfni",
        "vaes",
        "sha_ni",
        "aes",
    ];
    let have: Vec<&str> = WANTED
        .iter()
        .copied()
        .filter(|w| flags.split_whitespace().any(|f| f == *w))
        .collect();
    format!(
        "{} (family {}, model {}, stepping {}; {})",
        field("model name"),
        field("cpu family"),
        field("model"),
        field("stepping"),
        have.join(" ")
    )
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

    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    eprintln!(
        "pqsig-bench: {}, {threads} hardware thread(s)",
        cpu_description()
    );
    // Which one-state Keccak each backend measured fastest on this CPU (f1600_choice).
    eprintln!(
        "pqsig-bench: one-state Keccak: {}",
        pqsig::Backend::available()
            .map(|b| format!(
                "{} {}",
                b.name(),
                pqsig::kernels::keccak::f1600_choice::chosen(b).name()
            ))
            .collect::<Vec<_>>()
            .join(", ")
    );
    eprintln!(
        "pqsig-bench: backends available: {}; {} key(s) x {} message(s) of {} bytes per parameter set",
        pqsig::Backend::available().map(|b| b.name()).collect::<Vec<_>>().join(", "),
        args.keys,
        args.msgs_per_key,
        args.msg_len
    );

    let emulated = peers::emulated_fpr();
    if emulated {
        eprintln!(
            "pqsig-bench: emulated-float build (fpr-emulated): pqsig's Falcon / FN-DSA rows and \
             the Falcon kernels only"
        );
    }

    if args.schemes {
        for alg in Alg::all(args.padded) {
            // The emulated-float build changes only Falcon / FN-DSA.
            let fpr_family = matches!(alg.family(), Family::Falcon | Family::FnDsa);
            if !matches(&args.filter, alg.name()) || (emulated && !fpr_family) {
                continue;
            }
            let impls: Vec<Box<dyn SigImpl>> = peers::for_alg(alg)
                .into_iter()
                .filter(|i| matches(&args.imp, i.name()))
                .collect();
            bench_alg(alg, &impls, &args, cap, &mut totals, &mut rows);
        }
    }

    // Batch rows (schemes only; the emulated-float build has no batch rows).
    if args.batch > 0 && !emulated && matches(&args.imp, "pqsig") {
        for name in batch::ALGS {
            if !matches(&args.filter, name) {
                continue;
            }
            let t = Instant::now();
            let rounds = rounds(BATCH_ROUNDS, args.scale);
            let got = batch::bench(name, args.batch, rounds, cap, &mut totals);
            eprintln!(
                "[{name}] batch rows ({} items): {:.1} s",
                args.batch,
                t.elapsed().as_secs_f64()
            );
            rows.extend(got);
        }
    }

    if args.kernels && matches(&args.imp, "pqsig") {
        let cap = Duration::from_secs_f64(KERNEL_CAP_SECS * args.scale.max(1.0));
        bench_kernels(&args, emulated, cap, &mut totals, &mut rows);
    }

    let mut table = report::table(&rows);
    table.push_str(&report::snova_summary(&rows));
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

/// The note of a row: the implementation's, plus "emulated fpr" for emulated binary64.
fn row_note(note: Option<String>, fpr: Option<&str>) -> Option<String> {
    const EMU: &str = "emulated fpr";
    match (note, fpr) {
        (Some(n), Some("emulated")) if !n.contains(EMU) => Some(format!("{n}; {EMU}")),
        (None, Some("emulated")) => Some(EMU.into()),
        (n, _) => n,
    }
}

fn impl_warning(alg: &str, op: &str, imp: &dyn SigImpl, msg: String) -> Row {
    Row::warning(alg, op, imp.name(), &imp.backend(), Some(imp.api()), msg)
}

/// Loads, checks and measures every implementation on one parameter set.
fn bench_alg(
    alg: Alg,
    impls: &[Box<dyn SigImpl>],
    args: &Args,
    cap: Duration,
    totals: &mut Totals,
    rows: &mut Vec<Row>,
) {
    let name = alg.name();
    let t = Instant::now();
    let fx = Fixture::new(alg, args.keys, args.msgs_per_key, args.msg_len);
    eprintln!(
        "[{name}] {} keys, {} (key, message) pairs (fixture: {:.1} s)",
        fx.keys(),
        fx.pairs(),
        t.elapsed().as_secs_f64()
    );

    // Load every implementation; the ones that fail become warning rows.
    let mut loaded: Vec<(&dyn SigImpl, Box<dyn Loaded>)> = Vec::new();
    for imp in impls {
        match imp.load(&fx) {
            Ok(l) => loaded.push((imp.as_ref(), l)),
            Err(e) => rows.push(impl_warning(
                name,
                "load",
                imp.as_ref(),
                format!("could not load keys: {e}"),
            )),
        }
    }

    // Correctness checks (untimed); stand-ins are checked in their own group.
    let mut warnings = Vec::new();
    for (imp, l) in loaded.iter_mut() {
        if !imp.stand_in() {
            warnings.extend(check(*imp, l.as_mut(), &fx));
        }
    }

    let b = budget(alg, peers::emulated_fpr());
    for op in Op::ALL {
        let (base, per_round) = match op {
            Op::Keygen => (b.keygen, fx.keys()),
            Op::Sign => (b.sign, fx.pairs()),
            Op::Verify => (b.verify, fx.pairs()),
        };
        let plan = Plan {
            rounds: rounds(base, args.scale),
            samples_per_round: per_round,
            warmup_rounds: 1,
            max_time: cap,
        };
        let t = Instant::now();
        let mut timed: Vec<&dyn SigImpl> = Vec::new();
        let mut units: Vec<OpUnit> = Vec::new();
        for (imp, l) in loaded.iter_mut() {
            if imp.runs(op) {
                timed.push(*imp);
                units.push(OpUnit {
                    loaded: l.as_mut(),
                    fx: &fx,
                    op,
                    failures: 0,
                });
            }
        }
        let stats = {
            let mut dyn_units: Vec<&mut dyn Unit> =
                units.iter_mut().map(|u| u as &mut dyn Unit).collect();
            measure::interleaved(&mut dyn_units, plan, totals)
        };
        eprintln!(
            "[{name}] {:<6} {} impls x {} rounds x {} samples: {:.1} s",
            op.name(),
            units.len(),
            plan.rounds,
            per_round,
            t.elapsed().as_secs_f64()
        );
        let failures: Vec<usize> = units.iter().map(|u| u.failures).collect();
        drop(units);
        for ((imp, s), fails) in timed.iter().zip(stats.iter()).zip(failures) {
            rows.push(Row {
                alg: name.into(),
                op: op.name().into(),
                imp: imp.name().into(),
                backend: imp.backend(),
                api: Some(imp.api().into()),
                fpr: imp.fpr().map(Into::into),
                variant: None,
                note: row_note(imp.note(alg, op), imp.fpr()),
                median_ns: s.median_ns,
                median_ticks: s.median_ticks,
                iters: s.iters,
                warning: None,
                batch: None,
                threads: None,
            });
            if fails > 0 {
                rows.push(impl_warning(
                    name,
                    op.name(),
                    *imp,
                    format!("{fails} verifications failed while timing"),
                ));
            }
        }
        // Warnings go right after the rows of the operation they concern.
        rows.extend(warnings.iter().filter(|w| w.op == op.name()).cloned());
    }
}

/// Checks one implementation against the fixture: seeded keygen gives our public keys,
/// signatures from the fixture's randomness are byte-identical to ours (the others
/// verify under our verifier), and it accepts our signatures.
fn check(imp: &dyn SigImpl, l: &mut dyn Loaded, fx: &Fixture) -> Vec<Row> {
    let alg = fx.alg.name();
    let w = |op: &str, msg: String| impl_warning(alg, op, imp, msg);
    let mut out = Vec::new();
    l.begin();

    if !imp.runs(Op::Keygen) {
        // Nothing to check.
    } else if imp.seeded_keygen() {
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
                    "{bad}/{} public keys from the same seed differ from pqsig",
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

    if imp.runs(Op::Sign) {
        let mut bad = 0;
        for i in 0..fx.pairs() {
            l.sign(fx, i);
            let sig = l.last_sig();
            l.clear();
            let ok = match sig {
                None => false,
                Some(s) if imp.deterministic() => s == fx.sigs[i],
                Some(s) => fx.verify_ref(i, &s),
            };
            if !ok {
                bad += 1;
            }
        }
        if bad > 0 {
            let what = match (imp.deterministic(), fx.alg.family()) {
                (true, Family::MlDsa) => "deterministic signatures differ from pqsig's",
                (true, _) => "signatures from the same randomness differ from pqsig's",
                (false, Family::MlDsa) => "hedged signatures rejected by pqsig's verify",
                (false, _) => "signatures rejected by pqsig's verify",
            };
            out.push(w("sign", format!("{bad}/{} {what}", fx.pairs())));
        }
    }

    if imp.runs(Op::Verify) {
        let bad = (0..fx.pairs()).filter(|&i| !l.verify(fx, i)).count();
        if bad > 0 {
            out.push(w(
                "verify",
                format!("{bad}/{} of pqsig's signatures rejected", fx.pairs()),
            ));
        }
    }
    out
}

/// The kernel table, interleaving the backends of each (alg, op). The emulated-float
/// build has only the Falcon kernels.
fn bench_kernels(
    args: &Args,
    emulated: bool,
    cap: Duration,
    totals: &mut Totals,
    rows: &mut Vec<Row>,
) {
    let mut cases: Vec<kernels::KernelCase> = kernels::cases()
        .into_iter()
        .filter(|c| matches(&args.filter, c.alg) && (!emulated || c.fpr.is_some()))
        .collect();
    let names: Vec<(&'static str, &'static str)> = cases.iter().map(|c| (c.alg, c.op)).collect();
    let mut start = 0;
    while start < names.len() {
        let (alg, op) = names[start];
        let end = start
            + names[start..]
                .iter()
                .take_while(|n| **n == (alg, op))
                .count();
        let (base_rounds, per_round) = cases[start]
            .plan
            .unwrap_or((KERNEL_ROUNDS, KERNEL_SAMPLES_PER_ROUND));
        let plan = Plan {
            rounds: rounds(base_rounds, args.scale),
            samples_per_round: per_round,
            warmup_rounds: 1,
            max_time: cap,
        };
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
                fpr: c.fpr.map(Into::into),
                variant: c.variant.map(Into::into),
                note: row_note(Some(c.note.clone()), c.fpr),
                median_ns: s.median_ns,
                median_ticks: s.median_ticks,
                iters: s.iters,
                warning: None,
                batch: None,
                threads: None,
            });
        }
        start = end;
    }
}
