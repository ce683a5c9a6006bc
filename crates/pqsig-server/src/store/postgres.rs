//! PostgreSQL backend, for several service instances behind a load balancer sharing one
//! key set. Uses the synchronous `postgres` client (the store trait is blocking and runs
//! on the blocking pool); one connection behind a mutex, reopened when it breaks.
//! Migrations take a transaction-scoped advisory lock so concurrent first starts of
//! several instances apply each version once.

use super::migrations::{self, Migration};
use super::{AuditEvent, DeleteOutcome, KeyRecord, KeyStore, StoreError};
use postgres::{Client, NoTls, Row};
use std::sync::Mutex;

/// Arbitrary constant naming the migration advisory lock.
const MIGRATION_LOCK: i64 = 0x7071_7369_6700_0001;

fn err(e: postgres::Error) -> StoreError {
    StoreError(e.to_string())
}

/// The PostgreSQL key store.
pub struct PostgresStore {
    url: String,
    /// `None` only while being dropped.
    client: Mutex<Option<Client>>,
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        // Closing the synchronous client blocks on its private runtime, which panics when
        // the last reference is dropped inside an async task: close it on a plain thread.
        let client = self
            .client
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(c) = client {
            let _ = std::thread::spawn(move || drop(c)).join();
        }
    }
}

const KEY_COLUMNS: &str =
    "id, alg, public_key, sealed_seed, created_at, created_by, deleted_at, deleted_by";

fn key_row(r: &Row) -> KeyRecord {
    KeyRecord {
        id: r.get(0),
        alg: r.get(1),
        public_key: r.get(2),
        sealed_seed: r.get(3),
        created_at: r.get(4),
        created_by: r.get(5),
        deleted_at: r.get(6),
        deleted_by: r.get(7),
    }
}

impl PostgresStore {
    /// Connects (the URL is a libpq-style `postgres://user@host:port/db`) and migrates.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let mut client = Client::connect(url, NoTls)
            .map_err(|e| StoreError(format!("cannot connect to PostgreSQL: {e}")))?;
        migrate(&mut client, migrations::POSTGRES)?;
        Ok(PostgresStore {
            url: url.to_string(),
            client: Mutex::new(Some(client)),
        })
    }

    /// Runs `f` on a live connection, reconnecting once when the old one was closed.
    fn with<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        let mut guard = self.client.lock().unwrap_or_else(|p| p.into_inner());
        if guard.as_ref().is_none_or(|c| c.is_closed()) {
            *guard = Some(
                Client::connect(&self.url, NoTls)
                    .map_err(|e| StoreError(format!("cannot reconnect to PostgreSQL: {e}")))?,
            );
        }
        match guard.as_mut() {
            Some(c) => f(c).map_err(err),
            None => Err(StoreError("no PostgreSQL connection".into())),
        }
    }
}

fn migrate(client: &mut Client, steps: &[Migration]) -> Result<(), StoreError> {
    let mut tx = client.transaction().map_err(err)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(err)?;
    tx.batch_execute(migrations::CREATE_MIGRATIONS_TABLE)
        .map_err(err)?;
    let current: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_migrations",
            &[],
        )
        .map_err(err)?
        .get(0);
    let known = steps.last().map_or(0, |m| m.version);
    if current > known {
        return Err(StoreError(migrations::too_new(current, known)));
    }
    for m in steps.iter().filter(|m| m.version > current) {
        for sql in m.sql {
            tx.batch_execute(sql).map_err(err)?;
        }
        tx.execute(
            "INSERT INTO schema_migrations (version, description, applied_at) VALUES ($1, $2, $3)",
            &[&m.version, &m.description, &super::now_unix()],
        )
        .map_err(err)?;
    }
    tx.commit().map_err(err)
}

impl KeyStore for PostgresStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn schema_version(&self) -> Result<i64, StoreError> {
        self.with(|c| {
            Ok(
                c.query_one("SELECT MAX(version)::BIGINT FROM schema_migrations", &[])?
                    .get(0),
            )
        })
    }

    fn insert_key(&self, k: &KeyRecord) -> Result<(), StoreError> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                &format!(
                    "INSERT INTO keys ({KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                ),
                &[
                    &k.id,
                    &k.alg,
                    &k.public_key,
                    &k.sealed_seed,
                    &k.created_at,
                    &k.created_by,
                    &k.deleted_at,
                    &k.deleted_by,
                ],
            )?;
            tx.execute(
                "INSERT INTO audit (key_id, action, actor, at) VALUES ($1, 'created', $2, $3)",
                &[&k.id, &k.created_by, &k.created_at],
            )?;
            tx.commit()
        })
    }

    fn get_key(&self, id: &str) -> Result<Option<KeyRecord>, StoreError> {
        self.with(|c| {
            Ok(c.query_opt(
                &format!("SELECT {KEY_COLUMNS} FROM keys WHERE id = $1"),
                &[&id],
            )?
            .map(|r| key_row(&r)))
        })
    }

    fn list_keys(&self, include_deleted: bool) -> Result<Vec<KeyRecord>, StoreError> {
        let filter = if include_deleted {
            ""
        } else {
            "WHERE deleted_at IS NULL"
        };
        self.with(|c| {
            let rows = c.query(
                &format!("SELECT {KEY_COLUMNS} FROM keys {filter} ORDER BY created_at, id"),
                &[],
            )?;
            Ok(rows.iter().map(key_row).collect())
        })
    }

    fn delete_key(&self, id: &str, actor: &str, at: i64) -> Result<DeleteOutcome, StoreError> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            // FOR UPDATE: two instances deleting at once write one audit row.
            let state = tx.query_opt("SELECT deleted_at FROM keys WHERE id = $1 FOR UPDATE", &[&id])?;
            let outcome = match state.map(|r| r.get::<_, Option<i64>>(0)) {
                None => DeleteOutcome::NotFound,
                Some(Some(_)) => DeleteOutcome::AlreadyDeleted,
                Some(None) => {
                    tx.execute("UPDATE keys SET deleted_at = $2, deleted_by = $3 WHERE id = $1", &[&id, &at, &actor])?;
                    tx.execute(
                        "INSERT INTO audit (key_id, action, actor, at) VALUES ($1, 'deleted', $2, $3)",
                        &[&id, &actor, &at],
                    )?;
                    DeleteOutcome::Deleted
                }
            };
            tx.commit()?;
            Ok(outcome)
        })
    }

    fn audit_log(&self, id: &str) -> Result<Vec<AuditEvent>, StoreError> {
        self.with(|c| {
            let rows = c.query(
                "SELECT key_id, action, actor, at FROM audit WHERE key_id = $1 ORDER BY seq",
                &[&id],
            )?;
            Ok(rows
                .iter()
                .map(|r| AuditEvent {
                    key_id: r.get(0),
                    action: r.get(1),
                    actor: r.get(2),
                    at: r.get(3),
                })
                .collect())
        })
    }

    fn meta_get_or_put(&self, name: &str, value: &[u8]) -> Result<Vec<u8>, StoreError> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                &[&name, &value],
            )?;
            let v: Vec<u8> = tx
                .query_one("SELECT value FROM meta WHERE name = $1", &[&name])?
                .get(0);
            tx.commit()?;
            Ok(v)
        })
    }
}
