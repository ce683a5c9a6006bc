//! AVX2 four-way Keccak-f\[1600\].
//!
//! Lane i (x + 5y) of the four states of a [`StateX4`] is one `__m256i` (one 64-bit element
//! per state), so every step of the permutation is the scalar step applied to vectors:
//! θ, ρ, π, χ and ι are plain XOR / AND-NOT / shift code on 25 vectors. Rotations are a
//! shift pair and an OR, except the two byte-multiple rotations (8 and 56) which are one
//! byte shuffle. The 25 lanes are loaded once, kept in locals for all 24 rounds (the
//! compiler holds what fits in the 16 ymm registers and spills the rest to the stack),
//! and stored once.
//!
//! Each round reads one 25-vector array and writes the other, with π folded into which
//! lanes are combined; two rounds per loop iteration bring the arrays back to their
//! starting roles, so no lane ever has to be copied.
//!
//! The eight-way permutation of the avx2 backend ([`permute8_avx2`]) is this kernel run
//! on each half of a [`StateX8`] in place: the lanes are read with a stride of two
//! vectors, so no state is copied or re-interleaved.
//!
//! Constant time: the code has no data-dependent branches or memory indices.

use super::f1600::RC;
use super::x4::StateX4;
use super::x8::StateX8;
use core::arch::x86_64::*;

/// AVX2 four-way permutation: each of the four interleaved states gets the 24-round
/// Keccak-f\[1600\], exactly as four calls of the portable `keccak_f1600` would.
pub(crate) fn permute4_avx2(st: &mut StateX4) {
    let p = st.s.as_mut_ptr() as *mut __m256i;
    // SAFETY: this function is only reachable through tables gated on AVX2 detection:
    // `x4::permute4_for(Backend::Avx2)` returns it only when `Backend::Avx2.is_available()`,
    // and the AVX2 ML-DSA kernel table (which stores it as `permute4`) is only handed out
    // by `kernels::mldsa::kernels` after the same check. So the CPU supports AVX2 here.
    // `StateX4` (`StateXN<4>`) is `repr(C, align(64))` with `s` its only field, so
    // `p.add(i)` for i < 25 is the 32-byte lane `s[i]`, 32-byte aligned, exclusively
    // borrowed through `st`.
    unsafe { permute4x_avx2_impl::<1>(p) }
}

/// AVX2 eight-way permutation: the four-way kernel on instances 0–3, then on 4–7, each
/// in place in the [`StateX8`] (no copies into a [`StateX4`]). Exactly eight calls of
/// the portable `keccak_f1600`.
pub(crate) fn permute8_avx2(st: &mut StateX8) {
    let p = st.s.as_mut_ptr() as *mut __m256i;
    // SAFETY: as for `permute4_avx2`: this function is only reachable through
    // `x8::permute8_for(Backend::Avx2)` and the AVX2 ML-DSA kernel table (as `permute8`),
    // both gated on `Backend::Avx2.is_available()`; the avx512 backend does not use it.
    // `StateX8` (`StateXN<8>`) is `repr(C, align(64))` with `s` its only field, so `s[i]`
    // is 64 bytes at offset 64i: `p.add(2i)` is its first half (instances 0–3) and
    // `p.add(2i + 1)` its second half (instances 4–7), both 32-byte aligned, for i < 25,
    // and exclusively borrowed through `st`.
    unsafe {
        permute4x_avx2_impl::<2>(p);
        permute4x_avx2_impl::<2>(p.add(1));
    }
}

macro_rules! xor {
    ($x:expr, $y:expr) => {
        _mm256_xor_si256($x, $y)
    };
}

/// `!x & y` in one instruction.
macro_rules! andn {
    ($x:expr, $y:expr) => {
        _mm256_andnot_si256($x, $y)
    };
}

/// Rotate each 64-bit element left by the literal `n` (1 ≤ n ≤ 63) with two shifts.
macro_rules! rol {
    ($x:expr, $n:literal) => {{
        let t = $x;
        _mm256_or_si256(
            _mm256_slli_epi64::<$n>(t),
            _mm256_srli_epi64::<{ 64 - $n }>(t),
        )
    }};
}

/// Rotate left by 1; the left shift by one is an add (it runs on more execution ports
/// than a shift).
macro_rules! rol1 {
    ($x:expr) => {{
        let t = $x;
        _mm256_or_si256(_mm256_add_epi64(t, t), _mm256_srli_epi64::<63>(t))
    }};
}

/// One round from array `$a` into array `$e`: θ (column parities `c`, then `d`), ρ and π
/// (each output plane gathers its five rotated source lanes into `b0..b4`), χ on the
/// plane, and ι on lane 0. `$r8` / `$r56` are the byte-shuffle masks for rotations by 8
/// and 56.
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr, $r8:ident, $r56:ident) => {{
        let c0 = xor!(xor!($a[0], $a[5]), xor!(xor!($a[10], $a[15]), $a[20]));
        let c1 = xor!(xor!($a[1], $a[6]), xor!(xor!($a[11], $a[16]), $a[21]));
        let c2 = xor!(xor!($a[2], $a[7]), xor!(xor!($a[12], $a[17]), $a[22]));
        let c3 = xor!(xor!($a[3], $a[8]), xor!(xor!($a[13], $a[18]), $a[23]));
        let c4 = xor!(xor!($a[4], $a[9]), xor!(xor!($a[14], $a[19]), $a[24]));
        let d0 = xor!(c4, rol1!(c1));
        let d1 = xor!(c0, rol1!(c2));
        let d2 = xor!(c1, rol1!(c3));
        let d3 = xor!(c2, rol1!(c4));
        let d4 = xor!(c3, rol1!(c0));
        // Plane y = 0.
        let b0 = xor!($a[0], d0);
        let b1 = rol!(xor!($a[6], d1), 44);
        let b2 = rol!(xor!($a[12], d2), 43);
        let b3 = rol!(xor!($a[18], d3), 21);
        let b4 = rol!(xor!($a[24], d4), 14);
        $e[0] = xor!(xor!(b0, andn!(b1, b2)), $rc);
        $e[1] = xor!(b1, andn!(b2, b3));
        $e[2] = xor!(b2, andn!(b3, b4));
        $e[3] = xor!(b3, andn!(b4, b0));
        $e[4] = xor!(b4, andn!(b0, b1));
        // Plane y = 1.
        let b0 = rol!(xor!($a[3], d3), 28);
        let b1 = rol!(xor!($a[9], d4), 20);
        let b2 = rol!(xor!($a[10], d0), 3);
        let b3 = rol!(xor!($a[16], d1), 45);
        let b4 = rol!(xor!($a[22], d2), 61);
        $e[5] = xor!(b0, andn!(b1, b2));
        $e[6] = xor!(b1, andn!(b2, b3));
        $e[7] = xor!(b2, andn!(b3, b4));
        $e[8] = xor!(b3, andn!(b4, b0));
        $e[9] = xor!(b4, andn!(b0, b1));
        // Plane y = 2.
        let b0 = rol!(xor!($a[1], d1), 1);
        let b1 = rol!(xor!($a[7], d2), 6);
        let b2 = rol!(xor!($a[13], d3), 25);
        let b3 = _mm256_shuffle_epi8(xor!($a[19], d4), $r8);
        let b4 = rol!(xor!($a[20], d0), 18);
        $e[10] = xor!(b0, andn!(b1, b2));
        $e[11] = xor!(b1, andn!(b2, b3));
        $e[12] = xor!(b2, andn!(b3, b4));
        $e[13] = xor!(b3, andn!(b4, b0));
        $e[14] = xor!(b4, andn!(b0, b1));
        // Plane y = 3.
        let b0 = rol!(xor!($a[4], d4), 27);
        let b1 = rol!(xor!($a[5], d0), 36);
        let b2 = rol!(xor!($a[11], d1), 10);
        let b3 = rol!(xor!($a[17], d2), 15);
        let b4 = _mm256_shuffle_epi8(xor!($a[23], d3), $r56);
        $e[15] = xor!(b0, andn!(b1, b2));
        $e[16] = xor!(b1, andn!(b2, b3));
        $e[17] = xor!(b2, andn!(b3, b4));
        $e[18] = xor!(b3, andn!(b4, b0));
        $e[19] = xor!(b4, andn!(b0, b1));
        // Plane y = 4.
        let b0 = rol!(xor!($a[2], d2), 62);
        let b1 = rol!(xor!($a[8], d3), 55);
        let b2 = rol!(xor!($a[14], d4), 39);
        let b3 = rol!(xor!($a[15], d0), 41);
        let b4 = rol!(xor!($a[21], d1), 2);
        $e[20] = xor!(b0, andn!(b1, b2));
        $e[21] = xor!(b1, andn!(b2, b3));
        $e[22] = xor!(b2, andn!(b3, b4));
        $e[23] = xor!(b3, andn!(b4, b0));
        $e[24] = xor!(b4, andn!(b0, b1));
    }};
}

/// Permutes the four states whose 25 lanes are the `__m256i` at `p`, `p + STRIDE`, …,
/// `p + 24·STRIDE` (lane i of the four states in one vector).
///
/// # Safety
/// The CPU must support AVX2, and `p.add(STRIDE * i)` for i < 25 must be valid for
/// 32-byte-aligned reads and writes, not accessed through any other reference meanwhile.
#[target_feature(enable = "avx2")]
unsafe fn permute4x_avx2_impl<const STRIDE: usize>(p: *mut __m256i) {
    // Value-only intrinsics are safe here (Rust ≥ 1.87); one block covers the whole body
    // including its loads and stores.
    #[allow(unused_unsafe)]
    unsafe {
        // Byte shuffles rotating every 64-bit element left by 8 and by 56 bits.
        let r8 = _mm256_setr_epi8(
            7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, //
            7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,
        );
        let r56 = _mm256_setr_epi8(
            1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, //
            1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
        );
        let mut a = [_mm256_setzero_si256(); 25];
        for (i, v) in a.iter_mut().enumerate() {
            // SAFETY: lane i < 25 is an aligned, readable `__m256i` (the caller's contract).
            *v = _mm256_load_si256(p.add(STRIDE * i));
        }
        let mut e = [_mm256_setzero_si256(); 25];
        let mut r = 0;
        while r < 24 {
            let rc0 = _mm256_set1_epi64x(RC[r] as i64);
            round!(a, e, rc0, r8, r56);
            let rc1 = _mm256_set1_epi64x(RC[r + 1] as i64);
            round!(e, a, rc1, r8, r56);
            r += 2;
        }
        for (i, v) in a.iter().enumerate() {
            // SAFETY: as for the loads; the lanes are writable and not aliased.
            _mm256_store_si256(p.add(STRIDE * i), *v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::select::Backend;

    #[test]
    #[cfg_attr(not(pqsig_test_avx2), ignore = "AVX2 not on this CPU")]
    fn matches_four_scalar_permutations() {
        assert!(
            Backend::Avx2.is_available(),
            "this CPU lacks the ISA of this test (see build.rs)"
        );
        crate::kernels::keccak::x4::check_four_scalar_permutations(permute4_avx2, 16);
    }
}
