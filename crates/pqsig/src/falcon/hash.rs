//! Hash-to-point: a SHAKE256 output stream → c ∈ Z_q\[x\]/(x^n + 1).
//!
//! The stream is read as 16-bit big-endian words; a word w < 61445 = 5q gives the next
//! coefficient w mod q, larger words are skipped. For round-3 Falcon the stream is
//! SHAKE256(nonce ‖ message).
//!
//! Timing: the number of rejected words (and so the running time) depends on the SHAKE
//! output, i.e. on the nonce and the message. Both are public in Falcon — they travel
//! with the signature — so this straightforward variable-time form is used. (The
//! reference's constant-time variant exists for a setting where the message is secret
//! and the nonce is known, which this crate does not target; it yields the same c.)

use super::params::{self, NONCE_LEN};
use crate::error::Error;
use crate::kernels::falcon::ntt::{self, NttKernels};
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::Shake256;
use crate::kernels::select::{self, Backend};
use alloc::vec;
use alloc::vec::Vec;

/// 5q: words at or above it are rejected.
const REJECT: u32 = 5 * params::Q;

/// Fills `c` (n = c.len() coefficients, n ≤ 1024) from a SHAKE256 sponge that has
/// absorbed its input, with the process-wide backend's sampling kernel. Afterwards the
/// sponge stands after the last 8-byte lane a word was read from (up to three words of it
/// unread), or after the last word read if it was not on a lane boundary to begin with.
pub fn hash_to_point(sponge: &mut Shake256, c: &mut [u16]) {
    hash_to_point_with(ntt::active(), sponge, c)
}

fn hash_to_point_with(k: &NttKernels, sponge: &mut Shake256, c: &mut [u16]) {
    let n = c.len();
    let mut filled = 0;
    // Words straight from the state's lanes, by the backend's kernel.
    let lanes_ok = sponge.squeeze_lanes_with(|lanes| {
        let (f, used) = (k.hash_words)(c, filled, lanes);
        filled = f;
        used
    });
    if lanes_ok {
        return;
    }
    let mut buf = [0u8; 2048];
    while filled < n {
        // Each word yields at most one coefficient, so asking for exactly the missing
        // count never reads past the last word used.
        let want = (2 * (n - filled)).min(buf.len());
        let chunk = &mut buf[..want];
        sponge.squeeze(chunk);
        for w in chunk.chunks_exact(2) {
            let w = u16::from_be_bytes([w[0], w[1]]) as u32;
            if w < REJECT {
                c[filled] = (w % params::Q) as u16;
                filled += 1;
            }
        }
    }
}

/// c = HashToPoint(SHAKE256(nonce ‖ message)), `c.len()` coefficients, with the
/// process-wide backend.
pub fn hash_to_point_msg(nonce: &[u8; NONCE_LEN], msg: &[u8], c: &mut [u16]) {
    hash_to_point_msg_on(select::active(), nonce, msg, c)
}

/// [`hash_to_point_msg`] with backend `b`'s Keccak permutation.
pub fn hash_to_point_msg_on(b: Backend, nonce: &[u8; NONCE_LEN], msg: &[u8], c: &mut [u16]) {
    let mut sponge = Shake256::new().with_permutation(permute1_for(b));
    sponge.absorb(nonce);
    sponge.absorb(msg);
    hash_to_point_with(ntt::kernels(b), &mut sponge, c);
}

/// Incremental c = HashToPoint(SHAKE256(nonce ‖ message)): the nonce first, then the
/// message in pieces of any size, for signing and verifying data too large to hold in
/// memory. The point equals the one-shot hash over the concatenated pieces.
///
/// Made by [`VerifyingKey::point_hasher`](crate::falcon::VerifyingKey::point_hasher) or
/// [`SigningKey::point_hasher`](crate::falcon::SigningKey::point_hasher), which fix the
/// degree (2^logn coefficients) and the backend.
///
/// ```
/// use pqsig::falcon::{self, ParamSet};
///
/// let (sk, vk) = falcon::keygen_from_seed(ParamSet::Falcon512, &[1u8; 48])?;
/// let sig = sk.sign_with_nonce_and_seed(b"a long message", &[2u8; 40], &[3u8; 48])?;
/// let parsed = vk.decode_signature(&sig)?;               // the nonce comes first
/// let mut h = vk.point_hasher(&parsed.nonce);
/// h.update(b"a long ");
/// h.update(b"message");
/// assert_eq!(vk.verify_point(&h.finalize(), &parsed.s2), Ok(()));
/// # Ok::<(), pqsig::Error>(())
/// ```
#[derive(Clone)]
pub struct PointHasher {
    sponge: Shake256,
    backend: Backend,
    logn: u32,
}

impl core::fmt::Debug for PointHasher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PointHasher")
            .field("backend", &self.backend)
            .field("logn", &self.logn)
            .finish_non_exhaustive()
    }
}

impl PointHasher {
    /// Starts SHAKE256(nonce ‖ …) for a point of 2^logn coefficients (logn in 1..=10)
    /// with backend `b`'s Keccak permutation and, when finalized, its sampling kernel
    /// (every backend gives the same point).
    pub(crate) fn new(b: Backend, nonce: &[u8; NONCE_LEN], logn: u32) -> Self {
        debug_assert!(params::logn_ok(logn));
        let mut sponge = Shake256::new().with_permutation(permute1_for(b));
        sponge.absorb(nonce);
        PointHasher {
            sponge,
            backend: b,
            logn,
        }
    }

    /// The number of coefficients of the point (2^logn of the key that made it).
    pub fn degree(&self) -> usize {
        params::degree(self.logn)
    }

    /// Absorbs the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.sponge.absorb(data);
    }

    /// The point: [`Self::degree`] coefficients in `[0, q)`.
    pub fn finalize(self) -> Vec<u16> {
        let mut c = vec![0u16; self.degree()];
        self.finalize_raw(&mut c);
        c
    }

    /// [`Self::finalize`] into `c`, which must hold exactly [`Self::degree`] coefficients
    /// (else `InvalidLength`, and `c` is left untouched).
    pub fn finalize_into(self, c: &mut [u16]) -> Result<(), Error> {
        if c.len() != self.degree() {
            return Err(Error::InvalidLength);
        }
        self.finalize_raw(c);
        Ok(())
    }

    /// Fills `c` (any length: `c.len()` coefficients of the stream) with the point.
    pub(crate) fn finalize_raw(mut self, c: &mut [u16]) {
        hash_to_point_with(ntt::kernels(self.backend), &mut self.sponge, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same stream read two bytes at a time, as the specification reads it.
    fn slow(nonce: &[u8; NONCE_LEN], msg: &[u8], n: usize) -> Vec<u16> {
        slow_from(nonce, msg, n, 0)
    }

    /// [`slow`] on the stream after its first `skip` bytes.
    fn slow_from(nonce: &[u8; NONCE_LEN], msg: &[u8], n: usize, skip: usize) -> Vec<u16> {
        let mut s = Shake256::new();
        s.absorb(nonce);
        s.absorb(msg);
        for _ in 0..skip {
            s.squeeze(&mut [0u8; 1]);
        }
        let mut out = Vec::new();
        while out.len() < n {
            let mut b = [0u8; 2];
            s.squeeze(&mut b);
            let w = u16::from_be_bytes(b) as u32;
            if w < 61445 {
                out.push((w % 12289) as u16);
            }
        }
        out
    }

    #[test]
    fn unaligned_sponge_matches_word_by_word_reading() {
        // A sponge already squeezed off a lane boundary takes the byte path.
        for logn in [1, 5, 9, 10] {
            let n = 1 << logn;
            let nonce = [3u8; NONCE_LEN];
            let mut s = Shake256::new();
            s.absorb(&nonce);
            s.absorb(b"m");
            let mut skip = [0u8; 6];
            s.squeeze(&mut skip);
            let mut c = vec![0u16; n];
            hash_to_point(&mut s, &mut c);
            assert_eq!(c, slow_from(&nonce, b"m", n, 6));
        }
    }

    #[test]
    fn point_hasher_matches_one_shot_for_any_split() {
        let nonce = [9u8; NONCE_LEN];
        let msg: Vec<u8> = (0..3000u32).map(|i| (i * 7 + 3) as u8).collect();
        let mut want = [0u16; 512];
        hash_to_point_msg(&nonce, &msg, &mut want);
        for split in [0usize, 1, 135, 136, 137, 2999, 3000] {
            for &b in Backend::ALL.iter().filter(|b| b.is_available()) {
                let mut h = PointHasher::new(b, &nonce, 9);
                h.update(&msg[..split]);
                h.update(&[]);
                h.update(&msg[split..]);
                let h2 = h.clone();
                assert_eq!(h.finalize(), want, "split {split} on {b}");
                let mut got = [0u16; 512];
                assert_eq!(
                    h2.clone().finalize_into(&mut got[..511]),
                    Err(Error::InvalidLength)
                );
                h2.finalize_into(&mut got).unwrap();
                assert_eq!(got, want, "split {split} on {b}");
            }
        }
    }

    #[test]
    fn matches_word_by_word_reading() {
        for logn in 1..=10 {
            let n = 1 << logn;
            let nonce = [logn as u8; NONCE_LEN];
            let mut c = vec![0u16; n];
            hash_to_point_msg(&nonce, b"message", &mut c);
            assert_eq!(c, slow(&nonce, b"message", n));
            assert!(c.iter().all(|&v| (v as u32) < params::Q));
            for b in Backend::available() {
                let mut cb = vec![0u16; n];
                hash_to_point_msg_on(b, &nonce, b"message", &mut cb);
                assert_eq!(cb, c, "{b}");
            }
        }
    }
}
