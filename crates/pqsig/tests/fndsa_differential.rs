//! FN-DSA (DRAFT) against the `fn-dsa` 0.4.0 crate, on random keys, messages and
//! contexts: logn 9 and 10 and a few toy degrees; pure, pre-hash (every HashML-DSA hash)
//! and external μ.
//!
//! * keys made by either side decode on the other, with the same verifying key;
//! * our signatures verify under fn-dsa and fn-dsa's under ours;
//! * with the same 40-byte randomness both produce the same signature bytes, and with
//!   the same 32-byte seed the same keys;
//! * altered messages, contexts, hashes and signatures fail under both.

mod common;

use common::XorShift;
use fn_dsa::{
    sign_key_size, signature_size, vrfy_key_size, CryptoRng, DomainContext, HashIdentifier,
    KeyPairGenerator, KeyPairGeneratorStandard, KeyPairGeneratorWeak, RngCore, RngError,
    SigningKey as _, SigningKeyStandard, SigningKeyWeak, VerifyingKey as _, VerifyingKeyStandard,
    VerifyingKeyWeak, HASH_ID_EXTMU, HASH_ID_RAW,
};
use pqsig::falcon::fndsa::{self, SigningKey, VerifyingKey};
use pqsig::mldsa::prehash::HashAlg;

/// Hands out fixed bytes (fn-dsa draws exactly 32 bytes for keygen, 40 for signing).
struct Fixed<'a>(&'a [u8]);
impl CryptoRng for Fixed<'_> {}
impl RngCore for Fixed<'_> {
    fn next_u32(&mut self) -> u32 {
        unimplemented!()
    }
    fn next_u64(&mut self) -> u64 {
        unimplemented!()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let (a, b) = self.0.split_at(dest.len());
        dest.copy_from_slice(a);
        self.0 = b;
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), RngError> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// fn-dsa's key objects for one degree class (standard 9..=10, weak 2..=8).
enum Their {
    Std(Box<SigningKeyStandard>, Box<VerifyingKeyStandard>),
    Weak(Box<SigningKeyWeak>, Box<VerifyingKeyWeak>),
}

impl Their {
    fn keygen(logn: u32, seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
        let mut sk = vec![0u8; sign_key_size(logn)];
        let mut vk = vec![0u8; vrfy_key_size(logn)];
        if logn >= 9 {
            Box::<KeyPairGeneratorStandard>::default().keygen(
                logn,
                &mut Fixed(seed),
                &mut sk,
                &mut vk,
            );
        } else {
            Box::<KeyPairGeneratorWeak>::default().keygen(logn, &mut Fixed(seed), &mut sk, &mut vk);
        }
        (sk, vk)
    }

    fn decode(sk: &[u8], vk: &[u8]) -> Their {
        if sk[0] & 0x0F >= 9 {
            Their::Std(
                Box::new(SigningKeyStandard::decode(sk).expect("fn-dsa decodes our sk")),
                Box::new(VerifyingKeyStandard::decode(vk).expect("fn-dsa decodes our vk")),
            )
        } else {
            Their::Weak(
                Box::new(SigningKeyWeak::decode(sk).expect("fn-dsa decodes our sk")),
                Box::new(VerifyingKeyWeak::decode(vk).expect("fn-dsa decodes our vk")),
            )
        }
    }

    fn vk_from_sk(&self) -> Vec<u8> {
        let mut out;
        match self {
            Their::Std(s, _) => {
                out = vec![0u8; vrfy_key_size(s.get_logn())];
                s.to_verifying_key(&mut out);
            }
            Their::Weak(s, _) => {
                out = vec![0u8; vrfy_key_size(s.get_logn())];
                s.to_verifying_key(&mut out);
            }
        }
        out
    }

    fn sign(&mut self, seed: &[u8; 40], ctx: &[u8], id: &[u8], hv: &[u8]) -> Vec<u8> {
        let (ctx, id) = (DomainContext(ctx), HashIdentifier(id));
        match self {
            Their::Std(s, _) => {
                let mut sig = vec![0u8; signature_size(s.get_logn())];
                s.sign(&mut Fixed(seed), &ctx, &id, hv, &mut sig).unwrap();
                sig
            }
            Their::Weak(s, _) => {
                let mut sig = vec![0u8; signature_size(s.get_logn())];
                s.sign(&mut Fixed(seed), &ctx, &id, hv, &mut sig).unwrap();
                sig
            }
        }
    }

    fn verify(&self, sig: &[u8], ctx: &[u8], id: &[u8], hv: &[u8]) -> bool {
        let (ctx, id) = (DomainContext(ctx), HashIdentifier(id));
        match self {
            Their::Std(_, v) => v.verify(sig, &ctx, &id, hv),
            Their::Weak(_, v) => v.verify(sig, &ctx, &id, hv),
        }
    }
}

/// What is signed: pure (raw message) or pre-hash with one of the hashes.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Pure,
    Pre(HashAlg),
}

fn fill<const N: usize>(rng: &mut XorShift) -> [u8; N] {
    rng.bytes(N).try_into().unwrap()
}

fn our_sign(sk: &SigningKey, mode: Mode, msg: &[u8], ctx: &[u8], seed: &[u8]) -> Vec<u8> {
    match mode {
        Mode::Pure => sk.sign_with_seed(msg, ctx, seed),
        Mode::Pre(h) => sk.sign_prehash_with_seed(h, msg, ctx, seed),
    }
    .unwrap()
}

fn our_verify(vk: &VerifyingKey, mode: Mode, msg: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    match mode {
        Mode::Pure => vk.verify(msg, ctx, sig),
        Mode::Pre(h) => vk.verify_prehash(h, msg, ctx, sig),
    }
    .is_ok()
}

/// fn-dsa's (identifier, hashed value) for a mode.
fn their_input(mode: Mode, msg: &[u8]) -> (Vec<u8>, Vec<u8>) {
    match mode {
        Mode::Pure => (HASH_ID_RAW.0.to_vec(), msg.to_vec()),
        Mode::Pre(h) => {
            let mut d = [0u8; 64];
            let n = h.digest(msg, &mut d);
            (h.oid_der().to_vec(), d[..n].to_vec())
        }
    }
}

fn run(logn: u32, rounds: usize, rng: &mut XorShift) {
    for round in 0..rounds {
        let what = format!("logn {logn} round {round}");
        // Keys: from the same seed, both sides agree; each decodes the other's.
        let seed: [u8; 32] = fill(rng);
        let (their_sk, their_vk) = Their::keygen(logn, &seed);
        let (sk, vk) = fndsa::keygen_from_seed(logn, &seed).unwrap();
        assert_eq!(sk.to_bytes(), &their_sk[..], "{what}: sk");
        assert_eq!(vk.to_bytes(), &their_vk[..], "{what}: vk");
        let sk2 = SigningKey::from_bytes(&their_sk).unwrap();
        assert_eq!(
            sk2.verifying_key(),
            VerifyingKey::from_bytes(&their_vk).unwrap()
        );
        let mut their = Their::decode(sk.to_bytes(), vk.to_bytes());
        assert_eq!(their.vk_from_sk(), vk.to_bytes(), "{what}");

        for t in 0..4 {
            let mlen = (rng.next() % 300) as usize;
            let msg = rng.bytes(mlen);
            let clen = match t {
                0 => 0,
                1 => 255,
                _ => (rng.next() % 256) as usize,
            };
            let ctx = rng.bytes(clen);
            let mode = if t % 2 == 0 {
                Mode::Pure
            } else {
                Mode::Pre(HashAlg::ALL[(rng.next() % 12) as usize])
            };
            let what = format!("{what} t {t} {mode:?} |msg| {mlen} |ctx| {clen}");
            let (id, hv) = their_input(mode, &msg);

            // Same randomness, same bytes; each verifies under the other side.
            let rnd: [u8; 40] = fill(rng);
            let ours = our_sign(&sk, mode, &msg, &ctx, &rnd);
            let theirs = their.sign(&rnd, &ctx, &id, &hv);
            assert_eq!(ours, theirs, "{what}: signature bytes");
            assert!(
                their.verify(&ours, &ctx, &id, &hv),
                "{what}: fn-dsa rejects ours"
            );
            let rnd2: [u8; 40] = fill(rng);
            let theirs2 = their.sign(&rnd2, &ctx, &id, &hv);
            assert!(
                our_verify(&vk, mode, &msg, &ctx, &theirs2),
                "{what}: we reject fn-dsa's"
            );
            let ours2 = our_sign(&sk, mode, &msg, &ctx, &fill::<40>(rng));
            assert!(
                their.verify(&ours2, &ctx, &id, &hv),
                "{what}: fn-dsa rejects ours (2)"
            );

            // External μ.
            let mu = match mode {
                Mode::Pure => vk.compute_mu(&msg, &ctx).unwrap(),
                Mode::Pre(h) => fndsa::compute_mu_prehash(vk.hashed_key(), &ctx, h, &msg).unwrap(),
            };
            let want_mu = fn_dsa::compute_mu(
                &fn_dsa::hashed_vrfykey_from_vrfykey(vk.to_bytes()),
                &DomainContext(&ctx),
                &HashIdentifier(&id),
                &hv,
            );
            assert_eq!(mu, want_mu, "{what}: mu");
            vk.verify_mu(&mu, &ours).unwrap();
            assert!(
                their.verify(&ours, b"ignored", HASH_ID_EXTMU.0, &mu),
                "{what}"
            );
            assert_eq!(
                sk.sign_mu_with_seed(&mu, &rnd).unwrap(),
                ours,
                "{what}: sign_mu"
            );

            // Tampering: both sides reject.
            let mut bad_msg = msg.clone();
            bad_msg.push(0);
            let (bid, bhv) = their_input(mode, &bad_msg);
            assert!(!our_verify(&vk, mode, &bad_msg, &ctx, &ours), "{what}");
            assert!(!their.verify(&ours, &ctx, &bid, &bhv), "{what}");
            let mut bad_ctx = ctx.clone();
            if bad_ctx.is_empty() {
                bad_ctx.push(1);
            } else {
                bad_ctx[0] ^= 1;
            }
            assert!(!our_verify(&vk, mode, &msg, &bad_ctx, &ours), "{what}");
            assert!(!their.verify(&ours, &bad_ctx, &id, &hv), "{what}");
            if let Mode::Pre(h) = mode {
                // Same digest bytes under another identifier.
                let other = HashAlg::ALL
                    .iter()
                    .copied()
                    .find(|&o| o != h && o.output_len() == h.output_len());
                if let Some(o) = other {
                    assert!(vk.verify_prehashed(o, &hv, &ctx, &ours).is_err(), "{what}");
                    assert!(!their.verify(&ours, &ctx, &o.oid_der(), &hv), "{what}");
                }
                // Pre-hash signature is not a pure one.
                assert!(vk.verify(&msg, &ctx, &ours).is_err(), "{what}");
            }
            for _ in 0..8 {
                let mut bad = ours.clone();
                let bit = (rng.next() % (8 * bad.len() as u64)) as usize;
                bad[bit / 8] ^= 1 << (bit % 8);
                let a = our_verify(&vk, mode, &msg, &ctx, &bad);
                let b = their.verify(&bad, &ctx, &id, &hv);
                assert!(
                    !a && !b,
                    "{what}: bit {bit} accepted (ours {a}, fn-dsa {b})"
                );
            }
            let short = &ours[..ours.len() - 1];
            assert!(
                !our_verify(&vk, mode, &msg, &ctx, short) && !their.verify(short, &ctx, &id, &hv)
            );
        }
    }
}

#[test]
fn fndsa_vs_fn_dsa_512() {
    run(9, 6, &mut XorShift(0x5151_0009));
}

#[test]
fn fndsa_vs_fn_dsa_1024() {
    run(10, 4, &mut XorShift(0x5151_000A));
}

#[test]
fn fndsa_vs_fn_dsa_toy_degrees() {
    for logn in [2u32, 3, 4, 5, 6, 7, 8] {
        run(logn, 3, &mut XorShift(0x7070_0000 + logn as u64));
    }
}
