//! Signing.
//!
//! The expanded secret key holds, flat: P11 (public), T12, F12[mi] = P11·T12 + P12 and
//! F21[mi]ᵀ = P11ᵀ·T12 + P21ᵀ (secret). Per attempt (counter c = 1, 2, …, 254):
//!
//! 1. vinegar X_v = SHAKE256(s_priv ‖ digest ‖ salt ‖ c) (v blocks l×r), whipped to W_v;
//! 2. constant term Fvv = the public map of P11 at W_v ([`super::eval`]);
//! 3. linear part: `WF21ᵀ = W_vᵀ·F21ᵀ`, `WF12ᵀ = W_vᵀ·F12` per mi (GEMMs), combined with
//!    q2 / q1 per pair (mi, alpha) (GEMMs over the pairs of one mi' = (mi+alpha) mod m1),
//!    then the batched small products with Bᵀ, Q1 and A, Q2, and finally per mi two GEMMs
//!    over alpha with the A and B entries as coefficients. The two results are laid out
//!    differently (A pairs with (row block, column j), B with (row i, column j)) and are
//!    merged into the augmented matrix by one index permutation;
//! 4. constant-time Gaussian elimination (`solve`); a singular system (probability about
//!    1/16 per attempt) is the only data-dependent branch: the next counter is tried, as
//!    the reference does. After 254 singular systems signing fails
//!    ([`Error::RandomnessFailure`]; probability about 16^-254);
//! 5. signature: X_v + T12·X_o ‖ X_o ‖ salt.

use super::abq;
use super::codec;
use super::eval;
use super::expand;
use super::params::{ParamSet, DIGEST_LEN, PK_HASH_LEN, SALT_LEN, SEED_LEN, SEED_PRIV_LEN, SEED_PUB_LEN, SK_LEN};
use super::verify::{digest, target};
use crate::error::Error;
use crate::kernels::gf16;
use crate::kernels::keccak::sponge::Shake256;
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

/// The expanded secret key (flat matrices; the secret ones wiped on drop).
pub(crate) struct Expanded {
    pub s_priv: Zeroizing<[u8; SEED_PRIV_LEN]>,
    pub pk_hash: [u8; PK_HASH_LEN],
    /// P11 row-interleaved: (v·l) × (m1·v·l) (public).
    pub p11: Vec<u8>,
    /// (v·l)×(o·l).
    pub t12: Zeroizing<Vec<u8>>,
    /// F12 row-interleaved: (v·l) × (m1·o·l), `F12[x][(mi, c)]`.
    pub f12: Zeroizing<Vec<u8>>,
    /// F21 transposed, row-interleaved: (v·l) × (m1·o·l), `F21ᵀ[x][(mi, c)]`.
    pub f21t: Zeroizing<Vec<u8>>,
}

pub(crate) fn expand_sk(ps: ParamSet, b: Backend, sk: &[u8; SK_LEN]) -> Expanded {
    let sh = ps.shape();
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let (m1, vl, ol) = (sh.m1, sh.vl(), sh.ol());
    let s_pub: &[u8; SEED_PUB_LEN] = sk[..SEED_PUB_LEN].try_into().expect("16 bytes");
    let mut s_priv = Zeroizing::new([0u8; SEED_PRIV_LEN]);
    s_priv.copy_from_slice(&sk[SEED_PUB_LEN..SEED_LEN]);
    let mut pk_hash = [0u8; PK_HASH_LEN];
    pk_hash.copy_from_slice(&sk[SEED_LEN..]);
    let t12 = expand::t12(sh, k, &abq, &s_priv[..]);
    let pm = expand::public_mats(ps, b, s_pub);

    // F21 (ol × m1·vl, row-interleaved) = T12ᵀ·P11 + P21: one wide GEMM; stored
    // transposed, F21ᵀ[x][(mi, c)].
    let mut f21 = Zeroizing::new(pm.p21);
    (k.gemm_acc)(&mut f21, m1 * vl, &t12, 1, ol, &pm.p11, m1 * vl, ol, vl, m1 * vl);
    (k.reduce)(&mut f21);
    let mut f21t = Zeroizing::new(vec![0u8; m1 * vl * ol]);
    for c in 0..ol {
        for mi in 0..m1 {
            let src = &f21[c * m1 * vl + mi * vl..c * m1 * vl + (mi + 1) * vl];
            for (x, &e) in src.iter().enumerate() {
                f21t[x * m1 * ol + mi * ol + c] = e;
            }
        }
    }
    // F12[x][(mi, c)] = P11·T12 + P12: P11 read as rows (x, mi), one GEMM.
    let mut f12 = Zeroizing::new(pm.p12);
    (k.gemm_acc)(&mut f12, ol, &pm.p11, vl, 1, &t12, ol, vl * m1, vl, ol);
    (k.reduce)(&mut f12);
    Expanded {
        s_priv,
        pk_hash,
        p11: pm.p11,
        t12,
        f12,
        f21t,
    }
}

/// Signs `msg` with `salt`.
pub(crate) fn sign(ps: ParamSet, b: Backend, ek: &Expanded, msg: &[u8], salt: &[u8; SALT_LEN]) -> Result<Vec<u8>, Error> {
    let sh = ps.shape();
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let (o, l, r, m1, na, v) = (sh.o, sh.l, sh.r, sh.m1, sh.alpha(), sh.v);
    let (lr, vl, ol, olr, r2) = (sh.lr(), sh.vl(), sh.ol(), sh.olr(), r * r);
    let items = sh.items();
    let (lol, rol) = (l * ol, r * ol);

    let dg: [u8; DIGEST_LEN] = digest(msg);
    let t = target(ps, &ek.pk_hash, &dg, salt);

    let mut vin_bytes = Zeroizing::new(vec![0u8; sh.vinegar_bytes()]);
    let mut xv = Zeroizing::new(vec![0u8; v * lr]);
    let mut wv = Zeroizing::new(vec![0u8; vl * lr]);
    let mut fvv = Zeroizing::new(vec![0u8; olr]);
    let mut wf21 = Zeroizing::new(vec![0u8; m1 * lr * ol]);
    let mut wf12 = Zeroizing::new(vec![0u8; m1 * lr * ol]);
    let mut t0 = Zeroizing::new(vec![0u8; items * rol]);
    let mut t1 = Zeroizing::new(vec![0u8; items * rol]);
    let mut y = Zeroizing::new(vec![0u8; items * lol]);
    let mut ut = Zeroizing::new(vec![0u8; items * lol]);
    let mut z = Zeroizing::new(vec![0u8; items * rol]);
    let mut vv = Zeroizing::new(vec![0u8; items * rol]);
    let mut g1 = Zeroizing::new(vec![0u8; r2 * lol]);
    let mut g2 = Zeroizing::new(vec![0u8; lr * rol]);
    let stride = olr + 1;
    let mut gauss = Zeroizing::new(vec![0u8; olr * stride]);
    let mut xo = Zeroizing::new(vec![0u8; olr]);

    for ctr in 1u8..=254 {
        // 1. Vinegar and its whipping.
        let mut h = Shake256::new();
        h.absorb(&ek.s_priv[..]);
        h.absorb(&dg);
        h.absorb(salt);
        h.absorb(&[ctr]);
        h.squeeze(&mut vin_bytes);
        drop(h);
        codec::unpack(&mut xv, &vin_bytes);
        eval::whip(&sh, k, &abq, &xv, v, &mut wv);

        // 2. Constant term.
        eval::eval(&sh, k, &abq, &ek.p11, vl, &wv, &mut fvv);

        // 3. Linear part. WF21ᵀ[mi], WF12ᵀ[mi] = W_vᵀ · (F21ᵀ, F12)[mi]: (l·r)×(o·l).
        wf21.fill(0);
        wf12.fill(0);
        for mi in 0..m1 {
            let a = mi * lr * ol;
            (k.gemm_acc)(&mut wf21[a..a + lr * ol], ol, &wv, 1, lr, &ek.f21t[mi * ol..], m1 * ol, lr, vl, ol);
            (k.gemm_acc)(&mut wf12[a..a + lr * ol], ol, &wv, 1, lr, &ek.f12[mi * ol..], m1 * ol, lr, vl, ol);
        }
        (k.reduce)(&mut wf21);
        (k.reduce)(&mut wf12);
        // Per pair: T0ᵀ = Σ_b q2[b]·WF21ᵀ[mi'](b rows), T1ᵀ = Σ_b q1[b]·WF12ᵀ[mi'](b rows),
        // each r × (o·l).
        t0.fill(0);
        t1.fill(0);
        for mi in 0..o {
            for mp in 0..m1 {
                let a0 = (mp + m1 - mi % m1) % m1;
                if a0 >= na {
                    continue;
                }
                let cnt = (na - a0).div_ceil(m1);
                let it0 = mi * na + a0;
                let src = mp * lr * ol..(mp + 1) * lr * ol;
                (k.gemm_acc)(&mut t0[it0 * rol..], m1 * rol, &abq.q2[it0 * l..], m1 * l, 1, &wf21[src.clone()], rol, cnt, l, rol);
                (k.gemm_acc)(&mut t1[it0 * rol..], m1 * rol, &abq.q1[it0 * l..], m1 * l, 1, &wf12[src], rol, cnt, l, rol);
            }
        }
        (k.reduce)(&mut t0);
        (k.reduce)(&mut t1);
        // Y = Bᵀ·T0ᵀ (l × o·l); Uᵀ = Y (as (l·o)×l) · Q1. Z = A·T1ᵀ (r × o·l); V = Z · Q2.
        (k.mat_mul_batch)(&mut y, &abq.bt, &t0, l, r, ol);
        (k.mat_mul_batch)(&mut ut, &y, &abq.qq1, l * o, l, l);
        (k.mat_mul_batch)(&mut z, &abq.a, &t1, r, r, ol);
        (k.mat_mul_batch)(&mut vv, &z, &abq.qq2, r * o, l, l);

        for mi in 0..o {
            g1.fill(0);
            g2.fill(0);
            let it = mi * na;
            // G1[(ti1,tj2)][(ti2,idx,tj1)] = Σ_alpha A[ti1][tj2] · Uᵀ[(ti2,idx)][tj1].
            (k.gemm_acc)(&mut g1, lol, &abq.a[it * r2..], 1, r2, &ut[it * lol..(it + na) * lol], lol, r2, na, lol);
            // G2[(tj2,ti2)][(ti1,idx,tj1)] = Σ_alpha B[tj2][ti2] · V[(ti1,idx)][tj1].
            (k.gemm_acc)(&mut g2, rol, &abq.b[it * lr..], 1, lr, &vv[it * rol..(it + na) * rol], rol, lr, na, rol);
            (k.reduce)(&mut g1);
            (k.reduce)(&mut g2);
            for ti1 in 0..r {
                for ti2 in 0..l {
                    let row = mi * lr + ti1 * l + ti2;
                    let grow = &mut gauss[row * stride..(row + 1) * stride];
                    for idx in 0..o {
                        for tj1 in 0..l {
                            for tj2 in 0..r {
                                grow[idx * lr + tj1 * r + tj2] = g1[(ti1 * r + tj2) * lol + (ti2 * o + idx) * l + tj1]
                                    ^ g2[(tj2 * l + ti2) * rol + (ti1 * o + idx) * l + tj1];
                            }
                        }
                    }
                    grow[olr] = t[row] ^ fvv[row];
                }
            }
        }

        // 4. Solve.
        if !(k.solve)(&mut gauss, olr, stride, &mut xo) {
            continue;
        }

        // 5. Signature: X_v += T12 · X_o (flat (v·l)×r += (v·l)×(o·l) · (o·l)×r).
        (k.gemm_acc)(&mut xv, r, &ek.t12, ol, 1, &xo, r, vl, ol, r);
        (k.reduce)(&mut xv);
        let mut gf = Zeroizing::new(vec![0u8; sh.sig_gf()]);
        gf[..v * lr].copy_from_slice(&xv);
        gf[v * lr..].copy_from_slice(&xo);
        let mut sig = vec![0u8; sh.sig_len()];
        let body = sig.len() - SALT_LEN;
        codec::pack(&mut sig[..body], &gf);
        sig[body..].copy_from_slice(salt);
        return Ok(sig);
    }
    vin_bytes.zeroize();
    Err(Error::RandomnessFailure)
}
