//! The CPU engine's helper threads: the calling thread works, and helpers join it
//! without the caller ever waiting for one to wake up.
//!
//! Why not a rayon scope: a scope returns only after every job spawned into it has run,
//! so a call whose helper is asleep waits for that helper to wake, find nothing left and
//! finish — on a VM 20–40 µs per call, a fifth of a 64-item ML-DSA verification batch
//! (about 200 µs of work). Here a call *posts* its work; the helpers that are awake (or
//! wake in time) join in; when the caller runs out of units it *retracts* the post and
//! waits only for helpers that actually entered, which are working and about to finish.
//! A helper that wakes after the retraction never touches the call's data.
//!
//! After its last job a helper spins for a while (`PQSIG_BATCH_SPIN_US`, default 5000 µs),
//! so that calls following each other find it awake; then it sleeps on a condition
//! variable. Why spin that long: waking a sleeping thread was measured at over 200 µs on
//! the project's 2-vCPU VMs (an idle vCPU is descheduled by the host), longer than a
//! whole 64-item Falcon-512 batch; with `PQSIG_BATCH_SPIN_US=0` a 2-thread batch there ran
//! no faster than 1 thread. The OpenMP runtimes make the same trade by default (Intel's
//! `KMP_BLOCKTIME` 200 ms, libgomp's `GOMP_SPINCOUNT` of 300,000 spins, milliseconds).
//! The spin yields the core every few dozen iterations, so that an oversubscribed
//! machine's threads with work run first. Set 0 to sleep at once (no CPU burnt between
//! sporadic calls; each call then pays a wake-up).
//!
//! One call at a time uses a pool: a concurrent call (another thread, already busy) runs
//! on its own thread alone — the pool's cores are taken anyway.

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::collections::HashMap;
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// What a call posts: its work, type-erased, and a sequence number so that a helper
/// runs each post at most once.
struct Post {
    seq: u64,
    data: *const (),
    call: unsafe fn(*const ()),
}

/// Calls the `F` that `data` points to.
///
/// # Safety
/// `data` must point to a live `F`.
unsafe fn trampoline<F: Fn() + Sync>(data: *const ()) {
    // SAFETY: the caller guarantees `data` is a live `F` (see `Pool::run`).
    let f = unsafe { &*(data as *const F) };
    f()
}

/// A pool of helper threads.
pub(crate) struct Pool {
    shared: Arc<Shared>,
    /// Held by the call using the pool.
    owner: Mutex<()>,
}

struct Shared {
    /// The current post (null: none).
    slot: AtomicPtr<Post>,
    /// Helpers inside a post's work (or about to check whether they may enter).
    active: AtomicUsize,
    seq: AtomicU64,
    sleepers: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    panicked: AtomicBool,
    spin: Duration,
}

impl Pool {
    fn new(helpers: usize) -> Option<Pool> {
        let spin = std::env::var("PQSIG_BATCH_SPIN_US")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(5000)
            .min(1_000_000);
        let shared = Arc::new(Shared {
            slot: AtomicPtr::new(core::ptr::null_mut()),
            active: AtomicUsize::new(0),
            seq: AtomicU64::new(0),
            sleepers: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            panicked: AtomicBool::new(false),
            spin: Duration::from_micros(spin),
        });
        for i in 0..helpers {
            let s = Arc::clone(&shared);
            std::thread::Builder::new()
                .name(alloc::format!("pqsig-batch-{i}"))
                .spawn(move || helper(&s))
                .ok()?;
        }
        Some(Pool {
            shared,
            owner: Mutex::new(()),
        })
    }

    /// The pool with `helpers` helper threads, started on first use and kept.
    pub(crate) fn get(helpers: usize) -> Option<&'static Pool> {
        static POOLS: OnceLock<Mutex<HashMap<usize, &'static Pool>>> = OnceLock::new();
        let mut pools = POOLS
            .get_or_init(|| Mutex::new(HashMap::new()))
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(p) = pools.get(&helpers) {
            return Some(p);
        }
        // Leaked on purpose: the helpers live as long as the process.
        let p: &'static Pool = alloc::boxed::Box::leak(alloc::boxed::Box::new(Pool::new(helpers)?));
        pools.insert(helpers, p);
        Some(p)
    }

    /// Runs `work` on the calling thread and on every helper that joins before the
    /// caller is done; returns when no helper is inside `work` any more. `work` must be
    /// safe to run any number of times concurrently (it takes units from a shared
    /// counter until none is left).
    pub(crate) fn run<F: Fn() + Sync>(&self, work: &F) {
        let Ok(_owner) = self.owner.try_lock() else {
            return work();
        };
        let sh = &*self.shared;
        let post = Post {
            seq: sh.seq.fetch_add(1, SeqCst) + 1,
            data: work as *const F as *const (),
            call: trampoline::<F>,
        };
        sh.slot.store(&post as *const Post as *mut Post, SeqCst);
        // From here until the retraction `post` and `work` must outlive every helper
        // inside them, even if `work` panics on this thread: the guard retracts and waits
        // in its drop, which runs on unwinding too.
        let retract = Retract(sh);
        if sh.sleepers.load(SeqCst) > 0 {
            let _g = sh.lock.lock().unwrap_or_else(PoisonError::into_inner);
            sh.wake.notify_all();
        }
        work();
        drop(retract);
        if sh.panicked.swap(false, SeqCst) {
            panic!("a batch helper thread panicked");
        }
    }
}

/// Retracts the current post and waits for the helpers that entered it (they are
/// working and about to finish). A helper that checks the slot afterwards sees null and
/// leaves the post alone.
struct Retract<'a>(&'a Shared);

impl Drop for Retract<'_> {
    fn drop(&mut self) {
        self.0.slot.store(core::ptr::null_mut(), SeqCst);
        while self.0.active.load(SeqCst) != 0 {
            core::hint::spin_loop();
        }
    }
}

/// A helper's life: take posts, spin a while after each, then sleep.
fn helper(sh: &Shared) {
    let mut last_seq = 0u64;
    let mut idle_since = Instant::now();
    loop {
        let p = sh.slot.load(SeqCst);
        if !p.is_null() {
            // Announce the entry, then check the post is still there: the caller
            // retracts before it waits for `active` to drop to zero, so either it sees
            // this helper (and waits for it) or this helper sees the retraction.
            sh.active.fetch_add(1, SeqCst);
            if sh.slot.load(SeqCst) == p {
                // SAFETY: `p` is in the slot after `active` was raised, so its call has
                // not yet retracted it, and it will not return (and free `post` or the
                // work `data` points to) before `active` drops back. Same address reused
                // by a later call is that call's live post: equally safe.
                let post = unsafe { &*p };
                if post.seq != last_seq {
                    last_seq = post.seq;
                    let (call, data) = (post.call, post.data);
                    // SAFETY: `data` points to the `F` that `call` was instantiated for
                    // (`Pool::run`), alive while this helper is counted in `active`.
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe {
                        call(data)
                    }));
                    if r.is_err() {
                        sh.panicked.store(true, SeqCst);
                    }
                }
            }
            sh.active.fetch_sub(1, SeqCst);
            // Done with this post: wait (without touching `active`) for its caller to
            // retract it — it is finishing its last unit.
            while sh.slot.load(SeqCst) == p {
                core::hint::spin_loop();
            }
            idle_since = Instant::now();
            continue;
        }
        if idle_since.elapsed() < sh.spin {
            // Spin, yielding now and then: on an oversubscribed machine (more engine
            // threads than cores) a spinning helper must not hold a core from a thread
            // that has work.
            for _ in 0..64 {
                core::hint::spin_loop();
            }
            std::thread::yield_now();
            continue;
        }
        // Sleep until a post arrives (the caller reads `sleepers` after posting).
        let mut g = sh.lock.lock().unwrap_or_else(PoisonError::into_inner);
        sh.sleepers.fetch_add(1, SeqCst);
        while sh.slot.load(SeqCst).is_null() {
            g = sh.wake.wait(g).unwrap_or_else(PoisonError::into_inner);
        }
        sh.sleepers.fetch_sub(1, SeqCst);
        drop(g);
        idle_since = Instant::now();
    }
}

/// Runs `f` over every unit on `threads` threads (the caller and `threads − 1` helpers)
/// and gathers the results, in no particular order.
pub(crate) fn run_units<U: Sync, R: Send>(
    threads: usize,
    units: &[U],
    f: impl Fn(&U) -> Vec<(usize, R)> + Sync,
) -> Vec<(usize, R)> {
    let serial = || units.iter().flat_map(&f).collect();
    if threads <= 1 || units.len() <= 1 {
        return serial();
    }
    let Some(pool) = Pool::get(threads - 1) else {
        return serial();
    };
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(units.len()));
    let work = || {
        let mut mine = Vec::new();
        while let Some(u) = units.get(next.fetch_add(1, SeqCst)) {
            mine.extend(f(u));
        }
        if !mine.is_empty() {
            done.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend(mine);
        }
    };
    pool.run(&work);
    done.into_inner().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::run_units;
    use alloc::vec::Vec;

    /// Every unit runs exactly once and its result comes back, for many calls in a row
    /// (helpers awake, asleep, joining late) and for calls from several threads at once
    /// (one owns the pool, the others run alone).
    #[test]
    fn every_unit_once_under_contention() {
        // Miri interprets (about 10^4 times slower): the same interleavings on a
        // smaller scale, so that scripts/miri.sh finishes; natively the full scale.
        let scale = if cfg!(miri) { 50 } else { 1 };
        let units: Vec<usize> = (0..97 / (scale / 10).max(1)).collect();
        let check = |threads: usize, rounds: usize| {
            for r in 0..rounds {
                let mut got = run_units(threads, &units, |&u| {
                    // Uneven work, so that helpers and caller interleave differently.
                    let mut x = u as u64;
                    for _ in 0..(u * 37 + r) % (500 / scale) {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    }
                    alloc::vec![(u, x)]
                });
                got.sort_unstable_by_key(|p| p.0);
                assert_eq!(got.len(), units.len());
                assert!(got.iter().enumerate().all(|(i, p)| p.0 == i));
            }
        };
        check(2, 300 / scale);
        check(3, 100 / scale);
        std::thread::scope(|s| {
            for t in 0..4 {
                s.spawn(move || {
                    check(2 + t % 2, (100 / scale).max(1));
                    // Sporadic calls: helpers may have gone to sleep in between.
                    std::thread::sleep(std::time::Duration::from_millis(3));
                    check(2, 5);
                });
            }
        });
    }
}
