//! Portable Keccak-f\[1600\] (FIPS 202 §3). Constant-time: no data-dependent
//! branches or indices.

/// Round constants ι for the 24 rounds.
pub const RC: [u64; 24] = [
    0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
    0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
    0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
];

/// ρ rotation offsets, indexed by lane x + 5y.
pub const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// π: lane x + 5y moves to lane y + 5((2x + 3y) mod 5); `PI_SRC[d]` is the source of d.
const fn pi_src() -> [usize; 25] {
    let mut src = [0usize; 25];
    let mut x = 0;
    while x < 5 {
        let mut y = 0;
        while y < 5 {
            let dst = y + 5 * ((2 * x + 3 * y) % 5);
            src[dst] = x + 5 * y;
            y += 1;
        }
        x += 1;
    }
    src
}
pub const PI_SRC: [usize; 25] = pi_src();

/// Applies the 24-round permutation to `a` (lane x + 5y at index x + 5y).
#[inline]
pub fn keccak_f1600(a: &mut [u64; 25]) {
    for &rc in RC.iter() {
        // θ
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        let mut d = [0u64; 5];
        for x in 0..5 {
            d[x] = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
        }
        // ρ and π together
        let mut b = [0u64; 25];
        for i in 0..25 {
            let s = PI_SRC[i];
            b[i] = (a[s] ^ d[s % 5]).rotate_left(RHO[s]);
        }
        // χ
        for y in 0..5 {
            let r = 5 * y;
            for x in 0..5 {
                a[r + x] = b[r + x] ^ (!b[r + (x + 1) % 5] & b[r + (x + 2) % 5]);
            }
        }
        // ι
        a[0] ^= rc;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn zero_state_known_answer() {
        // Keccak-f[1600] applied to the all-zero state: first lane of the published
        // intermediate values (KeccakF-1600-IntermediateValues.txt).
        let mut s = [0u64; 25];
        keccak_f1600(&mut s);
        assert_eq!(s[0], 0xF1258F7940E1DDE7);
        assert_eq!(s[1], 0x84D5CCF933C0478A);
    }
}
