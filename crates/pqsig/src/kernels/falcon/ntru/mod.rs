//! The hot loops of both NTRU solvers (Falcon round 3's and FN-DSA's) modulo the 31-bit
//! RNS primes of `falcon::ntru`: one kernel table per backend, fetched once per key
//! generation (round 3: `KeygenKernels::ntru`; FN-DSA: the solver's `NttCtx`).

#[cfg(target_arch = "x86_64")]
mod avx2;

use crate::falcon::ntru::modp::SmallPrime;
use crate::falcon::ntru::zint;
use crate::kernels::select::Backend;

/// One backend's kernels modulo the RNS primes (portable: the `SmallPrime` methods and
/// `falcon::ntru::zint`; AVX2: [`avx2`]). All give identical results.
#[allow(clippy::type_complexity)]
pub struct NtruKernels {
    /// `a[..2^logn]` ← NTT(`a`) modulo `sp` (`SmallPrime::ntt`; `gm` from `mkgm`).
    pub(crate) ntt: fn(sp: &SmallPrime, logn: u32, a: &mut [u32], gm: &[u32]),
    /// `a[..2^logn]` ← NTT⁻¹(`a`) (`SmallPrime::intt`; `igm` from `mkigm`).
    pub(crate) intt: fn(sp: &SmallPrime, logn: u32, a: &mut [u32], igm: &[u32]),
    /// [`zint::rebuild_crt`].
    pub(crate) rebuild_crt: fn(&mut [u32], usize, usize, usize, bool, &mut [u32]),
    /// `out[j] = mod_small_signed(x[j..], len, n, ..)` for j < n.
    pub(crate) mod_small_signed_batch: fn(&mut [u32], &[u32], usize, usize, &SmallPrime, u32),
}

static PORTABLE: NtruKernels = NtruKernels {
    ntt: |sp, logn, a, gm| sp.ntt(logn, a, gm),
    intt: |sp, logn, a, igm| sp.intt(logn, a, igm),
    rebuild_crt: zint::rebuild_crt,
    mod_small_signed_batch: zint::mod_small_signed_batch,
};

#[cfg(target_arch = "x86_64")]
static AVX2: NtruKernels = NtruKernels {
    ntt: avx2::ntt,
    intt: avx2::intt,
    rebuild_crt: avx2::rebuild_crt,
    mod_small_signed_batch: avx2::mod_small_signed_batch,
};

/// The kernels of backend `b` (AVX2 for AVX2 and AVX-512 when available).
pub fn kernels(b: Backend) -> &'static NtruKernels {
    crate::kernels::trace::record("falcon::ntru::kernels", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `b.is_available()` for Avx2 or Avx512: AVX2 detected either way.
        Backend::Avx2 | Backend::Avx512 if b.is_available() => &AVX2,
        _ => &PORTABLE,
    }
}
