//! Portable ML-DSA kernels: plain Rust, constant-time, the reference for every backend.

pub mod ntt;
pub mod reduce;
pub mod rounding;
pub mod sample;

use super::{Kernels, Poly};
use crate::kernels::keccak::x4::permute4_portable;
use crate::kernels::keccak::x8::permute8_portable;
use crate::kernels::select::Backend;

pub static KERNELS: Kernels = Kernels {
    backend: Backend::Portable,
    ntt: ntt::ntt,
    invntt_tomont: ntt::invntt_tomont,
    pointwise_montgomery: ntt::pointwise_montgomery,
    matvec_montgomery: ntt::matvec_montgomery,
    reduce32: reduce::reduce32,
    caddq: reduce::caddq,
    power2round: rounding::power2round,
    decompose: rounding::decompose,
    make_hint: rounding::make_hint,
    use_hint: rounding::use_hint,
    chknorm: rounding::chknorm,
    rej_uniform: sample::rej_uniform,
    rej_eta: sample::rej_eta,
    add,
    sub,
    shiftl,
    unpack_z: crate::mldsa::encode::unpack_z,
    permute1: crate::kernels::keccak::f1600::keccak_f1600,
    permute4: permute4_portable,
    permute8: permute8_portable,
    permute8_native: false,
};

pub fn add(out: &mut [Poly], a: &[Poly]) {
    for (o, a) in out.iter_mut().zip(a) {
        for (x, y) in o.coeffs.iter_mut().zip(a.coeffs.iter()) {
            *x = x.wrapping_add(*y);
        }
    }
}

pub fn sub(out: &mut [Poly], a: &[Poly]) {
    for (o, a) in out.iter_mut().zip(a) {
        for (x, y) in o.coeffs.iter_mut().zip(a.coeffs.iter()) {
            *x = x.wrapping_sub(*y);
        }
    }
}

pub fn shiftl(a: &mut [Poly]) {
    for p in a.iter_mut() {
        for x in p.coeffs.iter_mut() {
            *x <<= super::D;
        }
    }
}
