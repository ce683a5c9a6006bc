//! The golden model: the library's portable kernels, with the hardware's boundary
//! conventions (canonical words in `[0, q)`).

use crate::{Config, Mode};
use pqsig::kernels::falcon::ntt as fntt;
use pqsig::kernels::mldsa::{self, Poly};
use pqsig::Backend;

/// Maps signed ML-DSA coefficients (|a| < q) to canonical words.
pub fn mldsa_to_words(coeffs: &[i32]) -> Vec<u32> {
    coeffs
        .iter()
        .map(|&c| c.rem_euclid(mldsa::Q) as u32)
        .collect()
}

/// Transforms `num_polys` polynomials of `words` as the portable kernel does, and
/// reduces the result to `[0, q)`: what the hardware must produce.
pub fn transform(cfg: &Config, mode: Mode, words: &mut [u32], num_polys: usize) {
    let n = cfg.n as usize;
    let words = &mut words[..num_polys * n];
    if cfg.q == mldsa::Q as u32 {
        let k = mldsa::base_kernels(Backend::Portable);
        let mut polys: Vec<Poly> = words
            .chunks(n)
            .map(|c| {
                let mut p = Poly::default();
                for (d, &s) in p.coeffs.iter_mut().zip(c) {
                    *d = s as i32;
                }
                p
            })
            .collect();
        match mode {
            Mode::Ntt => (k.ntt)(&mut polys),
            Mode::Intt => (k.invntt_tomont)(&mut polys),
        }
        for (c, p) in words.chunks_mut(n).zip(&polys) {
            for (d, &s) in c.iter_mut().zip(p.coeffs.iter()) {
                *d = s.rem_euclid(mldsa::Q) as u32;
            }
        }
    } else {
        let k = fntt::base_kernels(Backend::Portable);
        let mut v: Vec<u16> = words.iter().map(|&w| w as u16).collect();
        match mode {
            Mode::Ntt => (k.ntt)(&mut v, cfg.logn()),
            Mode::Intt => (k.intt)(&mut v, cfg.logn()),
        }
        for (d, s) in words.iter_mut().zip(v) {
            *d = s as u32;
        }
    }
}

/// A small deterministic generator of canonical test words (xorshift64*).
pub struct Words(u64);

impl Words {
    pub fn new(seed: u64) -> Self {
        Words(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }
    /// `len` uniform residues mod q, with the edge values 0, 1, q-1 sprinkled in.
    pub fn residues(&mut self, q: u32, len: usize) -> Vec<u32> {
        (0..len)
            .map(|i| match self.next_u32() % 64 {
                0 => 0,
                1 => 1,
                2 => q - 1,
                _ if i % 97 == 5 => q - 1,
                _ => self.next_u32() % q,
            })
            .collect()
    }
}
