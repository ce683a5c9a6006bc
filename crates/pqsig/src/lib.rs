//! pqsig: post-quantum digital signatures with interchangeable arithmetic backends.
//!
//! Layers (see `docs/ARCHITECTURE.md`):
//! * scheme logic ([`mldsa`]) — the FIPS 204 algorithms, encodings and key types;
//!   [`snova`] — SNOVA Round 3, all 18 parameter sets;
//! * the kernel seam (`kernels`, crate-internal) — batch-shaped arithmetic (NTT,
//!   samplers, rounding, Keccak) with one implementation per backend (`portable`,
//!   `avx2`, ...), chosen through [`backend`];
//! * algorithm-generic keys ([`any`]) — one key type over every scheme, picked by
//!   [`Algorithm`]; the CLI, C, Python and server layers dispatch through it;
//! * randomness ([`rng`]) — OS entropy and, with feature `kat`, the NIST KAT DRBG.
//! * RustCrypto traits ([`traits`]) — `signature` 3, `pkcs8` 0.11, `spki` 0.8 on every key
//!   type (the versions of RustCrypto's `ml-dsa` 0.1.2), with per-scheme signature types.
//!
//! The public API never changes with the backend: a backend is picked once at run time
//! (CPU detection, `PQSIG_BACKEND`, or [`backend::set_backend`]) and every key
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
//!
//! # The crate edge
//! The public API is the schemes, their keys and encodings, [`keyfile`], [`backend`]
//! and [`Error`]. The SIMD kernels are not public: a kernel compiled for AVX2, AVX-512
//! or NEON is reachable only through a table that [`backend`] hands out after CPU
//! detection, so no safe call from outside the crate can execute an instruction the CPU
//! lacks. Benchmarks and tests use the `#[doc(hidden)]` module `kernels` (not a stable
//! API), which exposes only safe, detection-gated accessors:
//!
//! ```
//! use pqsig::Backend;
//! // A backend's table: the portable one where the CPU lacks the backend.
//! let k = pqsig::kernels::mldsa::kernels(Backend::Avx2);
//! assert!(k.backend == Backend::Avx2 || !Backend::Avx2.is_available());
//! let _portable = &pqsig::kernels::mldsa::portable::KERNELS;
//! let mut st = pqsig::kernels::keccak::x4::StateX4::default();
//! pqsig::kernels::keccak::x4::permute4_for(Backend::Avx2)(&mut st);
//! let _ntt = &pqsig::kernels::falcon::ntt::portable::KERNELS;
//! ```
//!
//! The ISA modules themselves do not resolve:
//!
//! ```compile_fail,E0603
//! use pqsig::kernels::keccak::x4_avx2::permute4_avx2;
//! ```
//! ```compile_fail,E0603
//! let _ = &pqsig::kernels::mldsa::avx2::KERNELS;
//! ```
//! ```compile_fail,E0603
//! let _ = &pqsig::kernels::falcon::ntt::avx2::KERNELS;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::kernels::ntt::avx2::mldsa_stage;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::kernels::falcon::ntru::avx2::ntt;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::kernels::falcon::fndsa::avx2::modq::decode;
//! ```
//!
//! Scheme internals that take raw shapes (slices that must be 2^logn long, unchecked
//! encodings) are private as well: the round-3 Falcon signer, codecs, hash-to-point and
//! verifier, and FN-DSA's hash-to-point, do not resolve from outside the crate ...
//!
//! ```compile_fail,E0603
//! use pqsig::falcon::sign::CompactKey;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::falcon::sign::round3::SEED_LEN;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::falcon::codec::comp_decode;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::falcon::verify::verify_raw;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::falcon::hash::hash_to_point_msg;
//! ```
//! ```compile_fail,E0603
//! let _ = pqsig::falcon::fndsa::hash::hash_to_point;
//! ```
//!
//! ... except through the door `kernels::internals` (not API: raw shapes; may panic on
//! malformed shapes), while the public API keeps what a user needs, shape-checked:
//!
//! ```
//! let _ = pqsig::kernels::internals::falcon::sign::CompactKey::new;
//! let _ = pqsig::kernels::internals::falcon::codec::comp_decode;
//! let _ = pqsig::kernels::internals::fndsa::hash_to_point;
//! use pqsig::falcon::{self, ParamSet};
//! let (_sk, vk) = falcon::keygen_from_seed(ParamSet::Falcon512, &[0u8; 48])?;
//! assert!(vk.decode_signature(&[0x39]).is_err());
//! assert!(vk.verify_point(&[0; 3], &[0; 3]).is_err());
//! # Ok::<(), pqsig::Error>(())
//! ```
//!
//! Falcon's and FN-DSA's own kernels go through the same kind of accessor:
//!
//! ```
//! use pqsig::Backend;
//! let _ = pqsig::kernels::falcon::keygen::kernels(Backend::Avx2);
//! assert!(pqsig::kernels::falcon::codec::kernels(Backend::Portable).hash_and_decode.is_none());
//! let _ = pqsig::kernels::falcon::fndsa::kernels(Backend::Avx512);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]

extern crate alloc;

pub mod algorithm;
pub mod any;
#[cfg(feature = "std")]
pub mod batch;
mod ct;
pub mod error;
pub mod falcon;
// The door for benchmarks, examples and tests: safe, detection-gated accessors only.
#[doc(hidden)]
pub mod kernels;
pub mod keyfile;
pub mod mldsa;
pub mod rng;
pub mod snova;
pub mod traits;
mod wipe;

pub use algorithm::Algorithm;
pub use backend::Backend;
pub use error::{DeviceError, Error};
// The trait crates in the versions pqsig implements (see [`traits`]).
pub use pkcs8;
pub use signature;
pub use spki;

/// Backend choice: which implementation of the kernels runs (see [`Backend`]).
///
/// ```
/// use pqsig::backend::{self, Backend};
///
/// backend::set_backend(Backend::Portable)?;
/// assert_eq!(backend::active(), Backend::Portable);
/// assert!(backend::set_backend(Backend::Avx2).is_ok() || !Backend::Avx2.is_available());
/// backend::reset(); // detection (or `PQSIG_BACKEND`) decides again
/// # Ok::<(), pqsig::Error>(())
/// ```
pub mod backend {
    #[cfg(feature = "ntt-study")]
    pub use crate::kernels::ntt::select::{clear_ntt_variant, set_ntt_variant};
    #[cfg(feature = "ntt-study")]
    pub use crate::kernels::ntt::NttVariant;
    pub use crate::kernels::select::{active, env_override, reset, set_backend, Backend};
}
