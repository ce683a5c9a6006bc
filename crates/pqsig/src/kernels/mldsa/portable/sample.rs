//! Rejection samplers (FIPS 204 Algorithms 14–15 inner loops). They run on public
//! (ExpandA) or secret (ExpandS) data; the accept/reject decision depends only on the
//! SHAKE output, and the number of samples taken is declassified as FIPS 204 allows
//! (it reveals nothing about the accepted values).

use super::super::Q;

/// Accepts 23-bit little-endian candidates below q. Returns the count written.
pub fn rej_uniform(out: &mut [i32], buf: &[u8]) -> usize {
    let mut ctr = 0;
    let mut pos = 0;
    while ctr < out.len() && pos + 3 <= buf.len() {
        let t = (buf[pos] as u32 | (buf[pos + 1] as u32) << 8 | (buf[pos + 2] as u32) << 16)
            & 0x7F_FFFF;
        pos += 3;
        if t < Q as u32 {
            out[ctr] = t as i32;
            ctr += 1;
        }
    }
    ctr
}

/// η = 2: nibbles < 15 map to 2 − (t mod 5); η = 4: nibbles < 9 map to 4 − t.
/// Low nibble first. Returns the count written.
pub fn rej_eta(eta: i32, out: &mut [i32], buf: &[u8]) -> usize {
    let mut ctr = 0;
    for &b in buf {
        if ctr >= out.len() {
            break;
        }
        for t in [(b & 0x0F) as i32, (b >> 4) as i32] {
            if ctr >= out.len() {
                break;
            }
            // Which nibbles are rejected is public (declassification, docs/ARCHITECTURE.md);
            // the accepted values stay secret.
            if eta == 2 {
                if crate::ct::public(t < 15) {
                    // t mod 5 without a division: t − 5·⌊(205·t) / 1024⌋ for t < 15.
                    out[ctr] = 2 - (t - ((205 * t) >> 10) * 5);
                    ctr += 1;
                }
            } else if crate::ct::public(t < 9) {
                out[ctr] = 4 - t;
                ctr += 1;
            }
        }
    }
    ctr
}
