//! `rtl-ntt` behind the library's kernel-device seam: the routed kernel tables give
//! the CPU's results (bit for bit, after the kernels' own reductions), requests report
//! cycles, and whole signatures come out identical with the device installed.

use pqsig::batch::{self, KernelDevice, MlDsaPoly, TransformMode};
use pqsig::kernels::{falcon, mldsa};
use pqsig::Backend;
use pqsig_hwsim::{golden, RtlNttDevice};
use std::sync::Arc;

#[test]
fn device_transforms_match_the_kernels() {
    let dev = RtlNttDevice::new().unwrap();
    assert_eq!(dev.name(), "rtl-ntt");
    assert!(dev.supports(TransformMode::FalconNtt { logn: 9 }));
    assert!(!dev.supports(TransformMode::FalconNtt { logn: 8 }));
    let k = mldsa::base_kernels(Backend::Portable);
    let mut gen = golden::Words::new(5);
    let mut polys = vec![MlDsaPoly::default(); 11];
    for p in polys.iter_mut() {
        for c in p.coeffs.iter_mut() {
            *c = (gen.next_u32() % (2 * 8380417 - 1)) as i32 - 8380416;
        }
    }
    for (mode, f) in [
        (TransformMode::MlDsaNtt, k.ntt),
        (TransformMode::MlDsaInvNttToMont, k.invntt_tomont),
    ] {
        let mut a = polys.clone();
        let mut b = polys.clone();
        dev.transform_mldsa(mode, &mut a).unwrap();
        f(&mut b);
        for (x, y) in a.iter().zip(&b) {
            for (u, v) in x.coeffs.iter().zip(y.coeffs.iter()) {
                assert_eq!(u.rem_euclid(8380417), v.rem_euclid(8380417));
            }
        }
        let c = dev.last_cycles().unwrap();
        assert!(c.total > 0 && c.total <= 11 * 300, "{c:?}");
    }
    let fk = falcon::ntt::base_kernels(Backend::Portable);
    for logn in [9u32, 10] {
        let v: Vec<u16> = gen
            .residues(12289, 3 << logn)
            .iter()
            .map(|&x| x as u16)
            .collect();
        for (mode, f) in [
            (TransformMode::FalconNtt { logn }, fk.ntt),
            (TransformMode::FalconIntt { logn }, fk.intt),
        ] {
            let mut a = v.clone();
            let mut b = v.clone();
            dev.transform_falcon(mode, &mut a).unwrap();
            f(&mut b, logn);
            assert_eq!(a, b, "{mode:?}");
        }
        // a partial polynomial or a non-canonical word is declined, not a panic
        let mut bad = v[..100].to_vec();
        assert!(dev
            .transform_falcon(TransformMode::FalconNtt { logn }, &mut bad)
            .is_err());
        let mut bad = v.clone();
        bad[7] = 20000;
        assert!(dev
            .transform_falcon(TransformMode::FalconNtt { logn }, &mut bad)
            .is_err());
    }
}

#[test]
fn signatures_and_keys_are_identical_with_the_device_installed() {
    use pqsig::any::SigningKey;
    use pqsig::Algorithm;
    pqsig_hwsim::register().unwrap();
    let dev = batch::kernel_device_by_name("rtl-ntt").expect("registered");
    // CPU references
    let ml = SigningKey::from_seed(Algorithm::ALL[0], &[3u8; 32]).unwrap();
    let ml_sig = ml.sign_deterministic(b"hw", b"").unwrap();
    let fa = SigningKey::from_seed(Algorithm::ALL[3], &[4u8; 48]).unwrap();
    let fa_pk = fa.verifying_key().to_bytes().to_vec();
    let fa_sig = fa.sign(b"hw", b"").unwrap();
    batch::set_kernel_device(Some(dev.clone()));
    let ml2 = SigningKey::from_seed(Algorithm::ALL[0], &[3u8; 32]).unwrap();
    let sig2 = ml2.sign_deterministic(b"hw", b"").unwrap();
    let ml_cycles = dev.last_cycles();
    let fa2 = SigningKey::from_seed(Algorithm::ALL[3], &[4u8; 48]).unwrap();
    let pk2 = fa2.verifying_key().to_bytes().to_vec();
    let ok = fa2.verifying_key().verify(b"hw", b"", &fa_sig).is_ok()
        && ml2.verifying_key().verify(b"hw", b"", &sig2).is_ok();
    batch::set_kernel_device(None);
    assert_eq!(sig2, ml_sig, "ML-DSA-44 signature through rtl-ntt");
    assert_eq!(pk2, fa_pk, "Falcon-512 public key through rtl-ntt");
    assert!(ok, "verification through rtl-ntt");
    assert!(ml_cycles.is_some());
    let _ = Arc::strong_count(&dev);
}
