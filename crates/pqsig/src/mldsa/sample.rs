//! ExpandA, ExpandS, ExpandMask and SampleInBall (FIPS 204 Algorithms 29–34), built on
//! the four-way SHAKE and the rejection kernels of the active backend.

use super::encode;
use super::params::Params;
use crate::kernels::keccak::sponge::{Shake, Shake256, SHAKE128_RATE, SHAKE256_RATE};
use crate::kernels::keccak::x4::ShakeX4;
use crate::kernels::mldsa::{Kernels, Poly, N};
use crate::wipe::wipe;

/// Runs a rejection sampler over four SHAKE streams at once until all four polynomials
/// are full. `seeds` has 1 to 4 equal-length entries; missing lanes repeat the last seed
/// and their output is discarded.
fn rejection_x4<const RATE: usize, const FIRST: usize>(
    kern: &Kernels,
    seeds: &[&[u8]],
    out: &mut [&mut Poly],
    sampler: &dyn Fn(&mut [i32], &[u8]) -> usize,
) {
    let n = seeds.len();
    debug_assert!((1..=4).contains(&n) && out.len() == n);
    if n == 1 {
        // One lane: a single sponge costs one permutation per block instead of a
        // four-way one.
        return rejection_single::<RATE, FIRST>(seeds[0], &mut *out[0], sampler);
    }
    let lane = |j: usize| seeds[j.min(n - 1)];
    let mut st = ShakeX4::<RATE>::absorb_once(kern.permute4, [lane(0), lane(1), lane(2), lane(3)]);
    let mut bufs = [[0u8; 5 * SHAKE128_RATE]; 4];
    let first = FIRST * RATE;
    {
        let [b0, b1, b2, b3] = &mut bufs;
        st.squeeze_blocks([&mut b0[..first], &mut b1[..first], &mut b2[..first], &mut b3[..first]], FIRST);
    }
    let mut ctr = [0usize; 4];
    for j in 0..n {
        ctr[j] = sampler(&mut out[j].coeffs[..], &bufs[j][..first]);
    }
    // Rare: more output needed. Declassified: how many blocks a lane consumed.
    while (0..n).any(|j| ctr[j] < N) {
        let [b0, b1, b2, b3] = &mut bufs;
        st.squeeze_blocks(
            [&mut b0[..RATE], &mut b1[..RATE], &mut b2[..RATE], &mut b3[..RATE]],
            1,
        );
        for j in 0..n {
            if ctr[j] < N {
                ctr[j] += sampler(&mut out[j].coeffs[ctr[j]..], &bufs[j][..RATE]);
            }
        }
    }
    // The squeezed bytes are secret for ExpandS (public for ExpandA).
    wipe(&mut bufs, [[0u8; 5 * SHAKE128_RATE]; 4]);
}

/// [`rejection_x4`] for one stream.
fn rejection_single<const RATE: usize, const FIRST: usize>(
    seed: &[u8],
    out: &mut Poly,
    sampler: &dyn Fn(&mut [i32], &[u8]) -> usize,
) {
    let mut buf = [0u8; 5 * SHAKE128_RATE];
    let first = FIRST * RATE;
    let mut h = Shake::<RATE>::new();
    h.absorb(seed);
    h.squeeze_blocks(&mut buf[..first]);
    let mut ctr = sampler(&mut out.coeffs[..], &buf[..first]);
    while ctr < N {
        h.squeeze_blocks(&mut buf[..RATE]);
        ctr += sampler(&mut out.coeffs[ctr..], &buf[..RATE]);
    }
    wipe(&mut buf, [0u8; 5 * SHAKE128_RATE]);
}

/// ExpandA: `a[i·l + j] = RejNTTPoly(ρ ‖ j ‖ i)`, four polynomials per SHAKE128 x4 call.
pub fn expand_a(kern: &Kernels, p: &Params, rho: &[u8; 32], a: &mut [Poly]) {
    let total = p.k * p.l;
    debug_assert_eq!(a.len(), total);
    let mut seeds = [[0u8; 34]; 4];
    let mut start = 0;
    while start < total {
        let cnt = (total - start).min(4);
        for t in 0..cnt {
            let idx = start + t;
            seeds[t][..32].copy_from_slice(rho);
            seeds[t][32] = (idx % p.l) as u8;
            seeds[t][33] = (idx / p.l) as u8;
        }
        let seed_refs: [&[u8]; 4] = [&seeds[0], &seeds[1], &seeds[2], &seeds[3]];
        let chunk = &mut a[start..start + cnt];
        let mut outs: alloc::vec::Vec<&mut Poly> = chunk.iter_mut().collect();
        rejection_x4::<SHAKE128_RATE, 5>(kern, &seed_refs[..cnt], &mut outs, &kern.rej_uniform);
        start += cnt;
    }
}

/// ExpandS: s1 from nonces 0..l, s2 from nonces l..l+k, SHAKE256(ρ' ‖ nonce_le16).
pub fn expand_s(kern: &Kernels, p: &Params, rho_prime: &[u8; 64], s1: &mut [Poly], s2: &mut [Poly]) {
    let total = p.l + p.k;
    let eta = p.eta;
    let sampler = move |o: &mut [i32], b: &[u8]| (kern.rej_eta)(eta, o, b);
    let mut seeds = [[0u8; 66]; 4];
    let mut start = 0;
    while start < total {
        let cnt = (total - start).min(4);
        for t in 0..cnt {
            let nonce = (start + t) as u16;
            seeds[t][..64].copy_from_slice(rho_prime);
            seeds[t][64..].copy_from_slice(&nonce.to_le_bytes());
        }
        let seed_refs: [&[u8]; 4] = [&seeds[0], &seeds[1], &seeds[2], &seeds[3]];
        let mut outs: alloc::vec::Vec<&mut Poly> = s1
            .iter_mut()
            .chain(s2.iter_mut())
            .skip(start)
            .take(cnt)
            .collect();
        // η = 2 needs 136 bytes on average for 256 samples, η = 4 about 227: two blocks.
        rejection_x4::<SHAKE256_RATE, 2>(kern, &seed_refs[..cnt], &mut outs, &sampler);
        start += cnt;
    }
    wipe(&mut seeds, [[0u8; 66]; 4]);
}

/// ExpandMask: `y[r] = BitUnpack(SHAKE256(ρ'' ‖ (κ + r)_le16), γ1 − 1, γ1)`.
pub fn expand_mask(kern: &Kernels, p: &Params, rho_pp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    let bits = p.z_bits();
    let bytes = p.z_bytes();
    let mut seeds = [[0u8; 66]; 4];
    let mut bufs = [[0u8; 5 * SHAKE256_RATE]; 4];
    let mut start = 0;
    while start < p.l {
        let cnt = (p.l - start).min(4);
        if cnt == 1 {
            let nonce = kappa.wrapping_add(start as u16);
            seeds[0][..64].copy_from_slice(rho_pp);
            seeds[0][64..].copy_from_slice(&nonce.to_le_bytes());
            let mut h = Shake256::new();
            h.absorb(&seeds[0]);
            h.squeeze_blocks(&mut bufs[0][..]);
            encode::unpack_z(&bufs[0][..bytes], p.gamma1, bits, &mut y[start]);
            break;
        }
        for t in 0..4 {
            let nonce = kappa.wrapping_add((start + t.min(cnt - 1)) as u16);
            seeds[t][..64].copy_from_slice(rho_pp);
            seeds[t][64..].copy_from_slice(&nonce.to_le_bytes());
        }
        let mut st = ShakeX4::<SHAKE256_RATE>::absorb_once(
            kern.permute4,
            [&seeds[0], &seeds[1], &seeds[2], &seeds[3]],
        );
        {
            let [b0, b1, b2, b3] = &mut bufs;
            st.squeeze_blocks([&mut b0[..], &mut b1[..], &mut b2[..], &mut b3[..]], 5);
        }
        for t in 0..cnt {
            encode::unpack_z(&bufs[t][..bytes], p.gamma1, bits, &mut y[start + t]);
        }
        start += cnt;
    }
    wipe(&mut bufs, [[0u8; 5 * SHAKE256_RATE]; 4]);
    wipe(&mut seeds, [[0u8; 66]; 4]);
}

/// SampleInBall (Algorithm 29) from the whole c̃. The challenge is public once the
/// signature is output; for rejected iterations its timing reveals only c, which is
/// derived from w1 through a hash (the same declassification as the reference code).
pub fn sample_in_ball(p: &Params, ctilde: &[u8], c: &mut Poly) {
    let mut h = Shake256::new();
    h.absorb(ctilde);
    let mut buf = [0u8; SHAKE256_RATE];
    h.squeeze(&mut buf);
    let signs = u64::from_le_bytes(buf[..8].try_into().unwrap_or([0; 8]));
    let mut pos = 8;
    *c = Poly::default();
    for (k, i) in (N - p.tau..N).enumerate() {
        let j = loop {
            if pos >= SHAKE256_RATE {
                h.squeeze(&mut buf);
                pos = 0;
            }
            let b = buf[pos] as usize;
            pos += 1;
            if b <= i {
                break b;
            }
        };
        c.coeffs[i] = c.coeffs[j];
        c.coeffs[j] = 1 - 2 * ((signs >> k) & 1) as i32;
    }
}

/// Sampling seeds are one-shot SHAKE256 digests of concatenated inputs (H in FIPS 204).
pub fn h256(inputs: &[&[u8]], out: &mut [u8]) {
    crate::kernels::keccak::sponge::shake256(inputs, out)
}

