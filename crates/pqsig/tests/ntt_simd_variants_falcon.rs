//! The AVX2 and AVX-512 NTT variant kernels for Falcon (through `kernels::ntt::falcon_kernels`:
//! radix-4, Winograd radix-8, Winograd radix-16) bit for bit against the portable reference, every degree
//! (logn 1..=10), random and extreme canonical inputs, batches; the round trip; and the
//! one-stage hook. One body per check takes the backend; each ISA's tests are ignored
//! where the build host lacks it (build.rs) and fail where the running CPU lacks it.
#![cfg(target_arch = "x86_64")]

mod common;

use common::XorShift;
use pqsig::kernels::falcon::ntt::{kernels, Q};
use pqsig::kernels::ntt::{falcon_kernels, falcon_stage_for, NttVariant};
use pqsig::Backend;

type F = fn(&mut [u16], u32);

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
        let k = falcon_kernels(b, v);
        assert_eq!(k.backend, b, "{b} is available");
        let name: &'static str = format!("{b} {}", v.name()).leak();
        (name, k.ntt as F, k.intt as F)
    })
    .collect()
}

fn residues(rng: &mut XorShift, len: usize) -> Vec<u16> {
    let mode = rng.next() % 4;
    (0..len)
        .map(|_| match mode {
            0 => match rng.next() % 4 {
                0 => 0,
                1 => (Q - 1) as u16,
                _ => (rng.next() % Q as u64) as u16,
            },
            1 => (Q - 1 - (rng.next() % 4) as u32) as u16,
            _ => (rng.next() % Q as u64) as u16,
        })
        .collect()
}

fn variants_match_portable(b: Backend) {
    let vs = variants(b);
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0xfa1c_0000_0001);
    for logn in 1..=10u32 {
        let n = 1usize << logn;
        let mut cases: Vec<Vec<u16>> = (0..40)
            .map(|r| residues(&mut rng, [1, 2, 3][r % 3] * n))
            .collect();
        cases.push(vec![0; n]);
        cases.push(vec![(Q - 1) as u16; n]);
        cases.push(
            (0..n)
                .map(|i| if i % 2 == 0 { (Q - 1) as u16 } else { 0 })
                .collect(),
        );
        for a in &cases {
            let mut want_f = a.clone();
            (pk.ntt)(&mut want_f, logn);
            let mut want_i = a.clone();
            (pk.intt)(&mut want_i, logn);
            for &(name, f, i) in &vs {
                let mut got = a.clone();
                f(&mut got, logn);
                assert_eq!(got, want_f, "ntt {name} logn {logn}");
                let mut got = a.clone();
                i(&mut got, logn);
                assert_eq!(got, want_i, "intt {name} logn {logn}");
            }
        }
    }
}

fn round_trip(b: Backend) {
    let vs = variants(b);
    let mut rng = XorShift(0xfa1c_0000_0002);
    for logn in 1..=10u32 {
        let a = residues(&mut rng, 1 << logn);
        for &(name, f, i) in &vs {
            let mut x = a.clone();
            f(&mut x, logn);
            i(&mut x, logn);
            assert_eq!(x, a, "{name} logn {logn}");
        }
    }
}

/// The one-stage hook (`falcon_stage`, for unit benchmarks) of backend `b` (whose
/// vectors hold 2^`lanes_log` coefficients) composes into the forward transform.
fn stage_hook_composes(b: Backend, lanes_log: u32) {
    common::require(b);
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0xfa1c_0000_0003);
    let stage = falcon_stage_for(b).expect("a stage hook");
    for logn in [9u32, 10] {
        let a = residues(&mut rng, 1 << logn);
        let mut want = a.clone();
        (pk.ntt)(&mut want, logn);
        // Every plan made of units no larger than the degree allows.
        for k in 1..=4u32 {
            if logn < lanes_log + k {
                continue;
            }
            let mut x = a.clone();
            let mut m = 1;
            let lead = logn % k;
            if lead > 0 {
                stage(&mut x, logn, m, lead, false);
                m <<= lead;
            }
            while m < 1 << logn {
                stage(&mut x, logn, m, k, false);
                m <<= k;
            }
            assert_eq!(x, want, "{b} stages of {k} layers, logn {logn}");
        }
    }
}

mod avx2 {
    use super::*;

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn variants_match_portable() {
        super::variants_match_portable(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn round_trip() {
        super::round_trip(Backend::Avx2);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn stage_hook_composes() {
        super::stage_hook_composes(Backend::Avx2, 4);
    }
}

mod avx512 {
    use super::*;

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn variants_match_portable() {
        super::variants_match_portable(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn round_trip() {
        super::round_trip(Backend::Avx512);
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn stage_hook_composes() {
        super::stage_hook_composes(Backend::Avx512, 5);
    }
}
