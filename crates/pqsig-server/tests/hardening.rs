//! Issue 20's service hardening, one regression test per finding: admission before the
//! body, connection limits and timeouts, bounded metrics labels, row authentication in
//! the key store, the sign audit and access logs, and the smaller items. Limits are set
//! small so each test takes well under a few seconds.

mod common;

use common::*;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The base config with extra `[limits]` lines.
fn with_limits(extra: &str) -> String {
    base_toml().replace("[limits]\n", &format!("[limits]\n{extra}\n"))
}

fn addr(s: &TestServer) -> std::net::SocketAddr {
    s.server.as_ref().unwrap().local_addr()
}

/// Sends raw bytes and reads what comes back until the server closes or `wait` passes.
fn exchange(stream: &mut TcpStream, bytes: &[u8], wait: Duration) -> String {
    stream.write_all(bytes).unwrap();
    read_for(stream, wait)
}

fn read_for(stream: &mut TcpStream, wait: Duration) -> String {
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let t0 = Instant::now();
    while t0.elapsed() < wait {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                if response_complete(&out) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a buffered HTTP response has its whole (Content-Length) body.
fn response_complete(b: &[u8]) -> bool {
    let text = String::from_utf8_lossy(b);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().parse::<usize>().unwrap_or(0))
        })
        .is_some_and(|n| body.len() >= n)
}

/// Whether the server has closed the connection (read gives EOF or a reset).
fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) => {
                return !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                )
            }
        }
    }
}

fn status_of(resp: &str) -> u16 {
    resp.split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn json_body(resp: &str) -> Value {
    resp.split_once("\r\n\r\n")
        .and_then(|(_, b)| serde_json::from_str(b).ok())
        .unwrap_or(Value::Null)
}

fn post_head(path: &str, token: Option<&str>, len: usize) -> String {
    let auth = token.map_or(String::new(), |t| format!("authorization: Bearer {t}\r\n"));
    format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\n{auth}content-type: application/json\r\ncontent-length: {len}\r\n\r\n"
    )
}

// ----- 1. admission before the body ------------------------------------------------------

#[test]
fn bodies_are_not_read_before_authentication_or_over_the_caps() {
    let s = TestServer::start_with(&with_limits(
        "max_inflight_body_bytes = 1100000\nbody_read_timeout_ms = 3000",
    ));
    let a = addr(&s);
    // No token, a declared 15 MiB body, none of it sent: 401 at once.
    let mut c = TcpStream::connect(a).unwrap();
    let r = exchange(
        &mut c,
        post_head("/v1/verify", None, 15 << 20).as_bytes(),
        Duration::from_secs(3),
    );
    assert_eq!(status_of(&r), 401, "{r}");
    assert_eq!(json_body(&r)["error"]["code"], "unauthorized", "{r}");
    // A bad token: the same.
    let mut c = TcpStream::connect(a).unwrap();
    let r = exchange(
        &mut c,
        post_head("/v1/verify", Some("not-a-configured-token"), 15 << 20).as_bytes(),
        Duration::from_secs(3),
    );
    assert_eq!(status_of(&r), 401, "{r}");
    // A good token but a declared body over max_body_bytes: 413 before reading.
    let mut c = TcpStream::connect(a).unwrap();
    let r = exchange(
        &mut c,
        post_head("/v1/verify", Some(ADMIN), 15 << 20).as_bytes(),
        Duration::from_secs(3),
    );
    assert_eq!(status_of(&r), 413, "{r}");
    assert_eq!(json_body(&r)["error"]["code"], "body_too_large");
    // Two bodies of 1 MB at once exceed the 1.1 MB in-flight budget: the second is 503
    // with Retry-After while the first is still arriving.
    let mut first = TcpStream::connect(a).unwrap();
    first
        .write_all(post_head("/v1/verify", Some(ADMIN), 1 << 20).as_bytes())
        .unwrap();
    first.write_all(b"{\"x\":").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let mut second = TcpStream::connect(a).unwrap();
    let r = exchange(
        &mut second,
        post_head("/v1/verify", Some(ADMIN), 1 << 20).as_bytes(),
        Duration::from_secs(3),
    );
    assert_eq!(status_of(&r), 503, "{r}");
    assert_eq!(json_body(&r)["error"]["code"], "server_busy");
    assert!(r.to_ascii_lowercase().contains("retry-after: 1"), "{r}");
    drop(first);
    // Once the first is gone, the budget is back.
    std::thread::sleep(Duration::from_millis(200));
    let (st, _) = s.call(
        "POST",
        "/v1/verify",
        Some(ADMIN),
        Some(&json!({ "key_id": "00", "message": "" })),
    );
    assert_ne!(st, 503);
}

#[test]
fn protocol_frames_before_hello_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(
        &with_limits("max_unauthenticated_frame_bytes = 1024"),
        path_in(&dir, "k.db").to_string_lossy().into(),
    );
    cfg.proto_listen = Some("127.0.0.1:0".parse().unwrap());
    let s = TestServer::start_cfg(cfg);
    let pa = s.server.as_ref().unwrap().proto_addr().unwrap();
    // A VERIFY frame header announcing 1 MiB before HELLO: ERROR 413, connection closed,
    // and the server never waited for the payload.
    let mut head = [0u8; pqsig_proto::codec::HEADER_LEN];
    let frame =
        pqsig_proto::codec::encode_request(7, &pqsig_proto::Request::Ping(vec![0; 8])).unwrap();
    head.copy_from_slice(&frame[..pqsig_proto::codec::HEADER_LEN]);
    let len_at = pqsig_proto::codec::HEADER_LEN - 4;
    head[len_at..].copy_from_slice(&(1u32 << 20).to_be_bytes());
    let mut c = TcpStream::connect(pa).unwrap();
    c.write_all(&head).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(3))).unwrap();
    let mut answer = Vec::new();
    let _ = c.read_to_end(&mut answer);
    let (h, payload, _) =
        pqsig_proto::codec::split_frame(&answer, pqsig_proto::codec::MAX_PAYLOAD).unwrap();
    match pqsig_proto::codec::decode_response(h.opcode, payload).unwrap() {
        pqsig_proto::Response::Error(e) => assert_eq!(e.code.0, 413, "{}", e.message),
        other => panic!("expected ERROR 413, got {other:?}"),
    }
    // After HELLO the configured (larger) cap applies: a 4 KiB PING is fine.
    let mut client = pqsig_proto::Client::connect(
        &pqsig_proto::Endpoint::Tcp(pa.to_string()),
        Some(Duration::from_secs(5)),
    )
    .unwrap();
    client.hello(ADMIN.as_bytes()).unwrap();
    client.ping(&[1u8; 4096]).unwrap();
}

// ----- 2. connection limits and timeouts -------------------------------------------------

#[test]
fn connections_are_limited_per_ip_and_idle_ones_time_out() {
    let s = TestServer::start_with(&with_limits(
        "max_connections_per_ip = 2\nheader_read_timeout_ms = 400\n\
         request_timeout_ms = 500\nidle_timeout_ms = 600",
    ));
    let a = addr(&s);
    let c1 = TcpStream::connect(a).unwrap();
    let c2 = TcpStream::connect(a).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let mut c3 = TcpStream::connect(a).unwrap();
    let r = read_for(&mut c3, Duration::from_secs(3));
    assert_eq!(status_of(&r), 503, "third connection from one IP: {r}");
    assert_eq!(json_body(&r)["error"]["code"], "server_busy");
    // Slowloris: a header that never ends is cut off by the header timeout...
    let mut slow = c1;
    // (The header clock runs from the connection's start: it may already be closed.)
    let _ = slow.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n");
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_millis(200));
    let _ = slow.write_all(b"x-slow: 1\r\n");
    assert!(
        closed_within(&mut slow, Duration::from_secs(3)),
        "slow header closed"
    );
    assert!(t0.elapsed() < Duration::from_secs(3));
    // ...and so is a connection that never sends anything.
    let mut idle = c2;
    assert!(
        closed_within(&mut idle, Duration::from_secs(3)),
        "idle connection closed"
    );
    // A keep-alive connection idle after a request is closed too.
    std::thread::sleep(Duration::from_millis(100));
    let mut ka = TcpStream::connect(a).unwrap();
    let r = exchange(
        &mut ka,
        b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n",
        Duration::from_secs(3),
    );
    assert_eq!(status_of(&r), 200, "{r}");
    assert!(
        closed_within(&mut ka, Duration::from_secs(3)),
        "idle keep-alive closed"
    );
    // The places are released: new connections work.
    let (st, _) = s.call("GET", "/healthz", None, None);
    assert_eq!(st, 200);
}

#[test]
fn the_global_connection_limit_holds() {
    let s = TestServer::start_with(&with_limits("max_connections = 1"));
    let a = addr(&s);
    let _held = TcpStream::connect(a).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let mut c = TcpStream::connect(a).unwrap();
    let r = read_for(&mut c, Duration::from_secs(3));
    assert_eq!(status_of(&r), 503, "{r}");
}

// ----- 3. metrics labels ---------------------------------------------------------------

#[test]
fn metrics_labels_come_from_a_closed_set() {
    let s = TestServer::start();
    let a = addr(&s);
    for i in 0..20 {
        let mut c = TcpStream::connect(a).unwrap();
        let _ = exchange(
            &mut c,
            format!("INVENTED{i} /v1/keys/zz{i} HTTP/1.1\r\nhost: x\r\n\r\n").as_bytes(),
            Duration::from_secs(2),
        );
    }
    let text = s
        .client
        .get(format!("{}/metrics", s.base))
        .send()
        .unwrap()
        .text()
        .unwrap();
    assert!(!text.contains("INVENTED"), "raw methods leak into labels");
    assert!(!text.contains("zz1"), "raw paths leak into labels");
    assert!(text.contains("\"other\""), "unknown methods count as other");
}

// ----- 4. row authentication ------------------------------------------------------------

#[test]
fn rows_edited_without_the_kek_are_refused() {
    let mut s = TestServer::start();
    let victim = s.create_key("ML-DSA-44");
    let forger = s.create_key("ML-DSA-44");
    let gone = s.create_key("ML-DSA-44");
    let (vid, fid, gid) = (
        victim["id"].as_str().unwrap().to_string(),
        forger["id"].as_str().unwrap().to_string(),
        gone["id"].as_str().unwrap().to_string(),
    );
    let (st, _) = s.call("DELETE", &format!("/v1/keys/{gid}"), Some(ADMIN), None);
    assert_eq!(st, 200);
    // A signature made with the attacker's own key.
    let forged = s.sign_checked(&forger, ADMIN, b"pay mallory");
    s.stop();
    // Database write access, no KEK: swap the victim's public key for the forger's and
    // revive the deleted key.
    let db = s.cfg.db.clone();
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute(
        "UPDATE keys SET public_key = (SELECT public_key FROM keys WHERE id = ?2) WHERE id = ?1",
        [&vid, &fid],
    )
    .unwrap();
    c.execute(
        "UPDATE keys SET deleted_at = NULL, deleted_by = NULL WHERE id = ?1",
        [&gid],
    )
    .unwrap();
    drop(c);
    s.restart();
    let verify = json!({ "key_id": vid, "message": b64(b"pay mallory"), "signature": forged });
    let got = s.call("POST", "/v1/verify", Some(ADMIN), Some(&verify));
    assert_error(got, 500, "key_integrity");
    let got = s.call("GET", &format!("/v1/keys/{vid}"), Some(ADMIN), None);
    assert_error(got, 500, "key_integrity");
    let sign = json!({ "message": b64(b"x") });
    let got = s.call(
        "POST",
        &format!("/v1/keys/{gid}/sign"),
        Some(ADMIN),
        Some(&sign),
    );
    assert_error(got, 500, "key_integrity");
    // The untouched key still works.
    s.sign_checked(&forger, ADMIN, b"fine");
    // Removing the tag does not help either (the one-time upgrade pass is over).
    s.stop();
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute("UPDATE keys SET row_mac = NULL WHERE id = ?1", [&fid])
        .unwrap();
    drop(c);
    s.restart();
    let got = s.call(
        "POST",
        &format!("/v1/keys/{fid}/sign"),
        Some(ADMIN),
        Some(&sign),
    );
    assert_error(got, 500, "key_integrity");
}

#[test]
fn rows_from_before_row_tags_are_checked_against_their_seed_once() {
    let mut s = TestServer::start();
    let a = s.create_key("ML-DSA-44");
    let b = s.create_key("ML-DSA-44");
    s.stop();
    let db = s.cfg.db.clone();
    // Simulate a pre-version-3 database: no tags, no upgrade marker.
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute("UPDATE keys SET row_mac = NULL", []).unwrap();
    c.execute("DELETE FROM meta WHERE name = 'row_mac_backfill_done'", [])
        .unwrap();
    drop(c);
    s.restart();
    s.sign_checked(&a, ADMIN, b"upgraded");
    // The same, but one row's public key was swapped before the upgrade: refused.
    s.stop();
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute("UPDATE keys SET row_mac = NULL", []).unwrap();
    c.execute("DELETE FROM meta WHERE name = 'row_mac_backfill_done'", [])
        .unwrap();
    c.execute(
        "UPDATE keys SET public_key = (SELECT public_key FROM keys WHERE id = ?2) WHERE id = ?1",
        [a["id"].as_str().unwrap(), b["id"].as_str().unwrap()],
    )
    .unwrap();
    drop(c);
    let err = pqsig_server::Service::open(&s.cfg)
        .err()
        .expect("refuses a legacy row whose public key is not its seed's");
    assert!(err.contains("does not match its sealed seed"), "{err}");
}

// ----- 6. audit and access logs ----------------------------------------------------------

#[test]
fn every_sign_is_audited_and_every_request_access_logged() {
    let dir = tempfile::tempdir().unwrap();
    let audit = path_in(&dir, "audit.jsonl");
    let access = path_in(&dir, "access.jsonl");
    let mut cfg = config(&base_toml(), path_in(&dir, "k.db").to_string_lossy().into());
    cfg.audit_log = Some(audit.clone());
    cfg.access_log = Some(access.clone());
    let s = TestServer::start_cfg(cfg);
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    s.sign_checked(&key, SIGNER, b"audited message");
    let batch = json!({ "items": [{ "message": b64(b"m1") }, { "mu": b64(&[0u8; 3]) }] });
    let (st, _) = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign-batch"),
        Some(ADMIN),
        Some(&batch),
    );
    assert!(st == 200 || st == 400, "{st}");
    // Refused: out of scope.
    let got = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign"),
        Some(SCOPED),
        Some(&json!({ "message": b64(b"no") })),
    );
    assert_eq!(got.0, 403);
    // The writers flush within moments.
    let read = |p: &std::path::Path| -> Vec<Value> {
        let t0 = Instant::now();
        loop {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            let lines: Vec<Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
                .collect();
            if lines.len() >= 3 || t0.elapsed() > Duration::from_secs(3) {
                return lines;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let records = read(&audit);
    use sha2::Digest;
    let digest = hex::encode(sha2::Sha256::digest(b"audited message"));
    let first = records
        .iter()
        .find(|r| r["sha256"] == digest)
        .expect("the single sign is audited");
    assert_eq!(first["event"], "sign");
    assert_eq!(first["key_id"], id);
    assert_eq!(first["token"], "signer");
    assert_eq!(first["result"], "ok");
    assert!(first["ts"].as_f64().unwrap() > 1.7e9);
    let refused = records
        .iter()
        .find(|r| r["token"] == "scoped")
        .expect("a refused sign is audited");
    assert_eq!(refused["result"], "error");
    assert_eq!(refused["error"], "forbidden");
    let log = read(&access);
    let line = log
        .iter()
        .find(|r| r["route"] == "/v1/keys/{id}/sign" && r["token"] == "signer")
        .expect("access log line for the sign");
    assert_eq!(line["status"], 200);
    assert_eq!(line["method"], "POST");
    assert_eq!(line["remote"], "127.0.0.1");
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(&audit).unwrap().permissions().mode() & 0o777
    };
    assert_eq!(mode, 0o600);
}

// ----- 7. smaller items ----------------------------------------------------------------

#[test]
fn a_stalled_body_is_408() {
    let s = TestServer::start_with(&with_limits("body_read_timeout_ms = 300"));
    let mut c = TcpStream::connect(addr(&s)).unwrap();
    c.write_all(post_head("/v1/verify", Some(ADMIN), 100).as_bytes())
        .unwrap();
    let r = exchange(&mut c, b"{\"key_id\":", Duration::from_secs(5));
    assert_eq!(status_of(&r), 408, "{r}");
    assert_eq!(json_body(&r)["error"]["code"], "request_timeout");
}

#[test]
fn errors_are_json_and_never_echo_long_input() {
    let s = TestServer::start();
    let got = s.call("GET", "/v1/keys/%FF", Some(ADMIN), None);
    assert_error(got, 400, "invalid_key_id");
    let long = "A".repeat(100_000);
    let got = s.call(
        "POST",
        "/v1/keys",
        Some(ADMIN),
        Some(&json!({ "alg": long })),
    );
    let body = assert_error(got, 400, "unknown_algorithm");
    let msg = body["error"]["message"].as_str().unwrap();
    assert!(msg.len() < 300, "echoed {} bytes", msg.len());
    let long_id = "b".repeat(10_000);
    let got = s.call("GET", &format!("/v1/keys/{long_id}"), Some(ADMIN), None);
    let body = assert_error(got, 404, "key_not_found");
    assert!(body["error"]["message"].as_str().unwrap().len() < 300);
}

#[test]
fn anonymous_verify_is_bounded_and_sees_no_token_names() {
    let s = TestServer::start_with(&format!(
        "public_verify = true\n{}",
        with_limits("max_concurrent_anonymous = 1\nbody_read_timeout_ms = 3000")
    ));
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    let (st, admin_view) = s.call("GET", &format!("/v1/keys/{id}"), Some(ADMIN), None);
    assert_eq!(
        (st, admin_view["created_by"].as_str()),
        (200, Some("admin"))
    );
    let (st, anon_view) = s.call("GET", &format!("/v1/keys/{id}"), None, None);
    assert_eq!(st, 200, "{anon_view}");
    assert!(anon_view.get("created_by").is_none(), "{anon_view}");
    // One anonymous request in flight (its body stalled) holds the only anonymous slot.
    let mut held = TcpStream::connect(addr(&s)).unwrap();
    held.write_all(post_head("/v1/verify", None, 100).as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let verify = json!({ "key_id": id, "message": "", "signature": "" });
    let got = s.call("POST", "/v1/verify", None, Some(&verify));
    assert_error(got, 429, "too_many_requests");
    // Tokens are not affected.
    let (st, _) = s.call("POST", "/v1/verify", Some(ADMIN), Some(&verify));
    assert_eq!(st, 200);
    drop(held);
}

#[test]
fn a_protocol_batch_takes_one_slot_like_http() {
    let dir = tempfile::tempdir().unwrap();
    let toml = base_toml().replace(
        "name = \"admin\"\n",
        "name = \"admin\"\nmax_concurrent = 2\n",
    );
    let mut cfg = config(&toml, path_in(&dir, "k.db").to_string_lossy().into());
    cfg.proto_listen = Some("127.0.0.1:0".parse().unwrap());
    let s = TestServer::start_cfg(cfg);
    let key = s.create_key("ML-DSA-44");
    let id = key["id"].as_str().unwrap();
    let pa = s.server.as_ref().unwrap().proto_addr().unwrap();
    let mut c = pqsig_proto::Client::connect(
        &pqsig_proto::Endpoint::Tcp(pa.to_string()),
        Some(Duration::from_secs(30)),
    )
    .unwrap();
    c.hello(ADMIN.as_bytes()).unwrap();
    for _ in 0..3 {
        let items: Vec<_> = (0..64)
            .map(|i| {
                pqsig_proto::Request::Sign(pqsig_proto::SignRequest {
                    key_id: id.into(),
                    input: pqsig_proto::Input::Message(vec![i as u8]),
                    context: Vec::new(),
                    deterministic: false,
                })
            })
            .collect();
        let answers = c.batch(items).unwrap();
        let refused = answers
            .iter()
            .filter(|r| matches!(r, pqsig_proto::Response::Error(e) if e.code.0 == 429))
            .count();
        assert_eq!(refused, 0, "a 64-item batch under max_concurrent = 2");
        assert!(answers
            .iter()
            .all(|r| matches!(r, pqsig_proto::Response::Signature(_))));
    }
}

#[test]
fn tokens_reload_from_the_token_file_and_expire() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = path_in(&dir, "tokens.toml");
    let entry = |name: &str, secret: &str, extra: &str| {
        format!(
            "[[token]]\nname = \"{name}\"\ntoken = \"{secret}\"\nkeys = [\"*\"]\noperations = [\"verify\"]\n{extra}\n"
        )
    };
    std::fs::write(
        &tokens,
        entry("old", "old-rotating-secret", "")
            + &entry(
                "past",
                "already-expired-secret",
                "expires_at = 2001-01-01T00:00:00Z",
            ),
    )
    .unwrap();
    let mut cfg = config(&base_toml(), path_in(&dir, "k.db").to_string_lossy().into());
    cfg.token_file = Some(tokens.clone());
    let s = TestServer::start_cfg(cfg);
    let verify = json!({ "public_key": "", "alg": "ML-DSA-44", "message": "", "signature": "" });
    let code = |tok: &str| s.call("POST", "/v1/verify", Some(tok), Some(&verify)).0;
    assert_ne!(code("old-rotating-secret"), 401);
    let got = s.call(
        "POST",
        "/v1/verify",
        Some("already-expired-secret"),
        Some(&verify),
    );
    assert_error(got, 401, "token_expired");
    assert_eq!(code("new-rotating-secret"), 401);
    // Rotate: the file now holds only the new token; reload (what SIGHUP does).
    std::fs::write(&tokens, entry("new", "new-rotating-secret", "")).unwrap();
    let svc = s.server.as_ref().unwrap().service();
    assert_eq!(
        svc.reload_tokens().unwrap(),
        5,
        "four inline tokens and the new one"
    );
    assert_eq!(code("old-rotating-secret"), 401);
    assert_ne!(code("new-rotating-secret"), 401);
    // A broken file keeps the tokens in force.
    std::fs::write(&tokens, "[[token]]\nname = 1\n").unwrap();
    assert!(svc.reload_tokens().is_err());
    assert_ne!(code("new-rotating-secret"), 401);
}

#[test]
fn the_documented_example_config_starts_a_server() {
    let doc = include_str!("../../../docs/SERVER.md");
    let start = doc
        .find("```toml\nlisten = ")
        .expect("SERVER.md has the example config");
    let body = &doc[start + "```toml\n".len()..];
    let toml_text = &body[..body.find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let kek = path_in(&dir, "kek.bin");
    std::fs::write(&kek, [7u8; 32]).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&kek, std::fs::Permissions::from_mode(0o600)).unwrap();
    // Verbatim, except the relative paths, which the test puts in its own directory.
    let toml_text = toml_text
        .replace(
            "\"pqsig-server.db\"",
            &format!("{:?}", path_in(&dir, "k.db")),
        )
        .replace("\"kek.bin\"", &format!("{kek:?}"));
    let file = pqsig_server::FileConfig::parse(&toml_text).expect("the example parses");
    let mut cfg = pqsig_server::ServerConfig::from_file(file).expect("the example is valid");
    cfg.listen = "127.0.0.1:0".parse().unwrap();
    let s = TestServer::start_cfg(cfg);
    let (st, v) = s.call(
        "POST",
        "/v1/keys",
        Some("replace-with-a-random-secret-0123"),
        Some(&json!({ "alg": "ML-DSA-44" })),
    );
    assert_eq!(st, 201, "{v}");
}

#[test]
fn the_protocol_reports_unsupported_input_as_400_like_http() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(&base_toml(), path_in(&dir, "k.db").to_string_lossy().into());
    cfg.proto_listen = Some("127.0.0.1:0".parse().unwrap());
    let s = TestServer::start_cfg(cfg);
    let pa = s.server.as_ref().unwrap().proto_addr().unwrap();
    let mut c = pqsig_proto::Client::connect(
        &pqsig_proto::Endpoint::Tcp(pa.to_string()),
        Some(Duration::from_secs(10)),
    )
    .unwrap();
    c.hello(ADMIN.as_bytes()).unwrap();
    let r = c.verify(pqsig_proto::VerifyRequest {
        key: pqsig_proto::KeyRef::Inline {
            algorithm: "NOT-AN-ALGORITHM".into(),
            public_key: vec![1, 2, 3],
        },
        input: pqsig_proto::Input::Message(b"m".to_vec()),
        context: Vec::new(),
        signature: vec![0; 16],
    });
    match r {
        Err(pqsig_proto::ClientError::Server(e)) => {
            assert_eq!(e.code.0, 400, "{}", e.message);
            assert!(e.message.starts_with("unknown_algorithm"), "{}", e.message);
        }
        other => panic!("expected ERROR 400, got {other:?}"),
    }
}
