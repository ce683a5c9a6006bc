//! SNOVA Round 3 against the KAT files, byte for byte: all 100 records of each of the 18
//! `round3/PQCsignKAT_SNOVA_*.rsp` files and the official SageMath vector
//! (`SAGE_SNOVA_I_S.count0.rsp`), on every available backend (or the one named by
//! `PQSIG_BACKEND`).
//!
//! Per record the NIST DRBG is seeded with the record's seed and drawn as
//! `PQCgenKAT_sign` does: 48 bytes for key generation (`s_pub ‖ s_priv`), then 16 bytes
//! of salt for signing. Checked: pk and sk; `sm = sig ‖ msg` from the expanded signing
//! key (and, on every tenth record, from the plain `SigningKey`, which re-expands per
//! signature); `open(sm)` with the plain and the prepared verifying key; a flipped
//! signature bit is rejected; the secret key decoded from the file recomputes the public
//! key.
//!
//! Tests build the library with the `kat` feature (the DRBG).

mod common;

use common::{backends, parse_rsp, KatRecord};
use pqsig::rng::drbg::KatDrbg;
use pqsig::snova::{self, ParamSet, SigningKey, VerifyingKey};
use pqsig::Error;

fn check_records(ps: ParamSet, rel: &str, recs: &[KatRecord]) {
    for b in backends() {
        let mut ok = 0;
        for (i, r) in recs.iter().enumerate() {
            assert_eq!(r.count, i, "{rel}: record order");
            let what = format!("{rel} #{i} ({})", b.name());
            let mut drbg = KatDrbg::new(r.seed.as_slice().try_into().expect("48-byte seed"));
            // keygen_with_rng uses the process-wide backend: pin it afterwards (same bytes).
            let (sk, vk) = snova::keygen_with_rng(ps, &mut drbg).expect("keygen");
            let (sk, vk) = (sk.with_backend(b).unwrap(), vk.with_backend(b).unwrap());
            assert_eq!(vk.to_bytes(), &r.pk[..], "{what}: pk");
            assert_eq!(sk.to_bytes(), &r.sk[..], "{what}: sk");
            assert_eq!(vk.to_bytes().len(), ps.public_key_len());
            let esk = sk.expand();
            let sig = esk.sign_with_rng(&r.msg, &mut drbg).expect("sign");
            assert_eq!(sig.len(), ps.signature_len(), "{what}: sig length");
            let sm = snova::signed_message(ps, &sig, &r.msg).unwrap();
            assert_eq!(sm, r.sm, "{what}: sm");
            let salt: [u8; 16] = sig[sig.len() - 16..].try_into().unwrap();
            if i % 10 == 0 {
                assert_eq!(
                    sk.sign_with_salt(&r.msg, &salt).unwrap(),
                    sig,
                    "{what}: SigningKey"
                );
                let sk2 = SigningKey::from_bytes(ps, &r.sk)
                    .unwrap()
                    .with_backend(b)
                    .unwrap();
                assert_eq!(sk2.verifying_key().to_bytes(), &r.pk[..], "{what}: sk → pk");
            }
            let vk2 = VerifyingKey::from_bytes(ps, &r.pk)
                .unwrap()
                .with_backend(b)
                .unwrap();
            assert_eq!(vk2.open(&r.sm), Ok(&r.msg[..]), "{what}: open");
            let pvk = vk2.prepare();
            assert_eq!(pvk.verify(&r.msg, &sig), Ok(()), "{what}: prepared verify");
            let mut bad = sig.clone();
            bad[i % (sig.len() - 16)] ^= 1 << (i % 8);
            assert_eq!(
                pvk.verify(&r.msg, &bad),
                Err(Error::VerificationFailed),
                "{what}: tampered"
            );
            ok += 1;
        }
        assert_eq!(ok, recs.len());
    }
}

fn run(ps: ParamSet) {
    let rel = format!("snova/round3/PQCsignKAT_{}.rsp", ps.name());
    let recs = parse_rsp(&rel);
    assert_eq!(recs.len(), 100, "{rel}: record count");
    check_records(ps, &rel, &recs);
}

macro_rules! kat_tests {
    ($($name:ident => $ps:ident,)*) => {
        $(#[test] fn $name() { run(ParamSet::$ps); })*
    };
}

kat_tests! {
    kat_snova_i_k => SnovaIK,
    kat_snova_i_b => SnovaIB,
    kat_snova_i_s => SnovaIS,
    kat_snova_iii_k => SnovaIIIK,
    kat_snova_iii_b => SnovaIIIB,
    kat_snova_iii_s => SnovaIIIS,
    kat_snova_v_k => SnovaVK,
    kat_snova_v_b => SnovaVB,
    kat_snova_v_s => SnovaVS,
    kat_snova_i_k_aes => SnovaIKAes,
    kat_snova_i_b_aes => SnovaIBAes,
    kat_snova_i_s_aes => SnovaISAes,
    kat_snova_iii_k_aes => SnovaIIIKAes,
    kat_snova_iii_b_aes => SnovaIIIBAes,
    kat_snova_iii_s_aes => SnovaIIISAes,
    kat_snova_v_k_aes => SnovaVKAes,
    kat_snova_v_b_aes => SnovaVBAes,
    kat_snova_v_s_aes => SnovaVSAes,
}

#[test]
fn sage_vector_i_s() {
    let rel = "snova/round3/SAGE_SNOVA_I_S.count0.rsp";
    let recs = parse_rsp(rel);
    assert_eq!(recs.len(), 1, "{rel}: record count");
    check_records(ParamSet::SnovaIS, rel, &recs);
}

#[test]
fn names_and_sizes() {
    assert_eq!(ParamSet::ALL.len(), 18);
    for ps in ParamSet::ALL {
        assert_eq!(ParamSet::from_name(ps.name()), Some(ps));
        assert_eq!(
            ParamSet::from_name(&ps.name().to_lowercase().replace('_', "-")),
            Some(ps)
        );
        assert_eq!(ps.secret_key_len(), 96);
        assert_eq!(ps.uses_aes(), ps.name().ends_with("_AES"));
    }
    assert_eq!(ParamSet::from_name("SNOVA_24_5_4"), None);
    let s = ParamSet::SnovaIS;
    assert_eq!(
        (s.v(), s.o(), s.l(), s.r(), s.m1(), s.n()),
        (27, 5, 4, 4, 5, 32)
    );
    assert_eq!((s.public_key_len(), s.signature_len()), (1016, 272));
    assert_eq!(ParamSet::SnovaVB.public_key_len(), 1891);
    assert_eq!(ParamSet::SnovaVBAes.signature_len(), 691);
    assert_eq!(ParamSet::SnovaIK.public_key_len(), 376);
}
