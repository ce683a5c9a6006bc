//! Falcon (round 3) parameters per degree n = 2^logn, logn = 1..=10.
//!
//! Falcon-512 is logn = 9, Falcon-1024 is logn = 10; the smaller degrees are the
//! reference implementation's test degrees (insecure, but every function supports them).
//! Sizes follow the reference implementation's `falcon.h` formulas; the bit widths of the
//! secret key fields are its `max_fg_bits` / `max_FG_bits` tables.
//!
//! Every function is total: for an unsupported logn the sizes and bounds are 0 (none of
//! them panics).

/// The modulus.
pub const Q: u32 = 12289;
/// Smallest and largest supported logn.
pub const MIN_LOGN: u32 = 1;
pub const MAX_LOGN: u32 = 10;
/// Nonce length in bytes.
pub const NONCE_LEN: usize = 40;

/// Header byte of a public key: `0x00 + logn`.
pub const HEADER_PK: u8 = 0x00;
/// Header byte of a compact secret key: `0x50 + logn`.
pub const HEADER_SK: u8 = 0x50;
/// Header byte of a signature in the NIST signed-message layout: `0x20 + logn`.
pub const HEADER_SIG_NIST: u8 = 0x20;
/// Header byte of a detached compressed or padded signature: `0x30 + logn`.
pub const HEADER_SIG: u8 = 0x30;

/// Largest absolute value of a signature coefficient the compressed encoding accepts.
pub const MAX_SIG_COEFF: i16 = 2047;

/// `floor(β²)`: a signature is valid iff the squared l2 norm of (s1, s2) is at most this
/// (inclusive), indexed by logn (entry 0 unused).
pub const L2_BOUND: [u32; 11] = [
    0, 101498, 208714, 428865, 892039, 1852696, 3842630, 7959734, 16468416, 34034726, 70265242,
];

/// Bits per coefficient of f and g in the compact secret key, indexed by logn.
pub const FG_BITS: [u32; 11] = [0, 8, 8, 8, 8, 8, 7, 7, 6, 6, 5];
/// Bits per coefficient of F (and G) in the compact secret key, indexed by logn.
pub const FG_CAP_BITS: [u32; 11] = [0, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8];

/// True for a supported logn (1..=10).
pub const fn logn_ok(logn: u32) -> bool {
    logn >= MIN_LOGN && logn <= MAX_LOGN
}

/// n = 2^logn (0 where 2^logn does not fit a `usize`).
pub const fn degree(logn: u32) -> usize {
    if logn < usize::BITS {
        1usize << logn
    } else {
        0
    }
}

/// Squared-norm acceptance bound (inclusive); 0 unless `logn` is in 1..=10.
pub const fn l2_bound(logn: u32) -> u32 {
    if logn_ok(logn) {
        L2_BOUND[logn as usize]
    } else {
        0
    }
}

/// Bytes of `count` values of `bits` bits each, packed.
const fn packed(count: usize, bits: u32) -> usize {
    (count * bits as usize).div_ceil(8)
}

/// Encoded h: 14 bits per coefficient (0 unless `logn` is in 1..=10).
pub const fn pk_body_size(logn: u32) -> usize {
    if !logn_ok(logn) {
        return 0;
    }
    packed(degree(logn), 14)
}

/// Public key: header byte + h (897 for logn 9, 1793 for logn 10; 0 unless `logn` is in
/// 1..=10).
pub const fn pk_size(logn: u32) -> usize {
    if !logn_ok(logn) {
        return 0;
    }
    1 + pk_body_size(logn)
}

/// Compact secret key: header + f + g (`FG_BITS` each) + F (`FG_CAP_BITS`)
/// (1281 for logn 9, 2305 for logn 10; 0 unless `logn` is in 1..=10).
pub const fn sk_size(logn: u32) -> usize {
    if !logn_ok(logn) {
        return 0;
    }
    let n = degree(logn);
    1 + 2 * packed(n, FG_BITS[logn as usize]) + packed(n, FG_CAP_BITS[logn as usize])
}

/// Largest detached compressed signature: header + nonce + the longest comp(s2) the
/// reference signer emits (752 for logn 9, 1462 for logn 10; 0 unless `logn` is in
/// 1..=10).
pub const fn sig_compressed_max_size(logn: u32) -> usize {
    if !logn_ok(logn) {
        return 0;
    }
    ((11usize << logn) + (101usize >> (10 - logn))).div_ceil(8) + 41
}

/// Padded signature: header + nonce + comp(s2) + zero padding (666 for logn 9, 1280 for
/// logn 10; 0 unless `logn` is in 1..=10).
pub const fn sig_padded_size(logn: u32) -> usize {
    if !logn_ok(logn) {
        return 0;
    }
    let s = 10 - logn;
    44 + 3 * (256 >> s) + 2 * (128 >> s) + 3 * (64 >> s) + 2 * (16 >> s)
        - 2 * (2 >> s)
        - 8 * (1 >> s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_sizes() {
        assert_eq!(pk_size(9), 897);
        assert_eq!(pk_size(10), 1793);
        assert_eq!(pk_size(1), 5);
        assert_eq!(pk_size(2), 8);
        assert_eq!(sk_size(9), 1281);
        assert_eq!(sk_size(10), 2305);
        assert_eq!(sk_size(1), 7);
        assert_eq!(sk_size(6), 1 + 112 + 64);
        assert_eq!(sig_compressed_max_size(9), 752);
        assert_eq!(sig_compressed_max_size(10), 1462);
        assert_eq!(sig_padded_size(9), 666);
        assert_eq!(sig_padded_size(10), 1280);
        for logn in MIN_LOGN..=MAX_LOGN {
            assert!(sig_padded_size(logn) > 1 + NONCE_LEN);
            assert!(sig_padded_size(logn) <= sig_compressed_max_size(logn));
        }
        for logn in [0, 11, 31, 32, 63, 64, 65, u32::MAX] {
            assert_eq!(pk_size(logn), 0);
            assert_eq!(sk_size(logn), 0);
            assert_eq!(sig_padded_size(logn), 0);
            assert_eq!(sig_compressed_max_size(logn), 0);
            assert_eq!(l2_bound(logn), 0);
        }
        assert_eq!(degree(u32::MAX), 0);
    }
}
