//! ML-DSA-44/65/87 signing and verification with every NTT on the card (the
//! process-wide kernel device slot), byte-identical to the CPU; a card that does not
//! answer changes nothing either (CPU fallback). One test function: the slot is
//! process-wide and this file is its own test binary.

mod common;

use pqsig::any::SigningKey;
use pqsig::batch::{self, KernelDevice};
use pqsig::Algorithm;
use pqsig_card::{CardDevice, DriverMode};
use std::sync::Arc;
use std::time::Instant;

/// Per level: public key, deterministic signature, and whether it verifies.
fn run_all() -> Vec<(Vec<u8>, Vec<u8>, bool)> {
    ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]
        .iter()
        .map(|name| {
            let alg = Algorithm::from_name(name).unwrap();
            let sk = SigningKey::from_seed(alg, &[42u8; 32]).unwrap();
            let vk = sk.verifying_key();
            let sig = sk.sign_deterministic(b"on the card", b"ctx").unwrap();
            let ok = vk.verify(b"on the card", b"ctx", &sig).is_ok()
                && vk.verify(b"other", b"ctx", &sig).is_err();
            (vk.to_bytes().to_vec(), sig, ok)
        })
        .collect()
}

#[test]
fn signing_and_verification_on_the_card_are_byte_identical() {
    let want = run_all();
    assert!(want.iter().all(|w| w.2));
    let (card, path) = common::start_card("sv", 125.0);
    for mode in [DriverMode::Pooled, DriverMode::PerCall] {
        let dev = Arc::new(CardDevice::new(mode, path.clone()));
        batch::set_kernel_device(Some(dev.clone()));
        let got = run_all();
        batch::set_kernel_device(None);
        assert!(got == want, "{mode:?}: results differ on the card");
        let s = dev.stats();
        assert!(
            s.calls > 10 && s.requests >= s.calls,
            "{mode:?}: the card was not used: {s:?}"
        );
    }
    let served = card
        .counters
        .requests
        .load(std::sync::atomic::Ordering::Relaxed);
    drop(card);
    assert!(served > 20);

    // No card on that path any more: every request fails fast, the CPU answers.
    let dev = Arc::new(CardDevice::new(DriverMode::Pooled, path));
    assert!(dev.supports(batch::TransformMode::MlDsaNtt));
    batch::set_kernel_device(Some(dev.clone()));
    let t = Instant::now();
    let got = run_all();
    batch::set_kernel_device(None);
    assert!(got == want, "fallback differs");
    assert_eq!(dev.stats().calls, 0);
    assert!(t.elapsed().as_secs() < 10);
}
