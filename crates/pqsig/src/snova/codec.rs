//! Encodings: GF(16) elements two per byte, low nibble first, and the conversions between
//! the reference's block-major order (matrices of l×l blocks, each block row-major) and the
//! flat row-major matrices every computation here runs on.
//!
//! Decoding is strict: when the element count is odd, the high nibble of the last byte
//! is padding and must be zero (the reference rejects such keys and signatures too). For
//! the 18 Round-3 sets every count is even (checked by a unit test), so this is a latent
//! rule, kept for safety.

use crate::kernels::gf16::unpack;
use crate::kernels::select::Backend;
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

#[cfg(test)]
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

#[cfg(test)]
#[inline(always)]
fn block_row_l<const L: usize>(dst: &mut [u8], src: &[u8], base: usize) {
    for (d, blk) in dst.chunks_exact_mut(L).zip(src[base..].chunks(L * L)) {
        let d: &mut [u8; L] = d.try_into().expect("L bytes");
        *d = blk[..L].try_into().expect("L bytes");
    }
}

#[cfg(test)]
/// [`block_row`] reading straight from packed bytes (two nibbles per byte, low first):
/// piece t is the l nibbles from nibble `nib + t·l²` of `bytes`. No unpacked copy of the
/// stream is made (for the larger sets that copy alone is 200–300 KB).
pub(crate) fn packed_block_row(dst: &mut [u8], bytes: &[u8], nib: usize, l: usize) {
    match l {
        4 if nib.is_multiple_of(2) => {
            for (d, blk) in dst.chunks_exact_mut(4).zip(bytes[nib / 2..].chunks(8)) {
                let x = u16::from_le_bytes([blk[0], blk[1]]) as u32;
                let v = (x & 0xf) | ((x & 0xf0) << 4) | ((x & 0xf00) << 8) | ((x & 0xf000) << 12);
                d.copy_from_slice(&v.to_le_bytes());
            }
        }
        5 => {
            for (t, d) in dst.chunks_exact_mut(5).enumerate() {
                let q = nib + t * 25;
                let b = q / 2;
                // Five nibbles from q: at most three bytes (plus one of slack if present).
                let w = match bytes.get(b..b + 4) {
                    Some(w) => [w[0], w[1], w[2], w[3]],
                    None => {
                        let mut w = [0u8; 4];
                        for (d, &x) in w.iter_mut().zip(&bytes[b..]) {
                            *d = x;
                        }
                        w
                    }
                };
                let x = u32::from_le_bytes(w) >> (4 * (q & 1));
                let d: &mut [u8; 5] = d.try_into().expect("5 bytes");
                *d = [
                    (x & 15) as u8,
                    ((x >> 4) & 15) as u8,
                    ((x >> 8) & 15) as u8,
                    ((x >> 12) & 15) as u8,
                    ((x >> 16) & 15) as u8,
                ];
            }
        }
        _ => {
            for (t, d) in dst.chunks_exact_mut(l).enumerate() {
                for (j, e) in d.iter_mut().enumerate() {
                    let q = nib + t * l * l + j;
                    *e = (bytes[q / 2] >> (4 * (q & 1))) & 15;
                }
            }
        }
    }
}

/// Decodes `count` consecutive l×l blocks, starting at nibble `nib` of the packed
/// `bytes`, into the l rows `rows[i·ld + col + t·l ..][..l]` (block t, row i): one block
/// row of a block-major matrix, read once and written as l flat rows. The kernel
/// ([`crate::kernels::gf16::unpack`]: SIMD on AVX-512 VBMI, SWAR elsewhere) is picked by
/// the backend `b`; the data is public.
#[allow(clippy::too_many_arguments)]
pub(crate) fn packed_blocks_into_rows(
    b: Backend,
    rows: &mut [u8],
    ld: usize,
    col: usize,
    bytes: &[u8],
    nib: usize,
    count: usize,
    l: usize,
) {
    unpack::blocks_into_rows(b, rows, ld, col, bytes, nib, count, l);
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
            // Straight from packed bytes, at an even and an odd nibble offset.
            for shift in [0usize, 1] {
                let mut nibs = alloc::vec![0u8; shift];
                nibs.extend_from_slice(&src);
                let mut bytes = alloc::vec![0u8; nibs.len().div_ceil(2)];
                pack(&mut bytes, &nibs);
                let mut rows2 = alloc::vec![0xAAu8; flat.len()];
                for (x, row) in rows2.chunks_exact_mut(3 * l).enumerate() {
                    packed_block_row(row, &bytes, shift + (x / l) * 3 * l2 + (x % l) * l, l);
                }
                assert_eq!(rows2, flat, "l={l} shift={shift}");
                for be in Backend::available() {
                    let mut rows3 = alloc::vec![0xAAu8; flat.len()];
                    for bi in 0..2 {
                        packed_blocks_into_rows(
                            be,
                            &mut rows3[bi * l * 3 * l..],
                            3 * l,
                            0,
                            &bytes,
                            shift + bi * 3 * l2,
                            3,
                            l,
                        );
                    }
                    assert_eq!(rows3, flat, "l={l} shift={shift} {be:?} (block rows)");
                }
            }
        }
    }
}
