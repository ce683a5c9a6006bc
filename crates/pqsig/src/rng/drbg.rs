//! The NIST AES-256-CTR DRBG of `PQCgenKAT_sign.c` / `rng.c` (SP 800-90A CTR_DRBG
//! without derivation function, no reseeding), used only to regenerate KAT files.
//! Not for real keys: it is deterministic by design.

use aes::cipher::{BlockEncrypt, KeyInit};
use aes::Aes256;
use zeroize::Zeroize;

/// State of the KAT DRBG.
pub struct KatDrbg {
    key: [u8; 32],
    v: [u8; 16],
}

impl KatDrbg {
    /// `randombytes_init(entropy_input, NULL, 256)`.
    pub fn new(entropy: &[u8; 48]) -> Self {
        let mut d = KatDrbg {
            key: [0; 32],
            v: [0; 16],
        };
        d.update(Some(entropy));
        d
    }

    fn increment_v(&mut self) {
        for b in self.v.iter_mut().rev() {
            let (n, carry) = b.overflowing_add(1);
            *b = n;
            if !carry {
                break;
            }
        }
    }

    fn encrypt_v(&self) -> [u8; 16] {
        let cipher = Aes256::new(&self.key.into());
        let mut block = self.v.into();
        cipher.encrypt_block(&mut block);
        block.into()
    }

    /// `AES256_CTR_DRBG_Update`.
    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let mut temp = [0u8; 48];
        for i in 0..3 {
            self.increment_v();
            temp[16 * i..16 * (i + 1)].copy_from_slice(&self.encrypt_v());
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p.iter()) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
        temp.zeroize();
    }

    /// `randombytes(x, xlen)`.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            self.increment_v();
            let block = self.encrypt_v();
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
        self.update(None);
    }
}

impl Drop for KatDrbg {
    fn drop(&mut self) {
        self.key.zeroize();
        self.v.zeroize();
    }
}

impl rand_core::RngCore for KatDrbg {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.fill(dest)
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill(dest);
        Ok(())
    }
}
impl rand_core::CryptoRng for KatDrbg {}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn first_seed_of_pqcgenkat() {
        // PQCgenKAT_sign seeds its DRBG with 00..2f and draws 48-byte seeds; the first
        // is the `seed = 061550...` of every NIST signature .rsp file.
        let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
        let mut d = KatDrbg::new(&entropy);
        let mut seed = [0u8; 48];
        d.fill(&mut seed);
        assert_eq!(
            &seed[..8],
            &[0x06, 0x15, 0x50, 0x23, 0x4D, 0x15, 0x8C, 0x5E]
        );
    }
}
