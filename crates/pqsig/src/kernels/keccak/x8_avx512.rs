//! AVX-512 eight-way Keccak-f\[1600\].
//!
//! The four-way AVX-512 kernel (`x4_avx512`) at full vector width: lane i (x + 5y) of the
//! eight states of a [`StateX8`] is one `__m512i`, so the same instruction stream
//! permutes twice as many states. Everything else is that kernel's: the 25 lanes are
//! loaded once, kept (with θ's parities and their rotations, nearly all) in the 32 zmm
//! registers for all 24 rounds and stored once; each round reads one 25-vector array and
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

use super::f1600::RC;
use super::x8::StateX8;
use core::arch::x86_64::*;

/// AVX-512 eight-way permutation: each of the eight interleaved states gets the 24-round
/// Keccak-f\[1600\], exactly as eight calls of the portable `keccak_f1600` would.
pub fn permute8_avx512(st: &mut StateX8) {
    // SAFETY: this function is only reachable through tables gated on AVX-512 detection:
    // `x8::permute8_for(Backend::Avx512)` returns it only when
    // `Backend::Avx512.is_available()` (AVX2, AVX-512 F, VL, BW and DQ all detected), and
    // the AVX-512 ML-DSA kernel table (which stores it as `permute8`) is only handed out
    // by `kernels::mldsa::kernels` after the same check. So the CPU supports AVX2,
    // AVX-512F and AVX-512VL here.
    unsafe { permute8_avx512_impl(st) }
}

/// Truth table of `a ^ b ^ c` for `vpternlogq` (a = 0xF0, b = 0xCC, c = 0xAA).
const XOR3: i32 = 0x96;
/// Truth table of `a ^ (!b & c)`: 0xF0 ^ (!0xCC & 0xAA) = 0xF0 ^ 0x22.
const CHI: i32 = 0xD2;
// Both tables checked against their definitions at compile time.
const _: () = assert!(XOR3 == (0xF0 ^ 0xCC ^ 0xAA));
const _: () = assert!(CHI == (0xF0 ^ (!0xCC & 0xAA & 0xFF)));

macro_rules! xor {
    ($x:expr, $y:expr) => {
        _mm512_xor_si512($x, $y)
    };
}

/// `x ^ y ^ z` in one instruction.
macro_rules! xor3 {
    ($x:expr, $y:expr, $z:expr) => {
        _mm512_ternarylogic_epi64::<XOR3>($x, $y, $z)
    };
}

/// χ for one lane, `x ^ (!y & z)`, in one instruction.
macro_rules! chi {
    ($x:expr, $y:expr, $z:expr) => {
        _mm512_ternarylogic_epi64::<CHI>($x, $y, $z)
    };
}

/// Rotate each 64-bit element left by the literal `n` in one instruction.
macro_rules! rol {
    ($x:expr, $n:literal) => {
        _mm512_rol_epi64::<$n>($x)
    };
}

/// One round from array `$a` into array `$e`: θ (column parities `c` and their rotations
/// `r`; lane x of every plane gets `c[x-1] ^ r[x+1]`), ρ and π (each output plane gathers
/// its five rotated source lanes into `b0..b4`), χ on the plane, and ι on lane 0.
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr) => {{
        let c0 = xor3!(xor3!($a[0], $a[5], $a[10]), $a[15], $a[20]);
        let c1 = xor3!(xor3!($a[1], $a[6], $a[11]), $a[16], $a[21]);
        let c2 = xor3!(xor3!($a[2], $a[7], $a[12]), $a[17], $a[22]);
        let c3 = xor3!(xor3!($a[3], $a[8], $a[13]), $a[18], $a[23]);
        let c4 = xor3!(xor3!($a[4], $a[9], $a[14]), $a[19], $a[24]);
        let r0 = rol!(c0, 1);
        let r1 = rol!(c1, 1);
        let r2 = rol!(c2, 1);
        let r3 = rol!(c3, 1);
        let r4 = rol!(c4, 1);
        // Plane y = 0.
        let b0 = xor3!($a[0], c4, r1);
        let b1 = rol!(xor3!($a[6], c0, r2), 44);
        let b2 = rol!(xor3!($a[12], c1, r3), 43);
        let b3 = rol!(xor3!($a[18], c2, r4), 21);
        let b4 = rol!(xor3!($a[24], c3, r0), 14);
        $e[0] = xor!(chi!(b0, b1, b2), $rc);
        $e[1] = chi!(b1, b2, b3);
        $e[2] = chi!(b2, b3, b4);
        $e[3] = chi!(b3, b4, b0);
        $e[4] = chi!(b4, b0, b1);
        // Plane y = 1.
        let b0 = rol!(xor3!($a[3], c2, r4), 28);
        let b1 = rol!(xor3!($a[9], c3, r0), 20);
        let b2 = rol!(xor3!($a[10], c4, r1), 3);
        let b3 = rol!(xor3!($a[16], c0, r2), 45);
        let b4 = rol!(xor3!($a[22], c1, r3), 61);
        $e[5] = chi!(b0, b1, b2);
        $e[6] = chi!(b1, b2, b3);
        $e[7] = chi!(b2, b3, b4);
        $e[8] = chi!(b3, b4, b0);
        $e[9] = chi!(b4, b0, b1);
        // Plane y = 2.
        let b0 = rol!(xor3!($a[1], c0, r2), 1);
        let b1 = rol!(xor3!($a[7], c1, r3), 6);
        let b2 = rol!(xor3!($a[13], c2, r4), 25);
        let b3 = rol!(xor3!($a[19], c3, r0), 8);
        let b4 = rol!(xor3!($a[20], c4, r1), 18);
        $e[10] = chi!(b0, b1, b2);
        $e[11] = chi!(b1, b2, b3);
        $e[12] = chi!(b2, b3, b4);
        $e[13] = chi!(b3, b4, b0);
        $e[14] = chi!(b4, b0, b1);
        // Plane y = 3.
        let b0 = rol!(xor3!($a[4], c3, r0), 27);
        let b1 = rol!(xor3!($a[5], c4, r1), 36);
        let b2 = rol!(xor3!($a[11], c0, r2), 10);
        let b3 = rol!(xor3!($a[17], c1, r3), 15);
        let b4 = rol!(xor3!($a[23], c2, r4), 56);
        $e[15] = chi!(b0, b1, b2);
        $e[16] = chi!(b1, b2, b3);
        $e[17] = chi!(b2, b3, b4);
        $e[18] = chi!(b3, b4, b0);
        $e[19] = chi!(b4, b0, b1);
        // Plane y = 4.
        let b0 = rol!(xor3!($a[2], c1, r3), 62);
        let b1 = rol!(xor3!($a[8], c2, r4), 55);
        let b2 = rol!(xor3!($a[14], c3, r0), 39);
        let b3 = rol!(xor3!($a[15], c4, r1), 41);
        let b4 = rol!(xor3!($a[21], c0, r2), 2);
        $e[20] = chi!(b0, b1, b2);
        $e[21] = chi!(b1, b2, b3);
        $e[22] = chi!(b2, b3, b4);
        $e[23] = chi!(b3, b4, b0);
        $e[24] = chi!(b4, b0, b1);
    }};
}

/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn permute8_avx512_impl(st: &mut StateX8) {
    let p = st.s.as_mut_ptr() as *mut __m512i;
    let mut a = [_mm512_setzero_si512(); 25];
    for (i, v) in a.iter_mut().enumerate() {
        // SAFETY: `StateX8` is `repr(C, align(64))` and `s` is its only field, so `s[i]`
        // (64 bytes, i < 25) is an aligned, readable `__m512i`.
        *v = unsafe { _mm512_load_si512(p.add(i) as *const _) };
    }
    let mut e = [_mm512_setzero_si512(); 25];
    let mut r = 0;
    while r < 24 {
        let rc0 = _mm512_set1_epi64(RC[r] as i64);
        round!(a, e, rc0);
        let rc1 = _mm512_set1_epi64(RC[r + 1] as i64);
        round!(e, a, rc1);
        r += 2;
    }
    for (i, v) in a.iter().enumerate() {
        // SAFETY: as for the loads; `st` is borrowed mutably.
        unsafe { _mm512_store_si512(p.add(i) as *mut _, *v) };
    }
}
