//! Every NIST ACVP ML-DSA vector (75 keyGen, 360 sigGen, 180 sigVer) with the simulated
//! accelerator installed as the process-wide kernel device: every ML-DSA NTT and INTT of
//! keygen, signing and verification is a request to the Verilator model of hw/ntt.
//!
//! The cases are the library's own (`crates/pqsig/tests/common/acvp_mldsa_cases.rs`),
//! run on the default backend only: the device replaces that backend's transforms, and
//! the other backends' transforms are checked against the device's in
//! `rtl_vs_kernels.rs`. The seam falls back to the CPU when a request fails, which would
//! hide a broken device; the counting wrapper below makes the test fail instead.

#[path = "../../pqsig/tests/common/acvp_mldsa_cases.rs"]
mod cases;
#[path = "../../pqsig/tests/common/mod.rs"]
mod common;

use pqsig::batch::{self, KernelDevice, MlDsaPoly, RequestCycles, TransformMode};
use pqsig::DeviceError;
use pqsig_hwsim::RtlNttDevice;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// `rtl-ntt`, counting the requests it served and the ones that failed.
struct Counted {
    inner: RtlNttDevice,
    served: AtomicU64,
    polys: AtomicU64,
    failed: AtomicU64,
}

impl KernelDevice for Counted {
    fn name(&self) -> String {
        "rtl-ntt-counted".into()
    }
    fn description(&self) -> String {
        self.inner.description()
    }
    fn max_polys(&self) -> usize {
        self.inner.max_polys()
    }
    fn supports(&self, mode: TransformMode) -> bool {
        self.inner.supports(mode)
    }
    fn transform_mldsa(
        &self,
        mode: TransformMode,
        polys: &mut [MlDsaPoly],
    ) -> Result<(), DeviceError> {
        let r = self.inner.transform_mldsa(mode, polys);
        match r {
            Ok(()) => {
                self.served.fetch_add(1, Ordering::Relaxed);
                self.polys.fetch_add(polys.len() as u64, Ordering::Relaxed);
            }
            Err(_) => {
                self.failed.fetch_add(1, Ordering::Relaxed);
            }
        }
        r
    }
    fn transform_falcon(&self, mode: TransformMode, coeffs: &mut [u16]) -> Result<(), DeviceError> {
        self.inner.transform_falcon(mode, coeffs)
    }
    fn last_cycles(&self) -> Option<RequestCycles> {
        self.inner.last_cycles()
    }
}

/// The slot is process-wide: the three suites take turns, each with the device installed.
static SLOT: Mutex<()> = Mutex::new(());

fn with_device(what: &str, run: impl FnOnce()) {
    let _turn = SLOT.lock().unwrap_or_else(|e| e.into_inner());
    let dev = Arc::new(Counted {
        inner: RtlNttDevice::new().expect("rtl-ntt model"),
        served: AtomicU64::new(0),
        polys: AtomicU64::new(0),
        failed: AtomicU64::new(0),
    });
    batch::set_kernel_device(Some(dev.clone()));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run));
    batch::set_kernel_device(None);
    if let Err(e) = r {
        std::panic::resume_unwind(e);
    }
    let (served, polys, failed) = (
        dev.served.load(Ordering::Relaxed),
        dev.polys.load(Ordering::Relaxed),
        dev.failed.load(Ordering::Relaxed),
    );
    eprintln!("{what}: {served} requests, {polys} polynomials through rtl-ntt, {failed} failed");
    assert_eq!(
        failed, 0,
        "{what}: device requests failed (the CPU fallback ran)"
    );
    assert!(served > 0, "{what}: the device served nothing");
}

fn default_backend() -> Vec<pqsig::Backend> {
    vec![pqsig::backend::active()]
}

#[test]
fn acvp_keygen_through_rtl_ntt() {
    with_device("keyGen", || cases::keygen(&default_backend()));
}

#[test]
fn acvp_siggen_through_rtl_ntt() {
    with_device("sigGen", || cases::siggen(&default_backend()));
}

#[test]
fn acvp_sigver_through_rtl_ntt() {
    with_device("sigVer", || cases::sigver(&default_backend()));
}
