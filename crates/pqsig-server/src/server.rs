//! Starting and stopping the HTTP server: binding (loopback by default), optional TLS
//! (rustls, ring provider), graceful shutdown that drains in-flight requests, and the
//! blocking entry point `pqsig serve` uses (signals: SIGINT, SIGTERM).

use crate::config::{KekSource, ServerConfig};
use crate::service::Service;
use axum_server::tls_rustls::RustlsConfig;
use axum_server::Handle;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// A started server.
pub struct RunningServer {
    addr: SocketAddr,
    handle: Handle,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    grace: Duration,
    service: Arc<Service>,
}

impl RunningServer {
    /// The bound address (the real port when the config asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The service behind the server (for other transports sharing it).
    pub fn service(&self) -> Arc<Service> {
        self.service.clone()
    }

    /// Stops accepting connections and waits for in-flight requests (at most the
    /// configured grace period).
    pub async fn shutdown(self) -> Result<(), String> {
        self.handle.graceful_shutdown(Some(self.grace));
        self.wait().await
    }

    /// Waits until the server stops by itself (an I/O error) or is shut down.
    pub async fn wait(self) -> Result<(), String> {
        match self.task.await {
            Ok(r) => r.map_err(|e| format!("server: {e}")),
            Err(e) => Err(format!("server task: {e}")),
        }
    }
}

/// Opens the service (store, KEK, tokens), binds and starts serving. Errors are one
/// line for the operator.
pub async fn start(cfg: ServerConfig) -> Result<RunningServer, String> {
    if matches!(cfg.kek, Some(KekSource::InsecureDev)) {
        crate::log!("WARNING: ******************************************************************");
        crate::log!(
            "WARNING: --insecure-dev-key: private keys are encrypted under a PUBLICLY KNOWN"
        );
        crate::log!("WARNING: key. Anyone with the database file can read them. Development only.");
        crate::log!("WARNING: ******************************************************************");
    }
    let cfg2 = cfg.clone();
    let service = tokio::task::spawn_blocking(move || Service::open(&cfg2))
        .await
        .map_err(|e| format!("startup: {e}"))??;
    let service = Arc::new(service);
    let listener = std::net::TcpListener::bind(cfg.listen)
        .map_err(|e| format!("cannot listen on {}: {e}", cfg.listen))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("listener: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("listener: {e}"))?;
    if !addr.ip().is_loopback() && cfg.tls.is_none() {
        crate::log!("WARNING: listening on {addr} without TLS: bearer tokens travel in clear text");
    }
    let app = crate::http::router(service.clone()).into_make_service();
    let handle = Handle::new();
    let task = match &cfg.tls {
        Some((cert, key)) => {
            // Idempotent: a second server in the same process finds it installed.
            let _ = rustls::crypto::ring::default_provider().install_default();
            let tls = RustlsConfig::from_pem_file(cert, key).await.map_err(|e| {
                format!(
                    "TLS certificate {} / key {}: {e}",
                    cert.display(),
                    key.display()
                )
            })?;
            let server = axum_server::from_tcp_rustls(listener, tls).handle(handle.clone());
            tokio::spawn(server.serve(app))
        }
        None => tokio::spawn(
            axum_server::from_tcp(listener)
                .handle(handle.clone())
                .serve(app),
        ),
    };
    Ok(RunningServer {
        addr,
        handle,
        task,
        grace: cfg.limits.shutdown_grace(),
        service,
    })
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// Runs the server until SIGINT/SIGTERM, then drains in-flight requests and returns.
pub fn run_blocking(cfg: ServerConfig) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async move {
        let scheme = if cfg.tls.is_some() { "https" } else { "http" };
        let server = start(cfg).await?;
        crate::log!("listening on {scheme}://{}", server.local_addr());
        let handle = server.handle.clone();
        let grace = server.grace;
        tokio::spawn(async move {
            shutdown_signal().await;
            crate::log!("shutting down (draining in-flight requests)");
            handle.graceful_shutdown(Some(grace));
        });
        server.wait().await
    })
}
