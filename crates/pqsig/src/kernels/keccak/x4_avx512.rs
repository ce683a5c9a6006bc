//! AVX-512 four-way Keccak-f\[1600\].
//!
//! Same data layout and round structure as the AVX2 kernel (`x4_avx2`): lane i (x + 5y)
//! of the four states of a [`StateX4`] is one `__m256i`, the 25 lanes are loaded once,
//! kept in locals for all 24 rounds and stored once, and each round reads one 25-vector
//! array and writes the other with π folded into which lanes are combined (two rounds
//! per loop iteration bring the arrays back to their starting roles).
//!
//! The vectors stay 256 bits wide; what AVX-512 (F + VL) adds is instructions:
//!
//! * `vprolq` rotates every 64-bit element by an immediate in one instruction, replacing
//!   the AVX2 shift-shift-or triple (or byte shuffle) for every ρ rotation and for θ's
//!   rotate-by-one.
//! * `vpternlogq` evaluates any three-input bitwise function in one instruction: θ's
//!   five-way column parity is two three-way XORs (truth table `0x96`), and χ's
//!   `b0 ^ (!b1 & b2)` is one instruction (truth table `0xD2`) instead of an AND-NOT and
//!   an XOR.
//! * VL gives 32 vector registers instead of 16, so the 25 lanes, θ's column parities
//!   and their rotations, and χ's five plane inputs nearly all stay in registers.
//!
//! θ is applied without forming D: lane (x, y) becomes `a ^ c[x-1] ^ rol(c[x+1], 1)`, one
//! three-way XOR. Per round that is 90 vector instructions (10 for the parities, 5 to
//! rotate them, 25 to apply θ, 24 for ρ, 25 for χ and 1 for ι) against about 185 for the
//! AVX2 kernel. Forming D first costs 5 more XORs and measured about 5% slower (Emerald
//! Rapids), despite needing five fewer registers.
//!
//! The kernel body (`permute`, `round`) is generic over the vector type through the
//! `Lanes` trait, whose methods are single intrinsics: this module implements it for
//! `__m256i`, and the eight-way kernel (`x8_avx512`) runs the same body on `__m512i`.
//!
//! Constant time: the code has no data-dependent branches or memory indices, and every
//! instruction used has data-independent timing.

use super::f1600::RC;
use super::x4::StateX4;
use core::arch::x86_64::*;

/// AVX-512 four-way permutation: each of the four interleaved states gets the 24-round
/// Keccak-f\[1600\], exactly as four calls of the portable `keccak_f1600` would.
pub(crate) fn permute4_avx512(st: &mut StateX4) {
    // SAFETY: this function is only reachable through tables gated on AVX-512 detection:
    // `x4::permute4_for(Backend::Avx512)` returns it only when
    // `Backend::Avx512.is_available()` (AVX2, AVX-512 F, VL, BW and DQ all detected), and
    // the AVX-512 ML-DSA kernel table (which stores it as `permute4`) is only handed out
    // by `kernels::mldsa::kernels` after the same check. So the CPU supports AVX2,
    // AVX-512F and AVX-512VL here.
    unsafe { permute4_avx512_impl(st) }
}

/// Truth table of `a ^ b ^ c` for `vpternlogq` (a = 0xF0, b = 0xCC, c = 0xAA).
pub(super) const XOR3: i32 = 0x96;
/// Truth table of `a ^ (!b & c)`: 0xF0 ^ (!0xCC & 0xAA) = 0xF0 ^ 0x22.
pub(super) const CHI: i32 = 0xD2;
// Both tables checked against their definitions at compile time.
const _: () = assert!(XOR3 == (0xF0 ^ 0xCC ^ 0xAA));
const _: () = assert!(CHI == (0xF0 ^ (!0xCC & 0xAA & 0xFF)));

/// A vector of 64-bit lanes, one per interleaved state, and the five operations the
/// kernel is built from. Implemented here for `__m256i` (four states) and in
/// `x8_avx512` for `__m512i` (eight states): one kernel body (`permute`) serves both
/// widths, each method being the one instruction the old per-width macros expanded to.
///
/// # Safety
/// Every method needs a CPU with AVX-512F and AVX-512VL. They are `#[inline(always)]`
/// and only called from `permute`, itself only inlined into
/// `#[target_feature(enable = "avx2,avx512f,avx512vl")]` functions.
pub(super) trait Lanes: Copy {
    /// Every lane `x`.
    unsafe fn splat(x: u64) -> Self;
    /// Aligned load (`p` aligned to `size_of::<Self>()`).
    unsafe fn load(p: *const Self) -> Self;
    /// Aligned store (`p` aligned to `size_of::<Self>()`).
    unsafe fn store(p: *mut Self, v: Self);
    /// `self ^ y`.
    unsafe fn xor(self, y: Self) -> Self;
    /// `self ^ y ^ z` in one instruction.
    unsafe fn xor3(self, y: Self, z: Self) -> Self;
    /// χ for one lane, `self ^ (!y & z)`, in one instruction.
    unsafe fn chi(self, y: Self, z: Self) -> Self;
    /// Rotate each 64-bit element left by `N` in one instruction.
    unsafe fn rol<const N: i32>(self) -> Self;
}

impl Lanes for __m256i {
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        unsafe { _mm256_set1_epi64x(x as i64) }
    }
    #[inline(always)]
    unsafe fn load(p: *const Self) -> Self {
        unsafe { _mm256_load_si256(p) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut Self, v: Self) {
        unsafe { _mm256_store_si256(p, v) }
    }
    #[inline(always)]
    unsafe fn xor(self, y: Self) -> Self {
        unsafe { _mm256_xor_si256(self, y) }
    }
    #[inline(always)]
    unsafe fn xor3(self, y: Self, z: Self) -> Self {
        unsafe { _mm256_ternarylogic_epi64::<XOR3>(self, y, z) }
    }
    #[inline(always)]
    unsafe fn chi(self, y: Self, z: Self) -> Self {
        unsafe { _mm256_ternarylogic_epi64::<CHI>(self, y, z) }
    }
    #[inline(always)]
    unsafe fn rol<const N: i32>(self) -> Self {
        unsafe { _mm256_rol_epi64::<N>(self) }
    }
}

/// One round from `a` into `e`: θ (column parities `c` and their rotations `r`; lane x
/// of every plane gets `c[x-1] ^ r[x+1]`), ρ and π (each output plane gathers its five
/// rotated source lanes into `b0..b4`), χ on the plane, and ι on lane 0.
///
/// # Safety
/// As for `Lanes`.
#[inline(always)]
pub(super) unsafe fn round<V: Lanes>(a: &[V; 25], e: &mut [V; 25], rc: V) {
    // SAFETY: the caller's contract (AVX-512F and VL available) is every method's.
    unsafe {
        let c0 = a[0].xor3(a[5], a[10]).xor3(a[15], a[20]);
        let c1 = a[1].xor3(a[6], a[11]).xor3(a[16], a[21]);
        let c2 = a[2].xor3(a[7], a[12]).xor3(a[17], a[22]);
        let c3 = a[3].xor3(a[8], a[13]).xor3(a[18], a[23]);
        let c4 = a[4].xor3(a[9], a[14]).xor3(a[19], a[24]);
        let r0 = c0.rol::<1>();
        let r1 = c1.rol::<1>();
        let r2 = c2.rol::<1>();
        let r3 = c3.rol::<1>();
        let r4 = c4.rol::<1>();
        // Plane y = 0.
        let b0 = a[0].xor3(c4, r1);
        let b1 = a[6].xor3(c0, r2).rol::<44>();
        let b2 = a[12].xor3(c1, r3).rol::<43>();
        let b3 = a[18].xor3(c2, r4).rol::<21>();
        let b4 = a[24].xor3(c3, r0).rol::<14>();
        e[0] = b0.chi(b1, b2).xor(rc);
        e[1] = b1.chi(b2, b3);
        e[2] = b2.chi(b3, b4);
        e[3] = b3.chi(b4, b0);
        e[4] = b4.chi(b0, b1);
        // Plane y = 1.
        let b0 = a[3].xor3(c2, r4).rol::<28>();
        let b1 = a[9].xor3(c3, r0).rol::<20>();
        let b2 = a[10].xor3(c4, r1).rol::<3>();
        let b3 = a[16].xor3(c0, r2).rol::<45>();
        let b4 = a[22].xor3(c1, r3).rol::<61>();
        e[5] = b0.chi(b1, b2);
        e[6] = b1.chi(b2, b3);
        e[7] = b2.chi(b3, b4);
        e[8] = b3.chi(b4, b0);
        e[9] = b4.chi(b0, b1);
        // Plane y = 2.
        let b0 = a[1].xor3(c0, r2).rol::<1>();
        let b1 = a[7].xor3(c1, r3).rol::<6>();
        let b2 = a[13].xor3(c2, r4).rol::<25>();
        let b3 = a[19].xor3(c3, r0).rol::<8>();
        let b4 = a[20].xor3(c4, r1).rol::<18>();
        e[10] = b0.chi(b1, b2);
        e[11] = b1.chi(b2, b3);
        e[12] = b2.chi(b3, b4);
        e[13] = b3.chi(b4, b0);
        e[14] = b4.chi(b0, b1);
        // Plane y = 3.
        let b0 = a[4].xor3(c3, r0).rol::<27>();
        let b1 = a[5].xor3(c4, r1).rol::<36>();
        let b2 = a[11].xor3(c0, r2).rol::<10>();
        let b3 = a[17].xor3(c1, r3).rol::<15>();
        let b4 = a[23].xor3(c2, r4).rol::<56>();
        e[15] = b0.chi(b1, b2);
        e[16] = b1.chi(b2, b3);
        e[17] = b2.chi(b3, b4);
        e[18] = b3.chi(b4, b0);
        e[19] = b4.chi(b0, b1);
        // Plane y = 4.
        let b0 = a[2].xor3(c1, r3).rol::<62>();
        let b1 = a[8].xor3(c2, r4).rol::<55>();
        let b2 = a[14].xor3(c3, r0).rol::<39>();
        let b3 = a[15].xor3(c4, r1).rol::<41>();
        let b4 = a[21].xor3(c0, r2).rol::<2>();
        e[20] = b0.chi(b1, b2);
        e[21] = b1.chi(b2, b3);
        e[22] = b2.chi(b3, b4);
        e[23] = b3.chi(b4, b0);
        e[24] = b4.chi(b0, b1);
    }
}

/// The 24 rounds on the states whose 25 lanes are the vectors `p[0..25]`: loaded once,
/// kept in locals, stored once; two rounds per loop iteration (`a` into `e`, then back).
///
/// # Safety
/// As for `Lanes`, and `p.add(i)` for i < 25 must be valid for aligned reads and
/// writes of a `V`, not accessed through any other reference meanwhile. Only to be
/// inlined into a function with those target features (hence `inline(always)`).
#[inline(always)]
pub(super) unsafe fn permute<V: Lanes>(p: *mut V) {
    // SAFETY: the caller's contract covers the CPU features and the 25 lanes at `p`.
    unsafe {
        let zero = V::splat(0);
        let mut a = [zero; 25];
        for (i, v) in a.iter_mut().enumerate() {
            *v = V::load(p.add(i));
        }
        let mut e = [zero; 25];
        let mut r = 0;
        while r < 24 {
            round(&a, &mut e, V::splat(RC[r]));
            round(&e, &mut a, V::splat(RC[r + 1]));
            r += 2;
        }
        for (i, v) in a.iter().enumerate() {
            V::store(p.add(i), *v);
        }
    }
}

/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn permute4_avx512_impl(st: &mut StateX4) {
    // SAFETY: the CPU features are this function's contract. `StateX4` (`StateXN<4>`) is
    // `repr(C, align(64))` and `s` is its only field, so `s[i]` (32 bytes, i < 25) is a
    // 32-byte-aligned `__m256i`, readable and writable, exclusively borrowed through `st`.
    unsafe { permute(st.s.as_mut_ptr() as *mut __m256i) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::select::Backend;

    #[test]
    #[cfg_attr(not(pqsig_test_avx512), ignore = "AVX-512 not on this CPU")]
    fn matches_four_scalar_permutations() {
        assert!(
            Backend::Avx512.is_available(),
            "this CPU lacks the ISA of this test (see build.rs)"
        );
        crate::kernels::keccak::x4::check_four_scalar_permutations(permute4_avx512, 16);
    }
}
