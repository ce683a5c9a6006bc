//! The HTTP listener's connection admission (an `axum_server` acceptor): each accepted
//! TCP connection takes a place under the global and per-IP connection limits for as
//! long as it is open; one over a limit gets a fixed JSON 503 and is closed at once,
//! before TLS or HTTP parsing spends anything on it.

use axum_server::accept::Accept;
use pqsig_proto::connlimit::{ConnGuard, ConnLimiter};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// The acceptor: admits or refuses connections.
#[derive(Clone)]
pub struct LimitAcceptor(pub Arc<ConnLimiter>);

/// An admitted connection: the stream and its place under the limits.
pub struct Limited {
    stream: TcpStream,
    _place: ConnGuard,
}

const REFUSAL_BODY: &str =
    r#"{"error":{"code":"server_busy","message":"too many connections; retry later"}}"#;

impl<S: Send + 'static> Accept<TcpStream, S> for LimitAcceptor {
    type Stream = Limited;
    type Service = S;
    type Future = std::future::Ready<io::Result<(Limited, S)>>;

    fn accept(&self, stream: TcpStream, service: S) -> Self::Future {
        let ip = stream.peer_addr().ok().map(|a| a.ip());
        match self.0.try_admit(ip) {
            Some(place) => std::future::ready(Ok((
                Limited {
                    stream,
                    _place: place,
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
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Limited {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
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
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
