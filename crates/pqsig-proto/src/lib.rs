//! The pqsig binary socket protocol (docs/PROTOCOL.md): a compact, length-prefixed,
//! versioned framing for sign and verify over TCP and Unix sockets, for clients that
//! cannot speak HTTP.
//!
//! - [`types`]: the typed requests and responses ([`Request`], [`Response`]).
//! - [`codec`]: pure encode/decode of frames (no IO); the one definition of the wire format.
//! - [`handler`]: the [`Handler`] trait the service implements (blocking `handle`).
//! - [`keymap`]: [`KeyMapHandler`], an in-memory reference handler over `pqsig::any` keys
//!   (tests and self-contained demos).
//! - [`server`] (feature `server`): the tokio listener with per-connection pipelining and
//!   graceful shutdown.
//! - [`background`] (feature `server`): the listener on its own thread and runtime, for
//!   synchronous programs and tests.
//! - [`client`] and [`endpoint`]: a blocking std client and `tcp://` / `unix:` addresses.

#[cfg(feature = "server")]
pub mod background;
pub mod client;
pub mod codec;
#[cfg(feature = "server")]
pub mod connlimit;
pub mod endpoint;
pub mod handler;
pub mod keymap;
#[cfg(feature = "server")]
pub mod server;
pub mod types;

pub use client::{Client, ClientError};
pub use endpoint::Endpoint;
pub use handler::{error_response, split_batch, Handler};
pub use keymap::KeyMapHandler;
pub use types::{
    ErrorCode, ErrorResponse, Input, KeyRef, Limits, Request, Response, SignRequest, VerifyRequest,
};
