//! The HTTP listener's connection admission (an `axum_server` acceptor): each accepted
//! TCP connection takes a place under the global and per-IP connection limits for as
//! long as it is open; one over a limit gets a fixed JSON 503 and is closed at once,
//! before TLS or HTTP parsing spends anything on it.
//!
//! The stream also enforces idle time (hyper's header timer does not run on a connection
//! that never sends a byte): a connection that has sent nothing for `first_byte` after
//! accept, or that has neither sent nor received anything for `idle` later, reads as
//! timed out and is closed. `idle` is kept above the request timeout, so a request in
//! progress always answers (activity) before its connection could count as idle.

use axum_server::accept::Accept;
use pqsig_proto::connlimit::{ConnGuard, ConnLimiter};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// The acceptor: admits or refuses connections.
#[derive(Clone)]
pub struct LimitAcceptor {
    /// The connection limits.
    pub limiter: Arc<ConnLimiter>,
    /// Time allowed before the first byte.
    pub first_byte: Duration,
    /// Time allowed without any traffic later.
    pub idle: Duration,
}

/// An admitted connection: the stream, its place under the limits and its idle clock.
pub struct Limited {
    stream: TcpStream,
    _place: ConnGuard,
    idle: Duration,
    started: bool,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl Limited {
    fn active(&mut self) {
        self.started = true;
        let next = tokio::time::Instant::now() + self.idle;
        self.deadline.as_mut().reset(next);
    }

    /// Whether the idle clock ran out (registers the waker otherwise).
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }
}

const REFUSAL_BODY: &str =
    r#"{"error":{"code":"server_busy","message":"too many connections; retry later"}}"#;

impl<S: Send + 'static> Accept<TcpStream, S> for LimitAcceptor {
    type Stream = Limited;
    type Service = S;
    type Future = std::future::Ready<io::Result<(Limited, S)>>;

    fn accept(&self, stream: TcpStream, service: S) -> Self::Future {
        let ip = stream.peer_addr().ok().map(|a| a.ip());
        match self.limiter.try_admit(ip) {
            Some(place) => std::future::ready(Ok((
                Limited {
                    stream,
                    _place: place,
                    idle: self.idle,
                    started: false,
                    deadline: Box::pin(tokio::time::sleep(self.first_byte)),
                },
                service,
            ))),
            None => {
                // Best effort, never waiting: a peer that does not read just sees a close.
                // (Behind TLS the peer sees a failed handshake instead.)
                let answer = format!(
                    "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
                     retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{REFUSAL_BODY}",
                    REFUSAL_BODY.len()
                );
                let _ = stream.try_write(answer.as_bytes());
                std::future::ready(Err(io::Error::other("connection limit reached")))
            }
        }
    }
}

impl AsyncRead for Limited {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.active();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                if self.started {
                    "connection idle"
                } else {
                    "no request on a new connection"
                },
            ))),
            other => other,
        }
    }
}

impl AsyncWrite for Limited {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.active();
        }
        r
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.active();
        }
        r
    }
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
