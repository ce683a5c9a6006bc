//! Starting and stopping the server: the HTTP listener (loopback by default, optional TLS
//! via rustls with the ring provider), the optional binary-protocol listeners (TCP and a
//! Unix socket) over the same service, graceful shutdown that drains in-flight requests
//! on every listener, and the blocking entry point `pqsig serve` uses (SIGINT, SIGTERM).

use crate::config::{KekSource, ServerConfig};
use crate::service::Service;
use axum_server::tls_rustls::RustlsConfig;
use axum_server::Handle;
use std::net::SocketAddr;
use std::os::unix::fs::FileTypeExt;
use std::sync::Arc;
use std::time::Duration;

type Task = tokio::task::JoinHandle<std::io::Result<()>>;

/// A started server.
pub struct RunningServer {
    addr: SocketAddr,
    proto_addr: Option<SocketAddr>,
    handle: Handle,
    task: Task,
    /// Binary-protocol listeners; they stop when `proto_stop` turns true.
    proto_tasks: Vec<Task>,
    proto_stop: Arc<tokio::sync::watch::Sender<bool>>,
    grace: Duration,
    service: Arc<Service>,
}

impl RunningServer {
    /// The bound address (the real port when the config asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The bound address of the binary-protocol TCP listener, when one was configured.
    pub fn proto_addr(&self) -> Option<SocketAddr> {
        self.proto_addr
    }

    /// The service behind the server (for other transports sharing it).
    pub fn service(&self) -> Arc<Service> {
        self.service.clone()
    }

    /// Stops accepting connections and waits for in-flight requests (at most the
    /// configured grace period).
    pub async fn shutdown(self) -> Result<(), String> {
        self.stopper()();
        self.wait().await
    }

    /// A function that starts the graceful shutdown of every listener (for a signal
    /// handler running beside [`RunningServer::wait`]).
    fn stopper(&self) -> impl FnOnce() + Send + 'static {
        let (handle, grace, stop) = (self.handle.clone(), self.grace, self.proto_stop.clone());
        move || {
            handle.graceful_shutdown(Some(grace));
            let _ = stop.send(true);
        }
    }

    /// Waits until every listener has stopped (an I/O error or a shutdown).
    pub async fn wait(self) -> Result<(), String> {
        let mut result = join(self.task, "server").await;
        for t in self.proto_tasks {
            let r = join(t, "protocol listener").await;
            if result.is_ok() {
                result = r;
            }
        }
        result
    }
}

async fn join(task: Task, what: &str) -> Result<(), String> {
    match task.await {
        Ok(r) => r.map_err(|e| format!("{what}: {e}")),
        Err(e) => Err(format!("{what} task: {e}")),
    }
}

/// Starts the binary-protocol listeners configured in `cfg` over `service`.
fn start_proto(
    cfg: &ServerConfig,
    service: &Arc<Service>,
    stop: &tokio::sync::watch::Sender<bool>,
) -> Result<(Option<SocketAddr>, Vec<Task>), String> {
    let handler = Arc::new(crate::proto::ProtoHandler(service.clone()));
    let limits = pqsig_proto::server::ServerConfig {
        max_payload: cfg
            .limits
            .max_body_bytes
            .min(pqsig_proto::codec::MAX_PAYLOAD as usize) as u32,
        max_batch: cfg.limits.max_batch.min(u32::MAX as usize) as u32,
        // Public verify serves anonymous clients whole VERIFY frames; otherwise nothing
        // but a HELLO (or PING) is expected before authentication.
        max_unauthenticated_payload: if cfg.public_verify {
            u32::MAX
        } else {
            cfg.limits
                .max_unauthenticated_frame_bytes
                .min(u32::MAX as usize) as u32
        },
        max_connections: cfg.limits.max_connections,
        max_connections_per_ip: cfg.limits.max_connections_per_ip,
        ..Default::default()
    };
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|s| *s).await;
    };
    let mut tasks = Vec::new();
    let mut addr = None;
    if let Some(a) = cfg.proto_listen {
        let l = std::net::TcpListener::bind(a)
            .map_err(|e| format!("cannot listen (protocol) on {a}: {e}"))?;
        l.set_nonblocking(true)
            .map_err(|e| format!("protocol listener: {e}"))?;
        let bound = l
            .local_addr()
            .map_err(|e| format!("protocol listener: {e}"))?;
        if !bound.ip().is_loopback() {
            crate::log!(
                "WARNING: binary protocol on {bound} is clear text (no TLS): tokens, messages and \
                 signatures cross the network readable by anyone on the path; prefer loopback or \
                 the Unix socket"
            );
        }
        addr = Some(bound);
        let l =
            tokio::net::TcpListener::from_std(l).map_err(|e| format!("protocol listener: {e}"))?;
        tasks.push(tokio::spawn(pqsig_proto::server::serve_tcp(
            l,
            handler.clone(),
            limits,
            stopped(stop.subscribe()),
        )));
    }
    if let Some(path) = &cfg.proto_unix {
        // A stale socket file from an earlier run would make bind fail.
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_socket()) {
            let _ = std::fs::remove_file(path);
        }
        let l = tokio::net::UnixListener::bind(path)
            .map_err(|e| format!("cannot listen (protocol) on {}: {e}", path.display()))?;
        // Owner and group only (not the umask's choice): the socket is a way in to the
        // signing keys, even if every request still needs a token.
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o660))
            .map_err(|e| format!("protocol socket {}: {e}", path.display()))?;
        tasks.push(tokio::spawn(pqsig_proto::server::serve_unix(
            l,
            handler,
            limits,
            stopped(stop.subscribe()),
        )));
    }
    Ok((addr, tasks))
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
    let app =
        crate::http::router(service.clone()).into_make_service_with_connect_info::<SocketAddr>();
    let handle = Handle::new();
    let limiter = pqsig_proto::connlimit::ConnLimiter::new(
        cfg.limits.max_connections,
        cfg.limits.max_connections_per_ip,
    );
    let admission = crate::http::accept::LimitAcceptor {
        limiter,
        first_byte: cfg.limits.header_read_timeout(),
        // Above the request timeout: a request in progress answers before its
        // connection could count as idle.
        idle: cfg
            .limits
            .idle_timeout()
            .max(cfg.limits.request_timeout() + Duration::from_secs(1)),
    };
    let mut server = axum_server::from_tcp(listener).handle(handle.clone());
    // hyper enforces its header timeout only with a timer; the same timeout closes idle
    // keep-alive connections (hyper starts it whenever it waits for a request head).
    server
        .http_builder()
        .http1()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(cfg.limits.header_read_timeout());
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
            let acceptor = axum_server::tls_rustls::RustlsAcceptor::new(tls)
                .handshake_timeout(cfg.limits.header_read_timeout())
                .acceptor(admission);
            tokio::spawn(server.acceptor(acceptor).serve(app))
        }
        None => tokio::spawn(server.acceptor(admission).serve(app)),
    };
    let (stop, _) = tokio::sync::watch::channel(false);
    let (proto_addr, proto_tasks) = match start_proto(&cfg, &service, &stop) {
        Ok(p) => p,
        Err(e) => {
            handle.shutdown();
            return Err(e);
        }
    };
    Ok(RunningServer {
        addr,
        proto_addr,
        handle,
        task,
        proto_tasks,
        proto_stop: Arc::new(stop),
        grace: cfg.limits.shutdown_grace(),
        service,
    })
}

/// Registers for SIGINT and SIGTERM now, and returns a future that resolves on either.
/// The handlers must be in place before the listener accepts: a signal that arrives
/// between the first request served and a lazily registered handler would kill the
/// process with the default disposition instead of draining.
#[cfg(unix)]
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{signal, SignalKind};
    let int = signal(SignalKind::interrupt()).ok();
    let term = signal(SignalKind::terminate()).ok();
    if int.is_none() || term.is_none() {
        crate::log!("WARNING: cannot listen for SIGINT/SIGTERM: stop the server with SIGKILL");
    }
    async move {
        async fn recv(s: Option<tokio::signal::unix::Signal>) {
            match s {
                Some(mut s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        }
        tokio::select! {
            _ = recv(int) => {},
            _ = recv(term) => {},
        }
    }
}

#[cfg(not(unix))]
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Re-reads the tokens (inline and `token_file`) on every SIGHUP: rotation without a
/// restart. A file that fails to parse leaves the tokens in force unchanged.
fn spawn_token_reload(service: Arc<Service>) {
    let Ok(mut hup) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()) else {
        crate::log!("WARNING: cannot listen for SIGHUP: tokens reload only on restart");
        return;
    };
    tokio::spawn(async move {
        while hup.recv().await.is_some() {
            let svc = service.clone();
            match tokio::task::spawn_blocking(move || svc.reload_tokens()).await {
                Ok(Ok(n)) => crate::log!("SIGHUP: tokens reloaded ({n} in force)"),
                Ok(Err(e)) => crate::log!("error: SIGHUP: tokens not reloaded, old ones stay: {e}"),
                Err(_) => crate::log!("error: SIGHUP: token reload failed"),
            }
        }
    });
}

/// Runs the server until SIGINT/SIGTERM, then drains in-flight requests and returns.
pub fn run_blocking(cfg: ServerConfig) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(async move {
        let scheme = if cfg.tls.is_some() { "https" } else { "http" };
        let unix = cfg.proto_unix.clone();
        let stopping = shutdown_signal();
        let server = start(cfg).await?;
        // Before the first log line: whoever waits for it may send SIGHUP next.
        spawn_token_reload(server.service());
        crate::log!("listening on {scheme}://{}", server.local_addr());
        if let Some(a) = server.proto_addr() {
            crate::log!("binary protocol on tcp://{a}");
        }
        if let Some(p) = &unix {
            crate::log!("binary protocol on unix:{}", p.display());
        }
        let stop = server.stopper();
        tokio::spawn(async move {
            stopping.await;
            crate::log!("shutting down (draining in-flight requests)");
            stop();
        });
        server.wait().await
    })
}
