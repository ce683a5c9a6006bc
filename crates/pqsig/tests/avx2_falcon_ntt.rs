//! Falcon NTT kernels (q = 12289) of the AVX2 table, and of portable as the reference:
//! the bodies of `common/falcon_ntt.rs` (every kernel bit for bit against portable on
//! random, extreme and patterned inputs for every degree, batches, the NTT product
//! against a schoolbook negacyclic product, `hash_words` against its definition), plus
//! portable's own semantics. The AVX2 tests are ignored where the build host lacks AVX2
//! (build.rs) and fail where the running CPU lacks it.

mod common;
#[path = "common/falcon_ntt.rs"]
mod falcon_ntt;

use common::XorShift;
use falcon_ntt::residues;
use pqsig::kernels::falcon::ntt::{kernels, NttKernels, Q};
use pqsig::Backend;

/// Portable runs the bodies that do not compare it with itself.
mod portable {
    use super::*;

    #[test]
    fn product_matches_schoolbook() {
        falcon_ntt::product_matches_schoolbook(kernels(Backend::Portable));
    }

    #[test]
    fn hash_words_match_model() {
        falcon_ntt::hash_words_match_model(kernels(Backend::Portable));
    }

    #[test]
    fn pointwise_semantics() {
        let k = kernels(Backend::Portable);
        let mut rng = XorShift(42);
        let a = residues(&mut rng, 64);
        let c = residues(&mut rng, 64);
        let mut x = a.clone();
        (k.mul_monty)(&mut x, &c);
        (k.to_monty)(&mut x);
        for i in 0..64 {
            assert_eq!(x[i] as u64, a[i] as u64 * c[i] as u64 % Q as u64);
        }
        let mut x = a.clone();
        let ok = (k.div)(&mut x, &c);
        assert_eq!(ok, c.iter().all(|&v| v != 0));
        for i in 0..64 {
            if c[i] != 0 {
                assert_eq!(x[i] as u64 * c[i] as u64 % Q as u64, a[i] as u64);
            }
        }
        let s: Vec<i16> = vec![-12288, -1, 0, 1, 12288, -6144, 6145];
        let mut o = vec![0u16; s.len()];
        (k.from_i16)(&mut o, &s);
        assert_eq!(o, vec![1, 12288, 0, 1, 12288, 6145, 6145]);
        assert_eq!(
            (k.sqnorm_centered)(&[0, 1, 12288, 6144, 6145]),
            2 + 2 * 6144 * 6144
        );
        assert_eq!((k.sqnorm_i16)(&[-32768, 3]), 32768 * 32768 + 9);
    }
}

/// The AVX2 table (asserting that this CPU has AVX2).
fn avx2() -> &'static NttKernels {
    common::require(Backend::Avx2);
    let k = kernels(Backend::Avx2);
    assert_eq!(k.backend, Backend::Avx2);
    k
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn product_matches_schoolbook() {
    falcon_ntt::product_matches_schoolbook(avx2());
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn transforms_match_portable_random() {
    falcon_ntt::transforms_match_portable_random(avx2());
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn transforms_match_portable_patterns() {
    falcon_ntt::transforms_match_portable_patterns(avx2());
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn batches_are_independent() {
    falcon_ntt::batches_are_independent(avx2());
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn pointwise_kernels_match_portable() {
    falcon_ntt::pointwise_kernels_match_portable(avx2());
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn hash_words_match_model() {
    falcon_ntt::hash_words_match_model(avx2());
}
