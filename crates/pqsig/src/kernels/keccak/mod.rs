//! Keccak: the permutation (one-way and four-way) and the sponges built on it.
//!
//! * [`f1600`] — portable Keccak-f\[1600\] permutation (one state).
//! * [`sponge`] — incremental SHAKE128 / SHAKE256 / SHA3-* over one state.
//! * [`xn`] — `W` independent sponges advanced together (absorb and squeeze generic over
//!   `W`), over a permutation passed in; [`x4`] and [`x8`] are its four- and eight-way
//!   forms with their backends' permutations.
//! * [`x4`] — four independent sponges advanced together; the permutation is the
//!   backend-specific kernel (portable: four scalar permutations; avx2: one state per
//!   64-bit lane of 25 `__m256i`).
//! * [`x8`] — the same with eight sponges (portable: eight scalar permutations; avx2: the
//!   four-way kernel on each half; avx512: one state per 64-bit lane of 25 `__m512i`).

pub mod f1600;
pub mod sponge;
pub mod x4;
#[cfg(target_arch = "x86_64")]
pub mod x4_avx2;
#[cfg(target_arch = "x86_64")]
pub mod x4_avx512;
pub mod x8;
#[cfg(target_arch = "x86_64")]
pub mod x8_avx512;
pub mod xn;

pub use sponge::{Sha3, Shake, Shake128, Shake256};
pub use x4::ShakeX4;
pub use x8::ShakeX8;
