//! AVX2 rounding kernels, rejection samplers and four-way Keccak against portable:
//! outputs must be bit-identical. Rounding kernels are checked on every std input (all
//! of [0, q)) plus edge and random values; the samplers on random and adversarial
//! buffers of many lengths with `out` slices of many lengths (including too short ones,
//! and checking that nothing past the returned count is written); Keccak x4 against four
//! scalar permutations. Ignored where the build host lacks AVX2 (build.rs); failing where
//! the running CPU lacks it.

mod common;

use common::check_permute;
use pqsig::kernels::keccak::x4::{permute4_for, StateX4};
use pqsig::kernels::mldsa::{kernels, Kernels, Poly, Q};
use pqsig::Backend;

const GAMMA2: [i32; 2] = [(Q - 1) / 88, (Q - 1) / 32];

/// xorshift64*: small, deterministic, good enough for test inputs.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    /// Uniform in [lo, hi] (inclusive), hi − lo < 2^32.
    fn range(&mut self, lo: i64, hi: i64) -> i32 {
        (lo + (self.next_u64() % ((hi - lo + 1) as u64)) as i64) as i32
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// The AVX2 and portable tables, asserting that this CPU has AVX2.
fn tables() -> (&'static Kernels, &'static Kernels) {
    common::require(Backend::Avx2);
    let avx2 = kernels(Backend::Avx2);
    assert_eq!(avx2.backend, Backend::Avx2);
    (avx2, kernels(Backend::Portable))
}

/// Polynomials holding `vals` (padded by repeating the start).
fn polys_from(vals: &[i32]) -> Vec<Poly> {
    let n = vals.len().div_ceil(256).max(1);
    let mut v = vec![Poly::default(); n];
    for (i, c) in v.iter_mut().flat_map(|p| p.coeffs.iter_mut()).enumerate() {
        *c = vals[i % vals.len()];
    }
    v
}

fn random_polys(rng: &mut Rng, n: usize, lo: i64, hi: i64) -> Vec<Poly> {
    let vals: Vec<i32> = (0..n * 256).map(|_| rng.range(lo, hi)).collect();
    polys_from(&vals)
}

/// Every value of [0, q), in batches of `batch` polynomials (the last one padded).
fn all_std(batch: usize, mut f: impl FnMut(&[Poly])) {
    let mut a = 0i32;
    while a < Q {
        let vals: Vec<i32> = (a..Q.min(a + 256 * batch as i32)).collect();
        f(&polys_from(&vals));
        a += 256 * batch as i32;
    }
}

/// 0, q − 1, ±γ2 and neighbours of every multiple of 2γ2 (and of γ2) inside [0, q).
fn std_edges(gamma2: i32) -> Vec<i32> {
    let mut v = vec![
        0,
        1,
        2,
        Q - 3,
        Q - 2,
        Q - 1,
        gamma2,
        Q - gamma2,
        Q - gamma2 - 1,
    ];
    let mut m = 0;
    while m < Q + gamma2 {
        for d in -2..=2 {
            v.push(m + d);
        }
        m += gamma2;
    }
    v.retain(|&x| (0..Q).contains(&x));
    v
}

fn check_decompose(avx2: &Kernels, port: &Kernels, g2: i32, input: &[Poly]) {
    let (mut h1, mut l1) = (input.to_vec(), vec![Poly::default(); input.len()]);
    let (mut h2, mut l2) = (input.to_vec(), vec![Poly::default(); input.len()]);
    (avx2.decompose)(g2, &mut h1, &mut l1);
    (port.decompose)(g2, &mut h2, &mut l2);
    if h1 != h2 || l1 != l2 {
        for (k, p) in input.iter().enumerate() {
            for i in 0..256 {
                assert_eq!(
                    (h1[k].coeffs[i], l1[k].coeffs[i]),
                    (h2[k].coeffs[i], l2[k].coeffs[i]),
                    "decompose γ2 = {g2}, a = {}",
                    p.coeffs[i]
                );
            }
        }
    }
}

fn check_use_hint(avx2: &Kernels, port: &Kernels, g2: i32, input: &[Poly], hint: &[Poly]) {
    let (mut r1, mut r2) = (input.to_vec(), input.to_vec());
    (avx2.use_hint)(g2, &mut r1, hint);
    (port.use_hint)(g2, &mut r2, hint);
    if r1 != r2 {
        for (k, p) in input.iter().enumerate() {
            for i in 0..256 {
                assert_eq!(
                    r1[k].coeffs[i], r2[k].coeffs[i],
                    "use_hint γ2 = {g2}, a = {}, h = {}",
                    p.coeffs[i], hint[k].coeffs[i]
                );
            }
        }
    }
}

fn check_power2round(avx2: &Kernels, port: &Kernels, input: &[Poly]) {
    let (mut h1, mut l1) = (input.to_vec(), vec![Poly::default(); input.len()]);
    let (mut h2, mut l2) = (input.to_vec(), vec![Poly::default(); input.len()]);
    (avx2.power2round)(&mut h1, &mut l1);
    (port.power2round)(&mut h2, &mut l2);
    assert!(h1 == h2 && l1 == l2, "power2round differs");
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn power2round_decompose_use_hint_every_std_input() {
    let (avx2, port) = tables();
    let zeros = vec![Poly::default(); 64];
    let ones = vec![Poly { coeffs: [1; 256] }; 64];
    all_std(64, |a| {
        check_power2round(avx2, port, a);
        for &g2 in &GAMMA2 {
            check_decompose(avx2, port, g2, a);
            check_use_hint(avx2, port, g2, a, &zeros[..a.len()]);
            check_use_hint(avx2, port, g2, a, &ones[..a.len()]);
        }
    });
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn rounding_edges_and_random_hints() {
    let (avx2, port) = tables();
    let mut rng = Rng::new(0x5EED_0001);
    for &g2 in &GAMMA2 {
        let edges = polys_from(&std_edges(g2));
        check_power2round(avx2, port, &edges);
        check_decompose(avx2, port, g2, &edges);
        for _ in 0..20 {
            let a = random_polys(&mut rng, 7, 0, Q as i64 - 1);
            let h = random_polys(&mut rng, 7, 0, 1);
            check_use_hint(avx2, port, g2, &a, &h);
            let h = random_polys(&mut rng, edges.len(), 0, 1);
            check_use_hint(avx2, port, g2, &edges, &h);
        }
        // Slices of different lengths: the shorter one bounds the work.
        let a = random_polys(&mut rng, 3, 0, Q as i64 - 1);
        let (mut h1, mut l1) = (a.clone(), vec![Poly::default(); 2]);
        let (mut h2, mut l2) = (a.clone(), vec![Poly::default(); 2]);
        (avx2.decompose)(g2, &mut h1, &mut l1);
        (port.decompose)(g2, &mut h2, &mut l2);
        assert!(h1 == h2 && l1 == l2);
    }
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn make_hint_matches() {
    let (avx2, port) = tables();
    let mut rng = Rng::new(0x5EED_0002);
    for &g2 in &GAMMA2 {
        let m = (Q - 1) / (2 * g2);
        let mut special = vec![
            0,
            1,
            -1,
            g2,
            -g2,
            g2 + 1,
            -g2 - 1,
            g2 - 1,
            -g2 + 1,
            2 * g2,
            -2 * g2,
        ];
        special.extend([
            Q,
            -Q,
            (1 << 30),
            -(1 << 30),
            i32::MAX - g2,
            i32::MIN + 1 + g2,
        ]);
        for round in 0..200 {
            let a0 = match round % 4 {
                // Signing's range: |w0 − cs2 + ct0| well inside ±2γ2.
                0 => random_polys(&mut rng, 4, -2 * g2 as i64, 2 * g2 as i64),
                // Mostly the interesting values.
                1 => {
                    let v: Vec<i32> = (0..1024)
                        .map(|_| special[rng.next_u32() as usize % special.len()])
                        .collect();
                    polys_from(&v)
                }
                // The whole documented range.
                2 => random_polys(
                    &mut rng,
                    4,
                    (i32::MIN + 1 + g2) as i64,
                    (i32::MAX - g2) as i64,
                ),
                _ => random_polys(&mut rng, 4, -g2 as i64 - 3, -g2 as i64 + 3),
            };
            let a1 = match round % 3 {
                0 => random_polys(&mut rng, 4, 0, m as i64 - 1),
                1 => random_polys(&mut rng, 4, 0, 1),
                _ => random_polys(&mut rng, 4, i32::MIN as i64 + 1, i32::MAX as i64),
            };
            let mut h1 = vec![Poly { coeffs: [7; 256] }; 4];
            let mut h2 = h1.clone();
            let n1 = (avx2.make_hint)(g2, &mut h1, &a0, &a1);
            let n2 = (port.make_hint)(g2, &mut h2, &a0, &a1);
            assert_eq!(n1, n2, "make_hint count, γ2 = {g2}");
            assert!(h1 == h2, "make_hint, γ2 = {g2}");
        }
    }
    // An empty batch counts zero.
    assert_eq!((avx2.make_hint)(GAMMA2[0], &mut [], &[], &[]), 0);
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn chknorm_matches_at_the_bound() {
    let (avx2, port) = tables();
    let mut rng = Rng::new(0x5EED_0003);
    // Bounds the scheme uses (γ1 − β, γ2 − β, γ2) and extremes of the documented range.
    let bounds = [
        1,
        2,
        (1 << 17) - 78,
        (1 << 19) - 120,
        (1 << 19) - 196,
        (Q - 1) / 88 - 78,
        (Q - 1) / 32 - 196,
        (Q - 1) / 88,
        (Q - 1) / 32,
        (Q - 1) / 8,
    ];
    for &b in &bounds {
        for _ in 0..30 {
            let mut a = random_polys(&mut rng, 3, -(b as i64 - 1), b as i64 - 1);
            assert!(!(avx2.chknorm)(&a, b));
            assert!(!(port.chknorm)(&a, b));
            let (k, i) = (rng.next_u32() as usize % 3, rng.next_u32() as usize % 256);
            for v in [b - 1, b, b + 1, -(b - 1), -b, -(b + 1), 0] {
                a[k].coeffs[i] = v;
                let want = (port.chknorm)(&a, b);
                assert_eq!(want, v.abs() >= b);
                assert_eq!((avx2.chknorm)(&a, b), want, "bound {b}, value {v}");
            }
            // Anything reduce32 can output.
            let a = random_polys(&mut rng, 2, -6283008, 6283008);
            assert_eq!((avx2.chknorm)(&a, b), (port.chknorm)(&a, b));
        }
    }
    assert!(!(avx2.chknorm)(&[], 5));
}

/// Runs both samplers over `buf` into `out` slices of length `len` prefilled with a
/// sentinel; the whole slices and the counts must agree.
fn check_sampler(
    name: &str,
    f_avx2: &dyn Fn(&mut [i32], &[u8]) -> usize,
    f_port: &dyn Fn(&mut [i32], &[u8]) -> usize,
    buf: &[u8],
    len: usize,
) -> usize {
    let mut o1 = vec![i32::MIN; len];
    let mut o2 = vec![i32::MIN; len];
    let n1 = f_avx2(&mut o1, buf);
    let n2 = f_port(&mut o2, buf);
    assert_eq!(
        n1,
        n2,
        "{name}: count, buf len {}, out len {len}",
        buf.len()
    );
    assert_eq!(
        o1,
        o2,
        "{name}: output, buf len {}, out len {len}",
        buf.len()
    );
    n1
}

const OUT_LENS: [usize; 16] = [
    0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 100, 200, 255, 256, 400,
];

/// 3-byte candidates each rejected with probability `p_reject` (out of 256).
fn uniform_buf(rng: &mut Rng, candidates: usize, p_reject: u32) -> Vec<u8> {
    let mut v = Vec::with_capacity(3 * candidates);
    for _ in 0..candidates {
        let x = rng.next_u32();
        let c = if (x & 0xFF) < p_reject {
            // ≥ q after dropping the top bit; the top bit is random.
            (Q as u32 + (x >> 8) % ((1 << 23) - Q as u32)) | ((x & 0x8000_0000) >> 8)
        } else {
            ((x >> 8) % Q as u32) | ((x & 0x4000_0000) >> 7)
        };
        v.extend_from_slice(&c.to_le_bytes()[..3]);
    }
    v
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn rej_uniform_matches() {
    let (avx2, port) = tables();
    let mut rng = Rng::new(0x5EED_0004);
    let (fa, fp) = (avx2.rej_uniform, port.rej_uniform);
    // Random bytes (almost everything accepted), every length up to 5 blocks + change.
    for blen in (0..=900).chain([5 * 168, 3 * 168]) {
        let buf = rng.bytes(blen);
        for &len in &OUT_LENS {
            check_sampler("rej_uniform", &fa, &fp, &buf, len);
        }
    }
    // Heavy rejection at several rates, odd lengths included.
    for p in [16, 64, 128, 200, 250, 256] {
        for _ in 0..40 {
            let cands = rng.next_u32() as usize % 400;
            let mut buf = uniform_buf(&mut rng, cands, p);
            // Drop 0–2 bytes so the length is not always a multiple of 3.
            let cut = (rng.next_u32() % 3) as usize;
            buf.truncate(buf.len().saturating_sub(cut));
            for &len in &OUT_LENS {
                check_sampler("rej_uniform", &fa, &fp, &buf, len);
            }
        }
    }
    // Every 8-candidate acceptance pattern, twice in a row.
    for m in 0..256u32 {
        let mut buf = Vec::new();
        for _ in 0..2 {
            for j in 0..8 {
                let c = if (m >> j) & 1 == 1 {
                    rng.next_u32() % Q as u32
                } else {
                    0x7F_FFFF
                };
                buf.extend_from_slice(&c.to_le_bytes()[..3]);
            }
        }
        for &len in &OUT_LENS {
            check_sampler("rej_uniform", &fa, &fp, &buf, len);
        }
    }
    // Boundary candidates q − 1, q and with the ignored top bit set.
    let mut buf = Vec::new();
    for c in [
        Q as u32 - 1,
        Q as u32,
        Q as u32 + 1,
        0,
        0x80_0000,
        0xFF_FFFF,
        0x80_0000 | (Q as u32 - 1),
    ] {
        buf.extend_from_slice(&c.to_le_bytes()[..3]);
    }
    let buf: Vec<u8> = buf.iter().cycle().take(21 * 10).copied().collect();
    for &len in &OUT_LENS {
        check_sampler("rej_uniform", &fa, &fp, &buf, len);
    }
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn rej_eta_matches() {
    let (avx2, port) = tables();
    let mut rng = Rng::new(0x5EED_0005);
    for eta in [2, 4] {
        let fa = move |o: &mut [i32], b: &[u8]| (avx2.rej_eta)(eta, o, b);
        let fp = move |o: &mut [i32], b: &[u8]| (port.rej_eta)(eta, o, b);
        for blen in (0..=300).chain([408, 544, 680]) {
            let buf = rng.bytes(blen);
            for &len in &OUT_LENS {
                let n = check_sampler("rej_eta", &fa, &fp, &buf, len);
                assert!(n <= len);
            }
        }
        // Mostly rejected nibbles (values 9..=15), and all-rejected buffers.
        for _ in 0..200 {
            let blen = rng.next_u32() as usize % 200;
            let buf: Vec<u8> = (0..blen)
                .map(|_| {
                    let x = rng.next_u32();
                    let nib = |s: u32| {
                        if (x >> s) & 3 == 0 {
                            (x >> (s + 2)) as u8 & 0xF
                        } else {
                            15 - ((x >> (s + 2)) as u8 % 7)
                        }
                    };
                    nib(0) | nib(8) << 4
                })
                .collect();
            for &len in &OUT_LENS {
                check_sampler("rej_eta", &fa, &fp, &buf, len);
            }
        }
        // Every byte value, so every nibble pair and its mapping is exercised.
        let buf: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for &len in &OUT_LENS {
            check_sampler("rej_eta", &fa, &fp, &buf, len);
        }
        let buf = vec![0xFFu8; 100];
        assert_eq!(check_sampler("rej_eta", &fa, &fp, &buf, 256), 0);
    }
}

#[test]
#[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
fn keccak_x4_matches_four_scalar_permutations() {
    common::require(Backend::Avx2);
    let permute = permute4_for(Backend::Avx2);
    let mut rng = Rng::new(0x5EED_0006);
    let mut st = StateX4::default();
    for round in 0..200 {
        if round % 10 == 0 {
            // Fresh random state (otherwise keep iterating the previous output).
            for lane in st.s.iter_mut() {
                for w in lane.iter_mut() {
                    *w = rng.next_u64();
                }
            }
        }
        if round == 1 {
            st = StateX4::default();
        }
        check_permute(permute, &mut st, &format!("round {round}"));
    }
}
