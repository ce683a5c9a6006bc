//! Algorithm-generic keys: every trait forwards to the family's own impl, so an
//! `any::SigningKey` behaves exactly as the key it wraps.

use super::{
    decode_pkcs8, decode_spki, encode_spki, key_invalid_spki, pkcs8_error, secret_document,
    sig_err, signature_type,
};
use super::{falcon as tf, fndsa as tn, mldsa as tm, snova as ts};
use crate::any::{SigningKey, VerifyingKey};
use crate::error::Error;
use crate::keyfile::{self, MlDsaForm};
use pkcs8::der::SecretDocument;
use rand_core_0_10::TryCryptoRng;
use signature::{Keypair, RandomizedSigner, Verifier};
use spki::Document;

fn check(bytes: &[u8]) -> Result<(), Error> {
    tm::check(bytes)
        .or_else(|_| tf::check(bytes))
        .or_else(|_| tn::check(bytes))
        .or_else(|_| ts::check(bytes))
}

signature_type!(
    /// A signature of any algorithm. `TryFrom<&[u8]>` accepts what one of the family
    /// signature types accepts; verification checks it against the key's algorithm.
    Signature,
    check
);

macro_rules! from_family {
    ($($t:ty),*) => {$(
        impl From<$t> for Signature {
            fn from(sig: $t) -> Self {
                Signature(sig.into_vec())
            }
        }
    )*};
}
from_family!(tm::Signature, tf::Signature, tn::Signature, ts::Signature);

/// ML-DSA deterministic, the others with OS randomness: each family's own `Signer`.
#[cfg(feature = "std")]
impl signature::Signer<Signature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        use signature::Signer;
        Ok(match self {
            SigningKey::MlDsa(k) => Signer::<tm::Signature>::try_sign(k, msg)?.into(),
            SigningKey::Falcon(k) => Signer::<tf::Signature>::try_sign(k, msg)?.into(),
            SigningKey::FnDsa(k) => Signer::<tn::Signature>::try_sign(k, msg)?.into(),
            SigningKey::Snova(k) => Signer::<ts::Signature>::try_sign(k, msg)?.into(),
        })
    }
}

/// Each family's `RandomizedSigner` (the same draws as [`SigningKey::sign_with_rng`]).
impl RandomizedSigner<Signature> for SigningKey {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        Ok(match self {
            SigningKey::MlDsa(k) => {
                RandomizedSigner::<tm::Signature>::try_sign_with_rng(k, rng, msg)?.into()
            }
            SigningKey::Falcon(k) => {
                RandomizedSigner::<tf::Signature>::try_sign_with_rng(k, rng, msg)?.into()
            }
            SigningKey::FnDsa(k) => {
                RandomizedSigner::<tn::Signature>::try_sign_with_rng(k, rng, msg)?.into()
            }
            SigningKey::Snova(k) => {
                RandomizedSigner::<ts::Signature>::try_sign_with_rng(k, rng, msg)?.into()
            }
        })
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;
    fn verifying_key(&self) -> VerifyingKey {
        SigningKey::verifying_key(self)
    }
}

/// Empty context, as [`VerifyingKey::verify`]`(msg, b"", sig)`.
impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        VerifyingKey::verify(self, msg, b"", &sig.0).map_err(sig_err)
    }
}

impl spki::EncodePublicKey for VerifyingKey {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        encode_spki(self.algorithm(), self.to_bytes())
    }
}

/// Any algorithm pqsig knows, picked by the OID.
impl spki::DecodePublicKey for VerifyingKey {
    fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
        let (alg, pk) = decode_spki(bytes)?;
        VerifyingKey::from_bytes(alg, &pk).map_err(key_invalid_spki)
    }
}

/// ML-DSA in the seed form when the key has its seed (else expanded), the others in
/// their one form.
impl pkcs8::EncodePrivateKey for SigningKey {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let form = match self {
            SigningKey::MlDsa(k) if k.seed().is_none() => MlDsaForm::Expanded,
            _ => MlDsaForm::Seed,
        };
        let der = keyfile::encode_signing_key_der(self, form).map_err(pkcs8_error)?;
        secret_document(&der)
    }
}

impl pkcs8::DecodePrivateKey for SigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        decode_pkcs8(bytes)?.signing_key().map_err(pkcs8_error)
    }
}
