//! Verification: whip the signature, evaluate the public map ([`super::eval`]) and compare
//! with the target SHAKE256(SHAKE256(pk)[..48] ‖ SHAKE256(msg, 64) ‖ salt).
//!
//! P (m1 matrices (n·l)×(n·l): P11, P12, P21 from the public seed, P22 from the key) is
//! either expanded once and kept (row-interleaved, `PreparedVerifyingKey`) or, for a plain
//! `VerifyingKey`, streamed: decoded a few block rows at a time from the XOF bytes and the
//! key, each chunk folded into `Wᵀ·P` at once, so the full P is never materialised.

use super::abq;
use super::codec;
use super::eval;
use super::expand;
use super::params::{ParamSet, DIGEST_LEN, PK_HASH_LEN, SALT_LEN, SEED_PUB_LEN};
use super::scratch::Buf;
use crate::error::Error;
use crate::kernels::gf16;
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::shake256_on;
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;

/// The target t (o·l·r nibbles) of a digest and salt.
pub(crate) fn target(
    ps: ParamSet,
    b: Backend,
    pk_hash: &[u8],
    digest: &[u8; DIGEST_LEN],
    salt: &[u8],
) -> Vec<u8> {
    let sh = ps.shape();
    let mut bytes = vec![0u8; sh.hash_bytes()];
    shake256_on(permute1_for(b), &[pk_hash, digest, salt], &mut bytes);
    codec::unpack_vec(&bytes, sh.olr())
}

/// SHAKE256(msg, 64).
pub(crate) fn digest(b: Backend, msg: &[u8]) -> [u8; DIGEST_LEN] {
    let mut d = [0u8; DIGEST_LEN];
    shake256_on(permute1_for(b), &[msg], &mut d);
    d
}

/// Checks the encoding of a public key: `InvalidKey` for a wrong length or a non-zero
/// padding nibble (odd element counts only; none of the Round-3 sets has one).
pub(crate) fn check_pk(ps: ParamSet, pk: &[u8]) -> Result<(), Error> {
    if pk.len() != ps.public_key_len() {
        return Err(Error::InvalidKey);
    }
    if codec::padding_ok(&pk[SEED_PUB_LEN..], ps.shape().pk_gf()) {
        Ok(())
    } else {
        Err(Error::InvalidKey)
    }
}

/// SHAKE256(pk)[..48].
pub(crate) fn pk_hash(b: Backend, pk: &[u8]) -> [u8; PK_HASH_LEN] {
    let mut h = [0u8; PK_HASH_LEN];
    shake256_on(permute1_for(b), &[pk], &mut h);
    h
}

/// A public key with its P expanded (flat) and SHAKE256(pk) computed.
pub(crate) struct Expanded {
    pub p: Buf,
    pub pk_hash: [u8; PK_HASH_LEN],
}

/// Expands a (well-formed) public key.
pub(crate) fn expand_pk(ps: ParamSet, b: Backend, pk: &[u8]) -> Result<Expanded, Error> {
    check_pk(ps, pk)?;
    let seed: &[u8; SEED_PUB_LEN] = pk[..SEED_PUB_LEN]
        .try_into()
        .map_err(|_| Error::InvalidKey)?;
    let p = expand::full_p(ps, b, seed, &pk[SEED_PUB_LEN..]);
    Ok(Expanded {
        p,
        pk_hash: pk_hash(b, pk),
    })
}

/// Checks `sig` on `msg` against an expanded key.
pub(crate) fn verify(
    ps: ParamSet,
    b: Backend,
    ek: &Expanded,
    msg: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    verify_with(ps, b, Source::Expanded(ek), &digest(b, msg), sig)
}

/// Checks `sig` on `msg` against a public key, expanding P on the fly: P is decoded a few
/// block rows at a time and `Wᵀ·P` accumulated chunk by chunk, so the full P (80–320 KB)
/// is never materialised. `pk_hash` is SHAKE256(pk)[..48] (kept by the key).
pub(crate) fn verify_streamed(
    ps: ParamSet,
    b: Backend,
    pk: &[u8],
    pk_hash: &[u8; PK_HASH_LEN],
    msg: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    verify_streamed_digest(ps, b, pk, pk_hash, &digest(b, msg), sig)
}

/// [`verify_streamed`] given the message digest `dg` = SHAKE256(msg, 64) (computed
/// incrementally by the caller for a streamed message).
pub(crate) fn verify_streamed_digest(
    ps: ParamSet,
    b: Backend,
    pk: &[u8],
    pk_hash: &[u8; PK_HASH_LEN],
    dg: &[u8; DIGEST_LEN],
    sig: &[u8],
) -> Result<(), Error> {
    check_pk(ps, pk)?;
    verify_with(ps, b, Source::Streamed(pk, pk_hash), dg, sig)
}

enum Source<'a> {
    Expanded(&'a Expanded),
    Streamed(&'a [u8], &'a [u8; PK_HASH_LEN]),
}

/// Block rows of P decoded per streamed chunk.
const CHUNK_BLOCK_ROWS: usize = 8;

fn verify_with(
    ps: ParamSet,
    b: Backend,
    src: Source<'_>,
    dg: &[u8; DIGEST_LEN],
    sig: &[u8],
) -> Result<(), Error> {
    let sh = ps.shape();
    if sig.len() != sh.sig_len() {
        return Err(Error::InvalidSignature);
    }
    let (body, salt) = sig.split_at(sig.len() - SALT_LEN);
    let mut x = Buf::zeroed(sh.sig_gf());
    if !codec::unpack_strict(&mut x, body) {
        return Err(Error::InvalidSignature);
    }
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let abq: &abq::Abq = &abq;
    let (nl, lr, l, m1) = (sh.nl(), sh.lr(), sh.l, sh.m1);
    let mut w = Buf::zeroed(nl * lr);
    eval::whip(&sh, k, abq, &x, sh.n(), &mut w);
    let mut out = Buf::zeroed(sh.olr());
    let mut scratch = Buf::zeroed(eval::scratch_len(&sh, nl));
    let pk_hash = match src {
        Source::Expanded(ek) => {
            eval::eval(&sh, k, abq, &ek.p, nl, &w, &mut out, &mut scratch);
            ek.pk_hash
        }
        Source::Streamed(pk, pk_hash) => {
            let seed: &[u8; SEED_PUB_LEN] = pk[..SEED_PUB_LEN]
                .try_into()
                .map_err(|_| Error::InvalidKey)?;
            let nib = expand::public_bytes(ps, b, seed);
            let ld = m1 * nl;
            let mut chunk = Buf::zeroed(CHUNK_BLOCK_ROWS * l * ld);
            let ut = &mut scratch[..lr * ld];
            let n = sh.n();
            let mut bi0 = 0;
            while bi0 < n {
                let nb = CHUNK_BLOCK_ROWS.min(n - bi0);
                for (t, rows) in chunk.chunks_exact_mut(l * ld).take(nb).enumerate() {
                    expand::p_block_row(b, &sh, &nib, &pk[SEED_PUB_LEN..], bi0 + t, rows);
                }
                // Uᵀ += W[rows of the chunk]ᵀ · P[chunk].
                (k.gemm_acc)(
                    ut,
                    ld,
                    &w[bi0 * l * lr..],
                    1,
                    lr,
                    &chunk,
                    ld,
                    lr,
                    nb * l,
                    ld,
                );
                bi0 += nb;
            }
            (k.reduce)(ut);
            eval::eval_from_ut(&sh, k, abq, nl, &w, &mut out, &mut scratch);
            *pk_hash
        }
    };
    let t = target(ps, b, &pk_hash, dg, salt);
    if t[..] == out[..] {
        Ok(())
    } else {
        Err(Error::VerificationFailed)
    }
}
