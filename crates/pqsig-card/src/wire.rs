//! The control path over the Unix socket: fixed 16-byte messages, little-endian
//! `{op: u32, id: u32, size: u64}`, with a descriptor attached (`SCM_RIGHTS`) where a
//! message hands memory over. Data never travels here; only memory does (and the
//! counters of `STATS`).
//!
//! * on accept, the card sends `HELLO {status 0, id 0, size}` with the client's memfd
//!   (register page + window, `size` bytes);
//! * `ALLOC {size}` → `{status, id, size}` with a fresh memfd of `size` bytes: region
//!   `id` for the buffer registers (per-call mode's "allocate a DMA buffer");
//! * `FREE {id}` → `{status}`: the card unmaps and forgets region `id`;
//! * `STATS` → `{status, 0, len}` followed by `len` bytes of JSON, the card's counters
//!   (the one reply carrying bytes; [`crate::stats`]).
//!
//! The socket also tells the card when a client is gone (end of file), whatever the
//! client was doing.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::net::UnixStream;

pub const OP_HELLO: u32 = 1;
pub const OP_ALLOC: u32 = 2;
pub const OP_FREE: u32 = 3;
/// `STATS` → `{status, 0, len}` and `len` bytes of JSON: the card's counters (`stats`).
pub const OP_STATS: u32 = 4;

/// Reply statuses.
pub const OK: u32 = 0;
pub const REFUSED: u32 = 1;

/// Largest per-call buffer the card allocates.
pub const MAX_ALLOC: u64 = 16 << 20;
/// Most per-call buffers a client holds at once.
pub const MAX_REGIONS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Msg {
    pub op: u32,
    pub id: u32,
    pub size: u64,
}

impl Msg {
    fn bytes(self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&self.op.to_le_bytes());
        b[4..8].copy_from_slice(&self.id.to_le_bytes());
        b[8..].copy_from_slice(&self.size.to_le_bytes());
        b
    }
    fn parse(b: &[u8; 16]) -> Msg {
        let w = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let mut s = [0u8; 8];
        s.copy_from_slice(&b[8..]);
        Msg {
            op: w(0),
            id: w(4),
            size: u64::from_le_bytes(s),
        }
    }
}

/// Sends `msg`, with `fd` attached when given.
pub fn send(sock: &UnixStream, msg: Msg, fd: Option<&OwnedFd>) -> io::Result<()> {
    let Some(fd) = fd else {
        return (&*sock).write_all(&msg.bytes());
    };
    let bytes = msg.bytes();
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    // Room for one descriptor, aligned as a cmsghdr.
    let mut cbuf = [0u64; 4];
    // SAFETY: `hdr` points at `iov` (16 readable bytes) and `cbuf` (32 bytes, enough
    // for CMSG_SPACE(4)), both alive for the call; the control message is filled
    // through the CMSG_* macros inside that buffer; the result is checked.
    let sent = unsafe {
        let mut hdr: libc::msghdr = core::mem::zeroed();
        hdr.msg_iov = &mut iov;
        hdr.msg_iovlen = 1;
        hdr.msg_control = cbuf.as_mut_ptr().cast();
        hdr.msg_controllen = libc::CMSG_SPACE(4) as _;
        let c = libc::CMSG_FIRSTHDR(&hdr);
        (*c).cmsg_level = libc::SOL_SOCKET;
        (*c).cmsg_type = libc::SCM_RIGHTS;
        (*c).cmsg_len = libc::CMSG_LEN(4) as _;
        core::ptr::write_unaligned(libc::CMSG_DATA(c).cast::<i32>(), fd.as_raw_fd());
        libc::sendmsg(sock.as_raw_fd(), &hdr, libc::MSG_NOSIGNAL)
    };
    if sent != bytes.len() as isize {
        return Err(if sent < 0 {
            io::Error::last_os_error()
        } else {
            io::ErrorKind::WriteZero.into()
        });
    }
    Ok(())
}

/// Receives one message without a descriptor (the card's side: clients send none).
/// `Ok(None)` at end of file.
pub fn recv(sock: &UnixStream) -> io::Result<Option<Msg>> {
    let mut b = [0u8; 16];
    let mut got = 0;
    while got < b.len() {
        match (&*sock).read(&mut b[got..]) {
            Ok(0) => return Ok(None),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Some(Msg::parse(&b)))
}

/// Receives one message and the descriptor attached to it, if any (the client's side).
pub fn recv_with_fd(sock: &UnixStream) -> io::Result<(Msg, Option<OwnedFd>)> {
    let mut b = [0u8; 16];
    let mut iov = libc::iovec {
        iov_base: b.as_mut_ptr().cast(),
        iov_len: b.len(),
    };
    let mut cbuf = [0u64; 8];
    // SAFETY: `hdr` points at `iov` (16 writable bytes) and `cbuf` (64 bytes), alive
    // for the call; MSG_CMSG_CLOEXEC marks received descriptors close-on-exec.
    let (n, hdr) = unsafe {
        let mut hdr: libc::msghdr = core::mem::zeroed();
        hdr.msg_iov = &mut iov;
        hdr.msg_iovlen = 1;
        hdr.msg_control = cbuf.as_mut_ptr().cast();
        hdr.msg_controllen = core::mem::size_of_val(&cbuf) as _;
        let n = libc::recvmsg(sock.as_raw_fd(), &mut hdr, libc::MSG_CMSG_CLOEXEC);
        (n, hdr)
    };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    let mut fd = None;
    // SAFETY: the kernel filled `hdr.msg_control` with `msg_controllen` bytes of
    // control messages; the CMSG_* macros walk them inside that length. A SCM_RIGHTS
    // message's data is descriptors now owned by this process (taken once, here).
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&hdr);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_RIGHTS {
                let count = ((*c).cmsg_len as usize - libc::CMSG_LEN(0) as usize) / 4;
                for i in 0..count {
                    let raw = core::ptr::read_unaligned(libc::CMSG_DATA(c).cast::<i32>().add(i));
                    let owned = OwnedFd::from_raw_fd(raw);
                    // Keep the first; drop (close) any extra ones.
                    if fd.is_none() {
                        fd = Some(owned);
                    }
                }
            }
            c = libc::CMSG_NXTHDR(&hdr, c);
        }
    }
    if n == 0 {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    let mut got = n as usize;
    while got < b.len() {
        match (&*sock).read(&mut b[got..]) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((Msg::parse(&b), fd))
}
