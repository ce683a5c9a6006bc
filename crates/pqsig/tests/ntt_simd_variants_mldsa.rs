//! The AVX2 and AVX-512 NTT variant kernels for ML-DSA (through `kernels::ntt::mldsa_kernels`:
//! radix-4, Winograd radix-8, Winograd radix-16) against the portable reference on random inputs spanning
//! the seam's input bounds (|a| < q) and extreme ones: congruence mod q, the seam's
//! output bounds (forward < 9q; inverse < 3q/4 and, as documented, < 0.51q), the round
//! trip, and NTT products against a schoolbook product. One body per check takes the
//! backend; each ISA's tests are ignored where the build host lacks it (build.rs) and
//! fail where the running CPU lacks it.
#![cfg(target_arch = "x86_64")]

mod common;

use common::{check_congruent, max_abs, modq, schoolbook, XorShift, QL};
use pqsig::kernels::mldsa::{kernels, Poly};
use pqsig::kernels::ntt::{mldsa_kernels, mldsa_stage_for, NttVariant};
use pqsig::Backend;

type F = fn(&mut [Poly]);

/// The SIMD variants of backend `b` from the dispatch tables (detection-gated: a SIMD
/// variant's pair replaces the backend table's transforms), asserting that `b` runs here.
fn variants(b: Backend) -> Vec<(&'static str, F, F)> {
    common::require(b);
    [
        NttVariant::Radix4,
        NttVariant::Winograd8,
        NttVariant::Winograd16,
    ]
    .into_iter()
    .map(|v| {
        let k = mldsa_kernels(b, v);
        assert_eq!(k.backend, b, "{b} is available");
        let name: &'static str = format!("{b} {}", v.name()).leak();
        (name, k.ntt as F, k.invntt_tomont as F)
    })
    .collect()
}

/// Inputs: random in (−q, q) with extremes, plus all ±(q − 1), alternating, zero.
fn inputs(seed: u64) -> Vec<Poly> {
    let mut rng = XorShift(seed);
    let mut ps = rng.polys(300, -(QL - 1), QL - 1);
    for pat in 0..4 {
        let mut p = Poly::default();
        for (i, c) in p.coeffs.iter_mut().enumerate() {
            *c = match pat {
                0 => (QL - 1) as i32,
                1 => -(QL - 1) as i32,
                2 => {
                    if i % 2 == 0 {
                        (QL - 1) as i32
                    } else {
                        -(QL - 1) as i32
                    }
                }
                _ => 0,
            };
        }
        ps.push(p);
    }
    ps
}

fn forward_matches_portable(b: Backend) {
    let vs = variants(b);
    let pk = kernels(Backend::Portable);
    let a = inputs(0x5151_0001);
    let mut want = a.clone();
    (pk.ntt)(&mut want);
    for &(name, f, _) in &vs {
        let mut got = a.clone();
        f(&mut got);
        check_congruent(&format!("ntt {name}"), &want, &got, 9, 1);
        println!(
            "ntt {name}: largest |output| {:.3}q",
            max_abs(&got) as f64 / QL as f64
        );
    }
}

fn inverse_matches_portable(b: Backend) {
    let vs = variants(b);
    let pk = kernels(Backend::Portable);
    let a = inputs(0x5151_0002);
    let mut want = a.clone();
    (pk.invntt_tomont)(&mut want);
    for &(name, _, f) in &vs {
        let mut got = a.clone();
        f(&mut got);
        check_congruent(&format!("invntt {name}"), &want, &got, 51, 100);
        println!(
            "invntt {name}: largest |output| {:.3}q",
            max_abs(&got) as f64 / QL as f64
        );
    }
}

fn products_and_round_trip(b: Backend) {
    let vs = variants(b);
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0x5151_0003);
    for &(name, fwd, inv) in &vs {
        for _ in 0..20 {
            let a = rng.poly(-(QL - 1), QL - 1);
            let b = rng.poly(-(QL - 1), QL - 1);
            let want = schoolbook(&a, &b);
            let (mut x, mut y) = ([a], [b]);
            fwd(&mut x);
            fwd(&mut y);
            let mut c = [Poly::default()];
            // c = x∘y·2^−32; the inverse multiplies by 2^32 again.
            (pk.pointwise_montgomery)(&mut c, &x[0], &y);
            inv(&mut c);
            for (i, (&got, &w)) in c[0].coeffs.iter().zip(want.iter()).enumerate() {
                assert_eq!(modq(got as i64), modq(w), "{name} product {i}");
            }
            // Round trip: inv(fwd(a)) = a·2^32.
            let mut z = [a];
            fwd(&mut z);
            inv(&mut z);
            let r = (1i64 << 32) % QL;
            for (i, (&got, &x)) in z[0].coeffs.iter().zip(a.coeffs.iter()).enumerate() {
                assert_eq!(
                    modq(got as i64),
                    modq(x as i64 * r),
                    "{name} round trip {i}"
                );
            }
        }
    }
}

/// The one-stage hook (`mldsa_stage`, for unit benchmarks) of backend `b` composes into
/// the forward transform for every unit size.
fn stage_hook_composes(b: Backend) {
    common::require(b);
    let mldsa_stage = mldsa_stage_for(b).expect("a stage hook");
    let pk = kernels(Backend::Portable);
    let a = inputs(0x5151_0004);
    let mut want = a.clone();
    (pk.ntt)(&mut want);
    for k in 1..=4u32 {
        let mut x = a.clone();
        let mut m = 1;
        if 8 % k > 0 {
            mldsa_stage(&mut x, m, 8 % k, false);
            m <<= 8 % k;
        }
        while m < 256 {
            mldsa_stage(&mut x, m, k, false);
            m <<= k;
        }
        // Radix-2 stages grow like the reference (< 9q); larger units stay below it.
        check_congruent(&format!("{b} stages of {k} layers"), &want, &x, 9, 1);
    }
}

/// Stage hooks exist exactly for the SIMD backends this CPU runs.
#[test]
fn stage_hooks_follow_detection() {
    for b in [Backend::Avx2, Backend::Avx512] {
        assert_eq!(mldsa_stage_for(b).is_some(), b.is_available(), "{b}");
    }
}

mod avx2 {
    use super::*;

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn forward_matches_portable() {
        super::forward_matches_portable(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn inverse_matches_portable() {
        super::inverse_matches_portable(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn products_and_round_trip() {
        super::products_and_round_trip(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn stage_hook_composes() {
        super::stage_hook_composes(Backend::Avx2);
    }
}

mod avx512 {
    use super::*;

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn forward_matches_portable() {
        super::forward_matches_portable(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn inverse_matches_portable() {
        super::inverse_matches_portable(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn products_and_round_trip() {
        super::products_and_round_trip(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn stage_hook_composes() {
        super::stage_hook_composes(Backend::Avx512);
    }
}
