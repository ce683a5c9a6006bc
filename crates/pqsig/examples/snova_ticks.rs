//! SNOVA timings in TSC ticks (medians): keygen, sign with a `SigningKey` (expands the key
//! per signature) and with an `ExpandedSigningKey`, verify with a `VerifyingKey`
//! (expands P per call) and with a `PreparedVerifyingKey`, per parameter set and backend.
//!
//! ```text
//! cargo run --release -p pqsig --example snova_ticks -- [--set SNOVA_I_S|all|shake|aes]
//!     [--backend portable|avx2|avx512|all] [--iters N]
//!     [--op keygen,sign,sign-exp,verify,verify-prep] [--clock tsc|cpu]
//! ```
//! `--clock cpu` (Linux): this thread's CPU time in ns instead of TSC ticks, so that time
//! while another process holds the core is not counted (a shared, loaded machine).
//! Defaults: all 18 sets, every available backend, 31 iterations, every operation (an
//! operation left out prints `-`: used to count one operation's instructions under
//! qemu-aarch64, docs/REPRODUCING.md). Non-x86 targets count nanoseconds instead of ticks.

use pqsig::snova::{self, ParamSet};
use pqsig::Backend;
use std::hint::black_box;

#[cfg(target_arch = "x86_64")]
fn now() -> u64 {
    // SAFETY: rdtsc has no preconditions on x86-64.
    unsafe { core::arch::x86_64::_rdtsc() }
}

#[cfg(not(target_arch = "x86_64"))]
fn now() -> u64 {
    use std::time::Instant;
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

#[cfg(target_os = "linux")]
#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

#[cfg(target_os = "linux")]
extern "C" {
    fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
}

/// This thread's CPU time in ns (Linux `CLOCK_THREAD_CPUTIME_ID`).
#[cfg(target_os = "linux")]
fn cpu_ns() -> u64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: valid pointer to a timespec; clock 3 = CLOCK_THREAD_CPUTIME_ID.
    unsafe { clock_gettime(3, &mut t) };
    t.sec as u64 * 1_000_000_000 + t.nsec as u64
}

#[cfg(not(target_os = "linux"))]
fn cpu_ns() -> u64 {
    panic!("--clock cpu needs Linux")
}

static CPU_CLOCK: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn stamp() -> u64 {
    if CPU_CLOCK.load(std::sync::atomic::Ordering::Relaxed) {
        cpu_ns()
    } else {
        now()
    }
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn time<F: FnMut()>(on: bool, iters: usize, mut f: F) -> String {
    if !on {
        return "-".to_string();
    }
    f(); // warm-up (tables, caches)
    let mut t = Vec::with_capacity(iters);
    for _ in 0..iters {
        let a = stamp();
        f();
        t.push(stamp() - a);
    }
    median(t).to_string()
}

const OPS: [&str; 5] = ["keygen", "sign", "sign-exp", "verify", "verify-prep"];

fn main() {
    let mut sets: Vec<ParamSet> = ParamSet::ALL.to_vec();
    let mut backends: Vec<Backend> = Backend::available().collect();
    let mut iters = 31usize;
    let mut ops: Vec<String> = OPS.iter().map(|s| s.to_string()).collect();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--set" => {
                sets = match val.to_ascii_lowercase().as_str() {
                    "all" => ParamSet::ALL.to_vec(),
                    "shake" => ParamSet::ALL[..9].to_vec(),
                    "aes" => ParamSet::ALL[9..].to_vec(),
                    _ => val
                        .split(',')
                        .map(|s| {
                            ParamSet::from_name(s).unwrap_or_else(|| panic!("unknown set {s}"))
                        })
                        .collect(),
                }
            }
            "--backend" => {
                backends = if val == "all" {
                    Backend::available().collect()
                } else {
                    val.split(',')
                        .map(|s| {
                            Backend::from_name(s).unwrap_or_else(|| panic!("unknown backend {s}"))
                        })
                        .collect()
                }
            }
            "--iters" => iters = val.parse().expect("--iters N"),
            "--clock" => CPU_CLOCK.store(
                match val.as_str() {
                    "cpu" => true,
                    "tsc" => false,
                    _ => panic!("--clock tsc|cpu"),
                },
                std::sync::atomic::Ordering::Relaxed,
            ),
            "--op" => {
                ops = val.split(',').map(|s| s.to_string()).collect();
                if let Some(o) = ops.iter().find(|o| !OPS.contains(&o.as_str())) {
                    panic!("unknown operation {o} (one of {OPS:?})");
                }
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    println!(
        "{:<16} {:<9} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "set", "backend", "keygen", "sign", "sign-exp", "verify", "verify-prep"
    );
    let msg = [0x5au8; 32];
    for &ps in &sets {
        for &b in &backends {
            if !b.is_available() {
                println!("{:<16} {:<9} unavailable", ps.name(), b.name());
                continue;
            }
            pqsig::backend::set_backend(b).expect("backend");
            let seed: Vec<u8> = (0..48u8).collect();
            let on = |op: &str| ops.iter().any(|o| o == op);
            let kg = time(on("keygen"), iters, || {
                black_box(snova::keygen_from_seed(ps, black_box(&seed)).unwrap());
            });
            let (sk, vk) = snova::keygen_from_seed(ps, &seed).unwrap();
            let (sk, vk) = (sk.with_backend(b).unwrap(), vk.with_backend(b).unwrap());
            let esk = sk.expand();
            let pvk = vk.prepare();
            let salt = [7u8; 16];
            // The same salts for both signers (the number of attempts depends on them).
            let mut ctr = 0u8;
            let sg = time(on("sign"), iters, || {
                ctr = ctr.wrapping_add(1);
                black_box(sk.sign_with_salt(black_box(&msg), &[ctr; 16]).unwrap());
            });
            let mut ctr = 0u8;
            let sge = time(on("sign-exp"), iters, || {
                ctr = ctr.wrapping_add(1);
                black_box(esk.sign_with_salt(black_box(&msg), &[ctr; 16]).unwrap());
            });
            let sig = esk.sign_with_salt(&msg, &salt).unwrap();
            let vf = time(on("verify"), iters, || {
                vk.verify(black_box(&msg), black_box(&sig)).unwrap();
            });
            let vfp = time(on("verify-prep"), iters, || {
                pvk.verify(black_box(&msg), black_box(&sig)).unwrap();
            });
            println!(
                "{:<16} {:<9} {:>10} {:>10} {:>10} {:>10} {:>10}",
                ps.name(),
                b.name(),
                kg,
                sg,
                sge,
                vf,
                vfp
            );
        }
    }
}
