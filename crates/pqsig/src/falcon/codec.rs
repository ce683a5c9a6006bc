//! Falcon (round 3) encodings, byte-exact with the reference implementation, and strict:
//! every accepted byte string is the unique encoding of what it decodes to.
//!
//! Field codecs (return the number of bytes written / read, `None` on failure):
//! * [`modq_encode`] / [`modq_decode`]: residues mod q, 14 bits each, MSB first;
//! * [`trim_i8_encode`] / [`trim_i8_decode`]: small signed values in two's complement on
//!   a fixed bit width; `−2^(bits−1)` is not a valid value;
//! * [`comp_encode`] / [`comp_decode`]: the signature's compressed encoding — per
//!   coefficient a sign bit, the low 7 bits of |x|, then |x| >> 7 zeros and a one;
//!   |x| ≤ 2047.
//!
//! Every decoder checks that the unused bits of its last byte are zero; `modq_decode`
//! rejects values ≥ q, `comp_decode` rejects "−0" and values above 2047.
//!
//! Whole objects (`logn` is in the header byte):
//! * public key `0x00+logn ‖ h`;
//! * compact secret key `0x50+logn ‖ f ‖ g ‖ F` (bit widths from [`params`]);
//! * detached signature `0x30+logn ‖ nonce(40) ‖ comp(s2)`, compressed (variable length,
//!   `comp(s2)` must end exactly at the end of the input) or padded (fixed length, the
//!   bytes after `comp(s2)` must be zero);
//! * the NIST API signed message `siglen(2, BE) ‖ nonce ‖ msg ‖ 0x20+logn ‖ comp(s2)`
//!   with `siglen = 1 + len(comp(s2))`, and the padded KAT files' `sig(padded) ‖ msg`.
//!
//! Note on strictness: the reference (PQClean) compressed-mode verifier also accepts a
//! zero-padded signature of exactly the padded length; here each mode accepts only its
//! own encoding.
//!
//! Decoders never panic on any input. The secret-key codecs run in constant time with
//! respect to the coefficient values (range failures are accumulated, not returned
//! early); the others handle public data and may stop at the first error.

use super::params::{self, FG_BITS, FG_CAP_BITS, NONCE_LEN};
use crate::error::Error;
use crate::kernels::falcon::codec::{kernels as codec_kernels, CodecKernels};
use crate::kernels::select::{self, Backend};
use alloc::vec;
use alloc::vec::Vec;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

// ---------------------------------------------------------------------------------------
// Field codecs.

/// Writes `x` (n = 2^logn residues, each < q) on 14 bits each, MSB first, into the start
/// of `out`. Returns the length (`ceil(14n/8)`), or `None` if a value is ≥ q, `x` is not
/// n long, or `out` is too short.
pub fn modq_encode(out: &mut [u8], x: &[u16], logn: u32) -> Option<usize> {
    if !params::logn_ok(logn) {
        return None;
    }
    let n = 1usize << logn;
    let len = params::pk_body_size(logn);
    if x.len() != n || out.len() < len || x.iter().any(|&v| v as u32 >= params::Q) {
        return None;
    }
    let mut w = BitWriter::new(&mut out[..len]);
    for &v in x {
        w.put(v as u32, 14);
    }
    w.finish();
    Some(len)
}

/// Reads n = 2^logn residues (14 bits each, MSB first) from the start of `buf` into `x`.
/// Returns the number of bytes read, or `None` if `buf` is too short, a value is ≥ q, or
/// the unused bits of the last byte are not zero.
pub fn modq_decode(x: &mut [u16], buf: &[u8], logn: u32) -> Option<usize> {
    if !params::logn_ok(logn) {
        return None;
    }
    let n = 1usize << logn;
    let len = params::pk_body_size(logn);
    if x.len() != n || buf.len() < len {
        return None;
    }
    if n >= 4 {
        // Four values in every seven bytes, no padding bits. Each group is read with one
        // 8-byte load (the byte after it comes along and is shifted out), except the
        // last, which may end the buffer.
        let mut bad = 0u32;
        let groups = n / 4;
        let mut put = |vs: &mut [u16], w: u64| {
            for (i, v) in vs.iter_mut().enumerate() {
                let c = (w >> (50 - 14 * i)) as u32 & 0x3FFF;
                // All ones in the top bit iff c ≥ q.
                bad |= (params::Q - 1).wrapping_sub(c);
                *v = c as u16;
            }
        };
        let (head, last) = x.split_at_mut(4 * (groups - 1));
        for (vs, bs) in head.chunks_exact_mut(4).zip(buf.windows(8).step_by(7)) {
            put(
                vs,
                u64::from_be_bytes([bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], bs[6], bs[7]]),
            );
        }
        let mut w = [0u8; 8];
        w[..7].copy_from_slice(&buf[7 * (groups - 1)..7 * groups]);
        put(last, u64::from_be_bytes(w));
        return (bad >> 31 == 0).then_some(len);
    }
    let mut r = BitReader::new(&buf[..len]);
    for v in x.iter_mut() {
        let w = r.get(14)?;
        if w >= params::Q {
            return None;
        }
        *v = w as u16;
    }
    r.rest_is_zero().then_some(len)
}

/// Writes `x` (n = 2^logn values in `[−(2^(bits−1) − 1), 2^(bits−1) − 1]`) on `bits`
/// bits each (two's complement, MSB first). Returns the length (`ceil(n·bits/8)`), or
/// `None` if a value is out of range, `bits` is not in 2..=8, `x` is not n long, or `out`
/// is too short. Constant time with respect to the values.
pub fn trim_i8_encode(out: &mut [u8], x: &[i8], logn: u32, bits: u32) -> Option<usize> {
    if !params::logn_ok(logn) {
        return None;
    }
    let n = 1usize << logn;
    if !(2..=8).contains(&bits) || x.len() != n {
        return None;
    }
    let len = (n * bits as usize).div_ceil(8);
    if out.len() < len {
        return None;
    }
    let maxv = (1i32 << (bits - 1)) - 1;
    // Accumulates (maxv − |v|): negative for an out-of-range value.
    let mut bad = 0u32;
    for &v in x {
        let v = v as i32;
        bad |= ((maxv - v) | (maxv + v)) as u32;
    }
    let mask = (1u32 << bits) - 1;
    let mut w = BitWriter::new(&mut out[..len]);
    for &v in x {
        w.put(v as u32 & mask, bits);
    }
    w.finish();
    // Declassified: the key's validity (only a malformed key fails; see ARCHITECTURE.md).
    if crate::ct::public(bad >> 31 != 0) {
        out[..len].zeroize();
        return None;
    }
    Some(len)
}

/// Reads n = 2^logn values of `bits` bits (two's complement, MSB first) from the start
/// of `buf`. Returns the number of bytes read, or `None` if `buf` is too short, `bits` is
/// not in 2..=8, a value is −2^(bits−1), or the unused bits of the last byte are not
/// zero. Constant time with respect to the values (on failure `x` is zeroed).
pub fn trim_i8_decode(x: &mut [i8], buf: &[u8], logn: u32, bits: u32) -> Option<usize> {
    if !params::logn_ok(logn) {
        return None;
    }
    let n = 1usize << logn;
    if !(2..=8).contains(&bits) || x.len() != n {
        return None;
    }
    let len = (n * bits as usize).div_ceil(8);
    if buf.len() < len {
        return None;
    }
    let sign = 1u32 << (bits - 1);
    let mut r = BitReader::new(&buf[..len]);
    let mut bad = 0u32;
    for v in x.iter_mut() {
        // Cannot fail: exactly n·bits bits are available.
        let w = r.get(bits).unwrap_or(0);
        // w == sign ⇔ (w ^ sign) − 1 is negative (w ^ sign < 2^bits).
        bad |= (w ^ sign).wrapping_sub(1);
        // Sign extension.
        *v = (w | 0u32.wrapping_sub(w & sign)) as i32 as i8;
    }
    let tail_ok = r.rest_is_zero();
    // Declassified: the encoding's validity (only a malformed key fails).
    if crate::ct::public((bad >> 31 != 0) | !tail_ok) {
        x.zeroize();
        return None;
    }
    Some(len)
}

/// Compressed encoding of n = 2^logn signature coefficients (|x| ≤ 2047) into the start
/// of `out`. Returns the number of bytes written (the last byte zero-padded), or `None`
/// if a value is out of range, `x` is not n long, or `out` is too short (the signer then
/// draws another signature; only the length of the discarded one is revealed).
pub fn comp_encode(out: &mut [u8], x: &[i16], logn: u32) -> Option<usize> {
    if !params::logn_ok(logn) {
        return None;
    }
    let n = 1usize << logn;
    if x.len() != n || x.iter().any(|&v| !(-2047..=2047).contains(&v)) {
        return None;
    }
    let mut acc = 0u32;
    let mut acc_len = 0u32;
    let mut pos = 0usize;
    for &v in x {
        let a = v.unsigned_abs() as u32;
        // Sign, low seven bits, then (a >> 7) zeros and a one: at most 8 + 16 bits on
        // top of at most 7 pending ones, within the 32-bit accumulator.
        acc = (acc << 8) | (((v < 0) as u32) << 7) | (a & 0x7F);
        let hi = a >> 7;
        acc = (acc << (hi + 1)) | 1;
        acc_len += 8 + hi + 1;
        while acc_len >= 8 {
            acc_len -= 8;
            *out.get_mut(pos)? = (acc >> acc_len) as u8;
            pos += 1;
        }
    }
    if acc_len > 0 {
        *out.get_mut(pos)? = (acc << (8 - acc_len)) as u8;
        pos += 1;
    }
    Some(pos)
}

/// Strict decoding of a compressed signature vector (n = 2^logn coefficients) from the
/// start of `buf`. Returns the number of bytes consumed, or `None` if `buf` ends early,
/// a value exceeds 2047 in absolute value, a value is encoded as "−0", or the unused bits
/// of the last byte are not zero. The caller decides what may follow (see
/// [`decode_signature`]). On failure `x` holds unspecified values.
///
/// Public data (a signature): the running time depends on the input. On x86-64 with a
/// non-portable backend the same code runs compiled for LZCNT/BMI2 when the CPU has them
/// (`kernels::falcon::codec`).
pub fn comp_decode(x: &mut [i16], buf: &[u8], logn: u32) -> Option<usize> {
    if !params::logn_ok(logn) {
        return None;
    }
    if x.len() != 1usize << logn {
        return None;
    }
    comp_decode_with(codec_kernels(select::active()), x, buf)
}

/// [`comp_decode`] (degree checked by the caller) with the decoder build of `ck`.
#[inline]
fn comp_decode_with(ck: &CodecKernels, x: &mut [i16], buf: &[u8]) -> Option<usize> {
    (ck.comp_decode)(x, buf)
}

/// Eight bytes of `buf` from `p` as a big-endian word, zeros past the end.
#[inline(always)]
fn load_be_padded(buf: &[u8], p: usize) -> u64 {
    let mut w = [0u8; 8];
    let rest = buf.get(p..).unwrap_or(&[]);
    let k = rest.len().min(8);
    w[..k].copy_from_slice(&rest[..k]);
    u64::from_be_bytes(w)
}

/// One coefficient: `hi` holds its first byte (sign, low seven bits), `t` the stream
/// after it (MSB first, at least 24 valid bits). Returns `first byte << 8 | zeros`
/// (zeros = the unary count, up to 64 on invalid input), moves `hi` to the next
/// coefficient's first byte, `t` past it, and takes the zeros off `nb` (the caller
/// takes off the nine fixed bits).
#[inline(always)]
fn comp_step(t: &mut u64, hi: &mut u64, nb: &mut u32) -> u16 {
    let z = t.leading_zeros();
    let raw = ((*hi << 8) as u32 | z) as u16;
    // Two shifts off the same `t`: the dependency chain per coefficient is the count and
    // one shift.
    *hi = (*t << 1).wrapping_shl(z) >> 56;
    *t = (*t << 9).wrapping_shl(z);
    *nb = nb.wrapping_sub(z);
    raw
}

/// The comp(s2) decoder of [`comp_decode`], in steps: [`Self::pair`] reads two
/// coefficients (so that a caller can interleave the reading with other work, e.g. the
/// hash-to-point permutations, which keep other execution ports busy), [`Self::finish`]
/// reads the rest and checks.
///
/// Bits are read MSB first through a 64-bit window refilled with whole 8-byte loads
/// (zeros past the end of `buf`): `t`'s top `nb + 9` bits are the next unread bits and
/// end exactly at byte `ptr`; the bits below them are the bits that follow in the stream
/// (a refill ORs the same bits in again) or zeros. A coefficient takes at most 24 bits
/// (its unary part and the next coefficient's first byte, already in `hi`) when valid,
/// so one refill between the two coefficients of a pair keeps at least 24 valid bits in
/// front of each. There are no data-dependent branches: an invalid unary count (more
/// than 15 zeros, or none found) is detected at the end from the stored counts, and
/// meanwhile only garbles values (every shift is masked and `ptr` advances at most 7
/// bytes per pair), never memory safety. Until [`Self::finish`] the coefficients hold
/// `first byte << 8 | zeros`; it turns them into values and checks the ranges, "−0"
/// and the last byte's padding bits.
pub(crate) struct CompDecoder<'a> {
    buf: &'a [u8],
    /// The current coefficient's first byte.
    hi: u64,
    t: u64,
    /// Valid bits in `t` minus the nine fixed bits of the coefficient about to be read.
    nb: u32,
    ptr: usize,
    /// Coefficients read.
    done: usize,
}

impl<'a> CompDecoder<'a> {
    /// A decoder of `buf`; `None` if it is empty.
    #[inline(always)]
    pub(crate) fn new(buf: &'a [u8]) -> Option<Self> {
        Some(CompDecoder {
            buf,
            hi: *buf.first()? as u64,
            t: load_be_padded(buf, 1),
            nb: 56 - 9,
            ptr: 8,
            done: 0,
        })
    }

    /// Reads the next two coefficients into `x` (their raw form), if `x` has room.
    #[inline(always)]
    pub(crate) fn pair(&mut self, x: &mut [i16]) {
        let Some(out) = x.get_mut(self.done..self.done + 2) else {
            return;
        };
        let a = comp_step(&mut self.t, &mut self.hi, &mut self.nb);
        let w = match self.buf.get(self.ptr..self.ptr + 8) {
            Some(w) => u64::from_be_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
            None => load_be_padded(self.buf, self.ptr),
        };
        self.t |= w.wrapping_shr(self.nb);
        self.ptr = self
            .ptr
            .wrapping_add(((63u32.wrapping_sub(self.nb) >> 3) & 7) as usize);
        self.nb = (self.nb | 56) - 9;
        let b = comp_step(&mut self.t, &mut self.hi, &mut self.nb);
        self.nb = self.nb.wrapping_sub(9);
        out[0] = a as i16;
        out[1] = b as i16;
        self.done += 2;
    }

    /// Reads the remaining coefficients of `x` (a power of two ≥ 2 long, the same slice
    /// as given to [`Self::pair`]) and checks everything; returns the number of bytes the
    /// encoding takes (see [`comp_decode`]).
    #[inline(always)]
    pub(crate) fn finish(mut self, x: &mut [i16]) -> Option<usize> {
        while self.done < x.len() {
            self.pair(x);
        }
        let mut bad = 0u16;
        for v in x.iter_mut() {
            let raw = *v as u16;
            let zeros = raw & 0xFF;
            let m = ((raw >> 8) & 0x7F) | (zeros << 7);
            let neg = raw >> 15;
            // More than 15 zeros (|x| > 2047, or no terminating one), or "−0".
            bad |= (zeros > 15) as u16 | (raw == 0x8000) as u16;
            *v = ((m ^ neg.wrapping_neg()).wrapping_add(neg)) as i16;
        }
        if bad != 0 {
            return None;
        }
        // Every terminating one was a bit of `buf` (the padding is zeros), so the
        // encoding ends within it; its last byte's unused bits must be zero.
        let nb = self.nb.wrapping_add(9);
        let bitpos = (self.ptr * 8).checked_sub(nb as usize + 8)?;
        let used = bitpos.div_ceil(8);
        let r = (bitpos % 8) as u32;
        if used > self.buf.len() || (r != 0 && (*self.buf.get(bitpos / 8)? << r) != 0) {
            return None;
        }
        Some(used)
    }
}

/// The decoder (see [`comp_decode`] and [`CompDecoder`]); `x.len()` is a power of two.
/// Compiled per ISA by `kernels::falcon::codec`.
#[inline(always)]
pub(crate) fn comp_decode_body(x: &mut [i16], buf: &[u8]) -> Option<usize> {
    CompDecoder::new(buf)?.finish(x)
}

/// MSB-first bit packing into an exactly sized buffer.
struct BitWriter<'a> {
    out: &'a mut [u8],
    pos: usize,
    acc: u32,
    acc_len: u32,
}

impl<'a> BitWriter<'a> {
    fn new(out: &'a mut [u8]) -> Self {
        BitWriter {
            out,
            pos: 0,
            acc: 0,
            acc_len: 0,
        }
    }

    /// Appends the low `bits` (≤ 16) bits of `v`.
    #[inline]
    fn put(&mut self, v: u32, bits: u32) {
        self.acc = (self.acc << bits) | v;
        self.acc_len += bits;
        while self.acc_len >= 8 {
            self.acc_len -= 8;
            if let Some(b) = self.out.get_mut(self.pos) {
                *b = (self.acc >> self.acc_len) as u8;
            }
            self.pos += 1;
        }
    }

    /// Flushes a partial last byte (zero-padded).
    fn finish(mut self) {
        if self.acc_len > 0 {
            if let Some(b) = self.out.get_mut(self.pos) {
                *b = (self.acc << (8 - self.acc_len)) as u8;
            }
            self.pos += 1;
        }
        debug_assert_eq!(self.pos, self.out.len());
    }
}

/// MSB-first bit reading.
struct BitReader<'a> {
    buf: &'a [u8],
    pos: usize,
    acc: u32,
    acc_len: u32,
}

impl<'a> BitReader<'a> {
    fn new(buf: &'a [u8]) -> Self {
        BitReader {
            buf,
            pos: 0,
            acc: 0,
            acc_len: 0,
        }
    }

    /// The next `bits` (≤ 16) bits, or `None` past the end.
    #[inline]
    fn get(&mut self, bits: u32) -> Option<u32> {
        while self.acc_len < bits {
            self.acc = (self.acc << 8) | *self.buf.get(self.pos)? as u32;
            self.pos += 1;
            self.acc_len += 8;
        }
        self.acc_len -= bits;
        Some((self.acc >> self.acc_len) & ((1u32 << bits) - 1))
    }

    /// Whether the unread bits of the buffer are all zero.
    fn rest_is_zero(&self) -> bool {
        // `&`, not `&&`: the leftover bits may be secret (a secret-key field).
        (self.acc & ((1u32 << self.acc_len) - 1) == 0)
            & self.buf[self.pos.min(self.buf.len())..]
                .iter()
                .all(|&b| b == 0)
    }
}

// ---------------------------------------------------------------------------------------
// Whole objects.

/// The logn a header byte names for a given type nibble, if supported.
fn header_logn(b: u8, base: u8) -> Option<u32> {
    if b & 0xF0 != base {
        return None;
    }
    let logn = (b & 0x0F) as u32;
    params::logn_ok(logn).then_some(logn)
}

/// `0x00+logn ‖ modq(h)` into the start of `out`; returns its length.
pub fn encode_public_key_into(out: &mut [u8], h: &[u16], logn: u32) -> Result<usize, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::InvalidKey);
    }
    let len = params::pk_size(logn);
    if out.len() < len {
        return Err(Error::InvalidLength);
    }
    out[0] = params::HEADER_PK + logn as u8;
    modq_encode(&mut out[1..len], h, logn).ok_or(Error::InvalidKey)?;
    Ok(len)
}

/// The public key encoding of h (n = 2^logn residues < q).
pub fn encode_public_key(h: &[u16], logn: u32) -> Result<Vec<u8>, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::InvalidKey);
    }
    let mut out = vec![0u8; params::pk_size(logn)];
    encode_public_key_into(&mut out, h, logn)?;
    Ok(out)
}

/// Decodes a public key of any supported degree: `(logn, h)`.
pub fn decode_public_key(pk: &[u8]) -> Result<(u32, Vec<u16>), Error> {
    let logn = header_logn(*pk.first().ok_or(Error::InvalidKey)?, params::HEADER_PK)
        .ok_or(Error::InvalidKey)?;
    let mut h = vec![0u16; 1 << logn];
    decode_public_key_into(&mut h, pk, logn)?;
    Ok((logn, h))
}

/// Decodes a public key that must have degree 2^logn into `h` (2^logn entries).
/// Errors (`InvalidKey`): wrong length, wrong header, a coefficient ≥ q, non-zero
/// padding bits.
pub fn decode_public_key_into(h: &mut [u16], pk: &[u8], logn: u32) -> Result<(), Error> {
    if !params::logn_ok(logn)
        || pk.len() != params::pk_size(logn)
        || pk[0] != params::HEADER_PK + logn as u8
        || h.len() != 1 << logn
    {
        return Err(Error::InvalidKey);
    }
    modq_decode(h, &pk[1..], logn).ok_or(Error::InvalidKey)?;
    Ok(())
}

/// A decoded compact secret key: f, g, F (G is recomputed by
/// [`super::verify::complete_private`]). Zeroized on drop.
#[derive(Clone)]
#[allow(non_snake_case)]
pub struct SecretKeyParts {
    pub logn: u32,
    pub f: Vec<i8>,
    pub g: Vec<i8>,
    #[allow(non_snake_case)]
    pub F: Vec<i8>,
}

impl Drop for SecretKeyParts {
    fn drop(&mut self) {
        self.f.zeroize();
        self.g.zeroize();
        self.F.zeroize();
    }
}

impl ZeroizeOnDrop for SecretKeyParts {}

impl core::fmt::Debug for SecretKeyParts {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SecretKeyParts {{ logn: {}, .. }}", self.logn)
    }
}

/// `0x50+logn ‖ f ‖ g ‖ F` into the start of `out`; returns its length. Errors:
/// `InvalidLength` if `out` is too short, `InvalidKey` if a coefficient does not fit
/// its field (f, g: ±(2^(FG_BITS−1) − 1); F: ±127) or a slice is not 2^logn long.
#[allow(non_snake_case)]
pub fn encode_secret_key_into(
    out: &mut [u8],
    f: &[i8],
    g: &[i8],
    F: &[i8],
    logn: u32,
) -> Result<usize, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::InvalidKey);
    }
    let len = params::sk_size(logn);
    if out.len() < len {
        return Err(Error::InvalidLength);
    }
    let (fb, Fb) = (FG_BITS[logn as usize], FG_CAP_BITS[logn as usize]);
    out[0] = params::HEADER_SK + logn as u8;
    let mut pos = 1;
    let n = 1usize << logn;
    // Every field is encoded even after one failed (no early exit), so the time does not
    // depend on which field was out of range; each field's validity is declassified in
    // trim_i8_encode (public: only a malformed key fails).
    let mut ok = true;
    for (p, bits) in [(f, fb), (g, fb), (F, Fb)] {
        let field = (n * bits as usize).div_ceil(8);
        match trim_i8_encode(&mut out[pos..len], p, logn, bits) {
            Some(k) => pos += k,
            None => {
                ok = false;
                pos = (pos + field).min(len);
            }
        }
    }
    if !ok || pos != len {
        out[..len].zeroize();
        return Err(Error::InvalidKey);
    }
    Ok(len)
}

/// The compact secret key encoding (zeroized on drop).
#[allow(non_snake_case)]
pub fn encode_secret_key(
    f: &[i8],
    g: &[i8],
    F: &[i8],
    logn: u32,
) -> Result<Zeroizing<Vec<u8>>, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::InvalidKey);
    }
    let mut out = Zeroizing::new(vec![0u8; params::sk_size(logn)]);
    encode_secret_key_into(&mut out, f, g, F, logn)?;
    Ok(out)
}

/// Decodes a compact secret key of any supported degree. Errors (`InvalidKey`): wrong
/// length or header, a field value equal to −2^(bits−1), non-zero padding bits.
pub fn decode_secret_key(sk: &[u8]) -> Result<SecretKeyParts, Error> {
    let logn = header_logn(*sk.first().ok_or(Error::InvalidKey)?, params::HEADER_SK)
        .ok_or(Error::InvalidKey)?;
    decode_secret_key_logn(sk, logn)
}

/// Decodes a compact secret key that must have degree 2^logn.
#[allow(non_snake_case)]
pub fn decode_secret_key_logn(sk: &[u8], logn: u32) -> Result<SecretKeyParts, Error> {
    if !params::logn_ok(logn)
        || sk.len() != params::sk_size(logn)
        || sk[0] != params::HEADER_SK + logn as u8
    {
        return Err(Error::InvalidKey);
    }
    let n = 1usize << logn;
    let mut parts = SecretKeyParts {
        logn,
        f: vec![0; n],
        g: vec![0; n],
        F: vec![0; n],
    };
    let (fb, Fb) = (FG_BITS[logn as usize], FG_CAP_BITS[logn as usize]);
    let mut pos = 1;
    // All three fields are decoded before failing, so the time does not depend on which
    // one was malformed.
    let mut ok = true;
    for (p, bits) in [(&mut parts.f, fb), (&mut parts.g, fb), (&mut parts.F, Fb)] {
        match trim_i8_decode(p, &sk[pos..], logn, bits) {
            Some(k) => pos += k,
            None => {
                ok = false;
                pos += (n * bits as usize).div_ceil(8);
            }
        }
    }
    if !ok || pos != sk.len() {
        return Err(Error::InvalidKey);
    }
    Ok(parts)
}

/// A decoded detached round-3 signature: the degree, the 40-byte nonce and s2
/// (2^logn coefficients, each |s2_i| ≤ 2047). Public as `falcon::DecodedSignature`, made
/// by `falcon::VerifyingKey::decode_signature` (the nonce is what streaming verification
/// hashes first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub logn: u32,
    pub nonce: [u8; NONCE_LEN],
    pub s2: Vec<i16>,
}

/// `0x30+logn ‖ nonce ‖ comp(s2)` into the start of `out`, zero-padded to
/// [`params::sig_padded_size`] if `padded`. Returns the length written. Errors:
/// `InvalidSignature` if a coefficient exceeds 2047 in absolute value or `s2` is not
/// 2^logn long; `InvalidLength` if `out` is too short (for a padded signature: if comp(s2)
/// does not fit the padded size, which a padded signer avoids by signing again).
pub fn encode_signature_into(
    out: &mut [u8],
    nonce: &[u8; NONCE_LEN],
    s2: &[i16],
    logn: u32,
    padded: bool,
) -> Result<usize, Error> {
    if !params::logn_ok(logn) || s2.len() != 1 << logn {
        return Err(Error::InvalidSignature);
    }
    if s2.iter().any(|&v| !(-2047..=2047).contains(&v)) {
        return Err(Error::InvalidSignature);
    }
    let head = 1 + NONCE_LEN;
    let limit = if padded {
        params::sig_padded_size(logn)
    } else {
        out.len()
    };
    if out.len() < limit || limit < head {
        return Err(Error::InvalidLength);
    }
    out[0] = params::HEADER_SIG + logn as u8;
    out[1..head].copy_from_slice(nonce);
    let k = comp_encode(&mut out[head..limit], s2, logn).ok_or(Error::InvalidLength)?;
    if padded {
        out[head + k..limit].fill(0);
        Ok(limit)
    } else {
        Ok(head + k)
    }
}

/// The detached signature encoding (compressed or padded).
pub fn encode_signature(
    nonce: &[u8; NONCE_LEN],
    s2: &[i16],
    logn: u32,
    padded: bool,
) -> Result<Vec<u8>, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::InvalidSignature);
    }
    let size = if padded {
        params::sig_padded_size(logn)
    } else {
        comp_size_bound(logn)
    };
    let mut out = vec![0u8; size];
    let len = encode_signature_into(&mut out, nonce, s2, logn, padded)?;
    out.truncate(len);
    Ok(out)
}

/// An upper bound on header + nonce + comp(s2) for any s2 with |coefficients| ≤ 2047
/// (24 bits per coefficient).
fn comp_size_bound(logn: u32) -> usize {
    1 + NONCE_LEN + 3 * (1usize << logn)
}

/// Decodes a detached signature of any supported degree (the degree comes from the
/// header byte). See [`decode_signature_logn`].
pub fn decode_signature(sig: &[u8], padded: bool) -> Result<Signature, Error> {
    let logn = header_logn(
        *sig.first().ok_or(Error::InvalidSignature)?,
        params::HEADER_SIG,
    )
    .ok_or(Error::InvalidSignature)?;
    decode_signature_logn(sig, logn, padded)
}

/// Decodes a detached signature of degree 2^logn. Errors (`InvalidSignature`): wrong
/// header; compressed: comp(s2) invalid or not ending exactly at the end of `sig`;
/// padded: length other than [`params::sig_padded_size`], comp(s2) invalid, or a non-zero
/// byte after it.
pub fn decode_signature_logn(sig: &[u8], logn: u32, padded: bool) -> Result<Signature, Error> {
    decode_signature_logn_on(select::active(), sig, logn, padded)
}

/// [`decode_signature_logn`] with backend `b`'s decoder build.
pub fn decode_signature_logn_on(
    b: Backend,
    sig: &[u8],
    logn: u32,
    padded: bool,
) -> Result<Signature, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::InvalidSignature);
    }
    let mut s2 = vec![0i16; 1 << logn];
    let nonce = decode_signature_into_on(b, &mut s2, sig, logn, padded)?;
    Ok(Signature { logn, nonce, s2 })
}

/// [`decode_signature_logn`] into a caller's buffer: s2 into `s2` (2^logn long, else
/// `InvalidSignature`), returns the nonce. On error `s2` holds unspecified values.
pub fn decode_signature_into(
    s2: &mut [i16],
    sig: &[u8],
    logn: u32,
    padded: bool,
) -> Result<[u8; NONCE_LEN], Error> {
    decode_signature_into_on(select::active(), s2, sig, logn, padded)
}

/// [`decode_signature_into`] with backend `b`'s decoder build.
pub fn decode_signature_into_on(
    b: Backend,
    s2: &mut [i16],
    sig: &[u8],
    logn: u32,
    padded: bool,
) -> Result<[u8; NONCE_LEN], Error> {
    decode_signature_into_with(codec_kernels(b), s2, sig, logn, padded)
}

/// [`decode_signature_into`] with the decoder build of `ck`.
pub(crate) fn decode_signature_into_with(
    ck: &CodecKernels,
    s2: &mut [i16],
    sig: &[u8],
    logn: u32,
    padded: bool,
) -> Result<[u8; NONCE_LEN], Error> {
    let (nonce, body) = signature_parts(sig, logn, padded)?;
    if s2.len() != 1 << logn {
        return Err(Error::InvalidSignature);
    }
    let k = comp_decode_with(ck, s2, body).ok_or(Error::InvalidSignature)?;
    signature_rest(body, k, padded)?;
    Ok(nonce)
}

/// The header and length checks of a detached signature of degree 2^logn; returns the
/// nonce and the bytes after it (comp(s2), and the padding if `padded`).
pub(crate) fn signature_parts(
    sig: &[u8],
    logn: u32,
    padded: bool,
) -> Result<([u8; NONCE_LEN], &[u8]), Error> {
    let head = 1 + NONCE_LEN;
    if !params::logn_ok(logn) || sig.len() <= head || sig[0] != params::HEADER_SIG + logn as u8 {
        return Err(Error::InvalidSignature);
    }
    if padded && sig.len() != params::sig_padded_size(logn) {
        return Err(Error::InvalidSignature);
    }
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(&sig[1..head]);
    Ok((nonce, &sig[head..]))
}

/// What may follow comp(s2) (`used` bytes of `body`): nothing, or zeros if `padded`.
pub(crate) fn signature_rest(body: &[u8], used: usize, padded: bool) -> Result<(), Error> {
    let ok = if padded {
        body.get(used..).is_some_and(|r| r.iter().all(|&b| b == 0))
    } else {
        used == body.len()
    };
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}

/// A parsed NIST API signed message (`sm`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedMessage<'a> {
    pub logn: u32,
    pub nonce: [u8; NONCE_LEN],
    pub msg: &'a [u8],
    pub s2: Vec<i16>,
}

/// Builds `siglen ‖ nonce ‖ msg ‖ 0x20+logn ‖ comp(s2)` (the round-3 `crypto_sign`
/// output). Errors: `InvalidSignature` if s2 is not encodable.
pub fn encode_signed_message(
    nonce: &[u8; NONCE_LEN],
    msg: &[u8],
    s2: &[i16],
    logn: u32,
) -> Result<Vec<u8>, Error> {
    if !params::logn_ok(logn) || s2.len() != 1 << logn {
        return Err(Error::InvalidSignature);
    }
    let mut comp = vec![0u8; comp_size_bound(logn)];
    let k = comp_encode(&mut comp, s2, logn).ok_or(Error::InvalidSignature)?;
    let siglen = 1 + k;
    let siglen16 = u16::try_from(siglen).map_err(|_| Error::InvalidSignature)?;
    let mut sm = Vec::with_capacity(2 + NONCE_LEN + msg.len() + siglen);
    sm.extend_from_slice(&siglen16.to_be_bytes());
    sm.extend_from_slice(nonce);
    sm.extend_from_slice(msg);
    sm.push(params::HEADER_SIG_NIST + logn as u8);
    sm.extend_from_slice(&comp[..k]);
    Ok(sm)
}

/// Parses a round-3 signed message of degree 2^logn. Errors (`InvalidSignature`): too
/// short, `siglen` < 2 or larger than what follows the nonce, wrong header byte, comp(s2)
/// invalid or not exactly `siglen − 1` bytes.
pub fn decode_signed_message(sm: &[u8], logn: u32) -> Result<SignedMessage<'_>, Error> {
    if !params::logn_ok(logn) || sm.len() < 2 + NONCE_LEN + 2 {
        return Err(Error::InvalidSignature);
    }
    let siglen = u16::from_be_bytes([sm[0], sm[1]]) as usize;
    let after_nonce = sm.len() - 2 - NONCE_LEN;
    if siglen < 2 || siglen > after_nonce {
        return Err(Error::InvalidSignature);
    }
    let msg_len = after_nonce - siglen;
    let msg_start = 2 + NONCE_LEN;
    let hdr = msg_start + msg_len;
    if sm[hdr] != params::HEADER_SIG_NIST + logn as u8 {
        return Err(Error::InvalidSignature);
    }
    let body = &sm[hdr + 1..];
    let mut s2 = vec![0i16; 1 << logn];
    let k = comp_decode(&mut s2, body, logn).ok_or(Error::InvalidSignature)?;
    if k != body.len() {
        return Err(Error::InvalidSignature);
    }
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(&sm[2..msg_start]);
    Ok(SignedMessage {
        logn,
        nonce,
        msg: &sm[msg_start..hdr],
        s2,
    })
}

/// Builds the padded KAT files' signed message `sig(padded) ‖ msg`.
pub fn encode_signed_message_padded(
    nonce: &[u8; NONCE_LEN],
    msg: &[u8],
    s2: &[i16],
    logn: u32,
) -> Result<Vec<u8>, Error> {
    let mut sm = encode_signature(nonce, s2, logn, true)?;
    sm.extend_from_slice(msg);
    Ok(sm)
}

/// Parses the padded KAT files' signed message `sig(padded) ‖ msg` of degree 2^logn.
pub fn decode_signed_message_padded(sm: &[u8], logn: u32) -> Result<SignedMessage<'_>, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::InvalidSignature);
    }
    let len = params::sig_padded_size(logn);
    if sm.len() < len {
        return Err(Error::InvalidSignature);
    }
    let sig = decode_signature_logn(&sm[..len], logn, true)?;
    Ok(SignedMessage {
        logn,
        nonce: sig.nonce,
        msg: &sm[len..],
        s2: sig.s2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comp_round_trip_small() {
        let x: Vec<i16> = vec![0, -1, 127, -128, 2047, -2047, 300, 5];
        let mut buf = [0u8; 64];
        let k = comp_encode(&mut buf, &x, 3).unwrap();
        let mut y = vec![0i16; 8];
        assert_eq!(comp_decode(&mut y, &buf[..k], 3), Some(k));
        assert_eq!(x, y);
    }

    #[test]
    fn trim_round_trip() {
        for bits in 2..=8u32 {
            let maxv = (1i32 << (bits - 1)) - 1;
            let x: Vec<i8> = (0..16)
                .map(|i| ((i * 7) % (2 * maxv + 1) - maxv) as i8)
                .collect();
            let mut buf = [0u8; 16];
            let k = trim_i8_encode(&mut buf, &x, 4, bits).unwrap();
            assert_eq!(k, (16 * bits as usize).div_ceil(8));
            let mut y = vec![0i8; 16];
            assert_eq!(trim_i8_decode(&mut y, &buf[..k], 4, bits), Some(k));
            assert_eq!(x, y);
        }
    }
}
