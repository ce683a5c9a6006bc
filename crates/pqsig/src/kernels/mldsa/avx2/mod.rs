//! AVX2 ML-DSA kernels (x86-64). Each entry is a safe wrapper around a whole
//! `#[target_feature(enable = "avx2")]` function; the table is only handed out by
//! [`super::kernels`] after AVX2 was detected.
//!
//! Entries not yet vectorised point at the portable kernels.

use super::portable;
use super::Kernels;
use crate::kernels::keccak::x4_avx2::permute4_avx2;
use crate::kernels::select::Backend;

pub static KERNELS: Kernels = Kernels {
    backend: Backend::Avx2,
    ntt: portable::ntt::ntt,
    invntt_tomont: portable::ntt::invntt_tomont,
    pointwise_montgomery: portable::ntt::pointwise_montgomery,
    matvec_montgomery: portable::ntt::matvec_montgomery,
    reduce32: portable::reduce::reduce32,
    caddq: portable::reduce::caddq,
    power2round: portable::rounding::power2round,
    decompose: portable::rounding::decompose,
    make_hint: portable::rounding::make_hint,
    use_hint: portable::rounding::use_hint,
    chknorm: portable::rounding::chknorm,
    rej_uniform: portable::sample::rej_uniform,
    rej_eta: portable::sample::rej_eta,
    add: portable::add,
    sub: portable::sub,
    shiftl: portable::shiftl,
    permute4: permute4_avx2,
};
