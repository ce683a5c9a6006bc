//! The fast paths of Falcon verification against their plain forms, on every backend:
//!
//! * `comp_decode`: both builds (portable, and LZCNT/BMI2 under a non-portable backend)
//!   against a bit-by-bit model of the compressed format, on valid encodings (every
//!   coefficient range, with trailing bytes), bit-flipped ones and random bytes;
//! * the one-state Keccak permutation of every backend against the portable one, and
//!   sponges pinned to each backend against the default one;
//! * hash-to-point per backend, and verification per backend (object and bytes forms)
//!   accepting the same signatures and rejecting the same tamperings.
//!
//! `comp_decode` picks its build from the process-wide backend, which the first test
//! switches; every result compared here is the same on every backend, so the other tests
//! running meanwhile are unaffected.

mod common;

use common::XorShift;
use pqsig::backend::{self, Backend};
use pqsig::falcon::params::NONCE_LEN;
use pqsig::falcon::{keygen_from_seed, ParamSet, VerifyingKey};
use pqsig::kernels::falcon::ntt;
use pqsig::kernels::internals::falcon::codec::{comp_decode, comp_encode};
use pqsig::kernels::internals::falcon::hash::hash_to_point_msg_on;
use pqsig::kernels::internals::falcon::verify::PreparedPublicKey;
use pqsig::kernels::keccak::f1600::{keccak_f1600, permute1_for};
use pqsig::kernels::keccak::sponge::{Sha3, Shake128, Shake256};
use pqsig::Error;

/// The compressed format read bit by bit, straight from its definition.
fn model(n: usize, buf: &[u8]) -> Option<(Vec<i16>, usize)> {
    let bit = |i: usize| buf.get(i / 8).map(|b| ((b >> (7 - i % 8)) & 1) as u32);
    let mut i = 0;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let sign = bit(i)?;
        let mut low = 0;
        for j in 1..8 {
            low = (low << 1) | bit(i + j)?;
        }
        i += 8;
        let mut zeros = 0;
        while bit(i)? == 0 {
            zeros += 1;
            i += 1;
            if zeros > 15 {
                return None;
            }
        }
        i += 1;
        let m = (low + 128 * zeros) as i16;
        if sign == 1 && m == 0 {
            return None;
        }
        out.push(if sign == 1 { -m } else { m });
    }
    let used = i.div_ceil(8);
    while !i.is_multiple_of(8) {
        if bit(i)? != 0 {
            return None;
        }
        i += 1;
    }
    Some((out, used))
}

/// A test input for degree 2^logn: random bytes, or an encoding of random values (a
/// range chosen at random, Gaussian-like ones as in signatures included), possibly
/// truncated, extended with random bytes, or with bits flipped.
fn comp_case(rng: &mut XorShift, logn: u32) -> Vec<u8> {
    let n = 1usize << logn;
    match rng.next() % 4 {
        0 => {
            let len = (rng.next() % (3 * n as u64 + 10)) as usize;
            rng.bytes(len)
        }
        kind => {
            let max = [1i64, 127, 128, 300, 1000, 2047][(rng.next() % 6) as usize];
            let s2: Vec<i16> = (0..n)
                .map(|_| {
                    if max == 300 {
                        // Sum of uniforms: centred, sigma about 170.
                        let s: i64 = (0..6).map(|_| (rng.next() % 171) as i64).sum();
                        (s - 510) as i16
                    } else {
                        ((rng.next() % (2 * max as u64 + 1)) as i64 - max) as i16
                    }
                })
                .collect();
            let mut buf = vec![0u8; 3 * n + 16];
            let k = comp_encode(&mut buf, &s2, logn).expect("in range");
            buf.truncate(k);
            match kind {
                1 => {
                    let extra = (rng.next() % 12) as usize;
                    buf.extend(rng.bytes(extra));
                }
                2 if !buf.is_empty() => {
                    for _ in 0..1 + rng.next() % 3 {
                        let i = (rng.next() as usize) % buf.len();
                        buf[i] ^= 1 << (rng.next() % 8);
                    }
                }
                _ => {
                    let cut = (rng.next() % 4) as usize;
                    buf.truncate(buf.len().saturating_sub(cut));
                }
            }
            buf
        }
    }
}

#[test]
fn comp_decode_every_build_matches_model() {
    let mut rng = XorShift(0xdec0_de5e_ed00_0001);
    let cases: Vec<(u32, Vec<u8>)> = (0..30_000)
        .map(|r| {
            let logn = 1 + (r % 10) as u32;
            (logn, comp_case(&mut rng, logn))
        })
        .collect();
    let before = backend::active();
    for b in Backend::available() {
        backend::set_backend(b).expect("available");
        let mut accepted = 0;
        for (logn, buf) in &cases {
            let n = 1usize << logn;
            let mut x = vec![0i16; n];
            let got = comp_decode(&mut x, buf, *logn).map(|k| (x, k));
            let want = model(n, buf);
            accepted += want.is_some() as usize;
            assert_eq!(got, want, "{b} logn {logn} input {buf:02x?}");
        }
        // The cases exercise both outcomes.
        assert!(accepted > 5_000 && accepted < 25_000, "{accepted}");
    }
    backend::set_backend(before).expect("available");
}

#[test]
fn keccak_every_backend_matches_portable() {
    let mut rng = XorShift(0x6b65_6363_616b);
    let mut edge = vec![[0u64; 25], [u64::MAX; 25]];
    for i in 0..25 {
        let mut s = [0u64; 25];
        s[i] = 1 << (i * 7 % 64);
        edge.push(s);
    }
    for b in Backend::available() {
        let p = permute1_for(b);
        for s0 in &edge {
            let (mut a, mut r) = (*s0, *s0);
            p(&mut a);
            keccak_f1600(&mut r);
            assert_eq!(a, r, "{b}");
        }
        // Random states, then 200 chained permutations.
        let mut a: [u64; 25] = core::array::from_fn(|_| rng.next());
        let mut r = a;
        for _ in 0..200 {
            p(&mut a);
            keccak_f1600(&mut r);
            assert_eq!(a, r, "{b}");
        }
    }
}

#[test]
fn sponges_pinned_to_each_backend_agree() {
    let mut rng = XorShift(0x5350_4f4e_4745);
    for len in [0usize, 1, 71, 135, 136, 137, 168, 500, 1000] {
        let data = rng.bytes(len);
        let mut want256 = vec![0u8; 700];
        let mut want128 = vec![0u8; 400];
        let mut want_sha3 = [0u8; 72];
        {
            let mut h = Shake256::new();
            h.absorb(&data);
            h.squeeze(&mut want256);
            let mut h = Shake128::new();
            h.absorb(&data);
            h.squeeze(&mut want128);
            let mut h = Sha3::<72>::new();
            h.absorb(&data);
            h.squeeze(&mut want_sha3);
        }
        for b in Backend::available() {
            let p = permute1_for(b);
            let mut h = Shake256::new().with_permutation(p);
            h.absorb(&data[..len / 2]);
            h.absorb(&data[len / 2..]);
            let mut got = vec![0u8; 700];
            h.squeeze(&mut got[..5]);
            h.squeeze(&mut got[5..]);
            assert_eq!(got, want256, "{b} shake256 len {len}");
            let mut h = Shake128::new().with_permutation(p);
            h.absorb(&data);
            let mut got = vec![0u8; 400];
            h.squeeze(&mut got);
            assert_eq!(got, want128, "{b} shake128 len {len}");
            let mut h = Sha3::<72>::new().with_permutation(p);
            h.absorb(&data);
            let mut got = [0u8; 72];
            h.squeeze(&mut got);
            assert_eq!(got, want_sha3, "{b} sha3 len {len}");
        }
    }
}

#[test]
fn hash_to_point_every_backend_agrees() {
    let mut rng = XorShift(0x4832_5054);
    for logn in 1..=10u32 {
        let n = 1usize << logn;
        for mlen in [0usize, 3, 95, 96, 97, 300] {
            let nonce: [u8; NONCE_LEN] = rng.bytes(NONCE_LEN).try_into().unwrap();
            let msg = rng.bytes(mlen);
            let mut want = vec![0u16; n];
            hash_to_point_msg_on(Backend::Portable, &nonce, &msg, &mut want);
            assert!(want.iter().all(|&c| c < 12289));
            for b in Backend::available() {
                let mut got = vec![0u16; n];
                hash_to_point_msg_on(b, &nonce, &msg, &mut got);
                assert_eq!(got, want, "{b} logn {logn} mlen {mlen}");
            }
        }
    }
}

#[test]
fn verification_every_backend_agrees() {
    let mut rng = XorShift(0x7665_7269_6679);
    for ps in ParamSet::ALL {
        let logn = ps.logn();
        let seed = rng.bytes(48);
        let (sk, vk) = keygen_from_seed(ps, &seed).expect("keygen");
        let pk = vk.to_bytes().to_vec();
        for round in 0..6 {
            let msg = rng.bytes(round * 17);
            let nonce: [u8; NONCE_LEN] = rng.bytes(NONCE_LEN).try_into().unwrap();
            let seed: [u8; 48] = rng.bytes(48).try_into().unwrap();
            let sig = sk
                .sign_with_nonce_and_seed(&msg, &nonce, &seed)
                .expect("sign");
            // Tamperings: another message, a flipped bit anywhere, a trailing byte, a
            // byte less.
            let mut other = msg.clone();
            other.push(1);
            let mut cases: Vec<(Vec<u8>, Vec<u8>)> = vec![(msg.clone(), sig.clone())];
            cases.push((other, sig.clone()));
            for _ in 0..6 {
                let mut s = sig.clone();
                let i = (rng.next() as usize) % s.len();
                s[i] ^= 1 << (rng.next() % 8);
                cases.push((msg.clone(), s));
            }
            let mut s = sig.clone();
            s.push(0);
            cases.push((msg.clone(), s));
            cases.push((msg.clone(), sig[..sig.len() - 1].to_vec()));
            for (m, s) in &cases {
                let want = VerifyingKey::from_bytes(ps, &pk)
                    .and_then(|v| v.with_backend(Backend::Portable))
                    .and_then(|v| v.verify(m, s));
                if (m, s) == (&msg, &sig) {
                    assert_eq!(want, Ok(()), "{} own signature", ps.name());
                } else {
                    assert!(
                        matches!(
                            want,
                            Err(Error::VerificationFailed | Error::InvalidSignature)
                        ),
                        "{} tampered: {want:?}",
                        ps.name()
                    );
                }
                for b in Backend::available() {
                    let v = VerifyingKey::from_bytes(ps, &pk)
                        .and_then(|v| v.with_backend(b))
                        .expect("key");
                    assert_eq!(v.verify(m, s), want, "{} {b}", ps.name());
                    let k = ntt::kernels(b);
                    let prepared = PreparedPublicKey::from_bytes_with(k, &pk).expect("key");
                    assert_eq!(
                        prepared.verify_with(k, m, s, ps.padded()),
                        want,
                        "{} {b} prepared",
                        ps.name()
                    );
                    // The parts form (decoded s2, explicit nonce) agrees.
                    if let Ok(d) = pqsig::kernels::internals::falcon::codec::decode_signature_logn(
                        s,
                        logn,
                        ps.padded(),
                    ) {
                        assert_eq!(
                            prepared.verify_parts_with(k, &d.nonce, m, &d.s2),
                            want,
                            "{} {b} parts",
                            ps.name()
                        );
                    }
                }
            }
        }
    }
}
