//! AVX2 kernels of the NTT variants (radix-4 / merged layers, Winograd radix-8 and
//! radix-16) for both moduli, in the seam's signatures:
//! * ML-DSA (q = 8380417, n = 256): `fn(&mut [Poly])`, forward with the bounds of
//!   `mldsa::Kernels::ntt` (in |a| < q, out |a| < 9q, FIPS 204 order), inverse with those
//!   of `invntt_tomont` (in |a| < q, out |a| < 3q/4, times 2^32);
//! * Falcon (q = 12289, n = 2^logn): `fn(&mut [u16], u32)`, canonical in and out, the
//!   reference's bit-reversed order, bit-identical to the portable kernels.
//!
//! Vectorised across butterfly units: every lane runs a different unit (consecutive
//! offsets of one group where a unit's stride allows a whole vector, otherwise
//! consecutive groups after an in-register transpose), so the units' arithmetic is the
//! scalar unit's, lane for lane.
//!
//! Every `pub fn` here requires AVX2 at run time: it checks (once, cached by std) and
//! panics otherwise; the dispatch only names them for backends with AVX2.

pub mod falcon;
pub mod mldsa;

pub use falcon::{
    falcon_intt_radix4, falcon_intt_winograd16, falcon_intt_winograd8, falcon_ntt_radix4,
    falcon_ntt_winograd16, falcon_ntt_winograd8, falcon_stage,
};
pub use mldsa::{
    mldsa_invntt_radix4, mldsa_invntt_winograd16, mldsa_invntt_winograd8, mldsa_ntt_radix4,
    mldsa_ntt_winograd16, mldsa_ntt_winograd8,
};
