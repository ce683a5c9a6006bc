//! The arithmetic one generic transform body is written against: a [`Field`] is a
//! modulus with its coefficient and constant representations, its four operations
//! (add, subtract, multiply by a precomputed constant, reduce) and its twiddle tables.
//!
//! Two implementations: [`MlDsa`] (q = 8380417, i32 coefficients, Montgomery 2^32, lazy
//! additions tracked against the documented bounds) and [`Falcon`] (q = 12289, u16
//! canonical residues after every operation, Montgomery 2^16). The counting wrapper of
//! `count.rs` wraps either one.

use crate::kernels::falcon::ntt::portable::{inv_n_monty, mq_add, mq_montymul, mq_sub};
use crate::kernels::mldsa::portable::ntt::ZETAS;
use crate::kernels::mldsa::portable::reduce::{montgomery_reduce, reduce32_coeff};

/// A prime modulus q with a primitive root ψ of order `2^LOG_ORDER` (ψ^(order/2) = −1),
/// its element and constant representations and the constants the transforms need.
///
/// Every constant is `ψ^e` for some exponent, or one of the Winograd constants
/// ([`WConst`]), in whatever form [`Field::mul`] expects (Montgomery form here).
pub trait Field {
    /// A coefficient as stored.
    type E: Copy;
    /// A constant multiplier (twiddle) as stored.
    type C: Copy;
    /// True when `add`/`sub` do not reduce (then the transforms insert [`Field::reduce`]
    /// where the bounds require it); false when every operation returns a canonical
    /// residue (then `reduce` is never called).
    const LAZY: bool;
    /// log2 of the order of ψ: 9 for ML-DSA (ψ = 1753), 11 for Falcon (ψ = 7).
    const LOG_ORDER: u32;
    /// `a + b`.
    fn add(a: Self::E, b: Self::E) -> Self::E;
    /// `a − b`.
    fn sub(a: Self::E, b: Self::E) -> Self::E;
    /// `a · c` (one modular multiplication).
    fn mul(a: Self::E, c: Self::C) -> Self::E;
    /// A representative of `a` of small absolute value (only called when `LAZY`).
    fn reduce(a: Self::E) -> Self::E;
    /// `ψ^brv(k)` where brv reverses `LOG_ORDER − 1` bits: the twiddle of butterfly group
    /// `k` of the reference tables (`ZETAS[k]` for ML-DSA, `GM[k]` for Falcon).
    fn zeta(k: usize) -> Self::C;
    /// `ψ^−brv(k)`: the inverse twiddle of group `k` (`−ZETAS[256 − …]`, `IGM[k]`).
    fn zeta_inv(k: usize) -> Self::C;
    /// `ψ^e` for `e < 2^LOG_ORDER`.
    fn pow(e: usize) -> Self::C;
    /// A Winograd constant.
    fn wconst(c: WConst) -> Self::C;
    /// The final scaling of the inverse transform of size 2^logn: divides by n and, for
    /// ML-DSA, leaves the Montgomery factor 2^32 on the result.
    fn inv_scale(logn: u32) -> Self::C;
}

/// The constants of the Winograd units that are not plain powers of ψ, with
/// ω_k = ψ^(order/k) the primitive k-th root of unity used by the unit and ι = ω_4.
///
/// * `A8 = (ω8 + ω8³)/2`, `B8 = (ω8 − ω8³)/2`: the radix-8 odd half, and also the
///   radix-16 2×2 circulant `[[ω8, ιω8], [ιω8, ω8]]` diagonalised by sums and
///   differences (ιω8 = ω8³, so its eigenvalues halved are the same two constants);
/// * the `Inv…` forms are the same with every root replaced by its inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WConst {
    A8,
    B8,
    InvA8,
    InvB8,
}

impl WConst {
    /// The constant as an element of Z_q (plain residue), for a field with modulus `q`,
    /// ψ and order `2^log_order`.
    pub const fn plain(self, q: u64, psi: u64, log_order: u32) -> u64 {
        let order = 1u64 << log_order;
        let w8 = match self {
            WConst::A8 | WConst::B8 => pow_mod(psi, order / 8, q),
            WConst::InvA8 | WConst::InvB8 => pow_mod(psi, order - order / 8, q),
        };
        let w8_3 = w8 * w8 % q * w8 % q;
        let half = q.div_ceil(2);
        match self {
            WConst::A8 | WConst::InvA8 => (w8 + w8_3) % q * half % q,
            WConst::B8 | WConst::InvB8 => (w8 + q - w8_3) % q * half % q,
        }
    }
}

/// `b^e mod m`.
pub(crate) const fn pow_mod(mut b: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1u64;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r
}

/// The low `bits` bits of `x` reversed.
#[inline(always)]
pub(crate) const fn brv(x: usize, bits: u32) -> usize {
    ((x as u32).reverse_bits() >> (32 - bits)) as usize
}

// ---------------------------------------------------------------------------------------
// ML-DSA: q = 8380417, ψ = 1753 (order 512), Montgomery 2^32.

const MQ: u64 = 8380417;
const MPSI: u64 = 1753;
const MLOG: u32 = 9;

/// `x · 2^32 mod q`, centred in (−q/2, q/2] (the form of `ZETAS`).
const fn mldsa_mont(x: u64) -> i32 {
    let r = (x % MQ) * ((1u64 << 32) % MQ) % MQ;
    if r > MQ / 2 {
        r as i32 - MQ as i32
    } else {
        r as i32
    }
}

/// `ψ^e · 2^32 mod q` (centred), e < 512.
static MLDSA_POW: [i32; 512] = {
    let mut t = [0i32; 512];
    let mut e = 0;
    while e < 512 {
        t[e] = mldsa_mont(pow_mod(MPSI, e as u64, MQ));
        e += 1;
    }
    t
};

/// `ψ^−brv8(k) · 2^32 mod q` (centred): the inverse twiddle of group k.
static MLDSA_ZETA_INV: [i32; 256] = {
    let mut t = [0i32; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = MLDSA_POW[(512 - brv(k, MLOG - 1)) & 511];
        k += 1;
    }
    t
};

const MLDSA_W: [i32; 4] = [
    mldsa_mont(WConst::A8.plain(MQ, MPSI, MLOG)),
    mldsa_mont(WConst::B8.plain(MQ, MPSI, MLOG)),
    mldsa_mont(WConst::InvA8.plain(MQ, MPSI, MLOG)),
    mldsa_mont(WConst::InvB8.plain(MQ, MPSI, MLOG)),
];

/// q = 8380417 as the ML-DSA kernels use it: i32 coefficients, additions without
/// reduction (the transforms track the bounds), Montgomery products with centred
/// constants (`montgomery_reduce(c·a)`, |result| < q for |c·a| ≤ 2^31·q), `reduce32` as
/// the reduction (|result| ≤ 6283008 < 0.75q).
pub struct MlDsa;

impl Field for MlDsa {
    type E = i32;
    type C = i32;
    const LAZY: bool = true;
    const LOG_ORDER: u32 = MLOG;
    #[inline(always)]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }
    #[inline(always)]
    fn sub(a: i32, b: i32) -> i32 {
        a - b
    }
    #[inline(always)]
    fn mul(a: i32, c: i32) -> i32 {
        montgomery_reduce(c as i64 * a as i64)
    }
    #[inline(always)]
    fn reduce(a: i32) -> i32 {
        reduce32_coeff(a)
    }
    #[inline(always)]
    fn zeta(k: usize) -> i32 {
        ZETAS[k & 255]
    }
    #[inline(always)]
    fn zeta_inv(k: usize) -> i32 {
        MLDSA_ZETA_INV[k & 255]
    }
    #[inline(always)]
    fn pow(e: usize) -> i32 {
        MLDSA_POW[e & 511]
    }
    #[inline(always)]
    fn wconst(c: WConst) -> i32 {
        MLDSA_W[c as usize]
    }
    #[inline(always)]
    fn inv_scale(logn: u32) -> i32 {
        // 2^64 / n mod q: cancels the Montgomery factor of the product, divides by n and
        // leaves 2^32 on the result (41978 for n = 256, the reference's F).
        MLDSA_INV_SCALE[(logn as usize) & 15]
    }
}

/// `2^64 / 2^logn mod q`, centred (index logn; 41978 at 8).
static MLDSA_INV_SCALE: [i32; 16] = {
    let mut t = [0i32; 16];
    let mut l = 0;
    while l < 16 {
        let inv_n = pow_mod(pow_mod(2, l as u64, MQ), MQ - 2, MQ);
        // mldsa_mont gives x·2^32; once more for 2^64.
        let x = inv_n * ((1u64 << 32) % MQ) % MQ;
        t[l] = mldsa_mont(x);
        l += 1;
    }
    t
};

// ---------------------------------------------------------------------------------------
// Falcon: q = 12289, ψ = 7 (order 2048), Montgomery 2^16.

const FQ: u64 = 12289;
const FPSI: u64 = 7;
const FLOG: u32 = 11;

/// `x · 2^16 mod q` in [0, q).
const fn falcon_mont(x: u64) -> u16 {
    ((x % FQ) * ((1u64 << 16) % FQ) % FQ) as u16
}

/// `ψ^e · 2^16 mod q`, e < 2048.
static FALCON_POW: [u16; 2048] = {
    let mut t = [0u16; 2048];
    let mut e = 0;
    while e < 2048 {
        t[e] = falcon_mont(pow_mod(FPSI, e as u64, FQ));
        e += 1;
    }
    t
};

const FALCON_W: [u16; 4] = [
    falcon_mont(WConst::A8.plain(FQ, FPSI, FLOG)),
    falcon_mont(WConst::B8.plain(FQ, FPSI, FLOG)),
    falcon_mont(WConst::InvA8.plain(FQ, FPSI, FLOG)),
    falcon_mont(WConst::InvB8.plain(FQ, FPSI, FLOG)),
];

/// q = 12289 as the Falcon kernels use it: u16 canonical residues in and out of every
/// operation (`mq_add`, `mq_sub`, `mq_montymul` of the portable kernels), so results are
/// bit-identical whatever the order of operations.
pub struct Falcon;

impl Field for Falcon {
    type E = u16;
    type C = u16;
    const LAZY: bool = false;
    const LOG_ORDER: u32 = FLOG;
    #[inline(always)]
    fn add(a: u16, b: u16) -> u16 {
        mq_add(a as u32, b as u32) as u16
    }
    #[inline(always)]
    fn sub(a: u16, b: u16) -> u16 {
        mq_sub(a as u32, b as u32) as u16
    }
    #[inline(always)]
    fn mul(a: u16, c: u16) -> u16 {
        mq_montymul(a as u32, c as u32) as u16
    }
    #[inline(always)]
    fn reduce(a: u16) -> u16 {
        a
    }
    #[inline(always)]
    fn zeta(k: usize) -> u16 {
        crate::kernels::falcon::ntt::tables::GM[k & 1023]
    }
    #[inline(always)]
    fn zeta_inv(k: usize) -> u16 {
        crate::kernels::falcon::ntt::tables::IGM[k & 1023]
    }
    #[inline(always)]
    fn pow(e: usize) -> u16 {
        FALCON_POW[e & 2047]
    }
    #[inline(always)]
    fn wconst(c: WConst) -> u16 {
        FALCON_W[c as usize]
    }
    #[inline(always)]
    fn inv_scale(logn: u32) -> u16 {
        inv_n_monty(logn) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_reference_ones() {
        for k in 1..256 {
            assert_eq!(
                MlDsa::zeta(k),
                crate::kernels::mldsa::portable::ntt::ZETAS[k]
            );
            assert_eq!(
                MlDsa::zeta_inv(k),
                -crate::kernels::mldsa::portable::ntt::ZETAS[
                // The reference's inverse walks k down from 255: group i of the layer with
                // m groups uses −ZETAS[2m − 1 − i].
                {
                    let m = 1usize << (usize::BITS - 1 - k.leading_zeros());
                    2 * m - 1 - (k - m)
                }
            ]
            );
        }
        assert_eq!(MlDsa::inv_scale(8), 41978);
        for k in 0..1024 {
            assert_eq!(
                Falcon::pow(brv(k, 10)),
                crate::kernels::falcon::ntt::tables::GM[k]
            );
        }
    }

    #[test]
    fn winograd_constants() {
        // A8 + B8 = ω8, A8 − B8 = ω8³.
        for (q, psi, lo) in [(MQ, MPSI, MLOG), (FQ, FPSI, FLOG)] {
            let order = 1u64 << lo;
            let w8 = pow_mod(psi, order / 8, q);
            let a = WConst::A8.plain(q, psi, lo);
            let b = WConst::B8.plain(q, psi, lo);
            assert_eq!((a + b) % q, w8);
            assert_eq!((a + q - b) % q, pow_mod(w8, 3, q));
            // ιω8 = ω8³: the radix-16 circulant's constants are the same.
            assert_eq!(w8 * w8 % q * w8 % q, pow_mod(w8, 3, q));
            let wi = pow_mod(psi, order - order / 8, q);
            assert_eq!(
                (WConst::InvA8.plain(q, psi, lo) + WConst::InvB8.plain(q, psi, lo)) % q,
                wi
            );
        }
    }
}
