//! `pqsig demo`: for every algorithm and every backend available here, generate keys,
//! sign, verify, check that tampering is caught and that backends agree, then print one
//! table of sizes and median timings. Exit 0 only if every check passed (1 otherwise).

use super::timing::{self, micros};
use crate::cli::DemoArgs;
use crate::exit::Failure;
use crate::io::Out;
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::backend;
use pqsig::{Algorithm, Backend, Error};
use std::time::{Duration, Instant};

const MESSAGE: &[u8] = b"pqsig demo: the quick brown fox jumps over the lazy dog";
const CONTEXT: &[u8] = b"pqsig-demo";

/// Self-check bookkeeping.
#[derive(Default)]
struct Checks {
    passed: usize,
    failures: Vec<String>,
}

impl Checks {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) -> bool {
        if ok {
            self.passed += 1;
        } else {
            self.failures.push(what());
        }
        ok
    }
}

/// One table row: an algorithm on a backend.
struct Row {
    alg: Algorithm,
    backend: Backend,
    pk_len: usize,
    sk_len: usize,
    sig_len: usize,
    keygen: Duration,
    sign: Duration,
    verify: Duration,
    ok: bool,
}

/// What a backend produced from the fixed seed, to compare backends.
struct Fingerprint {
    backend: Backend,
    pk: Vec<u8>,
    det_sig: Vec<u8>,
}

pub fn run(args: DemoArgs, forced: Option<Backend>) -> Result<(), Failure> {
    let algs: Vec<Algorithm> = if args.alg.is_empty() {
        Algorithm::ALL.to_vec()
    } else {
        args.alg.clone()
    };
    let backends: Vec<Backend> = match forced {
        Some(b) => vec![b],
        None => Backend::available().collect(),
    };
    let default = backend::active();
    let mut out = Out::new();
    writeln!(out, "pqsig {} demo", env!("CARGO_PKG_VERSION"))?;
    writeln!(
        out,
        "default backend: {default} ({})",
        default_source(forced)
    )?;
    let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
    writeln!(
        out,
        "backends timed: {} (* = default); median of {} runs, times in µs (sign: fixed DRBG randomness)\n",
        names.join(", "),
        args.iters
    )?;
    out.flush()?;

    let mut checks = Checks::default();
    let mut rows = Vec::new();
    for &alg in &algs {
        let mut prints = Vec::new();
        for &b in &backends {
            let (row, print) = run_one(alg, b, args.iters, &mut checks);
            rows.push(row);
            if let Some(p) = print {
                prints.push(p);
            }
        }
        if let Some((first, rest)) = prints.split_first() {
            for p in rest {
                checks.check(p.pk == first.pk, || {
                    format!(
                        "{alg}: public keys from the same seed differ ({} vs {})",
                        first.backend, p.backend
                    )
                });
                checks.check(p.det_sig == first.det_sig, || {
                    format!(
                        "{alg}: deterministic signatures differ ({} vs {})",
                        first.backend, p.backend
                    )
                });
            }
        }
    }

    print_table(&mut out, &rows, default)?;
    let total = checks.passed + checks.failures.len();
    if checks.failures.is_empty() {
        writeln!(out, "\nall {total} checks passed")?;
        out.flush()
    } else {
        writeln!(out, "\n{} of {total} checks FAILED:", checks.failures.len())?;
        for f in &checks.failures {
            writeln!(out, "  FAIL {f}")?;
        }
        out.flush()?;
        Err(Failure::invalid(format!(
            "demo: {} of {total} checks failed",
            checks.failures.len()
        )))
    }
}

/// Why the default backend is what it is.
fn default_source(forced: Option<Backend>) -> String {
    if forced.is_some() {
        return "set by --backend".to_string();
    }
    if backend::env_override().is_some() {
        return "set by PQSIG_BACKEND".to_string();
    }
    match std::env::var("PQSIG_BACKEND") {
        Ok(v) => format!("detected; PQSIG_BACKEND={v:?} ignored: unknown or unavailable"),
        Err(_) => "detected".to_string(),
    }
}

/// Checks and times one algorithm on one backend.
fn run_one(
    alg: Algorithm,
    b: Backend,
    iters: u32,
    checks: &mut Checks,
) -> (Row, Option<Fingerprint>) {
    let mut row = Row {
        alg,
        backend: b,
        pk_len: 0,
        sk_len: 0,
        sig_len: 0,
        keygen: Duration::ZERO,
        sign: Duration::ZERO,
        verify: Duration::ZERO,
        ok: false,
    };
    let before = checks.failures.len();
    let print = match exercise(alg, b, iters, checks, &mut row) {
        Ok(p) => Some(p),
        Err(e) => {
            checks
                .failures
                .push(format!("{alg} on {b}: unexpected error: {e}"));
            None
        }
    };
    row.ok = checks.failures.len() == before;
    (row, print)
}

fn exercise(
    alg: Algorithm,
    b: Backend,
    iters: u32,
    checks: &mut Checks,
    row: &mut Row,
) -> Result<Fingerprint, Error> {
    let tag = |what: &str| format!("{alg} on {b}: {what}");
    // Round-3 Falcon has no context string.
    let ctx: &[u8] = if alg.supports_context() { CONTEXT } else { b"" };
    // Reproducible randomness (the KAT DRBG with a fixed seed): every backend signs the
    // same inputs with the same random draws, and must produce the same bytes.
    let fixed_rng = || pqsig::rng::drbg::KatDrbg::new(&[0x5a; 48]);

    // Key generation (timed over distinct seeds; the keys of the fixed seed kept).
    let (keygen, sk, pk) = timing::keygen(alg, b, iters, None)?;
    let keygen = keygen.median;
    row.pk_len = pk.to_bytes().len();
    row.sk_len = sk.to_bytes().len();
    checks.check(row.pk_len == alg.public_key_len(), || {
        tag("public key has the wrong size")
    });
    checks.check(row.sk_len == alg.secret_key_len(), || {
        tag("secret key has the wrong size")
    });

    // Signing with fixed DRBG randomness over numbered messages, so that every backend
    // runs the same inputs (and the same number of rejection rounds); OS-randomized
    // signing is checked below.
    let sign = median(iters, |i| {
        let mut m = MESSAGE.to_vec();
        m.extend_from_slice(&i.to_le_bytes());
        let mut rng = fixed_rng();
        let t = Instant::now();
        let r = sk.sign_with_rng(&mut rng, &m, ctx);
        (t.elapsed(), r.map(drop))
    })?;
    let sig = sk.sign(MESSAGE, ctx)?;
    row.sig_len = sig.len();
    checks.check(sig.len() <= alg.signature_len(), || {
        tag("signature longer than the maximum")
    });

    // Verification.
    let verify = median(iters, |_| {
        let t = Instant::now();
        let r = pk.verify(MESSAGE, ctx, &sig);
        (t.elapsed(), r)
    });
    checks.check(verify.is_ok(), || tag("a fresh signature does not verify"));
    row.keygen = keygen;
    row.sign = sign;
    row.verify = verify.unwrap_or(Duration::ZERO);

    // Tampering: a flipped bit (byte 1: in ML-DSA's c~ and in Falcon's nonce, so the
    // encoding stays well-formed), another message, another context.
    let mut bad = sig.clone();
    bad[1] ^= 1;
    let r = pk.verify(MESSAGE, ctx, &bad);
    checks.check(r == Err(Error::VerificationFailed), || {
        tag(&format!("tampered signature gave {r:?}"))
    });
    let r = pk.verify(b"another message", ctx, &sig);
    checks.check(r == Err(Error::VerificationFailed), || {
        tag(&format!("wrong message gave {r:?}"))
    });
    if alg.supports_context() {
        let r = pk.verify(MESSAGE, b"", &sig);
        checks.check(r == Err(Error::VerificationFailed), || {
            tag(&format!("wrong context gave {r:?}"))
        });
    }
    let r = pk.verify(MESSAGE, ctx, &sig[..sig.len() - 1]);
    checks.check(r == Err(Error::InvalidSignature), || {
        tag(&format!("truncated signature gave {r:?}"))
    });

    // Encodings round-trip; the reloaded key signs identically.
    let det_sig = sk.sign_with_rng(&mut fixed_rng(), MESSAGE, ctx)?;
    let sk2 = SigningKey::from_bytes(alg, &sk.to_bytes())?.with_backend(b)?;
    let pk2 = VerifyingKey::from_bytes(alg, pk.to_bytes())?.with_backend(b)?;
    checks.check(sk2.check_against(&pk2).is_ok(), || {
        tag("reloaded secret key does not match the public key")
    });
    checks.check(
        sk2.sign_with_rng(&mut fixed_rng(), MESSAGE, ctx)? == det_sig,
        || tag("reloaded secret key signs differently"),
    );
    if alg.supports_deterministic() {
        checks.check(
            sk2.sign_deterministic(MESSAGE, ctx)? == sk.sign_deterministic(MESSAGE, ctx)?,
            || tag("deterministic signing is not reproducible"),
        );
    }
    checks.check(pk2.verify(MESSAGE, ctx, &det_sig).is_ok(), || {
        tag("reloaded public key rejects a valid signature")
    });

    Ok(Fingerprint {
        backend: b,
        pk: pk.to_bytes().to_vec(),
        det_sig,
    })
}

/// [`timing::median`] without a time budget.
fn median<E>(iters: u32, f: impl FnMut(u32) -> (Duration, Result<(), E>)) -> Result<Duration, E> {
    timing::median(iters, None, f).map(|s| s.median)
}

fn print_table(out: &mut Out, rows: &[Row], default: Backend) -> Result<(), Failure> {
    let aw = rows
        .iter()
        .map(|r| r.alg.name().len())
        .chain([9])
        .max()
        .unwrap_or(9);
    let bw = rows
        .iter()
        .map(|r| r.backend.name().len() + 1)
        .chain([7])
        .max()
        .unwrap_or(7);
    writeln!(
        out,
        "{:<aw$}  {:<bw$}  {:>6}  {:>6}  {:>6}  {:>10}  {:>10}  {:>10}  checks",
        "algorithm", "backend", "pk B", "sk B", "sig B", "keygen µs", "sign µs", "verify µs",
    )?;
    for r in rows {
        let backend = if r.backend == default {
            format!("{}*", r.backend)
        } else {
            r.backend.to_string()
        };
        writeln!(
            out,
            "{:<aw$}  {:<bw$}  {:>6}  {:>6}  {:>6}  {:>10}  {:>10}  {:>10}  {}",
            r.alg.name(),
            backend,
            r.pk_len,
            r.sk_len,
            r.sig_len,
            micros(r.keygen),
            micros(r.sign),
            micros(r.verify),
            if r.ok { "ok" } else { "FAIL" }
        )?;
    }
    Ok(())
}
