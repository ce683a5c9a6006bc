//! BouncyCastle's Falcon private key, read (never written): BouncyCastle's PKCS#8
//! `privateKey` OCTET STRING holds a nested DER structure (its `FalconPrivateKey` ASN.1
//! class) instead of the OQS compact key `0x50+logn ‖ f ‖ g ‖ F` that pqsig writes:
//!
//! ```text
//! FalconPrivateKey ::= SEQUENCE {
//!     version    INTEGER (0),
//!     f          OCTET STRING,   -- trim_i8 f, as in the compact key (384 / 640 bytes)
//!     g          OCTET STRING,   -- trim_i8 g (384 / 640 bytes)
//!     F          OCTET STRING,   -- trim_i8 F (512 / 1024 bytes)
//!     publicKey  SEQUENCE { h OCTET STRING } OPTIONAL }
//!                                -- h without the 0x00+logn header (896 / 1792 bytes)
//! ```
//!
//! 2,203 bytes for Falcon-512 with the public key (the size BouncyCastle 1.87 writes). The polynomials use the compact key's
//! own packing, so the compact key is the header byte followed by f, g and F; the scheme
//! then validates it (and recomputes G and h). A public key, when present, must be the one
//! f, g, F give ([`KeyFileError::PublicKeyMismatch`] otherwise); the header-less h is what
//! BouncyCastle writes, the full 897/1793-byte key is accepted too.
//!
//! The two layouts are told apart by their first byte: a DER SEQUENCE (0x30) here, the
//! compact key's header 0x50+logn (0x59 / 0x5a) there.

use super::der::{Reader, TAG_OCTET_STRING, TAG_SEQUENCE};
use super::KeyFileError;
use crate::falcon::{params, ParamSet};
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// Whether `content` (a PKCS#8 `privateKey`) is in the nested layout.
pub(crate) fn is_nested(content: &[u8]) -> bool {
    content.first() == Some(&TAG_SEQUENCE)
}

/// A nested key, converted: the compact key and the public key the file carried (as
/// written: header-less h or the full key).
pub(crate) struct Decoded<'a> {
    pub compact: Zeroizing<Vec<u8>>,
    pub public: Option<&'a [u8]>,
}

/// Reads one OCTET STRING of exactly `expected` bytes.
fn octets<'a>(r: &mut Reader<'a>, expected: usize) -> Result<&'a [u8], KeyFileError> {
    let v = r.read(TAG_OCTET_STRING)?;
    if v.len() != expected {
        return Err(KeyFileError::WrongKeyLength {
            expected,
            found: v.len(),
        });
    }
    Ok(v)
}

/// Converts the nested layout of parameter set `ps` into the compact key. Only the
/// structure and lengths are checked here; the caller loads the key and compares the
/// public key.
pub(crate) fn decode(ps: ParamSet, content: &[u8]) -> Result<Decoded<'_>, KeyFileError> {
    let logn = ps.logn();
    let n = params::degree(logn);
    let fg_len = (n * params::FG_BITS[logn as usize] as usize).div_ceil(8);
    let cap_len = (n * params::FG_CAP_BITS[logn as usize] as usize).div_ceil(8);
    let mut outer = Reader::new(content);
    let mut r = outer.read_sequence()?;
    outer.finish()?;
    let version = r.read_small_uint()?;
    if version != 0 {
        return Err(KeyFileError::UnsupportedVersion(version));
    }
    let f = octets(&mut r, fg_len)?;
    let g = octets(&mut r, fg_len)?;
    let cap_f = octets(&mut r, cap_len)?;
    let public = if r.is_empty() {
        None
    } else {
        let mut pk = r.read_sequence()?;
        let h = pk.read(TAG_OCTET_STRING)?;
        pk.finish()?;
        if h.len() != ps.public_key_len() && h.len() != ps.public_key_len() - 1 {
            return Err(KeyFileError::WrongKeyLength {
                expected: ps.public_key_len() - 1,
                found: h.len(),
            });
        }
        Some(h)
    };
    r.finish()?;
    let mut compact = Zeroizing::new(Vec::with_capacity(ps.secret_key_len()));
    compact.push(params::HEADER_SK + logn as u8);
    compact.extend_from_slice(f);
    compact.extend_from_slice(g);
    compact.extend_from_slice(cap_f);
    Ok(Decoded { compact, public })
}
