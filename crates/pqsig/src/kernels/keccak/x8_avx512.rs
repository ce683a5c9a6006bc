//! AVX-512 eight-way Keccak-f\[1600\].
//!
//! The four-way AVX-512 kernel (`x4_avx512`) at full vector width: lane i (x + 5y) of the
//! eight states of a [`StateX8`] is one `__m512i`, so the same instruction stream
//! permutes twice as many states. The code is that kernel's (its generic `permute` over
//! this module's `Lanes` implementation for `__m512i`), and so is everything else: the
//! 25 lanes are loaded once, kept (with θ's parities and their rotations, nearly all) in
//! the 32 zmm registers for all 24 rounds and stored once; each round reads one 25-vector array and
//! writes the other with π folded into which lanes are combined (two rounds per loop
//! iteration bring the arrays back to their starting roles); `vprolq` does every
//! rotation, `vpternlogq` θ's three-way XORs and χ, and θ is applied without forming D
//! (`a ^ c[x-1] ^ rol(c[x+1], 1)` per lane), 90 vector instructions per round.
//!
//! Throughput: Intel cores issue 512-bit vector operations on two ports (0 and 1 fused,
//! and 5) against three for 256-bit ones, so eight states cost about 1.5 times four,
//! not the same: on a Xeon with full-width AVX-512 the `keccak_ticks` example measured
//! 760–920 ticks per eight states against about 590 per four for the four-way kernel
//! (1.3–1.55 times the throughput).
//!
//! Constant time: the code has no data-dependent branches or memory indices, and every
//! instruction used has data-independent timing.

use super::x4_avx512::{permute, Lanes, CHI, XOR3};
use super::x8::StateX8;
use core::arch::x86_64::*;

/// AVX-512 eight-way permutation: each of the eight interleaved states gets the 24-round
/// Keccak-f\[1600\], exactly as eight calls of the portable `keccak_f1600` would.
pub(crate) fn permute8_avx512(st: &mut StateX8) {
    // SAFETY: this function is only reachable through tables gated on AVX-512 detection:
    // `x8::permute8_for(Backend::Avx512)` returns it only when
    // `Backend::Avx512.is_available()` (AVX2, AVX-512 F, VL, BW and DQ all detected), and
    // the AVX-512 ML-DSA kernel table (which stores it as `permute8`) is only handed out
    // by `kernels::mldsa::kernels` after the same check. So the CPU supports AVX2,
    // AVX-512F and AVX-512VL here.
    unsafe { permute8_avx512_impl(st) }
}

/// The `__m512i` forms of the four-way kernel's operations (same instructions, zmm
/// registers).
impl Lanes for __m512i {
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        unsafe { _mm512_set1_epi64(x as i64) }
    }
    #[inline(always)]
    unsafe fn load(p: *const Self) -> Self {
        unsafe { _mm512_load_si512(p as *const _) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut Self, v: Self) {
        unsafe { _mm512_store_si512(p as *mut _, v) }
    }
    #[inline(always)]
    unsafe fn xor(self, y: Self) -> Self {
        unsafe { _mm512_xor_si512(self, y) }
    }
    #[inline(always)]
    unsafe fn xor3(self, y: Self, z: Self) -> Self {
        unsafe { _mm512_ternarylogic_epi64::<XOR3>(self, y, z) }
    }
    #[inline(always)]
    unsafe fn chi(self, y: Self, z: Self) -> Self {
        unsafe { _mm512_ternarylogic_epi64::<CHI>(self, y, z) }
    }
    #[inline(always)]
    unsafe fn rol<const N: i32>(self) -> Self {
        unsafe { _mm512_rol_epi64::<N>(self) }
    }
}

/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn permute8_avx512_impl(st: &mut StateX8) {
    // SAFETY: the CPU features are this function's contract. `StateX8` (`StateXN<8>`) is
    // `repr(C, align(64))` and `s` is its only field, so `s[i]` (64 bytes, i < 25) is an
    // aligned `__m512i`, readable and writable, exclusively borrowed through `st`.
    unsafe { permute(st.s.as_mut_ptr() as *mut __m512i) }
}
