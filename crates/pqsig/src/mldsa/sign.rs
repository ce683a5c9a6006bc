//! ML-DSA.Sign_internal from μ (FIPS 204 Algorithm 7, lines 6–33).

use super::encode;
use super::keys::SigningKey;
use super::params::K_MAX;
use super::params::L_MAX;
use super::sample;
use crate::kernels::mldsa::Poly;
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

/// The trace family of an ML-DSA operation running on its key's table.
pub(crate) const TABLE_IN_USE: &str = "mldsa::Kernels (key's table)";

/// Signs μ with randomness `rnd` (32 zero bytes for the deterministic variant).
///
/// The loop repeats until a candidate passes every check; the number of iterations and
/// which check failed are declassified (FIPS 204 §3.4: they are independent of the
/// secret key given the public values). All arithmetic on y, z, s1, s2, t0 is
/// branch-free; the norm checks scan every coefficient.
pub(crate) fn sign_mu(sk: &SigningKey, mu: &[u8; 64], rnd: &[u8; 32]) -> Vec<u8> {
    let p = sk.ps.params();
    let kern = sk.kern;
    // The key holds its table: no selection happens here, so say which table ran.
    crate::kernels::trace::record(TABLE_IN_USE, kern.backend);
    let (k, l) = (p.k, p.l);

    // ρ'' = H(K ‖ rnd ‖ μ, 64)
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    sample::h256(kern, &[&sk.key[..], rnd, mu], &mut rho_pp[..]);

    // y of this iteration and of the next one: the next one's ExpandMask runs while c̃ is
    // hashed (`sample::expand_mask_hashing`), so `cur` alternates between the two.
    let mut ys = [[Poly::default(); L_MAX]; 2];
    let mut cur = 0;
    let mut w0 = [Poly::default(); K_MAX];
    let mut h = [Poly::default(); K_MAX];
    // The polynomials the transforms run on (z, w1, c, tmp): in memory a process-wide
    // device lends (its DMA window: requests on them need no copies), else here.
    let mut own = [Poly::default(); L_MAX + 2 * K_MAX + 1];
    let need = l + 2 * k + 1;
    let mut lent = crate::kernels::device::workspace(need);
    let work: &mut [Poly] = match lent.as_mut().map(|ws| ws.polys()) {
        Some(polys) if polys.len() >= need => polys,
        _ => &mut own,
    };
    let (z, rest) = work.split_at_mut(l);
    let (w1, rest) = rest.split_at_mut(k);
    let (tmp, rest) = rest.split_at_mut(k);
    let c = &mut rest[0];
    // μ ‖ w1Encode(w1), the input of c̃.
    let mut hin = [0u8; 64 + K_MAX * 192];
    hin[..64].copy_from_slice(mu);
    let w1b = p.w1_bytes();
    let mut ctilde = [0u8; 64];
    let ct = &mut ctilde[..p.ctilde_len];
    let mut kappa: u16 = 0;
    // Where ExpandMask's groups have a lane for c̃'s hash to ride in at no extra
    // permutation work, each iteration expands the next one's y while hashing (one
    // ExpandMask wasted on the last iteration); elsewhere y is expanded when needed.
    let ride = sample::mask_rides(kern, p);
    if ride {
        sample::expand_mask(kern, p, &rho_pp, kappa, &mut ys[0][..l]);
        kappa = kappa.wrapping_add(l as u16);
    }

    let sig = loop {
        let (ys0, ys1) = ys.split_at_mut(1);
        let (y, y_next) = if cur == 0 {
            (&mut ys0[0][..l], &mut ys1[0][..l])
        } else {
            (&mut ys1[0][..l], &mut ys0[0][..l])
        };
        if ride {
            cur ^= 1;
        } else {
            sample::expand_mask(kern, p, &rho_pp, kappa, y);
            kappa = kappa.wrapping_add(l as u16);
        }
        let (w0, h) = (&mut w0[..k], &mut h[..k]);

        // y = ExpandMask(ρ'', κ) (made by the previous iteration where riding); w = A·y
        z.copy_from_slice(y);
        (kern.ntt)(z);
        (kern.matvec_montgomery)(w1, &sk.a_hat, z);
        (kern.reduce32)(w1);
        (kern.invntt_tomont)(w1);
        (kern.caddq)(w1);
        // (w1, w0) = Decompose(w); c̃ = H(μ ‖ w1Encode(w1))
        (kern.decompose)(p.gamma2, w1, w0);
        for (i, w) in w1.iter().enumerate() {
            encode::pack_w1(w, p.w1_bits(), &mut hin[64 + i * w1b..64 + (i + 1) * w1b]);
        }
        // c̃ = H(μ ‖ w1Encode(w1)), where riding while the next iteration's y is expanded.
        let hin = &hin[..64 + k * w1b];
        if ride {
            sample::expand_mask_hashing(kern, p, &rho_pp, kappa, y_next, hin, ct);
            kappa = kappa.wrapping_add(l as u16);
        } else {
            sample::h256(kern, &[hin], ct);
        }
        // c̃ (so c) is public, rejected iterations included: a hash of w1 (declassification).
        crate::ct::public_mut(&mut ct[..]);
        sample::sample_in_ball(kern, p, ct, c);
        (kern.ntt)(core::slice::from_mut(c));

        // z = y + c·s1
        (kern.pointwise_montgomery)(z, c, &sk.s1_hat);
        (kern.invntt_tomont)(z);
        (kern.add)(z, y);
        (kern.reduce32)(z);
        // The three norm checks' and the hint count's verdicts are public (FIPS 204 §3.4).
        if crate::ct::public((kern.chknorm)(z, p.gamma1 - p.beta)) {
            continue;
        }
        // r0 = w0 − c·s2
        (kern.pointwise_montgomery)(tmp, c, &sk.s2_hat);
        (kern.invntt_tomont)(tmp);
        (kern.sub)(w0, tmp);
        (kern.reduce32)(w0);
        if crate::ct::public((kern.chknorm)(w0, p.gamma2 - p.beta)) {
            continue;
        }
        // c·t0, hint
        (kern.pointwise_montgomery)(tmp, c, &sk.t0_hat);
        (kern.invntt_tomont)(tmp);
        (kern.reduce32)(tmp);
        if crate::ct::public((kern.chknorm)(tmp, p.gamma2)) {
            continue;
        }
        (kern.add)(w0, tmp);
        let ones = (kern.make_hint)(p.gamma2, h, w0, w1);
        if crate::ct::public(ones > p.omega) {
            continue;
        }

        // σ = sigEncode(c̃, z, h)
        let mut sig = alloc::vec![0u8; p.sig_len()];
        sig[..p.ctilde_len].copy_from_slice(ct);
        let zb = p.z_bytes();
        let mut off = p.ctilde_len;
        for zi in z.iter() {
            encode::pack_z(zi, p.gamma1, p.z_bits(), &mut sig[off..off + zb]);
            off += zb;
        }
        // The hint is output in the signature (accepted iteration only).
        crate::ct::public_mut(&mut h[..]);
        encode::pack_hint(h, p.omega, &mut sig[off..]);
        break sig;
    };

    // A lent workspace is wiped by the device when the loan ends (`lent` dropped).
    ys.iter_mut().flatten().for_each(Zeroize::zeroize);
    for v in [&mut own[..], &mut w0[..]] {
        v.iter_mut().for_each(Zeroize::zeroize);
    }
    hin.zeroize();
    drop(lent);
    sig
}
