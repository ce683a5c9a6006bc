//! Typed errors. Malformed bytes and failed verification are kept apart:
//! [`Error::InvalidSignature`] means "these bytes are not a well-formed signature",
//! while a well-formed signature that does not verify yields [`Error::VerificationFailed`].

use core::fmt;

/// Every failure the library reports. No function reachable from the public API panics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// A key has the wrong length or an invalid encoding (coefficient out of range,
    /// `tr` not equal to H(pk), ...).
    InvalidKey,
    /// A signature has the wrong length or a non-canonical encoding.
    InvalidSignature,
    /// A well-formed signature does not verify.
    VerificationFailed,
    /// The context string is longer than 255 bytes.
    ContextTooLong,
    /// A seed, μ or randomness input has the wrong length.
    InvalidLength,
    /// The algorithm name is not known.
    UnknownAlgorithm,
    /// The requested backend is not available on this CPU or build.
    BackendUnavailable,
    /// The operating system's random number generator failed, or the randomness drawn
    /// did not lead to a signature (SNOVA: 254 singular linear systems in a row, the
    /// Round 3 restart limit; probability about 16^-254).
    RandomnessFailure,
    /// The requested pre-hash function is not supported.
    UnsupportedHash,
    /// The algorithm does not offer this operation (e.g. a context string or
    /// deterministic signing with round-3 Falcon, which defines neither).
    Unsupported,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::InvalidKey => "invalid key encoding",
            Error::InvalidSignature => "malformed signature",
            Error::VerificationFailed => "signature verification failed",
            Error::ContextTooLong => "context string longer than 255 bytes",
            Error::InvalidLength => "input has the wrong length",
            Error::UnknownAlgorithm => "unknown algorithm",
            Error::BackendUnavailable => "backend not available on this machine",
            Error::RandomnessFailure => {
                "random number generation failed (or produced no usable signing attempt)"
            }
            Error::UnsupportedHash => "unsupported pre-hash function",
            Error::Unsupported => "operation not supported by this algorithm",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
