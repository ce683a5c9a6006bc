//! Falcon (q = 12289, n = 2^logn) on the shared body: constant tables, plans and the
//! entry points, instantiated per ISA by `falcon_simd_kernels!`.
//!
//! # Arithmetic
//! Canonical throughout, as the radix-2 SIMD kernels (`falcon::ntt::{avx2, avx512}`):
//! every sum and difference is corrected to `[0, q)` (unsigned minimum), every product
//! is a Montgomery product by a constant in Montgomery form with its companion
//! `w·(1/q) mod 2^16` (three multiplications), corrected to `[0, q)`. Every value is the
//! canonical residue of the exact result, so the outputs (canonical in, canonical out)
//! are bit-identical to the portable kernels.
//!
//! # Plans (as `NttVariant::plan`)
//! The leftover `logn mod k` layers first, as one unit (radix-2, radix-4 or Winograd
//! radix-8), then full units of k layers (radix-4: k = 2, Winograd-8: 3, Winograd-16: 4).
//! Twist by r^t (r = ζ(2^(L−1)(m+i)), ζ(k) = 7^brv10(k)), cyclic DFT with
//! ω_P = 7^(2048/P), bit-reversed placement; the inverse gathers, runs the inverse DFT
//! and untwists. The inverse's top stage (m = 1) folds the division by n into its
//! constants ([`Scale::Top`]). Degrees where a level has fewer than `N` lanes of work
//! (n < N·P for the largest unit) run the ISA's radix-2 kernel, which gives the same
//! output.

use super::units::stage;
use super::{Cst, DftC, Lanes, Rows, Scale};
use crate::kernels::falcon::ntt::portable::{inv_n_monty, mq_montymul};
use crate::kernels::falcon::ntt::tables::{GM, IGM};
use crate::kernels::falcon::ntt::{Q, QINV, R};
use crate::kernels::ntt::NttVariant;

// ---------------------------------------------------------------------------------------
// Constants (compile time).

const fn pow_mod(b: u32, mut e: u32) -> u32 {
    let (mut r, mut b) = (1u64, (b % Q) as u64);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % Q as u64;
        }
        b = b * b % Q as u64;
        e >>= 1;
    }
    r as u32
}

/// 7^e (e mod 2048), times R (Montgomery form).
const fn g7(e: i64) -> u32 {
    pow_mod(7, e.rem_euclid(2048) as u32) * R % Q
}

const fn qinv(w: u32) -> u16 {
    (w as u16).wrapping_mul(QINV)
}

/// A Montgomery-form constant (< q) and its companion.
const fn cst(w: u32) -> Cst<u16> {
    Cst {
        v: w as u16,
        c: qinv(w),
    }
}

const fn dft_consts(inv: bool) -> DftC<u16> {
    let sg: i64 = if inv { -1 } else { 1 };
    let w8 = g7(sg * 256);
    let w8_3 = g7(sg * 768);
    let half = Q.div_ceil(2);
    DftC {
        iota: cst(g7(sg * 512)),
        a8: cst(((w8 + w8_3) % Q) * half % Q),
        b8: cst(((w8 + Q - w8_3) % Q) * half % Q),
        w16: [
            cst(g7(sg * 128)),
            cst(g7(sg * 5 * 128)),
            cst(g7(sg * 3 * 128)),
            cst(g7(sg * 7 * 128)),
        ],
    }
}

static DFT_F: DftC<u16> = dft_consts(false);
static DFT_I: DftC<u16> = dft_consts(true);

/// Radix-2 unit constants by group key g < 1024: ζ(g).
const fn r2_rows(src: &[u16; 1024]) -> Rows<u16, 1, 1024> {
    let mut t = Rows {
        v: [[0; 1024]; 1],
        c: [[0; 1024]; 1],
    };
    let mut g = 1;
    while g < 1024 {
        t.v[0][g] = src[g];
        t.c[0][g] = qinv(src[g] as u32);
        g += 1;
    }
    t
}

/// Radix-4 unit constants by group key g < 512: ζ(g), ζ(2g), ζ(2g + 1).
const fn r4_rows(src: &[u16; 1024]) -> Rows<u16, 3, 512> {
    let mut t = Rows {
        v: [[0; 512]; 3],
        c: [[0; 512]; 3],
    };
    let mut g = 1;
    while g < 512 {
        let v = [src[g] as u32, src[2 * g] as u32, src[2 * g + 1] as u32];
        let mut k = 0;
        while k < 3 {
            t.v[k][g] = v[k] as u16;
            t.c[k][g] = qinv(v[k]);
            k += 1;
        }
        g += 1;
    }
    t
}

/// Twist powers r^k (or r^−k), k < P, of the Winograd unit of 2^L points by group key
/// g < G: r = ζ(2^(L−1)·g) = 7^brv10(2^(L−1)·g).
const fn twist_rows<const P: usize, const G: usize>(l: u32, inv: bool) -> Rows<u16, P, G> {
    let mut t = Rows {
        v: [[0; G]; P],
        c: [[0; G]; P],
    };
    let mut g = 1;
    while g < G {
        let e = super::brv(g << (l - 1), 10) as i64;
        let mut k = 0;
        while k < P {
            let v = g7(if inv { -e * k as i64 } else { e * k as i64 });
            t.v[k][g] = v as u16;
            t.c[k][g] = qinv(v);
            k += 1;
        }
        g += 1;
    }
    t
}

static R2F: Rows<u16, 1, 1024> = r2_rows(&GM);
static R2I: Rows<u16, 1, 1024> = r2_rows(&IGM);
static R4F: Rows<u16, 3, 512> = r4_rows(&GM);
static R4I: Rows<u16, 3, 512> = r4_rows(&IGM);
// Winograd-8 levels have m ≤ 128 (g < 256); Winograd-16 levels m ≤ 64 (g < 128).
static W8F: Rows<u16, 8, 256> = twist_rows(3, false);
static W8I: Rows<u16, 8, 256> = twist_rows(3, true);
static W16F: Rows<u16, 16, 128> = twist_rows(4, false);
static W16I: Rows<u16, 16, 128> = twist_rows(4, true);

// ---------------------------------------------------------------------------------------
// Stages and plans.

/// The inverse top stage's constants for units of `layers` layers: the group-1
/// constants of its table (radix-2 / radix-4: 1 and ζ⁻¹(1); Winograd: r^−k) times
/// n⁻¹ (`ni`, Montgomery form).
fn top_consts(layers: u32, ni: u32) -> [Cst<u16>; 16] {
    let scaled = |w: u16| cst(mq_montymul(w as u32, ni));
    let mut t = [cst(ni); 16];
    match layers {
        1 => t[1] = scaled(R2I.v[0][1]),
        2 => t[1] = scaled(R4I.v[0][1]),
        3 => t[..8]
            .iter_mut()
            .enumerate()
            .for_each(|(k, c)| *c = scaled(W8I.v[k][1])),
        _ => t
            .iter_mut()
            .enumerate()
            .for_each(|(k, c)| *c = scaled(W16I.v[k][1])),
    }
    t
}

/// The variant whose full units have `k` layers.
#[inline(always)]
fn variant(k: u32) -> NttVariant {
    match k {
        1 => NttVariant::Radix2,
        2 => NttVariant::Radix4,
        3 => NttVariant::Winograd8,
        _ => NttVariant::Winograd16,
    }
}

/// The stage of units of `layers` layers at the level with `m` groups.
#[inline(always)]
unsafe fn run_stage<L: Lanes<E = u16>>(
    a: &mut [u16],
    n: usize,
    m: usize,
    layers: u32,
    inv: bool,
    scale: Scale<'_, u16>,
) {
    let d = if inv { &DFT_I } else { &DFT_F };
    unsafe {
        match (layers, inv) {
            (1, false) => stage::<L, 2, _>(a, n, m, inv, &R2F, d, scale),
            (1, true) => stage::<L, 2, _>(a, n, m, inv, &R2I, d, scale),
            (2, false) => stage::<L, 4, _>(a, n, m, inv, &R4F, d, scale),
            (2, true) => stage::<L, 4, _>(a, n, m, inv, &R4I, d, scale),
            (3, false) => stage::<L, 8, _>(a, n, m, inv, &W8F, d, scale),
            (3, true) => stage::<L, 8, _>(a, n, m, inv, &W8I, d, scale),
            (_, false) => stage::<L, 16, _>(a, n, m, inv, &W16F, d, scale),
            (_, true) => stage::<L, 16, _>(a, n, m, inv, &W16I, d, scale),
        }
    }
}

/// Forward NTT of one polynomial of 2^logn coefficients, units of `k` layers.
#[inline(always)]
pub(crate) unsafe fn ntt_one<L: Lanes<E = u16>>(a: &mut [u16], logn: u32, k: u32) {
    let n = 1usize << logn;
    let (p, len) = variant(k).plan(logn);
    let mut m = 1;
    for &l in &p[..len] {
        unsafe { run_stage::<L>(a, n, m, l, false, Scale::No) };
        m <<= l;
    }
}

/// Inverse NTT (with 1/n) of one polynomial, units of `k` layers.
#[inline(always)]
pub(crate) unsafe fn intt_one<L: Lanes<E = u16>>(a: &mut [u16], logn: u32, k: u32) {
    let n = 1usize << logn;
    let (p, len) = variant(k).plan(logn);
    let top = top_consts(p[0], inv_n_monty(logn));
    let mut m = n;
    for (idx, &l) in p[..len].iter().enumerate().rev() {
        m >>= l;
        let scale = if idx == 0 {
            Scale::Top(&top)
        } else {
            Scale::No
        };
        unsafe { run_stage::<L>(a, n, m, l, true, scale) };
    }
}

/// One stage alone (the `falcon_stage` hook), without the top stage's 1/n.
#[cfg(feature = "ntt-study")]
#[inline(always)]
pub(crate) unsafe fn stage_one<L: Lanes<E = u16>>(
    a: &mut [u16],
    logn: u32,
    m: usize,
    layers: u32,
    inv: bool,
) {
    unsafe { run_stage::<L>(a, 1 << logn, m, layers, inv, Scale::No) }
}

/// Smallest logn the variant with units of `k` layers vectorises on `lanes`-lane
/// registers (every level has at least `lanes` lanes of work: n ≥ lanes·2^k).
pub(crate) const fn min_logn(k: u32, lanes: usize) -> u32 {
    k + lanes.trailing_zeros()
}

/// The Falcon variant kernels of one ISA, in the seam's signatures (`fn(&mut [u16],
/// u32)`: canonical in and out, the reference's bit-reversed order, bit-identical to the
/// portable kernels), and the `falcon_stage` hook: `$lanes` (a [`Lanes`] impl over u16),
/// its target features `$feat`, backend `$backend` and the kernel table `$small` whose
/// transforms run the sizes too short for one register of work per radix-2 unit. A
/// variant's sizes too short for its units run radix-2 units.
/// A macro and not generic functions because `#[target_feature]` functions cannot be
/// generic over the features: each ISA needs its own non-generic entry points, which
/// instantiate the generic body with its features enabled so that everything inlines.
macro_rules! falcon_simd_kernels {
    ($lanes:ty, $feat:literal, $backend:expr, $small:path) => {
        use $crate::kernels::ntt::simd::falcon as body;

        #[target_feature(enable = $feat)]
        unsafe fn ntt_one(a: &mut [u16], logn: u32, k: u32) {
            unsafe { body::ntt_one::<$lanes>(a, logn, k) }
        }

        #[target_feature(enable = $feat)]
        unsafe fn intt_one(a: &mut [u16], logn: u32, k: u32) {
            unsafe { body::intt_one::<$lanes>(a, logn, k) }
        }

        #[cfg(feature = "ntt-study")]
        #[target_feature(enable = $feat)]
        unsafe fn stage_one(a: &mut [u16], logn: u32, m: usize, layers: u32, inverse: bool) {
            unsafe { body::stage_one::<$lanes>(a, logn, m, layers, inverse) }
        }

        fn check() {
            assert!(
                $backend.is_available(),
                "SIMD kernel without its CPU features"
            );
        }

        fn fwd(a: &mut [u16], logn: u32, k: u32) {
            check();
            let lanes = <$lanes as $crate::kernels::ntt::simd::Lanes>::N;
            if logn < body::min_logn(1, lanes) {
                return ($small.ntt)(a, logn);
            }
            // Too short for units of k layers: radix-2 units.
            let k = if logn < body::min_logn(k, lanes) {
                1
            } else {
                k
            };
            let n = 1usize << logn;
            debug_assert!(a.len().is_multiple_of(n));
            for p in a.chunks_exact_mut(n) {
                // SAFETY: the ISA's features are available (checked above).
                unsafe { ntt_one(p, logn, k) }
            }
        }

        fn inv(a: &mut [u16], logn: u32, k: u32) {
            check();
            let lanes = <$lanes as $crate::kernels::ntt::simd::Lanes>::N;
            if logn < body::min_logn(1, lanes) {
                return ($small.intt)(a, logn);
            }
            let k = if logn < body::min_logn(k, lanes) {
                1
            } else {
                k
            };
            let n = 1usize << logn;
            debug_assert!(a.len().is_multiple_of(n));
            for p in a.chunks_exact_mut(n) {
                // SAFETY: the ISA's features are available (checked above).
                unsafe { intt_one(p, logn, k) }
            }
        }

        /// One stage of units alone, on every polynomial of `a` (a study and benchmark
        /// hook, not a transform): `layers` = 1 (radix-2), 2 (radix-4), 3 (Winograd
        /// radix-8) or 4 (Winograd radix-16) units at the level with `m` groups, forward
        /// or inverse (the inverse without the top stage's 1/n). Canonical in, canonical
        /// out. Requires `m · 2^layers ≤ n` and at least one register of work per point
        /// (`n ≥ lanes·2^layers`).
        #[doc(hidden)]
        #[cfg(feature = "ntt-study")]
        pub(crate) fn falcon_stage(a: &mut [u16], logn: u32, m: usize, layers: u32, inverse: bool) {
            check();
            let n = 1usize << logn;
            let lanes = <$lanes as $crate::kernels::ntt::simd::Lanes>::N;
            assert!((1..=4).contains(&layers) && m.is_power_of_two());
            assert!(m << layers <= n && n >> layers >= lanes, "stage shape");
            for p in a.chunks_exact_mut(n) {
                // SAFETY: the ISA's features are available (checked above); the shape
                // was checked.
                unsafe { stage_one(p, logn, m, layers, inverse) }
            }
        }

        /// Forward NTT, radix-2 units (semantics of `NttKernels::ntt`; the study's
        /// radix-2 row of AVX2, whose own table runs radix-4; AVX-512's radix-2 row is its
        /// own table, so there these two are unused).
        #[cfg(feature = "ntt-study")]
        #[allow(dead_code)]
        pub(crate) fn falcon_ntt_radix2(a: &mut [u16], logn: u32) {
            fwd(a, logn, 1)
        }

        /// Inverse NTT (with 1/n), radix-2 units.
        #[cfg(feature = "ntt-study")]
        #[allow(dead_code)]
        pub(crate) fn falcon_intt_radix2(a: &mut [u16], logn: u32) {
            inv(a, logn, 1)
        }

        /// Forward NTT, radix-4 units (semantics of `NttKernels::ntt`).
        pub(crate) fn falcon_ntt_radix4(a: &mut [u16], logn: u32) {
            fwd(a, logn, 2)
        }

        /// Inverse NTT (with 1/n), radix-4 units (semantics of `NttKernels::intt`).
        pub(crate) fn falcon_intt_radix4(a: &mut [u16], logn: u32) {
            inv(a, logn, 2)
        }

        /// Forward NTT, Winograd radix-8 units.
        #[cfg(feature = "ntt-study")]
        pub(crate) fn falcon_ntt_winograd8(a: &mut [u16], logn: u32) {
            fwd(a, logn, 3)
        }

        /// Inverse NTT (with 1/n), Winograd radix-8 units.
        #[cfg(feature = "ntt-study")]
        pub(crate) fn falcon_intt_winograd8(a: &mut [u16], logn: u32) {
            inv(a, logn, 3)
        }

        /// Forward NTT, Winograd radix-16 units.
        #[cfg(feature = "ntt-study")]
        pub(crate) fn falcon_ntt_winograd16(a: &mut [u16], logn: u32) {
            fwd(a, logn, 4)
        }

        /// Inverse NTT (with 1/n), Winograd radix-16 units.
        #[cfg(feature = "ntt-study")]
        pub(crate) fn falcon_intt_winograd16(a: &mut [u16], logn: u32) {
            inv(a, logn, 4)
        }
    };
}
pub(crate) use falcon_simd_kernels;
