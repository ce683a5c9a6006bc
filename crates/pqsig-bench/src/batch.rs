//! Batch rows: pqsig's batch engine (`pqsig::batch::verify_batch_with` /
//! `sign_batch_with`) against a loop of single calls on the same items, interleaved in
//! one group per (algorithm, operation) so the ratios come from one run.
//!
//! N items (`--batch`, default 64) under N distinct keys, short distinct messages, empty
//! context. Rows: `verify_batch` / `sign_batch` at threads 1, 2 (and all hardware threads
//! when there are more), `api` `bytes` (keys as encodings: the engine decodes them) and
//! `object` (decoded keys); the baselines `verify_loop` / `sign_loop` (threads 1, the
//! same two API forms: `VerifyingKey::from_bytes` + `verify` per item, or `verify` on
//! the decoded key). `median_ns` is per item. ML-DSA signs deterministically (so both
//! paths do the same work); Falcon, FN-DSA and SNOVA hedged.

use crate::measure::{self, Plan, Totals, Unit};
use crate::report::Row;
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::batch::{self, Message, Options, SignItem, SignKey, VerifyItem, VerifyKey};
use pqsig::Algorithm;
use std::time::Duration;
use zeroize::Zeroizing;

/// The parameter sets with batch rows.
pub const ALGS: [&str; 6] = [
    "ML-DSA-44",
    "ML-DSA-65",
    "ML-DSA-87",
    "Falcon-512",
    "FN-DSA-512",
    "SNOVA_I_S",
];

struct Fixture {
    alg: Algorithm,
    sks: Vec<SigningKey>,
    sk_bytes: Vec<Zeroizing<Vec<u8>>>,
    vks: Vec<VerifyingKey>,
    pks: Vec<Vec<u8>>,
    msgs: Vec<Vec<u8>>,
    sigs: Vec<Vec<u8>>,
}

impl Fixture {
    fn new(alg: Algorithm, n: usize) -> Self {
        let sks: Vec<SigningKey> = (0..n)
            .map(|i| {
                let mut seed = vec![0u8; alg.seed_len()];
                seed[..8].copy_from_slice(&(i as u64 + 1).to_le_bytes());
                SigningKey::from_seed(alg, &seed).expect("keygen")
            })
            .collect();
        let vks: Vec<VerifyingKey> = sks.iter().map(SigningKey::verifying_key).collect();
        let msgs: Vec<Vec<u8>> = (0..n)
            .map(|i| format!("batch message {i:06}").into_bytes())
            .collect();
        let sigs = sks
            .iter()
            .zip(&msgs)
            .map(|(k, m)| k.sign(m, b"").expect("sign"))
            .collect();
        Fixture {
            alg,
            sk_bytes: sks.iter().map(SigningKey::to_bytes).collect(),
            pks: vks.iter().map(|k| k.to_bytes().to_vec()).collect(),
            sks,
            vks,
            msgs,
            sigs,
        }
    }

    fn deterministic(&self) -> bool {
        self.alg.supports_deterministic()
    }

    fn verify_items(&self, bytes: bool) -> Vec<VerifyItem<'_>> {
        (0..self.msgs.len())
            .map(|i| VerifyItem {
                key: if bytes {
                    VerifyKey::Encoded {
                        alg: self.alg,
                        pk: &self.pks[i],
                    }
                } else {
                    VerifyKey::Object(&self.vks[i])
                },
                message: Message::Raw(&self.msgs[i]),
                context: &[],
                signature: &self.sigs[i],
            })
            .collect()
    }

    fn sign_items(&self, bytes: bool) -> Vec<SignItem<'_>> {
        (0..self.msgs.len())
            .map(|i| SignItem {
                key: if bytes {
                    SignKey::Encoded {
                        alg: self.alg,
                        sk: &self.sk_bytes[i],
                    }
                } else {
                    SignKey::Object(&self.sks[i])
                },
                message: Message::Raw(&self.msgs[i]),
                context: &[],
                deterministic: self.deterministic(),
            })
            .collect()
    }
}

/// What one unit times: one sample is the whole batch.
#[derive(Clone, Copy, Debug)]
enum Kind {
    VerifyLoop { bytes: bool },
    VerifyBatch { bytes: bool, threads: usize },
    SignLoop { bytes: bool },
    SignBatch { bytes: bool, threads: usize },
}

struct BatchUnit<'a> {
    fx: &'a Fixture,
    kind: Kind,
    failures: usize,
}

impl Unit for BatchUnit<'_> {
    fn run(&mut self, _j: usize) {
        let fx = self.fx;
        let ok = match self.kind {
            Kind::VerifyLoop { bytes } => (0..fx.msgs.len()).all(|i| {
                if bytes {
                    VerifyingKey::from_bytes(fx.alg, &fx.pks[i])
                        .and_then(|k| k.verify(&fx.msgs[i], b"", &fx.sigs[i]))
                        .is_ok()
                } else {
                    fx.vks[i].verify(&fx.msgs[i], b"", &fx.sigs[i]).is_ok()
                }
            }),
            Kind::VerifyBatch { bytes, threads } => {
                batch::verify_batch_with(&fx.verify_items(bytes), &Options::threads(threads))
                    .iter()
                    .all(Result::is_ok)
            }
            Kind::SignLoop { bytes } => (0..fx.msgs.len()).all(|i| {
                let sign = |k: &SigningKey| {
                    if fx.deterministic() {
                        k.sign_deterministic(&fx.msgs[i], b"")
                    } else {
                        k.sign(&fx.msgs[i], b"")
                    }
                };
                if bytes {
                    SigningKey::from_bytes(fx.alg, &fx.sk_bytes[i])
                        .and_then(|k| sign(&k))
                        .is_ok()
                } else {
                    sign(&fx.sks[i]).is_ok()
                }
            }),
            Kind::SignBatch { bytes, threads } => {
                batch::sign_batch_with(&fx.sign_items(bytes), &Options::threads(threads))
                    .iter()
                    .all(Result::is_ok)
            }
        };
        if !ok {
            self.failures += 1;
        }
    }

    fn ops_per_sample(&self) -> usize {
        self.fx.msgs.len()
    }
}

/// Thread counts measured: 1, 2, and all hardware threads when there are more.
fn thread_counts() -> Vec<usize> {
    let hw = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut t = vec![1, 2];
    if hw > 2 {
        t.push(hw);
    }
    t
}

/// Batch rows of one algorithm (`n` items; `rounds` batches per unit at most, within
/// `cap`).
pub fn bench(name: &str, n: usize, rounds: usize, cap: Duration, totals: &mut Totals) -> Vec<Row> {
    let Ok(alg) = Algorithm::from_name(name) else {
        return vec![Row::warning(
            name,
            "verify_batch",
            "pqsig",
            "auto",
            None,
            "unknown algorithm".into(),
        )];
    };
    let fx = Fixture::new(alg, n);
    // The scheme rows leave the last backend they timed pinned: batch rows run on the
    // one detection picks (the default a user gets).
    let _ = pqsig::backend::set_backend(pqsig::Backend::detect());
    let backend = pqsig::backend::active().name().to_string();
    let mut rows = Vec::new();
    for verify in [true, false] {
        let mut kinds = Vec::new();
        for bytes in [true, false] {
            kinds.push(if verify {
                Kind::VerifyLoop { bytes }
            } else {
                Kind::SignLoop { bytes }
            });
            for threads in thread_counts() {
                kinds.push(if verify {
                    Kind::VerifyBatch { bytes, threads }
                } else {
                    Kind::SignBatch { bytes, threads }
                });
            }
        }
        let mut units: Vec<BatchUnit<'_>> = kinds
            .iter()
            .map(|&kind| BatchUnit {
                fx: &fx,
                kind,
                failures: 0,
            })
            .collect();
        let plan = Plan {
            rounds: if verify {
                rounds
            } else {
                rounds.div_ceil(4).max(1)
            },
            samples_per_round: 1,
            warmup_rounds: 1,
            max_time: cap,
        };
        let stats = {
            let mut dyn_units: Vec<&mut dyn Unit> =
                units.iter_mut().map(|u| u as &mut dyn Unit).collect();
            measure::interleaved(&mut dyn_units, plan, totals)
        };
        for (u, s) in units.iter().zip(stats) {
            let (op, bytes, threads) = match u.kind {
                Kind::VerifyLoop { bytes } => ("verify_loop", bytes, 1),
                Kind::VerifyBatch { bytes, threads } => ("verify_batch", bytes, threads),
                Kind::SignLoop { bytes } => ("sign_loop", bytes, 1),
                Kind::SignBatch { bytes, threads } => ("sign_batch", bytes, threads),
            };
            let api = if bytes { "bytes" } else { "object" };
            if u.failures > 0 {
                rows.push(Row::warning(
                    name,
                    op,
                    "pqsig",
                    &backend,
                    Some(api),
                    format!("{} batches had a failed item while timing", u.failures),
                ));
                continue;
            }
            rows.push(Row {
                alg: name.into(),
                op: op.into(),
                imp: "pqsig".into(),
                backend: backend.clone(),
                api: Some(api.into()),
                fpr: None,
                variant: None,
                note: Some(if op.starts_with("sign") && !fx.deterministic() {
                    "hedged".into()
                } else if op.starts_with("sign") {
                    "deterministic".into()
                } else {
                    "distinct keys".into()
                }),
                median_ns: s.median_ns,
                median_ticks: s.median_ticks,
                iters: s.iters,
                warning: None,
                batch: Some(n),
                threads: Some(threads),
            });
        }
    }
    rows
}
