//! The seam between the protocol and the service: the listener decodes frames and calls a
//! [`Handler`]; the service (key store, token scopes) implements it.

use crate::types::{ErrorCode, ErrorResponse, Request, Response};
use std::panic::{catch_unwind, AssertUnwindSafe};

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
    /// `None` when it sent none). The listener answers PING and HELLO itself and gives
    /// BATCH to [`Handler::handle_batch`], so `req` is `Request::Sign` or
    /// `Request::Verify`. The answer should be `Signature`, `Valid`, `Invalid` or `Error`;
    /// anything else is sent as an internal error.
    fn handle(&self, auth: Option<&[u8]>, req: Request) -> Response;

    /// Answers the items of one BATCH (each `Request::Sign` or `Request::Verify`; the
    /// listener has checked the count against `max_batch`): one answer per item, in
    /// order, each as [`Handler::handle`] would give it. A wrong number of answers is
    /// sent as an internal error for the whole frame.
    ///
    /// Handlers with a batch path of their own override this so that the batch reaches
    /// it whole (the service and [`crate::KeyMapHandler`] hand it to
    /// `pqsig::batch`, which verifies ML-DSA items in lockstep). The default splits the
    /// batch: [`split_batch`].
    fn handle_batch(&self, auth: Option<&[u8]>, items: Vec<Request>) -> Vec<Response> {
        split_batch(self, auth, items)
    }
}

/// Answers a batch item by item through [`Handler::handle`], the items cut into one
/// contiguous run per core and the runs answered on scoped threads (a handler without
/// a batch path still uses the machine). A panicking item is answered ERROR 500 alone.
pub fn split_batch<H: Handler + ?Sized>(
    handler: &H,
    auth: Option<&[u8]>,
    items: Vec<Request>,
) -> Vec<Response> {
    let one = |req| {
        catch_unwind(AssertUnwindSafe(|| handler.handle(auth, req)))
            .unwrap_or_else(|_| Response::error(ErrorCode::INTERNAL, "the handler failed (bug)"))
    };
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if workers <= 1 {
        return items.into_iter().map(one).collect();
    }
    let per = items.len().div_ceil(workers);
    let mut runs: Vec<Vec<Request>> = Vec::with_capacity(workers);
    let mut rest = items.into_iter();
    loop {
        let run: Vec<Request> = rest.by_ref().take(per).collect();
        if run.is_empty() {
            break;
        }
        runs.push(run);
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = runs
            .into_iter()
            .map(|run| {
                let n = run.len();
                (
                    n,
                    s.spawn(move || run.into_iter().map(one).collect::<Vec<_>>()),
                )
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(n, h)| {
                // `one` catches panics, so a run's thread cannot fail; be safe anyway.
                h.join().unwrap_or_else(|_| {
                    vec![Response::error(ErrorCode::INTERNAL, "the handler failed (bug)"); n]
                })
            })
            .collect()
    })
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
