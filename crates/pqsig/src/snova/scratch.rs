//! One heap allocation for all the temporaries of an operation, carved into slices and
//! wiped once on drop.
//!
//! Signing needs a dozen secret-dependent buffers per attempt. Allocating each as a
//! `Zeroizing<Vec<u8>>` costs an allocation and a byte-by-byte volatile wipe apiece
//! (measurable: ~8% of a SNOVA_I_S signature). Here the whole arena is cleared with one
//! `fill(0)` followed by an opaque use of the slice (`black_box`), which the optimiser must
//! assume reads every byte, so the stores cannot be removed.

use alloc::vec;
use alloc::vec::Vec;

/// A zero-initialised byte arena, wiped on drop.
pub(crate) struct Arena(Vec<u8>);

impl Arena {
    pub(crate) fn new(len: usize) -> Arena {
        Arena(vec![0u8; len])
    }

    /// The whole arena, to be split with [`take`].
    pub(crate) fn bytes(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        wipe(&mut self.0);
    }
}

/// A secret byte vector wiped on drop with [`wipe`] (wide stores, not the byte-by-byte
/// volatile loop of `Zeroizing<Vec<u8>>`: T12, F21, F12 are 10–60 KB each).
pub(crate) struct SecretVec(Vec<u8>);

impl SecretVec {
    pub(crate) fn new(v: Vec<u8>) -> SecretVec {
        SecretVec(v)
    }
}

impl core::ops::Deref for SecretVec {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl core::ops::DerefMut for SecretVec {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl Drop for SecretVec {
    fn drop(&mut self) {
        wipe(&mut self.0);
    }
}

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
