//! A protocol server on a loopback port and a Unix socket, over fixed-seed keys, for the
//! integration tests.
#![allow(dead_code)] // each test file uses a different part

use pqsig::any::SigningKey;
use pqsig::Algorithm;
use pqsig_proto::background::BackgroundServer;
use pqsig_proto::server::ServerConfig;
use pqsig_proto::{
    Client, Endpoint, Handler, Input, KeyMapHandler, KeyRef, SignRequest, VerifyRequest,
};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The bearer token the test servers accept.
pub const TOKEN: &[u8] = b"s3cret-token";
/// Key ids and algorithms of the test key map.
pub const KEYS: [(&str, &str); 3] = [
    ("mldsa65", "ML-DSA-65"),
    ("falcon512", "Falcon-512"),
    ("snova", "SNOVA_I_S"),
];

/// The fixed-seed key of `alg`.
pub fn key(alg: &str) -> SigningKey {
    let alg = Algorithm::from_name(alg).unwrap();
    SigningKey::from_seed(alg, &vec![0x42; alg.seed_len()]).unwrap()
}

/// The key map of [`KEYS`], requiring [`TOKEN`].
pub fn keymap() -> KeyMapHandler {
    KEYS.iter()
        .fold(KeyMapHandler::new().with_token(TOKEN), |h, (id, alg)| {
            h.with_key(*id, key(alg))
        })
}

/// A fresh socket path under the temporary directory.
pub fn socket_path(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("pqsig-proto-{}-{tag}-{n}.sock", std::process::id()))
}

/// A running server on both transports.
pub struct TestServer {
    pub tcp: Endpoint,
    pub unix: Endpoint,
    pub server: BackgroundServer,
}

impl TestServer {
    /// Serves `handler` on 127.0.0.1:0 and a fresh Unix socket.
    pub fn start<H: Handler>(handler: H, config: ServerConfig) -> TestServer {
        let path = socket_path("srv");
        let server =
            BackgroundServer::start(Arc::new(handler), config, Some("127.0.0.1:0"), Some(&path))
                .unwrap();
        TestServer {
            tcp: server.tcp().unwrap(),
            unix: server.unix().unwrap(),
            server,
        }
    }

    /// A client on the TCP port, authenticated with [`TOKEN`].
    pub fn client(&self) -> Client {
        let mut c = Client::connect(&self.tcp, Some(Duration::from_secs(30))).unwrap();
        c.hello(TOKEN).unwrap();
        c
    }
}

/// A SIGN of `msg` with key `id` (hedged, empty context).
pub fn sign(id: &str, msg: &[u8]) -> SignRequest {
    SignRequest {
        key_id: id.into(),
        input: Input::Message(msg.to_vec()),
        context: vec![],
        deterministic: false,
    }
}

/// A VERIFY of `sig` over `msg` under `key` (empty context).
pub fn verify(key: KeyRef, msg: &[u8], sig: &[u8]) -> VerifyRequest {
    VerifyRequest {
        key,
        input: Input::Message(msg.to_vec()),
        context: vec![],
        signature: sig.to_vec(),
    }
}
