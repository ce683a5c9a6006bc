//! AVX-512 ML-DSA kernel table. The arithmetic kernels are the AVX2 ones (sound here:
//! the avx512 backend requires AVX2 too, see `select.rs`); Keccak uses AVX-512's
//! three-input logic and rotate instructions.

use super::avx2;
use super::Kernels;
use crate::kernels::keccak::x4_avx512::permute4_avx512;
use crate::kernels::select::Backend;

pub static KERNELS: Kernels = Kernels {
    backend: Backend::Avx512,
    permute4: permute4_avx512,
    ..avx2::TABLE
};
