//! Twiddle tables of the ML-DSA NTT (q = 8380417, ζ = 1753), computed at compile time,
//! and the helpers that derive the SIMD backends' forms from them: one copy for every
//! backend.
//!
//! * [`ZETAS`]: the Montgomery-form twiddles of the portable transforms (the FIPS 204 /
//!   pq-crystals table);
//! * [`ZP`]: the same twiddles out of Montgomery form (plain `1753^brv8(k) mod q`), which
//!   the AVX2 and AVX-512 transforms multiply by with a Shoup product, [`shoup`] giving
//!   the companion of a twiddle and [`lane_twiddles`] the per-lane operands;
//! * [`F_SCALE`], [`F_Z1`]: the inverse transform's final scaling, alone and folded into
//!   its last twiddle.

// Only the x86-64 SIMD backends use the plain twiddles and their helpers.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::{N, Q};

use crate::kernels::ntt::field::pow_mod;

/// The low 8 bits of `x` reversed.
const fn brv8(x: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 8 {
        r |= ((x >> i) & 1) << (7 - i);
        i += 1;
    }
    r
}

/// `ZETAS[k] = 1753^brv8(k) · 2^32 mod q`, centred in (−q/2, q/2]: the twiddle of the
/// k-th butterfly group in Montgomery form. (`ZETAS[0]` is unused by the transforms.)
pub(crate) const ZETAS: [i32; N] = {
    let mut t = [0i32; N];
    let q = Q as u64;
    let r = (1u64 << 32) % q;
    let mut k = 0;
    while k < N {
        let v = pow_mod(1753, brv8(k) as u64, q) * r % q;
        t[k] = if v > q / 2 { v as i32 - Q } else { v as i32 };
        k += 1;
    }
    t
};

/// Centred representative in (−q/2, q/2] of `v mod q`.
pub(crate) const fn centre(v: i64) -> i32 {
    let q = Q as i64;
    let r = v.rem_euclid(q);
    if r > q / 2 {
        (r - q) as i32
    } else {
        r as i32
    }
}

/// 2^−32 mod q.
const MONT_INV: i64 = pow_mod((1u64 << 32) % Q as u64, Q as u64 - 2, Q as u64) as i64;

/// Plain forward twiddles `z_k = 1753^brv8(k) mod q`, centred: `ZETAS[k]` out of
/// Montgomery form (index as `ZETAS`).
pub(crate) const ZP: [i32; N] = {
    let mut t = [0i32; N];
    let mut k = 0;
    while k < N {
        t[k] = centre((ZETAS[k] as i64).rem_euclid(Q as i64) * MONT_INV);
        k += 1;
    }
    t
};

/// Shoup companion of a centred `z`: round(z·2^32 / q), which fits in an i32.
pub(crate) const fn shoup(z: i32) -> i32 {
    let q = Q as i64;
    ((((z as i64) << 33) + q).div_euclid(2 * q)) as i32
}

/// 2^32 / 256 mod q: the inverse NTT's scaling (1/n, times the Montgomery factor the
/// seam asks for).
pub(crate) const F_SCALE: i32 = centre((1i64 << 24) % Q as i64);
/// `−z_1 · 2^32 / 256 mod q`: the last inverse twiddle with the scaling folded in.
pub(crate) const F_Z1: i32 = centre(-(ZP[1] as i64) * F_SCALE as i64);

/// The lanes of a per-lane twiddle operand of the Shoup product for the twiddle indices
/// `ks` (negated for the inverse): `[z, z', z'_odd]`, where `z'_odd` holds the
/// companions of the odd lanes in the even lanes (what the 32×32→64 multiplies read for
/// the odd products). `L` is the vector's number of 32-bit lanes (8 for AVX2, 16 for
/// AVX-512), even.
pub(crate) const fn lane_twiddles<const L: usize>(ks: [usize; L], neg: bool) -> [[i32; L]; 3] {
    let mut z = [0i32; L];
    let mut s = [0i32; L];
    let mut so = [0i32; L];
    let mut i = 0;
    while i < L {
        z[i] = if neg { -ZP[ks[i]] } else { ZP[ks[i]] };
        s[i] = shoup(z[i]);
        i += 1;
    }
    let mut i = 0;
    while i < L / 2 {
        so[2 * i] = s[2 * i + 1];
        so[2 * i + 1] = s[2 * i + 1];
        i += 1;
    }
    [z, s, so]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zetas_match_reference_constants() {
        // First entries of the pq-crystals table (Montgomery form, centred).
        assert_eq!(&ZETAS[1..6], &[25847, -2608894, -518909, 237124, -777960]);
    }

    #[test]
    fn twiddle_tables() {
        let q = Q as i64;
        for k in 1..N {
            // Back into Montgomery form gives the portable table.
            assert_eq!(
                centre(ZP[k] as i64 * ((1i64 << 32) % q)),
                ZETAS[k],
                "k = {k}"
            );
            for z in [ZP[k], -ZP[k]] {
                let exact = (z as f64) * 4294967296.0 / q as f64;
                assert!((shoup(z) as f64 - exact).abs() <= 0.5, "k = {k}");
            }
        }
        assert_eq!(F_SCALE as i64 * 256 % q, (1i64 << 32) % q);
    }
}
