//! Portable GF(16) kernels: plain Rust, constant time, no tables.
//!
//! (Bootstrap version: element-wise. The optimised portable kernels replace the bodies
//! while keeping the signatures.)

use super::{clmul4, inv, mul, reduce1, Kernels};
use crate::kernels::select::Backend;

pub static KERNELS: Kernels = Kernels {
    backend: Backend::Portable,
    gemm_acc,
    axpy_acc,
    reduce,
    mat_mul_batch,
    solve,
};

#[allow(clippy::too_many_arguments)]
pub fn gemm_acc(
    c: &mut [u8],
    ldc: usize,
    a: &[u8],
    a_rs: usize,
    a_cs: usize,
    b: &[u8],
    ldb: usize,
    m: usize,
    kk: usize,
    n: usize,
) {
    for i in 0..m {
        for k in 0..kk {
            let s = a[i * a_rs + k * a_cs];
            let row = &b[k * ldb..k * ldb + n];
            let out = &mut c[i * ldc..i * ldc + n];
            for (o, &x) in out.iter_mut().zip(row) {
                *o ^= clmul4(s, x);
            }
        }
    }
}

pub fn axpy_acc(acc: &mut [u8], s: u8, x: &[u8]) {
    for (o, &v) in acc.iter_mut().zip(x) {
        *o ^= clmul4(s, v);
    }
}

pub fn reduce(x: &mut [u8]) {
    for v in x.iter_mut() {
        *v = reduce1(*v);
    }
}

pub fn mat_mul_batch(out: &mut [u8], a: &[u8], b: &[u8], p: usize, k: usize, q: usize) {
    let count = out.len() / (p * q);
    for t in 0..count {
        let (o, x, y) = (&mut out[t * p * q..], &a[t * p * k..], &b[t * k * q..]);
        for i in 0..p {
            for j in 0..q {
                let mut s = 0u8;
                for l in 0..k {
                    s ^= clmul4(x[i * k + l], y[l * q + j]);
                }
                o[i * q + j] = reduce1(s);
            }
        }
    }
}

/// Branch-free mask: 0xFF if v == 0 else 0.
#[inline(always)]
fn is_zero_mask(v: u8) -> u8 {
    (((v as u16).wrapping_sub(1)) >> 8) as u8
}

pub fn solve(aug: &mut [u8], n: usize, stride: usize, x: &mut [u8]) -> bool {
    let w = n + 1;
    let mut singular = 0u8;
    for i in 0..n {
        // Make the pivot non-zero by adding every later row while it is zero.
        for j in i + 1..n {
            let mask = is_zero_mask(aug[i * stride + i]);
            for k in i..w {
                let v = aug[j * stride + k] & mask;
                aug[i * stride + k] ^= v;
            }
        }
        let p = aug[i * stride + i];
        singular |= is_zero_mask(p);
        let pinv = inv(p);
        for k in i..w {
            aug[i * stride + k] = mul(aug[i * stride + k], pinv);
        }
        for j in i + 1..n {
            let f = aug[j * stride + i];
            for k in i..w {
                let v = mul(f, aug[i * stride + k]);
                aug[j * stride + k] ^= v;
            }
        }
    }
    // Back substitution.
    for i in (0..n).rev() {
        let mut s = aug[i * stride + n];
        for k in i + 1..n {
            s ^= mul(aug[i * stride + k], x[k]);
        }
        x[i] = s;
    }
    singular == 0
}
