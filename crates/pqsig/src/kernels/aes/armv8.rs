//! AES-128 on aarch64 with the ARMv8 Cryptography Extension.
//!
//! `aese` is AddRoundKey, ShiftRows and SubBytes in one instruction (key first, unlike
//! x86's `aesenc`), `aesmc` is MixColumns; a round is `aesmc(aese(x, k_r))` for
//! r = 0..9, then `aese(x, k_9) ⊕ k_10`. CTR keeps eight blocks in flight (the pair
//! has a latency of a few cycles and fuses on most cores).
//!
//! Key expansion uses `aese` with a zero key for SubWord: a vector whose four columns
//! are the same word is unchanged by ShiftRows, so each column comes out as
//! SubWord(word). Constant time like the rest.
//!
//! Every function here is `unsafe` only because of its target feature: callers
//! (`super::Aes128`) check it first.

use super::portable::RCON;
use core::arch::aarch64::*;

/// SubWord: the S-box on each byte of `w` (bytes in memory order, little-endian word).
#[inline]
#[target_feature(enable = "aes")]
fn sub_word(w: u32) -> u32 {
    let v = vreinterpretq_u8_u32(vdupq_n_u32(w));
    let s = vaeseq_u8(v, vdupq_n_u8(0));
    vgetq_lane_u32::<0>(vreinterpretq_u32_u8(s))
}

/// FIPS 197 key expansion (SubWord by `aese`).
///
/// # Safety
/// The CPU must support the ARMv8 AES instructions.
#[target_feature(enable = "aes")]
pub(crate) unsafe fn expand_key(key: &[u8; 16]) -> [[u8; 16]; 11] {
    let mut rk = [[0u8; 16]; 11];
    rk[0] = *key;
    let mut w: [u32; 4] = core::array::from_fn(|i| {
        u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]])
    });
    for (round, rcon) in RCON.iter().enumerate() {
        // RotWord in FIPS byte order = rotate the little-endian word right by 8.
        let t = sub_word(w[3].rotate_right(8)) ^ (*rcon as u32);
        w[0] ^= t;
        w[1] ^= w[0];
        w[2] ^= w[1];
        w[3] ^= w[2];
        for (i, word) in w.iter().enumerate() {
            rk[round + 1][4 * i..4 * i + 4].copy_from_slice(&word.to_le_bytes());
        }
    }
    zeroize::Zeroize::zeroize(&mut w);
    rk
}

#[inline]
#[target_feature(enable = "aes")]
fn load_keys(rk: &[[u8; 16]; 11]) -> [uint8x16_t; 11] {
    // SAFETY: each `rk[i]` is 16 readable bytes; `vld1q_u8` has no alignment
    // requirement.
    core::array::from_fn(|i| unsafe { vld1q_u8(rk[i].as_ptr()) })
}

/// AES-128 on one block.
#[inline]
#[target_feature(enable = "aes")]
fn encrypt1(k: &[uint8x16_t; 11], b: uint8x16_t) -> uint8x16_t {
    let mut x = b;
    for rk in &k[..9] {
        x = vaesmcq_u8(vaeseq_u8(x, *rk));
    }
    veorq_u8(vaeseq_u8(x, k[9]), k[10])
}

/// The counter block 0¹² ‖ BE32(c).
#[inline]
#[target_feature(enable = "aes")]
fn counter_block(c: u32) -> uint8x16_t {
    vreinterpretq_u8_u32(vsetq_lane_u32::<3>(c.swap_bytes(), vdupq_n_u32(0)))
}

/// Encrypts `blocks` in place, one at a time.
///
/// # Safety
/// The CPU must support the ARMv8 AES instructions.
#[target_feature(enable = "aes")]
pub(crate) unsafe fn encrypt_blocks(rk: &[[u8; 16]; 11], blocks: &mut [[u8; 16]]) {
    let k = load_keys(rk);
    for b in blocks.iter_mut() {
        // SAFETY: 16 readable and writable bytes.
        unsafe { vst1q_u8(b.as_mut_ptr(), encrypt1(&k, vld1q_u8(b.as_ptr()))) };
    }
}

/// CTR keystream, eight blocks in flight; the tail one block at a time, the last block
/// truncated.
///
/// # Safety
/// The CPU must support the ARMv8 AES instructions.
#[target_feature(enable = "aes")]
pub(crate) unsafe fn ctr(rk: &[[u8; 16]; 11], ctr0: u32, out: &mut [u8]) {
    let k = load_keys(rk);
    let mut ctr = ctr0;
    let mut chunks = out.chunks_exact_mut(8 * 16);
    for chunk in &mut chunks {
        let mut x: [uint8x16_t; 8] =
            core::array::from_fn(|j| counter_block(ctr.wrapping_add(j as u32)));
        for rk in &k[..9] {
            for v in x.iter_mut() {
                *v = vaesmcq_u8(vaeseq_u8(*v, *rk));
            }
        }
        for (j, v) in x.iter().enumerate() {
            // SAFETY: `chunk` is 128 bytes; block j is bytes 16j..16j+16.
            unsafe {
                vst1q_u8(
                    chunk.as_mut_ptr().add(16 * j),
                    veorq_u8(vaeseq_u8(*v, k[9]), k[10]),
                )
            };
        }
        ctr = ctr.wrapping_add(8);
    }
    for chunk in chunks.into_remainder().chunks_mut(16) {
        let mut tmp = [0u8; 16];
        // SAFETY: 16 writable bytes.
        unsafe { vst1q_u8(tmp.as_mut_ptr(), encrypt1(&k, counter_block(ctr))) };
        chunk.copy_from_slice(&tmp[..chunk.len()]);
        ctr = ctr.wrapping_add(1);
    }
}
