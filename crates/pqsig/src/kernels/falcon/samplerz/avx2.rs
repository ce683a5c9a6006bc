//! AVX2 SamplerZ kernels (x86-64): the base sampler compares the 72-bit draw with all 18
//! table entries at once (three vectors of eight 32-bit lanes, one per 24-bit limb
//! triple), and ChaCha20 runs its eight instances in the eight lanes of each register.
//!
//! Each table entry is a safe wrapper around a whole `#[target_feature(enable = "avx2")]`
//! function; the table is only handed out by [`super::kernels`] after AVX2 was detected,
//! which is what makes the wrappers sound.

// Value-only intrinsics are safe inside `#[target_feature]` functions; loads and stores
// keep explicit `unsafe` blocks with their SAFETY reasoning.
#![allow(unused_unsafe)]

use super::portable::SIGMA;
use super::{run_batch, Request, SamplerKernels, Stream, RCDT_LIMBS, WINDOW};
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::select::Backend;
use core::arch::x86_64::*;

pub static KERNELS: SamplerKernels = SamplerKernels {
    backend: Backend::Avx2,
    sample,
    gaussian0,
    chacha20x8,
};

/// The AVX-512 backend's table: the same kernels.
pub static KERNELS_AVX512: SamplerKernels = SamplerKernels {
    backend: Backend::Avx512,
    ..KERNELS
};

/// The table limbs transposed for three 8-lane vectors: `LIMBS[l][k]` holds limb `l` of
/// entries `8k .. 8k + 8`; the six lanes past the 18 entries are zero, and a zero entry
/// never exceeds a value, so they add nothing.
#[repr(C, align(32))]
struct Limbs([[[u32; 8]; 3]; 3]);

static LIMBS: Limbs = {
    let mut t = [[[0u32; 8]; 3]; 3];
    let mut i = 0;
    while i < 18 {
        let mut l = 0;
        while l < 3 {
            t[l][i / 8][i % 8] = RCDT_LIMBS[i][l];
            l += 1;
        }
        i += 1;
    }
    Limbs(t)
};

/// z0 for the limbs `v`: the borrow chain of the portable scan, in all lanes at once.
#[target_feature(enable = "avx2")]
#[inline]
fn rcdt_avx2(v: &[u32; 3]) -> i32 {
    let v0 = _mm256_set1_epi32(v[0] as i32);
    let v1 = _mm256_set1_epi32(v[1] as i32);
    let v2 = _mm256_set1_epi32(v[2] as i32);
    let mut acc = _mm256_setzero_si256();
    for k in 0..3 {
        // SAFETY: each row is 32 bytes, 32-byte aligned (`Limbs` is align(32)).
        let (w0, w1, w2) = unsafe {
            (
                _mm256_load_si256(LIMBS.0[0][k].as_ptr().cast()),
                _mm256_load_si256(LIMBS.0[1][k].as_ptr().cast()),
                _mm256_load_si256(LIMBS.0[2][k].as_ptr().cast()),
            )
        };
        let mut cc = _mm256_srli_epi32::<31>(_mm256_sub_epi32(v0, w0));
        cc = _mm256_srli_epi32::<31>(_mm256_sub_epi32(_mm256_sub_epi32(v1, w1), cc));
        cc = _mm256_srli_epi32::<31>(_mm256_sub_epi32(_mm256_sub_epi32(v2, w2), cc));
        acc = _mm256_add_epi32(acc, cc);
    }
    // Horizontal sum of the eight lane counts.
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

#[target_feature(enable = "avx2")]
unsafe fn sample_avx2(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    // SAFETY (of the closure's call): this function only runs with AVX2 enabled.
    run_batch(stream, sigma_min, reqs, out, |v| unsafe { rcdt_avx2(v) })
}

/// See [`SamplerKernels::sample`].
pub fn sample(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    // SAFETY: the table is only handed out when AVX2 is available (module docs).
    unsafe { sample_avx2(stream, sigma_min, reqs, out) }
}

#[target_feature(enable = "avx2")]
unsafe fn gaussian0_avx2(stream: &mut Stream<'_>) -> i32 {
    let v = super::draw72(stream);
    rcdt_avx2(&v)
}

/// See [`SamplerKernels::gaussian0`].
pub fn gaussian0(stream: &mut Stream<'_>) -> i32 {
    // SAFETY: as for `sample`.
    unsafe { gaussian0_avx2(stream) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<L>(x), _mm256_srli_epi32::<R>(x))
}

/// Rotations by 16 and 8 as byte shuffles (cheaper than two shifts and an or).
#[target_feature(enable = "avx2")]
#[inline]
fn rotl16(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    );
    _mm256_shuffle_epi8(x, m)
}

#[target_feature(enable = "avx2")]
#[inline]
fn rotl8(x: __m256i) -> __m256i {
    let m = _mm256_setr_epi8(
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
        15, 12, 13, 14,
    );
    _mm256_shuffle_epi8(x, m)
}

#[target_feature(enable = "avx2")]
#[inline]
fn quarter(s: &mut [__m256i; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = _mm256_add_epi32(s[a], s[b]);
    s[d] = rotl16(_mm256_xor_si256(s[d], s[a]));
    s[c] = _mm256_add_epi32(s[c], s[d]);
    s[b] = rotl::<12, 20>(_mm256_xor_si256(s[b], s[c]));
    s[a] = _mm256_add_epi32(s[a], s[b]);
    s[d] = rotl8(_mm256_xor_si256(s[d], s[a]));
    s[c] = _mm256_add_epi32(s[c], s[d]);
    s[b] = rotl::<7, 25>(_mm256_xor_si256(s[b], s[c]));
}

#[target_feature(enable = "avx2")]
unsafe fn chacha20x8_avx2(key_iv: &[u32; 12], counter: u64, out: &mut [u8; WINDOW]) {
    let mut init = [_mm256_setzero_si256(); 16];
    for (v, c) in SIGMA.iter().enumerate() {
        init[v] = _mm256_set1_epi32(*c as i32);
    }
    for v in 0..12 {
        init[4 + v] = _mm256_set1_epi32(key_iv[v] as i32);
    }
    // Lane u: counter + u, XORed into words 14 (low half) and 15 (high half).
    let mut lo = [0u32; 8];
    let mut hi = [0u32; 8];
    for u in 0..8 {
        let cc = counter.wrapping_add(u as u64);
        lo[u] = cc as u32;
        hi[u] = (cc >> 32) as u32;
    }
    // SAFETY: `lo` and `hi` are 32 bytes each (unaligned loads).
    let (lo, hi) = unsafe {
        (
            _mm256_loadu_si256(lo.as_ptr().cast()),
            _mm256_loadu_si256(hi.as_ptr().cast()),
        )
    };
    init[14] = _mm256_xor_si256(init[14], lo);
    init[15] = _mm256_xor_si256(init[15], hi);
    let mut s = init;
    for _ in 0..10 {
        quarter(&mut s, 0, 4, 8, 12);
        quarter(&mut s, 1, 5, 9, 13);
        quarter(&mut s, 2, 6, 10, 14);
        quarter(&mut s, 3, 7, 11, 15);
        quarter(&mut s, 0, 5, 10, 15);
        quarter(&mut s, 1, 6, 11, 12);
        quarter(&mut s, 2, 7, 8, 13);
        quarter(&mut s, 3, 4, 9, 14);
    }
    // Word v of the eight instances is one register: 32 contiguous bytes at 32v.
    for v in 0..16 {
        let w = _mm256_add_epi32(s[v], init[v]);
        // SAFETY: bytes 32v .. 32v + 32 lie within the 512-byte `out`.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(32 * v).cast(), w) };
    }
    // Key-derived registers: clear the stack copies.
    crate::wipe::wipe(&mut s, [_mm256_setzero_si256(); 16]);
    crate::wipe::wipe(&mut init, [_mm256_setzero_si256(); 16]);
}

/// See [`SamplerKernels::chacha20x8`].
pub fn chacha20x8(key_iv: &[u32; 12], counter: u64, out: &mut [u8; WINDOW]) {
    // SAFETY: as for `sample`; the stores stay within the 512-byte `out` (16 × 32 bytes).
    unsafe { chacha20x8_avx2(key_iv, counter, out) }
}
