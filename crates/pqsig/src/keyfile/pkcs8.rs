//! OneAsymmetricKey (RFC 5958; PKCS#8 v1 is its version 0):
//!
//! ```text
//! OneAsymmetricKey ::= SEQUENCE {
//!     version                   INTEGER { v1(0), v2(1) },
//!     privateKeyAlgorithm       AlgorithmIdentifier,       -- parameters absent
//!     privateKey                OCTET STRING,
//!     attributes            [0] IMPLICIT Attributes OPTIONAL,   -- skipped on input
//!     ...,
//!     [[2: publicKey        [1] IMPLICIT BIT STRING OPTIONAL ]], -- v2 only
//!     ... }
//! ```
//!
//! Output is always version 0 without attributes or public key (what RFC 9881 and pyca
//! `cryptography` write). On input, version 1 with a `publicKey` is accepted and the public
//! key is returned so the caller can check it against the private key.
//!
//! For ML-DSA the `privateKey` OCTET STRING holds the RFC 9881 §6 CHOICE, told apart by
//! its tag:
//!
//! ```text
//! ML-DSA-xx-PrivateKey ::= CHOICE {
//!     seed        [0] IMPLICIT OCTET STRING (SIZE (32)),          -- tag 0x80
//!     expandedKey OCTET STRING (SIZE (2560 | 4032 | 4896)),        -- tag 0x04
//!     both        SEQUENCE { seed OCTET STRING (SIZE (32)),         -- tag 0x30
//!                            expandedKey OCTET STRING } }
//! ```

use super::der::{self, Reader};
use super::der::{
    TAG_BIT_STRING, TAG_CONTEXT_0_CONSTRUCTED, TAG_CONTEXT_0_PRIMITIVE, TAG_CONTEXT_1_PRIMITIVE,
    TAG_OCTET_STRING, TAG_SEQUENCE,
};
use super::spki::{read_algorithm_identifier, write_algorithm_identifier};
use super::KeyFileError;
use crate::algorithm::Algorithm;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// A parsed OneAsymmetricKey, borrowing from the input.
pub(crate) struct Parsed<'a> {
    pub alg: Algorithm,
    pub private_key: &'a [u8],
    pub public_key: Option<&'a [u8]>,
}

/// DER OneAsymmetricKey v1 wrapping `private_key` (the content of the OCTET STRING).
pub(crate) fn encode(alg: Algorithm, private_key: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut inner = Zeroizing::new(Vec::with_capacity(private_key.len() + 40));
    der::write(&mut inner, der::TAG_INTEGER, &[0]);
    write_algorithm_identifier(&mut inner, alg);
    der::write(&mut inner, TAG_OCTET_STRING, private_key);
    let mut out = Zeroizing::new(Vec::with_capacity(inner.len() + 5));
    der::write(&mut out, TAG_SEQUENCE, &inner);
    out
}

pub(crate) fn decode(data: &[u8]) -> Result<Parsed<'_>, KeyFileError> {
    let mut outer = Reader::new(data);
    let mut r = outer.read_sequence()?;
    outer.finish()?;
    let version = r.read_small_uint()?;
    if version > 1 {
        return Err(KeyFileError::UnsupportedVersion(version));
    }
    let alg = read_algorithm_identifier(&mut r)?;
    let private_key = r.read(TAG_OCTET_STRING)?;
    if r.peek_tag() == Some(TAG_CONTEXT_0_CONSTRUCTED) {
        r.read_any()?; // attributes: not used
    }
    let mut public_key = None;
    if r.peek_tag() == Some(TAG_CONTEXT_1_PRIMITIVE) {
        if version != 1 {
            return Err(KeyFileError::UnsupportedVersion(version));
        }
        // [1] IMPLICIT BIT STRING: same content rules as a BIT STRING.
        let c = r.read(TAG_CONTEXT_1_PRIMITIVE)?;
        let mut tmp = Vec::with_capacity(c.len() + 4);
        der::write(&mut tmp, TAG_BIT_STRING, c);
        Reader::new(&tmp).read_bit_string_octets()?;
        public_key = Some(c.get(1..).unwrap_or(&[]));
    }
    r.finish()?;
    Ok(Parsed {
        alg,
        private_key,
        public_key,
    })
}

/// The ML-DSA private key CHOICE, decoded.
pub(crate) enum MlDsaChoice<'a> {
    Seed(&'a [u8]),
    Expanded(&'a [u8]),
    Both { seed: &'a [u8], expanded: &'a [u8] },
}

pub(crate) fn decode_mldsa_choice(content: &[u8]) -> Result<MlDsaChoice<'_>, KeyFileError> {
    let mut r = Reader::new(content);
    let tag = r.peek_tag().ok_or(der::DerError::Truncated)?;
    let choice = match tag {
        TAG_CONTEXT_0_PRIMITIVE => MlDsaChoice::Seed(r.read(TAG_CONTEXT_0_PRIMITIVE)?),
        TAG_OCTET_STRING => MlDsaChoice::Expanded(r.read(TAG_OCTET_STRING)?),
        TAG_SEQUENCE => {
            let mut s = r.read_sequence()?;
            let seed = s.read(TAG_OCTET_STRING)?;
            let expanded = s.read(TAG_OCTET_STRING)?;
            s.finish()?;
            MlDsaChoice::Both { seed, expanded }
        }
        found => {
            return Err(KeyFileError::Der(der::DerError::UnexpectedTag {
                expected: TAG_CONTEXT_0_PRIMITIVE,
                found,
            }))
        }
    };
    r.finish()?;
    Ok(choice)
}

pub(crate) fn encode_mldsa_seed(seed: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(34));
    der::write(&mut out, TAG_CONTEXT_0_PRIMITIVE, seed);
    out
}

pub(crate) fn encode_mldsa_expanded(sk: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(Vec::with_capacity(sk.len() + 4));
    der::write(&mut out, TAG_OCTET_STRING, sk);
    out
}

pub(crate) fn encode_mldsa_both(seed: &[u8], sk: &[u8]) -> Zeroizing<Vec<u8>> {
    let mut inner = Zeroizing::new(Vec::with_capacity(seed.len() + sk.len() + 8));
    der::write(&mut inner, TAG_OCTET_STRING, seed);
    der::write(&mut inner, TAG_OCTET_STRING, sk);
    let mut out = Zeroizing::new(Vec::with_capacity(inner.len() + 4));
    der::write(&mut out, TAG_SEQUENCE, &inner);
    out
}
