//! SQLite backend (bundled SQLite, one file, WAL journal). One connection behind a mutex:
//! key-store traffic is creation, deletion and cache misses, not the signing hot path.

use super::migrations::{self, Migration};
use super::{AuditEvent, DeleteOutcome, KeyRecord, KeyStore, StoreError};
use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};
use std::path::Path;
use std::sync::Mutex;

fn err(e: rusqlite::Error) -> StoreError {
    StoreError::new(e.to_string())
}

/// The SQLite key store.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

const KEY_COLUMNS: &str =
    "id, alg, public_key, sealed_seed, created_at, created_by, deleted_at, deleted_by, row_mac";

fn key_row(r: &Row<'_>) -> rusqlite::Result<KeyRecord> {
    Ok(KeyRecord {
        id: r.get(0)?,
        alg: r.get(1)?,
        public_key: r.get(2)?,
        sealed_seed: r.get(3)?,
        created_at: r.get(4)?,
        created_by: r.get(5)?,
        deleted_at: r.get(6)?,
        deleted_by: r.get(7)?,
        row_mac: r.get(8)?,
    })
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and migrates it.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        create_private(path)?;
        let mut conn = Connection::open(path)
            .map_err(|e| StoreError::new(format!("cannot open {}: {e}", path.display())))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(err)?;
        migrate(&mut conn, migrations::SQLITE)?;
        Self::restrict_files(path)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    /// Restricts the database and its WAL/shared-memory side files to the owner: they
    /// hold sealed seeds and the audit trail.
    fn restrict_files(path: &Path) -> Result<(), StoreError> {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let p = std::path::PathBuf::from(p);
            if p.exists() {
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).map_err(
                    |e| StoreError::new(format!("cannot chmod 600 {}: {e}", p.display())),
                )?;
            }
        }
        Ok(())
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half-done (rusqlite
        // rolls back on drop), so a poisoned lock is safe to reuse.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Creates the database file owner-only (0600) before SQLite opens it, so it is never
/// readable by others even for a moment; an existing file is left for `restrict_files`.
fn create_private(path: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::new(format!(
            "cannot create {}: {e}",
            path.display()
        ))),
    }
}

fn migrate(conn: &mut Connection, steps: &[Migration]) -> Result<(), StoreError> {
    // IMMEDIATE: takes the write lock first, so two processes never migrate at once.
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(err)?;
    tx.execute(migrations::CREATE_MIGRATIONS_TABLE, [])
        .map_err(err)?;
    let current: i64 = tx
        .query_row(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            [],
            |r| r.get(0),
        )
        .map_err(err)?;
    let known = steps.last().map_or(0, |m| m.version);
    if current > known {
        return Err(StoreError::new(migrations::too_new(current, known)));
    }
    for m in steps.iter().filter(|m| m.version > current) {
        for sql in m.sql {
            tx.execute(sql, []).map_err(err)?;
        }
        tx.execute(
            "INSERT INTO schema_migrations (version, description, applied_at) VALUES (?1, ?2, ?3)",
            params![m.version, m.description, super::now_unix()],
        )
        .map_err(err)?;
    }
    tx.commit().map_err(err)
}

impl KeyStore for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn schema_version(&self) -> Result<i64, StoreError> {
        self.conn()
            .query_row("SELECT MAX(version) FROM schema_migrations", [], |r| {
                r.get(0)
            })
            .map_err(err)
    }

    fn insert_key(&self, k: &KeyRecord) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction().map_err(err)?;
        tx.execute(
            &format!(
                "INSERT INTO keys ({KEY_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
            ),
            params![
                k.id,
                k.alg,
                k.public_key,
                k.sealed_seed,
                k.created_at,
                k.created_by,
                k.deleted_at,
                k.deleted_by,
                k.row_mac
            ],
        )
        .map_err(err)?;
        tx.execute(
            "INSERT INTO audit (key_id, action, actor, at) VALUES (?1, 'created', ?2, ?3)",
            params![k.id, k.created_by, k.created_at],
        )
        .map_err(err)?;
        tx.commit().map_err(err)
    }

    fn get_key(&self, id: &str) -> Result<Option<KeyRecord>, StoreError> {
        self.conn()
            .query_row(
                &format!("SELECT {KEY_COLUMNS} FROM keys WHERE id = ?1"),
                [id],
                key_row,
            )
            .optional()
            .map_err(err)
    }

    fn list_keys(&self, include_deleted: bool) -> Result<Vec<KeyRecord>, StoreError> {
        let conn = self.conn();
        let filter = if include_deleted {
            ""
        } else {
            "WHERE deleted_at IS NULL"
        };
        let mut stmt = conn
            .prepare(&format!(
                "SELECT {KEY_COLUMNS} FROM keys {filter} ORDER BY created_at, id"
            ))
            .map_err(err)?;
        let rows = stmt.query_map([], key_row).map_err(err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(err)
    }

    fn delete_key(
        &self,
        id: &str,
        actor: &str,
        at: i64,
        mac: &dyn Fn(&KeyRecord) -> Vec<u8>,
    ) -> Result<DeleteOutcome, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let state: Option<KeyRecord> = tx
            .query_row(
                &format!("SELECT {KEY_COLUMNS} FROM keys WHERE id = ?1"),
                [id],
                key_row,
            )
            .optional()
            .map_err(err)?;
        let outcome = match state {
            None => DeleteOutcome::NotFound,
            Some(r) if r.deleted_at.is_some() => DeleteOutcome::AlreadyDeleted,
            Some(mut r) => {
                r.deleted_at = Some(at);
                r.deleted_by = Some(actor.to_string());
                tx.execute(
                    "UPDATE keys SET deleted_at = ?2, deleted_by = ?3, row_mac = ?4 WHERE id = ?1",
                    params![id, at, actor, mac(&r)],
                )
                .map_err(err)?;
                tx.execute(
                    "INSERT INTO audit (key_id, action, actor, at) VALUES (?1, 'deleted', ?2, ?3)",
                    params![id, actor, at],
                )
                .map_err(err)?;
                DeleteOutcome::Deleted
            }
        };
        tx.commit().map_err(err)?;
        Ok(outcome)
    }

    fn set_row_mac(&self, id: &str, mac: &[u8]) -> Result<(), StoreError> {
        self.conn()
            .execute(
                "UPDATE keys SET row_mac = ?2 WHERE id = ?1 AND row_mac IS NULL",
                params![id, mac],
            )
            .map(|_| ())
            .map_err(err)
    }

    fn audit_log(&self, id: &str) -> Result<Vec<AuditEvent>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT key_id, action, actor, at FROM audit WHERE key_id = ?1 ORDER BY seq")
            .map_err(err)?;
        let rows = stmt
            .query_map([id], |r| {
                Ok(AuditEvent {
                    key_id: r.get(0)?,
                    action: r.get(1)?,
                    actor: r.get(2)?,
                    at: r.get(3)?,
                })
            })
            .map_err(err)?;
        rows.collect::<Result<Vec<_>, _>>().map_err(err)
    }

    fn meta_get(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.conn()
            .query_row("SELECT value FROM meta WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .optional()
            .map_err(err)
    }

    fn meta_get_or_put(&self, name: &str, value: &[u8]) -> Result<Vec<u8>, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        tx.execute(
            "INSERT OR IGNORE INTO meta (name, value) VALUES (?1, ?2)",
            params![name, value],
        )
        .map_err(err)?;
        let stored: Vec<u8> = tx
            .query_row("SELECT value FROM meta WHERE name = ?1", [name], |r| {
                r.get(0)
            })
            .map_err(err)?;
        tx.commit().map_err(err)?;
        Ok(stored)
    }
}
