//! The binary socket protocol in front of the real service: keys created over HTTP sign
//! and verify over TCP and a Unix socket; tokens, scopes, unknown keys, the message cap,
//! inline public keys, external mu and batches answer with the HTTP status codes.

mod common;

use common::*;
use pqsig_proto::{
    Client, ClientError, Endpoint, ErrorCode, Input, KeyRef, Request, Response, SignRequest,
    VerifyRequest,
};

/// A server with the base config plus protocol listeners on TCP and a Unix socket.
fn start() -> (TestServer, Endpoint, Endpoint, tempfile::TempDir) {
    let sock_dir = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(
        &base_toml(),
        path_in(&dir, "keys.db").to_string_lossy().into(),
    );
    cfg.proto_listen = Some("127.0.0.1:0".parse().unwrap());
    let sock = sock_dir.path().join("pqsig.sock");
    cfg.proto_unix = Some(sock.clone());
    let mut s = TestServer::start_cfg(cfg);
    s.dir = Some(dir);
    let tcp = Endpoint::Tcp(s.server.as_ref().unwrap().proto_addr().unwrap().to_string());
    (s, tcp, Endpoint::Unix(sock), sock_dir)
}

fn connect(ep: &Endpoint, token: Option<&str>) -> Client {
    let mut c = Client::connect(ep, Some(std::time::Duration::from_secs(30))).expect("connect");
    if let Some(t) = token {
        c.hello(t.as_bytes()).expect("hello");
    }
    c
}

fn sign_req(key_id: &str, msg: &[u8]) -> SignRequest {
    SignRequest {
        key_id: key_id.into(),
        input: Input::Message(msg.to_vec()),
        context: Vec::new(),
        deterministic: false,
    }
}

fn verify_req(key_id: &str, msg: &[u8], sig: &[u8]) -> VerifyRequest {
    VerifyRequest {
        key: KeyRef::Id(key_id.into()),
        input: Input::Message(msg.to_vec()),
        context: Vec::new(),
        signature: sig.to_vec(),
    }
}

fn server_code(r: Result<impl std::fmt::Debug, ClientError>) -> u16 {
    match r {
        Err(ClientError::Server(e)) => e.code.0,
        other => panic!("expected a server ERROR, got {other:?}"),
    }
}

#[test]
fn keys_made_over_http_sign_and_verify_over_the_socket_protocol() {
    let (s, tcp, unix, _sock) = start();
    if let Endpoint::Unix(path) = &unix {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o660, "socket mode {mode:o}");
    }
    for alg in ["ML-DSA-65", "Falcon-512", "SNOVA_I_S"] {
        let key = s.create_key(alg);
        let id = key["id"].as_str().unwrap();
        let vk = library_vk(&key);
        for ep in [&tcp, &unix] {
            let mut c = connect(ep, Some(ADMIN));
            let msg = format!("over the socket with {alg}").into_bytes();
            let sig = c.sign(sign_req(id, &msg)).expect("sign");
            vk.verify(&msg, b"", &sig)
                .expect("library verifies the service's signature");
            assert!(c.verify(verify_req(id, &msg, &sig)).unwrap(), "{alg}");
            assert!(!c.verify(verify_req(id, b"other", &sig)).unwrap(), "{alg}");
            // The same key given inline (algorithm name + raw public key).
            let inline = VerifyRequest {
                key: KeyRef::Inline {
                    algorithm: alg.into(),
                    public_key: vk.to_bytes().to_vec(),
                },
                ..verify_req(id, &msg, &sig)
            };
            assert!(c.verify(inline).unwrap(), "{alg}");
        }
    }
}

#[test]
fn tokens_scopes_and_errors_keep_their_http_codes() {
    let (s, tcp, _unix, _sock) = start();
    let key = s.create_key("ML-DSA-65");
    let id = key["id"].as_str().unwrap().to_string();
    // A wrong token is refused at HELLO.
    let mut c = Client::connect(&tcp, None).unwrap();
    assert_eq!(server_code(c.hello(b"not-a-token")), 401);
    // No HELLO: anonymous, and verify is not public in the base config.
    let mut anon = connect(&tcp, None);
    assert_eq!(
        server_code(anon.verify(verify_req(&id, b"m", &[0u8; 8]))),
        401
    );
    // Sign-only and verify-only tokens; a token scoped to another key.
    let mut signer = connect(&tcp, Some(SIGNER));
    let sig = signer.sign(sign_req(&id, b"m")).unwrap();
    assert_eq!(server_code(signer.verify(verify_req(&id, b"m", &sig))), 403);
    let mut verifier = connect(&tcp, Some(VERIFIER));
    assert!(verifier.verify(verify_req(&id, b"m", &sig)).unwrap());
    assert_eq!(server_code(verifier.sign(sign_req(&id, b"m"))), 403);
    let mut scoped = connect(&tcp, Some(SCOPED));
    assert_eq!(server_code(scoped.sign(sign_req(&id, b"m"))), 403);
    // Unknown key; a message over the cap (4096 in the base config) points to mu.
    let mut admin = connect(&tcp, Some(ADMIN));
    assert_eq!(server_code(admin.sign(sign_req("0123", b"m"))), 404);
    match admin.sign(sign_req(&id, &vec![7u8; 5000])) {
        Err(ClientError::Server(e)) => {
            assert_eq!(e.code, ErrorCode::TOO_LARGE);
            assert!(e.message.contains("mu"), "{}", e.message);
        }
        other => panic!("expected 413, got {other:?}"),
    }
    // External mu: computed locally, signed by the service, verified both ways.
    let vk = library_vk(&key);
    let big = vec![9u8; 100_000];
    let mu = vk.compute_mu(&big, b"").unwrap();
    let sig = admin
        .sign(SignRequest {
            input: Input::Mu(mu),
            ..sign_req(&id, b"")
        })
        .unwrap();
    vk.verify(&big, b"", &sig)
        .expect("mu signature verifies over the message");
    assert!(admin
        .verify(VerifyRequest {
            input: Input::Mu(mu),
            ..verify_req(&id, b"", &sig)
        })
        .unwrap());
    // Context on an algorithm without one: 422 as over HTTP.
    let falcon = s.create_key("Falcon-512");
    let fid = falcon["id"].as_str().unwrap();
    let r = admin.sign(SignRequest {
        context: b"ctx".to_vec(),
        ..sign_req(fid, b"m")
    });
    let code = server_code(r);
    assert!(code == 400 || code == 422, "{code}");
}

#[test]
fn batches_run_item_by_item_with_per_item_errors() {
    let (s, tcp, _unix, _sock) = start();
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    let mut c = connect(&tcp, Some(ADMIN));
    let msgs: Vec<Vec<u8>> = (0..10).map(|i| vec![i as u8; 40]).collect();
    let signed = c
        .batch(
            msgs.iter()
                .map(|m| Request::Sign(sign_req(id, m)))
                .collect(),
        )
        .unwrap();
    let sigs: Vec<Vec<u8>> = signed
        .into_iter()
        .map(|r| match r {
            Response::Signature(s) => s,
            other => panic!("{other:?}"),
        })
        .collect();
    let mut items: Vec<Request> = msgs
        .iter()
        .zip(&sigs)
        .map(|(m, s)| Request::Verify(verify_req(id, m, s)))
        .collect();
    items.push(Request::Verify(verify_req(id, b"tampered", &sigs[0])));
    items.push(Request::Verify(verify_req("nope", b"m", &sigs[0])));
    let got = c.batch(items).unwrap();
    assert!(got[..10].iter().all(|r| *r == Response::Valid), "{got:?}");
    assert_eq!(got[10], Response::Invalid);
    assert!(
        matches!(&got[11], Response::Error(e) if e.code.0 == 404),
        "{:?}",
        got[11]
    );
}

#[test]
fn shutdown_stops_the_protocol_listeners_too() {
    let (mut s, tcp, unix, _sock) = start();
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap().to_string();
    connect(&tcp, Some(ADMIN))
        .sign(sign_req(&id, b"m"))
        .unwrap();
    s.stop();
    for ep in [&tcp, &unix] {
        let refused = Client::connect(ep, Some(std::time::Duration::from_secs(2)))
            .and_then(|mut c| c.ping(b"x"));
        assert!(refused.is_err(), "{ep:?} still answers after shutdown");
    }
}

/// A BATCH payload (no frame header), as the HTTP batch endpoints take it.
fn batch_body(items: Vec<Request>) -> Vec<u8> {
    pqsig_proto::codec::encode_request_payload(&Request::Batch(items))
        .unwrap()
        .1
}

#[test]
fn http_batch_endpoints_take_the_binary_batch_body() {
    let (s, _tcp, _unix, _sock) = start();
    let key = s.create_key("ML-DSA-65");
    let id = key["id"].as_str().unwrap();
    let vk = library_vk(&key);
    let other = s.create_key("Falcon-512");
    let pk = unb64(&other["public_key"]);

    // sign-batch: three messages, each signature checked by the library.
    let msgs: Vec<Vec<u8>> = (0..3).map(|i| format!("binary {i}").into_bytes()).collect();
    let items = msgs
        .iter()
        .map(|m| Request::Sign(sign_req(id, m)))
        .collect();
    let path = format!("/v1/keys/{id}/sign-batch");
    let (st, v) = s.call_binary(&path, Some(SIGNER), batch_body(items));
    assert_eq!(st, 200, "{v}");
    let sigs: Vec<Vec<u8>> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| unb64(&r["signature"]))
        .collect();
    assert_eq!(sigs.len(), 3);
    for (m, sig) in msgs.iter().zip(&sigs) {
        vk.verify(m, b"", sig).expect("library verifies");
    }

    // verify-batch: valid, tampered, an inline key of another algorithm, an unknown key.
    let mut bad = sigs[1].clone();
    bad[7] ^= 1;
    let falcon_msg = b"inline falcon".to_vec();
    let (st, fs) = s.call(
        "POST",
        &format!("/v1/keys/{}/sign", other["id"].as_str().unwrap()),
        Some(SIGNER),
        Some(&serde_json::json!({ "message": b64(&falcon_msg) })),
    );
    assert_eq!(st, 200);
    let items = vec![
        Request::Verify(verify_req(id, &msgs[0], &sigs[0])),
        Request::Verify(verify_req(id, &msgs[1], &bad)),
        Request::Verify(VerifyRequest {
            key: KeyRef::Inline {
                algorithm: "Falcon-512".into(),
                public_key: pk,
            },
            input: Input::Message(falcon_msg),
            context: Vec::new(),
            signature: unb64(&fs["signature"]),
        }),
        Request::Verify(verify_req("no-such-key", &msgs[2], &sigs[2])),
        // External mu (a slice of the body as well).
        Request::Verify(VerifyRequest {
            key: KeyRef::Id(id.into()),
            input: Input::Mu(vk.compute_mu(&msgs[2], b"").unwrap()),
            context: Vec::new(),
            signature: sigs[2].clone(),
        }),
        Request::Verify(VerifyRequest {
            key: KeyRef::Id(id.into()),
            input: Input::Mu(vk.compute_mu(&msgs[1], b"").unwrap()),
            context: Vec::new(),
            signature: sigs[2].clone(),
        }),
    ];
    let (st, v) = s.call_binary("/v1/verify-batch", Some(VERIFIER), batch_body(items));
    assert_eq!(st, 200, "{v}");
    let r = v["results"].as_array().unwrap();
    assert_eq!(r[0]["valid"], true);
    assert_eq!(r[1]["valid"], false);
    assert_eq!(r[2]["valid"], true);
    assert_eq!(r[3]["error"]["code"], "key_not_found", "{}", r[3]);
    assert_eq!(r[4]["valid"], true);
    assert_eq!(r[5]["valid"], false);

    // Errors: wrong item kind, a key id other than the path's, a truncated body, garbage,
    // too many items, no token.
    let verify_item = || Request::Verify(verify_req(id, &msgs[0], &sigs[0]));
    let sign_item = |k: &str| Request::Sign(sign_req(k, b"m"));
    assert_error(
        s.call_binary(
            "/v1/verify-batch",
            Some(ADMIN),
            batch_body(vec![sign_item(id)]),
        ),
        400,
        "invalid_batch",
    );
    assert_error(
        s.call_binary(&path, Some(ADMIN), batch_body(vec![verify_item()])),
        400,
        "invalid_batch",
    );
    assert_error(
        s.call_binary(
            &path,
            Some(ADMIN),
            batch_body(vec![sign_item("another-key")]),
        ),
        400,
        "invalid_batch",
    );
    let mut cut = batch_body(vec![verify_item()]);
    cut.truncate(cut.len() - 5);
    assert_error(
        s.call_binary("/v1/verify-batch", Some(ADMIN), cut),
        400,
        "invalid_batch",
    );
    assert_error(
        s.call_binary("/v1/verify-batch", Some(ADMIN), b"{\"items\":[]}".to_vec()),
        400,
        "invalid_batch",
    );
    let many = (0..65).map(|_| verify_item()).collect();
    assert_error(
        s.call_binary("/v1/verify-batch", Some(ADMIN), batch_body(many)),
        413,
        "batch_too_large",
    );
    let (st, _) = s.call_binary(&path, None, batch_body(vec![sign_item(id)]));
    assert_eq!(st, 401);
}

/// An answer with an ERROR's message dropped (codes compare; wording may differ between
/// a batch-wide refusal and the single request's).
fn shape(r: &Response) -> String {
    match r {
        Response::Error(e) => format!("Error({})", e.code.0),
        Response::Signature(s) => format!("Signature({})", hex_head(s)),
        r => format!("{r:?}"),
    }
}

fn hex_head(s: &[u8]) -> String {
    s.iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        + &format!("..{}", s.len())
}

/// One request answered alone, as BATCH would carry its answer.
fn single(c: &mut Client, r: &Request) -> Response {
    let err = |e: ClientError| match e {
        ClientError::Server(e) => Response::Error(e),
        e => panic!("{e:?}"),
    };
    match r {
        Request::Sign(s) => c.sign(s.clone()).map_or_else(err, Response::Signature),
        Request::Verify(v) => c.verify(v.clone()).map_or_else(err, |ok| {
            if ok {
                Response::Valid
            } else {
                Response::Invalid
            }
        }),
        _ => unreachable!(),
    }
}

#[test]
fn batches_through_the_engine_answer_as_the_single_requests() {
    let (s, tcp, _unix, _sock) = start();
    let ml_key = s.create_key("ML-DSA-65");
    let ml = ml_key["id"].as_str().unwrap().to_string();
    let ml44 = s.create_key("ML-DSA-44")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let fal = s.create_key("Falcon-512")["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut c = connect(&tcp, Some(ADMIN));
    // Signatures to verify: several keys, enough ML-DSA items for more than one lockstep
    // unit, valid and spoiled.
    let mut items = Vec::new();
    for i in 0..20u8 {
        let id = [&ml, &ml44, &fal][i as usize % 3];
        let msg = vec![i; 33];
        let Response::Signature(mut sig) = single(&mut c, &Request::Sign(sign_req(id, &msg)))
        else {
            panic!("sign")
        };
        if i % 4 == 1 {
            sig[7] ^= 1;
        }
        let msg = if i % 5 == 2 { b"other".to_vec() } else { msg };
        items.push(Request::Verify(verify_req(id, &msg, &sig)));
    }
    let mu_sig = match single(&mut c, &Request::Sign(sign_req(&ml, b"big"))) {
        Response::Signature(s) => s,
        r => panic!("{r:?}"),
    };
    let vk = library_vk(&ml_key);
    let pk = vk.to_bytes().to_vec();
    let mu = vk.compute_mu(b"big", b"").unwrap();
    items.push(Request::Verify(VerifyRequest {
        input: Input::Mu(mu),
        ..verify_req(&ml, b"", &mu_sig)
    }));
    items.push(Request::Verify(VerifyRequest {
        key: KeyRef::Inline {
            algorithm: "ML-DSA-65".into(),
            public_key: pk.clone(),
        },
        ..verify_req(&ml, b"big", &mu_sig)
    }));
    items.push(Request::Verify(verify_req("nope", b"m", &mu_sig)));
    items.push(Request::Verify(VerifyRequest {
        context: b"c".to_vec(),
        ..verify_req(&fal, b"m", &mu_sig)
    }));
    // Signing: deterministic (byte-comparable) with several keys, and refusals.
    for id in [&ml, &ml44] {
        items.push(Request::Sign(SignRequest {
            deterministic: true,
            context: b"ctx".to_vec(),
            ..sign_req(id, b"det")
        }));
    }
    items.push(Request::Sign(SignRequest {
        deterministic: true,
        input: Input::Mu(mu),
        ..sign_req(&ml, b"")
    }));
    items.push(Request::Sign(SignRequest {
        deterministic: true,
        ..sign_req(&fal, b"det")
    }));
    items.push(Request::Sign(sign_req("missing", b"x")));
    items.push(Request::Sign(sign_req(&ml, &[0; 5000])));
    for token in [Some(ADMIN), Some(SIGNER), Some(VERIFIER), Some(SCOPED)] {
        let mut c = connect(&tcp, token);
        let want: Vec<String> = items.iter().map(|r| shape(&single(&mut c, r))).collect();
        let got: Vec<String> = c.batch(items.clone()).unwrap().iter().map(shape).collect();
        assert_eq!(got, want, "token {token:?}");
    }
    // Without HELLO (verify not public) frames are capped at
    // max_unauthenticated_frame_bytes: the batch is refused unread (issue 20).
    let mut c = connect(&tcp, None);
    assert_eq!(server_code(c.batch(items.clone())), 413);
}
