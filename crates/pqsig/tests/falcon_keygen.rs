//! Falcon key generation properties for every degree (logn 1..=10), from random seeds:
//! the NTRU equation f·G − g·F = q holds exactly, h·f = g mod q, coefficients are in
//! range, the solver alone reproduces (F, G), and generation is deterministic.

mod common;

use common::XorShift;
use pqsig::falcon::params;
use pqsig::kernels::internals::falcon::keygen;

const Q: i64 = 12289;

/// Negacyclic product over the integers.
fn mul_negacyclic(a: &[i64], b: &[i64]) -> Vec<i64> {
    let n = a.len();
    let mut c = vec![0i64; n];
    for i in 0..n {
        for j in 0..n {
            let t = a[i] * b[j];
            if i + j < n {
                c[i + j] += t;
            } else {
                c[i + j - n] -= t;
            }
        }
    }
    c
}

fn widen(x: &[i8]) -> Vec<i64> {
    x.iter().map(|&v| v as i64).collect()
}

fn check_keypair(kp: &keygen::KeyPair) {
    let logn = kp.logn;
    let n = 1usize << logn;
    for v in [&kp.f, &kp.g, &kp.F, &kp.G] {
        assert_eq!(v.len(), n);
        assert!(v.iter().all(|&x| (-127..=127).contains(&x)));
    }
    let lim = 1i32 << (params::FG_BITS[logn as usize] - 1);
    assert!(kp
        .f
        .iter()
        .chain(kp.g.iter())
        .all(|&x| (x as i32) < lim && (x as i32) > -lim));
    // Odd resultants: odd coefficient sums.
    assert_eq!(kp.f.iter().map(|&x| x as i64).sum::<i64>() & 1, 1);
    assert_eq!(kp.g.iter().map(|&x| x as i64).sum::<i64>() & 1, 1);
    // f·G − g·F = q exactly.
    let (f, g, bf, bg) = (widen(&kp.f), widen(&kp.g), widen(&kp.F), widen(&kp.G));
    let fg = mul_negacyclic(&f, &bg);
    let gf = mul_negacyclic(&g, &bf);
    for i in 0..n {
        let want = if i == 0 { Q } else { 0 };
        assert_eq!(
            fg[i] - gf[i],
            want,
            "logn {logn}: NTRU equation, coefficient {i}"
        );
    }
    // h·f = g mod q.
    assert_eq!(kp.h.len(), n);
    assert!(kp.h.iter().all(|&x| (x as i64) < Q));
    let h: Vec<i64> = kp.h.iter().map(|&x| x as i64).collect();
    let hf = mul_negacyclic(&h, &f);
    for i in 0..n {
        assert_eq!(
            hf[i].rem_euclid(Q),
            g[i].rem_euclid(Q),
            "logn {logn}: h·f = g"
        );
    }
    // Squared norm of (g, −f) below 1.17²·q.
    let sq: i64 = f.iter().chain(g.iter()).map(|x| x * x).sum();
    assert!(sq < 16823);
}

#[test]
fn keypairs_for_every_degree() {
    let mut rng = XorShift(0x5eed_f41c_0123_4567);
    for logn in 1..=10u32 {
        let count = if logn >= 9 { 3 } else { 6 };
        for _ in 0..count {
            let seed: [u8; 48] = rng.bytes(48).try_into().unwrap();
            let kp = keygen::keygen_from_seed48(&seed, logn).unwrap();
            assert_eq!(kp.logn, logn);
            check_keypair(&kp);
            // The solver alone gives the same (F, G).
            let sol = keygen::solve(&kp.f, &kp.g, logn).expect("solve");
            assert_eq!(&sol.F[..], &kp.F[..]);
            assert_eq!(&sol.G[..], &kp.G[..]);
            // Deterministic from the seed.
            let again = keygen::keygen_from_seed48(&seed, logn).unwrap();
            assert_eq!(
                (&again.f, &again.g, &again.F, &again.G),
                (&kp.f, &kp.g, &kp.F, &kp.G)
            );
            assert_eq!(again.h, kp.h);
        }
    }
}

#[test]
fn unsupported_degrees_are_errors() {
    let seed = [7u8; 48];
    assert!(keygen::keygen_from_seed48(&seed, 0).is_err());
    assert!(keygen::keygen_from_seed48(&seed, 11).is_err());
    assert!(keygen::solve(&[1, 0], &[1, 0], 0).is_none());
    assert!(keygen::solve(&[1], &[1], 1).is_none());
}

#[test]
fn solver_rejects_even_resultants() {
    // f = 1 + X (sum 2: even resultant) cannot be solved.
    assert!(keygen::solve(&[1, 1, 0, 0], &[1, 0, 0, 0], 2).is_none());
    // f = 1, g = 0 ... g even: no solution either (resultant 0).
    assert!(keygen::solve(&[1, 0, 0, 0], &[0, 0, 0, 0], 2).is_none());
    // f = g = 1: every solution has G − F = q, so none fits in [−127, 127].
    assert!(keygen::solve(&[1, 0, 0, 0], &[1, 0, 0, 0], 2).is_none());
}

/// Every available backend (portable, and the AVX2 builds of the solver's loops) gives
/// the same keys.
#[test]
fn backends_agree() {
    use pqsig::backend;
    let mut rng = XorShift(0xbac0_e4d5_0000_0001);
    let seeds: Vec<[u8; 48]> = (0..3).map(|_| rng.bytes(48).try_into().unwrap()).collect();
    for logn in [2u32, 5, 9, 10] {
        for seed in &seeds {
            let mut keys = Vec::new();
            for b in common::backends() {
                backend::set_backend(b).unwrap();
                let kp = keygen::keygen_from_seed48(seed, logn).unwrap();
                keys.push((b, kp.F.clone(), kp.G.clone(), kp.h.clone()));
            }
            backend::reset();
            for k in &keys[1..] {
                assert_eq!(
                    (&k.1, &k.2, &k.3),
                    (&keys[0].1, &keys[0].2, &keys[0].3),
                    "{:?}",
                    k.0
                );
            }
        }
    }
}

/// The round-3 sampler read coefficient by coefficient, 8 bytes per word, as the
/// reference does (test-local, deliberately naive).
fn naive_sample(rng: &mut pqsig::kernels::keccak::sponge::Shake256, logn: u32) -> Vec<i8> {
    const T: [u64; 27] = [
        1283868770400643928,
        6416574995475331444,
        4078260278032692663,
        2353523259288686585,
        1227179971273316331,
        575931623374121527,
        242543240509105209,
        91437049221049666,
        30799446349977173,
        9255276791179340,
        2478152334826140,
        590642893610164,
        125206034929641,
        23590435911403,
        3948334035941,
        586753615614,
        77391054539,
        9056793210,
        940121950,
        86539696,
        7062824,
        510971,
        32764,
        1862,
        94,
        4,
        0,
    ];
    let word = |rng: &mut pqsig::kernels::keccak::sponge::Shake256| {
        let mut b = [0u8; 8];
        rng.squeeze(&mut b);
        u64::from_le_bytes(b)
    };
    let n = 1usize << logn;
    let mut f = vec![0i8; n];
    let mut parity = 0;
    let mut u = 0;
    while u < n {
        let mut s = 0i32;
        for _ in 0..(1 << (10 - logn)) {
            let r0 = word(rng);
            let r1 = word(rng) & (u64::MAX >> 1);
            let v = if (r0 & (u64::MAX >> 1)) < T[0] {
                0
            } else {
                (1..27).find(|&k| r1 >= T[k]).unwrap() as i32
            };
            s += if r0 >> 63 == 1 { -v } else { v };
        }
        if !(-127..=127).contains(&s) {
            continue;
        }
        if u == n - 1 {
            if (parity ^ (s & 1)) == 0 {
                continue;
            }
        } else {
            parity ^= s & 1;
        }
        f[u] = s as i8;
        u += 1;
    }
    f
}

/// `sample_fg` draws the same f, g as the coefficient-by-coefficient reference and
/// leaves the SHAKE stream at the same place (it reads in bulk, never ahead).
#[test]
fn sampler_matches_reference_stream() {
    use pqsig::kernels::keccak::sponge::Shake256;
    for logn in 1..=10u32 {
        for seed in 0..4u8 {
            let mut a = Shake256::new();
            a.absorb(&[seed, logn as u8]);
            let mut b = Shake256::new();
            b.absorb(&[seed, logn as u8]);
            let n = 1usize << logn;
            let (mut f, mut g) = (vec![0i8; n], vec![0i8; n]);
            let mut buf = [0u8; 8192];
            keygen::sample_fg(&mut a, &mut f, &mut g, logn, &mut buf);
            assert_eq!(f, naive_sample(&mut b, logn), "logn {logn} f");
            assert_eq!(g, naive_sample(&mut b, logn), "logn {logn} g");
            let (mut ra, mut rb) = ([0u8; 32], [0u8; 32]);
            a.squeeze(&mut ra);
            b.squeeze(&mut rb);
            assert_eq!(ra, rb, "logn {logn}: stream position");
        }
    }
}
