//! The tokio listener: accepts TCP or Unix connections, reads frames, runs each request
//! on a blocking thread through the [`Handler`] and writes the answers as they complete
//! (pipelining; answers may come out of order, matched by request id).
//!
//! Per connection at most `max_in_flight` requests run at once: when that many are
//! running the listener stops reading, so a fast client is slowed by TCP flow control
//! rather than by memory growth. On shutdown the listener stops accepting, every
//! connection stops reading (sending ERROR 503 with request id 0), the requests already
//! read are finished and answered, and then the connections close.

use crate::codec::{self, DecodeError, Header, HEADER_LEN};
use crate::connlimit::{ConnGuard, ConnLimiter};
use crate::handler::Handler;
use crate::types::{ErrorCode, ErrorResponse, Limits, Request, Response};
use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, UnixListener};
use tokio::sync::{mpsc, watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use zeroize::Zeroizing;

/// Listener limits (announced to clients in HELLO_OK).
#[derive(Clone, Copy, Debug)]
pub struct ServerConfig {
    /// Largest request payload read (bytes); larger frames get ERROR 413 and the
    /// connection is closed. At most [`codec::MAX_PAYLOAD`].
    pub max_payload: u32,
    /// Requests run concurrently per connection (at least 1).
    pub max_in_flight: u32,
    /// Most items in one BATCH (more: ERROR 413).
    pub max_batch: u32,
    /// A connection that sends no complete frame for this long is closed (requests in
    /// flight are still answered): bounds what idle or stalled clients hold.
    pub idle_timeout: Duration,
    /// Largest frame payload read before a successful HELLO: an unauthenticated peer
    /// cannot make the server allocate more than this. Handlers that serve anonymous
    /// clients keep the default (`u32::MAX`: no cap beyond `max_payload`); pqsig-server
    /// sets 4 KiB unless verify is public.
    pub max_unauthenticated_payload: u32,
    /// Open connections at once (0: no limit); more are answered ERROR 503 and closed.
    pub max_connections: usize,
    /// Open connections at once from one IP address (0: no limit).
    pub max_connections_per_ip: usize,
}

impl Default for ServerConfig {
    /// 2 MiB frames (a 1 MiB message and its signature fit), 32 in flight, batches of
    /// 256, connections idle for 5 minutes closed.
    fn default() -> Self {
        ServerConfig {
            max_payload: 2 << 20,
            max_in_flight: 32,
            max_batch: 256,
            idle_timeout: Duration::from_secs(300),
            max_unauthenticated_payload: u32::MAX,
            max_connections: 1024,
            max_connections_per_ip: 128,
        }
    }
}

impl ServerConfig {
    fn limits(&self) -> Limits {
        Limits {
            max_payload: self.max_payload.min(codec::MAX_PAYLOAD),
            max_in_flight: self.max_in_flight.max(1),
            max_batch: self.max_batch,
        }
    }
}

type Reader = Box<dyn AsyncRead + Send + Unpin>;
type Writer = Box<dyn AsyncWrite + Send + Unpin>;
type Permit = Option<OwnedSemaphorePermit>;

/// Serves the protocol on a TCP listener until `shutdown` completes, then drains (see
/// the module documentation). A failed accept (a reset peer, no file descriptors left)
/// is retried after a short pause rather than ending the service.
pub async fn serve_tcp<H: Handler>(
    listener: TcpListener,
    handler: Arc<H>,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let accept = || async {
        let (s, peer) = listener.accept().await?;
        s.set_nodelay(true)?;
        Ok((boxed(s), Some(peer.ip())))
    };
    serve(accept, handler, config, shutdown).await
}

/// Serves the protocol on a Unix-domain socket listener; as [`serve_tcp`].
pub async fn serve_unix<H: Handler>(
    listener: UnixListener,
    handler: Arc<H>,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let accept = || async { Ok((boxed(listener.accept().await?.0), None)) };
    serve(accept, handler, config, shutdown).await
}

/// A connection's two halves, whichever the transport.
fn boxed<S: AsyncRead + AsyncWrite + Send + 'static>(s: S) -> (Reader, Writer) {
    let (r, w) = tokio::io::split(s);
    (Box::new(r), Box::new(w))
}

/// The accept loop shared by both transports.
async fn serve<H, A, F>(
    accept: A,
    handler: Arc<H>,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()>
where
    H: Handler,
    A: Fn() -> F,
    F: Future<Output = io::Result<((Reader, Writer), Option<std::net::IpAddr>)>>,
{
    let unlimited = |n: usize| if n == 0 { usize::MAX } else { n };
    let limiter = ConnLimiter::new(
        unlimited(config.max_connections),
        unlimited(config.max_connections_per_ip),
    );
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            // Reap finished connections so the set does not grow without bound.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = accept() => match accepted {
                Ok(((r, w), ip)) => {
                    let Some(place) = limiter.try_admit(ip) else {
                        // Answered from a task, so a peer that does not read cannot
                        // stall the accept loop.
                        connections.spawn(refuse(w));
                        continue;
                    };
                    let conn = Connection {
                        place,
                        max_unauthenticated: config
                            .max_unauthenticated_payload
                            .min(config.limits().max_payload),
                        handler: handler.clone(),
                        limits: config.limits(),
                        idle: config.idle_timeout,
                        stop: stop_rx.clone(),
                    };
                    connections.spawn(conn.run(r, w));
                }
                // Per-connection failures (reset before accept, out of descriptors)
                // must not end the service; back off briefly and keep accepting.
                Err(_) => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
            },
        }
    }
    let _ = stop_tx.send(true);
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// Answers a connection over the limits with ERROR 503 and closes it.
async fn refuse(mut w: Writer) {
    let e = Response::error(ErrorCode(503), "too many connections; retry later");
    if let Ok(b) = codec::encode_response(0, &e) {
        let write = async {
            w.write_all(&b).await?;
            w.shutdown().await
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
    }
}

/// One connection's state.
struct Connection<H> {
    /// Its place under the connection limits, released when the connection ends.
    #[allow(dead_code)]
    place: ConnGuard,
    /// The frame size cap until HELLO succeeds.
    max_unauthenticated: u32,
    handler: Arc<H>,
    limits: Limits,
    idle: Duration,
    stop: watch::Receiver<bool>,
}

/// How reading the next frame ended.
enum Next {
    Frame(Header, [u8; HEADER_LEN], Vec<u8>),
    /// Clean end of stream between frames, or an IO error: close without answering.
    Closed,
    /// Answer with this error (for this request id), then close.
    Fatal(u32, ErrorResponse),
    /// Shutdown began.
    Stopping,
}

impl<H: Handler> Connection<H> {
    async fn run(mut self, reader: Reader, writer: Writer) {
        let (tx, rx) = mpsc::unbounded_channel::<Outgoing>();
        let write_task = tokio::spawn(write_loop(writer, rx));
        let permits = Arc::new(Semaphore::new(self.limits.max_in_flight as usize));
        let mut reader = BufReader::new(reader);
        let mut auth: Option<Arc<Zeroizing<Vec<u8>>>> = None;
        let mut first = true;
        loop {
            // Backpressure: no permit, no read.
            let permit = tokio::select! {
                p = permits.clone().acquire_owned() => match p {
                    Ok(p) => p,
                    Err(_) => break,
                },
                _ = stopped(&mut self.stop) => {
                    send(&tx, 0, &stopping(), None);
                    break;
                }
            };
            let cap = if auth.is_some() {
                self.limits.max_payload
            } else {
                self.max_unauthenticated
            };
            let (header, head, payload) = match self.next_frame(&mut reader, cap).await {
                Next::Frame(h, head, p) => (h, head, p),
                Next::Closed => break,
                Next::Fatal(id, e) => {
                    send(&tx, id, &Response::Error(e), None);
                    break;
                }
                Next::Stopping => {
                    send(&tx, 0, &stopping(), None);
                    break;
                }
            };
            let id = header.request_id;
            let was_first = std::mem::replace(&mut first, false);
            let decoded = codec::check_reserved(&head)
                .and_then(|()| codec::decode_request(header.opcode, &payload));
            drop(payload);
            let req = match decoded {
                Ok(r) => r,
                Err(e) => {
                    // The frame was fully read: the stream is still in step.
                    send(&tx, id, &Response::Error(e.to_response()), Some(permit));
                    continue;
                }
            };
            match req {
                Request::Ping(data) => send(&tx, id, &Response::Pong(data), Some(permit)),
                Request::Hello { token } => {
                    if !was_first {
                        let e = "HELLO must be the first frame of a connection";
                        send(&tx, id, &Response::error(ErrorCode::BAD_REQUEST, e), None);
                        break;
                    }
                    let token = Arc::new(token);
                    let (h, t) = (self.handler.clone(), token.clone());
                    let verdict = tokio::task::spawn_blocking(move || h.authenticate(&t))
                        .await
                        .unwrap_or_else(|_| Err(internal("authentication failed (bug)")));
                    match verdict {
                        Ok(()) => {
                            auth = Some(token);
                            send(&tx, id, &Response::HelloOk(self.limits), Some(permit));
                        }
                        Err(e) => {
                            send(&tx, id, &Response::Error(e), None);
                            break;
                        }
                    }
                }
                Request::Batch(items) if items.len() > self.limits.max_batch as usize => {
                    let e = format!(
                        "batch of {} items is over this server's limit of {}",
                        items.len(),
                        self.limits.max_batch
                    );
                    send(
                        &tx,
                        id,
                        &Response::error(ErrorCode::TOO_LARGE, e),
                        Some(permit),
                    );
                }
                req => {
                    let (h, auth, tx) = (self.handler.clone(), auth.clone(), tx.clone());
                    tokio::spawn(async move {
                        let resp = execute(h, auth, req).await;
                        send(&tx, id, &resp, Some(permit));
                    });
                }
            }
        }
        // The in-flight tasks hold senders: the writer ends after their answers.
        drop(tx);
        let _ = write_task.await;
    }

    /// Reads one header and payload, or says why not.
    async fn next_frame(&mut self, reader: &mut BufReader<Reader>, max_payload: u32) -> Next {
        let mut head = [0u8; HEADER_LEN];
        let got = tokio::select! {
            r = timeout(self.idle, read_full(reader, &mut head)) => r,
            _ = stopped(&mut self.stop) => return Next::Stopping,
        };
        match got {
            Ok(0) => return Next::Closed,
            Ok(n) if n < HEADER_LEN => {
                return Next::Fatal(0, DecodeError::Truncated.to_response());
            }
            Ok(_) => {}
            Err(_) => return Next::Closed,
        }
        let header = match Header::decode(&head, max_payload) {
            Ok(h) => h,
            Err(e) => {
                // Over-long frames still carry a usable id; a foreign magic does not.
                let id = match e {
                    DecodeError::TooLarge { .. } => {
                        u32::from_be_bytes([head[8], head[9], head[10], head[11]])
                    }
                    _ => 0,
                };
                return Next::Fatal(id, e.to_response());
            }
        };
        let mut payload = vec![0u8; header.length as usize];
        let got = tokio::select! {
            r = timeout(self.idle, read_full(reader, &mut payload)) => r,
            _ = stopped(&mut self.stop) => return Next::Stopping,
        };
        match got {
            Ok(n) if n == payload.len() => Next::Frame(header, head, payload),
            Ok(_) => Next::Fatal(header.request_id, DecodeError::Truncated.to_response()),
            Err(_) => Next::Closed,
        }
    }
}

/// Runs a SIGN / VERIFY, or a whole BATCH through [`Handler::handle_batch`], on a
/// blocking thread.
async fn execute<H: Handler>(
    handler: Arc<H>,
    auth: Option<Arc<Zeroizing<Vec<u8>>>>,
    req: Request,
) -> Response {
    let items = match req {
        Request::Batch(items) => items,
        single => return run_one(handler, auth, single).await,
    };
    let n = items.len();
    let answers = tokio::task::spawn_blocking(move || {
        handler.handle_batch(auth.as_ref().map(|t| t.as_slice()), items)
    })
    .await;
    match answers {
        Ok(v) if v.len() == n => Response::Batch(v.into_iter().map(item_answer).collect()),
        Ok(_) => Response::Error(internal(
            "the handler answered a batch with the wrong number of items (bug)",
        )),
        Err(_) => Response::Error(internal("the handler failed (bug)")),
    }
}

/// A SIGN/VERIFY outcome as is; any other answer becomes ERROR 500.
fn item_answer(r: Response) -> Response {
    match r {
        r @ (Response::Signature(_) | Response::Valid | Response::Invalid | Response::Error(_)) => {
            r
        }
        _ => Response::Error(internal("the handler gave an answer of the wrong kind")),
    }
}

/// One request on a blocking thread; a panicking handler becomes ERROR 500, and so does
/// an answer that is not a SIGN/VERIFY outcome.
async fn run_one<H: Handler>(
    handler: Arc<H>,
    auth: Option<Arc<Zeroizing<Vec<u8>>>>,
    req: Request,
) -> Response {
    let resp = tokio::task::spawn_blocking(move || {
        handler.handle(auth.as_ref().map(|t| t.as_slice()), req)
    })
    .await;
    match resp {
        Ok(r) => item_answer(r),
        Err(_) => Response::Error(internal("the handler failed (bug)")),
    }
}

fn internal(message: &str) -> ErrorResponse {
    ErrorResponse::new(ErrorCode::INTERNAL, message)
}

fn stopping() -> Response {
    Response::error(ErrorCode::SHUTTING_DOWN, "server shutting down")
}

/// An encoded answer and the in-flight permit it holds until written: a client that
/// does not read its answers stops the reader instead of filling memory.
type Outgoing = (Vec<u8>, Option<OwnedSemaphorePermit>);

/// Queues an encoded answer; an answer too large to encode becomes ERROR 413.
fn send(tx: &mpsc::UnboundedSender<Outgoing>, id: u32, resp: &Response, permit: Permit) {
    let bytes = codec::encode_response(id, resp).or_else(|e| {
        codec::encode_response(id, &Response::error(ErrorCode::TOO_LARGE, e.to_string()))
    });
    if let Ok(b) = bytes {
        // The writer is gone only when the peer is: nothing to do then.
        let _ = tx.send((b, permit));
    }
}

async fn write_loop(mut w: Writer, mut rx: mpsc::UnboundedReceiver<Outgoing>) {
    while let Some((frame, _permit)) = rx.recv().await {
        if w.write_all(&frame).await.is_err() {
            return;
        }
        // Flush when nothing else is queued, so pipelined answers share writes.
        if rx.is_empty() && w.flush().await.is_err() {
            return;
        }
    }
    let _ = w.shutdown().await;
}

/// Fills `buf` unless the stream ends first; returns the bytes read (0: ended before
/// the first byte).
async fn read_full(r: &mut BufReader<Reader>, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]).await? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// `read_full` bounded in time; running out of time reads as an IO error (close).
async fn timeout(
    limit: Duration,
    read: impl Future<Output = io::Result<usize>>,
) -> io::Result<usize> {
    tokio::time::timeout(limit, read)
        .await
        .unwrap_or_else(|_| Err(io::ErrorKind::TimedOut.into()))
}

/// Completes once shutdown has begun (or the server is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}
