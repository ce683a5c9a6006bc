//! ApiError as an HTTP response (`{"error": {"code", "message"}}`), the raw-body
//! extractor that turns body-limit failures into the same JSON, and JSON parsing that
//! reports serde's message as a 400.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

/// Marks a response as an error so the metrics middleware can count it by code.
#[derive(Clone, Copy, Debug)]
pub struct ErrorCode(pub &'static str);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::json!({ "error": { "code": self.code, "message": self.message } });
        let mut resp = (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            body.to_string(),
        )
            .into_response();
        if matches!(self.code, "store_unavailable" | "server_busy") {
            resp.headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        resp.extensions_mut().insert(ErrorCode(self.code));
        resp
    }
}

/// A JSON response from already-serialized bytes.
pub fn json_bytes(status: StatusCode, body: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Serializes a value as a 200 JSON response.
pub fn json_ok<T: serde::Serialize>(value: &T) -> Result<Response, ApiError> {
    serde_json::to_vec(value)
        .map(|b| json_bytes(StatusCode::OK, b))
        .map_err(|e| ApiError::internal(format!("cannot serialize response: {e}")))
}

/// The request body, read within the body limit; JSON parsing happens later, on the
/// blocking pool, so large batch bodies never occupy an executor thread.
pub struct RawBody(pub Bytes);

impl FromRequest<super::AppState> for RawBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &super::AppState) -> Result<Self, ApiError> {
        // A body that stalls is the client's fault: 408, not the 503 of a slow server.
        let limit = state.svc.limits().body_read_timeout();
        let Ok(read) = tokio::time::timeout(limit, Bytes::from_request(req, state)).await else {
            return Err(ApiError::new(
                408,
                "request_timeout",
                "the request body did not arrive in time (body_read_timeout_ms)",
            ));
        };
        read.map(RawBody).map_err(|rej| {
            let status = rej.status().as_u16();
            if status == 413 {
                ApiError::too_large(
                    "body_too_large",
                    "request body exceeds the configured limit (max_body_bytes)",
                )
            } else {
                ApiError::new(status, "invalid_body", rej.body_text())
            }
        })
    }
}

/// A key id from the path; a malformed one (bad percent-encoding) is a JSON 400.
pub struct KeyId(pub String);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for KeyId {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        axum::extract::Path::<String>::from_request_parts(parts, state)
            .await
            .map(|p| KeyId(p.0))
            .map_err(|_| {
                ApiError::bad_request(
                    "invalid_key_id",
                    "the key id in the path is not valid percent-encoded UTF-8",
                )
            })
    }
}

/// Parses a JSON request body: 400 `invalid_json` with serde's message on failure.
pub fn parse_json<'a, T: serde::Deserialize<'a>>(body: &'a [u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request("invalid_json", format!("invalid JSON body: {e}")))
}

/// Same for owned types (no borrowing from the body).
pub fn parse_json_owned<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    parse_json(body)
}

/// The bearer token of the request, if any; a malformed Authorization header is a 401.
pub fn bearer(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(v) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let v = v
        .to_str()
        .map_err(|_| ApiError::unauthorized("malformed Authorization header"))?;
    match v.split_once(' ') {
        Some((scheme, tok)) if scheme.eq_ignore_ascii_case("bearer") && !tok.trim().is_empty() => {
            Ok(Some(tok.trim().to_string()))
        }
        _ => Err(ApiError::unauthorized(
            "Authorization header must be \"Bearer <token>\"",
        )),
    }
}
