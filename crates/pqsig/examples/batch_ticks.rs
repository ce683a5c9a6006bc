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
    // Interleaved, as the bench harness does: each round times every form once, so
    // drift hits all of them alike and a 2-thread call follows single-thread work (its
    // helpers may have gone idle), as it would in a real program.
    let rounds = 41;
    let enc: Vec<VerifyItem> = (0..n)
        .map(|i| VerifyItem::encoded(alg, &pks[i], &msgs[i], &sigs[i]))
        .collect();
    let obj: Vec<VerifyItem> = (0..n)
        .map(|i| VerifyItem::new(&vks[i], &msgs[i], &sigs[i]))
        .collect();
    let ts: Vec<usize> = std::env::args()
        .skip(2)
        .map(|s| s.parse().unwrap())
        .collect();
    let ts = if ts.is_empty() { vec![1, 2] } else { ts };
    let mut forms: Vec<(String, Box<dyn FnMut() + '_>)> = vec![
        (
            "loop bytes".into(),
            Box::new(|| {
                for i in 0..n {
                    let vk = VerifyingKey::from_bytes(alg, &pks[i]).unwrap();
                    assert!(vk.verify(&msgs[i], b"", &sigs[i]).is_ok());
                }
            }),
        ),
        (
            "loop objects".into(),
            Box::new(|| {
                for i in 0..n {
                    assert!(vks[i].verify(&msgs[i], b"", &sigs[i]).is_ok());
                }
            }),
        ),
    ];
    for &t in &ts {
        let o = Options::threads(t);
        let (enc, obj) = (&enc, &obj);
        let o2 = o.clone();
        forms.push((
            format!("batch bytes {t}T"),
            Box::new(move || assert!(batch::verify_batch_with(enc, &o).iter().all(|r| r.is_ok()))),
        ));
        forms.push((
            format!("batch objects {t}T"),
            Box::new(move || assert!(batch::verify_batch_with(obj, &o2).iter().all(|r| r.is_ok()))),
        ));
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    for _ in 0..rounds {
        for (k, (_, f)) in forms.iter_mut().enumerate() {
            let s = Instant::now();
            f();
            times[k].push(s.elapsed().as_secs_f64() * 1e6 / n as f64);
        }
    }
    let med: Vec<f64> = times
        .iter_mut()
        .map(|t| {
            t.sort_by(|a, b| a.partial_cmp(b).unwrap());
            t[rounds / 2]
        })
        .collect();
    for (k, (label, _)) in forms.iter().enumerate() {
        let base = if label.contains("bytes") {
            med[0]
        } else {
            med[1]
        };
        let one = forms.iter().position(|(l, _)| {
            l.starts_with("batch")
                && l.contains(if label.contains("bytes") {
                    "bytes"
                } else {
                    "objects"
                })
                && l.ends_with(" 1T")
        });
        let scale = one
            .map(|o| format!(" | {:.2}x the 1T throughput", med[o] / med[k]))
            .unwrap_or_default();
        println!(
            "{name} {label:<26} {:>8.2} µs/item  {:.3}x the loop{scale}",
            med[k],
            med[k] / base
        );
    }
}
