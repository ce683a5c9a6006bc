//! Falcon (round 3) encodings: strict decoding, one test per rejection rule (each paired
//! with a control that the same bytes minus the defect are accepted), round trips for
//! every degree, and a fuzz-style pass over random, truncated and mutated inputs that
//! must never panic.

mod common;

use common::XorShift;
use pqsig::falcon::params::{self, NONCE_LEN};
use pqsig::kernels::internals::falcon::codec::{
    self, comp_decode, comp_encode, modq_decode, modq_encode,
};
use pqsig::kernels::internals::falcon::codec::{trim_i8_decode, trim_i8_encode};
use pqsig::kernels::internals::falcon::verify;
use pqsig::Error;

/// MSB-first bit string builder for hand-made encodings.
struct Bits(Vec<bool>);
impl Bits {
    fn new() -> Self {
        Bits(Vec::new())
    }
    fn push(&mut self, v: u32, n: u32) -> &mut Self {
        for i in (0..n).rev() {
            self.0.push((v >> i) & 1 == 1);
        }
        self
    }
    /// One compressed coefficient: sign, low 7 bits, `zeros` zeros, a one.
    fn coeff(&mut self, sign: u32, low: u32, zeros: u32) -> &mut Self {
        self.push(sign, 1).push(low, 7).push(0, zeros).push(1, 1)
    }
    /// Bytes, the last one padded with `pad` (a bit value repeated).
    fn bytes_pad(&self, pad: bool) -> Vec<u8> {
        let mut bits = self.0.clone();
        while !bits.len().is_multiple_of(8) {
            bits.push(pad);
        }
        bits.chunks(8)
            .map(|c| c.iter().fold(0u8, |a, &b| (a << 1) | b as u8))
            .collect()
    }
    fn bytes(&self) -> Vec<u8> {
        self.bytes_pad(false)
    }
}

fn rand_s2(rng: &mut XorShift, n: usize, max: i16) -> Vec<i16> {
    (0..n)
        .map(|_| {
            let r = rng.next();
            match r % 8 {
                0 => 0,
                1 => max,
                2 => -max,
                _ => (r >> 8) as i16 % (max + 1),
            }
        })
        .collect()
}

fn rand_h(rng: &mut XorShift, n: usize) -> Vec<u16> {
    (0..n).map(|_| (rng.next() % 12289) as u16).collect()
}

fn rand_small(rng: &mut XorShift, n: usize, bits: u32) -> Vec<i8> {
    let maxv = (1i64 << (bits - 1)) - 1;
    (0..n)
        .map(|_| ((rng.next() % (2 * maxv as u64 + 1)) as i64 - maxv) as i8)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Compressed signature vector.

#[test]
fn comp_accepts_valid_handmade_encoding() {
    // 0, +5, −130 (low 2, one zero), +2047 (low 127, 15 zeros) at logn = 2.
    let mut b = Bits::new();
    b.coeff(0, 0, 0)
        .coeff(0, 5, 0)
        .coeff(1, 2, 1)
        .coeff(0, 127, 15);
    let bytes = b.bytes();
    let mut x = [0i16; 4];
    assert_eq!(comp_decode(&mut x, &bytes, 2), Some(bytes.len()));
    assert_eq!(x, [0, 5, -130, 2047]);
    let mut out = vec![0u8; 16];
    assert_eq!(comp_encode(&mut out, &x, 2), Some(bytes.len()));
    assert_eq!(&out[..bytes.len()], &bytes[..]);
}

#[test]
fn comp_rejects_minus_zero() {
    let mut ok = Bits::new();
    ok.coeff(0, 0, 0).coeff(0, 3, 0);
    let mut neg0 = Bits::new();
    neg0.coeff(1, 0, 0).coeff(0, 3, 0);
    let mut x = [0i16; 2];
    assert!(comp_decode(&mut x, &ok.bytes(), 1).is_some());
    assert_eq!(comp_decode(&mut x, &neg0.bytes(), 1), None);
    // "−0" as the last coefficient too.
    let mut neg0_last = Bits::new();
    neg0_last.coeff(0, 3, 0).coeff(1, 0, 0);
    assert_eq!(comp_decode(&mut x, &neg0_last.bytes(), 1), None);
    // −128 (sign set, low bits 0, one zero) is not −0.
    let mut m128 = Bits::new();
    m128.coeff(1, 0, 1).coeff(0, 0, 0);
    assert_eq!(
        comp_decode(&mut x, &m128.bytes(), 1).map(|_| x),
        Some([-128, 0])
    );
}

#[test]
fn comp_rejects_nonzero_padding_bits() {
    let mut b = Bits::new();
    b.coeff(0, 1, 0).coeff(1, 7, 2); // 9 + 11 = 20 bits: 4 padding bits
    assert_eq!(b.0.len() % 8, 4);
    let mut x = [0i16; 2];
    assert!(comp_decode(&mut x, &b.bytes_pad(false), 1).is_some());
    assert_eq!(comp_decode(&mut x, &b.bytes_pad(true), 1), None);
    // Only the lowest padding bit set.
    let mut bytes = b.bytes();
    *bytes.last_mut().unwrap() |= 1;
    assert_eq!(comp_decode(&mut x, &bytes, 1), None);
}

#[test]
fn comp_rejects_values_above_2047() {
    let mut x = [0i16; 2];
    // 127 + 15·128 = 2047: accepted.
    let mut max = Bits::new();
    max.coeff(1, 127, 15).coeff(0, 0, 0);
    assert_eq!(
        comp_decode(&mut x, &max.bytes(), 1).map(|_| x),
        Some([-2047, 0])
    );
    // 0 + 16·128 = 2048: rejected (the unary run is too long).
    let mut over = Bits::new();
    over.coeff(0, 0, 16).coeff(0, 0, 0);
    assert_eq!(comp_decode(&mut x, &over.bytes(), 1), None);
    // A never-ending run of zeros.
    assert_eq!(comp_decode(&mut x, &[0x01, 0, 0, 0, 0, 0], 1), None);
    // The encoder refuses such values.
    let mut out = [0u8; 16];
    assert_eq!(comp_encode(&mut out, &[2048, 0], 1), None);
    assert_eq!(comp_encode(&mut out, &[0, -2048], 1), None);
    assert!(comp_encode(&mut out, &[2047, -2047], 1).is_some());
}

#[test]
fn comp_rejects_truncation_and_small_output() {
    let mut rng = XorShift(7);
    for logn in 1..=10u32 {
        let n = 1 << logn;
        let s2 = rand_s2(&mut rng, n, 2047);
        let mut buf = vec![0u8; 3 * n + 8];
        let k = comp_encode(&mut buf, &s2, logn).unwrap();
        let mut x = vec![0i16; n];
        assert_eq!(comp_decode(&mut x, &buf[..k], logn), Some(k));
        assert_eq!(x, s2);
        assert_eq!(
            comp_decode(&mut x, &buf[..k - 1], logn),
            None,
            "logn {logn}"
        );
        // Encoding into a buffer one byte short fails.
        let mut short = vec![0u8; k - 1];
        assert_eq!(comp_encode(&mut short, &s2, logn), None);
    }
}

// ---------------------------------------------------------------------------------------
// Detached signatures.

fn sample_sig(logn: u32, rng: &mut XorShift) -> (Vec<i16>, [u8; NONCE_LEN]) {
    // Small coefficients, as real signatures have, so the padded form fits.
    let s2 = rand_s2(rng, 1 << logn, 200);
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(&rng.bytes(NONCE_LEN));
    (s2, nonce)
}

#[test]
fn signature_round_trip_every_degree() {
    let mut rng = XorShift(11);
    for logn in 1..=10u32 {
        for padded in [false, true] {
            let (s2, nonce) = sample_sig(logn, &mut rng);
            let sig = match codec::encode_signature(&nonce, &s2, logn, padded) {
                Ok(sig) => sig,
                Err(e) => {
                    // Only a padded encoding may not fit.
                    assert!(padded, "logn {logn}");
                    assert_eq!(e, Error::InvalidLength);
                    continue;
                }
            };
            if padded {
                assert_eq!(sig.len(), params::sig_padded_size(logn));
            }
            assert_eq!(sig[0], 0x30 + logn as u8);
            let d = codec::decode_signature(&sig, padded).unwrap();
            assert_eq!((d.logn, d.nonce, &d.s2), (logn, nonce, &s2));
        }
    }
}

#[test]
fn compressed_signature_rejects_trailing_bytes() {
    let mut rng = XorShift(12);
    let (s2, nonce) = sample_sig(9, &mut rng);
    let sig = codec::encode_signature(&nonce, &s2, 9, false).unwrap();
    assert!(codec::decode_signature(&sig, false).is_ok());
    for extra in [0u8, 1, 0x80] {
        let mut longer = sig.clone();
        longer.push(extra);
        assert_eq!(
            codec::decode_signature(&longer, false),
            Err(Error::InvalidSignature)
        );
    }
    // Truncated.
    assert_eq!(
        codec::decode_signature(&sig[..sig.len() - 1], false),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        codec::decode_signature(&sig[..41], false),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        codec::decode_signature(&[], false),
        Err(Error::InvalidSignature)
    );
}

#[test]
fn padded_signature_rejects_nonzero_padding() {
    let mut rng = XorShift(13);
    let (s2, nonce) = sample_sig(9, &mut rng);
    let sig = codec::encode_signature(&nonce, &s2, 9, true).unwrap();
    let comp_len = codec::encode_signature(&nonce, &s2, 9, false)
        .unwrap()
        .len();
    assert!(comp_len < sig.len());
    assert!(codec::decode_signature(&sig, true).is_ok());
    for pos in [comp_len, (comp_len + sig.len()) / 2, sig.len() - 1] {
        let mut bad = sig.clone();
        bad[pos] = 0x01;
        assert_eq!(
            codec::decode_signature(&bad, true),
            Err(Error::InvalidSignature),
            "pos {pos}"
        );
    }
}

#[test]
fn padded_signature_rejects_wrong_length() {
    let mut rng = XorShift(14);
    let (s2, nonce) = sample_sig(10, &mut rng);
    let sig = codec::encode_signature(&nonce, &s2, 10, true).unwrap();
    assert!(codec::decode_signature(&sig, true).is_ok());
    let mut longer = sig.clone();
    longer.push(0);
    assert_eq!(
        codec::decode_signature(&longer, true),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        codec::decode_signature(&sig[..sig.len() - 1], true),
        Err(Error::InvalidSignature)
    );
}

#[test]
fn signature_rejects_wrong_header() {
    let mut rng = XorShift(15);
    let (s2, nonce) = sample_sig(9, &mut rng);
    for padded in [false, true] {
        let sig = codec::encode_signature(&nonce, &s2, 9, padded).unwrap();
        assert!(codec::decode_signature_logn(&sig, 9, padded).is_ok());
        for h in [0x29u8, 0x3A, 0x39 | 0x80, 0x09, 0x59, 0x30, 0x3B, 0x3F] {
            let mut bad = sig.clone();
            bad[0] = h;
            assert_eq!(
                codec::decode_signature_logn(&bad, 9, padded),
                Err(Error::InvalidSignature),
                "{h:#x}"
            );
            assert!(codec::decode_signature(&bad, padded).is_err(), "{h:#x}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Public keys.

#[test]
fn public_key_round_trip_every_degree() {
    let mut rng = XorShift(21);
    for logn in 1..=10u32 {
        let mut h = rand_h(&mut rng, 1 << logn);
        h[0] = 12288;
        let pk = codec::encode_public_key(&h, logn).unwrap();
        assert_eq!(pk.len(), params::pk_size(logn));
        assert_eq!(codec::decode_public_key(&pk), Ok((logn, h)));
    }
}

#[test]
fn public_key_rejects_coefficient_ge_q() {
    for bad in [12289u32, 12290, 16383] {
        let mut b = Bits::new();
        b.push(0x09, 8);
        for i in 0..512 {
            b.push(if i == 100 { bad } else { 12288 }, 14);
        }
        let mut ok = Bits::new();
        ok.push(0x09, 8);
        for _ in 0..512 {
            ok.push(12288, 14);
        }
        assert!(codec::decode_public_key(&ok.bytes()).is_ok());
        assert_eq!(
            codec::decode_public_key(&b.bytes()),
            Err(Error::InvalidKey),
            "{bad}"
        );
        let mut h = vec![0u16; 512];
        assert_eq!(modq_decode(&mut h, &b.bytes()[1..], 9), None);
    }
    // logn = 1 (a partial last byte).
    let mut b = Bits::new();
    b.push(0x01, 8).push(12289, 14).push(5, 14);
    let mut ok = Bits::new();
    ok.push(0x01, 8).push(12288, 14).push(5, 14);
    assert_eq!(
        codec::decode_public_key(&ok.bytes()),
        Ok((1, vec![12288, 5]))
    );
    assert_eq!(codec::decode_public_key(&b.bytes()), Err(Error::InvalidKey));
    // The encoder refuses such values.
    let mut out = [0u8; 8];
    assert_eq!(modq_encode(&mut out, &[12289, 0, 0, 0], 2), None);
    assert_eq!(
        codec::encode_public_key(&[0, 12289], 1),
        Err(Error::InvalidKey)
    );
}

#[test]
fn public_key_rejects_wrong_header() {
    let mut rng = XorShift(22);
    let h = rand_h(&mut rng, 512);
    let pk = codec::encode_public_key(&h, 9).unwrap();
    for hd in [0x0Au8, 0x08, 0x19, 0x39, 0x59, 0x89, 0x00, 0x0B] {
        let mut bad = pk.clone();
        bad[0] = hd;
        assert_eq!(
            codec::decode_public_key(&bad),
            Err(Error::InvalidKey),
            "{hd:#x}"
        );
    }
    let mut hh = vec![0u16; 1024];
    assert_eq!(
        codec::decode_public_key_into(&mut hh, &pk, 10),
        Err(Error::InvalidKey)
    );
    // With the degree given by the caller, the header byte is still checked.
    let mut h9 = vec![0u16; 512];
    assert_eq!(codec::decode_public_key_into(&mut h9, &pk, 9), Ok(()));
    for hd in [0x19u8, 0x49, 0x0A, 0x00] {
        let mut bad = pk.clone();
        bad[0] = hd;
        assert_eq!(
            codec::decode_public_key_into(&mut h9, &bad, 9),
            Err(Error::InvalidKey),
            "{hd:#x}"
        );
    }
}

#[test]
fn public_key_rejects_wrong_length() {
    let mut rng = XorShift(23);
    let h = rand_h(&mut rng, 1024);
    let pk = codec::encode_public_key(&h, 10).unwrap();
    let mut longer = pk.clone();
    longer.push(0);
    assert_eq!(codec::decode_public_key(&longer), Err(Error::InvalidKey));
    assert_eq!(
        codec::decode_public_key(&pk[..pk.len() - 1]),
        Err(Error::InvalidKey)
    );
    assert_eq!(codec::decode_public_key(&[]), Err(Error::InvalidKey));
}

#[test]
fn public_key_rejects_nonzero_padding_bits() {
    // logn = 1: 28 bits of h in 4 bytes, 4 padding bits.
    let pk = codec::encode_public_key(&[1, 2], 1).unwrap();
    assert_eq!(pk.len(), 5);
    assert!(codec::decode_public_key(&pk).is_ok());
    let mut bad = pk.clone();
    bad[4] |= 0x01;
    assert_eq!(codec::decode_public_key(&bad), Err(Error::InvalidKey));
}

// ---------------------------------------------------------------------------------------
// Secret keys.

#[allow(non_snake_case)]
fn sample_sk(logn: u32, rng: &mut XorShift) -> (Vec<i8>, Vec<i8>, Vec<i8>) {
    let n = 1 << logn;
    let fb = params::FG_BITS[logn as usize];
    let Fb = params::FG_CAP_BITS[logn as usize];
    (
        rand_small(rng, n, fb),
        rand_small(rng, n, fb),
        rand_small(rng, n, Fb),
    )
}

#[test]
fn secret_key_round_trip_every_degree() {
    let mut rng = XorShift(31);
    for logn in 1..=10u32 {
        let (f, g, big_f) = sample_sk(logn, &mut rng);
        let sk = codec::encode_secret_key(&f, &g, &big_f, logn).unwrap();
        assert_eq!(sk.len(), params::sk_size(logn));
        let d = codec::decode_secret_key(&sk).unwrap();
        assert_eq!((d.logn, &d.f, &d.g, &d.F), (logn, &f, &g, &big_f));
    }
}

#[test]
fn secret_key_rejects_wrong_header_and_length() {
    let mut rng = XorShift(32);
    let (f, g, big_f) = sample_sk(9, &mut rng);
    let sk = codec::encode_secret_key(&f, &g, &big_f, 9)
        .unwrap()
        .to_vec();
    assert!(codec::decode_secret_key(&sk).is_ok());
    for hd in [0x5Au8, 0x58, 0x09, 0x39, 0xD9, 0x50] {
        let mut bad = sk.clone();
        bad[0] = hd;
        assert_eq!(
            codec::decode_secret_key(&bad).err(),
            Some(Error::InvalidKey),
            "{hd:#x}"
        );
    }
    // With the degree given by the caller, the header byte is still checked.
    assert!(codec::decode_secret_key_logn(&sk, 9).is_ok());
    for hd in [0x59u8 ^ 0x10, 0x09, 0x5A, 0xD9] {
        let mut bad = sk.clone();
        bad[0] = hd;
        assert_eq!(
            codec::decode_secret_key_logn(&bad, 9).err(),
            Some(Error::InvalidKey),
            "{hd:#x}"
        );
    }
    let mut longer = sk.clone();
    longer.push(0);
    assert_eq!(
        codec::decode_secret_key(&longer).err(),
        Some(Error::InvalidKey)
    );
    assert_eq!(
        codec::decode_secret_key(&sk[..sk.len() - 1]).err(),
        Some(Error::InvalidKey)
    );
}

#[test]
fn secret_key_rejects_minimum_value() {
    // logn = 9: f, g on 6 bits (−32 forbidden), F on 8 bits (−128 forbidden).
    let mut rng = XorShift(33);
    let (f, g, big_f) = sample_sk(9, &mut rng);
    let sk = codec::encode_secret_key(&f, &g, &big_f, 9)
        .unwrap()
        .to_vec();
    let fg_len = 512 * 6 / 8;
    // f[0] is the top 6 bits of byte 1: set them to 100000.
    let mut bad = sk.clone();
    bad[1] = (bad[1] & 0x03) | 0x80;
    assert_eq!(
        codec::decode_secret_key(&bad).err(),
        Some(Error::InvalidKey)
    );
    // The largest allowed magnitude (−31 = 100001) is fine.
    let mut edge = sk.clone();
    edge[1] = (edge[1] & 0x03) | 0x84;
    assert_eq!(codec::decode_secret_key(&edge).unwrap().f[0], -31);
    // g[0].
    let mut bad = sk.clone();
    bad[1 + fg_len] = (bad[1 + fg_len] & 0x03) | 0x80;
    assert_eq!(
        codec::decode_secret_key(&bad).err(),
        Some(Error::InvalidKey)
    );
    // F[511] is the last byte: −128.
    let mut bad = sk.clone();
    *bad.last_mut().unwrap() = 0x80;
    assert_eq!(
        codec::decode_secret_key(&bad).err(),
        Some(Error::InvalidKey)
    );
    let mut edge = sk.clone();
    *edge.last_mut().unwrap() = 0x81;
    assert_eq!(codec::decode_secret_key(&edge).unwrap().F[511], -127);
}

#[test]
fn secret_key_encoder_rejects_out_of_range() {
    let mut rng = XorShift(34);
    let (mut f, g, mut big_f) = sample_sk(10, &mut rng);
    assert!(codec::encode_secret_key(&f, &g, &big_f, 10).is_ok());
    f[3] = -16; // 5 bits: ±15 only
    assert_eq!(
        codec::encode_secret_key(&f, &g, &big_f, 10).err(),
        Some(Error::InvalidKey)
    );
    f[3] = 16;
    assert_eq!(
        codec::encode_secret_key(&f, &g, &big_f, 10).err(),
        Some(Error::InvalidKey)
    );
    f[3] = 15;
    big_f[0] = -128;
    assert_eq!(
        codec::encode_secret_key(&f, &g, &big_f, 10).err(),
        Some(Error::InvalidKey)
    );
    big_f[0] = -127;
    assert!(codec::encode_secret_key(&f, &g, &big_f, 10).is_ok());
}

#[test]
fn trim_rejects_nonzero_padding_bits() {
    // logn = 1, 5 bits: 10 bits in 2 bytes, 6 padding bits.
    let mut out = [0u8; 2];
    assert_eq!(trim_i8_encode(&mut out, &[3, -4], 1, 5), Some(2));
    let mut x = [0i8; 2];
    assert_eq!(trim_i8_decode(&mut x, &out, 1, 5), Some(2));
    assert_eq!(x, [3, -4]);
    let mut bad = out;
    bad[1] |= 0x01;
    assert_eq!(trim_i8_decode(&mut x, &bad, 1, 5), None);
    assert_eq!(trim_i8_decode(&mut x, &out[..1], 1, 5), None);
}

// ---------------------------------------------------------------------------------------
// NIST signed message.

#[test]
fn signed_message_layout() {
    let mut rng = XorShift(41);
    let (s2, nonce) = sample_sig(9, &mut rng);
    let msg = rng.bytes(77);
    let sm = codec::encode_signed_message(&nonce, &msg, &s2, 9).unwrap();
    let comp = codec::encode_signature(&nonce, &s2, 9, false).unwrap();
    let clen = comp.len() - 1 - NONCE_LEN;
    assert_eq!(sm.len(), 2 + NONCE_LEN + msg.len() + 1 + clen);
    assert_eq!(u16::from_be_bytes([sm[0], sm[1]]) as usize, 1 + clen);
    assert_eq!(&sm[2..2 + NONCE_LEN], &nonce);
    assert_eq!(&sm[2 + NONCE_LEN..2 + NONCE_LEN + msg.len()], &msg[..]);
    assert_eq!(sm[2 + NONCE_LEN + msg.len()], 0x29);
    let p = codec::decode_signed_message(&sm, 9).unwrap();
    assert_eq!((p.msg, &p.s2, p.nonce), (&msg[..], &s2, nonce));

    // Wrong header byte.
    let mut bad = sm.clone();
    bad[2 + NONCE_LEN + msg.len()] = 0x39;
    assert_eq!(
        codec::decode_signed_message(&bad, 9),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        codec::decode_signed_message(&sm, 10),
        Err(Error::InvalidSignature)
    );
    // siglen too small / too large / off by one (comp(s2) then not exactly consumed or
    // the header byte misplaced).
    for siglen in [
        0u16,
        1,
        (1 + clen + 1) as u16,
        (1 + clen - 1) as u16,
        u16::MAX,
        (sm.len() - 2 - NONCE_LEN + 1) as u16,
    ] {
        let mut bad = sm.clone();
        bad[..2].copy_from_slice(&siglen.to_be_bytes());
        assert_eq!(
            codec::decode_signed_message(&bad, 9),
            Err(Error::InvalidSignature),
            "siglen {siglen}"
        );
    }
    // Trailing garbage after comp(s2), with or without siglen counting it.
    let mut longer = sm.clone();
    longer.push(0);
    assert_eq!(
        codec::decode_signed_message(&longer, 9),
        Err(Error::InvalidSignature)
    );
    longer[..2].copy_from_slice(&((2 + clen) as u16).to_be_bytes());
    assert_eq!(
        codec::decode_signed_message(&longer, 9),
        Err(Error::InvalidSignature)
    );
    // Empty message works.
    let sm0 = codec::encode_signed_message(&nonce, &[], &s2, 9).unwrap();
    assert_eq!(
        codec::decode_signed_message(&sm0, 9).unwrap().msg,
        &[] as &[u8]
    );

    // Padded layout.
    let smp = codec::encode_signed_message_padded(&nonce, &msg, &s2, 9).unwrap();
    assert_eq!(smp.len(), 666 + msg.len());
    let p = codec::decode_signed_message_padded(&smp, 9).unwrap();
    assert_eq!((p.msg, &p.s2), (&msg[..], &s2));
    assert!(codec::decode_signed_message_padded(&smp[..665], 9).is_err());
}

// ---------------------------------------------------------------------------------------
// Fuzz: never panic.

#[test]
fn fuzz_decoders_never_panic() {
    let mut rng = XorShift(0xf022);
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for logn in 1..=10u32 {
        let (s2, nonce) = sample_sig(logn, &mut rng);
        seeds.push(codec::encode_signature(&nonce, &s2, logn, false).unwrap());
        if let Ok(p) = codec::encode_signature(&nonce, &s2, logn, true) {
            seeds.push(p);
        }
        seeds.push(codec::encode_signed_message(&nonce, b"msg", &s2, logn).unwrap());
        seeds.push(codec::encode_public_key(&rand_h(&mut rng, 1 << logn), logn).unwrap());
        let (f, g, big_f) = sample_sk(logn, &mut rng);
        seeds.push(
            codec::encode_secret_key(&f, &g, &big_f, logn)
                .unwrap()
                .to_vec(),
        );
    }
    let pk9 = codec::encode_public_key(&rand_h(&mut rng, 512), 9).unwrap();
    for round in 0..6000 {
        let input: Vec<u8> = match round % 4 {
            0 => {
                let len = (rng.next() % 3000) as usize;
                rng.bytes(len)
            }
            1 => {
                let s = &seeds[(rng.next() as usize) % seeds.len()];
                let cut = (rng.next() as usize) % (s.len() + 1);
                s[..cut].to_vec()
            }
            2 => {
                let mut s = seeds[(rng.next() as usize) % seeds.len()].clone();
                for _ in 0..1 + rng.next() % 4 {
                    let i = (rng.next() as usize) % s.len();
                    s[i] ^= 1 << (rng.next() % 8);
                }
                s
            }
            _ => {
                // A valid header followed by random bytes.
                let len = 1 + (rng.next() % 2400) as usize;
                let mut s = rng.bytes(len);
                s[0] = [0x00u8, 0x30, 0x50, 0x20][(rng.next() % 4) as usize]
                    + 1
                    + (rng.next() % 10) as u8;
                s
            }
        };
        let _ = codec::decode_public_key(&input);
        let _ = codec::decode_secret_key(&input);
        for padded in [false, true] {
            let _ = codec::decode_signature(&input, padded);
            let _ = verify::verify(&pk9, b"m", &input, padded);
            let _ = verify::verify(&input, b"m", &input, padded);
            let _ = verify::open_signed_message(&pk9, &input, padded);
        }
        for logn in 1..=10u32 {
            let n = 1 << logn;
            let _ = codec::decode_signed_message(&input, logn);
            let _ = codec::decode_signed_message_padded(&input, logn);
            let _ = codec::decode_signature_logn(&input, logn, false);
            let mut x = vec![0i16; n];
            let _ = comp_decode(&mut x, &input, logn);
            let mut h = vec![0u16; n];
            let _ = modq_decode(&mut h, &input, logn);
            let mut t = vec![0i8; n];
            let _ = trim_i8_decode(&mut t, &input, logn, 2 + (round as u32 % 7));
        }
    }
    // Degenerate parameters are refused, not panicked on.
    let mut x = [0i16; 2];
    assert_eq!(comp_decode(&mut x, &[0, 0, 0], 2), None);
    let mut t = [0i8; 2];
    assert_eq!(trim_i8_decode(&mut t, &[0, 0], 1, 0), None);
    assert_eq!(trim_i8_decode(&mut t, &[0, 0], 1, 9), None);
    assert_eq!(
        codec::decode_signature_logn(&[0x30; 50], 0, false),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        codec::decode_signature_logn(&[0x3B; 50], 11, false),
        Err(Error::InvalidSignature)
    );
    assert!(codec::encode_public_key(&[0; 2048], 11).is_err());
}

/// The compressed format decoded bit by bit, straight from its definition: the model
/// the optimised decoder is compared with.
fn comp_decode_model(n: usize, buf: &[u8]) -> Option<(Vec<i16>, usize)> {
    let bit = |i: usize| -> Option<u32> { buf.get(i / 8).map(|b| ((b >> (7 - i % 8)) & 1) as u32) };
    let mut i = 0;
    let mut out = Vec::new();
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
    while i % 8 != 0 {
        if bit(i)? != 0 {
            return None;
        }
        i += 1;
    }
    Some((out, used))
}

#[test]
fn comp_decode_matches_bitwise_model() {
    let mut rng = XorShift(0xc0de);
    for round in 0..20000 {
        let logn = 1 + (round % 6) as u32;
        let n = 1usize << logn;
        let input = if round % 3 == 0 {
            let len = (rng.next() % (3 * n as u64 + 4)) as usize;
            rng.bytes(len)
        } else {
            let max = [5i16, 127, 300, 2047][(rng.next() % 4) as usize];
            let s2 = rand_s2(&mut rng, n, max);
            let mut buf = vec![0u8; 3 * n + 8];
            let k = comp_encode(&mut buf, &s2, logn).unwrap();
            buf.truncate(k + (rng.next() % 10) as usize);
            for _ in 0..rng.next() % 3 {
                let i = (rng.next() as usize) % buf.len();
                buf[i] ^= 1 << (rng.next() % 8);
            }
            buf
        };
        let mut x = vec![0i16; n];
        let got = comp_decode(&mut x, &input, logn).map(|k| (x.clone(), k));
        assert_eq!(
            got,
            comp_decode_model(n, &input),
            "logn {logn} input {input:02x?}"
        );
    }
}

/// Runs `f`, failing the test with `what` if it panics.
fn no_panic<T>(what: &str, f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => panic!("{what}: panicked"),
    }
}

/// The raw codec layer (not API: behind `pqsig::kernels::internals`) on every logn,
/// out-of-range ones included, buffers of every shape and random bytes: no panic. The
/// public API validates before it calls these; this keeps them robust anyway.
#[test]
fn codec_layer_sweep_never_panics() {
    const HUGE: usize = 1 << 20;
    let mut rng = XorShift(0x5eed_0003);
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
                    verify::verify(&buf, b"m", &buf, padded)
                });
                let _ = no_panic(&format!("open_signed_message {tag}"), || {
                    verify::open_signed_message(&buf, &buf, padded)
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
                    verify::public_key_from_fg(&vec![1i8; n], &vec![1i8; n], logn)
                });
            }
        }
    }
}
