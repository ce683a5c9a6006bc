//! The NEON GF(16) kernels (`kernels/gf16/neon.rs`) against the portable kernels, bit for
//! bit, on random inputs of SNOVA's shapes (l ∈ {4,5}, r ∈ {4,5,6,8}, o ∈ {3..6},
//! v up to 40, linear systems up to 160 unknowns) and around them: every column tail
//! 1..=16 of gemm, every row-block remainder, transposed and padded strides, product
//! shapes on both sides of the four-register limit, singular and non-singular systems.
//!
//! AArch64 only: the tests run for `aarch64-unknown-linux-gnu` (under `qemu-aarch64` in
//! `scripts/test-all.sh`; build.rs sets `pqsig_test_neon` for every AArch64 target, NEON
//! being mandatory there) and are ignored on other targets, which have no NEON backend
//! to compare. The cross-backend suite `snova_gf16_equivalence.rs` runs everywhere.

use pqsig::kernels::gf16::{self, portable, Kernels};
use pqsig::Backend;

/// splitmix64: reproducible inputs without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// `len` bytes below `bound` (16: reduced; 0x80: unreduced; 256: any byte).
    fn bytes(&mut self, len: usize, bound: u32) -> Vec<u8> {
        (0..len)
            .map(|_| (self.next() as u32 % bound) as u8)
            .collect()
    }
}

fn neon() -> &'static Kernels {
    assert!(
        Backend::Neon.is_available(),
        "NEON is mandatory on AArch64 Linux; detection must report it"
    );
    let k = gf16::kernels(Backend::Neon);
    assert_eq!(
        k.backend,
        Backend::Neon,
        "gf16::kernels(Neon) must be the NEON table"
    );
    k
}

const P: &Kernels = &portable::KERNELS;

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn neon_table_is_selected() {
    let k = neon();
    assert_eq!(Backend::detect(), Backend::Neon);
    assert!(Backend::available().any(|b| b == Backend::Neon));
    assert!(core::ptr::eq(k, gf16::kernels(Backend::Neon)));
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn reduce_matches_portable_on_every_byte() {
    let k = neon();
    let mut rng = Rng(1);
    // Every byte value, at every lane position of a 16-byte register and in the tail.
    let all: Vec<u8> = (0..=255u8).chain(0..=254u8).collect();
    let (mut a, mut b) = (all.clone(), all.clone());
    (k.reduce)(&mut a);
    (P.reduce)(&mut b);
    assert_eq!(a, b);
    for len in 0..80 {
        let x = rng.bytes(len, 256);
        let (mut a, mut b) = (x.clone(), x.clone());
        (k.reduce)(&mut a);
        (P.reduce)(&mut b);
        assert_eq!(a, b, "len {len}");
    }
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn axpy_matches_portable() {
    let k = neon();
    let mut rng = Rng(2);
    for len in 0..70 {
        for &bound in &[16u32, 256] {
            let s = rng.below(bound as usize) as u8;
            let extra = rng.below(3);
            let x = rng.bytes(len + extra, bound);
            let acc = rng.bytes(len, 0x80);
            let (mut a, mut b) = (acc.clone(), acc.clone());
            (k.axpy_acc)(&mut a, s, &x);
            (P.axpy_acc)(&mut b, s, &x);
            assert_eq!(a, b, "len {len} s {s} bound {bound}");
        }
    }
    // Every scalar against every element value.
    let x: Vec<u8> = (0..16).collect();
    for s in 0..16u8 {
        let (mut a, mut b) = (vec![0u8; 16], vec![0u8; 16]);
        (k.axpy_acc)(&mut a, s, &x);
        (P.axpy_acc)(&mut b, s, &x);
        assert_eq!(a, b, "s {s}");
    }
}

/// One gemm case: A m×kk with strides (a_rs, a_cs), B kk×n at ldb, C m×n at ldc.
#[allow(clippy::too_many_arguments)]
fn gemm_case(
    rng: &mut Rng,
    m: usize,
    kk: usize,
    n: usize,
    transposed: bool,
    pad: usize,
    bound: u32,
) {
    let k = neon();
    let (a_rs, a_cs) = if transposed {
        (1, m + pad)
    } else {
        (kk + pad, 1)
    };
    let a_len = if m == 0 || kk == 0 {
        0
    } else {
        (m - 1) * a_rs + (kk - 1) * a_cs + 1
    };
    let (ldb, ldc) = (n + pad, n + 2 * pad);
    let slack = rng.below(2);
    let a = rng.bytes(a_len + slack, bound);
    let b = rng.bytes(kk.saturating_sub(1) * ldb + n, bound);
    let c0 = rng.bytes(m.saturating_sub(1) * ldc + n, 0x80);
    let (mut c1, mut c2) = (c0.clone(), c0.clone());
    (k.gemm_acc)(&mut c1, ldc, &a, a_rs, a_cs, &b, ldb, m, kk, n);
    (P.gemm_acc)(&mut c2, ldc, &a, a_rs, a_cs, &b, ldb, m, kk, n);
    assert_eq!(
        c1, c2,
        "gemm m {m} kk {kk} n {n} transposed {transposed} pad {pad} bound {bound}"
    );
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn gemm_matches_portable_on_every_tail() {
    let mut rng = Rng(3);
    for m in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17] {
        for n in 0..=35 {
            for kk in [0usize, 1, 4, 5] {
                let t = rng.below(2) == 1;
                let pad = rng.below(4);
                gemm_case(&mut rng, m, kk, n, t, pad, 16);
            }
        }
    }
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn gemm_matches_portable_on_snova_shapes() {
    let mut rng = Rng(4);
    // (v, o, l, r) of the nine Round 3 sets.
    let sets = [
        (29, 3, 4, 8),
        (27, 4, 4, 6),
        (27, 5, 4, 4),
        (38, 4, 4, 8),
        (38, 5, 4, 6),
        (38, 6, 4, 5),
        (40, 4, 5, 8),
        (40, 5, 5, 6),
        (40, 6, 5, 5),
    ];
    for (v, o, l, r) in sets {
        let nn = v + o;
        for (m, kk, n) in [
            (l, l, l),
            (l, l, r),
            (r, l, l),
            (v * l, l, l),
            (v * l, v * l, l),
            (l, v * l, o * l),
            (v * l, v * l, o * l),
            (o * l, v * l, l * l),
            (nn * l, l, r),
            (l * r, nn * l, l),
        ] {
            for transposed in [false, true] {
                let pad = rng.below(3);
                gemm_case(&mut rng, m, kk, n, transposed, pad, 16);
            }
        }
    }
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn gemm_matches_portable_on_any_bytes() {
    // Outside the documented bounds both backends use the low nibble of A and B.
    let mut rng = Rng(5);
    for _ in 0..200 {
        let (m, kk, n) = (1 + rng.below(20), 1 + rng.below(20), 1 + rng.below(40));
        let t = rng.below(2) == 1;
        let pad = rng.below(3);
        gemm_case(&mut rng, m, kk, n, t, pad, 256);
    }
}

fn batch_case(
    rng: &mut Rng,
    p: usize,
    kd: usize,
    q: usize,
    count: usize,
    extra: usize,
    bound: u32,
) {
    let k = neon();
    let (sa, sb) = (rng.below(3), rng.below(3));
    let a = rng.bytes(count * p * kd + sa, bound);
    let b = rng.bytes(count * kd * q + sb, bound);
    // Bytes past the last whole product must stay untouched.
    let out0 = rng.bytes(count * p * q + extra, 256);
    let (mut o1, mut o2) = (out0.clone(), out0.clone());
    (k.mat_mul_batch)(&mut o1, &a, &b, p, kd, q);
    (P.mat_mul_batch)(&mut o2, &a, &b, p, kd, q);
    assert_eq!(
        o1, o2,
        "batch {p}×{kd}·{kd}×{q} count {count} extra {extra} bound {bound}"
    );
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn mat_mul_batch_matches_portable() {
    let mut rng = Rng(6);
    let mut shapes = Vec::new();
    for l in [4usize, 5] {
        for r in [4usize, 5, 6, 8] {
            shapes.extend([
                (l, l, l),
                (l, l, r),
                (r, l, l),
                (l, r, l),
                (r, l, r),
                (1, l, l),
                (l, l, 1),
            ]);
        }
    }
    // The batched products of signing, for the nine sets' (o, l, r): B^T·T0 (l×r·r×ol),
    // Y·Q1 ((ol)×l·l×l), A·T1 (r×r·r×ol), Z·Q2 ((ro)×l·l×l).
    for (o, l, r) in [
        (3, 4, 8),
        (4, 4, 6),
        (5, 4, 4),
        (4, 4, 8),
        (5, 4, 6),
        (6, 4, 5),
        (4, 5, 8),
        (5, 5, 6),
        (6, 5, 5),
    ] {
        shapes.extend([(l, r, o * l), (l * o, l, l), (r, r, o * l), (r * o, l, l)]);
    }
    // Register-count corners (64 elements = four registers) and the gemm path.
    shapes.extend([
        (1, 1, 1),
        (2, 3, 2),
        (8, 8, 8),
        (4, 16, 4),
        (16, 4, 4),
        (4, 4, 16),
        (9, 8, 7),
        (8, 9, 8),
        (5, 17, 3),
        (3, 0, 3),
    ]);
    for &(p, kd, q) in &shapes {
        for count in [1usize, 2, 3, 7, 16] {
            let extra = if p * q > 1 { rng.below(p * q) } else { 0 };
            batch_case(&mut rng, p, kd, q, count, extra, 16);
            batch_case(&mut rng, p, kd, q, count, 0, 256);
        }
    }
    // An output shorter than one product: nothing happens.
    batch_case(&mut rng, 4, 4, 4, 0, 15, 16);
}

/// Random system of n unknowns; `singular` forces a dependent row.
fn system(rng: &mut Rng, n: usize, stride: usize, singular: bool) -> Vec<u8> {
    let mut aug = rng.bytes(n * stride, 16);
    if singular && n >= 2 {
        // Row j = row i + f·row h over the coefficient columns (and any right-hand side).
        let (i, h) = (rng.below(n), rng.below(n));
        let j = (i + 1 + rng.below(n - 1)) % n;
        let f = 1 + rng.below(15) as u8;
        for c in 0..n {
            aug[j * stride + c] = aug[i * stride + c] ^ gf16::mul(f, aug[h * stride + c]);
            if h == j {
                aug[j * stride + c] = 0;
            }
        }
        // A zero column as well, half of the time (h == j cases aside).
        if rng.below(2) == 0 {
            let col = rng.below(n);
            for r in 0..n {
                aug[r * stride + col] = 0;
            }
        }
    }
    aug
}

fn solve_case(rng: &mut Rng, n: usize, pad: usize, singular: bool) -> bool {
    let k = neon();
    let stride = n + 1 + pad;
    let aug0 = system(rng, n, stride, singular);
    let (mut a1, mut a2) = (aug0.clone(), aug0.clone());
    let (mut x1, mut x2) = (vec![0u8; n], vec![0u8; n]);
    let ok1 = (k.solve)(&mut a1, n, stride, &mut x1);
    let ok2 = (P.solve)(&mut a2, n, stride, &mut x2);
    assert_eq!(ok1, ok2, "solve n {n} pad {pad}: singular flags differ");
    if singular && n >= 2 {
        assert!(
            !ok1,
            "solve n {n}: a dependent system reported non-singular"
        );
    }
    if ok1 {
        assert_eq!(x1, x2, "solve n {n} pad {pad}");
        // And it is a solution.
        for i in 0..n {
            let mut s = 0u8;
            for j in 0..n {
                s ^= gf16::mul(aug0[i * stride + j], x1[j]);
            }
            assert_eq!(
                s,
                aug0[i * stride + n],
                "solve n {n}: row {i} not satisfied"
            );
        }
    }
    ok1
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn solve_matches_portable() {
    let mut rng = Rng(7);
    let mut nonsingular = 0;
    for n in (0..=40).chain([47, 48, 49, 63, 64, 65, 80, 96, 100, 112, 128, 150, 160]) {
        let reps = if n <= 40 { 4 } else { 2 };
        for _ in 0..reps {
            let pad = rng.below(20);
            nonsingular += solve_case(&mut rng, n, pad, false) as usize;
            solve_case(&mut rng, n, pad, true);
        }
    }
    // Random systems over GF(16) are non-singular with probability ≈ 0.93: the
    // comparison of solutions must actually have run.
    assert!(nonsingular > 60, "only {nonsingular} non-singular systems");
}

#[test]
#[cfg_attr(not(pqsig_test_neon), ignore = "NEON exists on AArch64 only")]
fn solve_handles_zero_pivots() {
    // Zero leading entries force the masked pivot repair at every step.
    let mut rng = Rng(8);
    for n in [2usize, 3, 5, 16, 17, 33, 80] {
        for _ in 0..4 {
            let stride = n + 1;
            let mut aug = system(&mut rng, n, stride, false);
            for i in 0..n {
                for j in 0..=i.min(n - 1) {
                    if rng.below(2) == 0 {
                        aug[i * stride + j] = 0;
                    }
                }
                aug[i * stride + i] = 0;
            }
            let (mut a1, mut a2) = (aug.clone(), aug.clone());
            let (mut x1, mut x2) = (vec![0u8; n], vec![0u8; n]);
            let ok1 = (neon().solve)(&mut a1, n, stride, &mut x1);
            let ok2 = (P.solve)(&mut a2, n, stride, &mut x2);
            assert_eq!(ok1, ok2, "n {n}");
            if ok1 {
                assert_eq!(x1, x2, "n {n}");
            }
        }
    }
}
