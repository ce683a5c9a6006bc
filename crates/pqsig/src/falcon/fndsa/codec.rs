//! FN-DSA (draft) byte encodings: every bit stream here is little-endian (the first value
//! sits in the low bits of the first byte). DRAFT: FIPS 206 may change all of it.
//!
//! * 14-bit packing of h (verifying key);
//! * w-bit two's-complement packing of small polynomials (f, g, F in the signing key);
//! * the compressed form of s2 (signature), with the L∞ bound [`B_INF`] and canonical
//!   decoding (no "-0", zero padding bits and bytes).
//!
//! Decoders never panic: a short or malformed buffer is reported as `None` / `false`.

use super::params::{B_INF, Q};

/// Packs `h` (every value `< q`, `h.len()` a multiple of 4) on 14 bits per value into
/// `out[..7·len/4]`; returns that length.
pub fn modq_encode(h: &[u16], out: &mut [u8]) -> usize {
    let mut j = 0;
    for quad in h.chunks_exact(4) {
        let x = quad[0] as u64
            | (quad[1] as u64) << 14
            | (quad[2] as u64) << 28
            | (quad[3] as u64) << 42;
        out[j..j + 7].copy_from_slice(&x.to_le_bytes()[..7]);
        j += 7;
    }
    j
}

/// Unpacks `h.len()` (a multiple of 4) 14-bit values from `buf`, which must be exactly
/// `7·len/4` bytes long. `None` if the length is wrong or a value is `≥ q`.
pub fn modq_decode(buf: &[u8], h: &mut [u16]) -> Option<()> {
    if !h.len().is_multiple_of(4) || buf.len() != 7 * (h.len() / 4) {
        return None;
    }
    // Public data: an early exit is fine, but a single flag keeps the loop simple.
    let mut bad = 0u32;
    for (quad, bytes) in h.chunks_exact_mut(4).zip(buf.chunks_exact(7)) {
        let mut w = [0u8; 8];
        w[..7].copy_from_slice(bytes);
        let x = u64::from_le_bytes(w);
        for (k, v) in quad.iter_mut().enumerate() {
            let c = ((x >> (14 * k)) & 0x3FFF) as u32;
            // c >= q  <=>  (q - 1 - c) wraps.
            bad |= (Q - 1).wrapping_sub(c) >> 31;
            *v = c as u16;
        }
    }
    if bad != 0 {
        None
    } else {
        Some(())
    }
}

/// Packs the signed values `x` on `bits` bits each (two's complement, truncated to the
/// low `bits` bits) into `out`; `x.len()·bits` must be a multiple of 8. Returns the
/// number of bytes written. Constant-time in the values.
pub fn trim_i8_encode(x: &[i8], bits: u32, out: &mut [u8]) -> usize {
    let mask = (1u32 << bits) - 1;
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut j = 0;
    for &v in x {
        acc |= ((v as u8 as u32) & mask) << acc_len;
        acc_len += bits;
        while acc_len >= 8 {
            out[j] = acc as u8;
            j += 1;
            acc >>= 8;
            acc_len -= 8;
        }
    }
    j
}

/// True if every value of `x` fits `bits` bits in the encoding of [`trim_i8_encode`]
/// (i.e. lies in `[-(2^(bits-1) - 1), 2^(bits-1) - 1]`). Constant-time.
pub fn trim_i8_fits(x: &[i8], bits: u32) -> bool {
    let lim = (1i32 << (bits - 1)) - 1;
    let mut bad = 0i32;
    for &v in x {
        let v = v as i32;
        bad |= (lim - v) | (lim + v);
    }
    bad >= 0
}

/// Unpacks `x.len()` values of `bits` bits (2..=8) from the front of `buf`. Returns the
/// number of bytes read, or `None` if `buf` is too short or a value is `-2^(bits-1)`
/// (the one code the encoder never produces). Only the validity flag depends on the
/// data (the key is rejected as a whole).
pub fn trim_i8_decode(buf: &[u8], x: &mut [i8], bits: u32) -> Option<usize> {
    let total_bits = x.len() * bits as usize;
    if !total_bits.is_multiple_of(8) || !(2..=8).contains(&bits) {
        return None;
    }
    let need = total_bits / 8;
    if buf.len() < need {
        return None;
    }
    let mask = (1u32 << bits) - 1;
    let sign = 1u32 << (bits - 1);
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut bad = 0u32;
    let mut i = 0;
    for &b in &buf[..need] {
        acc |= (b as u32) << acc_len;
        acc_len += 8;
        while acc_len >= bits {
            let w = acc & mask;
            acc >>= bits;
            acc_len -= bits;
            bad |= ((w ^ sign).wrapping_sub(1) >> 31) & 1;
            // Sign-extend from `bits` bits.
            let v = (w | (w & sign).wrapping_neg()) as i32;
            x[i] = v as i8;
            i += 1;
        }
    }
    if bad != 0 {
        None
    } else {
        Some(need)
    }
}

/// Compressed encoding of s2 into the whole of `out` (zero padding after the last
/// value). Per value: sign bit, the 7 low bits of |x| (low bit first), then `|x| >> 7`
/// zeros and a one. Returns false if some |x| > [`B_INF`] or the encoding does not fit.
///
/// Signatures are public, but s2 is not yet public while we try to encode it; the only
/// data-dependent branch is the length check (whether the candidate fits), which the
/// signer reveals anyway by restarting.
pub fn comp_encode(s: &[i16], out: &mut [u8]) -> bool {
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut j = 0;
    let mut over = 0i32;
    for &v in s {
        let x = v as i32;
        let neg = (x >> 31) as u32; // all ones if x < 0
        let w = ((x as u32) ^ neg).wrapping_sub(neg); // |x|
        over |= B_INF - w as i32;
        // |x| <= 840 < 7·128, so the unary part has at most 6 zeros; clamp anyway so an
        // out-of-range value (rejected below) cannot overflow the accumulator.
        let hi = (w >> 7) & 7;
        acc |= ((neg & 1) | ((w & 0x7F) << 1)) << acc_len;
        acc_len += 8;
        acc |= 1 << (acc_len + hi);
        acc_len += hi + 1;
        while acc_len >= 8 {
            if j >= out.len() {
                return false;
            }
            out[j] = acc as u8;
            j += 1;
            acc >>= 8;
            acc_len -= 8;
        }
    }
    if over < 0 {
        return false;
    }
    if acc_len > 0 {
        if j >= out.len() {
            return false;
        }
        out[j] = acc as u8;
        j += 1;
    }
    out[j..].fill(0);
    true
}

/// Strict decoding of [`comp_encode`]'s format: fills `s` from `buf`, and requires every
/// value in `[-B_INF, B_INF]`, no "-0", and all bits after the last value (in its byte
/// and in every following byte) to be zero. Returns false otherwise.
pub fn comp_decode(buf: &[u8], s: &mut [i16]) -> bool {
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut j = 0;
    for v in s.iter_mut() {
        // Invariant: acc_len <= 7 here; one more byte gives sign + 7 low bits.
        let Some(&b) = buf.get(j) else {
            return false;
        };
        j += 1;
        acc |= (b as u32) << acc_len;
        let neg = acc & 1;
        let mut m = (acc >> 1) & 0x7F;
        acc >>= 8;
        // acc_len unchanged: 8 bits in, 8 bits out.
        // The unary part: at most 6 zeros (|x| <= 840) then a one, so at most one more
        // byte is needed to find it.
        if acc == 0 {
            let Some(&b) = buf.get(j) else {
                return false;
            };
            j += 1;
            acc = (b as u32) << acc_len;
            acc_len += 8;
            if acc == 0 {
                return false;
            }
        }
        let tz = acc.trailing_zeros();
        m += tz << 7;
        if m > B_INF as u32 {
            return false;
        }
        acc >>= tz + 1;
        acc_len -= tz + 1;
        if neg == 1 && m == 0 {
            return false; // "-0"
        }
        *v = if neg == 1 { -(m as i16) } else { m as i16 };
    }
    if acc != 0 {
        return false;
    }
    buf[j..].iter().all(|&b| b == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn modq_round_trip() {
        let mut st = 0x1234_5678_9abc_def1u64;
        for logn in 2..=10 {
            let n = 1usize << logn;
            let h: Vec<u16> = (0..n).map(|_| (rng(&mut st) % Q as u64) as u16).collect();
            let mut buf = vec![0u8; 7 * n / 4];
            assert_eq!(modq_encode(&h, &mut buf), buf.len());
            let mut h2 = vec![0u16; n];
            assert!(modq_decode(&buf, &mut h2).is_some());
            assert_eq!(h, h2);
            // A value of q is rejected.
            let mut bad = h.clone();
            bad[n - 1] = Q as u16;
            modq_encode(&bad, &mut buf);
            assert!(modq_decode(&buf, &mut h2).is_none());
            assert!(modq_decode(&buf[1..], &mut h2).is_none());
        }
    }

    #[test]
    fn trim_round_trip() {
        let mut st = 99u64;
        for bits in 5..=8u32 {
            let lim = (1i32 << (bits - 1)) - 1;
            let x: Vec<i8> = (0..64)
                .map(|_| ((rng(&mut st) % (2 * lim as u64 + 1)) as i32 - lim) as i8)
                .collect();
            let mut buf = vec![0u8; 64 * bits as usize / 8];
            assert_eq!(trim_i8_encode(&x, bits, &mut buf), buf.len());
            let mut y = vec![0i8; 64];
            assert_eq!(trim_i8_decode(&buf, &mut y, bits), Some(buf.len()));
            assert_eq!(x, y);
            assert!(trim_i8_fits(&x, bits));
            let mut z = x.clone();
            z[3] = -(1i32 << (bits - 1)) as i8;
            assert!(!trim_i8_fits(&z, bits));
            trim_i8_encode(&z, bits, &mut buf);
            assert_eq!(trim_i8_decode(&buf, &mut y, bits), None);
        }
    }

    #[test]
    fn comp_round_trip_and_strictness() {
        let mut st = 7u64;
        for logn in 2..=10 {
            let n = 1usize << logn;
            let s: Vec<i16> = (0..n)
                .map(|_| ((rng(&mut st) % (2 * B_INF as u64 + 1)) as i32 - B_INF) as i16)
                .collect();
            let mut buf = vec![0u8; 2 * n + 8];
            assert!(comp_encode(&s, &mut buf));
            let mut t = vec![0i16; n];
            assert!(comp_decode(&buf, &mut t));
            assert_eq!(s, t);
            // Any stray bit after the data breaks decoding.
            let mut k = buf.len();
            while buf[k - 1] == 0 {
                k -= 1;
            }
            let top = 8 - buf[k - 1].leading_zeros() as usize;
            for bit in top..(8 * (buf.len() - k + 1)) {
                let mut b2 = buf.clone();
                b2[k - 1 + bit / 8] ^= 1 << (bit % 8);
                assert!(!comp_decode(&b2, &mut t), "bit {bit}");
            }
            // Out-of-range values are refused by the encoder.
            let mut s2 = s.clone();
            s2[0] = 841;
            assert!(!comp_encode(&s2, &mut buf));
            s2[0] = -841;
            assert!(!comp_encode(&s2, &mut buf));
        }
        // "-0": sign bit set, zero magnitude.
        let mut t = [0i16; 1];
        assert!(comp_decode(&[0x00, 0x01], &mut t));
        assert!(!comp_decode(&[0x01, 0x01], &mut t));
    }
}
