//! The NIST ACVP ML-DSA cases (keyGen, sigGen, sigVer), every group kind, as functions
//! over a list of backends. Shared by `crates/pqsig/tests/acvp_mldsa.rs` (every backend,
//! every NTT variant) and `crates/pqsig-hwsim/tests/acvp_rtl_ntt.rs` (the simulated
//! accelerator as kernel device). Each function counts the cases it ran and fails on an
//! unknown group kind, so no vector can be skipped silently.
//!
//! Users declare `mod common;` (tests/common/mod.rs) at their crate root.

use crate::common::*;
use pqsig::mldsa::{self, HashAlg, ParamSet, SigningKey, VerifyingKey};
use pqsig::{Backend, Error};
use serde_json::Value;
use std::collections::HashMap;

fn param_set(g: &Value) -> ParamSet {
    ParamSet::from_name(g["parameterSet"].as_str().unwrap()).expect("parameter set")
}

/// Joins prompt and expectedResults on (tgId, tcId).
fn results(rel: &str) -> HashMap<(u64, u64), Value> {
    let r = load_json(rel);
    let mut m = HashMap::new();
    for g in r["testGroups"].as_array().unwrap() {
        let tg = g["tgId"].as_u64().unwrap();
        for t in g["tests"].as_array().unwrap() {
            m.insert((tg, t["tcId"].as_u64().unwrap()), t.clone());
        }
    }
    m
}

/// All 75 keyGen cases on each of `backends`: pk, expanded sk, the bytes-only path.
pub fn keygen(backends: &[Backend]) {
    let prompt = load_json("ml-dsa/acvp/ML-DSA-keyGen-FIPS204/prompt.json");
    let res = results("ml-dsa/acvp/ML-DSA-keyGen-FIPS204/expectedResults.json");
    let mut n = 0;
    for &b in backends {
        for g in prompt["testGroups"].as_array().unwrap() {
            let ps = param_set(g);
            let tg = g["tgId"].as_u64().unwrap();
            for t in g["tests"].as_array().unwrap() {
                let tc = t["tcId"].as_u64().unwrap();
                let want = &res[&(tg, tc)];
                let seed: [u8; 32] = field_hex(t, "seed").try_into().unwrap();
                let (sk, vk) = mldsa::keygen_internal_on(ps, &seed, b).unwrap();
                assert_eq!(
                    vk.to_bytes(),
                    &field_hex(want, "pk")[..],
                    "{b} tg {tg} tc {tc} pk"
                );
                assert_eq!(
                    &sk.to_expanded_bytes()[..],
                    &field_hex(want, "sk")[..],
                    "{b} tg {tg} tc {tc} sk"
                );
                // The bytes-only keygen path gives the same encodings.
                let (pk_b, sk_b) = mldsa::keygen_internal_bytes_on(ps, &seed, b).unwrap();
                assert_eq!(
                    pk_b,
                    field_hex(want, "pk"),
                    "{b} tg {tg} tc {tc} pk (bytes path)"
                );
                assert_eq!(
                    &sk_b[..],
                    &field_hex(want, "sk")[..],
                    "{b} tg {tg} tc {tc} sk (bytes path)"
                );
                // The expanded encoding loads back, validated against pk, to the same key.
                let sk2 = SigningKey::from_expanded_with_public(
                    ps,
                    &field_hex(want, "sk"),
                    vk.to_bytes(),
                )
                .unwrap();
                assert_eq!(&sk2.to_expanded_bytes()[..], &field_hex(want, "sk")[..]);
                n += 1;
            }
        }
    }
    assert_eq!(n, 75 * backends.len(), "keyGen case count");
}

/// All 360 sigGen cases on each of `backends` (pure, preHash, internal, externalMu;
/// deterministic and hedged), each signature also self-verified.
pub fn siggen(backends: &[Backend]) {
    let prompt = load_json("ml-dsa/acvp/ML-DSA-sigGen-FIPS204/prompt.json");
    let res = results("ml-dsa/acvp/ML-DSA-sigGen-FIPS204/expectedResults.json");
    let mut kinds: HashMap<String, usize> = HashMap::new();
    for &b in backends {
        for g in prompt["testGroups"].as_array().unwrap() {
            let ps = param_set(g);
            let tg = g["tgId"].as_u64().unwrap();
            let det = g["deterministic"].as_bool().unwrap();
            let iface = g["signatureInterface"].as_str().unwrap();
            let kind = match iface {
                "external" => match g["preHash"].as_str().unwrap() {
                    "pure" => "pure",
                    "preHash" => "preHash",
                    other => panic!("unknown preHash kind {other}"),
                },
                "internal" => {
                    if g["externalMu"].as_bool().unwrap() {
                        "externalMu"
                    } else {
                        "internal"
                    }
                }
                other => panic!("unknown signatureInterface {other}"),
            };
            for t in g["tests"].as_array().unwrap() {
                let tc = t["tcId"].as_u64().unwrap();
                let sk = SigningKey::from_expanded(ps, &field_hex(t, "sk"))
                    .unwrap()
                    .with_backend(b)
                    .unwrap();
                let rnd: [u8; 32] = if det {
                    [0u8; 32]
                } else {
                    field_hex(t, "rnd").try_into().unwrap()
                };
                let sig = match kind {
                    "pure" => sk
                        .sign_with_rnd(&field_hex(t, "message"), &field_hex(t, "context"), &rnd)
                        .unwrap(),
                    "preHash" => {
                        let h = HashAlg::from_name(t["hashAlg"].as_str().unwrap()).unwrap();
                        sk.sign_prehash_with_rnd(
                            h,
                            &field_hex(t, "message"),
                            &field_hex(t, "context"),
                            &rnd,
                        )
                        .unwrap()
                    }
                    "externalMu" => sk.sign_mu(&field_hex(t, "mu"), &rnd).unwrap(),
                    "internal" => sk.sign_internal(&field_hex(t, "message"), &rnd),
                    _ => unreachable!(),
                };
                let want = field_hex(&res[&(tg, tc)], "signature");
                assert_eq!(
                    hex::encode(&sig),
                    hex::encode(&want),
                    "{b} tg {tg} tc {tc} ({kind}, det={det})"
                );
                // And the signature verifies under the derived public key.
                let vk = sk.verifying_key();
                let ok = match kind {
                    "pure" => vk.verify(&field_hex(t, "message"), &field_hex(t, "context"), &sig),
                    "preHash" => vk.verify_prehash(
                        HashAlg::from_name(t["hashAlg"].as_str().unwrap()).unwrap(),
                        &field_hex(t, "message"),
                        &field_hex(t, "context"),
                        &sig,
                    ),
                    "externalMu" => vk.verify_mu(&field_hex(t, "mu"), &sig),
                    _ => vk.verify_internal(&field_hex(t, "message"), &sig),
                };
                assert_eq!(ok, Ok(()), "{b} tg {tg} tc {tc} self-verify");
                *kinds.entry(format!("{kind}/{det}")).or_default() += 1;
            }
        }
    }
    let nb = backends.len();
    for k in ["pure", "preHash", "internal", "externalMu"] {
        for det in [true, false] {
            assert_eq!(
                kinds.get(&format!("{k}/{det}")).copied().unwrap_or(0),
                45 * nb,
                "{k} det={det}"
            );
        }
    }
    assert_eq!(kinds.values().sum::<usize>(), 360 * nb);
}

/// All 180 sigVer cases on each of `backends`, the expected-false ones included.
pub fn sigver(backends: &[Backend]) {
    let prompt = load_json("ml-dsa/acvp/ML-DSA-sigVer-FIPS204/prompt.json");
    let res = results("ml-dsa/acvp/ML-DSA-sigVer-FIPS204/expectedResults.json");
    let mut n = 0;
    let mut n_false = 0;
    for &b in backends {
        for g in prompt["testGroups"].as_array().unwrap() {
            let ps = param_set(g);
            let tg = g["tgId"].as_u64().unwrap();
            let iface = g["signatureInterface"].as_str().unwrap();
            for t in g["tests"].as_array().unwrap() {
                let tc = t["tcId"].as_u64().unwrap();
                let expected = res[&(tg, tc)]["testPassed"].as_bool().unwrap();
                let vk = match VerifyingKey::from_bytes(ps, &field_hex(t, "pk")) {
                    Ok(v) => v.with_backend(b).unwrap(),
                    Err(_) => {
                        assert!(!expected, "tg {tg} tc {tc}: pk rejected");
                        n += 1;
                        continue;
                    }
                };
                let sig = field_hex(t, "signature");
                let r: Result<(), Error> = match iface {
                    "external" => match g["preHash"].as_str().unwrap() {
                        "pure" => {
                            vk.verify(&field_hex(t, "message"), &field_hex(t, "context"), &sig)
                        }
                        "preHash" => vk.verify_prehash(
                            HashAlg::from_name(t["hashAlg"].as_str().unwrap()).unwrap(),
                            &field_hex(t, "message"),
                            &field_hex(t, "context"),
                            &sig,
                        ),
                        o => panic!("unknown preHash {o}"),
                    },
                    "internal" => {
                        if g["externalMu"].as_bool().unwrap() {
                            vk.verify_mu(&field_hex(t, "mu"), &sig)
                        } else {
                            vk.verify_internal(&field_hex(t, "message"), &sig)
                        }
                    }
                    o => panic!("unknown signatureInterface {o}"),
                };
                assert_eq!(r.is_ok(), expected, "{b} tg {tg} tc {tc}: {r:?}");
                n += 1;
                n_false += (!expected) as usize;
            }
        }
    }
    assert_eq!(n, 180 * backends.len());
    assert!(n_false > 0);
}
