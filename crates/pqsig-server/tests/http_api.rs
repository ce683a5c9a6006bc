//! Every endpoint's success path over real HTTP: key lifecycle, sign/verify for the three
//! families (checked by the library), external mu, batches, metrics, health, OpenAPI.

mod common;

use common::*;
use serde_json::{json, Value};

#[test]
fn key_lifecycle_sign_verify_delete_audit() {
    let s = TestServer::start();
    let key = s.create_key("ML-DSA-65");
    let id = key["id"].as_str().unwrap().to_string();
    assert_eq!(key["alg"], "ML-DSA-65");
    assert_eq!(
        unb64(&key["public_key"]).len(),
        pqsig::Algorithm::from_name("ML-DSA-65")
            .unwrap()
            .public_key_len()
    );
    assert_eq!(key["created_by"], "admin");

    // GET: PEM and base64 of the same key.
    let (st, got) = s.call("GET", &format!("/v1/keys/{id}"), Some(ADMIN), None);
    assert_eq!(st, 200, "{got}");
    assert_eq!(got["public_key"], key["public_key"]);
    let pem = got["public_key_pem"].as_str().unwrap();
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"));
    let (alg, pk) = pqsig::keyfile::decode_public(pem.as_bytes()).unwrap();
    assert_eq!(alg.name(), "ML-DSA-65");
    assert_eq!(pk, unb64(&key["public_key"]));

    // Sign; the library verifies the signature.
    let msg = b"hello service";
    let ctx = b"ctx";
    let (st, sig) = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign"),
        Some(SIGNER),
        Some(&json!({ "message": b64(msg), "context": b64(ctx) })),
    );
    assert_eq!(st, 200, "{sig}");
    let sig_bytes = unb64(&sig["signature"]);
    let vk = library_vk(&key);
    vk.verify(msg, ctx, &sig_bytes)
        .expect("library verifies the server's signature");
    assert!(vk.verify(b"other", ctx, &sig_bytes).is_err());

    // Verify by key id, by PEM, by raw base64 + alg; and a wrong message.
    let by_id = json!({ "key_id": id, "message": b64(msg), "context": b64(ctx), "signature": sig["signature"] });
    assert_eq!(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&by_id)),
        (200, json!({ "valid": true }))
    );
    let by_pem = json!({ "public_key": pem, "message": b64(msg), "context": b64(ctx), "signature": sig["signature"] });
    assert_eq!(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&by_pem)),
        (200, json!({ "valid": true }))
    );
    let by_raw = json!({ "public_key": key["public_key"], "alg": "ml-dsa-65", "message": b64(msg),
                         "context": b64(ctx), "signature": sig["signature"] });
    assert_eq!(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&by_raw)),
        (200, json!({ "valid": true }))
    );
    let wrong = json!({ "key_id": id, "message": b64(b"tampered"), "context": b64(ctx), "signature": sig["signature"] });
    assert_eq!(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&wrong)),
        (200, json!({ "valid": false }))
    );
    let short = json!({ "key_id": id, "message": b64(msg), "signature": b64(&[1, 2, 3]) });
    assert_eq!(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&short)),
        (200, json!({ "valid": false }))
    );

    // List.
    let (st, list) = s.call("GET", "/v1/keys", Some(ADMIN), None);
    assert_eq!(st, 200);
    assert_eq!(list["keys"].as_array().unwrap().len(), 1);
    assert_eq!(list["keys"][0]["id"], id.as_str());

    // Delete (soft): gone for sign, verify and GET; kept with include_deleted; audited.
    let (st, del) = s.call("DELETE", &format!("/v1/keys/{id}"), Some(ADMIN), None);
    assert_eq!((st, del), (200, json!({ "id": id, "deleted": true })));
    assert_error(
        s.call("GET", &format!("/v1/keys/{id}"), Some(ADMIN), None),
        410,
        "key_deleted",
    );
    assert_error(
        s.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(SIGNER),
            Some(&json!({ "message": b64(msg) })),
        ),
        410,
        "key_deleted",
    );
    assert_error(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&by_id)),
        410,
        "key_deleted",
    );
    assert_error(
        s.call("DELETE", &format!("/v1/keys/{id}"), Some(ADMIN), None),
        410,
        "key_deleted",
    );
    let (_, list) = s.call("GET", "/v1/keys", Some(ADMIN), None);
    assert!(list["keys"].as_array().unwrap().is_empty());
    let (_, list) = s.call("GET", "/v1/keys?include_deleted=true", Some(ADMIN), None);
    assert_eq!(list["keys"][0]["id"], id.as_str());
    assert!(list["keys"][0]["deleted_at"].as_i64().is_some());
    let (st, audit) = s.call("GET", &format!("/v1/keys/{id}/audit"), Some(ADMIN), None);
    assert_eq!(st, 200, "{audit}");
    let events: Vec<(String, String)> = audit["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap().into(),
                e["actor"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        events,
        vec![
            ("created".into(), "admin".into()),
            ("deleted".into(), "admin".into())
        ]
    );
    // The public-key PEM is still a valid inline key for verification.
    assert_eq!(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&by_pem)),
        (200, json!({ "valid": true }))
    );
}

/// Falcon-512 and SNOVA_I_S (no context, no deterministic mode), FN-DSA-512 and
/// ML-DSA-44 deterministic signing.
#[test]
fn families_and_modes() {
    let s = TestServer::start();
    for alg in ["Falcon-512", "SNOVA_I_S", "FN-DSA-512", "ML-DSA-44"] {
        let key = s.create_key(alg);
        let id = key["id"].as_str().unwrap();
        let vk = library_vk(&key);
        let (st, sig) = s.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(ADMIN),
            Some(&json!({ "message": b64(b"m") })),
        );
        assert_eq!(st, 200, "{alg}: {sig}");
        vk.verify(b"m", b"", &unb64(&sig["signature"]))
            .unwrap_or_else(|e| panic!("{alg}: {e}"));
        let req = json!({ "key_id": id, "alg": alg, "message": b64(b"m"), "signature": sig["signature"] });
        assert_eq!(
            s.call("POST", "/v1/verify", Some(ADMIN), Some(&req)),
            (200, json!({ "valid": true })),
            "{alg}"
        );
        let a = pqsig::Algorithm::from_name(alg).unwrap();
        let det = json!({ "message": b64(b"m"), "deterministic": true });
        let r = s.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(ADMIN),
            Some(&det),
        );
        if a.supports_deterministic() {
            assert_eq!(r.0, 200, "{alg}: {}", r.1);
            let again = s.call(
                "POST",
                &format!("/v1/keys/{id}/sign"),
                Some(ADMIN),
                Some(&det),
            );
            assert_eq!(r.1, again.1, "{alg}: deterministic signatures repeat");
        } else {
            assert_error(r, 400, "deterministic_not_supported");
        }
        let with_ctx = json!({ "message": b64(b"m"), "context": b64(b"c") });
        let r = s.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(ADMIN),
            Some(&with_ctx),
        );
        if a.supports_context() {
            assert_eq!(r.0, 200, "{alg}");
            vk.verify(b"m", b"c", &unb64(&r.1["signature"])).unwrap();
        } else {
            assert_error(r, 400, "context_not_supported");
        }
        if !a.supports_external_mu() {
            let mu = json!({ "mu": b64(&[0u8; 64]) });
            assert_error(
                s.call(
                    "POST",
                    &format!("/v1/keys/{id}/sign"),
                    Some(ADMIN),
                    Some(&mu),
                ),
                400,
                "mu_not_supported",
            );
        }
    }
}

/// Messages over the cap are refused with a pointer to external mu; signing mu works
/// and the signature verifies over the full message.
#[test]
fn external_mu_for_large_messages() {
    let s = TestServer::start();
    let key = s.create_key("ML-DSA-87");
    let id = key["id"].as_str().unwrap();
    let big = vec![7u8; 10_000]; // cap is 4096 in the test config
    let e = assert_error(
        s.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(ADMIN),
            Some(&json!({ "message": b64(&big) })),
        ),
        413,
        "message_too_large",
    );
    assert!(
        e["error"]["message"].as_str().unwrap().contains("\"mu\""),
        "{e}"
    );
    let vk = library_vk(&key);
    let mu = vk.compute_mu(&big, b"app").unwrap();
    let (st, sig) = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign"),
        Some(ADMIN),
        Some(&json!({ "mu": b64(&mu), "deterministic": true })),
    );
    assert_eq!(st, 200, "{sig}");
    vk.verify(&big, b"app", &unb64(&sig["signature"]))
        .expect("mu signature verifies over the message");
    let req = json!({ "key_id": id, "mu": b64(&mu), "signature": sig["signature"] });
    assert_eq!(
        s.call("POST", "/v1/verify", Some(ADMIN), Some(&req)),
        (200, json!({ "valid": true }))
    );
    assert_error(
        s.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(ADMIN),
            Some(&json!({ "mu": b64(&[1u8; 63]) })),
        ),
        400,
        "invalid_mu",
    );
}

#[test]
fn batches_sign_and_verify_in_order() {
    let s = TestServer::start();
    let key = s.create_key("ML-DSA-65");
    let other = s.create_key("Falcon-512");
    let id = key["id"].as_str().unwrap();
    let msgs: Vec<Vec<u8>> = (0..20u8).map(|i| vec![i; 1 + i as usize]).collect();
    let items: Vec<Value> = msgs.iter().map(|m| json!({ "message": b64(m) })).collect();
    let (st, r) = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign-batch"),
        Some(SIGNER),
        Some(&json!({ "context": b64(b"batch"), "items": items })),
    );
    assert_eq!(st, 200, "{r}");
    let results = r["results"].as_array().unwrap();
    assert_eq!(results.len(), msgs.len());
    let vk = library_vk(&key);
    let sigs: Vec<Value> = results.iter().map(|x| x["signature"].clone()).collect();
    for (m, sig) in msgs.iter().zip(&sigs) {
        vk.verify(m, b"batch", &unb64(sig))
            .expect("each batch signature verifies, in order");
    }
    // Verify batch: shared key id and context; item 3 tampered; item 5 names a key of
    // another algorithm (a per-item error); item 6 an unknown key id.
    let mut vitems: Vec<Value> = msgs
        .iter()
        .zip(&sigs)
        .map(|(m, sg)| json!({ "message": b64(m), "signature": sg }))
        .collect();
    vitems[3]["message"] = json!(b64(b"tampered"));
    vitems[5]["key_id"] = other["id"].clone();
    vitems[5]["alg"] = json!("ML-DSA-65");
    vitems[6]["key_id"] = json!("ffffffffffffffffffffffffffffffff");
    let (st, r) = s.call(
        "POST",
        "/v1/verify-batch",
        Some(VERIFIER),
        Some(&json!({ "key_id": id, "context": b64(b"batch"), "items": vitems })),
    );
    assert_eq!(st, 200, "{r}");
    let res = r["results"].as_array().unwrap();
    for (i, x) in res.iter().enumerate() {
        match i {
            3 => assert_eq!(x, &json!({ "valid": false })),
            5 => assert_eq!(x["error"]["code"], "wrong_key_type", "{x}"),
            6 => assert_eq!(x["error"]["code"], "key_not_found", "{x}"),
            _ => assert_eq!(x, &json!({ "valid": true }), "item {i}"),
        }
    }
    // Inline public key at the top level.
    let pem = key["public_key_pem"].as_str().unwrap();
    let items: Vec<Value> = msgs
        .iter()
        .zip(&sigs)
        .map(|(m, sg)| json!({ "message": b64(m), "signature": sg }))
        .collect();
    let (st, r) = s.call(
        "POST",
        "/v1/verify-batch",
        Some(VERIFIER),
        Some(&json!({ "public_key": pem, "context": b64(b"batch"), "items": items })),
    );
    assert_eq!(st, 200, "{r}");
    assert!(
        r["results"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x == &json!({ "valid": true })),
        "{r}"
    );
    // Per-item sign failure (deterministic is fine for ML-DSA; a 63-byte mu is not).
    let items = json!({ "items": [ { "message": b64(b"a") }, { "mu": b64(&[0u8; 63]) } ] });
    let (st, r) = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign-batch"),
        Some(SIGNER),
        Some(&items),
    );
    assert_eq!(st, 200, "{r}");
    assert!(r["results"][0]["signature"].is_string());
    assert_eq!(r["results"][1]["error"]["code"], "invalid_mu");
    // Empty batch.
    let (st, r) = s.call(
        "POST",
        "/v1/verify-batch",
        Some(VERIFIER),
        Some(&json!({ "items": [] })),
    );
    assert_eq!((st, r), (200, json!({ "results": [] })));
}

#[test]
fn health_metrics_openapi() {
    let s = TestServer::start();
    let (st, h) = s.call("GET", "/healthz", None, None);
    assert_eq!(st, 200);
    assert_eq!(h["status"], "ok");
    assert_eq!(h["store"], "sqlite");
    assert_eq!(h["schema_version"], 3);
    assert_eq!(h["insecure_kek"], false);

    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    let (st, sig) = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign"),
        Some(ADMIN),
        Some(&json!({ "message": b64(b"x") })),
    );
    assert_eq!(st, 200);
    let bad = json!({ "key_id": id, "message": b64(b"y"), "signature": sig["signature"] });
    assert_eq!(
        s.call("POST", "/v1/verify", Some(ADMIN), Some(&bad)).1,
        json!({ "valid": false })
    );
    assert_error(
        s.call("POST", "/v1/verify", None, Some(&bad)),
        401,
        "unauthorized",
    );
    let text = s
        .client
        .get(format!("{}/metrics", s.base))
        .send()
        .unwrap()
        .text()
        .unwrap();
    for needle in [
        "pqsig_operations_total{operation=\"sign\",algorithm=\"ML-DSA-44\",outcome=\"ok\"} 1",
        "pqsig_operations_total{operation=\"verify\",algorithm=\"ML-DSA-44\",outcome=\"invalid\"} 1",
        "pqsig_operations_total{operation=\"keygen\",algorithm=\"ML-DSA-44\",outcome=\"ok\"} 1",
        "pqsig_operation_duration_seconds_bucket{operation=\"sign\",algorithm=\"ML-DSA-44\",le=\"+Inf\"} 1",
        "pqsig_operation_duration_seconds_count{operation=\"verify\",algorithm=\"ML-DSA-44\"} 1",
        "pqsig_http_requests_total{method=\"POST\",route=\"/v1/keys/{id}/sign\",status=\"200\"} 1",
        "pqsig_http_requests_total{method=\"POST\",route=\"/v1/verify\",status=\"401\"} 1",
        "pqsig_http_request_duration_seconds_count{method=\"POST\",route=\"/v1/keys\"} 1",
        "pqsig_errors_total{code=\"unauthorized\"} 1",
        "# TYPE pqsig_operation_duration_seconds histogram",
    ] {
        assert!(text.contains(needle), "metrics lack {needle}:\n{text}");
    }

    // OpenAPI: parses, is 3.1, and lists every routed (method, path); every listed route
    // is really routed (neither the JSON 404 fallback nor 405).
    let (st, doc) = s.call("GET", "/v1/openapi.json", None, None);
    assert_eq!(st, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"), "{doc}");
    let paths = doc["paths"].as_object().expect("paths");
    let mut documented = 0;
    for (path, ops) in paths {
        for method in ops.as_object().unwrap().keys() {
            if ["get", "post", "delete", "put", "patch"].contains(&method.as_str()) {
                documented += 1;
                let m = method.to_uppercase();
                assert!(
                    pqsig_server::http::ROUTES.contains(&(m.as_str(), path.as_str())),
                    "OpenAPI documents {m} {path} which the server does not route"
                );
            }
        }
    }
    assert_eq!(documented, pqsig_server::http::ROUTES.len());
    for (method, path) in pqsig_server::http::ROUTES {
        assert!(
            paths
                .get(*path)
                .and_then(|p| p.get(method.to_lowercase()))
                .is_some(),
            "{method} {path} undocumented"
        );
        let concrete = path.replace("{id}", id);
        let (st, body) = s.call(method, &concrete, None, None);
        assert!(
            st != 405 && body["error"]["code"] != "not_found",
            "{method} {path} is not routed: {st} {body}"
        );
    }
}
