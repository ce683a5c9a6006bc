//! pqsig: post-quantum digital signatures with interchangeable arithmetic backends.
//!
//! Layers (see `docs/ARCHITECTURE.md`):
//! * scheme logic ([`mldsa`]) — the FIPS 204 algorithms, encodings and key types;
//!   [`snova`] — SNOVA Round 3, all 18 parameter sets;
//! * the kernel seam ([`kernels`]) — batch-shaped arithmetic (NTT, samplers, rounding,
//!   Keccak) with one implementation per backend (`portable`, `avx2`, ...);
//! * algorithm-generic keys ([`any`]) — one key type over every scheme, picked by
//!   [`Algorithm`]; the CLI, C, Python and server layers dispatch through it;
//! * randomness ([`rng`]) — OS entropy and, with feature `kat`, the NIST KAT DRBG.
//! * RustCrypto traits ([`traits`]) — `signature` 3, `pkcs8` 0.11, `spki` 0.8 on every key
//!   type (the versions of RustCrypto's `ml-dsa` 0.1.2), with per-scheme signature types.
//!
//! The public API never changes with the backend: a backend is picked once at run time
//! (CPU detection, `PQSIG_BACKEND`, or [`kernels::select::set_backend`]) and every key
//! object may also be pinned to one with `with_backend`.
//!
//! ```
//! use pqsig::mldsa::{self, ParamSet};
//!
//! let (sk, vk) = mldsa::keygen(ParamSet::MlDsa65)?;      // ξ from the OS
//! let sig = sk.sign(b"message", b"context")?;            // hedged (the default)
//! assert_eq!(vk.verify(b"message", b"context", &sig), Ok(()));
//! assert!(vk.verify(b"other message", b"context", &sig).is_err());
//! let seed = *sk.seed().unwrap();                        // the 32-byte private key form
//! let again = mldsa::SigningKey::from_seed(ParamSet::MlDsa65, &seed)?;
//! assert_eq!(again.sign_deterministic(b"m", b"")?, sk.sign_deterministic(b"m", b"")?);
//! # Ok::<(), pqsig::Error>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]

extern crate alloc;

pub mod algorithm;
pub mod any;
#[cfg(feature = "std")]
pub mod batch;
pub mod error;
pub mod falcon;
pub mod kernels;
pub mod keyfile;
pub mod mldsa;
pub mod rng;
pub mod snova;
pub mod traits;
mod wipe;

pub use algorithm::Algorithm;
pub use error::{DeviceError, Error};
pub use kernels::select::Backend;
// The trait crates in the versions pqsig implements (see [`traits`]).
pub use pkcs8;
pub use signature;
pub use spki;
