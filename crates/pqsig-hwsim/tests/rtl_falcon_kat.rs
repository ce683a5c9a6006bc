//! `rtl-falcon` behind the library's kernel-device seam: the first round-3 KAT records of
//! Falcon-512 and Falcon-1024 (compressed and padded), key generation and signing with
//! every FFT / iFFT of degree 512 or 1024 on the Verilated hw/falcon engine, byte-exact
//! with the official files; the device's cycle counters against the engine's formulas.
//!
//! The seam falls back to the CPU when a request fails, which would hide a broken
//! device: the counting wrapper makes the test fail instead. A reduced count (5 + 3
//! records at n = 512, 3 + 2 at n = 1024; a few seconds): the CLI runs more records in
//! `scripts/test-all.sh` stage 10.

#[path = "../../pqsig/tests/common/mod.rs"]
mod common;

use pqsig::any::kat::kat_record_with;
use pqsig::batch::{self, KernelDevice, MlDsaPoly, TransformMode};
use pqsig::kernels::device::{FalconDeviceCycles, FftDirection};
use pqsig::kernels::falcon::fpr::Fpr;
use pqsig::kernels::falcon::samplerz::device::{serve_on_cpu, SamplerZReply, SamplerZRequest};
use pqsig::rng::drbg::KatDrbg;
use pqsig::{Algorithm, DeviceError};
use pqsig_hwsim::falcon_device::RtlFalconDevice;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The kernel-device slot is process-wide: the tests that install a device take turns.
static SLOT: Mutex<()> = Mutex::new(());

/// `rtl-falcon`, counting the FFT requests that failed.
struct Counted {
    inner: RtlFalconDevice,
    failed: AtomicU64,
}

impl KernelDevice for Counted {
    fn name(&self) -> String {
        "rtl-falcon-counted".into()
    }
    fn max_polys(&self) -> usize {
        self.inner.max_polys()
    }
    fn supports(&self, mode: TransformMode) -> bool {
        self.inner.supports(mode)
    }
    fn transform_mldsa(&self, m: TransformMode, p: &mut [MlDsaPoly]) -> Result<(), DeviceError> {
        self.inner.transform_mldsa(m, p)
    }
    fn transform_falcon(&self, m: TransformMode, c: &mut [u16]) -> Result<(), DeviceError> {
        self.inner.transform_falcon(m, c)
    }
    fn supports_fft(&self, dir: FftDirection, logn: u32) -> bool {
        self.inner.supports_fft(dir, logn)
    }
    fn transform_fft(&self, d: FftDirection, logn: u32, v: &mut [Fpr]) -> Result<(), DeviceError> {
        let r = self.inner.transform_fft(d, logn, v);
        if r.is_err() {
            self.failed.fetch_add(1, Ordering::Relaxed);
        }
        r
    }
    fn supports_samplerz(&self) -> bool {
        self.inner.supports_samplerz()
    }
    fn samplerz(
        &self,
        req: &SamplerZRequest<'_>,
        out: &mut [i32],
    ) -> Result<SamplerZReply, DeviceError> {
        self.inner.samplerz(req, out)
    }
    fn falcon_cycles(&self) -> Option<FalconDeviceCycles> {
        self.inner.falcon_cycles()
    }
}

/// Engine cycles of one transform with one adder and one multiplier
/// (docs/HARDWARE-FALCON.md): (logn−1)·(6n/4 + 24) + 1, the inverse n + 9 more.
fn engine_cycles(logn: u32, inverse: bool) -> u64 {
    let n = 1u64 << logn;
    let fwd = (logn as u64 - 1) * (6 * n / 4 + 24) + 1;
    if inverse {
        fwd + n + 9
    } else {
        fwd
    }
}

/// The first `count` records of the official file `rel` through `dev` (installed
/// process-wide); returns the per-signature device figures.
fn kat_through(dev: &Arc<Counted>, rel: &str, name: &str, count: usize) -> Vec<FalconDeviceCycles> {
    let alg = Algorithm::from_name(name).unwrap();
    let logn = if name.ends_with("1024") { 10 } else { 9 };
    let recs = common::parse_rsp(rel);
    assert_eq!(recs.len(), 100, "{rel}");
    let mut per_sig = Vec::new();
    for r in recs.iter().take(count) {
        let t = Instant::now();
        let mut drbg = KatDrbg::new(r.seed.as_slice().try_into().unwrap());
        let before = dev.falcon_cycles().unwrap();
        let mut mid = None;
        let rec = kat_record_with(alg, &mut drbg, &r.msg, &mut || mid = dev.falcon_cycles())
            .expect("kat record");
        let after = dev.falcon_cycles().unwrap();
        assert_eq!(rec.pk, r.pk, "{rel} #{}: pk", r.count);
        assert_eq!(rec.sk.as_slice(), r.sk.as_slice(), "{rel} #{}: sk", r.count);
        assert_eq!(rec.sm, r.sm, "{rel} #{}: sm", r.count);
        let mid = mid.expect("between keygen and sign");
        let (keygen, sign) = (mid.since(before), after.since(mid));
        // Signing transforms are all of the full degree (key generation's Babai
        // reductions also run degree 512 inside Falcon-1024).
        assert_eq!(
            sign.fft.cycles,
            sign.fft.requests * engine_cycles(logn, false),
            "{sign:?}"
        );
        assert_eq!(
            sign.ifft.cycles,
            sign.ifft.requests * engine_cycles(logn, true),
            "{sign:?}"
        );
        // Compact-key signing: the basis (4 FFTs) once, then per attempt the target (1
        // FFT) and the sample (2 iFFTs); key generation checks each candidate (f, g)
        // with 2 FFTs + 2 iFFTs, and its Babai reductions use more.
        assert!(
            sign.ifft.requests >= 2 && sign.ifft.requests % 2 == 0,
            "{sign:?}"
        );
        assert_eq!(sign.fft.requests, 4 + sign.ifft.requests / 2, "{sign:?}");
        assert!(
            keygen.fft.requests >= 2 && keygen.ifft.requests >= 2,
            "{keygen:?}"
        );
        println!(
            "{name} #{}: sign fft {} ({} cycles), ifft {} ({} cycles), samplerz {:?}; keygen fft {}, ifft {}; {:.2} s",
            r.count,
            sign.fft.requests,
            sign.fft.cycles,
            sign.ifft.requests,
            sign.ifft.cycles,
            sign.samplerz,
            keygen.fft.requests,
            keygen.ifft.requests,
            t.elapsed().as_secs_f64()
        );
        per_sig.push(sign);
    }
    assert_eq!(
        dev.failed.load(Ordering::Relaxed),
        0,
        "device requests failed"
    );
    per_sig
}

fn with_device<T>(dev: Arc<Counted>, f: impl FnOnce() -> T) -> T {
    let _g = SLOT.lock().unwrap_or_else(|e| e.into_inner());
    batch::set_kernel_device(Some(dev));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    batch::set_kernel_device(None);
    r.unwrap_or_else(|e| std::panic::resume_unwind(e))
}

fn counted(inner: RtlFalconDevice) -> Arc<Counted> {
    Arc::new(Counted {
        inner,
        failed: AtomicU64::new(0),
    })
}

#[test]
fn falcon512_kat_records_through_rtl_falcon() {
    let dev = counted(RtlFalconDevice::new());
    assert!(!dev.supports_samplerz(), "no sampler plugged");
    let sigs = with_device(dev.clone(), || {
        let mut s = kat_through(&dev, "falcon/round3/falcon512-KAT.rsp", "Falcon-512", 5);
        s.extend(kat_through(
            &dev,
            "falcon/round3-padded/falcon-padded-512-KAT.rsp",
            "Falcon-padded-512",
            3,
        ));
        s
    });
    // No sampler: no SamplerZ figures at all (not zeros).
    assert!(sigs.iter().all(|c| c.samplerz.is_none()));
}

#[test]
fn falcon1024_kat_records_through_rtl_falcon() {
    let dev = counted(RtlFalconDevice::new());
    with_device(dev.clone(), || {
        kat_through(&dev, "falcon/round3/falcon1024-KAT.rsp", "Falcon-1024", 3);
        kat_through(
            &dev,
            "falcon/round3-padded/falcon-padded-1024-KAT.rsp",
            "Falcon-padded-1024",
            2,
        );
    });
}

/// The sampler plug: a sampler plugged into the device gets the signer's SamplerZ
/// requests and its cycles are counted. The stand-in here is the CPU golden model
/// reporting one "cycle" per sample — a plumbing check, not a hardware figure.
#[test]
fn a_plugged_sampler_serves_samplerz() {
    let served = Arc::new(AtomicU64::new(0));
    let s = served.clone();
    let dev = counted(RtlFalconDevice::new().with_sampler(Box::new(
        move |req: &SamplerZRequest<'_>, out: &mut [i32]| {
            s.fetch_add(1, Ordering::Relaxed);
            serve_on_cpu(req, out).map(|r| (r, req.reqs.len() as u64))
        },
    )));
    assert!(dev.supports_samplerz());
    let sigs = with_device(dev.clone(), || {
        kat_through(&dev, "falcon/round3/falcon512-KAT.rsp", "Falcon-512", 1)
    });
    let sz = sigs[0].samplerz.expect("samplerz counted");
    // One pair request per two of the 2n samples of an attempt: n = 512 (more if a
    // request was re-issued with more windows).
    assert!(sz.requests >= 512, "{sz:?}");
    assert_eq!(sz.requests, served.load(Ordering::Relaxed));
    assert_eq!(sz.cycles, 2 * sz.requests);
}
