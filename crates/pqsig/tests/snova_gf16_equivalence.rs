//! GF(16) kernels (kernels/gf16): every available implementation (portable, AVX2 with
//! and without GFNI, AVX-512 …, see `gf16::implementations`) against a naive reference
//! built in this test from log/exp tables, and against the portable kernels, on random
//! inputs of many shapes including SNOVA's (l ∈ {4,5}, r ∈ {4,5,6,8}, n·l up to 230,
//! m up to 200), random strides and accumulators at the unreduced bound (< 0x80).
//! `solve` runs on random non-singular and singular systems with stride padding, checks
//! A·x = b and the singular flag.

use pqsig::kernels::gf16::{self, implementations, Kernels};
use pqsig::Backend;

// ---------- naive reference (test only: tables indexed by data are fine here) ----------

struct Field {
    exp: [u8; 30],
    log: [u8; 16],
}

fn field() -> Field {
    let mut exp = [0u8; 30];
    let mut log = [0u8; 16];
    let mut v = 1u8;
    for (i, e) in exp.iter_mut().enumerate() {
        *e = v;
        if i < 15 {
            log[v as usize] = i as u8;
        }
        // v ← v·t mod t⁴+t+1
        v <<= 1;
        if v & 16 != 0 {
            v ^= 0x13;
        }
    }
    Field { exp, log }
}

impl Field {
    fn mul(&self, a: u8, b: u8) -> u8 {
        if a == 0 || b == 0 {
            0
        } else {
            self.exp[(self.log[a as usize] + self.log[b as usize]) as usize]
        }
    }
    fn inv(&self, a: u8) -> u8 {
        self.exp[(15 - self.log[a as usize]) as usize % 15]
    }
}

/// Carry-less product by schoolbook over bits (independent of the library's helper).
fn clmul_naive(a: u8, b: u8) -> u8 {
    let mut r = 0u8;
    for i in 0..4 {
        if (b >> i) & 1 == 1 {
            r ^= a << i;
        }
    }
    r
}

/// Reduction by polynomial long division.
fn reduce_naive(mut v: u8) -> u8 {
    for d in (4..8).rev() {
        if (v >> d) & 1 == 1 {
            v ^= 0x13 << (d - 4);
        }
    }
    v
}

// ---------- deterministic random source ----------

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn nib(&mut self) -> u8 {
        (self.next() >> 33) as u8 & 15
    }
    fn nibs(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.nib()).collect()
    }
    fn unreduced(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| (self.next() >> 40) as u8 & 0x7F).collect()
    }
}

fn impls() -> Vec<&'static Kernels> {
    let v: Vec<&'static Kernels> = Backend::ALL
        .iter()
        .flat_map(|&b| implementations(b))
        .collect();
    for k in &v {
        println!("testing {} ({})", k.backend, gf16::implementation_name(k));
    }
    assert!(v.iter().any(|k| k.backend == Backend::Portable));
    v
}

// ---------- field helpers in the library ----------

#[test]
fn scalar_helpers_match_reference() {
    let f = field();
    for a in 0..16u8 {
        for b in 0..16u8 {
            assert_eq!(gf16::clmul4(a, b), clmul_naive(a, b));
            assert_eq!(gf16::mul(a, b), f.mul(a, b), "{a}·{b}");
        }
        if a != 0 {
            assert_eq!(gf16::inv(a), f.inv(a));
            assert_eq!(f.mul(a, f.inv(a)), 1);
        }
    }
    assert_eq!(gf16::inv(0), 0);
    for v in 0..0x80u8 {
        assert_eq!(gf16::reduce1(v), reduce_naive(v));
    }
}

// ---------- gemm_acc ----------

#[allow(clippy::too_many_arguments)]
fn gemm_case(rng: &mut Rng, ks: &[&Kernels], m: usize, kk: usize, n: usize, transposed: bool) {
    let pad_c = rng.below(3);
    gemm_case_pad(rng, ks, m, kk, n, transposed, pad_c)
}

/// `pad_c = 0`: unit stride along k (row-major A) or along i (`transposed`).
#[allow(clippy::too_many_arguments)]
fn gemm_case_pad(
    rng: &mut Rng,
    ks: &[&Kernels],
    m: usize,
    kk: usize,
    n: usize,
    transposed: bool,
    pad_c: usize,
) {
    let f = field();
    // A with random padding in its strides; optionally column-major.
    let pad_r = rng.below(4);
    let (a_rs, a_cs) = if transposed {
        (1 + pad_c, (m * (1 + pad_c)) + pad_r)
    } else {
        (kk * (1 + pad_c) + pad_r, 1 + pad_c)
    };
    let a_len = (m.max(1) - 1) * a_rs + (kk.max(1) - 1) * a_cs + 1;
    let a = rng.nibs(a_len);
    let ldb = n + rng.below(5);
    let b = rng.nibs(kk * ldb);
    let ldc = n + rng.below(5);
    let c0 = rng.unreduced(m * ldc);
    // Reference: reduced result plus the untouched padding.
    let mut want = c0.clone();
    for i in 0..m {
        for j in 0..n {
            let mut s = c0[i * ldc + j];
            for k in 0..kk {
                s ^= clmul_naive(a[i * a_rs + k * a_cs], b[k * ldb + j]);
            }
            want[i * ldc + j] = s;
        }
    }
    // Cross-check one entry in the field (reduction commutes with the sum).
    if m > 0 && n > 0 {
        let mut s = reduce_naive(c0[0]);
        for k in 0..kk {
            s ^= f.mul(a[k * a_cs], b[k * ldb]);
        }
        assert_eq!(reduce_naive(want[0]), s);
    }
    for k in ks {
        let mut c = c0.clone();
        // Slices cut to the last addressed element: no kernel may touch more.
        let c_len = if m == 0 || n == 0 {
            0
        } else {
            (m - 1) * ldc + n
        };
        let b_len = if kk == 0 || n == 0 {
            0
        } else {
            (kk - 1) * ldb + n
        };
        (k.gemm_acc)(
            &mut c[..c_len],
            ldc,
            &a,
            a_rs,
            a_cs,
            &b[..b_len],
            ldb,
            m,
            kk,
            n,
        );
        assert_eq!(
            c,
            want,
            "gemm_acc {} ({}) m={m} kk={kk} n={n} a_rs={a_rs} a_cs={a_cs} ldb={ldb} ldc={ldc}",
            k.backend,
            gf16::implementation_name(k)
        );
        assert!(c.iter().all(|&v| v < 0x80));
    }
}

#[test]
fn gemm_acc_snova_shapes() {
    let ks = impls();
    let mut rng = Rng(0x5107_A6E4_0001);
    for &l in &[4usize, 5] {
        for &r in &[4usize, 5, 6, 8] {
            for &nv in &[27usize, 29, 38, 40, 45] {
                for &o in &[3usize, 4, 5, 6] {
                    let nn = (nv + o) * l;
                    for &cols in &[l * r, o * l, l, l * l] {
                        if rng.below(6) == 0 {
                            let tr = rng.0 & 1 == 0;
                            gemm_case(&mut rng, &ks, nn.min(230), nn.min(230), cols, tr);
                        }
                    }
                }
            }
        }
    }
    // The largest SNOVA-like shapes, both layouts.
    gemm_case(&mut rng, &ks, 230, 230, 40, false);
    gemm_case(&mut rng, &ks, 225, 225, 40, true);
    gemm_case(&mut rng, &ks, 200, 180, 30, false);
    // Long k: the k-interleaved AVX-512 products work in passes of at most 64 groups of
    // k (512 for 8-wide groups, 256 for 4-wide) and must carry the sum across passes.
    for n in [3, 8, 12, 16, 24, 32] {
        for kk in [255, 256, 257, 513, 1100] {
            gemm_case_pad(&mut rng, &ks, 9, kk, n, false, 0);
            gemm_case(&mut rng, &ks, 9, kk, n, kk % 2 == 1);
        }
    }
}

#[test]
fn gemm_acc_random_shapes() {
    let ks = impls();
    let mut rng = Rng(0x5107_A6E4_0002);
    for _ in 0..300 {
        let m = rng.below(40);
        let kk = rng.below(40);
        let n = 1 + rng.below(150);
        let tr = rng.below(2) == 0;
        gemm_case(&mut rng, &ks, m, kk, n, tr);
    }
    for &n in &[
        1usize, 7, 8, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 127, 128, 129, 200,
    ] {
        for &m in &[1usize, 2, 3, 7, 8, 9, 17] {
            let kk = 1 + rng.below(20);
            gemm_case(&mut rng, &ks, m, kk, n, false);
        }
    }
}

/// Unit-stride layouts of A (row-major: a_cs = 1; column-major: a_rs = 1) with narrow
/// B, where SIMD backends pack several k or several rows into one register: every
/// width up to 40, row counts and k counts around the packing granules.
#[test]
fn gemm_acc_unit_strides() {
    let ks = impls();
    let mut rng = Rng(0x5107_A6E4_0006);
    for n in 1..=40 {
        for &m in &[1usize, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 70] {
            for tr in [false, true] {
                let kk = 1 + rng.below(24);
                gemm_case_pad(&mut rng, &ks, m, kk, n, tr, 0);
            }
        }
        for kk in [1usize, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 108, 128] {
            gemm_case_pad(&mut rng, &ks, 20, kk, n, false, 0);
            gemm_case_pad(&mut rng, &ks, 20, kk, n, true, 0);
        }
    }
    // SNOVA's wide product (l·r rows, n·l deep, m1·n·l wide) in both layouts.
    gemm_case_pad(&mut rng, &ks, 16, 128, 640, true, 0);
    gemm_case_pad(&mut rng, &ks, 40, 230, 1380, true, 0);
    gemm_case_pad(&mut rng, &ks, 16, 108, 540, false, 0);
}

// ---------- axpy_acc, reduce ----------

#[test]
fn axpy_and_reduce() {
    let ks = impls();
    let mut rng = Rng(0x5107_A6E4_0003);
    for len in (0..300).chain([512, 1000, 4096]) {
        let x = rng.nibs(len);
        let acc0 = rng.unreduced(len + 3);
        for s in 0..16u8 {
            let mut want = acc0.clone();
            for j in 0..len {
                want[j] ^= clmul_naive(s, x[j]);
            }
            for k in &ks {
                let mut acc = acc0.clone();
                (k.axpy_acc)(&mut acc[..len], s, &x);
                assert_eq!(
                    acc,
                    want,
                    "axpy {} ({}) len={len} s={s}",
                    k.backend,
                    gf16::implementation_name(k)
                );
            }
        }
        let want: Vec<u8> = acc0.iter().map(|&v| reduce_naive(v)).collect();
        for k in &ks {
            let mut v = acc0.clone();
            (k.reduce)(&mut v);
            assert_eq!(
                v,
                want,
                "reduce {} ({}) len={len}",
                k.backend,
                gf16::implementation_name(k)
            );
        }
    }
    // Every byte value at and below the bound, in every position of a vector.
    let all: Vec<u8> = (0..0x80u8).cycle().take(0x80 * 3 + 5).collect();
    let want: Vec<u8> = all.iter().map(|&v| reduce_naive(v)).collect();
    for k in &ks {
        let mut v = all.clone();
        (k.reduce)(&mut v);
        assert_eq!(v, want);
    }
}

// ---------- mat_mul_batch ----------

#[test]
fn mat_mul_batch_shapes() {
    let ks = impls();
    let f = field();
    let mut rng = Rng(0x5107_A6E4_0004);
    let mut shapes = vec![];
    for &l in &[4usize, 5] {
        shapes.push((l, l, l));
        for &r in &[4usize, 5, 6, 8] {
            shapes.push((r, r, l));
            shapes.push((l, l, r));
            shapes.push((r, l, l));
            shapes.push((l, r, r));
            shapes.push((r, r, r));
            // Signing's batches: Bᵀ·T0ᵀ (l×r·r×ol), Y·Q1 ((l·o)×l·l×l), A·T1ᵀ
            // (r×r·r×ol), Z·Q2 ((r·o)×l·l×l).
            for o in 3..=6 {
                shapes.push((l, r, o * l));
                shapes.push((l * o, l, l));
                shapes.push((r, r, o * l));
                shapes.push((r * o, l, l));
            }
        }
    }
    // Beyond the register kernels' limits (k > 16, q > 64, k·q > 128).
    shapes.push((3, 17, 5));
    shapes.push((2, 3, 70));
    shapes.push((4, 9, 15));
    for _ in 0..30 {
        shapes.push((1 + rng.below(12), 1 + rng.below(12), 1 + rng.below(12)));
    }
    for &(p, k, q) in &shapes {
        for &count in &[0usize, 1, 2, 3, 5, 13, 120] {
            let a = rng.nibs(count * p * k);
            let b = rng.nibs(count * k * q);
            let mut want = vec![0u8; count * p * q];
            for t in 0..count {
                for i in 0..p {
                    for j in 0..q {
                        let mut s = 0;
                        for l in 0..k {
                            s ^= f.mul(a[t * p * k + i * k + l], b[t * k * q + l * q + j]);
                        }
                        want[t * p * q + i * q + j] = s;
                    }
                }
            }
            for kr in &ks {
                let mut out = rng.unreduced(count * p * q);
                (kr.mat_mul_batch)(&mut out, &a, &b, p, k, q);
                assert_eq!(
                    out,
                    want,
                    "mat_mul_batch {} ({}) {p}x{k}·{k}x{q} count={count}",
                    kr.backend,
                    gf16::implementation_name(kr)
                );
            }
        }
    }
}

// ---------- solve ----------

/// A random n×n matrix of the requested rank (product of random full-rank factors with a
/// rank-r diagonal), as rows.
fn matrix_of_rank(rng: &mut Rng, f: &Field, n: usize, rank: usize) -> Vec<Vec<u8>> {
    // Random invertible via unit lower × unit upper triangular with random permutation.
    let mut lower = vec![vec![0u8; n]; n];
    let mut upper = vec![vec![0u8; n]; n];
    for i in 0..n {
        for j in 0..n {
            if j < i {
                lower[i][j] = rng.nib();
            } else if j > i {
                upper[i][j] = rng.nib();
            }
        }
        lower[i][i] = 1;
        upper[i][i] = if i < rank { 1 + rng.below(15) as u8 } else { 0 };
    }
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i + 1));
    }
    let mut m = vec![vec![0u8; n]; n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0;
            for k in 0..n {
                s ^= f.mul(lower[i][k], upper[k][j]);
            }
            m[perm[i]][j] = s;
        }
    }
    m
}

fn solve_case(rng: &mut Rng, ks: &[&Kernels], n: usize, rank: usize) {
    let f = field();
    let mat = matrix_of_rank(rng, &f, n, rank);
    let stride = n + 1 + rng.below(40);
    let b: Vec<u8> = rng.nibs(n);
    let mut aug = vec![0u8; n * stride];
    for i in 0..n {
        aug[i * stride..i * stride + n].copy_from_slice(&mat[i]);
        aug[i * stride + n] = b[i];
        for t in n + 1..stride {
            aug[i * stride + t] = rng.nib();
        }
    }
    let mut first: Option<Vec<u8>> = None;
    for k in ks {
        let mut a = aug.clone();
        let mut x = vec![0xAAu8; n];
        // The last row cut to its n+1 elements.
        let a_len = (n - 1) * stride + n + 1;
        let ok = (k.solve)(&mut a[..a_len], n, stride, &mut x);
        let name = format!(
            "{} ({}) n={n} rank={rank} stride={stride}",
            k.backend,
            gf16::implementation_name(k)
        );
        assert_eq!(ok, rank == n, "solve flag {name}");
        if ok {
            for i in 0..n {
                let mut s = 0;
                for j in 0..n {
                    s ^= f.mul(mat[i][j], x[j]);
                }
                assert_eq!(s, b[i], "A·x ≠ b row {i}, {name}");
            }
            match &first {
                None => first = Some(x.clone()),
                Some(x0) => assert_eq!(&x, x0, "{name}"),
            }
        }
    }
}

#[test]
fn solve_random_systems() {
    let ks = impls();
    let mut rng = Rng(0x5107_A6E4_0005);
    for n in [1usize, 2, 3, 5, 16, 31, 32, 33, 63, 64, 65] {
        solve_case(&mut rng, &ks, n, n);
        solve_case(&mut rng, &ks, n, n - 1);
    }
    for _ in 0..12 {
        let n = 48 + rng.below(113);
        solve_case(&mut rng, &ks, n, n);
        let r = rng.below(n);
        solve_case(&mut rng, &ks, n, r);
    }
    // SNOVA's sizes o·l·r.
    for n in [80usize, 96, 100, 120, 128, 150, 160] {
        solve_case(&mut rng, &ks, n, n);
        solve_case(&mut rng, &ks, n, n - 1);
    }
}

/// Zero pivots that need the row search at every position, and an all-zero column.
#[test]
fn solve_structured() {
    let ks = impls();
    let f = field();
    for n in [2usize, 17, 64, 65, 130, 160] {
        // Anti-diagonal permutation matrix: every pivot is found by the search.
        let stride = n + 3;
        let mut aug = vec![0u8; n * stride];
        for i in 0..n {
            aug[i * stride + (n - 1 - i)] = 1 + (i % 15) as u8;
            aug[i * stride + n] = (i % 16) as u8;
        }
        for k in &ks {
            let mut a = aug.clone();
            let mut x = vec![0u8; n];
            assert!((k.solve)(&mut a, n, stride, &mut x));
            for i in 0..n {
                assert_eq!(f.mul(1 + (i % 15) as u8, x[n - 1 - i]), (i % 16) as u8);
            }
        }
        // Zero matrix.
        let aug = vec![0u8; n * stride];
        for k in &ks {
            let mut a = aug.clone();
            let mut x = vec![0u8; n];
            assert!(!(k.solve)(&mut a, n, stride, &mut x));
        }
    }
}
