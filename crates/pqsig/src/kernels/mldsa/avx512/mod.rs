//! AVX-512 ML-DSA kernel table. The arithmetic kernels are the AVX2 ones (sound here:
//! the avx512 backend requires AVX2 too, see `select.rs`); Keccak uses AVX-512's
//! three-input logic and rotate instructions.

use super::avx2::{arith, ntt, rounding, sample};
use super::Kernels;
use crate::kernels::keccak::x4_avx512::permute4_avx512;
use crate::kernels::select::Backend;

pub static KERNELS: Kernels = Kernels {
    backend: Backend::Avx512,
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
    permute4: permute4_avx512,
};
