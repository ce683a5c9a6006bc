//! Key files: SubjectPublicKeyInfo and PKCS#8 (OneAsymmetricKey) in DER or PEM, for every
//! [`Algorithm`].
//!
//! * **ML-DSA** follows RFC 9881: OIDs 2.16.840.1.101.3.4.3.17 / .18 / .19, parameters
//!   absent, the public key as the SPKI BIT STRING; the PKCS#8 `privateKey` holds the
//!   `seed [0]` / `expandedKey` / `both` CHOICE, chosen on output by [`MlDsaForm`]
//!   (seed by default) and recognised by tag on input. A `both` key is regenerated from
//!   its seed and rejected unless the expanded key matches ([`KeyFileError::SeedMismatch`]);
//!   an `expandedKey` is validated by the scheme.
//! * **Falcon, FN-DSA, SNOVA** have no final OIDs. pqsig uses **provisional** ones (see
//!   [`oid`] and [`oid_is_provisional`]): Open Quantum Safe's experimental OIDs for Falcon,
//!   a private UUID arc for FN-DSA and SNOVA Round 3. Their `privateKey` OCTET STRING holds
//!   the library's own secret-key encoding: the NIST round-3 `0x50+logn ‖ f ‖ g ‖ F` for
//!   Falcon, `fn-dsa`'s signing key for FN-DSA, and for SNOVA the 96-byte
//!   `s_pub ‖ s_priv ‖ SHAKE256(pk)[..48]`, which is already a seed form. (Falcon and
//!   FN-DSA keys do not keep their key-generation seed, so there is no seed form for them.)
//!   For Falcon, two other layouts are read (never written): oqs-provider's `sk ‖ pk`
//!   content and BouncyCastle's nested `SEQUENCE { version, f, g, F, publicKey? }`
//!   ([`falcon_bc`]); a public key they carry is checked against the private key.
//!
//! PEM labels are `PUBLIC KEY` and `PRIVATE KEY` (RFC 7468). On input, the labels circl
//! writes for ML-DSA, `ML-DSA-44 PRIVATE KEY` (and `PUBLIC KEY`; 65, 87 alike), are also
//! read, the DER inside being RFC 9881's; the label's algorithm must be the OID's
//! ([`KeyFileError::LabelMismatch`]). Output always uses the standard labels.
//!
//! Input format is detected by content ([`detect`]): PEM (`-----BEGIN `), DER (one
//! complete SEQUENCE), otherwise raw bytes, which need the algorithm from the caller
//! ([`decode_public_as`], [`decode_private_as`]). Secrets are returned in [`Zeroizing`]
//! buffers; malformed input gives a typed [`KeyFileError`], never a panic.
//!
//! ```
//! use pqsig::{keyfile, mldsa, Algorithm};
//! let (sk, vk) = mldsa::keygen(mldsa::ParamSet::MlDsa65)?;
//! let alg = Algorithm::MlDsa(mldsa::ParamSet::MlDsa65);
//! let pem = keyfile::encode_public_pem(alg, vk.to_bytes())?;
//! assert_eq!(keyfile::decode_public(pem.as_bytes())?, (alg, vk.to_bytes().to_vec()));
//! let der = keyfile::encode_private_der(alg, sk.seed().unwrap(), keyfile::MlDsaForm::Seed)?;
//! let key = keyfile::decode_private(&der)?;
//! assert_eq!(key.public_key()?, vk.to_bytes());
//! let sig = key.mldsa_signing_key()?.sign(b"msg", b"")?;
//! assert_eq!(vk.verify(b"msg", b"", &sig), Ok(()));
//! # Ok::<(), keyfile::KeyFileError>(())
//! ```

pub mod der;
mod falcon_bc;
pub mod oid;
pub mod pem;
mod pkcs8;
mod spki;

pub use der::DerError;
pub use oid::{oid_is_provisional, oid_string};
pub use pem::PemError;

use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::{any, mldsa};
use alloc::string::String;
use alloc::vec::Vec;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// PEM label of SubjectPublicKeyInfo.
pub const PEM_PUBLIC: &str = "PUBLIC KEY";
/// PEM label of PKCS#8 / OneAsymmetricKey.
pub const PEM_PRIVATE: &str = "PRIVATE KEY";

/// Why a key file could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyFileError {
    /// Malformed DER.
    Der(DerError),
    /// Malformed PEM.
    Pem(PemError),
    /// The PEM label is not the expected one (`PUBLIC KEY` / `PRIVATE KEY`, or that label
    /// after an ML-DSA name).
    WrongPemLabel(String),
    /// The algorithm OID is not one pqsig knows (dotted form).
    UnknownOid(String),
    /// AlgorithmIdentifier parameters are present (they must be absent).
    ParametersPresent,
    /// OneAsymmetricKey version other than 0 or 1, a v1 key with a public key, or a
    /// BouncyCastle Falcon private key of a version other than 0.
    UnsupportedVersion(u32),
    /// A key (or seed) of the wrong length for its algorithm.
    WrongKeyLength { expected: usize, found: usize },
    /// ML-DSA `both`: the expanded key is not the one the seed generates.
    SeedMismatch,
    /// The public key stored with a private key does not belong to it.
    PublicKeyMismatch,
    /// A PEM label that names an algorithm (`ML-DSA-44 PRIVATE KEY`, as circl writes)
    /// around a key whose OID names another.
    LabelMismatch { label: Algorithm, found: Algorithm },
    /// The file names another algorithm than the one the caller asked for.
    AlgorithmMismatch {
        expected: Algorithm,
        found: Algorithm,
    },
    /// Raw key bytes (neither PEM nor DER) and no algorithm to interpret them, or a raw
    /// length that fits none.
    UnrecognisedFormat,
    /// The requested private-key form needs the seed, which this key does not have.
    SeedUnavailable,
    /// The scheme rejected the key bytes (see [`Error`]).
    Key(Error),
}

impl core::fmt::Display for KeyFileError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            KeyFileError::Der(e) => write!(f, "{e}"),
            KeyFileError::Pem(e) => write!(f, "{e}"),
            KeyFileError::WrongPemLabel(l) => write!(f, "unexpected PEM label \"{l}\""),
            KeyFileError::UnknownOid(o) => write!(f, "unknown algorithm OID {o}"),
            KeyFileError::ParametersPresent => f.write_str("algorithm parameters must be absent"),
            KeyFileError::UnsupportedVersion(v) => write!(f, "unsupported private key version {v}"),
            KeyFileError::WrongKeyLength { expected, found } => {
                write!(f, "key has {found} bytes, expected {expected}")
            }
            KeyFileError::SeedMismatch => {
                f.write_str("ML-DSA private key: expanded key does not match the seed")
            }
            KeyFileError::PublicKeyMismatch => {
                f.write_str("the public key in the file does not match the private key")
            }
            KeyFileError::LabelMismatch { label, found } => {
                write!(
                    f,
                    "the PEM label says {label}, but the key inside is {found}"
                )
            }
            KeyFileError::AlgorithmMismatch { expected, found } => {
                write!(f, "key is {found}, expected {expected}")
            }
            KeyFileError::UnrecognisedFormat => {
                f.write_str("not a PEM or DER key, and not a raw key of the expected length")
            }
            KeyFileError::SeedUnavailable => f.write_str("this private key has no seed"),
            KeyFileError::Key(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for KeyFileError {}

impl From<DerError> for KeyFileError {
    fn from(e: DerError) -> Self {
        KeyFileError::Der(e)
    }
}
impl From<PemError> for KeyFileError {
    fn from(e: PemError) -> Self {
        KeyFileError::Pem(e)
    }
}
impl From<Error> for KeyFileError {
    fn from(e: Error) -> Self {
        KeyFileError::Key(e)
    }
}

/// How key bytes are armoured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Pem,
    Der,
    /// The scheme's own byte string, no wrapper.
    Raw,
}

/// Detects the encoding of key bytes: PEM if it starts (after whitespace) with
/// `-----BEGIN `, DER if it is exactly one well-formed DER SEQUENCE, otherwise raw.
pub fn detect(data: &[u8]) -> Encoding {
    if pem::looks_like_pem(data) {
        return Encoding::Pem;
    }
    let mut r = der::Reader::new(data);
    if r.read(der::TAG_SEQUENCE).is_ok() && r.is_empty() {
        Encoding::Der
    } else {
        Encoding::Raw
    }
}

/// Which ML-DSA private-key CHOICE to write (RFC 9881 §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MlDsaForm {
    /// `seed [0]`: the 32-byte ξ (the recommended form, the default).
    #[default]
    Seed,
    /// `expandedKey`: the FIPS 204 skEncode bytes.
    Expanded,
    /// `both`: seed and expanded key.
    Both,
}

// ---------------------------------------------------------------------------------------
// Public keys

fn check_public_len(alg: Algorithm, pk: &[u8]) -> Result<(), KeyFileError> {
    if pk.len() != alg.public_key_len() {
        return Err(KeyFileError::WrongKeyLength {
            expected: alg.public_key_len(),
            found: pk.len(),
        });
    }
    Ok(())
}

/// SubjectPublicKeyInfo (DER) for the raw public key `pk` of `alg`.
pub fn encode_public_der(alg: Algorithm, pk: &[u8]) -> Result<Vec<u8>, KeyFileError> {
    check_public_len(alg, pk)?;
    Ok(spki::encode(alg, pk))
}

/// SubjectPublicKeyInfo in PEM (`PUBLIC KEY`).
pub fn encode_public_pem(alg: Algorithm, pk: &[u8]) -> Result<String, KeyFileError> {
    let der = encode_public_der(alg, pk)?;
    Ok(String::from(pem::encode(PEM_PUBLIC, &der).as_str()))
}

/// Removes PEM armour labelled `generic` (`PUBLIC KEY` / `PRIVATE KEY`) or, as circl
/// writes ML-DSA keys, `<ML-DSA name> <generic>` (`ML-DSA-44 PRIVATE KEY`): the DER, and
/// the algorithm such a label names (to be checked against the OID inside).
fn unarmour(
    data: &[u8],
    generic: &str,
) -> Result<(Zeroizing<Vec<u8>>, Option<Algorithm>), KeyFileError> {
    let (label, der) = pem::decode(data)?;
    if label == generic {
        return Ok((der, None));
    }
    let named = label
        .strip_suffix(generic)
        .and_then(|l| l.strip_suffix(' '))
        .and_then(|name| {
            Algorithm::ALL
                .iter()
                .copied()
                .find(|a| matches!(a, Algorithm::MlDsa(_)) && a.name() == name)
        });
    match named {
        Some(alg) => Ok((der, Some(alg))),
        None => Err(KeyFileError::WrongPemLabel(label)),
    }
}

/// The algorithm a PEM label named must be the one the OID names.
fn check_label(label: Option<Algorithm>, found: Algorithm) -> Result<(), KeyFileError> {
    match label {
        Some(label) if label != found => Err(KeyFileError::LabelMismatch { label, found }),
        _ => Ok(()),
    }
}

/// Reads a public key file (PEM or DER SubjectPublicKeyInfo): the algorithm and the raw
/// public key. Raw bytes are refused (the algorithm would be unknown): use
/// [`decode_public_as`].
pub fn decode_public(data: &[u8]) -> Result<(Algorithm, Vec<u8>), KeyFileError> {
    match detect(data) {
        Encoding::Pem => {
            let (der, label) = unarmour(data, PEM_PUBLIC)?;
            let (alg, pk) = spki::decode(&der)?;
            check_label(label, alg)?;
            Ok((alg, pk.to_vec()))
        }
        Encoding::Der => {
            let (alg, pk) = spki::decode(data)?;
            Ok((alg, pk.to_vec()))
        }
        Encoding::Raw => {
            // Give the DER error when it looks like an attempt at DER.
            if data.first() == Some(&der::TAG_SEQUENCE) {
                spki::decode(data)?;
            }
            Err(KeyFileError::UnrecognisedFormat)
        }
    }
}

/// Reads a public key of algorithm `alg` in any encoding (PEM, DER or raw); a PEM/DER file
/// of another algorithm is an [`KeyFileError::AlgorithmMismatch`]. Raw bytes are accepted
/// when they have the algorithm's public-key length (and are not themselves a DER
/// SubjectPublicKeyInfo).
pub fn decode_public_as(alg: Algorithm, data: &[u8]) -> Result<Vec<u8>, KeyFileError> {
    match detect(data) {
        Encoding::Raw => {
            check_public_len(alg, data).map_err(|_| KeyFileError::UnrecognisedFormat)?;
            Ok(data.to_vec())
        }
        _ => {
            let (found, pk) = decode_public(data)?;
            if found != alg {
                return Err(KeyFileError::AlgorithmMismatch {
                    expected: alg,
                    found,
                });
            }
            Ok(pk)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Private keys

/// A decoded private key.
#[derive(Clone)]
pub struct PrivateKey {
    algorithm: Algorithm,
    /// ML-DSA ξ when the file had it.
    seed: Option<Zeroizing<Vec<u8>>>,
    /// The library's secret-key encoding (ML-DSA: skEncode), when the file had it.
    secret: Option<Zeroizing<Vec<u8>>>,
    /// Recomputed public key (every decoded key is checked by loading it).
    public: Vec<u8>,
}

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PrivateKey({}, <secret>)", self.algorithm)
    }
}

impl PrivateKey {
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
    /// The ML-DSA seed ξ, when the file carried one (`seed` or `both`).
    pub fn seed(&self) -> Option<&[u8]> {
        self.seed.as_deref().map(|v| &v[..])
    }
    /// The public key belonging to this private key (recomputed from it).
    pub fn public_key(&self) -> Result<Vec<u8>, KeyFileError> {
        Ok(self.public.clone())
    }
    /// The library's secret-key encoding, accepted by the scheme's `from_bytes` (for ML-DSA
    /// the FIPS 204 expanded key, regenerated from the seed if the file had only the seed).
    pub fn secret_key_bytes(&self) -> Result<Zeroizing<Vec<u8>>, KeyFileError> {
        if let Some(s) = &self.secret {
            return Ok(s.clone());
        }
        Ok(self.mldsa_signing_key()?.to_expanded_bytes())
    }
    /// The signing key, ready to use (ML-DSA: from the seed when the file had it, so the
    /// key keeps its seed and can be written again in any form).
    pub fn signing_key(&self) -> Result<any::SigningKey, KeyFileError> {
        match (self.algorithm, &self.secret) {
            (Algorithm::MlDsa(_), _) => Ok(any::SigningKey::MlDsa(self.mldsa_signing_key()?)),
            (alg, Some(sk)) => Ok(any::SigningKey::from_bytes(alg, sk)?),
            (_, None) => Err(KeyFileError::SeedUnavailable),
        }
    }
    /// The ML-DSA signing key (from the seed when present, so it keeps its seed).
    pub fn mldsa_signing_key(&self) -> Result<mldsa::SigningKey, KeyFileError> {
        let Algorithm::MlDsa(ps) = self.algorithm else {
            return Err(KeyFileError::Key(Error::Unsupported));
        };
        match (&self.seed, &self.secret) {
            (Some(seed), _) => Ok(mldsa::SigningKey::from_seed(ps, seed)?),
            (None, Some(sk)) => Ok(mldsa::SigningKey::from_expanded(ps, sk)?),
            (None, None) => Err(KeyFileError::SeedUnavailable),
        }
    }
}

/// The public key of a library-encoded secret key (validates the key on the way).
fn public_of(alg: Algorithm, sk: &[u8]) -> Result<Vec<u8>, KeyFileError> {
    if sk.len() != alg.secret_key_len() {
        return Err(KeyFileError::WrongKeyLength {
            expected: alg.secret_key_len(),
            found: sk.len(),
        });
    }
    Ok(any::SigningKey::from_bytes(alg, sk)?
        .verifying_key()
        .to_bytes()
        .to_vec())
}

/// The private-key OCTET STRING content for `alg`.
fn private_content(
    alg: Algorithm,
    secret: &[u8],
    form: MlDsaForm,
) -> Result<Zeroizing<Vec<u8>>, KeyFileError> {
    match alg {
        Algorithm::MlDsa(ps) => {
            if secret.len() == 32 {
                let sk = mldsa::SigningKey::from_seed(ps, secret)?;
                Ok(match form {
                    MlDsaForm::Seed => pkcs8::encode_mldsa_seed(secret),
                    MlDsaForm::Expanded => pkcs8::encode_mldsa_expanded(&sk.to_expanded_bytes()),
                    MlDsaForm::Both => pkcs8::encode_mldsa_both(secret, &sk.to_expanded_bytes()),
                })
            } else if secret.len() == alg.secret_key_len() {
                public_of(alg, secret)?;
                match form {
                    MlDsaForm::Expanded => Ok(pkcs8::encode_mldsa_expanded(secret)),
                    _ => Err(KeyFileError::SeedUnavailable),
                }
            } else {
                Err(KeyFileError::WrongKeyLength {
                    expected: 32,
                    found: secret.len(),
                })
            }
        }
        _ => {
            public_of(alg, secret)?;
            Ok(Zeroizing::new(secret.to_vec()))
        }
    }
}

/// PKCS#8 (OneAsymmetricKey v1) DER for a private key of `alg`.
///
/// `secret` is, for ML-DSA, the 32-byte seed ξ (any `form`) or the expanded key (only
/// [`MlDsaForm::Expanded`]; the other forms give [`KeyFileError::SeedUnavailable`]); for the
/// other algorithms the library's secret-key encoding (`form` is ignored). The key is
/// loaded (validated) before it is written.
pub fn encode_private_der(
    alg: Algorithm,
    secret: &[u8],
    form: MlDsaForm,
) -> Result<Zeroizing<Vec<u8>>, KeyFileError> {
    let content = private_content(alg, secret, form)?;
    Ok(pkcs8::encode(alg, &content))
}

/// PKCS#8 in PEM (`PRIVATE KEY`); see [`encode_private_der`].
pub fn encode_private_pem(
    alg: Algorithm,
    secret: &[u8],
    form: MlDsaForm,
) -> Result<Zeroizing<String>, KeyFileError> {
    let der = encode_private_der(alg, secret, form)?;
    Ok(pem::encode(PEM_PRIVATE, &der))
}

/// PKCS#8 DER for an ML-DSA signing key (the seed forms need a key that has its seed).
pub fn encode_mldsa_private_der(
    sk: &mldsa::SigningKey,
    form: MlDsaForm,
) -> Result<Zeroizing<Vec<u8>>, KeyFileError> {
    let alg = Algorithm::MlDsa(sk.param_set());
    match (sk.seed(), form) {
        (Some(seed), _) => encode_private_der(alg, seed, form),
        (None, MlDsaForm::Expanded) => encode_private_der(alg, &sk.to_expanded_bytes(), form),
        (None, _) => Err(KeyFileError::SeedUnavailable),
    }
}

/// PKCS#8 DER for a signing key of any algorithm (`form` applies to ML-DSA only, whose
/// seed forms need a key that has its seed; see [`encode_mldsa_private_der`]).
pub fn encode_signing_key_der(
    sk: &any::SigningKey,
    form: MlDsaForm,
) -> Result<Zeroizing<Vec<u8>>, KeyFileError> {
    match sk {
        any::SigningKey::MlDsa(k) => encode_mldsa_private_der(k, form),
        _ => encode_private_der(sk.algorithm(), &sk.to_bytes(), form),
    }
}

/// PKCS#8 PEM (`PRIVATE KEY`) for a signing key of any algorithm.
pub fn encode_signing_key_pem(
    sk: &any::SigningKey,
    form: MlDsaForm,
) -> Result<Zeroizing<String>, KeyFileError> {
    let der = encode_signing_key_der(sk, form)?;
    Ok(pem::encode(PEM_PRIVATE, &der))
}

fn decode_pkcs8(der_bytes: &[u8]) -> Result<PrivateKey, KeyFileError> {
    let p = pkcs8::decode(der_bytes)?;
    let alg = p.alg;
    let key = match alg {
        Algorithm::MlDsa(ps) => match pkcs8::decode_mldsa_choice(p.private_key)? {
            pkcs8::MlDsaChoice::Seed(seed) => {
                if seed.len() != 32 {
                    return Err(KeyFileError::WrongKeyLength {
                        expected: 32,
                        found: seed.len(),
                    });
                }
                let sk = mldsa::SigningKey::from_seed(ps, seed)?;
                PrivateKey {
                    algorithm: alg,
                    seed: Some(Zeroizing::new(seed.to_vec())),
                    secret: None,
                    public: sk.verifying_key().to_bytes().to_vec(),
                }
            }
            pkcs8::MlDsaChoice::Expanded(sk) => PrivateKey {
                algorithm: alg,
                seed: None,
                public: public_of(alg, sk)?,
                secret: Some(Zeroizing::new(sk.to_vec())),
            },
            pkcs8::MlDsaChoice::Both { seed, expanded } => {
                if seed.len() != 32 {
                    return Err(KeyFileError::WrongKeyLength {
                        expected: 32,
                        found: seed.len(),
                    });
                }
                if expanded.len() != alg.secret_key_len() {
                    return Err(KeyFileError::WrongKeyLength {
                        expected: alg.secret_key_len(),
                        found: expanded.len(),
                    });
                }
                let sk = mldsa::SigningKey::from_seed(ps, seed)?;
                let regenerated = sk.to_expanded_bytes();
                if !bool::from(regenerated.as_slice().ct_eq(expanded)) {
                    return Err(KeyFileError::SeedMismatch);
                }
                PrivateKey {
                    algorithm: alg,
                    seed: Some(Zeroizing::new(seed.to_vec())),
                    secret: Some(Zeroizing::new(expanded.to_vec())),
                    public: sk.verifying_key().to_bytes().to_vec(),
                }
            }
        },
        Algorithm::Falcon(ps) if falcon_bc::is_nested(p.private_key) => {
            // BouncyCastle's nested SEQUENCE { version, f, g, F, publicKey? }.
            let nested = falcon_bc::decode(ps, p.private_key)?;
            let public = public_of(alg, &nested.compact)?;
            if let Some(pk) = nested.public {
                // Header-less h (what BouncyCastle writes) or the whole key.
                let stored = if pk.len() == public.len() {
                    &public[..]
                } else {
                    &public[1..]
                };
                if pk != stored {
                    return Err(KeyFileError::PublicKeyMismatch);
                }
            }
            PrivateKey {
                algorithm: alg,
                seed: None,
                secret: Some(nested.compact),
                public,
            }
        }
        Algorithm::Falcon(_)
            if p.private_key.len() == alg.secret_key_len() + alg.public_key_len() =>
        {
            // oqs-provider's `sk ‖ pk` content.
            let (sk, pk) = p.private_key.split_at(alg.secret_key_len());
            let public = public_of(alg, sk)?;
            if public != pk {
                return Err(KeyFileError::PublicKeyMismatch);
            }
            PrivateKey {
                algorithm: alg,
                seed: None,
                secret: Some(Zeroizing::new(sk.to_vec())),
                public,
            }
        }
        _ => PrivateKey {
            algorithm: alg,
            seed: None,
            public: public_of(alg, p.private_key)?,
            secret: Some(Zeroizing::new(p.private_key.to_vec())),
        },
    };
    if let Some(pk) = p.public_key {
        if pk != key.public.as_slice() {
            return Err(KeyFileError::PublicKeyMismatch);
        }
    }
    Ok(key)
}

/// Reads a private key file (PEM `PRIVATE KEY` or DER PKCS#8). Raw bytes are refused
/// (use [`decode_private_as`]). The key is validated (loaded, and for ML-DSA `both`
/// checked against its seed) before it is returned.
pub fn decode_private(data: &[u8]) -> Result<PrivateKey, KeyFileError> {
    match detect(data) {
        Encoding::Pem => {
            let (der, label) = unarmour(data, PEM_PRIVATE)?;
            let key = decode_pkcs8(&der)?;
            check_label(label, key.algorithm)?;
            Ok(key)
        }
        Encoding::Der => decode_pkcs8(data),
        Encoding::Raw => {
            if data.first() == Some(&der::TAG_SEQUENCE) {
                decode_pkcs8(data)?;
            }
            Err(KeyFileError::UnrecognisedFormat)
        }
    }
}

/// Reads a private key of algorithm `alg` in any encoding. Raw bytes are the library's
/// secret-key encoding (`secret_key_len` bytes) or, for ML-DSA, also a 32-byte seed.
pub fn decode_private_as(alg: Algorithm, data: &[u8]) -> Result<PrivateKey, KeyFileError> {
    match detect(data) {
        Encoding::Raw => {
            if let (Algorithm::MlDsa(ps), 32) = (alg, data.len()) {
                let sk = mldsa::SigningKey::from_seed(ps, data)?;
                return Ok(PrivateKey {
                    algorithm: alg,
                    seed: Some(Zeroizing::new(data.to_vec())),
                    secret: None,
                    public: sk.verifying_key().to_bytes().to_vec(),
                });
            }
            if data.len() != alg.secret_key_len() {
                return Err(KeyFileError::UnrecognisedFormat);
            }
            Ok(PrivateKey {
                algorithm: alg,
                seed: None,
                public: public_of(alg, data)?,
                secret: Some(Zeroizing::new(data.to_vec())),
            })
        }
        _ => {
            let key = decode_private(data)?;
            if key.algorithm != alg {
                return Err(KeyFileError::AlgorithmMismatch {
                    expected: alg,
                    found: key.algorithm,
                });
            }
            Ok(key)
        }
    }
}
