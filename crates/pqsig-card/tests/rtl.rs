//! The card with the `rtl` accelerator (feature `rtl`: the Verilator model of hw/ntt):
//! ML-DSA NTT/INTT batches equal to the CPU kernels' (modulo q: the hardware returns
//! canonical residues) through both driver paths, the device time its simulated cycles
//! — which the cycle model predicts exactly — and a deterministic ML-DSA-44 signature
//! byte-identical to the CPU's, verified on the card. Short: simulation is slow.
#![cfg(feature = "rtl")]

mod common;

use common::{socket_path, Rng, Q};
use pqsig::any::SigningKey;
use pqsig::batch::{self, KernelDevice, MlDsaPoly, TransformMode};
use pqsig::Algorithm;
use pqsig_card::regs::Mode;
use pqsig_card::{AccelKind, CardConfig, CardDevice, CycleModel, DriverMode};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

fn reduced(p: &[MlDsaPoly]) -> Vec<i32> {
    p.iter()
        .flat_map(|p| p.coeffs.iter().map(|c| c.rem_euclid(Q)))
        .collect()
}

#[test]
fn rtl_card_matches_the_cpu_and_the_cycle_model() {
    let path = socket_path("rtl");
    let model = CycleModel::default();
    let cfg = CardConfig {
        accel: AccelKind::Rtl,
        model,
        spin: Duration::from_micros(50),
        ..CardConfig::new(path.clone())
    };
    let card = cfg.spawn().expect("rtl card starts");
    let k = pqsig::kernels::mldsa::base_kernels(pqsig::backend::active());
    let mut rng = Rng(11);
    for dm in [DriverMode::Pooled, DriverMode::PerCall] {
        let dev = CardDevice::new(dm, path.clone());
        for n in [1usize, 5, 16] {
            for (mode, cm) in [
                (TransformMode::MlDsaNtt, Mode::MlDsaNtt),
                (TransformMode::MlDsaInvNttToMont, Mode::MlDsaIntt),
            ] {
                let input = rng.mldsa(n);
                let mut want = input.clone();
                if mode == TransformMode::MlDsaNtt {
                    (k.ntt)(&mut want);
                } else {
                    (k.invntt_tomont)(&mut want);
                }
                let mut got = input;
                dev.transform_mldsa(mode, &mut got).expect("card answers");
                assert_eq!(reduced(&got), reduced(&want), "{dm:?} {mode:?} batch {n}");
                assert!(got
                    .iter()
                    .all(|p| p.coeffs.iter().all(|&c| (0..Q).contains(&c))));
                // One request (n ≤ the driver's chunk): its measured cycles are the model's.
                let b = dev.last_breakdown();
                assert_eq!(b.requests, 1, "{b:?}");
                assert_eq!(
                    b.cycles,
                    model.request(cm, n as u32),
                    "{dm:?} {mode:?} batch {n}"
                );
                assert_eq!(b.device_ns, CycleModel::nanos(b.cycles.total, 125e6));
            }
        }
    }

    // Sign and verify with every NTT on the simulated card: byte-identical signature.
    // Keys and tables are fetched after the slot is set (tables keep what they had).
    let alg = Algorithm::from_name("ML-DSA-44").unwrap();
    let want = SigningKey::from_seed(alg, &[7u8; 32])
        .unwrap()
        .sign_deterministic(b"rtl", b"")
        .unwrap();
    let dev = Arc::new(CardDevice::new(DriverMode::Pooled, path.clone()));
    batch::set_kernel_device(Some(dev.clone()));
    let sk = SigningKey::from_seed(alg, &[7u8; 32]).unwrap();
    let vk = sk.verifying_key();
    let got = sk.sign_deterministic(b"rtl", b"");
    let ok = vk.verify(b"rtl", b"", &want).is_ok();
    let bad = vk.verify(b"rtl?", b"", &want).is_err();
    batch::set_kernel_device(None);
    assert_eq!(got.unwrap(), want, "signature through the rtl card differs");
    assert!(ok && bad, "verification through the rtl card");
    assert!(
        dev.stats().calls > 5,
        "the card was not used: {:?}",
        dev.stats()
    );
    assert_eq!(card.counters.errors.load(Ordering::Relaxed), 0);
}
