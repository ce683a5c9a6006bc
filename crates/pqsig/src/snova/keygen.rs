//! Key generation: P22 = T12ᵀ·F12 + P21·T12 with F12 = P11·T12 + P12, computed as
//! F21·T12 + T12ᵀ·P12 with F21 = T12ᵀ·P11 + P21 (the same sum regrouped): three GEMMs
//! over all m1 matrices at once on row-interleaved layouts ([`super::expand::PublicMats`]),
//! reduction deferred to the end of each product chain.
//! pk = s_pub ‖ P22 (block-major nibbles); sk = s_pub ‖ s_priv ‖ SHAKE256(pk)[..48].

use super::abq;
use super::codec;
use super::expand;
use super::params::{ParamSet, PK_HASH_LEN, SEED_LEN, SEED_PUB_LEN, SK_LEN};
use crate::kernels::gf16;
use crate::kernels::keccak::sponge::shake256;
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// The public key of the seed pair `s_pub ‖ s_priv`.
pub(crate) fn public_key(ps: ParamSet, b: Backend, seed: &[u8; SEED_LEN]) -> Vec<u8> {
    let sh = ps.shape();
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let abq: &abq::Abq = &abq;
    let (m1, vl, ol, l, o) = (sh.m1, sh.vl(), sh.ol(), sh.l, sh.o);
    let s_pub: &[u8; SEED_PUB_LEN] = seed[..SEED_PUB_LEN].try_into().expect("16 bytes");
    let t12 = expand::t12(sh, k, abq, &seed[SEED_PUB_LEN..]);
    let pm = expand::public_mats(ps, b, s_pub);

    // F21 (row-interleaved, ol × m1·vl) = T12ᵀ · P11 + P21: one wide GEMM.
    let mut f21 = Zeroizing::new(pm.p21);
    (k.gemm_acc)(
        &mut f21,
        m1 * vl,
        &t12,
        1,
        ol,
        &pm.p11,
        m1 * vl,
        ol,
        vl,
        m1 * vl,
    );
    (k.reduce)(&mut f21);
    // P22 = T12ᵀ·F12 + P21·T12 = F21·T12 + T12ᵀ·P12 (F12 = P11·T12 + P12), row-interleaved
    // (ol × m1·ol): F21 read as rows (c, mi) of length vl.
    let mut p22 = vec![0u8; m1 * ol * ol];
    (k.gemm_acc)(&mut p22, ol, &f21, vl, 1, &t12, ol, ol * m1, vl, ol);
    (k.gemm_acc)(
        &mut p22,
        m1 * ol,
        &t12,
        1,
        ol,
        &pm.p12,
        m1 * ol,
        ol,
        vl,
        m1 * ol,
    );
    (k.reduce)(&mut p22);

    let mut blocks = vec![0u8; sh.pk_gf()];
    for mi in 0..m1 {
        codec::flat_to_blocks(
            &p22,
            m1 * ol,
            mi * ol,
            o,
            o,
            l,
            &mut blocks[mi * ol * ol..(mi + 1) * ol * ol],
        );
    }
    let mut pk = vec![0u8; sh.pk_len()];
    pk[..SEED_PUB_LEN].copy_from_slice(s_pub);
    codec::pack(&mut pk[SEED_PUB_LEN..], &blocks);
    pk
}

/// The 96-byte secret key of a seed pair and its public key.
pub(crate) fn secret_key(seed: &[u8; SEED_LEN], pk: &[u8]) -> Zeroizing<[u8; SK_LEN]> {
    let mut sk = Zeroizing::new([0u8; SK_LEN]);
    sk[..SEED_LEN].copy_from_slice(seed);
    let mut h = [0u8; PK_HASH_LEN];
    shake256(&[pk], &mut h);
    sk[SEED_LEN..].copy_from_slice(&h);
    sk
}
