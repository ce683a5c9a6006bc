//! The HTTP+JSON transport (axum): routes, request metrics, timeouts and body limits.
//! Handlers only translate between JSON and the [`Service`]; the service does the rest.

pub mod accept;
pub mod batch;
pub mod errors;
pub mod gate;
pub mod routes;
pub mod wire;

use crate::error::ApiError;
use crate::service::Service;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use std::time::Instant;

/// Shared handler state.
#[derive(Clone)]
pub struct AppState {
    /// The service every handler calls.
    pub svc: Arc<Service>,
    /// Request body bytes admitted at once (see `gate.rs`).
    pub body_budget: Arc<gate::BodyBudget>,
}

/// Every (method, path template) the server answers; the OpenAPI test checks that each
/// appears in `/v1/openapi.json` and is really routed.
pub const ROUTES: &[(&str, &str)] = &[
    ("POST", "/v1/keys"),
    ("GET", "/v1/keys"),
    ("GET", "/v1/keys/{id}"),
    ("DELETE", "/v1/keys/{id}"),
    ("GET", "/v1/keys/{id}/audit"),
    ("POST", "/v1/keys/{id}/sign"),
    ("POST", "/v1/keys/{id}/sign-batch"),
    ("POST", "/v1/verify"),
    ("POST", "/v1/verify-batch"),
    ("GET", "/healthz"),
    ("GET", "/metrics"),
    ("GET", "/v1/openapi.json"),
];

/// The application router for a service.
pub fn router(svc: Arc<Service>) -> Router {
    let limits = svc.limits().clone();
    let state = AppState {
        body_budget: Arc::new(gate::BodyBudget::new(limits.max_inflight_body_bytes)),
        svc,
    };
    Router::new()
        .route("/v1/keys", post(routes::create_key).get(routes::list_keys))
        .route(
            "/v1/keys/{id}",
            get(routes::get_key).delete(routes::delete_key),
        )
        .route("/v1/keys/{id}/audit", get(routes::audit))
        .route("/v1/keys/{id}/sign", post(routes::sign))
        .route("/v1/keys/{id}/sign-batch", post(batch::sign_batch))
        .route("/v1/verify", post(routes::verify))
        .route("/v1/verify-batch", post(batch::verify_batch))
        .route("/healthz", get(routes::healthz))
        .route("/metrics", get(routes::metrics))
        .route("/v1/openapi.json", get(routes::openapi))
        .fallback(routes::not_found)
        .method_not_allowed_fallback(routes::method_not_allowed)
        .layer(DefaultBodyLimit::max(limits.max_body_bytes))
        .layer(middleware::from_fn_with_state(state.clone(), gate::gate))
        .layer(middleware::from_fn_with_state(state.clone(), observe))
        .with_state(state)
}

/// The metrics label of a method: a closed set, so a client cannot grow `/metrics` by
/// inventing methods.
fn method_label(m: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Request timeout (503 `timeout`) and request/error metrics by route template.
async fn observe(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let t0 = Instant::now();
    let method = method_label(req.method());
    let access = st.svc.access_log().enabled().then(|| {
        let remote = req
            .extensions()
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| c.0.ip().to_string());
        (remote, crate::service::clip(req.uri().path()))
    });
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string())
        .unwrap_or_else(|| "unmatched".into());
    let timeout = st.svc.limits().request_timeout();
    let _in_flight = st.svc.metrics().begin_request();
    let resp = match tokio::time::timeout(timeout, next.run(req)).await {
        Ok(r) => r,
        Err(_) => ApiError::timeout().into_response(),
    };
    let m = st.svc.metrics();
    if let Some(code) = resp.extensions().get::<errors::ErrorCode>() {
        m.error(code.0);
    }
    m.http_request(method, &route, resp.status().as_u16(), t0.elapsed());
    if let Some((remote, path)) = access {
        st.svc.access_log().write(&serde_json::json!({
            "ts": crate::jsonlog::timestamp(),
            "remote": remote,
            "method": method,
            "path": path,
            "route": route,
            "status": resp.status().as_u16(),
            "ms": (t0.elapsed().as_secs_f64() * 1000.0 * 1000.0).round() / 1000.0,
            "token": resp.extensions().get::<gate::Caller>().map(|c| c.0.as_str()),
            "error": resp.extensions().get::<errors::ErrorCode>().map(|c| c.0),
        }));
    }
    resp
}
