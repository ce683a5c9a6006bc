//! The binary64 units of hw/falcon (falcon_fpadd, falcon_fpmul, Verilated) against the
//! library's integer-only binary64 (`fpr::emulated`), bit for bit:
//! * 10^6 random operand pairs per operation (add, sub, mul) over Falcon's domain (zero
//!   or normal operands, every exponent), a share with close exponents (cancellation,
//!   rounding carries) and fractions chosen to stress rounding;
//! * every pair of a list of directed values (zeros of both signs, rounding ties, the
//!   smallest and largest normals, exponents at both ends, carries);
//! * random 64-bit patterns outside the domain too (subnormals, infinities, NaN), where
//!   the emulation's result is unspecified but deterministic: the RTL computes the same
//!   integer function, so it matches there as well.
//!
//! `PQSIG_HWSIM_FULL=1` streams 4·10^6 pairs per operation instead.

use pqsig::kernels::falcon::fpr::emulated::Fpr as E;
use pqsig_hwsim::falcon::{fpu_stream, FpOp};

const M52: u64 = (1 << 52) - 1;
const SIGN: u64 = 1 << 63;

/// xorshift64 (deterministic; fixed seeds).
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
    /// A fraction field: random, or a pattern that stresses rounding and carries.
    fn frac(&mut self) -> u64 {
        match self.below(8) {
            0 => M52,                       // all ones: carries out of the significand
            1 => 0,                         // power of two
            2 => self.next() & 0xF,         // few low bits
            3 => M52 ^ (self.next() & 0xF), // almost all ones
            4 => (self.next() & M52) | 1,   // odd
            _ => self.next() & M52,
        }
    }
    /// Zero (1/32) or a normal number with exponent field in [lo, hi].
    fn value(&mut self, lo: u64, hi: u64) -> u64 {
        let s = self.next() & SIGN;
        if self.below(32) == 0 {
            return s;
        }
        let e = lo + self.below(hi - lo + 1);
        s | (e << 52) | self.frac()
    }
    /// A pair over the domain: half with unrelated exponents, half with close ones.
    fn pair(&mut self) -> (u64, u64) {
        let a = match self.below(4) {
            0 => self.value(1, 2046),
            _ => self.value(700, 1350),
        };
        let b = if self.below(2) == 0 {
            self.value(1, 2046)
        } else {
            // exponent within +-3 of a's (cancellation, alignment by 0..3 bits)
            let ea = ((a >> 52) & 0x7FF) as i64;
            let eb = (ea + self.below(7) as i64 - 3).clamp(1, 2046) as u64;
            let f = if self.below(4) == 0 {
                // a's fraction with a few low bits changed: massive cancellation
                (a & M52) ^ (self.next() & 0xFF)
            } else {
                self.frac()
            };
            (self.next() & SIGN) | (eb << 52) | f
        };
        (a, b)
    }
}

fn golden(op: FpOp, a: u64, b: u64) -> u64 {
    let (x, y) = (E::from_bits(a), E::from_bits(b));
    match op {
        FpOp::Add => x.add(y),
        FpOp::Sub => x.sub(y),
        FpOp::Mul => x.mul(y),
    }
    .to_bits()
}

fn check(op: FpOp, a: &[u64], b: &[u64], what: &str) -> u32 {
    let (got, lat) = fpu_stream(op, a, b).expect("simulation");
    let mut bad = 0usize;
    for i in 0..a.len() {
        let want = golden(op, a[i], b[i]);
        if got[i] != want {
            if bad < 10 {
                eprintln!(
                    "{what} {op:?} #{i}: {:#018x} op {:#018x} = rtl {:#018x}, emulation {want:#018x}",
                    a[i], b[i], got[i]
                );
            }
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "{what} {op:?}: {bad} of {} results differ", a.len());
    lat
}

fn count() -> usize {
    if std::env::var_os("PQSIG_HWSIM_FULL").is_some() {
        4_000_000
    } else {
        1_000_000
    }
}

fn random_pairs(seed: u64, n: usize) -> (Vec<u64>, Vec<u64>) {
    let mut r = Rng(seed);
    (0..n).map(|_| r.pair()).unzip()
}

#[test]
fn add_random_pairs_match_emulation() {
    let (a, b) = random_pairs(0x0123_4567_89AB_CDEF, count());
    let lat = check(FpOp::Add, &a, &b, "random");
    assert_eq!(lat, 7, "falcon_fpadd latency");
}

#[test]
fn sub_random_pairs_match_emulation() {
    let (a, b) = random_pairs(0x5EED_0000_0000_0002, count());
    check(FpOp::Sub, &a, &b, "random");
}

#[test]
fn mul_random_pairs_match_emulation() {
    let (a, b) = random_pairs(0x5EED_0000_0000_0003, count());
    let lat = check(FpOp::Mul, &a, &b, "random");
    assert_eq!(lat, 6, "falcon_fpmul latency");
}

/// Directed values: zeros, ones, ties, the ends of the exponent range.
fn directed() -> Vec<u64> {
    let one = 0x3FF0_0000_0000_0000u64;
    let mut v = vec![
        0,                     // +0
        SIGN,                  // -0
        one,                   // 1
        one | 1,               // 1 + ulp
        one | M52,             // 2 - ulp
        0x3CA0_0000_0000_0000, // 2^-53: 1 + 2^-53 is a tie (to even: 1)
        0x3CA8_0000_0000_0000, // 1.5 * 2^-53: above the tie
        0x3C90_0000_0000_0000, // 2^-54
        0x3FF8_0000_0000_0000, // 1.5
        0x3FF8_0000_0000_0001, // 1.5 + ulp: products with a half-ulp tail
        0x4000_0000_0000_0000, // 2
        0x3FE0_0000_0000_0000, // 0.5
        0x3FF0_0000_0000_0003, // 1 + 3 ulp
        0x0010_0000_0000_0000, // smallest normal
        0x0010_0000_0000_0001,
        0x0020_0000_0000_0000, // 2 * smallest normal: halves to the edge
        0x001F_FFFF_FFFF_FFFF,
        0x7FEF_FFFF_FFFF_FFFF, // largest normal
        0x7FE0_0000_0000_0000,
        0x2000_0000_0000_0000, // products below 2^-1022: flushed to zero
        0x1FF0_0000_0000_0001,
        0x5FF0_0000_0000_0000, // products beyond 2^1024 (outside the domain)
        0x40C8_0040_0000_0000, // 12289
        0x3F15_5555_5555_5555,
        0x3FE6_A09E_667F_3BCD, // 1/sqrt(2), a twiddle
        0x4330_0000_0000_0000, // 2^52
        0x4330_0000_0000_0001,
        0x4340_0000_0000_0000, // 2^53
        0x000F_FFFF_FFFF_FFFF, // subnormal (read as zero)
        0x0000_0000_0000_0001,
    ];
    let neg: Vec<u64> = v.iter().map(|x| x ^ SIGN).collect();
    v.extend(neg);
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn directed_pairs_match_emulation() {
    let d = directed();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &d {
        for &y in &d {
            a.push(x);
            b.push(y);
        }
    }
    for op in [FpOp::Add, FpOp::Sub, FpOp::Mul] {
        check(op, &a, &b, "directed");
    }
    // A few results spelled out (independent of the emulation).
    let one = 0x3FF0_0000_0000_0000u64;
    let (r, _) = fpu_stream(
        FpOp::Add,
        &[one, one | 1, 0, SIGN, one],
        &[
            0x3CA0_0000_0000_0000,
            0x3CA0_0000_0000_0000,
            SIGN,
            SIGN,
            one ^ SIGN,
        ],
    )
    .unwrap();
    assert_eq!(
        r,
        vec![one, one | 2, 0, SIGN, 0],
        "ties to even, zero signs, x + (-x) = +0"
    );
    let (r, _) = fpu_stream(
        FpOp::Mul,
        &[SIGN, 0x1FF0_0000_0000_0000, 0x2000_0000_0000_0000, one | 1],
        &[
            one,
            0x1FF0_0000_0000_0000 ^ SIGN,
            0x2000_0000_0000_0000 ^ SIGN,
            one | 1,
        ],
    )
    .unwrap();
    assert_eq!(
        r,
        vec![SIGN, SIGN, SIGN | (1 << 52), one | 2],
        "-0 * 1; 2^-513 * -2^-513 flushes to -0; 2^-511 * -2^-511 = -2^-1022; (1+u)^2 -> 1+2u"
    );
}

#[test]
fn any_bit_pattern_matches_emulation() {
    let mut r = Rng(0xA5A5_5A5A_F00D_BEEF);
    let n = count() / 4;
    let a: Vec<u64> = (0..n).map(|_| r.next()).collect();
    let b: Vec<u64> = (0..n).map(|_| r.next()).collect();
    for op in [FpOp::Add, FpOp::Sub, FpOp::Mul] {
        check(op, &a, &b, "any-pattern");
    }
}

#[test]
fn mismatched_lengths_are_an_error() {
    assert!(fpu_stream(FpOp::Add, &[0, 0], &[0]).is_err());
}
