//! Falcon (round 3) and FN-DSA (the putative FIPS 206 draft of the `fn-dsa` 0.4.0 crate).
//!
//! * [`params`] — degrees, sizes, bounds.
//! * [`codec`] — public key, compact secret key, compressed / padded signatures (strict).
//! * [`hash`] — hash-to-point (SHAKE256 → `Z_q[x]/(x^n+1)`).
//! * [`verify`] — verification (NTT mod q, norm bound).
//! * [`keys`] — the public API: parameter sets, key types, sign and verify.
//! * [`keygen`](mod@keygen) — NTRU key generation (Gaussian f, g; NTRUSolve with exact big integers).
//! * [`sign`] — signing: LDL tree, fast Fourier sampling, SamplerZ's software side.
//! * [`fndsa`] — FN-DSA (draft) on top of the same core.
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
pub mod codec;
pub mod fndsa;
pub mod hash;
pub mod keygen;
pub mod keys;
pub mod params;
pub mod sign;
pub mod verify;

pub use crate::traits::FalconSignature as Signature;
#[cfg(feature = "std")]
pub use keys::keygen;
pub use keys::{
    keygen_from_seed, keygen_from_seed_on, keygen_with_rng, ExpandedSigningKey, FnDsaParamSet,
    ParamSet, SigningKey, VerifyingKey,
};
