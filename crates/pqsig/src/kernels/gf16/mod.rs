//! GF(16) kernels for SNOVA: batch-shaped matrix arithmetic over F2\[x\]/(x⁴+x+1).
//!
//! # Representation
//! One field element per byte, in the low nibble ("reduced": `< 16`). Kernels that
//! *accumulate* leave their output **unreduced**: an XOR of carry-less products of two
//! reduced elements, a polynomial of degree ≤ 6, i.e. a byte `< 0x80`. Reduction modulo
//! x⁴+x+1 is linear, so any number of unreduced products may be XORed before one
//! [`Kernels::reduce`] pass. This is what makes every backend cheap: portable code
//! multiplies without tables, GFNI's `gf2p8mulb` and NEON's `pmul` produce exactly this
//! carry-less product (degree ≤ 6 never reaches their own reduction), and table-based
//! backends look products up in registers.
//!
//! # Bounds (in → out)
//! | kernel | inputs | output |
//! |---|---|---|
//! | `gemm_acc` | A, B reduced (`< 16`); C unreduced (`< 0x80`) | C unreduced (`< 0x80`) |
//! | `axpy_acc` | s, x reduced; acc unreduced | acc unreduced |
//! | `reduce` | unreduced (`< 0x80`) | reduced (`< 16`) |
//! | `mat_mul_batch` | reduced | reduced |
//! | `solve` | reduced | reduced solution, singular flag |
//!
//! # Constant time
//! Every kernel runs in time independent of the element values (SNOVA multiplies secret
//! vinegar values and secret T12 entries): no secret-indexed memory, no value-dependent
//! branches. Tables may only live in registers (byte shuffles / `tbl`), never be indexed
//! in memory by a secret. Shapes (m, k, n, strides) are public.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
pub mod portable;
pub mod unpack;

use crate::kernels::select::{self, Backend};

/// One backend's implementation of the GF(16) kernels (bounds in the module docs).
pub struct Kernels {
    pub backend: Backend,
    /// `C[i][j] ^= Σ_k A[i][k] · B[k][j]`, carry-less and unreduced, for `i < m`,
    /// `j < n`, `k < kk`.
    /// * `A[i][k] = a[i·a_rs + k·a_cs]` (any strides: transposes are free);
    /// * `B[k][j] = b[k·ldb + j]` (rows contiguous);
    /// * `C[i][j] = c[i·ldc + j]` (rows contiguous).
    ///
    /// Slices must cover the addressed elements (callers' shapes are public constants;
    /// an out-of-range shape panics in the slice indexing, never reads out of bounds).
    #[allow(clippy::type_complexity)]
    pub gemm_acc: fn(
        c: &mut [u8],
        ldc: usize,
        a: &[u8],
        a_rs: usize,
        a_cs: usize,
        b: &[u8],
        ldb: usize,
        m: usize,
        kk: usize,
        n: usize,
    ),
    /// `acc[j] ^= s · x[j]` (carry-less, unreduced), `j < x.len()`.
    pub axpy_acc: fn(acc: &mut [u8], s: u8, x: &[u8]),
    /// Reduces every byte modulo x⁴+x+1 in place.
    pub reduce: fn(&mut [u8]),
    /// Many small products at once: for `t < out.len() / (p·q)`,
    /// `out[t] (p×q) = a[t] (p×k) · b[t] (k×q)`, all row-major and packed
    /// (`a.len() = count·p·k`, `b.len() = count·k·q`). Reduced output.
    #[allow(clippy::type_complexity)]
    pub mat_mul_batch: fn(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize),
    /// Constant-time Gaussian elimination of the `n × (n+1)` augmented system in `aug`
    /// (row `i` at `aug[i·stride..]`, `stride ≥ n+1`, column `n` the right-hand side;
    /// columns beyond `n` are scratch and may be overwritten). Writes the solution to
    /// `x[..n]` and returns `true` when the system is non-singular; when singular,
    /// returns `false` and `x` is unspecified. The running time depends on `n` only.
    pub solve: fn(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool,
}

/// The kernel table of a backend (portable if it is unavailable here).
///
/// * `avx2`: GFNI products on ymm (`vgf2p8mulb`, VEX) when the CPU has GFNI, else
///   `vpshufb` product tables built in registers;
/// * `avx512`: GFNI on zmm (plus VBMI byte permutes for `mat_mul_batch` when present);
///   without GFNI the AVX2 shuffle kernels.
pub fn kernels(b: Backend) -> &'static Kernels {
    crate::kernels::trace::record("gf16::kernels", b);
    match b {
        #[cfg(target_arch = "aarch64")]
        // SAFETY: `Backend::Neon.is_available()`: NEON detected.
        Backend::Neon if b.is_available() => &neon::KERNELS,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2.is_available()`: AVX2 detected (`best` checks GFNI).
        Backend::Avx2 if b.is_available() => avx2::best(),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512.is_available()`: AVX2, AVX-512 F/VL/BW/DQ detected
        // (`best` checks GFNI and VBMI).
        Backend::Avx512 if b.is_available() => avx512::best(),
        _ => &portable::KERNELS,
    }
}

/// Every implementation of backend `b` that can run here (the one [`kernels`] picks and
/// the fallbacks it would pick on a CPU with fewer features), for equivalence tests and
/// benchmarks. Empty when the backend is unavailable.
pub fn implementations(b: Backend) -> alloc::vec::Vec<&'static Kernels> {
    let mut v = alloc::vec::Vec::new();
    match b {
        Backend::Portable => v.push(&portable::KERNELS),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `kernels`: AVX2 detected; the fallbacks need no more.
        Backend::Avx2 if b.is_available() => avx2::implementations(&mut v),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `kernels`: AVX-512 backend detected; GFNI/VBMI checked inside.
        Backend::Avx512 if b.is_available() => avx512::implementations(&mut v),
        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON detected.
        Backend::Neon if b.is_available() => v.push(&neon::KERNELS),
        _ => {}
    }
    v
}

/// A short name of an implementation returned by [`implementations`] (e.g. `"gfni"`,
/// `"shuffle"`), for test and benchmark output.
pub fn implementation_name(k: &Kernels) -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(n) = avx2::name_of(k).or_else(|| avx512::name_of(k)) {
            return n;
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if core::ptr::eq(k, &neon::KERNELS) {
            return "neon";
        }
    }
    if core::ptr::eq(k, &portable::KERNELS) {
        "swar"
    } else {
        "?"
    }
}

/// The kernel table of the process-wide backend.
pub fn active() -> &'static Kernels {
    kernels(select::active())
}

/// Multiplication of two reduced elements (constant time; scalar helper for scheme code
/// outside the hot loops).
#[inline]
pub fn mul(a: u8, b: u8) -> u8 {
    reduce1(clmul4(a, b))
}

/// Masks go through [`crate::ct::barrier_u8`]: without it LLVM turns `v & (0 - bit)`
/// into a select and x86's cmov conversion into a *branch on the secret bit* (caught by
/// `examples/ct_check` under valgrind in the portable gemm).
pub(crate) use crate::ct::barrier_u8;

/// Carry-less product of two nibbles (degree ≤ 6), no tables, no branches.
#[inline(always)]
pub fn clmul4(a: u8, b: u8) -> u8 {
    let a = a & 15;
    let m = |i: u8| barrier_u8(0u8.wrapping_sub((b >> i) & 1));
    (a & m(0)) ^ ((a << 1) & m(1)) ^ ((a << 2) & m(2)) ^ ((a << 3) & m(3))
}

/// Reduction of one unreduced byte (`< 0x80`) modulo x⁴+x+1: x⁴ = x+1.
#[inline(always)]
pub fn reduce1(v: u8) -> u8 {
    let h = v >> 4;
    (v ^ h ^ (h << 1)) & 15
}

/// Inverse (0 ↦ 0), constant time: a^14.
#[inline]
pub fn inv(a: u8) -> u8 {
    let a2 = mul(a, a);
    let a4 = mul(a2, a2);
    let a8 = mul(a4, a4);
    mul(mul(a8, a4), a2)
}
