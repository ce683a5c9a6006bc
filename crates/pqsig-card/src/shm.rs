//! Shared memory: sealed memfds and their mappings.
//!
//! Why a memfd handed over the Unix socket (`SCM_RIGHTS`) rather than a file in
//! /dev/shm: it has no name, so nothing can collide with, guess or leak it; only the
//! card and the one client it was sent to ever map it (requests of different clients
//! cannot mix: they are in different memory); the kernel frees it when the last
//! mapping and descriptor are gone, so a client that dies leaves nothing behind. The
//! card creates every memfd (it is "the card's" BAR and DMA memory, as a driver
//! allocates DMA memory) and seals its size (`F_SEAL_SHRINK | F_SEAL_GROW`), so a
//! client cannot shrink it under the card's mapping and make the card fault.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// A shared mapping (`MAP_SHARED`, read-write). Accessed only through raw pointers
/// and atomics: the other process may write it at any time. Bulk copies of data
/// ([`Mapping::read`], [`Mapping::write`]) may see bytes the other side is writing at
/// that moment (torn values): for plain bytes that is garbage in, never unsafety, and
/// every side validates what it copied before using it (the card the registers and
/// input bounds, the host the status and the seam the output bounds).
pub struct Mapping {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the mapping is plain memory owned by this value until drop; every access
// goes through raw pointers or atomics, which the other process may race with anyway.
unsafe impl Send for Mapping {}
// SAFETY: as for Send; no `&mut` to the memory is ever handed out.
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Maps `len` bytes of `fd` shared and read-write.
    pub fn map(fd: &OwnedFd, len: usize) -> io::Result<Mapping> {
        Mapping::map_at(fd, len, 0)
    }

    /// Maps `len` bytes of `fd` from byte `offset` (a multiple of the page size),
    /// shared and read-write.
    pub fn map_at(fd: &OwnedFd, len: usize, offset: usize) -> io::Result<Mapping> {
        let offset = libc::off_t::try_from(offset)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "offset"))?;
        if len == 0 {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty mapping"));
        }
        // SAFETY: a fresh mapping at an address the kernel chooses; `fd` is a valid
        // descriptor; the result is checked against MAP_FAILED.
        let ptr = unsafe {
            libc::mmap(
                core::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd.as_raw_fd(),
                offset,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Mapping {
            ptr: ptr.cast(),
            len,
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }

    /// Copies `src` into the mapping at `offset`. `false` (nothing copied) if it does
    /// not fit.
    pub fn write(&self, offset: usize, src: &[u8]) -> bool {
        if !self.fits(offset, src.len()) {
            return false;
        }
        // SAFETY: `offset + src.len() <= len` (checked), so the destination is inside
        // the mapping; `src` is ordinary memory, disjoint from it.
        unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), self.ptr.add(offset), src.len()) };
        true
    }

    /// Copies from the mapping at `offset` into `dst`. `false` if it does not fit.
    pub fn read(&self, offset: usize, dst: &mut [u8]) -> bool {
        if !self.fits(offset, dst.len()) {
            return false;
        }
        // SAFETY: as in `write`, the other way round.
        unsafe {
            core::ptr::copy_nonoverlapping(self.ptr.add(offset), dst.as_mut_ptr(), dst.len())
        };
        true
    }

    /// Whether `[offset, offset + len)` lies inside the mapping.
    pub fn fits(&self, offset: usize, len: usize) -> bool {
        offset.checked_add(len).is_some_and(|end| end <= self.len)
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: `ptr, len` is the mapping made in `map`, unmapped once, here.
        unsafe { libc::munmap(self.ptr.cast(), self.len) };
    }
}

/// A new sealed memfd of `len` bytes (zero-filled).
pub fn memfd(name: &str, len: usize) -> io::Result<OwnedFd> {
    let cname = std::ffi::CString::new(name).map_err(|_| io::ErrorKind::InvalidInput)?;
    // SAFETY: `cname` is a valid C string; the result is checked.
    let fd =
        unsafe { libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by memfd_create and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: plain fcntl/ftruncate on a descriptor we own; results checked.
    unsafe {
        if libc::ftruncate(fd.as_raw_fd(), len as libc::off_t) != 0 {
            return Err(io::Error::last_os_error());
        }
        let seals = libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_SEAL;
        if libc::fcntl(fd.as_raw_fd(), libc::F_ADD_SEALS, seals) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(fd)
}

/// The size of the file behind `fd` (what a client checks before mapping).
pub fn fd_len(fd: &OwnedFd) -> io::Result<usize> {
    // SAFETY: `st` is written by fstat before it is read; the result is checked.
    unsafe {
        let mut st: libc::stat = core::mem::zeroed();
        if libc::fstat(fd.as_raw_fd(), &mut st) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(st.st_size as usize)
    }
}
