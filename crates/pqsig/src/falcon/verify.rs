//! Falcon verification and the NTT-based key computations, over the NTT kernels
//! (`kernels::falcon::ntt`), for every degree logn = 1..=10.
//!
//! * [`verify_raw`]: s1 = c − s2·h mod q (centred), accept iff ‖(s1, s2)‖² ≤ β²;
//! * [`compute_public`]: h = g/f mod q (fails if f is not invertible mod q);
//! * [`complete_private`]: G = g·F/f mod q, which must lie in [−127, 127];
//! * [`verify`] / [`open_signed_message`]: the whole round-3 check from encodings.
//!
//! Every function has a `_with` form taking an explicit kernel table (a backend);
//! the plain form uses the process-wide backend.
//!
//! Scratch polynomials live on the stack (≤ 3 × 2 KiB); those that held secrets are
//! wiped before returning. `compute_public` and `complete_private` handle secret f, g, F
//! in constant time; they reveal only their boolean result (whether f is invertible,
//! whether G fits), which key generation / key import treat as public.

use super::codec;
use super::hash::hash_to_point_msg_on;
use super::params::{self, NONCE_LEN};
use crate::error::Error;
use crate::kernels::falcon::codec::kernels as codec_kernels;
use crate::kernels::falcon::ntt::{self, NttKernels};
use crate::wipe::wipe;
use alloc::vec;
use alloc::vec::Vec;

const NMAX: usize = 1024;

fn shape_ok(logn: u32, lens: &[usize]) -> bool {
    params::logn_ok(logn) && lens.iter().all(|&l| l == 1usize << logn)
}

/// Puts a public key h (residues < q) in the form [`verify_raw`] takes: NTT domain,
/// Montgomery factor included. `h.len()` must be 2^logn (otherwise nothing is done).
pub fn to_ntt_monty(h: &mut [u16], logn: u32) {
    to_ntt_monty_with(ntt::active(), h, logn)
}

/// [`to_ntt_monty`] with an explicit backend.
pub fn to_ntt_monty_with(k: &NttKernels, h: &mut [u16], logn: u32) {
    if !shape_ok(logn, &[h.len()]) {
        return;
    }
    (k.ntt)(h, logn);
    (k.to_monty)(h);
}

/// The raw verification equation. `c0`: the hashed message (residues < q); `s2`: the
/// signature vector; `h_ntt`: the public key after [`to_ntt_monty`]; all 2^logn long.
/// True iff ‖s1‖² + ‖s2‖² ≤ [`params::l2_bound`]`(logn)` with s1 = c0 − s2·h mod q in
/// centred form. False on malformed input (wrong lengths, c0 ≥ q).
pub fn verify_raw(c0: &[u16], s2: &[i16], h_ntt: &[u16], logn: u32) -> bool {
    verify_raw_with(ntt::active(), c0, s2, h_ntt, logn)
}

/// [`verify_raw`] with an explicit backend.
pub fn verify_raw_with(k: &NttKernels, c0: &[u16], s2: &[i16], h_ntt: &[u16], logn: u32) -> bool {
    if !shape_ok(logn, &[c0.len(), s2.len(), h_ntt.len()]) {
        return false;
    }
    // Public data: early exits are fine. A coefficient with |s2| ≥ q alone exceeds every
    // bound (q² > β² for logn ≤ 10), and the kernels need |s2| < q and c0 < q.
    if c0.iter().any(|&v| v as u32 >= params::Q)
        || s2.iter().any(|&v| v.unsigned_abs() as u32 >= params::Q)
    {
        return false;
    }
    norm_ok(k, c0, s2, h_ntt, logn)
}

/// The verification equation on checked inputs: all 2^logn long, c0 < q, |s2| < q.
fn norm_ok(k: &NttKernels, c0: &[u16], s2: &[i16], h_ntt: &[u16], logn: u32) -> bool {
    let n = 1usize << logn;
    let mut tt = [0u16; NMAX];
    let tt = &mut tt[..n];
    // tt = s2·h − c0 = −s1 (mod q); the norm of −s1 is the norm of s1. (A kernel fusing
    // these steps in registers measured no faster: the transforms dominate.)
    (k.from_i16)(tt, s2);
    (k.ntt)(tt, logn);
    (k.mul_monty)(tt, h_ntt);
    (k.intt)(tt, logn);
    (k.sub)(tt, c0);
    let norm = (k.sqnorm_centered)(tt) + (k.sqnorm_i16)(s2);
    norm <= params::l2_bound(logn) as u64
}

/// h = g/f mod q (plain coefficients, residues < q). False if f is not invertible mod q
/// (some NTT coefficient of f is zero); `h` is then unspecified. All slices 2^logn long.
pub fn compute_public(h: &mut [u16], f: &[i8], g: &[i8], logn: u32) -> bool {
    compute_public_with(ntt::active(), h, f, g, logn)
}

/// [`compute_public`] with an explicit backend.
pub fn compute_public_with(k: &NttKernels, h: &mut [u16], f: &[i8], g: &[i8], logn: u32) -> bool {
    if !shape_ok(logn, &[h.len(), f.len(), g.len()]) {
        return false;
    }
    let n = 1usize << logn;
    let mut buf = [0u16; NMAX];
    let tf = &mut buf[..n];
    (k.from_i8)(tf, f);
    (k.from_i8)(h, g);
    (k.ntt)(tf, logn);
    (k.ntt)(h, logn);
    let ok = (k.div)(h, tf);
    (k.intt)(h, logn);
    wipe(&mut buf, [0; NMAX]);
    ok
}

/// G = g·F/f mod q, centred; true iff f is invertible mod q and every coefficient of G
/// lies in [−127, 127]. On failure `G` is zeroed. All slices 2^logn long. Constant time
/// except for the result.
#[allow(non_snake_case)]
pub fn complete_private(G: &mut [i8], f: &[i8], g: &[i8], F: &[i8], logn: u32) -> bool {
    complete_private_with(ntt::active(), G, f, g, F, logn)
}

/// [`complete_private`] with an explicit backend.
#[allow(non_snake_case)]
pub fn complete_private_with(
    k: &NttKernels,
    G: &mut [i8],
    f: &[i8],
    g: &[i8],
    F: &[i8],
    logn: u32,
) -> bool {
    if !shape_ok(logn, &[G.len(), f.len(), g.len(), F.len()]) {
        return false;
    }
    let n = 1usize << logn;
    let mut b1 = [0u16; NMAX];
    let mut b2 = [0u16; NMAX];
    let ok = {
        let (t1, t2) = (&mut b1[..n], &mut b2[..n]);
        (k.from_i8)(t1, g);
        (k.from_i8)(t2, F);
        (k.ntt)(t1, logn);
        (k.ntt)(t2, logn);
        // g·F in the NTT domain: the Montgomery product's 1/R is cancelled by to_monty.
        (k.to_monty)(t1);
        (k.mul_monty)(t1, t2);
        (k.from_i8)(t2, f);
        (k.ntt)(t2, logn);
        let inv = (k.div)(t1, t2);
        (k.intt)(t1, logn);
        // Centre and range-check without branching on the values: (127 − c) | (127 + c)
        // is negative iff |c| > 127.
        let mut bad = 0u32;
        for (o, &w) in G.iter_mut().zip(t1.iter()) {
            let (w, q) = (w as i32, params::Q as i32);
            // All ones iff w > (q − 1)/2 (arithmetic shift of a negative difference).
            let high = ((q >> 1) - w) >> 31;
            let c = w - (q & high);
            bad |= ((127 - c) | (127 + c)) as u32;
            *o = c as i8;
        }
        // Declassified: key validity (f invertible, G in range; key generation draws
        // again on false, a decoded key is refused). See ARCHITECTURE.md.
        crate::ct::public(inv & (bad >> 31 == 0))
    };
    wipe(&mut b1, [0; NMAX]);
    wipe(&mut b2, [0; NMAX]);
    if !ok {
        G.fill(0);
    }
    ok
}

/// A public key decoded and put in NTT form once, for many verifications.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedPublicKey {
    pub logn: u32,
    /// h after [`to_ntt_monty`].
    pub h_ntt: Vec<u16>,
}

impl PreparedPublicKey {
    /// Decodes `0x00+logn ‖ h` (any supported degree) and transforms h.
    pub fn from_bytes_with(k: &NttKernels, pk: &[u8]) -> Result<Self, Error> {
        let (logn, mut h) = codec::decode_public_key(pk)?;
        to_ntt_monty_with(k, &mut h, logn);
        Ok(PreparedPublicKey { logn, h_ntt: h })
    }

    /// From decoded h (residues < q, 2^logn of them).
    pub fn from_h_with(k: &NttKernels, h: &[u16], logn: u32) -> Result<Self, Error> {
        if !shape_ok(logn, &[h.len()]) || h.iter().any(|&v| v as u32 >= params::Q) {
            return Err(Error::InvalidKey);
        }
        let mut h = h.to_vec();
        to_ntt_monty_with(k, &mut h, logn);
        Ok(PreparedPublicKey { logn, h_ntt: h })
    }

    /// Checks (nonce, s2) against `msg`: `VerificationFailed` if the norm bound fails,
    /// `InvalidSignature` if s2 does not have this key's degree.
    pub fn verify_parts_with(
        &self,
        k: &NttKernels,
        nonce: &[u8; NONCE_LEN],
        msg: &[u8],
        s2: &[i16],
    ) -> Result<(), Error> {
        if !shape_ok(self.logn, &[self.h_ntt.len()]) {
            return Err(Error::InvalidKey);
        }
        let n = 1usize << self.logn;
        if s2.len() != n {
            return Err(Error::InvalidSignature);
        }
        let mut c0 = [0u16; NMAX];
        hash_to_point_msg_on(k.backend, nonce, msg, &mut c0[..n]);
        if verify_raw_with(k, &c0[..n], s2, &self.h_ntt, self.logn) {
            Ok(())
        } else {
            Err(Error::VerificationFailed)
        }
    }

    /// Verifies a detached signature (compressed, or padded if `padded`).
    ///
    /// Decodes s2 into a stack buffer, hashes with the Keccak permutation of `k`'s
    /// backend, and skips [`verify_raw`]'s range checks, which the decoder (|s2| ≤ 2047)
    /// and hash-to-point (c0 < q) guarantee.
    pub fn verify_with(
        &self,
        k: &NttKernels,
        msg: &[u8],
        sig: &[u8],
        padded: bool,
    ) -> Result<(), Error> {
        if !shape_ok(self.logn, &[self.h_ntt.len()]) {
            return Err(Error::InvalidKey);
        }
        let n = 1usize << self.logn;
        let mut s2 = [0i16; NMAX];
        let s2 = &mut s2[..n];
        let mut c0 = [0u16; NMAX];
        let c0 = &mut c0[..n];
        // The backend's codec kernels: on AVX-512, hash-to-point and the decoding of s2
        // interleaved in one pass (kernels::falcon::codec).
        let ck = codec_kernels(k.backend);
        if let Some(hash_and_decode) = ck.hash_and_decode {
            let (nonce, body) = codec::signature_parts(sig, self.logn, padded)?;
            let used =
                hash_and_decode(k, &nonce, msg, body, s2, c0).ok_or(Error::InvalidSignature)?;
            codec::signature_rest(body, used, padded)?;
        } else {
            let nonce = codec::decode_signature_into_with(ck, s2, sig, self.logn, padded)?;
            hash_to_point_msg_on(k.backend, &nonce, msg, c0);
        }
        if norm_ok(k, c0, s2, &self.h_ntt, self.logn) {
            Ok(())
        } else {
            Err(Error::VerificationFailed)
        }
    }
}

/// Round-3 Falcon verification from encodings: public key `0x00+logn ‖ h`, detached
/// signature `0x30+logn ‖ nonce ‖ comp(s2)` (compressed, or padded if `padded`), of the
/// same degree. Errors: `InvalidKey` (malformed key), `InvalidSignature` (malformed
/// signature, or a degree other than the key's), `VerificationFailed`.
pub fn verify(pk: &[u8], msg: &[u8], sig: &[u8], padded: bool) -> Result<(), Error> {
    verify_with(ntt::active(), pk, msg, sig, padded)
}

/// [`verify`] with an explicit backend.
pub fn verify_with(
    k: &NttKernels,
    pk: &[u8],
    msg: &[u8],
    sig: &[u8],
    padded: bool,
) -> Result<(), Error> {
    PreparedPublicKey::from_bytes_with(k, pk)?.verify_with(k, msg, sig, padded)
}

/// NIST API `crypto_sign_open`: verifies a signed message and returns the message.
/// `padded`: the padded layout `sig(padded) ‖ msg`; otherwise
/// `siglen ‖ nonce ‖ msg ‖ 0x20+logn ‖ comp(s2)`. The degree is the key's.
pub fn open_signed_message<'a>(pk: &[u8], sm: &'a [u8], padded: bool) -> Result<&'a [u8], Error> {
    open_signed_message_with(ntt::active(), pk, sm, padded)
}

/// [`open_signed_message`] with an explicit backend.
pub fn open_signed_message_with<'a>(
    k: &NttKernels,
    pk: &[u8],
    sm: &'a [u8],
    padded: bool,
) -> Result<&'a [u8], Error> {
    let key = PreparedPublicKey::from_bytes_with(k, pk)?;
    let parsed = if padded {
        codec::decode_signed_message_padded(sm, key.logn)?
    } else {
        codec::decode_signed_message(sm, key.logn)?
    };
    key.verify_parts_with(k, &parsed.nonce, parsed.msg, &parsed.s2)?;
    Ok(parsed.msg)
}

/// h = g/f as a public key encoding, for tests and key import checks.
pub fn public_key_from_fg(f: &[i8], g: &[i8], logn: u32) -> Result<Vec<u8>, Error> {
    if !shape_ok(logn, &[f.len(), g.len()]) {
        return Err(Error::InvalidKey);
    }
    let mut h = vec![0u16; 1 << logn];
    if !compute_public(&mut h, f, g, logn) {
        return Err(Error::InvalidKey);
    }
    codec::encode_public_key(&h, logn)
}
