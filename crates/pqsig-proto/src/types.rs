//! The typed messages of the protocol (docs/PROTOCOL.md): what a frame means once its
//! bytes are decoded. No IO and no wire layout here (that is `codec`).

use std::fmt;
use zeroize::Zeroizing;

/// Length of an external μ (FIPS 204 §6 / RFC 9881 "external mu"): 64 bytes.
pub const MU_LEN: usize = 64;
/// Longest context string a scheme accepts (FIPS 204: 255 bytes).
pub const MAX_CONTEXT_LEN: usize = 255;
/// Longest key id: ids are short names or UUIDs, not data.
pub const MAX_KEY_ID_LEN: usize = 255;

/// What is signed or verified: the message itself or its 64-byte μ computed by the client
/// (ML-DSA, FN-DSA), which keeps large messages off the wire.
#[derive(Clone, PartialEq, Eq)]
pub enum Input {
    /// The message bytes.
    Message(Vec<u8>),
    /// μ = H(tr ‖ M′) computed by the client; the context is already bound into it.
    Mu([u8; MU_LEN]),
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Messages may be large: show sizes, not contents.
        match self {
            Input::Message(m) => write!(f, "Message({} bytes)", m.len()),
            Input::Mu(_) => f.write_str("Mu(64 bytes)"),
        }
    }
}

/// SIGN: sign `input` with the server-held key `key_id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignRequest {
    /// The server's name for the key.
    pub key_id: String,
    /// The message or its μ.
    pub input: Input,
    /// Context string (at most 255 bytes; must be empty with μ).
    pub context: Vec<u8>,
    /// Deterministic signing (ML-DSA only) instead of hedged signing.
    pub deterministic: bool,
}

/// Which public key a VERIFY uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyRef {
    /// A key held by the server.
    Id(String),
    /// A key sent along: the algorithm's name (as `pqsig list` prints it) and the raw
    /// public key in the scheme's standard encoding.
    Inline {
        /// Algorithm name, e.g. `ML-DSA-65`.
        algorithm: String,
        /// The raw public key.
        public_key: Vec<u8>,
    },
}

/// VERIFY: check `signature` over `input` under `key`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyRequest {
    /// The public key to verify with.
    pub key: KeyRef,
    /// The message or its μ.
    pub input: Input,
    /// Context string (at most 255 bytes; must be empty with μ).
    pub context: Vec<u8>,
    /// The signature bytes.
    pub signature: Vec<u8>,
}

/// A request frame's content.
#[derive(Clone, PartialEq, Eq)]
pub enum Request {
    /// Liveness check; the server echoes the data in PONG.
    Ping(Vec<u8>),
    /// Authenticates the connection with a bearer token (first frame only).
    Hello {
        /// The bearer token (wiped on drop).
        token: Zeroizing<Vec<u8>>,
    },
    /// Sign one message.
    Sign(SignRequest),
    /// Verify one signature.
    Verify(VerifyRequest),
    /// Several SIGN / VERIFY requests answered by one BATCH_RESULT in the same order
    /// (items may only be `Sign` or `Verify`).
    Batch(Vec<Request>),
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Ping(d) => write!(f, "Ping({} bytes)", d.len()),
            // Never print the token.
            Request::Hello { .. } => f.write_str("Hello { token: <redacted> }"),
            Request::Sign(r) => f.debug_tuple("Sign").field(r).finish(),
            Request::Verify(r) => f.debug_tuple("Verify").field(r).finish(),
            Request::Batch(items) => f.debug_tuple("Batch").field(items).finish(),
        }
    }
}

/// The limits a server announces in HELLO_OK, so clients can size batches and pipelines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest request payload the server reads (bytes, header excluded).
    pub max_payload: u32,
    /// Requests answered concurrently per connection; further ones wait unread.
    pub max_in_flight: u32,
    /// Most items in one BATCH.
    pub max_batch: u32,
}

/// An error code: HTTP-like numbers so that the HTTP and socket front ends report the
/// same conditions the same way. Unknown codes decode unchanged (forward compatible).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ErrorCode(pub u16);

impl ErrorCode {
    /// Malformed frame payload or field, bad option combination (e.g. context with μ).
    pub const BAD_REQUEST: ErrorCode = ErrorCode(400);
    /// No token, or the token is not known.
    pub const UNAUTHORIZED: ErrorCode = ErrorCode(401);
    /// The token may not use this key or operation.
    pub const FORBIDDEN: ErrorCode = ErrorCode(403);
    /// No key with this id.
    pub const NOT_FOUND: ErrorCode = ErrorCode(404);
    /// Frame, message or batch over the server's limit (send μ for large messages).
    pub const TOO_LARGE: ErrorCode = ErrorCode(413);
    /// Well-formed but not offered: unknown algorithm, or an option the algorithm lacks
    /// (context for Falcon/SNOVA, deterministic signing, μ), or a malformed public key.
    pub const UNSUPPORTED: ErrorCode = ErrorCode(422);
    /// The server failed (a bug or the OS random generator).
    pub const INTERNAL: ErrorCode = ErrorCode(500);
    /// Unknown opcode.
    pub const UNKNOWN_OPCODE: ErrorCode = ErrorCode(501);
    /// The server is shutting down; unanswered requests may be retried elsewhere.
    pub const SHUTTING_DOWN: ErrorCode = ErrorCode(503);
    /// Unsupported protocol version (or bad magic: not this protocol).
    pub const BAD_VERSION: ErrorCode = ErrorCode(505);
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.0 {
            400 => "bad request",
            401 => "unauthorized",
            403 => "forbidden",
            404 => "not found",
            413 => "too large",
            422 => "unsupported",
            500 => "internal error",
            501 => "unknown opcode",
            503 => "shutting down",
            505 => "unsupported protocol version",
            _ => "error",
        };
        write!(f, "{} {name}", self.0)
    }
}

/// An ERROR frame's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorResponse {
    /// What kind of failure.
    pub code: ErrorCode,
    /// One line for humans (UTF-8).
    pub message: String,
}

impl ErrorResponse {
    /// An error with this code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ErrorResponse {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for ErrorResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ErrorResponse {}

/// A response frame's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// Answer to PING (the same data).
    Pong(Vec<u8>),
    /// HELLO accepted; the server's limits.
    HelloOk(Limits),
    /// SIGN succeeded.
    Signature(Vec<u8>),
    /// VERIFY: the signature is valid.
    Valid,
    /// VERIFY: the signature is malformed or does not verify.
    Invalid,
    /// The request failed.
    Error(ErrorResponse),
    /// Answer to BATCH: one `Signature`, `Valid`, `Invalid` or `Error` per item, in order.
    Batch(Vec<Response>),
}

impl Response {
    /// Shorthand for `Response::Error(ErrorResponse::new(code, message))`.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> Self {
        Response::Error(ErrorResponse::new(code, message))
    }
}
