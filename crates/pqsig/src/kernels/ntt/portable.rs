//! The portable variant kernels (production: ML-DSA radix-4; the rest `ntt-study`), in
//! the seam's shapes: ML-DSA `fn(&mut [Poly])`
//! (forward; inverse times 2^32) and Falcon `fn(&mut [u16], logn)` (batch of polynomials
//! of 2^logn coefficients; inverse including 1/n). Each is the generic transform of
//! `transform.rs` instantiated for one field and one variant.

#[cfg(feature = "ntt-study")]
use super::field::Falcon;
use super::field::MlDsa;
#[cfg(feature = "ntt-study")]
use super::transform::{forward, inverse};
use super::transform::{forward_plan, inverse_plan};
use super::variant::NttVariant;
use crate::kernels::mldsa::Poly;

/// An ML-DSA transform kernel (forward or inverse), as in `mldsa::Kernels`.
#[cfg(feature = "ntt-study")]
pub(crate) type MlDsaNtt = fn(&mut [Poly]);
/// A Falcon transform kernel (forward or inverse), as in `falcon::ntt::NttKernels`.
#[cfg(feature = "ntt-study")]
pub(crate) type FalconNtt = fn(&mut [u16], u32);

macro_rules! variant_kernels {
    ($v:expr, $mf:ident, $mi:ident, $ff:ident, $fi:ident) => {
        /// ML-DSA forward NTT (in: |a| < q; out: |a| < 9q, FIPS 204 order).
        pub fn $mf(a: &mut [Poly]) {
            const P: ([u32; 12], usize) = $v.plan(8);
            for p in a.iter_mut() {
                forward_plan::<MlDsa>(&mut p.coeffs, 8, &P.0[..P.1]);
            }
        }
        /// ML-DSA inverse NTT times 2^32 (in: |a| < q; out: |a| < 3q/4).
        pub fn $mi(a: &mut [Poly]) {
            const P: ([u32; 12], usize) = $v.plan(8);
            for p in a.iter_mut() {
                inverse_plan::<MlDsa>(&mut p.coeffs, 8, &P.0[..P.1]);
            }
        }
        /// Falcon forward NTT of each polynomial (canonical in and out). The sizes of
        /// Falcon-512/1024 get code specialised for their plan.
        #[cfg(feature = "ntt-study")]
        pub fn $ff(a: &mut [u16], logn: u32) {
            const P9: ([u32; 12], usize) = $v.plan(9);
            const P10: ([u32; 12], usize) = $v.plan(10);
            let n = 1usize << logn;
            debug_assert!(a.len().is_multiple_of(n));
            for p in a.chunks_exact_mut(n) {
                match logn {
                    9 => forward_plan::<Falcon>(p, 9, &P9.0[..P9.1]),
                    10 => forward_plan::<Falcon>(p, 10, &P10.0[..P10.1]),
                    _ => forward::<Falcon>(p, logn, $v),
                }
            }
        }
        /// Falcon inverse NTT of each polynomial, including 1/n (canonical in and out).
        #[cfg(feature = "ntt-study")]
        pub fn $fi(a: &mut [u16], logn: u32) {
            const P9: ([u32; 12], usize) = $v.plan(9);
            const P10: ([u32; 12], usize) = $v.plan(10);
            let n = 1usize << logn;
            debug_assert!(a.len().is_multiple_of(n));
            for p in a.chunks_exact_mut(n) {
                match logn {
                    9 => inverse_plan::<Falcon>(p, 9, &P9.0[..P9.1]),
                    10 => inverse_plan::<Falcon>(p, 10, &P10.0[..P10.1]),
                    _ => inverse::<Falcon>(p, logn, $v),
                }
            }
        }
    };
}

#[cfg(feature = "ntt-study")]
variant_kernels!(
    NttVariant::Radix2,
    mldsa_ntt_radix2,
    mldsa_invntt_radix2,
    falcon_ntt_radix2,
    falcon_intt_radix2
);
variant_kernels!(
    NttVariant::Radix4,
    mldsa_ntt_radix4,
    mldsa_invntt_radix4,
    falcon_ntt_radix4,
    falcon_intt_radix4
);
#[cfg(feature = "ntt-study")]
variant_kernels!(
    NttVariant::Winograd8,
    mldsa_ntt_winograd8,
    mldsa_invntt_winograd8,
    falcon_ntt_winograd8,
    falcon_intt_winograd8
);
#[cfg(feature = "ntt-study")]
variant_kernels!(
    NttVariant::Winograd16,
    mldsa_ntt_winograd16,
    mldsa_invntt_winograd16,
    falcon_ntt_winograd16,
    falcon_intt_winograd16
);

/// The portable ML-DSA (forward, inverse) kernels of a variant.
#[cfg(feature = "ntt-study")]
pub const fn mldsa_fns(v: NttVariant) -> (MlDsaNtt, MlDsaNtt) {
    match v {
        NttVariant::Radix2 => (mldsa_ntt_radix2, mldsa_invntt_radix2),
        NttVariant::Radix4 => (mldsa_ntt_radix4, mldsa_invntt_radix4),
        NttVariant::Winograd8 => (mldsa_ntt_winograd8, mldsa_invntt_winograd8),
        NttVariant::Winograd16 => (mldsa_ntt_winograd16, mldsa_invntt_winograd16),
    }
}

/// The portable Falcon (forward, inverse) kernels of a variant.
#[cfg(feature = "ntt-study")]
pub const fn falcon_fns(v: NttVariant) -> (FalconNtt, FalconNtt) {
    match v {
        NttVariant::Radix2 => (falcon_ntt_radix2, falcon_intt_radix2),
        NttVariant::Radix4 => (falcon_ntt_radix4, falcon_intt_radix4),
        NttVariant::Winograd8 => (falcon_ntt_winograd8, falcon_intt_winograd8),
        NttVariant::Winograd16 => (falcon_ntt_winograd16, falcon_intt_winograd16),
    }
}
