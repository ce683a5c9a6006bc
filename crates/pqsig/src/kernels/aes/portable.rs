//! Portable AES-128: bitsliced, constant time, four blocks per pass.
//!
//! No table is indexed by key or data: SubBytes is a boolean circuit (the Boyar–Peralta
//! 113-gate circuit for the AES S-box, "A depth-16 circuit for the AES S-box", ePrint
//! 2011/332) evaluated on bit planes, ShiftRows and MixColumns are fixed shifts and
//! rotations of those planes. Every operation is a `u64` XOR / AND / NOT / shift, so
//! the running time does not depend on the key or the data.
//!
//! ## State layout
//!
//! Four blocks (64 bytes) are held in eight `u64` bit planes `q[0..8]`; `q[b]` holds bit
//! `b` of every byte. Byte `p = r + 4c` (row `r`, column `c`, FIPS-197 order) of block
//! `k` (0..4) sits at bit position
//!
//! ```text
//! 16·r + 4·c + k
//! ```
//!
//! so a row is one 16-bit field (four columns of four blocks). With that:
//! * ShiftRows would rotate the 16-bit field of row r right by 4·r bits; the rounds
//!   never do it, they let the rows drift and fold the drift into MixColumns and the
//!   round keys (see [`mix_columns`]);
//! * MixColumns needs "the byte one row down" for every byte: the whole plane rotated
//!   right by 16 bits;
//! * AddRoundKey XORs planes of the round key, replicated over the four blocks.
//!
//! Getting bytes into planes is an 8×8 bit transpose per byte lane of eight words
//! ([`transpose`], three swap-move stages, its own inverse) after a byte permutation
//! that puts row/column/block where the transpose leaves them ([`load4`], [`store4`]).

use zeroize::Zeroize;

/// Eight bit planes of four AES states.
type Planes = [u64; 8];

/// Bitsliced round keys: each FIPS-197 round key in [`Planes`] form, replicated over
/// the four block slots. Zeroized on drop.
#[derive(Clone)]
pub(crate) struct BitslicedKeys {
    q: [Planes; 11],
}

impl Drop for BitslicedKeys {
    fn drop(&mut self) {
        self.q.zeroize();
    }
}

impl BitslicedKeys {
    /// Bitslices the FIPS-197 round keys `rk`. Round key `k` is stored in the frame
    /// the state has in round `k` (see [`mix_columns`]): logical column `c` of row `r`
    /// at physical column `c + r·k`, i.e. ShiftRows applied `−k mod 4` times.
    pub(crate) fn new(rk: &[[u8; 16]; 11]) -> Self {
        let mut q = [[0u64; 8]; 11];
        for (k, (dst, key)) in q.iter_mut().zip(rk.iter()).enumerate() {
            *dst = load4(&[*key; 4]);
            for _ in 0..(4 - k % 4) % 4 {
                shift_rows(dst);
            }
        }
        BitslicedKeys { q }
    }
}

/// The AES S-box on all 64 byte slots of `q` at once (`q[0]` = least significant bit).
///
/// Boyar–Peralta: a linear layer from the 8 input bits to 22 intermediate signals, a
/// non-linear core (32 ANDs) computing the GF(2⁸) inversion in a tower field, and a
/// linear layer back to the 8 output bits (4 of them complemented: the S-box's affine
/// constant 0x63). Signal names follow the paper (`u0` is the most significant bit).
#[inline(always)]
fn sub_bytes(q: &mut Planes) {
    let (u0, u1, u2, u3) = (q[7], q[6], q[5], q[4]);
    let (u4, u5, u6, u7) = (q[3], q[2], q[1], q[0]);

    // Top linear layer.
    let y14 = u3 ^ u5;
    let y13 = u0 ^ u6;
    let y9 = u0 ^ u3;
    let y8 = u0 ^ u5;
    let t0 = u1 ^ u2;
    let y1 = t0 ^ u7;
    let y4 = y1 ^ u3;
    let y12 = y13 ^ y14;
    let y2 = y1 ^ u0;
    let y5 = y1 ^ u6;
    let y3 = y5 ^ y8;
    let t1 = u4 ^ y12;
    let y15 = t1 ^ u5;
    let y20 = t1 ^ u1;
    let y6 = y15 ^ u7;
    let y10 = y15 ^ t0;
    let y11 = y20 ^ y9;
    let y7 = u7 ^ y11;
    let y17 = y10 ^ y11;
    let y19 = y10 ^ y8;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let y18 = u0 ^ y16;

    // Non-linear core: products of pairs, then the GF(16) inversion, then products
    // with the inverse.
    let t2 = y12 & y15;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t5 = y4 & u7;
    let t6 = t5 ^ t2;
    let t7 = y13 & y16;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t12 = y9 & y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let t17 = t4 ^ t14;
    let t18 = t6 ^ t16;
    let t19 = t9 ^ t14;
    let t20 = t11 ^ t16;
    let t21 = t17 ^ y20;
    let t22 = t18 ^ y19;
    let t23 = t19 ^ y21;
    let t24 = t20 ^ y18;

    let t25 = t21 ^ t22;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let t30 = t23 ^ t24;
    let t31 = t22 ^ t26;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t34 = t23 ^ t33;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t37 = t36 ^ t34;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;

    let t41 = t40 ^ t37;
    let t42 = t29 ^ t33;
    let t43 = t29 ^ t40;
    let t44 = t33 ^ t37;
    let t45 = t42 ^ t41;
    let z0 = t44 & y15;
    let z1 = t37 & y6;
    let z2 = t33 & u7;
    let z3 = t43 & y16;
    let z4 = t40 & y1;
    let z5 = t29 & y7;
    let z6 = t42 & y11;
    let z7 = t45 & y17;
    let z8 = t41 & y10;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z11 = t33 & y4;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z14 = t29 & y2;
    let z15 = t42 & y9;
    let z16 = t45 & y14;
    let z17 = t41 & y8;

    // Bottom linear layer.
    let tc1 = z15 ^ z16;
    let tc2 = z10 ^ tc1;
    let tc3 = z9 ^ tc2;
    let tc4 = z0 ^ z2;
    let tc5 = z1 ^ z0;
    let tc6 = z3 ^ z4;
    let tc7 = z12 ^ tc4;
    let tc8 = z7 ^ tc6;
    let tc9 = z8 ^ tc7;
    let tc10 = tc8 ^ tc9;
    let tc11 = tc6 ^ tc5;
    let tc12 = z3 ^ z5;
    let tc13 = z13 ^ tc1;
    let tc14 = tc4 ^ tc12;
    let s3 = tc3 ^ tc11;
    let tc16 = z6 ^ tc8;
    let tc17 = z14 ^ tc10;
    let tc18 = tc13 ^ tc14;
    let s7 = !(z12 ^ tc18);
    let tc20 = z15 ^ tc16;
    let tc21 = tc2 ^ z11;
    let s0 = tc3 ^ tc16;
    let s6 = !(tc10 ^ tc18);
    let s4 = tc14 ^ s3;
    let s1 = !(s3 ^ tc16);
    let tc26 = tc17 ^ tc20;
    let s2 = !(tc26 ^ z17);
    let s5 = tc21 ^ tc17;

    *q = [s7, s6, s5, s4, s3, s2, s1, s0];
}

/// ShiftRows: row r (bits 16r..16r+16) rotated so that new column c is old column
/// c + r (mod 4), i.e. the 16-bit field rotated right by 4r bits. Only used outside the
/// round loop (round keys, final fix-up): the rounds track the row offsets instead.
#[inline(always)]
fn shift_rows(q: &mut Planes) {
    for x in q.iter_mut() {
        let v = *x;
        *x = (v & 0x0000_0000_0000_FFFF)
            | ((v & 0x0000_0000_FFF0_0000) >> 4)
            | ((v & 0x0000_0000_000F_0000) << 12)
            | ((v & 0x0000_FF00_0000_0000) >> 8)
            | ((v & 0x0000_00FF_0000_0000) << 8)
            | ((v & 0xF000_0000_0000_0000) >> 12)
            | ((v & 0x0FFF_0000_0000_0000) << 4);
    }
}

/// Every 16-bit field of `y` rotated right by `4·t` bits (column `p + t` to `p`). `t`
/// is a compile-time constant at every call (inlined), so the match folds away.
#[inline(always)]
fn rotate_fields(y: u64, t: usize) -> u64 {
    match t % 4 {
        0 => y,
        1 => ((y >> 4) & 0x0FFF_0FFF_0FFF_0FFF) | ((y << 12) & 0xF000_F000_F000_F000),
        2 => ((y >> 8) & 0x00FF_00FF_00FF_00FF) | ((y << 8) & 0xFF00_FF00_FF00_FF00),
        _ => ((y >> 12) & 0x000F_000F_000F_000F) | ((y << 4) & 0xFFF0_FFF0_FFF0_FFF0),
    }
}

/// ShiftRows + MixColumns of round `t` (mod 4), with ShiftRows never executed.
///
/// Lazy ShiftRows: instead of moving bytes, the rounds let row `r` drift: after `t`
/// rounds, logical column `c` of row `r` sits at physical column `c + r·t` (mod 4).
/// SubBytes and AddRoundKey do not care where a byte is (the round keys are stored in
/// the same drifted frame, [`BitslicedKeys::new`]); MixColumns needs, at every byte,
/// the byte of the same logical column one row down, which is one row down and `t`
/// columns over for every row (row 3 → row 0 included, as 4t ≡ 0): the plane rotated
/// right by 16 bits, then each 16-bit field by `4t` bits. With `a₁` that neighbour:
/// out = 2·(a ⊕ a₁) ⊕ a₁ ⊕ (a ⊕ a₁)₂ where `x₂` is two rows down (rotate by 32, then
/// fields by `8t`); the doubling in GF(2⁸) (x⁸ = x⁴ + x³ + x + 1) moves planes up by
/// one and folds plane 7 into planes 0, 1, 3, 4.
#[inline(always)]
fn mix_columns<const T: usize>(q: &mut Planes) {
    let a = *q;
    let a1: Planes = core::array::from_fn(|b| rotate_fields(a[b].rotate_right(16), T));
    let t: Planes = core::array::from_fn(|b| a[b] ^ a1[b]);
    let hi = t[7];
    let t2 = [hi, t[0] ^ hi, t[1], t[2] ^ hi, t[3] ^ hi, t[4], t[5], t[6]];
    for b in 0..8 {
        q[b] = t2[b] ^ a1[b] ^ rotate_fields(t[b].rotate_right(32), 2 * T);
    }
}

#[inline(always)]
fn add_round_key(q: &mut Planes, k: &Planes) {
    for (x, y) in q.iter_mut().zip(k.iter()) {
        *x ^= y;
    }
}

/// One swap-move: exchanges the bits of `lo` selected by `mask << s` with the bits of
/// `hi` selected by `mask`.
#[inline(always)]
fn swap_move(lo: &mut u64, hi: &mut u64, mask: u64, s: u32) {
    let t = ((*lo >> s) ^ *hi) & mask;
    *hi ^= t;
    *lo ^= t << s;
}

/// 8×8 bit transpose in every byte lane of eight words: afterwards bit `j` of byte
/// `k` of word `b` is the former bit `b` of byte `k` of word `j`. Its own inverse.
#[inline(always)]
fn transpose(w: &mut [u64; 8]) {
    for (s, mask) in [
        (1u32, 0x5555_5555_5555_5555u64),
        (2, 0x3333_3333_3333_3333),
        (4, 0x0F0F_0F0F_0F0F_0F0F),
    ] {
        let step = s as usize;
        for i in 0..8 {
            if i & step == 0 {
                let (a, b) = w.split_at_mut(i + step);
                swap_move(&mut a[i], &mut b[0], mask, s);
            }
        }
    }
}

/// The four low bytes of `x` spread to the even bytes of a word.
#[inline(always)]
fn spread_even(x: u32) -> u64 {
    let mut y = x as u64;
    y = (y | (y << 16)) & 0x0000_FFFF_0000_FFFF;
    (y | (y << 8)) & 0x00FF_00FF_00FF_00FF
}

/// The even bytes of `x` gathered into a `u32` (inverse of [`spread_even`]).
#[inline(always)]
fn gather_even(x: u64) -> u32 {
    let mut y = x & 0x00FF_00FF_00FF_00FF;
    y = (y | (y >> 8)) & 0x0000_FFFF_0000_FFFF;
    (y | (y >> 16)) as u32
}

/// Four 16-byte blocks into planes.
///
/// The transpose sends bit `b` of byte `k` of word `j` to bit position `8k + j` of
/// plane `b`; the layout wants byte `r + 4c` of block `blk` at `16r + 4c + blk`, so
/// word `j = 4·(c mod 2) + blk` gets, at byte `k = 2r + c/2`, that state byte. Per
/// block: word `blk` holds columns 0 and 2 (even bytes: column 0, odd bytes: column 2),
/// word `blk + 4` columns 1 and 3.
#[inline(always)]
fn load4(blocks: &[[u8; 16]; 4]) -> Planes {
    let mut w = [0u64; 8];
    for (k, blk) in blocks.iter().enumerate() {
        let c0 = u32::from_le_bytes([blk[0], blk[1], blk[2], blk[3]]);
        let c1 = u32::from_le_bytes([blk[4], blk[5], blk[6], blk[7]]);
        let c2 = u32::from_le_bytes([blk[8], blk[9], blk[10], blk[11]]);
        let c3 = u32::from_le_bytes([blk[12], blk[13], blk[14], blk[15]]);
        w[k] = spread_even(c0) | (spread_even(c2) << 8);
        w[k + 4] = spread_even(c1) | (spread_even(c3) << 8);
    }
    transpose(&mut w);
    w
}

/// Planes back into four 16-byte blocks (inverse of [`load4`]), written to `out`.
#[inline(always)]
fn store4(mut q: Planes, out: &mut [u8; 64]) {
    transpose(&mut q);
    for k in 0..4 {
        let (a, b) = (q[k], q[k + 4]);
        let lo = gather_even(a) as u64 | ((gather_even(b) as u64) << 32);
        let hi = gather_even(a >> 8) as u64 | ((gather_even(b >> 8) as u64) << 32);
        out[16 * k..16 * k + 8].copy_from_slice(&lo.to_le_bytes());
        out[16 * k + 8..16 * k + 16].copy_from_slice(&hi.to_le_bytes());
    }
}

/// One full round `K` (1..=9): SubBytes, (lazy) ShiftRows, MixColumns, AddRoundKey.
#[inline(always)]
fn round<const K: usize>(keys: &BitslicedKeys, q: &mut Planes) {
    sub_bytes(q);
    mix_columns::<K>(q);
    add_round_key(q, &keys.q[K]);
}

/// AES-128 rounds on four states (in planes).
#[inline(always)]
fn rounds(keys: &BitslicedKeys, q: &mut Planes) {
    add_round_key(q, &keys.q[0]);
    round::<1>(keys, q);
    round::<2>(keys, q);
    round::<3>(keys, q);
    round::<4>(keys, q);
    round::<5>(keys, q);
    round::<6>(keys, q);
    round::<7>(keys, q);
    round::<8>(keys, q);
    round::<9>(keys, q);
    sub_bytes(q);
    add_round_key(q, &keys.q[10]);
    // Ten ShiftRows were skipped: the state's rows drifted by 10·r ≡ 2r columns; two
    // real ShiftRows bring them back.
    shift_rows(q);
    shift_rows(q);
}

/// Encrypts four blocks into `out` (64 bytes).
fn encrypt4(keys: &BitslicedKeys, blocks: &[[u8; 16]; 4], out: &mut [u8; 64]) {
    let mut q = load4(blocks);
    rounds(keys, &mut q);
    store4(q, out);
}

/// Encrypts `blocks` in place, four at a time (the last group zero-padded).
pub(crate) fn encrypt_blocks(keys: &BitslicedKeys, blocks: &mut [[u8; 16]]) {
    for group in blocks.chunks_mut(4) {
        let mut inp = [[0u8; 16]; 4];
        inp[..group.len()].copy_from_slice(group);
        let mut out = [0u8; 64];
        encrypt4(keys, &inp, &mut out);
        for (dst, src) in group.iter_mut().zip(out.chunks_exact(16)) {
            dst.copy_from_slice(src);
        }
        out.zeroize();
        inp.zeroize();
    }
}

/// The four counter blocks `0¹² ‖ BE32(ctr + k)`, k = 0..4 (wrapping).
#[inline(always)]
fn counter_blocks(ctr: u32) -> [[u8; 16]; 4] {
    core::array::from_fn(|k| {
        let mut b = [0u8; 16];
        b[12..].copy_from_slice(&ctr.wrapping_add(k as u32).to_be_bytes());
        b
    })
}

/// CTR keystream: block `i` of `out` = AES(0¹² ‖ BE32(ctr0 + i)), the last block
/// truncated.
pub(crate) fn ctr(keys: &BitslicedKeys, ctr0: u32, out: &mut [u8]) {
    let mut ctr = ctr0;
    let mut chunks = out.chunks_exact_mut(64);
    for chunk in &mut chunks {
        let chunk: &mut [u8; 64] = chunk.try_into().expect("64-byte chunk");
        encrypt4(keys, &counter_blocks(ctr), chunk);
        ctr = ctr.wrapping_add(4);
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let mut tmp = [0u8; 64];
        encrypt4(keys, &counter_blocks(ctr), &mut tmp);
        rest.copy_from_slice(&tmp[..rest.len()]);
        tmp.zeroize();
    }
}

/// The S-box on each byte of a 32-bit word, in constant time (the circuit on a single
/// plane set: byte `k` of the word in bits `8k..8k+8` of nothing fancier than plane
/// bit `k`).
fn sub_word(w: u32) -> u32 {
    let bytes = w.to_le_bytes();
    let mut q = [0u64; 8];
    for (b, plane) in q.iter_mut().enumerate() {
        for (k, byte) in bytes.iter().enumerate() {
            *plane |= (((*byte >> b) & 1) as u64) << k;
        }
    }
    sub_bytes(&mut q);
    let mut out = [0u8; 4];
    for (b, plane) in q.iter().enumerate() {
        for (k, byte) in out.iter_mut().enumerate() {
            *byte |= (((*plane >> k) & 1) as u8) << b;
        }
    }
    q.zeroize();
    u32::from_le_bytes(out)
}

/// The AES round constants (x^(i-1) in GF(2⁸)), i = 1..=10.
pub(crate) const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1B, 0x36];

/// FIPS-197 key expansion (§5.2) for AES-128, constant time (S-box by circuit).
/// Round key `i` is words `w[4i..4i+4]`, bytes in FIPS order.
pub(crate) fn expand_key(key: &[u8; 16]) -> [[u8; 16]; 11] {
    let mut rk = [[0u8; 16]; 11];
    rk[0] = *key;
    let mut w: [u32; 4] = core::array::from_fn(|i| {
        u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]])
    });
    for (round, rcon) in RCON.iter().enumerate() {
        // RotWord on FIPS byte order = rotate the little-endian word right by 8.
        let t = sub_word(w[3].rotate_right(8)) ^ (*rcon as u32);
        w[0] ^= t;
        w[1] ^= w[0];
        w[2] ^= w[1];
        w[3] ^= w[2];
        for (i, word) in w.iter().enumerate() {
            rk[round + 1][4 * i..4 * i + 4].copy_from_slice(&word.to_le_bytes());
        }
    }
    w.zeroize();
    rk
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The S-box by definition: inversion in GF(2⁸) (x^254) then the affine map.
    fn sbox_reference(x: u8) -> u8 {
        fn mul(mut a: u8, mut b: u8) -> u8 {
            let mut r = 0u8;
            while b != 0 {
                if b & 1 != 0 {
                    r ^= a;
                }
                let hi = a & 0x80;
                a <<= 1;
                if hi != 0 {
                    a ^= 0x1B;
                }
                b >>= 1;
            }
            r
        }
        let mut inv = 1u8;
        for _ in 0..254 {
            inv = mul(inv, x);
        }
        let mut s = inv;
        for k in 1..5 {
            s ^= inv.rotate_left(k);
        }
        s ^ 0x63
    }

    #[test]
    fn circuit_is_the_sbox() {
        for x in 0..=255u8 {
            let w = u32::from_le_bytes([x, x ^ 0x5A, x.wrapping_mul(7), !x]);
            let got = sub_word(w).to_le_bytes();
            assert_eq!(got[0], sbox_reference(x), "x = {x:#04x}");
            assert_eq!(got[1], sbox_reference(x ^ 0x5A));
            assert_eq!(got[2], sbox_reference(x.wrapping_mul(7)));
            assert_eq!(got[3], sbox_reference(!x));
        }
    }

    #[test]
    fn load_store_round_trip() {
        let blocks: [[u8; 16]; 4] =
            core::array::from_fn(|k| core::array::from_fn(|i| (k * 16 + i) as u8 ^ 0xA5));
        let q = load4(&blocks);
        // Byte r + 4c of block k, bit b, is at plane b position 16r + 4c + k.
        for (k, blk) in blocks.iter().enumerate() {
            for (p, byte) in blk.iter().enumerate() {
                let (r, c) = (p % 4, p / 4);
                for (b, plane) in q.iter().enumerate() {
                    assert_eq!(
                        (plane >> (16 * r + 4 * c + k)) & 1,
                        ((byte >> b) & 1) as u64
                    );
                }
            }
        }
        let mut out = [0u8; 64];
        store4(q, &mut out);
        assert_eq!(out.as_slice(), blocks.concat().as_slice());
    }

    #[test]
    fn fips197_appendix_a1_key_expansion() {
        let key = [
            0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf,
            0x4f, 0x3c,
        ];
        let rk = expand_key(&key);
        assert_eq!(
            rk[10],
            [
                0xd0, 0x14, 0xf9, 0xa8, 0xc9, 0xee, 0x25, 0x89, 0xe1, 0x3f, 0x0c, 0xc8, 0xb6, 0x63,
                0x0c, 0xa6
            ]
        );
    }
}
