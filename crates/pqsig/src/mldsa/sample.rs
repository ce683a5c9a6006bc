//! ExpandA, ExpandS, ExpandMask and SampleInBall (FIPS 204 Algorithms 29–34), built on
//! the multi-way SHAKE sponges (eight-, four- and one-way) and the rejection kernels of
//! the active backend.
//!
//! The polynomials of ExpandA, ExpandS and ExpandMask come from independent SHAKE streams
//! with equal-length seeds, so they are generated in groups (`group_len`): eight at a
//! time ([`ShakeX8`]) while at least five remain, the last two to four together
//! ([`ShakeX4`]), and a last single one alone. A group smaller than its sponge repeats
//! its last seed in the spare lanes and discards their output. The one exception: where
//! the eight-way permutation is two four-way ones or eight one-way ones (portable, avx2),
//! five polynomials are a group of four and a single one, which is cheaper than padding
//! three lanes.
//!
//! Groups for ML-DSA-44 / 65 / 87: ExpandA (k·l = 16 / 30 / 56) 8+8 / 8+8+8+6 / 7×8,
//! ExpandS (k + l = 8 / 11 / 15) 8 / 8+3 / 8+7, ExpandMask (l = 4 / 5 / 7) 4 / 5 or 4+1 /
//! 7.

use super::params::Params;
use crate::kernels::keccak::sponge::{Shake, Shake256, SHAKE128_RATE, SHAKE256_RATE};
use crate::kernels::keccak::x4::ShakeX4;
use crate::kernels::keccak::x8::ShakeX8;
use crate::kernels::keccak::xn::Rider;
use crate::kernels::mldsa::{Kernels, Poly, N};
use crate::kernels::select::Backend;
use crate::wipe::wipe;

/// `W` SHAKE streams (rate [`Self::RATE`]) absorbed together and squeezed block by block:
/// the single sponge (`W` = 1) and the four- and eight-way ones with the kernel table's
/// permutation.
trait ShakeLanes<const W: usize> {
    const RATE: usize;
    /// Absorbs `W` equal-length seeds.
    fn absorb(kern: &Kernels, seeds: [&[u8]; W]) -> Self;
    /// Squeezes `nblocks` blocks into each `out[j]` (length ≥ `nblocks · RATE`).
    fn squeeze(&mut self, out: [&mut [u8]; W], nblocks: usize);
    /// [`Self::squeeze`] with `rider` (if any, and not done) carried in the last lane,
    /// whose output the caller then ignores. The one-way sponge has no lane to spare:
    /// [`rejection`] never gives it a rider.
    fn squeeze_riding(&mut self, out: [&mut [u8]; W], nblocks: usize, rider: Option<&mut HRider>) {
        debug_assert!(rider.is_none_or(|r| r.is_done()));
        self.squeeze(out, nblocks);
    }
}

/// H(pk) riding in ExpandA's spare lane ([`expand_a_hashing`]).
pub(crate) type HRider<'a> = Rider<'a, SHAKE256_RATE>;

impl<const RATE: usize> ShakeLanes<1> for Shake<RATE> {
    const RATE: usize = RATE;
    fn absorb(kern: &Kernels, [seed]: [&[u8]; 1]) -> Self {
        let mut h = Shake::<RATE>::new().with_permutation(kern.permute1);
        h.absorb(seed);
        h
    }
    fn squeeze(&mut self, [out]: [&mut [u8]; 1], nblocks: usize) {
        self.squeeze_blocks(&mut out[..nblocks * RATE]);
    }
}

impl<const RATE: usize> ShakeLanes<4> for ShakeX4<RATE> {
    const RATE: usize = RATE;
    fn absorb(kern: &Kernels, seeds: [&[u8]; 4]) -> Self {
        ShakeX4::absorb_once(kern.permute4, seeds)
    }
    fn squeeze(&mut self, out: [&mut [u8]; 4], nblocks: usize) {
        self.squeeze_blocks(out, nblocks);
    }
    fn squeeze_riding(&mut self, out: [&mut [u8]; 4], nblocks: usize, rider: Option<&mut HRider>) {
        match rider {
            Some(r) if !r.is_done() => self.squeeze_blocks_around(out, nblocks, r),
            _ => self.squeeze_blocks(out, nblocks),
        }
    }
}

impl<const RATE: usize> ShakeLanes<8> for ShakeX8<RATE> {
    const RATE: usize = RATE;
    fn absorb(kern: &Kernels, seeds: [&[u8]; 8]) -> Self {
        ShakeX8::absorb_once(kern.permute8, seeds)
    }
    fn squeeze(&mut self, out: [&mut [u8]; 8], nblocks: usize) {
        self.squeeze_blocks(out, nblocks);
    }
    fn squeeze_riding(&mut self, out: [&mut [u8]; 8], nblocks: usize, rider: Option<&mut HRider>) {
        match rider {
            Some(r) if !r.is_done() => self.squeeze_blocks_around(out, nblocks, r),
            _ => self.squeeze_blocks(out, nblocks),
        }
    }
}

/// How many of `remaining` polynomials the next group takes; the sponge is then chosen
/// by the group size: 5–8 → eight-way, 2–4 → four-way, 1 → one-way (see the module docs).
fn group_len(kern: &Kernels, remaining: usize) -> usize {
    match remaining {
        5 if !kern.permute8_native => 4,
        r => r.min(8),
    }
}

/// A group's seeds in `W` lanes: `seeds` (1 to `W` entries), the last one repeated.
fn lanes<'a, const W: usize>(seeds: &[&'a [u8]]) -> [&'a [u8]; W] {
    debug_assert!((1..=W).contains(&seeds.len()));
    core::array::from_fn(|j| seeds[j.min(seeds.len() - 1)])
}

/// Byte buffer per lane: up to five SHAKE128 blocks (ExpandA's first squeeze; ExpandS
/// and ExpandMask squeeze at most five SHAKE256 blocks, which are shorter).
const BUF: usize = 5 * SHAKE128_RATE;

/// Runs a rejection sampler over the group's streams (1 to 8 seeds of equal length, one
/// output polynomial each) until every polynomial is full: `FIRST` blocks are squeezed
/// up front, then one block at a time while some polynomial still needs samples.
/// `SECRET`: the squeezed bytes are wiped afterwards (ExpandS); ExpandA's are public (its
/// seed ρ is the public key's first field), so it skips the wipe.
/// `rider`, if given and not done, rides in the sponge's last lane: the group then takes
/// a sponge with a lane to spare (at most seven seeds).
pub(crate) fn rejection<const RATE: usize, const FIRST: usize, const SECRET: bool>(
    kern: &Kernels,
    seeds: &[&[u8]],
    out: &mut [&mut Poly],
    sampler: &dyn Fn(&mut [i32], &[u8]) -> usize,
    rider: Option<&mut HRider>,
) {
    let rider = rider.filter(|r| !r.is_done());
    debug_assert!(rider.is_none() || seeds.len() < 8);
    match seeds.len() + rider.is_some() as usize {
        1 => rejection_lanes::<Shake<RATE>, 1, FIRST, SECRET>(kern, seeds, out, sampler, rider),
        2..=4 => {
            rejection_lanes::<ShakeX4<RATE>, 4, FIRST, SECRET>(kern, seeds, out, sampler, rider)
        }
        _ => rejection_lanes::<ShakeX8<RATE>, 8, FIRST, SECRET>(kern, seeds, out, sampler, rider),
    }
}

/// [`rejection`] on a `W`-way sponge.
fn rejection_lanes<S: ShakeLanes<W>, const W: usize, const FIRST: usize, const SECRET: bool>(
    kern: &Kernels,
    seeds: &[&[u8]],
    out: &mut [&mut Poly],
    sampler: &dyn Fn(&mut [i32], &[u8]) -> usize,
    mut rider: Option<&mut HRider>,
) {
    let n = seeds.len();
    debug_assert!(out.len() == n && FIRST * S::RATE <= BUF);
    let mut st = S::absorb(kern, lanes(seeds));
    let mut bufs = [[0u8; BUF]; W];
    let first = FIRST * S::RATE;
    st.squeeze_riding(
        bufs.each_mut().map(|b| &mut b[..first]),
        FIRST,
        rider.as_deref_mut(),
    );
    let mut ctr = [0usize; W];
    for j in 0..n {
        ctr[j] = sampler(&mut out[j].coeffs[..], &bufs[j][..first]);
    }
    // Rare: more output needed. Declassified: how many blocks a lane consumed.
    while ctr[..n].iter().any(|&c| c < N) {
        st.squeeze_riding(
            bufs.each_mut().map(|b| &mut b[..S::RATE]),
            1,
            rider.as_deref_mut(),
        );
        for j in 0..n {
            if ctr[j] < N {
                ctr[j] += sampler(&mut out[j].coeffs[ctr[j]..], &bufs[j][..S::RATE]);
            }
        }
    }
    // The squeezed bytes are secret for ExpandS (public for ExpandA).
    if SECRET {
        wipe(&mut bufs, [[0u8; BUF]; W]);
    }
}

/// ExpandA: `a[i·l + j] = RejNTTPoly(ρ ‖ j ‖ i)`, up to eight polynomials per group.
pub fn expand_a(kern: &Kernels, p: &Params, rho: &[u8; 32], a: &mut [Poly]) {
    expand_a_riding(kern, p, rho, a, None);
}

/// ExpandA and tr = H(pk, 64) together, for decoding a public key: H(pk) rides in the
/// last lane of ExpandA's groups (seven polynomials and H(pk) per eight-way group until
/// its 10 / 15 / 20 blocks are in; what the groups leave is finished one-way). On
/// avx512 that replaces 10–20 one-way permutations by one more group at most.
pub fn expand_a_hashing(
    kern: &Kernels,
    p: &Params,
    rho: &[u8; 32],
    pk: &[u8],
    a: &mut [Poly],
    tr: &mut [u8; 64],
) {
    if !lanes_are_free(kern) {
        expand_a(kern, p, rho, a);
        return h256(kern, &[pk], tr);
    }
    let mut rider = HRider::new(pk);
    expand_a_riding(kern, p, rho, a, Some(&mut rider));
    rider.finish(kern.permute1);
    for (o, w) in tr.chunks_exact_mut(8).zip(rider.output()) {
        o.copy_from_slice(&w.to_le_bytes());
    }
}

fn expand_a_riding(
    kern: &Kernels,
    p: &Params,
    rho: &[u8; 32],
    a: &mut [Poly],
    mut rider: Option<&mut HRider>,
) {
    let total = p.k * p.l;
    debug_assert_eq!(a.len(), total);
    let mut seeds = [[0u8; 34]; 8];
    let mut start = 0;
    while start < total {
        let riding = rider.as_ref().is_some_and(|r| !r.is_done());
        let cnt = if riding {
            (total - start).min(7)
        } else {
            group_len(kern, total - start)
        };
        for (t, seed) in seeds[..cnt].iter_mut().enumerate() {
            let idx = start + t;
            seed[..32].copy_from_slice(rho);
            seed[32] = (idx % p.l) as u8;
            seed[33] = (idx / p.l) as u8;
        }
        let seed_refs = seeds.each_ref().map(|s| &s[..]);
        let mut outs: alloc::vec::Vec<&mut Poly> = a[start..start + cnt].iter_mut().collect();
        rejection::<SHAKE128_RATE, 5, false>(
            kern,
            &seed_refs[..cnt],
            &mut outs,
            &kern.rej_uniform,
            rider.as_deref_mut(),
        );
        start += cnt;
    }
}

/// ExpandS: s1 from nonces 0..l, s2 from nonces l..l+k, SHAKE256(ρ' ‖ nonce_le16).
pub fn expand_s(
    kern: &Kernels,
    p: &Params,
    rho_prime: &[u8; 64],
    s1: &mut [Poly],
    s2: &mut [Poly],
) {
    let total = p.l + p.k;
    let eta = p.eta;
    let sampler = move |o: &mut [i32], b: &[u8]| (kern.rej_eta)(eta, o, b);
    let mut seeds = [[0u8; 66]; 8];
    let mut start = 0;
    while start < total {
        let cnt = group_len(kern, total - start);
        for (t, seed) in seeds[..cnt].iter_mut().enumerate() {
            let nonce = (start + t) as u16;
            seed[..64].copy_from_slice(rho_prime);
            seed[64..].copy_from_slice(&nonce.to_le_bytes());
        }
        let seed_refs = seeds.each_ref().map(|s| &s[..]);
        let mut outs: alloc::vec::Vec<&mut Poly> = s1
            .iter_mut()
            .chain(s2.iter_mut())
            .skip(start)
            .take(cnt)
            .collect();
        // η = 2 needs 136 bytes on average for 256 samples, η = 4 about 227: two blocks.
        rejection::<SHAKE256_RATE, 2, true>(kern, &seed_refs[..cnt], &mut outs, &sampler, None);
        start += cnt;
    }
    wipe(&mut seeds, [[0u8; 66]; 8]);
}

/// ExpandMask: `y[r] = BitUnpack(SHAKE256(ρ'' ‖ (κ + r)_le16), γ1 − 1, γ1)`, grouped like
/// ExpandA and ExpandS.
pub fn expand_mask(kern: &Kernels, p: &Params, rho_pp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    expand_mask_riding(kern, p, rho_pp, kappa, y, None);
}

/// ExpandMask and `out` = H(`hin`) together: the signing loop hashes c̃ = H(μ ‖ w1) of
/// one iteration while it expands the next iteration's y (7–9 blocks riding in the
/// spare lane of ExpandMask's group, the rest one-way). The rider takes a lane only
/// where that costs no more permutation work: where the group's sponge has a spare lane
/// anyway, or the eight-way permutation is native (avx512: eight states cost about what
/// four do).
pub fn expand_mask_hashing(
    kern: &Kernels,
    p: &Params,
    rho_pp: &[u8; 64],
    kappa: u16,
    y: &mut [Poly],
    hin: &[u8],
    out: &mut [u8],
) {
    debug_assert!(out.len() <= SHAKE256_RATE);
    let mut rider = HRider::new(hin);
    expand_mask_riding(kern, p, rho_pp, kappa, y, Some(&mut rider));
    rider.finish(kern.permute1);
    let mut block = [0u8; SHAKE256_RATE];
    for (o, w) in block.chunks_exact_mut(8).zip(rider.output()) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    out.copy_from_slice(&block[..out.len()]);
    wipe(&mut block, [0u8; SHAKE256_RATE]);
}

/// Whether a group of ExpandMask gives a rider a lane at no extra permutation work (the
/// test [`expand_mask_riding`] applies): with a native eight-way permutation (avx512)
/// always, elsewhere where a group leaves a lane of its sponge spare (ML-DSA-87's seven).
pub(crate) fn mask_rides(kern: &Kernels, p: &Params) -> bool {
    let mut start = 0;
    while start < p.l {
        let cnt = group_len(kern, p.l - start);
        if group_has_spare_lane(kern, cnt) {
            return true;
        }
        start += cnt;
    }
    false
}

/// Whether a group of `cnt` streams can take a rider without a wider sponge than it
/// would use alone (or the wider one costs no more: native eight-way).
fn group_has_spare_lane(kern: &Kernels, cnt: usize) -> bool {
    lanes_are_free(kern) && (!matches!(cnt, 1 | 4 | 8) || (kern.permute8_native && cnt < 8))
}

/// Whether the multi-way permutations are vector kernels, so that a lane costs nothing
/// by itself (avx2, avx512). Portable ones are one scalar permutation per lane: there a
/// rider saves nothing over hashing one-way, and can cost a wider group.
fn lanes_are_free(kern: &Kernels) -> bool {
    matches!(kern.backend, Backend::Avx2 | Backend::Avx512)
}

fn expand_mask_riding(
    kern: &Kernels,
    p: &Params,
    rho_pp: &[u8; 64],
    kappa: u16,
    y: &mut [Poly],
    mut rider: Option<&mut HRider>,
) {
    let mut seeds = [[0u8; 66]; 8];
    let mut start = 0;
    while start < p.l {
        let cnt = group_len(kern, p.l - start);
        for (t, seed) in seeds[..cnt].iter_mut().enumerate() {
            let nonce = kappa.wrapping_add((start + t) as u16);
            seed[..64].copy_from_slice(rho_pp);
            seed[64..].copy_from_slice(&nonce.to_le_bytes());
        }
        let seed_refs = seeds.each_ref().map(|s| &s[..]);
        let (group, out) = (&seed_refs[..cnt], &mut y[start..start + cnt]);
        let spare = group_has_spare_lane(kern, cnt);
        let r = rider.as_deref_mut().filter(|r| spare && !r.is_done());
        match cnt + r.is_some() as usize {
            1 => mask_lanes::<Shake<SHAKE256_RATE>, 1>(kern, p, group, out, None),
            2..=4 => mask_lanes::<ShakeX4<SHAKE256_RATE>, 4>(kern, p, group, out, r),
            _ => mask_lanes::<ShakeX8<SHAKE256_RATE>, 8>(kern, p, group, out, r),
        }
        start += cnt;
    }
    wipe(&mut seeds, [[0u8; 66]; 8]);
}

/// [`expand_mask`] for one group of 1 to `W` polynomials on a `W`-way SHAKE256, with
/// `rider` in the last lane if given (then at most `W − 1` polynomials).
fn mask_lanes<S: ShakeLanes<W>, const W: usize>(
    kern: &Kernels,
    p: &Params,
    seeds: &[&[u8]],
    y: &mut [Poly],
    rider: Option<&mut HRider>,
) {
    // Five blocks (680 bytes) cover the 576 or 640 bytes of one packed y.
    const BLOCKS: usize = 5;
    debug_assert!(y.len() == seeds.len() && p.z_bytes() <= BLOCKS * SHAKE256_RATE);
    debug_assert!(rider.is_none() || seeds.len() < W);
    let mut st = S::absorb(kern, lanes(seeds));
    let mut bufs = [[0u8; BLOCKS * SHAKE256_RATE]; W];
    st.squeeze_riding(bufs.each_mut().map(|b| &mut b[..]), BLOCKS, rider);
    for (b, y) in bufs.iter().zip(y.iter_mut()) {
        (kern.unpack_z)(&b[..p.z_bytes()], p.gamma1, p.z_bits(), y);
    }
    wipe(&mut bufs, [[0u8; BLOCKS * SHAKE256_RATE]; W]);
}

/// SampleInBall (Algorithm 29) from the whole c̃. The challenge is public once the
/// signature is output; for rejected iterations its timing reveals only c, which is
/// derived from w1 through a hash (the same declassification as the reference code).
pub fn sample_in_ball(kern: &Kernels, p: &Params, ctilde: &[u8], c: &mut Poly) {
    let mut h = Shake256::new().with_permutation(kern.permute1);
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

/// SampleInBall from the first SHAKE256 block of c̃ (squeezed elsewhere, e.g. by
/// [`h256_many`] across signatures). `None` in the rare case that one block does not hold
/// enough accepted positions; the caller then runs [`sample_in_ball`] (same result).
#[cfg(feature = "std")] // the batch engine's
pub(crate) fn sample_in_ball_from_block(
    p: &Params,
    block: &[u8; SHAKE256_RATE],
    c: &mut Poly,
) -> Option<()> {
    let signs = u64::from_le_bytes(block[..8].try_into().unwrap_or([0; 8]));
    let mut pos = 8;
    *c = Poly::default();
    for (k, i) in (N - p.tau..N).enumerate() {
        let j = loop {
            let b = *block.get(pos)? as usize;
            pos += 1;
            if b <= i {
                break b;
            }
        };
        c.coeffs[i] = c.coeffs[j];
        c.coeffs[j] = 1 - 2 * ((signs >> k) & 1) as i32;
    }
    Some(())
}

/// Sampling seeds are one-shot SHAKE256 digests of concatenated inputs (H in FIPS 204).
pub fn h256(kern: &Kernels, inputs: &[&[u8]], out: &mut [u8]) {
    crate::kernels::keccak::sponge::shake256_on(kern.permute1, inputs, out)
}

/// One SHAKE256 block of each of many equal-length inputs: `outs[i]` = the first
/// 136 bytes of H(`inputs[i]`). Runs eight-way, then four-way, then one-way, like the
/// samplers' groups: the batch engine hashes the single-stream values of many
/// signatures (tr, μ, c̃, SampleInBall) this way. Public data only (no wiping).
#[cfg(feature = "std")] // the batch engine's
pub(crate) fn h256_many(kern: &Kernels, inputs: &[&[u8]], outs: &mut [[u8; SHAKE256_RATE]]) {
    debug_assert_eq!(inputs.len(), outs.len());
    let mut start = 0;
    while start < inputs.len() {
        let cnt = group_len(kern, inputs.len() - start);
        let group = &inputs[start..start + cnt];
        let out = &mut outs[start..start + cnt];
        match cnt {
            1 => {
                let mut h = Shake256::new().with_permutation(kern.permute1);
                h.absorb(group[0]);
                h.squeeze_blocks(&mut out[0]);
            }
            2..=4 => {
                let mut st = ShakeX4::<SHAKE256_RATE>::absorb_once(kern.permute4, lanes(group));
                let mut spare = [[0u8; SHAKE256_RATE]; 4];
                let mut refs = spare.each_mut().map(|b| &mut b[..]);
                for (r, o) in refs.iter_mut().zip(out.iter_mut()) {
                    *r = &mut o[..];
                }
                st.squeeze_blocks(refs, 1);
            }
            _ => {
                let mut st = ShakeX8::<SHAKE256_RATE>::absorb_once(kern.permute8, lanes(group));
                let mut spare = [[0u8; SHAKE256_RATE]; 8];
                let mut refs = spare.each_mut().map(|b| &mut b[..]);
                for (r, o) in refs.iter_mut().zip(out.iter_mut()) {
                    *r = &mut o[..];
                }
                st.squeeze_blocks(refs, 1);
            }
        }
        start += cnt;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::mldsa::kernels;
    use crate::kernels::select::Backend;
    use crate::mldsa::encode;
    use crate::mldsa::params::ParamSet;
    use alloc::vec;

    /// One polynomial on its own: `seed` through a one-way sponge, one block at a time,
    /// into the portable sampler until the polynomial is full.
    fn one<const RATE: usize>(seed: &[u8], sampler: &dyn Fn(&mut [i32], &[u8]) -> usize) -> Poly {
        let mut h = Shake::<RATE>::new();
        h.absorb(seed);
        let mut out = Poly::default();
        let mut ctr = 0;
        let mut block = [0u8; RATE];
        while ctr < N {
            h.squeeze_blocks(&mut block);
            ctr += sampler(&mut out.coeffs[ctr..], &block);
        }
        out
    }

    /// ExpandA, ExpandS and ExpandMask of every backend, with both ways of grouping five
    /// polynomials, for every group size (matrix and vector shapes beyond the parameter
    /// sets' own), against one polynomial at a time.
    #[test]
    fn groups_match_one_polynomial_at_a_time() {
        let port = kernels(Backend::Portable);
        let rho: [u8; 32] = core::array::from_fn(|i| (7 * i + 1) as u8);
        let rho64: [u8; 64] = core::array::from_fn(|i| (13 * i + 5) as u8);
        for b in Backend::available() {
            for native in [false, true] {
                let kern = Kernels {
                    permute8_native: native,
                    ..*kernels(b)
                };
                for ps in ParamSet::ALL {
                    for (k, l) in (1..=3).flat_map(|k| (1..=9).map(move |l| (k, l))) {
                        let p = Params {
                            k,
                            l,
                            ..*ps.params()
                        };
                        let what =
                            alloc::format!("{b:?} native {native} {} k {k} l {l}", ps.name());

                        let mut a = vec![Poly::default(); k * l];
                        expand_a(&kern, &p, &rho, &mut a);
                        for (idx, got) in a.iter().enumerate() {
                            let mut seed = [0u8; 34];
                            seed[..32].copy_from_slice(&rho);
                            seed[32] = (idx % l) as u8;
                            seed[33] = (idx / l) as u8;
                            let want = one::<SHAKE128_RATE>(&seed, &port.rej_uniform);
                            assert_eq!(got, &want, "ExpandA {what} poly {idx}");
                        }

                        // The same with H(pk) riding along, for public keys of lengths
                        // around block boundaries and the three real ones.
                        let lens = [0, 1, 135, 136, 137, 271, 272, 1312, 1952, 2592];
                        let pk: alloc::vec::Vec<u8> = (0..lens[(k * 9 + l) % lens.len()])
                            .map(|i| (i * 31 + k + l) as u8)
                            .collect();
                        let (mut a2, mut tr) = (vec![Poly::default(); k * l], [0u8; 64]);
                        expand_a_hashing(&kern, &p, &rho, &pk, &mut a2, &mut tr);
                        assert_eq!(a2, a, "ExpandA riding {what}");
                        let mut want = [0u8; 64];
                        crate::kernels::keccak::sponge::shake256(&[&pk], &mut want);
                        assert_eq!(tr, want, "H(pk) riding {what}, |pk| {}", pk.len());

                        let (mut s1, mut s2) = (vec![Poly::default(); l], vec![Poly::default(); k]);
                        expand_s(&kern, &p, &rho64, &mut s1, &mut s2);
                        let eta = move |o: &mut [i32], b: &[u8]| (port.rej_eta)(p.eta, o, b);
                        for (nonce, got) in s1.iter().chain(s2.iter()).enumerate() {
                            let mut seed = [0u8; 66];
                            seed[..64].copy_from_slice(&rho64);
                            seed[64..].copy_from_slice(&(nonce as u16).to_le_bytes());
                            let want = one::<SHAKE256_RATE>(&seed, &eta);
                            assert_eq!(got, &want, "ExpandS {what} poly {nonce}");
                        }

                        let kappa = 0xFFFE; // nonces wrap around
                        let mut y = vec![Poly::default(); l];
                        expand_mask(&kern, &p, &rho64, kappa, &mut y);
                        for (r, got) in y.iter().enumerate() {
                            let mut seed = [0u8; 66];
                            seed[..64].copy_from_slice(&rho64);
                            seed[64..].copy_from_slice(&kappa.wrapping_add(r as u16).to_le_bytes());
                            let mut buf = vec![0u8; p.z_bytes()];
                            let mut h = Shake256::new();
                            h.absorb(&seed);
                            h.squeeze(&mut buf);
                            let mut want = Poly::default();
                            encode::unpack_z(&buf, p.gamma1, p.z_bits(), &mut want);
                            assert_eq!(got, &want, "ExpandMask {what} poly {r}");
                        }

                        // The same with a hash riding along (the signing loop's c̃).
                        let hin: alloc::vec::Vec<u8> = (0..lens[(k * 7 + l) % lens.len()])
                            .map(|i| (i * 17 + k) as u8)
                            .collect();
                        let (mut y2, mut ct) = (vec![Poly::default(); l], [0u8; 48]);
                        expand_mask_hashing(&kern, &p, &rho64, kappa, &mut y2, &hin, &mut ct);
                        assert_eq!(y2, y, "ExpandMask riding {what}");
                        let mut want = [0u8; 48];
                        crate::kernels::keccak::sponge::shake256(&[&hin], &mut want);
                        assert_eq!(ct, want, "c̃ riding {what}, |in| {}", hin.len());
                    }
                }
            }
        }
    }
}
