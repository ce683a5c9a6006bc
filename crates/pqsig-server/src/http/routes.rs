//! Handlers of the single-item endpoints. Each one authenticates on the executor
//! (cheap), then parses the body, runs the service and serializes the answer on the
//! blocking pool.

use super::errors::{json_ok, parse_json, parse_json_owned, KeyId, RawBody};
use super::gate::Admitted;
use super::wire::{
    b64, CreateKeyRequest, KeyResponse, SignRequest, SignatureBody, ValidBody, VerifyRequest,
};
use super::AppState;
use crate::auth::Op;
use crate::error::ApiError;
use crate::service::Service;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::sync::Arc;

/// Runs `f` with the service on the blocking pool for the caller the gate admitted
/// (`gate.rs`: token checked on the headers, one in-flight slot held until `f` returns).
pub async fn admitted<F>(st: &AppState, adm: Admitted, f: F) -> Response
where
    F: FnOnce(&Service, &crate::auth::Principal) -> Result<Response, ApiError> + Send + 'static,
{
    let svc = st.svc.clone();
    let Admitted(principal, guard) = adm;
    let joined = tokio::task::spawn_blocking(move || {
        let _guard = guard;
        f(&svc, &principal)
    })
    .await;
    match joined {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => e.into_response(),
        Err(_) => ApiError::internal("request handler failed").into_response(),
    }
}

/// `POST /v1/keys`.
pub async fn create_key(
    State(st): State<AppState>,
    adm: Admitted,
    RawBody(body): RawBody,
) -> Response {
    admitted(&st, adm, move |svc, p| {
        p.check(Op::Admin, None)?;
        let req: CreateKeyRequest = parse_json_owned(&body)?;
        let info = svc.create_key(p, &req.alg)?;
        let mut r = json_ok(&KeyResponse::from_info(info)?)?;
        *r.status_mut() = StatusCode::CREATED;
        Ok(r)
    })
    .await
}

/// Query of `GET /v1/keys`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    #[serde(default)]
    include_deleted: bool,
}

/// `GET /v1/keys[?include_deleted=true]`.
pub async fn list_keys(
    State(st): State<AppState>,
    adm: Admitted,
    q: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(q)) = q else {
        return ApiError::bad_request(
            "invalid_request",
            "the only query parameter is include_deleted=true|false",
        )
        .into_response();
    };
    admitted(&st, adm, move |svc, p| {
        let keys = svc
            .list_keys(p, q.include_deleted)?
            .into_iter()
            .map(KeyResponse::from_info)
            .collect::<Result<Vec<_>, _>>()?;
        json_ok(&serde_json::json!({ "keys": keys }))
    })
    .await
}

/// `GET /v1/keys/{id}`.
pub async fn get_key(State(st): State<AppState>, adm: Admitted, KeyId(id): KeyId) -> Response {
    admitted(&st, adm, move |svc, p| {
        let mut key = KeyResponse::from_info(svc.get_key(p, &id)?)?;
        if p.is_anonymous() {
            // Token names are operator data, not public-key facts.
            key.created_by = None;
        }
        json_ok(&key)
    })
    .await
}

/// `DELETE /v1/keys/{id}`.
pub async fn delete_key(State(st): State<AppState>, adm: Admitted, KeyId(id): KeyId) -> Response {
    admitted(&st, adm, move |svc, p| {
        svc.delete_key(p, &id)?;
        json_ok(&serde_json::json!({ "id": id, "deleted": true }))
    })
    .await
}

/// `GET /v1/keys/{id}/audit`.
pub async fn audit(State(st): State<AppState>, adm: Admitted, KeyId(id): KeyId) -> Response {
    admitted(&st, adm, move |svc, p| {
        let events: Vec<_> = svc
            .audit(p, &id)?
            .into_iter()
            .map(|e| serde_json::json!({ "action": e.action, "actor": e.actor, "at": e.at }))
            .collect();
        json_ok(&serde_json::json!({ "id": id, "events": events }))
    })
    .await
}

/// `POST /v1/keys/{id}/sign`.
pub async fn sign(
    State(st): State<AppState>,
    adm: Admitted,
    KeyId(id): KeyId,
    RawBody(body): RawBody,
) -> Response {
    admitted(&st, adm, move |svc, p| {
        svc.check_sign_scope(p, &id)?;
        let req: SignRequest<'_> = parse_json(&body)?;
        let sig = svc.sign(p, &id, req.into_input(&bytes::Bytes::new(), false)?)?;
        json_ok(&SignatureBody {
            signature: b64(&sig),
        })
    })
    .await
}

/// `POST /v1/verify`.
pub async fn verify(State(st): State<AppState>, adm: Admitted, RawBody(body): RawBody) -> Response {
    admitted(&st, adm, move |svc, p| {
        p.check(Op::Verify, None)?;
        let req: VerifyRequest<'_> = parse_json(&body)?;
        let valid = svc.verify(p, req.into_input(None)?)?;
        json_ok(&ValidBody { valid })
    })
    .await
}

/// `GET /healthz` (no token): 200 when the store answers, 503 otherwise.
pub async fn healthz(State(st): State<AppState>) -> Response {
    let svc: Arc<Service> = st.svc.clone();
    let h = match tokio::task::spawn_blocking(move || svc.health()).await {
        Ok(h) => h,
        Err(_) => return ApiError::internal("health check failed").into_response(),
    };
    let status = if h.store_ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = serde_json::json!({
        "status": if h.store_ok { "ok" } else { "store_unavailable" },
        "store": h.backend,
        "schema_version": h.schema_version,
        "insecure_kek": h.insecure_kek,
    });
    let mut r = (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response();
    if !h.store_ok {
        r.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    }
    r
}

/// `GET /metrics` (no token).
pub async fn metrics(State(st): State<AppState>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        st.svc.metrics().render(),
    )
        .into_response()
}

/// `GET /v1/openapi.json` (no token).
pub async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        crate::OPENAPI_JSON,
    )
        .into_response()
}

/// Unknown paths: JSON 404.
pub async fn not_found() -> Response {
    ApiError::new(404, "not_found", "no such endpoint (see /v1/openapi.json)").into_response()
}

/// Known path, wrong method: JSON 405.
pub async fn method_not_allowed() -> Response {
    ApiError::new(
        405,
        "method_not_allowed",
        "method not allowed on this endpoint (see /v1/openapi.json)",
    )
    .into_response()
}
