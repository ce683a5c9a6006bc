//! Cortex-M4 software baseline (issue 19, deliverable 6): Falcon-512/1024 and ML-DSA-44
//! on the `no_std` core with emulated binary64, under `qemu-system-arm -M mps2-an386`.
//! Built for the host, the same workload runs with native f64 and prints the expected
//! digests. Output: one JSON line per operation (docs/M4-BASELINE.md).
#![cfg_attr(target_os = "none", no_std, no_main)]

extern crate alloc;

mod workload;

#[cfg(target_os = "none")]
mod m4;

#[cfg(not(target_os = "none"))]
mod host;

#[cfg(not(target_os = "none"))]
fn main() -> std::process::ExitCode {
    host::main()
}
