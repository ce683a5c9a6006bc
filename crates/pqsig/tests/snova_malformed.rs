//! SNOVA on malformed input: wrong lengths, tampered keys, signatures and messages,
//! garbage bytes. Every case must return a typed error, never panic; well-formed but
//! wrong signatures are `VerificationFailed`, malformed ones `InvalidSignature`, keys of
//! the wrong length `InvalidKey` (as for ML-DSA and Falcon; only seeds are `InvalidLength`;
//! the
//! Round-3 sets have only even nibble counts, so no padding nibble exists to reject —
//! checked below too: every length is exactly `ceil(count / 2)` with an even count).

mod common;

use common::XorShift;
use pqsig::snova::{self, ParamSet, SigningKey, VerifyingKey};
use pqsig::{Backend, Error};

fn keypair(ps: ParamSet) -> (SigningKey, VerifyingKey) {
    let seed: Vec<u8> = (0..48u8).map(|i| i.wrapping_mul(37) ^ ps as u8).collect();
    snova::keygen_from_seed(ps, &seed).expect("keygen")
}

#[test]
fn lengths_are_checked() {
    for ps in ParamSet::ALL {
        let (sk, vk) = keypair(ps);
        let msg = b"length checks";
        let sig = sk.expand().sign_with_salt(msg, &[3; 16]).unwrap();
        let (pkl, sigl) = (ps.public_key_len(), ps.signature_len());
        // Even nibble counts: pk = 16 + count/2, sig = count/2 + 16.
        let (v, o, l, r, m1) = (ps.v(), ps.o(), ps.l(), ps.r(), ps.m1());
        assert_eq!((m1 * o * o * l * l) % 2, 0);
        assert_eq!(((v + o) * l * r) % 2, 0);
        assert_eq!(pkl, 16 + m1 * o * o * l * l / 2);
        assert_eq!(sigl, (v + o) * l * r / 2 + 16);

        for len in [0, 1, pkl - 1, pkl + 1, 2 * pkl] {
            let bytes = vec![0u8; len];
            assert_eq!(
                VerifyingKey::from_bytes(ps, &bytes).err(),
                Some(Error::InvalidKey),
                "{ps} pk {len}"
            );
        }
        for len in [0, 48, 95, 97, 192] {
            assert_eq!(
                SigningKey::from_bytes(ps, &vec![0u8; len]).err(),
                Some(Error::InvalidKey),
                "{ps} sk {len}"
            );
        }
        for len in [0, 47, 49] {
            assert_eq!(
                snova::keygen_from_seed(ps, &vec![0u8; len]).err(),
                Some(Error::InvalidLength)
            );
        }
        let pvk = vk.prepare();
        for len in [0, 16, sigl - 1, sigl + 1, 2 * sigl] {
            let mut s = sig.clone();
            s.resize(len, 0);
            assert_eq!(
                vk.verify(msg, &s),
                Err(Error::InvalidSignature),
                "{ps} sig {len}"
            );
            assert_eq!(
                pvk.verify(msg, &s),
                Err(Error::InvalidSignature),
                "{ps} sig {len}"
            );
            assert_eq!(
                snova::signed_message(ps, &s, msg).err(),
                Some(Error::InvalidSignature)
            );
        }
        for len in [0, 1, sigl - 1] {
            assert_eq!(vk.open(&sig[..len]), Err(Error::InvalidSignature));
            assert_eq!(pvk.open(&sig[..len]), Err(Error::InvalidSignature));
        }
        // An empty message: sm = sig exactly.
        let sig0 = sk.sign_with_salt(b"", &[9; 16]).unwrap();
        assert_eq!(vk.open(&sig0), Ok(&b""[..]));
        assert_eq!(vk.verify(msg, &sig), Ok(()));
    }
}

#[test]
fn tampering_is_rejected() {
    let mut rng = XorShift(0x5eed_5a0a);
    for ps in ParamSet::ALL {
        let (sk, vk) = keypair(ps);
        let msg = b"tamper with me";
        let sig = sk.expand().sign_with_salt(msg, &[5; 16]).unwrap();
        let pvk = vk.prepare();
        assert_eq!(pvk.verify(msg, &sig), Ok(()));
        // Signature body, salt, last byte.
        for pos in [
            0,
            1,
            sig.len() / 2,
            sig.len() - 17,
            sig.len() - 16,
            sig.len() - 1,
        ] {
            for bit in [0u8, 4, 7] {
                let mut s = sig.clone();
                s[pos] ^= 1 << bit;
                assert_eq!(
                    pvk.verify(msg, &s),
                    Err(Error::VerificationFailed),
                    "{ps} sig byte {pos} bit {bit}"
                );
            }
        }
        // Message.
        assert_eq!(
            vk.verify(b"tamper with mE", &sig),
            Err(Error::VerificationFailed)
        );
        assert_eq!(vk.verify(b"", &sig), Err(Error::VerificationFailed));
        // Public key: seed and P22 bytes (still well-formed).
        let pk = vk.to_bytes().to_vec();
        for pos in [0, 15, 16, pk.len() / 2, pk.len() - 1] {
            let mut p = pk.clone();
            p[pos] ^= 0x10;
            let vk2 = VerifyingKey::from_bytes(ps, &p).expect("well-formed pk");
            assert_eq!(
                vk2.verify(msg, &sig),
                Err(Error::VerificationFailed),
                "{ps} pk byte {pos}"
            );
        }
        // Garbage of the right length: never a panic, never accepted.
        for fill in [0x00u8, 0xFF] {
            let g = vec![fill; sig.len()];
            assert_eq!(pvk.verify(msg, &g), Err(Error::VerificationFailed));
            let gp = vec![fill; pk.len()];
            let vkg = VerifyingKey::from_bytes(ps, &gp).expect("any bytes of the right length");
            assert_eq!(vkg.verify(msg, &sig), Err(Error::VerificationFailed));
        }
        for _ in 0..4 {
            let g = rng.bytes(sig.len());
            assert_eq!(pvk.verify(msg, &g), Err(Error::VerificationFailed));
        }
        // A signed message with a wrong message part.
        let mut sm = snova::signed_message(ps, &sig, msg).unwrap();
        assert_eq!(vk.open(&sm), Ok(&msg[..]));
        let last = sm.len() - 1;
        sm[last] ^= 1;
        assert_eq!(vk.open(&sm), Err(Error::VerificationFailed));
        // A secret key with a wrong pk hash signs, but not for this public key.
        let mut skb = sk.to_bytes().to_vec();
        skb[60] ^= 1;
        let sk2 = SigningKey::from_bytes(ps, &skb).unwrap();
        let sig2 = sk2.sign_with_salt(msg, &[5; 16]).unwrap();
        assert_eq!(vk.verify(msg, &sig2), Err(Error::VerificationFailed));
    }
}

#[test]
fn shake_and_aes_keys_do_not_mix() {
    for (a, b) in ParamSet::ALL[..9].iter().zip(&ParamSet::ALL[9..]) {
        assert_eq!(a.signature_len(), b.signature_len());
        let (sk, vk) = keypair(*a);
        let sig = sk.sign_with_salt(b"m", &[1; 16]).unwrap();
        assert_eq!(vk.verify(b"m", &sig), Ok(()));
        let other = VerifyingKey::from_bytes(*b, vk.to_bytes()).unwrap();
        assert_eq!(
            other.verify(b"m", &sig),
            Err(Error::VerificationFailed),
            "{a} vs {b}"
        );
    }
}

#[test]
fn backends_and_debug() {
    let ps = ParamSet::SnovaIS;
    let (sk, vk) = keypair(ps);
    for b in Backend::ALL {
        let ok = b.is_available();
        let r = keypair(ps).0.with_backend(*b);
        assert_eq!(r.is_ok(), ok);
        if !ok {
            assert_eq!(r.err(), Some(Error::BackendUnavailable));
            assert_eq!(
                vk.clone().with_backend(*b).err(),
                Some(Error::BackendUnavailable)
            );
        }
    }
    let dbg = format!("{sk:?} {:?}", sk.expand());
    let hex: String = sk.to_bytes()[16..32]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(!dbg.contains(&hex), "Debug leaks the secret seed");
    assert!(!dbg.contains(&format!("{:?}", &sk.to_bytes()[16..24])));
    // Signing keys from the same bytes sign alike on every backend.
    let sig = sk.sign_with_salt(b"x", &[2; 16]).unwrap();
    for b in Backend::available() {
        let s2 = SigningKey::from_bytes(ps, sk.to_bytes())
            .unwrap()
            .with_backend(b)
            .unwrap();
        assert_eq!(s2.sign_with_salt(b"x", &[2; 16]).unwrap(), sig);
        assert_eq!(s2.verifying_key(), vk.clone().with_backend(b).unwrap());
    }
}
