//! Falcon's FFT and inverse FFT behind the kernel-device seam (`KernelDevice::
//! supports_fft` / `transform_fft`, served through `kernels::falcon::fft::kernels`):
//!
//! * only the degrees a device supports reach it, on every backend's table, and a table
//!   fetched while a device was set runs on the CPU once the device is removed;
//! * a device that fails (after scribbling over the buffer) or answers with infinities
//!   or NaNs changes nothing: the host restores the input and recomputes on the CPU —
//!   checked kernel by kernel, and on round-3 KAT records (key generation and both
//!   signers) through a device that misbehaves on purpose;
//! * without a device the tables handed out are the backends' own (no routing).
//!
//! One test function: the device slot is process-wide.

mod common;

use pqsig::batch::{set_kernel_device, KernelDevice, MlDsaPoly, TransformMode};
use pqsig::kernels::device::{FftDirection, KindCycles};
use pqsig::kernels::falcon::fft::{self, portable};
use pqsig::kernels::falcon::fpr::Fpr;
use pqsig::DeviceError;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What the device does with its i-th request.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Behaviour {
    /// Computes the FFT exactly (the portable kernel).
    Exact,
    /// Every seventh: overwrites the buffer, then fails. Every fifth: the right values
    /// with one NaN. Every eleventh: one +infinity. Otherwise exact.
    Faulty,
}

struct SoftFft {
    behaviour: Behaviour,
    calls: AtomicU64,
    served: AtomicU64,
    faults: AtomicU64,
    /// Requests of a degree the device does not support (must stay 0).
    unsupported: AtomicU64,
    /// (direction, logn) of every request.
    log: Mutex<Vec<(FftDirection, u32)>>,
}

impl SoftFft {
    fn new(behaviour: Behaviour) -> Self {
        SoftFft {
            behaviour,
            calls: AtomicU64::new(0),
            served: AtomicU64::new(0),
            faults: AtomicU64::new(0),
            unsupported: AtomicU64::new(0),
            log: Mutex::new(Vec::new()),
        }
    }
}

impl KernelDevice for SoftFft {
    fn name(&self) -> String {
        "soft-fft".into()
    }
    fn max_polys(&self) -> usize {
        1
    }
    fn supports(&self, _: TransformMode) -> bool {
        false
    }
    fn transform_mldsa(&self, _: TransformMode, _: &mut [MlDsaPoly]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }
    fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }
    fn supports_fft(&self, _: FftDirection, logn: u32) -> bool {
        logn == 9 || logn == 10
    }
    fn transform_fft(
        &self,
        dir: FftDirection,
        logn: u32,
        values: &mut [Fpr],
    ) -> Result<(), DeviceError> {
        let i = self.calls.fetch_add(1, Ordering::Relaxed);
        self.log.lock().unwrap().push((dir, logn));
        if !(logn == 9 || logn == 10) || values.len() != 1 << logn {
            self.unsupported.fetch_add(1, Ordering::Relaxed);
            return Err(DeviceError::Declined);
        }
        let faulty = self.behaviour == Behaviour::Faulty;
        if faulty && i % 7 == 3 {
            self.faults.fetch_add(1, Ordering::Relaxed);
            values.fill(Fpr::from_bits(0x3FF0_0000_0000_0000));
            return Err(DeviceError::Failed);
        }
        match dir {
            FftDirection::Forward => portable::fft(values, logn),
            FftDirection::Inverse => portable::ifft(values, logn),
        }
        if faulty && i % 5 == 1 {
            self.faults.fetch_add(1, Ordering::Relaxed);
            let k = (i as usize * 37) % values.len();
            values[k] = Fpr::from_bits(0x7FF8_0000_0000_0001 | (values[k].to_bits() & (1 << 63)));
            return Ok(());
        }
        if faulty && i % 11 == 4 {
            self.faults.fetch_add(1, Ordering::Relaxed);
            values[(i as usize) % values.len()] = Fpr::from_bits(0x7FF0_0000_0000_0000);
            return Ok(());
        }
        self.served.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Small integers, as the signer's inputs (key and target coefficients).
    fn poly(&mut self, n: usize) -> Vec<Fpr> {
        (0..n)
            .map(|_| Fpr::of((self.next() % 4001) as i64 - 2000))
            .collect()
    }
}

fn bits(v: &[Fpr]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Every logn 1..=10, both directions, on every available backend's table: results equal
/// the backend's own kernels; the device saw exactly the logn 9 and 10 calls.
fn kernels_route_only_supported_degrees(dev: &SoftFft, r: &mut Rng) {
    for b in pqsig::Backend::available() {
        let routed = fft::kernels(b);
        let base = fft::base_kernels(b);
        let before = dev.calls.load(Ordering::Relaxed);
        for logn in 1..=10u32 {
            for dir in [FftDirection::Forward, FftDirection::Inverse] {
                let x = r.poly(1 << logn);
                let (mut got, mut want) = (x.clone(), x);
                let (f, g) = match dir {
                    FftDirection::Forward => (routed.fft, base.fft),
                    FftDirection::Inverse => (routed.ifft, base.ifft),
                };
                f(&mut got, logn);
                g(&mut want, logn);
                assert_eq!(bits(&got), bits(&want), "{b} logn {logn} {dir:?}");
            }
        }
        let after = dev.calls.load(Ordering::Relaxed);
        assert_eq!(
            after - before,
            4,
            "{b}: calls of logn 9 and 10, both directions"
        );
    }
    assert_eq!(dev.unsupported.load(Ordering::Relaxed), 0);
}

/// Round-3 KAT records through `any::kat` (key generation, then the compact-key signer)
/// and through the expanded-key signer, all with the process-wide device set: every
/// output byte-exact with the official files.
fn kats_through(dev_name: &str, records_per_file: usize) -> usize {
    use pqsig::any::kat::kat_record;
    use pqsig::rng::drbg::KatDrbg;
    use pqsig::Algorithm;
    let mut done = 0;
    for (rel, name) in [
        ("falcon/round3/falcon512-KAT.rsp", "Falcon-512"),
        ("falcon/round3/falcon1024-KAT.rsp", "Falcon-1024"),
        (
            "falcon/round3-padded/falcon-padded-512-KAT.rsp",
            "Falcon-padded-512",
        ),
        (
            "falcon/round3-padded/falcon-padded-1024-KAT.rsp",
            "Falcon-padded-1024",
        ),
    ] {
        let alg = Algorithm::from_name(name).expect(name);
        let recs = common::parse_rsp(rel);
        assert_eq!(recs.len(), 100, "{rel}");
        for r in recs.iter().take(records_per_file) {
            let mut drbg = KatDrbg::new(r.seed.as_slice().try_into().expect("48-byte seed"));
            let rec = kat_record(alg, &mut drbg, &r.msg).expect("kat_record");
            assert_eq!(rec.pk, r.pk, "{dev_name} {rel} #{}: pk", r.count);
            assert_eq!(
                rec.sk.as_slice(),
                r.sk.as_slice(),
                "{dev_name} {rel} #{}: sk",
                r.count
            );
            assert_eq!(rec.sm, r.sm, "{dev_name} {rel} #{}: sm", r.count);
            done += 1;
        }
    }
    done
}

#[test]
fn falcon_fft_behind_the_device_seam() {
    let mut r = Rng(0x5EED_F00D_1234_5678);

    // No device: the tables handed out are the backends' own.
    set_kernel_device(None);
    for b in pqsig::Backend::available() {
        assert!(std::ptr::eq(fft::kernels(b), fft::base_kernels(b)), "{b}");
    }

    // An exact device: only logn 9 and 10 reach it.
    let exact = Arc::new(SoftFft::new(Behaviour::Exact));
    set_kernel_device(Some(exact.clone()));
    kernels_route_only_supported_degrees(&exact, &mut r);
    let kept = fft::kernels(pqsig::backend::active());
    set_kernel_device(None);
    // A routed table fetched earlier runs on the CPU once the slot is empty.
    let calls = exact.calls.load(Ordering::Relaxed);
    let mut x = r.poly(512);
    let mut want = x.clone();
    (kept.fft)(&mut x, 9);
    portable::fft(&mut want, 9);
    assert_eq!(bits(&x), bits(&want));
    assert_eq!(exact.calls.load(Ordering::Relaxed), calls);

    // A faulty device: every fault is caught kernel by kernel ...
    let faulty = Arc::new(SoftFft::new(Behaviour::Faulty));
    set_kernel_device(Some(faulty.clone()));
    let result = std::panic::catch_unwind(|| {
        let mut r = Rng(0xFA17_FA17_0000_0001);
        for _ in 0..12 {
            kernels_route_only_supported_degrees(&faulty, &mut r);
        }
        // ... and on KAT records: 5 per set (key generation's FFTs at the full degree,
        // the compact-key signer's basis, target and final iFFTs).
        kats_through("faulty", 5)
    });
    set_kernel_device(None);
    let done = match result {
        Ok(d) => d,
        Err(e) => std::panic::resume_unwind(e),
    };
    assert_eq!(done, 20);
    let (served, faults) = (
        faulty.served.load(Ordering::Relaxed),
        faulty.faults.load(Ordering::Relaxed),
    );
    println!("faulty FFT device: {served} requests served, {faults} faults recovered");
    assert!(
        faults >= 20 && served >= 100,
        "served {served}, faults {faults}"
    );
    assert_eq!(faulty.unsupported.load(Ordering::Relaxed), 0);
    let log = faulty.log.lock().unwrap();
    assert!(log
        .iter()
        .any(|&(d, l)| d == FftDirection::Inverse && l == 10));
    assert!(log
        .iter()
        .any(|&(d, l)| d == FftDirection::Forward && l == 9));
}

#[test]
fn kind_cycles_differences() {
    let a = KindCycles {
        requests: 7,
        cycles: 44_000,
    };
    let b = KindCycles {
        requests: 2,
        cycles: 12_674,
    };
    assert_eq!(
        a.since(b),
        KindCycles {
            requests: 5,
            cycles: 31_326
        }
    );
}
