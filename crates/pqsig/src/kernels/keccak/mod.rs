//! Keccak: the permutation (one-way and four-way) and the sponges built on it.
//!
//! * [`f1600`] — Keccak-f\[1600\] on one state: the portable permutation, and the
//!   backend's choice ([`f1600::permute1_for`]; avx512: `vpternlogq`/`vprolq` on one lane
//!   per xmm register, `f1600_avx512`; or the scalar code where it measures faster,
//!   [`f1600_choice`]).
//! * [`sponge`] — incremental SHAKE128 / SHAKE256 / SHA3-* over one state, permuted with
//!   the process-wide backend's one-state permutation.
//! * [`xn`] — `W` independent sponges advanced together (absorb and squeeze generic over
//!   `W`), over a permutation passed in; [`x4`] and [`x8`] are its four- and eight-way
//!   forms with their backends' permutations.
//! * [`x4`] — four independent sponges advanced together; the permutation is the
//!   backend-specific kernel (portable: four scalar permutations; avx2: one state per
//!   64-bit lane of 25 `__m256i`).
//! * [`x8`] — the same with eight sponges (portable: eight scalar permutations; avx2: the
//!   four-way kernel on each half; avx512: one state per 64-bit lane of 25 `__m512i`).

pub mod f1600;
#[cfg(target_arch = "x86_64")]
pub(crate) mod f1600_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod f1600_avx512;
pub mod f1600_choice;
pub mod sponge;
pub mod x4;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x4_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x4_avx512;
pub mod x8;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x8_avx512;
pub mod xn;

#[allow(unused_imports)]
pub(crate) use sponge::Shake;
pub use sponge::{Sha3, Shake128, Shake256};
#[allow(unused_imports)]
pub(crate) use x4::ShakeX4;
pub use x8::ShakeX8;
