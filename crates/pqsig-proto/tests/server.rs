//! The listener and the blocking client against `KeyMapHandler` on loopback: round trips
//! for three families, verdicts, every error path, malformed frames on a raw socket,
//! pipelining, batches, concurrent clients, the Unix socket and graceful shutdown.

mod common;

use common::{key, keymap, sign, verify, TestServer, KEYS, TOKEN};
use pqsig_proto::codec::{self, encode_request, op, Header, HEADER_LEN, MAX_PAYLOAD};
use pqsig_proto::server::ServerConfig;
use pqsig_proto::{
    Client, ClientError, ErrorCode, Handler, Input, KeyMapHandler, KeyRef, Request, Response,
    SignRequest, VerifyRequest,
};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{mpsc, Mutex};
use std::time::Duration;

fn server_code(r: Result<impl std::fmt::Debug, ClientError>) -> ErrorCode {
    match r {
        Err(ClientError::Server(e)) => e.code,
        other => panic!("expected a server error, got {other:?}"),
    }
}

#[test]
fn sign_and_verify_round_trip_for_three_families() {
    let srv = TestServer::start(keymap(), ServerConfig::default());
    let mut c = srv.client();
    c.ping(b"are you there").unwrap();
    for (id, alg) in KEYS {
        let msg = format!("message for {alg}").into_bytes();
        let sig = c.sign(sign(id, &msg)).unwrap();
        // Locally, with the same key's public half.
        let vk = key(alg).verifying_key();
        assert_eq!(vk.verify(&msg, b"", &sig), Ok(()), "{alg}");
        // By id and with the public key inline.
        assert!(
            c.verify(verify(KeyRef::Id(id.into()), &msg, &sig)).unwrap(),
            "{alg}"
        );
        let inline = KeyRef::Inline {
            algorithm: alg.into(),
            public_key: vk.to_bytes().to_vec(),
        };
        assert!(
            c.verify(verify(inline.clone(), &msg, &sig)).unwrap(),
            "{alg}"
        );
        // Invalid: another message, a flipped bit, a truncated signature.
        assert!(
            !c.verify(verify(KeyRef::Id(id.into()), b"other", &sig))
                .unwrap(),
            "{alg}"
        );
        let mut flipped = sig.clone();
        flipped[sig.len() / 2] ^= 1;
        assert!(
            !c.verify(verify(inline.clone(), &msg, &flipped)).unwrap(),
            "{alg}"
        );
        assert!(
            !c.verify(verify(inline, &msg, &sig[..10])).unwrap(),
            "{alg}"
        );
    }
}

#[test]
fn context_deterministic_and_external_mu() {
    let srv = TestServer::start(keymap(), ServerConfig::default());
    let mut c = srv.client();
    let vk = key("ML-DSA-65").verifying_key();
    // Deterministic ML-DSA: the same signature twice.
    let req = SignRequest {
        context: b"ctx".to_vec(),
        deterministic: true,
        ..sign("mldsa65", b"m")
    };
    let s1 = c.sign(req.clone()).unwrap();
    assert_eq!(s1, c.sign(req).unwrap());
    assert_eq!(vk.verify(b"m", b"ctx", &s1), Ok(()));
    // μ computed by the client: signed and verified without the message.
    let mu = vk.compute_mu(b"a large message", b"").unwrap();
    let s = c
        .sign(SignRequest {
            input: Input::Mu(mu),
            ..sign("mldsa65", b"")
        })
        .unwrap();
    assert_eq!(vk.verify(b"a large message", b"", &s), Ok(()));
    let by_mu = VerifyRequest {
        input: Input::Mu(mu),
        ..verify(KeyRef::Id("mldsa65".into()), b"", &s)
    };
    assert!(c.verify(by_mu).unwrap());
    // What Falcon and SNOVA do not offer: 422.
    for id in ["falcon512", "snova"] {
        let ctx = SignRequest {
            context: b"c".to_vec(),
            ..sign(id, b"m")
        };
        assert_eq!(server_code(c.sign(ctx)), ErrorCode::UNSUPPORTED, "{id}");
        let mu = SignRequest {
            input: Input::Mu([0; 64]),
            ..sign(id, b"")
        };
        assert_eq!(server_code(c.sign(mu)), ErrorCode::UNSUPPORTED, "{id}");
    }
    let det = SignRequest {
        deterministic: true,
        ..sign("falcon512", b"m")
    };
    assert_eq!(server_code(c.sign(det)), ErrorCode::UNSUPPORTED);
}

#[test]
fn authentication_and_lookup_errors() {
    let srv = TestServer::start(keymap(), ServerConfig::default());
    // No HELLO: every request is 401, the connection stays usable.
    let mut anon = Client::connect(&srv.tcp, Some(Duration::from_secs(10))).unwrap();
    assert_eq!(
        server_code(anon.sign(sign("mldsa65", b"m"))),
        ErrorCode::UNAUTHORIZED
    );
    anon.ping(b"still open").unwrap();
    // A wrong token: 401, then the server closes the connection.
    let mut bad = Client::connect(&srv.tcp, Some(Duration::from_secs(10))).unwrap();
    assert_eq!(server_code(bad.hello(b"wrong")), ErrorCode::UNAUTHORIZED);
    assert!(bad.ping(b"x").is_err());
    // HELLO twice: 400 and closed.
    let mut twice = srv.client();
    assert_eq!(server_code(twice.hello(TOKEN)), ErrorCode::BAD_REQUEST);
    assert!(twice.ping(b"x").is_err());
    // Unknown key; unknown algorithm or a malformed inline key.
    let mut c = srv.client();
    assert_eq!(
        server_code(c.sign(sign("nope", b"m"))),
        ErrorCode::NOT_FOUND
    );
    let v = verify(KeyRef::Id("nope".into()), b"m", b"s");
    assert_eq!(server_code(c.verify(v)), ErrorCode::NOT_FOUND);
    for (alg, pk) in [("RSA-2048", vec![1; 10]), ("ML-DSA-65", vec![1; 10])] {
        let k = KeyRef::Inline {
            algorithm: alg.into(),
            public_key: pk,
        };
        assert_eq!(
            server_code(c.verify(verify(k, b"m", b"s"))),
            ErrorCode::UNSUPPORTED
        );
    }
    // The limits came with HELLO_OK.
    assert_eq!(
        c.limits().unwrap().max_batch,
        ServerConfig::default().max_batch
    );
}

#[test]
fn messages_over_the_cap_are_refused_with_a_pointer_to_mu() {
    let srv = TestServer::start(keymap().with_max_message(1000), ServerConfig::default());
    let mut c = srv.client();
    match c.sign(sign("mldsa65", &[7; 1001])) {
        Err(ClientError::Server(e)) => {
            assert_eq!(e.code, ErrorCode::TOO_LARGE);
            assert!(e.message.contains("mu"), "{}", e.message);
        }
        other => panic!("{other:?}"),
    }
    assert!(c.sign(sign("mldsa65", &[7; 1000])).is_ok());
}

/// Writes raw bytes and reads every answer until the server closes.
fn raw_exchange(srv: &TestServer, frames: &[u8]) -> Vec<(u32, Response)> {
    let Endpoint::Tcp(addr) = &srv.tcp else {
        unreachable!()
    };
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(frames).unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let mut out = Vec::new();
    let mut rest = &all[..];
    while !rest.is_empty() {
        let (id, r, used) = codec::decode_response_frame(rest, MAX_PAYLOAD).unwrap();
        out.push((id, r));
        rest = &rest[used..];
    }
    out
}
use pqsig_proto::Endpoint;

fn codes(answers: &[(u32, Response)]) -> Vec<(u32, u16)> {
    answers
        .iter()
        .map(|(id, r)| match r {
            Response::Error(e) => (*id, e.code.0),
            Response::Pong(_) => (*id, 0),
            other => panic!("{other:?}"),
        })
        .collect()
}

#[test]
fn malformed_frames_get_errors_and_fatal_ones_close() {
    let srv = TestServer::start(KeyMapHandler::new(), ServerConfig::default());
    let ping = |id| encode_request(id, &Request::Ping(vec![id as u8])).unwrap();
    let with = |mut f: Vec<u8>, at: usize, b: u8| {
        f[at] = b;
        f
    };
    let raw = |opcode: u8, id: u32, payload: &[u8]| {
        let h = Header {
            opcode,
            request_id: id,
            length: payload.len() as u32,
        };
        [&h.encode()[..], payload].concat()
    };
    // Skippable: unknown opcode (501), reserved bits (400), bad payload (400); the ping
    // after each is still answered.
    let frames = [
        raw(0x33, 1, b"xyz"),
        ping(2),
        with(ping(3), 6, 1),
        raw(op::SIGN, 4, &[0, 0, 0]),
        ping(5),
    ]
    .concat();
    assert_eq!(
        codes(&raw_exchange(&srv, &frames)),
        [(1, 501), (2, 0), (3, 400), (4, 400), (5, 0)]
    );
    // Fatal: bad magic (505, id 0), another version (505), oversize (413 with its id),
    // truncated header or payload (400); nothing after them is read.
    let oversize = {
        let mut f = ping(9);
        f[12..16].copy_from_slice(&(ServerConfig::default().max_payload + 1).to_be_bytes());
        f
    };
    for (frames, expected) in [
        ([with(ping(1), 0, b'X'), ping(2)].concat(), vec![(0, 505)]),
        ([with(ping(1), 4, 9), ping(2)].concat(), vec![(0, 505)]),
        (
            [ping(1), oversize, ping(2)].concat(),
            vec![(1, 0), (9, 413)],
        ),
        (ping(1)[..10].to_vec(), vec![(0, 400)]),
        (ping(7)[..HEADER_LEN].to_vec(), vec![(7, 400)]),
    ] {
        assert_eq!(codes(&raw_exchange(&srv, &frames)), expected);
    }
    // Random garbage never brings the server down.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..50 {
        let junk: Vec<u8> = (0..64)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let _ = raw_exchange(&srv, &[&b"PQSG\x01"[..], &junk].concat());
    }
    let mut c = Client::connect(&srv.tcp, None).unwrap();
    c.ping(b"alive").unwrap();
}

#[test]
fn pipelined_requests_are_all_answered_by_id() {
    let srv = TestServer::start(
        keymap(),
        ServerConfig {
            max_in_flight: 4,
            ..Default::default()
        },
    );
    let mut c = srv.client();
    let mut sent = std::collections::HashMap::new();
    for i in 0..40u32 {
        let msg = i.to_be_bytes().to_vec();
        let id = c
            .send(&Request::Sign(sign(KEYS[i as usize % 3].0, &msg)))
            .unwrap();
        sent.insert(id, (i as usize % 3, msg));
    }
    for _ in 0..40 {
        let (id, resp) = c.recv().unwrap();
        let (k, msg) = sent.remove(&id).expect("an answer to a request sent once");
        let Response::Signature(sig) = resp else {
            panic!("{resp:?}")
        };
        assert_eq!(
            key(KEYS[k].1).verifying_key().verify(&msg, b"", &sig),
            Ok(())
        );
    }
    assert!(sent.is_empty());
}

#[test]
fn batches_answer_each_item_in_order() {
    let srv = TestServer::start(
        keymap(),
        ServerConfig {
            max_batch: 5,
            ..Default::default()
        },
    );
    let mut c = srv.client();
    let sig = c.sign(sign("falcon512", b"b")).unwrap();
    let items = vec![
        Request::Sign(sign("mldsa65", b"a")),
        Request::Verify(verify(KeyRef::Id("falcon512".into()), b"b", &sig)),
        Request::Verify(verify(KeyRef::Id("falcon512".into()), b"c", &sig)),
        Request::Sign(sign("missing", b"d")),
        Request::Sign(sign("snova", b"e")),
    ];
    let out = c.batch(items).unwrap();
    let vk = key("ML-DSA-65").verifying_key();
    assert!(matches!(&out[0], Response::Signature(s) if vk.verify(b"a", b"", s).is_ok()));
    assert_eq!(out[1], Response::Valid);
    assert_eq!(out[2], Response::Invalid);
    assert!(matches!(&out[3], Response::Error(e) if e.code == ErrorCode::NOT_FOUND));
    assert!(matches!(&out[4], Response::Signature(_)));
    let six = vec![Request::Sign(sign("mldsa65", b"a")); 6];
    assert_eq!(server_code(c.batch(six)), ErrorCode::TOO_LARGE);
    assert_eq!(c.batch(vec![]).unwrap(), vec![]);
}

#[test]
fn concurrent_clients_over_tcp_and_unix() {
    let srv = TestServer::start(keymap(), ServerConfig::default());
    std::thread::scope(|s| {
        for t in 0..8 {
            let srv = &srv;
            s.spawn(move || {
                let ep = if t % 2 == 0 { &srv.tcp } else { &srv.unix };
                let mut c = Client::connect(ep, Some(Duration::from_secs(60))).unwrap();
                c.hello(TOKEN).unwrap();
                for i in 0..6 {
                    let (id, _) = KEYS[(t + i) % 3];
                    let msg = format!("client {t} message {i}").into_bytes();
                    let sig = c.sign(sign(id, &msg)).unwrap();
                    assert!(c.verify(verify(KeyRef::Id(id.into()), &msg, &sig)).unwrap());
                    assert!(!c.verify(verify(KeyRef::Id(id.into()), b"x", &sig)).unwrap());
                }
            });
        }
    });
}

#[test]
fn unix_socket_round_trip() {
    let srv = TestServer::start(keymap(), ServerConfig::default());
    let mut c = Client::connect(&srv.unix, None).unwrap();
    c.hello(TOKEN).unwrap();
    let sig = c.sign(sign("snova", b"over unix")).unwrap();
    assert!(c
        .verify(verify(KeyRef::Id("snova".into()), b"over unix", &sig))
        .unwrap());
}

/// Holds every request until released, to observe shutdown with work in flight.
struct Gate {
    inner: KeyMapHandler,
    started: Mutex<mpsc::Sender<()>>,
    release: Mutex<mpsc::Receiver<()>>,
}

impl Handler for Gate {
    fn authenticate(&self, token: &[u8]) -> Result<(), pqsig_proto::ErrorResponse> {
        self.inner.authenticate(token)
    }
    fn handle(&self, auth: Option<&[u8]>, req: Request) -> Response {
        let _ = self.started.lock().unwrap().send(());
        let _ = self.release.lock().unwrap().recv();
        self.inner.handle(auth, req)
    }
}

#[test]
fn shutdown_finishes_requests_in_flight() {
    let (started_tx, started_rx) = mpsc::channel();
    let (release_tx, release_rx) = mpsc::channel();
    let gate = Gate {
        inner: keymap(),
        started: Mutex::new(started_tx),
        release: Mutex::new(release_rx),
    };
    let mut srv = TestServer::start(gate, ServerConfig::default());
    let mut c = srv.client();
    let id = c
        .send(&Request::Sign(sign("mldsa65", b"in flight")))
        .unwrap();
    started_rx.recv_timeout(Duration::from_secs(30)).unwrap();
    srv.server.begin_stop();
    release_tx.send(()).unwrap();
    // The answer arrives; so may a 503 notice (id 0) for the unread rest, in either
    // order; then the connection ends.
    let mut signature = None;
    loop {
        match c.recv() {
            Ok((got, Response::Signature(sig))) if got == id => signature = Some(sig),
            Ok((0, Response::Error(e))) => assert_eq!(e.code, ErrorCode::SHUTTING_DOWN),
            Err(ClientError::Protocol(m)) if m.contains("closed") => break,
            other => panic!("{other:?}"),
        }
    }
    let sig = signature.expect("the request in flight was answered");
    assert_eq!(
        key("ML-DSA-65")
            .verifying_key()
            .verify(b"in flight", b"", &sig),
        Ok(())
    );
    srv.server.stop().unwrap();
    assert!(Client::connect(&srv.tcp, Some(Duration::from_secs(5)))
        .and_then(|mut c| c.ping(b""))
        .is_err());
}

#[test]
fn idle_and_stalled_connections_are_closed() {
    let config = ServerConfig {
        idle_timeout: Duration::from_secs(1),
        ..Default::default()
    };
    let srv = TestServer::start(keymap(), config);
    let Endpoint::Tcp(addr) = &srv.tcp else {
        unreachable!()
    };
    // Silent, and stalled in the middle of a header: both end with end of stream.
    for opening in [&b""[..], &b"PQSG\x01"[..]] {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        s.write_all(opening).unwrap();
        let mut rest = Vec::new();
        s.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty(), "{rest:?}");
    }
    // A client that keeps talking is not cut off by the timeout.
    let mut c = srv.client();
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(20));
        c.ping(b"still here").unwrap();
    }
}
