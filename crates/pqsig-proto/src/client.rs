//! A blocking client over `std::net::TcpStream` / `std::os::unix::net::UnixStream`: one
//! request at a time with [`Client::call`] and the typed helpers, or pipelined with
//! [`Client::send`] / [`Client::recv`] (answers matched by request id).

use crate::codec::{self, Header, HEADER_LEN};
use crate::endpoint::Endpoint;
use crate::types::{ErrorResponse, Limits, Request, Response, SignRequest, VerifyRequest};
use std::fmt;
use std::io::{self, Read, Write};
use std::net::TcpStream;
#[cfg(unix)]
use std::os::unix::net::UnixStream;
use std::time::Duration;
use zeroize::Zeroizing;

/// Why a call failed.
#[derive(Debug)]
pub enum ClientError {
    /// Connecting, reading or writing failed (including timeouts).
    Io(io::Error),
    /// The server sent something that is not a valid answer.
    Protocol(String),
    /// The server answered with ERROR.
    Server(ErrorResponse),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Io(e) => write!(f, "{e}"),
            ClientError::Protocol(m) => write!(f, "protocol error: {m}"),
            ClientError::Server(e) => write!(f, "server error {e}"),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<io::Error> for ClientError {
    fn from(e: io::Error) -> Self {
        ClientError::Io(e)
    }
}

/// The connection, whichever the transport.
enum Stream {
    Tcp(TcpStream),
    #[cfg(unix)]
    Unix(UnixStream),
}

impl Stream {
    fn io(&mut self) -> &mut dyn ReadWrite {
        match self {
            Stream::Tcp(s) => s,
            #[cfg(unix)]
            Stream::Unix(s) => s,
        }
    }
}

trait ReadWrite: Read + Write {}
impl<T: Read + Write> ReadWrite for T {}

/// A connection to a protocol server.
pub struct Client {
    stream: Stream,
    next_id: u32,
    limits: Option<Limits>,
}

impl Client {
    /// Connects; `timeout` bounds the connect and every later read and write.
    pub fn connect(endpoint: &Endpoint, timeout: Option<Duration>) -> Result<Client, ClientError> {
        let stream = match endpoint {
            Endpoint::Tcp(addr) => {
                let s = connect_tcp(addr, timeout)?;
                s.set_read_timeout(timeout)?;
                s.set_write_timeout(timeout)?;
                s.set_nodelay(true)?;
                Stream::Tcp(s)
            }
            #[cfg(unix)]
            Endpoint::Unix(path) => {
                let s = UnixStream::connect(path)?;
                s.set_read_timeout(timeout)?;
                s.set_write_timeout(timeout)?;
                Stream::Unix(s)
            }
            #[cfg(not(unix))]
            Endpoint::Unix(_) => {
                return Err(ClientError::Io(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "Unix sockets are not available on this platform",
                )))
            }
        };
        Ok(Client {
            stream,
            next_id: 1,
            limits: None,
        })
    }

    /// The limits from the server's HELLO_OK (after [`Client::hello`]).
    pub fn limits(&self) -> Option<Limits> {
        self.limits
    }

    /// Authenticates the connection (must be the first call on it).
    pub fn hello(&mut self, token: &[u8]) -> Result<Limits, ClientError> {
        let token = Zeroizing::new(token.to_vec());
        match self.call(&Request::Hello { token })? {
            Response::HelloOk(l) => {
                self.limits = Some(l);
                Ok(l)
            }
            other => Err(unexpected("HELLO", &other)),
        }
    }

    /// Round trip with PING.
    pub fn ping(&mut self, data: &[u8]) -> Result<(), ClientError> {
        match self.call(&Request::Ping(data.to_vec()))? {
            Response::Pong(d) if d == data => Ok(()),
            other => Err(unexpected("PING", &other)),
        }
    }

    /// Signs; returns the signature.
    pub fn sign(&mut self, req: SignRequest) -> Result<Vec<u8>, ClientError> {
        match self.call(&Request::Sign(req))? {
            Response::Signature(s) => Ok(s),
            other => Err(unexpected("SIGN", &other)),
        }
    }

    /// Verifies; `Ok(true)` valid, `Ok(false)` invalid (malformed or not verifying).
    pub fn verify(&mut self, req: VerifyRequest) -> Result<bool, ClientError> {
        match self.call(&Request::Verify(req))? {
            Response::Valid => Ok(true),
            Response::Invalid => Ok(false),
            other => Err(unexpected("VERIFY", &other)),
        }
    }

    /// Sends a BATCH; returns one answer per item, in order (items may be errors).
    pub fn batch(&mut self, items: Vec<Request>) -> Result<Vec<Response>, ClientError> {
        let n = items.len();
        match self.call(&Request::Batch(items))? {
            Response::Batch(r) if r.len() == n => Ok(r),
            other => Err(unexpected("BATCH", &other)),
        }
    }

    /// Sends one request and waits for its answer; ERROR becomes `ClientError::Server`.
    pub fn call(&mut self, req: &Request) -> Result<Response, ClientError> {
        let id = self.send(req)?;
        let (got, resp) = self.recv()?;
        if got != id {
            // With one request outstanding only a connection-level error (id 0) may
            // arrive instead of the answer.
            return match resp {
                Response::Error(e) if got == 0 => Err(ClientError::Server(e)),
                _ => Err(ClientError::Protocol(format!(
                    "answer for request {got}, expected {id}"
                ))),
            };
        }
        match resp {
            Response::Error(e) => Err(ClientError::Server(e)),
            r => Ok(r),
        }
    }

    /// Writes a request without waiting (pipelining); returns its request id.
    pub fn send(&mut self, req: &Request) -> Result<u32, ClientError> {
        let id = self.next_id;
        // Ids wrap but skip 0, which servers use for connection-level errors.
        self.next_id = self.next_id.checked_add(1).unwrap_or(1);
        let frame = Zeroizing::new(
            codec::encode_request(id, req).map_err(|e| ClientError::Protocol(e.to_string()))?,
        );
        self.stream.io().write_all(&frame)?;
        self.stream.io().flush()?;
        Ok(id)
    }

    /// Reads the next answer, whichever request it is for: (request id, response).
    pub fn recv(&mut self) -> Result<(u32, Response), ClientError> {
        let mut head = [0u8; HEADER_LEN];
        read_exact(self.stream.io(), &mut head)?;
        let header = Header::decode(&head, codec::MAX_PAYLOAD)
            .and_then(|h| codec::check_reserved(&head).map(|()| h))
            .map_err(|e| ClientError::Protocol(e.to_string()))?;
        let mut payload = vec![0u8; header.length as usize];
        read_exact(self.stream.io(), &mut payload)?;
        let resp = codec::decode_response(header.opcode, &payload)
            .map_err(|e| ClientError::Protocol(e.to_string()))?;
        Ok((header.request_id, resp))
    }
}

/// Connects to the first address of `addr` that answers.
fn connect_tcp(addr: &str, timeout: Option<Duration>) -> io::Result<TcpStream> {
    use std::net::ToSocketAddrs;
    let Some(t) = timeout else {
        return TcpStream::connect(addr);
    };
    let mut last = io::Error::new(io::ErrorKind::NotFound, "no address found");
    for a in addr.to_socket_addrs()? {
        match TcpStream::connect_timeout(&a, t) {
            Ok(s) => return Ok(s),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// `read_exact` with a clearer message when the server closed the connection.
fn read_exact(r: &mut dyn ReadWrite, buf: &mut [u8]) -> Result<(), ClientError> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => {
            ClientError::Protocol("the server closed the connection".into())
        }
        _ => ClientError::Io(e),
    })
}

fn unexpected(what: &str, got: &Response) -> ClientError {
    let kind = match got {
        Response::Pong(_) => "PONG",
        Response::HelloOk(_) => "HELLO_OK",
        Response::Signature(_) => "SIGNATURE",
        Response::Valid => "VALID",
        Response::Invalid => "INVALID",
        Response::Error(_) => "ERROR",
        Response::Batch(_) => "BATCH_RESULT",
    };
    ClientError::Protocol(format!("unexpected {kind} answer to {what}"))
}
