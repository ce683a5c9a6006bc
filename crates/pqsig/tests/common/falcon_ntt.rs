//! Test bodies of the Falcon NTT kernels (q = 12289), one per check, each taking the
//! table under test and comparing it with portable: included (`#[path]`) by the per-ISA
//! files `avx2_falcon_ntt.rs` and `avx512_falcon_ntt.rs`, which call every body with
//! their backend's table.

use crate::common::XorShift;
use pqsig::kernels::falcon::ntt::{kernels, NttKernels, Q};
use pqsig::Backend;

fn portable() -> &'static NttKernels {
    kernels(Backend::Portable)
}

/// Random residues in [0, q): uniform, or mostly the extremes and their neighbours.
pub fn residues(rng: &mut XorShift, len: usize) -> Vec<u16> {
    let mode = rng.next() % 4;
    (0..len)
        .map(|_| match mode {
            0 => match rng.next() % 6 {
                0 => 0,
                1 => 1,
                2 => (Q - 2) as u16,
                3 | 4 => (Q - 1) as u16,
                _ => (rng.next() % Q as u64) as u16,
            },
            1 => (Q - 1 - (rng.next() % 8) as u32) as u16,
            _ => (rng.next() % Q as u64) as u16,
        })
        .collect()
}

/// Fixed patterns: all zero, all q − 1, alternating 0 / q − 1 and q − 1 / 1, a ramp.
fn patterns(n: usize) -> Vec<Vec<u16>> {
    let qm = (Q - 1) as u16;
    vec![
        vec![0; n],
        vec![qm; n],
        (0..n).map(|i| if i % 2 == 0 { 0 } else { qm }).collect(),
        (0..n).map(|i| if i % 2 == 0 { qm } else { 1 }).collect(),
        (0..n).map(|i| (i as u32 * 4099 % Q) as u16).collect(),
        (0..n).map(|i| if i < n / 2 { qm } else { 0 }).collect(),
    ]
}

fn schoolbook(a: &[u16], b: &[u16]) -> Vec<u16> {
    let n = a.len();
    let mut c = vec![0i64; n];
    for i in 0..n {
        for j in 0..n {
            let p = a[i] as i64 * b[j] as i64;
            if i + j < n {
                c[i + j] += p;
            } else {
                c[i + j - n] -= p;
            }
        }
    }
    c.iter().map(|&v| v.rem_euclid(Q as i64) as u16).collect()
}

fn check_transforms(k: &NttKernels, a: &[u16], logn: u32, what: &str) {
    let b = k.backend;
    let (mut x, mut y) = (a.to_vec(), a.to_vec());
    (portable().ntt)(&mut x, logn);
    (k.ntt)(&mut y, logn);
    assert_eq!(x, y, "{b}: ntt logn {logn} {what}");
    let (mut x, mut y) = (a.to_vec(), a.to_vec());
    (portable().intt)(&mut x, logn);
    (k.intt)(&mut y, logn);
    assert_eq!(x, y, "{b}: intt logn {logn} {what}");
}

/// The NTT product against a schoolbook negacyclic product, and the round trip, for
/// every degree.
pub fn product_matches_schoolbook(k: &NttKernels) {
    let b = k.backend;
    let mut rng = XorShift(0x5eed_f00d_1234_5678);
    for logn in 1..=10u32 {
        let n = 1usize << logn;
        for _ in 0..3 {
            let a = residues(&mut rng, n);
            let c = residues(&mut rng, n);
            let want = schoolbook(&a, &c);
            let (mut x, mut y) = (a.clone(), c.clone());
            (k.ntt)(&mut x, logn);
            (k.ntt)(&mut y, logn);
            // x·y/R, then ·R back: the plain product in the NTT domain.
            (k.mul_monty)(&mut x, &y);
            (k.to_monty)(&mut x);
            (k.intt)(&mut x, logn);
            assert_eq!(x, want, "{b}: product logn {logn}");
            let mut z = a.clone();
            (k.ntt)(&mut z, logn);
            (k.intt)(&mut z, logn);
            assert_eq!(z, a, "{b}: round trip logn {logn}");
        }
    }
}

/// Forward and inverse transforms bit for bit against portable on random inputs of
/// every degree, one to three polynomials at once.
pub fn transforms_match_portable_random(k: &NttKernels) {
    let mut rng = XorShift(0x0a5b_1c2d_3e4f_5061);
    for logn in 1..=10u32 {
        let n = 1usize << logn;
        let reps = if logn >= 9 { 200 } else { 60 };
        for r in 0..reps {
            let polys = [1usize, 2, 3][r % 3];
            let a = residues(&mut rng, polys * n);
            check_transforms(k, &a, logn, "random");
        }
    }
}

/// The same on the fixed patterns.
pub fn transforms_match_portable_patterns(k: &NttKernels) {
    for logn in 1..=10u32 {
        for (i, a) in patterns(1 << logn).iter().enumerate() {
            check_transforms(k, a, logn, &format!("pattern {i}"));
        }
    }
}

/// A batch of four polynomials transforms as four separate ones.
pub fn batches_are_independent(k: &NttKernels) {
    let mut rng = XorShift(0x0b47_c4e5);
    for logn in [6u32, 9, 10] {
        let n = 1usize << logn;
        let a = residues(&mut rng, 4 * n);
        let mut y = a.clone();
        (k.ntt)(&mut y, logn);
        for (i, chunk) in a.chunks(n).enumerate() {
            let mut x = chunk.to_vec();
            (portable().ntt)(&mut x, logn);
            assert_eq!(&y[i * n..(i + 1) * n], &x[..], "batch poly {i} logn {logn}");
        }
    }
}

/// Every element-wise kernel bit for bit against portable, on lengths that are and are
/// not multiples of the vector widths (16 and 32 lanes), one polynomial or a batch with
/// a broadcast second operand; divisors sometimes hold a zero.
pub fn pointwise_kernels_match_portable(k: &NttKernels) {
    let b = k.backend;
    let p = portable();
    let mut rng = XorShift(0xdead_beef_cafe_f00d);
    for &(len, blen) in &[
        (2usize, 2usize),
        (8, 8),
        (16, 16),
        (32, 32),
        (35, 35),
        (40, 8),
        (48, 16),
        (64, 32),
        (512, 512),
        (1000, 1000),
        (1024, 1024),
        (1536, 512),
        (3072, 1024),
    ] {
        for _ in 0..20 {
            let a = residues(&mut rng, len);
            let mut c = residues(&mut rng, blen);
            if rng.next().is_multiple_of(3) {
                let i = (rng.next() as usize) % blen;
                c[i] = 0;
            }
            type Bin = fn(&mut [u16], &[u16]);
            let bins: [(&str, Bin, Bin); 3] = [
                ("mul_monty", p.mul_monty, k.mul_monty),
                ("add", p.add, k.add),
                ("sub", p.sub, k.sub),
            ];
            for (name, pf, kf) in bins {
                let (mut x, mut y) = (a.clone(), a.clone());
                pf(&mut x, &c);
                kf(&mut y, &c);
                assert_eq!(x, y, "{b}: {name} len {len}/{blen}");
                assert!(y.iter().all(|&v| (v as u32) < Q));
            }
            let (mut x, mut y) = (a.clone(), a.clone());
            let rp = (p.div)(&mut x, &c);
            let rs = (k.div)(&mut y, &c);
            assert_eq!((x, rp), (y, rs), "{b}: div len {len}/{blen}");
            assert_eq!(rp, c.iter().all(|&v| v != 0));

            let (mut x, mut y) = (a.clone(), a.clone());
            (p.to_monty)(&mut x);
            (k.to_monty)(&mut y);
            assert_eq!(x, y, "{b}: to_monty len {len}");

            assert_eq!(
                (p.sqnorm_centered)(&a),
                (k.sqnorm_centered)(&a),
                "{b}: sqnorm_centered len {len}"
            );

            let s: Vec<i16> = (0..len)
                .map(|_| ((rng.next() % (2 * Q as u64 - 1)) as i32 - (Q as i32 - 1)) as i16)
                .collect();
            let (mut x, mut y) = (vec![0u16; len], vec![0u16; len]);
            (p.from_i16)(&mut x, &s);
            (k.from_i16)(&mut y, &s);
            assert_eq!(x, y, "{b}: from_i16 len {len}");
            assert_eq!((p.sqnorm_i16)(&s), (k.sqnorm_i16)(&s));
            let full: Vec<i16> = (0..len).map(|_| rng.next() as i16).collect();
            assert_eq!((p.sqnorm_i16)(&full), (k.sqnorm_i16)(&full));

            let s8: Vec<i8> = (0..len).map(|_| rng.next() as i8).collect();
            let (mut x, mut y) = (vec![0u16; len], vec![0u16; len]);
            (p.from_i8)(&mut x, &s8);
            (k.from_i8)(&mut y, &s8);
            assert_eq!(x, y, "{b}: from_i8 len {len}");
        }
    }
}

/// Hash-to-point sampling, word by word from the definition.
fn hash_words_model(out: &mut [u16], mut filled: usize, lanes: &[u64]) -> (usize, usize) {
    for (i, lane) in lanes.iter().enumerate() {
        if filled >= out.len() {
            return (filled, i);
        }
        let bytes = lane.to_le_bytes();
        for w in bytes.chunks(2) {
            let w = u16::from_be_bytes([w[0], w[1]]) as u32;
            if w < 5 * Q && filled < out.len() {
                out[filled] = (w % Q) as u16;
                filled += 1;
            }
        }
    }
    (filled, lanes.len())
}

/// `hash_words` against the definition, on words near the rejection bound or mostly
/// rejected ones.
pub fn hash_words_match_model(k: &NttKernels) {
    let b = k.backend;
    let mut rng = XorShift(0x4841_5348_574f_5244);
    for round in 0..3000 {
        let nlanes = (rng.next() % 40) as usize;
        let lanes: Vec<u64> = (0..nlanes)
            .map(|_| {
                let mut l = rng.next();
                if round % 3 == 0 {
                    l |= 0xF0F0_F0F0_F0F0_F0F0;
                } else if round % 3 == 1 {
                    // Each word around 5q = 61445 (0xF005), in stream (big-endian) order.
                    let mut b = [0u8; 8];
                    for w in b.chunks_mut(2) {
                        let v = (61445 - 8 + (rng.next() % 16) as u32) as u16;
                        w.copy_from_slice(&v.to_be_bytes());
                    }
                    l = u64::from_le_bytes(b);
                }
                l
            })
            .collect();
        let n = (rng.next() % 200) as usize;
        let filled = (rng.next() % (n as u64 + 1)) as usize;
        let init: Vec<u16> = (0..n).map(|_| rng.next() as u16).collect();
        let mut want = init.clone();
        let rw = hash_words_model(&mut want, filled, &lanes);
        let mut got = init.clone();
        let rg = (k.hash_words)(&mut got, filled, &lanes);
        assert_eq!(rg, rw, "{b} round {round}");
        // Only the filled part is defined.
        assert_eq!(got[..rg.0], want[..rw.0], "{b} round {round}");
        assert_eq!(got[..filled], init[..filled], "{b} round {round}");
    }
}
