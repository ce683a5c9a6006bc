//! Round-3 Falcon KATs, verification side: every record of `round3/falcon{512,1024}-KAT.rsp`
//! and `round3-padded/falcon-padded-{512,1024}-KAT.rsp` on every backend: the signed
//! message opens, the detached forms verify, tampering fails, keys re-encode byte for
//! byte, and the secret key's (f, g, F) rebuild G and the public key.

mod common;

use pqsig::falcon::params;
use pqsig::kernels::falcon::ntt::{kernels, NttKernels};
use pqsig::kernels::internals::falcon::codec;
use pqsig::kernels::internals::falcon::verify::{self, PreparedPublicKey};
use pqsig::{Backend, Error};

struct Record {
    count: usize,
    msg: Vec<u8>,
    pk: Vec<u8>,
    sk: Vec<u8>,
    sm: Vec<u8>,
}

/// Parses a NIST `.rsp` file: `key = value` lines, records separated by blank lines.
fn load_rsp(rel: &str) -> Vec<Record> {
    let path = common::vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut cur: std::collections::HashMap<String, String> = Default::default();
    let flush = |cur: &mut std::collections::HashMap<String, String>, out: &mut Vec<Record>| {
        if cur.contains_key("count") {
            let get = |k: &str| {
                cur.get(k)
                    .unwrap_or_else(|| panic!("{rel}: missing {k}"))
                    .clone()
            };
            let mlen: usize = get("mlen").parse().unwrap();
            let smlen: usize = get("smlen").parse().unwrap();
            let r = Record {
                count: get("count").parse().unwrap(),
                msg: common::unhex(&get("msg")),
                pk: common::unhex(&get("pk")),
                sk: common::unhex(&get("sk")),
                sm: common::unhex(&get("sm")),
            };
            assert_eq!(r.msg.len(), mlen, "{rel} count {}", r.count);
            assert_eq!(r.sm.len(), smlen, "{rel} count {}", r.count);
            out.push(r);
        }
        cur.clear();
    };
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            flush(&mut cur, &mut out);
            continue;
        }
        if let Some((k, v)) = line.split_once('=') {
            cur.insert(k.trim().to_string(), v.trim().to_string());
        }
    }
    flush(&mut cur, &mut out);
    out
}

fn backend_tables() -> Vec<(Backend, &'static NttKernels)> {
    common::backends()
        .into_iter()
        .map(|b| (b, kernels(b)))
        .collect()
}

/// Everything checked on one record, for one backend. `padded`: the file's layout.
/// Returns whether the signature fits the padded encoding.
fn check_record(
    k: &NttKernels,
    b: Backend,
    rel: &str,
    r: &Record,
    logn: u32,
    padded: bool,
) -> bool {
    let ctx = format!("{rel} count {} backend {b}", r.count);
    assert_eq!(r.pk.len(), params::pk_size(logn), "{ctx}");
    assert_eq!(r.sk.len(), params::sk_size(logn), "{ctx}");

    // The signed message opens to the message.
    let opened = verify::open_signed_message_with(k, &r.pk, &r.sm, padded)
        .unwrap_or_else(|e| panic!("{ctx}: {e:?}"));
    assert_eq!(opened, &r.msg[..], "{ctx}");

    // Parse, rebuild byte for byte.
    let parsed = if padded {
        codec::decode_signed_message_padded(&r.sm, logn)
    } else {
        codec::decode_signed_message(&r.sm, logn)
    }
    .unwrap();
    assert_eq!(parsed.msg, &r.msg[..], "{ctx}");
    let rebuilt = if padded {
        codec::encode_signed_message_padded(&parsed.nonce, parsed.msg, &parsed.s2, logn)
    } else {
        codec::encode_signed_message(&parsed.nonce, parsed.msg, &parsed.s2, logn)
    }
    .unwrap();
    assert_eq!(rebuilt, r.sm, "{ctx}: sm re-encoding");

    // Detached forms.
    let key = PreparedPublicKey::from_bytes_with(k, &r.pk).unwrap();
    let comp = codec::encode_signature(&parsed.nonce, &parsed.s2, logn, false).unwrap();
    let mut fits = true;
    assert_eq!(
        key.verify_with(k, &r.msg, &comp, false),
        Ok(()),
        "{ctx}: compressed"
    );
    assert_eq!(
        verify::verify_with(k, &r.pk, &r.msg, &comp, false),
        Ok(()),
        "{ctx}"
    );
    match codec::encode_signature(&parsed.nonce, &parsed.s2, logn, true) {
        Ok(pad) => {
            assert_eq!(pad.len(), params::sig_padded_size(logn));
            if padded {
                assert_eq!(
                    &pad[..],
                    &r.sm[..pad.len()],
                    "{ctx}: padded signature bytes"
                );
            }
            assert_eq!(
                verify::verify_with(k, &r.pk, &r.msg, &pad, true),
                Ok(()),
                "{ctx}: padded"
            );
            // Each mode accepts only its own encoding.
            if pad.len() != comp.len() {
                assert_eq!(
                    verify::verify_with(k, &r.pk, &r.msg, &pad, false),
                    Err(Error::InvalidSignature),
                    "{ctx}"
                );
                assert_eq!(
                    verify::verify_with(k, &r.pk, &r.msg, &comp, true),
                    Err(Error::InvalidSignature),
                    "{ctx}"
                );
            }
        }
        Err(e) => {
            // Only a compressed signature longer than the padded size (one Falcon-1024
            // KAT record) is refused.
            assert!(!padded, "{ctx}");
            assert_eq!(e, Error::InvalidLength, "{ctx}");
            assert!(comp.len() > params::sig_padded_size(logn), "{ctx}");
            fits = false;
        }
    }

    // Tampering: any message bit, the nonce, and the signature value.
    let mut m2 = r.msg.clone();
    let bit = (r.count * 7919) % (8 * m2.len());
    m2[bit / 8] ^= 1 << (bit % 8);
    assert_eq!(
        key.verify_with(k, &m2, &comp, false),
        Err(Error::VerificationFailed),
        "{ctx}: message bit"
    );
    let mut s = comp.clone();
    s[1 + (r.count % params::NONCE_LEN)] ^= 0x10;
    assert_eq!(
        key.verify_with(k, &r.msg, &s, false),
        Err(Error::VerificationFailed),
        "{ctx}: nonce bit"
    );
    for j in 0..4 {
        let mut s = comp.clone();
        let pos =
            1 + params::NONCE_LEN + (r.count * 31 + j * 97) % (comp.len() - 1 - params::NONCE_LEN);
        s[pos] ^= 1 << ((r.count + j) % 8);
        assert!(
            key.verify_with(k, &r.msg, &s, false).is_err(),
            "{ctx}: signature byte {pos}"
        );
    }
    let mut sm2 = r.sm.clone();
    let pos = if padded {
        params::NONCE_LEN + 5
    } else {
        r.sm.len() - 3
    };
    sm2[pos] ^= 0x04;
    assert!(
        verify::open_signed_message_with(k, &r.pk, &sm2, padded).is_err(),
        "{ctx}: sm bit"
    );

    // Keys: decode → encode is the identity.
    let (pk_logn, h) = codec::decode_public_key(&r.pk).unwrap();
    assert_eq!(pk_logn, logn);
    assert_eq!(
        codec::encode_public_key(&h, logn).unwrap(),
        r.pk,
        "{ctx}: pk"
    );
    let sk = codec::decode_secret_key(&r.sk).unwrap();
    assert_eq!(sk.logn, logn);
    assert_eq!(
        &codec::encode_secret_key(&sk.f, &sk.g, &sk.F, logn).unwrap()[..],
        &r.sk[..],
        "{ctx}: sk"
    );

    // (f, g, F) → G, and h = g/f.
    let n = 1usize << logn;
    let mut big_g = vec![0i8; n];
    assert!(
        verify::complete_private_with(k, &mut big_g, &sk.f, &sk.g, &sk.F, logn),
        "{ctx}: complete_private"
    );
    // NTRU equation: f·G − g·F = q mod (x^n + 1), checked exactly over the integers.
    assert!(
        ntru_equation_holds(&sk.f, &sk.g, &sk.F, &big_g),
        "{ctx}: fG − gF = q"
    );
    let mut h2 = vec![0u16; n];
    assert!(
        verify::compute_public_with(k, &mut h2, &sk.f, &sk.g, logn),
        "{ctx}: compute_public"
    );
    assert_eq!(h2, h, "{ctx}: h = g/f");
    fits
}

/// f·G − g·F == q in Z[x]/(x^n + 1).
#[allow(non_snake_case)]
fn ntru_equation_holds(f: &[i8], g: &[i8], F: &[i8], G: &[i8]) -> bool {
    let n = f.len();
    let mut acc = vec![0i64; n];
    for i in 0..n {
        for j in 0..n {
            let p = f[i] as i64 * G[j] as i64 - g[i] as i64 * F[j] as i64;
            if i + j < n {
                acc[i + j] += p;
            } else {
                acc[i + j - n] -= p;
            }
        }
    }
    acc[0] == params::Q as i64 && acc[1..].iter().all(|&v| v == 0)
}

/// `too_long`: how many records' signatures do not fit the padded size.
fn run_file(rel: &str, logn: u32, padded: bool, too_long: usize) {
    let records = load_rsp(rel);
    assert_eq!(records.len(), 100, "{rel}: expected 100 records");
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r.count, i, "{rel}: record order");
        assert_eq!(r.msg.len(), 33 * (i + 1), "{rel}: message length");
    }
    for (b, k) in backend_tables() {
        let misfits = records
            .iter()
            .filter(|r| !check_record(k, b, rel, r, logn, padded))
            .count();
        assert_eq!(
            misfits, too_long,
            "{rel}: signatures longer than the padded size"
        );
    }
}

#[test]
fn falcon512_round3() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon512_round3_once);
}

fn falcon512_round3_once() {
    run_file("falcon/round3/falcon512-KAT.rsp", 9, false, 0);
}

#[test]
fn falcon1024_round3() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon1024_round3_once);
}

fn falcon1024_round3_once() {
    // The vectors README: one Falcon-1024 signature does not fit 1280 bytes.
    run_file("falcon/round3/falcon1024-KAT.rsp", 10, false, 1);
}

#[test]
fn falcon_padded_512() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon_padded_512_once);
}

fn falcon_padded_512_once() {
    run_file("falcon/round3-padded/falcon-padded-512-KAT.rsp", 9, true, 0);
}

#[test]
fn falcon_padded_1024() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon_padded_1024_once);
}

fn falcon_padded_1024_once() {
    run_file(
        "falcon/round3-padded/falcon-padded-1024-KAT.rsp",
        10,
        true,
        0,
    );
}

/// The records' signed messages also open through the process-wide entry points, and a
/// key of the other degree is refused as a signature-degree mismatch.
#[test]
fn default_backend_and_degree_mismatch() {
    let r512 = load_rsp("falcon/round3/falcon512-KAT.rsp");
    let r1024 = load_rsp("falcon/round3/falcon1024-KAT.rsp");
    let (a, b) = (&r512[0], &r1024[0]);
    assert_eq!(
        verify::open_signed_message(&a.pk, &a.sm, false),
        Ok(&a.msg[..])
    );
    let p = codec::decode_signed_message(&a.sm, 9).unwrap();
    let sig = codec::encode_signature(&p.nonce, &p.s2, 9, false).unwrap();
    assert_eq!(verify::verify(&a.pk, &a.msg, &sig, false), Ok(()));
    assert_eq!(
        verify::verify(&b.pk, &a.msg, &sig, false),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        verify::open_signed_message(&b.pk, &a.sm, false),
        Err(Error::InvalidSignature)
    );
    // Wrong key of the right degree: a well-formed signature that does not verify.
    assert_eq!(
        verify::verify(&r512[1].pk, &a.msg, &sig, false),
        Err(Error::VerificationFailed)
    );
    // A malformed key.
    let mut bad_pk = a.pk.clone();
    bad_pk[0] = 0x0A;
    assert_eq!(
        verify::verify(&bad_pk, &a.msg, &sig, false),
        Err(Error::InvalidKey)
    );
}
