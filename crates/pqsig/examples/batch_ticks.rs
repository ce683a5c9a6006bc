//! Quick timing of the batch engine against a loop of single verifications
//! (ML-DSA-65, 64 distinct keys): `cargo run --release -p pqsig --example batch_ticks`.
//! The bench harness (`pqsig bench --batch`, pqsig-bench) is the reference; this is a
//! developer's probe.
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::batch::{self, Options, VerifyItem};
use pqsig::Algorithm;
use std::time::Instant;

fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "ML-DSA-65".into());
    let alg = Algorithm::from_name(&name).expect("algorithm");
    let n: usize = std::env::var("BATCH_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let sks: Vec<SigningKey> = (0..n)
        .map(|i| SigningKey::from_seed(alg, &vec![i as u8; alg.seed_len()]).unwrap())
        .collect();
    let vks: Vec<VerifyingKey> = sks.iter().map(|k| k.verifying_key()).collect();
    let pks: Vec<Vec<u8>> = vks.iter().map(|k| k.to_bytes().to_vec()).collect();
    let msgs: Vec<Vec<u8>> = (0..n)
        .map(|i| format!("message {i:04}").into_bytes())
        .collect();
    let sigs: Vec<Vec<u8>> = (0..n)
        .map(|i| sks[i].sign(&msgs[i], b"").unwrap())
        .collect();
    let rounds = 30;
    let med = |f: &mut dyn FnMut()| {
        let mut t: Vec<f64> = (0..rounds)
            .map(|_| {
                let s = Instant::now();
                f();
                s.elapsed().as_secs_f64() * 1e6 / n as f64
            })
            .collect();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        t[rounds / 2]
    };
    let loop_bytes = med(&mut || {
        for i in 0..n {
            let vk = VerifyingKey::from_bytes(alg, &pks[i]).unwrap();
            assert!(vk.verify(&msgs[i], b"", &sigs[i]).is_ok());
        }
    });
    let loop_obj = med(&mut || {
        for i in 0..n {
            assert!(vks[i].verify(&msgs[i], b"", &sigs[i]).is_ok());
        }
    });
    let ts: Vec<usize> = std::env::args()
        .skip(2)
        .map(|s| s.parse().unwrap())
        .collect();
    for threads in if ts.is_empty() { vec![1, 2] } else { ts } {
        let o = Options::threads(threads);
        let enc: Vec<VerifyItem> = (0..n)
            .map(|i| VerifyItem::encoded(alg, &pks[i], &msgs[i], &sigs[i]))
            .collect();
        let obj: Vec<VerifyItem> = (0..n)
            .map(|i| VerifyItem::new(&vks[i], &msgs[i], &sigs[i]))
            .collect();
        let b_bytes =
            med(&mut || assert!(batch::verify_batch_with(&enc, &o).iter().all(|r| r.is_ok())));
        let b_obj =
            med(&mut || assert!(batch::verify_batch_with(&obj, &o).iter().all(|r| r.is_ok())));
        println!(
            "{name} threads {threads}: bytes loop {loop_bytes:.2} µs batch {b_bytes:.2} µs ({:.3}x) | objects loop {loop_obj:.2} batch {b_obj:.2} ({:.3}x)",
            b_bytes / loop_bytes,
            b_obj / loop_obj
        );
    }
}
