//! Round-3 Falcon signing at the byte level, as the reference's `crypto_sign` computes it
//! (PQClean `falcon-{512,1024}` and `falcon-padded-{512,1024}`):
//!
//! 1. decode the compact secret key `0x50 + logn ‖ f ‖ g ‖ F` and recompute G;
//! 2. `c = HashToPoint(SHAKE256(nonce ‖ message))`;
//! 3. `rng = SHAKE256(seed)` (48 bytes); sign `c` with it (each attempt seeds the sampler
//!    PRNG with the next 56 bytes, see the `sign` module);
//! 4. encode `0x30 + logn ‖ nonce ‖ comp(s2)`. If comp(s2) does not fit — the variable
//!    length form allows [`params::sig_compressed_max_size`] bytes in all, the padded
//!    form exactly [`params::sig_padded_size`] — sign again with the same nonce and the
//!    same SHAKE256 context (which the padded reference does; for the variable-length
//!    form the reference gives up instead, which has never been observed to happen at
//!    n = 512 or 1024, so the KATs do not tell the two apart).
//!
//! The nonce and the seed are inputs: the NIST KAT harness draws them from its DRBG
//! (40 then 48 bytes after the 48-byte keygen draw); a real signer draws them from the
//! OS. The result is the detached signature; the NIST signed-message layout
//! (`siglen ‖ nonce ‖ msg ‖ 0x20 + logn ‖ comp(s2)`) and the padded one (`sig ‖ msg`) are
//! rearrangements of it (`falcon::codec`).

use super::{CompactKey, ExpandedKey};
use crate::error::Error;
use crate::falcon::params::{self, NONCE_LEN};
use crate::falcon::{codec, hash, verify};
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::Shake256;
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroize;

/// Length of the signing seed (the SHAKE256 input of the sampler's randomness).
pub const SEED_LEN: usize = 48;

/// Detached signature format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `0x30 + logn ‖ nonce ‖ comp(s2)`, variable length (Falcon-512 / Falcon-1024).
    Compressed,
    /// The same, zero-padded to a fixed length (666 / 1280 bytes; Falcon-padded-512 /
    /// Falcon-padded-1024).
    Padded,
}

#[allow(non_snake_case)]
impl CompactKey {
    /// Decodes a compact secret key (`0x50 + logn ‖ f ‖ g ‖ F`, any logn 1..=10) and
    /// recomputes G = g·F/f mod q, with the active backend. Errors: `InvalidKey` for a
    /// malformed encoding or a key whose G does not fit in [−127, 127] (f not invertible
    /// mod q included).
    pub fn from_bytes(sk: &[u8]) -> Result<CompactKey, Error> {
        let parts = codec::decode_secret_key(sk)?;
        let logn = parts.logn;
        let mut G = vec![0i8; 1 << logn];
        let ok = verify::complete_private(&mut G, &parts.f, &parts.g, &parts.F, logn);
        let key = if ok {
            CompactKey::new(&parts.f, &parts.g, &parts.F, &G, logn)
        } else {
            Err(Error::InvalidKey)
        };
        G.zeroize();
        key
    }

    /// Round-3 signature of `msg` (dynamic mode); see the module docs.
    pub fn sign_round3(
        &self,
        msg: &[u8],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
        format: Format,
    ) -> Result<Vec<u8>, Error> {
        sign_bytes(
            self.backend(),
            self.logn,
            msg,
            nonce,
            seed,
            format,
            |hm, rng, s2| self.sign(hm, rng, s2),
        )
    }

    /// Round-3 signature from the hashed point `hm` = HashToPoint(SHAKE256(nonce ‖
    /// message)) (2^logn coefficients, else `InvalidLength`), for messages hashed
    /// incrementally ([`crate::falcon::hash::PointHasher`]): steps 3–4 of the module
    /// docs, so the bytes equal [`CompactKey::sign_round3`]'s for the same nonce and seed.
    pub fn sign_round3_point(
        &self,
        hm: &[u16],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
        format: Format,
    ) -> Result<Vec<u8>, Error> {
        if hm.len() != 1usize << self.logn {
            return Err(Error::InvalidLength);
        }
        sign_point(
            self.backend(),
            self.logn,
            hm,
            nonce,
            seed,
            format,
            |hm, rng, s2| self.sign(hm, rng, s2),
        )
    }
}

impl ExpandedKey {
    /// Decodes a compact secret key (see [`CompactKey::from_bytes`]) and expands it.
    pub fn from_bytes(sk: &[u8]) -> Result<ExpandedKey, Error> {
        CompactKey::from_bytes(sk)?.try_expand()
    }

    /// Same, with the kernels of backend `b`.
    pub fn from_bytes_with_backend(sk: &[u8], b: Backend) -> Result<ExpandedKey, Error> {
        CompactKey::from_bytes(sk)?.with_backend(b).try_expand()
    }

    /// Round-3 signature of `msg` (expanded-key mode); see the module docs. Same output
    /// as [`CompactKey::sign_round3`].
    pub fn sign_round3(
        &self,
        msg: &[u8],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SEED_LEN],
        format: Format,
    ) -> Result<Vec<u8>, Error> {
        sign_bytes(
            self.backend(),
            self.logn,
            msg,
            nonce,
            seed,
            format,
            |hm, rng, s2| self.sign(hm, rng, s2),
        )
    }
}

/// Round-3 signature of `msg` under the compact secret key `sk` (dynamic mode, active
/// backend): the detached signature `0x30 + logn ‖ nonce ‖ comp(s2)` (padded or not).
pub fn sign(
    sk: &[u8],
    msg: &[u8],
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    format: Format,
) -> Result<Vec<u8>, Error> {
    CompactKey::from_bytes(sk)?.sign_round3(msg, nonce, seed, format)
}

/// [`sign`] with the kernels of backend `b`.
pub fn sign_with_backend(
    b: Backend,
    sk: &[u8],
    msg: &[u8],
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    format: Format,
) -> Result<Vec<u8>, Error> {
    CompactKey::from_bytes(sk)?
        .with_backend(b)
        .sign_round3(msg, nonce, seed, format)
}

/// Steps 2–4 of the module docs around one signer (`sign_once(hm, rng, s2)`).
fn sign_bytes(
    b: Backend,
    logn: u32,
    msg: &[u8],
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    format: Format,
    sign_once: impl FnMut(&[u16], &mut Shake256, &mut [i16]) -> Result<(), Error>,
) -> Result<Vec<u8>, Error> {
    let mut hm = vec![0u16; 1usize << logn];
    hash::hash_to_point_msg_on(b, nonce, msg, &mut hm);
    sign_point(b, logn, &hm, nonce, seed, format, sign_once)
}

/// Steps 3–4 of the module docs from the hashed point `hm` (2^logn coefficients).
fn sign_point(
    b: Backend,
    logn: u32,
    hm: &[u16],
    nonce: &[u8; NONCE_LEN],
    seed: &[u8; SEED_LEN],
    format: Format,
    mut sign_once: impl FnMut(&[u16], &mut Shake256, &mut [i16]) -> Result<(), Error>,
) -> Result<Vec<u8>, Error> {
    let n = 1usize << logn;
    let mut rng = Shake256::new().with_permutation(permute1_for(b));
    rng.absorb(seed);
    let size = match format {
        Format::Compressed => params::sig_compressed_max_size(logn),
        Format::Padded => params::sig_padded_size(logn),
    };
    let head = 1 + NONCE_LEN;
    let mut out = vec![0u8; size];
    out[0] = params::HEADER_SIG + logn as u8;
    out[1..head].copy_from_slice(nonce);
    let mut s2 = vec![0i16; n];
    // Each retry is a public event (the signature was too long), like a norm rejection.
    // A valid key fits the padded size with overwhelming probability after a few
    // attempts; the cap only stops keys that are not Falcon keys.
    let mut len = None;
    for _ in 0..super::MAX_ATTEMPTS {
        sign_once(hm, &mut rng, &mut s2)?;
        // s2 passed the norm check: it is the signature unless it is too long to encode
        // (a public retry). Declassified (docs/ARCHITECTURE.md).
        crate::ct::public_mut(&mut s2[..]);
        if let Some(k) = codec::comp_encode(&mut out[head..], &s2, logn) {
            len = Some(head + k);
            break;
        }
    }
    let len = len.ok_or(Error::InvalidKey)?;
    match format {
        Format::Compressed => out.truncate(len),
        Format::Padded => out[len..].fill(0),
    }
    Ok(out)
}
