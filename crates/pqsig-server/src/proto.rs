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
            // The listener answers PING and HELLO and splits BATCH itself.
            _ => Err(ErrorResponse::new(
                ErrorCode::BAD_REQUEST,
                "only SIGN and VERIFY reach the service",
            )),
        }
    }
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
}
