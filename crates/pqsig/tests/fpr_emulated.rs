//! The integer-only binary64 emulation (`fpr::emulated::Fpr`) against the FPU
//! (`fpr::native::Fpr` and plain `f64`), bit for bit, on Falcon's domain (zeros and
//! normal numbers, results zero or normal), plus the documented behaviour just outside
//! it (flush to zero, saturating conversions) and hand-checked rounding ties.

use pqsig::kernels::falcon::fpr::{self, emulated::Fpr as E, native::Fpr as N};

const M52: u64 = (1 << 52) - 1;
const M63: u64 = (1 << 63) - 1;
const SIGN: u64 = 1 << 63;
const MIN_NORMAL: u64 = 1 << 52;

/// xorshift64 (deterministic; the seeds are fixed per test).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn sign(&mut self) -> u64 {
        self.next() & SIGN
    }
    /// A fraction field: random, or one of the patterns that stress rounding and carries.
    fn frac(&mut self) -> u64 {
        match self.below(8) {
            0 => 0,
            1 => M52,
            2 => self.below(16),
            3 => M52 - self.below(16),
            4 => (self.next() & M52) >> self.below(52),
            _ => self.next() & M52,
        }
    }
    /// A normal number with exponent field in [lo, hi], random sign.
    fn normal(&mut self, lo: u64, hi: u64) -> u64 {
        let e = lo + self.below(hi - lo + 1);
        self.sign() | (e << 52) | self.frac()
    }
    /// A normal number (any exponent) or, one time in 32, a signed zero.
    fn value(&mut self, lo: u64, hi: u64) -> u64 {
        if self.below(32) == 0 {
            self.sign()
        } else {
            self.normal(lo, hi)
        }
    }
    /// A random integer of random bit length, random sign.
    fn int(&mut self) -> i64 {
        let v = (self.next() >> 1) >> self.below(63);
        if self.next() & 1 == 1 {
            -(v as i64)
        } else {
            v as i64
        }
    }
}

fn f(b: u64) -> f64 {
    f64::from_bits(b)
}

/// Whether the emulation must reproduce `r` exactly: zero or normal, excluding the
/// smallest normal magnitude (which the FPU may reach by rounding up from below 2^-1022,
/// where the emulation flushes to zero).
fn in_domain(r: u64) -> bool {
    let e = (r >> 52) & 0x7FF;
    (r & M63) == 0 || ((1..0x7FF).contains(&e) && (r & M63) != MIN_NORMAL)
}

/// Compare an emulated result with the FPU's. In the domain: identical bits. For a
/// subnormal (or zero-from-underflow) FPU result: a zero of the same sign. Returns
/// whether the case was in the domain.
#[track_caller]
fn check(what: &str, args: &[u64], got: u64, want: u64) -> bool {
    if in_domain(want) {
        assert_eq!(
            got,
            want,
            "{what}{:?}: emulated {:e} ({got:#018x}), native {:e} ({want:#018x})",
            args.iter().map(|&a| f(a)).collect::<Vec<_>>(),
            f(got),
            f(want)
        );
        true
    } else {
        if (want >> 52) & 0x7FF == 0 {
            assert_eq!(got, want & SIGN, "{what}{args:x?}: expected flush to zero");
        }
        false
    }
}

fn check_add(a: u64, b: u64) -> bool {
    let (x, y) = (E::from_bits(a), E::from_bits(b));
    let r = check("add", &[a, b], x.add(y).to_bits(), (f(a) + f(b)).to_bits());
    check("sub", &[a, b], x.sub(y).to_bits(), (f(a) - f(b)).to_bits());
    check("+", &[a, b], (x + y).to_bits(), (f(a) + f(b)).to_bits());
    check("-", &[a, b], (x - y).to_bits(), (f(a) - f(b)).to_bits());
    let (p, q) = (N::from_bits(a), N::from_bits(b));
    check(
        "add/native",
        &[a, b],
        x.add(y).to_bits(),
        p.add(q).to_bits(),
    );
    r
}

fn check_mul(a: u64, b: u64) -> bool {
    let (x, y) = (E::from_bits(a), E::from_bits(b));
    let want = (f(a) * f(b)).to_bits();
    check("*", &[a, b], (x * y).to_bits(), want);
    check(
        "mul/native",
        &[a, b],
        x.mul(y).to_bits(),
        N::from_bits(a).mul(N::from_bits(b)).to_bits(),
    );
    check("sqr", &[a], x.sqr().to_bits(), (f(a) * f(a)).to_bits());
    check("mul", &[a, b], x.mul(y).to_bits(), want)
}

fn check_div(a: u64, b: u64) -> bool {
    let (x, y) = (E::from_bits(a), E::from_bits(b));
    let want = (f(a) / f(b)).to_bits();
    check("/", &[a, b], (x / y).to_bits(), want);
    check(
        "div/native",
        &[a, b],
        x.div(y).to_bits(),
        N::from_bits(a).div(N::from_bits(b)).to_bits(),
    );
    check("inv", &[b], y.inv().to_bits(), (1.0 / f(b)).to_bits());
    check("div", &[a, b], x.div(y).to_bits(), want)
}

fn check_sqrt(a: u64) {
    let a = a & M63;
    let got = E::from_bits(a).sqrt().to_bits();
    check("sqrt", &[a], got, f(a).sqrt().to_bits());
    check("sqrt/native", &[a], got, N::from_bits(a).sqrt().to_bits());
}

fn check_int(a: u64) {
    let x = E::from_bits(a);
    let v = f(a);
    let n = N::from_bits(a);
    assert_eq!(x.trunc(), v as i64, "trunc {v:e} ({a:#x})");
    assert_eq!(x.trunc(), n.trunc(), "trunc/native {v:e}");
    assert_eq!(x.rint(), n.rint(), "rint/native {v:e} ({a:#x})");
    if v.abs() < 9223372036854775808.0 {
        // Independent reference: round_ties_even is exact for |v| < 2^63.
        assert_eq!(x.rint(), v.round_ties_even() as i64, "rint {v:e} ({a:#x})");
        assert_eq!(x.floor(), v.floor() as i64, "floor {v:e} ({a:#x})");
        assert_eq!(x.floor(), n.floor(), "floor/native {v:e}");
    } else if v > 0.0 || v == -9223372036854775808.0 {
        assert_eq!(x.floor(), v as i64, "floor (saturating) {v:e}");
        assert_eq!(x.floor(), n.floor(), "floor/native {v:e}");
    } else {
        // The native floor overflows below -2^63; the emulation saturates.
        assert_eq!(x.floor(), i64::MIN, "floor (saturating) {v:e}");
    }
}

fn check_of(i: i64) {
    assert_eq!(E::of(i).to_bits(), (i as f64).to_bits(), "of({i})");
    assert_eq!(E::of(i).to_bits(), N::of(i).to_bits(), "of/native({i})");
}

fn check_scaled(i: i64, sc: i32) -> bool {
    let got = E::scaled(i, sc).to_bits();
    check(
        "scaled",
        &[i as u64, sc as u64],
        got,
        N::scaled(i, sc).to_bits(),
    )
}

fn check_cmp(a: u64, b: u64) {
    let (x, y) = (E::from_bits(a), E::from_bits(b));
    assert_eq!(
        x.lt(y),
        f(a) < f(b),
        "lt {:e} {:e} ({a:#x} {b:#x})",
        f(a),
        f(b)
    );
    assert_eq!(x.lt(y), N::from_bits(a).lt(N::from_bits(b)));
    assert_eq!(x == y, f(a) == f(b), "eq {:e} {:e}", f(a), f(b));
    assert_eq!(
        x.partial_cmp(&y),
        f(a).partial_cmp(&f(b)),
        "cmp {:e} {:e}",
        f(a),
        f(b)
    );
}

// ---------------------------------------------------------------------------------------

#[test]
fn add_sub_random() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut compared = 0u32;
    for _ in 0..150_000 {
        // Unrelated operands over the whole exponent range.
        compared += check_add(r.value(1, 2046), r.value(1, 2046)) as u32;
        // Close exponents (alignment shifts 0..64, cancellations).
        let a = r.value(2, 2045);
        let e = ((a >> 52) & 0x7FF) as i64 + r.below(130) as i64 - 65;
        let b = if (1..2047).contains(&e) {
            r.sign() | ((e as u64) << 52) | r.frac()
        } else {
            r.value(1, 2046)
        };
        compared += check_add(a, b) as u32;
        // y = ±x, ±x plus or minus a few ulps (massive cancellation), equal magnitudes.
        let k = r.below(9);
        let c = a.wrapping_add(k).wrapping_sub(4);
        compared += check_add(a, c ^ SIGN) as u32;
        compared += check_add(a, c) as u32;
        compared += check_add(a, a ^ SIGN) as u32;
        compared += check_add(a, a) as u32;
        // Zeros against everything.
        let z = r.sign();
        compared += check_add(z, a) as u32;
        compared += check_add(a, z) as u32;
    }
    // Near the bottom of the normal range: flushes are checked as such.
    for _ in 0..50_000 {
        check_add(r.value(1, 60), r.value(1, 60));
    }
    for &a in &[0u64, SIGN] {
        for &b in &[0u64, SIGN] {
            check_add(a, b);
        }
    }
    assert!(compared > 1_000_000, "{compared}");
}

#[test]
fn add_ties() {
    // Sums exactly halfway between two doubles, in both directions, at random scales.
    let mut r = Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..100_000 {
        // x = an even integer in [2^53, 2^54): x ± (odd small) is a tie (or a near-tie).
        let x = ((1u64 << 53) | (r.next() & ((1 << 53) - 1))) & !1;
        let y = 2 * r.below(8) + 1;
        let sc = r.below(1600) as i32 - 800;
        let (xa, ya) = (
            N::scaled(x as i64, sc).to_bits(),
            N::scaled(y as i64, sc).to_bits(),
        );
        let s = r.sign();
        assert!(check_add(xa ^ s, ya ^ s));
        assert!(check_add(xa ^ s, ya ^ s ^ SIGN));
        // Ties produced by a carry (x + y crossing a power of two).
        let x2 = (1u64 << 54) - 2 * (r.below(4) + 1);
        let xb = N::scaled(x2 as i64, sc).to_bits();
        assert!(check_add(xb, ya));
        assert!(check_add(ya ^ SIGN, xb ^ SIGN));
    }
}

#[test]
fn mul_random_and_ties() {
    let mut r = Rng(0x94D0_49BB_1331_11EB);
    let mut compared = 0u32;
    for _ in 0..200_000 {
        compared += check_mul(r.value(1, 2046), r.value(1, 2046)) as u32;
        compared += check_mul(r.value(512, 1534), r.value(512, 1534)) as u32;
        // Exact ties: odd a, b with a·b in [2^53, 2^54) has one bit too many.
        let a = (r.next() >> 38) | (1 << 25) | 1; // odd, 26 bits
        let lo = (1u64 << 53).div_ceil(a) | 1;
        let hi = ((1u64 << 54) - 1) / a;
        if lo <= hi {
            let b = (lo + 2 * r.below((hi - lo) / 2 + 1)).min(hi) | 1;
            let p = a * b;
            if (1u64 << 53..1u64 << 54).contains(&p) {
                let sa = r.below(1000) as i32 - 500;
                let sb = r.below(900) as i32 - 450 - sa / 2;
                let xa = N::scaled(a as i64, sa).to_bits() ^ r.sign();
                let xb = N::scaled(b as i64, sb).to_bits() ^ r.sign();
                assert!(check_mul(xa, xb), "{a} {b} {sa} {sb} {xa:#x} {xb:#x}");
                compared += 1;
            }
        }
    }
    // Results around the bottom of the normal range (flush to zero checked).
    for _ in 0..50_000 {
        check_mul(r.value(400, 620), r.value(400, 620));
    }
    for &a in &[0u64, SIGN] {
        check_mul(a, 0x3FF0_0000_0000_0000);
        check_mul(0xC000_0000_0000_0000, a);
        check_mul(a, a);
    }
    assert!(compared > 500_000, "{compared}");
}

#[test]
fn div_random() {
    let mut r = Rng(0xBF58_476D_1CE4_E5B9);
    let mut compared = 0u32;
    for _ in 0..150_000 {
        compared += check_div(r.value(1, 2046), r.normal(1, 2046)) as u32;
        compared += check_div(r.value(512, 1534), r.normal(512, 1534)) as u32;
        // Exact quotients: (b · k) / b.
        let b = r.normal(900, 1100);
        let k = N::of((r.next() >> 40) as i64 | 1).to_bits();
        let a = (f(b) * f(k)).to_bits();
        compared += check_div(a, b) as u32;
        // Same significand.
        let c = (a & !(0x7FF << 52)) | (r.below(200) + 900) << 52;
        compared += check_div(c, a) as u32;
    }
    assert!(compared > 500_000, "{compared}");
}

#[test]
fn sqrt_random() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    for _ in 0..150_000 {
        check_sqrt(r.value(1, 2046));
        // Perfect squares and their neighbours (odd and even exponents).
        let k = r.next() >> (38 + r.below(20));
        let sq = k * k;
        for v in [sq, sq + 1, sq.saturating_sub(1)] {
            let sc = 2 * (r.below(400) as i32 - 200) + (r.next() & 1) as i32;
            check_sqrt(N::scaled(v as i64, sc).to_bits());
        }
    }
    check_sqrt(0);
    // sqrt(-0) = -0.
    assert_eq!(E::from_bits(SIGN).sqrt().to_bits(), SIGN);
    assert_eq!(N::from_bits(SIGN).sqrt().to_bits(), SIGN);
}

#[test]
fn rint_floor_trunc() {
    let mut r = Rng(0x6A09_E667_F3BC_C909);
    for _ in 0..150_000 {
        // |x| below 2^63 (exponent field up to 1085), with many values below 1.
        check_int(r.value(900, 1085));
        check_int(r.value(1000, 1060));
        // k + 1/2, k ± 1/2 ± ulp: ties to even and their neighbours.
        let k = r.next() >> (12 + r.below(51));
        let h = N::scaled(2 * k as i64 + 1, -1).to_bits() ^ r.sign();
        check_int(h);
        check_int(h + 1);
        check_int(h - 1);
        // Integers (exact) and integers ± ulp.
        let i = N::of(r.int()).to_bits();
        check_int(i);
        if i & M63 != 0 {
            check_int(i + 1);
            check_int(i - 1);
        }
    }
    // Saturation beyond 2^63 (infinities too), the largest doubles below it, tiny values,
    // zeros and subnormals.
    for a in [
        0x43E0_0000_0000_0000u64, // 2^63
        0x43DF_FFFF_FFFF_FFFF,    // 2^63 - 1024
        0x43F0_0000_0000_0000,
        0x7FEF_FFFF_FFFF_FFFF,
        0x7FF0_0000_0000_0000, // inf
        0x3FE0_0000_0000_0000, // 1/2
        0x3FDF_FFFF_FFFF_FFFF,
        0x3FE0_0000_0000_0001,
        0x3FF8_0000_0000_0000, // 3/2
        0x0010_0000_0000_0000,
        0x0000_0000_0000_0001,
        0x000F_FFFF_FFFF_FFFF,
        0,
    ] {
        check_int(a);
        check_int(a ^ SIGN);
    }
}

#[test]
fn of_and_scaled() {
    let mut r = Rng(0xBB67_AE85_84CA_A73B);
    for _ in 0..200_000 {
        check_of(r.int());
        check_of(r.next() as i64);
        // Around 2^53 (first rounding), with ties.
        let d = r.below(64) as i64 - 32;
        check_of((1i64 << 53) + d);
        check_of(-(1i64 << 53) - d);
        check_of((1i64 << (53 + r.below(10))) + d);
        // Around 2^63 - 1 and -2^63.
        check_of(i64::MAX - r.below(4096) as i64);
        check_of(i64::MIN + r.below(4096) as i64);
    }
    for i in [
        0,
        1,
        -1,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
        1 << 62,
        (1 << 53) + 1,
    ] {
        check_of(i);
    }
    let mut compared = 0u32;
    for _ in 0..200_000 {
        let i = r.int();
        let sc = r.below(2200) as i32 - 1100;
        compared += check_scaled(i, sc) as u32;
        compared += check_scaled(i, r.below(200) as i32 - 100) as u32;
    }
    assert!(compared > 300_000, "{compared}");
}

#[test]
fn compare_half_double_neg() {
    let mut r = Rng(0x3C6E_F372_FE94_F82B);
    for _ in 0..150_000 {
        let a = r.value(1, 2046);
        let b = r.value(1, 2046);
        check_cmp(a, b);
        check_cmp(a, a);
        check_cmp(a, a ^ SIGN);
        check_cmp(a, a.wrapping_add(1));
        check_cmp(a.wrapping_add(1), a);
        check_cmp(a, r.sign());
        check_cmp(r.sign(), a);
        // lt is exact for subnormals and infinities too.
        check_cmp(r.sign() | (r.next() & M52), r.sign() | (r.next() & M52));
        check_cmp(r.sign() | 0x7FF0_0000_0000_0000, a);
        let h = r.value(2, 2045);
        assert_eq!(E::from_bits(h).half().to_bits(), (f(h) * 0.5).to_bits());
        assert_eq!(
            E::from_bits(h).half().to_bits(),
            N::from_bits(h).half().to_bits()
        );
        assert_eq!(E::from_bits(h).double().to_bits(), (f(h) + f(h)).to_bits());
        assert_eq!(
            E::from_bits(h).double().to_bits(),
            N::from_bits(h).double().to_bits()
        );
        assert_eq!(E::from_bits(a).neg().to_bits(), (-f(a)).to_bits());
        assert_eq!((-E::from_bits(a)).to_bits(), (-N::from_bits(a)).to_bits());
    }
    for z in [0, SIGN] {
        check_cmp(z, 0);
        check_cmp(z, SIGN);
        assert_eq!(E::from_bits(z).half().to_bits(), z);
        assert_eq!(E::from_bits(z).double().to_bits(), z);
    }
    // The smallest normal halves to a (flushed) zero.
    assert_eq!(E::from_bits(MIN_NORMAL | 5).half().to_bits(), 0);
    assert_eq!(E::from_bits(SIGN | MIN_NORMAL).half().to_bits(), SIGN);
    assert_eq!(E::default().to_bits(), 0);
}

/// Subnormal operands are read as zeros of the same sign (documented; Falcon never
/// produces them). The zero / subnormal handling of `add`, `mul`, `div` and `sqrt` is
/// done by masks on the result, so check it explicitly.
#[test]
fn subnormal_inputs_read_as_zero() {
    let mut r = Rng(0x6A09_E667_F3BC_C908);
    for _ in 0..50_000 {
        let s = r.sign() | ((r.next() & M52) | 1);
        let z = s & SIGN;
        let (es, ez) = (E::from_bits(s), E::from_bits(z));
        let b = E::from_bits(r.normal(1, 2046));
        let c = E::from_bits(r.normal(900, 1100));
        assert_eq!(es.add(b).to_bits(), ez.add(b).to_bits(), "{s:#x} + {b:?}");
        assert_eq!(b.add(es).to_bits(), b.add(ez).to_bits(), "{b:?} + {s:#x}");
        assert_eq!(es.sub(b).to_bits(), ez.sub(b).to_bits(), "{s:#x} - {b:?}");
        assert_eq!(es.mul(b).to_bits(), ez.mul(b).to_bits(), "{s:#x} * {b:?}");
        assert_eq!(b.mul(es).to_bits(), b.mul(ez).to_bits(), "{b:?} * {s:#x}");
        assert_eq!(es.sqr().to_bits(), 0, "{s:#x}^2");
        assert_eq!(es.div(c).to_bits(), ez.div(c).to_bits(), "{s:#x} / {c:?}");
        assert_eq!(es.sqrt().to_bits(), z, "sqrt {s:#x}");
        assert_eq!(es.half().to_bits(), z, "half {s:#x}");
        assert_eq!(
            es.double().to_bits(),
            s,
            "double {s:#x} (exponent field 0: unchanged)"
        );
        // Against a zero or a subnormal of the same sign: that zero.
        assert_eq!(es.add(ez).to_bits(), z, "{s:#x} + {z:#x}");
        let t = z | ((r.next() & M52) | 1);
        assert_eq!(es.add(E::from_bits(t)).to_bits(), z, "{s:#x} + {t:#x}");
    }
}

/// The operations in loops over slices, the way the FFT kernels use them: once inlined
/// into a loop the compiler generates different code for them than for one call (it
/// may unroll, vectorise, or if-convert), so check that code too, bit for bit against
/// the FPU, on the butterflies and products the kernels compute.
#[test]
fn slice_loops_match_fpu() {
    #[inline(never)]
    fn butterflies(re: &mut [E], im: &mut [E], s_re: E, s_im: E) {
        let h = re.len() / 2;
        let (xr, yr) = re.split_at_mut(h);
        let (xi, yi) = im.split_at_mut(h);
        for j in 0..h {
            let (a, b) = (yr[j], yi[j]);
            let tr = a.mul(s_re).sub(b.mul(s_im));
            let ti = a.mul(s_im).add(b.mul(s_re));
            let (ur, ui) = (xr[j], xi[j]);
            xr[j] = ur.add(tr);
            xi[j] = ui.add(ti);
            yr[j] = ur.sub(tr);
            yi[j] = ui.sub(ti);
        }
    }
    #[inline(never)]
    fn butterflies_fpu(re: &mut [f64], im: &mut [f64], s_re: f64, s_im: f64) {
        let h = re.len() / 2;
        for j in 0..h {
            let (a, b) = (re[h + j], im[h + j]);
            let tr = a * s_re - b * s_im;
            let ti = a * s_im + b * s_re;
            let (ur, ui) = (re[j], im[j]);
            re[j] = ur + tr;
            im[j] = ui + ti;
            re[h + j] = ur - tr;
            im[h + j] = ui - ti;
        }
    }
    #[inline(never)]
    fn elementwise(a: &mut [E], b: &[E]) {
        for (x, &y) in a.iter_mut().zip(b) {
            let q = x.sqr().add(y.sqr()).inv();
            *x = x.mul(q).sub(y.half()).add(y.double()).neg();
        }
    }
    #[inline(never)]
    fn elementwise_fpu(a: &mut [f64], b: &[f64]) {
        for (x, &y) in a.iter_mut().zip(b) {
            let q = 1.0 / (*x * *x + y * y);
            *x = -((*x * q - y * 0.5) + (y + y));
        }
    }

    let mut r = Rng(0xBB67_AE85_84CA_A73B);
    for n in [2usize, 4, 16, 64, 512, 1024] {
        for _ in 0..20 {
            // FFT-like magnitudes (and zeros), then one random twiddle.
            let bits = |r: &mut Rng| (0..n).map(|_| r.value(900, 1150)).collect::<Vec<_>>();
            let (re0, im0) = (bits(&mut r), bits(&mut r));
            let (s_re, s_im) = (r.normal(1000, 1023), r.normal(1000, 1023));
            let mut re: Vec<E> = re0.iter().map(|&b| E::from_bits(b)).collect();
            let mut im: Vec<E> = im0.iter().map(|&b| E::from_bits(b)).collect();
            let mut fre: Vec<f64> = re0.iter().map(|&b| f(b)).collect();
            let mut fim: Vec<f64> = im0.iter().map(|&b| f(b)).collect();
            butterflies(&mut re, &mut im, E::from_bits(s_re), E::from_bits(s_im));
            butterflies_fpu(&mut fre, &mut fim, f(s_re), f(s_im));
            for j in 0..n {
                check("butterfly re", &[re0[j]], re[j].to_bits(), fre[j].to_bits());
                check("butterfly im", &[im0[j]], im[j].to_bits(), fim[j].to_bits());
            }
            // Non-zero normals for the quotient.
            let a0: Vec<u64> = (0..n).map(|_| r.normal(950, 1100)).collect();
            let b0: Vec<u64> = (0..n).map(|_| r.normal(950, 1100)).collect();
            let mut a: Vec<E> = a0.iter().map(|&b| E::from_bits(b)).collect();
            let b: Vec<E> = b0.iter().map(|&b| E::from_bits(b)).collect();
            let mut fa: Vec<f64> = a0.iter().map(|&b| f(b)).collect();
            let fb: Vec<f64> = b0.iter().map(|&b| f(b)).collect();
            elementwise(&mut a, &b);
            elementwise_fpu(&mut fa, &fb);
            for j in 0..n {
                check(
                    "elementwise",
                    &[a0[j], b0[j]],
                    a[j].to_bits(),
                    fa[j].to_bits(),
                );
            }
        }
    }
}

/// Hand-computed ties and near-ties: a wrong rounding rule (ties away, truncation,
/// round-half-up) fails here whatever the FPU does.
#[test]
fn known_roundings() {
    let b = |v: f64| v.to_bits();
    let e = |v: f64| E::from_bits(v.to_bits());
    // of: 2^53 + 1 is halfway between 2^53 and 2^53 + 2 -> even (2^53).
    assert_eq!(E::of((1 << 53) + 1).to_bits(), b(9007199254740992.0));
    assert_eq!(E::of((1 << 53) + 3).to_bits(), b(9007199254740996.0));
    assert_eq!(E::of(-(1 << 53) - 1).to_bits(), b(-9007199254740992.0));
    assert_eq!(E::of((1 << 53) + 5).to_bits(), b(9007199254740996.0));
    assert_eq!(E::of(i64::MAX).to_bits(), b(9223372036854775808.0));
    assert_eq!(E::of(i64::MIN).to_bits(), b(-9223372036854775808.0));
    assert_eq!(E::scaled(3, -1).to_bits(), b(1.5));
    assert_eq!(E::scaled(-5, 10).to_bits(), b(-5120.0));
    // add: 1 + 2^-53 -> 1 (tie, even); (1 + 2^-52) + 2^-53 -> 1 + 2^-51 (tie, even);
    // 1 + 3·2^-53 -> 1 + 2^-51 (above the tie).
    let u = 1.0 / 9007199254740992.0; // 2^-53
    assert_eq!((e(1.0) + e(u)).to_bits(), b(1.0));
    assert_eq!(
        (e(1.0000000000000002) + e(u)).to_bits(),
        b(1.0000000000000004)
    );
    assert_eq!((e(1.0) + e(3.0 * u)).to_bits(), b(1.0000000000000004));
    // 1 - 2^-54 is just above the tie between 1 - 2^-53 and 1 -> 1; 1 - 2^-53·(1+2^-52)
    // rounds down.
    assert_eq!((e(1.0) - e(u / 2.0)).to_bits(), b(1.0));
    assert_eq!((e(2.0) - e(3.0 * u)).to_bits(), b(1.9999999999999996));
    // x + (-x) = +0, -0 + -0 = -0, +0 + -0 = +0.
    assert_eq!((e(1.5) + e(-1.5)).to_bits(), 0);
    assert_eq!((e(-1.5) + e(1.5)).to_bits(), 0);
    assert_eq!((e(-0.0) + e(-0.0)).to_bits(), SIGN);
    assert_eq!((e(-0.0) + e(0.0)).to_bits(), 0);
    assert_eq!((e(0.0) - e(0.0)).to_bits(), 0);
    // mul: (2^27 + 1)(2^27 - 1) = 2^54 - 1, halfway between 2^54 - 2 (odd) and 2^54.
    assert_eq!(
        (e(134217729.0) * e(134217727.0)).to_bits(),
        b(18014398509481984.0)
    );
    // (2^27 + 1)^2 = 2^54 + 2^28 + 1: just above a tie-free point -> 2^54 + 2^28.
    assert_eq!(
        (e(134217729.0) * e(134217729.0)).to_bits(),
        b(18014398777917440.0)
    );
    // (2^26 + 1)(2^27 + 1)·... : 3·(2^53 - 1) = 2^54 + 2^53 - 3 -> 2^54 + 2^53 - 4.
    assert_eq!(
        (e(3.0) * e(9007199254740991.0)).to_bits(),
        b(27021597764222972.0)
    );
    assert_eq!((e(-0.0) * e(2.0)).to_bits(), SIGN);
    assert_eq!((e(-0.0) * e(-2.0)).to_bits(), 0);
    // div and sqrt.
    assert_eq!((e(1.0) / e(3.0)).to_bits(), b(0.3333333333333333));
    assert_eq!((e(2.0) / e(3.0)).to_bits(), b(0.6666666666666666));
    assert_eq!(e(3.0).inv().to_bits(), b(0.3333333333333333));
    assert_eq!((e(-0.0) / e(3.0)).to_bits(), SIGN);
    assert_eq!(e(2.0).sqrt().to_bits(), b(std::f64::consts::SQRT_2));
    assert_eq!(e(0.5).sqrt().to_bits(), b(std::f64::consts::FRAC_1_SQRT_2));
    assert_eq!(e(16.0).sqrt().to_bits(), b(4.0));
    // rint: ties to even; floor and trunc.
    for (v, want) in [
        (0.5, 0),
        (1.5, 2),
        (2.5, 2),
        (3.5, 4),
        (-0.5, 0),
        (-1.5, -2),
        (-2.5, -2),
        (0.49999999999999994, 0),
        (4503599627370495.5, 4503599627370496),
        (4503599627370494.5, 4503599627370494),
        (-4503599627370495.5, -4503599627370496),
    ] {
        assert_eq!(e(v).rint(), want, "rint({v})");
    }
    assert_eq!(e(-0.5).floor(), -1);
    assert_eq!(e(-1.0).floor(), -1);
    assert_eq!(e(-0.0).floor(), 0);
    assert_eq!(e(2.999).floor(), 2);
    assert_eq!(e(-1.5).trunc(), -1);
    assert_eq!(e(-9223372036854775808.0).trunc(), i64::MIN);
    assert_eq!(e(9223372036854775808.0).trunc(), i64::MAX);
    assert!(e(-0.0) == e(0.0));
    assert!(!e(-0.0).lt(e(0.0)));
    assert!(e(-1.0).lt(e(-0.5)));
}

#[test]
fn named_constants_are_the_literals() {
    for (c, v) in [
        (fpr::ZERO, 0.0f64),
        (fpr::ONE, 1.0),
        (fpr::TWO, 2.0),
        (fpr::ONEHALF, 0.5),
        (fpr::Q, 12289.0),
        (fpr::PTWO63, 9223372036854775808.0),
    ] {
        assert_eq!(c.to_bits(), v.to_bits());
    }
    // The emulated ops agree with the constants' relations.
    assert_eq!(E::of(12289).to_bits(), fpr::Q.to_bits());
    assert_eq!(
        E::from_bits(fpr::Q.to_bits()).inv().to_bits(),
        fpr::INVERSE_OF_Q.to_bits()
    );
    assert_eq!(
        E::of(2).sqrt().inv().to_bits(),
        N::of(2).sqrt().inv().to_bits()
    );
    assert_eq!(
        E::from_bits(fpr::INVSQRT2.to_bits()).sqr().to_bits(),
        N::from_bits(fpr::INVSQRT2.to_bits()).sqr().to_bits()
    );
}

// ---------------------------------------------------------------------------------------
// expm_p63 through both types.

/// The operations expm_p63 needs, for both implementations.
trait Float: Copy {
    fn from_bits(b: u64) -> Self;
    fn mul(self, o: Self) -> Self;
    fn trunc(self) -> i64;
}
impl Float for E {
    fn from_bits(b: u64) -> Self {
        E::from_bits(b)
    }
    fn mul(self, o: Self) -> Self {
        E::mul(self, o)
    }
    fn trunc(self) -> i64 {
        E::trunc(self)
    }
}
impl Float for N {
    fn from_bits(b: u64) -> Self {
        N::from_bits(b)
    }
    fn mul(self, o: Self) -> Self {
        N::mul(self, o)
    }
    fn trunc(self) -> i64 {
        N::trunc(self)
    }
}

/// `ccs · exp(-x) · 2^63` exactly as `fpr::expm_p63` computes it, over any `Float`.
fn expm_p63<F: Float>(x: u64, ccs: u64) -> u64 {
    const C: [u64; 13] = [
        0x0000_0004_7411_83A3,
        0x0000_0036_548C_FC06,
        0x0000_024F_DCBF_140A,
        0x0000_171D_939D_E045,
        0x0000_D00C_F58F_6F84,
        0x0006_8068_1CF7_96E3,
        0x002D_82D8_305B_0FEA,
        0x0111_1111_0E06_6FD0,
        0x0555_5555_5507_0F00,
        0x1555_5555_5581_FF00,
        0x4000_0000_0002_B400,
        0x7FFF_FFFF_FFFF_4800,
        0x8000_0000_0000_0000,
    ];
    let mulhi = |a: u64, b: u64| ((a as u128 * b as u128) >> 64) as u64;
    let p63 = F::from_bits(fpr::PTWO63.to_bits());
    let z = (F::from_bits(x).mul(p63).trunc() as u64) << 1;
    let mut y = C[0];
    for &c in &C[1..] {
        y = c.wrapping_sub(mulhi(z, y));
    }
    let z = (F::from_bits(ccs).mul(p63).trunc() as u64) << 1;
    mulhi(z, y)
}

#[test]
fn expm_p63_both_types() {
    let mut r = Rng(0xA54F_F53A_5F1D_36F1);
    let ln2 = fpr::LOG2.to_bits();
    let check = |x: u64, ccs: u64| {
        let e = expm_p63::<E>(x, ccs);
        let n = expm_p63::<N>(x, ccs);
        assert_eq!(e, n, "expm_p63({:e}, {:e})", f(x), f(ccs));
        let lib = fpr::expm_p63(fpr::Fpr::from_bits(x), fpr::Fpr::from_bits(ccs));
        assert_eq!(lib, n, "fpr::expm_p63({:e}, {:e})", f(x), f(ccs));
    };
    for _ in 0..200_000 {
        // x uniform in [0, ln 2), ccs in (0, 1].
        let x = (f(ln2) * (r.next() >> 11) as f64 / (1u64 << 53) as f64).to_bits();
        let ccs = (((r.next() >> 11) + 1) as f64 / (1u64 << 53) as f64).to_bits();
        check(x, ccs);
        // Small x and ccs near 1 (the sampler's typical range).
        check(r.normal(900, 1020) & M63, r.normal(1018, 1022) & M63);
    }
    for (x, ccs) in [
        (0u64, 1.0f64.to_bits()),
        (0, 0.5f64.to_bits()),
        (ln2 - 1, 1.0f64.to_bits()),
        (ln2 - 1, 0x3FEF_FFFF_FFFF_FFFF),
        (0x3C90_0000_0000_0000, 0x3FEF_FFFF_FFFF_FFFF),
    ] {
        check(x, ccs);
    }
}
