//! AVX-512 ML-DSA kernel table. The NTT, inverse NTT and NTT-domain products are
//! AVX-512 kernels (`ntt`: a whole polynomial in sixteen zmm registers for all eight
//! layers); Keccak uses AVX-512's three-input logic and rotate instructions (four-way on
//! ymm, eight-way on zmm registers); the other arithmetic kernels are the AVX2 ones
//! (sound here: the avx512 backend requires AVX2 too, see `select.rs`).
//!
//! Every entry is a safe wrapper around a whole target-feature function; the table is
//! only handed out by [`super::kernels`] after AVX2 and AVX-512 F, VL, BW and DQ were
//! detected, which is what makes the wrappers sound.

pub(crate) mod hash_pack;
pub(crate) mod ntt;

use super::avx2;
use super::Kernels;
use crate::kernels::keccak::x4_avx512::permute4_avx512;
use crate::kernels::keccak::x8_avx512::permute8_avx512;
use crate::kernels::select::Backend;

pub(crate) static KERNELS: Kernels = Kernels {
    backend: Backend::Avx512,
    ntt: ntt::ntt,
    invntt_tomont: ntt::invntt_tomont,
    pointwise_montgomery: ntt::pointwise_montgomery,
    matvec_montgomery: ntt::matvec_montgomery,
    permute1: crate::kernels::keccak::f1600::permute1_avx512,
    permute4: permute4_avx512,
    permute8: permute8_avx512,
    permute8_native: true,
    ..avx2::TABLE
};
