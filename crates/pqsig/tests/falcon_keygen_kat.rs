//! Falcon round-3 key generation against the NIST KAT files: for every record, the
//! DRBG seeded with the record's seed gives the 48-byte keygen seed, SHAKE256 of which
//! drives key generation; the public and compact secret keys must match byte for byte.
//!
//! Needs the NIST DRBG: `cargo test -p pqsig --features kat --test falcon_keygen_kat`.
#![cfg(feature = "kat")]

mod common;

use pqsig::kernels::internals::falcon::keygen;
use pqsig::rng::drbg::KatDrbg;

struct Record {
    count: usize,
    seed: [u8; 48],
    pk: Vec<u8>,
    sk: Vec<u8>,
}

fn load_rsp(rel: &str) -> Vec<Record> {
    let path = common::vectors_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut cur: Option<Record> = None;
    for line in text.lines() {
        let Some((k, v)) = line.split_once(" = ") else {
            continue;
        };
        match k {
            "count" => {
                if let Some(r) = cur.take() {
                    out.push(r);
                }
                cur = Some(Record {
                    count: v.parse().unwrap(),
                    seed: [0; 48],
                    pk: Vec::new(),
                    sk: Vec::new(),
                });
            }
            "seed" => {
                cur.as_mut().unwrap().seed = common::unhex(v).try_into().unwrap();
            }
            "pk" => cur.as_mut().unwrap().pk = common::unhex(v),
            "sk" => cur.as_mut().unwrap().sk = common::unhex(v),
            _ => {}
        }
    }
    if let Some(r) = cur.take() {
        out.push(r);
    }
    out
}

/// Public key: 0x00 + logn, then h at 14 bits per coefficient, MSB first.
fn encode_pk(kp: &keygen::KeyPair) -> Vec<u8> {
    let mut out = vec![kp.logn as u8];
    let (mut acc, mut bits) = (0u32, 0u32);
    for &x in &kp.h {
        acc = (acc << 14) | x as u32;
        bits += 14;
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if bits > 0 {
        out.push((acc << (8 - bits)) as u8);
    }
    out
}

fn trim_i8(out: &mut Vec<u8>, x: &[i8], nbits: u32) {
    let (mut acc, mut bits) = (0u32, 0u32);
    let mask = (1u32 << nbits) - 1;
    for &v in x {
        acc = (acc << nbits) | (v as i32 as u32 & mask);
        bits += nbits;
        while bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if bits > 0 {
        out.push((acc << (8 - bits)) as u8);
    }
}

/// Compact secret key: 0x50 + logn, f, g (FG_BITS), F (8 bits).
fn encode_sk(kp: &keygen::KeyPair) -> Vec<u8> {
    let fg_bits = pqsig::falcon::params::FG_BITS[kp.logn as usize];
    let mut out = vec![0x50 + kp.logn as u8];
    trim_i8(&mut out, &kp.f, fg_bits);
    trim_i8(&mut out, &kp.g, fg_bits);
    trim_i8(&mut out, &kp.F, 8);
    out
}

fn run(rel: &str, logn: u32) {
    let recs = load_rsp(rel);
    assert_eq!(recs.len(), 100, "{rel}: expected 100 records");
    let mut ok = 0;
    let mut bad = Vec::new();
    for r in &recs {
        let mut drbg = KatDrbg::new(&r.seed);
        let mut seed = [0u8; 48];
        drbg.fill(&mut seed);
        let kp = keygen::keygen_from_seed48(&seed, logn).expect("keygen");
        let (pk, sk) = (encode_pk(&kp), encode_sk(&kp));
        // The library's encoders agree with the local ones.
        assert_eq!(kp.public_key_bytes().unwrap(), pk);
        assert_eq!(&kp.secret_key_bytes().unwrap()[..], &sk[..]);
        if pk == r.pk && sk == r.sk {
            ok += 1;
        } else {
            bad.push(r.count);
        }
    }
    assert!(
        bad.is_empty(),
        "{rel}: {ok}/100 match; mismatching counts {bad:?}"
    );
}

#[test]
fn falcon512_kat_keys() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon512_kat_keys_once);
}

fn falcon512_kat_keys_once() {
    run("falcon/round3/falcon512-KAT.rsp", 9);
}

#[test]
fn falcon1024_kat_keys() {
    // Under every NTT variant (kernels/ntt), in turn.
    common::for_each_ntt(falcon1024_kat_keys_once);
}

fn falcon1024_kat_keys_once() {
    run("falcon/round3/falcon1024-KAT.rsp", 10);
}
