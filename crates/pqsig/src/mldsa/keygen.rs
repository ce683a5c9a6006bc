//! ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6).

use super::keys::{expand_a, SigningKey, VerifyingKey};
use super::params::ParamSet;
use super::sample;
use crate::kernels::mldsa::{Kernels, Poly};
use alloc::vec;
use zeroize::{Zeroize, Zeroizing};

/// KeyGen_internal(ξ) on the given kernels.
pub(crate) fn keygen_internal(
    ps: ParamSet,
    kern: &'static Kernels,
    xi: &[u8; 32],
) -> (SigningKey, VerifyingKey) {
    let p = ps.params();
    // (ρ, ρ', K) = H(ξ ‖ k ‖ l, 128)
    let mut expanded = Zeroizing::new([0u8; 128]);
    sample::h256(&[xi, &[p.k as u8, p.l as u8]], &mut expanded[..]);
    let rho: [u8; 32] = core::array::from_fn(|i| expanded[i]);
    let mut rho_prime = Zeroizing::new([0u8; 64]);
    rho_prime.copy_from_slice(&expanded[32..96]);
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&expanded[96..128]);

    let a_hat = expand_a(kern, p, &rho);
    let mut s1 = vec![Poly::default(); p.l];
    let mut s2 = vec![Poly::default(); p.k];
    sample::expand_s(kern, p, &rho_prime, &mut s1, &mut s2);

    let sk_tmp = SigningKey::assemble(
        ps,
        kern,
        Some(Zeroizing::new(*xi)),
        rho,
        key,
        [0u8; 64],
        s1,
        s2,
        vec![Poly::default(); p.k],
        a_hat,
    );
    // t = A·s1 + s2 → (t1, t0); pk; tr = H(pk).
    let (vk, t0) = sk_tmp.derive_public();
    let mut sk = sk_tmp;
    sk.tr = vk.tr;
    let mut t0_hat = t0.clone();
    (kern.ntt)(&mut t0_hat);
    for (dst, src) in sk.t0.iter_mut().zip(t0.iter()) {
        *dst = *src;
    }
    for (dst, src) in sk.t0_hat.iter_mut().zip(t0_hat.iter()) {
        *dst = *src;
    }
    let mut t0 = t0;
    t0.iter_mut().for_each(Zeroize::zeroize);
    t0_hat.iter_mut().for_each(Zeroize::zeroize);
    (sk, vk)
}
