//! `pqsig serve`: runs the signing/verification service of the pqsig-server crate until
//! SIGINT/SIGTERM. Flags override the TOML config file field by field; any configuration
//! problem is one line on stderr and exit code 2.

use crate::exit::Failure;
use clap::Args;
use pqsig_server::{FileConfig, KekSource, ServerConfig};
use std::path::PathBuf;

const SERVE_EXAMPLES: &str = "\
Examples:
  head -c32 /dev/urandom > kek.bin && chmod 600 kek.bin
  pqsig serve --config server.toml --kek-file kek.bin
  PQSIG_KEK=$(head -c32 /dev/urandom | xxd -p -c64) pqsig serve --config server.toml --db postgres://pqsig@db/pqsig
  pqsig serve --config server.toml --insecure-dev-key --listen 127.0.0.1:8700
  pqsig serve --config server.toml --kek-file kek.bin --proto-listen 127.0.0.1:8701 --proto-unix /run/pqsig.sock
  pqsig serve --config server.toml --kek-file kek.bin --tls-cert cert.pem --tls-key key.pem --listen 0.0.0.0:8443

See docs/SERVER.md for the API and the config file (tokens, limits).";

/// Arguments of `pqsig serve`.
#[derive(Debug, Args)]
#[command(after_help = SERVE_EXAMPLES)]
pub struct ServeArgs {
    /// TOML config file (tokens, limits, and defaults for the flags below).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:8700].
    #[arg(long, value_name = "IP:PORT")]
    pub listen: Option<String>,
    /// Key store: a SQLite file (created on first run) or a postgres:// URL [default: pqsig-server.db].
    #[arg(long, value_name = "PATH|URL")]
    pub db: Option<String>,
    /// File with the 32-byte key-encryption key (raw, hex or base64); or set PQSIG_KEK.
    #[arg(long, value_name = "FILE")]
    pub kek_file: Option<PathBuf>,
    /// Start even if the --kek-file is world-readable (refused otherwise).
    #[arg(long)]
    pub allow_world_readable_kek: bool,
    /// Encrypt private keys under a fixed, PUBLIC key (development only; logged loudly).
    #[arg(long)]
    pub insecure_dev_key: bool,
    /// TLS certificate chain (PEM); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// TLS private key (PEM); needs --tls-cert.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Also serve the binary socket protocol (docs/PROTOCOL.md) on this TCP address.
    #[arg(long, value_name = "IP:PORT")]
    pub proto_listen: Option<String>,
    /// Also serve the binary socket protocol on this Unix socket path.
    #[arg(long, value_name = "PATH")]
    pub proto_unix: Option<PathBuf>,
    /// Let /v1/verify and /v1/verify-batch be called without a token.
    #[arg(long)]
    pub public_verify: bool,
    /// Largest request body in bytes.
    #[arg(long, value_name = "BYTES")]
    pub max_body_bytes: Option<usize>,
    /// Largest message to sign or verify in bytes (larger: send external mu).
    #[arg(long, value_name = "BYTES")]
    pub max_message_bytes: Option<usize>,
    /// Most items in one batch request.
    #[arg(long, value_name = "N")]
    pub max_batch: Option<usize>,
    /// Requests one token may have in flight (for tokens that set none).
    #[arg(long, value_name = "N")]
    pub max_concurrent_per_token: Option<usize>,
    /// Whole-request timeout in seconds.
    #[arg(long, value_name = "SECS")]
    pub request_timeout: Option<u64>,
}

/// Builds the server config from the file and the flags.
fn config(args: ServeArgs) -> Result<ServerConfig, String> {
    let file = match &args.config {
        Some(p) => FileConfig::load(p)?,
        None => FileConfig::default(),
    };
    let mut cfg = ServerConfig::from_file(file)?;
    if let Some(l) = &args.listen {
        cfg.listen = l
            .parse()
            .map_err(|_| format!("--listen: invalid address {l:?} (want IP:PORT)"))?;
    }
    if let Some(l) = &args.proto_listen {
        cfg.proto_listen = Some(
            l.parse()
                .map_err(|_| format!("--proto-listen: invalid address {l:?} (want IP:PORT)"))?,
        );
    }
    if let Some(p) = args.proto_unix {
        cfg.proto_unix = Some(p);
    }
    if let Some(db) = args.db {
        cfg.db = db;
    }
    let env_kek = std::env::var("PQSIG_KEK").ok().filter(|v| !v.is_empty());
    let real_kek = match (args.kek_file, env_kek) {
        (Some(f), _) => Some(KekSource::File(f)),
        (None, Some(v)) => Some(KekSource::Value(zeroize::Zeroizing::new(v))),
        (None, None) => cfg.kek.take(),
    };
    cfg.kek = match (real_kek, args.insecure_dev_key) {
        (Some(_), true) => {
            return Err(
                "--insecure-dev-key cannot be combined with a real key-encryption key".into(),
            )
        }
        (Some(k), false) => Some(k),
        (None, true) => Some(KekSource::InsecureDev),
        (None, false) => None,
    };
    if let (Some(c), Some(k)) = (args.tls_cert, args.tls_key) {
        cfg.tls = Some((c, k));
    }
    cfg.public_verify |= args.public_verify;
    cfg.allow_world_readable_kek |= args.allow_world_readable_kek;
    let l = &mut cfg.limits;
    l.max_body_bytes = args.max_body_bytes.unwrap_or(l.max_body_bytes);
    l.max_message_bytes = args.max_message_bytes.unwrap_or(l.max_message_bytes);
    l.max_batch = args.max_batch.unwrap_or(l.max_batch);
    l.max_concurrent_per_token = args
        .max_concurrent_per_token
        .unwrap_or(l.max_concurrent_per_token);
    if let Some(secs) = args.request_timeout {
        l.request_timeout_ms = secs.saturating_mul(1000);
    }
    cfg.validate()?;
    if cfg.kek.is_none() {
        return Err("no key-encryption key: give --kek-file or PQSIG_KEK (or --insecure-dev-key for development only)".into());
    }
    Ok(cfg)
}

/// Runs the service until a shutdown signal.
pub fn run(args: ServeArgs) -> Result<(), Failure> {
    let cfg = config(args).map_err(|e| Failure::error(format!("serve: {e}")))?;
    pqsig_server::run_blocking(cfg).map_err(|e| Failure::error(format!("serve: {e}")))
}
