//! FN-DSA (draft): hedged only, so `Signer` draws from the OS (`std` only) and
//! `RandomizedSigner` from the caller's RNG; the context is empty in both.

use super::rng::Compat;
use super::{
    decode_pkcs8, decode_spki, encode_spki, key_invalid_pkcs8, key_invalid_spki, pkcs8_error,
    secret_document, sig_err, signature_type, wrong_family, wrong_family_pkcs8,
};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::falcon::fndsa::params::{logn_ok, signature_size};
use crate::falcon::fndsa::{SigningKey, VerifyingKey};
use crate::falcon::FnDsaParamSet;
use crate::keyfile::{self, MlDsaForm};
use pkcs8::der::SecretDocument;
use rand_core_0_10::TryCryptoRng;
use signature::{Keypair, RandomizedSigner, Verifier};
use spki::Document;

pub(super) fn check(bytes: &[u8]) -> Result<(), Error> {
    match bytes.first() {
        Some(&h) if h & 0xF0 == 0x30 && logn_ok(u32::from(h & 0x0F)) => {
            if bytes.len() == signature_size(u32::from(h & 0x0F)) {
                Ok(())
            } else {
                Err(Error::InvalidSignature)
            }
        }
        _ => Err(Error::InvalidSignature),
    }
}

signature_type!(
    /// An FN-DSA (draft) signature: `0x30+logn ‖ nonce ‖ comp(s2) ‖ zeros`, of the fixed
    /// length of its degree (666 bytes for FN-DSA-512, 1280 for FN-DSA-1024).
    /// `TryFrom<&[u8]>` checks the header and that length.
    Signature,
    check
);

/// The parameter set of a degree, for key files (which name only 512 and 1024).
fn param_set(logn: u32) -> Option<FnDsaParamSet> {
    FnDsaParamSet::ALL.into_iter().find(|p| p.logn() == logn)
}

#[cfg(feature = "std")]
impl signature::Signer<Signature> for SigningKey {
    /// Seed from the OS, empty context: [`SigningKey::sign`]`(msg, b"")`.
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        SigningKey::sign(self, msg, b"")
            .map(Signature)
            .map_err(sig_err)
    }
}

impl RandomizedSigner<Signature> for SigningKey {
    /// [`SigningKey::sign_with_rng`]`(rng, msg, b"")`: one 40-byte seed draw.
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        Compat::run(rng, |r| self.sign_with_rng(r, msg, b""))
            .map(Signature)
            .map_err(sig_err)
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;
    fn verifying_key(&self) -> VerifyingKey {
        SigningKey::verifying_key(self)
    }
}

/// Pure FN-DSA, empty context.
impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        VerifyingKey::verify(self, msg, b"", &sig.0).map_err(sig_err)
    }
}

impl spki::EncodePublicKey for VerifyingKey {
    /// FN-DSA-512 and -1024 only (the degrees with an OID).
    fn to_public_key_der(&self) -> spki::Result<Document> {
        let ps = param_set(self.logn()).ok_or(spki::Error::KeyMalformed)?;
        encode_spki(Algorithm::FnDsa(ps), self.to_bytes())
    }
}

impl spki::DecodePublicKey for VerifyingKey {
    fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
        match decode_spki(bytes)? {
            (Algorithm::FnDsa(ps), pk) => {
                VerifyingKey::from_bytes_logn(ps.logn(), &pk).map_err(key_invalid_spki)
            }
            (other, _) => Err(wrong_family(other)),
        }
    }
}

impl pkcs8::EncodePrivateKey for SigningKey {
    /// FN-DSA-512 and -1024 only.
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let ps =
            param_set(self.logn()).ok_or(pkcs8::Error::KeyMalformed(pkcs8::KeyError::Invalid))?;
        let der =
            keyfile::encode_private_der(Algorithm::FnDsa(ps), self.to_bytes(), MlDsaForm::Seed)
                .map_err(pkcs8_error)?;
        secret_document(&der)
    }
}

impl pkcs8::DecodePrivateKey for SigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        let key = decode_pkcs8(bytes)?;
        let Algorithm::FnDsa(ps) = key.algorithm() else {
            return Err(wrong_family_pkcs8(key.algorithm()));
        };
        let sk = key.secret_key_bytes().map_err(pkcs8_error)?;
        SigningKey::from_bytes_logn(ps.logn(), &sk).map_err(key_invalid_pkcs8)
    }
}
