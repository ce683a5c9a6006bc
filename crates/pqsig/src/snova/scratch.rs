//! SNOVA's working memory: zero-filled byte buffers, wiped on drop, recycled per thread.
//!
//! One signature touches 100–600 KB of matrices (P11, F21, the per-attempt temporaries).
//! Fresh allocations of that size come from `mmap` or from a heap top that glibc trims
//! back after every free, so each signature paid page faults plus a zero fill on every
//! buffer: measured at 10–20% of an AVX-512 `SigningKey` signature, a cost no SIMD kernel
//! can shrink (it capped the AVX-512 / portable ratio). With `std`, a dropped [`Buf`] is
//! wiped and parked in a small per-thread pool, and the next request of at most its size
//! reuses it: no fault, no second fill (a parked buffer is all zero, so it is handed out
//! as is). Without `std` every buffer is a plain allocation.
//!
//! Wiping is one `fill(0)` followed by an opaque use of the slice (`black_box`), which the
//! optimiser must assume reads every byte, so the stores cannot be removed — wide stores,
//! not the byte-by-byte volatile loop of `Zeroizing<Vec<u8>>` (measurable: ~8% of a
//! SNOVA_I_S signature when every temporary was its own `Zeroizing` vector). Every buffer is
//! wiped, public ones included: a pooled buffer may next hold a secret, and the pool's
//! invariant (parked = all zero) is what saves the fill on reuse.

use alloc::vec;
use alloc::vec::Vec;

/// A zero-initialised byte buffer of a fixed length, wiped on drop (and, with `std`,
/// returned to the per-thread pool).
pub(crate) struct Buf {
    /// Backing store; every byte past `len` is zero (pool invariant).
    v: Vec<u8>,
    len: usize,
}

impl Buf {
    /// `len` zero bytes.
    pub(crate) fn zeroed(len: usize) -> Buf {
        Buf {
            v: pool::take(len).unwrap_or_else(|| vec![0u8; len]),
            len,
        }
    }

    /// A copy of `self`'s bytes in a new buffer.
    pub(crate) fn duplicate(&self) -> Buf {
        let mut b = Buf::zeroed(self.len);
        b.copy_from_slice(self);
        b
    }
}

impl core::ops::Deref for Buf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.v[..self.len]
    }
}

impl core::ops::DerefMut for Buf {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.v[..self.len]
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        wipe(&mut self.v[..self.len]);
        pool::give(core::mem::take(&mut self.v));
    }
}

/// A secret buffer: every [`Buf`] is wiped on drop; the name says why it matters here.
pub(crate) type SecretVec = Buf;

/// One buffer for all the temporaries of an operation, carved into slices with [`take`].
pub(crate) type Arena = Buf;

/// Clears `b` in a way the optimiser keeps.
pub(crate) fn wipe(b: &mut [u8]) {
    b.fill(0);
    core::hint::black_box(&*b);
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Splits the first `n` bytes off `rest`.
pub(crate) fn take<'a>(rest: &mut &'a mut [u8], n: usize) -> &'a mut [u8] {
    let (head, tail) = core::mem::take(rest).split_at_mut(n);
    *rest = tail;
    head
}

#[cfg(feature = "std")]
mod pool {
    use alloc::vec::Vec;
    use std::cell::RefCell;

    /// At most this many parked buffers per thread (a signature uses about a dozen).
    const MAX_BUFFERS: usize = 24;
    /// Buffers larger than this are freed, not parked (the largest SNOVA matrix, the
    /// verifier's P for SNOVA_V_*, is about 320 KB).
    const MAX_BYTES: usize = 1 << 20;

    std::thread_local! {
        /// Parked buffers, each all zero over its whole length.
        static POOL: RefCell<Vec<Vec<u8>>> = const { RefCell::new(Vec::new()) };
    }

    /// The smallest parked buffer of at least `len` bytes (all zero), if any; a much larger
    /// one is left for a request of its size.
    pub(super) fn take(len: usize) -> Option<Vec<u8>> {
        POOL.try_with(|p| {
            let mut p = p.try_borrow_mut().ok()?;
            let best = p
                .iter()
                .enumerate()
                .filter(|(_, v)| v.len() >= len && v.len() <= 2 * len + 4096)
                .min_by_key(|(_, v)| v.len())
                .map(|(i, _)| i)?;
            Some(p.swap_remove(best))
        })
        .ok()
        .flatten()
    }

    /// Parks `v` (already wiped) if there is room; otherwise frees it. When the pool is
    /// full, the smallest parked buffer makes way for a larger one.
    pub(super) fn give(v: Vec<u8>) {
        if v.is_empty() || v.len() > MAX_BYTES {
            return;
        }
        let _ = POOL.try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                if p.len() < MAX_BUFFERS {
                    p.push(v);
                } else if let Some((i, _)) = p
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, s)| s.len())
                    .filter(|(_, s)| s.len() < v.len())
                {
                    p[i] = v;
                }
            }
        });
    }
}

#[cfg(not(feature = "std"))]
mod pool {
    use alloc::vec::Vec;

    pub(super) fn take(_len: usize) -> Option<Vec<u8>> {
        None
    }

    pub(super) fn give(_v: Vec<u8>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reused_buffers_come_back_zeroed_and_sized() {
        let mut a = Buf::zeroed(1000);
        a.fill(0xA5);
        drop(a);
        for len in [10, 999, 1000, 1001, 3] {
            let b = Buf::zeroed(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&x| x == 0), "len {len}");
        }
        let mut c = Buf::zeroed(50);
        c.fill(7);
        c[0] = 1;
        assert_eq!(&c[..2], &[1, 7]);
        let d = c.duplicate();
        assert_eq!(&*d, &*c);
        drop(c);
        let e = Buf::zeroed(40);
        assert!(e.iter().all(|&x| x == 0));
    }
}
