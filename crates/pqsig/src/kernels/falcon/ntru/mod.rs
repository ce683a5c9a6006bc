//! FN-DSA's NTRU solver (the ntrugen algorithm) modulo its 31-bit RNS primes: one
//! kernel table per backend, fetched once per key generation (the solver's `NttCtx`).

#[cfg(target_arch = "x86_64")]
mod avx2;

use crate::falcon::fndsa::ntru::mp::SmallPrime;
use crate::falcon::fndsa::ntru::zint;
use crate::kernels::select::Backend;

/// One backend's kernels modulo the RNS primes (portable: the `SmallPrime` methods and
/// `falcon::fndsa::ntru::zint`; AVX2: [`avx2`]). All give identical results.
#[allow(clippy::type_complexity)]
pub struct NttKern {
    pub(crate) ntt: fn(&SmallPrime, u32, &mut [u32], &[u32]),
    pub(crate) intt: fn(&SmallPrime, u32, &mut [u32], &[u32]),
    /// [`zint::rebuild_crt`].
    pub(crate) rebuild_crt: fn(&mut [u32], usize, usize, usize, bool, &mut [u32]),
    /// `out[j] = mod_small_signed(x[j..], len, n, ..)` for j < n.
    pub(crate) mod_small_signed_batch: fn(&mut [u32], &[u32], usize, usize, &SmallPrime, u32),
}

fn mod_small_signed_batch(
    out: &mut [u32],
    x: &[u32],
    len: usize,
    n: usize,
    sp: &SmallPrime,
    rx: u32,
) {
    for (j, o) in out[..n].iter_mut().enumerate() {
        *o = zint::mod_small_signed(&x[j..], len, n, sp.p, sp.p0i, sp.r2, rx);
    }
}

static PORTABLE: NttKern = NttKern {
    ntt: |sp, logn, a, gm| sp.ntt(logn, a, gm),
    intt: |sp, logn, a, igm| sp.intt(logn, a, igm),
    rebuild_crt: zint::rebuild_crt,
    mod_small_signed_batch,
};

#[cfg(target_arch = "x86_64")]
static AVX2: NttKern = NttKern {
    ntt: avx2::ntt,
    intt: avx2::intt,
    rebuild_crt: avx2::rebuild_crt,
    mod_small_signed_batch: avx2::mod_small_signed_batch,
};

/// The kernels of backend `b` (AVX2 for AVX2 and AVX-512 when available).
pub fn kernels(b: Backend) -> &'static NttKern {
    crate::kernels::trace::record("falcon::ntru::kernels", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `b.is_available()` for Avx2 or Avx512: AVX2 detected either way.
        Backend::Avx2 | Backend::Avx512 if b.is_available() => &AVX2,
        _ => &PORTABLE,
    }
}
