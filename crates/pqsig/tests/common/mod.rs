//! Shared helpers of the test suites: for the vector suites, the vectors folder
//! (`vectors.rs`), hex, JSON; a deterministic PRNG; for the kernel equivalence suites, random polynomials
//! and multi-way Keccak states, congruence and bound checks, the schoolbook product and
//! the scalar reference for the multi-way permutations, and test bodies shared by more
//! than one backend.
#![allow(dead_code)]

use pqsig::kernels::keccak::f1600::keccak_f1600;
use pqsig::kernels::keccak::xn::{PermuteN, StateXN};
use pqsig::kernels::mldsa::{Kernels, Poly, Q};

pub mod vectors;
pub use vectors::vectors_dir;

/// Runs a vector suite's body once on the production NTTs; with the `ntt-study` feature
/// and `PQSIG_TEST_EVERY_NTT=1`, once under every NTT variant instead
/// (`kernels::ntt::select::for_each_variant`: four times the work, so only where asked:
/// `scripts/test-all.sh --full`).
// pqsig-hwsim's tests include this module too; that crate has no `ntt-study` feature.
#[allow(unexpected_cfgs)]
pub fn for_each_ntt(mut f: impl FnMut()) {
    #[cfg(feature = "ntt-study")]
    if std::env::var_os("PQSIG_TEST_EVERY_NTT").is_some_and(|v| v == "1") {
        pqsig::kernels::ntt::select::for_each_variant(|_| f());
        return;
    }
    f();
}

/// One record of a NIST `PQCgenKAT_sign` `.rsp` file.
pub struct KatRecord {
    pub count: usize,
    pub seed: Vec<u8>,
    pub msg: Vec<u8>,
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
    pub sm: Vec<u8>,
}

/// Every record of the `.rsp` file `rel` (relative to the vectors folder); `mlen` and
/// `smlen` are checked against the decoded `msg` and `sm`.
pub fn parse_rsp(rel: &str) -> Vec<KatRecord> {
    let path = vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut cur: std::collections::HashMap<String, String> = Default::default();
    for line in text.lines() {
        let Some((k, v)) = line.split_once(" = ") else {
            continue;
        };
        cur.insert(k.trim().to_string(), v.trim().to_string());
        if k.trim() == "sm" {
            let get = |k: &str| cur.get(k).unwrap_or_else(|| panic!("{rel}: no {k}"));
            let mlen: usize = get("mlen").parse().expect("mlen");
            let msg = if mlen == 0 {
                Vec::new()
            } else {
                unhex(get("msg"))
            };
            assert_eq!(msg.len(), mlen, "{rel}: mlen");
            let sm = unhex(get("sm"));
            let smlen: usize = get("smlen").parse().expect("smlen");
            assert_eq!(sm.len(), smlen, "{rel}: smlen");
            out.push(KatRecord {
                count: get("count").parse().expect("count"),
                seed: unhex(get("seed")),
                msg,
                pk: unhex(get("pk")),
                sk: unhex(get("sk")),
                sm,
            });
            cur.clear();
        }
    }
    out
}

pub fn load_json(rel: &str) -> serde_json::Value {
    let p = vectors_dir().join(rel);
    let s = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap_or_else(|e| panic!("bad hex in vector: {e}"))
}

pub fn field_hex(v: &serde_json::Value, k: &str) -> Vec<u8> {
    unhex(v[k].as_str().unwrap_or_else(|| panic!("missing field {k}")))
}

pub fn opt_hex(v: &serde_json::Value, k: &str) -> Option<Vec<u8>> {
    v.get(k).and_then(|x| x.as_str()).map(unhex)
}

/// Backends the suites run on: all available, or only the one named by
/// `PQSIG_BACKEND` (the forced-portable CI run).
pub fn backends() -> Vec<pqsig::Backend> {
    match std::env::var("PQSIG_BACKEND")
        .ok()
        .and_then(|v| pqsig::Backend::from_name(&v))
    {
        Some(b) => vec![b],
        None => pqsig::Backend::available().collect(),
    }
}

/// The first line of a per-ISA test (docs/ARCHITECTURE.md, "Per-ISA tests"): build.rs
/// leaves the test enabled only where the build host has backend `b`'s ISA; if this CPU
/// lacks it anyway (`--include-ignored`, a target folder built on another machine) the
/// test fails rather than passing without checking anything.
pub fn require(b: pqsig::Backend) {
    assert!(
        b.is_available(),
        "{b} is not available on this CPU: this per-ISA test cannot run here \
         (see build.rs)"
    );
}

/// Declares, in a suite whose tests loop over `Backend::available()` (and
/// `Engine::available()`), one test per SIMD backend and AES engine asserting that the
/// loops covered it: on a CPU without it the test is *ignored* (build.rs's cfgs), so a
/// run that checked fewer backends says so instead of passing silently. `engines`
/// adds the AES engines (SNOVA's XOF suites).
#[macro_export]
macro_rules! coverage_tests {
    () => {
        mod coverage {
            use pqsig::Backend;
            fn covered(b: Backend) {
                $crate::common::require(b);
                assert!(Backend::available().any(|x| x == b), "{b} not iterated");
            }
            #[test]
            #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
            fn avx2() {
                covered(Backend::Avx2)
            }
            #[test]
            #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
            fn avx512() {
                covered(Backend::Avx512)
            }
            #[test]
            #[cfg_attr(not(pqsig_test_neon), ignore = "NEON not on this target")]
            fn neon() {
                covered(Backend::Neon)
            }
        }
    };
    (engines) => {
        $crate::coverage_tests!();
        mod engine_coverage {
            use pqsig::kernels::aes::Engine;
            fn covered(e: Engine) {
                assert!(
                    e.is_available(),
                    "{e:?} is not available on this CPU (see build.rs)"
                );
                assert!(Engine::available().any(|x| x == e), "{e:?} not iterated");
            }
            #[test]
            #[cfg_attr(not(pqsig_test_aesni), ignore = "AES-NI not on this CPU")]
            fn aesni() {
                covered(Engine::AesNi)
            }
            #[test]
            #[cfg_attr(not(pqsig_test_vaes), ignore = "VAES not on this CPU")]
            fn vaes() {
                covered(Engine::Vaes)
            }
        }
    };
}

/// A small deterministic PRNG for random-input tests (xorshift64).
pub struct XorShift(pub u64);
impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

// ---------------------------------------------------------------------------------------
// ML-DSA kernels: random polynomials, checks, reference product, shared test bodies.

/// Coefficients per polynomial.
pub const N: usize = 256;
/// q as an i64.
pub const QL: i64 = Q as i64;

impl XorShift {
    /// Uniform in [lo, hi] (inclusive).
    pub fn range(&mut self, lo: i64, hi: i64) -> i32 {
        (lo + (self.next() % (hi - lo + 1) as u64) as i64) as i32
    }
    /// A polynomial with coefficients in [lo, hi]: uniform, or (one in four) mostly the
    /// extreme values, to reach the corners of the bounds.
    pub fn poly(&mut self, lo: i64, hi: i64) -> Poly {
        let extremes = self.next() & 3 == 0;
        let mut p = Poly::default();
        for c in p.coeffs.iter_mut() {
            *c = if extremes {
                match self.next() % 4 {
                    0 => lo as i32,
                    1 => hi as i32,
                    _ => self.range(lo, hi),
                }
            } else {
                self.range(lo, hi)
            };
        }
        p
    }
    /// `n` polynomials as from [`XorShift::poly`].
    pub fn polys(&mut self, n: usize, lo: i64, hi: i64) -> Vec<Poly> {
        (0..n).map(|_| self.poly(lo, hi)).collect()
    }
}

pub fn modq(x: i64) -> i64 {
    x.rem_euclid(QL)
}

/// Congruence mod q, coefficient by coefficient, and `|got| < bound_num/bound_den · q`.
pub fn check_congruent(what: &str, want: &[Poly], got: &[Poly], bound_num: i64, bound_den: i64) {
    assert_eq!(want.len(), got.len());
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        for c in 0..N {
            let (wv, gv) = (w.coeffs[c] as i64, g.coeffs[c] as i64);
            assert_eq!(
                modq(wv),
                modq(gv),
                "{what}: poly {i} coeff {c}: {wv} vs {gv}"
            );
            assert!(
                gv.abs() * bound_den < bound_num * QL,
                "{what}: poly {i} coeff {c}: |{gv}| exceeds {bound_num}/{bound_den}·q"
            );
        }
    }
}

pub fn max_abs(p: &[Poly]) -> i64 {
    p.iter()
        .flat_map(|x| x.coeffs.iter())
        .map(|&c| (c as i64).abs())
        .max()
        .unwrap_or(0)
}

/// Negacyclic schoolbook product mod q, coefficients in [0, q).
pub fn schoolbook(a: &Poly, b: &Poly) -> [i64; N] {
    let mut r = [0i64; N];
    for i in 0..N {
        for j in 0..N {
            let p = modq(a.coeffs[i] as i64) * modq(b.coeffs[j] as i64) % QL;
            if i + j < N {
                r[i + j] = (r[i + j] + p) % QL;
            } else {
                r[i + j - N] = (r[i + j - N] - p).rem_euclid(QL);
            }
        }
    }
    r
}

/// A transform of a kernel table (`|k| k.ntt`, `|k| k.invntt_tomont`).
pub type Transform = fn(&Kernels) -> fn(&mut [Poly]);

/// 400 random batches (1–8 polynomials, |a| < q, from `seed`) through the transform `t`
/// of portable (`pk`) and of each table of `ks`: every output congruent to portable's
/// with `|out| < bound.0/bound.1 · q`, and the outputs of all of `ks` bit-identical.
/// Returns the largest |output| of `ks[0]`.
pub fn check_transform(
    what: &str,
    t: Transform,
    pk: &Kernels,
    ks: &[&Kernels],
    seed: u64,
    bound: (i64, i64),
) -> i64 {
    let mut rng = XorShift(seed);
    let mut seen = 0;
    for round in 0..400 {
        let n = 1 + round % 8;
        let input = rng.polys(n, -(QL - 1), QL - 1);
        let mut want = input.clone();
        t(pk)(&mut want);
        let mut first: Option<Vec<Poly>> = None;
        for k in ks {
            let mut got = input.clone();
            t(k)(&mut got);
            let name = k.backend.name();
            check_congruent(&format!("{what} ({name})"), &want, &got, bound.0, bound.1);
            match &first {
                None => {
                    seen = seen.max(max_abs(&got));
                    first = Some(got);
                }
                Some(f) => assert_eq!(
                    f,
                    &got,
                    "{what}: {name} differs from {}, round {round}",
                    ks[0].backend.name()
                ),
            }
        }
    }
    seen
}

/// `invntt_tomont` of `k` against portable's on the inputs that maximise the unreduced
/// sums (every coefficient ±(q − 1)) and their alternating-sign forms: congruent, below
/// 3q/4. Returns the largest |output|.
pub fn check_invntt_extremes(pk: &Kernels, k: &Kernels) -> i64 {
    let mut seen = 0;
    for v in [QL - 1, -(QL - 1)] {
        for alt in [false, true] {
            let mut input = vec![Poly {
                coeffs: [v as i32; N],
            }];
            if alt {
                for (i, c) in input[0].coeffs.iter_mut().enumerate() {
                    if i % 2 == 1 {
                        *c = -*c;
                    }
                }
            }
            let mut want = input.clone();
            let mut got = input.clone();
            (pk.invntt_tomont)(&mut want);
            (k.invntt_tomont)(&mut got);
            check_congruent("invntt_tomont (extreme input)", &want, &got, 3, 4);
            seen = seen.max(max_abs(&got));
        }
    }
    seen
}

/// `pointwise_montgomery` of `k` bit-identical to portable's on 600 rounds of random
/// operands (1–8 polynomials), the coefficient bounds of `c` and `v` taken from `ranges`
/// in turn (their products must stay within 2^31·q); the output below q. With
/// `longer_out`, every third round `out` is one polynomial longer than `v`: the kernel
/// works over the shorter and must leave the extra one alone.
pub fn check_pointwise(pk: &Kernels, k: &Kernels, ranges: &[(i64, i64)], longer_out: bool) {
    let mut rng = XorShift(0x1357_9BDF_2468_ACE0);
    for round in 0..600 {
        let (rc, rv) = ranges[round % ranges.len()];
        let n = 1 + round % 8;
        let c = rng.poly(-rc, rc);
        let v = rng.polys(n, -rv, rv);
        let extra = longer_out && round % 3 == 0;
        let mut want = vec![Poly::default(); n + extra as usize];
        let mut got = vec![Poly { coeffs: [777; N] }; n + extra as usize];
        if extra {
            want[n] = Poly { coeffs: [777; N] };
        }
        (pk.pointwise_montgomery)(&mut want, &c, &v);
        (k.pointwise_montgomery)(&mut got, &c, &v);
        assert_eq!(want, got, "pointwise_montgomery, round {round}");
        assert!(
            max_abs(&got[..n]) < QL,
            "pointwise_montgomery: output not below q"
        );
    }
}

/// `matvec_montgomery` of `k` bit-identical to portable's on `rounds` random products:
/// 1–8 rows, 0..=`max_terms` terms (0 must give zeros, as portable does), the matrix std
/// (or, every fifth round with `signed_matrices`, in (−q, q), to reach the corners) and
/// the vector an NTT output (< 9q); the output below q.
pub fn check_matvec(
    pk: &Kernels,
    k: &Kernels,
    rounds: usize,
    max_terms: usize,
    signed_matrices: bool,
) {
    let mut rng = XorShift(0x0F1E_2D3C_4B5A_6978);
    for round in 0..rounds {
        let rows = 1 + round % 8;
        let l = round / 8 % (max_terms + 1);
        let mat = if signed_matrices && round % 5 == 0 {
            rng.polys(rows * l, -(QL - 1), QL - 1)
        } else {
            rng.polys(rows * l, 0, QL - 1)
        };
        let v = rng.polys(l, -(9 * QL - 1), 9 * QL - 1);
        let mut want = vec![Poly::default(); rows];
        let mut got = vec![Poly { coeffs: [12345; N] }; rows];
        (pk.matvec_montgomery)(&mut want, &mat, &v);
        (k.matvec_montgomery)(&mut got, &mat, &v);
        assert_eq!(want, got, "matvec_montgomery, k {rows} l {l}");
        assert!(max_abs(&got) < QL, "matvec_montgomery: output not below q");
    }
}

/// NTT-based products against the schoolbook product, for each (forward, product,
/// inverse) combination of kernel tables in `combos` (NTT-domain data is interchangeable
/// between backends): `pointwise_montgomery`, and `matvec_montgomery` with a 1×1 matrix.
pub fn check_ntt_products(combos: &[(&Kernels, &Kernels, &Kernels)]) {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for round in 0..40 {
        let a = rng.poly(-(QL - 1), QL - 1);
        // Small second factor (like c, s1, s2) or a full-size one.
        let b = if round % 2 == 0 {
            rng.poly(-4, 4)
        } else {
            rng.poly(-(QL - 1), QL - 1)
        };
        let want = schoolbook(&a, &b);
        for (i, &(f, m, inv)) in combos.iter().enumerate() {
            let mut ah = [a];
            let mut bh = [b];
            (f.ntt)(&mut ah);
            (f.ntt)(&mut bh);
            let mut prod = [Poly::default()];
            (m.pointwise_montgomery)(&mut prod, &bh[0], &ah);
            (inv.invntt_tomont)(&mut prod);
            for (c, (&got, &w)) in prod[0].coeffs.iter().zip(&want).enumerate() {
                assert_eq!(modq(got as i64), w, "round {round} combo {i} coeff {c}");
            }
            // The matrix product with a 1×1 matrix is the same product.
            let mut mv = [Poly::default()];
            (m.matvec_montgomery)(&mut mv, &bh, &ah);
            (inv.invntt_tomont)(&mut mv);
            for (c, (&got, &w)) in mv[0].coeffs.iter().zip(&want).enumerate() {
                assert_eq!(
                    modq(got as i64),
                    w,
                    "matvec round {round} combo {i} coeff {c}"
                );
            }
        }
    }
}

/// `invntt_tomont(reduce32(ntt(a))) = a·2^32 mod q` with the kernels of `k`, on random
/// batches.
pub fn check_ntt_inverse_round_trip(k: &Kernels) {
    let mut rng = XorShift(0xA5A5_5A5A_0F0F_F0F0);
    // 2^32 mod q: invntt_tomont(ntt(a)) = a·2^32.
    let mont = (1i64 << 32) % QL;
    for round in 0..200 {
        let n = 1 + round % 8;
        let input = rng.polys(n, -(QL - 1), QL - 1);
        let mut x = input.clone();
        (k.ntt)(&mut x);
        (k.reduce32)(&mut x);
        (k.invntt_tomont)(&mut x);
        for (p, r) in input.iter().zip(&x) {
            for c in 0..N {
                assert_eq!(modq(p.coeffs[c] as i64 * mont), modq(r.coeffs[c] as i64));
            }
        }
    }
}

/// Unit vectors and single-coefficient inputs through `k`'s transforms against
/// portable: each lands in a different lane and register of each layout, so a wrong
/// shuffle or twiddle shows up with its index.
pub fn check_ntt_unit_vectors(pk: &Kernels, k: &Kernels) {
    for i in 0..N {
        for v in [1, -(QL - 1), QL - 1] {
            let mut input = Poly::default();
            input.coeffs[i] = v as i32;
            let mut want = [input];
            let mut got = [input];
            (pk.ntt)(&mut want);
            (k.ntt)(&mut got);
            check_congruent(&format!("ntt(e_{i}·{v})"), &want, &got, 854, 100);
            let mut want = [input];
            let mut got = [input];
            (pk.invntt_tomont)(&mut want);
            (k.invntt_tomont)(&mut got);
            check_congruent(&format!("invntt(e_{i}·{v})"), &want, &got, 3, 4);
        }
    }
}

/// `matvec_montgomery` of `k` panics on a matrix shorter than rows × columns.
pub fn check_matvec_short_matrix_panics(k: &Kernels) {
    let v = vec![Poly::default(); 3];
    let mat = vec![Poly::default(); 5];
    let r = std::panic::catch_unwind(|| {
        let mut out = vec![Poly::default(); 2];
        (k.matvec_montgomery)(&mut out, &mat, &v);
    });
    assert!(
        r.is_err(),
        "{}: a 2×3 product with 5 matrix polynomials must panic",
        k.backend
    );
}

/// `reduce32`, `caddq`, `add`, `sub`, `shiftl` of `k` bit for bit against portable on
/// random inputs over each kernel's documented range.
pub fn check_arith(pk: &Kernels, k: &Kernels) {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for round in 0..300 {
        let n = 1 + round % 8;

        // reduce32: any a ≤ 2^31 − 2^22 − 1.
        let input = rng.polys(n, i32::MIN as i64, (1 << 31) - (1 << 22) - 1);
        let (mut want, mut got) = (input.clone(), input.clone());
        (pk.reduce32)(&mut want);
        (k.reduce32)(&mut got);
        assert_eq!(want, got, "reduce32");
        assert!(max_abs(&got) <= 6283008, "reduce32 bound");

        // caddq: a > −q (any i32 above); std output when also a < q.
        for (lo, hi) in [(-(QL - 1), QL - 1), (-(QL - 1), i32::MAX as i64)] {
            let input = rng.polys(n, lo, hi);
            let (mut want, mut got) = (input.clone(), input.clone());
            (pk.caddq)(&mut want);
            (k.caddq)(&mut got);
            assert_eq!(want, got, "caddq");
            if hi < QL {
                assert!(
                    got.iter()
                        .flat_map(|p| p.coeffs.iter())
                        .all(|&c| (0..Q).contains(&c)),
                    "caddq std"
                );
            }
        }

        // add, sub: wrapping, over the shorter slice.
        let x = rng.polys(n, i32::MIN as i64, i32::MAX as i64);
        let y = rng.polys(n + round % 2, i32::MIN as i64, i32::MAX as i64);
        for (name, pf, kf) in [("add", pk.add, k.add), ("sub", pk.sub, k.sub)] {
            let (mut want, mut got) = (x.clone(), x.clone());
            pf(&mut want, &y);
            kf(&mut got, &y);
            assert_eq!(want, got, "{name}");
        }

        // shiftl: |a| < 2^18.
        let input = rng.polys(n, -(1 << 18) + 1, (1 << 18) - 1);
        let (mut want, mut got) = (input.clone(), input.clone());
        (pk.shiftl)(&mut want);
        (k.shiftl)(&mut got);
        assert_eq!(want, got, "shiftl");
    }
}

// ---------------------------------------------------------------------------------------
// Multi-way Keccak: random states, the scalar reference, shared test bodies.

impl XorShift {
    /// A `W`-way Keccak state with every word random.
    pub fn state<const W: usize>(&mut self) -> StateXN<W> {
        let mut st = StateXN::<W>::default();
        for lane in st.s.iter_mut() {
            for w in lane.iter_mut() {
                *w = self.next();
            }
        }
        st
    }
}

/// Permutes `st` with `p` and checks each of the `W` instances against the portable
/// one-state permutation of that instance.
pub fn check_permute<const W: usize>(p: PermuteN<W>, st: &mut StateXN<W>, what: &str) {
    let mut want = [[0u64; 25]; W];
    for (j, one) in want.iter_mut().enumerate() {
        for (o, lane) in one.iter_mut().zip(st.s.iter()) {
            *o = lane[j];
        }
        keccak_f1600(one);
    }
    p(st);
    for (j, one) in want.iter().enumerate() {
        let got: [u64; 25] = core::array::from_fn(|i| st.s[i][j]);
        assert_eq!(&got, one, "{what}: instance {j}");
    }
}

/// `count` random states through `p` (named `name` in failure messages).
pub fn check_random_states<const W: usize>(p: PermuteN<W>, name: &str, count: usize) {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for n in 0..count {
        let mut st = rng.state::<W>();
        check_permute(p, &mut st, &format!("{name}: random state {n}"));
    }
}

/// A chain of `steps` permutations, each of the previous output (as a sponge squeezing
/// does), with fresh data mixed into one instance every `mix_every` steps so the chains
/// diverge.
pub fn check_chained_states<const W: usize>(
    p: PermuteN<W>,
    name: &str,
    steps: usize,
    mix_every: usize,
) {
    let mut rng = XorShift(0x0123_4567_89AB_CDEF);
    let mut st = rng.state::<W>();
    for n in 0..steps {
        if n % mix_every == 0 {
            let j = (rng.next() % W as u64) as usize;
            let i = (rng.next() % 25) as usize;
            st.s[i][j] ^= rng.next();
        }
        check_permute(p, &mut st, &format!("{name}: chain step {n}"));
    }
}

/// Edge states through `p`: all zero (with the published first lanes of
/// Keccak-f[1600](0)), all ones, one bit in one instance at a time (every lane, a spread
/// of bit positions, every instance: catches a wrong rotation amount or a lane leaking
/// into another instance or vector half), one instance random and the others zero.
pub fn check_edge_states<const W: usize>(p: PermuteN<W>, name: &str) {
    let mut st = StateXN::<W>::default();
    check_permute(p, &mut st, &format!("{name}: zero state"));
    assert!(
        st.s[0].iter().all(|&w| w == 0xF125_8F79_40E1_DDE7),
        "{name}"
    );
    assert!(
        st.s[1].iter().all(|&w| w == 0x84D5_CCF9_33C0_478A),
        "{name}"
    );

    let mut st = StateXN::<W> {
        s: [[u64::MAX; W]; 25],
    };
    check_permute(p, &mut st, &format!("{name}: all-ones state"));

    for i in 0..25 {
        for bit in [0u32, 1, 7, 8, 31, 32, 55, 56, 62, 63] {
            let j = (i + bit as usize) % W;
            let mut st = StateXN::<W>::default();
            st.s[i][j] = 1u64 << bit;
            check_permute(
                p,
                &mut st,
                &format!("{name}: lane {i} bit {bit} instance {j}"),
            );
        }
    }

    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    for j in 0..W {
        let mut st = StateXN::<W>::default();
        for lane in st.s.iter_mut() {
            lane[j] = rng.next();
        }
        check_permute(p, &mut st, &format!("{name}: only instance {j} set"));
    }
}
