//! Every public decoder, encoder and constructor that takes bytes returns a typed error
//! on malformed input and never panics: wrong lengths (0, 1, len − 1, len + 1, huge),
//! random bytes, and out-of-range parameters, for every algorithm. For Falcon and FN-DSA
//! this covers every public function that takes bytes or slices (keys, seeds, signatures,
//! signed messages, points, digests, μ, contexts) and the size functions of `params`.
//! (The raw codecs behind `pqsig::kernels::internals` are not API and are swept in
//! `falcon_codec.rs`.)

use pqsig::mldsa::prehash::HashAlg;
use pqsig::{any, falcon, keyfile, mldsa, snova, Algorithm};
use std::panic::{catch_unwind, AssertUnwindSafe};

const HUGE: usize = 1 << 20;

struct Rng(u64);
impl Rng {
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                (self.0 >> 24) as u8
            })
            .collect()
    }
}

/// Runs `f`, failing the test with `what` if it panics.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    if std::env::var_os("PQSIG_TRACE").is_some() {
        eprintln!("{what}");
    }
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => panic!("{what}: panicked"),
    }
}

/// Lengths around `len`: the wrong ones (always rejected) and `len` itself.
fn wrong_lengths(len: usize) -> Vec<usize> {
    let mut v = vec![0, 1, len.saturating_sub(1), len + 1, HUGE];
    v.retain(|&l| l != len);
    v.dedup();
    v
}

fn inputs(rng: &mut Rng, len: usize) -> Vec<(usize, Vec<u8>, bool)> {
    let mut out = Vec::new();
    for l in wrong_lengths(len) {
        out.push((l, rng.bytes(l), true));
        out.push((l, vec![0xff; l], true));
    }
    for _ in 0..3 {
        out.push((len, rng.bytes(len), false));
    }
    out.push((len, vec![0; len], false));
    out.push((len, vec![0xff; len], false));
    out
}

#[test]
fn any_layer_every_algorithm() {
    let mut rng = Rng(0x5eed_0001);
    for &alg in Algorithm::ALL {
        let name = alg.name();
        for (l, b, wrong) in inputs(&mut rng, alg.public_key_len()) {
            let r = no_panic(
                &format!("{name} any::VerifyingKey::from_bytes({l})"),
                || any::VerifyingKey::from_bytes(alg, &b),
            );
            if wrong {
                assert!(r.is_err(), "{name} public key of {l} bytes accepted");
            }
        }
        for (l, b, wrong) in inputs(&mut rng, alg.secret_key_len()) {
            let r = no_panic(&format!("{name} any::SigningKey::from_bytes({l})"), || {
                any::SigningKey::from_bytes(alg, &b)
            });
            if wrong {
                assert!(r.is_err(), "{name} secret key of {l} bytes accepted");
            }
        }
        for (l, b, wrong) in inputs(&mut rng, alg.seed_len()) {
            let r = no_panic(&format!("{name} any::SigningKey::from_seed({l})"), || {
                any::SigningKey::from_seed(alg, &b)
            });
            if wrong {
                assert!(r.is_err(), "{name} seed of {l} bytes accepted");
            }
        }
        // Verification of garbage signatures (and contexts) under a real key.
        let seed = vec![7u8; alg.seed_len()];
        let sk = any::SigningKey::from_seed(alg, &seed).expect("seed");
        let vk = sk.verifying_key();
        for (l, sig, _) in inputs(&mut rng, alg.signature_len()) {
            let r = no_panic(&format!("{name} verify(sig {l})"), || {
                vk.verify(b"msg", b"", &sig)
            });
            assert!(r.is_err(), "{name} garbage signature of {l} bytes verified");
            let _ = no_panic(&format!("{name} verify_mu(sig {l})"), || {
                vk.verify_mu(&[0u8; 64], &sig)
            });
            for mu_len in [0, 1, 63, 65] {
                let r = no_panic(&format!("{name} verify_mu(mu {mu_len})"), || {
                    vk.verify_mu(&vec![0u8; mu_len], &sig)
                });
                assert!(r.is_err());
            }
        }
        for ctx_len in [256, 1000] {
            let ctx = vec![1u8; ctx_len];
            let _ = no_panic(&format!("{name} verify(ctx {ctx_len})"), || {
                vk.verify(b"m", &ctx, &[0u8; 8])
            });
            let _ = no_panic(&format!("{name} sign(ctx {ctx_len})"), || {
                sk.sign_deterministic(b"m", &ctx)
            });
            let _ = no_panic(&format!("{name} compute_mu(ctx {ctx_len})"), || {
                vk.compute_mu(b"m", &ctx)
            });
        }
        for mu_len in [0, 1, 63, 65] {
            let _ = no_panic(&format!("{name} sign_mu(mu {mu_len})"), || {
                sk.sign_mu(&vec![0u8; mu_len], true)
            });
        }
        // KAT opening of malformed signed messages.
        for l in [0, 1, 40, alg.signature_len() - 1, HUGE] {
            let sm = rng.bytes(l);
            let r = no_panic(&format!("{name} kat_open({l})"), || {
                any::kat::kat_open(alg, vk.to_bytes(), &sm)
            });
            assert!(r.is_err());
            let r = no_panic(&format!("{name} kat_open(bad pk)"), || {
                any::kat::kat_open(alg, &sm, &sm)
            });
            assert!(r.is_err());
        }
    }
}

#[test]
fn mldsa_constructors() {
    let mut rng = Rng(0x5eed_0002);
    for ps in mldsa::ParamSet::ALL {
        let alg = Algorithm::MlDsa(ps);
        for (l, b, wrong) in inputs(&mut rng, alg.public_key_len()) {
            let r = no_panic(&format!("{ps:?} VerifyingKey::from_bytes({l})"), || {
                mldsa::VerifyingKey::from_bytes(ps, &b)
            });
            if wrong {
                assert!(r.is_err());
            }
        }
        let p = ps.params();
        for (l, b, wrong) in inputs(&mut rng, p.sk_len()) {
            let r = no_panic(&format!("{ps:?} SigningKey::from_expanded({l})"), || {
                mldsa::SigningKey::from_expanded(ps, &b)
            });
            if wrong {
                assert!(r.is_err());
            }
            let pk = rng.bytes(p.pk_len());
            let _ = no_panic(&format!("{ps:?} from_expanded_with_public({l})"), || {
                mldsa::SigningKey::from_expanded_with_public(ps, &b, &pk)
            });
            let _ = no_panic(&format!("{ps:?} from_expanded_with_public(pk {l})"), || {
                mldsa::SigningKey::from_expanded_with_public(ps, &rng.bytes(p.sk_len()), &b)
            });
        }
        let seed = [3u8; 32];
        let sk = mldsa::SigningKey::from_seed(ps, &seed).expect("seed");
        let vk = sk.verifying_key();
        for (l, sig, _) in inputs(&mut rng, p.sig_len()) {
            let r = no_panic(&format!("{ps:?} verify({l})"), || {
                vk.verify(b"m", b"", &sig)
            });
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} verify_mu({l})"), || {
                vk.verify_mu(&[0u8; 64], &sig)
            });
            assert!(r.is_err());
        }
        let r = no_panic("compute_mu(ctx 256)", || {
            mldsa::compute_mu(&[0u8; 64], &[0u8; 256], b"m")
        });
        assert!(r.is_err());
        for l in wrong_lengths(p.pk_len()) {
            let r = no_panic("compute_mu_from_public_key", || {
                mldsa::compute_mu_from_public_key(&rng.bytes(l), b"", b"m")
            });
            let _ = r;
        }
    }
}

/// Garbage of length `n`: random words and the extreme values.
fn points(rng: &mut Rng, n: usize) -> Vec<(Vec<u16>, Vec<i16>)> {
    let b = rng.bytes(4 * n);
    let c: Vec<u16> = b[..2 * n]
        .chunks_exact(2)
        .map(|w| u16::from_le_bytes([w[0], w[1]]))
        .collect();
    let s: Vec<i16> = b[2 * n..]
        .chunks_exact(2)
        .map(|w| i16::from_le_bytes([w[0], w[1]]))
        .collect();
    vec![
        (c, s),
        (vec![u16::MAX; n], vec![i16::MIN; n]),
        (vec![12289; n], vec![i16::MAX; n]),
        (vec![0; n], vec![0; n]),
    ]
}

#[test]
fn falcon_constructors_and_codecs() {
    let mut rng = Rng(0x5eed_0003);
    for ps in falcon::ParamSet::ALL {
        let alg = Algorithm::Falcon(ps);
        let n = 1usize << ps.logn();
        for (l, b, wrong) in inputs(&mut rng, alg.public_key_len()) {
            let r = no_panic(&format!("{ps:?} VerifyingKey::from_bytes({l})"), || {
                falcon::VerifyingKey::from_bytes(ps, &b)
            });
            if wrong {
                assert!(r.is_err());
            }
        }
        for (l, b, wrong) in inputs(&mut rng, alg.secret_key_len()) {
            let r = no_panic(&format!("{ps:?} SigningKey::from_bytes({l})"), || {
                falcon::SigningKey::from_bytes(ps, &b)
            });
            if wrong {
                assert!(r.is_err());
            }
        }
        for l in wrong_lengths(falcon::keys::SEED_LEN) {
            let seed = rng.bytes(l);
            let r = no_panic(&format!("{ps:?} keygen_from_seed({l})"), || {
                falcon::keygen_from_seed(ps, &seed)
            });
            assert_eq!(r.err(), Some(pqsig::Error::InvalidLength));
            for &b in pqsig::Backend::ALL {
                let r = no_panic(&format!("{ps:?} keygen_from_seed_on({l}, {b})"), || {
                    falcon::keygen_from_seed_on(ps, &seed, b)
                });
                assert!(r.is_err());
            }
        }
        let (sk, vk) = falcon::keygen_from_seed(ps, &[5u8; 48]).expect("keygen");
        let xsk = sk.expand();
        for (l, sig, _) in inputs(&mut rng, alg.signature_len()) {
            let r = no_panic(&format!("{ps:?} verify({l})"), || vk.verify(b"m", &sig));
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} verify_with_context({l})"), || {
                vk.verify_with_context(b"m", &sig[..l.min(3)], &sig)
            });
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} signed_message({l})"), || {
                falcon::keys::signed_message(ps, &sig, b"m")
            });
            assert!(r.is_err() || l == alg.signature_len());
            let r = no_panic(
                &format!("{ps:?} VerifyingKey::decode_signature({l})"),
                || vk.decode_signature(&sig),
            );
            assert!(r.is_err() || l == alg.signature_len());
            let r2 = no_panic(&format!("{ps:?} decode_signature({l})"), || {
                falcon::decode_signature(ps, &sig)
            });
            assert_eq!(r, r2);
            if let Ok(d) = r {
                assert_eq!(d.s2.len(), n);
                let mut h = vk.point_hasher(&d.nonce);
                h.update(b"m");
                let r = no_panic("verify_point(decoded garbage)", || {
                    vk.verify_point(&h.finalize(), &d.s2)
                });
                assert!(r.is_err());
            }
            let r = no_panic(&format!("{ps:?} open({l})"), || vk.open(&sig));
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} check_against_public({l})"), || {
                sk.check_against_public(&sig)
            });
            assert!(r.is_err());
        }
        // Signed messages (NIST layout) of every length around the real ones.
        let real = sk
            .sign_with_nonce_and_seed(b"m", &[1u8; 40], &[2u8; 48])
            .expect("sign");
        let sm = falcon::keys::signed_message(ps, &real, b"m").expect("sm");
        assert_eq!(vk.open(&sm), Ok(&b"m"[..]));
        for l in [0, 1, 2, 3, 41, 42, 43, sm.len() - 1] {
            let r = no_panic(&format!("{ps:?} open(truncated {l})"), || vk.open(&sm[..l]));
            assert!(r.is_err());
        }
        let mut long = sm.clone();
        long.push(0);
        let _ = no_panic(&format!("{ps:?} open(+1)"), || vk.open(&long));
        // Raw points: wrong shapes, and right shapes with garbage values.
        for m in [0usize, 1, n - 1, n + 1, 511, 513, 1023, 1025, HUGE] {
            let r = no_panic(&format!("{ps:?} verify_point({m})"), || {
                vk.verify_point(&vec![0u16; m], &vec![0i16; m])
            });
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} verify_point(c0 {m}, s2 {n})"), || {
                vk.verify_point(&vec![0u16; m], &vec![0i16; n])
            });
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} verify_point(c0 {n}, s2 {m})"), || {
                vk.verify_point(&vec![0u16; n], &vec![0i16; m])
            });
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} sign_point({m})"), || {
                sk.sign_point_with_nonce_and_seed(&vec![0u16; m], &[0u8; 40], &[0u8; 48])
            });
            assert_eq!(r.err(), Some(pqsig::Error::InvalidLength));
            let h = vk.point_hasher(&[0u8; 40]);
            assert_eq!(h.degree(), n);
            let r = no_panic(&format!("{ps:?} PointHasher::finalize_into({m})"), || {
                h.finalize_into(&mut vec![0u16; m])
            });
            assert_eq!(r, Err(pqsig::Error::InvalidLength));
        }
        for (i, (c0, s2)) in points(&mut rng, n).into_iter().enumerate() {
            let r = no_panic(&format!("{ps:?} verify_point(garbage {i})"), || {
                vk.verify_point(&c0, &s2)
            });
            // (c0, s2) = (0, 0) has s1 = 0: a norm of 0 passes (round 3 has no s2 ≠ 0 rule).
            assert!(
                r.is_err() || c0.iter().all(|&v| v == 0),
                "garbage point {i} verified"
            );
            // A point not from a hash (values ≥ q included) still signs or errs.
            let r = no_panic(&format!("{ps:?} sign_point(garbage {i})"), || {
                sk.sign_point_with_nonce_and_seed(&c0, &[3u8; 40], &[4u8; 48])
            });
            if let Ok(sig) = r {
                let _ = no_panic("verify(signature of a garbage point)", || {
                    vk.verify(b"m", &sig)
                });
            }
        }
        // Messages of any length (the nonce and seed are typed arrays).
        for l in [0usize, 1, 135, 136, 137, HUGE] {
            let msg = rng.bytes(l);
            let sig = no_panic(&format!("{ps:?} sign({l})"), || {
                sk.sign_with_nonce_and_seed(&msg, &[6u8; 40], &[7u8; 48])
            })
            .expect("sign");
            let xsig = no_panic(&format!("{ps:?} expanded sign({l})"), || {
                xsk.sign_with_nonce_and_seed(&msg, &[6u8; 40], &[7u8; 48])
            })
            .expect("sign");
            assert_eq!(sig, xsig);
            let mut h = sk.point_hasher(&[6u8; 40]);
            h.update(&msg);
            let mut c = vec![0u16; n];
            h.finalize_into(&mut c).expect("finalize_into");
            let psig = sk
                .sign_point_with_nonce_and_seed(&c, &[6u8; 40], &[7u8; 48])
                .expect("sign_point");
            assert_eq!(psig, sig);
            assert_eq!(vk.verify(&msg, &sig), Ok(()));
        }
    }
}

#[test]
fn params_are_total() {
    use falcon::{fndsa, params};
    for logn in [0u32, 1, 2, 9, 10, 11, 31, 32, 63, 64, 65, u32::MAX] {
        let _ = no_panic(&format!("falcon params {logn}"), || {
            (
                params::logn_ok(logn),
                params::degree(logn),
                params::l2_bound(logn),
                params::pk_body_size(logn),
                params::pk_size(logn),
                params::sk_size(logn),
                params::sig_compressed_max_size(logn),
                params::sig_padded_size(logn),
            )
        });
        let _ = no_panic(&format!("fndsa params {logn}"), || {
            (
                fndsa::params::logn_ok(logn),
                fndsa::params::fg_bits(logn),
                fndsa::params::vrfy_key_size(logn),
                fndsa::params::sign_key_size(logn),
                fndsa::params::signature_size(logn),
            )
        });
    }
}

#[test]
fn fndsa_constructors_and_codecs() {
    use falcon::fndsa;
    let mut rng = Rng(0x5eed_0004);
    for logn in [0u32, 1, 2, 8, 9, 10, 11, 32, u32::MAX] {
        for len in [0usize, 1, 41, 897, 1281, 1793, 2305, HUGE] {
            let b = rng.bytes(len);
            let tag = format!("logn {logn} len {len}");
            let _ = no_panic(&format!("VerifyingKey::from_bytes {tag}"), || {
                fndsa::VerifyingKey::from_bytes(&b)
            });
            let _ = no_panic(&format!("VerifyingKey::from_bytes_logn {tag}"), || {
                fndsa::VerifyingKey::from_bytes_logn(logn, &b)
            });
            let _ = no_panic(&format!("SigningKey::from_bytes {tag}"), || {
                fndsa::SigningKey::from_bytes(&b)
            });
            let _ = no_panic(&format!("SigningKey::from_bytes_logn {tag}"), || {
                fndsa::SigningKey::from_bytes_logn(logn, &b)
            });
        }
        for seed_len in [0usize, 1, 32, 48, 1000] {
            let seed = rng.bytes(seed_len);
            let valid = (9..=10).contains(&logn) || (2..=8).contains(&logn);
            // Degrees that exist take long only when valid; skip those (covered by KATs).
            if valid && seed_len > 0 {
                continue;
            }
            let _ = no_panic(
                &format!("SigningKey::from_seed logn {logn} seed {seed_len}"),
                || fndsa::SigningKey::from_seed(logn, &seed),
            );
        }
    }
    for alg in [
        Algorithm::FnDsa(falcon::FnDsaParamSet::FnDsa512),
        Algorithm::FnDsa(falcon::FnDsaParamSet::FnDsa1024),
    ] {
        let seed = vec![9u8; alg.seed_len()];
        let sk = any::SigningKey::from_seed(alg, &seed).expect("seed");
        let vk = fndsa::VerifyingKey::from_bytes(sk.verifying_key().to_bytes()).expect("vk");
        for (l, sig, _) in inputs(&mut rng, alg.signature_len()) {
            let r = no_panic(&format!("fndsa verify({l})"), || vk.verify(b"m", b"", &sig));
            assert!(r.is_err());
            for mu_len in [0usize, 63, 64, 65] {
                let _ = no_panic("fndsa verify_mu", || vk.verify_mu(&vec![0; mu_len], &sig));
            }
            for h in HashAlg::ALL {
                let r = no_panic(&format!("fndsa verify_prehash({l})"), || {
                    vk.verify_prehash(h, b"m", b"", &sig)
                });
                assert!(r.is_err());
                for dl in wrong_lengths(h.output_len()) {
                    let r = no_panic(&format!("fndsa verify_prehashed(digest {dl})"), || {
                        vk.verify_prehashed(h, &vec![0u8; dl], b"", &sig)
                    });
                    assert!(r.is_err());
                }
            }
        }
        // The signing key's byte- and slice-taking calls.
        let fsk = fndsa::SigningKey::from_bytes(&sk.to_bytes()[..]).expect("sk");
        for l in wrong_lengths(fndsa::params::SIGN_SEED_LEN) {
            let seed = rng.bytes(l);
            let r = no_panic(&format!("fndsa sign_with_seed(seed {l})"), || {
                fsk.sign_with_seed(b"m", b"", &seed)
            });
            assert_eq!(r.err(), Some(pqsig::Error::InvalidLength));
            let r = no_panic(&format!("fndsa sign_prehash_with_seed(seed {l})"), || {
                fsk.sign_prehash_with_seed(HashAlg::Sha2_256, b"m", b"", &seed)
            });
            assert!(r.is_err());
            let r = no_panic(&format!("fndsa sign_mu_with_seed(seed {l})"), || {
                fsk.sign_mu_with_seed(&[0u8; 64], &seed)
            });
            assert!(r.is_err());
        }
        for l in wrong_lengths(64) {
            let r = no_panic(&format!("fndsa sign_mu_with_seed(mu {l})"), || {
                fsk.sign_mu_with_seed(&vec![0u8; l], &[0u8; 40])
            });
            assert!(r.is_err());
        }
        for h in HashAlg::ALL {
            for dl in wrong_lengths(h.output_len()) {
                let r = no_panic(
                    &format!("fndsa sign_prehashed_with_seed(digest {dl})"),
                    || fsk.sign_prehashed_with_seed(h, &vec![0u8; dl], b"", &[0u8; 40]),
                );
                assert!(r.is_err());
            }
        }
        for ctx_len in [256usize, 1000] {
            let ctx = vec![1u8; ctx_len];
            let r = no_panic("fndsa sign_with_seed(long ctx)", || {
                fsk.sign_with_seed(b"m", &ctx, &[0u8; 40])
            });
            assert_eq!(r.err(), Some(pqsig::Error::ContextTooLong));
            assert!(no_panic("fndsa verify(long ctx)", || vk.verify(
                b"m",
                &ctx,
                &[0u8; 666]
            ))
            .is_err());
            assert!(no_panic("fndsa compute_mu(long ctx)", || fsk.compute_mu(b"m", &ctx)).is_err());
            assert!(no_panic("fndsa vk compute_mu(long ctx)", || vk
                .compute_mu(b"m", &ctx))
            .is_err());
            let hvk = fsk.hashed_verifying_key();
            assert!(no_panic("compute_mu", || fndsa::compute_mu(hvk, &ctx, b"m")).is_err());
            assert!(no_panic("MuHasher::new", || fndsa::MuHasher::new(hvk, &ctx)).is_err());
            for h in HashAlg::ALL {
                assert!(no_panic("compute_mu_prehash", || {
                    fndsa::compute_mu_prehash(hvk, &ctx, h, b"m")
                })
                .is_err());
                assert!(no_panic("compute_mu_prehashed", || {
                    fndsa::compute_mu_prehashed(hvk, b"", h, &ctx)
                })
                .is_err());
            }
        }
        for l in [0usize, 1, 897, HUGE] {
            let b = rng.bytes(l);
            let _ = no_panic("hash_vrfy_key", || fndsa::hash_vrfy_key(&b));
            for &bk in pqsig::Backend::ALL {
                let _ = no_panic("hash_vrfy_key_on", || fndsa::hash_vrfy_key_on(bk, &b));
            }
        }
    }
    for logn in [0u32, 1, 11, 32, u32::MAX] {
        for seed_len in [0usize, 32, 1000] {
            let seed = rng.bytes(seed_len);
            let r = no_panic(
                &format!("fndsa keygen_from_seed({logn}, {seed_len})"),
                || fndsa::keygen_from_seed(logn, &seed),
            );
            assert!(r.is_err());
            for &b in pqsig::Backend::ALL {
                let r = no_panic("fndsa from_seed_on", || {
                    fndsa::SigningKey::from_seed_on(logn, &seed, b)
                });
                assert!(r.is_err());
            }
        }
    }
}

#[test]
fn snova_constructors() {
    let mut rng = Rng(0x5eed_0005);
    for ps in snova::ParamSet::ALL {
        let alg = Algorithm::Snova(ps);
        for (l, b, wrong) in inputs(&mut rng, alg.public_key_len()) {
            let r = no_panic(&format!("{ps:?} VerifyingKey::from_bytes({l})"), || {
                snova::VerifyingKey::from_bytes(ps, &b)
            });
            if wrong {
                assert!(r.is_err());
            }
        }
        for (l, b, wrong) in inputs(&mut rng, alg.secret_key_len()) {
            let r = no_panic(&format!("{ps:?} SigningKey::from_bytes({l})"), || {
                snova::SigningKey::from_bytes(ps, &b)
            });
            if wrong {
                assert!(r.is_err());
            }
        }
    }
}

#[test]
fn keyfiles() {
    let mut rng = Rng(0x5eed_0006);
    for len in [0usize, 1, 2, 10, 100, 5000, HUGE] {
        for b in [rng.bytes(len), vec![0x30; len], vec![b'-'; len]] {
            let _ = no_panic("decode_public", || keyfile::decode_public(&b));
            let _ = no_panic("decode_private", || keyfile::decode_private(&b));
            let _ = no_panic("detect", || keyfile::detect(&b));
            let _ = no_panic("pem::decode", || keyfile::pem::decode(&b));
            let _ = no_panic("base64_decode", || keyfile::pem::base64_decode(&b));
            let _ = no_panic("oid_der_to_string", || keyfile::oid::oid_der_to_string(&b));
            let _ = no_panic("algorithm_from_oid_der", || {
                keyfile::oid::algorithm_from_oid_der(&b)
            });
            for &alg in Algorithm::ALL {
                let _ = no_panic("decode_public_as", || keyfile::decode_public_as(alg, &b));
                let _ = no_panic("decode_private_as", || keyfile::decode_private_as(alg, &b));
                let r = no_panic("encode_public_der", || keyfile::encode_public_der(alg, &b));
                if len != alg.public_key_len() {
                    assert!(
                        r.is_err(),
                        "{} public key of {len} bytes encoded",
                        alg.name()
                    );
                }
                let _ = no_panic("encode_public_pem", || keyfile::encode_public_pem(alg, &b));
            }
        }
    }
    // A truncated or extended real file.
    for &alg in Algorithm::ALL {
        let seed = vec![1u8; alg.seed_len()];
        let sk = any::SigningKey::from_seed(alg, &seed).expect("seed");
        let der = keyfile::encode_public_der(alg, sk.verifying_key().to_bytes()).expect("der");
        for l in [0, 1, der.len() / 2, der.len() - 1] {
            let r = no_panic("decode_public(truncated)", || {
                keyfile::decode_public(&der[..l])
            });
            assert!(
                r.is_err(),
                "{} truncated SPKI ({l} bytes) accepted",
                alg.name()
            );
        }
        let mut long = der.clone();
        long.push(0);
        let r = no_panic("decode_public(+1)", || keyfile::decode_public(&long));
        assert!(
            r.is_err(),
            "{} SPKI with a trailing byte accepted",
            alg.name()
        );
    }
}
