//! pqsig-server: a signing and verification service for pqsig's algorithms.
//!
//! Layers, each usable on its own:
//! - [`service::Service`]: transport-independent core (auth, key store, sign, verify,
//!   batches, metrics). Blocking methods; transports call them from a blocking pool.
//! - [`http`]: the HTTP+JSON API under `/v1` (axum), described by [`OPENAPI_JSON`].
//! - [`proto`]: the binary socket protocol (docs/PROTOCOL.md) over the same service.
//! - [`store`]: the key store trait with SQLite and PostgreSQL backends.
//! - [`server`]: binding, TLS, graceful shutdown; [`server::run_blocking`] is what
//!   `pqsig serve` runs.
//!
//! See docs/SERVER.md for the API, configuration and operations.

/// Writes one line to stderr, ignoring failures: a closed or full stderr (a supervisor
/// that dropped the pipe) must never stop the service or a shutdown in progress.
macro_rules! log {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "pqsig-server: {}", format_args!($($arg)*));
    }};
}
pub(crate) use log;

pub mod auth;
pub mod config;
pub mod error;
pub mod fairgate;
pub mod http;
pub mod jsonlog;
pub mod kek;
pub mod keycache;
pub mod metrics;
pub mod proto;
pub mod server;
pub mod service;
pub mod store;

pub use config::{FileConfig, KekSource, Limits, ServerConfig, TokenConfig};
pub use error::ApiError;
pub use http::batch::BATCH_MEDIA_TYPE;
pub use server::{run_blocking, start, RunningServer};
pub use service::Service;

/// The OpenAPI 3.1 description served at `/v1/openapi.json` (hand-written; a test checks
/// that every route appears in it).
pub const OPENAPI_JSON: &str = include_str!("openapi.json");
