//! The batch endpoints. The JSON is parsed on the blocking pool (strings borrowed from
//! the body), the items' base64 is decoded in parallel (rayon), then the service signs
//! or verifies in parallel across cores; keys are resolved once per batch. Decoding in
//! parallel matters: on two cores a serial decode of 1024 ML-DSA-65 items idles one core
//! for a fifth of the batch.

use super::errors::{json_ok, parse_json, RawBody};
use super::routes::admitted;
use super::wire::{
    b64, BatchResult, SignBatchRequest, SignatureBody, ValidBody, VerifyBatchRequest,
};
use super::AppState;
use crate::auth::Op;
use crate::error::ApiError;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
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

/// `POST /v1/keys/{id}/sign-batch`.
pub async fn sign_batch(
    State(st): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawBody(body): RawBody,
) -> Response {
    admitted(&st, &headers, move |svc, p| {
        p.check(Op::Sign, Some(&id))?;
        let req: SignBatchRequest<'_> = parse_json(&body)?;
        check_count(req.items.len(), svc.limits().max_batch)?;
        let ctx = req.default_context()?;
        let det = req.deterministic;
        // A malformed item fails the request (it is a client bug, not a per-item outcome).
        let inputs = req
            .items
            .into_par_iter()
            .enumerate()
            .map(|(i, it)| it.into_input(&ctx, det).map_err(|e| at_item(i, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let results: Vec<_> = svc
            .sign_batch(p, &id, &inputs)?
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
    RawBody(body): RawBody,
) -> Response {
    admitted(&st, &headers, move |svc, p| {
        p.check(Op::Verify, None)?;
        let req: VerifyBatchRequest<'_> = parse_json(&body)?;
        check_count(req.items.len(), svc.limits().max_batch)?;
        let defaults = req.defaults()?;
        let inputs = req
            .items
            .into_par_iter()
            .enumerate()
            .map(|(i, it)| it.into_input(Some(&defaults)).map_err(|e| at_item(i, e)))
            .collect::<Result<Vec<_>, _>>()?;
        let results: Vec<_> = svc
            .verify_batch(p, &inputs)?
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
