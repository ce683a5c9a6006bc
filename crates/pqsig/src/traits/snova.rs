//! SNOVA: the salt is the only randomness, so `Signer` draws it from the OS (`std` only)
//! and `RandomizedSigner` from the caller's RNG.

use super::rng::Compat;
use super::{
    decode_pkcs8, decode_spki, encode_spki, hedged_signer, key_documents, key_invalid_pkcs8,
    key_invalid_spki, pkcs8_error, secret_document, sig_err, signature_type, wrong_family,
    wrong_family_pkcs8,
};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::keyfile::{self, MlDsaForm};
use crate::snova::{ExpandedSigningKey, ParamSet, PreparedVerifyingKey, SigningKey, VerifyingKey};
use pkcs8::der::SecretDocument;
use rand_core_0_10::TryCryptoRng;
use signature::{Keypair, RandomizedSigner, Verifier};
use spki::Document;

pub(super) fn check(bytes: &[u8]) -> Result<(), Error> {
    if ParamSet::ALL
        .iter()
        .any(|p| p.signature_len() == bytes.len())
    {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

signature_type!(
    /// A SNOVA Round 3 signature (packed nibbles ‖ 16-byte salt). `TryFrom<&[u8]>` checks
    /// that the length is that of some parameter set; verification checks it against the
    /// key's set and the padding nibble.
    Signature,
    check
);

// One 16-byte salt per signature, from the OS (`Signer`) or the caller's RNG
// (`RandomizedSigner`). `Keypair` recomputes the public key from the seeds (a full key
// generation): keep the result.
hedged_signer!(
    SigningKey,
    Signature,
    VerifyingKey,
    |k, r, m| k.sign_with_rng(m, r),
    |k| SigningKey::verifying_key(k)
);
hedged_signer!(
    ExpandedSigningKey,
    Signature,
    VerifyingKey,
    |k, r, m| k.sign_with_rng(m, r),
    |k| ExpandedSigningKey::verifying_key(k)
);

impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        VerifyingKey::verify(self, msg, &sig.0).map_err(sig_err)
    }
}

impl Verifier<Signature> for PreparedVerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        PreparedVerifyingKey::verify(self, msg, &sig.0).map_err(sig_err)
    }
}

key_documents!(Snova, VerifyingKey, SigningKey);

/// Decodes a [`VerifyingKey`] and prepares it.
impl spki::DecodePublicKey for PreparedVerifyingKey {
    fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
        Ok(<VerifyingKey as spki::DecodePublicKey>::from_public_key_der(bytes)?.prepare())
    }
}

/// Decodes a [`SigningKey`] and expands it.
impl pkcs8::DecodePrivateKey for ExpandedSigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        Ok(<SigningKey as pkcs8::DecodePrivateKey>::from_pkcs8_der(bytes)?.expand())
    }
}
