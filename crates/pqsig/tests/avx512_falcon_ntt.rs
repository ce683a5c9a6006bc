//! Falcon NTT kernels (q = 12289) of the AVX-512 table: the bodies of
//! `common/falcon_ntt.rs` (every kernel bit for bit against portable on random, extreme
//! and patterned inputs for every degree, batches, the NTT product against a schoolbook
//! negacyclic product, `hash_words` against its definition). Ignored where the build
//! host lacks AVX-512 (build.rs); failing where the running CPU lacks it.

mod common;
#[path = "common/falcon_ntt.rs"]
mod falcon_ntt;

use pqsig::kernels::falcon::ntt::{kernels, NttKernels};
use pqsig::Backend;

/// The AVX-512 table (asserting that this CPU has AVX-512).
fn avx512() -> &'static NttKernels {
    common::require(Backend::Avx512);
    let k = kernels(Backend::Avx512);
    assert_eq!(k.backend, Backend::Avx512);
    k
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn product_matches_schoolbook() {
    falcon_ntt::product_matches_schoolbook(avx512());
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn transforms_match_portable_random() {
    falcon_ntt::transforms_match_portable_random(avx512());
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn transforms_match_portable_patterns() {
    falcon_ntt::transforms_match_portable_patterns(avx512());
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn batches_are_independent() {
    falcon_ntt::batches_are_independent(avx512());
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn pointwise_kernels_match_portable() {
    falcon_ntt::pointwise_kernels_match_portable(avx512());
}

#[test]
#[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
fn hash_words_match_model() {
    falcon_ntt::hash_words_match_model(avx512());
}
