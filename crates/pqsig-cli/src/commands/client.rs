//! `pqsig client`: sign and verify with keys held by a pqsig server, over the binary socket
//! protocol (`tcp://`, `unix:`; docs/PROTOCOL.md) or the HTTP JSON API (`http(s)://`).
//! Exit codes as everywhere in the CLI: 0 signed / valid, 1 invalid signature, 2 any error.
//!
//! The argument structs live here rather than in `cli.rs`: they are only this command's,
//! and `cli.rs` keeps one line for it.

use super::{context, load_public_key};
use crate::exit::Failure;
use crate::io;
use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use clap::{Args, Subcommand};
use pqsig::Algorithm;
use pqsig_proto::{Client, ClientError, Endpoint, Input, KeyRef, SignRequest, VerifyRequest};
use std::path::{Path, PathBuf};
use std::time::Duration;
use zeroize::Zeroizing;

pub const AFTER_HELP: &str = "\
Examples:
  pqsig client sign   --server tcp://127.0.0.1:7000 --token-file tok --key-id alice --in msg.txt --out msg.sig
  pqsig client verify --server unix:/run/pqsig.sock --token-file tok --key-id alice --in msg.txt --sig msg.sig
  pqsig client verify --server https://pq.example:8443 --alg ML-DSA-65 --pk alice.pub.pem --in msg.txt --sig msg.sig
  pqsig client sign   --server http://127.0.0.1:8080 --token-file tok --key-id alice \\
                      --alg ML-DSA-65 --pk alice.pub.pem --mu --in big.iso --out big.sig
  pqsig client ping   --server tcp://127.0.0.1:7000

Exit codes: 0 success / valid; 1 invalid signature; 2 any other error.";

/// `pqsig client <op>`.
#[derive(Debug, Args)]
pub struct ClientArgs {
    #[command(subcommand)]
    pub op: ClientOp,
}

/// What to ask the server.
#[derive(Debug, Subcommand)]
pub enum ClientOp {
    /// Sign a file with a key held by the server.
    Sign(ClientSignArgs),
    /// Verify a signature (by the server): exit 0 if valid, 1 if invalid, 2 on error.
    Verify(ClientVerifyArgs),
    /// Check that the server answers (socket protocol: PING; HTTP: GET /healthz).
    Ping(ServerArgs),
}

/// Where the server is and how to authenticate.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// tcp://HOST:PORT or unix:/PATH (socket protocol), or http(s)://HOST[:PORT] (JSON API).
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// File holding the bearer token (a trailing newline is ignored).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Seconds to wait for the server (connect and each answer).
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,
    /// https only: trust this CA certificate (PEM) instead of the public roots.
    #[arg(long, value_name = "FILE")]
    pub ca_file: Option<PathBuf>,
}

/// Public key options shared by sign (for μ) and verify.
#[derive(Debug, Args)]
pub struct LocalKeyArgs {
    /// Algorithm of --pk (see `pqsig list`); needed for a raw key only (PEM and DER name
    /// theirs; a different one given here is an error).
    #[arg(long, value_name = "NAME", value_parser = parse_alg, requires = "pk")]
    pub alg: Option<Algorithm>,
    /// Public key file (PEM, DER or raw): for verify without --key-id the key sent to the
    /// server; with --mu the key μ is computed with.
    #[arg(long, value_name = "FILE")]
    pub pk: Option<PathBuf>,
    /// Send the 64-byte external μ computed here instead of the message (ML-DSA, FN-DSA):
    /// for messages over the server's size cap. Needs --pk (and --alg for a raw key).
    #[arg(long, requires = "pk")]
    pub mu: bool,
}

#[derive(Debug, Args)]
pub struct ClientSignArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The server's id of the signing key.
    #[arg(long, value_name = "ID")]
    pub key_id: String,
    /// The message file (`-` for standard input).
    #[arg(long = "in", value_name = "FILE")]
    pub input: PathBuf,
    /// Where to write the signature (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Context string in hex (at most 255 bytes).
    #[arg(long, value_name = "HEX")]
    pub ctx: Option<String>,
    /// Deterministic signing (ML-DSA only).
    #[arg(long)]
    pub deterministic: bool,
    #[command(flatten)]
    pub key: LocalKeyArgs,
}

#[derive(Debug, Args)]
pub struct ClientVerifyArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The server's id of the key (else --alg and --pk give the key).
    #[arg(long, value_name = "ID", required_unless_present = "pk")]
    pub key_id: Option<String>,
    /// The message file (`-` for standard input).
    #[arg(long = "in", value_name = "FILE")]
    pub input: PathBuf,
    /// Signature file.
    #[arg(long, value_name = "FILE")]
    pub sig: PathBuf,
    /// Context string in hex (at most 255 bytes).
    #[arg(long, value_name = "HEX")]
    pub ctx: Option<String>,
    #[command(flatten)]
    pub key: LocalKeyArgs,
}

fn parse_alg(s: &str) -> Result<Algorithm, String> {
    Algorithm::from_name(s).map_err(|_| format!("unknown algorithm {s:?} (see `pqsig list`)"))
}

pub fn run(args: ClientArgs) -> Result<(), Failure> {
    match args.op {
        ClientOp::Sign(a) => sign(a),
        ClientOp::Verify(a) => verify(a),
        ClientOp::Ping(s) => connect(&s)?.ping(),
    }
}

fn sign(a: ClientSignArgs) -> Result<(), Failure> {
    let ctx = context(a.ctx.as_deref())?;
    let msg = io::read_file(&a.input, "message")?;
    let input = message_or_mu(&a.key, msg, &ctx)?;
    let req = SignRequest {
        key_id: a.key_id,
        context: if matches!(input, Input::Mu(_)) {
            Vec::new()
        } else {
            ctx
        },
        input,
        deterministic: a.deterministic,
    };
    let sig = connect(&a.server)?.sign(req)?;
    io::write_file(&a.out, &sig, "signature")
}

fn verify(a: ClientVerifyArgs) -> Result<(), Failure> {
    let ctx = context(a.ctx.as_deref())?;
    let msg = io::read_file(&a.input, "message")?;
    let signature = io::read_file(&a.sig, "signature")?;
    let key = match (&a.key_id, &a.key.alg, &a.key.pk) {
        (Some(id), _, _) => KeyRef::Id(id.clone()),
        (None, alg, Some(pk)) => {
            let vk = load_public_key(*alg, pk)?;
            KeyRef::Inline {
                algorithm: vk.algorithm().name().to_string(),
                public_key: vk.to_bytes().to_vec(),
            }
        }
        // clap requires --key-id or --pk.
        _ => {
            return Err(Failure::error(
                "give --key-id, or --pk (and --alg for a raw key)",
            ))
        }
    };
    let input = message_or_mu(&a.key, msg, &ctx)?;
    let req = VerifyRequest {
        key,
        context: if matches!(input, Input::Mu(_)) {
            Vec::new()
        } else {
            ctx
        },
        input,
        signature,
    };
    if connect(&a.server)?.verify(req)? {
        Ok(())
    } else {
        Err(Failure::invalid(format!(
            "{}: invalid signature (according to {})",
            io::shown(&a.sig),
            a.server.server
        )))
    }
}

/// The message itself, or with --mu its μ under --pk.
fn message_or_mu(k: &LocalKeyArgs, msg: Vec<u8>, ctx: &[u8]) -> Result<Input, Failure> {
    let (true, Some(pk)) = (k.mu, &k.pk) else {
        return Ok(Input::Message(msg));
    };
    let vk = load_public_key(k.alg, pk)?;
    let alg = vk.algorithm();
    vk.compute_mu(&msg, ctx).map(Input::Mu).map_err(|e| {
        Failure::error(format!(
            "--mu: cannot compute mu with {alg} ({e}; ML-DSA and FN-DSA only)"
        ))
    })
}

/// A connection to the server, whichever the transport.
enum Conn {
    Socket { client: Client, server: String },
    Http(Http),
}

fn connect(s: &ServerArgs) -> Result<Conn, Failure> {
    let token = match &s.token_file {
        Some(path) => Some(read_token(path)?),
        None => None,
    };
    let timeout = Duration::from_secs(s.timeout);
    if s.server.starts_with("http://") || s.server.starts_with("https://") {
        return Http::new(s, token, timeout).map(Conn::Http);
    }
    let endpoint: Endpoint = s
        .server
        .parse()
        .map_err(|e| Failure::error(format!("--server {e}, or http(s)://HOST:PORT")))?;
    if s.ca_file.is_some() {
        return Err(Failure::error("--ca-file applies to https:// servers only"));
    }
    let fail = |e: ClientError| socket_failure(&s.server, e);
    let mut client = Client::connect(&endpoint, Some(timeout)).map_err(|e| match e {
        ClientError::Io(e) => Failure::error(format!("{}: cannot connect: {e}", s.server)),
        e => fail(e),
    })?;
    if let Some(t) = &token {
        client.hello(t).map_err(fail)?;
    }
    Ok(Conn::Socket {
        client,
        server: s.server.clone(),
    })
}

fn read_token(path: &Path) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let mut t = io::read_secret(path, "token")?;
    while matches!(t.last(), Some(b'\n' | b'\r')) {
        t.pop();
    }
    if t.is_empty() {
        return Err(Failure::error(format!(
            "{}: the token file is empty",
            io::shown(path)
        )));
    }
    Ok(t)
}

fn socket_failure(server: &str, e: ClientError) -> Failure {
    Failure::error(format!("{server}: {e}"))
}

impl Conn {
    fn ping(self) -> Result<(), Failure> {
        match self {
            Conn::Socket { mut client, server } => client
                .ping(b"pqsig")
                .map_err(|e| socket_failure(&server, e)),
            Conn::Http(h) => h.get("/healthz").map(|_| ()),
        }
    }

    fn sign(self, req: SignRequest) -> Result<Vec<u8>, Failure> {
        match self {
            Conn::Socket { mut client, server } => {
                client.sign(req).map_err(|e| socket_failure(&server, e))
            }
            Conn::Http(h) => h.sign(req),
        }
    }

    fn verify(self, req: VerifyRequest) -> Result<bool, Failure> {
        match self {
            Conn::Socket { mut client, server } => {
                client.verify(req).map_err(|e| socket_failure(&server, e))
            }
            Conn::Http(h) => h.verify(req),
        }
    }
}

/// The HTTP JSON API (`POST /v1/keys/{id}/sign`, `POST /v1/verify`), bearer token in the
/// Authorization header.
struct Http {
    agent: ureq::Agent,
    base: String,
    token: Option<Zeroizing<String>>,
}

impl Http {
    fn new(
        s: &ServerArgs,
        token: Option<Zeroizing<Vec<u8>>>,
        timeout: Duration,
    ) -> Result<Self, Failure> {
        let token = match token {
            Some(t) => Some(Zeroizing::new(String::from_utf8(t.to_vec()).map_err(
                |_| Failure::error("the token must be text (UTF-8) for an HTTP server"),
            )?)),
            None => None,
        };
        let mut tls = ureq::tls::TlsConfig::builder();
        if let Some(ca) = &s.ca_file {
            let pem = io::read_file(ca, "CA certificate")?;
            let certs = ureq::tls::parse_pem(&pem)
                .filter_map(|item| match item {
                    Ok(ureq::tls::PemItem::Certificate(c)) => Some(c),
                    _ => None,
                })
                .collect::<Vec<_>>();
            if certs.is_empty() {
                return Err(Failure::error(format!(
                    "{}: no PEM certificate found",
                    io::shown(ca)
                )));
            }
            tls = tls.root_certs(ureq::tls::RootCerts::new_with_certs(&certs));
        }
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .tls_config(tls.build())
            .build()
            .into();
        Ok(Http {
            agent,
            base: s.server.trim_end_matches('/').to_string(),
            token,
        })
    }

    fn sign(self, req: SignRequest) -> Result<Vec<u8>, Failure> {
        let mut body = serde_json::Map::new();
        put_input(&mut body, &req.input, &req.context);
        if req.deterministic {
            body.insert("deterministic".into(), true.into());
        }
        let path = format!("/v1/keys/{}/sign", percent_encode(&req.key_id));
        let answer = self.post(&path, body)?;
        let sig = answer.get("signature").and_then(|v| v.as_str());
        let sig = sig.ok_or_else(|| self.bad_answer(&path, "no \"signature\""))?;
        B64.decode(sig)
            .map_err(|_| self.bad_answer(&path, "\"signature\" is not base64"))
    }

    fn verify(self, req: VerifyRequest) -> Result<bool, Failure> {
        let mut body = serde_json::Map::new();
        match &req.key {
            KeyRef::Id(id) => {
                body.insert("key_id".into(), id.as_str().into());
            }
            KeyRef::Inline {
                algorithm,
                public_key,
            } => {
                body.insert("alg".into(), algorithm.as_str().into());
                body.insert("public_key".into(), B64.encode(public_key).into());
            }
        }
        put_input(&mut body, &req.input, &req.context);
        body.insert("signature".into(), B64.encode(&req.signature).into());
        let answer = self.post("/v1/verify", body)?;
        answer
            .get("valid")
            .and_then(|v| v.as_bool())
            .ok_or_else(|| self.bad_answer("/v1/verify", "no boolean \"valid\""))
    }

    fn post(
        &self,
        path: &str,
        body: serde_json::Map<String, serde_json::Value>,
    ) -> Result<serde_json::Value, Failure> {
        let url = format!("{}{path}", self.base);
        let mut req = self
            .agent
            .post(&url)
            .header("Content-Type", "application/json");
        if let Some(t) = &self.token {
            req = req.header("Authorization", format!("Bearer {}", t.as_str()));
        }
        let body = serde_json::Value::Object(body).to_string();
        self.answer(&url, req.send(body.as_bytes()))
    }

    fn get(&self, path: &str) -> Result<serde_json::Value, Failure> {
        let url = format!("{}{path}", self.base);
        let mut req = self.agent.get(&url);
        if let Some(t) = &self.token {
            req = req.header("Authorization", format!("Bearer {}", t.as_str()));
        }
        self.answer(&url, req.call())
    }

    /// A 2xx JSON body, or a one-line failure naming the URL, the status and the
    /// server's error message.
    fn answer(
        &self,
        url: &str,
        resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<serde_json::Value, Failure> {
        let mut resp = resp.map_err(|e| Failure::error(format!("{url}: {e}")))?;
        let status = resp.status();
        let text = resp
            .body_mut()
            .with_config()
            .limit(1 << 20)
            .read_to_string()
            .map_err(|e| {
                Failure::error(format!("{url}: HTTP {status}: cannot read the answer: {e}"))
            })?;
        let json: Option<serde_json::Value> = serde_json::from_str(&text).ok();
        if !status.is_success() {
            let why = json
                .as_ref()
                .and_then(error_message)
                .unwrap_or_else(|| text.chars().take(200).collect());
            return Err(Failure::error(format!("{url}: HTTP {status}: {why}")));
        }
        json.ok_or_else(|| Failure::error(format!("{url}: the answer is not JSON")))
    }

    fn bad_answer(&self, path: &str, what: &str) -> Failure {
        Failure::error(format!("{}{path}: unexpected answer: {what}", self.base))
    }
}

/// `message` (or `mu`) and `context`, base64, as the JSON API takes them.
fn put_input(body: &mut serde_json::Map<String, serde_json::Value>, input: &Input, ctx: &[u8]) {
    match input {
        Input::Message(m) => body.insert("message".into(), B64.encode(m).into()),
        Input::Mu(mu) => body.insert("mu".into(), B64.encode(mu).into()),
    };
    if !ctx.is_empty() {
        body.insert("context".into(), B64.encode(ctx).into());
    }
}

/// The human part of a JSON error body: `{"error": "..."}`, `{"error": {"message": ...}}`
/// or `{"message": "..."}`.
fn error_message(v: &serde_json::Value) -> Option<String> {
    let e = v.get("error").unwrap_or(v);
    e.as_str()
        .or_else(|| e.get("message").and_then(|m| m.as_str()))
        .map(|s| s.replace('\n', " "))
}

/// Percent-encodes a key id for a URL path segment (RFC 3986 unreserved kept).
fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
