//! Incremental sponges over one Keccak state: SHAKE128, SHAKE256, SHA3-224/256/384/512.
//!
//! The permutation is the process-wide backend's ([`keccak_f1600_active`]) unless one is
//! given with [`Sponge::with_permutation`]; every backend's gives the same result.

use super::f1600::{keccak_f1600_active, Permute1};
use zeroize::Zeroize;

pub const SHAKE128_RATE: usize = 168;
pub const SHAKE256_RATE: usize = 136;

/// Something computing Keccak-f\[1600\] on one state (see
/// [`Sponge::squeeze_lanes_permuting`]).
pub(crate) trait KeccakPermutation {
    fn permute(&mut self, s: &mut [u64; 25]);
}

/// A permutation function.
impl KeccakPermutation for Permute1 {
    #[inline(always)]
    fn permute(&mut self, s: &mut [u64; 25]) {
        self(s)
    }
}

/// A Keccak sponge with byte-granular absorb and squeeze. `RATE` in bytes.
#[derive(Clone)]
pub struct Sponge<const RATE: usize, const DS: u8> {
    state: [u64; 25],
    /// The one-state permutation.
    permute: Permute1,
    /// Absorb: bytes absorbed into the current block. Squeeze: bytes of the current
    /// block already output.
    pos: usize,
    squeezing: bool,
}

impl<const RATE: usize, const DS: u8> Default for Sponge<RATE, DS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const RATE: usize, const DS: u8> Sponge<RATE, DS> {
    pub const RATE: usize = RATE;

    pub const fn new() -> Self {
        Sponge {
            state: [0; 25],
            permute: keccak_f1600_active,
            pos: 0,
            squeezing: false,
        }
    }

    /// The same sponge permuting with `p` (e.g. `f1600::permute1_for(backend)`), to pin
    /// a backend independently of the process-wide one.
    pub fn with_permutation(mut self, p: Permute1) -> Self {
        self.permute = p;
        self
    }

    #[inline]
    fn keccak_f1600(&mut self) {
        (self.permute)(&mut self.state)
    }

    #[inline]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i / 8] ^= (b as u64) << (8 * (i % 8));
    }

    /// Absorbs `data`. Must not be called after squeezing started (it is then ignored
    /// in release builds; the API types prevent it for the public wrappers).
    pub fn absorb(&mut self, data: &[u8]) {
        let mut p = self.permute;
        self.absorb_permuting(&mut p, data);
    }

    /// [`Self::absorb`] with the permutations it runs done by `perm` (see
    /// [`Self::squeeze_lanes_permuting`]).
    #[inline(always)]
    pub(crate) fn absorb_permuting(&mut self, perm: &mut impl KeccakPermutation, mut data: &[u8]) {
        debug_assert!(!self.squeezing);
        if self.squeezing {
            return;
        }
        // Fill a partial block byte-wise, then whole blocks lane-wise.
        while !data.is_empty() && !self.pos.is_multiple_of(8) {
            self.xor_byte(self.pos, data[0]);
            self.pos += 1;
            data = &data[1..];
            if self.pos == RATE {
                perm.permute(&mut self.state);
                self.pos = 0;
            }
        }
        while data.len() >= 8 {
            let lane = u64::from_le_bytes([
                data[0], data[1], data[2], data[3], data[4], data[5], data[6], data[7],
            ]);
            self.state[self.pos / 8] ^= lane;
            self.pos += 8;
            data = &data[8..];
            if self.pos == RATE {
                perm.permute(&mut self.state);
                self.pos = 0;
            }
        }
        for &b in data {
            self.xor_byte(self.pos, b);
            self.pos += 1;
            if self.pos == RATE {
                perm.permute(&mut self.state);
                self.pos = 0;
            }
        }
    }

    /// The padding (domain bits and the final one) into the state.
    fn pad(&mut self) {
        self.xor_byte(self.pos, DS);
        self.xor_byte(RATE - 1, 0x80);
    }

    fn finalize(&mut self) {
        if !self.squeezing {
            self.pad();
            self.keccak_f1600();
            self.pos = 0;
            self.squeezing = true;
        }
    }

    /// Squeezes `out.len()` bytes (finalizing the input on the first call).
    pub fn squeeze(&mut self, mut out: &mut [u8]) {
        self.finalize();
        while !out.is_empty() {
            if self.pos == RATE {
                self.keccak_f1600();
                self.pos = 0;
            }
            if self.pos.is_multiple_of(8) && out.len() >= 8 {
                // Whole lanes while aligned.
                let lanes = ((RATE - self.pos) / 8).min(out.len() / 8);
                for (i, o) in out[..8 * lanes].chunks_exact_mut(8).enumerate() {
                    o.copy_from_slice(&self.state[self.pos / 8 + i].to_le_bytes());
                }
                self.pos += 8 * lanes;
                out = &mut out[8 * lanes..];
            } else {
                out[0] = (self.state[self.pos / 8] >> (8 * (self.pos % 8))) as u8;
                self.pos += 1;
                out = &mut out[1..];
            }
        }
    }

    /// Squeezes lanes in place, without copying them out: `f` receives the lanes of the
    /// current block not squeezed yet (each the little-endian `u64` of the next 8 output
    /// bytes, in output order; never empty) and returns how many of them it used. The
    /// sponge moves past those; if that was all of them the next block is produced and
    /// `f` called again, otherwise squeezing stops. Returns false, doing nothing, if the
    /// squeeze position is not on a lane boundary (as it is after absorbing, and after
    /// squeezing multiples of 8 bytes).
    pub(crate) fn squeeze_lanes_with(&mut self, f: impl FnMut(&[u64]) -> usize) -> bool {
        let mut p = self.permute;
        self.squeeze_lanes_permuting(&mut p, f)
    }

    /// [`Self::squeeze_lanes_with`] with the permutations it runs (finalization
    /// included) done by `perm`, which must compute Keccak-f\[1600\] (e.g. with extra
    /// work interleaved). Inlined, so that `perm` (an `#[inline(always)]` implementation)
    /// and `f` can be inlined into a caller compiled with other target features.
    #[inline(always)]
    pub(crate) fn squeeze_lanes_permuting(
        &mut self,
        perm: &mut impl KeccakPermutation,
        mut f: impl FnMut(&[u64]) -> usize,
    ) -> bool {
        if !self.squeezing {
            self.pad();
            perm.permute(&mut self.state);
            self.pos = 0;
            self.squeezing = true;
        }
        if !self.pos.is_multiple_of(8) {
            return false;
        }
        loop {
            if self.pos == RATE {
                perm.permute(&mut self.state);
                self.pos = 0;
            }
            let lanes = &self.state[self.pos / 8..RATE / 8];
            let used = f(lanes).min(lanes.len());
            self.pos += 8 * used;
            if used < lanes.len() {
                return true;
            }
        }
    }

    /// Squeezes whole blocks: `out.len()` must be a multiple of RATE and the sponge at a
    /// block boundary (fresh after absorbing, or after earlier whole-block squeezes).
    pub fn squeeze_blocks(&mut self, out: &mut [u8]) {
        self.finalize();
        debug_assert!(out.len().is_multiple_of(RATE));
        // pos == 0 right after finalize; afterwards pos == RATE at block boundaries.
        for block in out.chunks_mut(RATE) {
            if self.pos == RATE {
                self.keccak_f1600();
                self.pos = 0;
            }
            for (i, o) in block.iter_mut().enumerate() {
                *o = (self.state[i / 8] >> (8 * (i % 8))) as u8;
            }
            self.pos = RATE;
        }
    }
}

impl<const RATE: usize, const DS: u8> Drop for Sponge<RATE, DS> {
    fn drop(&mut self) {
        // The state may hold secret seeds (ρ', K).
        self.state.zeroize();
    }
}

/// SHAKE128 / SHAKE256 (domain byte 0x1F).
pub(crate) type Shake<const RATE: usize> = Sponge<RATE, 0x1F>;
pub type Shake128 = Shake<SHAKE128_RATE>;
pub type Shake256 = Shake<SHAKE256_RATE>;

/// SHA3 with output length `RATE`-determined: rate = 200 - 2*outlen.
pub type Sha3<const RATE: usize> = Sponge<RATE, 0x06>;

/// One-shot SHAKE256 over several input pieces (process-wide backend's permutation).
pub fn shake256(inputs: &[&[u8]], out: &mut [u8]) {
    shake256_on(keccak_f1600_active, inputs, out)
}

/// One-shot SHAKE256 with the permutation `p` (a key's backend's).
pub fn shake256_on(p: Permute1, inputs: &[&[u8]], out: &mut [u8]) {
    let mut h = Shake256::new().with_permutation(p);
    for i in inputs {
        h.absorb(i);
    }
    h.squeeze(out);
}

/// One-shot SHAKE128 (process-wide backend's permutation).
pub fn shake128(inputs: &[&[u8]], out: &mut [u8]) {
    shake128_on(keccak_f1600_active, inputs, out)
}

/// One-shot SHAKE128 with the permutation `p`.
pub fn shake128_on(p: Permute1, inputs: &[&[u8]], out: &mut [u8]) {
    let mut h = Shake128::new().with_permutation(p);
    for i in inputs {
        h.absorb(i);
    }
    h.squeeze(out);
}

/// One-shot SHA3 with `out.len()` in {28, 32, 48, 64} (process-wide backend's
/// permutation).
pub fn sha3(data: &[u8], out: &mut [u8]) {
    sha3_on(keccak_f1600_active, data, out)
}

/// One-shot SHA3 with the permutation `p`.
pub fn sha3_on(p: Permute1, data: &[u8], out: &mut [u8]) {
    match out.len() {
        28 => sha3_with::<144>(p, data, out),
        32 => sha3_with::<136>(p, data, out),
        48 => sha3_with::<104>(p, data, out),
        64 => sha3_with::<72>(p, data, out),
        _ => debug_assert!(false, "unsupported SHA3 length"),
    }
}
fn sha3_with<const R: usize>(p: Permute1, data: &[u8], out: &mut [u8]) {
    let mut h = Sha3::<R>::new().with_permutation(p);
    h.absorb(data);
    h.squeeze(out);
}

#[cfg(test)]
mod tests {
    use super::*;
    fn hx(b: &[u8]) -> alloc::string::String {
        b.iter().map(|x| alloc::format!("{:02x}", x)).collect()
    }
    #[test]
    fn known_answers() {
        let mut o = [0u8; 32];
        shake128(&[b""], &mut o);
        assert_eq!(
            hx(&o),
            "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
        );
        let mut o = [0u8; 64];
        shake256(&[b""], &mut o);
        assert_eq!(
            hx(&o),
            "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"
        );
        let mut o = [0u8; 32];
        sha3(b"abc", &mut o);
        assert_eq!(
            hx(&o),
            "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"
        );
    }
    #[test]
    fn incremental_matches_one_shot() {
        let data: alloc::vec::Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut one = [0u8; 500];
        shake256(&[&data], &mut one);
        for split in [0usize, 1, 7, 8, 135, 136, 137, 999] {
            let mut h = Shake256::new();
            h.absorb(&data[..split]);
            h.absorb(&data[split..]);
            let mut a = [0u8; 500];
            h.squeeze(&mut a[..13]);
            h.squeeze(&mut a[13..]);
            assert_eq!(a, one);
        }
        let mut h = Shake256::new();
        h.absorb(&data);
        let mut b = [0u8; 3 * 136];
        h.squeeze_blocks(&mut b);
        assert_eq!(&b[..], &one[..3 * 136]);
    }

    #[test]
    fn lanes_match_bytes() {
        let mut one = [0u8; 1000];
        shake256(&[b"lanes"], &mut one);
        // Up to 5 lanes per call (a call stops when it leaves lanes of a block unused),
        // 100 lanes in all.
        let mut h = Shake256::new();
        h.absorb(b"lanes");
        let mut got = alloc::vec::Vec::new();
        while got.len() < 800 {
            assert!(h.squeeze_lanes_with(|l| {
                let k = l.len().min(5).min(100 - got.len() / 8);
                got.extend(l[..k].iter().flat_map(|w| w.to_le_bytes()));
                k
            }));
        }
        assert_eq!(&got[..], &one[..800]);
        // The sponge continues where the lanes stopped.
        let mut rest = [0u8; 200];
        h.squeeze(&mut rest[..3]);
        assert_eq!(&rest[..3], &one[800..803]);
        // Off a lane boundary: refused, nothing squeezed.
        assert!(!h.squeeze_lanes_with(|_| unreachable!()));
        h.squeeze(&mut rest[3..]);
        assert_eq!(&rest[..], &one[800..]);
    }
}
