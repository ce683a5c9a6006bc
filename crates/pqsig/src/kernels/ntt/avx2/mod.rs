//! AVX2 primitives of the NTT variant kernels (radix-4 / merged layers, Winograd radix-8
//! and radix-16) for both moduli, and their entry points in the seam's signatures:
//! * ML-DSA (q = 8380417, n = 256): `fn(&mut [Poly])`, forward with the bounds of
//!   `mldsa::Kernels::ntt` (in |a| < q, out |a| < 9q, FIPS 204 order), inverse with those
//!   of `invntt_tomont` (in |a| < q, out |a| < 3q/4, times 2^32);
//! * Falcon (q = 12289, n = 2^logn): `fn(&mut [u16], u32)`, canonical in and out, the
//!   reference's bit-reversed order, bit-identical to the portable kernels.
//!
//! The units, stages, plans and constant tables are the shared body in `super::simd`
//! (generic over its `Lanes` trait); this module holds only what is AVX2: the
//! `Lanes` impls (register type, arithmetic, broadcasts, loads, in-register
//! transposes) and the `#[target_feature(enable = "avx2")]` entry points that
//! instantiate the body.
//!
//! Every `pub fn` here requires AVX2 at run time: it checks (once, cached by std) and
//! panics otherwise; the dispatch only names them for backends with AVX2.

mod chunks;
pub(crate) mod falcon;
#[cfg(feature = "ntt-study")]
pub(crate) mod mldsa;

#[cfg(feature = "ntt-study")]
pub(crate) use falcon::{
    falcon_intt_radix2, falcon_intt_winograd16, falcon_intt_winograd8, falcon_ntt_radix2,
    falcon_ntt_winograd16, falcon_ntt_winograd8, falcon_stage,
};
pub(crate) use falcon::{falcon_intt_radix4, falcon_ntt_radix4};
#[cfg(feature = "ntt-study")]
pub(crate) use mldsa::{
    mldsa_invntt_radix4, mldsa_invntt_winograd16, mldsa_invntt_winograd8, mldsa_ntt_radix4,
    mldsa_ntt_winograd16, mldsa_ntt_winograd8, mldsa_stage,
};
