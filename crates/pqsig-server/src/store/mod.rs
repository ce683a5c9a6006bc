//! The key store: one blocking trait, two backends (SQLite by default, PostgreSQL for
//! several instances sharing keys). Rows hold public keys in the clear and seeds sealed
//! by the key-encryption key; deletion is soft and every change leaves an audit row.

pub mod migrations;
pub mod postgres;
pub mod sqlite;

use std::time::{SystemTime, UNIX_EPOCH};

/// A store failure (I/O, SQL, schema); reported to clients without details, as a 503
/// with Retry-After when the store is unreachable or did not answer in time, as a 500
/// otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError {
    /// What failed (logged, never sent to clients).
    pub message: String,
    /// Whether the store was unreachable or timed out (a retry may succeed).
    pub unavailable: bool,
}

impl StoreError {
    /// A failure of the store's answer (SQL, schema, data).
    pub fn new(message: impl Into<String>) -> Self {
        StoreError {
            message: message.into(),
            unavailable: false,
        }
    }
    /// The store could not be reached or did not answer in time.
    pub fn unavailable(message: impl Into<String>) -> Self {
        StoreError {
            message: message.into(),
            unavailable: true,
        }
    }
}

impl core::fmt::Display for StoreError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "key store: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

/// One stored key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRecord {
    /// Random identifier (32 hex digits).
    pub id: String,
    /// Canonical algorithm name (`ML-DSA-65`).
    pub alg: String,
    /// Standard public-key encoding.
    pub public_key: Vec<u8>,
    /// nonce ‖ AES-256-GCM(seed) under the key-encryption key.
    pub sealed_seed: Vec<u8>,
    /// Unix seconds.
    pub created_at: i64,
    /// Token name that created it.
    pub created_by: String,
    /// Unix seconds of the soft delete, if deleted.
    pub deleted_at: Option<i64>,
    /// Token name that deleted it.
    pub deleted_by: Option<String>,
    /// HMAC of every other field under a KEK-derived key (`Service` computes and checks
    /// it): a row edited without the KEK no longer matches. `None` only in rows written
    /// before schema version 3, until the first start authenticates them.
    pub row_mac: Option<Vec<u8>>,
}

/// One audit-trail row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEvent {
    /// The key concerned.
    pub key_id: String,
    /// `created` or `deleted`.
    pub action: String,
    /// Token name.
    pub actor: String,
    /// Unix seconds.
    pub at: i64,
}

/// What a delete did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeleteOutcome {
    /// The key was live and is now deleted.
    Deleted,
    /// The key was already deleted (nothing changed).
    AlreadyDeleted,
    /// No such key.
    NotFound,
}

/// The store interface. Methods block (they run on the blocking pool, never on the async
/// executor); every write is one transaction together with its audit row.
pub trait KeyStore: Send + Sync {
    /// `sqlite` or `postgres`.
    fn backend(&self) -> &'static str;
    /// The schema version after migrations.
    fn schema_version(&self) -> Result<i64, StoreError>;
    /// Inserts a new key and its `created` audit row.
    fn insert_key(&self, rec: &KeyRecord) -> Result<(), StoreError>;
    /// One key, deleted or not.
    fn get_key(&self, id: &str) -> Result<Option<KeyRecord>, StoreError>;
    /// All keys in creation order, optionally with the deleted ones.
    fn list_keys(&self, include_deleted: bool) -> Result<Vec<KeyRecord>, StoreError>;
    /// Soft-deletes a key and writes its `deleted` audit row; `mac` gives the row's new
    /// authentication tag (computed over the row as deleted, inside the transaction).
    fn delete_key(
        &self,
        id: &str,
        actor: &str,
        at: i64,
        mac: &dyn Fn(&KeyRecord) -> Vec<u8>,
    ) -> Result<DeleteOutcome, StoreError>;
    /// Sets the authentication tag of a row that has none (pre-version-3 rows, once).
    fn set_row_mac(&self, id: &str, mac: &[u8]) -> Result<(), StoreError>;
    /// The audit trail of one key, oldest first.
    fn audit_log(&self, id: &str) -> Result<Vec<AuditEvent>, StoreError>;
    /// The value stored under `name`, if any.
    fn meta_get(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError>;
    /// Stores `value` under `name` unless a value is already there; returns the stored
    /// value (so concurrent first starts agree on one).
    fn meta_get_or_put(&self, name: &str, value: &[u8]) -> Result<Vec<u8>, StoreError>;
}

/// Opens the store a `--db` value names: a `postgres://` or `postgresql://` URL, or a
/// SQLite file path (created on first run). Runs pending migrations.
pub fn open(db: &str, pg: &postgres::PgOptions) -> Result<Box<dyn KeyStore>, StoreError> {
    if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        Ok(Box::new(postgres::PostgresStore::open(db, pg)?))
    } else {
        Ok(Box::new(sqlite::SqliteStore::open(std::path::Path::new(
            db,
        ))?))
    }
}

/// Seconds since the Unix epoch.
pub fn now_unix() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}
