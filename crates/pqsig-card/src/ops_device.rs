//! `card-verify`: the card as a whole-operation device of the batch engine
//! (`pqsig::batch::Device`): each verification job is one request — the items
//! serialised into a buffer the card allocates for the job ([`crate::ops`]), one
//! doorbell, one completion — and the card verifies them on its CPU engine. Jobs take
//! milliseconds, so the per-job allocation round trip is small beside them; up to
//! [`regs::SLOTS`] jobs are in flight. Signing jobs are declined (they run on the
//! host's CPU engine).

use crate::client::Conn;
use crate::device::Breakdown;
use crate::ops;
use crate::regs::{self, Mode, Status};
use crate::shm::Mapping;
use pqsig::batch::{Capabilities, Device, DeviceInfo, Job, JobOutput, Operation, Ticket};
use pqsig::{Algorithm, DeviceError};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

struct Pending {
    slot: usize,
    seq: u32,
    region: u32,
    buf: Mapping,
    items: usize,
    submitted: Instant,
    transfer_ns: u64,
}

#[derive(Default)]
struct State {
    conn: Option<Conn>,
    failed_at: Option<Instant>,
    next: u64,
    pending: HashMap<u64, Pending>,
    totals: Breakdown,
}

/// The card's CPU engine as a batch device.
pub struct CardVerify {
    path: PathBuf,
    state: Mutex<State>,
}

impl CardVerify {
    pub fn new(path: PathBuf) -> CardVerify {
        CardVerify {
            path,
            state: Mutex::default(),
        }
    }

    /// Sums over completed jobs since the last reset (e2e from submit to answer).
    pub fn stats(&self) -> Breakdown {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .totals
    }

    pub fn reset_stats(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .totals = Breakdown::default();
    }

    /// Collects job `p` (done), frees its buffer, decodes its results.
    fn finish(st: &mut State, p: Pending, wait_ns: u64) -> Result<JobOutput, DeviceError> {
        let conn = st.conn.as_mut().ok_or(DeviceError::Failed)?;
        let c = conn
            .wait(p.slot, p.seq, Duration::ZERO)
            .map_err(|_| DeviceError::Failed)?;
        let t = Instant::now();
        let mut bytes = vec![0u8; p.items];
        let read = p.buf.read(0, &mut bytes);
        let transfer_ns = p.transfer_ns + t.elapsed().as_nanos() as u64;
        drop(p.buf);
        let freed = conn.free(p.region);
        if freed.is_err() {
            st.conn = None;
        }
        if !read || c.status() != Status::Ok {
            return Err(DeviceError::Failed);
        }
        let out: Option<Vec<_>> = bytes.iter().map(|&b| ops::decode_error(b)).collect();
        let out = out.ok_or(DeviceError::Failed)?;
        let e2e = p.submitted.elapsed().as_nanos() as u64;
        let b = Breakdown {
            calls: 1,
            requests: 1,
            polys: p.items as u64,
            e2e_ns: e2e,
            transfer_ns,
            wait_ns,
            host_ns: e2e.saturating_sub(transfer_ns + wait_ns),
            device_ns: c.device_ns,
            ..Breakdown::default()
        };
        st.totals.calls += 1;
        st.totals.requests += 1;
        st.totals.polys += b.polys;
        st.totals.e2e_ns += b.e2e_ns;
        st.totals.transfer_ns += b.transfer_ns;
        st.totals.wait_ns += b.wait_ns;
        st.totals.host_ns += b.host_ns;
        st.totals.device_ns += b.device_ns;
        Ok(JobOutput::Verify(out))
    }
}

impl Device for CardVerify {
    fn info(&self) -> DeviceInfo {
        DeviceInfo {
            name: "card-verify".into(),
            description: format!(
                "card at {}: whole verification batches on the card's CPU engine (one request \
                 per job)",
                self.path.display()
            ),
        }
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            algorithms: Algorithm::ALL.to_vec(),
            operations: vec![Operation::Verify],
            preferred_batch: 256,
            max_batch: ops::MAX_ITEMS as usize,
            max_in_flight: regs::SLOTS,
            timeout: Duration::from_secs(60),
        }
    }

    fn submit(&self, job: Job) -> Result<Ticket, DeviceError> {
        let Job::Verify(items) = job else {
            return Err(DeviceError::Declined);
        };
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if st.pending.len() >= regs::SLOTS {
            return Err(DeviceError::Busy);
        }
        if st.conn.is_none() {
            if st
                .failed_at
                .is_some_and(|t| t.elapsed() < crate::device::RETRY)
            {
                return Err(DeviceError::Failed);
            }
            match Conn::connect(&self.path) {
                Ok(c) => st.conn = Some(c),
                Err(_) => {
                    st.failed_at = Some(Instant::now());
                    return Err(DeviceError::Failed);
                }
            }
        }
        let submitted = Instant::now();
        let data = ops::encode_verify(&items).ok_or(DeviceError::Declined)?;
        let slot = (0..regs::SLOTS)
            .find(|s| st.pending.values().all(|p| p.slot != *s))
            .ok_or(DeviceError::Busy)?;
        let conn = st.conn.as_mut().ok_or(DeviceError::Failed)?;
        let Ok((region, buf)) = conn.alloc(data.len().max(items.len()).max(1)) else {
            st.conn = None;
            return Err(DeviceError::Failed);
        };
        let t = Instant::now();
        buf.write(0, &data);
        let transfer_ns = t.elapsed().as_nanos() as u64;
        let seq = conn.submit(slot, region, 0, Mode::Verify.encode(), items.len() as u32);
        st.next += 1;
        let ticket = st.next;
        st.pending.insert(
            ticket,
            Pending {
                slot,
                seq,
                region,
                buf,
                items: items.len(),
                submitted,
                transfer_ns,
            },
        );
        Ok(Ticket(ticket))
    }

    fn poll(&self, ticket: Ticket) -> Option<Result<JobOutput, DeviceError>> {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(p) = st.pending.get(&ticket.0) else {
            return Some(Err(DeviceError::Failed));
        };
        let done = st.conn.as_ref().is_some_and(|c| {
            c.regs().slots[p.slot]
                .done
                .load(std::sync::atomic::Ordering::Acquire)
                == p.seq
        });
        if !done && st.conn.is_some() {
            return None;
        }
        let p = st.pending.remove(&ticket.0)?;
        Some(Self::finish(&mut st, p, 0))
    }

    fn wait(&self, ticket: Ticket, timeout: Duration) -> Result<JobOutput, DeviceError> {
        let mut st = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let p = st.pending.remove(&ticket.0).ok_or(DeviceError::Failed)?;
        let t = Instant::now();
        let waited = match st.conn.as_mut() {
            Some(c) => {
                let saved = c.timeout;
                c.timeout = timeout;
                let r = c.wait(p.slot, p.seq, Duration::ZERO);
                c.timeout = saved;
                r
            }
            None => return Err(DeviceError::Failed),
        };
        let wait_ns = t.elapsed().as_nanos() as u64;
        match waited {
            Ok(_) => Self::finish(&mut st, p, wait_ns),
            Err(_) => {
                // The card may still write into this buffer: forget the connection.
                st.conn = None;
                st.pending.clear();
                Err(DeviceError::TimedOut)
            }
        }
    }
}
