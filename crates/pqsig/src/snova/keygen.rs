//! Key generation: P22 = T12ᵀ·F12 + P21·T12 with F12 = P11·T12 + P12, computed as
//! F21·T12 + T12ᵀ·P12 with F21 = T12ᵀ·P11 + P21 (the same sum regrouped): GEMMs over all
//! m1 matrices at once on row-interleaved layouts ([`super::expand::PublicMats`]), the
//! first two streamed over a few block rows of P11/P12 at a time (decoded straight from the
//! XOF bytes, never materialised), reduction deferred to the end of each product chain.
//! pk = s_pub ‖ P22 (block-major nibbles); sk = s_pub ‖ s_priv ‖ SHAKE256(pk)[..48].

use super::abq;
use super::codec;
use super::expand;
use super::params::{ParamSet, PK_HASH_LEN, SEED_LEN, SEED_PUB_LEN, SK_LEN};
use super::scratch::Buf;
use crate::kernels::gf16;
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::shake256_on;
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// Block rows of P11/P12 decoded per chunk.
const CHUNK: usize = 8;

/// The public key of the seed pair `s_pub ‖ s_priv`.
pub(crate) fn public_key(ps: ParamSet, b: Backend, seed: &[u8; SEED_LEN]) -> Vec<u8> {
    let sh = ps.shape();
    let k = gf16::kernels(b);
    let abq = abq::get(sh);
    let abq: &abq::Abq = &abq;
    let (m1, vl, ol, l, o) = (sh.m1, sh.vl(), sh.ol(), sh.l, sh.o);
    let s_pub: &[u8; SEED_PUB_LEN] = seed[..SEED_PUB_LEN].try_into().expect("16 bytes");
    let t12 = expand::t12(sh, b, k, abq, &seed[SEED_PUB_LEN..]);
    let nib = expand::public_bytes(ps, b, s_pub);

    // Streamed over block rows of P11 and P12 (never materialised), with the products
    // regrouped so that every one contracts over those rows:
    //   F21 = T12ᵀ·P11 + P21                       (ol × m1·vl, row-interleaved),
    //   P22 = T12ᵀ·F12 + P21·T12 = F21·T12 + T12ᵀ·P12   (ol × m1·ol),
    // (F12 = P11·T12 + P12; the same sum regrouped).
    let mut f21 = expand::p21(b, &sh, &nib);
    let mut p22 = Buf::zeroed(m1 * ol * ol);
    let mut r11 = Buf::zeroed(CHUNK * l * m1 * vl);
    let mut r12 = Buf::zeroed(CHUNK * l * m1 * ol);
    let mut bi0 = 0;
    while bi0 < sh.v {
        let nb = CHUNK.min(sh.v - bi0);
        for t in 0..nb {
            let (a11, a12) = (t * l * m1 * vl, t * l * m1 * ol);
            expand::p11_p12_block_row(
                b,
                &sh,
                &nib,
                bi0 + t,
                &mut r11[a11..a11 + l * m1 * vl],
                &mut r12[a12..a12 + l * m1 * ol],
            );
        }
        let (x0, rows) = (bi0 * l, nb * l);
        (k.gemm_acc)(
            &mut f21,
            m1 * vl,
            &t12[x0 * ol..],
            1,
            ol,
            &r11,
            m1 * vl,
            ol,
            rows,
            m1 * vl,
        );
        (k.gemm_acc)(
            &mut p22,
            m1 * ol,
            &t12[x0 * ol..],
            1,
            ol,
            &r12,
            m1 * ol,
            ol,
            rows,
            m1 * ol,
        );
        bi0 += nb;
    }
    (k.reduce)(&mut f21);
    // P22 += F21 · T12, F21 read as rows (c, mi) of length vl.
    (k.gemm_acc)(&mut p22, ol, &f21, vl, 1, &t12, ol, ol * m1, vl, ol);
    (k.reduce)(&mut p22);
    // P22 is the public key (declassification, docs/ARCHITECTURE.md).
    crate::ct::public_mut(&mut p22[..]);

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
pub(crate) fn secret_key(b: Backend, seed: &[u8; SEED_LEN], pk: &[u8]) -> Zeroizing<[u8; SK_LEN]> {
    let mut sk = Zeroizing::new([0u8; SK_LEN]);
    sk[..SEED_LEN].copy_from_slice(seed);
    let mut h = [0u8; PK_HASH_LEN];
    shake256_on(permute1_for(b), &[pk], &mut h);
    sk[SEED_LEN..].copy_from_slice(&h);
    sk
}
