//! Asynchronous requests on the pooled card (`KernelDevice::submit_mldsa` /
//! `complete_mldsa`) and the pipelined ML-DSA verification built on them: results
//! identical to the CPU, with tickets and synchronous calls sharing the window's slots
//! (a ticket of more requests than slots, a synchronous call while tickets are in
//! flight, several threads at once), through both driver modes, and with the card gone.

mod common;

use common::{start_card, Rng};
use pqsig::any::SigningKey;
use pqsig::batch::{self, KernelDevice, Message, MlDsaPoly, Options, TransformMode, VerifyItem};
use pqsig::Algorithm;
use pqsig_card::{CardDevice, DriverMode};
use std::sync::Arc;

fn cpu(mode: TransformMode, polys: &mut [MlDsaPoly]) {
    let k = pqsig::kernels::mldsa::base_kernels(pqsig::backend::active());
    match mode {
        TransformMode::MlDsaNtt => (k.ntt)(polys),
        _ => (k.invntt_tomont)(polys),
    }
}

#[test]
fn tickets_and_synchronous_calls_share_the_slots() {
    let (card, path) = start_card("tickets", 1000.0);
    let dev = CardDevice::new(DriverMode::Pooled, path);
    assert!(dev.pipelines());
    let mut rng = Rng(77);
    let (f, i) = (TransformMode::MlDsaNtt, TransformMode::MlDsaInvNttToMont);
    // A: more polynomials than the 4 slots hold (512 each): its own pieces wrap round
    // and are staged. B, C: small tickets. Then a synchronous call that needs every
    // slot while B and C are in flight.
    let a_in = rng.mldsa(2100);
    let b_in = rng.mldsa(7);
    let c_in = rng.mldsa(300);
    let s_in = rng.mldsa(200);
    let ta = dev.submit_mldsa(f, &a_in).expect("submitted");
    let tb = dev.submit_mldsa(i, &b_in).expect("submitted");
    let tc = dev.submit_mldsa(f, &c_in).expect("submitted");
    let mut s = s_in.clone();
    dev.transform_mldsa(i, &mut s).expect("synchronous call");
    let mut want = s_in.clone();
    cpu(i, &mut want);
    assert!(s == want, "synchronous call among tickets");
    // Completed out of order.
    for (t, mode, input) in [(tc, f, &c_in), (ta, f, &a_in), (tb, i, &b_in)] {
        let mut got = input.clone();
        dev.complete_mldsa(t, &mut got).expect("completed");
        let mut want = input.clone();
        cpu(mode, &mut want);
        assert!(got == want, "ticket of {} polynomials", input.len());
        // A ticket is gone once completed.
        assert!(dev.complete_mldsa(t, &mut got).is_err());
    }
    // A cancelled ticket frees its slots for the next ones.
    let t = dev.submit_mldsa(f, &b_in).expect("submitted");
    dev.cancel(t);
    let mut got = b_in.clone();
    let t = dev.submit_mldsa(f, &b_in).expect("submitted");
    dev.complete_mldsa(t, &mut got).expect("completed");
    let mut want = b_in.clone();
    cpu(f, &mut want);
    assert!(got == want);
    // Completed on the wrong length: refused, the caller's data untouched.
    let t = dev.submit_mldsa(f, &b_in).expect("submitted");
    let mut short = b_in[..3].to_vec();
    assert!(dev.complete_mldsa(t, &mut short).is_err());
    assert!(short == b_in[..3]);
    assert_eq!(
        card.counters
            .errors
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );
}

/// ML-DSA-44/65/87 signatures, a third of them bad in some way, as items with keys as
/// objects and as encodings.
fn signatures(name: &str, n: usize) -> (Vec<pqsig::any::VerifyingKey>, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let alg = Algorithm::from_name(name).unwrap();
    let sks: Vec<SigningKey> = (0..n as u8)
        .map(|s| SigningKey::from_seed(alg, &[s; 32]).unwrap())
        .collect();
    let vks: Vec<_> = sks.iter().map(SigningKey::verifying_key).collect();
    let msgs: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; 1 + i % 50]).collect();
    let sigs = (0..n)
        .map(|i| {
            let mut s = sks[i].sign(&msgs[i], b"").unwrap();
            match i % 6 {
                1 => s[i % 40] ^= 2,
                4 => s.truncate(100),
                _ => {}
            }
            s
        })
        .collect();
    (vks, msgs, sigs)
}

fn items<'a>(
    alg: Algorithm,
    vks: &'a [pqsig::any::VerifyingKey],
    msgs: &'a [Vec<u8>],
    sigs: &'a [Vec<u8>],
    object: bool,
) -> Vec<VerifyItem<'a>> {
    (0..msgs.len())
        .map(|i| {
            // Every seventh under the next signer's key.
            let k = (i + (i % 7 == 3) as usize) % vks.len();
            if object {
                VerifyItem::new(&vks[k], &msgs[i], &sigs[i])
            } else {
                VerifyItem::encoded(alg, vks[k].to_bytes(), &msgs[i], &sigs[i])
            }
        })
        .collect()
}

#[test]
fn pipelined_verification_on_the_card_equals_the_cpu() {
    let (card, path) = start_card("pipe", 1000.0);
    for name in ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"] {
        let alg = Algorithm::from_name(name).unwrap();
        let (vks, msgs, sigs) = signatures(name, 40);
        for object in [true, false] {
            let its = items(alg, &vks, &msgs, &sigs, object);
            let want = batch::verify_batch_with(&its, &Options::threads(1));
            let ok = want.iter().filter(|r| r.is_ok()).count();
            assert!(ok > 10 && ok < its.len(), "{name}: {ok} valid");
            for mode in [DriverMode::Pooled, DriverMode::PerCall] {
                let dev = Arc::new(CardDevice::new(mode, path.clone()));
                let opts = Options {
                    kernel_device: Some(dev.clone()),
                    threads: Some(1),
                    ..Options::default()
                };
                let got = batch::verify_batch_with(&its, &opts);
                assert_eq!(got, want, "{name} {mode:?} object {object}");
                let st = dev.stats();
                assert!(
                    st.requests >= 2,
                    "{name} {mode:?}: the card was used: {st:?}"
                );
                if mode == DriverMode::Pooled {
                    // Sub-groups of 8: five forward and five inverse tickets.
                    assert_eq!(st.calls, 10, "{name}: pipelined: {st:?}");
                }
            }
        }
    }
    assert_eq!(
        card.counters
            .errors
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );

    // Several threads on one device at once: pipelined groups (their tickets) beside
    // synchronous calls of other threads.
    let alg = Algorithm::from_name("ML-DSA-44").unwrap();
    let (vks, msgs, sigs) = signatures("ML-DSA-44", 48);
    let its = items(alg, &vks, &msgs, &sigs, true);
    let want = batch::verify_batch_with(&its, &Options::threads(1));
    let dev = Arc::new(CardDevice::new(DriverMode::Pooled, path.clone()));
    std::thread::scope(|s| {
        for t in 0..3 {
            let (dev, its, want) = (dev.clone(), &its, &want);
            s.spawn(move || {
                let opts = Options {
                    kernel_device: Some(dev.clone()),
                    threads: Some(1),
                    ..Options::default()
                };
                let mut rng = Rng(t + 5);
                for _ in 0..4 {
                    assert_eq!(&batch::verify_batch_with(its, &opts), want);
                    let input = rng.mldsa(33);
                    let mut got = input.clone();
                    dev.transform_mldsa(TransformMode::MlDsaNtt, &mut got)
                        .expect("card answers");
                    let mut w = input;
                    cpu(TransformMode::MlDsaNtt, &mut w);
                    assert!(got == w);
                }
            });
        }
    });

    // The card gone: every ticket fails, the CPU answers.
    drop(card);
    let its = items(alg, &vks, &msgs, &sigs, false);
    let dev = Arc::new(CardDevice::new(DriverMode::Pooled, path));
    let opts = Options {
        kernel_device: Some(dev.clone()),
        threads: Some(1),
        ..Options::default()
    };
    assert_eq!(batch::verify_batch_with(&its, &opts), want);
    assert_eq!(dev.stats().calls, 0);
}

/// A message given as μ goes through the pipeline like any other.
#[test]
fn external_mu_on_the_card() {
    let (_card, path) = start_card("mu", 1000.0);
    let (vks, msgs, sigs) = signatures("ML-DSA-65", 20);
    let mus: Vec<[u8; 64]> = (0..20)
        .map(|i| vks[i].compute_mu(&msgs[i], b"").unwrap())
        .collect();
    let its: Vec<VerifyItem<'_>> = (0..20)
        .map(|i| VerifyItem {
            message: Message::Mu(&mus[i]),
            ..VerifyItem::new(&vks[i], &msgs[i], &sigs[i])
        })
        .collect();
    let want = batch::verify_batch_with(&its, &Options::threads(1));
    let dev = Arc::new(CardDevice::new(DriverMode::Pooled, path));
    let opts = Options {
        kernel_device: Some(dev),
        ..Options::default()
    };
    assert_eq!(batch::verify_batch_with(&its, &opts), want);
}
