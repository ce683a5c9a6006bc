//! Connection admission: at most `global` open connections, and at most `per_ip` from
//! one peer address. A connection over either limit is refused at accept time, before
//! it can hold a buffer, a task or a descriptor for long.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Counts open connections, globally and per peer address.
#[derive(Debug)]
pub struct ConnLimiter {
    global: usize,
    per_ip: usize,
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
}

/// One admitted connection; releases its place on drop.
#[derive(Debug)]
pub struct ConnGuard {
    limiter: Arc<ConnLimiter>,
    ip: Option<IpAddr>,
}

impl ConnLimiter {
    /// A limiter for `global` connections, `per_ip` of them from one address.
    pub fn new(global: usize, per_ip: usize) -> Arc<Self> {
        Arc::new(ConnLimiter {
            global: global.max(1),
            per_ip: per_ip.max(1),
            open: Mutex::new((0, HashMap::new())),
        })
    }

    /// Admits a connection from `ip` (`None`: a Unix socket, counted globally only), or
    /// `None` when a limit is reached.
    pub fn try_admit(self: &Arc<Self>, ip: Option<IpAddr>) -> Option<ConnGuard> {
        let mut g = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if g.0 >= self.global {
            return None;
        }
        if let Some(ip) = ip {
            let n = g.1.entry(ip).or_insert(0);
            if *n >= self.per_ip {
                return None;
            }
            *n += 1;
        }
        g.0 += 1;
        Some(ConnGuard {
            limiter: self.clone(),
            ip,
        })
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).0
    }
}

impl Drop for ConnGuard {
    fn drop(&mut self) {
        let mut g = self.limiter.open.lock().unwrap_or_else(|p| p.into_inner());
        g.0 = g.0.saturating_sub(1);
        if let Some(ip) = self.ip {
            if let Some(n) = g.1.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    g.1.remove(&ip);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_and_per_ip_limits_release_on_drop() {
        let l = ConnLimiter::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = l.try_admit(Some(a)).unwrap();
        let _a2 = l.try_admit(Some(a)).unwrap();
        assert!(l.try_admit(Some(a)).is_none(), "per-ip limit");
        let _b1 = l.try_admit(Some(b)).unwrap();
        assert!(l.try_admit(Some(b)).is_none(), "global limit");
        assert!(
            l.try_admit(None).is_none(),
            "global limit counts unix sockets"
        );
        drop(a1);
        assert_eq!(l.open(), 2);
        assert!(l.try_admit(Some(a)).is_some());
    }
}
