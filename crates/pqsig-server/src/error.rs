//! The one error type every transport reports: an HTTP-style status, a stable
//! machine-readable code and a human message. The HTTP layer turns it into
//! `{"error": {"code", "message"}}`; the binary protocol can carry the same code.

use core::fmt;

/// A request failure with the HTTP status it maps to. Codes are part of the public API
/// (docs/SERVER.md lists them) and never change meaning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status (400..=599); other transports map it to their own codes.
    pub status: u16,
    /// Stable snake_case code, e.g. `unknown_algorithm`.
    pub code: &'static str,
    /// Human-readable explanation (never contains secret material).
    pub message: String,
}

impl ApiError {
    /// An error with an explicit status and code.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }
    /// 400: the request is well-formed transport-wise but its content is not acceptable.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(400, code, message)
    }
    /// 401: no token, or a token the server does not know.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(401, "unauthorized", message)
    }
    /// 403: the token is valid but not scoped for this key or operation.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(403, "forbidden", message)
    }
    /// 404 for a key id that was never created.
    pub fn key_not_found(id: &str) -> Self {
        Self::new(
            404,
            "key_not_found",
            format!("no key with id {:?}", crate::service::clip(id)),
        )
    }
    /// 410 for a key that was soft-deleted.
    pub fn key_deleted(id: &str) -> Self {
        Self::new(
            410,
            "key_deleted",
            format!("key {:?} has been deleted", crate::service::clip(id)),
        )
    }
    /// 413 for bodies, messages or batches over the configured caps.
    pub fn too_large(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(413, code, message)
    }
    /// 429: the token already has its maximum number of requests in flight.
    pub fn too_many_requests(message: impl Into<String>) -> Self {
        Self::new(429, "too_many_requests", message)
    }
    /// 500: a server-side failure (store unreachable, ...); details are logged, not sent.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(500, "internal", message)
    }
    /// 503: the request ran past the configured timeout.
    pub fn timeout() -> Self {
        Self::new(
            503,
            "timeout",
            "the request took longer than the configured timeout",
        )
    }

    /// Maps a library error raised while handling caller-supplied input to a 4xx.
    pub fn from_pqsig(e: pqsig::Error, what: &str) -> Self {
        use pqsig::Error as E;
        match e {
            E::InvalidKey => Self::bad_request("invalid_public_key", format!("{what}: invalid key encoding")),
            E::InvalidSignature => Self::bad_request("invalid_signature", format!("{what}: malformed signature")),
            E::ContextTooLong => Self::bad_request("context_too_long", "context is longer than 255 bytes"),
            E::InvalidLength => Self::bad_request("invalid_length", format!("{what}: wrong input length (mu is 64 bytes)")),
            E::UnknownAlgorithm => Self::bad_request("unknown_algorithm", format!("{what}: unknown algorithm")),
            E::Unsupported => Self::bad_request(
                "unsupported",
                format!("{what}: the algorithm does not offer this (context, deterministic signing or external mu)"),
            ),
            other => Self::internal(format!("{what}: {other}")),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)
    }
}

impl std::error::Error for ApiError {}
