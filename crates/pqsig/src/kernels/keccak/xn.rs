//! `W` SHAKE sponges advanced in lock-step: the multi-way sponge behind
//! [`ShakeX4`](super::x4::ShakeX4) (W = 4) and [`ShakeX8`](super::x8::ShakeX8) (W = 8).
//!
//! State layout: `s[i][j]` is lane i (x + 5y) of instance j, so lane i of all `W`
//! instances is `W` consecutive 64-bit words: one 256-bit vector for W = 4, one 512-bit
//! vector for W = 8. Absorbing and squeezing are generic; only the permutation (a
//! [`PermuteN`]) is backend-specific.

use super::f1600::keccak_f1600;
use zeroize::Zeroize;

/// `W` interleaved Keccak states.
///
/// `repr(C)` with `s` its only field (so at offset 0) and 64-byte alignment for every
/// `W`: with W = 4 each `s[i]` is a 32-byte-aligned `__m256i`, with W = 8 a
/// 64-byte-aligned `__m512i` (and each of its halves a 32-byte-aligned `__m256i`). The
/// SIMD permutations rely on this layout.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct StateXN<const W: usize> {
    pub s: [[u64; W]; 25],
}

// The layout the SIMD kernels' SAFETY arguments rely on, checked at compile time.
const _: () = assert!(core::mem::offset_of!(StateXN<4>, s) == 0);
const _: () = assert!(core::mem::align_of::<StateXN<4>>() == 64);
const _: () = assert!(core::mem::offset_of!(StateXN<8>, s) == 0);
const _: () = assert!(core::mem::align_of::<StateXN<8>>() == 64);
const _: () = assert!(core::mem::size_of::<StateXN<8>>() == 25 * 64);

impl<const W: usize> Default for StateXN<W> {
    fn default() -> Self {
        StateXN { s: [[0; W]; 25] }
    }
}

/// A `W`-way Keccak-f\[1600\] permutation.
pub type PermuteN<const W: usize> = fn(&mut StateXN<W>);

/// Portable `W`-way permutation: `W` scalar permutations.
pub(crate) fn permute_portable<const W: usize>(st: &mut StateXN<W>) {
    for j in 0..W {
        let mut a: [u64; 25] = core::array::from_fn(|i| st.s[i][j]);
        keccak_f1600(&mut a);
        for (lane, w) in st.s.iter_mut().zip(a.iter()) {
            lane[j] = *w;
        }
        a.zeroize();
    }
}

/// `W` SHAKE sponges (rate `RATE` bytes, domain byte 0x1F) over equal-length inputs.
pub struct ShakeXN<const W: usize, const RATE: usize> {
    st: StateXN<W>,
    permute: PermuteN<W>,
}

impl<const W: usize, const RATE: usize> ShakeXN<W, RATE> {
    /// Absorbs `W` inputs in one go and pads them. Their lengths may differ as long as
    /// they have the same number of whole blocks (`len / RATE`), e.g. all shorter than
    /// one block; each input is padded at its own end.
    pub fn absorb_once(permute: PermuteN<W>, inputs: [&[u8]; W]) -> Self {
        let len = inputs[0].len();
        debug_assert!(inputs.iter().all(|x| x.len() / RATE == len / RATE));
        let mut st = StateXN::default();
        let mut off = 0;
        // Whole blocks.
        while len - off >= RATE {
            for (j, inp) in inputs.iter().enumerate() {
                let block = inp[off..off + RATE].chunks_exact(8);
                for (lane, c) in st.s.iter_mut().zip(block) {
                    lane[j] ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
                }
            }
            permute(&mut st);
            off += RATE;
        }
        // Final partial block with padding: whole lanes, then the tail bytes of one lane.
        for (j, inp) in inputs.iter().enumerate() {
            let k = inp.len() - off;
            let words = inp[off..].chunks_exact(8);
            let tail = words.remainder();
            for (lane, c) in st.s.iter_mut().zip(words) {
                lane[j] ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            }
            let mut last = [0u8; 8];
            last[..tail.len()].copy_from_slice(tail);
            st.s[k / 8][j] ^= u64::from_le_bytes(last);
            st.s[k / 8][j] ^= 0x1F << (8 * (k % 8));
            st.s[(RATE - 1) / 8][j] ^= 0x80 << (8 * ((RATE - 1) % 8));
        }
        ShakeXN { st, permute }
    }

    /// Squeezes one block and hands each instance's block to `f` as its `RATE / 8`
    /// lanes (little-endian 64-bit words of the output stream), instance by instance.
    pub fn squeeze_lanes_each(&mut self, mut f: impl FnMut(usize, &[u64])) {
        (self.permute)(&mut self.st);
        let mut lanes = [0u64; 25];
        for j in 0..W {
            for (l, lane) in lanes.iter_mut().zip(self.st.s.iter()).take(RATE / 8) {
                *l = lane[j];
            }
            f(j, &lanes[..RATE / 8]);
        }
        lanes.zeroize();
    }

    /// Squeezes `nblocks` blocks into each output (each `out[j].len() >= nblocks*RATE`).
    pub fn squeeze_blocks(&mut self, out: [&mut [u8]; W], nblocks: usize) {
        self.squeeze_blocks_around(out, nblocks, &mut ());
    }

    /// [`Self::squeeze_blocks`] with `around` called before and after each permutation
    /// (a [`Rider`] carries another sponge in a lane whose output the caller ignores).
    pub(crate) fn squeeze_blocks_around(
        &mut self,
        mut out: [&mut [u8]; W],
        nblocks: usize,
        around: &mut impl AroundPermute<W>,
    ) {
        for blk in 0..nblocks {
            // The first permutation after absorbing is deferred to here.
            around.before(&mut self.st);
            (self.permute)(&mut self.st);
            around.after(&self.st);
            for (j, o) in out.iter_mut().enumerate() {
                let o = &mut o[blk * RATE..(blk + 1) * RATE];
                for (c, lane) in o.chunks_exact_mut(8).zip(self.st.s.iter()) {
                    c.copy_from_slice(&lane[j].to_le_bytes());
                }
            }
        }
    }
}

/// Work on a multi-way state around each of its permutations.
pub(crate) trait AroundPermute<const W: usize> {
    /// Called just before a permutation.
    fn before(&mut self, st: &mut StateXN<W>);
    /// Called just after it.
    fn after(&mut self, st: &StateXN<W>);
}

/// Nothing around the permutations.
impl<const W: usize> AroundPermute<W> for () {
    #[inline(always)]
    fn before(&mut self, _: &mut StateXN<W>) {}
    #[inline(always)]
    fn after(&mut self, _: &StateXN<W>) {}
}

/// A one-way SHAKE sponge (rate `RATE`) over a public input of any length, absorbed one
/// block per permutation of a multi-way sponge in whose last lane it rides: the
/// multi-way squeezes of a group that leaves that lane unused hash it for free. ML-DSA
/// decodes a public key this way, H(pk) riding in ExpandA's spare lanes (10–20 blocks
/// that would otherwise be as many one-way permutations).
///
/// Before each permutation the next block (the last one padded, 0x1F … 0x80) is XORed
/// into the rider's own state, which is copied into the lane; after it the lane is
/// copied back. Once all `len / RATE + 1` blocks are in, the lane is left alone and its
/// further output is garbage the caller ignores; [`Rider::output`] is the first squeezed
/// block. [`Rider::finish`] runs what is left one-way, for when the groups run out first.
pub(crate) struct Rider<'a, const RATE: usize> {
    state: [u64; 25],
    data: &'a [u8],
    done: usize,
}

impl<'a, const RATE: usize> Rider<'a, RATE> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Rider {
            state: [0; 25],
            data,
            done: 0,
        }
    }

    /// Whether every block has been absorbed and permuted.
    pub(crate) fn is_done(&self) -> bool {
        self.done == self.data.len() / RATE + 1
    }

    /// XORs the next block into the state (the final one padded).
    fn absorb_next(&mut self) {
        let off = self.done * RATE;
        let rest = &self.data[off..];
        if rest.len() >= RATE {
            for (w, c) in self.state.iter_mut().zip(rest[..RATE].chunks_exact(8)) {
                *w ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            }
            return;
        }
        let k = rest.len();
        let words = rest.chunks_exact(8);
        let tail = words.remainder();
        for (w, c) in self.state.iter_mut().zip(words) {
            *w ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        }
        let mut last = [0u8; 8];
        last[..tail.len()].copy_from_slice(tail);
        self.state[k / 8] ^= u64::from_le_bytes(last) ^ (0x1F << (8 * (k % 8)));
        self.state[(RATE - 1) / 8] ^= 0x80 << (8 * ((RATE - 1) % 8));
    }

    /// Absorbs and permutes whatever is left with the one-way permutation `permute1`.
    pub(crate) fn finish(&mut self, permute1: super::f1600::Permute1) {
        while !self.is_done() {
            self.absorb_next();
            permute1(&mut self.state);
            self.done += 1;
        }
    }

    /// The first output block (`RATE / 8` little-endian words); meaningful once
    /// [`Self::is_done`].
    pub(crate) fn output(&self) -> &[u64] {
        debug_assert!(self.is_done());
        &self.state[..RATE / 8]
    }
}

/// The rider may hash secret-dependent input (the signing loop's w1): wiped like a sponge.
impl<const RATE: usize> Drop for Rider<'_, RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

impl<const W: usize, const RATE: usize> AroundPermute<W> for Rider<'_, RATE> {
    #[inline]
    fn before(&mut self, st: &mut StateXN<W>) {
        if !self.is_done() {
            self.absorb_next();
            for (lane, w) in st.s.iter_mut().zip(self.state.iter()) {
                lane[W - 1] = *w;
            }
        }
    }
    #[inline]
    fn after(&mut self, st: &StateXN<W>) {
        if !self.is_done() {
            for (w, lane) in self.state.iter_mut().zip(st.s.iter()) {
                *w = lane[W - 1];
            }
            self.done += 1;
        }
    }
}

impl<const W: usize, const RATE: usize> Drop for ShakeXN<W, RATE> {
    fn drop(&mut self) {
        self.st.s.zeroize();
    }
}

/// Test helper of the four- and eight-way modules: `W` inputs of length `len` (distinct
/// per lane) through `ShakeXN<W, R>` with `permute` (the permutation of backend `b`),
/// three blocks squeezed from each, against `W` single sponges.
#[cfg(test)]
pub(super) fn check_against_single<const W: usize, const R: usize>(
    permute: PermuteN<W>,
    b: crate::kernels::select::Backend,
    len: usize,
) {
    use super::sponge::{Shake128, Shake256};
    use alloc::vec::Vec;

    // Lane j's length: `len`'s whole blocks and a tail of its own (absorb_once takes
    // uneven lengths with equal block counts).
    let inputs: [Vec<u8>; W] = core::array::from_fn(|j| {
        let lj = len / R * R + (len % R + 5 * j) % R;
        (0..lj).map(|i| (i * 31 + j * 101 + 7) as u8).collect()
    });
    let mut xn = ShakeXN::<W, R>::absorb_once(permute, core::array::from_fn(|j| &inputs[j][..]));
    let mut outs = [[0u8; 3 * 168]; W];
    xn.squeeze_blocks(outs.each_mut().map(|o| &mut o[..]), 3);
    for (j, (inp, got)) in inputs.iter().zip(outs.iter()).enumerate() {
        let mut want = alloc::vec![0u8; 3 * R];
        if R == 168 {
            let mut h = Shake128::new();
            h.absorb(inp);
            h.squeeze(&mut want);
        } else {
            let mut h = Shake256::new();
            h.absorb(inp);
            h.squeeze(&mut want);
        }
        assert_eq!(&got[..3 * R], &want[..], "backend {b:?} len {len} lane {j}");
    }
    // The same through `squeeze_lanes_each`.
    let mut xn = ShakeXN::<W, R>::absorb_once(permute, core::array::from_fn(|j| &inputs[j][..]));
    let mut lanes_out = [[0u8; 168]; W];
    xn.squeeze_lanes_each(|j, lanes| {
        for (c, l) in lanes_out[j].chunks_exact_mut(8).zip(lanes) {
            c.copy_from_slice(&l.to_le_bytes());
        }
    });
    for j in 0..W {
        assert_eq!(
            &lanes_out[j][..R],
            &outs[j][..R],
            "lanes, backend {b:?} len {len} lane {j}"
        );
    }
}
