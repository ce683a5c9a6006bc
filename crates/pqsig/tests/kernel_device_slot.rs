//! A process-wide kernel device (`batch::set_kernel_device`) serves the NTT / inverse NTT
//! of single operations — ML-DSA and Falcon / FN-DSA keygen, signing and verification —
//! with results identical to the CPU's, and a failing or lying device changes nothing —
//! also when the device lends ML-DSA signing its working memory (zero-copy requests).
//!
//! One test function: the slot is process-wide, and this file is its own test binary.

use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::batch::{self, DeviceWorkspace, KernelDevice, MlDsaPoly, TransformMode};
use pqsig::kernels::falcon::ntt::portable::KERNELS as FALCON_PORTABLE;
use pqsig::kernels::mldsa::portable::KERNELS as MLDSA_PORTABLE;
use pqsig::rng::drbg::KatDrbg;
use pqsig::{Algorithm, DeviceError};
use std::sync::{Arc, Mutex};

/// Computes with the portable kernels (called directly, not through a routed table),
/// or fails, or answers garbage; counts requests and polynomials per mode. A `lend-`
/// behaviour also lends workspaces and counts the requests made on them.
struct Portable {
    name: &'static str,
    behaviour: &'static str,
    log: Mutex<Vec<(TransformMode, usize)>>,
    /// Address range of the workspace lent now, if any.
    lent: Arc<Mutex<Option<(usize, usize)>>>,
    /// Requests on polynomials inside a lent workspace.
    resident: Mutex<usize>,
    loans: Mutex<usize>,
}

/// A workspace on the heap, standing for a device's DMA window.
struct HeapWorkspace {
    polys: Vec<MlDsaPoly>,
    lent: Arc<Mutex<Option<(usize, usize)>>>,
}

impl DeviceWorkspace for HeapWorkspace {
    fn polys(&mut self) -> &mut [MlDsaPoly] {
        &mut self.polys
    }
}

impl Drop for HeapWorkspace {
    fn drop(&mut self) {
        self.polys.iter_mut().for_each(|p| p.coeffs.fill(0));
        *self.lent.lock().unwrap() = None;
    }
}

impl Portable {
    fn new(name: &'static str, behaviour: &'static str) -> Arc<Self> {
        Arc::new(Portable {
            name,
            behaviour,
            log: Mutex::new(Vec::new()),
            lent: Arc::new(Mutex::new(None)),
            resident: Mutex::new(0),
            loans: Mutex::new(0),
        })
    }
    fn polys(&self, pred: impl Fn(TransformMode) -> bool) -> usize {
        let log = self.log.lock().unwrap();
        log.iter().filter(|(m, _)| pred(*m)).map(|(_, n)| n).sum()
    }
}

impl KernelDevice for Portable {
    fn name(&self) -> String {
        self.name.to_string()
    }
    fn max_polys(&self) -> usize {
        3 // small, so that requests are split
    }
    fn supports(&self, _: TransformMode) -> bool {
        true
    }
    fn transform_mldsa(
        &self,
        mode: TransformMode,
        polys: &mut [MlDsaPoly],
    ) -> Result<(), DeviceError> {
        assert!(polys.len() <= 3, "request over max_polys");
        self.log.lock().unwrap().push((mode, polys.len()));
        let at = polys.as_ptr() as usize;
        if let Some((lo, hi)) = *self.lent.lock().unwrap() {
            if at >= lo && at < hi {
                *self.resident.lock().unwrap() += 1;
            }
        }
        match (self.behaviour, mode) {
            ("fail", _) => Err(DeviceError::Failed),
            ("garbage" | "lend-garbage", _) => {
                polys.iter_mut().for_each(|p| p.coeffs.fill(-9 * 8380417));
                Ok(())
            }
            (_, TransformMode::MlDsaNtt) => {
                (MLDSA_PORTABLE.ntt)(polys);
                Ok(())
            }
            (_, TransformMode::MlDsaInvNttToMont) => {
                (MLDSA_PORTABLE.invntt_tomont)(polys);
                Ok(())
            }
            _ => Err(DeviceError::Declined),
        }
    }
    fn transform_falcon(&self, mode: TransformMode, a: &mut [u16]) -> Result<(), DeviceError> {
        let (TransformMode::FalconNtt { logn } | TransformMode::FalconIntt { logn }) = mode else {
            return Err(DeviceError::Declined);
        };
        assert_eq!(a.len() % (1 << logn), 0, "partial polynomial");
        assert!(a.len() >> logn <= 3, "request over max_polys");
        self.log.lock().unwrap().push((mode, a.len() >> logn));
        match (self.behaviour, mode) {
            ("fail", _) => Err(DeviceError::Failed),
            ("garbage", _) => {
                a.fill(12289);
                Ok(())
            }
            (_, TransformMode::FalconNtt { .. }) => {
                (FALCON_PORTABLE.ntt)(a, logn);
                Ok(())
            }
            _ => {
                (FALCON_PORTABLE.intt)(a, logn);
                Ok(())
            }
        }
    }
    fn workspace(&self, polys: usize) -> Option<Box<dyn DeviceWorkspace>> {
        if !self.behaviour.starts_with("lend") {
            return None;
        }
        let mut lent = self.lent.lock().unwrap();
        if lent.is_some() {
            return None;
        }
        let ws = HeapWorkspace {
            polys: vec![MlDsaPoly::default(); polys],
            lent: self.lent.clone(),
        };
        let lo = ws.polys.as_ptr() as usize;
        *lent = Some((lo, lo + polys * core::mem::size_of::<MlDsaPoly>()));
        *self.loans.lock().unwrap() += 1;
        Some(Box::new(ws))
    }
}

/// What one run produces: per algorithm, the KAT record's pk, sk and signed message
/// (NIST DRBG, so signing is reproducible for every scheme), and a verification.
fn run_all() -> Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    for name in [
        "ML-DSA-44",
        "ML-DSA-87",
        "Falcon-512",
        "Falcon-1024",
        "FN-DSA-512",
    ] {
        let alg = Algorithm::from_name(name).unwrap();
        let mut drbg = KatDrbg::new(&[7u8; 48]);
        let rec = pqsig::any::kat::kat_record(alg, &mut drbg, b"kernel device").unwrap();
        let sk = SigningKey::from_bytes(alg, &rec.sk).unwrap();
        let vk = VerifyingKey::from_bytes(alg, &rec.pk).unwrap();
        let sig = sk.sign(b"again", b"").unwrap();
        vk.verify(b"again", b"", &sig).unwrap();
        assert!(vk.verify(b"other", b"", &sig).is_err());
        out.push((rec.pk.clone(), rec.sk.to_vec(), rec.sm.clone()));
    }
    out
}

#[test]
fn process_wide_kernel_device_serves_single_operations_identically() {
    let want = run_all();

    for behaviour in ["exact", "fail", "garbage", "lend-exact", "lend-garbage"] {
        let dev = Portable::new(
            match behaviour {
                "exact" => "test-portable",
                "fail" => "test-failing",
                "garbage" => "test-garbage",
                "lend-exact" => "test-lending",
                _ => "test-lending-garbage",
            },
            behaviour,
        );
        batch::register_kernel_device(dev.clone()).unwrap();
        assert!(batch::kernel_device_by_name(dev.name).is_some());
        let opts = batch::Options::default()
            .with_device_name(dev.name)
            .unwrap();
        assert!(opts.kernel_device.is_some() && opts.device.is_none());

        batch::set_kernel_device(Some(dev.clone()));
        let got = run_all();
        batch::set_kernel_device(None);
        assert!(got == want, "{behaviour}: results differ with the device");

        // Both schemes and both directions reached the device.
        let ml_fwd = dev.polys(|m| m == TransformMode::MlDsaNtt);
        let ml_inv = dev.polys(|m| m == TransformMode::MlDsaInvNttToMont);
        let fa_fwd = dev.polys(|m| matches!(m, TransformMode::FalconNtt { logn: 9 | 10 }));
        let fa_inv = dev.polys(|m| matches!(m, TransformMode::FalconIntt { logn: 9 | 10 }));
        assert!(
            ml_fwd > 0 && ml_inv > 0 && fa_fwd > 0 && fa_inv > 0,
            "{behaviour}: {ml_fwd} {ml_inv} {fa_fwd} {fa_inv}"
        );
        // A lending device gets ML-DSA signing's requests on its own memory (zero
        // copy), every loan is returned, and results are still the CPU's.
        let (resident, loans) = (*dev.resident.lock().unwrap(), *dev.loans.lock().unwrap());
        if behaviour.starts_with("lend") {
            assert!(resident > 0 && loans > 0, "{behaviour}: {resident} {loans}");
            assert!(
                dev.lent.lock().unwrap().is_none(),
                "a loan was not returned"
            );
        } else {
            assert_eq!((resident, loans), (0, 0));
        }
        // With the slot cleared, nothing more reaches it.
        let before = dev.log.lock().unwrap().len();
        run_all();
        assert_eq!(dev.log.lock().unwrap().len(), before);
    }
    // Names are unique across both kinds of device.
    assert!(batch::register_kernel_device(Portable::new("test-portable", "exact")).is_err());
    assert!(batch::register_kernel_device(Portable::new("cpu-queue", "exact")).is_err());
    assert!(batch::Options::device_names()
        .iter()
        .any(|n| n == "test-garbage"));
}
