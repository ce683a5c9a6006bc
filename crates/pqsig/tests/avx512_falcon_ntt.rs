//! Falcon NTT kernels (q = 12289) of the AVX-512 table: bit-for-bit against portable on
//! random and extreme inputs for every degree and batch shapes, and the NTT product
//! against a schoolbook negacyclic product. Skipped (with a message) where AVX-512 is
//! unavailable.

mod common;

use common::XorShift;
use pqsig::kernels::falcon::ntt::{kernels, NttKernels, Q};
use pqsig::Backend;

fn tables() -> Option<(&'static NttKernels, &'static NttKernels)> {
    if !Backend::Avx512.is_available() {
        println!("skipped: AVX-512 is not available on this CPU/target");
        return None;
    }
    let (p, k) = (kernels(Backend::Portable), kernels(Backend::Avx512));
    assert_eq!(p.backend, Backend::Portable);
    assert_eq!(k.backend, Backend::Avx512);
    Some((p, k))
}

/// Random residues in [0, q): uniform, or mostly the extremes and their neighbours.
fn residues(rng: &mut XorShift, len: usize) -> Vec<u16> {
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

fn check(p: &NttKernels, k: &NttKernels, a: &[u16], logn: u32, what: &str) {
    let (mut x, mut y) = (a.to_vec(), a.to_vec());
    (p.ntt)(&mut x, logn);
    (k.ntt)(&mut y, logn);
    assert_eq!(x, y, "ntt logn {logn} {what}");
    let (mut x, mut y) = (a.to_vec(), a.to_vec());
    (p.intt)(&mut x, logn);
    (k.intt)(&mut y, logn);
    assert_eq!(x, y, "intt logn {logn} {what}");
}

#[test]
fn transforms_match_portable_random() {
    let Some((p, k)) = tables() else { return };
    let mut rng = XorShift(0x0a5b_1c2d_3e4f_5061);
    for logn in 1..=10u32 {
        let n = 1usize << logn;
        let reps = if logn >= 9 { 200 } else { 60 };
        for r in 0..reps {
            let polys = [1usize, 2, 3][r % 3];
            let a = residues(&mut rng, polys * n);
            check(p, k, &a, logn, "random");
        }
    }
}

#[test]
fn transforms_match_portable_patterns() {
    let Some((p, k)) = tables() else { return };
    for logn in 1..=10u32 {
        for (i, a) in patterns(1 << logn).iter().enumerate() {
            check(p, k, a, logn, &format!("pattern {i}"));
        }
    }
}

#[test]
fn ntt_product_and_round_trip() {
    let Some((_, k)) = tables() else { return };
    let mut rng = XorShift(0x7e57_ab1e_0000_0512);
    for logn in 1..=10u32 {
        let n = 1usize << logn;
        for _ in 0..3 {
            let a = residues(&mut rng, n);
            let c = residues(&mut rng, n);
            let want = schoolbook(&a, &c);
            let (mut x, mut y) = (a.clone(), c.clone());
            (k.ntt)(&mut x, logn);
            (k.ntt)(&mut y, logn);
            (k.mul_monty)(&mut x, &y);
            (k.to_monty)(&mut x);
            (k.intt)(&mut x, logn);
            assert_eq!(x, want, "product logn {logn}");
            let mut z = a.clone();
            (k.ntt)(&mut z, logn);
            (k.intt)(&mut z, logn);
            assert_eq!(z, a, "round trip logn {logn}");
        }
    }
}

#[test]
fn batches_are_independent() {
    let Some((p, k)) = tables() else { return };
    let mut rng = XorShift(0x0b47_c4e5);
    for logn in [6u32, 9, 10] {
        let n = 1usize << logn;
        let a = residues(&mut rng, 4 * n);
        let mut y = a.clone();
        (k.ntt)(&mut y, logn);
        for (i, chunk) in a.chunks(n).enumerate() {
            let mut x = chunk.to_vec();
            (p.ntt)(&mut x, logn);
            assert_eq!(&y[i * n..(i + 1) * n], &x[..], "batch poly {i} logn {logn}");
        }
    }
}

#[test]
fn pointwise_kernels_match_portable() {
    let Some((p, k)) = tables() else { return };
    let mut rng = XorShift(0x9017_7715e);
    // Whole 32-lane shapes (one polynomial, a batch against one broadcast polynomial)
    // and shapes that take the AVX2 path.
    for &(len, blen) in &[
        (32usize, 32usize),
        (512, 512),
        (1024, 1024),
        (3072, 1024),
        (1536, 512),
        (64, 32),
        (16, 16),
        (48, 16),
        (40, 8),
        (1000, 1000),
        (2, 2),
    ] {
        for _ in 0..20 {
            let a = residues(&mut rng, len);
            let c = residues(&mut rng, blen);
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
                assert_eq!(x, y, "{name} len {len}/{blen}");
            }
            let (mut x, mut y) = (a.clone(), a.clone());
            (p.to_monty)(&mut x);
            (k.to_monty)(&mut y);
            assert_eq!(x, y, "to_monty len {len}");
        }
    }
}
