//! Which backend each kernel-family selection was made for, per thread: test-only
//! evidence that an operation ran on its key's backend (`tests/backend_pinning.rs`).
//!
//! Every dispatch point (`mldsa::kernels(b)`, `falcon::fft::kernels(b)`,
//! `keccak::f1600::permute1_for(b)`, ...) calls [`record`] with the family and the backend
//! it was asked for, and `select::active()` records the family `"select::active"`, so a
//! scheme that reads the process-wide backend is caught wherever it does. Without the
//! `backend-trace` feature [`record`] is an empty inline function: release builds pay
//! nothing.

use crate::kernels::select::Backend;

/// One selection: the kernel family (the accessor's path) and the backend asked for.
pub type Entry = (&'static str, Backend);

#[cfg(feature = "backend-trace")]
std::thread_local! {
    static SEEN: core::cell::RefCell<Option<alloc::vec::Vec<Entry>>> =
        const { core::cell::RefCell::new(None) };
}

/// Notes that `family` selected backend `b` on this thread (deduplicated; only while a
/// trace is running).
#[inline(always)]
pub(crate) fn record(family: &'static str, b: Backend) {
    #[cfg(feature = "backend-trace")]
    SEEN.with(|s| {
        if let Some(v) = s.borrow_mut().as_mut() {
            if !v.contains(&(family, b)) {
                v.push((family, b));
            }
        }
    });
    #[cfg(not(feature = "backend-trace"))]
    let _ = (family, b);
}

/// Starts (or restarts, forgetting earlier entries) this thread's trace.
#[cfg(feature = "backend-trace")]
pub fn start() {
    SEEN.with(|s| *s.borrow_mut() = Some(alloc::vec::Vec::new()));
}

/// Stops this thread's trace and returns its distinct entries in first-seen order.
#[cfg(feature = "backend-trace")]
pub fn take() -> alloc::vec::Vec<Entry> {
    SEEN.with(|s| s.borrow_mut().take().unwrap_or_default())
}
