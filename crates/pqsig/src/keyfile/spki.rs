//! SubjectPublicKeyInfo (RFC 5280 §4.1.2.7):
//!
//! ```text
//! SubjectPublicKeyInfo ::= SEQUENCE {
//!     algorithm          AlgorithmIdentifier,   -- SEQUENCE { OID }, parameters absent
//!     subjectPublicKey   BIT STRING }           -- the raw public key, 0 unused bits
//! ```
//!
//! For ML-DSA this is RFC 9881 §4 (parameters MUST be absent); the other algorithms
//! follow the same shape with their provisional OIDs.

use super::der::{self, Reader, TAG_OID, TAG_SEQUENCE};
use super::oid;
use super::KeyFileError;
use crate::algorithm::Algorithm;
use alloc::vec::Vec;

/// `AlgorithmIdentifier` with absent parameters.
pub(crate) fn write_algorithm_identifier(out: &mut Vec<u8>, alg: Algorithm) {
    let mut inner = Vec::new();
    der::write(&mut inner, TAG_OID, &oid::oid_der(alg));
    der::write(out, TAG_SEQUENCE, &inner);
}

/// Reads an `AlgorithmIdentifier`; parameters must be absent.
pub(crate) fn read_algorithm_identifier(r: &mut Reader<'_>) -> Result<Algorithm, KeyFileError> {
    let mut ai = r.read_sequence()?;
    let oid_bytes = ai.read(TAG_OID)?;
    let alg = oid::algorithm_from_oid_der(oid_bytes).ok_or_else(|| {
        KeyFileError::UnknownOid(
            oid::oid_der_to_string(oid_bytes)
                .unwrap_or_else(|| alloc::string::String::from("<malformed>")),
        )
    })?;
    if !ai.is_empty() {
        return Err(KeyFileError::ParametersPresent);
    }
    Ok(alg)
}

/// DER SubjectPublicKeyInfo for `pk` (length checked by the caller).
pub(crate) fn encode(alg: Algorithm, pk: &[u8]) -> Vec<u8> {
    let mut inner = Vec::with_capacity(pk.len() + 32);
    write_algorithm_identifier(&mut inner, alg);
    der::write_bit_string(&mut inner, pk);
    let mut out = Vec::with_capacity(inner.len() + 5);
    der::write(&mut out, TAG_SEQUENCE, &inner);
    out
}

/// Parses a DER SubjectPublicKeyInfo: (algorithm, public key bytes). The key length is
/// checked against the algorithm; its content is left to the scheme.
pub(crate) fn decode(data: &[u8]) -> Result<(Algorithm, &[u8]), KeyFileError> {
    let mut outer = Reader::new(data);
    let mut spki = outer.read_sequence()?;
    outer.finish()?;
    let alg = read_algorithm_identifier(&mut spki)?;
    let pk = spki.read_bit_string_octets()?;
    spki.finish()?;
    if pk.len() != alg.public_key_len() {
        return Err(KeyFileError::WrongKeyLength {
            expected: alg.public_key_len(),
            found: pk.len(),
        });
    }
    Ok((alg, pk))
}
