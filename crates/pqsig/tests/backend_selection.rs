//! Backend selection: detection, the `PQSIG_BACKEND` override, pinning through the API.
//! One test function only: it mutates process-wide state (environment, cached choice),
//! so it must not run concurrently with other tests in this binary.

use pqsig::backend;
use pqsig::kernels::mldsa;
use pqsig::mldsa::ParamSet;
use pqsig::{Backend, Error};

#[test]
fn selection_logic() {
    let saved = std::env::var("PQSIG_BACKEND").ok();

    // Detection alone.
    std::env::remove_var("PQSIG_BACKEND");
    backend::reset();
    assert_eq!(backend::active(), Backend::detect());
    assert!(backend::active().is_available());
    // Detection picks the last available backend in `Backend::ALL` (fastest last).
    assert_eq!(Some(Backend::detect()), Backend::available().last());

    // The environment override, case-insensitive; unknown or unavailable values fall back
    // to detection instead of failing.
    for (val, want) in [
        ("portable", Backend::Portable),
        ("PORTABLE", Backend::Portable),
        (
            "avx2",
            if Backend::Avx2.is_available() {
                Backend::Avx2
            } else {
                Backend::detect()
            },
        ),
        (
            "avx512",
            if Backend::Avx512.is_available() {
                Backend::Avx512
            } else {
                Backend::detect()
            },
        ),
        (
            "neon",
            if Backend::Neon.is_available() {
                Backend::Neon
            } else {
                Backend::detect()
            },
        ),
        (
            "NEON",
            if Backend::Neon.is_available() {
                Backend::Neon
            } else {
                Backend::detect()
            },
        ),
        ("no-such-backend", Backend::detect()),
        ("", Backend::detect()),
    ] {
        std::env::set_var("PQSIG_BACKEND", val);
        backend::reset();
        assert_eq!(backend::active(), want, "PQSIG_BACKEND={val:?}");
        // ML-DSA has no NEON kernels: under `neon` it runs its portable table.
        let mldsa_want = if want == Backend::Neon {
            Backend::Portable
        } else {
            want
        };
        assert_eq!(mldsa::active().backend, mldsa_want);
    }

    // The choice is cached: changing the environment later has no effect until reset.
    std::env::set_var("PQSIG_BACKEND", "portable");
    backend::reset();
    assert_eq!(backend::active(), Backend::Portable);
    std::env::remove_var("PQSIG_BACKEND");
    assert_eq!(backend::active(), Backend::Portable);

    // Pinning through the API overrides everything, and new keys use it.
    backend::reset();
    for b in Backend::available() {
        backend::set_backend(b).unwrap();
        assert_eq!(backend::active(), b);
        let (sk, vk) = pqsig::mldsa::keygen_internal(ParamSet::MlDsa44, &[7u8; 32]);
        let sig = sk.sign_deterministic(b"pinned", b"").unwrap();
        assert_eq!(vk.verify(b"pinned", b"", &sig), Ok(()));
    }
    for &b in Backend::ALL {
        if !b.is_available() {
            assert_eq!(backend::set_backend(b), Err(Error::BackendUnavailable));
            assert!(pqsig::mldsa::keygen_internal_on(ParamSet::MlDsa44, &[0; 32], b).is_err());
        }
    }

    match saved {
        Some(v) => std::env::set_var("PQSIG_BACKEND", v),
        None => std::env::remove_var("PQSIG_BACKEND"),
    }
    backend::reset();
}
