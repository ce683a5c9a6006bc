//! Falcon (round 3) and FN-DSA (the putative FIPS 206 draft of the `fn-dsa` 0.4.0 crate).
//!
//! * [`params`] — degrees, sizes, bounds.
//! * [`keys`] — the public API: parameter sets, key types, sign and verify, the NIST
//!   signed-message form ([`keys::signed_message`]), and streaming: [`PointHasher`]
//!   (from [`VerifyingKey::point_hasher`] / [`SigningKey::point_hasher`]),
//!   [`VerifyingKey::decode_signature`] for the nonce, [`VerifyingKey::verify_point`].
//! * [`fndsa`] — FN-DSA (draft) on top of the same core.
//!
//! The round-3 internals (`codec`, `hash`, `verify`, `keygen`, `sign`: raw shapes,
//! slices that must be 2^logn long) are private to the crate; every public function
//! here checks its input and returns an [`Error`](crate::Error) instead of panicking.
//!
//! ```
//! use pqsig::falcon::{self, ParamSet};
//!
//! let (sk, vk) = falcon::keygen(ParamSet::Falcon512)?;    // 48-byte seed from the OS
//! let sig = sk.sign(b"message")?;                         // 0x39 ‖ nonce ‖ comp(s2)
//! assert_eq!(vk.verify(b"message", &sig), Ok(()));
//! assert!(vk.verify(b"another", &sig).is_err());
//! let fast = sk.expand();                                 // LDL tree kept: faster signing
//! assert_eq!(vk.verify(b"message", &fast.sign(b"message")?), Ok(()));
//!
//! let (sk, vk) = falcon::fndsa::keygen(10)?;              // FN-DSA-1024 (draft)
//! let sig = sk.sign(b"message", b"context")?;
//! assert_eq!(vk.verify(b"message", b"context", &sig), Ok(()));
//! # Ok::<(), pqsig::Error>(())
//! ```

#[cfg(feature = "std")] // the batch engine's
pub(crate) mod batch;
pub(crate) mod codec;
pub mod fndsa;
pub(crate) mod hash;
pub(crate) mod keygen;
pub mod keys;
pub(crate) mod ntru;
pub mod params;
pub(crate) mod sign;
pub(crate) mod verify;

pub use crate::traits::FalconSignature as Signature;
pub use codec::Signature as DecodedSignature;
pub use hash::PointHasher;
#[cfg(feature = "std")]
pub use keys::keygen;
pub use keys::{
    decode_signature, keygen_from_seed, keygen_from_seed_on, keygen_with_rng, ExpandedSigningKey,
    FnDsaParamSet, ParamSet, SigningKey, VerifyingKey,
};
