//! `Fpr` as IEEE-754 binary64 emulated with integer instructions (feature `fpr-emulated`).
//!
//! The value is kept in its binary64 encoding (a `u64`) and every operation is computed
//! with integer arithmetic only — no `f64` operation appears in this file — with
//! round-to-nearest, ties-to-even, exactly as the FPU rounds. The API is the one of
//! [`super::native::Fpr`], and on the domain below the results are bit-identical to it.
//!
//! # Domain
//!
//! Falcon only ever handles zeros and normal numbers, and every result it computes is
//! zero or normal. On that domain each operation returns the correctly rounded binary64
//! result, signs of zeros included (`x + (-x) = +0`, `(-0) + (-0) = -0`, `-0 · y = ∓0`,
//! `sqrt(-0) = -0`, ...), i.e. the same bits as the FPU. Outside it:
//!
//! * subnormal inputs are read as zero of the same sign (except by [`Fpr::lt`],
//!   equality, [`Fpr::neg`] and [`Fpr::floor`], which see their true value);
//! * a result whose magnitude, before rounding, is below 2^-1022 is flushed to a zero of
//!   the result's sign (the FPU would return a subnormal);
//! * results of magnitude 2^1024 or more, infinite or NaN inputs, division by zero and
//!   the square root of a negative number give an unspecified bit pattern (never a panic).
//!
//! Each operation's doc comment restates what applies to it.
//!
//! # Constant time
//!
//! What is guaranteed: no operation branches on, or indexes memory with, its operands,
//! including when the operations are inlined into loops (the FFT kernels). Conditions
//! are turned into all-zeros / all-ones masks; division and square root run a fixed
//! number of iterations (55 each), whose loop counters are the only branches.
//!
//! Masks alone do not ensure that: once the operations are inlined into a loop, LLVM
//! recognises `v & mask`, `(v ^ mask) - mask` or `bit << k` as selects, lowers them to
//! `cmov`, and x86's cmov-conversion pass then turns some of those into conditional
//! branches (it did, in `fft`, `ifft`, `poly_mul_fft`, `poly_split_fft`, ... before the
//! barrier). So every mask derived from data, and every 0/1 bit that is shifted or
//! scaled into one, passes through `barrier`, an empty `asm!` block (x86, x86-64, Arm,
//! AArch64, RISC-V) after which the optimiser knows nothing about the value and can only
//! combine it with ALU instructions. It emits no instruction and costs nothing by
//! itself, and it does not depend on build flags. On other targets it falls back to
//! `core::hint::black_box`, which is best effort only. A side effect: loops over these
//! operations are no longer auto-vectorised (an `asm!` block cannot be), which on x86-64
//! is faster (SSE2 has neither a 64 × 64 multiply nor per-lane variable shifts) and removes the
//! vector shifts by a secret count that memcheck reported (constant-time on the
//! hardware, but memcheck insists on a defined count).
//!
//! The few primitives whose constant-time lowering depends on the target go through the
//! private `Ops` trait:
//!
//! * shifts of a 64-bit word by a secret count: one instruction on 64-bit targets; on
//!   32-bit targets the compiler may lower them with a branch or a select, so there they
//!   are done on 32-bit halves (a masked swap of the halves for bit 5 of the count, then
//!   shifts by `count & 31` only, the carried bits moved by `(hi << 1) << (31 - k)` so
//!   that no shift ever reaches 32);
//! * the leading-zero count used to normalise: `lzcnt`/`bsr` or `clz` on x86-64 and
//!   AArch64 (on a non-zero operand), a six-step masked binary search elsewhere;
//! * the 53 × 53-bit mantissa product: one 64 × 64 → 128 `mul` on x86-64; elsewhere four
//!   32 × 32 → 64 products (`umull` on Arm: single-cycle and constant-time on Cortex-M4,
//!   but *not* on Cortex-M3, whose multiplier exits early).
//!
//! Both variants are always compiled; the unit tests check the portable one against the
//! host one so that the 32-bit code paths are exercised on any machine.
//!
//! Not covered: the comparisons ([`Fpr::lt`], `==`, `partial_cmp`) compute their result
//! without branching, but return a `bool` that the caller then uses as it likes; and the
//! hardware itself (variable-time multipliers such as Cortex-M3's).
//!
//! How it was checked:
//!
//! * x86-64, valgrind memcheck (`examples/ct_check.rs`, built with `--features
//!   fpr-emulated`, release): each operation on poisoned operands, and every FFT kernel
//!   (portable and AVX2 tables, `fft`, `ifft` and all FFT-domain operations at
//!   logn 1, 2, 4, 9, 10) and key expansion computing with this type: no report. Also
//!   clean when rebuilt with `-C target-cpu=haswell` (BMI2 shifts, `lzcnt`) and at
//!   `opt-level = 2`; `--sample-full` flags only the sampler's documented BerExp points.
//! * `thumbv7em-none-eabihf` (release), in the generated code of the portable FFT
//!   kernels: the only conditional branches are loop, length and index checks. Masks
//!   made from a comparison appear as `IT`-predicated `mov`s of constants, which take one
//!   cycle on Cortex-M4 whether or not their condition holds.
//! * Bit-exactness of the inlined, looped code: `tests/fpr_emulated.rs`
//!   (`slice_loops_match_fpu`) and the KAT suites with `--features fpr-emulated`.
//!
//! Cost on x86-64 (one Xeon core, independent operations in a loop): add ≈ 8 ns,
//! mul ≈ 4.5 ns, div ≈ 70 ns, sqrt ≈ 120 ns, `rint` ≈ 3 ns, `of` ≈ 3 ns, where the FPU
//! takes 1 to 1.6 ns for add, mul or div and 2.3 ns for sqrt: add ≈ 5-9×, mul ≈ 3-5×,
//! div ≈ 45×, sqrt ≈ 53×, `rint` and `of` on par. Falcon-512 signing with this type
//! takes about 17× (dynamic) and 12× (expanded key) the time of the native AVX2 build,
//! somewhat less than before the barriers (when LLVM vectorised and if-converted the
//! loops); only `div` got slower (≈ 55 ns before).

use crate::ct::{barrier, barrier32};

/// A binary64 value computed with integer instructions only.
///
/// The field is the IEEE-754 encoding (`f64::to_bits`).
#[derive(Clone, Copy, Default)]
#[repr(transparent)]
pub struct Fpr(u64);

/// Low 52 bits: the stored fraction.
const M52: u64 = (1 << 52) - 1;
/// Everything but the sign bit.
const M63: u64 = (1 << 63) - 1;
/// The implicit leading bit of a normal number's significand.
const HIDDEN: u64 = 1 << 52;
/// The exponent field.
const EXP: u64 = 0x7FF0_0000_0000_0000;
/// Encoding of 1.0.
const ONE_BITS: u64 = 0x3FF0_0000_0000_0000;

// ---------------------------------------------------------------------------------------
// Optimisation barrier.

// ---------------------------------------------------------------------------------------
// Branch-free building blocks. Every all-zeros / all-ones mask derived from data goes
// through `barrier` (through `mask` and `neg_mask`, or directly for sign masks), and so
// does a 0/1 bit before it is shifted into place.

/// 1 if `v != 0`, else 0.
#[inline(always)]
const fn nonzero(v: u64) -> u64 {
    (v | v.wrapping_neg()) >> 63
}

/// All ones if `bit` is 1, zero if it is 0 (`bit` must be 0 or 1), opaque to the
/// optimiser.
#[inline(always)]
fn mask(bit: u64) -> u64 {
    barrier(bit.wrapping_neg())
}

/// `a` where `mask` is all ones, `b` where it is zero.
#[inline(always)]
const fn select(mask: u64, a: u64, b: u64) -> u64 {
    (a & mask) | (b & !mask)
}

/// [`select`] on 32-bit words.
#[inline(always)]
const fn select32(mask: u32, a: u32, b: u32) -> u32 {
    (a & mask) | (b & !mask)
}

/// All ones if `v < 0`, else 0, opaque to the optimiser.
#[inline(always)]
fn neg_mask(v: i32) -> u64 {
    barrier((v >> 31) as i64 as u64)
}

/// The biased exponent field (0 for zeros and subnormals).
#[inline(always)]
const fn exp_field(x: u64) -> i32 {
    ((x >> 52) & 0x7FF) as i32
}

/// The 53-bit significand of a normal number, 0 for a zero (or subnormal) one.
#[inline(always)]
fn significand(x: u64) -> u64 {
    ((x & M52) | HIDDEN) & mask(nonzero(x & EXP))
}

/// Round and encode `(-1)^s · m · 2^e`, or a zero with sign `s` where `nz` is zero.
///
/// `m` is in `[2^54, 2^55)` where `nz` is all ones: 53 result bits, then a rounding bit,
/// then a sticky bit (set iff anything below the rounding bit was non-zero). `s` is 0 or
/// 1; `nz` is an opaque mask (all ones: the result is not zero), so the caller can compute
/// it off the critical path.
///
/// Rounding adds one to the truncated significand when the rounding bit is set and
/// either the sticky bit or the last kept bit is set (nearest, ties to even); a carry
/// out of the significand correctly bumps the exponent. The exponent is stored as
/// `e + 1076`, one less than the bias would suggest, because the leading bit of `m >> 2`
/// lands on bit 52 and adds that one back. A biased exponent below 1 (the subnormal
/// range) also gives a zero with sign `s`.
#[inline(always)]
fn round_pack(s: u64, e: i32, m: u64, nz: u64) -> u64 {
    let be = e.wrapping_add(1076);
    let keep = nz & !neg_mask(be);
    let up = (m >> 1) & (m | (m >> 2)) & 1;
    let body = ((be as u32 as u64) << 52)
        .wrapping_add(m >> 2)
        .wrapping_add(up);
    (s << 63) | (body & keep)
}

/// Map an encoding to a key whose unsigned order is the numeric order, with both zeros
/// mapped to the same key. (Correct for every non-NaN value, subnormals and infinities
/// included.)
#[inline(always)]
fn order_key(x: u64) -> u64 {
    // -0 becomes +0.
    let x = x & !(barrier(1 - nonzero(x & M63)) << 63);
    // Positive: set the sign bit; negative: invert everything.
    x ^ (barrier(((x as i64) >> 63) as u64) | (1 << 63))
}

/// 1 if `a < b` (unsigned), else 0, without relying on a compare-and-branch.
#[inline(always)]
const fn less_than(a: u64, b: u64) -> u64 {
    ((!a & b) | (!(a ^ b) & a.wrapping_sub(b))) >> 63
}

// ---------------------------------------------------------------------------------------
// Target-dependent primitives.

/// The 64-bit primitives whose constant-time lowering depends on the target. The
/// provided methods are the portable (32-bit-safe) versions; [`Host`] overrides those
/// that have a single constant-time instruction on the build target.
trait Ops {
    /// `x >> n` for `0 <= n <= 63` (`n` may be secret).
    #[inline(always)]
    fn shr(x: u64, n: u32) -> u64 {
        let (lo, hi) = (x as u32, (x >> 32) as u32);
        // Shift by 32 if bit 5 of n is set: move the high half down.
        let w = barrier32(((n >> 5) & 1).wrapping_neg());
        let lo = select32(w, hi, lo);
        let hi = hi & !w;
        let k = n & 31;
        let lo = (lo >> k) | ((hi << 1) << (31 - k));
        let hi = hi >> k;
        ((hi as u64) << 32) | lo as u64
    }

    /// `x << n` for `0 <= n <= 63` (`n` may be secret).
    #[inline(always)]
    fn shl(x: u64, n: u32) -> u64 {
        let (lo, hi) = (x as u32, (x >> 32) as u32);
        let w = barrier32(((n >> 5) & 1).wrapping_neg());
        let hi = select32(w, lo, hi);
        let lo = lo & !w;
        let k = n & 31;
        let hi = (hi << k) | ((lo >> 1) >> (31 - k));
        let lo = lo << k;
        ((hi as u64) << 32) | lo as u64
    }

    /// `(x << z, z)` with `z` the number of leading zeros of `x`, so that the result is
    /// in `[2^63, 2^64)`; `(0, 63)` for `x = 0`.
    #[inline(always)]
    fn normalize(x: u64) -> (u64, u32) {
        let mut x = x;
        let mut z = 0u32;
        // Binary search: shift by 32, 16, ..., 1 whenever that many top bits are zero.
        let mut k = 32u32;
        while k > 0 {
            let w = mask(1 - nonzero(x >> (64 - k)));
            x = select(w, x << k, x);
            z += k & (w as u32);
            k >>= 1;
        }
        (x, z)
    }

    /// The 106-bit product of two 53-bit integers, as `(high 64 bits, low 64 bits)`.
    #[inline(always)]
    fn mul53(a: u64, b: u64) -> (u64, u64) {
        #[inline(always)]
        fn mul32(x: u32, y: u32) -> u64 {
            x as u64 * y as u64
        }
        let (a0, a1) = (a as u32, (a >> 32) as u32);
        let (b0, b1) = (b as u32, (b >> 32) as u32);
        let ll = mul32(a0, b0);
        // a1, b1 < 2^21: the two cross products add up to less than 2^54.
        let mid = mul32(a0, b1) + mul32(a1, b0);
        let hh = mul32(a1, b1);
        let (lo, carry) = ll.overflowing_add(mid << 32);
        let hi = hh + (mid >> 32) + carry as u64;
        (hi, lo)
    }
}

/// Portable primitives (32-bit halves, binary-search normalisation, 32-bit products),
/// tested against [`Host`] on any machine.
#[cfg(test)]
struct Portable;
#[cfg(test)]
impl Ops for Portable {}

/// The primitives used by `Fpr` on the build target.
struct Host;
impl Ops for Host {
    #[cfg(target_pointer_width = "64")]
    #[inline(always)]
    fn shr(x: u64, n: u32) -> u64 {
        x >> (n & 63)
    }

    #[cfg(target_pointer_width = "64")]
    #[inline(always)]
    fn shl(x: u64, n: u32) -> u64 {
        x << (n & 63)
    }

    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    #[inline(always)]
    fn normalize(x: u64) -> (u64, u32) {
        // `| 1` keeps the operand non-zero, so no zero special case is generated; a zero
        // x still comes out as (0, 63).
        let z = (x | 1).leading_zeros();
        (x << z, z)
    }

    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn mul53(a: u64, b: u64) -> (u64, u64) {
        let p = a as u128 * b as u128;
        ((p >> 64) as u64, p as u64)
    }
}

// ---------------------------------------------------------------------------------------
// The operations on encodings, generic over the primitives so that both variants can be
// tested on any host.

/// `i · 2^sc`, rounded once.
#[inline(always)]
fn scaled_bits<O: Ops>(i: i64, sc: i32) -> u64 {
    let neg = barrier((i >> 63) as u64);
    // |i| as an unsigned integer (2^63 for i64::MIN, which is exact).
    let u = ((i as u64) ^ neg).wrapping_sub(neg);
    let (n, z) = O::normalize(u);
    // n = |i| · 2^z in [2^63, 2^64): keep 55 bits, the last one sticky.
    let m = (n >> 9) | nonzero(n & 0x1FF);
    // m = 0 exactly when i = 0.
    round_pack(neg & 1, sc.wrapping_add(9 - z as i32), m, mask(m >> 54))
}

#[inline(always)]
fn add_bits<O: Ops>(a: u64, b: u64) -> u64 {
    // Order the operands so that |x| >= |y|; on a tie put the positive one first. The
    // result then has x's sign (x + (-x) = +0, -0 + -0 = -0). For non-negative
    // encodings, integer order is magnitude order: swap iff |a| - |b| - sign(a) < 0
    // (no overflow, both magnitudes are below 2^63).
    let d = (a & M63).wrapping_sub(b & M63).wrapping_sub(a >> 63);
    let t = (a ^ b) & barrier(((d as i64) >> 63) as u64);
    let (x, y) = (a ^ t, b ^ t);

    let (ex, ey) = (exp_field(x), exp_field(y));
    // Significands scaled to [2^55, 2^56): three spare low bits (guard, round, sticky).
    let xm = significand(x) << 3;
    let ym = significand(y) << 3;

    // Align y on x (dist >= 0 since |x| >= |y|). Beyond 63 bits of shift (`far`) y is
    // all sticky; the shift by dist mod 64 runs in parallel with that test.
    let dist = ex - ey;
    let far = neg_mask(63 - dist);
    let k = (dist as u32) & 63;
    let lost = ym & (O::shl(1, k).wrapping_sub(1) | far);
    let ym = (O::shr(ym, k) & !far) | nonzero(lost);

    // Add or subtract; |x| >= |y| keeps the difference non-negative.
    let sub = mask((x ^ y) >> 63);
    let z = xm.wrapping_add((ym ^ sub).wrapping_sub(sub));

    // Back to 55 bits with a sticky bit. z < 2^57; on cancellation it may be much
    // smaller (exact then, since the shift was at most one bit).
    let (zn, lz) = O::normalize(z);
    let m = (zn >> 9) | nonzero(zn & 0x1FF);
    // x = xm · 2^(ex - 1078), and z was shifted left by lz then right by 9.
    // z = 0 (exact cancellation, or two zeros) gives m = 0.
    round_pack(x >> 63, ex - 1069 - lz as i32, m, mask(m >> 54))
}

#[inline(always)]
fn mul_bits<O: Ops>(a: u64, b: u64) -> u64 {
    let (ex, ey) = (exp_field(a), exp_field(b));
    // Zero (and subnormal) operands are dealt with by `nz` at the end rather than by
    // masking the significands, which would lengthen the path through the product.
    let nz = mask(nonzero(a & EXP) & nonzero(b & EXP));
    let (hi, lo) = O::mul53((a & M52) | HIDDEN, (b & M52) | HIDDEN);
    // Product in [2^104, 2^106): keep bits 50.. (56 or 55 bits), rest sticky.
    let m = (hi << 14) | (lo >> 50) | nonzero(lo & ((1 << 50) - 1));
    // Bring [2^55, 2^56) down to [2^54, 2^55), folding the dropped bit into the sticky.
    let w = m >> 55;
    let m = select(mask(w), (m >> 1) | (m & 1), m);
    // a·b = sa·sb · 2^(ex + ey - 2·1075) and m = sa·sb / 2^(50 + w).
    round_pack((a ^ b) >> 63, ex + ey - 2100 + w as i32, m, nz)
}

#[inline(always)]
fn div_bits(a: u64, b: u64) -> u64 {
    let (ex, ey) = (exp_field(a), exp_field(b));
    // A zero (or subnormal) dividend is dealt with by `nz` at the end.
    let nz = mask(nonzero(a & EXP));
    let num = (a & M52) | HIDDEN;
    let den = (b & M52) | HIDDEN;
    // One quotient bit per step: q = floor(num · 2^54 / den), in [2^53, 2^55) since
    // num/den is in (1/2, 2). Non-restoring form, so that a step is one add with no
    // select: t is the partial remainder minus den, in [-den, den); the bit is 1 iff
    // t >= 0, and the next t is 2t - den after a 1 bit, 2t + den after a 0 bit.
    let nden = den.wrapping_neg();
    let mut t = num.wrapping_sub(den);
    let mut q = 0u64;
    for _ in 0..55 {
        let neg = barrier(((t as i64) >> 63) as u64);
        q = (q << 1) | (!neg & 1);
        // Rotating t left by one gives 2t, plus 1 if t < 0; then add -den if t >= 0,
        // !(-den) = den - 1 if t < 0.
        t = t.rotate_left(1).wrapping_add(nden ^ neg);
    }
    // t + den is the final remainder (doubled): non-zero means inexact, the sticky bit.
    let m = (q << 1) | nonzero(t.wrapping_add(den));
    let w = m >> 55;
    let m = select(mask(w), (m >> 1) | (m & 1), m);
    round_pack((a ^ b) >> 63, ex - ey - 55 + w as i32, m, nz)
}

#[inline(always)]
fn sqrt_bits(a: u64) -> u64 {
    let ea = exp_field(a);
    let e = ea - 1023;
    // Make the exponent even by doubling the significand when it is odd:
    // a = s · 2^(e - 52) with s in [2^52, 2^54) and e even.
    let s = (a & M52) | HIDDEN;
    let s = s + (s & mask((e & 1) as u64));
    let half_e = e >> 1;
    // Digit-by-digit integer square root of s · 2^56 (110 bits, 55 pairs): the root is in
    // [2^54, 2^55). Pairs are fed from the top of `src`; after s's 27 pairs come zeros.
    let mut src = s << 10;
    let mut rem = 0u64;
    let mut root = 0u64;
    for _ in 0..55 {
        rem = (rem << 2) | (src >> 62);
        src <<= 2;
        let trial = (root << 2) | 1;
        let t = rem.wrapping_sub(trial);
        let ge = (t >> 63) ^ 1;
        rem = t.wrapping_add(trial & mask(ge ^ 1));
        root = (root << 1) | ge;
    }
    // Anything left makes the root inexact: sticky.
    let m = root | nonzero(rem);
    // sqrt(a) = sqrt(s · 2^56) · 2^(e/2 - 54); a zero (or subnormal) input gives a zero.
    round_pack(a >> 63, half_e - 54, m, mask(nonzero(ea as u64)))
}

/// The pieces of `|x|` around the binary point, shared by `trunc`, `floor` and `rint`.
struct IntParts {
    /// `floor(|x|)` (meaningless when `big`).
    q: u64,
    /// The fraction bits of `|x|` that `q` dropped, left-aligned (bit 63 weighs 1/2).
    frac: u64,
    /// All ones if `|x| >= 2^63` (result saturates).
    big: u64,
    /// All ones if `|x| < 1/2` (q = 0, frac = 0 whatever x is).
    small: u64,
    /// All ones if the sign bit is set.
    neg: u64,
}

#[inline(always)]
fn int_parts<O: Ops>(x: u64) -> IntParts {
    // |x| = mant · 2^(e - 1085) with mant in [2^62, 2^63): shift right by 1085 - e.
    let sh = 1085 - exp_field(x);
    let big = neg_mask(sh);
    let small = neg_mask(63 - sh);
    let k = (sh & 63) as u32;
    let mant = ((x << 10) | (1 << 62)) & M63 & !small;
    IntParts {
        q: O::shr(mant, k),
        frac: O::shl(mant << 1, 63 - k),
        big,
        small,
        neg: barrier(((x as i64) >> 63) as u64),
    }
}

impl IntParts {
    /// Apply the sign to a magnitude `< 2^63`, or saturate like `f64 as i64`.
    #[inline(always)]
    fn finish(&self, mag: u64) -> i64 {
        let signed = (mag ^ self.neg).wrapping_sub(self.neg);
        let sat = (i64::MAX as u64) ^ self.neg;
        select(self.big, sat, signed) as i64
    }
}

// ---------------------------------------------------------------------------------------
// The public type.

// The inherent methods mirror `native::Fpr`'s API; the operator traits are implemented
// below on top of them.
#[allow(clippy::should_implement_trait)]
impl Fpr {
    /// The value whose binary64 encoding is `b`.
    #[inline(always)]
    pub const fn from_bits(b: u64) -> Fpr {
        Fpr(b)
    }

    /// The binary64 encoding.
    #[inline(always)]
    pub const fn to_bits(self) -> u64 {
        self.0
    }

    /// The integer `i`, rounded to nearest-even if |i| > 2^53 (exactly `i as f64`, the
    /// whole `i64` range included).
    #[inline]
    pub fn of(i: i64) -> Fpr {
        Fpr(scaled_bits::<Host>(i, 0))
    }

    /// `i · 2^sc`, rounded once. Domain: the result is zero or normal (below, it flushes
    /// to +0/-0; above 2^1024 it is unspecified).
    #[inline]
    pub fn scaled(i: i64, sc: i32) -> Fpr {
        Fpr(scaled_bits::<Host>(i, sc))
    }

    /// `self + o`. Domain: zero/normal operands (subnormals read as zero), result zero or
    /// normal (a result below 2^-1022 flushes to zero).
    #[inline]
    pub fn add(self, o: Fpr) -> Fpr {
        Fpr(add_bits::<Host>(self.0, o.0))
    }

    /// `self - o` (`self + (-o)`, as IEEE-754 defines it). Domain as [`Fpr::add`].
    #[inline]
    pub fn sub(self, o: Fpr) -> Fpr {
        Fpr(add_bits::<Host>(self.0, o.0 ^ (1 << 63)))
    }

    /// `-self`: flips the sign bit (every input, like the FPU).
    #[inline(always)]
    pub fn neg(self) -> Fpr {
        Fpr(self.0 ^ (1 << 63))
    }

    /// `self / 2`, exact. Zeros stay as they are; for the smallest normal exponent the
    /// result (subnormal on the FPU) flushes to zero.
    #[inline]
    pub fn half(self) -> Fpr {
        let x = self.0;
        let y = x - (barrier(nonzero(x & EXP)) << 52);
        // If the exponent field became 0, clear the fraction too (keep the sign).
        Fpr(y & !(M63 & mask(1 - nonzero(y & EXP))))
    }

    /// `self · 2`, exact. Zeros stay as they are; unspecified if the result overflows.
    #[inline]
    pub fn double(self) -> Fpr {
        let x = self.0;
        Fpr(x.wrapping_add(barrier(nonzero(x & EXP)) << 52))
    }

    /// `self · o`. Domain: zero/normal operands (subnormals read as zero), result zero or
    /// normal (a result below 2^-1022 flushes to zero).
    #[inline]
    pub fn mul(self, o: Fpr) -> Fpr {
        Fpr(mul_bits::<Host>(self.0, o.0))
    }

    /// `self · self`. Domain as [`Fpr::mul`].
    #[inline]
    pub fn sqr(self) -> Fpr {
        Fpr(mul_bits::<Host>(self.0, self.0))
    }

    /// `self / o` (55 fixed iterations). Domain: `o` normal (division by zero gives an
    /// unspecified value, not infinity), `self` zero or normal, result zero or normal.
    #[inline]
    pub fn div(self, o: Fpr) -> Fpr {
        Fpr(div_bits(self.0, o.0))
    }

    /// `1 / self`. Domain as [`Fpr::div`].
    #[inline]
    pub fn inv(self) -> Fpr {
        Fpr(div_bits(ONE_BITS, self.0))
    }

    /// Correctly rounded square root (55 fixed iterations); `sqrt(±0) = ±0`. Domain:
    /// `self >= 0`; a negative normal input gives `-sqrt(|self|)` (the FPU: NaN).
    #[inline]
    pub fn sqrt(self) -> Fpr {
        Fpr(sqrt_bits(self.0))
    }

    /// `self < o`, with `-0 == +0`. Exact for every non-NaN input (subnormals and
    /// infinities included); unspecified for NaN.
    #[inline]
    pub fn lt(self, o: Fpr) -> bool {
        less_than(order_key(self.0), order_key(o.0)) == 1
    }

    /// Round to the nearest integer, ties to even. Domain |x| < 2^63; beyond it the
    /// result saturates to `i64::MIN`/`i64::MAX` like `f64 as i64` (NaN: unspecified).
    #[inline]
    pub fn rint(self) -> i64 {
        let p = int_parts::<Host>(self.0);
        // Round up when the first dropped bit is set and either a later dropped bit or
        // the last kept bit (odd q) is set.
        let up = (p.frac >> 63) & (nonzero(p.frac << 1) | p.q) & 1;
        p.finish(p.q + up)
    }

    /// Largest integer `<= x`. Domain |x| < 2^63 (and x = -2^63); beyond it the result
    /// saturates to `i64::MIN`/`i64::MAX` (NaN: unspecified).
    #[inline]
    pub fn floor(self) -> i64 {
        let p = int_parts::<Host>(self.0);
        // A negative non-integer rounds away from zero: any dropped bit, or any non-zero
        // value below 1/2 (subnormals included).
        let inexact = nonzero(p.frac) | (p.small & nonzero(self.0 & M63));
        p.finish(p.q + (inexact & p.neg & 1))
    }

    /// Round toward zero. Domain |x| < 2^63; beyond it the result saturates to
    /// `i64::MIN`/`i64::MAX` like `f64 as i64` (NaN: unspecified).
    #[inline]
    pub fn trunc(self) -> i64 {
        let p = int_parts::<Host>(self.0);
        p.finish(p.q)
    }

    /// [`Fpr::trunc`] for |x| < 2^63 (the native type's branch-free variant; here the
    /// same function, which has no branch anywhere).
    #[inline]
    pub fn trunc_small(self) -> i64 {
        self.trunc()
    }
}

/// The encoding in hex (no float formatting: this type has no `f64` in it).
impl core::fmt::Debug for Fpr {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Fpr({:#018x})", self.0)
    }
}

/// Numeric equality, as `f64`'s: `-0 == +0`; otherwise equal encodings. (NaN: unspecified.)
impl PartialEq for Fpr {
    #[inline]
    fn eq(&self, o: &Fpr) -> bool {
        (nonzero(self.0 ^ o.0) & nonzero((self.0 | o.0) & M63)) == 0
    }
}

/// Numeric order, as `f64`'s (`-0 == +0`; NaN: unspecified). Prefer [`Fpr::lt`].
impl PartialOrd for Fpr {
    #[inline]
    fn partial_cmp(&self, o: &Fpr) -> Option<core::cmp::Ordering> {
        let (a, b) = (order_key(self.0), order_key(o.0));
        Some(a.cmp(&b))
    }
}

// Operators and zeroize: one definition for both implementations (see the parent module).
super::fpr_operators!(Fpr);

#[cfg(test)]
mod tests {
    //! The portable primitives against the host ones (so the 32-bit code paths are
    //! tested on a 64-bit machine), and the portable operations against the host ones.
    //! The host operations are compared with the FPU in `tests/fpr_emulated.rs`.
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        /// A random zero or normal number with exponent field in [lo, hi].
        fn normal(&mut self, lo: u64, hi: u64) -> u64 {
            let r = self.next();
            if r & 63 == 0 {
                return r & (1 << 63);
            }
            let e = lo + self.next() % (hi - lo + 1);
            (r & (1 << 63)) | (e << 52) | (self.next() & M52)
        }
    }

    fn reference_normalize(x: u64) -> (u64, u32) {
        if x == 0 {
            (0, 63)
        } else {
            (x << x.leading_zeros(), x.leading_zeros())
        }
    }

    #[test]
    fn portable_primitives() {
        let mut r = Rng(0x1234_5678_9ABC_DEF1);
        for i in 0..200_000u32 {
            let x = r.next() >> (r.next() % 64);
            let n = i % 64;
            assert_eq!(Portable::shr(x, n), x >> n, "shr {x:#x} {n}");
            assert_eq!(Portable::shl(x, n), x << n, "shl {x:#x} {n}");
            assert_eq!(Host::shr(x, n), x >> n);
            assert_eq!(Host::shl(x, n), x << n);
            assert_eq!(Portable::normalize(x), reference_normalize(x), "{x:#x}");
            assert_eq!(Host::normalize(x), reference_normalize(x), "{x:#x}");
            let a = (r.next() >> 11) | (1 << 52);
            let b = (r.next() >> 11) | (1 << 52);
            let p = a as u128 * b as u128;
            let want = ((p >> 64) as u64, p as u64);
            assert_eq!(Portable::mul53(a, b), want);
            assert_eq!(Host::mul53(a, b), want);
        }
        for x in [0u64, 1, u64::MAX, 1 << 63, (1 << 32) - 1, 1 << 32] {
            assert_eq!(Portable::normalize(x), reference_normalize(x));
            assert_eq!(Host::normalize(x), reference_normalize(x));
        }
    }

    #[test]
    fn portable_operations_match_host() {
        let mut r = Rng(0x0F0E_0D0C_0B0A_0908);
        for _ in 0..100_000 {
            let a = r.normal(1, 2046);
            let b = r.normal(1, 2046);
            let c = r.normal(600, 1400);
            let d = r.normal(600, 1400);
            assert_eq!(add_bits::<Portable>(a, b), add_bits::<Host>(a, b));
            assert_eq!(add_bits::<Portable>(c, d), add_bits::<Host>(c, d));
            assert_eq!(mul_bits::<Portable>(c, d), mul_bits::<Host>(c, d));
            let i = (r.next() as i64) >> (r.next() % 64);
            let sc = (r.next() % 200) as i32 - 100;
            assert_eq!(scaled_bits::<Portable>(i, sc), scaled_bits::<Host>(i, sc));
            let x = r.normal(900, 1087);
            let (pp, ph) = (int_parts::<Portable>(x), int_parts::<Host>(x));
            assert_eq!(
                (pp.q, pp.frac, pp.big, pp.small),
                (ph.q, ph.frac, ph.big, ph.small)
            );
        }
    }
}
