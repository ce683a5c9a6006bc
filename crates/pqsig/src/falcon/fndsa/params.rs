//! FN-DSA (draft, fn-dsa 0.4.0) sizes and bounds per degree. DRAFT: will change with
//! FIPS 206.
//!
//! Every function is total: for a logn outside 2..=10 the sizes are 0 (none panics).

/// Smallest supported logn (degree 4; toy degrees 2..=8 exist only for tests).
pub const LOGN_MIN: u32 = 2;
/// Largest supported logn (FN-DSA-1024).
pub const LOGN_MAX: u32 = 10;
/// logn of FN-DSA-512.
pub const LOGN_512: u32 = 9;
/// logn of FN-DSA-1024.
pub const LOGN_1024: u32 = 10;

/// q.
pub const Q: u32 = 12289;
/// Largest |coefficient| of s1 and s2 a signature may have (L∞ bound).
pub const B_INF: i32 = 840;
/// Nonce length.
pub const NONCE_LEN: usize = 40;
/// Length of the hashed verifying key and of μ.
pub const MU_LEN: usize = 64;
/// Length of the key-generation seed.
pub const KEYGEN_SEED_LEN: usize = 32;
/// Length of the signing randomness.
pub const SIGN_SEED_LEN: usize = 40;
/// Length of the signing-key hash used for hedging.
pub const HSK_LEN: usize = 40;

/// Squared norm bound ⌊β²⌋ per logn (index 0 unused): the round-3 values.
pub const SQBETA: [u32; 11] = [
    0, 101498, 208714, 428865, 892039, 1852696, 3842630, 7959734, 16468416, 34034726, 70265242,
];

/// True for the degrees FN-DSA (this draft) defines.
#[inline]
pub const fn logn_ok(logn: u32) -> bool {
    logn >= LOGN_MIN && logn <= LOGN_MAX
}

/// Bits per coefficient of f and g in the signing key.
#[inline]
pub const fn fg_bits(logn: u32) -> u32 {
    match logn {
        0..=5 => 8,
        6..=7 => 7,
        8..=9 => 6,
        _ => 5,
    }
}

/// Verifying-key length: header + 14 bits per coefficient (0 for an unsupported logn).
#[inline]
pub const fn vrfy_key_size(logn: u32) -> usize {
    if !logn_ok(logn) {
        return 0;
    }
    1 + (7 << (logn - 2))
}

/// Signing-key length: header + f + g + F (8 bits) + hashed verifying key (0 for an
/// unsupported logn).
#[inline]
pub const fn sign_key_size(logn: u32) -> usize {
    if !logn_ok(logn) {
        return 0;
    }
    1 + ((fg_bits(logn) as usize) << (logn - 2)) + (1 << logn) + MU_LEN
}

/// Signature length (fixed; the round-3 "padded" sizes; 0 for an unsupported logn).
#[inline]
pub const fn signature_size(logn: u32) -> usize {
    const SIZES: [usize; 11] = [0, 0, 47, 52, 63, 82, 122, 200, 356, 666, 1280];
    if !logn_ok(logn) {
        return 0;
    }
    SIZES[logn as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(vrfy_key_size(9), 897);
        assert_eq!(vrfy_key_size(10), 1793);
        assert_eq!(sign_key_size(9), 1345);
        assert_eq!(sign_key_size(10), 2369);
        assert_eq!(signature_size(9), 666);
        assert_eq!(signature_size(10), 1280);
        for logn in [0, 1, 11, 32, u32::MAX] {
            assert_eq!(vrfy_key_size(logn), 0);
            assert_eq!(sign_key_size(logn), 0);
            assert_eq!(signature_size(logn), 0);
        }
    }
}
