//! Build-time ISA cfgs for the per-ISA tests (docs/ARCHITECTURE.md, "Per-ISA tests").
//!
//! A test of an ISA's kernels carries
//! `#[cfg_attr(not(pqsig_test_<isa>), ignore = "...")]`, so that a CPU without the ISA
//! reports it as ignored rather than as a pass. The cfgs say what the machine that will
//! run the tests has:
//!
//! * `pqsig_test_avx2`, `pqsig_test_avx512`: set when the target is the build host
//!   (a native build, where the tests run on this CPU) and the host has the features the
//!   `avx2` / `avx512` backends need (the same list as `kernels/select.rs`). A cross
//!   build to x86-64 sets neither: its tests are ignored there.
//! * `pqsig_test_aesni`, `pqsig_test_vaes`: the same for SNOVA's AES engines (AES-NI;
//!   VAES with AVX-512F/BW), as `kernels/aes` detects them;
//! * `pqsig_test_neon`: set for every AArch64 target (NEON is mandatory there), so the
//!   NEON tests run under qemu-aarch64 too.
//!
//! The library itself never reads these cfgs: kernel selection stays run-time detection.
//! Each test also asserts, at run time, that the backend is available, so a target folder
//! built on another machine fails loudly instead of passing.

fn main() {
    println!(
        "cargo::rustc-check-cfg=cfg(pqsig_test_avx2, pqsig_test_avx512, pqsig_test_neon, \
         pqsig_test_aesni, pqsig_test_vaes)"
    );
    println!("cargo::rerun-if-changed=build.rs");
    let target_arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let native = std::env::var("HOST").ok() == std::env::var("TARGET").ok();
    match target_arch.as_str() {
        "aarch64" => println!("cargo::rustc-cfg=pqsig_test_neon"),
        "x86_64" if native => emit_x86_host_cfgs(),
        _ => {}
    }
}

/// The host's AVX2 / AVX-512 support, as `kernels/select.rs` detects it at run time.
#[cfg(target_arch = "x86_64")]
fn emit_x86_host_cfgs() {
    let avx2 = std::is_x86_feature_detected!("avx2");
    let avx512 = avx2
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512dq");
    if avx2 {
        println!("cargo::rustc-cfg=pqsig_test_avx2");
    }
    if avx512 {
        println!("cargo::rustc-cfg=pqsig_test_avx512");
    }
    // The AES engines, as `kernels/aes/mod.rs` detects them.
    let aesni = std::is_x86_feature_detected!("aes") && std::is_x86_feature_detected!("sse2");
    if aesni {
        println!("cargo::rustc-cfg=pqsig_test_aesni");
    }
    if aesni
        && std::is_x86_feature_detected!("vaes")
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
    {
        println!("cargo::rustc-cfg=pqsig_test_vaes");
    }
}

/// A build script compiled for another host architecture with an x86-64 target equal
/// to the host cannot happen; nothing to emit.
#[cfg(not(target_arch = "x86_64"))]
fn emit_x86_host_cfgs() {}
