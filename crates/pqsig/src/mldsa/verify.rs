//! ML-DSA.Verify_internal from μ (FIPS 204 Algorithm 8), strict decoding.

use super::encode;
use super::keys::VerifyingKey;
use super::params::{K_MAX, L_MAX};
use super::sample;
use crate::error::Error;
use crate::kernels::mldsa::Poly;

/// Verifies σ over μ. `Err(InvalidSignature)` for a malformed encoding (wrong length,
/// bad hint encoding), `Err(VerificationFailed)` for a well-formed signature that does
/// not verify (including ‖z‖∞ ≥ γ1 − β).
pub(crate) fn verify_mu(vk: &VerifyingKey, mu: &[u8; 64], sig: &[u8]) -> Result<(), Error> {
    let p = vk.ps.params();
    let kern = vk.kern;
    // The key holds its table: no selection happens here, so say which table ran.
    crate::kernels::trace::record(crate::mldsa::sign::TABLE_IN_USE, kern.backend);
    let (k, l) = (p.k, p.l);
    if sig.len() != p.sig_len() {
        return Err(Error::InvalidSignature);
    }
    let ctilde = &sig[..p.ctilde_len];
    let mut z = [Poly::default(); L_MAX];
    let mut h = [Poly::default(); K_MAX];
    let mut w1 = [Poly::default(); K_MAX];
    let mut ct1 = [Poly::default(); K_MAX];
    let (z, h, w1, ct1) = (&mut z[..l], &mut h[..k], &mut w1[..k], &mut ct1[..k]);

    let zb = p.z_bytes();
    let mut off = p.ctilde_len;
    for zi in z.iter_mut() {
        (kern.unpack_z)(&sig[off..off + zb], p.gamma1, p.z_bits(), zi);
        off += zb;
    }
    if !encode::unpack_hint(&sig[off..], p.omega, h) {
        return Err(Error::InvalidSignature);
    }
    if (kern.chknorm)(z, p.gamma1 - p.beta) {
        return Err(Error::VerificationFailed);
    }

    let mut c = Poly::default();
    sample::sample_in_ball(kern, p, ctilde, &mut c);
    (kern.ntt)(core::slice::from_mut(&mut c));
    (kern.ntt)(z);
    // w'_approx = A·z − c·t1·2^d
    (kern.matvec_montgomery)(w1, &vk.a_hat, z);
    (kern.pointwise_montgomery)(ct1, &c, &vk.t1_hat);
    (kern.sub)(w1, ct1);
    (kern.reduce32)(w1);
    (kern.invntt_tomont)(w1);
    (kern.caddq)(w1);
    (kern.use_hint)(p.gamma2, w1, h);

    let w1b = p.w1_bytes();
    let mut w1_bytes = [0u8; K_MAX * 192];
    for (i, w) in w1.iter().enumerate() {
        encode::pack_w1(w, p.w1_bits(), &mut w1_bytes[i * w1b..(i + 1) * w1b]);
    }
    let mut c2 = [0u8; 64];
    sample::h256(kern, &[mu, &w1_bytes[..k * w1b]], &mut c2[..p.ctilde_len]);
    if c2[..p.ctilde_len] == *ctilde {
        Ok(())
    } else {
        Err(Error::VerificationFailed)
    }
}
