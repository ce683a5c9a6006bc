//! Doorbell and completion: futex words in the shared register page, with polling
//! first.
//!
//! Why: a waiter first polls the word (as the design's driver polled `ap_done`) for a
//! short budget, because a request's round trip is microseconds and a sleep/wake pair
//! costs several (and, on a loaded machine, a scheduling delay); then it sleeps on the
//! word with `FUTEX_WAIT`, so that an idle card or a host waiting for a long request
//! burns no core. Futexes need no extra descriptors (an eventfd per slot and side would
//! have to be created and passed) and the word itself carries the value (the sequence
//! number), so a wake can never be lost: the sleeper passes the value it saw and the
//! kernel refuses to sleep if it changed. The waker only makes the `FUTEX_WAKE` system
//! call when the other side announced that it sleeps (a `*_sleeping` word), so the
//! polling fast path has no system call at all. The words live in `MAP_SHARED`
//! memory, so the futexes are the shared (not `_PRIVATE`) kind.

use core::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Asks for precise sleeps on this thread (timer slack 1 ns instead of the default
/// 50 µs), so that sleeping until just before a deadline and then polling is exact.
pub fn precise_timers() {
    // SAFETY: PR_SET_TIMERSLACK takes a plain integer and affects only this thread.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
}

/// Sleeps until `at − margin` if that is at least [`MIN_SLEEP`] away (with precise
/// timers), so that the caller polls only the last `margin`: a thread waiting long
/// leaves the core to the others (on a shared machine, the one it waits for) instead of
/// spinning. Shorter waits are polled whole: on a loaded machine (2 cores, load 4) a
/// woken thread was measured to get its core back only after ~0.4 ms at the median,
/// which ruins a 20 µs request.
pub fn sleep_until_near(at: Instant, margin: Duration) {
    let now = Instant::now();
    if at > now + margin + MIN_SLEEP {
        std::thread::sleep(at - now - margin);
    }
}

/// The shortest sleep worth its wake-up (see [`sleep_until_near`]).
pub const MIN_SLEEP: Duration = Duration::from_micros(1000);

/// Sleeps while `*word == expected`, at most `timeout`.
pub fn wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `word` is a live, aligned 32-bit word (in a mapping that outlives the
    // call); FUTEX_WAIT only reads it; `ts` is a valid relative timeout.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &ts as *const libc::timespec,
            core::ptr::null::<u32>(),
            0u32,
        );
    }
}

/// Wakes every sleeper on `word`.
pub fn wake(word: &AtomicU32) {
    // SAFETY: as in `wait`; FUTEX_WAKE does not access the word's value.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAKE,
            i32::MAX,
            core::ptr::null::<libc::timespec>(),
            core::ptr::null::<u32>(),
            0u32,
        );
    }
}

/// Sets `*word` to `value` and wakes the other side if it announced it sleeps.
pub fn publish(word: &AtomicU32, value: u32, sleeping: &AtomicU32) {
    word.store(value, Ordering::SeqCst);
    if sleeping.load(Ordering::SeqCst) != 0 {
        wake(word);
    }
}

/// Waits until `ready()`: polls for `spin`, then sleeps on `word` (announced through
/// `sleeping`) in slices of `slice`, until `deadline`. `false` on timeout or when
/// `give_up()` says so.
pub fn wait_until(
    word: &AtomicU32,
    sleeping: &AtomicU32,
    spin: Duration,
    deadline: Instant,
    mut ready: impl FnMut() -> bool,
    mut give_up: impl FnMut() -> bool,
) -> bool {
    let start = Instant::now();
    let mut polls = 0u32;
    loop {
        if ready() {
            return true;
        }
        polls = polls.wrapping_add(1);
        // Read the clock once every 64 polls: it is the dearest part of the loop.
        if polls.is_multiple_of(64) && start.elapsed() >= spin {
            break;
        }
        core::hint::spin_loop();
    }
    loop {
        if give_up() {
            return false;
        }
        let now = Instant::now();
        if now >= deadline {
            return ready();
        }
        sleeping.store(1, Ordering::SeqCst);
        let seen = word.load(Ordering::SeqCst);
        if ready() {
            sleeping.store(0, Ordering::SeqCst);
            return true;
        }
        wait(word, seen, (deadline - now).min(Duration::from_millis(50)));
        sleeping.store(0, Ordering::SeqCst);
    }
}
