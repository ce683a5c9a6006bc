//! `pqsig kat`: regenerates the NIST `.rsp` file of `PQCgenKAT_sign.c`.
//!
//! The flow, byte for byte as the NIST harness runs it:
//!
//! 1. A [`KatDrbg`] (AES-256-CTR DRBG) is seeded with the 48 bytes `00 01 .. 2f`.
//! 2. For count i = 0..N it draws `seed_i` = 48 bytes, then `msg_i` = `mlen_i` bytes with
//!    `mlen_i = 33·(i+1)` (the order in which the harness writes its `.req` file).
//! 3. For each record a fresh DRBG is seeded with `seed_i` (`randombytes_init`); then
//!    `crypto_sign_keypair` and `crypto_sign(msg_i)` draw from it:
//!    * ML-DSA (the pq-crystals reference, FIPS 204 final): KeyGen draws ξ = 32 bytes,
//!      Sign draws rnd = 32 bytes (hedged variant); pure ML-DSA with an empty context
//!      string; `sk` is the expanded key and `sm = σ || msg_i`.
//!    * Falcon (the round-3 reference): KeyGen draws 48 bytes (SHAKE256 seed); Sign draws
//!      the nonce (40 bytes) then the sampler seed (48 bytes); `sk` is the compact key;
//!      `sm = siglen || nonce || msg || 0x20+logn || comp(s2)`, or `sig(padded) || msg`
//!      for Falcon-padded-* (the liboqs / PQClean padded KATs).
//!    * FN-DSA (draft, no official KAT file exists): KeyGen draws the 32-byte seed, Sign
//!      the 40-byte seed; pure FN-DSA with an empty context; `sm = sig || msg`.
//!    * SNOVA (Round 3, the official `dist/KATs`): KeyGen draws 48 bytes (s_pub 16 ‖
//!      s_priv 32), Sign draws the 16-byte salt; `sk` is the 96-byte s_pub ‖ s_priv ‖
//!      SHAKE256(pk)[..48]; `sm = sig || msg` (the salt is the end of `sig`).
//! 4. Each `sm` is opened (verified) with `pk` before it is printed; a failure is a bug
//!    and exits with code 2.
//!
//! Since the DRBG of step 2 is independent of the per-record DRBGs, records are drawn
//! and written one at a time (same output as drawing every seed and message first).

use crate::cli::KatArgs;
use crate::exit::Failure;
use crate::io::{self, Out};
use pqsig::any::kat;
use pqsig::batch::KernelDevice;
use pqsig::kernels::device::{FalconDeviceCycles, KindCycles};
use pqsig::rng::drbg::KatDrbg;
use pqsig::Algorithm;
use serde_json::json;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `--help` text of `pqsig kat`.
pub const LONG_ABOUT: &str = "\
Write the NIST .rsp file of PQCgenKAT_sign to standard output.

The DRBG flow is that of PQCgenKAT_sign.c with each scheme's reference code:
  * an AES-256-CTR DRBG seeded with bytes 00..2f draws, for count i = 0..N-1,
    seed_i (48 bytes) then msg_i (mlen = 33*(i+1) bytes), in that interleaved order;
  * per record, a fresh DRBG seeded with seed_i supplies randombytes():
    ML-DSA: KeyGen draws xi (32 bytes), Sign draws rnd (32 bytes, hedged signing);
      pure ML-DSA, empty context; sk is the expanded key; sm = signature || msg.
    Falcon-512/1024 (round 3): KeyGen draws 48 bytes, Sign draws nonce (40) then seed
      (48); sk is the compact key; sm = siglen(2) || nonce || msg || 0x20+logn || comp(s2).
    Falcon-padded-512/1024: the same, sm = signature(666/1280) || msg.
    FN-DSA-512/1024 (draft): KeyGen draws 32 bytes, Sign 40; empty context;
      sm = signature || msg.
    SNOVA_* (Round 3, SHAKE and _AES): KeyGen draws 48 bytes (public seed 16, private
      seed 32), Sign draws the salt (16); sk = seeds || SHAKE256(pk)[..48] (96 bytes);
      sm = signature || msg (the signature ends with the salt).
Every signed message is verified before it is written (exit 2 if one fails).
With --out-dir (and --all for every algorithm) each algorithm goes to its own file,
named like the official one (PQCsignKAT_<name>.rsp; falcon512-KAT.rsp for Falcon),
with progress on stderr and a summary on stdout.
Output: '# <algorithm name>', an empty line, then per record count/seed/mlen/msg/pk/sk/smlen/sm
lines and an empty line, with upper-case hex. The first seed is 061550234D158C5E...
With --cycles FILE (and a --device that counts cycles, such as rtl-falcon in the hw-sim
build) FILE gets one JSON line per record:
  {\"alg\":\"Falcon-512\",\"count\":0,
   \"sign\":{\"fft\":{\"requests\":R,\"cycles\":C},\"ifft\":{...},\"samplerz\":{...},
           \"seconds\":S},
   \"keygen\":{...same fields...}}
where 'sign' covers crypto_sign only and 'keygen' crypto_sign_keypair; samplerz is null
when the device does not run SamplerZ (it then runs on the CPU); seconds is wall-clock
time (simulation included).";

/// The entropy `PQCgenKAT_sign` seeds its DRBG with: 00 01 .. 2f.
pub fn harness_entropy() -> [u8; 48] {
    core::array::from_fn(|i| i as u8)
}

pub fn run(args: KatArgs) -> Result<(), Failure> {
    match (&args.out_dir, args.alg) {
        (None, Some(alg)) => {
            let mut cycles = match &args.cycles {
                Some(path) => Some(CycleLog::create(path)?),
                None => None,
            };
            let mut out = Out::new();
            records(alg, args.count, cycles.as_mut(), |text| {
                write!(out, "{text}")
            })?;
            if let Some(c) = cycles {
                c.finish()?;
            }
            out.flush()
        }
        (Some(dir), alg) => {
            let algs = match alg {
                Some(a) => vec![a],
                None => Algorithm::ALL.to_vec(),
            };
            to_dir(dir, &algs, args.count, io::progress_wanted(args.progress))
        }
        // clap requires --alg unless --all, and --all requires --out-dir.
        (None, None) => Err(Failure::error("kat: --alg or --all --out-dir is required")),
    }
}

/// `--out-dir`: one `.rsp` file per algorithm (the official names), progress on stderr,
/// a summary on stdout.
fn to_dir(dir: &Path, algs: &[Algorithm], count: usize, progress: bool) -> Result<(), Failure> {
    if dir.exists() && !dir.is_dir() {
        return Err(Failure::error(format!(
            "{}: cannot create the output directory: a file of that name exists",
            io::shown(dir)
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        Failure::error(format!(
            "{}: cannot create the output directory: {}",
            io::shown(dir),
            io::describe(&e)
        ))
    })?;
    let started = Instant::now();
    let mut done = Vec::new();
    for (i, &alg) in algs.iter().enumerate() {
        let path = dir.join(kat::rsp_file_name(alg));
        if progress {
            eprintln!(
                "kat: [{}/{}] {alg}: {count} records -> {}",
                i + 1,
                algs.len(),
                path.display()
            );
        }
        let t = Instant::now();
        let fail = |e: std::io::Error| {
            Failure::error(format!(
                "{}: cannot write KAT file: {}",
                path.display(),
                io::describe(&e)
            ))
        };
        let mut file = BufWriter::new(File::create(&path).map_err(fail)?);
        records(alg, count, None, |text| {
            file.write_all(text.as_bytes()).map_err(fail)
        })?;
        file.flush().map_err(fail)?;
        done.push((path, t.elapsed()));
    }
    let mut out = Out::new();
    for (path, t) in &done {
        writeln!(
            out,
            "{}  ({count} records, {:.2} s)",
            path.display(),
            t.as_secs_f64()
        )?;
    }
    writeln!(
        out,
        "kat: {} algorithms, {} records, {:.1} s, {} files written to {}",
        algs.len(),
        algs.len() * count,
        started.elapsed().as_secs_f64(),
        done.len(),
        dir.display()
    )?;
    out.flush()
}

/// Generates the `.rsp` text of `count` records of `alg` and hands it to `emit` piece by
/// piece: the header, then one record at a time.
fn records(
    alg: Algorithm,
    count: usize,
    mut cycles: Option<&mut CycleLog>,
    mut emit: impl FnMut(&str) -> Result<(), Failure>,
) -> Result<(), Failure> {
    emit(&format!("# {}\n\n", alg.name()))?;
    let mut requests = KatDrbg::new(&harness_entropy());
    for count in 0..count {
        let mut seed = [0u8; 48];
        requests.fill(&mut seed);
        let mlen = count
            .checked_add(1)
            .and_then(|n| n.checked_mul(33))
            .ok_or_else(|| Failure::error("--count: too large"))?;
        let mut msg = vec![0u8; mlen];
        requests.fill(&mut msg);

        let mut drbg = KatDrbg::new(&seed);
        let before = cycles.as_ref().map(|c| (c.reading(), Instant::now()));
        let mut keygen_done = None;
        let rec = kat::kat_record_with(alg, &mut drbg, &msg, &mut || {
            keygen_done = cycles.as_ref().map(|c| (c.reading(), Instant::now()));
        })
        .map_err(|e| Failure::error(format!("kat: count {count}: {alg} failed: {e}")))?;
        if let (Some(c), Some(before), Some(mid)) = (cycles.as_mut(), before, keygen_done) {
            let after = (c.reading(), Instant::now());
            let keygen = (mid.0.since(before.0), mid.1 - before.1);
            let sign = (after.0.since(mid.0), after.1 - mid.1);
            c.record(alg, count, keygen, sign)?;
        }
        match kat::kat_open(alg, &rec.pk, &rec.sm) {
            Ok(opened) if opened == msg => {}
            Ok(_) => {
                return Err(Failure::error(format!(
                    "kat: count {count}: opened message differs (bug)"
                )));
            }
            Err(e) => {
                return Err(Failure::error(format!(
                    "kat: count {count}: generated signature does not verify: {e} (bug)"
                )));
            }
        }
        emit(&format!(
            "count = {count}\nseed = {}\nmlen = {mlen}\nmsg = {}\npk = {}\nsk = {}\n\
             smlen = {}\nsm = {}\n\n",
            bstr(&seed),
            bstr(&msg),
            bstr(&rec.pk),
            bstr(&rec.sk),
            rec.sm.len(),
            bstr(&rec.sm)
        ))?;
    }
    Ok(())
}

/// `--cycles FILE`: the process-wide device's running totals, read around each record's
/// key generation and signing, one JSON line per record.
struct CycleLog {
    dev: Arc<dyn KernelDevice>,
    file: BufWriter<File>,
    path: PathBuf,
}

impl CycleLog {
    fn create(path: &Path) -> Result<CycleLog, Failure> {
        let dev = pqsig::batch::kernel_device()
            .filter(|d| d.falcon_cycles().is_some())
            .ok_or_else(|| {
                Failure::error(
                    "kat --cycles: needs a --device that counts cycles (rtl-falcon, hw-sim build)",
                )
            })?;
        let file = File::create(path).map_err(|e| {
            Failure::error(format!(
                "{}: cannot create the cycles file: {}",
                io::shown(path),
                io::describe(&e)
            ))
        })?;
        Ok(CycleLog {
            dev,
            file: BufWriter::new(file),
            path: path.to_path_buf(),
        })
    }

    fn reading(&self) -> FalconDeviceCycles {
        self.dev.falcon_cycles().unwrap_or_default()
    }

    /// One line: per phase the device's requests and cycles per kind, and the phase's
    /// wall-clock time in seconds (simulation included).
    fn record(
        &mut self,
        alg: Algorithm,
        count: usize,
        keygen: (FalconDeviceCycles, Duration),
        sign: (FalconDeviceCycles, Duration),
    ) -> Result<(), Failure> {
        let kinds = |(c, t): (FalconDeviceCycles, Duration)| {
            let kind = |k: KindCycles| json!({"requests": k.requests, "cycles": k.cycles});
            json!({
                "fft": kind(c.fft),
                "ifft": kind(c.ifft),
                "samplerz": c.samplerz.map(kind),
                "seconds": t.as_secs_f64(),
            })
        };
        let line = json!({
            "alg": alg.name(),
            "count": count,
            "sign": kinds(sign),
            "keygen": kinds(keygen),
        });
        writeln!(self.file, "{line}").map_err(|e| self.fail(e))
    }

    fn finish(mut self) -> Result<(), Failure> {
        self.file.flush().map_err(|e| self.fail(e))
    }

    fn fail(&self, e: std::io::Error) -> Failure {
        Failure::error(format!(
            "{}: cannot write the cycles file: {}",
            io::shown(&self.path),
            io::describe(&e)
        ))
    }
}

/// `fprintBstr`: upper-case hex, and `00` for an empty string.
fn bstr(b: &[u8]) -> String {
    if b.is_empty() {
        "00".to_string()
    } else {
        hex::encode_upper(b)
    }
}
