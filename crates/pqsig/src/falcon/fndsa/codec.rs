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
    modq_decode_on(crate::kernels::select::active(), buf, h)
}

/// [`modq_decode`] on backend `b` (same results on every backend).
pub(crate) fn modq_decode_on(
    b: crate::kernels::select::Backend,
    buf: &[u8],
    h: &mut [u16],
) -> Option<()> {
    if !h.len().is_multiple_of(4) || buf.len() != 7 * (h.len() / 4) {
        return None;
    }
    // The leading values by `b`'s kernel (AVX2: eight at a time), the rest below.
    let (done, mut bad) = (crate::kernels::falcon::fndsa::kernels(b).modq_decode_prefix)(buf, h);
    let (h, buf) = (&mut h[done..], &buf[7 * done / 4..]);
    // Public data: an early exit is fine, but a single flag keeps the loop simple.
    // Every group but the last is read as 8 bytes (its 7 and the next group's first).
    let groups = h.len() / 4;
    let mut put = |quad: &mut [u16], x: u64| {
        for (k, v) in quad.iter_mut().enumerate() {
            let c = ((x >> (14 * k)) & 0x3FFF) as u32;
            // c >= q  <=>  (q - 1 - c) wraps.
            bad |= (Q - 1).wrapping_sub(c) >> 31;
            *v = c as u16;
        }
    };
    for (g, quad) in h.chunks_exact_mut(4).enumerate() {
        let j = 7 * g;
        let x = if g + 1 < groups {
            u64::from_le_bytes(buf[j..j + 8].try_into().unwrap_or([0; 8]))
        } else {
            let mut w = [0u8; 8];
            w[..7].copy_from_slice(&buf[j..j + 7]);
            u64::from_le_bytes(w)
        };
        put(quad, x);
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

/// Largest compressed-s2 field of any degree (logn 10: 1280 − 41 bytes).
const COMP_MAX: usize = 1280 - 41;

/// Strict decoding of [`comp_encode`]'s format: fills `s` from `buf`, and requires every
/// value in `[-B_INF, B_INF]`, no "-0", and all bits after the last value (in its byte
/// and in every following byte) to be zero. Returns false otherwise.
///
/// Signatures are public: the work is a straight pass with a validity flag. The bits
/// flow through a 64-bit register refilled (eight bytes at a time, from a copy of `buf`
/// followed by zero bytes, so no read is out of bounds) before every three values; a
/// value takes at most 15 bits (sign, 7 low bits, at most 6 zeros and the final one),
/// and a refill leaves at least 56 bits. Per value the dependency chain is one shift,
/// one trailing-zero count and one shift.
pub fn comp_decode(buf: &[u8], s: &mut [i16]) -> bool {
    if buf.len() <= COMP_MAX {
        let mut pad = [0u8; COMP_MAX + 8];
        pad[..buf.len()].copy_from_slice(buf);
        comp_decode_padded(&pad[..buf.len() + 8], s)
    } else {
        // Longer than any signature field (no caller passes one): same on a heap copy.
        let mut pad = alloc::vec![0u8; buf.len() + 8];
        pad[..buf.len()].copy_from_slice(buf);
        comp_decode_padded(&pad, s)
    }
}

/// Per value, indexed by its first 8 bits (sign, 7 low bits) plus 256 × the number of
/// zeros before the terminating one (7 standing for "none within 7"): the value as
/// i16 in the low 16 bits, and bit 16 set if the encoding is invalid (|x| > 840 or
/// "-0").
static COMP_VALUE: [u32; 2048] = {
    let mut t = [0u32; 2048];
    let mut key = 0;
    while key < 2048 {
        let neg = (key & 1) as u32;
        let m = (((key >> 1) & 0x7F) | ((key >> 8) << 7)) as u32;
        let v = if neg == 1 {
            (m as i32).wrapping_neg()
        } else {
            m as i32
        };
        let bad = (m > B_INF as u32) || (neg == 1 && m == 0);
        t[key] = (v as u16 as u32) | ((bad as u32) << 16);
        key += 1;
    }
    t
};

/// [`comp_decode`] on `pad` = the encoding followed by exactly eight zero bytes.
#[inline(always)]
fn comp_decode_padded(pad: &[u8], s: &mut [i16]) -> bool {
    let mut st = CompState::default();
    st.decode(pad, s);
    st.finish(pad)
}

/// The bit reader of the compressed format: `ptr` is the next byte to load, `acc`
/// holds `cnt` unread bits (every bit of `acc` above them is zero or the right stream
/// bit), `bad` collects invalid values.
#[derive(Default)]
struct CompState {
    ptr: usize,
    acc: u64,
    cnt: u32,
    bad: u32,
}

impl CompState {
    /// Decodes `s.len()` more values from `pad` (the encoding then eight zero bytes).
    #[inline(always)]
    fn decode(&mut self, pad: &[u8], s: &mut [i16]) {
        let len = pad.len() - 8;
        let (mut ptr, mut acc, mut cnt, mut bad) = (self.ptr, self.acc, self.cnt, self.bad);
        for group in s.chunks_mut(3) {
            // Refill to 56..=63 bits (three values take at most 48). Once past the end
            // the result is rejected anyway; clamping the index keeps the read in bounds.
            let j = ptr.min(len);
            let w = u64::from_le_bytes(pad[j..j + 8].try_into().unwrap_or([0; 8]));
            acc |= w << cnt;
            let nb = (63 - cnt) >> 3;
            ptr += nb as usize;
            cnt += 8 * nb;
            for v in group.iter_mut() {
                let x = acc >> 8;
                // Zeros before the terminating one (7 if not within 7 bits: rejected).
                let tz = (x | 0x80).trailing_zeros();
                let e = COMP_VALUE[((acc & 0xFF) as usize) | ((tz as usize) << 8)];
                *v = e as i16;
                bad |= e;
                acc = (x >> 1) >> tz;
                cnt -= 9 + tz;
            }
        }
        (self.ptr, self.acc, self.cnt, self.bad) = (ptr, acc, cnt, bad);
    }

    /// Validity of everything decoded: no invalid value, within the buffer, and only
    /// zero bits after the last value.
    fn finish(&self, pad: &[u8]) -> bool {
        let len = pad.len() - 8;
        // Bits consumed: everything loaded minus what is left in the register.
        let used = 8 * self.ptr - self.cnt as usize;
        if self.bad >> 16 != 0 || used > 8 * len {
            return false;
        }
        // Everything after the last value is zero: the rest of its byte, then bytes.
        let j = used >> 3;
        if (pad[j] >> (used & 7)) != 0 {
            return false;
        }
        pad[used.div_ceil(8)..len].iter().fold(0u8, |a, &b| a | b) == 0
    }
}

/// [`comp_decode`] in steps, so that a caller can interleave it with other work (the
/// verifier decodes s2 between the hash-to-point blocks, where the out-of-order core
/// overlaps this serial chain with the Keccak permutations). Same result as
/// `comp_decode` on the concatenation of the steps.
pub(crate) struct CompDecoder {
    pad: [u8; COMP_MAX + 8],
    len: usize,
    st: CompState,
}

impl CompDecoder {
    /// A decoder over `buf` (at most a signature field: `None` if longer).
    pub(crate) fn new(buf: &[u8]) -> Option<Self> {
        if buf.len() > COMP_MAX {
            return None;
        }
        let mut pad = [0u8; COMP_MAX + 8];
        pad[..buf.len()].copy_from_slice(buf);
        Some(CompDecoder {
            pad,
            len: buf.len(),
            st: CompState::default(),
        })
    }

    /// The next `s.len()` values.
    #[inline]
    pub(crate) fn decode(&mut self, s: &mut [i16]) {
        self.st.decode(&self.pad[..self.len + 8], s);
    }

    /// Whether the whole encoding was valid (call after the last value).
    pub(crate) fn finish(&self) -> bool {
        self.st.finish(&self.pad[..self.len + 8])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-at-a-time model of the strict decoder (the format's definition).
    fn comp_decode_model(buf: &[u8], s: &mut [i16]) -> bool {
        let bit = |i: usize| -> Option<u32> { buf.get(i / 8).map(|b| ((b >> (i % 8)) & 1) as u32) };
        let mut pos = 0usize;
        for v in s.iter_mut() {
            let Some(neg) = bit(pos) else { return false };
            let mut m = 0u32;
            for k in 0..7 {
                let Some(b) = bit(pos + 1 + k) else {
                    return false;
                };
                m |= b << k;
            }
            pos += 8;
            let mut hi = 0u32;
            loop {
                let Some(b) = bit(pos) else { return false };
                pos += 1;
                if b == 1 {
                    break;
                }
                hi += 1;
                if hi > 6 {
                    return false;
                }
            }
            m += hi << 7;
            if m > B_INF as u32 || (neg == 1 && m == 0) {
                return false;
            }
            *v = if neg == 1 { -(m as i16) } else { m as i16 };
        }
        (pos..8 * buf.len()).all(|i| bit(i) == Some(0))
    }

    #[test]
    fn comp_decode_matches_bitwise_model() {
        let mut st = 0xfeed_u64;
        for logn in 2..=10u32 {
            let n = 1usize << logn;
            let len = super::super::params::signature_size(logn) - 41;
            for t in 0..200 {
                // Valid encodings of random short vectors, then random corruptions.
                let s: Vec<i16> = (0..n)
                    .map(|_| {
                        let r = rng(&mut st);
                        let lim = if t % 3 == 0 { B_INF as u64 } else { 200 };
                        ((r % (2 * lim + 1)) as i32 - lim as i32) as i16
                    })
                    .collect();
                let mut buf = vec![0u8; len];
                if !comp_encode(&s, &mut buf) {
                    continue;
                }
                let flips = t % 4;
                for _ in 0..flips {
                    let r = rng(&mut st) as usize;
                    buf[r % len] ^= 1 << (r / len % 8);
                }
                if t % 7 == 1 {
                    buf.truncate(len - 1 - (t % 5));
                }
                let mut a = vec![0i16; n];
                let mut b = vec![0i16; n];
                let ra = comp_decode(&buf, &mut a);
                let rb = comp_decode_model(&buf, &mut b);
                assert_eq!(ra, rb, "logn {logn} t {t}");
                if ra {
                    assert_eq!(a, b);
                    if flips == 0 {
                        assert_eq!(a, s);
                    }
                }
            }
            // Random bytes.
            for _ in 0..200 {
                let buf: Vec<u8> = (0..len).map(|_| rng(&mut st) as u8).collect();
                let mut a = vec![0i16; n];
                let mut b = vec![0i16; n];
                assert_eq!(comp_decode(&buf, &mut a), comp_decode_model(&buf, &mut b));
            }
        }
        // Over-long buffers: the tail must be zero.
        let mut a = [0i16; 4];
        let mut b = [0i16; 4];
        let mut long = vec![0u8; COMP_MAX + 5];
        assert!(comp_encode(&[3, -840, 0, 129], &mut long));
        assert!(comp_decode(&long, &mut a));
        assert!(comp_decode_model(&long, &mut b));
        assert_eq!(a, [3, -840, 0, 129]);
        long[COMP_MAX + 2] = 1;
        assert!(!comp_decode(&long, &mut a));
        assert!(!comp_decode_model(&long, &mut b));
    }

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
            for b in crate::kernels::select::Backend::available() {
                let mut h3 = vec![0u16; n];
                assert!(modq_decode_on(b, &buf, &mut h3).is_some());
                assert_eq!(h, h3, "{b:?}");
                // A value of q at any place is caught on every backend.
                for pos in [0, n / 2, n - 1] {
                    let mut bad = h.clone();
                    bad[pos] = Q as u16 + (pos as u16 & 3);
                    let mut b2 = vec![0u8; 7 * n / 4];
                    modq_encode(&bad, &mut b2);
                    assert!(modq_decode_on(b, &b2, &mut h3).is_none(), "{b:?} {pos}");
                }
            }
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
