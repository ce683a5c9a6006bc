//! Server configuration: the TOML file format, defaults and validation. Command-line
//! flags (pqsig serve) override the file field by field.

use serde::Deserialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The address used when neither the file nor a flag names one (loopback only).
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8700";
/// The SQLite file used when no database is named.
pub const DEFAULT_DB: &str = "pqsig-server.db";

/// Request limits. Every field has a default, so the TOML `[limits]` table is optional.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest accepted request body in bytes (413 `body_too_large` above it).
    pub max_body_bytes: usize,
    /// Largest message signed or verified in the request (413 `message_too_large`,
    /// which tells the client to send the 64-byte external mu instead).
    pub max_message_bytes: usize,
    /// Most items in one sign-batch or verify-batch request (413 `batch_too_large`).
    pub max_batch: usize,
    /// Default for tokens that set no `max_concurrent` of their own (429 above it).
    pub max_concurrent_per_token: usize,
    /// Whole-request timeout in milliseconds (503 `timeout`).
    pub request_timeout_ms: u64,
    /// How long graceful shutdown waits for in-flight requests, in seconds.
    pub shutdown_grace_secs: u64,
    /// How long a cached key is trusted before the store is asked again whether it
    /// was deleted (matters when several instances share one PostgreSQL store).
    pub key_cache_ttl_secs: u64,
    /// Time a client has to send a request's headers, in milliseconds; it also bounds
    /// how long an idle keep-alive connection waits for its next request (the
    /// connection is closed after it).
    pub header_read_timeout_ms: u64,
    /// A connection with no traffic either way for this long is closed, in
    /// milliseconds (at least `request_timeout_ms` + 1 s is used, so a request in
    /// progress is never cut off).
    pub idle_timeout_ms: u64,
    /// Time a client has to send the whole request body, in milliseconds (408
    /// `request_timeout` after it).
    pub body_read_timeout_ms: u64,
    /// Open connections accepted at once over all listeners of a kind (HTTP, protocol);
    /// above it a new connection is answered 503 and closed.
    pub max_connections: usize,
    /// Open connections accepted at once from one IP address.
    pub max_connections_per_ip: usize,
    /// Request body bytes admitted at once over all requests (by Content-Length, or
    /// `max_body_bytes` when the length is not declared); 503 above it.
    pub max_inflight_body_bytes: usize,
    /// Largest protocol frame read before a successful HELLO (the HELLO itself).
    pub max_unauthenticated_frame_bytes: usize,
    /// Requests anonymous callers (`public_verify`) may have in flight at once, all
    /// together (429 above it).
    pub max_concurrent_anonymous: usize,
    /// Bound on each PostgreSQL store call, connecting included, in milliseconds (503
    /// `store_unavailable` with Retry-After past it).
    pub store_timeout_ms: u64,
    /// Most PostgreSQL connections open at once.
    pub store_pool_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 16 << 20,
            max_message_bytes: 1 << 20,
            max_batch: 1024,
            max_concurrent_per_token: 64,
            request_timeout_ms: 30_000,
            shutdown_grace_secs: 30,
            key_cache_ttl_secs: 5,
            header_read_timeout_ms: 10_000,
            body_read_timeout_ms: 30_000,
            idle_timeout_ms: 35_000,
            max_connections: 1024,
            max_connections_per_ip: 128,
            max_inflight_body_bytes: 256 << 20,
            max_unauthenticated_frame_bytes: 4096,
            max_concurrent_anonymous: 64,
            store_timeout_ms: 5_000,
            store_pool_size: 8,
        }
    }
}

impl Limits {
    /// The request timeout as a duration.
    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms)
    }
    /// The header read (and keep-alive idle) timeout as a duration.
    pub fn header_read_timeout(&self) -> Duration {
        Duration::from_millis(self.header_read_timeout_ms)
    }
    /// The connection idle timeout as a duration.
    pub fn idle_timeout(&self) -> Duration {
        Duration::from_millis(self.idle_timeout_ms)
    }
    /// The body read timeout as a duration.
    pub fn body_read_timeout(&self) -> Duration {
        Duration::from_millis(self.body_read_timeout_ms)
    }
    /// The shutdown grace period as a duration.
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace_secs)
    }
}

/// One bearer token and what it may do.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenConfig {
    /// Name recorded in the audit trail (never the secret itself).
    pub name: String,
    /// The secret as clients send it (`Authorization: Bearer <token>`).
    #[serde(default)]
    pub token: Option<String>,
    /// Alternatively the hex SHA-256 of the secret, so the file need not hold it.
    #[serde(default)]
    pub token_sha256: Option<String>,
    /// Key ids this token may use, or `["*"]` for all.
    pub keys: Vec<String>,
    /// Operations: any of `sign`, `verify`, `admin`.
    pub operations: Vec<String>,
    /// Requests this token may have in flight at once (default: limits).
    #[serde(default)]
    pub max_concurrent: Option<usize>,
    /// When the token stops working: a TOML offset date-time such as
    /// `2027-01-01T00:00:00Z` (401 `token_expired` from then on).
    #[serde(default)]
    pub expires_at: Option<toml::value::Datetime>,
}

/// A file of `[[token]]` tables only (`token_file`), re-read on SIGHUP.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TokenFile {
    /// The tokens.
    #[serde(rename = "token")]
    pub tokens: Vec<TokenConfig>,
}

impl TokenFile {
    /// Reads and parses a token file; the error is one line naming the file.
    pub fn load(path: &Path) -> Result<Vec<TokenConfig>, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read token file {}: {e}", path.display()))?;
        toml::from_str::<TokenFile>(&text)
            .map(|f| f.tokens)
            .map_err(|e| format!("token file {}: {}", path.display(), e.message()))
    }
}

/// The TOML file, every section optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FileConfig {
    /// Listen address (`127.0.0.1:8700` by default).
    pub listen: Option<String>,
    /// SQLite path or `postgres://` URL.
    pub db: Option<String>,
    /// File holding the key-encryption key (refused when world-readable).
    pub kek_file: Option<PathBuf>,
    /// Start even when the key-encryption key file is world-readable (warned loudly).
    pub allow_world_readable_kek: bool,
    /// PEM certificate chain; TLS is on when this and `tls_key` are set.
    pub tls_cert: Option<PathBuf>,
    /// PEM private key for TLS.
    pub tls_key: Option<PathBuf>,
    /// Whether `/v1/verify` and `/v1/verify-batch` need no token.
    pub public_verify: bool,
    /// Also serve the binary socket protocol (docs/PROTOCOL.md) on this TCP address.
    pub proto_listen: Option<String>,
    /// Also serve the binary socket protocol on this Unix socket path.
    pub proto_unix: Option<PathBuf>,
    /// Request limits.
    pub limits: Limits,
    /// Bearer tokens (`[[token]]` tables).
    #[serde(rename = "token")]
    pub tokens: Vec<TokenConfig>,
    /// A file of further `[[token]]` tables, re-read on SIGHUP (token rotation without
    /// a restart).
    pub token_file: Option<PathBuf>,
    /// Sign audit log (JSON lines; `-` for stderr): one record per signature made or
    /// refused. Off when unset.
    pub audit_log: Option<PathBuf>,
    /// HTTP access log (JSON lines; `-` for stderr). Off when unset.
    pub access_log: Option<PathBuf>,
}

impl FileConfig {
    /// Reads and parses a config file; the error is one line naming the file.
    pub fn load(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read config {}: {e}", path.display()))?;
        Self::parse(&text).map_err(|e| format!("config {}: {e}", path.display()))
    }

    /// Parses config text.
    pub fn parse(text: &str) -> Result<Self, String> {
        toml::from_str(text).map_err(|e| e.message().to_string())
    }
}

/// Where the key-encryption key comes from.
#[derive(Clone, Debug)]
pub enum KekSource {
    /// A file holding 32 bytes raw, as 64 hex digits or as base64.
    File(PathBuf),
    /// The value itself (hex or base64), e.g. from `PQSIG_KEK`.
    Value(zeroize::Zeroizing<String>),
    /// A fixed, publicly known key: development only, logged loudly.
    InsecureDev,
}

/// Everything the server needs to start.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Socket address to bind (port 0 picks a free port).
    pub listen: SocketAddr,
    /// SQLite path or `postgres://` / `postgresql://` URL.
    pub db: String,
    /// Key-encryption key source; `None` refuses to start.
    pub kek: Option<KekSource>,
    /// Start even when the key-encryption key file is world-readable.
    pub allow_world_readable_kek: bool,
    /// TLS certificate chain and key (PEM files).
    pub tls: Option<(PathBuf, PathBuf)>,
    /// Whether verify needs no token.
    pub public_verify: bool,
    /// TCP address of the binary socket protocol listener (none by default).
    pub proto_listen: Option<SocketAddr>,
    /// Unix socket path of the binary socket protocol listener (none by default).
    pub proto_unix: Option<PathBuf>,
    /// Request limits.
    pub limits: Limits,
    /// Bearer tokens.
    pub tokens: Vec<TokenConfig>,
    /// Further tokens from a file, re-read on SIGHUP.
    pub token_file: Option<PathBuf>,
    /// Sign audit log path (`-`: stderr).
    pub audit_log: Option<PathBuf>,
    /// HTTP access log path (`-`: stderr).
    pub access_log: Option<PathBuf>,
}

impl ServerConfig {
    /// A config from the file's values with the defaults for whatever it leaves out.
    pub fn from_file(file: FileConfig) -> Result<Self, String> {
        let listen = file.listen.as_deref().unwrap_or(DEFAULT_LISTEN);
        let listen = listen
            .parse()
            .map_err(|_| format!("invalid listen address {listen:?} (want IP:PORT)"))?;
        let tls = match (file.tls_cert, file.tls_key) {
            (Some(c), Some(k)) => Some((c, k)),
            (None, None) => None,
            _ => return Err("tls_cert and tls_key must be given together".into()),
        };
        let proto_listen = match file.proto_listen.as_deref() {
            Some(a) => Some(
                a.parse()
                    .map_err(|_| format!("invalid proto_listen address {a:?} (want IP:PORT)"))?,
            ),
            None => None,
        };
        let cfg = ServerConfig {
            listen,
            proto_listen,
            proto_unix: file.proto_unix,
            db: file.db.unwrap_or_else(|| DEFAULT_DB.into()),
            kek: file.kek_file.map(KekSource::File),
            allow_world_readable_kek: file.allow_world_readable_kek,
            tls,
            public_verify: file.public_verify,
            limits: file.limits,
            tokens: file.tokens,
            token_file: file.token_file,
            audit_log: file.audit_log,
            access_log: file.access_log,
        };
        Ok(cfg)
    }

    /// Checks the values that parsing alone cannot (called by the server at start).
    pub fn validate(&self) -> Result<(), String> {
        let l = &self.limits;
        if l.max_body_bytes == 0 || l.max_message_bytes == 0 || l.max_batch == 0 {
            return Err("limits must be positive".into());
        }
        if l.max_concurrent_per_token == 0 || l.request_timeout_ms == 0 {
            return Err("max_concurrent_per_token and request_timeout_ms must be positive".into());
        }
        if l.header_read_timeout_ms == 0
            || l.body_read_timeout_ms == 0
            || l.max_connections == 0
            || l.max_connections_per_ip == 0
            || l.max_concurrent_anonymous == 0
            || l.store_timeout_ms == 0
            || l.store_pool_size == 0
            || l.max_unauthenticated_frame_bytes < 64
        {
            return Err("timeouts and connection limits must be positive (max_unauthenticated_frame_bytes at least 64)".into());
        }
        if l.max_inflight_body_bytes < l.max_body_bytes {
            return Err("max_inflight_body_bytes must be at least max_body_bytes".into());
        }
        crate::auth::TokenTable::new(&self.all_tokens()?, l.max_concurrent_per_token).map(|_| ())
    }

    /// The inline tokens and those of `token_file`.
    pub fn all_tokens(&self) -> Result<Vec<TokenConfig>, String> {
        let mut all = self.tokens.clone();
        if let Some(f) = &self.token_file {
            all.extend(TokenFile::load(f)?);
        }
        Ok(all)
    }
}
