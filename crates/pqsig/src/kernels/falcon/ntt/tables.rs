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

/// `w · (1/q mod 2^16) mod 2^16` for each entry: with it a Montgomery product by `w`
/// gets its reduction factor `x·w/q mod 2^16` as one low product `x · w'` (the same
/// value, so the same result, with one multiplication fewer).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const fn times_qinv<const N: usize>(src: &[u16; N]) -> [u16; N] {
    let mut t = [0u16; N];
    let mut i = 0;
    while i < N {
        t[i] = (src[i] as u32).wrapping_mul(super::QINV as u32) as u16;
        i += 1;
    }
    t
}

/// For the in-register layers of the AVX2 transforms: with a 32-coefficient chunk held in
/// two vectors X, Y whose lanes have been permuted so that lane `i` of X and lane `i` of
/// Y hold a butterfly pair at distance `ht` (1, 2 or 4), `lane_map(ht)[i]` is the chunk
/// offset of the coefficient in lane `i` of X. The permutations are the ones
/// `avx2::shuffle8/4/2/1` perform, applied in that order to the natural layout.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const fn lane_map(ht: usize) -> [u8; 16] {
    // Natural layout: X holds offsets 0..16, Y holds 16..32.
    let mut x = [0u8; 16];
    let mut y = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        x[i] = i as u8;
        y[i] = 16 + i as u8;
        i += 1;
    }
    // Apply the shuffles with granularity 8, 4, 2, 1 lanes until distance `ht`.
    let mut g = 8;
    while g >= ht {
        let (nx, ny) = shuffle_model(&x, &y, g);
        x = nx;
        y = ny;
        g /= 2;
    }
    x
}

/// The lane permutation of the AVX2 shuffle of granularity `g` lanes on a pair (X, Y):
/// within each group of `2g` lanes, X' takes the first `g` lanes of X then the first `g`
/// lanes of Y, Y' the second `g` lanes of each (when 2g = N the group is the whole vector).
/// N = 16 models AVX2 registers, N = 32 AVX-512 ones.
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

/// Per-lane twiddles of the in-register layer with half-distance `ht` (1, 2 or 4):
/// vector `v` covers the `16/ht` consecutive butterfly groups starting at table index
/// `v·16/ht`, each lane holding the twiddle of its group. The 32-coefficient chunk `p`
/// of a degree-n transform uses `v = (n/(2·ht))·ht/16 + p = n/32 + p`, so 64 vectors
/// cover every degree up to 1024.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const fn lane_table<const V: usize>(src: &[u16; 1024], ht: usize) -> [[u16; 16]; V] {
    let map = lane_map(ht);
    let per = 16 / ht;
    let mut t = [[0u16; 16]; V];
    let mut v = 0;
    while v < V {
        let mut i = 0;
        while i < 16 {
            t[v][i] = src[v * per + map[i] as usize / (2 * ht)];
            i += 1;
        }
        v += 1;
    }
    t
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

    #[test]
    fn lane_maps_pair_at_the_right_distance() {
        for ht in [1usize, 2, 4, 8] {
            let m = lane_map(ht);
            for (i, &c) in m.iter().enumerate() {
                // X lanes hold the lower element of each pair.
                assert_eq!((c as usize / ht) % 2, 0, "ht={ht} lane {i}");
            }
        }
    }
}
