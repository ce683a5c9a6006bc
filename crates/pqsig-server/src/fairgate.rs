//! A first-come-first-served counting gate in front of the rayon pool.
//!
//! Why: batch requests run on rayon's pool, and rayon keeps a worker that waits for its
//! own batch busy by stealing other work, which may be a whole newer batch. Under many
//! concurrent batches a request can so wait behind batch after batch: in the load test, 64
//! clients sending ML-DSA-65 batches of 64 saw a p99 of ~1.7 s against a p50 of ~3 ms.
//! Letting at most `permits` batches into the pool at once, in arrival order, bounds a
//! batch's wait by the work queued before it (that run: p99 1.7 s → 49 ms, p50 3 → 38 ms:
//! the wait is shared out instead of starving a few). The service uses twice as many
//! permits as rayon has threads: with exactly one per thread a core idled while a batch
//! finished its last items (−13% throughput in that cell); with two per thread the cost
//! was −6%. JSON is parsed before the gate, so waiting requests are parsed meanwhile.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;

/// A FIFO counting semaphore for blocking threads (tokio's blocking pool). A returned
/// permit is handed straight to the longest waiter, which alone is woken: with dozens of
/// queued batches, waking every waiter on each release cost more than the batches.
pub struct FairGate {
    permits: usize,
    state: Mutex<State>,
}

struct State {
    /// Holders inside the gate.
    inside: usize,
    /// Waiters in arrival order: the thread to unpark and its "permit granted" flag.
    queue: VecDeque<(Thread, Arc<AtomicBool>)>,
}

/// A permit; returned (or handed on) on drop.
pub struct GatePass<'a>(&'a FairGate);

impl FairGate {
    /// A gate letting `permits` (at least 1) holders in at once.
    pub fn new(permits: usize) -> Self {
        FairGate {
            permits: permits.max(1),
            state: Mutex::new(State {
                inside: 0,
                queue: VecDeque::new(),
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Blocks until this caller's turn: callers enter in the order they arrived.
    pub fn enter(&self) -> GatePass<'_> {
        let granted = {
            let mut s = self.lock();
            if s.inside < self.permits && s.queue.is_empty() {
                s.inside += 1;
                return GatePass(self);
            }
            let granted = Arc::new(AtomicBool::new(false));
            s.queue.push_back((std::thread::current(), granted.clone()));
            granted
        };
        // park may return spuriously; the flag says whether the permit is ours.
        while !granted.load(Ordering::Acquire) {
            std::thread::park();
        }
        GatePass(self)
    }
}

impl Drop for GatePass<'_> {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        match s.queue.pop_front() {
            // The permit passes to the next waiter; `inside` is unchanged.
            Some((thread, granted)) => {
                drop(s);
                granted.store(true, Ordering::Release);
                thread.unpark();
            }
            None => s.inside -= 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Barrier;
    use std::time::Duration;

    #[test]
    fn at_most_permits_inside_and_entry_in_arrival_order() {
        let gate = Arc::new(FairGate::new(2));
        let inside = Arc::new(AtomicUsize::new(0));
        let order = Arc::new(Mutex::new(Vec::new()));
        // Hold both permits so that the threads below queue up in a known order.
        let a = gate.enter();
        let b = gate.enter();
        let mut handles = Vec::new();
        for i in 0..6 {
            let (g, inside, order) = (gate.clone(), inside.clone(), order.clone());
            handles.push(std::thread::spawn(move || {
                let _p = g.enter();
                let n = inside.fetch_add(1, Ordering::SeqCst) + 1;
                assert!(n <= 2, "{n} inside a gate of 2");
                order.lock().unwrap().push(i);
                std::thread::sleep(Duration::from_millis(5));
                inside.fetch_sub(1, Ordering::SeqCst);
            }));
            // Let thread i take its ticket before thread i+1 starts.
            while gate.lock().queue.len() < i + 1 {
                std::thread::yield_now();
            }
        }
        drop(a);
        drop(b);
        for h in handles {
            h.join().unwrap();
        }
        let order = order.lock().unwrap().clone();
        // Permits pass in queue order; with two inside, neighbours may log their entry in
        // swapped order, but none is more than one place off.
        for (pos, &i) in order.iter().enumerate() {
            assert!(i <= pos + 1 && pos <= i + 1, "entry order {order:?}");
        }
    }

    #[test]
    fn a_single_permit_serializes() {
        let gate = Arc::new(FairGate::new(1));
        let inside = Arc::new(AtomicUsize::new(0));
        let start = Arc::new(Barrier::new(8));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let (gate, inside, start) = (gate.clone(), inside.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    for _ in 0..50 {
                        let _p = gate.enter();
                        assert_eq!(inside.fetch_add(1, Ordering::SeqCst), 0);
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        let s = gate.lock();
        assert_eq!((s.inside, s.queue.len()), (0, 0));
    }
}
