//! NIST ACVP ML-DSA vectors (keyGen, sigGen, sigVer), every group kind, every backend,
//! under every NTT variant. The cases live in `common/acvp_mldsa_cases.rs` (shared with
//! the simulated accelerator's run in `crates/pqsig-hwsim/tests/acvp_rtl_ntt.rs`).

#[path = "common/acvp_mldsa_cases.rs"]
mod cases;
mod common;
use common::backends;

#[test]
fn acvp_keygen() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(|| cases::keygen(&backends()));
}

#[test]
fn acvp_siggen() {
    common::for_each_ntt(|| cases::siggen(&backends()));
}

#[test]
fn acvp_sigver() {
    common::for_each_ntt(|| cases::sigver(&backends()));
}
