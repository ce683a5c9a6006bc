//! The batch endpoints. The JSON is parsed on the blocking pool (strings borrowed from
//! the body), the items' base64 is decoded in parallel (rayon), then the service hands
//! the batch to the library's batch engine (`pqsig::batch`, on the same rayon pool);
//! keys are resolved once per batch. Decoding in
//! parallel matters: on two cores a serial decode of 1024 ML-DSA-65 items idles one core
//! for a fifth of the batch.
//!
//! Either endpoint also takes a binary body, `Content-Type: application/vnd.pqsig.batch`:
//! the payload of the socket protocol's BATCH frame (docs/PROTOCOL.md), items SIGN or
//! VERIFY as the endpoint expects. Fields carry their lengths, so there is nothing to scan
//! or base64-decode, and the body is a quarter smaller; the answer is the same JSON.
//! It is for high-volume clients: JSON parsing, base64 and the larger body took about a
//! fifth of the CPU of a JSON batch verify of ML-DSA-65 (docs/PERFORMANCE.md).

use super::errors::{json_ok, parse_json, KeyId, RawBody};
use super::gate::Admitted;
use super::routes::admitted;
use super::wire::{
    b64, BatchResult, SignBatchRequest, SignatureBody, ValidBody, VerifyBatchRequest,
};
use super::AppState;
use crate::auth::Op;
use crate::error::ApiError;
use crate::proto::sign_input;
use crate::service::{KeyRef, Payload, SignInput, VerifyInput};
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::Response;
use bytes::Bytes;
use pqsig_proto::codec;
use rayon::prelude::*;

fn check_count(n: usize, max: usize) -> Result<(), ApiError> {
    if n > max {
        return Err(ApiError::too_large(
            "batch_too_large",
            format!("batch has {n} items, the limit is {max}"),
        ));
    }
    Ok(())
}

/// Media type of a binary batch body (a BATCH frame's payload).
pub const BATCH_MEDIA_TYPE: &str = "application/vnd.pqsig.batch";

/// Whether the body is a binary batch (by its Content-Type; parameters ignored).
fn is_binary(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(BATCH_MEDIA_TYPE))
}

fn invalid_batch(e: pqsig_proto::codec::DecodeError) -> ApiError {
    ApiError::bad_request("invalid_batch", format!("binary batch body: {e}"))
}

fn wrong_item(i: usize, want: &str) -> ApiError {
    ApiError::bad_request(
        "invalid_batch",
        format!("items[{i}]: this endpoint takes {want} items"),
    )
}

/// The items of a binary body with their indices, all of kind `opcode` (named `want`).
fn binary_items<'a>(
    body: &'a [u8],
    opcode: u8,
    want: &str,
) -> Result<Vec<(usize, &'a [u8])>, ApiError> {
    codec::batch_items(body)
        .map_err(invalid_batch)?
        .into_iter()
        .enumerate()
        .map(|(i, (o, item))| {
            if o == opcode {
                Ok((i, item))
            } else {
                Err(wrong_item(i, want))
            }
        })
        .collect()
}

/// Sign inputs from a binary body; every item must name the key of the path.
fn binary_sign_inputs(body: &[u8], id: &str) -> Result<Vec<SignInput>, ApiError> {
    binary_items(body, codec::op::SIGN, "SIGN")?
        .into_iter()
        .map(|(i, item)| {
            let pqsig_proto::Request::Sign(s) = codec::decode_request(codec::op::SIGN, item)
                .map_err(|e| at_item(i, invalid_batch(e)))?
            else {
                return Err(ApiError::internal("SIGN decoded as another request"));
            };
            let (key_id, input) = sign_input(s);
            if key_id != id {
                return Err(ApiError::bad_request(
                    "invalid_batch",
                    format!("items[{i}]: key_id {key_id:?} is not the key of the path"),
                ));
            }
            Ok(input)
        })
        .collect()
}

/// Verify inputs from a binary body. The message, context and signature of each item
/// are slices of the body (no copy; the body lives until the last input is dropped).
fn binary_verify_inputs(body: &Bytes) -> Result<Vec<VerifyInput>, ApiError> {
    binary_items(body, codec::op::VERIFY, "VERIFY")?
        .into_iter()
        .map(|(i, item)| {
            let v = codec::decode_verify_view(item).map_err(|e| at_item(i, invalid_batch(e)))?;
            let (key, alg) = match v.key {
                codec::KeyRefView::Id(id) => (KeyRef::Id(id.to_owned()), None),
                codec::KeyRefView::Inline {
                    algorithm,
                    public_key,
                } => (
                    KeyRef::PublicKey(public_key.to_vec()),
                    Some(algorithm.to_owned()),
                ),
            };
            let data = body.slice_ref(v.data);
            Ok(VerifyInput {
                key,
                alg,
                payload: if v.mu {
                    Payload::Mu(data)
                } else {
                    Payload::Message(data)
                },
                context: body.slice_ref(v.context),
                signature: body.slice_ref(v.signature),
            })
        })
        .collect()
}

/// `POST /v1/keys/{id}/sign-batch`.
pub async fn sign_batch(
    State(st): State<AppState>,
    headers: HeaderMap,
    adm: Admitted,
    KeyId(id): KeyId,
    RawBody(body): RawBody,
) -> Response {
    let binary = is_binary(&headers);
    admitted(&st, adm, move |svc, p| {
        svc.check_sign_scope(p, &id)?;
        let (pass, inputs) = if binary {
            let inputs = binary_sign_inputs(&body, &id)?;
            check_count(inputs.len(), svc.limits().max_batch)?;
            (svc.batch_gate().enter(), inputs)
        } else {
            let req: SignBatchRequest<'_> = parse_json(&body)?;
            check_count(req.items.len(), svc.limits().max_batch)?;
            let ctx = req.default_context()?;
            let det = req.deterministic;
            // Parsed outside the gate; the parallel part runs in turn (see fairgate.rs).
            let pass = svc.batch_gate().enter();
            // A malformed item fails the request (a client bug, not a per-item outcome).
            let inputs = req
                .items
                .into_par_iter()
                .enumerate()
                .map(|(i, it)| it.into_input(&ctx, det).map_err(|e| at_item(i, e)))
                .collect::<Result<Vec<_>, _>>()?;
            (pass, inputs)
        };
        let done = svc.sign_batch(p, &id, &inputs)?;
        drop(pass);
        let results: Vec<_> = done
            .into_iter()
            .map(|r| BatchResult::from(r.map(|s| SignatureBody { signature: b64(&s) })))
            .collect();
        json_ok(&Results { results })
    })
    .await
}

/// `POST /v1/verify-batch`.
pub async fn verify_batch(
    State(st): State<AppState>,
    headers: HeaderMap,
    adm: Admitted,
    RawBody(body): RawBody,
) -> Response {
    let binary = is_binary(&headers);
    admitted(&st, adm, move |svc, p| {
        p.check(Op::Verify, None)?;
        let (pass, inputs) = if binary {
            let inputs = binary_verify_inputs(&body)?;
            check_count(inputs.len(), svc.limits().max_batch)?;
            (svc.batch_gate().enter(), inputs)
        } else {
            let req: VerifyBatchRequest<'_> = parse_json(&body)?;
            check_count(req.items.len(), svc.limits().max_batch)?;
            let defaults = req.defaults()?;
            // Parsed outside the gate; the parallel part runs in turn (see fairgate.rs).
            let pass = svc.batch_gate().enter();
            let inputs = req
                .items
                .into_par_iter()
                .enumerate()
                .map(|(i, it)| it.into_input(Some(&defaults)).map_err(|e| at_item(i, e)))
                .collect::<Result<Vec<_>, _>>()?;
            (pass, inputs)
        };
        let done = svc.verify_batch(p, &inputs)?;
        drop(pass);
        let results: Vec<_> = done
            .into_iter()
            .map(|r| BatchResult::from(r.map(|valid| ValidBody { valid })))
            .collect();
        json_ok(&Results { results })
    })
    .await
}

/// `{"results": [...]}`, serialized straight from the items (no intermediate `Value`).
#[derive(serde::Serialize)]
struct Results<T: serde::Serialize> {
    results: Vec<T>,
}

/// Prefixes an item's decoding error with its index.
fn at_item(i: usize, e: ApiError) -> ApiError {
    ApiError {
        message: format!("items[{i}]: {}", e.message),
        ..e
    }
}

/// Fuzzing entry point (fuzz/fuzz_targets/server_http.rs), not API: the binary batch
/// decoders exactly as the batch routes run them; true where the body decodes.
#[doc(hidden)]
pub fn fuzz_decode_binary_batch(body: &[u8], key_id: &str) -> (bool, bool) {
    let sign = binary_sign_inputs(body, key_id).is_ok();
    let verify = binary_verify_inputs(&Bytes::copy_from_slice(body)).is_ok();
    (sign, verify)
}
