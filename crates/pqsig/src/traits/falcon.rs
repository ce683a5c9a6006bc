//! Round-3 Falcon: no deterministic mode, so `Signer` draws from the OS (`std` only) and
//! `RandomizedSigner` from the caller's RNG (nonce, then sampler seed).

use super::rng::Compat;
use super::{
    decode_pkcs8, decode_spki, encode_spki, key_invalid_pkcs8, key_invalid_spki, pkcs8_error,
    secret_document, sig_err, signature_type, wrong_family, wrong_family_pkcs8,
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

#[cfg(feature = "std")]
impl signature::Signer<Signature> for SigningKey {
    /// Nonce and sampler seed from the OS, as [`SigningKey::sign`].
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        SigningKey::sign(self, msg).map(Signature).map_err(sig_err)
    }
}

impl RandomizedSigner<Signature> for SigningKey {
    /// As [`SigningKey::sign_with_rng`]: the 40-byte nonce, then the 48-byte seed.
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        Compat::run(rng, |r| self.sign_with_rng(r, msg))
            .map(Signature)
            .map_err(sig_err)
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;
    fn verifying_key(&self) -> VerifyingKey {
        SigningKey::verifying_key(self).clone()
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
        Compat::run(rng, |r| self.sign_with_rng(r, msg))
            .map(Signature)
            .map_err(sig_err)
    }
}

impl Keypair for ExpandedSigningKey {
    type VerifyingKey = VerifyingKey;
    fn verifying_key(&self) -> VerifyingKey {
        ExpandedSigningKey::verifying_key(self).clone()
    }
}

/// A signature of the key's own encoding (compressed or padded, per parameter set).
impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        VerifyingKey::verify(self, msg, &sig.0).map_err(sig_err)
    }
}

impl spki::EncodePublicKey for VerifyingKey {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        encode_spki(Algorithm::Falcon(self.param_set()), self.to_bytes())
    }
}

/// The OID picks the parameter set (padded or compressed signatures; the keys are alike).
impl spki::DecodePublicKey for VerifyingKey {
    fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
        match decode_spki(bytes)? {
            (Algorithm::Falcon(ps), pk) => {
                VerifyingKey::from_bytes(ps, &pk).map_err(key_invalid_spki)
            }
            (other, _) => Err(wrong_family(other)),
        }
    }
}

impl pkcs8::EncodePrivateKey for SigningKey {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let alg = Algorithm::Falcon(self.param_set());
        let der = keyfile::encode_private_der(alg, self.to_bytes(), MlDsaForm::Seed)
            .map_err(pkcs8_error)?;
        secret_document(&der)
    }
}

impl pkcs8::DecodePrivateKey for SigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        let key = decode_pkcs8(bytes)?;
        let Algorithm::Falcon(ps) = key.algorithm() else {
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
