//! Round-3 Falcon: no deterministic mode, so `Signer` draws from the OS (`std` only) and
//! `RandomizedSigner` from the caller's RNG (nonce, then sampler seed).

use super::rng::Compat;
use super::{
    decode_pkcs8, decode_spki, encode_spki, hedged_signer, key_documents, key_invalid_pkcs8,
    key_invalid_spki, pkcs8_error, secret_document, sig_err, signature_type, wrong_family,
    wrong_family_pkcs8,
};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::falcon::params::{HEADER_SIG, NONCE_LEN};
use crate::falcon::{ExpandedSigningKey, ParamSet, SigningKey, VerifyingKey};
use crate::keyfile::{self, MlDsaForm};
use pkcs8::der::SecretDocument;
use rand_core_0_10::TryCryptoRng;
use signature::{Keypair, RandomizedSigner, Verifier};
use spki::Document;

pub(super) fn check(bytes: &[u8]) -> Result<(), Error> {
    let max = match bytes.first().map(|h| h ^ HEADER_SIG) {
        Some(9) => ParamSet::Falcon512.signature_len(),
        Some(10) => ParamSet::Falcon1024.signature_len(),
        _ => return Err(Error::InvalidSignature),
    };
    if bytes.len() > 1 + NONCE_LEN && bytes.len() <= max {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

signature_type!(
    /// A round-3 Falcon signature, compressed (variable length, at most 752 / 1462 bytes)
    /// or padded (666 / 1280): `0x30+logn ‖ nonce ‖ s2`. `TryFrom<&[u8]>` checks the
    /// header and the length bounds; the rest is checked by verification.
    Signature,
    check
);

// Nonce (40 bytes) then sampler seed (48) per signature, from the OS (`Signer`) or the
// caller's RNG (`RandomizedSigner`), as the inherent `sign` / `sign_with_rng`.
hedged_signer!(
    SigningKey,
    Signature,
    VerifyingKey,
    |k, r, m| k.sign_with_rng(r, m),
    |k| SigningKey::verifying_key(k).clone()
);
hedged_signer!(
    ExpandedSigningKey,
    Signature,
    VerifyingKey,
    |k, r, m| k.sign_with_rng(r, m),
    |k| ExpandedSigningKey::verifying_key(k).clone()
);

/// A signature of the key's own encoding (compressed or padded, per parameter set).
impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        VerifyingKey::verify(self, msg, &sig.0).map_err(sig_err)
    }
}

// The OID picks the parameter set (padded or compressed signatures; the keys are alike).
key_documents!(Falcon, VerifyingKey, SigningKey);

/// Decodes a [`SigningKey`] and expands it.
impl pkcs8::DecodePrivateKey for ExpandedSigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        Ok(<SigningKey as pkcs8::DecodePrivateKey>::from_pkcs8_der(bytes)?.expand())
    }
}
