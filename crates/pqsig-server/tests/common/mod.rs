//! Shared test harness: a real server on a loopback port with a temporary database,
//! a blocking HTTP client, and (for the PostgreSQL tests) a throwaway PostgreSQL cluster.
#![allow(dead_code)]

pub mod pg;

use pqsig_server::{FileConfig, KekSource, RunningServer, ServerConfig};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Sends a prepared request with an optional bearer token: status and JSON (Null if none).
fn send(mut req: reqwest::blocking::RequestBuilder, token: Option<&str>) -> (u16, Value) {
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let resp = req.send().expect("request sent");
    let status = resp.status().as_u16();
    (
        status,
        serde_json::from_str(&resp.text().unwrap_or_default()).unwrap_or(Value::Null),
    )
}

/// Secret of the all-powerful test token.
pub const ADMIN: &str = "admin-secret-token";
/// Secret of a sign-only token (all keys).
pub const SIGNER: &str = "signer-secret-token";
/// Secret of a verify-only token (all keys).
pub const VERIFIER: &str = "verifier-secret-token";
/// Secret of a token scoped to one nonexistent key id, every operation.
pub const SCOPED: &str = "scoped-secret-token";
/// A fixed key-encryption key (hex).
pub const KEK_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// The base TOML config: four tokens, small caps so limit tests stay cheap.
pub fn base_toml() -> String {
    format!(
        r#"
[limits]
max_body_bytes = 1048576
max_message_bytes = 4096
max_batch = 64
key_cache_ttl_secs = 0

[[token]]
name = "admin"
token = "{ADMIN}"
keys = ["*"]
operations = ["sign", "verify", "admin"]

[[token]]
name = "signer"
token = "{SIGNER}"
keys = ["*"]
operations = ["sign"]

[[token]]
name = "verifier"
token_sha256 = "{}"
keys = ["*"]
operations = ["verify"]

[[token]]
name = "scoped"
token = "{SCOPED}"
keys = ["00000000000000000000000000000000"]
operations = ["sign", "verify", "admin"]
"#,
        sha256_hex(VERIFIER)
    )
}

fn sha256_hex(s: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(s.as_bytes()))
}

/// A running server plus the runtime that drives it.
pub struct TestServer {
    pub rt: tokio::runtime::Runtime,
    pub server: Option<RunningServer>,
    pub cfg: ServerConfig,
    pub base: String,
    pub client: reqwest::blocking::Client,
    /// Keeps the temporary directory (database) alive.
    pub dir: Option<tempfile::TempDir>,
}

/// Builds a config from TOML text, a database and the test KEK, on a free loopback port.
pub fn config(toml_text: &str, db: String) -> ServerConfig {
    let file = FileConfig::parse(toml_text).expect("test config parses");
    let mut cfg = ServerConfig::from_file(file).expect("test config valid");
    cfg.listen = "127.0.0.1:0".parse().unwrap();
    cfg.db = db;
    cfg.kek = Some(KekSource::Value(zeroize::Zeroizing::new(
        KEK_HEX.to_string(),
    )));
    cfg
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

impl TestServer {
    /// A server with the base config and a fresh SQLite database.
    pub fn start() -> Self {
        Self::start_with(&base_toml())
    }

    /// A server with the given TOML and a fresh SQLite database.
    pub fn start_with(toml_text: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("keys.db").to_string_lossy().into_owned();
        let mut s = Self::start_cfg(config(toml_text, db));
        s.dir = Some(dir);
        s
    }

    /// A server with a complete config.
    pub fn start_cfg(cfg: ServerConfig) -> Self {
        let rt = runtime();
        let server = rt
            .block_on(pqsig_server::start(cfg.clone()))
            .expect("server starts");
        let scheme = if cfg.tls.is_some() { "https" } else { "http" };
        let base = format!("{scheme}://{}", server.local_addr());
        TestServer {
            rt,
            server: Some(server),
            cfg,
            base,
            client: reqwest::blocking::Client::new(),
            dir: None,
        }
    }

    /// Stops (graceful) and starts again on the same database and config (new port).
    pub fn restart(&mut self) {
        self.stop();
        let server = self
            .rt
            .block_on(pqsig_server::start(self.cfg.clone()))
            .expect("server restarts");
        self.base = format!("http://{}", server.local_addr());
        self.server = Some(server);
    }

    /// Graceful shutdown.
    pub fn stop(&mut self) {
        if let Some(s) = self.server.take() {
            self.rt.block_on(s.shutdown()).expect("clean shutdown");
        }
    }

    /// Sends a request with an optional bearer token and JSON body; returns status and
    /// parsed JSON (Null when the body is not JSON).
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut req = self.client.request(m, format!("{}{}", self.base, path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let resp = req.send().expect("request sent");
        let status = resp.status().as_u16();
        let text = resp.text().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// Sends a raw body.
    pub fn call_raw(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Vec<u8>,
    ) -> (u16, Value) {
        let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let req = self.client.request(m, format!("{}{}", self.base, path));
        send(req.body(body), token)
    }

    /// Sends a binary batch body (`application/vnd.pqsig.batch`).
    pub fn call_binary(&self, path: &str, token: Option<&str>, body: Vec<u8>) -> (u16, Value) {
        let req = self
            .client
            .post(format!("{}{}", self.base, path))
            .header("content-type", pqsig_server::BATCH_MEDIA_TYPE);
        send(req.body(body), token)
    }

    /// Creates a key with the admin token; returns the response body.
    pub fn create_key(&self, alg: &str) -> Value {
        let (st, v) = self.call(
            "POST",
            "/v1/keys",
            Some(ADMIN),
            Some(&json!({ "alg": alg })),
        );
        assert_eq!(st, 201, "create {alg}: {v}");
        v
    }
}

impl TestServer {
    /// Signs `msg` (empty context) with a stored key, checks the signature with the
    /// library, and returns its base64.
    #[track_caller]
    pub fn sign_checked(&self, key: &Value, token: &str, msg: &[u8]) -> Value {
        let id = key["id"].as_str().unwrap();
        let (st, sig) = self.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(token),
            Some(&json!({ "message": b64(msg) })),
        );
        assert_eq!(st, 200, "sign with {id}: {sig}");
        library_vk(key)
            .verify(msg, b"", &unb64(&sig["signature"]))
            .expect("the library verifies the server's signature");
        sig["signature"].clone()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Asserts an error response: status and code.
#[track_caller]
pub fn assert_error(got: (u16, Value), status: u16, code: &str) -> Value {
    assert_eq!(got.0, status, "body: {}", got.1);
    assert_eq!(got.1["error"]["code"], code, "body: {}", got.1);
    assert!(
        got.1["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "body: {}",
        got.1
    );
    got.1
}

/// Base64 (standard, padded).
pub fn b64(b: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// Base64 decode.
pub fn unb64(s: &Value) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(s.as_str().expect("string"))
        .expect("base64")
}

/// The library's verifier for a key response.
pub fn library_vk(key: &Value) -> pqsig::any::VerifyingKey {
    let alg = pqsig::Algorithm::from_name(key["alg"].as_str().unwrap()).unwrap();
    pqsig::any::VerifyingKey::from_bytes(alg, &unb64(&key["public_key"])).unwrap()
}

/// A scratch directory path inside a temp dir.
pub fn path_in(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}
