//! Four SHAKE sponges advanced in lock-step (the "four-way" Keccak kernel).
//!
//! State layout: `s[i][j]` is lane i (x + 5y) of instance j, so one 256-bit vector holds
//! lane i of all four instances. Absorbing and squeezing are generic; only the
//! permutation [`Permute4`] is backend-specific.

use super::f1600::keccak_f1600;
use crate::kernels::select::Backend;
use zeroize::Zeroize;

/// Four interleaved Keccak states.
#[derive(Clone, Default)]
#[repr(C, align(32))]
pub struct StateX4 {
    pub s: [[u64; 4]; 25],
}

/// A four-way Keccak-f\[1600\] permutation.
pub type Permute4 = fn(&mut StateX4);

/// Portable four-way permutation: four scalar permutations.
pub fn permute4_portable(st: &mut StateX4) {
    for j in 0..4 {
        let mut a = [0u64; 25];
        for i in 0..25 {
            a[i] = st.s[i][j];
        }
        keccak_f1600(&mut a);
        for i in 0..25 {
            st.s[i][j] = a[i];
        }
        a.zeroize();
    }
}

/// The four-way permutation of a backend.
pub fn permute4_for(b: Backend) -> Permute4 {
    match b {
        Backend::Portable => permute4_portable,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 if b.is_available() => super::x4_avx2::permute4_avx2,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 if b.is_available() => super::x4_avx512::permute4_avx512,
        #[allow(unreachable_patterns)]
        _ => permute4_portable,
    }
}

/// Four SHAKE sponges (rate `RATE` bytes, domain byte 0x1F) over equal-length inputs.
pub struct ShakeX4<const RATE: usize> {
    st: StateX4,
    permute: Permute4,
    started: bool,
}

impl<const RATE: usize> ShakeX4<RATE> {
    /// Absorbs four inputs of equal length in one go and pads them.
    pub fn absorb_once(permute: Permute4, inputs: [&[u8]; 4]) -> Self {
        let len = inputs[0].len();
        debug_assert!(inputs.iter().all(|x| x.len() == len));
        let mut st = StateX4::default();
        let mut off = 0;
        // Whole blocks.
        while len - off >= RATE {
            for (j, inp) in inputs.iter().enumerate() {
                for i in 0..RATE / 8 {
                    let p = off + 8 * i;
                    st.s[i][j] ^= u64::from_le_bytes(inp[p..p + 8].try_into().unwrap_or([0; 8]));
                }
            }
            permute(&mut st);
            off += RATE;
        }
        // Final partial block with padding: whole lanes, then the tail bytes of one lane.
        for (j, inp) in inputs.iter().enumerate() {
            let rest = &inp[off..];
            let words = rest.chunks_exact(8);
            let tail = words.remainder();
            let mut w = 0;
            for c in words {
                st.s[w][j] ^= u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
                w += 1;
            }
            let mut last = [0u8; 8];
            last[..tail.len()].copy_from_slice(tail);
            st.s[w][j] ^= u64::from_le_bytes(last);
            let k = len - off;
            st.s[k / 8][j] ^= 0x1F << (8 * (k % 8));
            st.s[(RATE - 1) / 8][j] ^= 0x80 << (8 * ((RATE - 1) % 8));
        }
        ShakeX4 { st, permute, started: false }
    }

    /// Squeezes `nblocks` blocks into each output (each `out[j].len() >= nblocks*RATE`).
    pub fn squeeze_blocks(&mut self, out: [&mut [u8]; 4], nblocks: usize) {
        let mut out = out;
        for blk in 0..nblocks {
            // The first permutation after absorbing is deferred to here.
            (self.permute)(&mut self.st);
            self.started = true;
            for (j, o) in out.iter_mut().enumerate() {
                let o = &mut o[blk * RATE..(blk + 1) * RATE];
                for i in 0..RATE / 8 {
                    o[8 * i..8 * i + 8].copy_from_slice(&self.st.s[i][j].to_le_bytes());
                }
            }
        }
    }
}

impl<const RATE: usize> Drop for ShakeX4<RATE> {
    fn drop(&mut self) {
        self.st.s.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::keccak::sponge::{Shake128, Shake256};

    fn check<const R: usize>(b: Backend, len: usize) {
        let inputs: [alloc::vec::Vec<u8>; 4] =
            core::array::from_fn(|j| (0..len).map(|i| (i * 31 + j * 101 + 7) as u8).collect());
        let mut x4 = ShakeX4::<R>::absorb_once(
            permute4_for(b),
            [&inputs[0], &inputs[1], &inputs[2], &inputs[3]],
        );
        let mut outs = [[0u8; 3 * 168]; 4];
        {
            let [o0, o1, o2, o3] = &mut outs;
            x4.squeeze_blocks([&mut o0[..], &mut o1[..], &mut o2[..], &mut o3[..]], 3);
        }
        for j in 0..4 {
            let mut want = alloc::vec![0u8; 3 * R];
            if R == 168 {
                let mut h = Shake128::new();
                h.absorb(&inputs[j]);
                h.squeeze(&mut want);
            } else {
                let mut h = Shake256::new();
                h.absorb(&inputs[j]);
                h.squeeze(&mut want);
            }
            assert_eq!(&outs[j][..3 * R], &want[..], "backend {b:?} len {len} lane {j}");
        }
    }

    #[test]
    fn x4_matches_single_every_backend() {
        for b in Backend::available() {
            for len in [0, 1, 34, 66, 135, 136, 167, 168, 169, 400] {
                check::<168>(b, len);
                check::<136>(b, len);
            }
        }
    }
}
