//! Round-3 Gaussian sampling of the NTRU secrets f and g from a SHAKE256 stream.
//!
//! Each coefficient is the sum of 2^(10-logn) samples of the discrete Gaussian for
//! n = 1024 (σ = 1.17·√(q/2048)), so that every degree gets σ = 1.17·√(q/(2n)).
//! One base sample reads two 64-bit little-endian words from SHAKE256: the first gives
//! the sign (top bit) and whether the value is zero, the second is compared against the
//! whole cumulative table (constant time: every entry is used).
//!
//! The stream is read in bulk but never beyond what the reference consumes: exactly
//! n−1 coefficients' worth first, then one coefficient at a time for redraws and for
//! the last coefficient (whose parity is constrained).

use crate::kernels::falcon::keygen::KeygenKernels;
use crate::kernels::keccak::sponge::Shake256;

/// Cumulative distribution of |x| for the n = 1024 Gaussian, scaled by 2^63:
/// entry 0 is P(x = 0); entry k > 0 is P(|x| >= k+1 | x != 0). Decreasing.
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

/// Scratch size in bytes (a multiple of 16·2^(10−logn) for every logn).
pub(crate) const BUF_LEN: usize = 8192;

/// Samples processed together (the comparisons against the table run on this many
/// lanes kept in registers).
const LANES: usize = 8;

/// Base samples from `bytes` (16 bytes each: two little-endian words r0, r1) into
/// `out`. Value: 0 if r0 mod 2^63 < P(0); otherwise 1 + #{k >= 1 : r1 mod 2^63 <
/// table[k]} (the first k with r1 >= table[k], the table being decreasing), negated
/// if r0's top bit is set. Constant time; written so that it vectorises.
#[inline(always)]
pub(crate) fn base_samples_body(bytes: &[u8], out: &mut [i32]) {
    const M63: u64 = (1u64 << 63) - 1;
    let word = |c: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&c[..8]);
        u64::from_le_bytes(w)
    };
    let mut r0 = [0u64; LANES];
    let mut r1 = [0u64; LANES];
    let mut cnt = [0u64; LANES];
    for (chunk, o) in bytes.chunks(16 * LANES).zip(out.chunks_mut(LANES)) {
        let m = o.len();
        for (s, c) in chunk.chunks_exact(16).enumerate().take(m) {
            r0[s] = word(&c[..8]) & M63;
            r1[s] = word(&c[8..]) & M63;
        }
        cnt = [1u64; LANES];
        for &t in &GAUSS_1024_12289[1..] {
            for l in 0..LANES {
                // Both operands < 2^63: the sign of the difference is r < t.
                cnt[l] += r1[l].wrapping_sub(t) >> 63;
            }
        }
        for (s, c) in chunk.chunks_exact(16).enumerate().take(m) {
            let neg = (c[7] >> 7) as u64;
            let nz = ((r0[s].wrapping_sub(GAUSS_1024_12289[0]) >> 63) ^ 1).wrapping_neg();
            let neg = neg.wrapping_neg();
            let v = cnt[s] & nz;
            o[s] = ((v ^ neg).wrapping_sub(neg)) as i32;
        }
    }
    crate::wipe::wipe(&mut r0, [0; LANES]);
    crate::wipe::wipe(&mut r1, [0; LANES]);
    crate::wipe::wipe(&mut cnt, [0; LANES]);
}

/// Reads `count` coefficients (16·2^(10−logn) bytes each) into `vals`.
fn draw(
    rng: &mut Shake256,
    logn: u32,
    vals: &mut [i32],
    buf: &mut [u8; BUF_LEN],
    samp: &mut [i32; BUF_LEN / 16],
    kk: &KeygenKernels,
) {
    let g = 1usize << (10 - logn);
    let per = 16 * g;
    let per_chunk = BUF_LEN / per;
    for out in vals.chunks_mut(per_chunk) {
        let bytes = &mut buf[..out.len() * per];
        rng.squeeze(bytes);
        let s = &mut samp[..out.len() * g];
        (kk.solver.base_samples)(bytes, s);
        for (o, grp) in out.iter_mut().zip(s.chunks_exact(g)) {
            *o = grp.iter().fold(0i32, |a, &x| a.wrapping_add(x));
        }
    }
}

/// Samples one polynomial of degree 2^logn (1 <= logn <= 10) into `f`, with every
/// coefficient in [-127, 127] and an odd sum of coefficients (so that the resultant
/// with X^n+1 is odd).
///
/// Side channels: a coefficient outside [-127, 127] (only possible for logn <= 7, and
/// in practice only for logn <= 2) and a last coefficient of the wrong parity are
/// discarded and redrawn, as the reference does. The redraws reveal only facts about
/// the discarded samples (for the parity: nothing, the redraw count is geometric with
/// parameter 1/2 whatever f is), so the kept coefficients do not influence timing.
pub(crate) fn sample_poly(
    kk: &KeygenKernels,
    rng: &mut Shake256,
    f: &mut [i8],
    logn: u32,
    buf: &mut [u8; BUF_LEN],
) {
    let n = 1usize << logn;
    let mut vals = [0i32; 1024];
    let mut samp = [0i32; BUF_LEN / 16];
    // Coefficients 0..n-1 first: read exactly that many; redraw the rejected ones.
    let mut filled = 0usize;
    let mut parity = 0u32;
    while filled < n - 1 {
        let want = n - 1 - filled;
        draw(rng, logn, &mut vals[..want], buf, &mut samp, kk);
        for &s in &vals[..want] {
            // Which samples are redrawn is public (declassified: docs/ARCHITECTURE.md).
            #[allow(clippy::manual_range_contains)] // `&`: no short-circuit on a secret
            if crate::ct::public((s >= -127) & (s <= 127)) {
                f[filled] = s as i8;
                parity ^= s as u32 & 1;
                filled += 1;
            }
        }
    }
    // The last coefficient: must be in range and make the total parity odd.
    loop {
        draw(rng, logn, &mut vals[..1], buf, &mut samp, kk);
        let s = vals[0];
        #[allow(clippy::manual_range_contains)] // `&`: no short-circuit on a secret
        if crate::ct::public((s >= -127) & (s <= 127) & ((parity ^ (s as u32 & 1)) == 1)) {
            f[n - 1] = s as i8;
            break;
        }
    }
    // The kept samples are secret (the f coefficients are sums of them).
    crate::wipe::wipe(&mut vals, [0; 1024]);
    crate::wipe::wipe(&mut samp, [0; BUF_LEN / 16]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(r0: u64, r1: u64) -> i32 {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&r0.to_le_bytes());
        b[8..].copy_from_slice(&r1.to_le_bytes());
        let mut o = [0i32; 1];
        base_samples_body(&b, &mut o);
        for bk in crate::kernels::select::Backend::available() {
            let kk = crate::kernels::falcon::keygen::kernels(bk);
            let mut o2 = [0i32; 1];
            (kk.solver.base_samples)(&b, &mut o2);
            assert_eq!(o, o2, "{bk}");
        }
        o[0]
    }

    #[test]
    fn base_sample_edges() {
        // r0 below P(0): zero whatever r1 is.
        assert_eq!(one(0, 0), 0);
        assert_eq!(one(1 << 63, 0), 0);
        // Not zero, r1 = 2^63-1 above every threshold: value 1 (first entry hit).
        assert_eq!(one(u64::MAX >> 1, u64::MAX), 1);
        assert_eq!(one(u64::MAX, u64::MAX), -1);
        // r1 = 0: below every threshold but the last (0): the maximum, 26.
        assert_eq!(one(u64::MAX >> 1, 0), 26);
        // r1 just below table[1] and at least table[2]: 2.
        assert_eq!(one(u64::MAX >> 1, GAUSS_1024_12289[2]), 2);
        assert_eq!(one(u64::MAX >> 1, GAUSS_1024_12289[2] - 1), 3);
    }
}
