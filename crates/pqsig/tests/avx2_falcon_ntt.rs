//! Falcon NTT kernels (q = 12289): every backend bit-for-bit against portable on random
//! inputs for every degree, and the NTT product against a schoolbook negacyclic product.

mod common;

use common::XorShift;
use pqsig::kernels::falcon::ntt::{kernels, NttKernels, Q};
use pqsig::Backend;

fn portable() -> &'static NttKernels {
    kernels(Backend::Portable)
}

/// Random residues in [0, q): uniform, or (one time in four) mostly the extremes.
fn residues(rng: &mut XorShift, len: usize) -> Vec<u16> {
    let extremes = rng.next() & 3 == 0;
    (0..len)
        .map(|_| {
            if extremes {
                match rng.next() % 4 {
                    0 => 0,
                    1 => (Q - 1) as u16,
                    _ => (rng.next() % Q as u64) as u16,
                }
            } else {
                (rng.next() % Q as u64) as u16
            }
        })
        .collect()
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

fn simd_backends() -> Vec<Backend> {
    Backend::available()
        .filter(|&b| b != Backend::Portable)
        .collect()
}

#[test]
fn ntt_product_matches_schoolbook_every_backend() {
    let mut rng = XorShift(0x5eed_f00d_1234_5678);
    for b in Backend::available() {
        let k = kernels(b);
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
                assert_eq!(x, want, "backend {b} logn {logn}");
                // And the round trip.
                let mut z = a.clone();
                (k.ntt)(&mut z, logn);
                (k.intt)(&mut z, logn);
                assert_eq!(z, a, "round trip, backend {b} logn {logn}");
            }
        }
    }
}

#[test]
fn transforms_match_portable() {
    let mut rng = XorShift(0x0123_4567_89ab_cdef);
    for b in simd_backends() {
        let k = kernels(b);
        assert_eq!(k.backend, b);
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            for polys in [1usize, 3] {
                for _ in 0..8 {
                    let a = residues(&mut rng, polys * n);
                    let (mut x, mut y) = (a.clone(), a.clone());
                    (portable().ntt)(&mut x, logn);
                    (k.ntt)(&mut y, logn);
                    assert_eq!(x, y, "ntt backend {b} logn {logn}");
                    let (mut x, mut y) = (a.clone(), a.clone());
                    (portable().intt)(&mut x, logn);
                    (k.intt)(&mut y, logn);
                    assert_eq!(x, y, "intt backend {b} logn {logn}");
                }
            }
        }
    }
}

#[test]
fn pointwise_kernels_match_portable() {
    let mut rng = XorShift(0xdead_beef_cafe_f00d);
    for b in simd_backends() {
        let k = kernels(b);
        // Lengths that are and are not multiples of 16, one polynomial or a batch with
        // a broadcast second operand.
        for &(len, blen) in &[
            (2, 2),
            (8, 8),
            (16, 16),
            (512, 512),
            (1024, 1024),
            (48, 16),
            (3072, 1024),
            (40, 8),
            (1000, 1000),
            (35, 35),
        ] {
            for _ in 0..10 {
                let a = residues(&mut rng, len);
                let mut c = residues(&mut rng, blen);
                if rng.next().is_multiple_of(3) {
                    let i = (rng.next() as usize) % blen;
                    c[i] = 0;
                }
                type Bin = fn(&mut [u16], &[u16]);
                let bins: [(&str, Bin, Bin); 3] = [
                    ("mul_monty", portable().mul_monty, k.mul_monty),
                    ("add", portable().add, k.add),
                    ("sub", portable().sub, k.sub),
                ];
                for (name, p, s) in bins {
                    let (mut x, mut y) = (a.clone(), a.clone());
                    p(&mut x, &c);
                    s(&mut y, &c);
                    assert_eq!(x, y, "{name} backend {b} len {len}");
                    assert!(y.iter().all(|&v| (v as u32) < Q));
                }
                let (mut x, mut y) = (a.clone(), a.clone());
                let rp = (portable().div)(&mut x, &c);
                let rs = (k.div)(&mut y, &c);
                assert_eq!((x, rp), (y, rs), "div backend {b} len {len}");
                assert_eq!(rp, c.iter().all(|&v| v != 0));

                let (mut x, mut y) = (a.clone(), a.clone());
                (portable().to_monty)(&mut x);
                (k.to_monty)(&mut y);
                assert_eq!(x, y, "to_monty backend {b} len {len}");

                assert_eq!(
                    (portable().sqnorm_centered)(&a),
                    (k.sqnorm_centered)(&a),
                    "sqnorm_centered backend {b} len {len}"
                );

                let s: Vec<i16> = (0..len)
                    .map(|_| ((rng.next() % (2 * Q as u64 - 1)) as i32 - (Q as i32 - 1)) as i16)
                    .collect();
                let (mut x, mut y) = (vec![0u16; len], vec![0u16; len]);
                (portable().from_i16)(&mut x, &s);
                (k.from_i16)(&mut y, &s);
                assert_eq!(x, y, "from_i16 backend {b} len {len}");
                assert_eq!((portable().sqnorm_i16)(&s), (k.sqnorm_i16)(&s));
                let full: Vec<i16> = (0..len).map(|_| rng.next() as i16).collect();
                assert_eq!((portable().sqnorm_i16)(&full), (k.sqnorm_i16)(&full));

                let s8: Vec<i8> = (0..len).map(|_| rng.next() as i8).collect();
                let (mut x, mut y) = (vec![0u16; len], vec![0u16; len]);
                (portable().from_i8)(&mut x, &s8);
                (k.from_i8)(&mut y, &s8);
                assert_eq!(x, y, "from_i8 backend {b} len {len}");
            }
        }
    }
}

#[test]
fn portable_pointwise_semantics() {
    let k = portable();
    let mut rng = XorShift(42);
    let a = residues(&mut rng, 64);
    let c = residues(&mut rng, 64);
    let mut x = a.clone();
    (k.mul_monty)(&mut x, &c);
    (k.to_monty)(&mut x);
    for i in 0..64 {
        assert_eq!(x[i] as u64, a[i] as u64 * c[i] as u64 % Q as u64);
    }
    let mut x = a.clone();
    let ok = (k.div)(&mut x, &c);
    assert_eq!(ok, c.iter().all(|&v| v != 0));
    for i in 0..64 {
        if c[i] != 0 {
            assert_eq!(x[i] as u64 * c[i] as u64 % Q as u64, a[i] as u64);
        }
    }
    let s: Vec<i16> = vec![-12288, -1, 0, 1, 12288, -6144, 6145];
    let mut o = vec![0u16; s.len()];
    (k.from_i16)(&mut o, &s);
    assert_eq!(o, vec![1, 12288, 0, 1, 12288, 6145, 6145]);
    assert_eq!(
        (k.sqnorm_centered)(&[0, 1, 12288, 6144, 6145]),
        2 + 2 * 6144 * 6144
    );
    assert_eq!((k.sqnorm_i16)(&[-32768, 3]), 32768 * 32768 + 9);
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

#[test]
fn hash_words_every_backend_matches_model() {
    let mut rng = XorShift(0x4841_5348_574f_5244);
    for round in 0..3000 {
        let nlanes = (rng.next() % 40) as usize;
        // Words near the rejection bound, or (one time in three) mostly rejected ones.
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
        for b in Backend::available() {
            let mut got = init.clone();
            let rg = (kernels(b).hash_words)(&mut got, filled, &lanes);
            assert_eq!(rg, rw, "{b} round {round}");
            // Only the filled part is defined.
            assert_eq!(got[..rg.0], want[..rw.0], "{b} round {round}");
            assert_eq!(got[..filled], init[..filled], "{b} round {round}");
        }
    }
}
