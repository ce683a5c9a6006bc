//! AVX-512 four-way Keccak-f\[1600\] (placeholder: the AVX2 permutation).

use super::x4::StateX4;

/// Four-way permutation for the avx512 backend. Only called when AVX-512 was detected.
pub fn permute4_avx512(st: &mut StateX4) {
    super::x4_avx2::permute4_avx2(st)
}
