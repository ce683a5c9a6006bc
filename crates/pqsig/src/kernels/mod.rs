//! The kernel seam: the arithmetic the schemes spend their time in, batch-shaped
//! (every kernel takes a slice of polynomials), with one implementation per backend.
//!
//! * [`mldsa`] — q = 8380417, n = 256: NTT, inverse NTT, pointwise Montgomery products,
//!   rejection samplers, power2round / decompose / hints, norm checks.
//! * [`falcon`] — q = 12289, n = 2..1024: NTT, FFT over binary64 (native or emulated),
//!   SamplerZ, round-3 key generation's solver loops, the signature decoder and the
//!   signer's norm pass, and FN-DSA's own kernels (NTRU solver, codec, hash, sampler).
//! * [`keccak`] — Keccak-f\[1600\] one-way and four-way, SHAKE128/256 and SHA3 on top.
//! * [`gf16`] — GF(16) = F2\[x\]/(x⁴+x+1) matrix kernels for SNOVA (GEMM with deferred
//!   reduction, batched small products, constant-time Gaussian elimination).
//! * [`aes`] — AES-128 encryption and CTR keystream: bitsliced (constant time, every
//!   target), AES-NI, VAES, ARMv8 Cryptography Extension.
//! * [`xof`] — SNOVA's public-seed expansion: SHAKE128 counter mode and AES-128-CTR.
//! * [`ntt`] — the NTT engine: radix-2, radix-4 and Winograd radix-8/16 variants of the
//!   ML-DSA and Falcon transforms, selectable per process (`PQSIG_NTT`).
//! * [`device`] — devices serving the NTT entries of the tables (the hardware seam).
//! * [`select`] — which backend runs: CPU detection once, cached, `PQSIG_BACKEND`
//!   override, and an API to pin one.
//! * [`trace`] — which backend each dispatch point was asked for (feature
//!   `backend-trace`, tests only).
//!
//! Scheme code fetches one kernel table per operation ([`mldsa::kernels`]) from its key's
//! backend and calls through it; no dispatch happens inside a loop over coefficients, and
//! no scheme module decides on an ISA itself.

pub mod aes;
pub mod device;
pub mod falcon;
pub mod gf16;
pub mod keccak;
pub mod mldsa;
pub mod ntt;
pub(crate) mod select;
pub mod trace;
pub mod xof;

/// Scheme-level internals that `examples/ct_check` drives directly. Not API: they take
/// raw shapes and panic on malformed ones (the public API validates before calling).
pub mod internals {
    /// ML-DSA packing (FIPS 204 §7) and ExpandMask (Alg. 34).
    pub mod mldsa {
        pub use crate::mldsa::encode::{encode_sk, pack_eta, pack_t0, pack_z, unpack_eta};
        pub use crate::mldsa::sample::expand_mask;
    }
    /// FN-DSA field codecs (`ct_check`, `fndsa_vs_peer`).
    pub mod fndsa {
        pub use crate::falcon::fndsa::codec::{
            comp_decode, modq_decode, trim_i8_decode, trim_i8_encode, trim_i8_fits,
        };
    }
}
