//! Twiddle tables of the Falcon NTT (q = 12289), computed at compile time.
//!
//! 7 is a primitive 2048-th root of unity mod q, so every degree up to 1024 takes its
//! roots from one table indexed by a 10-bit bit-reversed exponent: the butterfly group
//! `i` of the layer with `m` groups always uses entry `m + i`, whatever the degree.
//!
//! * [`GM`]: forward twiddles `R·7^brv10(k) mod q` (Montgomery form, R = 2^16);
//! * [`IGM`]: inverse twiddles `R·7^(−brv10(k)) mod q`;
//! * [`lane_table`]: the same twiddles spread over the 16 u16 lanes the AVX2 transform
//!   works with for its in-register layers.

use super::{Q, R};

/// `b^e mod m` (compile time).
const fn pow_mod(b: u32, mut e: u32, m: u32) -> u32 {
    let (mut r, mut b) = (1u64, (b % m) as u64);
    let m = m as u64;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r as u32
}

/// The low 10 bits of `x` reversed.
const fn brv10(x: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 10 {
        r |= ((x >> i) & 1) << (9 - i);
        i += 1;
    }
    r
}

/// The generator: a primitive 2048-th root of 1 mod q.
const G: u32 = 7;

/// `R · base^brv10(k) mod q` for k in 0..1024.
const fn twiddles(base: u32) -> [u16; 1024] {
    let mut t = [0u16; 1024];
    let mut k = 0;
    while k < 1024 {
        t[k] = (pow_mod(base, brv10(k) as u32, Q) * R % Q) as u16;
        k += 1;
    }
    t
}

/// Forward twiddles, Montgomery form.
pub(crate) const GM: [u16; 1024] = twiddles(G);
/// Inverse twiddles (powers of 1/7), Montgomery form.
pub(crate) const IGM: [u16; 1024] = twiddles(pow_mod(G, Q - 2, Q));

/// The lane permutation of the AVX2 shuffle of granularity `g` lanes on a pair (X, Y):
/// within each group of `2g` lanes, X' takes the first `g` lanes of X then the first `g`
/// lanes of Y, Y' the second `g` lanes of each (when 2g = N the group is the whole vector).
/// N = 16 models AVX2 registers, N = 32 AVX-512 ones (x86 tables only).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) const fn shuffle_model<const N: usize>(
    x: &[u8; N],
    y: &[u8; N],
    g: usize,
) -> ([u8; N], [u8; N]) {
    let mut nx = [0u8; N];
    let mut ny = [0u8; N];
    let mut base = 0;
    while base < N {
        let mut k = 0;
        while k < g {
            nx[base + k] = x[base + k];
            nx[base + g + k] = y[base + k];
            ny[base + k] = x[base + g + k];
            ny[base + g + k] = y[base + g + k];
            k += 1;
        }
        base += 2 * g;
    }
    (nx, ny)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_entries_match_the_reference_constants() {
        // R·g^0 = R, then the documented first entries of the reference tables.
        assert_eq!(
            &GM[..8],
            &[4091, 7888, 11060, 11208, 6960, 4342, 6275, 9759]
        );
        assert_eq!(&IGM[..8], &[4091, 4401, 1081, 1229, 2530, 6014, 7947, 5329]);
    }
}
