//! The measured workload, identical on the M4 and on the host: fixed seeds, fixed
//! messages, every operation's output hashed (SHA-256) so that the M4 run (emulated
//! binary64) can be compared byte for byte with the host run (native f64).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use pqsig::{falcon, mldsa};
use sha2::{Digest, Sha256};

/// What one measured operation cost. `None` where the platform does not measure (host).
#[derive(Clone, Copy, Default)]
pub struct Costs {
    /// Guest instructions retired inside the operation (QEMU -icount).
    pub instructions: Option<u64>,
    /// Peak stack below the caller's stack pointer (painted-stack scan).
    pub stack_bytes: Option<u32>,
    /// Peak heap in use during the operation, above what was live before it.
    pub heap_bytes: Option<u32>,
}

/// Runs one operation and reports its costs.
pub trait Meter {
    fn measure<R>(&mut self, op: &mut dyn FnMut() -> R) -> (R, Costs);
}

/// The schemes of the baseline.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    Falcon512,
    Falcon1024,
    MlDsa44,
}

impl Alg {
    pub const ALL: [Alg; 3] = [Alg::Falcon512, Alg::Falcon1024, Alg::MlDsa44];

    pub fn name(self) -> &'static str {
        match self {
            Alg::Falcon512 => "Falcon-512",
            Alg::Falcon1024 => "Falcon-1024",
            Alg::MlDsa44 => "ML-DSA-44",
        }
    }
}

/// Which schemes and operations to run, from the command-line words.
pub struct Plan {
    pub algs: Vec<Alg>,
    /// Falcon's expanded-key path too (`expand`, `sign_expanded`); off in the short form.
    pub expanded: bool,
}

/// A word the plan does not know.
#[derive(Debug)]
pub struct UnknownWord(pub String);

impl Plan {
    /// Words: `short` (Falcon-512 and ML-DSA-44, no expanded-key path), scheme names
    /// (`Falcon-512`, `Falcon-1024`, `ML-DSA-44`; case-insensitive). No scheme named: all.
    pub fn parse<'a>(words: impl Iterator<Item = &'a str>) -> Result<Plan, UnknownWord> {
        let mut algs = Vec::new();
        let mut short = false;
        for w in words {
            if w.eq_ignore_ascii_case("short") || w == "--short" {
                short = true;
            } else if let Some(a) = Alg::ALL.iter().find(|a| a.name().eq_ignore_ascii_case(w)) {
                algs.push(*a);
            } else {
                return Err(UnknownWord(String::from(w)));
            }
        }
        if algs.is_empty() {
            algs = if short {
                alloc::vec![Alg::Falcon512, Alg::MlDsa44]
            } else {
                Alg::ALL.to_vec()
            };
        }
        Ok(Plan {
            algs,
            expanded: !short,
        })
    }
}

/// Why the workload stopped.
#[derive(Debug)]
pub enum Failure {
    /// The library returned an error.
    Library(&'static str, &'static str, pqsig::Error),
    /// A signature did not verify, or two paths disagreed.
    Check(&'static str, &'static str),
}

impl core::fmt::Display for Failure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Failure::Library(alg, op, e) => write!(f, "{alg} {op}: {e:?}"),
            Failure::Check(alg, what) => write!(f, "{alg}: {what} failed"),
        }
    }
}

const MESSAGE: &[u8] = b"pqsig Cortex-M4 software baseline, issue 19 deliverable 6";

/// A fixed byte pattern (not secret, not random: reproducibility is the point).
fn pattern<const N: usize>(tag: u8) -> [u8; N] {
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = tag.wrapping_mul(31).wrapping_add(i as u8).wrapping_mul(7) ^ 0x5a;
    }
    out
}

fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in d.iter() {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// One JSON line: `{"alg","op","bytes","digest"[,"instructions","stack_bytes","heap_bytes"]}`.
fn record(alg: Alg, op: &str, output: &[u8], c: &Costs) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "{{\"alg\":\"{}\",\"op\":\"{}\",\"bytes\":{},\"digest\":\"{}\"",
        alg.name(),
        op,
        output.len(),
        sha256_hex(output)
    );
    if let Some(i) = c.instructions {
        let _ = write!(s, ",\"instructions\":{i}");
    }
    if let Some(b) = c.stack_bytes {
        let _ = write!(s, ",\"stack_bytes\":{b}");
    }
    if let Some(b) = c.heap_bytes {
        let _ = write!(s, ",\"heap_bytes\":{b}");
    }
    s.push('}');
    s
}

/// Runs the plan, handing each JSON line to `emit` as soon as it is known.
pub fn run(plan: &Plan, meter: &mut impl Meter, emit: &mut dyn FnMut(&str)) -> Result<(), Failure> {
    for &alg in &plan.algs {
        match alg {
            Alg::Falcon512 => falcon_ops(alg, falcon::ParamSet::Falcon512, plan, meter, emit)?,
            Alg::Falcon1024 => falcon_ops(alg, falcon::ParamSet::Falcon1024, plan, meter, emit)?,
            Alg::MlDsa44 => mldsa_ops(alg, mldsa::ParamSet::MlDsa44, meter, emit)?,
        }
    }
    Ok(())
}

fn falcon_ops(
    alg: Alg,
    ps: falcon::ParamSet,
    plan: &Plan,
    meter: &mut impl Meter,
    emit: &mut dyn FnMut(&str),
) -> Result<(), Failure> {
    let name = alg.name();
    let seed: [u8; 48] = pattern(1);
    let nonce: [u8; 40] = pattern(2);
    let sign_seed: [u8; 48] = pattern(3);

    let (kp, c) = meter.measure(&mut || falcon::keygen_from_seed(ps, &seed));
    let (sk, vk) = kp.map_err(|e| Failure::Library(name, "keygen", e))?;
    emit(&record(alg, "keygen", vk.to_bytes(), &c));

    // Signing from the compact key: the LDL tree is rebuilt inside every signature (the
    // reference implementation's sign_dyn, which pqm4 and the paper measure).
    let (sig, c) = meter.measure(&mut || sk.sign_with_nonce_and_seed(MESSAGE, &nonce, &sign_seed));
    let sig = sig.map_err(|e| Failure::Library(name, "sign", e))?;
    emit(&record(alg, "sign", &sig, &c));

    let (ok, c) = meter.measure(&mut || vk.verify(MESSAGE, &sig));
    ok.map_err(|_| Failure::Check(name, "verify"))?;
    emit(&record(alg, "verify", &sig, &c));

    if plan.expanded {
        let (ek, c) = meter.measure(&mut || sk.expand());
        emit(&record(alg, "expand", &[], &c));
        let (sig2, c) =
            meter.measure(&mut || ek.sign_with_nonce_and_seed(MESSAGE, &nonce, &sign_seed));
        let sig2 = sig2.map_err(|e| Failure::Library(name, "sign_expanded", e))?;
        emit(&record(alg, "sign_expanded", &sig2, &c));
        if sig2 != sig {
            return Err(Failure::Check(name, "sign_expanded differs from sign"));
        }
    }
    Ok(())
}

fn mldsa_ops(
    alg: Alg,
    ps: mldsa::ParamSet,
    meter: &mut impl Meter,
    emit: &mut dyn FnMut(&str),
) -> Result<(), Failure> {
    let name = alg.name();
    let seed: [u8; 32] = pattern(4);
    let rnd: [u8; 32] = pattern(5);

    let ((sk, vk), c) = meter.measure(&mut || mldsa::keygen_internal(ps, &seed));
    emit(&record(alg, "keygen", vk.to_bytes(), &c));

    // Hedged signing with a fixed rnd (FIPS 204 Alg. 2), empty context.
    let (sig, c) = meter.measure(&mut || sk.sign_with_rnd(MESSAGE, &[], &rnd));
    let sig = sig.map_err(|e| Failure::Library(name, "sign", e))?;
    emit(&record(alg, "sign", &sig, &c));

    let (ok, c) = meter.measure(&mut || vk.verify(MESSAGE, &[], &sig));
    ok.map_err(|_| Failure::Check(name, "verify"))?;
    emit(&record(alg, "verify", &sig, &c));
    Ok(())
}
