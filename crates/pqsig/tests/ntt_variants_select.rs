//! NTT variant selection: the `PQSIG_NTT` override, pinning through the API, the
//! per-(modulus, backend) defaults, and that `mldsa::kernels` / `falcon::ntt::kernels`
//! hand out the table of the selected variant. One test function only: it mutates
//! process-wide state (environment, cached choice).

use pqsig::kernels::falcon::ntt as fntt;
use pqsig::kernels::mldsa;
use pqsig::kernels::ntt::select::{
    self, clear_ntt_variant, default_variant, pinned, set_ntt_variant, variant_for, Modulus,
};
use pqsig::kernels::ntt::{falcon_kernels, mldsa_kernels, NttVariant};
use pqsig::Backend;

fn tables_are(v: NttVariant) {
    for &b in Backend::ALL {
        assert!(
            std::ptr::eq(mldsa::kernels(b), mldsa_kernels(b, v)),
            "mldsa {b} {v}"
        );
        assert!(
            std::ptr::eq(fntt::kernels(b), falcon_kernels(b, v)),
            "falcon {b} {v}"
        );
        // The rest of the table is the backend's own.
        assert_eq!(mldsa::kernels(b).backend, mldsa::base_kernels(b).backend);
        assert_eq!(
            mldsa::kernels(b).pointwise_montgomery as usize,
            mldsa::base_kernels(b).pointwise_montgomery as usize
        );
        assert_eq!(fntt::kernels(b).backend, fntt::base_kernels(b).backend);
        assert_eq!(
            fntt::kernels(b).mul_monty as usize,
            fntt::base_kernels(b).mul_monty as usize
        );
    }
}

/// Without an override every table carries its pair's default variant.
/// (The default is the one of the backend whose kernels run: portable's for NEON and for
/// unavailable backends.)
fn defaults_apply() {
    for &b in Backend::ALL {
        let (me, fe) = (
            mldsa::base_kernels(b).backend,
            fntt::base_kernels(b).backend,
        );
        assert!(std::ptr::eq(
            mldsa::kernels(b),
            mldsa_kernels(b, default_variant(Modulus::MlDsa, me))
        ));
        assert!(std::ptr::eq(
            fntt::kernels(b),
            falcon_kernels(b, default_variant(Modulus::Falcon, fe))
        ));
    }
}

#[test]
fn ntt_variant_selection() {
    let saved = std::env::var("PQSIG_NTT").ok();

    // No override: the measured defaults — today's kernels (radix-2) except radix-4 for
    // ML-DSA on portable and for Falcon on AVX2.
    std::env::remove_var("PQSIG_NTT");
    select::reset();
    assert_eq!(pinned(), None);
    for &b in Backend::ALL {
        for m in [Modulus::MlDsa, Modulus::Falcon] {
            assert_eq!(variant_for(m, b), default_variant(m, b));
        }
        let want = if b == Backend::Portable {
            NttVariant::Radix4
        } else {
            NttVariant::Radix2
        };
        assert_eq!(default_variant(Modulus::MlDsa, b), want);
        let want = if b == Backend::Avx2 {
            NttVariant::Radix4
        } else {
            NttVariant::Radix2
        };
        assert_eq!(default_variant(Modulus::Falcon, b), want);
        if b.is_available() && b != Backend::Portable && b != Backend::Neon {
            assert!(std::ptr::eq(mldsa::kernels(b), mldsa::base_kernels(b)));
        }
        // Falcon: every backend's own table is its production one (AVX2's own transform
        // is the radix-4 one, so there radix-2 is the study's copy).
        assert!(std::ptr::eq(fntt::kernels(b), fntt::base_kernels(b)));
        if b == Backend::Avx2 && b.is_available() {
            assert!(std::ptr::eq(
                falcon_kernels(b, NttVariant::Radix4),
                fntt::base_kernels(b)
            ));
            assert!(!std::ptr::eq(
                falcon_kernels(b, NttVariant::Radix2),
                fntt::base_kernels(b)
            ));
        }
    }
    defaults_apply();

    // The environment override, case-insensitive; unknown values are ignored.
    for &v in NttVariant::ALL {
        for name in [
            v.name().to_string(),
            v.name().to_uppercase(),
            format!(" {} ", v.name()),
        ] {
            std::env::set_var("PQSIG_NTT", &name);
            select::reset();
            assert_eq!(pinned(), Some(v), "PQSIG_NTT={name:?}");
            tables_are(v);
        }
    }
    for bad in ["radix3", "", "winograd"] {
        std::env::set_var("PQSIG_NTT", bad);
        select::reset();
        assert_eq!(pinned(), None, "PQSIG_NTT={bad:?}");
        defaults_apply();
    }

    // The API pin wins over the environment; clearing restores the defaults and the
    // environment is read again only after a reset.
    std::env::set_var("PQSIG_NTT", "winograd16");
    select::reset();
    for &v in NttVariant::ALL {
        set_ntt_variant(v);
        assert_eq!(pinned(), Some(v));
        tables_are(v);
    }
    clear_ntt_variant();
    assert_eq!(pinned(), None);
    defaults_apply();
    select::reset();
    assert_eq!(pinned(), Some(NttVariant::Winograd16));

    // for_each_variant visits every variant and restores the previous state.
    set_ntt_variant(NttVariant::Radix4);
    let mut seen = Vec::new();
    select::for_each_variant(|v| {
        assert_eq!(pinned(), Some(v));
        tables_are(v);
        seen.push(v);
    });
    assert_eq!(seen, NttVariant::ALL);
    assert_eq!(pinned(), Some(NttVariant::Radix4));

    // Schemes run under a pinned variant: an ML-DSA round trip (the vector suites cover
    // Falcon and ML-DSA under every variant).
    for &v in NttVariant::ALL {
        set_ntt_variant(v);
        let ps = pqsig::mldsa::ParamSet::MlDsa44;
        let (sk, vk) = pqsig::mldsa::keygen_internal(ps, &[7u8; 32]);
        let sig = sk.sign_deterministic(b"msg", b"").unwrap();
        assert!(vk.verify(b"msg", b"", &sig).is_ok(), "mldsa under {v}");
    }

    match saved {
        Some(v) => std::env::set_var("PQSIG_NTT", v),
        None => std::env::remove_var("PQSIG_NTT"),
    }
    select::reset();
}
