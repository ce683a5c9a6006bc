//! Every error path answers 4xx with `{"error": {"code", "message"}}`: malformed JSON,
//! bad base64, unknown algorithm, wrong key type, unknown key, limits, routing, and
//! every authentication / authorization failure.

mod common;

use common::*;
use serde_json::json;

#[test]
fn malformed_requests_are_4xx_json() {
    let s = TestServer::start();
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    let sign = format!("/v1/keys/{id}/sign");
    let sig = s
        .call(
            "POST",
            &sign,
            Some(ADMIN),
            Some(&json!({ "message": b64(b"m") })),
        )
        .1["signature"]
        .clone();

    assert_error(
        s.call_raw("POST", "/v1/keys", Some(ADMIN), b"{not json".to_vec()),
        400,
        "invalid_json",
    );
    assert_error(
        s.call_raw("POST", "/v1/keys", Some(ADMIN), Vec::new()),
        400,
        "invalid_json",
    );
    assert_error(
        s.call_raw("POST", &sign, Some(ADMIN), vec![0xff, 0xfe]),
        400,
        "invalid_json",
    );
    assert_error(
        s.call("POST", "/v1/keys", Some(ADMIN), Some(&json!({ "alg": 5 }))),
        400,
        "invalid_json",
    );
    assert_error(
        s.call(
            "POST",
            "/v1/keys",
            Some(ADMIN),
            Some(&json!({ "algo": "ML-DSA-44" })),
        ),
        400,
        "invalid_json",
    );
    assert_error(
        s.call(
            "POST",
            "/v1/keys",
            Some(ADMIN),
            Some(&json!({ "alg": "RSA-2048" })),
        ),
        400,
        "unknown_algorithm",
    );
    assert_error(
        s.call(
            "POST",
            &sign,
            Some(ADMIN),
            Some(&json!({ "msg": b64(b"m") })),
        ),
        400,
        "invalid_json",
    );
    assert_error(
        s.call(
            "POST",
            &sign,
            Some(ADMIN),
            Some(&json!({ "message": "***" })),
        ),
        400,
        "invalid_base64",
    );
    assert_error(
        s.call("POST", &sign, Some(ADMIN), Some(&json!({}))),
        400,
        "invalid_request",
    );
    assert_error(
        s.call(
            "POST",
            &sign,
            Some(ADMIN),
            Some(&json!({ "message": b64(b"m"), "mu": b64(&[0; 64]) })),
        ),
        400,
        "invalid_request",
    );
    assert_error(
        s.call(
            "POST",
            &sign,
            Some(ADMIN),
            Some(&json!({ "message": b64(b"m"), "context": b64(&[1; 256]) })),
        ),
        400,
        "context_too_long",
    );
    assert_error(
        s.call(
            "POST",
            "/v1/keys/ffffffffffffffffffffffffffffffff/sign",
            Some(ADMIN),
            Some(&json!({ "message": b64(b"m") })),
        ),
        404,
        "key_not_found",
    );
    assert_error(
        s.call("GET", "/v1/keys/nope", Some(ADMIN), None),
        404,
        "key_not_found",
    );
    assert_error(
        s.call("DELETE", "/v1/keys/nope", Some(ADMIN), None),
        404,
        "key_not_found",
    );
    assert_error(
        s.call("GET", "/v1/keys/nope/audit", Some(ADMIN), None),
        404,
        "key_not_found",
    );

    // Verify inputs.
    let v = |body: serde_json::Value| s.call("POST", "/v1/verify", Some(ADMIN), Some(&body));
    assert_error(
        v(json!({ "message": b64(b"m"), "signature": sig })),
        400,
        "invalid_request",
    );
    assert_error(
        v(json!({ "key_id": id, "message": b64(b"m") })),
        400,
        "invalid_request",
    );
    assert_error(
        v(
            json!({ "key_id": id, "public_key": key["public_key"], "message": b64(b"m"), "signature": sig }),
        ),
        400,
        "invalid_request",
    );
    assert_error(
        v(json!({ "key_id": id, "message": b64(b"m"), "signature": "%%%" })),
        400,
        "invalid_base64",
    );
    assert_error(
        v(json!({ "key_id": id, "alg": "nope", "message": b64(b"m"), "signature": sig })),
        400,
        "unknown_algorithm",
    );
    assert_error(
        v(json!({ "key_id": id, "alg": "ML-DSA-87", "message": b64(b"m"), "signature": sig })),
        400,
        "wrong_key_type",
    );
    // A PEM key of one algorithm presented as another.
    let pem = key["public_key_pem"].as_str().unwrap();
    assert_error(
        v(
            json!({ "public_key": pem, "alg": "Falcon-512", "message": b64(b"m"), "signature": sig }),
        ),
        400,
        "wrong_key_type",
    );
    // Raw bytes of the wrong length, and raw bytes without alg.
    assert_error(
        v(
            json!({ "public_key": b64(&[1; 10]), "alg": "ML-DSA-44", "message": b64(b"m"), "signature": sig }),
        ),
        400,
        "invalid_public_key",
    );
    // A raw key without "alg" is refused; one whose first byte is 0x30 (a random key, one
    // time in 256) looks like DER and gets the DER error instead (keyfile::decode_public).
    let raw_first = unb64(&key["public_key"])[0];
    assert_error(
        v(json!({ "public_key": key["public_key"], "message": b64(b"m"), "signature": sig })),
        400,
        if raw_first == 0x30 {
            "invalid_public_key"
        } else {
            "invalid_request"
        },
    );
    assert_error(
        v(
            json!({ "public_key": "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "message": b64(b"m"), "signature": sig }),
        ),
        400,
        "invalid_public_key",
    );
    assert_error(
        v(json!({ "key_id": "nope", "message": b64(b"m"), "signature": sig })),
        404,
        "key_not_found",
    );

    // Batches: malformed item (with its index), too many items, unknown fields.
    let e = assert_error(
        s.call(
            "POST",
            &format!("/v1/keys/{id}/sign-batch"),
            Some(ADMIN),
            Some(&json!({ "items": [ { "message": b64(b"a") }, { "message": "!" } ] })),
        ),
        400,
        "invalid_base64",
    );
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("items[1]"),
        "{e}"
    );
    let many: Vec<_> = (0..65).map(|_| json!({ "message": b64(b"a") })).collect();
    assert_error(
        s.call(
            "POST",
            &format!("/v1/keys/{id}/sign-batch"),
            Some(ADMIN),
            Some(&json!({ "items": many })),
        ),
        413,
        "batch_too_large",
    );
    let many: Vec<_> = (0..65)
        .map(|_| json!({ "message": b64(b"a"), "signature": sig }))
        .collect();
    assert_error(
        s.call(
            "POST",
            "/v1/verify-batch",
            Some(ADMIN),
            Some(&json!({ "key_id": id, "items": many })),
        ),
        413,
        "batch_too_large",
    );
    assert_error(
        s.call(
            "POST",
            "/v1/verify-batch",
            Some(ADMIN),
            Some(&json!({ "key_id": id, "itemz": [] })),
        ),
        400,
        "invalid_json",
    );

    // Body cap (1 MiB in the test config), routing, methods, query.
    // On its own raw connection: the server answers 413 from the headers and closes
    // without reading the body, so a client still writing the body could get a broken
    // pipe before it reads the answer (a race an HTTP client library loses at random).
    // Only the headers are sent here; the answer must come without the body.
    {
        use std::io::{Read, Write};
        let addr = s.base.trim_start_matches("http://");
        let mut conn = std::net::TcpStream::connect(addr).unwrap();
        conn.set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            conn,
            "POST {sign} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {ADMIN}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            (1 << 20) + 10_000
        )
        .unwrap();
        let mut answer = Vec::new();
        let _ = conn.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        let body = &answer[answer.find("\r\n\r\n").unwrap() + 4..];
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(body["error"]["code"], "body_too_large");
    }
    assert_error(
        s.call("GET", "/v1/nothing", Some(ADMIN), None),
        404,
        "not_found",
    );
    assert_error(s.call("GET", "/", None, None), 404, "not_found");
    assert_error(
        s.call("PUT", "/v1/keys", Some(ADMIN), None),
        405,
        "method_not_allowed",
    );
    assert_error(
        s.call("GET", &sign, Some(ADMIN), None),
        405,
        "method_not_allowed",
    );
    assert_error(
        s.call("GET", "/v1/keys?include_deleted=maybe", Some(ADMIN), None),
        400,
        "invalid_request",
    );

    // The server is still fine afterwards.
    assert_eq!(s.call("GET", "/healthz", None, None).0, 200);
}

#[test]
fn authentication_and_scopes() {
    let s = TestServer::start();
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    let sign = format!("/v1/keys/{id}/sign");
    let body = json!({ "message": b64(b"m") });
    let sig = s.call("POST", &sign, Some(SIGNER), Some(&body)).1["signature"].clone();
    let vreq = json!({ "key_id": id, "message": b64(b"m"), "signature": sig });

    // Missing, unknown and malformed credentials: 401 everywhere that needs a token.
    assert_error(
        s.call("POST", &sign, None, Some(&body)),
        401,
        "unauthorized",
    );
    assert_error(
        s.call("POST", &sign, Some("wrong-token"), Some(&body)),
        401,
        "unauthorized",
    );
    assert_error(
        s.call("POST", "/v1/verify", None, Some(&vreq)),
        401,
        "unauthorized",
    );
    assert_error(s.call("GET", "/v1/keys", None, None), 401, "unauthorized");
    let resp = s
        .client
        .get(format!("{}/v1/keys", s.base))
        .header("authorization", "Basic abc")
        .send()
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let resp = s
        .client
        .get(format!("{}/v1/keys", s.base))
        .header("authorization", "Bearer ")
        .send()
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);

    // Operation scopes: 403.
    assert_error(
        s.call("POST", &sign, Some(VERIFIER), Some(&body)),
        403,
        "forbidden",
    );
    assert_error(
        s.call("POST", "/v1/verify", Some(SIGNER), Some(&vreq)),
        403,
        "forbidden",
    );
    assert_error(
        s.call(
            "POST",
            "/v1/verify-batch",
            Some(SIGNER),
            Some(&json!({ "items": [] })),
        ),
        403,
        "forbidden",
    );
    assert_error(
        s.call(
            "POST",
            &format!("{sign}-batch"),
            Some(VERIFIER),
            Some(&json!({ "items": [] })),
        ),
        403,
        "forbidden",
    );
    assert_error(
        s.call(
            "POST",
            "/v1/keys",
            Some(SIGNER),
            Some(&json!({ "alg": "ML-DSA-44" })),
        ),
        403,
        "forbidden",
    );
    assert_error(
        s.call("GET", "/v1/keys", Some(VERIFIER), None),
        403,
        "forbidden",
    );
    assert_error(
        s.call("DELETE", &format!("/v1/keys/{id}"), Some(SIGNER), None),
        403,
        "forbidden",
    );
    assert_error(
        s.call("GET", &format!("/v1/keys/{id}/audit"), Some(VERIFIER), None),
        403,
        "forbidden",
    );
    // Key scopes: the scoped token may not touch this key, nor create keys.
    assert_error(
        s.call("POST", &sign, Some(SCOPED), Some(&body)),
        403,
        "forbidden",
    );
    assert_error(
        s.call("POST", "/v1/verify", Some(SCOPED), Some(&vreq)),
        403,
        "forbidden",
    );
    assert_error(
        s.call("GET", &format!("/v1/keys/{id}"), Some(SCOPED), None),
        403,
        "forbidden",
    );
    assert_error(
        s.call("DELETE", &format!("/v1/keys/{id}"), Some(SCOPED), None),
        403,
        "forbidden",
    );
    assert_error(
        s.call(
            "POST",
            "/v1/keys",
            Some(SCOPED),
            Some(&json!({ "alg": "ML-DSA-44" })),
        ),
        403,
        "forbidden",
    );
    let (st, list) = s.call("GET", "/v1/keys", Some(SCOPED), None);
    assert_eq!(
        (st, list),
        (200, json!({ "keys": [] })),
        "list shows only keys in scope"
    );
    // In a batch, an out-of-scope key is a per-item 403.
    let (st, r) = s.call(
        "POST",
        "/v1/verify-batch",
        Some(SCOPED),
        Some(&json!({ "items": [vreq.clone()] })),
    );
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["results"][0]["error"]["code"], "forbidden");
    // GET of a key's public part with a sign-only token scoped to it is allowed.
    assert_eq!(
        s.call("GET", &format!("/v1/keys/{id}"), Some(SIGNER), None)
            .0,
        200
    );
    // The key was not deleted by any refused request.
    assert_eq!(
        s.call("POST", "/v1/verify", Some(VERIFIER), Some(&vreq)).1,
        json!({ "valid": true })
    );
}

#[test]
fn public_verify_needs_no_token_but_signing_does() {
    let toml = format!("public_verify = true\n{}", base_toml());
    let s = TestServer::start_with(&toml);
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    let sig = s
        .call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(ADMIN),
            Some(&json!({ "message": b64(b"m") })),
        )
        .1["signature"]
        .clone();
    let vreq = json!({ "key_id": id, "message": b64(b"m"), "signature": sig });
    assert_eq!(
        s.call("POST", "/v1/verify", None, Some(&vreq)),
        (200, json!({ "valid": true }))
    );
    let (st, r) = s.call(
        "POST",
        "/v1/verify-batch",
        None,
        Some(&json!({ "items": [vreq.clone()] })),
    );
    assert_eq!((st, r), (200, json!({ "results": [{ "valid": true }] })));
    // A wrong token is still refused (no silent downgrade to anonymous).
    assert_error(
        s.call("POST", "/v1/verify", Some("wrong"), Some(&vreq)),
        401,
        "unauthorized",
    );
    assert_error(
        s.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            None,
            Some(&json!({ "message": b64(b"m") })),
        ),
        401,
        "unauthorized",
    );
    assert_error(s.call("GET", "/v1/keys", None, None), 401, "unauthorized");
}
