//! The RustCrypto trait family on every key type: `signature` 3 ([`signature::Signer`],
//! [`signature::RandomizedSigner`], [`signature::Verifier`], [`signature::Keypair`],
//! [`signature::SignatureEncoding`]) and `pkcs8` 0.11 / `spki` 0.8
//! ([`pkcs8::EncodePrivateKey`], [`pkcs8::DecodePrivateKey`], [`spki::EncodePublicKey`],
//! [`spki::DecodePublicKey`]) — the versions RustCrypto's `ml-dsa` 0.1.2 uses, so code
//! written against `ml-dsa` takes pqsig keys unchanged. All impls live in this module, one
//! file per scheme; the per-scheme signature types are re-exported by their scheme
//! (`mldsa::Signature`, `falcon::Signature`, `fndsa::Signature`, `snova::Signature`,
//! `any::Signature`).
//!
//! # Semantics
//!
//! | key | `Signer::try_sign` | `RandomizedSigner::try_sign_with_rng` | `Verifier::verify` |
//! |---|---|---|---|
//! | ML-DSA | pure ML-DSA, **deterministic** (rnd = 0³²), empty context — as `ml-dsa` 0.1.2 | pure ML-DSA, hedged: rnd (32 bytes) from the caller's RNG, empty context | pure ML-DSA, empty context |
//! | Falcon (round 3) | nonce and sampler seed from the OS (`std` only) | nonce (40) then seed (48) from the caller's RNG | — |
//! | FN-DSA | sampler seed from the OS (`std` only), empty context | seed (40) from the caller's RNG, empty context | empty context |
//! | SNOVA | salt from the OS (`std` only) | salt (16) from the caller's RNG | — |
//! | `any` | as the family above (ML-DSA deterministic; `std` only) | as the family above | as the family above |
//!
//! Why: `ml-dsa`'s `Signer` is deterministic and its `RandomizedSigner` hedged, and pqsig
//! follows it so that the same seed signs the same bytes through either crate (tested in
//! `tests/signature_traits.rs`). Falcon, FN-DSA and SNOVA define no deterministic mode and
//! pqsig does not invent one: their `Signer` draws from the operating system exactly as
//! the inherent `sign` does, and without `std` only `RandomizedSigner` exists. Context
//! strings, HashML-DSA and external μ stay on the inherent API. The RNG is drawn in the
//! same order and sizes as the inherent `sign_with_rng`, so both give the same signature
//! for the same RNG stream.
//!
//! Inherent methods win over trait methods of the same name (`sign`, `verify`,
//! `verifying_key`): call the trait explicitly (`Verifier::verify(&vk, msg, &sig)`) or from
//! generic code.
//!
//! # Signatures
//!
//! Each signature type owns its bytes. `TryFrom<&[u8]>` checks what can be checked
//! without the key — the length (and for Falcon / FN-DSA the header byte) — and gives
//! [`Error::InvalidSignature`] otherwise, never a panic; the full decoding happens when the
//! signature is verified against a key of one parameter set.
//!
//! # Key files
//!
//! The pkcs8 / spki impls go through [`crate::keyfile`] (RFC 9881 for ML-DSA, provisional
//! OIDs for the others) rather than the `der` crate's parser: the private-arc OIDs of
//! FN-DSA and SNOVA have 128-bit arcs, which `const-oid` cannot hold, and keyfile already
//! validates every key. `to_pkcs8_der` writes the ML-DSA seed form when the key has its
//! seed (as `ml-dsa` does) and the expanded form otherwise. Errors are mapped onto the
//! `pkcs8` / `spki` error enums; a key of another family is `OidUnknown` with its OID
//! where `const-oid` can spell it.
//!
//! ```
//! use pqsig::signature::{self, Keypair, Signer};
//! use pqsig::{falcon, mldsa, snova};
//!
//! // Generic code over any verifying key and signature type.
//! fn check<V: signature::Verifier<S>, S>(vk: &V, msg: &[u8], sig: &S) -> bool {
//!     vk.verify(msg, sig).is_ok()
//! }
//!
//! let sk = mldsa::SigningKey::from_seed(mldsa::ParamSet::MlDsa44, &[7u8; 32])?;
//! let sig: mldsa::Signature = sk.try_sign(b"hello").unwrap();
//! assert!(check(&Keypair::verifying_key(&sk), b"hello", &sig));
//!
//! let (fsk, fvk) = falcon::keygen_from_seed(falcon::ParamSet::Falcon512, &[1u8; 48])?;
//! let fsig: falcon::Signature = fsk.try_sign(b"hello").unwrap();
//! assert!(check(&fvk, b"hello", &fsig));
//! assert!(!check(&fvk, b"other", &fsig));
//!
//! let (ssk, svk) = snova::keygen_from_seed(snova::ParamSet::SnovaIS, &[2u8; 48])?;
//! let ssig: snova::Signature = ssk.try_sign(b"hello").unwrap();
//! assert!(check(&svk, b"hello", &ssig));
//! # Ok::<(), pqsig::Error>(())
//! ```

mod any;
mod falcon;
mod fndsa;
mod mldsa;
mod rng;
mod snova;

pub use any::Signature as AnySignature;
pub use falcon::Signature as FalconSignature;
pub use fndsa::Signature as FnDsaSignature;
pub use mldsa::Signature as MlDsaSignature;
pub use snova::Signature as SnovaSignature;

use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::keyfile::{self, KeyFileError};
use alloc::vec::Vec;
use pkcs8::der::{self, SecretDocument};
use pkcs8::{KeyError, ObjectIdentifier};
use spki::Document;

/// A pqsig error as a `signature::Error` (with the typed error as its source under `std`,
/// where [`Error`] implements `std::error::Error`).
pub(crate) fn sig_err(e: Error) -> signature::Error {
    #[cfg(feature = "std")]
    {
        signature::Error::from_source(e)
    }
    #[cfg(not(feature = "std"))]
    {
        let _ = e;
        signature::Error::new()
    }
}

/// The OID of `alg` in `const-oid`'s type, when its arcs fit (not the 2.25 UUID arcs).
fn oid_of(alg: Algorithm) -> Option<ObjectIdentifier> {
    ObjectIdentifier::from_bytes(&keyfile::oid::oid_der(alg)).ok()
}

fn asn1_err() -> der::Error {
    der::Error::from(der::ErrorKind::Failed)
}

/// A key of another family than the type asked for.
fn wrong_family_spki(found: Algorithm) -> spki::Error {
    match oid_of(found) {
        Some(oid) => spki::Error::OidUnknown { oid },
        None => spki::Error::KeyMalformed,
    }
}

fn spki_err(e: KeyFileError) -> spki::Error {
    match e {
        KeyFileError::Der(_)
        | KeyFileError::Pem(_)
        | KeyFileError::WrongPemLabel(_)
        | KeyFileError::UnrecognisedFormat => spki::Error::Asn1(asn1_err()),
        KeyFileError::UnknownOid(s) => match ObjectIdentifier::new(&s) {
            Ok(oid) => spki::Error::OidUnknown { oid },
            Err(_) => spki::Error::KeyMalformed,
        },
        KeyFileError::AlgorithmMismatch { found, .. } => wrong_family_spki(found),
        KeyFileError::ParametersPresent
        | KeyFileError::UnsupportedVersion(_)
        | KeyFileError::WrongKeyLength { .. }
        | KeyFileError::SeedMismatch
        | KeyFileError::PublicKeyMismatch
        | KeyFileError::LabelMismatch { .. }
        | KeyFileError::SeedUnavailable
        | KeyFileError::Key(_) => spki::Error::KeyMalformed,
    }
}

fn pkcs8_err(e: KeyFileError) -> pkcs8::Error {
    match e {
        KeyFileError::Der(_)
        | KeyFileError::Pem(_)
        | KeyFileError::WrongPemLabel(_)
        | KeyFileError::UnrecognisedFormat
        | KeyFileError::UnsupportedVersion(_) => pkcs8::Error::Asn1(asn1_err()),
        KeyFileError::ParametersPresent => pkcs8::Error::ParametersMalformed,
        KeyFileError::UnknownOid(_) | KeyFileError::AlgorithmMismatch { .. } => {
            pkcs8::Error::PublicKey(spki_err(e))
        }
        KeyFileError::WrongKeyLength { expected, found } if found < expected => {
            pkcs8::Error::KeyMalformed(KeyError::TooShort)
        }
        KeyFileError::WrongKeyLength { .. } => pkcs8::Error::KeyMalformed(KeyError::TooLong),
        KeyFileError::SeedMismatch
        | KeyFileError::PublicKeyMismatch
        | KeyFileError::LabelMismatch { .. }
        | KeyFileError::SeedUnavailable
        | KeyFileError::Key(_) => pkcs8::Error::KeyMalformed(KeyError::Invalid),
    }
}

/// `from_*_der` take DER only (keyfile's readers also take PEM).
fn require_der(bytes: &[u8]) -> Result<(), der::Error> {
    if keyfile::detect(bytes) == keyfile::Encoding::Pem {
        Err(asn1_err())
    } else {
        Ok(())
    }
}

/// SubjectPublicKeyInfo of a raw public key.
pub(crate) fn encode_spki(alg: Algorithm, pk: &[u8]) -> spki::Result<Document> {
    let der = keyfile::encode_public_der(alg, pk).map_err(spki_err)?;
    Ok(Document::try_from(der)?)
}

/// (algorithm, raw public key) of a DER SubjectPublicKeyInfo.
pub(crate) fn decode_spki(bytes: &[u8]) -> spki::Result<(Algorithm, Vec<u8>)> {
    require_der(bytes)?;
    keyfile::decode_public(bytes).map_err(spki_err)
}

/// Wraps keyfile's PKCS#8 DER (the copy in the document is wiped on drop, as is ours).
pub(crate) fn secret_document(der: &[u8]) -> pkcs8::Result<SecretDocument> {
    Ok(SecretDocument::try_from(der)?)
}

/// A DER PKCS#8 private key, validated by keyfile.
pub(crate) fn decode_pkcs8(bytes: &[u8]) -> pkcs8::Result<keyfile::PrivateKey> {
    require_der(bytes)?;
    keyfile::decode_private(bytes).map_err(pkcs8_err)
}

/// keyfile errors in pkcs8's terms, for the scheme files.
pub(crate) fn pkcs8_error(e: KeyFileError) -> pkcs8::Error {
    pkcs8_err(e)
}

/// A key of another family than the type asked for (PKCS#8).
pub(crate) fn wrong_family_pkcs8(found: Algorithm) -> pkcs8::Error {
    pkcs8::Error::PublicKey(wrong_family_spki(found))
}

/// A key of another family than the type asked for (SPKI).
pub(crate) fn wrong_family(found: Algorithm) -> spki::Error {
    wrong_family_spki(found)
}

/// A scheme error met while loading decoded key bytes.
pub(crate) fn key_invalid_spki(_: Error) -> spki::Error {
    spki::Error::KeyMalformed
}

/// A scheme error met while loading decoded key bytes (PKCS#8).
pub(crate) fn key_invalid_pkcs8(_: Error) -> pkcs8::Error {
    pkcs8::Error::KeyMalformed(KeyError::Invalid)
}

/// The byte-owning signature newtype shared by every scheme: construction checks only
/// what `$check` checks (lengths, headers), then the bytes are kept as given.
macro_rules! signature_type {
    ($(#[$doc:meta])* $name:ident, $check:path) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub struct $name(alloc::vec::Vec<u8>);

        impl $name {
            /// The encoded signature.
            pub fn as_bytes(&self) -> &[u8] {
                &self.0
            }

            /// The encoded signature, by value.
            pub fn into_vec(self) -> alloc::vec::Vec<u8> {
                self.0
            }

            /// Encoded length in bytes.
            #[allow(clippy::len_without_is_empty)] // never empty
            pub fn len(&self) -> usize {
                self.0.len()
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!(stringify!($name), "({} bytes)"), self.0.len())
            }
        }

        impl TryFrom<&[u8]> for $name {
            type Error = $crate::error::Error;
            fn try_from(bytes: &[u8]) -> Result<Self, Self::Error> {
                $check(bytes)?;
                Ok(Self(bytes.to_vec()))
            }
        }

        impl TryFrom<alloc::vec::Vec<u8>> for $name {
            type Error = $crate::error::Error;
            fn try_from(bytes: alloc::vec::Vec<u8>) -> Result<Self, Self::Error> {
                $check(&bytes)?;
                Ok(Self(bytes))
            }
        }

        impl AsRef<[u8]> for $name {
            fn as_ref(&self) -> &[u8] {
                &self.0
            }
        }

        impl From<$name> for alloc::vec::Vec<u8> {
            fn from(sig: $name) -> Self {
                sig.0
            }
        }

        impl signature::SignatureEncoding for $name {
            type Repr = alloc::vec::Vec<u8>;

            fn to_vec(&self) -> alloc::vec::Vec<u8> {
                self.0.clone()
            }

            fn encoded_len(&self) -> usize {
                self.0.len()
            }
        }

        // For certificate builders (x509-cert): the signature as the BIT STRING value.
        impl spki::SignatureBitStringEncoding for $name {
            fn to_bitstring(&self) -> spki::der::Result<spki::der::asn1::BitString> {
                spki::der::asn1::BitString::new(0, self.0.clone())
            }
        }
    };
}
pub(crate) use signature_type;

/// `Signer` (OS randomness, `std` only, the key's inherent `sign(msg)`),
/// `RandomizedSigner` (`$with_rng`: the inherent `sign_with_rng` on the caller's RNG
/// through [`rng::Compat`]) and `Keypair` (`$vk`) for a key of a scheme whose only
/// signing randomness is drawn per signature (round-3 Falcon, SNOVA).
macro_rules! hedged_signer {
    ($key:ty, $sig:ident, $vk_ty:ty, |$k:ident, $r:ident, $m:ident| $with_rng:expr, |$kk:ident| $vk:expr) => {
        #[cfg(feature = "std")]
        impl signature::Signer<$sig> for $key {
            fn try_sign(&self, msg: &[u8]) -> signature::Result<$sig> {
                <$key>::sign(self, msg).map($sig).map_err(sig_err)
            }
        }

        impl RandomizedSigner<$sig> for $key {
            fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> signature::Result<$sig> {
                let ($k, $m) = (self, msg);
                Compat::run(rng, |$r| $with_rng).map($sig).map_err(sig_err)
            }
        }

        impl Keypair for $key {
            type VerifyingKey = $vk_ty;
            fn verifying_key(&self) -> $vk_ty {
                let $kk = self;
                $vk
            }
        }
    };
}
pub(crate) use hedged_signer;

/// SPKI and PKCS#8 encoding and decoding through `keyfile` for a family whose keys are
/// `from_bytes(param_set, bytes)` / `to_bytes()` (round-3 Falcon, SNOVA): the OID names
/// the parameter set; another family's key is `OidUnknown` / `KeyMalformed`.
macro_rules! key_documents {
    ($family:ident, $vk:ty, $sk:ty) => {
        impl spki::EncodePublicKey for $vk {
            fn to_public_key_der(&self) -> spki::Result<Document> {
                encode_spki(Algorithm::$family(self.param_set()), self.to_bytes())
            }
        }

        impl spki::DecodePublicKey for $vk {
            fn from_public_key_der(bytes: &[u8]) -> spki::Result<Self> {
                match decode_spki(bytes)? {
                    (Algorithm::$family(ps), pk) => {
                        <$vk>::from_bytes(ps, &pk).map_err(key_invalid_spki)
                    }
                    (other, _) => Err(wrong_family(other)),
                }
            }
        }

        impl pkcs8::EncodePrivateKey for $sk {
            fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
                let alg = Algorithm::$family(self.param_set());
                let der = keyfile::encode_private_der(alg, self.to_bytes(), MlDsaForm::Seed)
                    .map_err(pkcs8_error)?;
                secret_document(&der)
            }
        }

        impl pkcs8::DecodePrivateKey for $sk {
            fn from_pkcs8_der(bytes: &[u8]) -> pkcs8::Result<Self> {
                let key = decode_pkcs8(bytes)?;
                let Algorithm::$family(ps) = key.algorithm() else {
                    return Err(wrong_family_pkcs8(key.algorithm()));
                };
                let sk = key.secret_key_bytes().map_err(pkcs8_error)?;
                <$sk>::from_bytes(ps, &sk).map_err(key_invalid_pkcs8)
            }
        }
    };
}
pub(crate) use key_documents;
