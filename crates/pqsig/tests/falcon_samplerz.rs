//! Falcon's sampler PRNG and SamplerZ kernels, per available backend:
//! * the ChaCha20 block function against RFC 8439 §2.3.2;
//! * the PRNG (`u64` and runs of `u8` reads in a random interleaving) and SamplerZ
//!   (5000 requests with random centres and σ ∈ [1.2, 1.9], σ_min of logn 1, 9, 10)
//!   against digests of the round-3 reference C code (PQClean falcon-512/clean, run on
//!   the same inputs: SHAKE256 digests of the outputs are recorded below);
//! * statistics: the base sampler's frequencies against its table, and the mean and
//!   variance of SamplerZ's output against the exact discrete Gaussian for a few
//!   (centre, σ).

mod common;

use common::{backends, XorShift};
use pqsig::kernels::falcon::fpr::{self, Fpr};
use pqsig::kernels::falcon::samplerz::{kernels, Request, RCDT, WINDOW};
use pqsig::kernels::internals::falcon::sign::prng::Prng;
use pqsig::kernels::keccak::sponge::{shake256, Shake256};

fn shake_ctx(label: &str) -> Shake256 {
    let mut s = Shake256::new();
    s.absorb(label.as_bytes());
    s
}

fn digest_hex(data: &[u8]) -> String {
    let mut h = [0u8; 32];
    shake256(&[data], &mut h);
    hex::encode(h)
}

#[test]
fn chacha20_block_rfc8439() {
    // RFC 8439 §2.3.2: key 00..1f, block counter 1, nonce 00:00:00:09:00:00:00:4a:00:00:00:00.
    // In the PRNG's layout, state words 12..16 are key_iv[8..12]; with counter 0 instance
    // 0 runs exactly that block.
    let mut key_iv = [0u32; 12];
    for (i, w) in key_iv.iter_mut().take(8).enumerate() {
        let b = 4 * i as u8;
        *w = u32::from_le_bytes([b, b + 1, b + 2, b + 3]);
    }
    key_iv[8] = 1;
    key_iv[9] = 0x0900_0000;
    key_iv[10] = 0x4a00_0000;
    key_iv[11] = 0;
    let want: [u32; 16] = [
        0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3, 0xc7f4d1c7, 0x0368c033, 0x9aaa2204,
        0x4e6cd4c3, 0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9, 0xd19c12b5, 0xb94e16de,
        0xe883d0cb, 0x4e3c50a2,
    ];
    for b in backends() {
        let k = kernels(b);
        let mut out = [0u8; WINDOW];
        (k.chacha20x8)(&key_iv, 0, &mut out);
        for (v, &w) in want.iter().enumerate() {
            let o = 32 * v;
            let got = u32::from_le_bytes([out[o], out[o + 1], out[o + 2], out[o + 3]]);
            assert_eq!(got, w, "{b}: word {v}");
        }
    }
}

#[test]
fn prng_matches_reference() {
    for b in backends() {
        let mut src = shake_ctx("pqsig prng test");
        let mut p = Prng::new(&mut src, kernels(b));
        let mut rng = XorShift(88172645463325252);
        let mut out = Vec::new();
        for _ in 0..3000 {
            let m = rng.next();
            match m % 3 {
                0 => out.extend_from_slice(&p.next_u64().to_le_bytes()),
                1 => out.push(p.next_u8()),
                _ => {
                    for _ in 0..(m >> 8) % 100 {
                        out.push(p.next_u8());
                    }
                }
            }
        }
        assert_eq!(out.len(), 53922, "{b}");
        assert_eq!(
            hex::encode(&out[..48]),
            "28bbaeaec91205e1be9e4bcd6bd3e824f66368c65fd80084f154dc5a7efcfceb\
             0a8aa35afca1a026b50ad01f3c1c368f",
            "{b}"
        );
        assert_eq!(
            digest_hex(&out),
            "11e43e272118f3d248aee5fc00d838ceddbc99f8869de62f33c3a18e1db6f2d5",
            "{b}"
        );
    }
}

/// The reference run: 5000 requests, one at a time, centre `a·2^-7` with `a` uniform in
/// [−2^19, 2^19), `isigma = 10000/(13000 + k)` with k < 6000 (σ ∈ [1.3, 1.9), above every
/// degree's σ_min as the kernel requires).
fn reference_requests() -> Vec<Request> {
    let mut rng = XorShift(88172645463325252);
    (0..5000)
        .map(|_| {
            let m = rng.next();
            let a = (m & 0xFFFFF) as i64 - (1 << 19);
            Request {
                mu: Fpr::scaled(a, -7),
                isigma: Fpr::of(10000).div(Fpr::of(13000 + ((m >> 20) % 6000) as i64)),
            }
        })
        .collect()
}

#[test]
fn samplerz_matches_reference() {
    let cases = [
        (
            1u32,
            "b70770008aeee69d22528aa967c38ef5c365c7e95f87877a075ff7306c62b730",
        ),
        (
            9,
            "213599fea098600c97bda08eba09b8c36b9a54434e84daedfe6e87a5a4c4d578",
        ),
        (
            10,
            "20e5a51b2cb89a013858b67302028f70fa44514a9e499b4b8c817f3d83066f5c",
        ),
    ];
    let reqs = reference_requests();
    for b in backends() {
        let k = kernels(b);
        for (logn, want) in cases {
            // One request per call (the reference's shape), and the whole list as one
            // batch: same stream order, same results.
            for batched in [false, true] {
                let mut src = shake_ctx("pqsig samplerz test");
                let mut p = Prng::new(&mut src, k);
                let mut out = vec![0i32; reqs.len()];
                if batched {
                    (k.sample)(
                        &mut p.stream(),
                        fpr::SIGMA_MIN[logn as usize],
                        &reqs,
                        &mut out,
                    );
                } else {
                    for (r, o) in reqs.iter().zip(out.iter_mut()) {
                        (k.sample)(
                            &mut p.stream(),
                            fpr::SIGMA_MIN[logn as usize],
                            core::slice::from_ref(r),
                            core::slice::from_mut(o),
                        );
                    }
                }
                assert_eq!(
                    &out[..8],
                    &[3115, 2444, -2763, 1303, -752, -1521, -3194, -263],
                    "{b} logn {logn}"
                );
                let bytes: Vec<u8> = out.iter().flat_map(|z| z.to_le_bytes()).collect();
                assert_eq!(
                    digest_hex(&bytes),
                    want,
                    "{b} logn {logn} batched {batched}"
                );
            }
        }
    }
}

#[test]
fn base_sampler_frequencies() {
    // Pr[z0 = k] = (RCDT[k-1] - RCDT[k]) / 2^72 (RCDT[-1] = 2^72).
    const DRAWS: usize = 400_000;
    for b in backends() {
        let k = kernels(b);
        let mut src = shake_ctx("pqsig gaussian0 statistics");
        let mut p = Prng::new(&mut src, k);
        let mut counts = [0usize; 20];
        for _ in 0..DRAWS {
            let z = (k.gaussian0)(&mut p.stream());
            assert!((0..=18).contains(&z), "{b}: z0 = {z}");
            counts[z as usize] += 1;
        }
        let two72 = 2f64.powi(72);
        for kk in 0..6 {
            let hi = if kk == 0 { two72 } else { RCDT[kk - 1] as f64 };
            let pr = (hi - RCDT[kk] as f64) / two72;
            let expect = pr * DRAWS as f64;
            let sd = (expect * (1.0 - pr)).sqrt();
            let dev = (counts[kk] as f64 - expect).abs();
            assert!(
                dev < 5.0 * sd + 1.0,
                "{b}: z0 = {kk}: {} draws, expected {expect:.0} ± {sd:.0}",
                counts[kk]
            );
        }
    }
}

/// Mean and variance of the discrete Gaussian D_{Z, mu, sigma} (summed exactly enough).
fn exact_moments(mu: f64, sigma: f64) -> (f64, f64) {
    let c = mu.floor() as i64;
    let (mut w, mut m1, mut m2) = (0.0, 0.0, 0.0);
    for z in c - 40..=c + 40 {
        let d = z as f64 - mu;
        let p = (-d * d / (2.0 * sigma * sigma)).exp();
        w += p;
        m1 += p * d;
        m2 += p * d * d;
    }
    let mean = m1 / w;
    (mu + mean, m2 / w - mean * mean)
}

#[test]
fn samplerz_moments() {
    const N: usize = 200_000;
    let cases = [
        (0.0, 1.5),
        (0.5, 1.2),
        (-3.25, 1.7),
        (1000.75, 1.9),
        (-77.125, 1.277),
    ];
    for b in backends() {
        let k = kernels(b);
        for (ci, &(mu, sigma)) in cases.iter().enumerate() {
            let mut src = shake_ctx("pqsig samplerz moments");
            src.absorb(&[ci as u8]);
            let mut p = Prng::new(&mut src, k);
            let req = Request {
                mu: Fpr::from_bits(f64::to_bits(mu)),
                isigma: Fpr::from_bits(f64::to_bits(1.0 / sigma)),
            };
            let reqs = vec![req; 1000];
            let mut out = vec![0i32; 1000];
            let (mut s1, mut s2) = (0.0f64, 0.0f64);
            for _ in 0..N / 1000 {
                // σ_min of logn 1 (1.1165): below every σ tested, as the kernel requires.
                (k.sample)(&mut p.stream(), fpr::SIGMA_MIN[1], &reqs, &mut out);
                for &z in &out {
                    let d = z as f64 - mu;
                    s1 += d;
                    s2 += d * d;
                }
            }
            let mean = mu + s1 / N as f64;
            let var = s2 / N as f64 - (s1 / N as f64).powi(2);
            let (em, ev) = exact_moments(mu, sigma);
            // Standard errors: σ/√N for the mean, σ²·√(2/N) for the variance.
            let se_m = sigma / (N as f64).sqrt();
            let se_v = sigma * sigma * (2.0 / N as f64).sqrt();
            assert!(
                (mean - em).abs() < 5.0 * se_m,
                "{b}: mu {mu} sigma {sigma}: mean {mean} vs {em}"
            );
            assert!(
                (var - ev).abs() < 6.0 * se_v,
                "{b}: mu {mu} sigma {sigma}: variance {var} vs {ev}"
            );
        }
    }
}
