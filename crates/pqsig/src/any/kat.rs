//! The NIST `PQCgenKAT_sign` records of every algorithm: `crypto_sign_keypair` then
//! `crypto_sign` driven by the harness DRBG, and `crypto_sign_open` on the signed
//! message. Byte-exact with each scheme's official `.rsp` files (the CLI's `pqsig kat`
//! and the KAT tests regenerate them through here).

use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::falcon::{self, fndsa};
use crate::rng::drbg::KatDrbg;
use crate::{mldsa, snova};
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// The name of the algorithm's official KAT file: round-3 Falcon's own
/// `falcon512-KAT.rsp` / `falcon-padded-512-KAT.rsp` style, otherwise what
/// `PQCgenKAT_sign.c` writes, `PQCsignKAT_<name>.rsp` (ML-DSA, SNOVA; FN-DSA has no
/// official file yet and follows the same pattern).
pub fn rsp_file_name(alg: Algorithm) -> alloc::string::String {
    match alg {
        Algorithm::Falcon(ps) if ps.padded() => {
            alloc::format!("falcon-padded-{}-KAT.rsp", 1u32 << ps.logn())
        }
        Algorithm::Falcon(ps) => alloc::format!("falcon{}-KAT.rsp", 1u32 << ps.logn()),
        _ => alloc::format!("PQCsignKAT_{}.rsp", alg.name()),
    }
}

/// One KAT record's outputs: the encodings `crypto_sign_keypair` / `crypto_sign` produce.
pub struct KatRecord {
    /// The public key (the `pk` line).
    pub pk: Vec<u8>,
    /// The secret key in the scheme's standard encoding (the `sk` line; wiped on drop).
    pub sk: Zeroizing<Vec<u8>>,
    /// The signed message `sm` as `crypto_sign` writes it.
    pub sm: Vec<u8>,
}

/// Runs `crypto_sign_keypair` then `crypto_sign(msg)` with `randombytes` = `drbg`, as the
/// scheme's NIST reference implementation does.
///
/// ML-DSA (pq-crystals reference, FIPS 204 final): keypair draws ξ = 32 bytes; signing
/// draws rnd = 32 bytes; pure ML-DSA with an empty context; `sm = sig || msg`.
///
/// SNOVA (Round 3, liboqs PR #2562 / the official `dist/KATs`): keypair draws 48 bytes
/// (s_pub ‖ s_priv); signing draws the 16-byte salt; `sk` is the 96-byte
/// s_pub ‖ s_priv ‖ SHAKE256(pk)[..48]; `sm = sig || msg` (the salt ends `sig`).
pub fn kat_record(alg: Algorithm, drbg: &mut KatDrbg, msg: &[u8]) -> Result<KatRecord, Error> {
    kat_record_with(alg, drbg, msg, &mut || {})
}

/// [`kat_record`], calling `between` once key generation is done and before signing
/// starts (a caller measuring the two apart: device cycles per signature).
pub fn kat_record_with(
    alg: Algorithm,
    drbg: &mut KatDrbg,
    msg: &[u8],
    between: &mut dyn FnMut(),
) -> Result<KatRecord, Error> {
    match alg {
        Algorithm::MlDsa(ps) => {
            let (sk, vk) = mldsa::keygen_with_rng(ps, drbg)?;
            between();
            let mut sm = sk.sign_with_rng(drbg, msg, &[])?;
            sm.extend_from_slice(msg);
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: sk.to_expanded_bytes(),
                sm,
            })
        }
        Algorithm::Falcon(ps) => {
            let (sk, vk) = falcon::keygen_with_rng(ps, drbg)?;
            between();
            let sig = sk.sign_with_rng(drbg, msg)?;
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: Zeroizing::new(sk.to_bytes().to_vec()),
                sm: falcon::keys::signed_message(ps, &sig, msg)?,
            })
        }
        Algorithm::FnDsa(ps) => {
            let (sk, vk) = fndsa::keygen_with_rng(ps.logn(), drbg)?;
            between();
            let mut sm = sk.sign_with_rng(drbg, msg, &[])?;
            sm.extend_from_slice(msg);
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: Zeroizing::new(sk.to_bytes().to_vec()),
                sm,
            })
        }
        Algorithm::Snova(ps) => {
            let (sk, vk) = snova::keygen_with_rng(ps, drbg)?;
            between();
            let sig = sk.sign_with_rng(msg, drbg)?;
            Ok(KatRecord {
                pk: vk.to_bytes().to_vec(),
                sk: Zeroizing::new(sk.to_bytes().to_vec()),
                sm: snova::signed_message(ps, &sig, msg)?,
            })
        }
    }
}

/// `crypto_sign_open`: checks a KAT signed message against `pk` and returns the message.
pub fn kat_open(alg: Algorithm, pk: &[u8], sm: &[u8]) -> Result<Vec<u8>, Error> {
    match alg {
        Algorithm::MlDsa(ps) => {
            let n = ps.signature_len();
            if sm.len() < n {
                return Err(Error::InvalidSignature);
            }
            let (sig, msg) = sm.split_at(n);
            mldsa::VerifyingKey::from_bytes(ps, pk)?.verify(msg, &[], sig)?;
            Ok(msg.to_vec())
        }
        Algorithm::Falcon(ps) => Ok(falcon::VerifyingKey::from_bytes(ps, pk)?.open(sm)?.to_vec()),
        Algorithm::FnDsa(ps) => {
            let n = ps.signature_len();
            if sm.len() < n {
                return Err(Error::InvalidSignature);
            }
            let (sig, msg) = sm.split_at(n);
            fndsa::VerifyingKey::from_bytes_logn(ps.logn(), pk)?.verify(msg, &[], sig)?;
            Ok(msg.to_vec())
        }
        Algorithm::Snova(ps) => Ok(snova::VerifyingKey::from_bytes(ps, pk)?.open(sm)?.to_vec()),
    }
}
