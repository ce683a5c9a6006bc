//! Operation counts of the variants: closed forms, and (with `std`) the same numbers
//! measured by running the generic transforms on the counting field of `count.rs`.
//!
//! # Closed forms
//! Per unit instance (one group and offset, i.e. one "butterfly unit" on 2^L points);
//! `mul` = modular multiplications by a constant (Montgomery products; a product by ι = ω4
//! counts as one: it is not free in Z_q), `add` = additions and subtractions, `red` =
//! explicit reductions (only in lazy fields — ML-DSA; in Falcon's canonical field every
//! add/sub already includes its conditional correction and `red` is 0):
//!
//! | unit | points | mul | add | red (lazy) |
//! |---|---|---|---|---|
//! | radix-2 butterfly | 2 | 1 | 2 | 0 |
//! | radix-4 (two layers) | 4 | 4 | 8 | 0 |
//! | Winograd-8 (twist 7 + DFT-8 4) | 8 | 11 | 26 | 1 |
//! | Winograd-16 (twist 15 + DFT-16 14) | 16 | 29 | 70 | 9 |
//!
//! Inverse units cost the same (inverse DFT + untwist); the inverse transform adds n
//! multiplications for the final scaling. A transform of n = 2^logn points following the
//! plan `L_1, …, L_k` (Σ L_i = logn; see `NttVariant::plan`) costs
//! `Σ_i (n / 2^L_i) · unit(L_i)`, hence:
//!
//! * radix-2 and radix-4: `mul = (n/2)·logn`, `add = n·logn`, `red = 0`;
//! * Winograd-8, logn = 3k + r: `mul = (11/8)·n·k + lead(r)`, `add = (26/8)·n·k + lead`,
//!   `red = n·k/8` (lazy), with lead(1) = (n/2, n), lead(2) = (n, 2n) (radix-2 / radix-4);
//! * Winograd-16, logn = 4k + r: `mul = (29/16)·n·k + lead(r)`,
//!   `add = (70/16)·n·k + lead`, `red = (9/16)·n·k` (lazy), with lead(3) the Winograd-8
//!   unit: (11n/8, 26n/8, n/8).
//!
//! For comparison, the cyclic cores alone (no twist): DFT-8 radix-2 needs 5 products by
//! non-trivial roots (ι three times, ω8, ω8³) and 24 additions, the Winograd DFT-8 4 and
//! 26; DFT-16 radix-2 17 and 64, the Winograd DFT-16 here 14 and 70 (+8 reductions, lazy).

use super::variant::NttVariant;

/// Counted operations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// Modular multiplications (by constants).
    pub mul: u64,
    /// Additions and subtractions.
    pub add: u64,
    /// Explicit reductions.
    pub reduce: u64,
}

impl OpCounts {
    pub const ZERO: OpCounts = OpCounts {
        mul: 0,
        add: 0,
        reduce: 0,
    };
}

/// Cost of one unit instance of `l` layers (forward or inverse, without final scaling).
pub(crate) const fn unit_cost(l: u32, lazy: bool) -> OpCounts {
    let (mul, add, red) = match l {
        1 => (1, 2, 0),
        2 => (4, 8, 0),
        3 => (11, 26, 1),
        _ => (29, 70, 9),
    };
    OpCounts {
        mul,
        add,
        reduce: if lazy { red } else { 0 },
    }
}

/// The closed-form counts of a forward (or inverse) transform of 2^logn points.
pub const fn closed_form(v: NttVariant, logn: u32, lazy: bool, inverse: bool) -> OpCounts {
    let n = 1u64 << logn;
    let (plan, len) = v.plan(logn);
    let mut c = OpCounts::ZERO;
    let mut i = 0;
    while i < len {
        let u = unit_cost(plan[i], lazy);
        let inst = n >> plan[i];
        c.mul += inst * u.mul;
        c.add += inst * u.add;
        c.reduce += inst * u.reduce;
        i += 1;
    }
    if inverse {
        c.mul += n;
    }
    c
}

/// Instrumented counts: the generic transform of the variant run on the counting
/// wrapper of the ML-DSA (`mldsa = true`, lazy) or Falcon (canonical) field, on zeros.
#[cfg(feature = "std")]
pub fn instrumented(v: NttVariant, logn: u32, mldsa: bool, inverse: bool) -> OpCounts {
    use super::count::{counts, reset_counts, Counting};
    use super::field::{Falcon, MlDsa};
    use super::transform::{forward, inverse as inv};
    let n = 1usize << logn;
    reset_counts();
    if mldsa {
        let mut a = std::vec![0i32; n];
        if inverse {
            inv::<Counting<MlDsa>>(&mut a, logn, v)
        } else {
            forward::<Counting<MlDsa>>(&mut a, logn, v)
        }
    } else {
        let mut a = std::vec![0u16; n];
        if inverse {
            inv::<Counting<Falcon>>(&mut a, logn, v)
        } else {
            forward::<Counting<Falcon>>(&mut a, logn, v)
        }
    }
    counts()
}

/// Instrumented counts of the cyclic cores alone: the Winograd DFT-8 (`points = 8`) or
/// DFT-16 (`points = 16`) on the counting ML-DSA (`mldsa`) or Falcon field.
#[cfg(feature = "std")]
pub fn instrumented_dft(points: usize, mldsa: bool) -> OpCounts {
    use super::count::{counts, reset_counts, Counting};
    use super::field::{Falcon, Field, MlDsa};
    use super::units::{dft16, dft8, DftConsts};
    fn run<F: Field>(points: usize, zero: F::E) {
        let c = DftConsts::<F::C>::new::<F>(false);
        if points == 8 {
            core::hint::black_box(dft8::<F>([zero; 8], &c));
        } else {
            core::hint::black_box(dft16::<F>([zero; 16], &c));
        }
    }
    reset_counts();
    if mldsa {
        run::<Counting<MlDsa>>(points, 0);
    } else {
        run::<Counting<Falcon>>(points, 0);
    }
    counts()
}
