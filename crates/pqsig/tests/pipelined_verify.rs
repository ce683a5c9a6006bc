//! ML-DSA batch verification on a kernel device that takes asynchronous requests
//! (`KernelDevice::pipelines`): the engine then verifies each group in pipelined
//! sub-groups. Every verdict must be the single call's, whatever the device does —
//! answer, fail, answer out of bounds, answer half and fail, refuse submissions — and
//! every ticket it hands out must be completed or cancelled.

use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::batch::{
    self, KernelDevice, Message, MlDsaPoly, Options, TransformMode, VerifyItem, VerifyKey,
};
use pqsig::{Algorithm, DeviceError, Error};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// What the test device does with the requests it gets.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Behaviour {
    /// Computes with the CPU kernels, at completion.
    Exact,
    /// Every completion fails.
    Fail,
    /// Completions succeed with coefficients out of the output bound.
    Garbage,
    /// Completions write half the results, then fail.
    Partial,
    /// Every other submission is refused (the CPU runs those).
    RefuseSome,
}

/// An asynchronous kernel device: a submission keeps a copy of its input, the
/// completion computes it (so the host really works between the two).
struct AsyncNtt {
    how: Behaviour,
    next: AtomicU64,
    pending: Mutex<HashMap<u64, (TransformMode, Vec<MlDsaPoly>)>>,
    submits: AtomicUsize,
    completes: AtomicUsize,
    cancels: AtomicUsize,
    syncs: AtomicUsize,
}

impl AsyncNtt {
    fn new(how: Behaviour) -> Arc<Self> {
        Arc::new(AsyncNtt {
            how,
            next: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            submits: AtomicUsize::new(0),
            completes: AtomicUsize::new(0),
            cancels: AtomicUsize::new(0),
            syncs: AtomicUsize::new(0),
        })
    }
}

fn cpu(mode: TransformMode, polys: &mut [MlDsaPoly]) {
    let k = pqsig::kernels::mldsa::base_kernels(pqsig::backend::active());
    match mode {
        TransformMode::MlDsaNtt => (k.ntt)(polys),
        _ => (k.invntt_tomont)(polys),
    }
}

impl KernelDevice for AsyncNtt {
    fn name(&self) -> String {
        format!("async-ntt-{:?}", self.how)
    }
    fn max_polys(&self) -> usize {
        // Small, so that large sub-groups are cut into several tickets.
        100
    }
    fn supports(&self, mode: TransformMode) -> bool {
        matches!(
            mode,
            TransformMode::MlDsaNtt | TransformMode::MlDsaInvNttToMont
        )
    }
    fn transform_mldsa(
        &self,
        mode: TransformMode,
        polys: &mut [MlDsaPoly],
    ) -> Result<(), DeviceError> {
        self.syncs.fetch_add(1, Ordering::Relaxed);
        cpu(mode, polys);
        Ok(())
    }
    fn transform_falcon(&self, _: TransformMode, _: &mut [u16]) -> Result<(), DeviceError> {
        Err(DeviceError::Declined)
    }
    fn pipelines(&self) -> bool {
        true
    }
    fn submit_mldsa(&self, mode: TransformMode, polys: &[MlDsaPoly]) -> Result<u64, DeviceError> {
        assert!(
            polys.len() <= self.max_polys(),
            "requests stay within max_polys"
        );
        let n = self.submits.fetch_add(1, Ordering::Relaxed);
        if self.how == Behaviour::RefuseSome && n % 2 == 1 {
            return Err(DeviceError::Busy);
        }
        let t = self.next.fetch_add(1, Ordering::Relaxed);
        self.pending
            .lock()
            .unwrap()
            .insert(t, (mode, polys.to_vec()));
        Ok(t)
    }
    fn complete_mldsa(&self, ticket: u64, polys: &mut [MlDsaPoly]) -> Result<(), DeviceError> {
        self.completes.fetch_add(1, Ordering::Relaxed);
        let (mode, mut data) = self
            .pending
            .lock()
            .unwrap()
            .remove(&ticket)
            .expect("a ticket is completed once");
        assert_eq!(data.len(), polys.len(), "completed on the submitted length");
        assert!(
            data == polys,
            "the caller's input is untouched while in flight"
        );
        cpu(mode, &mut data);
        match self.how {
            Behaviour::Fail => Err(DeviceError::Failed),
            Behaviour::Garbage => {
                polys.iter_mut().for_each(|p| p.coeffs.fill(i32::MIN));
                Ok(())
            }
            Behaviour::Partial => {
                let half = polys.len() / 2;
                polys[..half].copy_from_slice(&data[..half]);
                polys[half..].iter_mut().for_each(|p| p.coeffs.fill(7));
                Err(DeviceError::TimedOut)
            }
            Behaviour::Exact | Behaviour::RefuseSome => {
                polys.copy_from_slice(&data);
                Ok(())
            }
        }
    }
    fn cancel(&self, ticket: u64) {
        self.cancels.fetch_add(1, Ordering::Relaxed);
        self.pending.lock().unwrap().remove(&ticket);
    }
}

/// Signatures of one algorithm over `n` items: keys shared by several items (so that
/// decoded keys are reused inside and across sub-groups), every key form, tampered,
/// truncated and wrong-key signatures, external μ, an overlong context, a short key —
/// and a tail of items that all fail (a sub-group with nothing left to transform).
struct Set {
    alg: Algorithm,
    vks: Vec<VerifyingKey>,
    pks: Vec<Vec<u8>>,
    msgs: Vec<Vec<u8>>,
    sigs: Vec<Vec<u8>>,
    mus: Vec<[u8; 64]>,
}

impl Set {
    fn new(name: &str, n: usize) -> Set {
        let alg = Algorithm::from_name(name).unwrap();
        let sks: Vec<SigningKey> = (0..7u8)
            .map(|s| SigningKey::from_seed(alg, &[s ^ 0x5a; 32]).unwrap())
            .collect();
        let vks: Vec<VerifyingKey> = sks.iter().map(SigningKey::verifying_key).collect();
        let pks = vks.iter().map(|k| k.to_bytes().to_vec()).collect();
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; i % 37]).collect();
        let mut sigs = Vec::new();
        let mut mus = Vec::new();
        for (i, m) in msgs.iter().enumerate() {
            let k = i % sks.len();
            let mut s = sks[k].sign_deterministic(m, b"").unwrap();
            let tail = i >= n - n / 5;
            match i % 9 {
                _ if tail => s[9] ^= 0x40,
                2 => s[3] ^= 1,
                4 => s.truncate(s.len() - 2),
                6 => {
                    let l = s.len();
                    s[l - 1] = 0xff; // hint encoding
                }
                _ => {}
            }
            mus.push(vks[k].compute_mu(m, b"").unwrap());
            sigs.push(s);
        }
        Set {
            alg,
            vks,
            pks,
            msgs,
            sigs,
            mus,
        }
    }

    fn items(&self) -> Vec<VerifyItem<'_>> {
        (0..self.msgs.len())
            .map(|i| {
                let k = (i + (i % 13 == 5) as usize) % self.vks.len(); // some wrong keys
                let key = match i % 4 {
                    0 => VerifyKey::Object(&self.vks[k]),
                    1 if i % 17 == 1 => VerifyKey::Encoded {
                        alg: self.alg,
                        pk: &self.pks[k][..10],
                    },
                    _ => VerifyKey::Encoded {
                        alg: self.alg,
                        pk: &self.pks[k],
                    },
                };
                let (message, context): (Message<'_>, &[u8]) = match i % 7 {
                    3 => (Message::Mu(&self.mus[i]), b""),
                    5 if i % 2 == 1 => (Message::Raw(&self.msgs[i]), &[1u8; 256]),
                    _ => (Message::Raw(&self.msgs[i]), b""),
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
}

fn single(it: &VerifyItem<'_>) -> Result<(), Error> {
    let vk = match it.key {
        VerifyKey::Object(k) => k.clone(),
        VerifyKey::Encoded { alg, pk } => VerifyingKey::from_bytes(alg, pk)?,
    };
    match it.message {
        Message::Raw(m) => vk.verify(m, it.context, it.signature),
        Message::Mu(mu) => vk.verify_mu(mu, it.signature),
    }
}

#[test]
fn pipelined_groups_equal_single_calls_whatever_the_device_does() {
    for (name, n) in [("ML-DSA-44", 70), ("ML-DSA-65", 45), ("ML-DSA-87", 20)] {
        let set = Set::new(name, n);
        let items = set.items();
        let want: Vec<_> = items.iter().map(single).collect();
        let valid = want.iter().filter(|r| r.is_ok()).count();
        assert!(valid > n / 3 && valid < n, "{name}: {valid} of {n} valid");
        for how in [
            Behaviour::Exact,
            Behaviour::Fail,
            Behaviour::Garbage,
            Behaviour::Partial,
            Behaviour::RefuseSome,
        ] {
            for threads in [1, 2] {
                let dev = AsyncNtt::new(how);
                let opts = Options {
                    kernel_device: Some(dev.clone()),
                    threads: Some(threads),
                    ..Options::default()
                };
                let got = batch::verify_batch_with(&items, &opts);
                assert_eq!(got, want, "{name} {how:?} threads {threads}");
                let (s, c) = (
                    dev.submits.load(Ordering::Relaxed),
                    dev.completes.load(Ordering::Relaxed),
                );
                // Two requests (forward, inverse) per sub-group with live items; more
                // when a request is cut at max_polys.
                assert!(s >= 4, "{name} {how:?}: pipelined ({s} submissions)");
                let refused = if how == Behaviour::RefuseSome {
                    s / 2
                } else {
                    0
                };
                assert_eq!(c + refused, s, "{name} {how:?}: every ticket completed");
                assert_eq!(dev.cancels.load(Ordering::Relaxed), 0);
                assert!(dev.pending.lock().unwrap().is_empty());
                assert_eq!(dev.syncs.load(Ordering::Relaxed), 0, "no synchronous calls");
            }
        }
    }
}

/// A device that does not pipeline keeps the lockstep path: its synchronous calls,
/// never a submission.
#[test]
fn devices_that_do_not_pipeline_keep_the_lockstep_path() {
    struct Sync(Arc<AsyncNtt>);
    impl KernelDevice for Sync {
        fn name(&self) -> String {
            "sync-ntt".into()
        }
        fn max_polys(&self) -> usize {
            4096
        }
        fn supports(&self, mode: TransformMode) -> bool {
            self.0.supports(mode)
        }
        fn transform_mldsa(
            &self,
            mode: TransformMode,
            polys: &mut [MlDsaPoly],
        ) -> Result<(), DeviceError> {
            self.0.transform_mldsa(mode, polys)
        }
        fn transform_falcon(&self, m: TransformMode, a: &mut [u16]) -> Result<(), DeviceError> {
            self.0.transform_falcon(m, a)
        }
    }
    let set = Set::new("ML-DSA-65", 40);
    let items = set.items();
    let inner = AsyncNtt::new(Behaviour::Exact);
    let opts = Options {
        kernel_device: Some(Arc::new(Sync(inner.clone()))),
        threads: Some(1),
        ..Options::default()
    };
    let got = batch::verify_batch_with(&items, &opts);
    let want: Vec<_> = items.iter().map(single).collect();
    assert_eq!(got, want);
    assert_eq!(inner.submits.load(Ordering::Relaxed), 0);
    // One group: t1, z, c forward and w inverse.
    assert_eq!(inner.syncs.load(Ordering::Relaxed), 4);
}
