//! Expansion of the seeds into matrices.
//!
//! * Public seed → P11 (m1 × v×v blocks), P12 (m1 × v×o), P21 (m1 × o×v), in that order,
//!   block-major, from `NUM_GEN_PUB_BYTES = ceil(m1·(v²+2vo)·l²/2)` bytes of SHAKE128
//!   counter mode or AES-128-CTR ([`crate::kernels::xof`]). Converted once to flat
//!   row-major matrices: `P11[mi]` is (v·l)×(v·l), `P12[mi]` (v·l)×(o·l), `P21[mi]`
//!   (o·l)×(v·l); with P22 they form the flat (n·l)×(n·l) `P[mi]` of the verifier.
//! * Private seed → T12 = SHAKE256(s_priv) read as o·v·l nibbles: block (vi, oi) (index
//!   `vi·o + oi`) is Σ_k c_k S^k. Kept flat: (v·l)×(o·l). Every block is an element of
//!   F_q[S], hence symmetric, so the flat T12ᵀ has the same blocks, transposed in place:
//!   that is what lets keygen and signing write the reference's block sums as plain
//!   matrix products (F12 = P11·T12 + P12, F21 = T12ᵀ·P11 + P21, P22 = T12ᵀ·F12 + P21·T12).

use super::abq::Abq;
use super::codec;
use super::params::{ParamSet, Shape, SEED_PUB_LEN};
use super::scratch::{Buf, SecretVec};
use crate::kernels::gf16::Kernels;
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::shake256_on;
use crate::kernels::select::Backend;
use crate::kernels::xof;

/// The XOF output for the public seed (`ceil(pub_gf / 2)` bytes, packed nibbles).
pub(crate) fn public_bytes(ps: ParamSet, b: Backend, seed: &[u8; SEED_PUB_LEN]) -> Buf {
    let sh = ps.shape();
    let mut bytes = Buf::zeroed(sh.pub_bytes());
    if ps.uses_aes() {
        xof::aes128_ctr(b, seed, &mut bytes);
    } else {
        xof::shake128_ctr(b, seed, &mut bytes);
    }
    bytes
}

/// Offsets of P11, P12, P21 in the nibble stream.
fn offsets(sh: &Shape) -> (usize, usize, usize) {
    let l2 = sh.l * sh.l;
    let p12 = sh.m1 * sh.v * sh.v * l2;
    let p21 = p12 + sh.m1 * sh.v * sh.o * l2;
    (0, p12, p21)
}

/// P11, P12, P21 as "row-interleaved" flat matrices: row x of every mi side by side,
/// `P11[x][(mi, y)] = P11_mi[x][y]`. In this layout a product that contracts over the row
/// index (`T12ᵀ·P11_mi`, `Wᵀ·P_mi`) is one GEMM for all m1 matrices with wide rows (m1·v·l
/// columns), and one that contracts over the column index (`P11_mi·T12`) is one GEMM with
/// A read at row stride v·l (rows (x, mi)).
pub(crate) struct PublicMats {
    /// (v·l) × (m1·v·l).
    pub p11: Buf,
    /// (v·l) × (m1·o·l).
    pub p12: Buf,
    /// (o·l) × (m1·v·l).
    pub p21: Buf,
}

pub(crate) fn public_mats(ps: ParamSet, b: Backend, seed: &[u8; SEED_PUB_LEN]) -> PublicMats {
    let sh = ps.shape();
    let nib = public_bytes(ps, b, seed);
    let (l, v, o, m1) = (sh.l, sh.v, sh.o, sh.m1);
    let (vl, ol, l2) = (sh.vl(), sh.ol(), l * l);
    let (o11, o12, o21) = offsets(&sh);
    let mut p11 = Buf::zeroed(m1 * vl * vl);
    let mut p12 = Buf::zeroed(m1 * vl * ol);
    let mut p21 = Buf::zeroed(m1 * ol * vl);
    for bi in 0..v {
        let r11 = &mut p11[bi * l * m1 * vl..(bi + 1) * l * m1 * vl];
        let r12 = &mut p12[bi * l * m1 * ol..(bi + 1) * l * m1 * ol];
        for mi in 0..m1 {
            codec::packed_blocks_into_rows(
                b,
                r11,
                m1 * vl,
                mi * vl,
                &nib,
                o11 + (mi * v + bi) * v * l2,
                v,
                l,
            );
            codec::packed_blocks_into_rows(
                b,
                r12,
                m1 * ol,
                mi * ol,
                &nib,
                o12 + (mi * v + bi) * o * l2,
                o,
                l,
            );
        }
    }
    for bi in 0..o {
        let r21 = &mut p21[bi * l * m1 * vl..(bi + 1) * l * m1 * vl];
        for mi in 0..m1 {
            codec::packed_blocks_into_rows(
                b,
                r21,
                m1 * vl,
                mi * vl,
                &nib,
                o21 + (mi * o + bi) * v * l2,
                v,
                l,
            );
        }
    }
    PublicMats { p11, p12, p21 }
}

/// Block row `bi` (< v) of the row-interleaved P11 and P12 into `r11` (l rows of m1·v·l)
/// and `r12` (l rows of m1·o·l), from the packed XOF output.
pub(crate) fn p11_p12_block_row(
    b: Backend,
    sh: &Shape,
    nib: &[u8],
    bi: usize,
    r11: &mut [u8],
    r12: &mut [u8],
) {
    let (l, v, o, m1) = (sh.l, sh.v, sh.o, sh.m1);
    let (vl, ol, l2) = (sh.vl(), sh.ol(), l * l);
    let (o11, o12, _) = offsets(sh);
    for mi in 0..m1 {
        codec::packed_blocks_into_rows(
            b,
            r11,
            m1 * vl,
            mi * vl,
            nib,
            o11 + (mi * v + bi) * v * l2,
            v,
            l,
        );
        codec::packed_blocks_into_rows(
            b,
            r12,
            m1 * ol,
            mi * ol,
            nib,
            o12 + (mi * v + bi) * o * l2,
            o,
            l,
        );
    }
}

/// The row-interleaved P21 ((o·l) × (m1·v·l)) from the packed XOF output.
pub(crate) fn p21(b: Backend, sh: &Shape, nib: &[u8]) -> Buf {
    let (l, v, o, m1) = (sh.l, sh.v, sh.o, sh.m1);
    let (vl, l2) = (sh.vl(), l * l);
    let (_, _, o21) = offsets(sh);
    let mut p21 = Buf::zeroed(m1 * sh.ol() * vl);
    for bi in 0..o {
        let r21 = &mut p21[bi * l * m1 * vl..(bi + 1) * l * m1 * vl];
        for mi in 0..m1 {
            codec::packed_blocks_into_rows(
                b,
                r21,
                m1 * vl,
                mi * vl,
                nib,
                o21 + (mi * o + bi) * v * l2,
                v,
                l,
            );
        }
    }
    p21
}

/// The verifier's P, row-interleaved: (n·l) × (m1·n·l), `P[x][(mi, y)] = P_mi[x][y]`,
/// from the public seed and the packed P22 of the public key (block-major, m1 × o×o
/// blocks). Decoded block row by block row straight from the packed bytes.
pub(crate) fn full_p(ps: ParamSet, b: Backend, seed: &[u8; SEED_PUB_LEN], p22: &[u8]) -> Buf {
    let sh = ps.shape();
    let nib = public_bytes(ps, b, seed);
    let (l, nl, m1) = (sh.l, sh.nl(), sh.m1);
    let mut p = Buf::zeroed(m1 * nl * nl);
    for (bi, rows) in p.chunks_exact_mut(l * m1 * nl).enumerate() {
        p_block_row(b, &sh, &nib, p22, bi, rows);
    }
    p
}

/// Block row `bi` (< n) of the verifier's row-interleaved P into `rows` (l rows of
/// m1·n·l), from the packed XOF output `nib` and the packed P22 `p22`.
pub(crate) fn p_block_row(
    b: Backend,
    sh: &Shape,
    nib: &[u8],
    p22: &[u8],
    bi: usize,
    rows: &mut [u8],
) {
    let (l, v, o, m1) = (sh.l, sh.v, sh.o, sh.m1);
    let (vl, nl, l2) = (sh.vl(), sh.nl(), l * l);
    let ld = m1 * nl;
    let (o11, o12, o21) = offsets(sh);
    for mi in 0..m1 {
        let c = mi * nl;
        if bi < v {
            codec::packed_blocks_into_rows(b, rows, ld, c, nib, o11 + (mi * v + bi) * v * l2, v, l);
            codec::packed_blocks_into_rows(
                b,
                rows,
                ld,
                c + vl,
                nib,
                o12 + (mi * v + bi) * o * l2,
                o,
                l,
            );
        } else {
            let bi = bi - v;
            codec::packed_blocks_into_rows(b, rows, ld, c, nib, o21 + (mi * o + bi) * v * l2, v, l);
            codec::packed_blocks_into_rows(b, rows, ld, c + vl, p22, (mi * o + bi) * o * l2, o, l);
        }
    }
}

/// Flat T12 ((v·l)×(o·l)) from the private seed.
pub(crate) fn t12(sh: Shape, b: Backend, k: &Kernels, abq: &Abq, s_priv: &[u8]) -> SecretVec {
    let (l, v, o) = (sh.l, sh.v, sh.o);
    let l2 = l * l;
    let mut bytes = Buf::zeroed(sh.t12_gf().div_ceil(2));
    shake256_on(permute1_for(b), &[s_priv], &mut bytes);
    let mut coef = Buf::zeroed(sh.t12_gf());
    codec::unpack(&mut coef, &bytes);
    // Blocks (o·v × l²) = coefficients (o·v × l) · [S^0 … S^(l-1)] (l × l²).
    let mut blocks = Buf::zeroed(o * v * l2);
    (k.gemm_acc)(&mut blocks, l2, &coef, l, 1, &abq.s_pows, l2, o * v, l, l2);
    (k.reduce)(&mut blocks);
    let mut flat = Buf::zeroed(sh.vl() * sh.ol());
    codec::blocks_to_flat(&blocks, v, o, l, &mut flat, sh.ol(), 0);
    flat
}
