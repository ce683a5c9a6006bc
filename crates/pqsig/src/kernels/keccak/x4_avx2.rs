//! AVX2 four-way Keccak-f\[1600\]: lane i of the four states in one `__m256i`.
//! (Placeholder delegating to portable until the AVX2 kernel lands.)

use super::x4::{permute4_portable, StateX4};

/// AVX2 four-way permutation. Only called when AVX2 was detected.
pub fn permute4_avx2(st: &mut StateX4) {
    permute4_portable(st)
}
