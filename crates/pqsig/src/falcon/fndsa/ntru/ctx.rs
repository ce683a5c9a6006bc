//! The FN-DSA solver's context: the NTT twiddle tables of its primes, computed once per
//! key generation, and the backend's kernels.

use crate::falcon::ntru::modp::PRIMES;
use crate::kernels::falcon::fndsa::FnDsaKernels;
use crate::kernels::falcon::ntru::NtruKernels;

/// The NTT twiddle tables of the solver's primes (computed once per key generation)
/// and the backend's NTT kernels.
///
/// For a prime the tables of degree 2^(logn − 1) are the first halves of those of
/// degree 2^logn (the root of order 2^logn is the square of the one of order
/// 2^(logn+1), and `rev_logn(2i) = rev_(logn−1)(i)`), so each prime keeps one table pair
/// at the largest degree it is used with, and every smaller degree reads a prefix.
pub(crate) struct NttCtx {
    gm: alloc::vec::Vec<u32>,
    igm: alloc::vec::Vec<u32>,
    /// Offset of each prime's tables and their logn.
    at: alloc::vec::Vec<(usize, u32)>,
    k: &'static NtruKernels,
    /// The backend's FN-DSA kernels (the fixed-point divisions of the Babai steps).
    fk: &'static FnDsaKernels,
}

impl NttCtx {
    /// Tables for the first `max_logn.len()` primes, prime i at degree `2^max_logn[i]`.
    pub(crate) fn new(
        max_logn: &[u32],
        k: &'static NtruKernels,
        fk: &'static FnDsaKernels,
    ) -> Self {
        let mut at = alloc::vec::Vec::with_capacity(max_logn.len());
        let mut total = 0usize;
        for &l in max_logn {
            at.push((total, l));
            total += 1usize << l;
        }
        let mut gm = alloc::vec![0u32; total];
        let mut igm = alloc::vec![0u32; total];
        for (i, &(off, l)) in at.iter().enumerate() {
            let sp = &PRIMES[i];
            sp.mkgm(l, &mut gm[off..off + (1 << l)]);
            sp.mkigm(l, &mut igm[off..off + (1 << l)]);
        }
        NttCtx { gm, igm, at, k, fk }
    }

    /// The backend's FN-DSA kernels.
    pub(crate) fn fxk(&self) -> &'static FnDsaKernels {
        self.fk
    }

    /// Forward NTT modulo prime i, degree 2^logn (`a.len() >= 2^logn`).
    #[inline]
    pub(crate) fn ntt(&self, i: usize, logn: u32, a: &mut [u32]) {
        (self.k.ntt)(&PRIMES[i], logn, a, self.gm(i, logn))
    }

    /// Inverse NTT modulo prime i, degree 2^logn.
    #[inline]
    pub(crate) fn intt(&self, i: usize, logn: u32, a: &mut [u32]) {
        (self.k.intt)(&PRIMES[i], logn, a, self.igm(i, logn))
    }

    /// CRT reconstruction (see [`crate::falcon::ntru::zint::rebuild_crt`]).
    #[inline]
    pub(crate) fn rebuild_crt(
        &self,
        xx: &mut [u32],
        xlen: usize,
        n: usize,
        sets: usize,
        signed: bool,
        tmp: &mut [u32],
    ) {
        (self.k.rebuild_crt)(xx, xlen, n, sets, signed, tmp)
    }

    /// Residues modulo prime i of the n signed integers of `len` words at `x[j..]`
    /// (stride n), into `out[..n]`.
    #[inline]
    pub(crate) fn mod_small_signed_batch(
        &self,
        out: &mut [u32],
        x: &[u32],
        len: usize,
        n: usize,
        i: usize,
    ) {
        let sp = &PRIMES[i];
        (self.k.mod_small_signed_batch)(out, x, len, n, sp, sp.pow2_31(len))
    }

    /// Forward twiddles of prime i for degree 2^logn.
    #[inline]
    pub(crate) fn gm(&self, i: usize, logn: u32) -> &[u32] {
        let (off, l) = self.at[i];
        debug_assert!(logn <= l);
        &self.gm[off..off + (1 << logn.min(l))]
    }

    /// Inverse twiddles of prime i for degree 2^logn.
    #[inline]
    pub(crate) fn igm(&self, i: usize, logn: u32) -> &[u32] {
        let (off, l) = self.at[i];
        debug_assert!(logn <= l);
        &self.igm[off..off + (1 << logn.min(l))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twiddle_prefixes() {
        let tw = NttCtx::new(
            &[10, 9, 4],
            crate::kernels::falcon::ntru::kernels(crate::kernels::select::Backend::Portable),
            crate::kernels::falcon::fndsa::kernels(crate::kernels::select::Backend::Portable),
        );
        for (i, top) in [(0usize, 10u32), (1, 9), (2, 4)] {
            for logn in 1..=top {
                let n = 1usize << logn;
                let mut gm = vec![0u32; n];
                let mut igm = vec![0u32; n];
                PRIMES[i].mkgm(logn, &mut gm);
                PRIMES[i].mkigm(logn, &mut igm);
                assert_eq!(tw.gm(i, logn), &gm[..]);
                assert_eq!(tw.igm(i, logn), &igm[..]);
            }
        }
    }
}
