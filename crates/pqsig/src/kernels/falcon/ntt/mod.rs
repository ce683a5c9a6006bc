//! NTT arithmetic mod q = 12289 over Z_q\[x\]/(x^n + 1), n = 2^logn, logn = 1..=10:
//! what Falcon verification, public-key computation and key completion run on.
//!
//! Batch-shaped: every kernel takes a slice holding `k` polynomials of `n` coefficients
//! each, stored one after the other (`a.len() == k·n`); a SIMD or offload backend sees
//! the whole batch in one call. Coefficients are `u16`.
//!
//! # Representation
//! Every kernel takes and returns *canonical* residues, in `[0, q)`, so results are
//! bit-identical across backends by construction (a backend may be lazier inside a
//! kernel, never at its boundary). Montgomery products use R = 2^16: `mul_monty(a, b)`
//! yields `a·b/R mod q`.
//!
//! # The NTT domain
//! `ntt` leaves the evaluations in the bit-reversed order of the reference
//! implementation's `mq_NTT` (Cooley–Tukey, twiddle `7^brv10(m+i)` for group `i` of the
//! layer with `m` groups, 7 a primitive 2048-th root of unity). Every backend returns
//! this same order; a faster internal order is undone inside the kernel. The order never
//! appears in an encoding.
//!
//! # Bounds (in → out; "std" = `[0, q)`)
//! | kernel | input | output |
//! |---|---|---|
//! | `ntt` | std | std (NTT domain) |
//! | `intt` | std (NTT domain) | std (the inverse, including the 1/n factor) |
//! | `mul_monty` | std, std | std, `a·b/R` |
//! | `to_monty` | std | std, `a·R` |
//! | `div` | std, std | std, `a/b` where `b ≠ 0`; returns false if some `b = 0` |
//! | `add`, `sub` | std, std | std |
//! | `from_i16` | `\|x\| < q` | std, `x mod q` |
//! | `from_i8` | any i8 | std, `x mod q` |
//! | `sqnorm_centered` | std | Σ c², c the representative of `a` in `[−(q−1)/2, (q−1)/2]` |
//! | `sqnorm_i16` | any i16 | Σ x² |
//! | `hash_words` | any 16-bit words | std (each accepted word mod q) |
//!
//! All kernels are constant-time: no branch or memory index depends on coefficient
//! values (`div` scans every coefficient before reporting a zero divisor).
//!
//! The AVX2 transforms run the portable code for n < 32 (logn < 5), where a polynomial
//! does not fill the two 16-lane vectors the in-register layers work on. The AVX-512
//! transforms (signed lazy arithmetic inside, canonical at the boundary) run the AVX2
//! ones for n < 64.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
pub mod portable;
pub mod tables;

use crate::kernels::select::{self, Backend};

/// The modulus.
pub const Q: u32 = 12289;
/// The Montgomery radix modulo q: 2^16 mod q.
pub const R: u32 = 4091;
/// R^2 mod q (multiplying by it Montgomery-wise converts into Montgomery form).
pub(crate) const R2: u32 = 10952;
/// −1/q mod 2^16.
pub(crate) const Q0I: u32 = 12287;
/// 1/q mod 2^16 (the x86 SIMD kernels').
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const QINV: u16 = 53249;
/// Largest supported logn.
pub const MAX_LOGN: u32 = 10;

/// One backend's NTT kernels (bounds in the module docs). `logn` is in 1..=10 and
/// every slice length is a multiple of `n = 2^logn` (extra trailing coefficients are
/// left untouched; debug builds assert).
pub struct NttKernels {
    pub backend: Backend,
    /// Forward NTT of each polynomial of `a`, in place.
    pub ntt: fn(a: &mut [u16], logn: u32),
    /// Inverse NTT of each polynomial of `a` (including the division by n), in place.
    pub intt: fn(a: &mut [u16], logn: u32),
    /// `a[i] ← a[i]·b[i]/R mod q`; `b` has `n` entries (one polynomial applied to every
    /// polynomial of `a`) or as many as `a`.
    pub mul_monty: fn(a: &mut [u16], b: &[u16]),
    /// `a[i] ← a[i]·R mod q` (into Montgomery form).
    pub to_monty: fn(a: &mut [u16]),
    /// `a[i] ← a[i]/b[i] mod q`, `b` shaped as for `mul_monty`. Returns false if some
    /// `b[i] = 0` (then the affected `a[i]` are 0). Runs over every coefficient.
    pub div: fn(a: &mut [u16], b: &[u16]) -> bool,
    /// `a[i] ← a[i] + b[i] mod q`, `b` shaped as for `mul_monty`.
    pub add: fn(a: &mut [u16], b: &[u16]),
    /// `a[i] ← a[i] − b[i] mod q`, `b` shaped as for `mul_monty`.
    pub sub: fn(a: &mut [u16], b: &[u16]),
    /// `out[i] ← x[i] mod q` for |x\[i\]| < q (`out.len() == x.len()`).
    pub from_i16: fn(out: &mut [u16], x: &[i16]),
    /// `out[i] ← x[i] mod q` (`out.len() == x.len()`).
    pub from_i8: fn(out: &mut [u16], x: &[i8]),
    /// Squared Euclidean norm of the centred representatives of `a`.
    pub sqnorm_centered: fn(a: &[u16]) -> u64,
    /// Squared Euclidean norm of `x`.
    pub sqnorm_i16: fn(x: &[i16]) -> u64,
    /// Hash-to-point sampling: reads the 16-bit big-endian words of the byte stream
    /// `lanes` stands for (lane `i` holds stream bytes `8i..8i+8`, byte `j` of them as
    /// bits `8j..8j+8`: a SHAKE state's lanes), in order; each word w < 5q appends
    /// w mod q at `out[filled]`, until `out` is full. Returns the new fill and the number
    /// of lanes read from (a lane counts if any of its words was). Public data only (the
    /// time depends on how many words are rejected).
    pub hash_words: HashWords,
}

/// The type of [`NttKernels::hash_words`]: `(out, filled, lanes) → (filled, lanes read)`.
pub(crate) type HashWords = fn(out: &mut [u16], filled: usize, lanes: &[u64]) -> (usize, usize);

/// The kernel table of a backend (portable if it is unavailable here), with the
/// production NTT of the pair (`kernels::ntt::production`: the backend's own radix-2
/// kernels but for two measured pairs; with `ntt-study`, a pinned variant's).
pub fn kernels(b: Backend) -> &'static NttKernels {
    crate::kernels::trace::record("falcon::ntt::kernels", b);
    crate::kernels::ntt::production::falcon_selected(b)
}

/// The kernel table of a backend (portable if it is unavailable here) with its own
/// (radix-2) transforms, whatever variant is selected. Avx512 has its own transforms and
/// products (`avx512.rs`) and AVX2's remaining coefficient-wise kernels.
pub fn base_kernels(b: Backend) -> &'static NttKernels {
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2.is_available()`: AVX2 detected.
        Backend::Avx2 if b.is_available() => &avx2::KERNELS,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512.is_available()`: AVX2, AVX-512 F/VL/BW/DQ detected.
        Backend::Avx512 if b.is_available() => &avx512::KERNELS,
        _ => &portable::KERNELS,
    }
}

/// The kernel table of the process-wide backend.
pub fn active() -> &'static NttKernels {
    kernels(select::active())
}
