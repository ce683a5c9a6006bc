//! The study's kernel tables of every (backend, variant) pair (`ntt-study` only), built
//! at compile time, so that pinning a variant costs one relaxed atomic load and a
//! `match` when a scheme fetches its table, and nothing per kernel call. The two pairs
//! whose production kernel is a variant (`production.rs`) share its static; for Falcon
//! on AVX2 the backend's own table is radix-4 and radix-2 the copy.
//!
//! Radix-2 is the backend's own table (today's kernels: portable, AVX2, AVX-512). Any
//! other variant is a copy of that table with `ntt`/`invntt_tomont` (ML-DSA) or
//! `ntt`/`intt` (Falcon) replaced by the pair [`mldsa_fns`] / [`falcon_fns`] name for
//! the (backend, variant). Where a backend has no SIMD kernel of a variant, the pair is
//! the portable variant kernel: every variant runs on every backend, the rest of the
//! table (products, samplers, …) staying SIMD.
//!
//! To add a SIMD variant kernel: one line in the `match` of [`mldsa_fns`] or
//! [`falcon_fns`], e.g.
//! `(Backend::Avx2, NttVariant::Radix4) => (avx2::mldsa_ntt_radix4, avx2::mldsa_invntt_radix4),`
//! with the functions in `kernels/ntt/avx2/` (same signatures as the seam's).

use super::portable::{self, FalconNtt, MlDsaNtt};
use super::variant::NttVariant;
use crate::kernels::falcon::ntt as fntt;
use crate::kernels::falcon::ntt::NttKernels;
use crate::kernels::mldsa::{self, Kernels};
use crate::kernels::select::Backend;

/// ML-DSA (forward, inverse) of a variant on a backend (SIMD where one exists, else
/// portable). Radix-2 on a SIMD backend is the backend table itself, not this pair.
pub(crate) const fn mldsa_fns(b: Backend, v: NttVariant) -> (MlDsaNtt, MlDsaNtt) {
    #[allow(clippy::match_single_binding)]
    match (b, v) {
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx2, NttVariant::Radix4) => (
            super::avx2::mldsa_ntt_radix4,
            super::avx2::mldsa_invntt_radix4,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx2, NttVariant::Winograd8) => (
            super::avx2::mldsa_ntt_winograd8,
            super::avx2::mldsa_invntt_winograd8,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx2, NttVariant::Winograd16) => (
            super::avx2::mldsa_ntt_winograd16,
            super::avx2::mldsa_invntt_winograd16,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx512, NttVariant::Radix4) => (
            super::avx512::mldsa_ntt_radix4,
            super::avx512::mldsa_invntt_radix4,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx512, NttVariant::Winograd8) => (
            super::avx512::mldsa_ntt_winograd8,
            super::avx512::mldsa_invntt_winograd8,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx512, NttVariant::Winograd16) => (
            super::avx512::mldsa_ntt_winograd16,
            super::avx512::mldsa_invntt_winograd16,
        ),
        (_, v) => portable::mldsa_fns(v),
    }
}

/// Falcon (forward, inverse) of a variant on a backend (SIMD where one exists, else
/// portable). Radix-2 on a SIMD backend is the backend table itself, not this pair.
pub(crate) const fn falcon_fns(b: Backend, v: NttVariant) -> (FalconNtt, FalconNtt) {
    #[allow(clippy::match_single_binding)]
    match (b, v) {
        // AVX2's own Falcon table runs radix-4 (production.rs); radix-2 is this pair.
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx2, NttVariant::Radix2) => (
            super::avx2::falcon_ntt_radix2,
            super::avx2::falcon_intt_radix2,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx2, NttVariant::Radix4) => (
            super::avx2::falcon_ntt_radix4,
            super::avx2::falcon_intt_radix4,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx2, NttVariant::Winograd8) => (
            super::avx2::falcon_ntt_winograd8,
            super::avx2::falcon_intt_winograd8,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx2, NttVariant::Winograd16) => (
            super::avx2::falcon_ntt_winograd16,
            super::avx2::falcon_intt_winograd16,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx512, NttVariant::Radix4) => (
            super::avx512::falcon_ntt_radix4,
            super::avx512::falcon_intt_radix4,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx512, NttVariant::Winograd8) => (
            super::avx512::falcon_ntt_winograd8,
            super::avx512::falcon_intt_winograd8,
        ),
        #[cfg(target_arch = "x86_64")]
        (Backend::Avx512, NttVariant::Winograd16) => (
            super::avx512::falcon_ntt_winograd16,
            super::avx512::falcon_intt_winograd16,
        ),
        (_, v) => portable::falcon_fns(v),
    }
}

macro_rules! mldsa_table {
    ($name:ident, $base:expr, $b:expr, $v:expr) => {
        static $name: Kernels = Kernels {
            ntt: mldsa_fns($b, $v).0,
            invntt_tomont: mldsa_fns($b, $v).1,
            ..$base
        };
    };
}

macro_rules! falcon_table {
    ($name:ident, $base:expr, $b:expr, $v:expr) => {
        static $name: NttKernels = NttKernels {
            ntt: falcon_fns($b, $v).0,
            intt: falcon_fns($b, $v).1,
            ..$base
        };
    };
}

#[allow(unused_imports)]
use Backend::{Avx2, Avx512, Portable};
use NttVariant::{Radix2, Radix4, Winograd16, Winograd8};

mldsa_table!(M_P_W8, mldsa::portable::KERNELS, Portable, Winograd8);
mldsa_table!(M_P_W16, mldsa::portable::KERNELS, Portable, Winograd16);
#[cfg(target_arch = "x86_64")]
mldsa_table!(M_A2_R4, mldsa::avx2::KERNELS, Avx2, Radix4);
#[cfg(target_arch = "x86_64")]
mldsa_table!(M_A2_W8, mldsa::avx2::KERNELS, Avx2, Winograd8);
#[cfg(target_arch = "x86_64")]
mldsa_table!(M_A2_W16, mldsa::avx2::KERNELS, Avx2, Winograd16);
#[cfg(target_arch = "x86_64")]
mldsa_table!(M_A5_R4, mldsa::avx512::KERNELS, Avx512, Radix4);
#[cfg(target_arch = "x86_64")]
mldsa_table!(M_A5_W8, mldsa::avx512::KERNELS, Avx512, Winograd8);
#[cfg(target_arch = "x86_64")]
mldsa_table!(M_A5_W16, mldsa::avx512::KERNELS, Avx512, Winograd16);

falcon_table!(F_P_R4, fntt::portable::KERNELS, Portable, Radix4);
falcon_table!(F_P_W8, fntt::portable::KERNELS, Portable, Winograd8);
falcon_table!(F_P_W16, fntt::portable::KERNELS, Portable, Winograd16);
#[cfg(target_arch = "x86_64")]
falcon_table!(F_A2_R2, fntt::avx2::KERNELS, Avx2, Radix2);
#[cfg(target_arch = "x86_64")]
falcon_table!(F_A2_W8, fntt::avx2::KERNELS, Avx2, Winograd8);
#[cfg(target_arch = "x86_64")]
falcon_table!(F_A2_W16, fntt::avx2::KERNELS, Avx2, Winograd16);
#[cfg(target_arch = "x86_64")]
falcon_table!(F_A5_R4, fntt::avx512::KERNELS, Avx512, Radix4);
#[cfg(target_arch = "x86_64")]
falcon_table!(F_A5_W8, fntt::avx512::KERNELS, Avx512, Winograd8);
#[cfg(target_arch = "x86_64")]
falcon_table!(F_A5_W16, fntt::avx512::KERNELS, Avx512, Winograd16);

/// The ML-DSA kernel table of a backend (portable if unavailable here) with the NTT of
/// the given variant.
pub fn mldsa_kernels(b: Backend, v: NttVariant) -> &'static Kernels {
    // SAFETY (every SIMD arm): `base_kernels` returned a SIMD table only after
    // `b.is_available()`, so `base.backend` names a detected backend.
    let base = mldsa::base_kernels(b);
    match (base.backend, v) {
        (_, NttVariant::Radix2) => base,
        #[cfg(target_arch = "x86_64")]
        (Avx2, Radix4) => &M_A2_R4,
        #[cfg(target_arch = "x86_64")]
        (Avx2, Winograd8) => &M_A2_W8,
        #[cfg(target_arch = "x86_64")]
        (Avx2, Winograd16) => &M_A2_W16,
        #[cfg(target_arch = "x86_64")]
        (Avx512, Radix4) => &M_A5_R4,
        #[cfg(target_arch = "x86_64")]
        (Avx512, Winograd8) => &M_A5_W8,
        #[cfg(target_arch = "x86_64")]
        (Avx512, Winograd16) => &M_A5_W16,
        (_, Radix4) => &super::production::MLDSA_PORTABLE,
        (_, Winograd8) => &M_P_W8,
        (_, Winograd16) => &M_P_W16,
    }
}

/// The Falcon NTT kernel table of a backend (portable if unavailable here) with the NTT
/// of the given variant.
pub fn falcon_kernels(b: Backend, v: NttVariant) -> &'static NttKernels {
    // SAFETY (every SIMD arm): as in `mldsa_kernels`, `base.backend` was detected.
    let base = fntt::base_kernels(b);
    match (base.backend, v) {
        #[cfg(target_arch = "x86_64")]
        (Avx2, Radix2) => &F_A2_R2,
        (_, Radix2) => base,
        #[cfg(target_arch = "x86_64")]
        (Avx2, Radix4) => base,
        #[cfg(target_arch = "x86_64")]
        (Avx2, Winograd8) => &F_A2_W8,
        #[cfg(target_arch = "x86_64")]
        (Avx2, Winograd16) => &F_A2_W16,
        #[cfg(target_arch = "x86_64")]
        (Avx512, Radix4) => &F_A5_R4,
        #[cfg(target_arch = "x86_64")]
        (Avx512, Winograd8) => &F_A5_W8,
        #[cfg(target_arch = "x86_64")]
        (Avx512, Winograd16) => &F_A5_W16,
        (_, Radix4) => &F_P_R4,
        (_, Winograd8) => &F_P_W8,
        (_, Winograd16) => &F_P_W16,
    }
}

/// The ML-DSA one-stage hook of an ISA (study and benchmark use, see `mldsa_stage` in
/// `simd/mldsa.rs`): `(polys, m, layers, inverse)`.
pub type MlDsaStage = fn(&mut [mldsa::Poly], usize, u32, bool);

/// The Falcon one-stage hook of an ISA: `(a, logn, m, layers, inverse)`.
pub type FalconStage = fn(&mut [u16], u32, usize, u32, bool);

/// The SIMD ML-DSA stage hook of backend `b`; `None` where `b` has none or the CPU
/// lacks it.
pub fn mldsa_stage_for(b: Backend) -> Option<MlDsaStage> {
    match b {
        // SAFETY (of the hook's calls): `Backend::Avx2.is_available()` was checked here,
        // and the hook asserts it again before entering `#[target_feature]` code.
        #[cfg(target_arch = "x86_64")]
        Avx2 if b.is_available() => Some(super::avx2::mldsa_stage),
        // SAFETY: `Backend::Avx512.is_available()` checked (AVX2, AVX-512 F/VL/BW/DQ).
        #[cfg(target_arch = "x86_64")]
        Avx512 if b.is_available() => Some(super::avx512::mldsa_stage),
        _ => None,
    }
}

/// The SIMD Falcon stage hook of backend `b`; `None` where `b` has none or the CPU
/// lacks it.
pub fn falcon_stage_for(b: Backend) -> Option<FalconStage> {
    match b {
        // SAFETY: `Backend::Avx2.is_available()` checked (the hook asserts it again).
        #[cfg(target_arch = "x86_64")]
        Avx2 if b.is_available() => Some(super::avx2::falcon_stage),
        // SAFETY: `Backend::Avx512.is_available()` checked (the hook asserts it again).
        #[cfg(target_arch = "x86_64")]
        Avx512 if b.is_available() => Some(super::avx512::falcon_stage),
        _ => None,
    }
}
