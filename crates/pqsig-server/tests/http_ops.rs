//! Operations: restart persistence, key-encryption key handling, concurrent clients,
//! per-token concurrency limit, TLS, graceful shutdown draining in-flight requests.

mod common;

use common::*;
use pqsig_server::{KekSource, Service};
use serde_json::{json, Value};

#[test]
fn keys_survive_restart_and_still_sign() {
    let mut s = TestServer::start();
    let keys: Vec<Value> = ["ML-DSA-65", "Falcon-512", "SNOVA_I_S"]
        .iter()
        .map(|a| s.create_key(a))
        .collect();
    let deleted = s.create_key("ML-DSA-44");
    let did = deleted["id"].as_str().unwrap();
    assert_eq!(
        s.call("DELETE", &format!("/v1/keys/{did}"), Some(ADMIN), None)
            .0,
        200
    );
    s.restart();
    let (_, list) = s.call("GET", "/v1/keys", Some(ADMIN), None);
    assert_eq!(list["keys"].as_array().unwrap().len(), 3, "{list}");
    for key in &keys {
        let id = key["id"].as_str().unwrap();
        let (st, got) = s.call("GET", &format!("/v1/keys/{id}"), Some(ADMIN), None);
        assert_eq!(st, 200);
        assert_eq!(
            got["public_key"], key["public_key"],
            "public key unchanged after restart"
        );
        s.sign_checked(key, SIGNER, b"after restart");
    }
    assert_error(
        s.call("GET", &format!("/v1/keys/{did}"), Some(ADMIN), None),
        410,
        "key_deleted",
    );
    let (_, audit) = s.call("GET", &format!("/v1/keys/{did}/audit"), Some(ADMIN), None);
    assert_eq!(audit["events"].as_array().unwrap().len(), 2);
}

#[test]
fn key_encryption_key_is_required_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let db = path_in(&dir, "k.db").to_string_lossy().into_owned();
    let mut cfg = config(&base_toml(), db.clone());
    // No KEK: refused.
    cfg.kek = None;
    let err = Service::open(&cfg).err().expect("refuses without a KEK");
    assert!(err.contains("key-encryption key"), "{err}");
    // First start with KEK A; the seed is not stored in the clear.
    cfg.kek = Some(KekSource::Value(zeroize::Zeroizing::new(KEK_HEX.into())));
    let svc = Service::open(&cfg).unwrap();
    let admin = svc.authenticate(Some(ADMIN)).unwrap();
    let info = svc.create_key(&admin, "ML-DSA-44").unwrap();
    drop(svc);
    let raw = std::fs::read(&db).unwrap();
    assert!(
        raw.windows(info.public_key.len())
            .any(|w| w == info.public_key),
        "public key stored"
    );
    // Another KEK (from a file, as base64): refused at start.
    let kek_file = path_in(&dir, "kek");
    std::fs::write(&kek_file, b64(&[9u8; 32])).unwrap();
    cfg.kek = Some(KekSource::File(kek_file.clone()));
    // World-readable: refused unless overridden (then it gets as far as the KEK check).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&kek_file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = Service::open(&cfg)
        .err()
        .expect("refuses a world-readable KEK file");
    assert!(err.contains("world-readable"), "{err}");
    cfg.allow_world_readable_kek = true;
    let err = Service::open(&cfg).err().expect("still another KEK");
    assert!(err.contains("does not match"), "{err}");
    cfg.allow_world_readable_kek = false;
    std::fs::set_permissions(&kek_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let err = Service::open(&cfg).err().expect("refuses another KEK");
    assert!(err.contains("does not match"), "{err}");
    // A malformed KEK file: refused with a clear message.
    std::fs::write(&kek_file, b"short").unwrap();
    let err = Service::open(&cfg).err().unwrap();
    assert!(err.contains("32 bytes"), "{err}");
    // The same KEK as a raw 32-byte file works.
    std::fs::write(&kek_file, hex::decode(KEK_HEX).unwrap()).unwrap();
    let svc = Service::open(&cfg).unwrap();
    assert!(!svc.insecure_kek());
    let signer = svc.authenticate(Some(SIGNER)).unwrap();
    let sig = svc
        .sign(
            &signer,
            &info.id,
            pqsig_server::service::SignInput {
                payload: pqsig_server::service::Payload::Message(bytes::Bytes::from_static(b"m")),
                context: bytes::Bytes::new(),
                deterministic: false,
            },
        )
        .unwrap();
    pqsig::any::VerifyingKey::from_bytes(info.alg, &info.public_key)
        .unwrap()
        .verify(b"m", b"", &sig)
        .unwrap();
    // The insecure development key is flagged.
    let db2 = path_in(&dir, "dev.db").to_string_lossy().into_owned();
    let mut dev = config(&base_toml(), db2);
    dev.kek = Some(KekSource::InsecureDev);
    assert!(Service::open(&dev).unwrap().insecure_kek());
}

#[test]
fn per_token_concurrency_limit() {
    let toml = base_toml().replace("name = \"signer\"", "name = \"signer\"\nmax_concurrent = 2");
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(&toml, path_in(&dir, "c.db").to_string_lossy().into_owned());
    let svc = Service::open(&cfg).unwrap();
    let (_p1, g1) = svc.admit(Some(SIGNER)).unwrap();
    let (_p2, _g2) = svc.admit(Some(SIGNER)).unwrap();
    let e = svc
        .admit(Some(SIGNER))
        .expect_err("third in-flight request refused");
    assert_eq!((e.status, e.code), (429, "too_many_requests"));
    // Other tokens are unaffected; releasing a slot admits again.
    assert!(svc.admit(Some(ADMIN)).is_ok());
    drop(g1);
    assert!(svc.admit(Some(SIGNER)).is_ok());
}

#[test]
fn concurrent_clients() {
    let s = TestServer::start();
    let key = s.create_key("ML-DSA-65");
    let id = key["id"].as_str().unwrap().to_string();
    let base = s.base.clone();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let (base, id) = (base.clone(), id.clone());
            std::thread::spawn(move || {
                let c = reqwest::blocking::Client::new();
                let mut out = Vec::new();
                for i in 0..10 {
                    let msg = format!("client {t} message {i}");
                    let r: Value = c
                        .post(format!("{base}/v1/keys/{id}/sign"))
                        .bearer_auth(ADMIN)
                        .json(&json!({ "message": b64(msg.as_bytes()) }))
                        .send()
                        .unwrap()
                        .json()
                        .unwrap();
                    let v: Value = c
                        .post(format!("{base}/v1/verify"))
                        .bearer_auth(VERIFIER)
                        .json(&json!({ "key_id": id, "message": b64(msg.as_bytes()), "signature": r["signature"] }))
                        .send()
                        .unwrap()
                        .json()
                        .unwrap();
                    assert_eq!(v, json!({ "valid": true }));
                    out.push((msg, unb64(&r["signature"])));
                }
                out
            })
        })
        .collect();
    let vk = library_vk(&key);
    let mut n = 0;
    for t in threads {
        for (msg, sig) in t.join().expect("client thread") {
            vk.verify(msg.as_bytes(), b"", &sig).unwrap();
            n += 1;
        }
    }
    assert_eq!(n, 80);
    // Concurrent key creation too.
    let creators: Vec<_> = (0..4)
        .map(|_| {
            let base = base.clone();
            std::thread::spawn(move || {
                reqwest::blocking::Client::new()
                    .post(format!("{base}/v1/keys"))
                    .bearer_auth(ADMIN)
                    .json(&json!({ "alg": "Falcon-512" }))
                    .send()
                    .unwrap()
                    .status()
                    .as_u16()
            })
        })
        .collect();
    assert!(creators.into_iter().all(|c| c.join().unwrap() == 201));
    let (_, list) = s.call("GET", "/v1/keys", Some(ADMIN), None);
    assert_eq!(list["keys"].as_array().unwrap().len(), 5);
}

#[test]
fn tls_with_self_signed_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let cert = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let (cert_path, key_path) = (path_in(&dir, "cert.pem"), path_in(&dir, "key.pem"));
    std::fs::write(&cert_path, cert.cert.pem()).unwrap();
    std::fs::write(&key_path, cert.key_pair.serialize_pem()).unwrap();
    let mut cfg = config(
        &base_toml(),
        path_in(&dir, "t.db").to_string_lossy().into_owned(),
    );
    cfg.tls = Some((cert_path, key_path));
    let mut s = TestServer::start_cfg(cfg);
    let port = s.server.as_ref().unwrap().local_addr().port();
    s.base = format!("https://localhost:{port}");
    s.client = reqwest::blocking::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(cert.cert.pem().as_bytes()).unwrap())
        .resolve("localhost", ([127, 0, 0, 1], port).into())
        .build()
        .unwrap();
    assert_eq!(s.call("GET", "/healthz", None, None).0, 200);
    let key = s.create_key("ML-DSA-44");
    s.sign_checked(&key, ADMIN, b"tls");
    // Plain HTTP to the TLS port gets no HTTP answer; an untrusting client fails.
    let plain = reqwest::blocking::Client::new()
        .get(format!("http://127.0.0.1:{port}/healthz"))
        .send();
    assert!(plain.map(|r| !r.status().is_success()).unwrap_or(true));
    assert!(reqwest::blocking::Client::new()
        .get(format!("https://127.0.0.1:{port}/healthz"))
        .send()
        .is_err());
    // A missing certificate file is a clear start-up error.
    let mut bad = s.cfg.clone();
    bad.tls = Some((path_in(&dir, "missing.pem"), path_in(&dir, "key.pem")));
    let err =
        s.rt.block_on(pqsig_server::start(bad))
            .err()
            .expect("refuses missing certificate");
    assert!(err.contains("TLS"), "{err}");
}

/// Shutdown waits for a request already being processed: a large sign batch sent just
/// before shutdown still gets its 200 and every signature.
#[test]
fn graceful_shutdown_drains_in_flight_requests() {
    let toml = base_toml()
        .replace("max_batch = 64", "max_batch = 8000")
        .replace("max_body_bytes = 1048576", "max_body_bytes = 8388608");
    let mut s = TestServer::start_with(&toml);
    let key = s.create_key("ML-DSA-87");
    let id = key["id"].as_str().unwrap().to_string();
    let items: Vec<Value> = (0..8000u32)
        .map(|i| json!({ "message": b64(&i.to_le_bytes()) }))
        .collect();
    let url = format!("{}/v1/keys/{id}/sign-batch", s.base);
    let (tx, rx) = std::sync::mpsc::channel();
    let client = std::thread::spawn(move || {
        let c = reqwest::blocking::Client::new();
        tx.send(()).unwrap();
        let r = c
            .post(url)
            .bearer_auth(ADMIN)
            .json(&json!({ "items": items }))
            .send()
            .expect("answered");
        (r.status().as_u16(), r.json::<Value>().unwrap())
    });
    rx.recv().unwrap();
    // Wait until the server is processing it: the in-flight gauge counts the batch and
    // the scrape itself.
    let scrape = format!("{}/metrics", s.base);
    let mut seen = false;
    for _ in 0..2000 {
        let text = s.client.get(&scrape).send().unwrap().text().unwrap();
        if text.contains("pqsig_http_requests_in_flight 2") {
            seen = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(seen, "the batch request never showed as in flight");
    s.stop();
    let (st, body) = client.join().unwrap();
    assert_eq!(st, 200, "{body}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 8000);
    let vk = library_vk(&key);
    vk.verify(
        &7999u32.to_le_bytes(),
        b"",
        &unb64(&results[7999]["signature"]),
    )
    .unwrap();
    // After shutdown, new connections are refused.
    assert!(reqwest::blocking::Client::new()
        .get(format!("{}/healthz", s.base))
        .send()
        .is_err());
}

/// A request running past `request_timeout_ms` gets a JSON 503 `timeout` (1024 ML-DSA-87
/// signatures cannot finish in 1 ms on any machine this runs on).
#[test]
fn slow_requests_time_out_with_503() {
    let mut s = TestServer::start_with(&base_toml().replace("max_batch = 64", "max_batch = 1024"));
    let key = s.create_key("ML-DSA-87");
    let id = key["id"].as_str().unwrap().to_string();
    s.cfg.limits.request_timeout_ms = 1;
    s.restart();
    let items: Vec<Value> = (0..1024u32)
        .map(|i| json!({ "message": b64(&i.to_le_bytes()) }))
        .collect();
    assert_error(
        s.call(
            "POST",
            &format!("/v1/keys/{id}/sign-batch"),
            Some(ADMIN),
            Some(&json!({ "items": items })),
        ),
        503,
        "timeout",
    );
}
