//! The public API: key generation, key types, signing and verification.

use super::keygen as kg;
use super::params::{ParamSet, DIGEST_LEN, PK_HASH_LEN, SALT_LEN, SEED_LEN, SK_LEN};
use super::sign;
use super::verify;
use crate::error::Error;
use crate::kernels::select::{self, Backend};
use alloc::vec::Vec;
use zeroize::Zeroizing;

fn check_backend(b: Backend) -> Result<Backend, Error> {
    if b.is_available() {
        Ok(b)
    } else {
        Err(Error::BackendUnavailable)
    }
}

/// A SNOVA public key `s_pub ‖ P22` (checked when decoded; P is expanded per
/// verification — use [`VerifyingKey::prepare`] to keep it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyingKey {
    ps: ParamSet,
    bytes: Vec<u8>,
    /// SHAKE256(pk)[..48], computed once when the key is made (verification hashes it
    /// into every target; ML-DSA keys keep `tr` the same way).
    pk_hash: [u8; PK_HASH_LEN],
    backend: Backend,
}

/// A public key with P11, P12, P21 expanded and P assembled (flat, m1·(n·l)² bytes on the
/// heap: 80 KiB for SNOVA_I_S, 310 KiB for SNOVA_V_S); verification skips the seed
/// expansion.
pub struct PreparedVerifyingKey {
    ps: ParamSet,
    ek: verify::Expanded,
    backend: Backend,
}

/// A SNOVA secret key `s_pub ‖ s_priv ‖ SHAKE256(pk)[..48]` (96 bytes, wiped on drop).
/// Every signature re-expands it; use [`SigningKey::expand`] to sign many messages.
pub struct SigningKey {
    ps: ParamSet,
    bytes: Zeroizing<[u8; SK_LEN]>,
    backend: Backend,
}

/// A secret key with T12, F12 and F21 precomputed (flat, on the heap, wiped on drop) and
/// P11 kept. Produces the same signatures as [`SigningKey`].
pub struct ExpandedSigningKey {
    ps: ParamSet,
    ek: sign::Expanded,
    backend: Backend,
    /// The 96-byte key it came from, for [`ExpandedSigningKey::verifying_key`] (the
    /// expansion keeps no public key).
    sk: Zeroizing<[u8; SK_LEN]>,
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("snova::SigningKey")
            .field("ps", &self.ps)
            .finish_non_exhaustive()
    }
}

impl core::fmt::Debug for ExpandedSigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("snova::ExpandedSigningKey")
            .field("ps", &self.ps)
            .finish_non_exhaustive()
    }
}

impl core::fmt::Debug for PreparedVerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("snova::PreparedVerifyingKey")
            .field("ps", &self.ps)
            .finish_non_exhaustive()
    }
}

/// Generates a key pair with a 48-byte seed from the operating system.
#[cfg(feature = "std")]
pub fn keygen(ps: ParamSet) -> Result<(SigningKey, VerifyingKey), Error> {
    let mut seed = Zeroizing::new([0u8; SEED_LEN]);
    crate::rng::os_fill(&mut seed[..])?;
    keygen_from_seed(ps, &seed[..])
}

/// Generates a key pair from the 48-byte seed `s_pub(16) ‖ s_priv(32)` (the NIST API's
/// `randombytes(48)` draw). `InvalidLength` for another length.
pub fn keygen_from_seed(ps: ParamSet, seed: &[u8]) -> Result<(SigningKey, VerifyingKey), Error> {
    keygen_from_seed_on(ps, seed, select::active())
}

/// [`keygen_from_seed`] with the public-key computation and both keys on `backend`
/// (`BackendUnavailable` if this CPU lacks it).
pub fn keygen_from_seed_on(
    ps: ParamSet,
    seed: &[u8],
    backend: Backend,
) -> Result<(SigningKey, VerifyingKey), Error> {
    let seed: &[u8; SEED_LEN] = seed.try_into().map_err(|_| Error::InvalidLength)?;
    let backend = check_backend(backend)?;
    let pk = kg::public_key(ps, backend, seed);
    let sk = kg::secret_key(backend, seed, &pk);
    let pk_hash: [u8; PK_HASH_LEN] = sk[SEED_LEN..].try_into().expect("48 bytes");
    Ok((
        SigningKey {
            ps,
            bytes: sk,
            backend,
        },
        VerifyingKey {
            ps,
            bytes: pk,
            pk_hash,
            backend,
        },
    ))
}

/// Key generation drawing the 48-byte seed from `rng` in one call (the NIST KAT flow).
pub fn keygen_with_rng(
    ps: ParamSet,
    rng: &mut impl rand_core::CryptoRngCore,
) -> Result<(SigningKey, VerifyingKey), Error> {
    let mut seed = Zeroizing::new([0u8; SEED_LEN]);
    rng.try_fill_bytes(&mut seed[..])
        .map_err(|_| Error::RandomnessFailure)?;
    keygen_from_seed(ps, &seed[..])
}

/// `sig ‖ msg` (the NIST `crypto_sign` output). `InvalidSignature` if `sig` is not a
/// signature length of `ps`.
pub fn signed_message(ps: ParamSet, sig: &[u8], msg: &[u8]) -> Result<Vec<u8>, Error> {
    if sig.len() != ps.signature_len() {
        return Err(Error::InvalidSignature);
    }
    let mut sm = Vec::with_capacity(sig.len() + msg.len());
    sm.extend_from_slice(sig);
    sm.extend_from_slice(msg);
    Ok(sm)
}

#[cfg(feature = "std")]
fn os_salt() -> Result<[u8; SALT_LEN], Error> {
    let mut salt = [0u8; SALT_LEN];
    crate::rng::os_fill(&mut salt)?;
    Ok(salt)
}

fn rng_salt(rng: &mut impl rand_core::CryptoRngCore) -> Result<[u8; SALT_LEN], Error> {
    let mut salt = [0u8; SALT_LEN];
    rng.try_fill_bytes(&mut salt)
        .map_err(|_| Error::RandomnessFailure)?;
    // The salt is sent in the signature (declassification, docs/ARCHITECTURE.md).
    crate::ct::public_mut(&mut salt[..]);
    Ok(salt)
}

impl SigningKey {
    /// The backend this key's operations run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Decodes the 96-byte secret key (`InvalidKey` otherwise, as for every family). The
    /// pk hash is not checked here (that needs the whole key generation):
    /// [`Self::verifying_key`] recomputes the public key when needed.
    pub fn from_bytes(ps: ParamSet, sk: &[u8]) -> Result<Self, Error> {
        let arr: &[u8; SK_LEN] = sk.try_into().map_err(|_| Error::InvalidKey)?;
        Ok(SigningKey {
            ps,
            bytes: Zeroizing::new(*arr),
            backend: select::active(),
        })
    }

    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes[..]
    }

    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// The same key on backend `b` (`BackendUnavailable` if this CPU lacks it).
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        self.backend = check_backend(b)?;
        Ok(self)
    }

    /// The public key, recomputed from the seeds (a full key generation).
    pub fn verifying_key(&self) -> VerifyingKey {
        let seed: &[u8; SEED_LEN] = self.bytes[..SEED_LEN].try_into().expect("48 bytes");
        let bytes = kg::public_key(self.ps, self.backend, seed);
        VerifyingKey {
            ps: self.ps,
            pk_hash: verify::pk_hash(self.backend, &bytes),
            bytes,
            backend: self.backend,
        }
    }

    /// Precomputes T12, F12, F21 (and keeps P11) for repeated signing.
    pub fn expand(&self) -> ExpandedSigningKey {
        ExpandedSigningKey {
            ps: self.ps,
            ek: sign::expand_sk(self.ps, self.backend, &self.bytes, true),
            backend: self.backend,
            sk: self.bytes.clone(),
        }
    }

    /// Signs with a salt from the operating system.
    #[cfg(feature = "std")]
    pub fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        self.sign_with_salt(msg, &os_salt()?)
    }

    /// Signs drawing the 16-byte salt from `rng` (the NIST API's `crypto_sign` draw).
    pub fn sign_with_rng(
        &self,
        msg: &[u8],
        rng: &mut impl rand_core::CryptoRngCore,
    ) -> Result<Vec<u8>, Error> {
        self.sign_with_salt(msg, &rng_salt(rng)?)
    }

    /// Signs with an explicit salt (deterministic; for KATs and reproducible tests).
    pub fn sign_with_salt(&self, msg: &[u8], salt: &[u8; SALT_LEN]) -> Result<Vec<u8>, Error> {
        // A one-shot expansion without F12 (see `sign::Expanded::f12`).
        let ek = sign::expand_sk(self.ps, self.backend, &self.bytes, false);
        sign::sign(self.ps, self.backend, &ek, msg, salt)
    }

    /// Signs the message digest `dg` = SHAKE256(msg, 64) with an explicit salt: the same
    /// bytes as [`Self::sign_with_salt`] over `msg`. For messages hashed incrementally
    /// (a [`crate::kernels::keccak::sponge::Shake256`] fed piece by piece).
    pub fn sign_digest_with_salt(
        &self,
        dg: &[u8; DIGEST_LEN],
        salt: &[u8; SALT_LEN],
    ) -> Result<Vec<u8>, Error> {
        let ek = sign::expand_sk(self.ps, self.backend, &self.bytes, false);
        sign::sign_digest(self.ps, self.backend, &ek, dg, salt)
    }
}

impl ExpandedSigningKey {
    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// The public key, recomputed from the seeds (a full key generation, as
    /// [`SigningKey::verifying_key`]).
    pub fn verifying_key(&self) -> VerifyingKey {
        SigningKey {
            ps: self.ps,
            bytes: self.sk.clone(),
            backend: self.backend,
        }
        .verifying_key()
    }

    /// The same key on backend `b` (`BackendUnavailable` if this CPU lacks it).
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        self.backend = check_backend(b)?;
        Ok(self)
    }

    /// See [`SigningKey::sign`].
    #[cfg(feature = "std")]
    pub fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        self.sign_with_salt(msg, &os_salt()?)
    }

    /// See [`SigningKey::sign_with_rng`].
    pub fn sign_with_rng(
        &self,
        msg: &[u8],
        rng: &mut impl rand_core::CryptoRngCore,
    ) -> Result<Vec<u8>, Error> {
        self.sign_with_salt(msg, &rng_salt(rng)?)
    }

    /// See [`SigningKey::sign_with_salt`].
    pub fn sign_with_salt(&self, msg: &[u8], salt: &[u8; SALT_LEN]) -> Result<Vec<u8>, Error> {
        sign::sign(self.ps, self.backend, &self.ek, msg, salt)
    }
}

impl VerifyingKey {
    /// The backend this key's operations run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Decodes `s_pub ‖ P22`: `InvalidKey` for a wrong length or a non-zero padding
    /// nibble.
    pub fn from_bytes(ps: ParamSet, pk: &[u8]) -> Result<Self, Error> {
        verify::check_pk(ps, pk)?;
        let backend = select::active();
        Ok(VerifyingKey {
            ps,
            bytes: pk.to_vec(),
            pk_hash: verify::pk_hash(backend, pk),
            backend,
        })
    }

    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// The same key on backend `b` (`BackendUnavailable` if this CPU lacks it).
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        self.backend = check_backend(b)?;
        Ok(self)
    }

    /// Verifies a detached signature (`n·l·r` nibbles ‖ salt). `Ok(())` if valid;
    /// `InvalidSignature` for a wrong length or a non-zero padding nibble,
    /// `VerificationFailed` otherwise. Expands P from the seed on every call
    /// (SHAKE256(pk) is kept from when the key was made).
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        if sig.len() != self.ps.signature_len() {
            return Err(Error::InvalidSignature);
        }
        verify::verify_streamed(self.ps, self.backend, &self.bytes, &self.pk_hash, msg, sig)
    }

    /// [`Self::verify`] given the message digest `dg` = SHAKE256(msg, 64), computed
    /// incrementally by the caller for a streamed message.
    pub fn verify_digest(&self, dg: &[u8; DIGEST_LEN], sig: &[u8]) -> Result<(), Error> {
        if sig.len() != self.ps.signature_len() {
            return Err(Error::InvalidSignature);
        }
        verify::verify_streamed_digest(self.ps, self.backend, &self.bytes, &self.pk_hash, dg, sig)
    }

    /// Expands P once for many verifications.
    pub fn prepare(&self) -> PreparedVerifyingKey {
        let ek = verify::expand_pk(self.ps, self.backend, &self.bytes)
            .expect("a decoded public key expands");
        PreparedVerifyingKey {
            ps: self.ps,
            ek,
            backend: self.backend,
        }
    }

    /// NIST `crypto_sign_open`: checks `sm = sig ‖ msg` and returns the message.
    pub fn open<'a>(&self, sm: &'a [u8]) -> Result<&'a [u8], Error> {
        let n = self.ps.signature_len();
        if sm.len() < n {
            return Err(Error::InvalidSignature);
        }
        let (sig, msg) = sm.split_at(n);
        self.verify(msg, sig)?;
        Ok(msg)
    }
}

impl PreparedVerifyingKey {
    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// The same key on backend `b` (`BackendUnavailable` if this CPU lacks it).
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        self.backend = check_backend(b)?;
        Ok(self)
    }

    /// See [`VerifyingKey::verify`].
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        verify::verify(self.ps, self.backend, &self.ek, msg, sig)
    }

    /// See [`VerifyingKey::open`].
    pub fn open<'a>(&self, sm: &'a [u8]) -> Result<&'a [u8], Error> {
        let n = self.ps.signature_len();
        if sm.len() < n {
            return Err(Error::InvalidSignature);
        }
        let (sig, msg) = sm.split_at(n);
        self.verify(msg, sig)?;
        Ok(msg)
    }
}
