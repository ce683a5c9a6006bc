//! ML-DSA (q = 8380417, n = 256) on the shared body: constant tables, plans (radix-4:
//! 4·4·4·4, Winograd-8: 4·8·8, Winograd-16: 16·16) and the entry points, instantiated
//! per ISA by `mldsa_simd_kernels!`.
//!
//! # Arithmetic
//! Every product is by a constant `z` (twiddle, twist power or DFT constant, centred,
//! plain — not Montgomery form), as a rounded Shoup product: with `z' = round(z·2^32/q)`,
//! `t = round(h·z'/2^32)`, `r = h·z − t·q` (wrapping), exact and `|r| ≤ q(1/2 + |h|/2^33)`
//! for every i32 `h` (so below 0.75q always, 0.51q for |h| < 9q). Additions are lazy;
//! `reduce32` (`a − round(a/2^23)·q`, |out| ≤ 0.75q) resets the paths that grow.
//!
//! # Bounds (the seam's: forward in |a| < q, out |a| < 9q, FIPS 204 order; inverse in
//! |a| < q, out |a| < 3q/4, times 2^32)
//! Forward, input |a| < q: radix-4 adds at most 0.51q per layer (≤ 5.1q after eight);
//! a Winograd unit's twisted inputs are below 0.75q (x_0 reduced), its outputs sums of
//! at most eight such terms (DFT16: the `u_t` are reduced, the odd outputs have at most
//! six terms): below 6q. Inverse, input |a| < q: within a stage the sum path grows by
//! at most P (radix-4: 4), the path's first output is reduced after every stage but the
//! last, every other output is a product; the last stage multiplies every output by a
//! constant with the scaling 2^32/256 folded in: |out| ≤ q/2 + 64·0.75q·q/2^33 < 0.51q.
//! (With [`Lanes::MLDSA_W8_SCALE_BELOW_TOP`] the Winograd-8 plan folds the scaling into
//! its second stage instead, whose outputs are all products, < 0.51q; its top radix-4
//! stage then reduces both sums, below 2q, by `reduce32` to at most
//! 2^22 + 2q·(2^23 − q)/2^23 < 0.503q, and multiplies the differences: again < 0.51q,
//! with two products fewer per four points.)

use super::units::stage;
use super::{Cst, DftC, Lanes, Rows, Scale};
use crate::kernels::mldsa::{Poly, N, Q};

// ---------------------------------------------------------------------------------------
// Constants (compile time).

const QL: i64 = Q as i64;
/// ψ = 1753, a primitive 512-th root of unity mod q (ζ of FIPS 204).
const PSI: i64 = 1753;

const fn pow_mod(mut b: i64, mut e: u64) -> i64 {
    let mut r = 1i64;
    b = b.rem_euclid(QL);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % QL;
        }
        b = b * b % QL;
        e >>= 1;
    }
    r
}

const fn centre(x: i64) -> i32 {
    let x = x.rem_euclid(QL);
    (if x > QL / 2 { x - QL } else { x }) as i32
}

/// ψ^e (e taken mod 512), centred.
const fn psi(e: i64) -> i32 {
    centre(pow_mod(PSI, e.rem_euclid(512) as u64))
}

/// Shoup companion round(z·2^32/q) of a centred z.
const fn shoup(z: i32) -> i32 {
    ((((z as i64) << 33) + QL).div_euclid(2 * QL)) as i32
}

/// 1/2 mod q.
const INV2: i64 = (QL + 1) / 2;
/// 2^32 / 256 mod q: the inverse's scaling (1/n and the Montgomery factor 2^32).
const SCALE: i64 = (1i64 << 24) % QL;

/// A constant (centred) and its Shoup companion.
const fn cst(z: i64) -> Cst<i32> {
    let z = centre(z);
    Cst { v: z, c: shoup(z) }
}

/// ζ(k) = ψ^brv8(k), forward; its inverse for `inv`.
const fn zeta(k: usize, inv: bool) -> i64 {
    let e = super::brv(k, 8) as i64;
    psi(if inv { -e } else { e }) as i64
}

const fn dft_consts(inv: bool) -> DftC<i32> {
    // ω_P = ψ^(512/P); inverse: every root inverted.
    let sg = if inv { -1 } else { 1 };
    let w8 = psi(sg * 64) as i64;
    let w8_3 = psi(sg * 192) as i64;
    DftC {
        iota: cst(psi(sg * 128) as i64),
        a8: cst((w8 + w8_3) * INV2),
        b8: cst((w8 - w8_3) * INV2),
        w16: [
            cst(psi(sg * 32) as i64),
            cst(psi(sg * 5 * 32) as i64),
            cst(psi(sg * 3 * 32) as i64),
            cst(psi(sg * 7 * 32) as i64),
        ],
    }
}

static DFT_F: DftC<i32> = dft_consts(false);
static DFT_I: DftC<i32> = dft_consts(true);

/// Radix-2 twiddles ζ(g) (forward or inverse) by group key g < 256 (the stage hook).
const fn r2_rows(inv: bool) -> Rows<i32, 1, 256> {
    let mut t = Rows {
        v: [[0; 256]; 1],
        c: [[0; 256]; 1],
    };
    let mut g = 1;
    while g < 256 {
        let c = cst(zeta(g, inv));
        t.v[0][g] = c.v;
        t.c[0][g] = c.c;
        g += 1;
    }
    t
}

/// Radix-4 twiddles by group key g < 128: ζ(g), ζ(2g), ζ(2g + 1) (forward or inverse).
const fn r4_rows(inv: bool) -> Rows<i32, 3, 128> {
    let mut t = Rows {
        v: [[0; 128]; 3],
        c: [[0; 128]; 3],
    };
    let mut g = 1;
    while g < 128 {
        let z = [zeta(g, inv), zeta(2 * g, inv), zeta(2 * g + 1, inv)];
        let mut k = 0;
        while k < 3 {
            let c = cst(z[k]);
            t.v[k][g] = c.v;
            t.c[k][g] = c.c;
            k += 1;
        }
        g += 1;
    }
    t
}

/// Twist powers of the Winograd units of `P = 2^L` points by group key g = m + i < G:
/// r^k (or r^−k), r = ζ(2^(L−1)·g); with `scale`, times SCALE (k = 0 included).
const fn twist<const P: usize, const G: usize>(l: u32, inv: bool, scale: bool) -> Rows<i32, P, G> {
    let mut t = Rows {
        v: [[0; G]; P],
        c: [[0; G]; P],
    };
    let mut g = 1;
    while g < G {
        let e = super::brv(g << (l - 1), 8) as i64;
        let mut k = 0;
        while k < P {
            let mut v = psi(if inv { -e * k as i64 } else { e * k as i64 }) as i64;
            if scale {
                v = v * SCALE % QL;
            }
            let c = cst(v);
            t.v[k][g] = c.v;
            t.c[k][g] = c.c;
            k += 1;
        }
        g += 1;
    }
    t
}

/// Group 1 of a table as the constants of a top stage.
const fn top_of<const P: usize, const G: usize>(t: &Rows<i32, P, G>) -> [Cst<i32>; 16] {
    let mut r = [cst(SCALE); 16];
    let mut k = 0;
    while k < P {
        r[k] = Cst {
            v: t.v[k][1],
            c: t.c[k][1],
        };
        k += 1;
    }
    r
}

static R2F: Rows<i32, 1, 256> = r2_rows(false);
static R2I: Rows<i32, 1, 256> = r2_rows(true);
static R4F: Rows<i32, 3, 128> = r4_rows(false);
static R4I: Rows<i32, 3, 128> = r4_rows(true);
// Winograd-8 levels: m = 4 (g < 8) and m = 32 (g < 64). Winograd-16: m = 1, 16 (g < 32).
static TW8F: Rows<i32, 8, 64> = twist(3, false, false);
static TW8I: Rows<i32, 8, 64> = twist(3, true, false);
static TW16F: Rows<i32, 16, 32> = twist(4, false, false);
static TW16I: Rows<i32, 16, 32> = twist(4, true, false);
/// The Winograd-8 plan's second inverse stage (m = 4, g < 8) with the scaling, for
/// [`Lanes::MLDSA_W8_SCALE_BELOW_TOP`].
static TW8IS: Rows<i32, 8, 8> = twist(3, true, true);
/// The radix-4 top unit's (g = 1) inverse constants with the scaling folded in:
/// [SCALE, ζ⁻¹(1)·SCALE].
static R4_TOP: [Cst<i32>; 16] = {
    let mut t = [cst(SCALE); 16];
    t[1] = cst(zeta(1, true) * SCALE);
    t
};
/// The Winograd-16 top unit's (g = 1) inverse twist with the scaling folded in.
static W16_TOP: [Cst<i32>; 16] = top_of(&twist::<16, 2>(4, true, true));

// ---------------------------------------------------------------------------------------
// Transforms of one polynomial (`a`: 256 coefficients).

// The stages are written out (no loop over m) so that every stride is a constant and
// each stage compiles to its one data-movement path.

/// Forward NTT, radix-4: four stages.
#[inline(always)]
pub(crate) unsafe fn ntt_radix4<L: Lanes<E = i32>>(a: &mut [i32]) {
    unsafe {
        stage::<L, 4, _>(a, N, 1, false, &R4F, &DFT_F, Scale::No);
        stage::<L, 4, _>(a, N, 4, false, &R4F, &DFT_F, Scale::No);
        stage::<L, 4, _>(a, N, 16, false, &R4F, &DFT_F, Scale::No);
        stage::<L, 4, _>(a, N, 64, false, &R4F, &DFT_F, Scale::No);
    }
}

/// Inverse NTT times 2^32, radix-4; the top stage takes the scaling.
#[inline(always)]
pub(crate) unsafe fn invntt_radix4<L: Lanes<E = i32>>(a: &mut [i32]) {
    unsafe {
        stage::<L, 4, _>(a, N, 64, true, &R4I, &DFT_I, Scale::No);
        stage::<L, 4, _>(a, N, 16, true, &R4I, &DFT_I, Scale::No);
        stage::<L, 4, _>(a, N, 4, true, &R4I, &DFT_I, Scale::No);
        stage::<L, 4, _>(a, N, 1, true, &R4I, &DFT_I, Scale::Top(&R4_TOP));
    }
}

/// Forward NTT, Winograd-8 plan: radix-4 lead stage, then two radix-8 stages.
#[inline(always)]
pub(crate) unsafe fn ntt_winograd8<L: Lanes<E = i32>>(a: &mut [i32]) {
    unsafe {
        stage::<L, 4, _>(a, N, 1, false, &R4F, &DFT_F, Scale::No);
        stage::<L, 8, _>(a, N, 4, false, &TW8F, &DFT_F, Scale::No);
        stage::<L, 8, _>(a, N, 32, false, &TW8F, &DFT_F, Scale::No);
    }
}

/// Inverse NTT times 2^32, Winograd-8 plan (the scaling where
/// [`Lanes::MLDSA_W8_SCALE_BELOW_TOP`] says).
#[inline(always)]
pub(crate) unsafe fn invntt_winograd8<L: Lanes<E = i32>>(a: &mut [i32]) {
    unsafe {
        stage::<L, 8, _>(a, N, 32, true, &TW8I, &DFT_I, Scale::No);
        if L::MLDSA_W8_SCALE_BELOW_TOP {
            stage::<L, 8, _>(a, N, 4, true, &TW8IS, &DFT_I, Scale::ScaledRows);
            stage::<L, 4, _>(a, N, 1, true, &R4I, &DFT_I, Scale::ReduceSums);
        } else {
            stage::<L, 8, _>(a, N, 4, true, &TW8I, &DFT_I, Scale::No);
            stage::<L, 4, _>(a, N, 1, true, &R4I, &DFT_I, Scale::Top(&R4_TOP));
        }
    }
}

/// Forward NTT, Winograd-16 plan: two radix-16 stages.
#[inline(always)]
pub(crate) unsafe fn ntt_winograd16<L: Lanes<E = i32>>(a: &mut [i32]) {
    unsafe {
        stage::<L, 16, _>(a, N, 1, false, &TW16F, &DFT_F, Scale::No);
        stage::<L, 16, _>(a, N, 16, false, &TW16F, &DFT_F, Scale::No);
    }
}

/// Inverse NTT times 2^32, Winograd-16 plan; the top stage takes the scaling.
#[inline(always)]
pub(crate) unsafe fn invntt_winograd16<L: Lanes<E = i32>>(a: &mut [i32]) {
    unsafe {
        stage::<L, 16, _>(a, N, 16, true, &TW16I, &DFT_I, Scale::No);
        stage::<L, 16, _>(a, N, 1, true, &TW16I, &DFT_I, Scale::Top(&W16_TOP));
    }
}

/// One stage of units of `layers` layers alone at the level with `m` groups (the
/// `mldsa_stage` hook; the inverse without scaling, m ≥ 2).
#[inline(always)]
pub(crate) unsafe fn stage_one<L: Lanes<E = i32>>(a: &mut [i32], m: usize, layers: u32, inv: bool) {
    let d = if inv { &DFT_I } else { &DFT_F };
    let no = Scale::No;
    unsafe {
        match (layers, inv) {
            (1, false) => stage::<L, 2, _>(a, N, m, inv, &R2F, d, no),
            (1, true) => stage::<L, 2, _>(a, N, m, inv, &R2I, d, no),
            (2, false) => stage::<L, 4, _>(a, N, m, inv, &R4F, d, no),
            (2, true) => stage::<L, 4, _>(a, N, m, inv, &R4I, d, no),
            (3, false) => stage::<L, 8, _>(a, N, m, inv, &TW8F, d, no),
            (3, true) => stage::<L, 8, _>(a, N, m, inv, &TW8I, d, no),
            (_, false) => stage::<L, 16, _>(a, N, m, inv, &TW16F, d, no),
            (_, true) => stage::<L, 16, _>(a, N, m, inv, &TW16I, d, no),
        }
    }
}

/// Runs `f` on every polynomial of `a`, after `check` (which panics unless the ISA's
/// features are available).
///
/// # Safety
/// `f` must be safe to call on any polynomial once `check` has returned (an entry point
/// that needs only the features `check` asserts).
pub(crate) unsafe fn each(a: &mut [Poly], check: fn(), f: unsafe fn(&mut [i32; N])) {
    check();
    for p in a.iter_mut() {
        // SAFETY: the ISA's features are available (`check` asserted them); the caller
        // guarantees `f` needs nothing more.
        unsafe { f(&mut p.coeffs) }
    }
}

/// The ML-DSA variant kernels of one ISA, in the seam's signatures (`fn(&mut [Poly])`,
/// bounds of `mldsa::Kernels::ntt` / `invntt_tomont`), and the `mldsa_stage` hook:
/// `$lanes` (a [`Lanes`] impl over i32), its target features `$feat` and backend
/// `$backend`. A macro because `#[target_feature]` functions cannot be generic over the
/// features: each ISA needs its own non-generic entry points, which instantiate the
/// generic body with its features enabled so that everything inlines.
macro_rules! mldsa_simd_kernels {
    ($lanes:ty, $feat:literal, $backend:expr) => {
        use $crate::kernels::mldsa::{Poly, N};
        use $crate::kernels::ntt::simd::mldsa as body;

        fn check() {
            assert!(
                $backend.is_available(),
                "SIMD kernel without its CPU features"
            );
        }

        /// The entry points with the ISA's features, one per transform.
        mod one {
            use super::*;
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn ntt_radix4(a: &mut [i32; N]) {
                unsafe { body::ntt_radix4::<$lanes>(a) }
            }
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn invntt_radix4(a: &mut [i32; N]) {
                unsafe { body::invntt_radix4::<$lanes>(a) }
            }
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn ntt_winograd8(a: &mut [i32; N]) {
                unsafe { body::ntt_winograd8::<$lanes>(a) }
            }
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn invntt_winograd8(a: &mut [i32; N]) {
                unsafe { body::invntt_winograd8::<$lanes>(a) }
            }
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn ntt_winograd16(a: &mut [i32; N]) {
                unsafe { body::ntt_winograd16::<$lanes>(a) }
            }
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn invntt_winograd16(a: &mut [i32; N]) {
                unsafe { body::invntt_winograd16::<$lanes>(a) }
            }
            #[target_feature(enable = $feat)]
            pub(super) unsafe fn stage(a: &mut [i32; N], m: usize, layers: u32, inv: bool) {
                unsafe { body::stage_one::<$lanes>(a, m, layers, inv) }
            }
        }

        /// One stage of units alone, on every polynomial (a study and benchmark hook,
        /// not a transform): `layers` = 1 (radix-2), 2 (radix-4), 3 (Winograd radix-8)
        /// or 4 (Winograd radix-16) units at the level with `m` groups (the inverse
        /// needs m ≥ 2), forward or inverse. Inputs |a| < q; outputs congruent to the
        /// units' exact results.
        #[doc(hidden)]
        pub(crate) fn mldsa_stage(a: &mut [Poly], m: usize, layers: u32, inverse: bool) {
            check();
            assert!((1..=4).contains(&layers) && m.is_power_of_two() && m << layers <= N);
            assert!(!inverse || m >= 2, "stage shape");
            for p in a.iter_mut() {
                // SAFETY: the ISA's features are available (checked above); the shape
                // was checked.
                unsafe { one::stage(&mut p.coeffs, m, layers, inverse) }
            }
        }

        /// Forward NTT, radix-4 (two layers per pass). Bounds of `mldsa::Kernels::ntt`.
        pub(crate) fn mldsa_ntt_radix4(a: &mut [Poly]) {
            // SAFETY: the entry point needs only the features `check` asserts.
            unsafe { body::each(a, check, one::ntt_radix4) }
        }

        /// Inverse NTT times 2^32, radix-4. Bounds of `mldsa::Kernels::invntt_tomont`.
        pub(crate) fn mldsa_invntt_radix4(a: &mut [Poly]) {
            // SAFETY: the entry point needs only the features `check` asserts.
            unsafe { body::each(a, check, one::invntt_radix4) }
        }

        /// Forward NTT, Winograd radix-8 units (radix-4 lead stage, then two radix-8
        /// stages).
        pub(crate) fn mldsa_ntt_winograd8(a: &mut [Poly]) {
            // SAFETY: the entry point needs only the features `check` asserts.
            unsafe { body::each(a, check, one::ntt_winograd8) }
        }

        /// Inverse NTT times 2^32, Winograd radix-8 units.
        pub(crate) fn mldsa_invntt_winograd8(a: &mut [Poly]) {
            // SAFETY: the entry point needs only the features `check` asserts.
            unsafe { body::each(a, check, one::invntt_winograd8) }
        }

        /// Forward NTT, Winograd radix-16 units (two stages).
        pub(crate) fn mldsa_ntt_winograd16(a: &mut [Poly]) {
            // SAFETY: the entry point needs only the features `check` asserts.
            unsafe { body::each(a, check, one::ntt_winograd16) }
        }

        /// Inverse NTT times 2^32, Winograd radix-16 units.
        pub(crate) fn mldsa_invntt_winograd16(a: &mut [Poly]) {
            // SAFETY: the entry point needs only the features `check` asserts.
            unsafe { body::each(a, check, one::invntt_winograd16) }
        }
    };
}
pub(crate) use mldsa_simd_kernels;
