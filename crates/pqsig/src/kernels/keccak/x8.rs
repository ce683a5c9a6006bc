//! Eight SHAKE sponges advanced in lock-step (the "eight-way" Keccak kernel).
//!
//! State layout: `s[i][j]` is lane i (x + 5y) of instance j, so one 512-bit vector holds
//! lane i of all eight instances, and each half of it (instances 0–3 and 4–7) is a
//! 32-byte-aligned 256-bit vector laid out like a [`StateX4`](super::x4::StateX4) lane.
//! Absorbing and squeezing are generic; only the permutation [`Permute8`] is
//! backend-specific:
//!
//! * portable: eight scalar permutations;
//! * avx2: the AVX2 four-way kernel on each half, in place (`x4_avx2::permute8_avx2`);
//! * avx512: one state per 64-bit element of 25 `__m512i` (`x8_avx512`).

use super::f1600::keccak_f1600;
use crate::kernels::select::Backend;
use zeroize::Zeroize;

/// Eight interleaved Keccak states.
#[derive(Clone, Default)]
#[repr(C, align(64))]
pub struct StateX8 {
    pub s: [[u64; 8]; 25],
}

/// An eight-way Keccak-f\[1600\] permutation.
pub type Permute8 = fn(&mut StateX8);

/// Portable eight-way permutation: eight scalar permutations.
pub fn permute8_portable(st: &mut StateX8) {
    for j in 0..8 {
        let mut a: [u64; 25] = core::array::from_fn(|i| st.s[i][j]);
        keccak_f1600(&mut a);
        for (lane, w) in st.s.iter_mut().zip(a.iter()) {
            lane[j] = *w;
        }
        a.zeroize();
    }
}

/// The eight-way permutation of a backend.
pub fn permute8_for(b: Backend) -> Permute8 {
    match b {
        Backend::Portable => permute8_portable,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 if b.is_available() => super::x4_avx2::permute8_avx2,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if b.is_available() => super::x8_avx512::permute8_avx512,
        #[allow(unreachable_patterns)]
        _ => permute8_portable,
    }
}

/// Eight SHAKE sponges (rate `RATE` bytes, domain byte 0x1F) over equal-length inputs.
pub struct ShakeX8<const RATE: usize> {
    st: StateX8,
    permute: Permute8,
}

impl<const RATE: usize> ShakeX8<RATE> {
    /// Absorbs eight inputs of equal length in one go and pads them.
    pub fn absorb_once(permute: Permute8, inputs: [&[u8]; 8]) -> Self {
        let len = inputs[0].len();
        debug_assert!(inputs.iter().all(|x| x.len() == len));
        let mut st = StateX8::default();
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
        let k = len - off;
        for (j, inp) in inputs.iter().enumerate() {
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
        ShakeX8 { st, permute }
    }

    /// Squeezes `nblocks` blocks into each output (each `out[j].len() >= nblocks*RATE`).
    pub fn squeeze_blocks(&mut self, mut out: [&mut [u8]; 8], nblocks: usize) {
        for blk in 0..nblocks {
            // The first permutation after absorbing is deferred to here.
            (self.permute)(&mut self.st);
            for (j, o) in out.iter_mut().enumerate() {
                let o = &mut o[blk * RATE..(blk + 1) * RATE];
                for (c, lane) in o.chunks_exact_mut(8).zip(self.st.s.iter()) {
                    c.copy_from_slice(&lane[j].to_le_bytes());
                }
            }
        }
    }
}

impl<const RATE: usize> Drop for ShakeX8<RATE> {
    fn drop(&mut self) {
        self.st.s.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::keccak::sponge::{Shake128, Shake256};
    use alloc::vec::Vec;

    /// Eight inputs of length `len` (distinct per lane), three blocks squeezed from each,
    /// against eight single sponges.
    fn check<const R: usize>(b: Backend, len: usize) {
        let inputs: [Vec<u8>; 8] =
            core::array::from_fn(|j| (0..len).map(|i| (i * 31 + j * 101 + 7) as u8).collect());
        let mut x8 =
            ShakeX8::<R>::absorb_once(permute8_for(b), core::array::from_fn(|j| &inputs[j][..]));
        let mut outs = [[0u8; 3 * 168]; 8];
        x8.squeeze_blocks(outs.each_mut().map(|o| &mut o[..]), 3);
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
    }

    #[test]
    fn x8_matches_single_every_backend() {
        for b in Backend::available() {
            for len in (0..=48).chain([64, 66, 135, 136, 137, 167, 168, 169, 271, 272, 400, 504]) {
                check::<168>(b, len);
                check::<136>(b, len);
            }
        }
    }
}
