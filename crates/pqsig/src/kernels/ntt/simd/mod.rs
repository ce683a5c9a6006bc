//! The SIMD variant kernels' shared body: one generic implementation of the butterfly
//! units, the short Winograd DFTs and the stage drivers, over a small vector-ops trait
//! ([`Lanes`]) that the ISA modules (`super::avx2`, `super::avx512`) implement once per
//! (register type, modulus).
//!
//! Why a trait and not a macro: the four kernels (AVX2 / AVX-512 × ML-DSA / Falcon) are
//! one algorithm over different vector widths and moduli; only a handful of primitives
//! differ (register type, lazy or canonical add/sub, the Montgomery or Shoup product by
//! a constant, broadcast, load/store, the in-register transposes). Every trait method
//! and every generic function here is `#[inline(always)]` and the ISA's
//! `#[target_feature]` entry points (per ISA, in `avx2/`, `avx512/`) instantiate the body,
//! so the whole transform inlines into one function per (ISA, variant) with the ISA's
//! features enabled — the same code the former per-ISA copies compiled to (checked with
//! the bench; NTT.md) — while the algorithm, its bounds and its constants exist once.
//!
//! Files:
//! * `mod.rs` — [`Lanes`] and the scalar types it is fed with ([`Cst`], [`Rows`],
//!   [`DftC`], [`Scale`]);
//! * `units.rs` — the units (radix-2, radix-4, Winograd-8/16 with DFT8 / DFT16) and one
//!   stage over a polynomial;
//! * `falcon.rs` — Falcon's constant tables, plans and entry points (q = 12289);
//! * `mldsa.rs` — ML-DSA's constant tables, plans and entry points (q = 8380417).
//!
//! Every `unsafe fn` of this module requires the target features of the [`Lanes`] impl
//! it runs with; they are only reached from that ISA's `#[target_feature]` functions.

pub(crate) mod falcon;
#[cfg(feature = "ntt-study")]
pub(crate) mod mldsa;
pub(crate) mod units;

/// A constant and its companion (Falcon: Montgomery-form `w` and `w·q⁻¹ mod 2^16`;
/// ML-DSA: centred `z` and its Shoup companion `round(z·2^32/q)`).
#[derive(Clone, Copy)]
pub(crate) struct Cst<E> {
    /// The value.
    pub v: E,
    /// Its companion.
    pub c: E,
}

/// Per-group constant rows: constant `k` of the unit of group key `g = m + i` is
/// `(v[k][g], c[k][g])`; laid out by group so that consecutive groups are one load.
/// `K` constants, `G` group keys (index 0 unused).
pub(crate) struct Rows<E, const K: usize, const G: usize> {
    /// Values.
    pub v: [[E; G]; K],
    /// Companions.
    pub c: [[E; G]; K],
}

/// The short-DFT constants of one direction: ι = ω4, the radix-8 pair A = (ω8 + ω8³)/2,
/// B = (ω8 − ω8³)/2, and ω16^(1, 5, 3, 7).
#[derive(Clone, Copy)]
pub(crate) struct DftC<E> {
    /// ι = ω4.
    pub iota: Cst<E>,
    /// A = (ω8 + ω8³)/2.
    pub a8: Cst<E>,
    /// B = (ω8 − ω8³)/2.
    pub b8: Cst<E>,
    /// ω16^1, ω16^5, ω16^3, ω16^7.
    pub w16: [Cst<E>; 4],
}

/// Where an inverse stage takes the final scaling (1/n, and for ML-DSA 2^32).
#[derive(Clone, Copy)]
pub(crate) enum Scale<'a, E> {
    /// Not here: plain units (the sum path's first output reduced on lazy fields).
    No,
    /// The top stage (m = 1, one group) with the scaling folded into its constants:
    /// radix-2 / radix-4 multiply their sums by `t[0]` and differences by `t[1]` (ζ⁻¹(1)
    /// times the scaling); Winograd units untwist every output by `t[k]` (r^−k times the
    /// scaling, k = 0 included).
    Top(&'a [Cst<E>; 16]),
    /// A Winograd stage below the top whose twist rows already include the scaling: every
    /// output is untwisted, `x_0` included (ML-DSA AVX2 Winograd-8 plan).
    // ML-DSA's SIMD variants are study-only: unused in a production build.
    #[cfg_attr(not(feature = "ntt-study"), allow(dead_code))]
    ScaledRows,
    /// The radix-4 top stage above a [`Scale::ScaledRows`] stage: both sums reduced, no
    /// scaling.
    #[cfg_attr(not(feature = "ntt-study"), allow(dead_code))]
    ReduceSums,
}

/// The vector primitives of one (ISA, modulus) pair. Every method is `#[inline(always)]`
/// in the impls and requires the ISA's target features (see the module docs).
///
/// Lane semantics: `add`, `sub`, `mul`, `reduce` act lane by lane and are exactly the
/// scalar field operations of the kernel (canonical for Falcon; lazy with explicit
/// reductions for ML-DSA), so a unit computes the scalar unit lane for lane.
pub(crate) trait Lanes {
    /// Coefficient type (u16 or i32).
    type E: Copy;
    /// One register of `N` coefficients.
    type V: Copy;
    /// A constant (value and companion) in registers, broadcast or per lane.
    type C;
    /// Lanes per register.
    const N: usize;
    /// The Winograd-8 inverse plan of ML-DSA takes the scaling in its second stage
    /// ([`Scale::ScaledRows`]) instead of its radix-4 top stage: two products fewer per
    /// four points on the top stage. Only the AVX2 kernel does so (its outputs are
    /// unchanged by this refactor; the AVX-512 kernel's likewise).
    #[cfg_attr(not(feature = "ntt-study"), allow(dead_code))]
    const MLDSA_W8_SCALE_BELOW_TOP: bool = false;

    /// Sum (Falcon: in [0, q); ML-DSA: lazy).
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// Difference (Falcon: in [0, q); ML-DSA: lazy).
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// Product by a constant (Falcon: Montgomery, canonical; ML-DSA: rounded Shoup,
    /// |r| ≤ q(1/2 + |h|/2^33)).
    unsafe fn mul(x: Self::V, c: &Self::C) -> Self::V;
    /// Explicit reduction of a lazy field (ML-DSA `reduce32`, |out| ≤ 0.75q); the
    /// identity on a canonical one.
    unsafe fn reduce(x: Self::V) -> Self::V;
    /// `c` in every lane.
    unsafe fn splat(c: Cst<Self::E>) -> Self::C;
    /// Per-lane constants from rows `(v, c)` for the groups from key `g`, `s` lanes each
    /// (lane `l`: group `g + l / s`); `s ≥ N`: all lanes group `g`.
    unsafe fn lanes(v: &[Self::E], c: &[Self::E], g: usize, s: usize) -> Self::C;
    /// `N` coefficients from `a[o..]`.
    unsafe fn load(a: &[Self::E], o: usize) -> Self::V;
    /// `N` coefficients to `a[o..]`.
    unsafe fn store(a: &mut [Self::E], o: usize, v: Self::V);
    /// Even and odd chunks of `s` lanes (`s < N`) of the sequence (a, b).
    unsafe fn unzip(a: Self::V, b: Self::V, s: usize) -> (Self::V, Self::V);
    /// The inverse of [`Lanes::unzip`].
    unsafe fn zip(e: Self::V, o: Self::V, s: usize) -> (Self::V, Self::V);

    /// The `N·P` contiguous coefficients from `a[o..]` (`N/s` consecutive groups of a
    /// level with units of P points at stride `s < N`), point-major: vector `t` holds
    /// point `t` of every unit (lane `l`: group `l / s`, offset `l mod s`). By default
    /// P contiguous loads (a matrix of s-lane chunks, one unit per row), then log2(P)
    /// passes of [`Lanes::unzip`].
    #[inline(always)]
    unsafe fn load_points<const P: usize>(a: &[Self::E], o: usize, s: usize) -> [Self::V; P] {
        unsafe { load_points_by_unzip::<Self, P>(a, o, s) }
    }

    /// The inverse of [`Lanes::load_points`] (by default log2(P) passes of
    /// [`Lanes::zip`], then P contiguous stores).
    #[inline(always)]
    unsafe fn store_points<const P: usize>(a: &mut [Self::E], o: usize, s: usize, x: [Self::V; P]) {
        unsafe { store_points_by_zip::<Self, P>(a, o, s, x) }
    }
}

/// The default [`Lanes::load_points`]: P contiguous loads, then log2(P) unzip passes.
#[inline(always)]
pub(crate) unsafe fn load_points_by_unzip<L: Lanes + ?Sized, const P: usize>(
    a: &[L::E],
    o: usize,
    s: usize,
) -> [L::V; P] {
    unsafe {
        let mut x = [L::load(a, o); P];
        for (k, xk) in x.iter_mut().enumerate() {
            *xk = L::load(a, o + L::N * k);
        }
        let mut k = 1;
        while k < P {
            let mut y = x;
            for i in 0..P / 2 {
                (y[i], y[P / 2 + i]) = L::unzip(x[2 * i], x[2 * i + 1], s);
            }
            x = y;
            k *= 2;
        }
        x
    }
}

/// The default [`Lanes::store_points`]: log2(P) zip passes, then P contiguous stores.
#[inline(always)]
pub(crate) unsafe fn store_points_by_zip<L: Lanes + ?Sized, const P: usize>(
    a: &mut [L::E],
    o: usize,
    s: usize,
    mut x: [L::V; P],
) {
    unsafe {
        let mut k = 1;
        while k < P {
            let mut y = x;
            for i in 0..P / 2 {
                (y[2 * i], y[2 * i + 1]) = L::zip(x[i], x[P / 2 + i], s);
            }
            x = y;
            k *= 2;
        }
        for (k, xk) in x.iter().enumerate() {
            L::store(a, o + L::N * k, *xk);
        }
    }
}

/// `brv_l(k)`: the l-bit reversal of k.
pub(crate) const fn brv(k: usize, l: u32) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < l {
        r |= ((k >> i) & 1) << (l - 1 - i);
        i += 1;
    }
    r
}
