//! HashML-DSA pre-hash functions (FIPS 204 §5.4) and their DER-encoded OIDs.

use crate::error::Error;
use crate::kernels::keccak::f1600::{keccak_f1600_active, Permute1};
use crate::kernels::keccak::sponge::{sha3_on, shake128_on, shake256_on};
use sha2::Digest;

/// The pre-hash functions FIPS 204 and ACVP list for HashML-DSA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashAlg {
    Sha2_224,
    Sha2_256,
    Sha2_384,
    Sha2_512,
    Sha2_512_224,
    Sha2_512_256,
    Sha3_224,
    Sha3_256,
    Sha3_384,
    Sha3_512,
    /// SHAKE128 with 256-bit output.
    Shake128,
    /// SHAKE256 with 512-bit output.
    Shake256,
}

impl HashAlg {
    pub const ALL: [HashAlg; 12] = [
        HashAlg::Sha2_224,
        HashAlg::Sha2_256,
        HashAlg::Sha2_384,
        HashAlg::Sha2_512,
        HashAlg::Sha2_512_224,
        HashAlg::Sha2_512_256,
        HashAlg::Sha3_224,
        HashAlg::Sha3_256,
        HashAlg::Sha3_384,
        HashAlg::Sha3_512,
        HashAlg::Shake128,
        HashAlg::Shake256,
    ];

    /// The ACVP name (`SHA2-256`, `SHA3-512`, `SHAKE-128`, ...).
    pub fn name(self) -> &'static str {
        match self {
            HashAlg::Sha2_224 => "SHA2-224",
            HashAlg::Sha2_256 => "SHA2-256",
            HashAlg::Sha2_384 => "SHA2-384",
            HashAlg::Sha2_512 => "SHA2-512",
            HashAlg::Sha2_512_224 => "SHA2-512/224",
            HashAlg::Sha2_512_256 => "SHA2-512/256",
            HashAlg::Sha3_224 => "SHA3-224",
            HashAlg::Sha3_256 => "SHA3-256",
            HashAlg::Sha3_384 => "SHA3-384",
            HashAlg::Sha3_512 => "SHA3-512",
            HashAlg::Shake128 => "SHAKE-128",
            HashAlg::Shake256 => "SHAKE-256",
        }
    }

    /// Parses an ACVP-style name; also accepts `SHA256`, `SHA-256`, `SHAKE128` spellings.
    pub fn from_name(s: &str) -> Result<HashAlg, Error> {
        let norm: alloc::string::String = s
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .flat_map(|c| c.to_uppercase())
            .collect();
        Ok(match norm.as_str() {
            "SHA2224" | "SHA224" => HashAlg::Sha2_224,
            "SHA2256" | "SHA256" => HashAlg::Sha2_256,
            "SHA2384" | "SHA384" => HashAlg::Sha2_384,
            "SHA2512" | "SHA512" => HashAlg::Sha2_512,
            "SHA2512/224" | "SHA512/224" => HashAlg::Sha2_512_224,
            "SHA2512/256" | "SHA512/256" => HashAlg::Sha2_512_256,
            "SHA3224" => HashAlg::Sha3_224,
            "SHA3256" => HashAlg::Sha3_256,
            "SHA3384" => HashAlg::Sha3_384,
            "SHA3512" => HashAlg::Sha3_512,
            "SHAKE128" => HashAlg::Shake128,
            "SHAKE256" => HashAlg::Shake256,
            _ => return Err(Error::UnsupportedHash),
        })
    }

    /// Last byte of the NIST OID 2.16.840.1.101.3.4.2.x.
    fn oid_arc(self) -> u8 {
        match self {
            HashAlg::Sha2_256 => 1,
            HashAlg::Sha2_384 => 2,
            HashAlg::Sha2_512 => 3,
            HashAlg::Sha2_224 => 4,
            HashAlg::Sha2_512_224 => 5,
            HashAlg::Sha2_512_256 => 6,
            HashAlg::Sha3_224 => 7,
            HashAlg::Sha3_256 => 8,
            HashAlg::Sha3_384 => 9,
            HashAlg::Sha3_512 => 10,
            HashAlg::Shake128 => 11,
            HashAlg::Shake256 => 12,
        }
    }

    /// The DER encoding of the OID (tag, length and value), as it enters M'.
    pub fn oid_der(self) -> [u8; 11] {
        [
            0x06,
            0x09,
            0x60,
            0x86,
            0x48,
            0x01,
            0x65,
            0x03,
            0x04,
            0x02,
            self.oid_arc(),
        ]
    }

    /// Digest length in bytes.
    pub fn output_len(self) -> usize {
        match self {
            HashAlg::Sha2_224 | HashAlg::Sha2_512_224 | HashAlg::Sha3_224 => 28,
            HashAlg::Sha2_256 | HashAlg::Sha2_512_256 | HashAlg::Sha3_256 | HashAlg::Shake128 => 32,
            HashAlg::Sha2_384 | HashAlg::Sha3_384 => 48,
            HashAlg::Sha2_512 | HashAlg::Sha3_512 | HashAlg::Shake256 => 64,
        }
    }

    /// PH(M), written to the first `output_len()` bytes of `out`; returns that length.
    pub fn digest(self, msg: &[u8], out: &mut [u8; 64]) -> usize {
        self.digest_on(keccak_f1600_active, msg, out)
    }

    /// [`HashAlg::digest`] with the Keccak permutation `perm` for the SHA-3 family (a
    /// key's backend's).
    pub fn digest_on(self, perm: Permute1, msg: &[u8], out: &mut [u8; 64]) -> usize {
        let n = self.output_len();
        match self {
            HashAlg::Sha2_224 => out[..n].copy_from_slice(&sha2::Sha224::digest(msg)),
            HashAlg::Sha2_256 => out[..n].copy_from_slice(&sha2::Sha256::digest(msg)),
            HashAlg::Sha2_384 => out[..n].copy_from_slice(&sha2::Sha384::digest(msg)),
            HashAlg::Sha2_512 => out[..n].copy_from_slice(&sha2::Sha512::digest(msg)),
            HashAlg::Sha2_512_224 => out[..n].copy_from_slice(&sha2::Sha512_224::digest(msg)),
            HashAlg::Sha2_512_256 => out[..n].copy_from_slice(&sha2::Sha512_256::digest(msg)),
            HashAlg::Sha3_224 | HashAlg::Sha3_256 | HashAlg::Sha3_384 | HashAlg::Sha3_512 => {
                sha3_on(perm, msg, &mut out[..n])
            }
            HashAlg::Shake128 => shake128_on(perm, &[msg], &mut out[..n]),
            HashAlg::Shake256 => shake256_on(perm, &[msg], &mut out[..n]),
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_round_trip() {
        for h in HashAlg::ALL {
            assert_eq!(HashAlg::from_name(h.name()), Ok(h));
        }
        assert_eq!(HashAlg::from_name("sha256"), Ok(HashAlg::Sha2_256));
        assert!(HashAlg::from_name("md5").is_err());
    }
}
