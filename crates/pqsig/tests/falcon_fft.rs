//! Falcon FFT kernels: twiddle table, algebraic properties of every operation, and
//! bit-exactness against the round-3 reference.
//!
//! Every property test runs on each available backend (`common::backends()`).

mod common;

use common::XorShift;
use pqsig::kernels::falcon::fft::{self, kernels, FftKernels, GM_TAB, P2_TAB};
use pqsig::kernels::falcon::fpr::Fpr;
use pqsig::Backend;
use sha2::{Digest, Sha256};

// ---------------------------------------------------------------------------------------
// Helpers.

fn f64_of(x: Fpr) -> f64 {
    f64::from_bits(x.to_bits())
}

fn rev10(k: usize) -> usize {
    (k as u32).reverse_bits() as usize >> 22
}

/// The anchors' input values: a 40-bit signed integer scaled by 2^-30 (exact).
fn anchor_value(rng: &mut XorShift) -> Fpr {
    Fpr::scaled((rng.next() >> 24) as i64 - (1 << 39), -30)
}

fn small_ints(rng: &mut XorShift, n: usize, bound: i64) -> Vec<i64> {
    (0..n)
        .map(|_| (rng.next() % (2 * bound as u64 + 1)) as i64 - bound)
        .collect()
}

fn to_fpr(v: &[i64]) -> Vec<Fpr> {
    v.iter().map(|&x| Fpr::of(x)).collect()
}

fn bits(v: &[Fpr]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn rint_all(v: &[Fpr]) -> Vec<i64> {
    v.iter().map(|x| x.rint()).collect()
}

/// Negacyclic product mod X^n + 1.
fn schoolbook(a: &[i64], b: &[i64]) -> Vec<i64> {
    let n = a.len();
    let mut c = vec![0i64; n];
    for i in 0..n {
        for j in 0..n {
            let p = a[i] * b[j];
            if i + j < n {
                c[i + j] += p;
            } else {
                c[i + j - n] -= p;
            }
        }
    }
    c
}

/// adj(a)(x) = a(1/x) mod X^n + 1: a0, −a_{n−1}, …, −a1.
fn adj_int(a: &[i64]) -> Vec<i64> {
    let n = a.len();
    (0..n)
        .map(|i| if i == 0 { a[0] } else { -a[n - i] })
        .collect()
}

fn fft_of(k: &FftKernels, v: &[i64], logn: u32) -> Vec<Fpr> {
    let mut f = to_fpr(v);
    (k.fft)(&mut f, logn);
    f
}

fn ifft_rint(k: &FftKernels, mut f: Vec<Fpr>, logn: u32) -> Vec<i64> {
    (k.ifft)(&mut f, logn);
    rint_all(&f)
}

fn assert_close(what: &str, got: &[Fpr], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    let scale = want.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let g = f64_of(g);
        assert!(
            (g - w).abs() <= tol * scale,
            "{what}: index {i}: got {g}, want {w} (scale {scale})"
        );
    }
}

fn tables() -> Vec<(Backend, &'static FftKernels)> {
    common::backends()
        .into_iter()
        .map(|b| (b, kernels(b)))
        .collect()
}

// ---------------------------------------------------------------------------------------
// Twiddle table.

/// (cos, sin)(π k / 1024) for 0 <= k <= 256 (first octant) in f64, with the angle
/// carried in double-double so that only the final roundings and libm's error remain.
fn cos_sin_octant(k: usize) -> (f64, f64) {
    const PI_LO: f64 = 1.2246467991473532e-16; // π − PI (the f64 π)
    let kf = k as f64;
    let hi = kf * core::f64::consts::PI;
    let lo = kf.mul_add(core::f64::consts::PI, -hi) + kf * PI_LO;
    let (th, dl) = (hi / 1024.0, lo / 1024.0);
    let (s, c) = (th.sin(), th.cos());
    (c - s * dl, s + c * dl)
}

/// (cos, sin)(π r / 1024) for 0 <= r < 1024, by exact reduction to the first octant
/// (θ' below is at most π/4).
fn cos_sin(r: usize) -> (f64, f64) {
    match r {
        0..=256 => cos_sin_octant(r),
        // θ = π/2 − θ'
        257..=512 => {
            let (c, s) = cos_sin_octant(512 - r);
            (s, c)
        }
        // θ = π/2 + θ'
        513..=768 => {
            let (c, s) = cos_sin_octant(r - 512);
            (-s, c)
        }
        // θ = π − θ'
        _ => {
            let (c, s) = cos_sin_octant(1024 - r);
            (-c, s)
        }
    }
}

fn ulps(a: f64, b: f64) -> u64 {
    if a == b {
        return 0;
    }
    assert_eq!(
        a.is_sign_negative(),
        b.is_sign_negative(),
        "{a} vs {b}: sign"
    );
    (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
}

#[test]
fn twiddles_match_cos_sin_within_one_ulp() {
    let mut worst = 0;
    for k in 2..1024 {
        let (c, s) = cos_sin(rev10(k));
        let (re, im) = (f64_of(GM_TAB[2 * k]), f64_of(GM_TAB[2 * k + 1]));
        let d = ulps(re, c).max(ulps(im, s));
        assert!(d <= 1, "entry {k}: ({re}, {im}) vs ({c}, {s})");
        worst = worst.max(d);
    }
    // Placeholders as in the reference table (never read).
    assert_eq!(GM_TAB[0].to_bits(), 0);
    assert_eq!(GM_TAB[1].to_bits(), 0);
    assert_eq!(GM_TAB[2].to_bits(), (-0.0f64).to_bits());
    assert_eq!(GM_TAB[3].to_bits(), 1.0f64.to_bits());
    eprintln!("worst twiddle distance to f64 cos/sin: {worst} ulp");
}

#[test]
fn twiddles_exact_symmetries() {
    let neg = |x: Fpr| x.to_bits() ^ (1 << 63);
    for k in 2..1024 {
        let r = rev10(k);
        let (re, im) = (GM_TAB[2 * k], GM_TAB[2 * k + 1]);
        // Rounding is odd-symmetric, so exact relations between the true values carry
        // over bit for bit to the rounded ones.
        if k % 2 == 0 {
            // rev(k + 1) = r + 512: multiplication by i.
            assert_eq!(GM_TAB[2 * k + 2].to_bits(), neg(im), "entry {k}: i·w re");
            assert_eq!(
                GM_TAB[2 * k + 3].to_bits(),
                re.to_bits(),
                "entry {k}: i·w im"
            );
        }
        if r < 512 {
            // π/2 − θ swaps cos and sin.
            let k2 = rev10(512 - r);
            assert_eq!(
                GM_TAB[2 * k2].to_bits(),
                im.to_bits(),
                "entry {k}: cos(π/2−θ)"
            );
            assert_eq!(
                GM_TAB[2 * k2 + 1].to_bits(),
                re.to_bits(),
                "entry {k}: sin(π/2−θ)"
            );
        }
        if r > 0 {
            // π − θ negates the cosine.
            let k2 = rev10(1024 - r);
            assert_eq!(GM_TAB[2 * k2].to_bits(), neg(re), "entry {k}: cos(π−θ)");
            assert_eq!(
                GM_TAB[2 * k2 + 1].to_bits(),
                im.to_bits(),
                "entry {k}: sin(π−θ)"
            );
        }
        // |w|² = 1 up to rounding.
        let (c, s) = (f64_of(re), f64_of(im));
        assert!(
            (c * c + s * s - 1.0).abs() < 4.0 * f64::EPSILON,
            "entry {k}: norm"
        );
    }
}

#[test]
fn inverse_scaling_table() {
    for logn in 0..=10u32 {
        let want = 2.0f64 / (1u64 << logn) as f64;
        assert_eq!(
            P2_TAB[logn as usize].to_bits(),
            want.to_bits(),
            "logn {logn}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Bit-exactness against the reference.
//
// The digests below were produced during development with a small C driver linked
// against the PQClean Falcon-512 "clean" sources (fft.c, fpr.c: the integer-emulated fpr
// that generated the round-3 KATs), built with gcc -O2. The driver seeds xorshift64 with
// 0x0123456789ABCDEF (x ^= x << 13; x ^= x >> 7; x ^= x << 17), draws each input value
// as fpr_scaled((int64_t)(x >> 24) − 2^39, −30), runs the operations listed in the test
// bodies in the same order, and writes every output value's u64 bit pattern in
// little-endian order; the digest is SHA-256 of that byte stream. The same driver
// against the PQClean AVX2 sources (native double, -mavx2 -mno-fma) gives the same
// digests.

/// SHA-256 of the FFT (logn = 9) of 512 anchor values.
const FFT9_DIGEST: &str = "93c4f47a4b6292777147e4e09ba87272b6b99bb221bca0f7d27164ebab480230";

/// SHA-256 of the outputs of every operation, logn = 1..=10 (see `all_ops_stream`).
const ALL_OPS_DIGEST: &str = "89fa8a403d10788cd10caebe23853051881d469b82f9d8bb328eaad52395b67f";

fn put(h: &mut Sha256, v: &[Fpr]) {
    for x in v {
        h.update(x.to_bits().to_le_bytes());
    }
}

#[test]
fn fft_logn9_matches_reference_digest() {
    for (b, k) in tables() {
        let mut rng = XorShift(0x0123_4567_89AB_CDEF);
        let mut f: Vec<Fpr> = (0..512).map(|_| anchor_value(&mut rng)).collect();
        (k.fft)(&mut f, 9);
        let mut h = Sha256::new();
        put(&mut h, &f);
        assert_eq!(hex::encode(h.finalize()), FFT9_DIGEST, "backend {b}");
    }
}

/// The driver's "all" mode, operation for operation.
fn all_ops_stream(k: &FftKernels) -> String {
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    let mut h = Sha256::new();
    for logn in 1..=10u32 {
        let n = 1usize << logn;
        let hn = n / 2;
        let mut a: Vec<Fpr> = (0..n).map(|_| anchor_value(&mut rng)).collect();
        let mut b: Vec<Fpr> = (0..n).map(|_| anchor_value(&mut rng)).collect();
        let mut c: Vec<Fpr> = (0..n).map(|_| anchor_value(&mut rng)).collect();
        (k.fft)(&mut a, logn);
        (k.fft)(&mut b, logn);
        (k.fft)(&mut c, logn);
        put(&mut h, &a);
        put(&mut h, &b);
        put(&mut h, &c);
        let mut x = a.clone();
        (k.poly_mul_fft)(&mut x, &b, logn);
        put(&mut h, &x);
        let mut x = a.clone();
        (k.poly_muladj_fft)(&mut x, &b, logn);
        put(&mut h, &x);
        let mut x = a.clone();
        (k.poly_mulselfadj_fft)(&mut x, logn);
        put(&mut h, &x);
        let mut x = a.clone();
        (k.poly_div_fft)(&mut x, &b, logn);
        put(&mut h, &x);
        let mut d = vec![Fpr::from_bits(0); hn];
        (k.poly_invnorm2_fft)(&mut d, &a, &b, logn);
        put(&mut h, &d);
        let mut x = vec![Fpr::from_bits(0); n];
        (k.poly_add_muladj_fft)(&mut x, &a, &b, &c, &a, logn);
        put(&mut h, &x);
        let mut x = a.clone();
        (k.poly_mul_autoadj_fft)(&mut x, &d, logn);
        put(&mut h, &x);
        let mut x = a.clone();
        (k.poly_div_autoadj_fft)(&mut x, &d, logn);
        put(&mut h, &x);
        let (mut x, mut y) = (b.clone(), c.clone());
        (k.poly_ldl_fft)(&a, &mut x, &mut y, logn);
        put(&mut h, &x);
        put(&mut h, &y);
        (k.poly_ldlmv_fft)(&mut x, &mut y, &a, &b, &c, logn);
        put(&mut h, &x);
        put(&mut h, &y);
        let mut f0 = vec![Fpr::from_bits(0); hn];
        let mut f1 = vec![Fpr::from_bits(0); hn];
        (k.poly_split_fft)(&mut f0, &mut f1, &a, logn);
        put(&mut h, &f0);
        put(&mut h, &f1);
        let mut x = vec![Fpr::from_bits(0); n];
        (k.poly_merge_fft)(&mut x, &f0, &f1, logn);
        put(&mut h, &x);
        let mut x = a.clone();
        (k.poly_add)(&mut x, &b, logn);
        (k.poly_sub)(&mut x, &c, logn);
        (k.poly_neg)(&mut x, logn);
        (k.poly_adj_fft)(&mut x, logn);
        (k.poly_mulconst)(&mut x, Fpr::scaled(12345, -13), logn);
        put(&mut h, &x);
        let mut x = a.clone();
        (k.ifft)(&mut x, logn);
        put(&mut h, &x);
    }
    hex::encode(h.finalize())
}

#[test]
fn all_operations_match_reference_digest() {
    for (b, k) in tables() {
        assert_eq!(all_ops_stream(k), ALL_OPS_DIGEST, "backend {b}");
    }
}

// ---------------------------------------------------------------------------------------
// Algebraic properties.

#[test]
fn fft_ifft_round_trip() {
    for (b, k) in tables() {
        let mut rng = XorShift(1);
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            for _ in 0..4 {
                let orig: Vec<Fpr> = (0..n).map(|_| anchor_value(&mut rng)).collect();
                let mut f = orig.clone();
                (k.fft)(&mut f, logn);
                (k.ifft)(&mut f, logn);
                let want: Vec<f64> = orig.iter().map(|&x| f64_of(x)).collect();
                assert_close(&format!("{b} logn {logn} round trip"), &f, &want, 1e-12);
            }
        }
    }
}

#[test]
fn fft_of_integers_round_trips_exactly() {
    for (b, k) in tables() {
        let mut rng = XorShift(2);
        for logn in 1..=10u32 {
            let v = small_ints(&mut rng, 1 << logn, 1 << 20);
            let f = fft_of(k, &v, logn);
            assert_eq!(ifft_rint(k, f, logn), v, "{b} logn {logn}");
        }
    }
}

#[test]
fn products_match_schoolbook() {
    for (b, k) in tables() {
        let mut rng = XorShift(3);
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            for _ in 0..3 {
                let (ai, bi) = (small_ints(&mut rng, n, 100), small_ints(&mut rng, n, 100));
                let (ci, di) = (small_ints(&mut rng, n, 100), small_ints(&mut rng, n, 100));
                let (fa, fb) = (fft_of(k, &ai, logn), fft_of(k, &bi, logn));
                let (fc, fd) = (fft_of(k, &ci, logn), fft_of(k, &di, logn));
                let tag = format!("{b} logn {logn}");

                let mut x = fa.clone();
                (k.poly_mul_fft)(&mut x, &fb, logn);
                assert_eq!(ifft_rint(k, x, logn), schoolbook(&ai, &bi), "{tag} mul");

                let mut x = fa.clone();
                (k.poly_muladj_fft)(&mut x, &fb, logn);
                let want = schoolbook(&ai, &adj_int(&bi));
                assert_eq!(ifft_rint(k, x, logn), want, "{tag} muladj");

                let mut x = fa.clone();
                (k.poly_adj_fft)(&mut x, logn);
                assert_eq!(ifft_rint(k, x, logn), adj_int(&ai), "{tag} adj");

                let mut x = fa.clone();
                (k.poly_mulselfadj_fft)(&mut x, logn);
                assert!(
                    x[n / 2..].iter().all(|v| v.to_bits() == 0),
                    "{tag} selfadj im"
                );
                let want = schoolbook(&ai, &adj_int(&ai));
                assert_eq!(ifft_rint(k, x, logn), want, "{tag} mulselfadj");

                let mut x = vec![Fpr::from_bits(0); n];
                (k.poly_add_muladj_fft)(&mut x, &fa, &fb, &fc, &fd, logn);
                let s1 = schoolbook(&ai, &adj_int(&ci));
                let s2 = schoolbook(&bi, &adj_int(&di));
                let want: Vec<i64> = s1.iter().zip(&s2).map(|(p, q)| p + q).collect();
                assert_eq!(ifft_rint(k, x, logn), want, "{tag} add_muladj");

                // mul_autoadj by c·adj(c) (real in the FFT domain).
                let mut cc = fc.clone();
                (k.poly_mulselfadj_fft)(&mut cc, logn);
                let mut x = fa.clone();
                (k.poly_mul_autoadj_fft)(&mut x, &cc[..n / 2], logn);
                let want = schoolbook(&ai, &schoolbook(&ci, &adj_int(&ci)));
                assert_eq!(ifft_rint(k, x, logn), want, "{tag} mul_autoadj");

                // Linear operations.
                let mut x = fa.clone();
                (k.poly_add)(&mut x, &fb, logn);
                (k.poly_sub)(&mut x, &fc, logn);
                (k.poly_neg)(&mut x, logn);
                (k.poly_mulconst)(&mut x, Fpr::of(3), logn);
                let want: Vec<i64> = (0..n).map(|i| -3 * (ai[i] + bi[i] - ci[i])).collect();
                assert_eq!(ifft_rint(k, x, logn), want, "{tag} linear");
            }
        }
    }
}

#[test]
fn divisions_invert_products() {
    for (b, k) in tables() {
        let mut rng = XorShift(4);
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            let tag = format!("{b} logn {logn}");
            let (ai, bi) = (small_ints(&mut rng, n, 100), small_ints(&mut rng, n, 100));
            let (fa, fb) = (fft_of(k, &ai, logn), fft_of(k, &bi, logn));

            let mut x = fa.clone();
            (k.poly_mul_fft)(&mut x, &fb, logn);
            (k.poly_div_fft)(&mut x, &fb, logn);
            assert_eq!(ifft_rint(k, x, logn), ai, "{tag} div");

            let mut bb = fb.clone();
            (k.poly_mulselfadj_fft)(&mut bb, logn);
            let mut x = fa.clone();
            (k.poly_mul_autoadj_fft)(&mut x, &bb, logn);
            (k.poly_div_autoadj_fft)(&mut x, &bb, logn);
            assert_eq!(ifft_rint(k, x, logn), ai, "{tag} div_autoadj");

            // invnorm2: d = 1 / (|a|² + |b|²), value by value.
            let mut d = vec![Fpr::from_bits(0); n / 2];
            (k.poly_invnorm2_fft)(&mut d, &fa, &fb, logn);
            let want: Vec<f64> = (0..n / 2)
                .map(|u| {
                    let (ar, ai_, br, bi_) = (
                        f64_of(fa[u]),
                        f64_of(fa[u + n / 2]),
                        f64_of(fb[u]),
                        f64_of(fb[u + n / 2]),
                    );
                    1.0 / (ar * ar + ai_ * ai_ + br * br + bi_ * bi_)
                })
                .collect();
            for (u, (&g, &w)) in d.iter().zip(&want).enumerate() {
                let g = f64_of(g);
                assert!((g - w).abs() <= 1e-14 * w, "{tag} invnorm2 {u}: {g} vs {w}");
            }
        }
    }
}

#[test]
fn split_merge_inverse_and_semantics() {
    for (b, k) in tables() {
        let mut rng = XorShift(5);
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            let hn = n / 2;
            let tag = format!("{b} logn {logn}");
            let v = small_ints(&mut rng, n, 1000);
            let f = fft_of(k, &v, logn);
            let mut f0 = vec![Fpr::from_bits(0); hn];
            let mut f1 = vec![Fpr::from_bits(0); hn];
            (k.poly_split_fft)(&mut f0, &mut f1, &f, logn);
            // f(x) = f0(x²) + x·f1(x²): f0 = even coefficients, f1 = odd ones.
            let even: Vec<i64> = v.iter().step_by(2).copied().collect();
            let odd: Vec<i64> = v.iter().skip(1).step_by(2).copied().collect();
            if logn >= 2 {
                assert_eq!(ifft_rint(k, f0.clone(), logn - 1), even, "{tag} split f0");
                assert_eq!(ifft_rint(k, f1.clone(), logn - 1), odd, "{tag} split f1");
            } else {
                // Degree 1: the "FFT" of a constant is the constant.
                assert_eq!(rint_all(&f0), even, "{tag} split f0");
                assert_eq!(rint_all(&f1), odd, "{tag} split f1");
            }
            let mut g = vec![Fpr::from_bits(0); n];
            (k.poly_merge_fft)(&mut g, &f0, &f1, logn);
            let want: Vec<f64> = f.iter().map(|&x| f64_of(x)).collect();
            assert_close(&format!("{tag} merge(split)"), &g, &want, 1e-13);
            assert_eq!(ifft_rint(k, g, logn), v, "{tag} merge(split) coefficients");
        }
    }
}

#[test]
fn ldl_identities() {
    for (b, k) in tables() {
        let mut rng = XorShift(6);
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            let hn = n / 2;
            let tag = format!("{b} logn {logn}");
            // Gram matrix of a random basis [[a, b], [c, d]].
            let basis: Vec<Vec<Fpr>> = (0..4)
                .map(|_| fft_of(k, &small_ints(&mut rng, n, 50), logn))
                .collect();
            let (fa, fb, fc, fd) = (&basis[0], &basis[1], &basis[2], &basis[3]);
            let mut g00 = vec![Fpr::from_bits(0); n];
            let mut g01 = vec![Fpr::from_bits(0); n];
            let mut g11 = vec![Fpr::from_bits(0); n];
            (k.poly_add_muladj_fft)(&mut g00, fa, fb, fa, fb, logn);
            (k.poly_add_muladj_fft)(&mut g01, fa, fb, fc, fd, logn);
            (k.poly_add_muladj_fft)(&mut g11, fc, fd, fc, fd, logn);

            let mut d11 = vec![Fpr::from_bits(0); n];
            let mut l10 = vec![Fpr::from_bits(0); n];
            (k.poly_ldlmv_fft)(&mut d11, &mut l10, &g00, &g01, &g11, logn);
            let (mut l, mut d) = (g01.clone(), g11.clone());
            (k.poly_ldl_fft)(&g00, &mut l, &mut d, logn);
            assert_eq!(bits(&l), bits(&l10), "{tag} ldl vs ldlmv (l10)");
            assert_eq!(bits(&d), bits(&d11), "{tag} ldl vs ldlmv (d11)");

            // L10 · g00 = adj(g01).
            let mut x = l10.clone();
            (k.poly_mul_fft)(&mut x, &g00, logn);
            let mut want = g01.clone();
            (k.poly_adj_fft)(&mut want, logn);
            let want: Vec<f64> = want.iter().map(|&v| f64_of(v)).collect();
            assert_close(&format!("{tag} l10·g00"), &x, &want, 1e-12);

            // D11 + L10 · g00 · adj(L10) = g11.
            let mut x = l10.clone();
            (k.poly_mulselfadj_fft)(&mut x, logn);
            (k.poly_mul_fft)(&mut x, &g00, logn);
            (k.poly_add)(&mut x, &d11, logn);
            let want: Vec<f64> = g11.iter().map(|&v| f64_of(v)).collect();
            assert_close(&format!("{tag} d11 + l10·g00·adj(l10)"), &x, &want, 1e-10);

            // g00 and D11 are auto-adjoint: imaginary parts vanish (D11 up to rounding).
            assert!(
                g00[hn..].iter().all(|v| f64_of(*v) == 0.0),
                "{tag} g00 real"
            );
        }
    }
}

#[test]
fn only_the_prefix_is_touched() {
    for (b, k) in tables() {
        let mut rng = XorShift(7);
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            let guard = Fpr::scaled(-777, 3);
            let mut f: Vec<Fpr> = (0..n).map(|_| anchor_value(&mut rng)).collect();
            f.extend([guard; 5]);
            let g = f.clone();
            (k.fft)(&mut f, logn);
            (k.ifft)(&mut f, logn);
            (k.poly_mul_fft)(&mut f, &g, logn);
            (k.poly_ldl_fft)(&g, &mut f.clone(), &mut f, logn);
            (k.poly_mulconst)(&mut f, guard, logn);
            assert!(
                f[n..].iter().all(|x| x.to_bits() == guard.to_bits()),
                "{b} logn {logn}"
            );
        }
    }
}

#[test]
fn free_functions_follow_the_active_backend() {
    let k = fft::active();
    let mut rng = XorShift(8);
    let a: Vec<Fpr> = (0..1024).map(|_| anchor_value(&mut rng)).collect();
    let (mut x, mut y) = (a.clone(), a.clone());
    fft::fft(&mut x, 10);
    (k.fft)(&mut y, 10);
    assert_eq!(bits(&x), bits(&y));
    fft::ifft(&mut x, 10);
    (k.ifft)(&mut y, 10);
    assert_eq!(bits(&x), bits(&y));
}

#[test]
#[should_panic]
fn degree_out_of_range_panics() {
    let mut f = vec![Fpr::from_bits(0); 2048];
    (kernels(Backend::Portable).fft)(&mut f, 11);
}

#[test]
#[should_panic]
fn short_slice_panics() {
    let mut f = vec![Fpr::from_bits(0); 511];
    (kernels(Backend::detect()).fft)(&mut f, 9);
}
