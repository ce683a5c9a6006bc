//! AVX-512 primitives of the NTT variant kernels (radix-4 / merged layers, Winograd
//! radix-8 and radix-16) and their entry points, in the seam's signatures (see
//! `super::avx2` for the conventions; the shared body in `super::simd` on 512-bit
//! vectors).
//!
//! Every `pub fn` here requires the AVX-512 backend (F, BW, DQ, VL and AVX2) at run time:
//! it checks (cached) and panics otherwise; the dispatch only names them for that backend.

pub(crate) mod falcon;
pub(crate) mod mldsa;
mod permute;

pub(crate) use falcon::{
    falcon_intt_radix4, falcon_intt_winograd16, falcon_intt_winograd8, falcon_ntt_radix4,
    falcon_ntt_winograd16, falcon_ntt_winograd8, falcon_stage,
};
pub(crate) use mldsa::{
    mldsa_invntt_radix4, mldsa_invntt_winograd16, mldsa_invntt_winograd8, mldsa_ntt_radix4,
    mldsa_ntt_winograd16, mldsa_ntt_winograd8, mldsa_stage,
};
