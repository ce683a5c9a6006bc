//! SNOVA's public-seed expansion (the XOFs that turn the 16-byte public seed into the
//! P11, P12, P21 matrices): the bytes are public, the kernels are batch-shaped so a
//! backend can run many blocks at once.
//!
//! * [`shake128_ctr`]: block `i` = SHAKE128(seed ‖ LE64(i)), 168 bytes each, concatenated.
//! * [`aes128_ctr`]: AES-128-CTR keyed with the seed, IV = 12 zero bytes, 32-bit
//!   big-endian block counter from 0 (block `i` = AES_seed(0¹² ‖ BE32(i))).

use crate::kernels::keccak::Shake128;
use crate::kernels::select::Backend;

/// Fills `out` with the SHAKE128 counter-mode stream of `seed`.
pub fn shake128_ctr(b: Backend, seed: &[u8], out: &mut [u8]) {
    let _ = b;
    for (i, chunk) in out.chunks_mut(168).enumerate() {
        let mut h = Shake128::new();
        h.absorb(seed);
        h.absorb(&(i as u64).to_le_bytes());
        h.squeeze(chunk);
    }
}

/// Fills `out` with the AES-128-CTR keystream of `key` (IV 0, BE32 counter).
pub fn aes128_ctr(b: Backend, key: &[u8; 16], out: &mut [u8]) {
    let _ = b;
    // Bootstrap: the `aes` crate (kat feature) until the project's own AES kernels land.
    #[cfg(feature = "kat")]
    {
        use aes::cipher::{BlockEncrypt, KeyInit};
        let c = aes::Aes128::new(key.into());
        for (i, chunk) in out.chunks_mut(16).enumerate() {
            let mut blk = [0u8; 16];
            blk[12..].copy_from_slice(&(i as u32).to_be_bytes());
            let mut g = aes::Block::from(blk);
            c.encrypt_block(&mut g);
            chunk.copy_from_slice(&g[..chunk.len()]);
        }
    }
    #[cfg(not(feature = "kat"))]
    {
        let _ = key;
        out.fill(0);
    }
}
