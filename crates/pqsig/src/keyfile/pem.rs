//! PEM armour (RFC 7468): `-----BEGIN <label>-----`, base64 in lines of 64 characters,
//! `-----END <label>-----`.
//!
//! Output: LF line endings, 64-character lines, a final newline. Input: LF or CRLF line
//! endings, whitespace before BEGIN and after END, lines of any length; the base64 is
//! strict (standard alphabet, `=` padding required and only at the end, unused bits zero,
//! no other characters), and the END label must equal the BEGIN label.

use alloc::string::String;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// What is wrong with a PEM block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PemError {
    /// No `-----BEGIN ...-----` line, no matching END line, or text outside the block.
    BadArmour,
    /// The END label differs from the BEGIN label.
    LabelMismatch,
    /// A character outside the base64 alphabet, bad padding or non-zero unused bits.
    BadBase64,
}

impl core::fmt::Display for PemError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            PemError::BadArmour => "PEM: missing or malformed BEGIN/END lines",
            PemError::LabelMismatch => "PEM: END label differs from BEGIN label",
            PemError::BadBase64 => "PEM: invalid base64",
        })
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn b64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Base64 without line breaks.
pub fn base64_encode(data: &[u8]) -> Zeroizing<String> {
    let mut s = Zeroizing::new(String::with_capacity(data.len().div_ceil(3) * 4));
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = ((b[0] as u32) << 16) | ((b[1] as u32) << 8) | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Strict base64 decoding of a string without whitespace.
pub fn base64_decode(s: &[u8]) -> Result<Zeroizing<Vec<u8>>, PemError> {
    if !s.len().is_multiple_of(4) {
        return Err(PemError::BadBase64);
    }
    let mut out = Zeroizing::new(Vec::with_capacity(s.len() / 4 * 3));
    let quads = s.len() / 4;
    for (qi, q) in s.chunks(4).enumerate() {
        let last = qi + 1 == quads;
        let pad = q.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return Err(PemError::BadBase64);
        }
        let mut n: u32 = 0;
        for &c in &q[..4 - pad] {
            n = (n << 6) | b64_value(c).ok_or(PemError::BadBase64)? as u32;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = 3 - pad;
        // Unused bits of the last character must be zero (canonical encoding).
        if bytes[keep..].iter().any(|&b| b != 0) {
            return Err(PemError::BadBase64);
        }
        out.extend_from_slice(&bytes[..keep]);
    }
    Ok(out)
}

/// Armours `der` under `label`.
pub fn encode(label: &str, der: &[u8]) -> Zeroizing<String> {
    let b64 = base64_encode(der);
    let mut s = Zeroizing::new(String::with_capacity(
        b64.len() + b64.len() / 64 + 2 * label.len() + 40,
    ));
    s.push_str("-----BEGIN ");
    s.push_str(label);
    s.push_str("-----\n");
    for line in b64.as_bytes().chunks(64) {
        // The alphabet is ASCII, so every chunk is valid UTF-8.
        s.push_str(core::str::from_utf8(line).unwrap_or(""));
        s.push('\n');
    }
    s.push_str("-----END ");
    s.push_str(label);
    s.push_str("-----\n");
    s
}

/// Whether `data` looks like PEM (starts, after whitespace, with `-----BEGIN `).
pub fn looks_like_pem(data: &[u8]) -> bool {
    let start = data
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(data.len());
    data[start..].starts_with(b"-----BEGIN ")
}

/// Removes the armour: returns (label, DER bytes).
pub fn decode(data: &[u8]) -> Result<(String, Zeroizing<Vec<u8>>), PemError> {
    let text = core::str::from_utf8(data).map_err(|_| PemError::BadArmour)?;
    let mut lines = text
        .trim()
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l));
    let first = lines.next().ok_or(PemError::BadArmour)?;
    let label = first
        .strip_prefix("-----BEGIN ")
        .and_then(|l| l.strip_suffix("-----"))
        .ok_or(PemError::BadArmour)?;
    if label.is_empty() || label.starts_with('-') || label.ends_with('-') {
        return Err(PemError::BadArmour);
    }
    let mut body = Zeroizing::new(Vec::new());
    let mut ended = false;
    for line in lines.by_ref() {
        if let Some(rest) = line.strip_prefix("-----END ") {
            let end_label = rest.strip_suffix("-----").ok_or(PemError::BadArmour)?;
            if end_label != label {
                return Err(PemError::LabelMismatch);
            }
            ended = true;
            break;
        }
        let line = line.trim_end_matches([' ', '\t']);
        if line.starts_with("-----") {
            return Err(PemError::BadArmour);
        }
        body.extend_from_slice(line.as_bytes());
    }
    if !ended || lines.next().is_some() {
        return Err(PemError::BadArmour);
    }
    let der = base64_decode(&body)?;
    Ok((String::from(label), der))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_known_answers_and_strictness() {
        assert_eq!(base64_encode(b"").as_str(), "");
        assert_eq!(base64_encode(b"f").as_str(), "Zg==");
        assert_eq!(base64_encode(b"fo").as_str(), "Zm8=");
        assert_eq!(base64_encode(b"foobar").as_str(), "Zm9vYmFy");
        assert_eq!(&base64_decode(b"Zm8=").unwrap()[..], b"fo");
        for bad in [
            &b"Zm8"[..],
            b"Zm9=",
            b"Zg=a",
            b"Z===",
            b"Zm8=Zm8=",
            b"Zm 8",
            b"Zm-8",
        ] {
            assert_eq!(base64_decode(bad), Err(PemError::BadBase64), "{bad:?}");
        }
    }

    #[test]
    fn armour_round_trip_crlf_and_labels() {
        let der: Vec<u8> = (0..=200u8).collect();
        let pem = encode("PUBLIC KEY", &der);
        assert!(pem.lines().all(|l| l.len() <= 64));
        let (label, back) = decode(pem.as_bytes()).unwrap();
        assert_eq!((label.as_str(), &back[..]), ("PUBLIC KEY", &der[..]));
        let crlf = pem.replace('\n', "\r\n");
        assert_eq!(&decode(crlf.as_bytes()).unwrap().1[..], &der[..]);
        let wrong = pem.replace("END PUBLIC", "END PRIVATE");
        assert_eq!(decode(wrong.as_bytes()), Err(PemError::LabelMismatch));
        let no_end = pem.replace("-----END PUBLIC KEY-----", "");
        assert_eq!(decode(no_end.as_bytes()), Err(PemError::BadArmour));
    }
}
