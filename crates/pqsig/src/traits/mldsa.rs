//! ML-DSA: `Signer` deterministic and `RandomizedSigner` hedged, both with the empty
//! context (as `ml-dsa` 0.1.2); the multipart forms stream the message into μ.

use super::{
    decode_pkcs8, decode_spki, encode_spki, key_invalid_spki, pkcs8_error, secret_document,
    sig_err, signature_type, wrong_family, wrong_family_pkcs8,
};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::keyfile::{self, MlDsaForm};
use crate::mldsa::{MuHasher, ParamSet, SigningKey, VerifyingKey};
use pkcs8::der::SecretDocument;
use rand_core_0_10::TryCryptoRng;
use signature::{
    Keypair, MultipartSigner, MultipartVerifier, RandomizedMultipartSigner, RandomizedSigner,
    Signer, Verifier,
};
use spki::Document;
use zeroize::Zeroizing;

pub(super) fn check(bytes: &[u8]) -> Result<(), Error> {
    Signature::param_set_of(bytes)
        .map(|_| ())
        .ok_or(Error::InvalidSignature)
}

signature_type!(
    /// An ML-DSA signature (2420, 3309 or 4627 bytes: the length names the parameter set).
    /// `TryFrom<&[u8]>` checks the length; the encoding is checked by verification.
    Signature,
    check
);

impl Signature {
    /// The parameter set a signature of this length belongs to.
    fn param_set_of(bytes: &[u8]) -> Option<ParamSet> {
        ParamSet::ALL
            .into_iter()
            .find(|p| p.signature_len() == bytes.len())
    }

    /// The parameter set (from the length).
    pub fn param_set(&self) -> ParamSet {
        // Every constructor checked the length.
        Self::param_set_of(&self.0).unwrap_or(ParamSet::MlDsa44)
    }
}

/// μ of the empty-context pure ML-DSA message given in pieces.
fn mu_of(tr: &[u8; 64], msg: &[&[u8]]) -> Result<[u8; 64], Error> {
    let mut h = MuHasher::new(tr, b"")?;
    for m in msg {
        h.update(m);
    }
    Ok(h.finalize())
}

fn sign_multipart(key: &SigningKey, msg: &[&[u8]], rnd: &[u8; 32]) -> Result<Signature, Error> {
    let mu = mu_of(key.tr(), msg)?;
    Ok(Signature(key.sign_mu(&mu, rnd)?))
}

/// Deterministic (rnd = 0³²), empty context: the same bytes as `ml-dsa` 0.1.2's `Signer`
/// and as [`SigningKey::sign_deterministic`]`(msg, b"")`.
impl Signer<Signature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.try_multipart_sign(&[msg])
    }
}

/// Deterministic, empty context, the message given in pieces.
impl MultipartSigner<Signature> for SigningKey {
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> signature::Result<Signature> {
        sign_multipart(self, msg, &[0u8; 32]).map_err(sig_err)
    }
}

/// Hedged, empty context: rnd is 32 bytes from `rng` in one draw, as
/// [`SigningKey::sign_with_rng`]`(rng, msg, b"")`.
impl RandomizedSigner<Signature> for SigningKey {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> signature::Result<Signature> {
        self.try_multipart_sign_with_rng(rng, &[msg])
    }
}

impl RandomizedMultipartSigner<Signature> for SigningKey {
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> signature::Result<Signature> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut rnd[..])
            .map_err(|_| sig_err(Error::RandomnessFailure))?;
        sign_multipart(self, msg, &rnd).map_err(sig_err)
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;

    /// Recomputes the public key (t = A·s1 + s2): not free, keep the result.
    fn verifying_key(&self) -> VerifyingKey {
        SigningKey::verifying_key(self)
    }
}

/// Pure ML-DSA, empty context.
impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> signature::Result<()> {
        self.multipart_verify(&[msg], sig)
    }
}

impl MultipartVerifier<Signature> for VerifyingKey {
    fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature) -> signature::Result<()> {
        let mu = mu_of(self.tr(), msg).map_err(sig_err)?;
        self.verify_mu(&mu, &sig.0).map_err(sig_err)
    }
}

impl spki::EncodePublicKey for VerifyingKey {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        encode_spki(Algorithm::MlDsa(self.param_set()), self.to_bytes())
    }
}

impl spki::DecodePublicKey for VerifyingKey {
    fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
        match decode_spki(bytes)? {
            (Algorithm::MlDsa(ps), pk) => {
                VerifyingKey::from_bytes(ps, &pk).map_err(key_invalid_spki)
            }
            (other, _) => Err(wrong_family(other)),
        }
    }
}

/// RFC 9881 `seed` form when the key has its seed (as `ml-dsa`), `expandedKey` otherwise.
impl pkcs8::EncodePrivateKey for SigningKey {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let form = if self.seed().is_some() {
            MlDsaForm::Seed
        } else {
            MlDsaForm::Expanded
        };
        let der = keyfile::encode_mldsa_private_der(self, form).map_err(pkcs8_error)?;
        secret_document(&der)
    }
}

/// Any RFC 9881 form (`seed`, `expandedKey`, `both` — checked against its seed).
impl pkcs8::DecodePrivateKey for SigningKey {
    fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
        let key = decode_pkcs8(bytes)?;
        match key.algorithm() {
            Algorithm::MlDsa(_) => key.mldsa_signing_key().map_err(pkcs8_error),
            other => Err(wrong_family_pkcs8(other)),
        }
    }
}
