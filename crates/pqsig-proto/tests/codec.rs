//! The wire format: exact bytes of a known frame, every malformed-input class with its
//! error code and fatality, and random tests (decode never panics; encode and decode are
//! inverse in both directions).

use pqsig_proto::codec::{
    self, decode_request, decode_request_frame, decode_response, decode_response_frame,
    encode_request, encode_response, op, DecodeError, Header, HEADER_LEN, MAX_PAYLOAD,
};
use pqsig_proto::{
    ErrorCode, ErrorResponse, Input, KeyRef, Limits, Request, Response, SignRequest, VerifyRequest,
};
use zeroize::Zeroizing;

/// xorshift64*: deterministic, dependency-free randomness for the property tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.below(max + 1);
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn string(&mut self, min: usize, max: usize) -> String {
        let n = min + self.below(max - min + 1);
        // Multi-byte characters too, kept within `max` bytes.
        let mut s = String::new();
        while s.len() < n {
            let c = ['a', 'Z', '-', '7', 'é', '€'][self.below(6)];
            if s.len() + c.len_utf8() > max {
                break;
            }
            s.push(c);
        }
        if s.len() < min {
            s.push('k');
        }
        s
    }
    fn input(&mut self) -> (Input, Vec<u8>) {
        if self.below(3) == 0 {
            let mut mu = [0u8; 64];
            mu.iter_mut().for_each(|b| *b = self.next() as u8);
            (Input::Mu(mu), Vec::new())
        } else {
            (Input::Message(self.bytes(300)), self.bytes(255))
        }
    }
    fn sign(&mut self) -> Request {
        let (input, context) = self.input();
        Request::Sign(SignRequest {
            key_id: self.string(1, 255),
            input,
            context,
            deterministic: self.below(2) == 1,
        })
    }
    fn verify(&mut self) -> Request {
        let key = if self.below(2) == 0 {
            KeyRef::Id(self.string(1, 40))
        } else {
            KeyRef::Inline {
                algorithm: self.string(0, 20),
                public_key: self.bytes(100),
            }
        };
        let (input, context) = self.input();
        Request::Verify(VerifyRequest {
            key,
            input,
            context,
            signature: self.bytes(200),
        })
    }
    fn request(&mut self) -> Request {
        match self.below(5) {
            0 => Request::Ping(self.bytes(50)),
            1 => Request::Hello {
                token: Zeroizing::new(self.bytes(64)),
            },
            2 => self.sign(),
            3 => self.verify(),
            _ => Request::Batch(
                (0..self.below(5))
                    .map(|_| {
                        if self.below(2) == 0 {
                            self.sign()
                        } else {
                            self.verify()
                        }
                    })
                    .collect(),
            ),
        }
    }
    fn item(&mut self) -> Response {
        match self.below(4) {
            0 => Response::Signature(self.bytes(100)),
            1 => Response::Valid,
            2 => Response::Invalid,
            _ => Response::error(ErrorCode(self.next() as u16), self.string(0, 80)),
        }
    }
    fn response(&mut self) -> Response {
        match self.below(4) {
            0 => Response::Pong(self.bytes(50)),
            1 => Response::HelloOk(Limits {
                max_payload: self.next() as u32,
                max_in_flight: self.next() as u32,
                max_batch: self.next() as u32,
            }),
            2 => Response::Batch((0..self.below(5)).map(|_| self.item()).collect()),
            _ => self.item(),
        }
    }
}

fn sign_req() -> Request {
    Request::Sign(SignRequest {
        key_id: "k1".into(),
        input: Input::Message(b"hi".to_vec()),
        context: vec![0xAB],
        deterministic: true,
    })
}

/// A raw frame with this opcode and payload (no checks).
fn raw(opcode: u8, id: u32, payload: &[u8]) -> Vec<u8> {
    let h = Header {
        opcode,
        request_id: id,
        length: payload.len() as u32,
    };
    let mut f = h.encode().to_vec();
    f.extend_from_slice(payload);
    f
}

#[test]
fn a_sign_frame_has_the_documented_bytes() {
    // docs/PROTOCOL.md "Example": SIGN id 7, key "k1", deterministic, ctx AB, message "hi".
    let f = encode_request(7, &sign_req()).unwrap();
    let expected = hex::decode(concat!(
        "50515347", "01", "10", "0000", "00000007", "00000012", // header
        "00000002", "6b31", // key id "k1"
        "02",   // flags: deterministic
        "00000001", "ab", // context
        "00000002", "6869", // message "hi"
    ))
    .unwrap();
    assert_eq!(f, expected);
    let (id, req, used) = decode_request_frame(&f, MAX_PAYLOAD).unwrap();
    assert_eq!((id, req, used), (7, sign_req(), f.len()));
    // An ERROR frame: code 404, message "no".
    let e = encode_response(9, &Response::error(ErrorCode::NOT_FOUND, "no")).unwrap();
    assert_eq!(
        hex::encode(e),
        "5051534701ff000000000009000000080194000000026e6f"
    );
}

#[test]
fn header_errors_are_fatal_with_the_right_codes() {
    let good = encode_request(1, &Request::Ping(vec![1, 2])).unwrap();
    let mut bad_magic = good.clone();
    bad_magic[0] = b'X';
    let e = decode_request_frame(&bad_magic, MAX_PAYLOAD).unwrap_err();
    assert_eq!(
        (e.clone(), e.code(), e.is_fatal()),
        (DecodeError::BadMagic, ErrorCode::BAD_VERSION, true)
    );

    let mut v2 = good.clone();
    v2[4] = 2;
    let e = decode_request_frame(&v2, MAX_PAYLOAD).unwrap_err();
    assert_eq!(e, DecodeError::UnsupportedVersion(2));
    assert!(e.is_fatal());
    assert_eq!(e.code(), ErrorCode::BAD_VERSION);

    // Over the caller's limit, and over the protocol's even with a larger limit.
    let e = decode_request_frame(&good, 1).unwrap_err();
    assert_eq!(e, DecodeError::TooLarge { length: 6, max: 1 });
    assert_eq!((e.code(), e.is_fatal()), (ErrorCode::TOO_LARGE, true));
    let mut huge = good.clone();
    huge[12..16].copy_from_slice(&(MAX_PAYLOAD + 1).to_be_bytes());
    assert!(matches!(
        decode_request_frame(&huge, u32::MAX),
        Err(DecodeError::TooLarge {
            max: MAX_PAYLOAD,
            ..
        })
    ));

    // Truncation anywhere: header or payload.
    for cut in 0..good.len() {
        let e = decode_request_frame(&good[..cut], MAX_PAYLOAD).unwrap_err();
        assert_eq!(e, DecodeError::Truncated, "cut at {cut}");
        assert!(e.is_fatal());
    }

    // Reserved bytes: malformed but the stream stays in step.
    let mut reserved = good.clone();
    reserved[7] = 1;
    let e = decode_request_frame(&reserved, MAX_PAYLOAD).unwrap_err();
    assert!(matches!(e, DecodeError::Malformed(_)));
    assert_eq!((e.code(), e.is_fatal()), (ErrorCode::BAD_REQUEST, false));
    assert!(codec::check_reserved(reserved[..HEADER_LEN].try_into().unwrap()).is_err());
}

#[test]
fn unknown_opcodes_are_reported_and_skippable() {
    for o in [0x00, 0x03, 0x12, 0x7f, 0x81, 0xfe] {
        let e = decode_request(o, &[]).unwrap_err();
        assert_eq!(e, DecodeError::UnknownOpcode(o));
        assert_eq!((e.code(), e.is_fatal()), (ErrorCode::UNKNOWN_OPCODE, false));
    }
    for o in [0x00, 0x01, 0x10, 0x83, 0xfe] {
        assert_eq!(
            decode_response(o, &[]).unwrap_err(),
            DecodeError::UnknownOpcode(o)
        );
    }
}

/// Every strict prefix of a valid payload, and the payload with a byte appended, fail
/// as malformed (non-fatal) without panicking.
#[test]
fn every_truncated_or_padded_payload_is_malformed() {
    let mut rng = Rng(0x5eed);
    for _ in 0..200 {
        let req = rng.request();
        let f = encode_request(3, &req).unwrap();
        let (h, payload, _) = codec::split_frame(&f, MAX_PAYLOAD).unwrap();
        for cut in 0..payload.len() {
            match decode_request(h.opcode, &payload[..cut]) {
                Err(DecodeError::Malformed(_)) => {}
                other => panic!("{req:?} cut at {cut}: {other:?}"),
            }
        }
        let mut padded = payload.to_vec();
        padded.push(0);
        assert!(matches!(
            decode_request(h.opcode, &padded),
            Err(DecodeError::Malformed(_))
        ));
    }
    for _ in 0..200 {
        let resp = rng.response();
        let f = encode_response(3, &resp).unwrap();
        let (h, payload, _) = codec::split_frame(&f, MAX_PAYLOAD).unwrap();
        for cut in 0..payload.len() {
            assert!(
                matches!(
                    decode_response(h.opcode, &payload[..cut]),
                    Err(DecodeError::Malformed(_))
                ),
                "{resp:?} cut at {cut}"
            );
        }
    }
}

#[test]
fn field_rules_are_enforced_when_decoding() {
    let field = |b: &[u8]| {
        let mut v = (b.len() as u32).to_be_bytes().to_vec();
        v.extend_from_slice(b);
        v
    };
    let sign = |key: &[u8], flags: u8, ctx: &[u8], data: &[u8]| {
        let mut p = field(key);
        p.push(flags);
        p.extend(field(ctx));
        p.extend(field(data));
        p
    };
    let bad = |p: Vec<u8>, opcode: u8, why: &str| match decode_request(opcode, &p) {
        Err(DecodeError::Malformed(m)) => assert!(m.contains(why), "{m:?} should say {why:?}"),
        other => panic!("expected Malformed({why}), got {other:?}"),
    };
    assert!(decode_request(op::SIGN, &sign(b"k", 0, b"", b"m")).is_ok());
    bad(sign(b"", 0, b"", b"m"), op::SIGN, "key id");
    bad(sign(&[b'k'; 256], 0, b"", b"m"), op::SIGN, "key id");
    bad(sign(&[0xff, 0xfe], 0, b"", b"m"), op::SIGN, "not UTF-8");
    bad(sign(b"k", 0x04, b"", b"m"), op::SIGN, "flags");
    bad(sign(b"k", 0, &[0; 256], b"m"), op::SIGN, "context");
    bad(sign(b"k", 1, b"", &[0; 63]), op::SIGN, "mu must be 64");
    bad(sign(b"k", 1, b"", &[0; 65]), op::SIGN, "mu must be 64");
    bad(
        sign(b"k", 1, b"c", &[0; 64]),
        op::SIGN,
        "context cannot be sent with mu",
    );
    assert!(decode_request(op::SIGN, &sign(b"k", 3, b"", &[0; 64])).is_ok());
    // A length prefix larger than what follows.
    let mut p = sign(b"k", 0, b"", b"m");
    let n = p.len();
    p[n - 5..n - 1].copy_from_slice(&u32::MAX.to_be_bytes());
    bad(p, op::SIGN, "past the end");

    // VERIFY: key reference tag and flags.
    let verify = |tag: u8, flags: u8| {
        let mut p = vec![tag];
        p.extend(field(b"k"));
        p.push(flags);
        p.extend(field(b""));
        p.extend(field(b"m"));
        p.extend(field(b"sig"));
        p
    };
    assert!(decode_request(op::VERIFY, &verify(0, 0)).is_ok());
    bad(verify(2, 0), op::VERIFY, "key reference tag");
    bad(verify(0, 2), op::VERIFY, "flags"); // deterministic is SIGN-only

    // BATCH: nesting, foreign items, impossible counts.
    let ping = encode_request(1, &Request::Ping(vec![])).unwrap();
    let mut nested = 1u32.to_be_bytes().to_vec();
    nested.push(op::PING);
    nested.extend(field(&ping[HEADER_LEN..]));
    bad(nested, op::BATCH, "BATCH item");
    let mut unknown = 1u32.to_be_bytes().to_vec();
    unknown.push(0x55);
    unknown.extend(field(b""));
    bad(unknown, op::BATCH, "unknown batch item opcode");
    bad(u32::MAX.to_be_bytes().to_vec(), op::BATCH, "batch count");
    // Responses: batch items restricted too.
    let mut r = 1u32.to_be_bytes().to_vec();
    r.push(op::PONG);
    r.extend(field(&[0, 0, 0, 0]));
    assert!(matches!(
        decode_response(op::BATCH_RESULT, &r),
        Err(DecodeError::Malformed(_))
    ));
    let mut e = vec![0x01, 0x90];
    e.extend(field(&[0xc3]));
    assert!(matches!(
        decode_response(op::ERROR, &e),
        Err(DecodeError::Malformed(_))
    ));
}

#[test]
fn encoding_refuses_what_decoding_would_refuse() {
    let mut r = SignRequest {
        key_id: String::new(),
        input: Input::Message(vec![]),
        context: vec![],
        deterministic: false,
    };
    assert!(encode_request(1, &Request::Sign(r.clone())).is_err());
    r.key_id = "k".into();
    r.context = vec![0; 256];
    assert!(encode_request(1, &Request::Sign(r.clone())).is_err());
    r.context = vec![1];
    r.input = Input::Mu([0; 64]);
    assert!(encode_request(1, &Request::Sign(r.clone())).is_err());
    assert!(encode_request(1, &Request::Batch(vec![Request::Ping(vec![])])).is_err());
    assert!(encode_response(1, &Response::Batch(vec![Response::Pong(vec![])])).is_err());
    // Over the protocol's maximum payload.
    let big = Request::Ping(vec![0; MAX_PAYLOAD as usize]);
    assert!(encode_request(1, &big).is_err());
}

#[test]
fn encode_then_decode_is_the_identity() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for i in 0..3000u32 {
        let req = rng.request();
        let f = encode_request(i, &req).unwrap();
        let (id, back, used) = decode_request_frame(&f, MAX_PAYLOAD).unwrap();
        assert_eq!((id, used), (i, f.len()));
        assert_eq!(back, req);
        let resp = rng.response();
        let f = encode_response(i, &resp).unwrap();
        let (id, back, used) = decode_response_frame(&f, MAX_PAYLOAD).unwrap();
        assert_eq!((id, &back, used), (i, &resp, f.len()));
    }
}

/// Random bytes never panic the decoder; when they do decode, encoding gives the same
/// bytes back (the encoding is canonical). Payloads start from mutated valid ones so
/// that the deep fields are reached, not just the first length check.
#[test]
fn random_bytes_never_panic_and_decoded_frames_reencode_exactly() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut decoded = 0;
    for i in 0..20_000u32 {
        let mut f = if i % 2 == 0 {
            encode_request(i, &rng.request()).unwrap()
        } else {
            encode_response(i, &rng.response()).unwrap()
        };
        match rng.below(4) {
            0 => f = rng.bytes(64),
            1 => {
                let k = 1 + rng.below(4);
                for _ in 0..k {
                    let at = rng.below(f.len());
                    f[at] = rng.next() as u8;
                }
            }
            2 => f.truncate(rng.below(f.len() + 1)),
            _ => {
                // Random payload behind a valid header with a random opcode.
                let payload = rng.bytes(80);
                f = raw(rng.next() as u8, i, &payload);
            }
        }
        if let Ok((id, req, used)) = decode_request_frame(&f, MAX_PAYLOAD) {
            decoded += 1;
            assert_eq!(encode_request(id, &req).unwrap(), f[..used]);
        }
        if let Ok((id, resp, used)) = decode_response_frame(&f, MAX_PAYLOAD) {
            decoded += 1;
            assert_eq!(encode_response(id, &resp).unwrap(), f[..used]);
        }
    }
    // The mutations must not all be rejected outright, or the test checks little.
    assert!(decoded > 1000, "only {decoded} random frames decoded");
}

#[test]
fn errors_format_on_one_line() {
    let e = ErrorResponse::new(ErrorCode::FORBIDDEN, "token may not sign with k1");
    assert_eq!(e.to_string(), "403 forbidden: token may not sign with k1");
    assert_eq!(ErrorCode(599).to_string(), "599 error");
    // The token never shows in debug output.
    let hello = Request::Hello {
        token: Zeroizing::new(b"s3cret".to_vec()),
    };
    assert!(!format!("{hello:?}").contains("s3cret"));
}

/// The borrowed VERIFY view and the BATCH splitter agree with the owned decoder: on every
/// random request (fields equal, or both refuse), and on mutated bodies.
#[test]
fn verify_view_and_batch_split_agree_with_the_owned_decoder() {
    use pqsig_proto::codec::{batch_items, decode_verify_view, encode_request_payload, KeyRefView};
    let mut rng = Rng(0x5eed_0ff1_e1d5);
    let mut verifies = 0;
    for _ in 0..3000 {
        let req = rng.request();
        let (op, payload) = encode_request_payload(&req).unwrap();
        let items: Vec<(u8, Vec<u8>)> = match &req {
            Request::Batch(_) => batch_items(&payload)
                .unwrap()
                .into_iter()
                .map(|(o, b)| (o, b.to_vec()))
                .collect(),
            _ => vec![(op, payload.clone())],
        };
        if let Request::Batch(reqs) = &req {
            assert_eq!(items.len(), reqs.len());
        }
        for (o, mut body) in items {
            if o != op::VERIFY {
                continue;
            }
            verifies += 1;
            // Every other body is mutated in one byte, so that refusals are compared too.
            if verifies % 2 == 0 && !body.is_empty() {
                let at = rng.next() as usize % body.len();
                body[at] ^= 1 << (rng.next() % 8);
            }
            let owned = decode_request(op::VERIFY, &body);
            let view = decode_verify_view(&body);
            match (owned, view) {
                (Ok(Request::Verify(v)), Ok(w)) => {
                    let (data, mu) = match &v.input {
                        Input::Message(m) => (m.as_slice(), false),
                        Input::Mu(mu) => (mu.as_slice(), true),
                    };
                    assert_eq!((w.data, w.mu), (data, mu));
                    assert_eq!(w.context, v.context.as_slice());
                    assert_eq!(w.signature, v.signature.as_slice());
                    match (&v.key, w.key) {
                        (KeyRef::Id(a), KeyRefView::Id(b)) => assert_eq!(a, b),
                        (
                            KeyRef::Inline {
                                algorithm,
                                public_key,
                            },
                            KeyRefView::Inline {
                                algorithm: a,
                                public_key: p,
                            },
                        ) => assert_eq!((algorithm.as_str(), public_key.as_slice()), (a, p)),
                        (a, b) => panic!("key {a:?} viewed as {b:?}"),
                    }
                }
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!("owned {a:?} but view {b:?}"),
            }
        }
    }
    assert!(verifies > 500, "only {verifies} VERIFY bodies drawn");
    // The splitter refuses what the owned decoder refuses.
    let (_, good) = encode_request_payload(&Request::Batch(vec![sign_req()])).unwrap();
    for cut in 0..good.len() {
        assert!(batch_items(&good[..cut]).is_err());
        assert!(decode_request(op::BATCH, &good[..cut]).is_err());
    }
}
