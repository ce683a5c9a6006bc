//! The byte stream FN-DSA (draft, fn-dsa 0.4.0) draws all its randomness from: SHAKE256
//! over a seed, read sequentially. Multi-byte values are little-endian. DRAFT: the PRNG
//! is one of the things FIPS 206 may change.
//!
//! Key generation reads it over the 32-byte seed; each signing attempt over
//! `seed' ‖ attempt` (41 bytes). Reading a u16 or u64 that straddles a block boundary
//! gives the same bytes as reading them one at a time, so the stream is exactly "the
//! SHAKE256 output, in order".

use crate::kernels::keccak::sponge::{Shake256, SHAKE256_RATE};
use zeroize::Zeroize;

/// Bytes kept after the live window and never part of the stream (zero or stale): a
/// SIMD reader may load up to this far past what it uses.
pub const WINDOW_PAD: usize = 32;

/// Most bytes [`ShakeStream::ensure`] can be asked for at once.
pub const MAX_LOOKAHEAD: usize = SHAKE256_RATE;

/// Window capacity: fewer than `MAX_LOOKAHEAD` leftover bytes plus one block.
const CAP: usize = MAX_LOOKAHEAD + SHAKE256_RATE;

/// Buffered SHAKE256 output (secret: wiped on drop; the sponge wipes its own state).
/// `buf[pos..len]` are the next bytes of the stream.
pub struct ShakeStream {
    sponge: Shake256,
    buf: [u8; CAP + WINDOW_PAD],
    pos: usize,
    len: usize,
}

impl ShakeStream {
    /// The stream of SHAKE256 over the concatenation of `parts` (tests: the process-wide
    /// backend's permutation).
    #[cfg(test)]
    pub fn new(parts: &[&[u8]]) -> Self {
        Self::new_on(crate::kernels::select::active(), parts)
    }

    /// [`ShakeStream::new`] with backend `b`'s Keccak permutation.
    pub fn new_on(b: crate::kernels::select::Backend, parts: &[&[u8]]) -> Self {
        let mut sponge =
            Shake256::new().with_permutation(crate::kernels::keccak::f1600::permute1_for(b));
        for p in parts {
            sponge.absorb(p);
        }
        ShakeStream {
            sponge,
            buf: [0u8; CAP + WINDOW_PAD],
            pos: 0,
            len: 0,
        }
    }

    /// Window empty: the next block.
    #[inline(always)]
    fn refill(&mut self) {
        // `squeeze` copies whole lanes (`squeeze_blocks` goes byte by byte): same bytes.
        self.sponge.squeeze(&mut self.buf[..SHAKE256_RATE]);
        self.pos = 0;
        self.len = SHAKE256_RATE;
    }

    /// Makes at least `k` (<= [`MAX_LOOKAHEAD`]) stream bytes available contiguously at
    /// [`ShakeStream::window`] (the unread bytes move to the front and one more block is
    /// squeezed). Consumes nothing: the stream is unchanged.
    #[cfg(any(test, all(target_arch = "x86_64", not(feature = "fpr-emulated"))))]
    #[inline]
    pub fn ensure(&mut self, k: usize) {
        debug_assert!(k <= MAX_LOOKAHEAD);
        if self.len - self.pos < k {
            let t = self.len - self.pos;
            self.buf.copy_within(self.pos..self.len, 0);
            self.sponge.squeeze(&mut self.buf[t..t + SHAKE256_RATE]);
            self.pos = 0;
            self.len = t + SHAKE256_RATE;
        }
    }

    /// The unread bytes from the read position, followed by at least [`WINDOW_PAD`]
    /// bytes that are not stream bytes.
    #[cfg(any(test, all(target_arch = "x86_64", not(feature = "fpr-emulated"))))]
    #[inline(always)]
    pub fn window(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Number of unread bytes in the window.
    #[cfg(test)]
    pub fn available(&self) -> usize {
        self.len - self.pos
    }

    /// Marks `k` bytes (at most the number of unread bytes in the window) as read.
    #[cfg(any(test, all(target_arch = "x86_64", not(feature = "fpr-emulated"))))]
    #[inline(always)]
    pub fn advance(&mut self, k: usize) {
        debug_assert!(k <= self.len - self.pos);
        self.pos += k.min(self.len - self.pos);
    }

    /// Next byte.
    #[inline(always)]
    pub fn next_u8(&mut self) -> u8 {
        if self.pos == self.len {
            self.refill();
        }
        let b = self.buf[self.pos];
        self.pos += 1;
        b
    }

    /// Next two bytes, little-endian.
    #[inline(always)]
    pub fn next_u16(&mut self) -> u16 {
        if self.pos + 2 <= self.len {
            let v = u16::from_le_bytes([self.buf[self.pos], self.buf[self.pos + 1]]);
            self.pos += 2;
            v
        } else {
            let lo = self.next_u8() as u16;
            lo | (self.next_u8() as u16) << 8
        }
    }

    /// Next eight bytes, little-endian.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        if self.pos + 8 <= self.len {
            let mut w = [0u8; 8];
            w.copy_from_slice(&self.buf[self.pos..self.pos + 8]);
            self.pos += 8;
            u64::from_le_bytes(w)
        } else {
            let mut v = 0u64;
            for i in 0..8 {
                v |= (self.next_u8() as u64) << (8 * i);
            }
            v
        }
    }

    /// Fills `out` with the next bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        let mut off = 0;
        while off < out.len() {
            if self.pos == self.len {
                self.refill();
            }
            let k = (self.len - self.pos).min(out.len() - off);
            out[off..off + k].copy_from_slice(&self.buf[self.pos..self.pos + k]);
            self.pos += k;
            off += k;
        }
    }
}

impl Drop for ShakeStream {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::keccak::sponge::shake256;

    #[test]
    fn stream_is_plain_shake_output() {
        let mut expect = [0u8; 1000];
        shake256(&[b"seed", b"!"], &mut expect);
        let mut s = ShakeStream::new(&[b"se", b"ed!"]);
        let mut got = [0u8; 1000];
        let mut i = 0;
        // Mixed reads, some straddling block boundaries.
        while i + 11 <= 1000 {
            got[i] = s.next_u8();
            got[i + 1..i + 3].copy_from_slice(&s.next_u16().to_le_bytes());
            got[i + 3..i + 11].copy_from_slice(&s.next_u64().to_le_bytes());
            i += 11;
        }
        s.fill(&mut got[i..]);
        assert_eq!(got[..], expect[..]);
        // Look-ahead never changes the stream.
        let mut s = ShakeStream::new(&[b"seed!"]);
        let mut got = [0u8; 1000];
        let mut i = 0;
        let mut k = 1;
        while i + 40 <= 1000 {
            let want = (k % MAX_LOOKAHEAD).max(17);
            s.ensure(want);
            assert!(s.available() >= want);
            let w = &s.window()[..17];
            got[i..i + 17].copy_from_slice(w);
            s.advance(17);
            got[i + 17] = s.next_u8();
            got[i + 18..i + 26].copy_from_slice(&s.next_u64().to_le_bytes());
            s.fill(&mut got[i + 26..i + 40]);
            i += 40;
            k = (k * 7 + 3) % 1000;
        }
        s.fill(&mut got[i..]);
        assert_eq!(got[..], expect[..]);
    }
}
