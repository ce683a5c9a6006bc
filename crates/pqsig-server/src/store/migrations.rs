//! Versioned schema migrations, one list per SQL dialect. Each step runs in the same
//! transaction as the row recording it in `schema_migrations`, so a crash never leaves a
//! half-applied version. Steps are append-only: never edit a released one.

/// One schema version: its number and the statements that reach it.
pub struct Migration {
    /// Version number, 1-based and consecutive.
    pub version: i64,
    /// What it does (kept in the table for operators).
    pub description: &'static str,
    /// SQL statements, run in order.
    pub sql: &'static [&'static str],
}

/// The bookkeeping table, identical in both dialects.
pub const CREATE_MIGRATIONS_TABLE: &str = "CREATE TABLE IF NOT EXISTS schema_migrations (\
     version BIGINT PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)";

/// SQLite schema history.
pub const SQLITE: &[Migration] = &[
    Migration {
        version: 1,
        description: "keys, audit trail, metadata",
        sql: &[
            "CREATE TABLE keys (id TEXT PRIMARY KEY, alg TEXT NOT NULL, public_key BLOB NOT NULL, \
             sealed_seed BLOB NOT NULL, created_at INTEGER NOT NULL, created_by TEXT NOT NULL, \
             deleted_at INTEGER, deleted_by TEXT)",
            "CREATE TABLE audit (seq INTEGER PRIMARY KEY AUTOINCREMENT, key_id TEXT NOT NULL, \
             action TEXT NOT NULL, actor TEXT NOT NULL, at INTEGER NOT NULL)",
            "CREATE TABLE meta (name TEXT PRIMARY KEY, value BLOB NOT NULL)",
        ],
    },
    Migration {
        version: 2,
        description: "audit lookup by key",
        sql: &["CREATE INDEX audit_key_id ON audit (key_id, seq)"],
    },
    Migration {
        version: 3,
        description: "row authentication tag (HMAC under a KEK-derived key)",
        sql: &["ALTER TABLE keys ADD COLUMN row_mac BLOB"],
    },
];

/// PostgreSQL schema history (same logical schema as SQLite).
pub const POSTGRES: &[Migration] = &[
    Migration {
        version: 1,
        description: "keys, audit trail, metadata",
        sql: &[
            "CREATE TABLE keys (id TEXT PRIMARY KEY, alg TEXT NOT NULL, public_key BYTEA NOT NULL, \
             sealed_seed BYTEA NOT NULL, created_at BIGINT NOT NULL, created_by TEXT NOT NULL, \
             deleted_at BIGINT, deleted_by TEXT)",
            "CREATE TABLE audit (seq BIGSERIAL PRIMARY KEY, key_id TEXT NOT NULL, \
             action TEXT NOT NULL, actor TEXT NOT NULL, at BIGINT NOT NULL)",
            "CREATE TABLE meta (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
        ],
    },
    Migration {
        version: 2,
        description: "audit lookup by key",
        sql: &["CREATE INDEX audit_key_id ON audit (key_id, seq)"],
    },
    Migration {
        version: 3,
        description: "row authentication tag (HMAC under a KEK-derived key)",
        sql: &["ALTER TABLE keys ADD COLUMN row_mac BYTEA"],
    },
];

/// The refusal for a database written by a newer server.
pub fn too_new(found: i64, known: i64) -> String {
    format!("database schema version {found} is newer than this server understands ({known}); upgrade pqsig")
}
