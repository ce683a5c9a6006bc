//! The card behind QEMU's `ivshmem-plain` PCI device: `pqsig card --ivshmem FILE`.
//!
//! QEMU maps FILE (`-object memory-backend-file,share=on,mem-path=FILE`) as BAR2 of
//! the guest's ivshmem device; the card maps the same file. Its layout is one
//! client's memory of the socket card ([`crate::regs`]): the register page at 0, the
//! data window at [`regs::WINDOW_OFFSET`]; the file is [`IVSHMEM_BYTES`] long because
//! ivshmem wants a power of two. The guest's driver (hw/linux/ntt_hw.c) uses slot 0;
//! the window is split by the driver, not here.
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
use crate::card::{serve_one, ClientState, Counters};
use crate::regs;
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

const _: () = assert!(regs::WINDOW_OFFSET + regs::WINDOW_LEN <= IVSHMEM_BYTES);
const _: () = assert!(IVSHMEM_BYTES.is_power_of_two());

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

/// Serves the shared file until `stop` is set: polls every slot's start register and
/// serves what changed, in ring order.
pub fn serve(
    page: Mapping,
    accel: &dyn Accelerator,
    counters: &Counters,
    stop: &AtomicBool,
    spin: Duration,
) {
    let st = ClientState::new(page);
    st.init_header(accel);
    let r = st.regs();
    // What is in `start` now was served before (or is garbage): only changes count.
    let mut served: [u32; regs::SLOTS] =
        core::array::from_fn(|i| r.slots[i].start.load(Ordering::Acquire));
    let mut last_work = Instant::now();
    while !stop.load(Ordering::Acquire) {
        let mut worked = false;
        for (i, seen) in served.iter_mut().enumerate() {
            let start = r.slots[i].start.load(Ordering::Acquire);
            if start != *seen {
                *seen = start;
                serve_one(&st, i, start, accel, counters);
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
                st.init_header(accel);
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

    /// A request written into the file as the guest driver writes it is served.
    #[test]
    fn serves_a_request_through_the_file() {
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
        while r.header.magic.load(Ordering::Acquire) != regs::MAGIC {
            std::thread::yield_now();
        }
        let poly: Vec<u8> = (0..256i32)
            .flat_map(|i| (i * 1000 - 5000).to_le_bytes())
            .collect();
        assert!(guest.write(regs::WINDOW_OFFSET + 4096, &poly));
        let s = &r.slots[0];
        s.region.store(0, Ordering::Relaxed);
        s.offset.store(4096, Ordering::Relaxed);
        s.mode.store(Mode::MlDsaNtt.encode(), Ordering::Relaxed);
        s.num_polys.store(1, Ordering::Relaxed);
        let seq = s.start.load(Ordering::Relaxed).wrapping_add(1);
        s.start.store(seq, Ordering::SeqCst);
        let t0 = Instant::now();
        while s.done.load(Ordering::Acquire) != seq {
            assert!(t0.elapsed() < Duration::from_secs(10), "no completion");
            std::thread::yield_now();
        }
        assert_eq!(
            Status::from_u32(s.status.load(Ordering::Relaxed)),
            Status::Ok
        );
        let mut out = vec![0u8; 1024];
        assert!(guest.read(regs::WINDOW_OFFSET + 4096, &mut out));
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
        stop.store(true, Ordering::SeqCst);
        t.join().unwrap();
        let _ = std::fs::remove_file(&dir);
    }
}
