//! The AVX2 and AVX-512 NTT variant kernels for Falcon (through `kernels::ntt::falcon_kernels`:
//! radix-4, Winograd radix-8, Winograd radix-16) bit for bit against the portable reference, every degree
//! (logn 1..=10), random and extreme canonical inputs, batches; and the round trip.
//! Skipped (with a message) where AVX2 is unavailable.
#![cfg(target_arch = "x86_64")]

mod common;

use common::XorShift;
use pqsig::kernels::falcon::ntt::{kernels, Q};
use pqsig::kernels::ntt::{falcon_kernels, falcon_stage_for, NttVariant};
use pqsig::Backend;

type F = fn(&mut [u16], u32);

fn variants() -> Option<Vec<(&'static str, F, F)>> {
    if !Backend::Avx2.is_available() {
        println!("skipped: AVX2 is not available on this CPU/target");
        return None;
    }
    // The dispatch tables (detection-gated): a SIMD variant's pair replaces the
    // backend table's transforms.
    let pair = |b: Backend, v: NttVariant| {
        let k = falcon_kernels(b, v);
        assert_eq!(k.backend, b, "{b} is available");
        (k.ntt as F, k.intt as F)
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

#[test]
fn variants_match_portable() {
    let Some(vs) = variants() else { return };
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

#[test]
fn round_trip() {
    let Some(vs) = variants() else { return };
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

/// The one-stage hook (`falcon_stage`, for unit benchmarks) composes into the forward
/// transforms, and radix-2 stages into the reference transform.
#[test]
fn stage_hook_composes() {
    let Some(_) = variants() else { return };
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0xfa1c_0000_0003);
    type S = fn(&mut [u16], u32, usize, u32, bool);
    let mut hooks: Vec<(&str, S, u32)> =
        vec![("avx2", falcon_stage_for(Backend::Avx2).unwrap(), 4)];
    if let Some(h) = falcon_stage_for(Backend::Avx512) {
        hooks.push(("avx512", h, 5));
    }
    for (name, stage, lanes_log) in hooks {
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
                assert_eq!(x, want, "{name} stages of {k} layers, logn {logn}");
            }
        }
    }
}
