//! The binary socket protocol (docs/PROTOCOL.md, crate `pqsig-proto`) in front of the same
//! [`Service`] as the HTTP API: the same tokens, scopes, per-token concurrency limit, key
//! store, caches and metrics. Only the framing differs.

use crate::error::ApiError;
use crate::service::{KeyRef, Payload, Service, SignInput, VerifyInput};
use bytes::Bytes;
use pqsig_proto::{ErrorCode, ErrorResponse, Handler, Input, Request, Response};
use std::sync::Arc;

/// The protocol's [`Handler`] over a shared [`Service`].
pub struct ProtoHandler(pub Arc<Service>);

/// A service error as a protocol ERROR. The protocol's codes are HTTP's (400, 401, 403,
/// 404, 413, 422, 429, 500, 503), so the status passes through unchanged and a client
/// sees the same condition under the same number on both transports.
fn to_proto(e: ApiError) -> ErrorResponse {
    ErrorResponse::new(ErrorCode(e.status), format!("{}: {}", e.code, e.message))
}

/// The token of a HELLO as text (tokens are printable in the config file).
fn token_str(token: &[u8]) -> Result<&str, ErrorResponse> {
    std::str::from_utf8(token)
        .map_err(|_| ErrorResponse::new(ErrorCode::UNAUTHORIZED, "token is not UTF-8"))
}

fn payload(input: Input) -> Payload {
    match input {
        Input::Message(m) => Payload::Message(m.into()),
        Input::Mu(mu) => Payload::Mu(Bytes::copy_from_slice(&mu)),
    }
}

/// A protocol SIGN as the service's input, with the key id it names.
pub(crate) fn sign_input(s: pqsig_proto::SignRequest) -> (String, SignInput) {
    let input = SignInput {
        payload: payload(s.input),
        context: s.context.into(),
        deterministic: s.deterministic,
    };
    (s.key_id, input)
}

/// A protocol VERIFY as the service's input.
pub(crate) fn verify_input(v: pqsig_proto::VerifyRequest) -> VerifyInput {
    let (key, alg) = match v.key {
        pqsig_proto::KeyRef::Id(id) => (KeyRef::Id(id), None),
        pqsig_proto::KeyRef::Inline {
            algorithm,
            public_key,
        } => (KeyRef::PublicKey(public_key), Some(algorithm)),
    };
    VerifyInput {
        key,
        alg,
        payload: payload(v.input),
        context: v.context.into(),
        signature: v.signature.into(),
    }
}

impl ProtoHandler {
    fn answer(&self, auth: Option<&[u8]>, req: Request) -> Result<Response, ErrorResponse> {
        let token = auth.map(token_str).transpose()?;
        // `admit` authenticates and takes one of the token's in-flight slots (429 when
        // the token is at its limit), as an HTTP request does.
        let (principal, _slot) = self.0.admit(token).map_err(to_proto)?;
        match req {
            Request::Sign(s) => {
                let (key_id, input) = sign_input(s);
                let sig = self.0.sign(&principal, &key_id, input).map_err(to_proto)?;
                Ok(Response::Signature(sig))
            }
            Request::Verify(v) => {
                let valid = self
                    .0
                    .verify(&principal, verify_input(v))
                    .map_err(to_proto)?;
                Ok(if valid {
                    Response::Valid
                } else {
                    Response::Invalid
                })
            }
            // The listener answers PING and HELLO itself; BATCH comes to `batch`.
            _ => Err(ErrorResponse::new(
                ErrorCode::BAD_REQUEST,
                "only SIGN and VERIFY reach the service",
            )),
        }
    }
}

impl ProtoHandler {
    /// A BATCH as the HTTP batch endpoints run one: admitted once (one in-flight slot of
    /// the token), through the batch gate, its VERIFY items as one `Service::verify_batch`
    /// and its SIGN items as one `Service::sign_batch_multi` (the library's batch engine),
    /// answered in item order with the codes the single requests give.
    fn batch(
        &self,
        auth: Option<&[u8]>,
        items: Vec<Request>,
    ) -> Result<Vec<Response>, ErrorResponse> {
        let token = auth.map(token_str).transpose()?;
        let (principal, _slot) = self.0.admit(token).map_err(to_proto)?;
        let mut out: Vec<Option<Response>> = items.iter().map(|_| None).collect();
        let (mut verifies, mut v_at) = (Vec::new(), Vec::new());
        let (mut signs, mut s_at) = (Vec::new(), Vec::new());
        for (i, req) in items.into_iter().enumerate() {
            match req {
                Request::Verify(v) => {
                    verifies.push(verify_input(v));
                    v_at.push(i);
                }
                Request::Sign(s) => {
                    signs.push(sign_input(s));
                    s_at.push(i);
                }
                _ => {
                    out[i] = Some(Response::error(
                        ErrorCode::BAD_REQUEST,
                        "only SIGN and VERIFY reach the service",
                    ))
                }
            }
        }
        // The engine runs on the rayon pool: batches enter it in turn (fairgate.rs).
        let _pass = self.0.batch_gate().enter();
        if !verifies.is_empty() {
            // A failure of the whole (a token without verify scope) answers each item.
            let done = self
                .0
                .verify_batch(&principal, &verifies)
                .unwrap_or_else(|e| vec![Err(e); verifies.len()]);
            for (&i, r) in v_at.iter().zip(done) {
                out[i] = Some(match r {
                    Ok(true) => Response::Valid,
                    Ok(false) => Response::Invalid,
                    Err(e) => Response::Error(to_proto(e)),
                });
            }
        }
        if !signs.is_empty() {
            let done = self
                .0
                .sign_batch_multi(&principal, &signs)
                .unwrap_or_else(|e| vec![Err(e); signs.len()]);
            for (&i, r) in s_at.iter().zip(done) {
                out[i] = Some(r.map_or_else(|e| Response::Error(to_proto(e)), Response::Signature));
            }
        }
        Ok(out
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Response::Error(internal_error())))
            .collect())
    }
}

fn internal_error() -> ErrorResponse {
    ErrorResponse::new(ErrorCode::INTERNAL, "batch item left unanswered (bug)")
}

impl Handler for ProtoHandler {
    fn authenticate(&self, token: &[u8]) -> Result<(), ErrorResponse> {
        self.0
            .authenticate(Some(token_str(token)?))
            .map(|_| ())
            .map_err(to_proto)
    }

    fn handle(&self, auth: Option<&[u8]>, req: Request) -> Response {
        self.answer(auth, req).unwrap_or_else(Response::Error)
    }

    fn handle_batch(&self, auth: Option<&[u8]>, items: Vec<Request>) -> Vec<Response> {
        let n = items.len();
        // Not authenticated, or the token at its limit: every item says so, as each
        // single request would.
        self.batch(auth, items)
            .unwrap_or_else(|e| vec![Response::Error(e); n])
    }
}
