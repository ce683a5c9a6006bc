//! Keccak-f\[1600\] on one state (FIPS 202 §3): the portable permutation and the
//! per-backend choice. Constant-time: no data-dependent branches or indices.
//!
//! * [`keccak_f1600`]: portable, every target (and the reference for the others);
//! * [`permute1_for`]: a backend's one-state permutation (avx512: `f1600_avx512`, the
//!   AVX-512 round on one lane per xmm register; avx2: `f1600_avx2`, the state in seven
//!   ymm registers; portable: [`keccak_f1600`]); on x86 the scalar code instead where it
//!   measured faster at first use (`f1600_choice`);
//! * [`keccak_f1600_active`]: the process-wide backend's, what the sponges use.

#[cfg(target_arch = "x86_64")]
use super::f1600_choice::{self as choice, Permute1Impl};
use crate::kernels::select::{self, Backend};

/// A one-state Keccak-f\[1600\] permutation.
pub type Permute1 = fn(&mut [u64; 25]);

/// The one-state permutation of backend `b` (the portable one if `b` is unavailable).
pub fn permute1_for(b: Backend) -> Permute1 {
    crate::kernels::trace::record("keccak::permute1_for", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512.is_available()`: AVX2, AVX-512 F/VL/BW/DQ detected.
        Backend::Avx512 if b.is_available() => permute1_avx512,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2.is_available()`: AVX2 detected.
        Backend::Avx2 if b.is_available() => permute1_avx2,
        _ => keccak_f1600,
    }
}

/// Safe entry to the avx2 backend's one-state permutation: `f1600_avx2` (the state in
/// seven ymm registers) or the scalar code, whichever measured faster on this CPU
/// ([`f1600_choice`](super::f1600_choice)). Only handed out by [`permute1_for`] after
/// `Backend::Avx2.is_available()`, and by the AVX2 kernel tables (themselves handed out
/// only after that check).
#[cfg(target_arch = "x86_64")]
pub(crate) fn permute1_avx2(s: &mut [u64; 25]) {
    if choice::chosen(Backend::Avx2) == Permute1Impl::Scalar {
        return keccak_f1600(s);
    }
    // SAFETY: reachable only through `permute1_for(Backend::Avx2)` and the AVX2 ML-DSA
    // kernel table, both after AVX2 detection.
    unsafe { super::f1600_avx2::keccak_f1600_avx2(s) }
}

/// Safe entry to the avx512 backend's one-state permutation: `f1600_avx512` or the
/// scalar code, whichever measured faster ([`f1600_choice`](super::f1600_choice)). Only
/// handed out by [`permute1_for`] after `Backend::Avx512.is_available()` (AVX2 and
/// AVX-512 F, VL, BW, DQ detected), and by the AVX-512 kernel tables (themselves handed
/// out only after that check).
#[cfg(target_arch = "x86_64")]
pub(crate) fn permute1_avx512(s: &mut [u64; 25]) {
    if choice::chosen(Backend::Avx512) == Permute1Impl::Scalar {
        return keccak_f1600(s);
    }
    // SAFETY: reachable only through `permute1_for(Backend::Avx512)` after the
    // availability check, so the CPU has AVX2, AVX-512F and AVX-512VL.
    unsafe { super::f1600_avx512::keccak_f1600_avx512(s) }
}

/// Keccak-f\[1600\] with the process-wide backend's permutation ([`select::active`]);
/// the same result on every backend.
#[inline]
pub(crate) fn keccak_f1600_active(s: &mut [u64; 25]) {
    permute1_for(select::active())(s)
}

/// Round constants ι for the 24 rounds.
pub(crate) const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808A,
    0x8000000080008000,
    0x000000000000808B,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008A,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000A,
    0x000000008000808B,
    0x800000000000008B,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800A,
    0x800000008000000A,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// ρ rotation offsets, indexed by lane x + 5y.
pub const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// π: lane x + 5y moves to lane y + 5((2x + 3y) mod 5); `PI_SRC[d]` is the source of d.
const fn pi_src() -> [usize; 25] {
    let mut src = [0usize; 25];
    let mut x = 0;
    while x < 5 {
        let mut y = 0;
        while y < 5 {
            let dst = y + 5 * ((2 * x + 3 * y) % 5);
            src[dst] = x + 5 * y;
            y += 1;
        }
        x += 1;
    }
    src
}
pub const PI_SRC: [usize; 25] = pi_src();

/// Table-driven reference permutation (the FIPS 202 steps as loops).
pub fn keccak_f1600_reference(a: &mut [u64; 25]) {
    for &rc in RC.iter() {
        // θ
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        let mut d = [0u64; 5];
        for x in 0..5 {
            d[x] = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
        }
        // ρ and π together
        let mut b = [0u64; 25];
        for i in 0..25 {
            let s = PI_SRC[i];
            b[i] = (a[s] ^ d[s % 5]).rotate_left(RHO[s]);
        }
        // χ
        for y in 0..5 {
            let r = 5 * y;
            for x in 0..5 {
                a[r + x] = b[r + x] ^ (!b[r + (x + 1) % 5] & b[r + (x + 2) % 5]);
            }
        }
        // ι
        a[0] ^= rc;
    }
}

/// Applies the 24-round permutation to `s` (lane x + 5y at index x + 5y).
///
/// One round's θ, ρ, π, χ and ι are written out on 25 locals so the compiler keeps the
/// state in registers (generated from the FIPS 202 step definitions; the table-driven
/// form above is kept as [`keccak_f1600_reference`] for testing).
#[inline]
pub fn keccak_f1600(s: &mut [u64; 25]) {
    let [mut a00, mut a01, mut a02, mut a03, mut a04, mut a05, mut a06, mut a07, mut a08, mut a09, mut a10, mut a11, mut a12, mut a13, mut a14, mut a15, mut a16, mut a17, mut a18, mut a19, mut a20, mut a21, mut a22, mut a23, mut a24] =
        *s;
    for &rc in RC.iter() {
        let c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20;
        let c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21;
        let c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22;
        let c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23;
        let c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24;
        let d0 = c4 ^ c1.rotate_left(1);
        let d1 = c0 ^ c2.rotate_left(1);
        let d2 = c1 ^ c3.rotate_left(1);
        let d3 = c2 ^ c4.rotate_left(1);
        let d4 = c3 ^ c0.rotate_left(1);
        let b00 = (a00 ^ d0).rotate_left(0);
        let b16 = (a05 ^ d0).rotate_left(36);
        let b07 = (a10 ^ d0).rotate_left(3);
        let b23 = (a15 ^ d0).rotate_left(41);
        let b14 = (a20 ^ d0).rotate_left(18);
        let b10 = (a01 ^ d1).rotate_left(1);
        let b01 = (a06 ^ d1).rotate_left(44);
        let b17 = (a11 ^ d1).rotate_left(10);
        let b08 = (a16 ^ d1).rotate_left(45);
        let b24 = (a21 ^ d1).rotate_left(2);
        let b20 = (a02 ^ d2).rotate_left(62);
        let b11 = (a07 ^ d2).rotate_left(6);
        let b02 = (a12 ^ d2).rotate_left(43);
        let b18 = (a17 ^ d2).rotate_left(15);
        let b09 = (a22 ^ d2).rotate_left(61);
        let b05 = (a03 ^ d3).rotate_left(28);
        let b21 = (a08 ^ d3).rotate_left(55);
        let b12 = (a13 ^ d3).rotate_left(25);
        let b03 = (a18 ^ d3).rotate_left(21);
        let b19 = (a23 ^ d3).rotate_left(56);
        let b15 = (a04 ^ d4).rotate_left(27);
        let b06 = (a09 ^ d4).rotate_left(20);
        let b22 = (a14 ^ d4).rotate_left(39);
        let b13 = (a19 ^ d4).rotate_left(8);
        let b04 = (a24 ^ d4).rotate_left(14);
        a00 = b00 ^ (!b01 & b02);
        a01 = b01 ^ (!b02 & b03);
        a02 = b02 ^ (!b03 & b04);
        a03 = b03 ^ (!b04 & b00);
        a04 = b04 ^ (!b00 & b01);
        a05 = b05 ^ (!b06 & b07);
        a06 = b06 ^ (!b07 & b08);
        a07 = b07 ^ (!b08 & b09);
        a08 = b08 ^ (!b09 & b05);
        a09 = b09 ^ (!b05 & b06);
        a10 = b10 ^ (!b11 & b12);
        a11 = b11 ^ (!b12 & b13);
        a12 = b12 ^ (!b13 & b14);
        a13 = b13 ^ (!b14 & b10);
        a14 = b14 ^ (!b10 & b11);
        a15 = b15 ^ (!b16 & b17);
        a16 = b16 ^ (!b17 & b18);
        a17 = b17 ^ (!b18 & b19);
        a18 = b18 ^ (!b19 & b15);
        a19 = b19 ^ (!b15 & b16);
        a20 = b20 ^ (!b21 & b22);
        a21 = b21 ^ (!b22 & b23);
        a22 = b22 ^ (!b23 & b24);
        a23 = b23 ^ (!b24 & b20);
        a24 = b24 ^ (!b20 & b21);
        a00 ^= rc;
    }
    *s = [
        a00, a01, a02, a03, a04, a05, a06, a07, a08, a09, a10, a11, a12, a13, a14, a15, a16, a17,
        a18, a19, a20, a21, a22, a23, a24,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn zero_state_known_answer() {
        // Keccak-f[1600] applied to the all-zero state: first lane of the published
        // intermediate values (KeccakF-1600-IntermediateValues.txt).
        let mut s = [0u64; 25];
        keccak_f1600(&mut s);
        assert_eq!(s[0], 0xF1258F7940E1DDE7);
        assert_eq!(s[1], 0x84D5CCF933C0478A);
    }

    #[test]
    fn every_backend_matches_reference() {
        for b in Backend::available() {
            let p = permute1_for(b);
            let mut a: [u64; 25] =
                core::array::from_fn(|i| (i as u64 + 7).wrapping_mul(0xD1B5_4A32_D192_ED03));
            let mut r = a;
            for _ in 0..8 {
                p(&mut a);
                keccak_f1600_reference(&mut r);
                assert_eq!(a, r, "{b}");
            }
        }
    }

    #[test]
    fn unrolled_matches_reference() {
        let mut a: [u64; 25] =
            core::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9E3779B97F4A7C15));
        let mut b = a;
        for _ in 0..5 {
            keccak_f1600(&mut a);
            keccak_f1600_reference(&mut b);
            assert_eq!(a, b);
        }
    }
}
