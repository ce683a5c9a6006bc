//! `Fpr` as a hardware `f64` (the default).
//!
//! Every operation is one IEEE-754 binary64 operation with round-to-nearest-even; Rust
//! never fuses `a*b + c` into an FMA on its own, so results are bit-identical to the
//! emulated implementation and to the C reference built without FMA.

/// A binary64 value computed with the FPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[repr(transparent)]
pub struct Fpr(pub f64);

/// 2^52: adding and subtracting it rounds a smaller magnitude to an integer, ties to even.
const TWO52: f64 = 4503599627370496.0;

// The operations are methods named as in the emulated backend (`fpr::emulated`), which
// has the same API: operator traits would hide which of the two a line computes with.
#[allow(clippy::should_implement_trait)]
impl Fpr {
    #[inline(always)]
    pub const fn from_bits(b: u64) -> Fpr {
        Fpr(f64::from_bits(b))
    }
    #[inline(always)]
    pub const fn to_bits(self) -> u64 {
        self.0.to_bits()
    }
    /// The integer `i` (|i| < 2^63), rounded to nearest-even if |i| >= 2^53.
    #[inline(always)]
    pub fn of(i: i64) -> Fpr {
        Fpr(i as f64)
    }
    /// `i · 2^sc`, rounded once.
    #[inline]
    pub fn scaled(i: i64, sc: i32) -> Fpr {
        // i as f64 rounds once; scaling by a power of two is then exact unless the result
        // leaves the normal range, which Falcon's callers never do (|sc| < 1000).
        let mut x = i as f64;
        let mut s = sc;
        // Apply the scale in steps that each stay within the exponent range.
        while s > 0 {
            let k = if s > 1000 { 1000 } else { s };
            x *= f64::from_bits(((1023 + k) as u64) << 52);
            s -= k;
        }
        while s < 0 {
            let k = if s < -1000 { 1000 } else { -s };
            x *= f64::from_bits(((1023 - k) as u64) << 52);
            s += k;
        }
        Fpr(x)
    }
    #[inline(always)]
    pub fn add(self, o: Fpr) -> Fpr {
        Fpr(self.0 + o.0)
    }
    #[inline(always)]
    pub fn sub(self, o: Fpr) -> Fpr {
        Fpr(self.0 - o.0)
    }
    #[inline(always)]
    pub fn neg(self) -> Fpr {
        Fpr(-self.0)
    }
    #[inline(always)]
    pub fn half(self) -> Fpr {
        Fpr(self.0 * 0.5)
    }
    #[inline(always)]
    pub fn double(self) -> Fpr {
        Fpr(self.0 + self.0)
    }
    #[inline(always)]
    pub fn mul(self, o: Fpr) -> Fpr {
        Fpr(self.0 * o.0)
    }
    #[inline(always)]
    pub fn sqr(self) -> Fpr {
        Fpr(self.0 * self.0)
    }
    #[inline(always)]
    pub fn div(self, o: Fpr) -> Fpr {
        Fpr(self.0 / o.0)
    }
    #[inline(always)]
    pub fn inv(self) -> Fpr {
        Fpr(1.0 / self.0)
    }
    /// Correctly rounded square root (the input is never negative in Falcon).
    #[inline(always)]
    pub fn sqrt(self) -> Fpr {
        Fpr(sqrt(self.0))
    }
    /// `self < o` (no NaN in Falcon's domain).
    #[inline(always)]
    pub fn lt(self, o: Fpr) -> bool {
        self.0 < o.0
    }
    /// Round to the nearest integer, ties to even, without a data-dependent branch.
    /// Valid for |x| < 2^63.
    #[inline(always)]
    pub fn rint(self) -> i64 {
        let x = self.0;
        // Three candidates, selected with masks:
        // * |x| >= 2^52: x is already an integer, `tx` is exact;
        // * x >= 0 (below 2^52): x + 2^52 rounds to an integer in the FPU's mode;
        // * x < 0: likewise with x - 2^52.
        // `sx = trunc(x - 1)` gives the sign for every |x| > 1/4; for smaller |x| both
        // candidates are 0 and the choice does not matter.
        let sx = (x - 1.0) as i64;
        let tx = x as i64;
        let mut rp = ((x + TWO52) as i64).wrapping_sub(TWO52 as i64);
        let mut rn = ((x - TWO52) as i64).wrapping_add(TWO52 as i64);
        let m = sx >> 63;
        rn &= m;
        rp &= !m;
        // Top 12 bits of tx all equal (all zero or all one) <=> |tx| < 2^52.
        let ub = ((tx as u64) >> 52) as u32;
        let small = ((((ub.wrapping_add(1)) & 0xFFF).wrapping_sub(2)) >> 31) as i64;
        let m = small.wrapping_neg(); // all ones when |tx| < 2^52
        rp &= m;
        rn &= m;
        let tx = tx & !m;
        tx | rn | rp
    }
    /// Largest integer <= x (|x| < 2^63).
    #[inline(always)]
    pub fn floor(self) -> i64 {
        let r = self.0 as i64;
        r - ((self.0 < r as f64) as i64)
    }
    /// Round toward zero (|x| < 2^63).
    #[inline(always)]
    pub fn trunc(self) -> i64 {
        self.0 as i64
    }
    /// Round toward zero, for |x| < 2^63 only (no saturation), with no branch: for secret
    /// arguments (FN-DSA's BerExp), where `trunc`'s saturating `as` may compile to
    /// branches.
    #[inline(always)]
    pub fn trunc_small(self) -> i64 {
        trunc_in_range(self.0)
    }
}

/// `x` truncated toward zero, for |x| < 2^63 (outside it: unspecified), with no branch.
/// Rust's `as` saturates (NaN → 0, out of range → the bound), which on x86-64 is
/// `cvttsd2si` plus compares and selects that LLVM's cmov conversion may turn into
/// branches once inlined (memcheck saw one in FN-DSA's BerExp, on the secret x). Inside
/// the range the plain instruction gives the same value. AArch64's `fcvtzs` saturates by
/// itself.
#[inline(always)]
fn trunc_in_range(x: f64) -> i64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use core::arch::x86_64::{_mm_cvttsd_si64, _mm_set_sd};
        // SAFETY: the two intrinsics need SSE2 only, which this build enables
        // (target_feature = "sse2" in the cfg above: the x86-64 baseline); no memory.
        unsafe { _mm_cvttsd_si64(_mm_set_sd(x)) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        x as i64
    }
}

/// Correctly rounded binary64 square root without libm.
#[inline(always)]
fn sqrt(x: f64) -> f64 {
    #[cfg(feature = "std")]
    {
        x.sqrt()
    }
    #[cfg(all(not(feature = "std"), target_arch = "x86_64"))]
    {
        use core::arch::x86_64::{_mm_cvtsd_f64, _mm_set_sd, _mm_sqrt_pd};
        // SAFETY: SSE2 is part of the x86-64 baseline; the intrinsics touch no memory.
        unsafe { _mm_cvtsd_f64(_mm_sqrt_pd(_mm_set_sd(x))) }
    }
    #[cfg(all(not(feature = "std"), target_arch = "aarch64"))]
    {
        use core::arch::aarch64::{vdup_n_f64, vget_lane_f64, vsqrt_f64};
        // SAFETY: NEON (Advanced SIMD) is part of the AArch64 baseline; no memory access.
        unsafe { vget_lane_f64::<0>(vsqrt_f64(vdup_n_f64(x))) }
    }
    #[cfg(all(
        not(feature = "std"),
        not(target_arch = "x86_64"),
        not(target_arch = "aarch64")
    ))]
    {
        // No FPU square root reachable without libm: the integer one rounds identically.
        f64::from_bits(
            super::emulated::Fpr::from_bits(x.to_bits())
                .sqrt()
                .to_bits(),
        )
    }
}

// Operators and zeroize: one definition for both implementations (see the parent module).
super::fpr_operators!(Fpr);
