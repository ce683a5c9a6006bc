//! PostgreSQL backend, for several service instances behind a load balancer sharing one
//! key set. `tokio-postgres` on a small runtime of the store's own: the store trait is
//! blocking (it runs on the blocking pool), so each call waits on that runtime.
//!
//! - A pool of up to `pool_size` connections; a connection that broke is dropped and the
//!   next call opens a fresh one (so a restarted PostgreSQL costs no failed request).
//! - Every call, waiting for a connection included, is bounded by `timeout`; past it
//!   the connection is abandoned and the call fails as *unavailable* (503 + Retry-After),
//!   so a frozen server cannot hang requests. `statement_timeout` is also set
//!   server-side.
//! - TLS via rustls (see `PgTls`), with certificate and host-name verification.
//!
//! Migrations take a transaction-scoped advisory lock so concurrent first starts of
//! several instances apply each version once.

use super::migrations::{self, Migration};
use super::{AuditEvent, DeleteOutcome, KeyRecord, KeyStore, StoreError};
use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_postgres::{Client, Row};

/// Arbitrary constant naming the migration advisory lock.
const MIGRATION_LOCK: i64 = 0x7071_7369_6700_0001;

/// How the store reaches PostgreSQL.
#[derive(Clone, Debug)]
pub struct PgOptions {
    /// Bound on each store call (connecting and waiting for a pooled connection included).
    pub timeout: Duration,
    /// Most connections open at once.
    pub pool_size: usize,
}

impl Default for PgOptions {
    fn default() -> Self {
        PgOptions {
            timeout: Duration::from_secs(5),
            pool_size: 8,
        }
    }
}

/// TLS mode (the URL's `sslmode`): `disable`, or `require` / `verify-full`, which both
/// verify the server's chain and host name (pqsig never accepts an unverified server;
/// libpq's unverified `require` has no equivalent here). Without `sslmode`, loopback and
/// Unix-socket hosts default to `disable`, every other host to `verify-full`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SslMode {
    /// Plain TCP.
    Disable,
    /// TLS, chain verified against the roots, host name checked.
    VerifyFull,
}

/// The parsed connection settings.
struct Target {
    config: tokio_postgres::Config,
    ssl: SslMode,
    /// `sslrootcert`: PEM roots; the Mozilla roots (webpki-roots) when absent.
    root_cert: Option<String>,
}

/// Splits pqsig's own URL parameters (`sslmode`, `sslrootcert`) off; the rest is parsed
/// by tokio-postgres.
fn parse_target(url: &str) -> Result<Target, StoreError> {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let (mut ssl, mut root_cert, mut rest) = (None, None, Vec::new());
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("sslmode", v)) => {
                ssl = Some(match v {
                    "disable" => SslMode::Disable,
                    "require" | "verify-full" => SslMode::VerifyFull,
                    other => {
                        return Err(StoreError::new(format!(
                            "PostgreSQL URL: sslmode {other:?} is not supported (disable, require, verify-full)"
                        )))
                    }
                })
            }
            Some(("sslrootcert", v)) => root_cert = Some(v.to_string()),
            _ => rest.push(pair),
        }
    }
    let plain = if rest.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", rest.join("&"))
    };
    let config: tokio_postgres::Config = plain
        .parse()
        .map_err(|e| StoreError::new(format!("PostgreSQL URL: {e}")))?;
    let local = config.get_hosts().iter().all(|h| match h {
        tokio_postgres::config::Host::Tcp(name) => {
            name == "localhost"
                || name
                    .trim_matches(|c| c == '[' || c == ']')
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        #[cfg(unix)]
        tokio_postgres::config::Host::Unix(_) => true,
    });
    let ssl = ssl.unwrap_or(if local {
        SslMode::Disable
    } else {
        SslMode::VerifyFull
    });
    if ssl == SslMode::Disable && !local {
        crate::log!(
            "WARNING: PostgreSQL connection without TLS (sslmode=disable) to a non-loopback host"
        );
    }
    Ok(Target {
        config,
        ssl,
        root_cert,
    })
}

/// The TLS connector for `VerifyFull`.
fn tls_connector(
    root_cert: Option<&str>,
) -> Result<tokio_postgres_rustls::MakeRustlsConnect, StoreError> {
    use rustls::pki_types::{pem::PemObject, CertificateDer};
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut roots = rustls::RootCertStore::empty();
    match root_cert {
        Some(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .and_then(|it| it.collect::<Result<Vec<_>, _>>())
                .map_err(|e| StoreError::new(format!("sslrootcert {path}: {e}")))?;
            if certs.is_empty() {
                return Err(StoreError::new(format!(
                    "sslrootcert {path}: no certificates"
                )));
            }
            for c in certs {
                roots
                    .add(c)
                    .map_err(|e| StoreError::new(format!("sslrootcert {path}: {e}")))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let config = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

fn err(e: tokio_postgres::Error) -> StoreError {
    // A closed connection or an I/O failure says the server is unreachable (503);
    // anything else is an answer from it (500).
    if e.is_closed() || std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>()) {
        StoreError::unavailable(format!("PostgreSQL: {e}"))
    } else {
        StoreError::new(format!("PostgreSQL: {e}"))
    }
}

/// The PostgreSQL key store.
pub struct PostgresStore {
    /// `None` only while being dropped.
    rt: Option<tokio::runtime::Runtime>,
    config: tokio_postgres::Config,
    tls: Option<tokio_postgres_rustls::MakeRustlsConnect>,
    /// Idle connections, reused last-in first-out.
    idle: Mutex<Vec<Client>>,
    /// One permit per connection that may be open.
    slots: Semaphore,
    timeout: Duration,
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        // Never blocks (dropping a runtime inside an async task would panic).
        if let Some(rt) = self.rt.take() {
            rt.shutdown_background();
        }
    }
}

const KEY_COLUMNS: &str =
    "id, alg, public_key, sealed_seed, created_at, created_by, deleted_at, deleted_by, row_mac";

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
        row_mac: r.get(8),
    }
}

type Outcome<T> = (Client, Result<T, tokio_postgres::Error>);

impl PostgresStore {
    /// Connects (the URL is a libpq-style `postgres://user@host:port/db[?sslmode=...]`)
    /// and migrates.
    pub fn open(url: &str, opts: &PgOptions) -> Result<Self, StoreError> {
        let target = parse_target(url)?;
        let mut config = target.config;
        config.connect_timeout(opts.timeout);
        config.keepalives(true);
        config.keepalives_idle(Duration::from_secs(30));
        // Server-side bound as well (the client-side one covers a frozen server).
        config.options(format!(
            "-c statement_timeout={}",
            opts.timeout.as_millis().max(1)
        ));
        let tls = match target.ssl {
            SslMode::Disable => None,
            SslMode::VerifyFull => Some(tls_connector(target.root_cert.as_deref())?),
        };
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("pqsig-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError::new(format!("cannot start the PostgreSQL runtime: {e}")))?;
        let store = PostgresStore {
            rt: Some(rt),
            config,
            tls,
            idle: Mutex::new(Vec::new()),
            slots: Semaphore::new(opts.pool_size.max(1)),
            timeout: opts.timeout,
        };
        let too_new = store
            .with(|mut c| async move {
                let r = migrate(&mut c, migrations::POSTGRES).await;
                (c, r)
            })
            .map_err(|e| StoreError {
                message: format!("cannot open the PostgreSQL store: {}", e.message),
                ..e
            })?;
        match too_new {
            Some(reason) => Err(StoreError::new(reason)),
            None => Ok(store),
        }
    }

    async fn connect(&self) -> Result<Client, tokio_postgres::Error> {
        let (client, conn) = match &self.tls {
            Some(tls) => {
                let (c, conn) = self.config.connect(tls.clone()).await?;
                (c, tokio::spawn(conn))
            }
            None => {
                let (c, conn) = self.config.connect(tokio_postgres::NoTls).await?;
                (c, tokio::spawn(conn))
            }
        };
        drop(conn);
        Ok(client)
    }

    /// Runs `f` on a pooled (or fresh) connection within the timeout. When a pooled
    /// connection turns out to be dead (the server restarted since it was last used),
    /// `f` runs once more on a fresh one, so a restart costs no failed request.
    fn with<T, F, Fut>(&self, f: F) -> Result<T, StoreError>
    where
        F: Fn(Client) -> Fut,
        Fut: Future<Output = Outcome<T>>,
    {
        let Some(rt) = &self.rt else {
            return Err(StoreError::unavailable("PostgreSQL store closed"));
        };
        let call = async {
            let _slot = self
                .slots
                .acquire()
                .await
                .map_err(|_| StoreError::unavailable("PostgreSQL store closed"))?;
            let pooled = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
            let mut reused = pooled.filter(|c| !c.is_closed());
            loop {
                let was_pooled = reused.is_some();
                let client = match reused.take() {
                    Some(c) => c,
                    None => self.connect().await.map_err(|e| {
                        StoreError::unavailable(format!("cannot connect to PostgreSQL: {e}"))
                    })?,
                };
                let (client, r) = f(client).await;
                let dead = client.is_closed();
                if !dead {
                    self.idle
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(client);
                }
                match r {
                    Err(e) if dead && was_pooled => {
                        crate::log!("PostgreSQL connection lost ({e}); reconnecting");
                    }
                    r => return r.map_err(err),
                }
            }
        };
        // The timer is made inside the store's runtime (callers may have none).
        match rt.block_on(async { tokio::time::timeout(self.timeout, call).await }) {
            Ok(r) => r,
            // The connection in use was dropped with the future: never reused.
            Err(_) => Err(StoreError::unavailable(format!(
                "PostgreSQL did not answer within {} ms",
                self.timeout.as_millis()
            ))),
        }
    }
}

async fn migrate(
    client: &mut Client,
    steps: &[Migration],
) -> Result<Option<String>, tokio_postgres::Error> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(migrations::CREATE_MIGRATIONS_TABLE)
        .await?;
    let current: i64 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_migrations",
            &[],
        )
        .await?
        .get(0);
    let known = steps.last().map_or(0, |m| m.version);
    if current > known {
        return Ok(Some(migrations::too_new(current, known)));
    }
    for m in steps.iter().filter(|m| m.version > current) {
        for sql in m.sql {
            tx.batch_execute(sql).await?;
        }
        tx.execute(
            "INSERT INTO schema_migrations (version, description, applied_at) VALUES ($1, $2, $3)",
            &[&m.version, &m.description, &super::now_unix()],
        )
        .await?;
    }
    tx.commit().await.map(|()| None)
}

impl KeyStore for PostgresStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    fn schema_version(&self) -> Result<i64, StoreError> {
        self.with(|c| async move {
            let r = c
                .query_one("SELECT MAX(version)::BIGINT FROM schema_migrations", &[])
                .await
                .map(|r| r.get::<_, i64>(0));
            (c, r)
        })
    }

    fn insert_key(&self, k: &KeyRecord) -> Result<(), StoreError> {
        self.with(|mut c| async move {
            let r = async {
                let tx = c.transaction().await?;
                tx.execute(
                    &format!(
                        "INSERT INTO keys ({KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
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
                        &k.row_mac,
                    ],
                )
                .await?;
                tx.execute(
                    "INSERT INTO audit (key_id, action, actor, at) VALUES ($1, 'created', $2, $3)",
                    &[&k.id, &k.created_by, &k.created_at],
                )
                .await?;
                tx.commit().await
            }
            .await;
            (c, r)
        })
    }

    fn get_key(&self, id: &str) -> Result<Option<KeyRecord>, StoreError> {
        self.with(|c| async move {
            let r = c
                .query_opt(
                    &format!("SELECT {KEY_COLUMNS} FROM keys WHERE id = $1"),
                    &[&id],
                )
                .await
                .map(|r| r.map(|r| key_row(&r)));
            (c, r)
        })
    }

    fn list_keys(&self, include_deleted: bool) -> Result<Vec<KeyRecord>, StoreError> {
        let filter = if include_deleted {
            ""
        } else {
            "WHERE deleted_at IS NULL"
        };
        self.with(|c| async move {
            let r = c
                .query(
                    &format!("SELECT {KEY_COLUMNS} FROM keys {filter} ORDER BY created_at, id"),
                    &[],
                )
                .await
                .map(|rows| rows.iter().map(key_row).collect());
            (c, r)
        })
    }

    fn delete_key(
        &self,
        id: &str,
        actor: &str,
        at: i64,
        mac: &dyn Fn(&KeyRecord) -> Vec<u8>,
    ) -> Result<DeleteOutcome, StoreError> {
        self.with(|mut c| async move {
            let r = async {
                let tx = c.transaction().await?;
                // FOR UPDATE: two instances deleting at once write one audit row.
                let row = tx
                    .query_opt(
                        &format!("SELECT {KEY_COLUMNS} FROM keys WHERE id = $1 FOR UPDATE"),
                        &[&id],
                    )
                    .await?;
                let outcome = match row.map(|r| key_row(&r)) {
                    None => DeleteOutcome::NotFound,
                    Some(r) if r.deleted_at.is_some() => DeleteOutcome::AlreadyDeleted,
                    Some(mut r) => {
                        r.deleted_at = Some(at);
                        r.deleted_by = Some(actor.to_string());
                        let tag = mac(&r);
                        tx.execute(
                            "UPDATE keys SET deleted_at = $2, deleted_by = $3, row_mac = $4 WHERE id = $1",
                            &[&id, &at, &actor, &tag],
                        )
                        .await?;
                        tx.execute(
                            "INSERT INTO audit (key_id, action, actor, at) VALUES ($1, 'deleted', $2, $3)",
                            &[&id, &actor, &at],
                        )
                        .await?;
                        DeleteOutcome::Deleted
                    }
                };
                tx.commit().await?;
                Ok::<_, tokio_postgres::Error>(outcome)
            }
            .await;
            (c, r)
        })
    }

    fn set_row_mac(&self, id: &str, tag: &[u8]) -> Result<(), StoreError> {
        self.with(|c| async move {
            let r = c
                .execute(
                    "UPDATE keys SET row_mac = $2 WHERE id = $1 AND row_mac IS NULL",
                    &[&id, &tag],
                )
                .await
                .map(|_| ());
            (c, r)
        })
    }

    fn audit_log(&self, id: &str) -> Result<Vec<AuditEvent>, StoreError> {
        self.with(|c| async move {
            let r = c
                .query(
                    "SELECT key_id, action, actor, at FROM audit WHERE key_id = $1 ORDER BY seq",
                    &[&id],
                )
                .await
                .map(|rows| {
                    rows.iter()
                        .map(|r| AuditEvent {
                            key_id: r.get(0),
                            action: r.get(1),
                            actor: r.get(2),
                            at: r.get(3),
                        })
                        .collect()
                });
            (c, r)
        })
    }

    fn meta_get(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.with(|c| async move {
            let r = c
                .query_opt("SELECT value FROM meta WHERE name = $1", &[&name])
                .await
                .map(|r| r.map(|r| r.get(0)));
            (c, r)
        })
    }

    fn meta_get_or_put(&self, name: &str, value: &[u8]) -> Result<Vec<u8>, StoreError> {
        self.with(|mut c| async move {
            let r = async {
                let tx = c.transaction().await?;
                tx.execute(
                    "INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                    &[&name, &value],
                )
                .await?;
                let v: Vec<u8> = tx
                    .query_one("SELECT value FROM meta WHERE name = $1", &[&name])
                    .await?
                    .get(0);
                tx.commit().await?;
                Ok::<_, tokio_postgres::Error>(v)
            }
            .await;
            (c, r)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_parsing_and_defaults() {
        let t = parse_target("postgres://u@127.0.0.1:5432/db").unwrap();
        assert_eq!(t.ssl, SslMode::Disable);
        let t = parse_target("postgres://u@db.example.com/db").unwrap();
        assert_eq!(t.ssl, SslMode::VerifyFull);
        let t = parse_target("postgres://u@db.example.com/db?sslmode=disable").unwrap();
        assert_eq!(t.ssl, SslMode::Disable);
        let t = parse_target(
            "postgres://u@127.0.0.1/db?sslmode=require&sslrootcert=/x/ca.pem&application_name=p",
        )
        .unwrap();
        assert_eq!(t.ssl, SslMode::VerifyFull);
        assert_eq!(t.root_cert.as_deref(), Some("/x/ca.pem"));
        assert_eq!(t.config.get_application_name(), Some("p"));
        assert!(parse_target("postgres://u@h/db?sslmode=allow").is_err());
    }
}
