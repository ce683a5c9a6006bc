//! The heap for `alloc`: embedded-alloc's linked-list heap over the PSRAM, wrapped to
//! record the bytes in use and their high-water mark.

use core::alloc::{GlobalAlloc, Layout};
use core::sync::atomic::{AtomicUsize, Ordering};
use embedded_alloc::LlffHeap;

pub struct CountingHeap {
    inner: LlffHeap,
    in_use: AtomicUsize,
    peak: AtomicUsize,
}

#[global_allocator]
pub static HEAP: CountingHeap = CountingHeap {
    inner: LlffHeap::empty(),
    in_use: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

extern "C" {
    /// PSRAM bounds from memory.x.
    static _heap_start: u8;
    static _heap_end: u8;
}

impl CountingHeap {
    /// Hands the PSRAM to the allocator. Called once, first thing in `main`.
    pub fn init(&self) {
        // Only the addresses of the linker symbols are taken, never their values.
        let (start, end) = (
            core::ptr::addr_of!(_heap_start) as usize,
            core::ptr::addr_of!(_heap_end) as usize,
        );
        // SAFETY: [start, end) is the board's PSRAM (memory.x), used by nothing else, and
        // init runs once before any allocation.
        unsafe { self.inner.init(start, end - start) }
    }

    /// Restarts the high-water mark at the current use; returns that use.
    pub fn reset_peak(&self) -> usize {
        let now = self.in_use.load(Ordering::Relaxed);
        self.peak.store(now, Ordering::Relaxed);
        now
    }

    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }
}

// SAFETY: every call is forwarded unchanged to LlffHeap (a correct GlobalAlloc); the
// wrapper only adds counters.
unsafe impl GlobalAlloc for CountingHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let p = unsafe { self.inner.alloc(layout) };
        if !p.is_null() {
            let now = self.in_use.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            self.peak.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { self.inner.dealloc(ptr, layout) };
        self.in_use.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}
