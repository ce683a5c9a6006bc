//! BATCH through `Handler::handle_batch`: `KeyMapHandler` hands the batch to the library's
//! batch engine, and every answer must equal what the single request gives; a handler
//! without a batch path of its own gets the default split, answers in order.

mod common;

use common::{key, keymap, sign, verify, TestServer, TOKEN};
use pqsig_proto::server::ServerConfig;
use pqsig_proto::{
    split_batch, ErrorCode, Handler, Input, KeyRef, Request, Response, SignRequest, VerifyRequest,
};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Compares answers item by item, naming the first difference without dumping signatures.
fn assert_same(got: &[Response], want: &[Response]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let short = |r: &Response| match r {
            Response::Signature(s) => format!("Signature({} bytes)", s.len()),
            r => format!("{r:?}"),
        };
        assert!(g == w, "item {i}: {} != {}", short(g), short(w));
    }
}

fn inline(alg: &str, pk: &[u8]) -> KeyRef {
    KeyRef::Inline {
        algorithm: alg.into(),
        public_key: pk.to_vec(),
    }
}

/// A mixed batch: ML-DSA items enough for several lockstep units (valid, tampered,
/// other message, by μ, with a context, inline keys good and bad), Falcon and SNOVA,
/// deterministic signing, and the per-item errors (unknown key, unknown algorithm,
/// context or μ where the algorithm has none, a message over the cap).
fn mixed_batch() -> Vec<Request> {
    let ml = key("ML-DSA-65");
    let vk = ml.verifying_key();
    let pk = vk.to_bytes().to_vec();
    let mut items = Vec::new();
    for i in 0..20u8 {
        let msg = vec![i; 10 + i as usize];
        let mut sig = ml.sign(&msg, b"").unwrap();
        match i % 5 {
            0 => sig[i as usize] ^= 1,
            1 => sig.truncate(100),
            _ => {}
        }
        let key = if i % 3 == 0 {
            inline("ML-DSA-65", &pk)
        } else {
            KeyRef::Id("mldsa65".into())
        };
        let other = if i == 7 { b"other".to_vec() } else { msg };
        items.push(Request::Verify(verify(key, &other, &sig)));
    }
    let sig = ml.sign(b"m", b"ctx").unwrap();
    items.push(Request::Verify(VerifyRequest {
        context: b"ctx".to_vec(),
        ..verify(KeyRef::Id("mldsa65".into()), b"m", &sig)
    }));
    let mu = vk.compute_mu(b"big", b"").unwrap();
    let sig = ml.sign(b"big", b"").unwrap();
    items.push(Request::Verify(VerifyRequest {
        input: Input::Mu(mu),
        ..verify(KeyRef::Id("mldsa65".into()), b"", &sig)
    }));
    items.push(Request::Verify(verify(
        inline("ML-DSA-65", &pk[1..]),
        b"m",
        &sig,
    )));
    items.push(Request::Verify(verify(inline("RSA-2048", &pk), b"m", &sig)));
    items.push(Request::Verify(verify(
        KeyRef::Id("nope".into()),
        b"m",
        &sig,
    )));
    let fal = key("Falcon-512");
    let fsig = fal.sign(b"f", b"").unwrap();
    items.push(Request::Verify(verify(
        KeyRef::Id("falcon512".into()),
        b"f",
        &fsig,
    )));
    items.push(Request::Verify(verify(
        inline("Falcon-512", fal.verifying_key().to_bytes()),
        b"g",
        &fsig,
    )));
    items.push(Request::Verify(VerifyRequest {
        context: b"c".to_vec(),
        ..verify(KeyRef::Id("falcon512".into()), b"f", &fsig)
    }));
    let sn = key("SNOVA_I_S");
    let ssig = sn.sign(b"s", b"").unwrap();
    items.push(Request::Verify(verify(
        KeyRef::Id("snova".into()),
        b"s",
        &ssig,
    )));
    items.push(Request::Verify(verify(
        KeyRef::Id("mldsa65".into()),
        &[0; 300],
        &sig,
    )));
    // Signing: deterministic (comparable byte for byte) and the errors.
    for (i, id) in ["mldsa65", "falcon512", "snova", "missing"]
        .iter()
        .enumerate()
    {
        items.push(Request::Sign(SignRequest {
            deterministic: true,
            context: if i == 0 { b"c".to_vec() } else { vec![] },
            ..sign(id, b"det")
        }));
    }
    items.push(Request::Sign(SignRequest {
        input: Input::Mu(mu),
        deterministic: true,
        ..sign("mldsa65", b"")
    }));
    items.push(Request::Sign(SignRequest {
        input: Input::Mu(mu),
        ..sign("falcon512", b"")
    }));
    items.push(Request::Sign(SignRequest {
        context: b"c".to_vec(),
        ..sign("snova", b"x")
    }));
    items.push(Request::Sign(sign("mldsa65", &[0; 300])));
    items
}

#[test]
fn keymap_batch_answers_equal_the_single_answers() {
    let h = keymap().with_max_message(256);
    let items = mixed_batch();
    let singles: Vec<Response> = items
        .iter()
        .map(|r| h.handle(Some(TOKEN), r.clone()))
        .collect();
    let batch = h.handle_batch(Some(TOKEN), items.clone());
    assert_same(&batch, &singles);
    // The batch exercised every kind of answer.
    for want in [
        |r: &Response| matches!(r, Response::Valid),
        |r: &Response| matches!(r, Response::Invalid),
        |r: &Response| matches!(r, Response::Signature(_)),
        |r: &Response| matches!(r, Response::Error(e) if e.code == ErrorCode::NOT_FOUND),
        |r: &Response| matches!(r, Response::Error(e) if e.code == ErrorCode::UNSUPPORTED),
        |r: &Response| matches!(r, Response::Error(e) if e.code == ErrorCode::TOO_LARGE),
    ] {
        assert!(batch.iter().any(want));
    }
    // Hedged signatures of a batch verify.
    let hedged = vec![Request::Sign(sign("mldsa65", b"h")); 3];
    let vk = key("ML-DSA-65").verifying_key();
    for r in h.handle_batch(Some(TOKEN), hedged) {
        assert!(matches!(&r, Response::Signature(s) if vk.verify(b"h", b"", s).is_ok()));
    }
    // No token, a wrong token: every item says so.
    for auth in [None, Some(&b"wrong"[..])] {
        let out = h.handle_batch(auth, items.clone());
        assert_eq!(out.len(), items.len());
        assert!(out
            .iter()
            .all(|r| matches!(r, Response::Error(e) if e.code == ErrorCode::UNAUTHORIZED)));
    }
}

#[test]
fn keymap_batch_over_the_listener_matches_singles() {
    let srv = TestServer::start(keymap().with_max_message(256), ServerConfig::default());
    let mut c = srv.client();
    let items = mixed_batch();
    let singles: Vec<Response> = items
        .iter()
        .map(|r| match r {
            Request::Sign(s) => match c.sign(s.clone()) {
                Ok(sig) => Response::Signature(sig),
                Err(pqsig_proto::ClientError::Server(e)) => Response::Error(e),
                Err(e) => panic!("{e:?}"),
            },
            Request::Verify(v) => match c.verify(v.clone()) {
                Ok(true) => Response::Valid,
                Ok(false) => Response::Invalid,
                Err(pqsig_proto::ClientError::Server(e)) => Response::Error(e),
                Err(e) => panic!("{e:?}"),
            },
            _ => unreachable!(),
        })
        .collect();
    assert_same(&c.batch(items).unwrap(), &singles);
}

/// Counts its calls and answers from the key map: no batch path of its own.
struct Plain {
    inner: pqsig_proto::KeyMapHandler,
    calls: AtomicUsize,
}

impl Handler for Plain {
    fn handle(&self, auth: Option<&[u8]>, req: Request) -> Response {
        self.calls.fetch_add(1, Ordering::Relaxed);
        if matches!(&req, Request::Sign(s) if s.key_id == "panic") {
            panic!("a handler bug");
        }
        self.inner.handle(auth, req)
    }
}

#[test]
fn the_default_splits_in_order_and_contains_panics() {
    let h = Plain {
        inner: keymap().with_max_message(256),
        calls: AtomicUsize::new(0),
    };
    let mut items = mixed_batch();
    items.insert(3, Request::Sign(sign("panic", b"x")));
    let want: Vec<Response> = items
        .iter()
        .map(|r| match r {
            Request::Sign(s) if s.key_id == "panic" => {
                Response::error(ErrorCode::INTERNAL, "the handler failed (bug)")
            }
            r => h.inner.handle(Some(TOKEN), r.clone()),
        })
        .collect();
    assert_same(&h.handle_batch(Some(TOKEN), items.clone()), &want);
    assert_eq!(h.calls.load(Ordering::Relaxed), items.len());
    assert_eq!(split_batch(&h, Some(TOKEN), vec![]), vec![]);
    // And through the listener.
    let srv = TestServer::start(h, ServerConfig::default());
    let mut c = srv.client();
    assert_same(&c.batch(items).unwrap(), &want);
}
