//! A protocol server on a loopback port (and optionally a Unix socket) in a background
//! thread, over fixed-seed keys, for the integration tests.
#![allow(dead_code)] // each test file uses a different part

use pqsig::any::SigningKey;
use pqsig::Algorithm;
use pqsig_proto::server::{serve_tcp, serve_unix, ServerConfig};
use pqsig_proto::{Client, Endpoint, Handler, KeyMapHandler};
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
        .fold(KeyMapHandler::new().with_token(TOKEN), |h, (id, alg)| h.with_key(*id, key(alg)))
}

/// A running server; stopped (gracefully) when dropped or by [`TestServer::stop`].
pub struct TestServer {
    pub tcp: Endpoint,
    pub unix: Endpoint,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// A fresh socket path under the temporary directory.
pub fn socket_path(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("pqsig-proto-{}-{tag}-{n}.sock", std::process::id()))
}

impl TestServer {
    /// Serves `handler` on 127.0.0.1:0 and a fresh Unix socket.
    pub fn start<H: Handler>(handler: H, config: ServerConfig) -> TestServer {
        let handler = Arc::new(handler);
        let path = socket_path("srv");
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let unix_path = path.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            let bind_path = unix_path.clone();
            rt.block_on(async move {
                let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                let _ = std::fs::remove_file(&bind_path);
                let unix = tokio::net::UnixListener::bind(&bind_path).unwrap();
                ready_tx.send(tcp.local_addr().unwrap()).unwrap();
                let (all_tx, all_rx) = tokio::sync::watch::channel(false);
                let stop = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
                    let _ = rx.wait_for(|s| *s).await;
                };
                let t = tokio::spawn(serve_tcp(tcp, handler.clone(), config, stop(all_rx.clone())));
                let u = tokio::spawn(serve_unix(unix, handler, config, stop(all_rx)));
                let _ = stop_rx.await;
                all_tx.send(true).unwrap();
                t.await.unwrap().unwrap();
                u.await.unwrap().unwrap();
            });
            let _ = std::fs::remove_file(&unix_path);
        });
        let addr = ready_rx.recv().unwrap();
        TestServer {
            tcp: Endpoint::Tcp(addr.to_string()),
            unix: Endpoint::Unix(path),
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// Begins the graceful shutdown without waiting for it.
    pub fn begin_stop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }

    /// Shuts down and waits until every connection is drained.
    pub fn stop(&mut self) {
        self.begin_stop();
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }

    /// A client on the TCP port, authenticated with [`TOKEN`].
    pub fn client(&self) -> Client {
        let mut c = Client::connect(&self.tcp, Some(Duration::from_secs(30))).unwrap();
        c.hello(TOKEN).unwrap();
        c
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
    }
}
