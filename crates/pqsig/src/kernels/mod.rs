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
//! * [`ntt`] — the production NTT of each (modulus, backend) pair (`ntt::production`)
//!   and, with the `ntt-study` feature, the study's engine: radix-2, radix-4 and Winograd
//!   radix-8/16 variants of the ML-DSA and Falcon transforms, selectable per process
//!   (`PQSIG_NTT`).
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

/// Scheme-level internals that tests, examples (`ct_check`, the `*_ticks` timers,
/// `fndsa_vs_peer`) and benches drive directly. Not API: they take raw shapes and panic
/// on malformed ones (the public API validates before calling).
pub mod internals {
    /// ML-DSA packing (FIPS 204 §7) and ExpandMask (Alg. 34).
    pub mod mldsa {
        pub use crate::mldsa::encode::{encode_sk, pack_eta, pack_t0, pack_z, unpack_eta};
        pub use crate::mldsa::sample::expand_mask;
    }
    /// FN-DSA field codecs (`ct_check`, `fndsa_vs_peer`) and hash-to-point.
    ///
    /// Not API: raw shapes; may panic on malformed shapes (the public API validates
    /// first).
    pub mod fndsa {
        pub use crate::falcon::fndsa::codec::{
            comp_decode, modq_decode, trim_i8_decode, trim_i8_encode, trim_i8_fits,
        };
        pub use crate::falcon::fndsa::hash::hash_to_point;
    }
    /// Round-3 Falcon internals (`tests/falcon_*`, `ct_check`, `falcon_ticks`,
    /// `falcon_sign_ticks`), under their module names in `crate::falcon`.
    ///
    /// Not API: raw shapes; may panic on malformed shapes (the public API validates
    /// first).
    pub mod falcon {
        /// Encoders and decoders: keys, detached signatures, signed messages, fields.
        ///
        /// Not API: raw shapes; may panic on malformed shapes (the public API validates
        /// first).
        pub mod codec {
            pub use crate::falcon::codec::{
                comp_decode, comp_encode, decode_public_key, decode_public_key_into,
                decode_secret_key, decode_secret_key_logn, decode_signature, decode_signature_into,
                decode_signature_logn, decode_signed_message, decode_signed_message_padded,
                encode_public_key, encode_secret_key, encode_secret_key_into, encode_signature,
                encode_signed_message, encode_signed_message_padded, modq_decode, modq_encode,
                trim_i8_decode, trim_i8_encode, SecretKeyParts, Signature, SignedMessage,
            };
        }
        /// Hash-to-point over a whole message.
        ///
        /// Not API: raw shapes; may panic on malformed shapes (the public API validates
        /// first).
        pub mod hash {
            pub use crate::falcon::hash::{hash_to_point, hash_to_point_msg, hash_to_point_msg_on};
        }
        /// Verification from raw encodings, h and the private-key completion.
        ///
        /// Not API: raw shapes; may panic on malformed shapes (the public API validates
        /// first).
        pub mod verify {
            pub use crate::falcon::verify::{
                complete_private, complete_private_with, compute_public, compute_public_with,
                open_signed_message, open_signed_message_with, public_key_from_fg, to_ntt_monty,
                verify, verify_raw, verify_raw_with, verify_with, PreparedPublicKey,
            };
        }
        /// NTRU key generation: the 48-byte-seed flow, the f, g sampler, NTRUSolve.
        ///
        /// Not API: raw shapes; may panic on malformed shapes (the public API validates
        /// first).
        pub mod keygen {
            pub use crate::falcon::keygen::{
                keygen_from_seed48, keygen_from_shake, norms_ok, sample_fg, solve, KeyPair,
                NtruSolution,
            };
        }
        /// Signing keys in their raw forms, the round-3 flow and the sampler's PRNG.
        ///
        /// Not API: raw shapes; may panic on malformed shapes (the public API validates
        /// first).
        pub mod sign {
            pub use crate::falcon::sign::{
                ldl_tree_size, prng, round3, sign_dyn, CompactKey, ExpandedKey,
            };
        }
    }
}
