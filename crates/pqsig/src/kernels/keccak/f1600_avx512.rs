//! AVX-512 one-state Keccak-f\[1600\]: the four-way AVX-512 kernel's round (`x4_avx512`)
//! on 128-bit vectors whose low 64-bit element is one lane of the state.
//!
//! A sponge's permutations run one after the other (each block's input is the previous
//! output), so one state cannot be spread over several vector lanes usefully; what the
//! vector unit offers a single state is instructions and registers:
//!
//! * `vpternlogq` computes θ's three-way XORs and χ's `b0 ^ (!b1 & b2)` in one instruction
//!   each, and `vprolq` each rotation in one, for 90 instructions per round where the
//!   scalar code needs about 150 plus register moves;
//! * AVX-512VL's 32 vector registers hold the 25 lanes, θ's parities and their rotations
//!   with hardly any spills (the scalar code has 16 general registers).
//!
//! On a Sapphire Rapids Xeon this measured about 605 TSC ticks per permutation against
//! about 840 for the portable scalar code and 660 for that code built for BMI1/BMI2 (then
//! the avx2 backend's; that backend now has the ymm-state `f1600_avx2`, not yet measured
//! against this one on an AVX-512 machine), so every single-state sponge (SHAKE and
//! SHA-3: Falcon's hash-to-point, ML-DSA's and FN-DSA's one-off hashes) uses it on the
//! avx512 backend.
//! The scalar ports it leaves idle can run other work in between rounds
//! ([`keccak_f1600_avx512_hooked`]; Falcon verification decodes the signature there).
//! The upper 64 bits of each vector are don't-cares that never reach the state.
//!
//! Constant time: no data-dependent branches or memory indices; every instruction used
//! has data-independent timing.

use super::f1600::RC;
use super::x4_avx512::{round, Lanes, CHI, XOR3};
use core::arch::x86_64::*;

/// The `__m128i` forms of the four-way kernel's operations (same instructions, xmm
/// registers; only the low element matters here).
impl Lanes for __m128i {
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        unsafe { _mm_set1_epi64x(x as i64) }
    }
    #[inline(always)]
    unsafe fn load(p: *const Self) -> Self {
        unsafe { _mm_load_si128(p) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut Self, v: Self) {
        unsafe { _mm_store_si128(p, v) }
    }
    #[inline(always)]
    unsafe fn xor(self, y: Self) -> Self {
        unsafe { _mm_xor_si128(self, y) }
    }
    #[inline(always)]
    unsafe fn xor3(self, y: Self, z: Self) -> Self {
        unsafe { _mm_ternarylogic_epi64::<XOR3>(self, y, z) }
    }
    #[inline(always)]
    unsafe fn chi(self, y: Self, z: Self) -> Self {
        unsafe { _mm_ternarylogic_epi64::<CHI>(self, y, z) }
    }
    #[inline(always)]
    unsafe fn rol<const N: i32>(self) -> Self {
        unsafe { _mm_rol_epi64::<N>(self) }
    }
}

/// Keccak-f\[1600\] on one state, exactly as the portable `keccak_f1600`.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL (reach it through
/// [`super::f1600::permute1_for`], which checks).
#[target_feature(enable = "avx2,avx512f,avx512vl")]
pub(super) unsafe fn keccak_f1600_avx512(s: &mut [u64; 25]) {
    // SAFETY: the CPU features are this function's contract.
    unsafe { keccak_f1600_avx512_hooked(s, &mut ()) }
}

/// Work to interleave with the rounds of [`keccak_f1600_avx512_hooked`].
pub(crate) trait RoundHook {
    /// Called before each of the 24 rounds. Implementations should be
    /// `#[inline(always)]`, so that their state stays in registers across the rounds.
    fn before_round(&mut self);
}

/// No work.
impl RoundHook for () {
    #[inline(always)]
    fn before_round(&mut self) {}
}

/// [`keccak_f1600_avx512`] calling `hook` before each of the 24 rounds: independent
/// scalar work placed there (e.g. a latency-bound decoder) runs on the execution ports
/// and in the cycles the vector rounds leave free.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL, and this must be inlined into a
/// function enabling them (hence `inline(always)`).
#[inline(always)]
pub(crate) unsafe fn keccak_f1600_avx512_hooked<H: RoundHook>(s: &mut [u64; 25], hook: &mut H) {
    // SAFETY (every intrinsic and `round`): the CPU features are this function's contract.
    unsafe {
        let mut a: [__m128i; 25] = core::array::from_fn(|i| _mm_cvtsi64_si128(s[i] as i64));
        let mut e = a;
        // Two rounds per iteration: `a` into `e`, then back.
        for rc in RC.chunks_exact(2) {
            hook.before_round();
            round(&a, &mut e, __m128i::splat(rc[0]));
            hook.before_round();
            round(&e, &mut a, __m128i::splat(rc[1]));
        }
        for (o, v) in s.iter_mut().zip(a.iter()) {
            *o = _mm_cvtsi128_si64(*v) as u64;
        }
    }
}
