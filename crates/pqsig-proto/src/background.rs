//! [`BackgroundServer`]: the listener on its own thread and tokio runtime, for programs
//! that are not async themselves (tests of this crate and of the CLI, demos).

use crate::endpoint::Endpoint;
use crate::handler::Handler;
use crate::server::{serve_tcp, serve_unix, ServerConfig};
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::sync::{oneshot, watch};

/// A running listener (TCP, Unix socket or both); shut down gracefully by
/// [`BackgroundServer::stop`] or when dropped.
pub struct BackgroundServer {
    tcp: Option<SocketAddr>,
    unix: Option<PathBuf>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<io::Result<()>>>,
}

impl BackgroundServer {
    /// Binds `tcp` (e.g. `127.0.0.1:0`) and/or `unix` (an existing socket file there is
    /// replaced) and serves `handler` until stopped. Bind errors are returned here.
    pub fn start<H: Handler>(
        handler: Arc<H>,
        config: ServerConfig,
        tcp: Option<&str>,
        unix: Option<&Path>,
    ) -> io::Result<BackgroundServer> {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<io::Result<Option<SocketAddr>>>();
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let tcp = tcp.map(str::to_string);
        let unix_path = unix.map(Path::to_path_buf);
        let path = unix_path.clone();
        let thread = std::thread::spawn(move || -> io::Result<()> {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()?;
            rt.block_on(async move {
                let bound = async {
                    let t = match &tcp {
                        Some(a) => Some(tokio::net::TcpListener::bind(a).await?),
                        None => None,
                    };
                    let u = match &path {
                        Some(p) => {
                            let _ = std::fs::remove_file(p);
                            Some(tokio::net::UnixListener::bind(p)?)
                        }
                        None => None,
                    };
                    io::Result::Ok((t, u))
                }
                .await;
                let (t, u) = match bound {
                    Ok(l) => l,
                    Err(e) => {
                        let kind = e.kind();
                        let _ = ready_tx.send(Err(e));
                        return Err(io::Error::from(kind));
                    }
                };
                let _ = ready_tx.send(Ok(t.as_ref().and_then(|l| l.local_addr().ok())));
                let (all_tx, all_rx) = watch::channel(false);
                let stopped = |mut rx: watch::Receiver<bool>| async move {
                    let _ = rx.wait_for(|s| *s).await;
                };
                let mut tasks = Vec::new();
                if let Some(l) = t {
                    let s = stopped(all_rx.clone());
                    tasks.push(tokio::spawn(serve_tcp(l, handler.clone(), config, s)));
                }
                if let Some(l) = u {
                    let s = stopped(all_rx.clone());
                    tasks.push(tokio::spawn(serve_unix(l, handler.clone(), config, s)));
                }
                let _ = stop_rx.await;
                let _ = all_tx.send(true);
                for t in tasks {
                    t.await.map_err(io::Error::other)??;
                }
                Ok(())
            })
        });
        let tcp = ready_rx
            .recv()
            .map_err(|_| io::Error::other("the server thread ended before listening"))??;
        Ok(BackgroundServer {
            tcp,
            unix: unix_path,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The TCP address actually bound (the port chosen for `:0`).
    pub fn tcp(&self) -> Option<Endpoint> {
        self.tcp.map(|a| Endpoint::Tcp(a.to_string()))
    }

    /// The Unix socket.
    pub fn unix(&self) -> Option<Endpoint> {
        self.unix.clone().map(Endpoint::Unix)
    }

    /// Begins the graceful shutdown without waiting for it.
    pub fn begin_stop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }

    /// Shuts down, waits until every connection is drained, removes the socket file.
    pub fn stop(&mut self) -> io::Result<()> {
        self.begin_stop();
        let result = match self.thread.take() {
            Some(t) => t
                .join()
                .map_err(|_| io::Error::other("the server thread panicked"))?,
            None => Ok(()),
        };
        if let Some(p) = self.unix.take() {
            let _ = std::fs::remove_file(p);
        }
        result
    }
}

impl Drop for BackgroundServer {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}
