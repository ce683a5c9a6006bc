//! Typed errors. Malformed bytes and failed verification are kept apart:
//! [`Error::InvalidSignature`] means "these bytes are not a well-formed signature",
//! while a well-formed signature that does not verify yields [`Error::VerificationFailed`].

use core::fmt;

/// Every failure the library reports. No function reachable from the public API panics.
///
/// Non-exhaustive: new failure kinds (new devices, new schemes) may be added in a minor
/// release, so matches need a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// An offload device (see `pqsig::batch`) did not complete a request. The batch
    /// engine falls back to the CPU on these; they reach a caller only when the caller
    /// asked for the device and nothing else.
    Device(DeviceError),
}

/// Why a device did not complete a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DeviceError {
    /// No device of that name is registered.
    NotFound,
    /// The device is at its in-flight limit; try again later (or on the CPU).
    Busy,
    /// The device does not take this request (algorithm, operation or size).
    Declined,
    /// The device reported a failure, or its reply was malformed.
    Failed,
    /// The device did not answer within its deadline.
    TimedOut,
}

impl DeviceError {
    /// A short lower-case description.
    pub fn as_str(self) -> &'static str {
        match self {
            DeviceError::NotFound => "no such device",
            DeviceError::Busy => "device busy",
            DeviceError::Declined => "device declined the request",
            DeviceError::Failed => "device failed",
            DeviceError::TimedOut => "device timed out",
        }
    }
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<DeviceError> for Error {
    fn from(e: DeviceError) -> Self {
        Error::Device(e)
    }
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
            Error::Device(d) => d.as_str(),
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

#[cfg(feature = "std")]
impl std::error::Error for DeviceError {}
