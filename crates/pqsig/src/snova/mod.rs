//! SNOVA Round 3 (v3.0): the nine recommended parameter sets `SNOVA_{I,III,V}_{K,B,S}`,
//! each with SHAKE128 (default) or AES-128-CTR (`_AES`) public-seed expansion — 18
//! algorithms, byte-exact with the Round 3 KAT files.
//!
//! | set | v | o | l | r | m1 | pk | sk | sig |
//! |---|---|---|---|---|---|---|---|---|
//! | SNOVA_I_K   | 29 | 3 | 4 | 8 | 5 | 376  | 96 | 528 |
//! | SNOVA_I_B   | 27 | 4 | 4 | 6 | 5 | 656  | 96 | 388 |
//! | SNOVA_I_S   | 27 | 5 | 4 | 4 | 5 | 1016 | 96 | 272 |
//! | SNOVA_III_K | 38 | 4 | 4 | 8 | 7 | 912  | 96 | 688 |
//! | SNOVA_III_B | 38 | 5 | 4 | 6 | 7 | 1416 | 96 | 532 |
//! | SNOVA_III_S | 38 | 6 | 4 | 5 | 7 | 2032 | 96 | 456 |
//! | SNOVA_V_K   | 40 | 4 | 5 | 8 | 6 | 1216 | 96 | 896 |
//! | SNOVA_V_B   | 40 | 5 | 5 | 6 | 6 | 1891 | 96 | 691 |
//! | SNOVA_V_S   | 40 | 6 | 5 | 5 | 6 | 2716 | 96 | 591 |
//!
//! q = 16 everywhere, n = v + o, alpha = l·r + 2r, i'(mi, alpha) = (mi + alpha) mod m1.
//!
//! # Older versions: not implemented
//! Round 1 (sets such as 24-5-16-4 of the ARMv8 study) and Round 2 SNOVA are superseded,
//! and several of their parameter sets are broken by published attacks (the Round 1
//! E-matrix was block-diagonal with identical blocks, which enables the weak-key forgery;
//! Round 2 forgeries and key recovery followed). Their keys and signatures are not
//! compatible with Round 3. Use the Round 3 set of the same level instead: `SNOVA_I_S`
//! (or `SNOVA_I_S_AES`) in place of 24-5-16-4 / `SNOVA_24_5_4[_SHAKE]`, `SNOVA_III_*` in
//! place of 37-8-16-4, `SNOVA_V_*` in place of 60-10-16-4.
//!
//! # Round 3 in short (what the KATs pin down)
//! * sk = s_pub(16) ‖ s_priv(32) ‖ SHAKE256(pk)[..48]; the target is
//!   SHAKE256(pk hash ‖ SHAKE256(msg, 64) ‖ salt), o·l·r nibbles.
//! * The ABQ matrices are fixed constants from SHAKE256("SNOVA_ABQ") (`abq.rs`); the
//!   public seed expands only P11, P12, P21 (`expand.rs`).
//! * Vinegar = SHAKE256(s_priv ‖ digest ‖ salt ‖ counter byte), counter 1..=254.
//!
//! # How the code is organised
//! Everything runs on flat row-major GF(16) matrices (one element per byte) so that the
//! reference's millions of l×l block products become a few large calls of the GF(16)
//! kernel seam ([`crate::kernels::gf16`]: GEMM with deferred reduction, batched small
//! products, constant-time solve) — the backend does the arithmetic, this module only
//! chooses shapes. Files: [`params`] (sizes), `codec.rs` (nibbles, block ↔ flat),
//! `abq.rs` (S powers, fixed ABQ, derived tables), `expand.rs` (P from the public seed,
//! T12), `keygen.rs`, `eval.rs` (whipping and the public map), `sign.rs`, `verify.rs`,
//! [`keys`] (this API), `scratch.rs` (one wiped arena per signature).
//!
//! # Speed (SNOVA_I_S, TSC ticks, this machine; see `examples/snova_ticks.rs`)
//! The shapes are chosen for the kernels: products that contract over the rows of P run as
//! one wide GEMM for all m1 matrices (row-interleaved layouts), narrow products keep a
//! unit-stride A, and everything secret-dependent that is not a kernel call is a
//! fixed-shape copy. Numbers are in `docs/PERFORMANCE.md`.
//!
//! # Secrets and constant time
//! s_priv, T12, F12, F21, the vinegar, every intermediate of signing and the solution are
//! in `Zeroizing` buffers. Signing has no secret-dependent branch or index except the
//! documented restart when the linear system is singular (the reference's behaviour;
//! which attempt succeeds depends on the vinegar). After 254 singular systems signing
//! returns [`crate::Error::RandomnessFailure`] (probability about 16^-254).
//!
//! # Errors
//! As for every family ([`crate::Error`]): a key of the wrong length or with a non-zero
//! padding nibble: `InvalidKey`; such a signature (or a signed message shorter than a
//! signature): `InvalidSignature`; a seed of the wrong length: `InvalidLength`; a
//! well-formed signature that does not verify: `VerificationFailed`. (For the 18 Round-3 sets every nibble
//! count is even, so no padding nibble exists; the rule is enforced generically.)
//!
//! ```
//! use pqsig::snova::{self, ParamSet};
//! let (sk, vk) = snova::keygen(ParamSet::SnovaIS)?;
//! let sig = sk.sign(b"message")?;
//! assert_eq!(vk.verify(b"message", &sig), Ok(()));
//! assert!(vk.verify(b"other", &sig).is_err());
//! # Ok::<(), pqsig::Error>(())
//! ```

pub(crate) mod abq;
pub(crate) mod codec;
pub(crate) mod eval;
pub(crate) mod expand;
pub(crate) mod keygen;
pub mod keys;
pub mod params;
pub(crate) mod scratch;
pub(crate) mod sign;
pub(crate) mod verify;

pub use crate::traits::SnovaSignature as Signature;
#[cfg(feature = "std")]
pub use keys::keygen;
pub use keys::{
    keygen_from_seed, keygen_from_seed_on, keygen_with_rng, signed_message, ExpandedSigningKey,
    PreparedVerifyingKey, SigningKey, VerifyingKey,
};
pub use params::{ParamSet, DIGEST_LEN, SALT_LEN, SEED_LEN};
