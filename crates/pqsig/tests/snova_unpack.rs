//! Packed block decoding (`kernels::gf16::unpack::blocks_into_rows`): every available
//! backend (AVX-512 VBMI permutes where present, SWAR otherwise) against a naive
//! per-nibble reference, on random bytes, for every shape the 18 SNOVA sets use (block
//! rows of v or o blocks, l ∈ {4,5}, at the nibble offsets of P11/P12/P21 in the XOF
//! stream and of P22 in the key), plus odd offsets for l = 5, source slices cut at the
//! last needed byte and destination slices cut at the last written element with
//! sentinels around the written runs (nothing else may change).

use pqsig::kernels::gf16::unpack::{blocks_into_rows, portable_blocks_into_rows};
use pqsig::snova::ParamSet;
use pqsig::Backend;

mod common;
use common::XorShift as Rng;

// A backend this CPU lacks shows as an ignored `coverage` test.
coverage_tests!();

fn naive(rows: &mut [u8], ld: usize, col: usize, bytes: &[u8], nib: usize, count: usize, l: usize) {
    for t in 0..count {
        for i in 0..l {
            for j in 0..l {
                let e = nib + t * l * l + i * l + j;
                rows[i * ld + col + t * l + j] = (bytes[e / 2] >> (4 * (e & 1))) & 15;
            }
        }
    }
}

fn case(rng: &mut Rng, l: usize, count: usize, nib: usize, col: usize, extra_ld: usize) {
    let need = (nib + count * l * l).div_ceil(2);
    // Source cut at the last needed byte.
    let bytes = rng.bytes(need);
    let ld = col + count * l + extra_ld;
    let len = (l - 1) * ld + col + count * l;
    let init = rng.bytes(len);
    let mut want = init.clone();
    naive(&mut want, ld, col, &bytes, nib, count, l);
    let mut port = init.clone();
    portable_blocks_into_rows(&mut port, ld, col, &bytes, nib, count, l);
    assert_eq!(
        port, want,
        "portable l={l} count={count} nib={nib} col={col}"
    );
    for b in Backend::available() {
        let mut got = init.clone();
        blocks_into_rows(b, &mut got, ld, col, &bytes, nib, count, l);
        assert_eq!(
            got, want,
            "{b:?} l={l} count={count} nib={nib} col={col} ld={ld}"
        );
    }
}

#[test]
fn all_set_shapes() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for ps in ParamSet::ALL {
        let (v, o, l, m1) = (ps.v(), ps.o(), ps.l(), ps.m1());
        let l2 = l * l;
        let p12 = m1 * v * v * l2;
        let p21 = p12 + m1 * v * o * l2;
        // Block rows as the expansion reads them (offsets within the stream; the source
        // is generated up to exactly the needed end, so the last block row of each
        // matrix also exercises the tail).
        for mi in 0..m1 {
            for bi in [0, v / 2, v - 1] {
                case(&mut rng, l, v, (mi * v + bi) * v * l2, mi * v * l, 0);
                case(&mut rng, l, o, p12 + (mi * v + bi) * o * l2, mi * o * l, 3);
            }
            for bi in [0, o - 1] {
                case(&mut rng, l, v, p21 + (mi * o + bi) * v * l2, 0, 7);
                case(&mut rng, l, o, (mi * o + bi) * o * l2, v * l, 1);
            }
        }
    }
}

#[test]
fn odd_offsets_and_small_counts() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for l in [4usize, 5] {
        for count in 0..=45 {
            for nib in [0usize, 1, 2, 3, 50, 51] {
                case(&mut rng, l, count, nib, count % 3, count % 5);
            }
        }
    }
}
