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
    pqsig::kernels::ntt::select::for_each_variant(|_| cases::keygen(&backends()));
}

#[test]
fn acvp_siggen() {
    pqsig::kernels::ntt::select::for_each_variant(|_| cases::siggen(&backends()));
}

#[test]
fn acvp_sigver() {
    pqsig::kernels::ntt::select::for_each_variant(|_| cases::sigver(&backends()));
}
