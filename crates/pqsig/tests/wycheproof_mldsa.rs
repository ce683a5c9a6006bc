//! C2SP Wycheproof ML-DSA vectors: all nine files (sign with seed, sign with expanded
//! key, verify) for ML-DSA-44/65/87, on every backend. Every test case is counted; the
//! counts must equal the files' `numberOfTests`.

mod common;
use common::*;
use pqsig::mldsa::{ParamSet, SigningKey, VerifyingKey};
use pqsig::{Backend, Error};
use serde_json::Value;

fn ps_of(kl: &str) -> ParamSet {
    ParamSet::from_name(&format!("ML-DSA-{kl}")).unwrap()
}

fn flags(t: &Value) -> Vec<String> {
    t["flags"]
        .as_array()
        .map(|a| a.iter().map(|f| f.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// Runs one sign test case against an already-loaded key (or the key-loading error).
fn check_sign_case(
    b: Backend,
    file: &str,
    key: &Result<SigningKey, Error>,
    pk: Option<&[u8]>,
    t: &Value,
) {
    let id = format!("{file} tc {} [{b}] {:?}", t["tcId"], flags(t));
    let valid = t["result"].as_str() == Some("valid");
    let key = match key {
        Ok(k) => k,
        Err(e) => {
            assert!(!valid, "{id}: key rejected ({e:?}) but case valid");
            return;
        }
    };
    if let Some(pk) = pk {
        assert_eq!(
            key.verifying_key().to_bytes(),
            pk,
            "{id}: derived public key"
        );
    }
    let rnd: [u8; 32] = opt_hex(t, "rnd")
        .map(|r| r.try_into().unwrap())
        .unwrap_or([0u8; 32]);
    let ctx = opt_hex(t, "ctx").unwrap_or_default();
    let want_sig = opt_hex(t, "sig");
    let vk = key.verifying_key();
    let mu = opt_hex(t, "mu");

    // Message interface (absent for `Internal` cases, which only carry μ).
    if let Some(msg) = opt_hex(t, "msg") {
        let r = key.sign_with_rnd(&msg, &ctx, &rnd);
        if valid {
            let sig = r.unwrap_or_else(|e| panic!("{id}: sign failed {e:?}"));
            assert_eq!(Some(&sig), want_sig.as_ref(), "{id}: signature");
            assert_eq!(vk.verify(&msg, &ctx, &sig), Ok(()), "{id}: verify");
            if let Some(mu) = &mu {
                assert_eq!(&key.compute_mu(&msg, &ctx).unwrap()[..], &mu[..], "{id}: μ");
            }
        } else {
            assert!(r.is_err(), "{id}: invalid case signed");
            if flags(t).iter().any(|f| f == "InvalidContext") {
                assert_eq!(r, Err(Error::ContextTooLong), "{id}");
                assert_eq!(
                    key.compute_mu(&msg, &ctx),
                    Err(Error::ContextTooLong),
                    "{id}"
                );
            }
        }
    }
    // External-μ interface.
    if let Some(mu) = &mu {
        let sig = key.sign_mu(mu, &rnd).unwrap();
        if valid {
            assert_eq!(Some(&sig), want_sig.as_ref(), "{id}: external-μ signature");
            assert_eq!(vk.verify_mu(mu, &sig), Ok(()), "{id}: external-μ verify");
        }
    } else {
        assert!(
            !valid || opt_hex(t, "msg").is_some(),
            "{id}: valid case with neither msg nor mu"
        );
    }
}

fn run_sign_file(kl: &str, seeded: bool) -> usize {
    let file = format!(
        "mldsa_{kl}_sign_{}_test.json",
        if seeded { "seed" } else { "noseed" }
    );
    let j = load_json(&format!("ml-dsa/wycheproof/{file}"));
    let ps = ps_of(kl);
    let mut n = 0;
    for b in backends() {
        for g in j["testGroups"].as_array().unwrap() {
            let pk = opt_hex(g, "publicKey");
            let key = if seeded {
                SigningKey::from_seed(ps, &field_hex(g, "privateSeed"))
            } else {
                let sk = field_hex(g, "privateKey");
                match &pk {
                    Some(pk) => SigningKey::from_expanded_with_public(ps, &sk, pk),
                    None => SigningKey::from_expanded(ps, &sk),
                }
            }
            .and_then(|k| k.with_backend(b));
            for t in g["tests"].as_array().unwrap() {
                check_sign_case(b, &file, &key, pk.as_deref(), t);
                n += 1;
            }
        }
    }
    assert_eq!(
        n,
        j["numberOfTests"].as_u64().unwrap() as usize * backends().len(),
        "{file} count"
    );
    n
}

fn run_verify_file(kl: &str) -> usize {
    let file = format!("mldsa_{kl}_verify_test.json");
    let j = load_json(&format!("ml-dsa/wycheproof/{file}"));
    let ps = ps_of(kl);
    let mut n = 0;
    for b in backends() {
        for g in j["testGroups"].as_array().unwrap() {
            let vk = VerifyingKey::from_bytes(ps, &field_hex(g, "publicKey"))
                .and_then(|k| k.with_backend(b));
            for t in g["tests"].as_array().unwrap() {
                let id = format!("{file} tc {} [{b}] {:?}", t["tcId"], flags(t));
                let valid = t["result"].as_str() == Some("valid");
                let r = match &vk {
                    Ok(vk) => vk.verify(
                        &field_hex(t, "msg"),
                        &opt_hex(t, "ctx").unwrap_or_default(),
                        &field_hex(t, "sig"),
                    ),
                    Err(e) => Err(*e),
                };
                assert_eq!(r.is_ok(), valid, "{id}: got {r:?}");
                let fl = flags(t);
                if fl
                    .iter()
                    .any(|f| f == "IncorrectSignatureLength" || f == "InvalidHintsEncoding")
                {
                    assert_eq!(r, Err(Error::InvalidSignature), "{id}");
                }
                if fl.iter().any(|f| f == "IncorrectPublicKeyLength") {
                    assert_eq!(r, Err(Error::InvalidKey), "{id}");
                }
                if fl.iter().any(|f| f == "InvalidContext") {
                    assert_eq!(r, Err(Error::ContextTooLong), "{id}");
                }
                n += 1;
            }
        }
    }
    assert_eq!(
        n,
        j["numberOfTests"].as_u64().unwrap() as usize * backends().len(),
        "{file} count"
    );
    n
}

#[test]
fn wycheproof_sign_seed() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(wycheproof_sign_seed_once);
}

fn wycheproof_sign_seed_once() {
    for kl in ["44", "65", "87"] {
        run_sign_file(kl, true);
    }
}

#[test]
fn wycheproof_sign_noseed() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(wycheproof_sign_noseed_once);
}

fn wycheproof_sign_noseed_once() {
    for kl in ["44", "65", "87"] {
        run_sign_file(kl, false);
    }
}

#[test]
fn wycheproof_verify() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(wycheproof_verify_once);
}

fn wycheproof_verify_once() {
    for kl in ["44", "65", "87"] {
        run_verify_file(kl);
    }
}
