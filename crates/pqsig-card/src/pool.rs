//! The pooled driver's buffers: the window's [`regs::SLOTS`] slots, shared by
//! synchronous calls and asynchronous requests (tickets,
//! `KernelDevice::submit_mldsa`), and what each slot holds in flight.
//!
//! Slots are taken in strict rotation, as the card serves them (round-robin), so the
//! card computes requests in the order they were rung and the host's completion
//! predictions hold. A caller that needs the next slot while it is still in flight
//! retires it first: it waits for that request and copies the result out — into its own
//! data when the request is its own, otherwise into the owning ticket's staging
//! buffer, from which `complete` later copies it. So no caller ever waits for another
//! caller, and a ticket never blocks a synchronous call (or the other way round).

use crate::client::{Completed, Conn};
use crate::device::{expected, ns, Breakdown, Fail};
use crate::regs::{self, Mode, Status};
use std::collections::HashMap;
use std::time::Instant;

/// The owner id of a synchronous call's requests (tickets start at 1).
pub(crate) const SYNC: u64 = 0;

/// One request in a slot.
struct Piece {
    owner: u64,
    seq: u32,
    /// Its bytes in the owner's data.
    lo: usize,
    hi: usize,
    polys: usize,
}

/// An asynchronous request: one or more slot requests (pieces) and their results.
pub(crate) struct Ticket {
    pub len: usize,
    /// Results of pieces another caller retired: (offset in the ticket's data, bytes).
    staged: Vec<(usize, Vec<u8>)>,
    pub in_flight: usize,
    /// The first error status of a piece, or `Link` when the connection broke.
    pub failed: Option<Fail>,
    /// Requests, polynomials and device time of its pieces (the time of the calls
    /// made for it is kept by the caller).
    pub b: Breakdown,
    pub abandoned: bool,
}

/// The slots and the tickets using them.
#[derive(Default)]
pub(crate) struct Pool {
    slots: [Option<Piece>; regs::SLOTS],
    cursor: usize,
    next_ticket: u64,
    pub tickets: HashMap<u64, Ticket>,
}

impl Pool {
    /// A new ticket for `len` bytes of `polys` polynomials.
    pub fn open(&mut self, len: usize, polys: usize) -> u64 {
        self.next_ticket += 1;
        let id = self.next_ticket;
        self.tickets.insert(
            id,
            Ticket {
                len,
                staged: Vec::new(),
                in_flight: 0,
                failed: None,
                b: Breakdown {
                    calls: 1,
                    polys: polys as u64,
                    ..Breakdown::default()
                },
                abandoned: false,
            },
        );
        id
    }

    /// The next slot in rotation, free: whatever it still holds is retired first
    /// (results into `data` when `owner`'s, else into the owning ticket). Returns the
    /// slot and, when the retired request was `owner`'s, its status.
    pub fn acquire(
        &mut self,
        conn: &Conn,
        owner: u64,
        data: &mut [u8],
        b: &mut Breakdown,
    ) -> Result<(usize, Option<Status>), Fail> {
        let slot = self.cursor;
        self.cursor = (slot + 1) % regs::SLOTS;
        let mine = self.slots[slot].as_ref().is_some_and(|p| p.owner == owner);
        let status = self.retire(conn, slot, owner, data, b)?;
        Ok((slot, mine.then_some(status).flatten()))
    }

    /// Copies `src` into `slot`'s buffer and rings it as `owner`'s request for bytes
    /// `lo..lo + src.len()` of its data.
    #[allow(clippy::too_many_arguments)]
    pub fn issue(
        &mut self,
        conn: &mut Conn,
        slot: usize,
        owner: u64,
        mode: Mode,
        src: &[u8],
        lo: usize,
        b: &mut Breakdown,
    ) {
        let polys = src.len() / mode.poly_bytes();
        let t = Instant::now();
        conn.window_write(slot * regs::SLOT_BYTES, src);
        b.transfer_ns += ns(t);
        let t = Instant::now();
        let seq = conn.submit(
            slot,
            0,
            (slot * regs::SLOT_BYTES) as u64,
            mode.encode(),
            polys as u32,
        );
        b.ring_ns += ns(t);
        self.slots[slot] = Some(Piece {
            owner,
            seq,
            lo,
            hi: lo + src.len(),
            polys,
        });
        if let Some(t) = self.tickets.get_mut(&owner) {
            t.in_flight += 1;
        }
    }

    /// The slots holding `owner`'s requests, in the order they were rung.
    pub fn slots_of(&self, owner: u64) -> Vec<usize> {
        (0..regs::SLOTS)
            .map(|k| (self.cursor + k) % regs::SLOTS)
            .filter(|&s| self.slots[s].as_ref().is_some_and(|p| p.owner == owner))
            .collect()
    }

    /// Waits for `slot`'s request (if any) and frees the slot: results of `owner`'s
    /// request go into `data`, others' into their ticket. Returns the request's status
    /// (`None` for an empty slot). The wait and copies count in `b` (the caller's time);
    /// the request itself in its owner's breakdown (`b` for `owner`).
    pub fn retire(
        &mut self,
        conn: &Conn,
        slot: usize,
        owner: u64,
        data: &mut [u8],
        b: &mut Breakdown,
    ) -> Result<Option<Status>, Fail> {
        let Some(p) = self.slots[slot].take() else {
            return Ok(None);
        };
        let t = Instant::now();
        let c: Completed = match conn.wait(slot, p.seq, expected(p.polys)) {
            Ok(c) => c,
            Err(_) => return Err(Fail::Link),
        };
        b.wait_ns += ns(t);
        let status = c.status();
        if p.owner == owner {
            b.completed(&c);
            if status == Status::Ok {
                let t = Instant::now();
                conn.window_read(slot * regs::SLOT_BYTES, &mut data[p.lo..p.hi]);
                b.transfer_ns += ns(t);
            }
            return Ok(Some(status));
        }
        let Some(tk) = self.tickets.get_mut(&p.owner) else {
            return Ok(Some(status));
        };
        tk.in_flight -= 1;
        tk.b.completed(&c);
        if status != Status::Ok {
            tk.failed.get_or_insert(Fail::Status(status));
        } else if !tk.abandoned {
            let mut v = vec![0u8; p.hi - p.lo];
            let t = Instant::now();
            conn.window_read(slot * regs::SLOT_BYTES, &mut v);
            b.transfer_ns += ns(t);
            tk.staged.push((p.lo, v));
        }
        if tk.abandoned && tk.in_flight == 0 {
            self.tickets.remove(&p.owner);
        }
        Ok(Some(status))
    }

    /// Copies ticket `id`'s staged results into `data`; returns the bytes copied.
    pub fn unstage(&mut self, id: u64, data: &mut [u8], b: &mut Breakdown) -> usize {
        let Some(tk) = self.tickets.get_mut(&id) else {
            return 0;
        };
        let t = Instant::now();
        let mut n = 0;
        for (lo, v) in tk.staged.drain(..) {
            data[lo..lo + v.len()].copy_from_slice(&v);
            n += v.len();
        }
        b.transfer_ns += ns(t);
        n
    }

    /// Ticket `id` is not wanted any more: forgotten now, or once its requests are
    /// retired.
    pub fn cancel(&mut self, id: u64) {
        if let Some(tk) = self.tickets.get_mut(&id) {
            tk.abandoned = true;
            tk.staged.clear();
            if tk.in_flight == 0 {
                self.tickets.remove(&id);
            }
        }
    }

    /// The connection is gone: nothing is in flight any more, and every ticket that
    /// had requests in flight has failed.
    pub fn broken(&mut self) {
        self.slots = Default::default();
        self.cursor = 0;
        self.tickets.retain(|_, t| !t.abandoned);
        for t in self.tickets.values_mut() {
            if t.in_flight > 0 {
                t.in_flight = 0;
                t.failed = Some(Fail::Link);
            }
        }
    }
}
