//! Every public decoder, encoder and constructor that takes bytes returns a typed error
//! on malformed input and never panics: wrong lengths (0, 1, len − 1, len + 1, huge),
//! random bytes, and out-of-range parameters, for every algorithm.

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

#[test]
fn falcon_constructors_and_codecs() {
    let mut rng = Rng(0x5eed_0003);
    for ps in falcon::ParamSet::ALL {
        let alg = Algorithm::Falcon(ps);
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
        let (sk, vk) = falcon::keygen_from_seed(ps, &[5u8; 48]).expect("keygen");
        let _ = sk;
        for (l, sig, _) in inputs(&mut rng, alg.signature_len()) {
            let r = no_panic(&format!("{ps:?} verify({l})"), || vk.verify(b"m", &sig));
            assert!(r.is_err());
            let r = no_panic(&format!("{ps:?} signed_message({l})"), || {
                falcon::keys::signed_message(ps, &sig, b"m")
            });
            assert!(r.is_err() || l == alg.signature_len());
        }
        // Raw points of the wrong shape.
        for n in [0usize, 1, 511, 513, 1023, 1025] {
            let r = no_panic(&format!("{ps:?} verify_point({n})"), || {
                vk.verify_point(&vec![0u16; n], &vec![0i16; n])
            });
            assert!(r.is_err());
        }
    }
    // The codec layer, every logn including out-of-range ones.
    use falcon::codec;
    for logn in [0u32, 1, 2, 9, 10, 11, 31, 32, u32::MAX] {
        for len in [0usize, 1, 7, 100, 1000, 2000, HUGE] {
            let buf = rng.bytes(len);
            let tag = format!("logn {logn} len {len}");
            let _ = no_panic(&format!("decode_public_key {tag}"), || {
                codec::decode_public_key(&buf)
            });
            let _ = no_panic(&format!("decode_secret_key {tag}"), || {
                codec::decode_secret_key(&buf)
            });
            let _ = no_panic(&format!("decode_secret_key_logn {tag}"), || {
                codec::decode_secret_key_logn(&buf, logn)
            });
            for padded in [false, true] {
                let _ = no_panic(&format!("decode_signature {tag}"), || {
                    codec::decode_signature(&buf, padded)
                });
                let _ = no_panic(&format!("decode_signature_logn {tag}"), || {
                    codec::decode_signature_logn(&buf, logn, padded)
                });
                let _ = no_panic(&format!("verify {tag}"), || {
                    falcon::verify::verify(&buf, b"m", &buf, padded)
                });
                let _ = no_panic(&format!("open_signed_message {tag}"), || {
                    falcon::verify::open_signed_message(&buf, &buf, padded)
                });
            }
            let _ = no_panic(&format!("decode_signed_message {tag}"), || {
                codec::decode_signed_message(&buf, logn)
            });
            let _ = no_panic(&format!("decode_signed_message_padded {tag}"), || {
                codec::decode_signed_message_padded(&buf, logn)
            });
            for n in [0usize, 1, 512, 1024, 1025] {
                let _ = no_panic(&format!("modq_decode {tag} n {n}"), || {
                    codec::modq_decode(&mut vec![0u16; n], &buf, logn)
                });
                let _ = no_panic(&format!("comp_decode {tag} n {n}"), || {
                    codec::comp_decode(&mut vec![0i16; n], &buf, logn)
                });
                for bits in [0u32, 1, 5, 8, 9, 33] {
                    let _ = no_panic(&format!("trim_i8_decode {tag} n {n} bits {bits}"), || {
                        codec::trim_i8_decode(&mut vec![0i8; n], &buf, logn, bits)
                    });
                }
                let _ = no_panic(&format!("decode_public_key_into {tag} n {n}"), || {
                    codec::decode_public_key_into(&mut vec![0u16; n], &buf, logn)
                });
            }
        }
        for n in [0usize, 1, 512, 1024, 1025] {
            for out_len in [0usize, 1, 100, 4000] {
                let tag = format!("logn {logn} n {n} out {out_len}");
                let mut out = vec![0u8; out_len];
                let _ = no_panic(&format!("modq_encode {tag}"), || {
                    codec::modq_encode(&mut out, &vec![12288u16; n], logn)
                });
                let _ = no_panic(&format!("comp_encode {tag}"), || {
                    codec::comp_encode(&mut out, &vec![-2047i16; n], logn)
                });
                let _ = no_panic(&format!("trim_i8_encode {tag}"), || {
                    codec::trim_i8_encode(&mut out, &vec![-127i8; n], logn, 8)
                });
                let _ = no_panic(&format!("encode_public_key {tag}"), || {
                    codec::encode_public_key(&vec![1u16; n], logn)
                });
                let _ = no_panic(&format!("public_key_from_fg {tag}"), || {
                    falcon::verify::public_key_from_fg(&vec![1i8; n], &vec![1i8; n], logn)
                });
            }
        }
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
