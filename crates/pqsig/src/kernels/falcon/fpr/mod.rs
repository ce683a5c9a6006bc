//! The floating-point abstraction Falcon's signer and key generator compute with.
//!
//! Falcon's FFT, LDL tree and Gaussian sampler are specified over IEEE-754 binary64 with
//! round-to-nearest-even, and the round-3 KATs depend on every rounding. Two
//! implementations of the same type `Fpr`, chosen at build time:
//!
//! * [`native`] (default): a newtype over `f64`, one hardware instruction per operation.
//!   The compiler must not contract `a*b + c` into an FMA (Rust never does unless asked).
//! * [`emulated`] (feature `fpr-emulated`): binary64 in a `u64`, every operation done
//!   with integer instructions and the same rounding, for targets without a
//!   double-precision FPU (Cortex-M4 class) or whose FPU is not constant-time.
//!
//! Both are always compiled (the emulated one is tested bit-for-bit against the native
//! one); the feature only picks which one is *the* `Fpr`.
//!
//! Domain: Falcon never produces NaN, infinities or subnormals in reachable states; the
//! emulation handles zero and normal numbers exactly and need not match the hardware on
//! the others (documented per operation in `emulated.rs`).

// Constants keep the digits of their source; parsing rounds them to the nearest binary64,
// and those bits are what the KATs check (tests compare them with `to_bits`).
#![allow(clippy::excessive_precision)]

// `a + b` and friends, and zeroize, for either implementation: the operators forward to
// the inherent methods of the same name. Defined before the modules that invoke it.
macro_rules! fpr_operators {
    ($t:ty) => {
        impl core::ops::Add for $t {
            type Output = $t;
            #[inline(always)]
            fn add(self, o: $t) -> $t {
                <$t>::add(self, o)
            }
        }
        impl core::ops::Sub for $t {
            type Output = $t;
            #[inline(always)]
            fn sub(self, o: $t) -> $t {
                <$t>::sub(self, o)
            }
        }
        impl core::ops::Mul for $t {
            type Output = $t;
            #[inline(always)]
            fn mul(self, o: $t) -> $t {
                <$t>::mul(self, o)
            }
        }
        impl core::ops::Div for $t {
            type Output = $t;
            #[inline(always)]
            fn div(self, o: $t) -> $t {
                <$t>::div(self, o)
            }
        }
        impl core::ops::Neg for $t {
            type Output = $t;
            #[inline(always)]
            fn neg(self) -> $t {
                <$t>::neg(self)
            }
        }
        impl zeroize::DefaultIsZeroes for $t {}
    };
}
use fpr_operators;

pub mod emulated;
pub mod native;

#[cfg(not(feature = "fpr-emulated"))]
pub use native::Fpr;

#[cfg(feature = "fpr-emulated")]
pub use emulated::Fpr;

/// Name of the build's floating-point implementation (`"native"` or `"emulated"`), for
/// reports and benchmark rows.
pub const FPR_IMPL: &str = if cfg!(feature = "fpr-emulated") {
    "emulated"
} else {
    "native"
};

/// Named constants, as bit patterns so both implementations share them exactly.
/// (`f64::to_bits` is `const`; the literal is the value the Falcon specification names.)
macro_rules! fpr_consts {
    ($($(#[$m:meta])* $name:ident = $v:expr;)*) => {
        $($(#[$m])* pub const $name: Fpr = Fpr::from_bits(($v as f64).to_bits());)*
    };
}
fpr_consts! {
    ZERO = 0.0;
    ONE = 1.0;
    TWO = 2.0;
    ONEHALF = 0.5;
    Q = 12289.0;
    INVERSE_OF_Q = 1.0 / 12289.0;
    /// 1 / (2 σ0²) with σ0 = 1.8205, the base sampler's width.
    INV_2SQRSIGMA0 = 0.150865048875372721532312163019;
    LOG2 = core::f64::consts::LN_2;
    INV_LOG2 = core::f64::consts::LOG2_E;
    /// Squared Gram–Schmidt norm bound used by key generation (1.17² q).
    BNORM_MAX = 16822.4121;
    INVSQRT2 = core::f64::consts::FRAC_1_SQRT_2;
    INVSQRT8 = 0.353553390593273762200422181052;
    PTWO31 = 2147483648.0;
    PTWO31M1 = 2147483647.0;
    MTWO31M1 = -2147483647.0;
    PTWO63M1 = 9223372036854775807.0;
    MTWO63M1 = -9223372036854775807.0;
    PTWO63 = 9223372036854775808.0;
}

/// 1/σ for signing, per logn (index 0 unused). σ = 1.17 √q · ε-dependent factor from the
/// round-3 parameter table, extended to the toy degrees the FN-DSA KATs use.
pub(crate) const INV_SIGMA: [Fpr; 11] = {
    const V: [f64; 11] = [
        0.0,
        0.0069054793295940891952143765991630516,
        0.0068102267767177975961393730687908629,
        0.0067188101910722710707826117910434131,
        0.0065883354370073665545865037227681924,
        0.0064651781207602900738053897763485516,
        0.0063486788828078995327741182928037856,
        0.0062382586529084374473367528433697537,
        0.0061334065020930261548984001431770281,
        0.0060336696681577241031668062510953022,
        0.0059386453095331159950250124336477482,
    ];
    let mut out = [ZERO; 11];
    let mut i = 0;
    while i < 11 {
        out[i] = Fpr::from_bits(V[i].to_bits());
        i += 1;
    }
    out
};

/// σ_min per logn (index 0 unused): the smallest leaf σ, used to scale the acceptance
/// probability so that the sampler's output distribution does not depend on σ.
pub const SIGMA_MIN: [Fpr; 11] = {
    const V: [f64; 11] = [
        0.0,
        1.1165085072329102588881898380334015,
        1.1321247692325272405718031785357108,
        1.1475285353733668684571123112513188,
        1.1702540788534828939713084716509250,
        1.1925466358390344011122170489094133,
        1.2144300507766139921088487776957699,
        1.2359260567719808790104525941706723,
        1.2570545284063214162779743112075080,
        1.2778336969128335860256340575729042,
        1.2982803343442918539708792538826807,
    ];
    let mut out = [ZERO; 11];
    let mut i = 0;
    while i < 11 {
        out[i] = Fpr::from_bits(V[i].to_bits());
        i += 1;
    }
    out
};

/// Coefficients of the polynomial approximation of exp(-x) on [0, ln 2] in 1.63 fixed
/// point (from the FACCT paper, Zhao–Steinfeld–Sakzad, ePrint 2018/1234), highest degree
/// first.
pub(crate) const EXPM_COEFFS: [u64; 13] = [
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

/// High 64 bits of a 64×64 product (constant time: one `mul`).
#[inline(always)]
fn mulhi(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) >> 64) as u64
}

/// `ccs · exp(-x) · 2^63`, rounded down, for `0 <= x < ln 2` and `0 < ccs < 1`.
///
/// Integer-only after the two conversions, so it is identical for both `Fpr`
/// implementations and constant-time. `ccs = σ_min/σ` is strictly below 1 for every
/// Falcon leaf. (At exactly `ccs = 1`, `trunc(2^63)` saturates to `i64::MAX` here, while
/// the C reference's conversion overflows to 0; no reachable input hits this.)
#[inline]
pub fn expm_p63(x: Fpr, ccs: Fpr) -> u64 {
    let z = trunc_2p63(x.mul(PTWO63)) << 1;
    let mut y = EXPM_COEFFS[0];
    for &c in &EXPM_COEFFS[1..] {
        y = c.wrapping_sub(mulhi(z, y));
    }
    let z = trunc_2p63(ccs.mul(PTWO63)) << 1;
    mulhi(z, y)
}

/// `v` in `[0, 2^63]` truncated, with 2^63 itself taken as 2^63 − 1 (what a saturating
/// `trunc` gives), and no branch: `v` is secret (BerExp's argument, σ's ratio), and a
/// saturating conversion may compile to branches. [`Fpr::trunc_small`] is exact below
/// 2^63; at 2^63 the native one gives the bit pattern 2^63 (as u64) and the emulated one
/// 2^63 − 1, and subtracting the top bit maps both to 2^63 − 1.
#[inline(always)]
fn trunc_2p63(v: Fpr) -> u64 {
    let r = v.trunc_small() as u64;
    r - (r >> 63)
}
