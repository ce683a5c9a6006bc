//! The SIMD SamplerZ kernels against portable, bit for bit, on random inputs: ChaCha20
//! eight-block outputs for random keys and counters (including counters whose low half
//! wraps inside the group of eight), base-sampler draws and SamplerZ batches of random
//! sizes over random streams with random centres and σ. The streams must also be left at
//! the same position (same number of bytes consumed).
//!
//! One body per check, taking the table under test; the modules `avx2` and `avx512` at
//! the end call every body with their backend's table. Their tests are ignored where the
//! build host lacks the ISA (build.rs) and fail where the running CPU lacks it.

mod common;

use common::XorShift;
use pqsig::kernels::falcon::fpr::{self, Fpr};
use pqsig::kernels::falcon::samplerz::{kernels, Leaf, Request, SamplerKernels, WINDOW};
use pqsig::kernels::internals::falcon::sign::prng::{Prng, SEED_LEN};
use pqsig::Backend;

fn seed(rng: &mut XorShift) -> [u8; SEED_LEN] {
    let mut s = [0u8; SEED_LEN];
    s.copy_from_slice(&rng.bytes(SEED_LEN));
    s
}

fn chacha20x8_matches_portable(k: &'static SamplerKernels) {
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0x5EED_C4AC_4A20_0001);
    for round in 0..2000 {
        let key_iv: [u32; 12] = core::array::from_fn(|_| rng.next() as u32);
        let counter = match round % 4 {
            0 => rng.next(),
            // Low word about to wrap within the eight blocks.
            1 => (rng.next() << 32) | (0xFFFF_FFF8 + rng.next() % 8),
            // The whole 64-bit counter about to wrap.
            2 => u64::MAX - rng.next() % 8,
            _ => rng.next() % 1024,
        };
        let mut want = [0u8; WINDOW];
        let mut got = [0xAAu8; WINDOW];
        (pk.chacha20x8)(&key_iv, counter, &mut want);
        (k.chacha20x8)(&key_iv, counter, &mut got);
        assert_eq!(want, got, "{}: round {round}", k.backend);
        if let Some(x16) = k.chacha20x16 {
            // Two consecutive windows at once.
            let mut want_b = [0u8; WINDOW];
            (pk.chacha20x8)(&key_iv, counter.wrapping_add(8), &mut want_b);
            let (mut a, mut b) = ([0x55u8; WINDOW], [0x55u8; WINDOW]);
            x16(&key_iv, counter, &mut a, &mut b);
            assert_eq!((want, want_b), (a, b), "{} x16: round {round}", k.backend);
        }
    }
}

fn gaussian0_matches_portable(k: &'static SamplerKernels) {
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0x5EED_6A05_0000_0002);
    for _ in 0..20 {
        let s = seed(&mut rng);
        // Same (portable) PRNG for both; only the base sampler differs.
        let mut p1 = Prng::from_seed(&s, pk);
        let mut p2 = Prng::from_seed(&s, pk);
        for i in 0..20_000 {
            let a = (pk.gaussian0)(&mut p1.stream());
            let b = (k.gaussian0)(&mut p2.stream());
            assert_eq!(a, b, "{}: draw {i}", k.backend);
        }
        assert_eq!(
            p1.next_u64(),
            p2.next_u64(),
            "{}: stream position",
            k.backend
        );
    }
}

/// A random request: centre anywhere in ±2^15 (with a fraction, or an exact integer, or
/// a half-integer), σ in [σ_min, 1.9].
fn request(rng: &mut XorShift, sigma_min: f64) -> Request {
    let m = rng.next();
    let mu = match m % 4 {
        0 => (m >> 8) as i64 % 65536 - 32768,
        1 => ((m >> 8) as i64 % 65536 - 32768) * 2 + 1,
        _ => ((m >> 8) as i64 % (1 << 40)) - (1 << 39),
    };
    let mu = match m % 4 {
        0 => Fpr::of(mu),
        1 => Fpr::scaled(mu, -1),
        _ => Fpr::scaled(mu, -24),
    };
    let t = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
    let sigma = sigma_min + t * (1.9 - sigma_min);
    Request {
        mu,
        isigma: Fpr::from_bits((1.0 / sigma).to_bits()),
    }
}

fn sample_matches_portable(k: &'static SamplerKernels) {
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0x5EED_5A3F_1E00_0003);
    for round in 0..300 {
        let logn = 1 + round % 10;
        let sm = fpr::SIGMA_MIN[logn];
        let sigma_min = f64::from_bits(sm.to_bits());
        let s = seed(&mut rng);
        let mut p1 = Prng::from_seed(&s, pk);
        let mut p2 = Prng::from_seed(&s, pk);
        for _ in 0..20 {
            let len = 1 + (rng.next() % 64) as usize;
            let reqs: Vec<Request> = (0..len).map(|_| request(&mut rng, sigma_min)).collect();
            let mut want = vec![0i32; len];
            let mut got = vec![i32::MIN; len];
            (pk.sample)(&mut p1.stream(), sm, &reqs, &mut want);
            (k.sample)(&mut p2.stream(), sm, &reqs, &mut got);
            assert_eq!(want, got, "{}: round {round}", k.backend);
        }
        assert_eq!(
            p1.next_u64(),
            p2.next_u64(),
            "{}: stream position",
            k.backend
        );
    }
}

fn prng_with_simd_chacha_matches_portable(k: &'static SamplerKernels) {
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0x5EED_9A2C_0000_0004);
    for _ in 0..50 {
        let s = seed(&mut rng);
        let mut p1 = Prng::from_seed(&s, pk);
        let mut p2 = Prng::from_seed(&s, k);
        for i in 0..5000 {
            if rng.next().is_multiple_of(3) {
                assert_eq!(p1.next_u64(), p2.next_u64(), "{}: read {i}", k.backend);
            } else {
                assert_eq!(p1.next_u8(), p2.next_u8(), "{}: read {i}", k.backend);
            }
        }
    }
}

/// The signer's shape: pairs of requests sharing one σ, through `sample`, `sample_pair`
/// and `sample_leaf`, with stray reads in between so that pairs start at every offset and
/// straddle every window boundary; now and then a request outside the kernels' fast
/// domain (σ = σ_min exactly, i.e. ccs = 1, or a centre near ±2^31).
fn pairs_match_portable(k: &'static SamplerKernels) {
    let pk = kernels(Backend::Portable);
    let mut rng = XorShift(0x5EED_9A1B_5A3F_0005);
    for round in 0..200 {
        let logn = 1 + round % 10;
        let sm = fpr::SIGMA_MIN[logn];
        let sigma_min = f64::from_bits(sm.to_bits());
        let s = seed(&mut rng);
        let mut p1 = Prng::from_seed(&s, pk);
        let mut p2 = Prng::from_seed(&s, pk);
        for i in 0..500 {
            let mut a = request(&mut rng, sigma_min);
            let mut mu1 = request(&mut rng, sigma_min).mu;
            match rng.next() % 64 {
                0 => a.isigma = Fpr::from_bits((1.0 / sigma_min).to_bits()),
                1 => mu1 = Fpr::of(2147483000),
                2 => a.mu = Fpr::of(-2147483000),
                _ => {}
            }
            let reqs = [
                a,
                Request {
                    mu: mu1,
                    isigma: a.isigma,
                },
            ];
            let mut want = [0i32; 2];
            (pk.sample)(&mut p1.stream(), sm, &reqs, &mut want);
            let got = if i % 3 == 0 {
                let (x, y) = (k.sample_pair)(&mut p2.stream(), sm, a.mu, mu1, a.isigma);
                [x.rint() as i32, y.rint() as i32]
            } else if i % 3 == 1 {
                // With the leaf constant precomputed (expanded keys).
                let leaf = Leaf::new(a.isigma, sm);
                let (x, y) = (k.sample_leaf)(&mut p2.stream(), sm, a.mu, mu1, leaf);
                [x.rint() as i32, y.rint() as i32]
            } else {
                let mut o = [0i32; 2];
                (k.sample)(&mut p2.stream(), sm, &reqs, &mut o);
                o
            };
            assert_eq!(want, got, "{}: round {round}, pair {i}", k.backend);
            match rng.next() % 8 {
                0 => assert_eq!(p1.next_u8(), p2.next_u8()),
                1 => assert_eq!(p1.next_u64(), p2.next_u64()),
                _ => {}
            }
        }
        assert_eq!(
            p1.next_u64(),
            p2.next_u64(),
            "{}: stream position",
            k.backend
        );
    }
}

/// The bodies above on the AVX2 table.
mod avx2 {
    use super::*;

    /// The AVX2 table (asserting that this CPU has AVX2).
    fn table() -> &'static SamplerKernels {
        common::require(Backend::Avx2);
        let k = kernels(Backend::Avx2);
        assert_eq!(k.backend, Backend::Avx2);
        k
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn chacha20x8_matches_portable() {
        super::chacha20x8_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn gaussian0_matches_portable() {
        super::gaussian0_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn sample_matches_portable() {
        super::sample_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn prng_with_simd_chacha_matches_portable() {
        super::prng_with_simd_chacha_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn pairs_match_portable() {
        super::pairs_match_portable(table());
    }
}

/// The bodies above on the AVX-512 table.
mod avx512 {
    use super::*;

    /// The AVX-512 table (asserting that this CPU has AVX-512).
    fn table() -> &'static SamplerKernels {
        common::require(Backend::Avx512);
        let k = kernels(Backend::Avx512);
        assert_eq!(k.backend, Backend::Avx512);
        k
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn chacha20x8_matches_portable() {
        super::chacha20x8_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn gaussian0_matches_portable() {
        super::gaussian0_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn sample_matches_portable() {
        super::sample_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn prng_with_simd_chacha_matches_portable() {
        super::prng_with_simd_chacha_matches_portable(table());
    }

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn pairs_match_portable() {
        super::pairs_match_portable(table());
    }
}
