//! Verification: expand P (flat, m1 × (n·l)×(n·l)) from the public seed and P22, whip the
//! signature, evaluate the public map ([`super::eval`]) and compare with the target
//! SHAKE256(SHAKE256(pk)[..48] ‖ SHAKE256(msg, 64) ‖ salt).

use super::abq;
use super::codec;
use super::eval;
use super::expand;
use super::params::{ParamSet, DIGEST_LEN, PK_HASH_LEN, SALT_LEN, SEED_PUB_LEN};
use crate::error::Error;
use crate::kernels::gf16;
use crate::kernels::keccak::sponge::shake256;
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;

/// The target t (o·l·r nibbles) of a digest and salt.
pub(crate) fn target(
    ps: ParamSet,
    pk_hash: &[u8],
    digest: &[u8; DIGEST_LEN],
    salt: &[u8],
) -> Vec<u8> {
    let sh = ps.shape();
    let mut bytes = vec![0u8; sh.hash_bytes()];
    shake256(&[pk_hash, digest, salt], &mut bytes);
    codec::unpack_vec(&bytes, sh.olr())
}

/// SHAKE256(msg, 64).
pub(crate) fn digest(msg: &[u8]) -> [u8; DIGEST_LEN] {
    let mut d = [0u8; DIGEST_LEN];
    shake256(&[msg], &mut d);
    d
}

/// Checks the encoding of a public key: `InvalidLength`, or `InvalidKey` for a non-zero
/// padding nibble (odd element counts only; none of the Round-3 sets has one).
pub(crate) fn check_pk(ps: ParamSet, pk: &[u8]) -> Result<(), Error> {
    if pk.len() != ps.public_key_len() {
        return Err(Error::InvalidLength);
    }
    if codec::padding_ok(&pk[SEED_PUB_LEN..], ps.shape().pk_gf()) {
        Ok(())
    } else {
        Err(Error::InvalidKey)
    }
}

/// A public key with its P expanded (flat) and SHAKE256(pk) computed.
pub(crate) struct Expanded {
    pub p: Vec<u8>,
    pub pk_hash: [u8; PK_HASH_LEN],
}

/// Expands a (well-formed) public key.
pub(crate) fn expand_pk(ps: ParamSet, b: Backend, pk: &[u8]) -> Result<Expanded, Error> {
    check_pk(ps, pk)?;
    let seed: &[u8; SEED_PUB_LEN] = pk[..SEED_PUB_LEN]
        .try_into()
        .map_err(|_| Error::InvalidLength)?;
    let p = expand::full_p(ps, b, seed, &pk[SEED_PUB_LEN..]);
    let mut pk_hash = [0u8; PK_HASH_LEN];
    shake256(&[pk], &mut pk_hash);
    Ok(Expanded { p, pk_hash })
}

/// Checks `sig` on `msg` against an expanded key.
pub(crate) fn verify(
    ps: ParamSet,
    b: Backend,
    ek: &Expanded,
    msg: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let sh = ps.shape();
    if sig.len() != sh.sig_len() {
        return Err(Error::InvalidLength);
    }
    let (body, salt) = sig.split_at(sig.len() - SALT_LEN);
    let mut x = vec![0u8; sh.sig_gf()];
    if !codec::unpack_strict(&mut x, body) {
        return Err(Error::InvalidSignature);
    }
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let abq: &abq::Abq = &abq;
    let nl = sh.nl();
    let mut w = vec![0u8; nl * sh.lr()];
    eval::whip(&sh, k, abq, &x, sh.n(), &mut w);
    let mut out = vec![0u8; sh.olr()];
    let mut scratch = vec![0u8; eval::scratch_len(&sh, nl)];
    eval::eval(&sh, k, abq, &ek.p, nl, &w, &mut out, &mut scratch);
    let t = target(ps, &ek.pk_hash, &digest(msg), salt);
    if t == out {
        Ok(())
    } else {
        Err(Error::VerificationFailed)
    }
}
