//! The key-store contract, run against both backends: SQLite (temporary file) and a real
//! PostgreSQL 15 server the test starts itself (SKIPPED when it is not installed, a
//! failure when PQSIG_REQUIRE_POSTGRES=1). Then the whole HTTP service on PostgreSQL:
//! two instances sharing one store, and restart persistence.

mod common;

use common::pg::PgCluster;
use common::*;
use pqsig_server::store::{self, DeleteOutcome, KeyRecord, KeyStore};
use serde_json::json;

fn record(id: &str, at: i64) -> KeyRecord {
    KeyRecord {
        id: id.into(),
        alg: "ML-DSA-44".into(),
        public_key: vec![1, 2, 3],
        sealed_seed: vec![4, 5, 6, 7],
        created_at: at,
        created_by: "alice".into(),
        deleted_at: None,
        deleted_by: None,
        row_mac: Some(vec![9; 32]),
    }
}

/// A stand-in row tag: the store only stores what it is given.
fn tag(r: &KeyRecord) -> Vec<u8> {
    vec![r.deleted_at.map_or(0, |t| t as u8); 32]
}

/// The contract every backend meets; `reopen` opens the same database again.
fn store_contract(open: &dyn Fn() -> Box<dyn KeyStore>) {
    let s = open();
    assert_eq!(s.schema_version().unwrap(), 3);
    assert_eq!(s.get_key("a").unwrap(), None);
    s.insert_key(&record("a", 100)).unwrap();
    s.insert_key(&record("b", 101)).unwrap();
    // Duplicate id: refused, and the failed transaction leaves no audit row behind.
    assert!(s.insert_key(&record("a", 102)).is_err());
    assert_eq!(s.audit_log("a").unwrap().len(), 1);
    assert_eq!(s.get_key("a").unwrap(), Some(record("a", 100)));
    let ids: Vec<String> = s
        .list_keys(false)
        .unwrap()
        .into_iter()
        .map(|k| k.id)
        .collect();
    assert_eq!(ids, ["a", "b"]);

    assert_eq!(
        s.delete_key("a", "bob", 200, &tag).unwrap(),
        DeleteOutcome::Deleted
    );
    assert_eq!(
        s.delete_key("a", "bob", 201, &tag).unwrap(),
        DeleteOutcome::AlreadyDeleted
    );
    assert_eq!(
        s.delete_key("zz", "bob", 201, &tag).unwrap(),
        DeleteOutcome::NotFound
    );
    let a = s.get_key("a").unwrap().unwrap();
    assert_eq!(
        (a.deleted_at, a.deleted_by.as_deref()),
        (Some(200), Some("bob"))
    );
    assert_eq!(a.sealed_seed, vec![4, 5, 6, 7], "soft delete keeps the row");
    assert_eq!(
        a.row_mac,
        Some(vec![200; 32]),
        "delete stores the new row tag"
    );
    // A tag is only ever filled in, never replaced.
    s.set_row_mac("a", &[1; 32]).unwrap();
    assert_eq!(
        s.get_key("a").unwrap().unwrap().row_mac,
        Some(vec![200; 32])
    );
    assert_eq!(s.meta_get("nothing").unwrap(), None);
    let ids: Vec<String> = s
        .list_keys(false)
        .unwrap()
        .into_iter()
        .map(|k| k.id)
        .collect();
    assert_eq!(ids, ["b"]);
    assert_eq!(s.list_keys(true).unwrap().len(), 2);
    let log: Vec<(String, String, i64)> = s
        .audit_log("a")
        .unwrap()
        .into_iter()
        .map(|e| (e.action, e.actor, e.at))
        .collect();
    assert_eq!(
        log,
        [
            ("created".into(), "alice".into(), 100),
            ("deleted".into(), "bob".into(), 200)
        ]
    );

    // Metadata: first writer wins.
    assert_eq!(s.meta_get_or_put("m", b"one").unwrap(), b"one");
    assert_eq!(s.meta_get_or_put("m", b"two").unwrap(), b"one");
    drop(s);

    // Reopening (migrations already applied) keeps everything.
    let s = open();
    assert_eq!(s.schema_version().unwrap(), 3);
    assert_eq!(s.list_keys(true).unwrap().len(), 2);
    assert_eq!(s.meta_get_or_put("m", b"three").unwrap(), b"one");
}

#[test]
fn sqlite_store_contract() {
    let dir = tempfile::tempdir().unwrap();
    let db = path_in(&dir, "sub.db").to_string_lossy().into_owned();
    store_contract(&|| store::open(&db, &Default::default()).unwrap());
    assert!(
        std::path::Path::new(&db).exists(),
        "one file, created on first run"
    );
    // The database and its WAL side files are owner-only.
    {
        use std::os::unix::fs::PermissionsExt;
        let _open = store::open(&db, &Default::default()).unwrap();
        for suffix in ["", "-wal", "-shm"] {
            let p = format!("{db}{suffix}");
            if let Ok(m) = std::fs::metadata(&p) {
                assert_eq!(m.permissions().mode() & 0o777, 0o600, "{p}");
            } else {
                assert!(!suffix.is_empty(), "database file exists");
            }
        }
    }
    // A database from a newer server is refused.
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute(
        "INSERT INTO schema_migrations (version, description, applied_at) VALUES (99, 'future', 0)",
        [],
    )
    .unwrap();
    drop(c);
    let err = store::open(&db, &Default::default())
        .err()
        .expect("newer schema refused");
    assert!(err.message.contains("newer"), "{err}");
}

#[test]
fn postgres_store_and_service() {
    let Some(pg) = PgCluster::start("postgres_store_and_service") else {
        return;
    };
    // The store contract on its own database.
    let url = pg.database("contract");
    store_contract(&|| store::open(&url, &Default::default()).unwrap());

    // Concurrent first starts: every instance migrates safely (advisory lock).
    let url2 = pg.database("race");
    let opens: Vec<_> = (0..4)
        .map(|_| {
            let u = url2.clone();
            std::thread::spawn(move || {
                store::open(&u, &Default::default()).map(|s| s.schema_version().unwrap())
            })
        })
        .collect();
    for o in opens {
        assert_eq!(o.join().unwrap().expect("concurrent open"), 3);
    }

    // Two service instances on one database, as behind a load balancer.
    let url3 = pg.database("service");
    let mut a = TestServer::start_cfg(config(&base_toml(), url3.clone()));
    let b = TestServer::start_cfg(config(&base_toml(), url3));
    let (_, h) = a.call("GET", "/healthz", None, None);
    assert_eq!(h["store"], "postgres");
    let key = a.create_key("ML-DSA-65");
    let id = key["id"].as_str().unwrap().to_string();
    // Instance B signs with the key A created.
    b.sign_checked(&key, SIGNER, b"pg");
    // Deleted on A: B refuses at once (cache TTL 0 in the test config).
    assert_eq!(
        a.call("DELETE", &format!("/v1/keys/{id}"), Some(ADMIN), None)
            .0,
        200
    );
    assert_error(
        b.call(
            "POST",
            &format!("/v1/keys/{id}/sign"),
            Some(SIGNER),
            Some(&json!({ "message": b64(b"pg") })),
        ),
        410,
        "key_deleted",
    );
    // Restart persistence on PostgreSQL.
    let live = a.create_key("Falcon-512");
    a.restart();
    a.sign_checked(&live, SIGNER, b"again");
    let (_, audit) = b.call("GET", &format!("/v1/keys/{id}/audit"), Some(ADMIN), None);
    assert_eq!(audit["events"].as_array().unwrap().len(), 2, "{audit}");
}
