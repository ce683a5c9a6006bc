//! Admission before the body: every endpoint that takes a token authenticates on the
//! headers alone, checks the declared body size and reserves its bytes from the global
//! in-flight budget before a single body byte is read. Unauthenticated (401), oversized
//! (413) and over-budget (503) requests are answered without buffering their bodies.

use super::AppState;
use crate::auth::{InflightGuard, Principal};
use crate::error::ApiError;
use axum::extract::{FromRequestParts, MatchedPath, Request, State};
use axum::http::{header, request::Parts};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Routes that take no token (and no body).
const PUBLIC_ROUTES: &[&str] = &["/healthz", "/metrics", "/v1/openapi.json"];

/// The global budget of request body bytes being read at once.
pub struct BodyBudget {
    permits: Arc<Semaphore>,
    /// Semaphore permits are u32: bodies are counted in 1 KiB units.
    unit: usize,
}

impl BodyBudget {
    /// A budget of `bytes` (rounded up to whole KiB).
    pub fn new(bytes: usize) -> Self {
        let unit = 1024;
        let units = bytes.div_ceil(unit).min(Semaphore::MAX_PERMITS);
        BodyBudget {
            permits: Arc::new(Semaphore::new(units)),
            unit,
        }
    }

    fn reserve(&self, bytes: usize) -> Option<tokio::sync::OwnedSemaphorePermit> {
        let units = u32::try_from(bytes.div_ceil(self.unit).max(1)).ok()?;
        self.permits.clone().try_acquire_many_owned(units).ok()
    }
}

/// The admitted caller of a request, taken by the handler (once).
#[derive(Clone)]
struct Slot(Arc<Mutex<Option<(Principal, InflightGuard)>>>);

/// Extractor: the caller the gate admitted and the in-flight slot it holds.
pub struct Admitted(pub Principal, pub InflightGuard);

impl<S: Send + Sync> FromRequestParts<S> for Admitted {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Slot>()
            .and_then(|s| s.0.lock().unwrap_or_else(|p| p.into_inner()).take())
            .map(|(p, g)| Admitted(p, g))
            .ok_or_else(|| ApiError::internal("request reached a handler unadmitted"))
    }
}

/// The middleware (runs after routing, before any extractor reads the body).
pub async fn gate(State(st): State<AppState>, mut req: Request, next: Next) -> Response {
    let public = match req.extensions().get::<MatchedPath>() {
        Some(m) => PUBLIC_ROUTES.contains(&m.as_str()),
        // Unrouted (404/405 fallbacks): answered without reading the body.
        None => true,
    };
    if public {
        return next.run(req).await;
    }
    let admitted = super::errors::bearer(req.headers()).and_then(|t| st.svc.admit(t.as_deref()));
    let (principal, guard) = match admitted {
        Ok(x) => x,
        Err(e) => return e.into_response(),
    };
    let max = st.svc.limits().max_body_bytes;
    let declared = match req.headers().get(header::CONTENT_LENGTH) {
        None => None,
        Some(v) => match v.to_str().ok().and_then(|s| s.trim().parse::<u64>().ok()) {
            Some(n) => Some(n),
            None => {
                return ApiError::bad_request("invalid_request", "malformed Content-Length")
                    .into_response()
            }
        },
    };
    if declared.is_some_and(|n| n > max as u64) {
        return ApiError::too_large(
            "body_too_large",
            "request body exceeds the configured limit (max_body_bytes)",
        )
        .into_response();
    }
    // Undeclared (chunked) bodies are charged the most they may grow to.
    let charge = declared.map_or(max, |n| n as usize);
    let _body = if charge == 0 {
        None
    } else {
        match st.body_budget.reserve(charge) {
            Some(p) => Some(p),
            None => {
                let mut r = ApiError::new(
                    503,
                    "server_busy",
                    "too many request bytes in flight (max_inflight_body_bytes); retry shortly",
                )
                .into_response();
                r.headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
                return r;
            }
        }
    };
    let caller = Caller(principal.name.clone());
    req.extensions_mut()
        .insert(Slot(Arc::new(Mutex::new(Some((principal, guard))))));
    let mut resp = next.run(req).await;
    resp.extensions_mut().insert(caller);
    resp
}

/// The token name of an admitted request, for the access log.
#[derive(Clone, Debug)]
pub struct Caller(pub String);
