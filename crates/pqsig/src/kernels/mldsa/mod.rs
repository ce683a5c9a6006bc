//! ML-DSA arithmetic kernels: q = 8380417, n = 256.
//!
//! Every kernel works on a slice of polynomials (batch-shaped) so a SIMD backend can
//! keep its registers busy and an offload device gets one request per call.
//!
//! # The NTT domain
//! All backends use the FIPS 204 order: `ntt(a)[i]` is a evaluated at ζ^(2·brv8(i)+1),
//! ζ = 1753. A backend with a different internal order must permute before returning,
//! so polynomials in NTT form (the matrix Â, cached keys) are backend-independent.
//!
//! # Coefficient bounds (in/out, absolute values unless stated; "std" = [0, q))
//! | kernel | input | output |
//! |---|---|---|
//! | `ntt` | \|a\| < q | \|a\| < 9q (no final reduction) |
//! | `invntt_tomont` | \|a\| < q | \|a\| < 3q/4, multiplied by the Montgomery factor 2^32 (keygen relies on this: t = invntt(·) + s2 must lie in (−q, q) so that `caddq` yields [0, q)) |
//! | `pointwise_montgomery`, `matvec_montgomery` | products with \|a·b\| < 2^31·q per term, sum of ≤ 8 terms | \|c\| < q (per term), < 8q summed |
//! | `reduce32` | a ≤ 2^31 − 2^22 − 1 | −6283008 ≤ a ≤ 6283008 |
//! | `caddq` | −q < a < q... any i32 > −q | std if a < q |
//! | `freeze` | a ≤ 2^31 − 2^22 − 1 | std |
//! | `power2round` | std | t1 ∈ [0, 2^10), t0 ∈ (−2^12, 2^12] |
//! | `decompose` | std | a1 ∈ [0, (q−1)/(2γ2)), a0 ∈ [−γ2, γ2] (−γ2 only in the a = q − γ2 corner case of FIPS 204 Alg. 36) |
//! | `make_hint` | a0 = low part, a1 = high part | h ∈ {0,1} |
//! | `use_hint` | a std, h ∈ {0,1} | a1 ∈ [0, (q−1)/(2γ2)) |
//! | `chknorm` | reduced by `reduce32` | bool (constant time over all coefficients) |
//! | `rej_uniform` | bytes | coefficients std |
//! | `rej_eta` | bytes | coefficients in [−η, η] |
//! | `add`, `sub` | caller keeps sums within i32 | no reduction |
//! | `shiftl` | a < 2^(31−13) | a·2^13 |

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
pub mod portable;
mod zetas;

use crate::kernels::keccak::f1600::Permute1;
use crate::kernels::keccak::x4::Permute4;
use crate::kernels::keccak::x8::Permute8;
use crate::kernels::select::{self, Backend};
use zeroize::Zeroize;

pub const N: usize = 256;
pub const Q: i32 = 8380417;
/// q^-1 mod 2^32.
pub(crate) const QINV: i32 = 58728449;
/// Dropped bits of t (FIPS 204 d).
pub const D: u32 = 13;

/// A polynomial of Z_q\[X\]/(X^256 + 1), 64-byte aligned: whole cache lines for AVX-512 loads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Poly {
    pub coeffs: [i32; N],
}

impl Default for Poly {
    fn default() -> Self {
        Poly { coeffs: [0; N] }
    }
}

impl Zeroize for Poly {
    /// One volatile store of the whole array (the compiler may not elide it), instead of
    /// 256 element-wise volatile stores: secrets are wiped in every hot path.
    fn zeroize(&mut self) {
        crate::wipe::wipe(&mut self.coeffs, [0; N]);
    }
}

/// One backend's implementation of the ML-DSA kernels (bounds in the module docs).
pub struct Kernels {
    pub backend: Backend,
    /// Forward NTT of each polynomial, in place.
    pub ntt: fn(&mut [Poly]),
    /// Inverse NTT of each polynomial, times 2^32 (Montgomery factor), in place.
    pub invntt_tomont: fn(&mut [Poly]),
    /// `out[i] = c ∘ v[i] · 2^-32` (NTT domain).
    pub pointwise_montgomery: fn(out: &mut [Poly], c: &Poly, v: &[Poly]),
    /// `out[i] = Σ_j mat[i·l + j] ∘ v[j] · 2^-32` with `l = v.len()` (NTT domain).
    pub matvec_montgomery: fn(out: &mut [Poly], mat: &[Poly], v: &[Poly]),
    /// `a ← a mod± q` roughly centred (see bounds).
    pub reduce32: fn(&mut [Poly]),
    /// Adds q to negative coefficients.
    pub caddq: fn(&mut [Poly]),
    /// In: t in `t1` (std). Out: high part in `t1`, low part in `t0`.
    pub power2round: fn(t1: &mut [Poly], t0: &mut [Poly]),
    /// In: a in `a1` (std). Out: HighBits in `a1`, LowBits in `a0`, for the given γ2.
    pub decompose: fn(gamma2: i32, a1: &mut [Poly], a0: &mut [Poly]),
    /// `h = MakeHint` from low part a0 and high part a1 (the pq-crystals formulation);
    /// returns the number of ones.
    pub make_hint: fn(gamma2: i32, h: &mut [Poly], a0: &[Poly], a1: &[Poly]) -> usize,
    /// In place: `a ← UseHint(h, a)`.
    pub use_hint: fn(gamma2: i32, a: &mut [Poly], h: &[Poly]),
    /// True if some coefficient has |a| ≥ bound. Runs over every coefficient.
    pub chknorm: fn(a: &[Poly], bound: i32) -> bool,
    /// Uniform rejection sampling of 23-bit candidates from `buf` (3 bytes each) into
    /// `out`; returns how many were written (≤ out.len()).
    pub rej_uniform: fn(out: &mut [i32], buf: &[u8]) -> usize,
    /// Bounded rejection sampling (η ∈ {2, 4}) of nibbles from `buf` into `out`.
    pub rej_eta: fn(eta: i32, out: &mut [i32], buf: &[u8]) -> usize,
    /// `out[i] += a[i]`.
    pub add: fn(out: &mut [Poly], a: &[Poly]),
    /// `out[i] -= a[i]`.
    pub sub: fn(out: &mut [Poly], a: &[Poly]),
    /// `a ← a · 2^d`.
    pub shiftl: fn(&mut [Poly]),
    /// BitUnpack of z (`bits` 18 or 20, `inp.len() == 32 · bits`): `p[i] = γ1 − field i`.
    pub unpack_z: fn(inp: &[u8], gamma1: i32, bits: usize, p: &mut Poly),
    /// One-state Keccak-f\[1600\] (the single SHAKE streams: tr, μ, ρ′, c̃, SampleInBall).
    pub permute1: Permute1,
    /// Four-way Keccak-f\[1600\].
    pub permute4: Permute4,
    /// Eight-way Keccak-f\[1600\].
    pub permute8: Permute8,
    /// Whether `permute8` is one eight-way kernel, cheaper than a `permute4` plus a
    /// one-state permutation (not two four-way or eight one-way ones): the samplers then
    /// run a group of five polynomials eight-way rather than as four plus one.
    pub permute8_native: bool,
}

/// The kernel table of a backend (portable if it is unavailable here), with the
/// production NTT of the pair (`kernels::ntt::production`: the backend's own radix-2
/// kernels but for two measured pairs; with `ntt-study`, a pinned variant's).
pub fn kernels(b: Backend) -> &'static Kernels {
    crate::kernels::trace::record("mldsa::kernels", b);
    crate::kernels::ntt::production::mldsa_selected(b)
}

/// The kernel table of a backend (portable if it is unavailable here) with its own
/// (radix-2) NTT, whatever variant is selected.
pub fn base_kernels(b: Backend) -> &'static Kernels {
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2.is_available()` (AVX2 detected) is the guard; the table's
        // safe wrappers enter AVX2 code relying on it.
        Backend::Avx2 if b.is_available() => &avx2::KERNELS,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512.is_available()`: AVX2, AVX-512 F/VL/BW/DQ detected.
        Backend::Avx512 if b.is_available() => &avx512::KERNELS,
        _ => &portable::KERNELS,
    }
}

/// The kernel table of the process-wide backend.
pub fn active() -> &'static Kernels {
    kernels(select::active())
}
