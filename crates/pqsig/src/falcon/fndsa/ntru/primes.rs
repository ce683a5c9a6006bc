//! The RNS moduli of the FN-DSA NTRU solver: the first 308 rows of the shared table
//! [`crate::falcon::keygen::primes::PRIMES`] (round-3 keygen; the same primes, p0i, r2
//! and s, and the same roots), with `g` and `ig` moved into Montgomery form (·2^32
//! mod p) at compile time, the form `mp` uses. One table, so the two solvers cannot
//! drift apart; `mp::tests::table` re-checks every entry.

use super::mp::SmallPrime;
use crate::falcon::keygen::primes::PRIMES as SHARED;

/// How many primes the FN-DSA solver uses (fn-dsa 0.4.0 / ntrugen sizes).
const COUNT: usize = 308;

/// x·2^32 mod p.
const fn to_mont(x: u32, p: u32) -> u32 {
    (((x as u64) << 32) % (p as u64)) as u32
}

const fn build() -> [SmallPrime; COUNT] {
    let mut out = [SmallPrime {
        p: 0,
        p0i: 0,
        r2: 0,
        g: 0,
        ig: 0,
        s: 0,
    }; COUNT];
    let mut i = 0;
    while i < COUNT {
        let r = &SHARED[i];
        out[i] = SmallPrime {
            p: r.p,
            p0i: r.p0i,
            r2: r.r2,
            g: to_mont(r.g, r.p),
            ig: to_mont(r.ig, r.p),
            s: r.s,
        };
        i += 1;
    }
    out
}

pub(crate) static PRIMES: [SmallPrime; COUNT] = build();
