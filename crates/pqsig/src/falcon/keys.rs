//! Round-3 Falcon as a public API: parameter sets, key types, sign and verify.
//!
//! The four parameter sets are two degrees × two signature encodings:
//!
//! | name                 | logn | public key | secret key | signature                  |
//! |----------------------|------|-----------:|-----------:|----------------------------|
//! | `Falcon-512`         | 9    | 897        | 1281       | ≤ 752, `0x39‖nonce‖comp(s2)` |
//! | `Falcon-1024`        | 10   | 1793       | 2305       | ≤ 1462, `0x3A‖nonce‖comp(s2)` |
//! | `Falcon-padded-512`  | 9    | 897        | 1281       | = 666, zero-padded          |
//! | `Falcon-padded-1024` | 10   | 1793       | 2305       | = 1280, zero-padded         |
//!
//! Keys are the round-3 encodings (`0x00+logn ‖ h`, `0x50+logn ‖ f ‖ g ‖ F`); the padded
//! and unpadded sets share keys. Round-3 Falcon has neither a context string nor a
//! deterministic mode: both are refused with [`Error::Unsupported`].

use super::params;
use crate::error::Error;

/// A round-3 Falcon parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamSet {
    Falcon512,
    Falcon1024,
    FalconPadded512,
    FalconPadded1024,
}

impl ParamSet {
    pub const ALL: [ParamSet; 4] = [
        ParamSet::Falcon512,
        ParamSet::Falcon1024,
        ParamSet::FalconPadded512,
        ParamSet::FalconPadded1024,
    ];

    /// The canonical name (`Falcon-512`, `Falcon-padded-1024`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ParamSet::Falcon512 => "Falcon-512",
            ParamSet::Falcon1024 => "Falcon-1024",
            ParamSet::FalconPadded512 => "Falcon-padded-512",
            ParamSet::FalconPadded1024 => "Falcon-padded-1024",
        }
    }

    /// log2 of the degree (9 or 10).
    pub const fn logn(self) -> u32 {
        match self {
            ParamSet::Falcon512 | ParamSet::FalconPadded512 => 9,
            ParamSet::Falcon1024 | ParamSet::FalconPadded1024 => 10,
        }
    }

    /// Whether signatures use the fixed-length padded encoding.
    pub const fn padded(self) -> bool {
        matches!(self, ParamSet::FalconPadded512 | ParamSet::FalconPadded1024)
    }

    pub const fn public_key_len(self) -> usize {
        params::pk_size(self.logn())
    }

    pub const fn secret_key_len(self) -> usize {
        params::sk_size(self.logn())
    }

    /// The signature length: exact for the padded sets, the maximum otherwise.
    pub const fn signature_len(self) -> usize {
        if self.padded() {
            params::sig_padded_size(self.logn())
        } else {
            params::sig_compressed_max_size(self.logn())
        }
    }
}

/// Refuses what round-3 Falcon does not define: a non-empty context string.
pub(crate) fn no_context(ctx: &[u8]) -> Result<(), Error> {
    if ctx.is_empty() {
        Ok(())
    } else {
        Err(Error::Unsupported)
    }
}

/// An FN-DSA parameter set (**draft**: the putative FIPS 206 of the `fn-dsa` 0.4.0 crate;
/// encodings will change when NIST publishes the standard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FnDsaParamSet {
    FnDsa512,
    FnDsa1024,
}

impl FnDsaParamSet {
    pub const ALL: [FnDsaParamSet; 2] = [FnDsaParamSet::FnDsa512, FnDsaParamSet::FnDsa1024];

    pub const fn name(self) -> &'static str {
        match self {
            FnDsaParamSet::FnDsa512 => "FN-DSA-512",
            FnDsaParamSet::FnDsa1024 => "FN-DSA-1024",
        }
    }

    pub const fn logn(self) -> u32 {
        match self {
            FnDsaParamSet::FnDsa512 => 9,
            FnDsaParamSet::FnDsa1024 => 10,
        }
    }

    /// Verifying key `0x00+logn ‖ NTT(h)` (14 bits per value, LSB-first packing: the
    /// round-3 size, not its bytes; see [`super::fndsa`]).
    pub const fn public_key_len(self) -> usize {
        params::pk_size(self.logn())
    }

    /// Signing key `0x50+logn ‖ f ‖ g ‖ F ‖ SHAKE256(vk)` (LSB-first packing; 1345 / 2369
    /// bytes).
    pub const fn secret_key_len(self) -> usize {
        params::sk_size(self.logn()) + 64
    }

    /// Signatures have a fixed length (666 / 1280 bytes).
    pub const fn signature_len(self) -> usize {
        params::sig_padded_size(self.logn())
    }
}

/// Bytes of the key-generation seed: what the NIST API's `crypto_sign_keypair` draws
/// from `randombytes` and absorbs into SHAKE256.
pub const SEED_LEN: usize = 48;
/// Bytes of the per-signature nonce (public, part of the signature).
pub const NONCE_LEN: usize = params::NONCE_LEN;
/// Bytes of the per-signature sampler seed (secret, absorbed into SHAKE256).
pub const SIGN_SEED_LEN: usize = round3::SEED_LEN;

use super::codec::{self, Signature as DecodedSignature};
use super::hash::PointHasher;
use super::keygen as kg;
use super::sign::{round3, CompactKey, ExpandedKey};
use super::verify::{self as vf, PreparedPublicKey};
use crate::kernels::falcon::ntt;
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

fn format_of(ps: ParamSet) -> round3::Format {
    if ps.padded() {
        round3::Format::Padded
    } else {
        round3::Format::Compressed
    }
}

/// A round-3 Falcon public key, decoded once and kept in NTT form.
#[derive(Clone, Debug)]
pub struct VerifyingKey {
    ps: ParamSet,
    bytes: Vec<u8>,
    pub(crate) prepared: PreparedPublicKey,
    pub(crate) backend: Backend,
}

impl VerifyingKey {
    /// The backend this key's operations run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Decodes `0x00+logn ‖ h` (the degree must be the parameter set's; every coefficient
    /// below q). Errors: `InvalidKey`.
    pub fn from_bytes(ps: ParamSet, pk: &[u8]) -> Result<Self, Error> {
        Self::from_bytes_on(ps, pk, select::active())
    }

    fn from_bytes_on(ps: ParamSet, pk: &[u8], backend: Backend) -> Result<Self, Error> {
        if pk.len() != ps.public_key_len() || pk[0] != params::HEADER_PK + ps.logn() as u8 {
            return Err(Error::InvalidKey);
        }
        let prepared = PreparedPublicKey::from_bytes_with(ntt::kernels(backend), pk)?;
        Ok(VerifyingKey {
            ps,
            bytes: pk.to_vec(),
            prepared,
            backend,
        })
    }

    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// The encoding `0x00+logn ‖ h`.
    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The same key verifying on backend `b` (`BackendUnavailable` if this CPU lacks it).
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        self.backend = check_backend(b)?;
        Ok(self)
    }

    /// Verifies a detached signature (compressed, or padded for the padded sets).
    /// `Ok(())` if valid; `VerificationFailed` if well-formed but wrong; `InvalidSignature`
    /// if malformed (wrong header, non-canonical compression, trailing or padding bytes).
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.prepared
            .verify_with(ntt::kernels(self.backend), msg, sig, self.ps.padded())
    }

    /// [`Self::verify`] under the common `(msg, ctx, sig)` shape: round-3 Falcon has no
    /// context string, so a non-empty `ctx` is `Unsupported`.
    pub fn verify_with_context(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        no_context(ctx)?;
        self.verify(msg, sig)
    }

    /// A hasher of SHAKE256(`nonce` ‖ message) on this key's backend and degree, for
    /// verifying a message streamed in pieces: take the nonce from the signature
    /// ([`Self::decode_signature`]), feed the message, then [`Self::verify_point`] with
    /// [`PointHasher::finalize`] and the decoded s2.
    pub fn point_hasher(&self, nonce: &[u8; NONCE_LEN]) -> PointHasher {
        PointHasher::new(self.backend, nonce, self.ps.logn())
    }

    /// Decodes a detached signature of this key's parameter set (compressed, or padded
    /// for the padded sets) on this key's backend, as strictly as [`Self::verify`] does:
    /// its nonce and s2, without checking it against any message. `InvalidSignature` for
    /// a malformed signature of any length.
    pub fn decode_signature(&self, sig: &[u8]) -> Result<DecodedSignature, Error> {
        codec::decode_signature_logn_on(self.backend, sig, self.ps.logn(), self.ps.padded())
    }

    /// Verifies the decoded signature vector `s2` against the hashed point `c0` (both
    /// 2^logn long, else `InvalidSignature`; any `u16` and `i16` values are accepted, a
    /// `c0` not from a hash simply fails): `VerificationFailed` if the norm bound fails.
    /// With `c0` from [`Self::point_hasher`] this is [`Self::verify`].
    pub fn verify_point(&self, c0: &[u16], s2: &[i16]) -> Result<(), Error> {
        let logn = self.ps.logn();
        let n = 1usize << logn;
        if c0.len() != n || s2.len() != n {
            return Err(Error::InvalidSignature);
        }
        let k = ntt::kernels(self.backend);
        if vf::verify_raw_with(k, c0, s2, &self.prepared.h_ntt, logn) {
            Ok(())
        } else {
            Err(Error::VerificationFailed)
        }
    }

    /// NIST `crypto_sign_open`: checks a signed message (`siglen ‖ nonce ‖ msg ‖
    /// 0x20+logn ‖ comp(s2)`, or `sig ‖ msg` for the padded sets) and returns the message.
    pub fn open<'a>(&self, sm: &'a [u8]) -> Result<&'a [u8], Error> {
        let k = ntt::kernels(self.backend);
        let logn = self.ps.logn();
        let parsed = if self.ps.padded() {
            codec::decode_signed_message_padded(sm, logn)?
        } else {
            codec::decode_signed_message(sm, logn)?
        };
        self.prepared
            .verify_parts_with(k, &parsed.nonce, parsed.msg, &parsed.s2)?;
        Ok(parsed.msg)
    }
}

/// A round-3 Falcon secret key (f, g, F and the recomputed G), signing in *dynamic* mode:
/// the LDL tree is recomputed for every signature (small memory, ~3 KB per key).
/// Use [`SigningKey::expand`] for a key that signs many messages.
pub struct SigningKey {
    ps: ParamSet,
    key: CompactKey,
    /// The compact encoding `0x50+logn ‖ f ‖ g ‖ F` (wiped on drop).
    bytes: Zeroizing<Vec<u8>>,
    vk: VerifyingKey,
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("falcon::SigningKey")
            .field("ps", &self.ps)
            .finish_non_exhaustive()
    }
}

/// Generates a key pair with a seed from the operating system.
#[cfg(feature = "std")]
pub fn keygen(ps: ParamSet) -> Result<(SigningKey, VerifyingKey), Error> {
    let mut seed = Zeroizing::new([0u8; SEED_LEN]);
    crate::rng::os_fill(&mut seed[..])?;
    keygen_from_seed(ps, &seed[..])
}

/// Generates a key pair from a 48-byte seed (SHAKE256(seed) drives the sampling), as the
/// NIST API does with its `randombytes(48)` draw. `InvalidLength` for another length.
pub fn keygen_from_seed(ps: ParamSet, seed: &[u8]) -> Result<(SigningKey, VerifyingKey), Error> {
    keygen_from_seed_on(ps, seed, select::active())
}

/// [`keygen_from_seed`] on backend `b`: key generation itself and the keys
/// (`BackendUnavailable` if this CPU lacks it).
pub fn keygen_from_seed_on(
    ps: ParamSet,
    seed: &[u8],
    b: Backend,
) -> Result<(SigningKey, VerifyingKey), Error> {
    let backend = check_backend(b)?;
    let seed: &[u8; SEED_LEN] = seed.try_into().map_err(|_| Error::InvalidLength)?;
    let kp = kg::keygen_from_seed48_on(seed, ps.logn(), backend)?;
    let sk_bytes = kp.secret_key_bytes()?;
    let pk_bytes = kp.public_key_bytes()?;
    let vk = VerifyingKey::from_bytes_on(ps, &pk_bytes, backend)?;
    let key = CompactKey::new_on(&kp.f, &kp.g, &kp.F, &kp.G, ps.logn(), backend)?;
    let sk = SigningKey {
        ps,
        key,
        bytes: sk_bytes,
        vk: vk.clone(),
    };
    Ok((sk, vk))
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

impl SigningKey {
    /// Decodes the compact key `0x50+logn ‖ f ‖ g ‖ F`, recomputes G and h. Errors:
    /// `InvalidKey` (length, header, out-of-range coefficient, f not invertible mod q,
    /// G out of range).
    pub fn from_bytes(ps: ParamSet, sk: &[u8]) -> Result<Self, Error> {
        if sk.len() != ps.secret_key_len() || sk[0] != params::HEADER_SK + ps.logn() as u8 {
            return Err(Error::InvalidKey);
        }
        let backend = select::active();
        let parts = codec::decode_secret_key_logn(sk, ps.logn())?;
        let pk = vf::public_key_from_fg(&parts.f, &parts.g, ps.logn())?;
        let vk = VerifyingKey::from_bytes_on(ps, &pk, backend)?;
        let key = CompactKey::from_bytes(sk)?.with_backend(backend);
        Ok(SigningKey {
            ps,
            key,
            bytes: Zeroizing::new(sk.to_vec()),
            vk,
        })
    }

    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// The compact encoding `0x50+logn ‖ f ‖ g ‖ F`.
    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The matching public key (h = g/f, recomputed when the key was decoded).
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.vk
    }

    /// `InvalidKey` unless `pk` is this key's public key.
    pub fn check_against_public(&self, pk: &[u8]) -> Result<(), Error> {
        if pk == self.vk.to_bytes() {
            Ok(())
        } else {
            Err(Error::InvalidKey)
        }
    }

    /// The same key signing on backend `b`.
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        let b = check_backend(b)?;
        self.key = self.key.with_backend(b);
        self.vk.backend = b;
        Ok(self)
    }

    /// Precomputes the LDL tree (expanded key, 60 KiB at n = 512, 128 KiB at
    /// n = 1024) for faster repeated signing. Same signatures for the same randomness.
    pub fn expand(&self) -> ExpandedSigningKey {
        ExpandedSigningKey {
            ps: self.ps,
            key: self.key.expand(),
            vk: self.vk.clone(),
        }
    }

    /// Signs with a fresh nonce and sampler seed from the operating system.
    #[cfg(feature = "std")]
    pub fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let (nonce, seed) = os_sign_inputs()?;
        self.sign_with_nonce_and_seed(msg, &nonce, &seed)
    }

    /// Signs drawing the nonce (40 bytes) then the sampler seed (48 bytes) from `rng`, in
    /// two calls, as the NIST API's `crypto_sign` does.
    pub fn sign_with_rng(
        &self,
        rng: &mut impl rand_core::CryptoRngCore,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let (nonce, seed) = draw_sign_inputs(rng)?;
        self.sign_with_nonce_and_seed(msg, &nonce, &seed)
    }

    /// Signs with an explicit nonce and sampler seed (for KATs and reproducible tests; a
    /// real signer must never reuse a nonce).
    pub fn sign_with_nonce_and_seed(
        &self,
        msg: &[u8],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SIGN_SEED_LEN],
    ) -> Result<Vec<u8>, Error> {
        self.key.sign_round3(msg, nonce, seed, format_of(self.ps))
    }

    /// A hasher of SHAKE256(`nonce` ‖ message) on this key's backend, for signing a
    /// message streamed in pieces: draw the nonce first, feed the message, then
    /// [`Self::sign_point_with_nonce_and_seed`].
    pub fn point_hasher(&self, nonce: &[u8; NONCE_LEN]) -> PointHasher {
        PointHasher::new(self.key.backend(), nonce, self.ps.logn())
    }

    /// Signs the hashed point `hm` = HashToPoint(SHAKE256(nonce ‖ message)) (2^logn
    /// coefficients, else `InvalidLength`): the same bytes as
    /// [`Self::sign_with_nonce_and_seed`] over that message with the same nonce and seed.
    pub fn sign_point_with_nonce_and_seed(
        &self,
        hm: &[u16],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SIGN_SEED_LEN],
    ) -> Result<Vec<u8>, Error> {
        self.key
            .sign_round3_point(hm, nonce, seed, format_of(self.ps))
    }
}

/// A Falcon secret key with its LDL tree precomputed: signing skips the per-signature
/// Gram/LDL work. Produces the same signatures as [`SigningKey`] for the same randomness.
pub struct ExpandedSigningKey {
    ps: ParamSet,
    key: ExpandedKey,
    vk: VerifyingKey,
}

impl ExpandedSigningKey {
    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.vk
    }

    /// See [`SigningKey::sign`].
    #[cfg(feature = "std")]
    pub fn sign(&self, msg: &[u8]) -> Result<Vec<u8>, Error> {
        let (nonce, seed) = os_sign_inputs()?;
        self.sign_with_nonce_and_seed(msg, &nonce, &seed)
    }

    /// See [`SigningKey::sign_with_rng`].
    pub fn sign_with_rng(
        &self,
        rng: &mut impl rand_core::CryptoRngCore,
        msg: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let (nonce, seed) = draw_sign_inputs(rng)?;
        self.sign_with_nonce_and_seed(msg, &nonce, &seed)
    }

    /// See [`SigningKey::sign_with_nonce_and_seed`].
    pub fn sign_with_nonce_and_seed(
        &self,
        msg: &[u8],
        nonce: &[u8; NONCE_LEN],
        seed: &[u8; SIGN_SEED_LEN],
    ) -> Result<Vec<u8>, Error> {
        self.key.sign_round3(msg, nonce, seed, format_of(self.ps))
    }
}

/// Nonce then seed, two separate draws (the DRBG output depends on the split).
fn draw_sign_inputs(
    rng: &mut impl rand_core::CryptoRngCore,
) -> Result<([u8; NONCE_LEN], Zeroizing<[u8; SIGN_SEED_LEN]>), Error> {
    let mut nonce = [0u8; NONCE_LEN];
    let mut seed = Zeroizing::new([0u8; SIGN_SEED_LEN]);
    rng.try_fill_bytes(&mut nonce)
        .map_err(|_| Error::RandomnessFailure)?;
    // The nonce is sent in the signature (declassification, docs/ARCHITECTURE.md).
    crate::ct::public_mut(&mut nonce[..]);
    rng.try_fill_bytes(&mut seed[..])
        .map_err(|_| Error::RandomnessFailure)?;
    Ok((nonce, seed))
}

/// Nonce and seed from the operating system.
#[cfg(feature = "std")]
fn os_sign_inputs() -> Result<([u8; NONCE_LEN], Zeroizing<[u8; SIGN_SEED_LEN]>), Error> {
    let mut nonce = [0u8; NONCE_LEN];
    let mut seed = Zeroizing::new([0u8; SIGN_SEED_LEN]);
    crate::rng::os_fill(&mut nonce)?;
    crate::rng::os_fill(&mut seed[..])?;
    Ok((nonce, seed))
}

/// Decodes a detached signature of parameter set `ps` (compressed, or padded for the
/// padded sets) on the process-wide backend: see [`VerifyingKey::decode_signature`].
/// `InvalidSignature` for a malformed signature of any length.
pub fn decode_signature(ps: ParamSet, sig: &[u8]) -> Result<DecodedSignature, Error> {
    codec::decode_signature_logn(sig, ps.logn(), ps.padded())
}

/// The NIST API's signed message for a detached signature `sig` of `msg`: `siglen ‖
/// nonce ‖ msg ‖ 0x20+logn ‖ comp(s2)` (what `crypto_sign` outputs and the round-3 KAT
/// files hold), or `sig ‖ msg` for the padded sets.
pub fn signed_message(ps: ParamSet, sig: &[u8], msg: &[u8]) -> Result<Vec<u8>, Error> {
    let parsed = codec::decode_signature_logn(sig, ps.logn(), ps.padded())?;
    if ps.padded() {
        let mut sm = Vec::with_capacity(sig.len() + msg.len());
        sm.extend_from_slice(sig);
        sm.extend_from_slice(msg);
        Ok(sm)
    } else {
        codec::encode_signed_message(&parsed.nonce, msg, &parsed.s2, ps.logn())
    }
}
