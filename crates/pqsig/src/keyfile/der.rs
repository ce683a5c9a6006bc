//! A minimal, strict DER reader and writer: exactly what SubjectPublicKeyInfo and
//! OneAsymmetricKey need (SEQUENCE, INTEGER, OBJECT IDENTIFIER, BIT STRING, OCTET STRING,
//! context-specific tags), nothing else.
//!
//! Strictness (X.690 §10): single-byte tags only (low tag numbers), definite lengths,
//! lengths in the minimal form (short form below 128, no leading zero byte in the long
//! form), no trailing bytes where a caller asks for the end. Every failure is a typed
//! [`DerError`]; no input makes this module panic (all indexing is checked).

use alloc::vec::Vec;

/// What is wrong with a DER encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DerError {
    /// The input ended inside a tag, a length or a value.
    Truncated,
    /// A different tag was expected here (`expected`, `found`).
    UnexpectedTag { expected: u8, found: u8 },
    /// Indefinite length (0x80), or a tag number ≥ 31 (multi-byte tags are not used here).
    Unsupported,
    /// A length not in its minimal form (long form for < 128, or a leading zero byte).
    NonMinimalLength,
    /// A length that does not fit the input (or more than 4 length bytes).
    LengthTooLarge,
    /// Bytes left after the end of an element that must be the last.
    TrailingBytes,
    /// An INTEGER, OBJECT IDENTIFIER or BIT STRING whose content is not valid DER
    /// (empty, non-minimal, unused bits in a BIT STRING key, ...).
    InvalidValue,
}

impl core::fmt::Display for DerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DerError::Truncated => f.write_str("DER: input truncated"),
            DerError::UnexpectedTag { expected, found } => {
                write!(f, "DER: expected tag 0x{expected:02x}, found 0x{found:02x}")
            }
            DerError::Unsupported => f.write_str("DER: indefinite length or multi-byte tag"),
            DerError::NonMinimalLength => f.write_str("DER: length not minimally encoded"),
            DerError::LengthTooLarge => f.write_str("DER: length exceeds the input"),
            DerError::TrailingBytes => f.write_str("DER: trailing bytes after the element"),
            DerError::InvalidValue => f.write_str("DER: invalid element content"),
        }
    }
}

pub const TAG_INTEGER: u8 = 0x02;
pub const TAG_BIT_STRING: u8 = 0x03;
pub const TAG_OCTET_STRING: u8 = 0x04;
pub const TAG_NULL: u8 = 0x05;
pub const TAG_OID: u8 = 0x06;
pub const TAG_SEQUENCE: u8 = 0x30;
/// `[0] IMPLICIT` on a primitive type (e.g. ML-DSA's `seed [0] OCTET STRING`).
pub const TAG_CONTEXT_0_PRIMITIVE: u8 = 0x80;
/// `[1] IMPLICIT` on a primitive type (OneAsymmetricKey's `publicKey [1] BIT STRING`).
pub const TAG_CONTEXT_1_PRIMITIVE: u8 = 0x81;
/// `[0]` constructed (OneAsymmetricKey's `attributes [0]`).
pub const TAG_CONTEXT_0_CONSTRUCTED: u8 = 0xa0;

/// A cursor over DER input.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf }
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The tag of the next element, without consuming it.
    pub fn peek_tag(&self) -> Option<u8> {
        self.buf.first().copied()
    }

    /// Reads one element: (tag, content).
    pub fn read_any(&mut self) -> Result<(u8, &'a [u8]), DerError> {
        let (&tag, rest) = self.buf.split_first().ok_or(DerError::Truncated)?;
        if tag & 0x1f == 0x1f {
            return Err(DerError::Unsupported);
        }
        let (&first, mut rest) = rest.split_first().ok_or(DerError::Truncated)?;
        let len = if first < 0x80 {
            first as usize
        } else if first == 0x80 {
            return Err(DerError::Unsupported);
        } else {
            let n = (first & 0x7f) as usize;
            if n > 4 {
                return Err(DerError::LengthTooLarge);
            }
            if rest.len() < n {
                return Err(DerError::Truncated);
            }
            let (lb, r) = rest.split_at(n);
            rest = r;
            if lb[0] == 0 {
                return Err(DerError::NonMinimalLength);
            }
            let len = lb.iter().fold(0usize, |a, &b| (a << 8) | b as usize);
            if len < 0x80 {
                return Err(DerError::NonMinimalLength);
            }
            len
        };
        if rest.len() < len {
            return Err(DerError::Truncated);
        }
        let (content, tail) = rest.split_at(len);
        self.buf = tail;
        Ok((tag, content))
    }

    /// Reads one element that must carry `tag`; returns its content.
    pub fn read(&mut self, tag: u8) -> Result<&'a [u8], DerError> {
        let found = self.peek_tag().ok_or(DerError::Truncated)?;
        if found != tag {
            return Err(DerError::UnexpectedTag {
                expected: tag,
                found,
            });
        }
        Ok(self.read_any()?.1)
    }

    /// A SEQUENCE, as a reader over its content.
    pub fn read_sequence(&mut self) -> Result<Reader<'a>, DerError> {
        Ok(Reader::new(self.read(TAG_SEQUENCE)?))
    }

    /// A small non-negative INTEGER (minimal encoding checked).
    pub fn read_small_uint(&mut self) -> Result<u32, DerError> {
        let c = self.read(TAG_INTEGER)?;
        match c {
            [] => Err(DerError::InvalidValue),
            [x] if *x < 0x80 => Ok(*x as u32),
            [0, x, ..] if *x < 0x80 => Err(DerError::InvalidValue), // non-minimal
            [x, ..] if *x >= 0x80 => Err(DerError::InvalidValue),   // negative
            _ if c.len() > 5 => Err(DerError::InvalidValue),
            _ => Ok(c
                .iter()
                .fold(0u64, |a, &b| (a << 8) | b as u64)
                .min(u32::MAX as u64) as u32),
        }
    }

    /// A BIT STRING with no unused bits (keys are whole bytes); returns the bytes.
    pub fn read_bit_string_octets(&mut self) -> Result<&'a [u8], DerError> {
        let c = self.read(TAG_BIT_STRING)?;
        match c.split_first() {
            Some((0, bits)) => Ok(bits),
            _ => Err(DerError::InvalidValue),
        }
    }

    /// Requires that nothing is left.
    pub fn finish(&self) -> Result<(), DerError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(DerError::TrailingBytes)
        }
    }
}

/// Appends a DER length.
fn push_len(out: &mut Vec<u8>, len: usize) {
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = (len as u64).to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        out.push(0x80 | (8 - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
}

/// Appends one element (tag, minimal length, content).
pub fn write(out: &mut Vec<u8>, tag: u8, content: &[u8]) {
    out.push(tag);
    push_len(out, content.len());
    out.extend_from_slice(content);
}

/// The encoded size of an element with `len` content bytes.
pub fn encoded_len(len: usize) -> usize {
    let mut hdr = Vec::new();
    push_len(&mut hdr, len);
    1 + hdr.len() + len
}

/// Appends a BIT STRING holding whole bytes.
pub fn write_bit_string(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(TAG_BIT_STRING);
    push_len(out, bytes.len() + 1);
    out.push(0);
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_minimal_both_ways() {
        for len in [0usize, 1, 127, 128, 255, 256, 4032, 65535, 65536] {
            let content = alloc::vec![7u8; len];
            let mut out = Vec::new();
            write(&mut out, TAG_OCTET_STRING, &content);
            assert_eq!(out.len(), encoded_len(len));
            let mut r = Reader::new(&out);
            assert_eq!(r.read(TAG_OCTET_STRING).unwrap(), &content[..]);
            r.finish().unwrap();
        }
        // 5 in long form, 200 with a leading zero byte.
        assert_eq!(
            Reader::new(&[4, 0x81, 5, 0, 0, 0, 0, 0]).read_any(),
            Err(DerError::NonMinimalLength)
        );
        let mut v = alloc::vec![4, 0x82, 0, 200];
        v.extend_from_slice(&[0; 200]);
        assert_eq!(Reader::new(&v).read_any(), Err(DerError::NonMinimalLength));
        assert_eq!(
            Reader::new(&[4, 0x80, 0, 0]).read_any(),
            Err(DerError::Unsupported)
        );
        assert_eq!(Reader::new(&[4, 3, 0]).read_any(), Err(DerError::Truncated));
        assert_eq!(
            Reader::new(&[4, 0x85, 1, 1, 1, 1, 1]).read_any(),
            Err(DerError::LengthTooLarge)
        );
        assert_eq!(
            Reader::new(&[0x1f, 1, 0]).read_any(),
            Err(DerError::Unsupported)
        );
    }

    #[test]
    fn integers() {
        assert_eq!(Reader::new(&[2, 1, 0]).read_small_uint(), Ok(0));
        assert_eq!(Reader::new(&[2, 1, 1]).read_small_uint(), Ok(1));
        assert_eq!(
            Reader::new(&[2, 2, 0, 1]).read_small_uint(),
            Err(DerError::InvalidValue)
        );
        assert_eq!(
            Reader::new(&[2, 1, 0xff]).read_small_uint(),
            Err(DerError::InvalidValue)
        );
        assert_eq!(
            Reader::new(&[2, 0]).read_small_uint(),
            Err(DerError::InvalidValue)
        );
        assert_eq!(Reader::new(&[2, 2, 0, 0x80]).read_small_uint(), Ok(0x80));
    }
}
