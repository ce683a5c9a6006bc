//! Round-3 Gaussian sampling of the NTRU secrets f and g from a SHAKE256 stream.
//!
//! Each coefficient is the sum of 2^(10-logn) samples of the discrete Gaussian for
//! n = 1024 (σ = 1.17·√(q/2048)), so that every degree gets σ = 1.17·√(q/(2n)).
//! One base sample reads two 64-bit little-endian words from SHAKE256: the first gives
//! the sign (top bit) and whether the value is zero, the second is compared against the
//! whole cumulative table (constant time: every entry is read).

use crate::kernels::keccak::sponge::Shake256;

/// Cumulative distribution of |x| for the n = 1024 Gaussian, scaled by 2^63:
/// entry 0 is P(x = 0); entry k > 0 is P(|x| >= k+1 | x != 0).
const GAUSS_1024_12289: [u64; 27] = [
    1283868770400643928,
    6416574995475331444,
    4078260278032692663,
    2353523259288686585,
    1227179971273316331,
    575931623374121527,
    242543240509105209,
    91437049221049666,
    30799446349977173,
    9255276791179340,
    2478152334826140,
    590642893610164,
    125206034929641,
    23590435911403,
    3948334035941,
    586753615614,
    77391054539,
    9056793210,
    940121950,
    86539696,
    7062824,
    510971,
    32764,
    1862,
    94,
    4,
    0,
];

/// One base sample from the two words `r0`, `r1` (constant time).
#[inline(always)]
fn base_sample(r0: u64, r1: u64) -> i32 {
    let neg = (r0 >> 63) as u32;
    let r0 = r0 & !(1u64 << 63);
    // zero = 1 when the value is 0 (r0 below P(0)).
    let mut done = (r0.wrapping_sub(GAUSS_1024_12289[0]) >> 63) as u32;
    let r1 = r1 & !(1u64 << 63);
    let mut v = 0u32;
    for (k, &t) in GAUSS_1024_12289.iter().enumerate().skip(1) {
        // hit = 1 when r1 >= table[k]: the value is at least k (first such k wins).
        let hit = ((r1.wrapping_sub(t) >> 63) as u32) ^ 1;
        v |= (k as u32) & (hit & (done ^ 1)).wrapping_neg();
        done |= hit;
    }
    // Conditional negation.
    let v = (v ^ neg.wrapping_neg()).wrapping_add(neg);
    v as i32
}

/// One coefficient: the sum of 2^(10-logn) base samples. Reads 16·2^(10-logn) bytes.
#[inline]
fn coefficient(rng: &mut Shake256, logn: u32, buf: &mut [u8; 16 * 512]) -> i32 {
    let g = 1usize << (10 - logn);
    let bytes = &mut buf[..16 * g];
    rng.squeeze(bytes);
    let mut val = 0i32;
    for c in bytes.chunks_exact(16) {
        let mut w0 = [0u8; 8];
        let mut w1 = [0u8; 8];
        w0.copy_from_slice(&c[..8]);
        w1.copy_from_slice(&c[8..]);
        val = val.wrapping_add(base_sample(u64::from_le_bytes(w0), u64::from_le_bytes(w1)));
    }
    val
}

/// Samples one polynomial of degree 2^logn (1 <= logn <= 10) into `f`, with every
/// coefficient in [-127, 127] and an odd sum of coefficients (so that the resultant
/// with X^n+1 is odd).
///
/// Side channels: a coefficient outside [-127, 127] (only possible for logn <= 2) and a
/// last coefficient of the wrong parity are discarded and redrawn, as the reference
/// does. The number of redraws reveals only facts about the discarded samples (and,
/// for the parity, nothing: the redraw count is geometric with parameter 1/2 whatever
/// f is), so the kept coefficients do not influence timing.
pub(crate) fn sample_poly(rng: &mut Shake256, f: &mut [i8], logn: u32, buf: &mut [u8; 16 * 512]) {
    let n = 1usize << logn;
    let mut parity = 0u32;
    let mut u = 0;
    while u < n {
        let s = coefficient(rng, logn, buf);
        if !(-127..=127).contains(&s) {
            continue;
        }
        if u == n - 1 {
            if (parity ^ (s as u32 & 1)) == 0 {
                continue;
            }
        } else {
            parity ^= s as u32 & 1;
        }
        f[u] = s as i8;
        u += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_sample_edges() {
        // r0 below P(0): zero whatever r1 is.
        assert_eq!(base_sample(0, 0), 0);
        assert_eq!(base_sample(1 << 63, 0), 0);
        // Not zero, r1 = 2^63-1 above every threshold: value 1 (first entry hit).
        assert_eq!(base_sample(u64::MAX >> 1, u64::MAX), 1);
        assert_eq!(base_sample(u64::MAX, u64::MAX), -1);
        // r1 = 0: below every threshold but the last (0): the maximum, 26.
        assert_eq!(base_sample(u64::MAX >> 1, 0), 26);
        // r1 just below table[1] and at least table[2]: 2.
        assert_eq!(base_sample(u64::MAX >> 1, GAUSS_1024_12289[2]), 2);
    }
}
