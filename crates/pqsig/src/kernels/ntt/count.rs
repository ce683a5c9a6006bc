//! Operation counting: [`Counting<F>`] is a [`Field`] that forwards every operation to
//! `F` and counts it (per thread), so that the very code of the variants, instantiated
//! for it, reports how many modular multiplications, additions/subtractions and
//! reductions it performs. `std` only (thread-local counters).

use super::field::{Field, WConst};
use super::opcount::OpCounts;
use core::marker::PhantomData;
use std::cell::Cell;

std::thread_local! {
    static COUNTS: Cell<OpCounts> = const { Cell::new(OpCounts::ZERO) };
}

/// `F` with every operation counted.
pub(crate) struct Counting<F>(PhantomData<F>);

fn bump(f: impl FnOnce(&mut OpCounts)) {
    COUNTS.with(|c| {
        let mut v = c.get();
        f(&mut v);
        c.set(v);
    });
}

/// Zeroes this thread's counters.
pub(crate) fn reset_counts() {
    COUNTS.with(|c| c.set(OpCounts::ZERO));
}

/// This thread's counters.
pub fn counts() -> OpCounts {
    COUNTS.with(|c| c.get())
}

impl<F: Field> Field for Counting<F> {
    type E = F::E;
    type C = F::C;
    const LAZY: bool = F::LAZY;
    const LOG_ORDER: u32 = F::LOG_ORDER;
    fn add(a: F::E, b: F::E) -> F::E {
        bump(|c| c.add += 1);
        F::add(a, b)
    }
    fn sub(a: F::E, b: F::E) -> F::E {
        bump(|c| c.add += 1);
        F::sub(a, b)
    }
    fn mul(a: F::E, k: F::C) -> F::E {
        bump(|c| c.mul += 1);
        F::mul(a, k)
    }
    fn reduce(a: F::E) -> F::E {
        bump(|c| c.reduce += 1);
        F::reduce(a)
    }
    fn zeta(k: usize) -> F::C {
        F::zeta(k)
    }
    fn zeta_inv(k: usize) -> F::C {
        F::zeta_inv(k)
    }
    fn pow(e: usize) -> F::C {
        F::pow(e)
    }
    fn wconst(c: WConst) -> F::C {
        F::wconst(c)
    }
    fn inv_scale(logn: u32) -> F::C {
        F::inv_scale(logn)
    }
}
