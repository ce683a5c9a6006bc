//! The cost of the kernel-device seam (`kernels/device.rs`, `serve_mldsa`): what the
//! library adds around a device's ML-DSA request — the backup of the input (kept so a
//! failed or out-of-bound reply can be undone and run on the CPU), its wipe, and the
//! output bound check.
//!
//! A zero-cost "echo" device runs the CPU kernel itself inside `transform_mldsa`. Per
//! batch size the example times, interleaved, (a) the echo device called directly and
//! (b) the same device behind the seam (the process-wide slot, through the routed
//! kernel table); (b) − (a) is the seam as built into the library. Also (c): the echo
//! device wrapped by a replica of the library's backup (a fresh `Zeroizing<Vec>` copy
//! per request, wiped and freed on drop, then the bound check), the yardstick when the
//! library is built with a variant of the seam; (c) − (a) is that replica. Prints one JSON line per batch size with
//! the medians in ns and both seams per polynomial, and the parts alone: the output
//! bound check, and the backup copy with its wipe.
//!
//! Run: `cargo run -p pqsig-card --example seam` (an example of pqsig-card, not of
//! pqsig, so that it shares the library build of the card and the CLI).

use pqsig::batch::{self, KernelDevice, MlDsaPoly, TransformMode};
use pqsig::kernels::mldsa::{base_kernels, kernels, Q};
use pqsig::{Backend, DeviceError};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

struct Echo(Backend);

impl KernelDevice for Echo {
    fn name(&self) -> String {
        "echo".into()
    }
    fn max_polys(&self) -> usize {
        4096
    }
    fn supports(&self, mode: TransformMode) -> bool {
        mode == TransformMode::MlDsaNtt
    }
    fn transform_mldsa(
        &self,
        _: TransformMode,
        polys: &mut [MlDsaPoly],
    ) -> Result<(), DeviceError> {
        (base_kernels(self.0).ntt)(polys);
        Ok(())
    }
    fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() {
    let backend = pqsig::backend::active();
    let echo = Arc::new(Echo(backend));
    batch::set_kernel_device(Some(echo.clone()));
    let routed = kernels(backend);
    let mut seed = 1u64;
    let mut fresh = |n: usize| -> Vec<MlDsaPoly> {
        (0..n)
            .map(|_| {
                let mut p = MlDsaPoly::default();
                for c in p.coeffs.iter_mut() {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    *c = ((seed >> 33) % (2 * Q as u64 - 1)) as i32 - (Q - 1);
                }
                p
            })
            .collect()
    };
    for &n in &[1usize, 4, 16, 64, 256, 1024] {
        let reps = (20_000 / n).clamp(30, 5000);
        let input = fresh(n);
        let (mut direct, mut seam, mut old) = (Vec::new(), Vec::new(), Vec::new());
        let (mut check, mut copy) = (Vec::new(), Vec::new());
        let mut spare = input.clone();
        let mut buf = input.clone();
        for _ in 0..reps {
            buf.copy_from_slice(&input);
            let t = Instant::now();
            echo.transform_mldsa(TransformMode::MlDsaNtt, black_box(&mut buf))
                .unwrap();
            direct.push(t.elapsed().as_nanos() as u64);
            buf.copy_from_slice(&input);
            let t = Instant::now();
            (routed.ntt)(black_box(&mut buf));
            seam.push(t.elapsed().as_nanos() as u64);
            buf.copy_from_slice(&input);
            let t = Instant::now();
            {
                let backup = zeroize::Zeroizing::new(buf.to_vec());
                let ok = echo
                    .transform_mldsa(TransformMode::MlDsaNtt, black_box(&mut buf))
                    .is_ok()
                    && buf
                        .iter()
                        .all(|p| p.coeffs.iter().all(|&c| c > -9 * Q && c < 9 * Q));
                if !ok {
                    buf.copy_from_slice(&backup);
                }
            }
            old.push(t.elapsed().as_nanos() as u64);
            // The parts alone: the output bound check; the backup copy and its wipe.
            let t = Instant::now();
            let ok = black_box(&buf)
                .iter()
                .all(|p| p.coeffs.iter().all(|&c| c > -9 * Q && c < 9 * Q));
            black_box(ok);
            check.push(t.elapsed().as_nanos() as u64);
            let t = Instant::now();
            spare.copy_from_slice(black_box(&buf));
            for p in spare.iter_mut() {
                zeroize::Zeroize::zeroize(p);
            }
            black_box(&spare);
            copy.push(t.elapsed().as_nanos() as u64);
        }
        let (d, s, o) = (median(direct), median(seam), median(old));
        println!(
            "{{\"backend\":\"{backend}\",\"polys\":{n},\"direct_ns\":{d},\"through_seam_ns\":{s},\
             \"seam_ns\":{},\"seam_ns_per_poly\":{:.3},\"replica_seam_ns_per_poly\":{:.3},\
             \"bound_check_ns_per_poly\":{:.3},\"copy_and_wipe_ns_per_poly\":{:.3}}}",
            s as i64 - d as i64,
            (s as f64 - d as f64) / n as f64,
            (o as f64 - d as f64) / n as f64,
            median(check) as f64 / n as f64,
            median(copy) as f64 / n as f64
        );
    }
    batch::set_kernel_device(None);
}
