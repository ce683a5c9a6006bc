//! In-memory caches of decoded keys by key id, so the hot path (sign, verify with a
//! stored key) neither touches the store nor decrypts/expands a seed per request.
//! Entries are re-validated against the store after a TTL, so a key deleted by another
//! instance stops working here within that time. Signing keys zeroize themselves on drop
//! (pqsig's key types), so evicting an entry wipes it once the last request using it ends.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// One cached value with the time the store last confirmed the key is live.
struct Entry<T> {
    value: Arc<T>,
    checked: Instant,
}

/// A cache of `T` (a signing or verifying key) by key id.
pub struct KeyCache<T> {
    ttl: Duration,
    map: RwLock<HashMap<String, Entry<T>>>,
}

/// What a lookup found.
pub enum Lookup<T> {
    /// Cached and confirmed within the TTL: use it.
    Fresh(Arc<T>),
    /// Cached but due for a liveness check against the store.
    Stale(Arc<T>),
    /// Not cached.
    Missing,
}

impl<T> KeyCache<T> {
    /// An empty cache whose entries are trusted for `ttl`.
    pub fn new(ttl: Duration) -> Self {
        KeyCache {
            ttl,
            map: RwLock::new(HashMap::new()),
        }
    }

    /// Looks a key id up.
    pub fn get(&self, id: &str) -> Lookup<T> {
        let map = self.map.read().unwrap_or_else(|p| p.into_inner());
        match map.get(id) {
            Some(e) if e.checked.elapsed() < self.ttl => Lookup::Fresh(e.value.clone()),
            Some(e) => Lookup::Stale(e.value.clone()),
            None => Lookup::Missing,
        }
    }

    /// Inserts or refreshes an entry (the store has just confirmed the key is live).
    pub fn put(&self, id: &str, value: Arc<T>) {
        let mut map = self.map.write().unwrap_or_else(|p| p.into_inner());
        map.insert(
            id.to_string(),
            Entry {
                value,
                checked: Instant::now(),
            },
        );
    }

    /// Drops an entry (key deleted).
    pub fn evict(&self, id: &str) {
        self.map
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
    }
}
