//! The seam between the protocol and the service: the listener decodes frames and calls a
//! [`Handler`]; the service (key store, token scopes) implements it.

use crate::types::{ErrorCode, ErrorResponse, Request, Response};

/// What the listener calls. Both methods are called on a blocking thread
/// (`tokio::task::spawn_blocking`), so they may sign, verify and read a database
/// synchronously.
pub trait Handler: Send + Sync + 'static {
    /// Checks the token of a HELLO frame. `Err` is sent as ERROR (normally 401) and the
    /// connection is closed; `Ok` makes the token the connection's `auth` for every later
    /// request. Finer checks (token scoped to keys and operations) belong in
    /// [`Handler::handle`]. The default accepts any token.
    fn authenticate(&self, token: &[u8]) -> Result<(), ErrorResponse> {
        let _ = token;
        Ok(())
    }

    /// Answers one SIGN or VERIFY request (`auth`: the token of the connection's HELLO,
    /// `None` when it sent none). The listener answers PING and HELLO itself and splits
    /// BATCH into single requests (run in parallel), so `req` is `Request::Sign` or
    /// `Request::Verify`. The answer should be `Signature`, `Valid`, `Invalid` or `Error`;
    /// anything else is sent as an internal error.
    fn handle(&self, auth: Option<&[u8]>, req: Request) -> Response;
}

/// The ERROR for a library error, shared by handlers so every front end reports the
/// same condition with the same code. (`VerificationFailed` and `InvalidSignature` are
/// verdicts, not errors: a VERIFY handler answers `Invalid` for them.)
pub fn error_response(e: pqsig::Error) -> ErrorResponse {
    use pqsig::Error as E;
    let code = match e {
        E::ContextTooLong | E::InvalidLength | E::InvalidSignature | E::VerificationFailed => {
            ErrorCode::BAD_REQUEST
        }
        E::InvalidKey | E::UnknownAlgorithm | E::UnsupportedHash | E::Unsupported => {
            ErrorCode::UNSUPPORTED
        }
        // Device failures, and kinds added later (`Error` is non-exhaustive), are the
        // server's problem, not the request's.
        _ => ErrorCode::INTERNAL,
    };
    ErrorResponse::new(code, e.to_string())
}
