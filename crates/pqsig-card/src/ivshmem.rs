//! The card behind QEMU's `ivshmem-plain` PCI device: `pqsig card --ivshmem FILE`.
//!
//! QEMU maps FILE (`-object memory-backend-file,share=on,mem-path=FILE`) as BAR2 of
//! the guest's ivshmem device; the card maps the same file. Its layout is one
//! client's memory of the socket card ([`crate::regs`]): the register page at 0, the
//! data window at [`regs::WINDOW_OFFSET`]; the file is [`IVSHMEM_BYTES`] long because
//! ivshmem wants a power of two. The guest's driver (hw/linux/ntt_hw.c) uses slot 0;
//! the window is split by the driver into areas of [`regs::SLOT_BYTES`].
//!
//! **User slots.** Past the window lie [`regs::SLOTS`] more register sets, each on its
//! own page ([`USER_SLOTS_OFFSET`], [`regs::CAP_USER_SLOTS`] in the header): page `k`
//! may only name buffers inside area `k` of the window. The driver maps page `k` into
//! the one process that holds area `k`, which then submits with plain stores and polls
//! `done` in its own mapping: no system call per request, as the user-space card path
//! already has. The card, not the driver, is what checks those requests (it checks
//! every request anyway), so the bound is the area, whatever the process writes.
//!
//! Why a plain memory backend and polling, not `ivshmem-doorbell` and
//! `ivshmem-server`: there is exactly one guest and one card, so nothing needs the
//! server's peer bookkeeping, and the doorbell would only replace polling at one end
//! (MSI-X into the guest) while the card would still need an eventfd reader; polling
//! the start register here and the done register in the guest is the whole protocol,
//! the same registers as the socket card, and no futex can cross the VM boundary.
//! The cost is a card thread polling (it sleeps [`IDLE_SLEEP`] between reads when
//! idle) and a guest that polls (the driver sleeps between reads after 20 µs).

use crate::accel::Accelerator;
use crate::card::{serve_one, ClientState, Counters, Window};
use crate::regs::{self, Slot};
use crate::shm::Mapping;
use std::fs::OpenOptions;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bytes of the shared file (QEMU's `size=`): the register page and the 2 MiB window,
/// rounded up to a power of two.
pub const IVSHMEM_BYTES: usize = 4 << 20;

/// Bytes of one user slot page (the guest's page size: the driver maps one per process).
pub const USER_SLOT_PAGE: usize = 4096;
/// Where user slot page 0 is: right after the window.
pub const USER_SLOTS_OFFSET: usize = regs::WINDOW_OFFSET + regs::WINDOW_LEN;

const _: () = assert!(USER_SLOTS_OFFSET + regs::SLOTS * USER_SLOT_PAGE <= IVSHMEM_BYTES);
const _: () = assert!(core::mem::size_of::<Slot>() <= USER_SLOT_PAGE);
const _: () = assert!(regs::SLOTS * regs::SLOT_BYTES == regs::WINDOW_LEN);
const _: () = assert!(IVSHMEM_BYTES.is_power_of_two());

/// User slot `k` (< `regs::SLOTS`) of the shared memory.
fn user_slot(page: &Mapping, k: usize) -> &Slot {
    assert!(k < regs::SLOTS && page.len() >= IVSHMEM_BYTES);
    // SAFETY: the page of slot k lies inside the mapping (checked above, and the
    // constant assertions: USER_SLOTS_OFFSET + SLOTS pages <= IVSHMEM_BYTES), is page
    // aligned (the mapping is, and USER_SLOTS_OFFSET is a multiple of 4096, so of
    // Slot's 64), and Slot is all atomics: valid for any bytes the guest writes
    // concurrently. The borrow lives as long as the mapping's.
    unsafe { &*(page.as_ptr().add(USER_SLOTS_OFFSET + k * USER_SLOT_PAGE) as *const Slot) }
}

/// The part of the window user slot `k` may name: area `k`.
fn user_window(k: usize) -> Window {
    Window {
        base: regs::WINDOW_OFFSET + k * regs::SLOT_BYTES,
        len: regs::SLOT_BYTES,
    }
}

/// The card header, with the user slots announced and idle.
fn init(st: &ClientState, accel: &dyn Accelerator) {
    st.init_header(accel);
    let h = &st.regs().header;
    h.user_slots_offset
        .store(USER_SLOTS_OFFSET as u32, Ordering::Relaxed);
    for k in 0..regs::SLOTS {
        user_slot(&st.page, k).idle.store(1, Ordering::Relaxed);
    }
    // Last: a driver that sees the flag finds the rest in place.
    h.caps.store(regs::CAP_USER_SLOTS, Ordering::Release);
}

/// How long an idle card sleeps between looks at the start registers.
pub const IDLE_SLEEP: Duration = Duration::from_micros(100);

/// Maps `path` (created or grown to [`IVSHMEM_BYTES`]) and writes the card header.
pub fn map_file(path: &Path) -> std::io::Result<Mapping> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)?;
    if file.metadata()?.len() < IVSHMEM_BYTES as u64 {
        file.set_len(IVSHMEM_BYTES as u64)?;
    }
    Mapping::map(&file.into(), IVSHMEM_BYTES)
}

/// Serves the shared file until `stop` is set: polls the start register of every
/// slot (the register page's, then the user slots) and serves what changed, in ring
/// order.
pub fn serve(
    page: Mapping,
    accel: &dyn Accelerator,
    counters: &Counters,
    stop: &AtomicBool,
    spin: Duration,
) {
    let st = ClientState::new(page);
    init(&st, accel);
    let r = st.regs();
    // Every slot with the window it may name.
    let slots: Vec<(&Slot, Window)> = r
        .slots
        .iter()
        .map(|s| (s, Window::WHOLE))
        .chain((0..regs::SLOTS).map(|k| (user_slot(&st.page, k), user_window(k))))
        .collect();
    // What is in `start` now was served before (or is garbage): only changes count.
    let mut served: Vec<u32> = slots
        .iter()
        .map(|(s, _)| s.start.load(Ordering::Acquire))
        .collect();
    let mut last_work = Instant::now();
    while !stop.load(Ordering::Acquire) {
        let mut worked = false;
        for ((s, window), seen) in slots.iter().zip(served.iter_mut()) {
            let start = s.start.load(Ordering::Acquire);
            if start != *seen {
                *seen = start;
                serve_one(&st, s, *window, start, accel, counters);
                worked = true;
            }
        }
        if worked {
            last_work = Instant::now();
        } else if last_work.elapsed() < spin {
            core::hint::spin_loop();
        } else {
            // A guest that re-created the memory (QEMU restarted on a fresh file)
            // gets the header again.
            if r.header.magic.load(Ordering::Relaxed) != regs::MAGIC {
                init(&st, accel);
            }
            std::thread::sleep(IDLE_SLEEP);
        }
    }
}

/// `pqsig card --ivshmem FILE` in the foreground until SIGINT/SIGTERM; `ready` runs
/// once the file is mapped and the header written.
pub fn run_foreground(
    cfg: &crate::CardConfig,
    path: &Path,
    ready: impl FnOnce(),
) -> Result<Arc<Counters>, String> {
    let accel = cfg.accelerator()?;
    let page = map_file(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let stop = crate::stop_on_signals();
    let counters = Arc::new(Counters::default());
    let st_stop = stop.clone();
    ready();
    serve(page, &*accel, &counters, &st_stop, cfg.spin);
    Ok(counters)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regs::{Mode, RegPage, Status};

    /// Writes a request into `s` as the guest (driver or user process) does and waits
    /// for its completion; returns the status.
    fn submit(s: &Slot, region: u32, offset: u64, num_polys: u32) -> Status {
        s.region.store(region, Ordering::Relaxed);
        s.offset.store(offset, Ordering::Relaxed);
        s.mode.store(Mode::MlDsaNtt.encode(), Ordering::Relaxed);
        s.num_polys.store(num_polys, Ordering::Relaxed);
        let seq = s.start.load(Ordering::Relaxed).wrapping_add(1);
        s.start.store(seq, Ordering::SeqCst);
        let t0 = Instant::now();
        while s.done.load(Ordering::Acquire) != seq {
            assert!(t0.elapsed() < Duration::from_secs(10), "no completion");
            std::thread::yield_now();
        }
        Status::from_u32(s.status.load(Ordering::Relaxed))
    }

    fn poly_bytes() -> Vec<u8> {
        (0..256i32)
            .flat_map(|i| (i * 1000 - 5000).to_le_bytes())
            .collect()
    }

    /// Checks that the bytes at `at` of the memory are the NTT of [`poly_bytes`].
    fn check_ntt(guest: &Mapping, at: usize) {
        let poly = poly_bytes();
        let mut out = vec![0u8; 1024];
        assert!(guest.read(at, &mut out));
        let mut want = [0i32; 256];
        for (w, c) in want.iter_mut().zip(poly.chunks_exact(4)) {
            *w = i32::from_le_bytes(c.try_into().unwrap());
        }
        let mut p = [pqsig::kernels::mldsa::Poly { coeffs: want }];
        (pqsig::kernels::mldsa::base_kernels(pqsig::backend::active()).ntt)(&mut p);
        let p = p[0];
        let got: Vec<i32> = out
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let q = 8_380_417i64;
        for (g, w) in got.iter().zip(p.coeffs.iter()) {
            assert_eq!((*g as i64 - *w as i64).rem_euclid(q), 0);
        }
    }

    /// Requests written into the file as the guest driver writes them (register page)
    /// and as a user process writes them (user slot) are served, and a user slot cannot
    /// name memory outside its area.
    #[test]
    fn serves_register_and_user_slots_through_the_file() {
        let dir = std::env::temp_dir().join(format!("pqsig-ivshmem-{}", std::process::id()));
        let cfg = crate::CardConfig::new(dir.clone());
        let accel = cfg.accelerator().unwrap();
        let guest = map_file(&dir).unwrap();
        let card_page = map_file(&dir).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let counters = Arc::new(Counters::default());
        let t = {
            let (stop, counters) = (stop.clone(), counters.clone());
            std::thread::spawn(move || serve(card_page, &*accel, &counters, &stop, Duration::ZERO))
        };
        // SAFETY: the mapping is IVSHMEM_BYTES long and page aligned; RegPage is atomics.
        let r = unsafe { &*(guest.as_ptr() as *const RegPage) };
        while r.header.caps.load(Ordering::Acquire) != regs::CAP_USER_SLOTS {
            std::thread::yield_now();
        }
        assert_eq!(r.header.magic.load(Ordering::Relaxed), regs::MAGIC);
        assert_eq!(
            r.header.user_slots_offset.load(Ordering::Relaxed) as usize,
            USER_SLOTS_OFFSET
        );
        let poly = poly_bytes();

        // The driver's slot 0: anywhere in the window.
        let at = regs::WINDOW_OFFSET + 3 * regs::SLOT_BYTES + 4096;
        assert!(guest.write(at, &poly));
        let off = (at - regs::WINDOW_OFFSET) as u64;
        assert_eq!(submit(&r.slots[0], 0, off, 1), Status::Ok);
        check_ntt(&guest, at);

        // User slot 1: offsets are relative to area 1, and inside it.
        let u = user_slot(&guest, 1);
        assert_eq!(u.idle.load(Ordering::Relaxed), 1);
        let area1 = regs::SLOT_BYTES as u64;
        let at = regs::WINDOW_OFFSET + regs::SLOT_BYTES + 2048;
        assert!(guest.write(at, &poly));
        assert_eq!(submit(u, 0, 2048, 1), Status::Ok);
        check_ntt(&guest, at);
        // Past its end (into area 2), straddling it, misaligned, far out, a region.
        let area2 = regs::WINDOW_OFFSET + 2 * regs::SLOT_BYTES;
        let before = {
            let mut b = vec![0u8; 2048];
            assert!(guest.read(area2, &mut b));
            b
        };
        for (region, offset, n) in [
            (0, area1, 1),
            (0, area1 - 1024, 2),
            (0, 2, 1),
            (0, u64::MAX - 16, 1),
            (1, 0, 1),
        ] {
            assert_eq!(
                submit(u, region, offset, n),
                Status::BadRange,
                "{offset:#x}"
            );
        }
        let mut after = vec![0u8; 2048];
        assert!(guest.read(area2, &mut after));
        assert_eq!(before, after, "area 2 untouched");
        // Too many polynomials for any request; more than the area holds.
        assert_eq!(submit(u, 0, 0, regs::MAX_POLYS + 1), Status::TooManyPolys);
        assert_eq!(submit(u, 0, 0, 513), Status::BadRange);

        stop.store(true, Ordering::SeqCst);
        t.join().unwrap();
        let _ = std::fs::remove_file(&dir);
    }
}
