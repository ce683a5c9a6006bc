//! SNOVA: the salt is the only randomness, so `Signer` draws it from the OS (`std` only)
//! and `RandomizedSigner` from the caller's RNG.

use super::rng::Compat;
use super::{
    decode_pkcs8, decode_spki, encode_spki, key_invalid_pkcs8, key_invalid_spki, pkcs8_error,
    secret_document, sig_err, signature_type, wrong_family, wrong_family_pkcs8,
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

#[cfg(feature = "std")]
impl signature::Signer<Signature> for SigningKey {
    /// Salt from the OS, as [`SigningKey::sign`].
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        SigningKey::sign(self, msg).map(Signature).map_err(sig_err)
    }
}

impl RandomizedSigner<Signature> for SigningKey {
    /// As [`SigningKey::sign_with_rng`]: one 16-byte salt draw.
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        Compat::run(rng, |r| self.sign_with_rng(msg, r))
            .map(Signature)
            .map_err(sig_err)
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;
    /// Recomputes the public key from the seeds (a full key generation): keep the result.
    fn verifying_key(&self) -> VerifyingKey {
        SigningKey::verifying_key(self)
    }
}

#[cfg(feature = "std")]
impl signature::Signer<Signature> for ExpandedSigningKey {
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        ExpandedSigningKey::sign(self, msg)
            .map(Signature)
            .map_err(sig_err)
    }
}

impl RandomizedSigner<Signature> for ExpandedSigningKey {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        Compat::run(rng, |r| self.sign_with_rng(msg, r))
            .map(Signature)
            .map_err(sig_err)
    }
}

impl Keypair for ExpandedSigningKey {
    type VerifyingKey = VerifyingKey;
    /// Recomputes the public key (a full key generation): keep the result.
    fn verifying_key(&self) -> VerifyingKey {
        ExpandedSigningKey::verifying_key(self)
    }
}

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

impl spki::EncodePublicKey for VerifyingKey {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        encode_spki(Algorithm::Snova(self.param_set()), self.to_bytes())
    }
}

impl spki::DecodePublicKey for VerifyingKey {
    fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
        match decode_spki(bytes)? {
            (Algorithm::Snova(ps), pk) => {
                VerifyingKey::from_bytes(ps, &pk).map_err(key_invalid_spki)
            }
            (other, _) => Err(wrong_family(other)),
        }
    }
}

/// Decodes a [`VerifyingKey`] and prepares it.
impl spki::DecodePublicKey for PreparedVerifyingKey {
    fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
        Ok(<VerifyingKey as spki::DecodePublicKey>::from_public_key_der(bytes)?.prepare())
    }
}

impl pkcs8::EncodePrivateKey for SigningKey {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let alg = Algorithm::Snova(self.param_set());
        let der = keyfile::encode_private_der(alg, self.to_bytes(), MlDsaForm::Seed)
            .map_err(pkcs8_error)?;
        secret_document(&der)
    }
}

impl pkcs8::DecodePrivateKey for SigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        let key = decode_pkcs8(bytes)?;
        let Algorithm::Snova(ps) = key.algorithm() else {
            return Err(wrong_family_pkcs8(key.algorithm()));
        };
        let sk = key.secret_key_bytes().map_err(pkcs8_error)?;
        SigningKey::from_bytes(ps, &sk).map_err(key_invalid_pkcs8)
    }
}

/// Decodes a [`SigningKey`] and expands it.
impl pkcs8::DecodePrivateKey for ExpandedSigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        Ok(<SigningKey as pkcs8::DecodePrivateKey>::from_pkcs8_der(bytes)?.expand())
    }
}
