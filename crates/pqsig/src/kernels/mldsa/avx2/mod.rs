//! AVX2 ML-DSA kernels (x86-64). Each table entry is a safe wrapper around a whole
//! `#[target_feature(enable = "avx2")]` function; the table is only handed out by
//! [`super::kernels`] after AVX2 was detected, which is what makes the wrappers sound.
//!
//! Files mirror the portable backend: `ntt` (NTT, inverse NTT, pointwise and matrix
//! products), `arith` (reduce32, caddq, add, sub, shiftl), `rounding` (power2round,
//! decompose, hints, norm check), `sample` (rejection samplers), `unpack` (BitUnpack of z).

pub(crate) mod arith;
pub(crate) mod ntt;
pub(crate) mod rounding;
pub(crate) mod sample;
pub(crate) mod unpack;

use super::Kernels;
use crate::kernels::keccak::x4_avx2::{permute4_avx2, permute8_avx2};
use crate::kernels::select::Backend;

/// The table as a constant, so other x86-64 tables can start from it.
pub(crate) const TABLE: Kernels = Kernels {
    backend: Backend::Avx2,
    ntt: ntt::ntt,
    invntt_tomont: ntt::invntt_tomont,
    pointwise_montgomery: ntt::pointwise_montgomery,
    matvec_montgomery: ntt::matvec_montgomery,
    reduce32: arith::reduce32,
    caddq: arith::caddq,
    power2round: rounding::power2round,
    decompose: rounding::decompose,
    make_hint: rounding::make_hint,
    use_hint: rounding::use_hint,
    chknorm: rounding::chknorm,
    rej_uniform: sample::rej_uniform,
    rej_eta: sample::rej_eta,
    add: arith::add,
    sub: arith::sub,
    shiftl: arith::shiftl,
    unpack_z: unpack::unpack_z,
    permute1: crate::kernels::keccak::f1600::permute1_avx2,
    permute4: permute4_avx2,
    permute8: permute8_avx2,
    permute8_native: false,
};

pub(crate) static KERNELS: Kernels = TABLE;
