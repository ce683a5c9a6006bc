//! Encodings: GF(16) elements two per byte, low nibble first, and the conversions between
//! the reference's block-major order (matrices of l×l blocks, each block row-major) and the
//! flat row-major matrices every computation here runs on.
//!
//! Decoding is strict: when the element count is odd, the high nibble of the last byte
//! is padding and must be zero (the reference rejects such keys and signatures too). For
//! the 18 Round-3 sets every count is even (checked by a unit test), so this is a latent
//! rule, kept for safety.

use alloc::vec::Vec;

/// Packs `gf.len()` elements (each `< 16`) into `out` (`ceil(len/2)` bytes).
pub(crate) fn pack(out: &mut [u8], gf: &[u8]) {
    let n = gf.len();
    for (o, pair) in out.iter_mut().zip(gf.chunks(2)) {
        *o = if pair.len() == 2 {
            (pair[0] & 15) | (pair[1] << 4)
        } else {
            pair[0] & 15
        };
    }
    debug_assert!(out.len() >= n.div_ceil(2));
}

/// Unpacks `out.len()` elements from `bytes` (no padding check: XOF output).
pub(crate) fn unpack(out: &mut [u8], bytes: &[u8]) {
    let (pairs, rest) = out.split_at_mut(out.len() & !1);
    for (p, &b) in pairs.chunks_exact_mut(2).zip(bytes) {
        p[0] = b & 15;
        p[1] = b >> 4;
    }
    if let Some(last) = rest.first_mut() {
        *last = bytes[pairs.len() / 2] & 15;
    }
}

/// Unpacks `out.len()` elements, rejecting a non-zero padding nibble. `bytes` must have
/// exactly `ceil(out.len()/2)` bytes. Returns `false` on a bad encoding.
pub(crate) fn unpack_strict(out: &mut [u8], bytes: &[u8]) -> bool {
    if bytes.len() != out.len().div_ceil(2) {
        return false;
    }
    unpack(out, bytes);
    if out.len() & 1 == 1 {
        return bytes[bytes.len() - 1] >> 4 == 0;
    }
    true
}

/// Whether `bytes` is a well-formed packing of `n` elements: the right length and, for
/// odd `n`, a zero padding nibble.
pub(crate) fn padding_ok(bytes: &[u8], n: usize) -> bool {
    bytes.len() == n.div_ceil(2) && (n.is_multiple_of(2) || bytes[bytes.len() - 1] >> 4 == 0)
}

/// Unpacks `n` elements into a fresh vector.
pub(crate) fn unpack_vec(bytes: &[u8], n: usize) -> Vec<u8> {
    let mut v = alloc::vec![0u8; n];
    unpack(&mut v, bytes);
    v
}

/// Copies a block-major matrix of `br × bc` blocks (l×l each, row-major inside) from
/// `src` into the flat row-major `dst` (leading dimension `ld`) at element offset `off`.
pub(crate) fn blocks_to_flat(
    src: &[u8],
    br: usize,
    bc: usize,
    l: usize,
    dst: &mut [u8],
    ld: usize,
    off: usize,
) {
    match l {
        4 => blocks_to_flat_l::<4>(src, br, bc, dst, ld, off),
        5 => blocks_to_flat_l::<5>(src, br, bc, dst, ld, off),
        _ => blocks_to_flat_any(src, br, bc, l, dst, ld, off),
    }
}

/// [`blocks_to_flat`] with the block size known at compile time (fixed-size row moves
/// instead of `memmove` calls).
fn blocks_to_flat_l<const L: usize>(
    src: &[u8],
    br: usize,
    bc: usize,
    dst: &mut [u8],
    ld: usize,
    off: usize,
) {
    let src = &src[..br * bc * L * L];
    for (bi, brow) in src.chunks_exact(bc * L * L).enumerate() {
        for (bj, blk) in brow.chunks_exact(L * L).enumerate() {
            for (i, row) in blk.chunks_exact(L).enumerate() {
                let d = off + (bi * L + i) * ld + bj * L;
                let d: &mut [u8; L] = (&mut dst[d..d + L]).try_into().expect("L bytes");
                *d = row.try_into().expect("L bytes");
            }
        }
    }
}

fn blocks_to_flat_any(
    src: &[u8],
    br: usize,
    bc: usize,
    l: usize,
    dst: &mut [u8],
    ld: usize,
    off: usize,
) {
    let l2 = l * l;
    for bi in 0..br {
        for bj in 0..bc {
            let blk = &src[(bi * bc + bj) * l2..(bi * bc + bj + 1) * l2];
            for i in 0..l {
                let d = off + (bi * l + i) * ld + bj * l;
                dst[d..d + l].copy_from_slice(&blk[i * l..i * l + l]);
            }
        }
    }
}

/// Writes row `i` of `dst.len() / l` consecutive l×l blocks into `dst`: the l-element
/// pieces at `src[base + t·l²..]` (`base` already includes the row offset i·l).
pub(crate) fn block_row(dst: &mut [u8], src: &[u8], base: usize, l: usize) {
    match l {
        4 => block_row_l::<4>(dst, src, base),
        5 => block_row_l::<5>(dst, src, base),
        _ => {
            for (d, blk) in dst.chunks_exact_mut(l).zip(src[base..].chunks(l * l)) {
                d.copy_from_slice(&blk[..l]);
            }
        }
    }
}

#[inline(always)]
fn block_row_l<const L: usize>(dst: &mut [u8], src: &[u8], base: usize) {
    for (d, blk) in dst.chunks_exact_mut(L).zip(src[base..].chunks(L * L)) {
        let d: &mut [u8; L] = d.try_into().expect("L bytes");
        *d = blk[..L].try_into().expect("L bytes");
    }
}

/// The inverse of [`blocks_to_flat`].
pub(crate) fn flat_to_blocks(
    src: &[u8],
    ld: usize,
    off: usize,
    br: usize,
    bc: usize,
    l: usize,
    dst: &mut [u8],
) {
    let l2 = l * l;
    for bi in 0..br {
        for bj in 0..bc {
            let blk = &mut dst[(bi * bc + bj) * l2..(bi * bc + bj + 1) * l2];
            for i in 0..l {
                let s = off + (bi * l + i) * ld + bj * l;
                blk[i * l..i * l + l].copy_from_slice(&src[s..s + l]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snova::ParamSet;

    #[test]
    fn round3_counts_are_even() {
        for ps in ParamSet::ALL {
            let s = ps.shape();
            for n in [
                s.pk_gf(),
                s.sig_gf(),
                s.olr(),
                s.v * s.lr(),
                s.pub_gf(),
                s.t12_gf(),
            ] {
                assert_eq!(n % 2, 0, "{}", ps.name());
            }
        }
    }

    #[test]
    fn strict_padding() {
        let mut out = [0u8; 3];
        assert!(unpack_strict(&mut out, &[0x21, 0x03]));
        assert_eq!(out, [1, 2, 3]);
        assert!(!unpack_strict(&mut out, &[0x21, 0x13]));
        assert!(!unpack_strict(&mut out, &[0x21]));
    }

    #[test]
    fn blocks_roundtrip() {
        for l in [3usize, 4, 5] {
            let l2 = l * l;
            let src: Vec<u8> = (0..2 * 3 * l2).map(|i| (i % 16) as u8).collect();
            let mut flat = alloc::vec![0u8; 2 * l * 3 * l];
            blocks_to_flat(&src, 2, 3, l, &mut flat, 3 * l, 0);
            assert_eq!(flat[l], src[l2]);
            assert_eq!(flat[3 * l], src[l]);
            let mut back = alloc::vec![0u8; src.len()];
            flat_to_blocks(&flat, 3 * l, 0, 2, 3, l, &mut back);
            assert_eq!(src, back);
            // Rows appended from the block-major stream give the same flat matrix.
            let mut rows = alloc::vec![0u8; flat.len()];
            for (x, row) in rows.chunks_exact_mut(3 * l).enumerate() {
                block_row(row, &src, (x / l) * 3 * l2 + (x % l) * l, l);
            }
            assert_eq!(rows, flat, "l={l}");
        }
    }
}
