//! The NTT engine: several algorithms ("variants") for the same two transforms, behind
//! the kernel seam: production runs one per (modulus, backend) (`production.rs`), the
//! study (feature `ntt-study`) compares them all on equal terms.
//!
//! Why a separate module: the ML-DSA (`kernels/mldsa`) and Falcon (`kernels/falcon/ntt`)
//! kernels each hard-code one algorithm (radix-2, one layer per pass) for one modulus.
//! Here one generic body per variant serves both moduli — q = 8380417, n = 256 (i32,
//! Montgomery 2^32, FIPS 204 order, lazy bounds) and q = 12289, n = 2^logn ≤ 1024 (u16
//! canonical, Montgomery 2^16, round-3 bit-reversed order) — through a small [`Field`]
//! trait, and the same body, run on a counting field, gives the operation counts.
//!
//! Files, one concern each:
//! * `variant.rs` — [`NttVariant`] (radix-2, radix-4/merged, Winograd radix-8 and
//!   radix-16) and how each composes a transform of 2^logn points from units;
//! * `field.rs` — the [`Field`] trait and its two moduli, with the twiddle and Winograd
//!   constant tables (computed at compile time);
//! * `units.rs` — the butterfly units (radix-2, radix-4, Winograd-8, Winograd-16,
//!   forward and inverse) and the short cyclic DFTs of the Winograd units;
//! * `transform.rs` — whole forward and inverse transforms following a plan;
//! * `portable.rs` — the portable variant kernels in the seam's signatures;
//! * `simd/` — the SIMD variant kernels' one generic body (units, stages, plans and
//!   constant tables of both moduli) over the `simd::Lanes` vector-ops trait;
//! * `avx2/`, `avx512/` — per ISA only the `Lanes` primitives of each modulus and the
//!   `#[target_feature]` entry points that instantiate the body;
//! * `production.rs` — the production table of each (modulus, backend) pair;
//! * `dispatch.rs` (`ntt-study`) — the kernel tables of every (backend, variant) pair and
//!   the slot where SIMD variant kernels plug in;
//! * `select.rs` (`ntt-study`) — which variant runs (API pin, `PQSIG_NTT`, per-pair
//!   defaults);
//! * `opcount.rs`, `count.rs` (`ntt-study`) — closed-form and instrumented operation
//!   counts.
//!
//! # Exactness
//! Every variant computes the reference transform: same evaluation order, and for
//! Falcon the same canonical residues bit for bit; for ML-DSA the same residues mod q
//! within the seam's bounds (forward |a| < 9q, inverse |a| < 3q/4 and times 2^32).
//! Radix-2 and radix-4 perform the reference's very operations, so their ML-DSA outputs
//! are bit-identical too; the Winograd units reduce at other points (forward outputs
//! < 8q for Winograd-8 and < 6q for Winograd-16, inverse < 0.51q).
//!
//! # Selection
//! Production builds run one NTT per (modulus, backend): `production.rs` — the backend's
//! own radix-2 kernels except radix-4 for ML-DSA on portable and for Falcon on AVX2
//! (AVX2's only Falcon NTT; measured fastest, bit-identical). Everything else here is the
//! NTT study's (docs/NTT.md) and needs the cargo feature `ntt-study`: with it
//! `mldsa::kernels(b)` and `falcon::ntt::kernels(b)` return the table of the variant
//! pinned by `set_ntt_variant` or `PQSIG_NTT` (`select`), else the production table. A
//! backend without a SIMD kernel of a variant runs the portable variant kernel for the
//! NTT and its own SIMD kernels for everything else.
//!
//! # Constant time
//! Every index, table look-up and branch depends on public sizes and loop counters only.

#[cfg(feature = "ntt-study")]
pub mod dispatch;
pub mod field;
#[cfg(feature = "ntt-study")]
pub mod opcount;
pub mod portable;
pub(crate) mod production;
#[cfg(feature = "ntt-study")]
pub mod select;
pub mod transform;
pub mod units;
pub mod variant;

#[cfg(all(feature = "std", feature = "ntt-study"))]
pub mod count;

// SIMD variant kernels: one generic body (`simd`) over per-ISA primitives (`avx2`,
// `avx512`); production uses AVX2's Falcon radix-4 only, the study every kernel (their
// functions slot into `dispatch::mldsa_fns` / `dispatch::falcon_fns`, one line each).
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(all(target_arch = "x86_64", feature = "ntt-study"))]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod simd;

#[cfg(feature = "ntt-study")]
pub use dispatch::{
    falcon_kernels, falcon_stage_for, mldsa_kernels, mldsa_stage_for, FalconStage, MlDsaStage,
};
pub use field::Field;
#[cfg(feature = "ntt-study")]
pub use select::{clear_ntt_variant, set_ntt_variant, variant_for, Modulus};
pub use variant::NttVariant;
