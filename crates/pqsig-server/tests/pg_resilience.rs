//! The PostgreSQL store when the database misbehaves (issue 20, item 5): a server that
//! accepts connections and never answers, a frozen server (SIGSTOP), and a restarted one.
//! Every store call is bounded by `store_timeout_ms`; past it the service answers 503
//! `store_unavailable` with Retry-After rather than hanging, and it reconnects by itself.

mod common;

use common::pg::PgCluster;
use common::*;
use pqsig_server::store::{self, postgres::PgOptions};
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn a_server_that_never_answers_is_unavailable_within_the_timeout() {
    // Accepts, then holds every connection without a byte: the startup handshake stalls.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming().flatten() {
            held.push(c);
        }
    });
    let opts = PgOptions {
        timeout: Duration::from_millis(300),
        pool_size: 2,
    };
    let t0 = Instant::now();
    let err = store::open(&format!("postgres://u@127.0.0.1:{port}/db"), &opts)
        .err()
        .expect("no answer, no store");
    assert!(err.unavailable, "{err}");
    assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    // TLS demanded of a server that cannot do it: refused, within the timeout too.
    let t0 = Instant::now();
    let err = store::open(
        &format!("postgres://u@127.0.0.1:{port}/db?sslmode=verify-full"),
        &opts,
    )
    .err()
    .expect("no TLS, no store");
    assert!(t0.elapsed() < Duration::from_secs(3), "{err}");
}

#[test]
fn a_frozen_or_restarted_postgres_gives_503_then_recovers() {
    let Some(pg) = PgCluster::start("a_frozen_or_restarted_postgres_gives_503_then_recovers")
    else {
        return;
    };
    let url = pg.database("resilience");
    let toml = base_toml().replace(
        "[limits]\n",
        "[limits]\nstore_timeout_ms = 500\nstore_pool_size = 2\n",
    );
    let s = TestServer::start_cfg(config(&toml, url));
    let key = s.create_key("ML-DSA-44");
    s.sign_checked(&key, ADMIN, b"before");
    // Frozen: every process of the cluster stopped.
    pg.signal("STOP");
    let t0 = Instant::now();
    let resp = s.client.get(format!("{}/healthz", s.base)).send().unwrap();
    let waited = t0.elapsed();
    let retry_after = resp.headers().get("retry-after").cloned();
    let status = resp.status().as_u16();
    let id = key["id"].as_str().unwrap();
    let got = s.call(
        "POST",
        &format!("/v1/keys/{id}/sign"),
        Some(ADMIN),
        Some(&json!({ "message": b64(b"frozen") })),
    );
    pg.signal("CONT");
    assert_eq!(status, 503, "healthz while frozen");
    assert!(retry_after.is_some(), "Retry-After on 503");
    assert!(waited < Duration::from_secs(3), "answered in {waited:?}");
    assert_error(got, 503, "store_unavailable");
    // Thawed: back without a restart of pqsig.
    let t0 = Instant::now();
    loop {
        let (st, _) = s.call("GET", "/healthz", None, None);
        if st == 200 {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "healthz recovers");
        std::thread::sleep(Duration::from_millis(100));
    }
    s.sign_checked(&key, ADMIN, b"thawed");
    // Restarted: the pooled connections are dead; the first request still succeeds.
    pg.restart();
    s.sign_checked(&key, ADMIN, b"after restart");
    let (st, _) = s.call("GET", "/healthz", None, None);
    assert_eq!(st, 200);
}
