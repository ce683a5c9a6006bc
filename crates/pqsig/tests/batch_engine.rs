//! The batch engine (`pqsig::batch`): every item's result equals the single call, for
//! every algorithm, keys as objects and encodings, messages and μ, contexts, on 1, 2 and
//! all threads; devices that answer slowly, out of order, fail, answer malformed, refuse
//! or never answer still give the CPU engine's results; a kernel device receives each
//! lockstep group's transforms as one request, and a faulty one changes nothing.

use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::batch::device::{self, OwnedVerifyItem};
use pqsig::batch::MlDsaPoly;
use pqsig::batch::{
    self, Capabilities, Device, DeviceInfo, Job, JobOutput, KernelDevice, Message, Operation,
    Options, SignItem, SignKey, Ticket, TransformMode, VerifyItem, VerifyKey,
};
use pqsig::{Algorithm, DeviceError, Error};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Keys, messages and signatures of one algorithm, and the items built on them.
struct Fixture {
    alg: Algorithm,
    sks: Vec<SigningKey>,
    vks: Vec<VerifyingKey>,
    msgs: Vec<Vec<u8>>,
    ctxs: Vec<Vec<u8>>,
    sigs: Vec<Vec<u8>>,
    mus: Vec<Option<[u8; 64]>>,
}

const PER_ALG: usize = 10;

impl Fixture {
    fn new(alg: Algorithm) -> Self {
        let sks: Vec<SigningKey> = (0..3u8)
            .map(|s| {
                SigningKey::from_seed(alg, &vec![s.wrapping_mul(37) ^ 5; alg.seed_len()]).unwrap()
            })
            .collect();
        let vks: Vec<VerifyingKey> = sks.iter().map(SigningKey::verifying_key).collect();
        let (mut msgs, mut ctxs, mut sigs, mut mus) = (vec![], vec![], vec![], vec![]);
        for i in 0..PER_ALG {
            let msg: Vec<u8> = (0..(i * 11) % 40).map(|b| (b * 7 + i) as u8).collect();
            let ctx: Vec<u8> = if alg.supports_context() && i % 3 == 1 {
                b"app".to_vec()
            } else {
                vec![]
            };
            let sk = &sks[i % sks.len()];
            let mut sig = sk.sign(&msg, &ctx).unwrap();
            match i % 5 {
                1 => {
                    let mid = sig.len() / 2;
                    sig[mid] ^= 0x10; // tampered
                }
                2 if i == 2 => sig.truncate(3), // malformed
                _ => {}
            }
            mus.push(vks[i % vks.len()].compute_mu(&msg, &ctx).ok());
            msgs.push(msg);
            ctxs.push(ctx);
            sigs.push(sig);
        }
        Fixture {
            alg,
            sks,
            vks,
            msgs,
            ctxs,
            sigs,
            mus,
        }
    }

    /// Items mixing every form: objects, encodings, a wrong-length key, a key of the
    /// wrong signer, μ where the algorithm has it, a context where it has none.
    fn verify_items(&self) -> Vec<VerifyItem<'_>> {
        (0..PER_ALG)
            .map(|i| {
                let vk = &self.vks[(i + (i == 7) as usize) % self.vks.len()];
                let key = match i % 3 {
                    0 => VerifyKey::Object(vk),
                    _ if i == 4 => VerifyKey::Encoded {
                        alg: self.alg,
                        pk: &vk.to_bytes()[1..],
                    },
                    _ => VerifyKey::Encoded {
                        alg: self.alg,
                        pk: vk.to_bytes(),
                    },
                };
                let (message, context): (Message<'_>, &[u8]) = match (&self.mus[i], i % 4) {
                    (Some(mu), 3) => (Message::Mu(mu), &[]),
                    (Some(mu), 0) if i == 8 => (Message::Mu(mu), b"ctx"),
                    _ if i == 5 => (Message::Raw(&self.msgs[i]), b"not-allowed-or-wrong"),
                    _ => (Message::Raw(&self.msgs[i]), &self.ctxs[i]),
                };
                VerifyItem {
                    key,
                    message,
                    context,
                    signature: &self.sigs[i],
                }
            })
            .collect()
    }

    fn sign_items(&self) -> Vec<SignItem<'_>> {
        let encoded: Vec<_> = self.sks.iter().map(|k| k.to_bytes()).collect();
        // The encodings must outlive the items: leak them (test only).
        let encoded: &'static [zeroize::Zeroizing<Vec<u8>>] = Box::leak(encoded.into_boxed_slice());
        (0..PER_ALG)
            .map(|i| SignItem {
                key: if i % 2 == 0 {
                    SignKey::Object(&self.sks[i % self.sks.len()])
                } else {
                    SignKey::Encoded {
                        alg: self.alg,
                        sk: &encoded[i % encoded.len()],
                    }
                },
                message: Message::Raw(&self.msgs[i]),
                context: &self.ctxs[i],
                deterministic: i % 3 != 2,
            })
            .collect()
    }
}

/// The single call an item stands for.
fn single_verify(it: &VerifyItem<'_>) -> Result<(), Error> {
    let vk = match it.key {
        VerifyKey::Object(k) => k.clone(),
        VerifyKey::Encoded { alg, pk } => VerifyingKey::from_bytes(alg, pk)?,
    };
    match it.message {
        Message::Raw(m) => vk.verify(m, it.context, it.signature),
        Message::Mu(mu) if it.context.is_empty() => vk.verify_mu(mu, it.signature),
        Message::Mu(_) => Err(Error::Unsupported),
    }
}

fn single_sign(it: &SignItem<'_>) -> Result<Vec<u8>, Error> {
    let sk = match it.key {
        SignKey::Object(k) => SigningKey::from_bytes(k.algorithm(), &k.to_bytes())?,
        SignKey::Encoded { alg, sk } => SigningKey::from_bytes(alg, sk)?,
    };
    let Message::Raw(m) = it.message else {
        unreachable!()
    };
    if it.deterministic {
        sk.sign_deterministic(m, it.context)
    } else {
        sk.sign(m, it.context)
    }
}

fn fixtures(algs: &[Algorithm]) -> Vec<Fixture> {
    algs.iter().map(|&a| Fixture::new(a)).collect()
}

/// The fast parameter sets of each family (the every-algorithm test covers the rest).
fn fast_algs() -> Vec<Algorithm> {
    [
        "ML-DSA-44",
        "ML-DSA-65",
        "ML-DSA-87",
        "Falcon-512",
        "Falcon-padded-512",
        "FN-DSA-512",
        "SNOVA_I_S",
    ]
    .iter()
    .map(|n| Algorithm::from_name(n).unwrap())
    .collect()
}

/// Checks `got` against the single calls; returns how many items were valid (so that
/// a test can insist on having valid ones).
fn check_verify(items: &[VerifyItem<'_>], got: &[Result<(), Error>], what: &str) -> usize {
    assert_eq!(got.len(), items.len(), "{what}");
    let mut valid = 0;
    for (i, (it, g)) in items.iter().zip(got).enumerate() {
        assert_eq!(
            *g,
            single_verify(it),
            "{what}: item {i} ({})",
            it.algorithm()
        );
        valid += g.is_ok() as usize;
    }
    valid
}

fn check_sign(items: &[SignItem<'_>], got: &[Result<Vec<u8>, Error>], what: &str) {
    assert_eq!(got.len(), items.len(), "{what}");
    for (i, (it, g)) in items.iter().zip(got).enumerate() {
        let want = single_sign(it);
        match (g, &want) {
            (Ok(sig), Ok(w)) if it.deterministic => assert_eq!(sig, w, "{what}: item {i}"),
            (Ok(sig), Ok(_)) => {
                // Hedged: a different signature, valid under the key.
                let vk = match it.key {
                    SignKey::Object(k) => k.verifying_key(),
                    SignKey::Encoded { alg, sk } => {
                        SigningKey::from_bytes(alg, sk).unwrap().verifying_key()
                    }
                };
                let Message::Raw(m) = it.message else {
                    unreachable!()
                };
                assert_eq!(vk.verify(m, it.context, sig), Ok(()), "{what}: item {i}");
            }
            (g, w) => assert_eq!(g.as_ref().err(), w.as_ref().err(), "{what}: item {i}"),
        }
    }
}

#[test]
fn every_algorithm_mixed_in_one_batch_equals_single_calls() {
    let fx = fixtures(Algorithm::ALL);
    let items: Vec<VerifyItem<'_>> = fx.iter().flat_map(Fixture::verify_items).collect();
    for threads in [Some(1), Some(2), None] {
        let opts = Options {
            threads,
            ..Options::default()
        };
        let got = batch::verify_batch_with(&items, &opts);
        let valid = check_verify(&items, &got, &format!("threads {threads:?}"));
        assert!(
            valid >= Algorithm::ALL.len() * 3,
            "too few valid items: {valid}"
        );
    }
    let sign: Vec<SignItem<'_>> = fx.iter().flat_map(Fixture::sign_items).collect();
    check_sign(
        &sign,
        &batch::sign_batch_with(&sign, &Options::threads(2)),
        "sign",
    );
}

#[test]
fn pinned_backends_and_empty_batches() {
    assert!(batch::verify_batch_with(&[], &Options::default()).is_empty());
    assert!(batch::sign_batch_with(&[], &Options::default()).is_empty());
    let fx = fixtures(&fast_algs());
    for b in pqsig::Backend::available() {
        let vks: Vec<Vec<VerifyingKey>> = fx
            .iter()
            .map(|f| {
                f.vks
                    .iter()
                    .map(|k| k.clone().with_backend(b).unwrap())
                    .collect()
            })
            .collect();
        let mut items = Vec::new();
        for (f, vks) in fx.iter().zip(&vks) {
            for i in 0..PER_ALG {
                items.push(VerifyItem {
                    key: VerifyKey::Object(&vks[i % vks.len()]),
                    message: Message::Raw(&f.msgs[i]),
                    context: &f.ctxs[i],
                    signature: &f.sigs[i],
                });
            }
        }
        let opts = Options {
            backend: Some(b),
            threads: Some(1),
            ..Options::default()
        };
        check_verify(
            &items,
            &batch::verify_batch_with(&items, &opts),
            &format!("{b}"),
        );
    }
}

/// How the scripted device misbehaves.
#[derive(Clone, Copy, Debug)]
enum Script {
    /// Answers every job, after a delay, the last submitted first.
    SlowReversed,
    /// Fails every second job, answers one with the wrong number of results and one
    /// with the wrong kind.
    Faulty,
    /// Busy after one job in flight; declines every third submission.
    Refusing,
    /// Never answers (the engine's timeout sends the work to the CPU).
    Silent,
}

/// A device driven by a script; it computes answers with the CPU engine on its own
/// thread, so its correct answers are right and its faults are deliberate.
struct Scripted {
    name: String,
    script: Script,
    next: AtomicUsize,
    done: Mutex<HashMap<u64, Result<JobOutput, DeviceError>>>,
    ready_at: Mutex<HashMap<u64, std::time::Instant>>,
    submitted: AtomicUsize,
    answered_ok: AtomicUsize,
}

impl Scripted {
    fn new(name: &str, script: Script) -> Arc<Self> {
        Arc::new(Scripted {
            name: name.into(),
            script,
            next: AtomicUsize::new(0),
            done: Mutex::new(HashMap::new()),
            ready_at: Mutex::new(HashMap::new()),
            submitted: AtomicUsize::new(0),
            answered_ok: AtomicUsize::new(0),
        })
    }
}

impl Device for Scripted {
    fn info(&self) -> DeviceInfo {
        DeviceInfo {
            name: self.name.clone(),
            description: format!("test device ({:?})", self.script),
        }
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            // Every algorithm but SNOVA: those items must go to the CPU.
            algorithms: Algorithm::ALL
                .iter()
                .copied()
                .filter(|a| !matches!(a, Algorithm::Snova(_)))
                .collect(),
            operations: vec![Operation::Verify, Operation::Sign],
            preferred_batch: 7,
            max_batch: 7,
            max_in_flight: 3,
            timeout: Duration::from_millis(if matches!(self.script, Script::Silent) {
                30
            } else {
                20_000
            }),
        }
    }

    fn submit(&self, job: Job) -> Result<Ticket, DeviceError> {
        let n = self.next.fetch_add(1, Ordering::SeqCst) as u64;
        match self.script {
            Script::Refusing if n % 3 == 2 => return Err(DeviceError::Declined),
            Script::Refusing if !self.done.lock().unwrap().is_empty() => {
                return Err(DeviceError::Busy)
            }
            _ => {}
        }
        self.submitted.fetch_add(1, Ordering::SeqCst);
        let out = match self.script {
            Script::Faulty if n % 2 == 1 => Err(DeviceError::Failed),
            Script::Faulty if n == 2 => Ok(match device::run_on_cpu(&job) {
                JobOutput::Verify(mut v) => {
                    v.pop();
                    JobOutput::Verify(v)
                }
                JobOutput::Sign(mut v) => {
                    v.pop();
                    JobOutput::Sign(v)
                }
            }),
            Script::Faulty if n == 4 => Ok(match job {
                Job::Verify(_) => JobOutput::Sign(vec![]),
                Job::Sign(_) => JobOutput::Verify(vec![]),
            }),
            _ => Ok(device::run_on_cpu(&job)),
        };
        // Later tickets become ready first (out of order).
        let delay = match self.script {
            Script::SlowReversed => Duration::from_millis(40u64.saturating_sub(5 * n)),
            _ => Duration::ZERO,
        };
        self.ready_at
            .lock()
            .unwrap()
            .insert(n, std::time::Instant::now() + delay);
        self.done.lock().unwrap().insert(n, out);
        Ok(Ticket(n))
    }

    fn poll(&self, t: Ticket) -> Option<Result<JobOutput, DeviceError>> {
        if matches!(self.script, Script::Silent) {
            return None;
        }
        let ready = self.ready_at.lock().unwrap().get(&t.0).copied();
        match ready {
            Some(at) if std::time::Instant::now() < at => None,
            _ => {
                let r = self.done.lock().unwrap().remove(&t.0)?;
                if r.is_ok() {
                    self.answered_ok.fetch_add(1, Ordering::SeqCst);
                }
                Some(r)
            }
        }
    }
}

#[test]
fn devices_that_misbehave_give_the_cpu_results() {
    let fx = fixtures(&fast_algs());
    let items: Vec<VerifyItem<'_>> = fx.iter().flat_map(Fixture::verify_items).collect();
    let sign: Vec<SignItem<'_>> = fx.iter().flat_map(Fixture::sign_items).collect();
    for script in [
        Script::SlowReversed,
        Script::Faulty,
        Script::Refusing,
        Script::Silent,
    ] {
        let dev = Scripted::new(&format!("scripted-{script:?}"), script);
        let opts = Options {
            device: Some(dev.clone()),
            ..Options::default()
        };
        let got = batch::verify_batch_with(&items, &opts);
        assert!(check_verify(&items, &got, &format!("{script:?}")) > 10);
        check_sign(
            &sign,
            &batch::sign_batch_with(&sign, &opts),
            &format!("{script:?} sign"),
        );
        let (sub, ok) = (
            dev.submitted.load(Ordering::SeqCst),
            dev.answered_ok.load(Ordering::SeqCst),
        );
        assert!(sub > 0, "{script:?}: the device was never used");
        match script {
            Script::Silent => assert_eq!(ok, 0),
            _ => assert!(ok > 0, "{script:?}: no job completed on the device"),
        }
    }
}

#[test]
fn registry_names_devices_and_the_builtin_queue_works() {
    assert!(device::by_name("cpu").unwrap().is_none());
    assert!(device::by_name("CPU").unwrap().is_none());
    assert_eq!(
        device::by_name("no-such-device").err(),
        Some(Error::Device(DeviceError::NotFound))
    );
    let names: Vec<String> = device::list().iter().map(|d| d.info().name).collect();
    assert!(names.contains(&"cpu-queue".to_string()), "{names:?}");

    let dev = Scripted::new("registry-test", Script::SlowReversed);
    device::register(dev.clone()).unwrap();
    assert_eq!(
        device::register(dev.clone()),
        Err(Error::Unsupported),
        "duplicate name"
    );
    assert_eq!(
        device::register(Scripted::new("cpu", Script::SlowReversed)),
        Err(Error::Unsupported)
    );
    let found = device::by_name("Registry-Test").unwrap().unwrap();
    assert_eq!(found.info().name, "registry-test");

    let fx = fixtures(&fast_algs());
    let items: Vec<VerifyItem<'_>> = fx.iter().flat_map(Fixture::verify_items).collect();
    let sign: Vec<SignItem<'_>> = fx.iter().flat_map(Fixture::sign_items).collect();
    let opts = Options::default().with_device_name("cpu-queue").unwrap();
    check_verify(
        &items,
        &batch::verify_batch_with(&items, &opts),
        "cpu-queue",
    );
    check_sign(
        &sign,
        &batch::sign_batch_with(&sign, &opts),
        "cpu-queue sign",
    );
    // Owned items convert back to the same borrowed items.
    let owned: Vec<OwnedVerifyItem> = items
        .iter()
        .map(|it| OwnedVerifyItem {
            alg: it.algorithm(),
            pk: match it.key {
                VerifyKey::Object(k) => k.to_bytes().to_vec(),
                VerifyKey::Encoded { pk, .. } => pk.to_vec(),
            },
            msg: match it.message {
                Message::Raw(m) | Message::Mu(m) => m.to_vec(),
            },
            is_mu: matches!(it.message, Message::Mu(_)),
            ctx: it.context.to_vec(),
            sig: it.signature.to_vec(),
        })
        .collect();
    let back: Vec<VerifyItem<'_>> = owned.iter().map(OwnedVerifyItem::as_item).collect();
    check_verify(
        &back,
        &batch::verify_batch_with(&back, &Options::default()),
        "owned",
    );
}

/// ML-DSA's transforms by definition (evaluation at ζ^(2·brv8(i)+1), O(n²)): an
/// implementation independent of the library's kernels.
mod naive {
    pub const Q: i64 = 8380417;
    const ZETA: i64 = 1753;

    fn pow(mut b: i64, mut e: u64) -> i64 {
        let mut r = 1i64;
        b = b.rem_euclid(Q);
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % Q;
            }
            b = b * b % Q;
            e >>= 1;
        }
        r
    }

    fn roots() -> Vec<i64> {
        (0..256u32)
            .map(|i| pow(ZETA, 2 * (i as u8).reverse_bits() as u64 + 1))
            .collect()
    }

    pub fn ntt(a: &mut [i32; 256]) {
        let r = roots();
        let src: Vec<i64> = a.iter().map(|&x| (x as i64).rem_euclid(Q)).collect();
        for (i, out) in a.iter_mut().enumerate() {
            let (mut acc, mut x) = (0i64, 1i64);
            for &c in &src {
                acc = (acc + c * x) % Q;
                x = x * r[i] % Q;
            }
            *out = acc as i32;
        }
    }

    /// Inverse transform times 2^32 mod q (the kernels' Montgomery convention).
    pub fn invntt_tomont(a: &mut [i32; 256]) {
        let r = roots();
        let ninv = pow(256, (Q - 2) as u64);
        let mont = pow(2, 32);
        let src: Vec<i64> = a.iter().map(|&x| (x as i64).rem_euclid(Q)).collect();
        for (j, out) in a.iter_mut().enumerate() {
            let mut acc = 0i64;
            for (i, &c) in src.iter().enumerate() {
                acc = (acc + c * pow(r[i], (512 - j as u64) % 512)) % Q;
            }
            *out = (acc * ninv % Q * mont % Q) as i32;
        }
    }
}

/// A kernel device computing the transforms by definition; it may be told to fail or to
/// return garbage, and records the size of every request.
struct NaiveNtt {
    mode: &'static str,
    requests: Mutex<Vec<(TransformMode, usize)>>,
}

impl KernelDevice for NaiveNtt {
    fn name(&self) -> String {
        format!("naive-ntt-{}", self.mode)
    }
    fn max_polys(&self) -> usize {
        4096
    }
    fn supports(&self, mode: TransformMode) -> bool {
        matches!(
            mode,
            TransformMode::MlDsaNtt | TransformMode::MlDsaInvNttToMont
        )
    }
    fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }
    fn transform_mldsa(
        &self,
        mode: TransformMode,
        polys: &mut [MlDsaPoly],
    ) -> Result<(), DeviceError> {
        self.requests.lock().unwrap().push((mode, polys.len()));
        match self.mode {
            "fail" => return Err(DeviceError::Failed),
            "garbage" => {
                polys.iter_mut().for_each(|p| p.coeffs.fill(i32::MAX));
                return Ok(());
            }
            _ => {}
        }
        for p in polys.iter_mut() {
            match mode {
                TransformMode::MlDsaNtt => naive::ntt(&mut p.coeffs),
                TransformMode::MlDsaInvNttToMont => naive::invntt_tomont(&mut p.coeffs),
                _ => return Err(DeviceError::Declined),
            }
        }
        Ok(())
    }
}

#[test]
fn kernel_device_receives_whole_groups_and_cannot_change_verdicts() {
    let alg = Algorithm::from_name("ML-DSA-44").unwrap();
    let sks: Vec<SigningKey> = (0..24u8)
        .map(|s| SigningKey::from_seed(alg, &[s; 32]).unwrap())
        .collect();
    let pks: Vec<Vec<u8>> = sks
        .iter()
        .map(|k| k.verifying_key().to_bytes().to_vec())
        .collect();
    let msgs: Vec<Vec<u8>> = (0..24).map(|i| vec![i as u8; 5]).collect();
    let mut sigs: Vec<Vec<u8>> = (0..24)
        .map(|i| sks[i].sign(&msgs[i], b"").unwrap())
        .collect();
    sigs[3][0] ^= 1;
    let items: Vec<VerifyItem<'_>> = (0..24)
        .map(|i| VerifyItem::encoded(alg, &pks[i], &msgs[i], &sigs[i]))
        .collect();
    for mode in ["exact", "fail", "garbage"] {
        let dev = Arc::new(NaiveNtt {
            mode,
            requests: Mutex::new(vec![]),
        });
        let opts = Options {
            kernel_device: Some(dev.clone()),
            threads: Some(1),
            ..Options::default()
        };
        let got = batch::verify_batch_with(&items, &opts);
        assert_eq!(check_verify(&items, &got, mode), 23, "{mode}");
        let reqs = dev.requests.lock().unwrap().clone();
        // One group: t1 (24·k), c (24), z (24·l) forward; w (24·k) inverse.
        let (k, l) = (4, 4);
        assert_eq!(
            reqs,
            vec![
                (TransformMode::MlDsaNtt, 24 * k),
                (TransformMode::MlDsaNtt, 24 * l),
                (TransformMode::MlDsaNtt, 24),
                (TransformMode::MlDsaInvNttToMont, 24 * k),
            ],
            "{mode}"
        );
    }
}

/// Round-3 Falcon in lockstep: hash-to-point four-way across inputs of the same block
/// count (messages across the 95/96-byte and 231/232-byte edges, long ones hashed
/// alone), keys as objects and encodings, tampered, truncated and wrong-degree
/// signatures, a wrong key — every verdict the single call's, on 1 and 2 threads.
#[test]
fn falcon_lockstep_equals_single_calls() {
    let lens = [
        0usize, 1, 40, 95, 96, 97, 135, 136, 231, 232, 300, 4055, 4056, 5000,
    ];
    for name in [
        "Falcon-512",
        "Falcon-1024",
        "Falcon-padded-512",
        "Falcon-padded-1024",
    ] {
        let alg = Algorithm::from_name(name).unwrap();
        let other = Algorithm::from_name(if name.contains("1024") {
            "Falcon-512"
        } else {
            "Falcon-1024"
        })
        .unwrap();
        let sks: Vec<SigningKey> = (0..3u8)
            .map(|s| SigningKey::from_seed(alg, &vec![s + 1; alg.seed_len()]).unwrap())
            .collect();
        let vks: Vec<VerifyingKey> = sks.iter().map(SigningKey::verifying_key).collect();
        let pks: Vec<Vec<u8>> = vks.iter().map(|k| k.to_bytes().to_vec()).collect();
        let wrong_degree = SigningKey::from_seed(other, &vec![9; other.seed_len()])
            .unwrap()
            .sign(b"x", b"")
            .unwrap();
        let mut msgs = Vec::new();
        let mut sigs = Vec::new();
        for (i, &len) in lens.iter().cycle().take(3 * lens.len()).enumerate() {
            let msg: Vec<u8> = (0..len).map(|b| (b * 13 + i) as u8).collect();
            let mut sig = sks[i % 3].sign(&msg, b"").unwrap();
            match i % 7 {
                3 => sig[60] ^= 4,
                5 => sig.truncate(sig.len() - 1),
                6 if i % 2 == 0 => sig = wrong_degree.clone(),
                _ => {}
            }
            msgs.push(msg);
            sigs.push(sig);
        }
        let mut bad_key = pks[0].clone();
        bad_key[0] ^= 1;
        let items: Vec<VerifyItem<'_>> = (0..msgs.len())
            .map(|i| {
                let k = (i + (i % 11 == 4) as usize) % 3; // some under the wrong key
                match i % 4 {
                    0 => VerifyItem::new(&vks[k], &msgs[i], &sigs[i]),
                    1 if i % 9 == 1 => VerifyItem::encoded(alg, &bad_key, &msgs[i], &sigs[i]),
                    _ => VerifyItem::encoded(alg, &pks[k], &msgs[i], &sigs[i]),
                }
            })
            .collect();
        for threads in [1, 2] {
            let got = batch::verify_batch_with(&items, &Options::threads(threads));
            let ok = check_verify(&items, &got, &format!("{name} threads {threads}"));
            assert!(
                ok > items.len() / 3 && ok < items.len(),
                "{name}: {ok} valid"
            );
        }
    }
}
