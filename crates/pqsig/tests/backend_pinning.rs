//! Every operation runs on its key's backend: for each of the 27 algorithms and each
//! backend available here, key generation on `b` (`any::SigningKey::from_seed_on`) and
//! signing and verification with keys pinned by `with_backend(b)` run while the
//! process-wide backend is set to a different one, and the per-thread kernel trace
//! (`kernels::trace`, feature `backend-trace`, enabled by the dev-dependency) shows that
//! every dispatch point was asked for `b` and that nothing read the process-wide choice.

use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::backend::{self, Backend};
use pqsig::kernels::trace;
use pqsig::mldsa::HashAlg;
use pqsig::Algorithm;

/// The backend a record of `family` must name when `b` is pinned: `b` itself, except
/// for an ML-DSA key's own table (recorded when an operation runs on it), which names the
/// backend whose kernels `b` uses (portable for NEON, which has no ML-DSA kernels).
fn expected(family: &str, b: Backend) -> Backend {
    if family.starts_with("mldsa::Kernels") {
        pqsig::kernels::mldsa::kernels(b).backend
    } else {
        b
    }
}

/// Runs `op` under a fresh trace and checks it: something was selected, all for `b`, and
/// no read of the process-wide backend.
fn traced<T>(
    errs: &mut Vec<String>,
    what: &str,
    alg: Algorithm,
    b: Backend,
    op: impl FnOnce() -> T,
) -> T {
    trace::start();
    let out = op();
    let seen = trace::take();
    if seen.is_empty() {
        errs.push(format!(
            "{alg:?} {what} on {b}: no kernel selection recorded"
        ));
    }
    let wrong: Vec<_> = seen
        .iter()
        .filter(|&&(fam, got)| fam == "select::active" || got != expected(fam, b))
        .collect();
    if !wrong.is_empty() {
        errs.push(format!(
            "{alg:?} {what} pinned to {b}: selections {wrong:?} (all: {seen:?})"
        ));
    }
    out
}

#[test]
fn every_operation_runs_on_its_pinned_backend() {
    let avail: Vec<Backend> = Backend::available().collect();
    if avail.len() < 2 {
        eprintln!("only {avail:?} available here: nothing to tell apart");
        return;
    }
    let msg = b"backend pinning";
    let mut errs = Vec::new();
    for &b in &avail {
        // A process-wide backend that is not `b`.
        let other = *avail.iter().rev().find(|&&o| o != b).unwrap();
        for &alg in Algorithm::ALL {
            backend::set_backend(other).unwrap();
            let seed: Vec<u8> = (0..alg.seed_len()).map(|i| i as u8 ^ 0x5a).collect();
            let sk = traced(&mut errs, "keygen", alg, b, || {
                SigningKey::from_seed_on(alg, &seed, b).unwrap()
            });
            // A key made on the process-wide backend, re-pinned.
            let sk2 = SigningKey::from_seed(alg, &seed)
                .unwrap()
                .with_backend(b)
                .unwrap();
            assert_eq!(
                sk.to_bytes(),
                sk2.to_bytes(),
                "{alg:?}: keygen differs on {b}"
            );
            let vk: VerifyingKey = sk2.verifying_key().with_backend(b).unwrap();
            let sig = traced(&mut errs, "sign", alg, b, || sk2.sign(msg, b"").unwrap());
            traced(&mut errs, "verify", alg, b, || {
                vk.verify(msg, b"", &sig).unwrap()
            });
            let bad = traced(&mut errs, "verify (forged)", alg, b, || {
                let mut m = msg.to_vec();
                m[0] ^= 1;
                vk.verify(&m, b"", &sig)
            });
            assert!(bad.is_err(), "{alg:?}: forged message verified on {b}");
            // Streamed signing and verification (any::stream) on the same keys.
            let ssig = traced(&mut errs, "streamed sign", alg, b, || {
                let mut s = sk2.signer(b"", false).unwrap();
                s.update(&msg[..4]);
                s.update(&msg[4..]);
                s.finalize().unwrap()
            });
            traced(&mut errs, "streamed verify", alg, b, || {
                let mut v = vk.verifier(b"", &ssig).unwrap();
                v.update(&msg[..7]);
                v.update(&msg[7..]);
                v.finalize().unwrap()
            });
            // Decoding then using a key also stays on the pinned backend once pinned.
            let vk3 = VerifyingKey::from_bytes(alg, vk.to_bytes())
                .unwrap()
                .with_backend(b)
                .unwrap();
            traced(&mut errs, "verify (decoded key)", alg, b, || {
                vk3.verify(msg, b"", &sig).unwrap()
            });
            // Pre-hash signing (HashML-DSA, HashFN-DSA): the SHA-3 / SHAKE pre-hash too.
            for hash in [HashAlg::Sha3_256, HashAlg::Shake256] {
                match (&sk2, &vk) {
                    (SigningKey::MlDsa(k), VerifyingKey::MlDsa(v)) => {
                        let s = traced(&mut errs, "sign_prehash", alg, b, || {
                            k.sign_prehash(hash, msg, b"").unwrap()
                        });
                        traced(&mut errs, "verify_prehash", alg, b, || {
                            v.verify_prehash(hash, msg, b"", &s).unwrap()
                        });
                    }
                    (SigningKey::FnDsa(k), VerifyingKey::FnDsa(v)) => {
                        let s = traced(&mut errs, "sign_prehash", alg, b, || {
                            k.sign_prehash(hash, msg, b"").unwrap()
                        });
                        traced(&mut errs, "verify_prehash", alg, b, || {
                            v.verify_prehash(hash, msg, b"", &s).unwrap()
                        });
                    }
                    _ => {}
                }
            }
        }
    }
    backend::reset();
    assert!(
        errs.is_empty(),
        "{} failures:\n{}",
        errs.len(),
        errs.join("\n")
    );
}
