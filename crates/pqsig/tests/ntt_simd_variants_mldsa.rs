//! The AVX2 and AVX-512 NTT variant kernels for ML-DSA (through `kernels::ntt::mldsa_kernels`:
//! radix-4, Winograd radix-8, Winograd radix-16) against the portable reference on random inputs spanning
//! the seam's input bounds (|a| < q) and extreme ones: congruence mod q, the seam's
//! output bounds (forward < 9q; inverse < 3q/4 and, as documented, < 0.51q), the round
//! trip, and NTT products against a schoolbook product. Skipped (with a message) where
//! AVX2 is unavailable.
#![cfg(target_arch = "x86_64")]

mod common;

use common::{check_congruent, max_abs, modq, schoolbook, XorShift, QL};
use pqsig::kernels::mldsa::{kernels, Poly};
use pqsig::kernels::ntt::{mldsa_kernels, mldsa_stage_for, NttVariant};
use pqsig::Backend;

type F = fn(&mut [Poly]);

fn variants() -> Option<Vec<(&'static str, F, F)>> {
    if !Backend::Avx2.is_available() {
        println!("skipped: AVX2 is not available on this CPU/target");
        return None;
    }
    // The dispatch tables (detection-gated): a SIMD variant's pair replaces the
    // backend table's transforms.
    let pair = |b: Backend, v: NttVariant| {
        let k = mldsa_kernels(b, v);
        assert_eq!(k.backend, b, "{b} is available");
        (k.ntt as F, k.invntt_tomont as F)
    };
    let mut bs = vec![Backend::Avx2];
    if Backend::Avx512.is_available() {
        bs.push(Backend::Avx512);
    } else {
        println!("AVX-512 variants skipped: AVX-512 is not available");
    }
    let mut vs: Vec<(&'static str, F, F)> = Vec::new();
    for b in bs {
        for v in [
            NttVariant::Radix4,
            NttVariant::Winograd8,
            NttVariant::Winograd16,
        ] {
            let name = format!("{b} {}", v.name()).leak();
            let (f, i) = pair(b, v);
            vs.push((name, f, i));
        }
    }
    Some(vs)
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

#[test]
fn forward_matches_portable() {
    let Some(vs) = variants() else { return };
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

#[test]
fn inverse_matches_portable() {
    let Some(vs) = variants() else { return };
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

#[test]
fn products_and_round_trip() {
    let Some(vs) = variants() else { return };
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

/// The one-stage hooks (`mldsa_stage`, for unit benchmarks; AVX2 and AVX-512, one shared
/// body) compose into the forward transform for every unit size.
#[test]
fn stage_hook_composes() {
    type S = fn(&mut [Poly], usize, u32, bool);
    let mut hooks: Vec<(&str, S)> = Vec::new();
    for (name, b) in [("avx2", Backend::Avx2), ("avx512", Backend::Avx512)] {
        assert_eq!(mldsa_stage_for(b).is_some(), b.is_available());
        if let Some(h) = mldsa_stage_for(b) {
            hooks.push((name, h));
        }
    }
    if hooks.is_empty() {
        println!("skipped: AVX2 is not available");
        return;
    }
    let pk = kernels(Backend::Portable);
    let a = inputs(0x5151_0004);
    let mut want = a.clone();
    (pk.ntt)(&mut want);
    for (name, mldsa_stage) in hooks {
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
            check_congruent(&format!("{name} stages of {k} layers"), &want, &x, 9, 1);
        }
    }
}
