//! Pure encoding and decoding of frames (docs/PROTOCOL.md), no IO: the server, the
//! blocking client and the tests all go through these functions, so there is one
//! definition of the wire format.
//!
//! Decoding is strict (every field length-prefixed and bounds-checked, no trailing bytes,
//! reserved bits zero) so that each typed value has exactly one encoding: `encode` after
//! `decode` gives back the same bytes. Nothing here panics on any input.

use crate::types::{
    ErrorCode, ErrorResponse, Input, KeyRef, Limits, Request, Response, SignRequest, VerifyRequest,
    MAX_CONTEXT_LEN, MAX_KEY_ID_LEN, MU_LEN,
};
use std::fmt;
use zeroize::Zeroizing;

/// The first four bytes of every frame.
pub const MAGIC: [u8; 4] = *b"PQSG";
/// The protocol version this crate speaks.
pub const VERSION: u8 = 1;
/// Bytes in a frame header: magic 4, version 1, opcode 1, reserved 2, request id 4,
/// payload length 4.
pub const HEADER_LEN: usize = 16;
/// The protocol's upper bound on a payload (16 MiB); servers announce their own, lower
/// or equal, limit in HELLO_OK.
pub const MAX_PAYLOAD: u32 = 16 << 20;

/// Opcodes (requests below 0x80, responses from 0x80).
pub mod op {
    /// PING {data}.
    pub const PING: u8 = 0x01;
    /// HELLO {token}.
    pub const HELLO: u8 = 0x02;
    /// SIGN {key_id, flags, context, data}.
    pub const SIGN: u8 = 0x10;
    /// VERIFY {key, flags, context, data, signature}.
    pub const VERIFY: u8 = 0x11;
    /// BATCH {count, (opcode, body)*}.
    pub const BATCH: u8 = 0x20;
    /// PONG {data}.
    pub const PONG: u8 = 0x81;
    /// HELLO_OK {max_payload, max_in_flight, max_batch}.
    pub const HELLO_OK: u8 = 0x82;
    /// SIGNATURE {signature}.
    pub const SIGNATURE: u8 = 0x90;
    /// VALID {}.
    pub const VALID: u8 = 0x91;
    /// INVALID {}.
    pub const INVALID: u8 = 0x92;
    /// BATCH_RESULT {count, (opcode, body)*}.
    pub const BATCH_RESULT: u8 = 0xA0;
    /// ERROR {code, message}.
    pub const ERROR: u8 = 0xFF;
}

/// SIGN / VERIFY flag: the data field is a 64-byte μ, not the message.
pub const FLAG_MU: u8 = 0x01;
/// SIGN flag: deterministic signing.
pub const FLAG_DETERMINISTIC: u8 = 0x02;
/// VERIFY key reference tags.
const KEY_BY_ID: u8 = 0;
const KEY_INLINE: u8 = 1;

/// Why bytes are not a valid frame. `code()` is the ERROR code to answer with and
/// `is_fatal()` says whether the connection must be closed (the frame boundary is lost).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The first four bytes are not `PQSG`.
    BadMagic,
    /// A version this crate does not speak.
    UnsupportedVersion(u8),
    /// The payload length is over the limit.
    TooLarge {
        /// Announced payload length.
        length: u32,
        /// The limit in force.
        max: u32,
    },
    /// Fewer bytes than the header or its length announce (in-memory decoding only).
    Truncated,
    /// A well-delimited frame with an opcode that is not known here.
    UnknownOpcode(u8),
    /// A well-delimited frame whose payload does not parse; says which field.
    Malformed(String),
}

impl DecodeError {
    /// The ERROR code a server answers with.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeError::BadMagic | DecodeError::UnsupportedVersion(_) => ErrorCode::BAD_VERSION,
            DecodeError::TooLarge { .. } => ErrorCode::TOO_LARGE,
            DecodeError::UnknownOpcode(_) => ErrorCode::UNKNOWN_OPCODE,
            DecodeError::Truncated | DecodeError::Malformed(_) => ErrorCode::BAD_REQUEST,
        }
    }

    /// Whether the stream cannot continue after this error (the next frame's start is
    /// unknown or the peer speaks something else): answer, then close.
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            DecodeError::BadMagic
                | DecodeError::UnsupportedVersion(_)
                | DecodeError::TooLarge { .. }
                | DecodeError::Truncated
        )
    }

    /// The ERROR frame content for this failure.
    pub fn to_response(&self) -> ErrorResponse {
        ErrorResponse::new(self.code(), self.to_string())
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::BadMagic => f.write_str("not a pqsig protocol frame (bad magic)"),
            DecodeError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "protocol version {v} not supported (this server speaks {VERSION})"
                )
            }
            DecodeError::TooLarge { length, max } => {
                write!(
                    f,
                    "frame payload of {length} bytes is over the limit of {max} bytes"
                )
            }
            DecodeError::Truncated => f.write_str("truncated frame"),
            DecodeError::UnknownOpcode(o) => write!(f, "unknown opcode 0x{o:02x}"),
            DecodeError::Malformed(what) => write!(f, "malformed frame: {what}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Why a typed value cannot be encoded (it would not decode on the other side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError(pub String);

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode frame: {}", self.0)
    }
}

impl std::error::Error for EncodeError {}

/// A decoded frame header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// What the payload is.
    pub opcode: u8,
    /// Chosen by the client, echoed in the response (pipelining).
    pub request_id: u32,
    /// Payload bytes following the header.
    pub length: u32,
}

impl Header {
    /// Parses a header, refusing another magic or version and a payload over
    /// `max_payload` (itself capped at [`MAX_PAYLOAD`]). Nonzero reserved bits are
    /// reported by [`check_reserved`] instead, since the frame can still be skipped.
    pub fn decode(bytes: &[u8; HEADER_LEN], max_payload: u32) -> Result<Header, DecodeError> {
        if bytes[0..4] != MAGIC {
            return Err(DecodeError::BadMagic);
        }
        if bytes[4] != VERSION {
            return Err(DecodeError::UnsupportedVersion(bytes[4]));
        }
        let length = u32::from_be_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
        let max = max_payload.min(MAX_PAYLOAD);
        if length > max {
            return Err(DecodeError::TooLarge { length, max });
        }
        Ok(Header {
            opcode: bytes[5],
            request_id: u32::from_be_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]),
            length,
        })
    }

    /// The 16 header bytes.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..4].copy_from_slice(&MAGIC);
        h[4] = VERSION;
        h[5] = self.opcode;
        h[8..12].copy_from_slice(&self.request_id.to_be_bytes());
        h[12..16].copy_from_slice(&self.length.to_be_bytes());
        h
    }
}

/// The reserved header bytes (6..8) must be zero: a nonzero value is a malformed (but
/// skippable) frame.
pub fn check_reserved(bytes: &[u8; HEADER_LEN]) -> Result<(), DecodeError> {
    if bytes[6] == 0 && bytes[7] == 0 {
        Ok(())
    } else {
        Err(DecodeError::Malformed(
            "reserved header bytes are not zero".into(),
        ))
    }
}

// ---------------------------------------------------------------------------------------
// Encoding

/// Appends fields to a payload.
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn bytes(&mut self, b: &[u8]) -> Result<(), EncodeError> {
        let n = u32::try_from(b.len()).map_err(|_| EncodeError("field over 4 GiB".into()))?;
        self.u32(n);
        self.0.extend_from_slice(b);
        Ok(())
    }
}

/// A full frame: header and payload, refusing payloads over [`MAX_PAYLOAD`].
fn frame(opcode: u8, request_id: u32, payload: &[u8]) -> Result<Vec<u8>, EncodeError> {
    let length = u32::try_from(payload.len())
        .ok()
        .filter(|&n| n <= MAX_PAYLOAD)
        .ok_or_else(|| {
            EncodeError(format!(
                "payload of {} bytes is over the protocol maximum of {MAX_PAYLOAD}",
                payload.len()
            ))
        })?;
    let header = Header {
        opcode,
        request_id,
        length,
    };
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&header.encode());
    out.extend_from_slice(payload);
    Ok(out)
}

fn check_context(context: &[u8], input: &Input) -> Result<(), String> {
    check_context_mu(context, matches!(input, Input::Mu(_)))
}

fn check_context_mu(context: &[u8], mu: bool) -> Result<(), String> {
    if context.len() > MAX_CONTEXT_LEN {
        return Err(format!(
            "context is {} bytes, at most {MAX_CONTEXT_LEN} allowed",
            context.len()
        ));
    }
    if mu && !context.is_empty() {
        return Err("a context cannot be sent with mu (mu already binds it)".into());
    }
    Ok(())
}

fn check_key_id(id: &str) -> Result<(), String> {
    if id.is_empty() || id.len() > MAX_KEY_ID_LEN {
        return Err(format!("key id must be 1 to {MAX_KEY_ID_LEN} bytes"));
    }
    Ok(())
}

fn input_flag_and_data(input: &Input) -> (u8, &[u8]) {
    match input {
        Input::Message(m) => (0, m),
        Input::Mu(mu) => (FLAG_MU, mu),
    }
}

/// A request's opcode and payload.
fn request_body(req: &Request, nested: bool) -> Result<(u8, Vec<u8>), EncodeError> {
    let mut w = Writer(Vec::new());
    let opcode = match req {
        Request::Ping(_) | Request::Hello { .. } | Request::Batch(_) if nested => {
            return Err(EncodeError("a BATCH item must be SIGN or VERIFY".into()))
        }
        Request::Ping(data) => {
            w.bytes(data)?;
            op::PING
        }
        Request::Hello { token } => {
            w.bytes(token)?;
            op::HELLO
        }
        Request::Sign(r) => {
            check_key_id(&r.key_id).map_err(EncodeError)?;
            check_context(&r.context, &r.input).map_err(EncodeError)?;
            let (flag, data) = input_flag_and_data(&r.input);
            w.bytes(r.key_id.as_bytes())?;
            w.u8(flag
                | if r.deterministic {
                    FLAG_DETERMINISTIC
                } else {
                    0
                });
            w.bytes(&r.context)?;
            w.bytes(data)?;
            op::SIGN
        }
        Request::Verify(r) => {
            check_context(&r.context, &r.input).map_err(EncodeError)?;
            match &r.key {
                KeyRef::Id(id) => {
                    check_key_id(id).map_err(EncodeError)?;
                    w.u8(KEY_BY_ID);
                    w.bytes(id.as_bytes())?;
                }
                KeyRef::Inline {
                    algorithm,
                    public_key,
                } => {
                    w.u8(KEY_INLINE);
                    w.bytes(algorithm.as_bytes())?;
                    w.bytes(public_key)?;
                }
            }
            let (flag, data) = input_flag_and_data(&r.input);
            w.u8(flag);
            w.bytes(&r.context)?;
            w.bytes(data)?;
            w.bytes(&r.signature)?;
            op::VERIFY
        }
        Request::Batch(items) => {
            let n = u32::try_from(items.len()).map_err(|_| EncodeError("batch too long".into()))?;
            w.u32(n);
            for item in items {
                let (o, body) = request_body(item, true)?;
                w.u8(o);
                w.bytes(&body)?;
            }
            op::BATCH
        }
    };
    Ok((opcode, w.0))
}

/// Encodes a request's payload alone (no header) with its opcode: what the HTTP batch
/// endpoints take as an `application/vnd.pqsig.batch` body when `req` is a BATCH.
pub fn encode_request_payload(req: &Request) -> Result<(u8, Vec<u8>), EncodeError> {
    request_body(req, false)
}

/// Encodes a request frame (header included) with this request id.
pub fn encode_request(request_id: u32, req: &Request) -> Result<Vec<u8>, EncodeError> {
    let (opcode, payload) = request_body(req, false)?;
    let payload = Zeroizing::new(payload); // may hold a token
    frame(opcode, request_id, &payload)
}

/// A response's opcode and payload.
fn response_body(resp: &Response, nested: bool) -> Result<(u8, Vec<u8>), EncodeError> {
    let mut w = Writer(Vec::new());
    let opcode = match resp {
        Response::Pong(_) | Response::HelloOk(_) | Response::Batch(_) if nested => {
            return Err(EncodeError(
                "a BATCH_RESULT item must be SIGNATURE, VALID, INVALID or ERROR".into(),
            ))
        }
        Response::Pong(data) => {
            w.bytes(data)?;
            op::PONG
        }
        Response::HelloOk(l) => {
            w.u32(l.max_payload);
            w.u32(l.max_in_flight);
            w.u32(l.max_batch);
            op::HELLO_OK
        }
        Response::Signature(sig) => {
            w.bytes(sig)?;
            op::SIGNATURE
        }
        Response::Valid => op::VALID,
        Response::Invalid => op::INVALID,
        Response::Error(e) => {
            w.u16(e.code.0);
            w.bytes(e.message.as_bytes())?;
            op::ERROR
        }
        Response::Batch(items) => {
            let n = u32::try_from(items.len()).map_err(|_| EncodeError("batch too long".into()))?;
            w.u32(n);
            for item in items {
                let (o, body) = response_body(item, true)?;
                w.u8(o);
                w.bytes(&body)?;
            }
            op::BATCH_RESULT
        }
    };
    Ok((opcode, w.0))
}

/// Encodes a response frame (header included) answering `request_id`.
pub fn encode_response(request_id: u32, resp: &Response) -> Result<Vec<u8>, EncodeError> {
    let (opcode, payload) = response_body(resp, false)?;
    frame(opcode, request_id, &payload)
}

// ---------------------------------------------------------------------------------------
// Decoding

/// Reads fields from a payload, never past its end.
struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DecodeError> {
        if self.buf.len() < n {
            return Err(DecodeError::Malformed(format!(
                "{what} runs past the end of the payload"
            )));
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }
    fn u8(&mut self, what: &str) -> Result<u8, DecodeError> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, DecodeError> {
        let b = self.take(2, what)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }
    fn u32(&mut self, what: &str) -> Result<u32, DecodeError> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn bytes(&mut self, what: &str) -> Result<&'a [u8], DecodeError> {
        let n = self.u32(what)?;
        // u32 fits usize on every target this crate builds for (32- and 64-bit).
        self.take(n as usize, what)
    }
    fn string(&mut self, what: &str) -> Result<String, DecodeError> {
        let b = self.bytes(what)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| DecodeError::Malformed(format!("{what} is not UTF-8")))
    }
    fn finish(&self) -> Result<(), DecodeError> {
        if self.buf.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::Malformed(format!(
                "{} unexpected bytes after the last field",
                self.buf.len()
            )))
        }
    }
    /// A batch count, bounded by what the payload can hold (each item is at least five
    /// bytes), so a huge announced count cannot reserve memory.
    fn count(&mut self) -> Result<usize, DecodeError> {
        let n = self.u32("batch count")? as usize;
        if n > self.buf.len() / 5 {
            return Err(DecodeError::Malformed(format!(
                "batch count {n} is more than the payload can hold"
            )));
        }
        Ok(n)
    }
}

fn malformed(what: String) -> DecodeError {
    DecodeError::Malformed(what)
}

/// Decodes the flags byte and data field into an `Input`.
fn input(flags: u8, data: &[u8]) -> Result<Input, DecodeError> {
    if flags & FLAG_MU == 0 {
        return Ok(Input::Message(data.to_vec()));
    }
    let mu: [u8; MU_LEN] = data
        .try_into()
        .map_err(|_| malformed(format!("mu must be {MU_LEN} bytes, got {}", data.len())))?;
    Ok(Input::Mu(mu))
}

fn decode_sign(r: &mut Reader<'_>) -> Result<SignRequest, DecodeError> {
    let key_id = r.string("key id")?;
    check_key_id(&key_id).map_err(malformed)?;
    let flags = r.u8("flags")?;
    if flags & !(FLAG_MU | FLAG_DETERMINISTIC) != 0 {
        return Err(malformed(format!("unknown SIGN flags 0x{flags:02x}")));
    }
    let context = r.bytes("context")?.to_vec();
    let input = input(flags, r.bytes("data")?)?;
    check_context(&context, &input).map_err(malformed)?;
    Ok(SignRequest {
        key_id,
        input,
        context,
        deterministic: flags & FLAG_DETERMINISTIC != 0,
    })
}

/// A VERIFY body's fields borrowed from the payload, checked as the owned decoder checks
/// them: for servers that keep the payload and slice fields out of it without copying.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyView<'a> {
    /// The public key to verify with.
    pub key: KeyRefView<'a>,
    /// `data` is a 64-byte μ (the MU flag), not the message.
    pub mu: bool,
    /// Context string (at most 255 bytes; empty with μ).
    pub context: &'a [u8],
    /// The message, or μ.
    pub data: &'a [u8],
    /// The signature bytes.
    pub signature: &'a [u8],
}

/// [`KeyRef`], borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRefView<'a> {
    /// A key held by the server.
    Id(&'a str),
    /// A key sent along: algorithm name and raw public key.
    Inline {
        /// Algorithm name.
        algorithm: &'a str,
        /// The raw public key.
        public_key: &'a [u8],
    },
}

fn utf8<'a>(b: &'a [u8], what: &str) -> Result<&'a str, DecodeError> {
    std::str::from_utf8(b).map_err(|_| malformed(format!("{what} is not UTF-8")))
}

fn verify_view<'a>(r: &mut Reader<'a>) -> Result<VerifyView<'a>, DecodeError> {
    let key = match r.u8("key reference")? {
        KEY_BY_ID => {
            let id = utf8(r.bytes("key id")?, "key id")?;
            check_key_id(id).map_err(malformed)?;
            KeyRefView::Id(id)
        }
        KEY_INLINE => KeyRefView::Inline {
            algorithm: utf8(r.bytes("algorithm")?, "algorithm")?,
            public_key: r.bytes("public key")?,
        },
        t => return Err(malformed(format!("unknown key reference tag {t}"))),
    };
    let flags = r.u8("flags")?;
    if flags & !FLAG_MU != 0 {
        return Err(malformed(format!("unknown VERIFY flags 0x{flags:02x}")));
    }
    let mu = flags & FLAG_MU != 0;
    let context = r.bytes("context")?;
    let data = r.bytes("data")?;
    if mu && data.len() != MU_LEN {
        return Err(malformed(format!(
            "mu must be {MU_LEN} bytes, got {}",
            data.len()
        )));
    }
    check_context_mu(context, mu).map_err(malformed)?;
    let signature = r.bytes("signature")?;
    Ok(VerifyView {
        key,
        mu,
        context,
        data,
        signature,
    })
}

/// Decodes a VERIFY body (a VERIFY frame's payload, or a BATCH item) without copying.
pub fn decode_verify_view(body: &[u8]) -> Result<VerifyView<'_>, DecodeError> {
    let mut r = Reader { buf: body };
    let v = verify_view(&mut r)?;
    r.finish()?;
    Ok(v)
}

fn decode_verify(r: &mut Reader<'_>) -> Result<VerifyRequest, DecodeError> {
    let v = verify_view(r)?;
    let key = match v.key {
        KeyRefView::Id(id) => KeyRef::Id(id.to_owned()),
        KeyRefView::Inline {
            algorithm,
            public_key,
        } => KeyRef::Inline {
            algorithm: algorithm.to_owned(),
            public_key: public_key.to_vec(),
        },
    };
    let input = match <[u8; MU_LEN]>::try_from(v.data) {
        Ok(mu) if v.mu => Input::Mu(mu),
        _ => Input::Message(v.data.to_vec()),
    };
    Ok(VerifyRequest {
        key,
        input,
        context: v.context.to_vec(),
        signature: v.signature.to_vec(),
    })
}

/// Splits a BATCH payload into its items' opcodes and bodies (borrowed, not decoded).
pub fn batch_items(payload: &[u8]) -> Result<Vec<(u8, &[u8])>, DecodeError> {
    let mut r = Reader { buf: payload };
    let n = r.count()?;
    let mut items = Vec::with_capacity(n);
    for _ in 0..n {
        let o = r.u8("batch item opcode")?;
        items.push((o, r.bytes("batch item")?));
    }
    r.finish()?;
    Ok(items)
}

fn request_payload(opcode: u8, payload: &[u8], nested: bool) -> Result<Request, DecodeError> {
    let mut r = Reader { buf: payload };
    let req = match opcode {
        op::SIGN => Request::Sign(decode_sign(&mut r)?),
        op::VERIFY => Request::Verify(decode_verify(&mut r)?),
        op::PING | op::HELLO | op::BATCH if nested => {
            return Err(malformed("a BATCH item must be SIGN or VERIFY".into()))
        }
        op::PING => Request::Ping(r.bytes("data")?.to_vec()),
        op::HELLO => Request::Hello {
            token: Zeroizing::new(r.bytes("token")?.to_vec()),
        },
        op::BATCH => {
            let items = batch_items(r.buf)?
                .into_iter()
                .map(|(o, body)| request_payload(o, body, true))
                .collect::<Result<_, _>>()?;
            r.buf = &[];
            Request::Batch(items)
        }
        o if nested => return Err(malformed(format!("unknown batch item opcode 0x{o:02x}"))),
        o => return Err(DecodeError::UnknownOpcode(o)),
    };
    r.finish()?;
    Ok(req)
}

/// Decodes a request payload (the bytes after a header with this opcode).
pub fn decode_request(opcode: u8, payload: &[u8]) -> Result<Request, DecodeError> {
    request_payload(opcode, payload, false)
}

fn response_payload(opcode: u8, payload: &[u8], nested: bool) -> Result<Response, DecodeError> {
    let mut r = Reader { buf: payload };
    let resp = match opcode {
        op::SIGNATURE => Response::Signature(r.bytes("signature")?.to_vec()),
        op::VALID => Response::Valid,
        op::INVALID => Response::Invalid,
        op::ERROR => {
            let code = ErrorCode(r.u16("error code")?);
            let message = r.string("error message")?;
            Response::Error(ErrorResponse { code, message })
        }
        op::PONG | op::HELLO_OK | op::BATCH_RESULT if nested => {
            return Err(malformed(
                "a BATCH_RESULT item must be SIGNATURE, VALID, INVALID or ERROR".into(),
            ))
        }
        op::PONG => Response::Pong(r.bytes("data")?.to_vec()),
        op::HELLO_OK => Response::HelloOk(Limits {
            max_payload: r.u32("max payload")?,
            max_in_flight: r.u32("max in flight")?,
            max_batch: r.u32("max batch")?,
        }),
        op::BATCH_RESULT => {
            let n = r.count()?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                let o = r.u8("batch item opcode")?;
                items.push(response_payload(o, r.bytes("batch item")?, true)?);
            }
            Response::Batch(items)
        }
        o if nested => return Err(malformed(format!("unknown batch item opcode 0x{o:02x}"))),
        o => return Err(DecodeError::UnknownOpcode(o)),
    };
    r.finish()?;
    Ok(resp)
}

/// Decodes a response payload (the bytes after a header with this opcode).
pub fn decode_response(opcode: u8, payload: &[u8]) -> Result<Response, DecodeError> {
    response_payload(opcode, payload, false)
}

/// Splits one frame off the front of `buf`: its header and payload, and the bytes
/// consumed. `Truncated` when `buf` holds less than a whole frame.
pub fn split_frame(buf: &[u8], max_payload: u32) -> Result<(Header, &[u8], usize), DecodeError> {
    let head: &[u8; HEADER_LEN] = buf
        .get(..HEADER_LEN)
        .and_then(|h| h.try_into().ok())
        .ok_or(DecodeError::Truncated)?;
    let header = Header::decode(head, max_payload)?;
    check_reserved(head)?;
    let end = HEADER_LEN + header.length as usize;
    let payload = buf.get(HEADER_LEN..end).ok_or(DecodeError::Truncated)?;
    Ok((header, payload, end))
}

/// Decodes one whole request frame from the front of `buf`: (request id, request,
/// bytes consumed).
pub fn decode_request_frame(
    buf: &[u8],
    max_payload: u32,
) -> Result<(u32, Request, usize), DecodeError> {
    let (h, payload, used) = split_frame(buf, max_payload)?;
    Ok((h.request_id, decode_request(h.opcode, payload)?, used))
}

/// Decodes one whole response frame from the front of `buf`: (request id, response,
/// bytes consumed).
pub fn decode_response_frame(
    buf: &[u8],
    max_payload: u32,
) -> Result<(u32, Response, usize), DecodeError> {
    let (h, payload, used) = split_frame(buf, max_payload)?;
    Ok((h.request_id, decode_response(h.opcode, payload)?, used))
}
