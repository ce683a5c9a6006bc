//! The card's request counters, live: `STATS` over the control socket answers with one
//! line of JSON (`pqsig card --stats --socket PATH` prints it). This is how a caller
//! shows that work reached the card (the socket demo, scripts/test-all.sh).
//!
//! Wire: the client sends `STATS {0, 0}` after `HELLO`; the card replies
//! `{OK, 0, len}` followed by `len` bytes of UTF-8 JSON on the same socket.

use crate::card::Counters;
use crate::wire::{self, Msg};
use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Longest reply a client accepts.
const MAX_REPLY: u64 = 4096;

impl Counters {
    /// The counters as one JSON object (field names are the `Counters` fields).
    pub fn to_json(&self) -> String {
        let f = [
            ("clients", &self.clients),
            ("live_clients", &self.live_clients),
            ("requests", &self.requests),
            ("ntt_requests", &self.ntt_requests),
            ("intt_requests", &self.intt_requests),
            ("verify_requests", &self.verify_requests),
            ("polys", &self.polys),
            ("errors", &self.errors),
            ("device_ns", &self.device_ns),
            ("late", &self.late),
            ("late_ns", &self.late_ns),
            ("pickup_ns", &self.pickup_ns),
        ];
        let body: Vec<String> = f
            .iter()
            .map(|(k, v)| format!("\"{k}\":{}", v.load(Ordering::Relaxed)))
            .collect();
        format!("{{{}}}", body.join(","))
    }
}

/// The card's side: answers one `STATS` message.
pub(crate) fn reply(sock: &UnixStream, counters: &Counters) -> io::Result<()> {
    let text = counters.to_json();
    wire::send(
        sock,
        Msg {
            op: wire::OK,
            id: 0,
            size: text.len() as u64,
        },
        None,
    )?;
    (&*sock).write_all(text.as_bytes())
}

/// Asks the card on `path` for its counters; returns the JSON text.
pub fn query(path: &Path) -> io::Result<String> {
    let sock = UnixStream::connect(path)?;
    sock.set_read_timeout(Some(Duration::from_secs(5)))?;
    // HELLO hands over this connection's memory; a stats query does not use it.
    let (hello, _memory) = wire::recv_with_fd(&sock)?;
    if hello.op != wire::OP_HELLO {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "card: unexpected HELLO",
        ));
    }
    wire::send(
        &sock,
        Msg {
            op: wire::OP_STATS,
            id: 0,
            size: 0,
        },
        None,
    )?;
    let m = wire::recv(&sock)?.ok_or(io::ErrorKind::UnexpectedEof)?;
    if m.op != wire::OK || m.size > MAX_REPLY {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "card: STATS refused (a card of an older version?)",
        ));
    }
    let mut text = vec![0u8; m.size as usize];
    (&sock).read_exact(&mut text)?;
    String::from_utf8(text)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "card: STATS not UTF-8"))
}
