//! The transport-independent core: authentication, key management, sign and verify
//! (single and batch). Every method blocks and may run cryptography, so transports call
//! it from a blocking pool (the HTTP layer uses `tokio::task::spawn_blocking`); batch
//! methods hand their items to the library's batch engine (`pqsig::batch`) as one batch,
//! which groups them (ML-DSA verified in lockstep) and spreads them over the rayon pool.
//! No HTTP types appear here, so the binary protocol listener can call exactly the same
//! methods.

use crate::auth::{InflightGuard, Op, Principal, TokenTable};
use crate::config::{Limits, ServerConfig};
use crate::error::ApiError;
use crate::fairgate::FairGate;
use crate::kek::Kek;
use crate::keycache::{KeyCache, Lookup};
use crate::metrics::{Metrics, Observation, Outcome};
use crate::store::{self, AuditEvent, DeleteOutcome, KeyRecord, KeyStore};
use bytes::Bytes;
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::batch::{self as engine, Message, SignItem, SignKey, VerifyItem, VerifyKey};
use pqsig::{keyfile, Algorithm};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What is signed or verified: the message itself, or ML-DSA's 64-byte external mu
/// (FIPS 204 §6.2 "external mu"), which lets clients sign arbitrarily large messages.
///
/// Byte fields of the inputs are [`Bytes`]: a binary batch body hands out slices of
/// itself rather than copies (one copy and two allocations per item fewer), and decoded
/// base64 converts from `Vec` without a copy.
#[derive(Clone, Debug)]
pub enum Payload {
    /// The message bytes (capped by `limits.max_message_bytes`).
    Message(Bytes),
    /// The precomputed mu (ML-DSA only).
    Mu(Bytes),
}

/// One signing request.
#[derive(Clone, Debug)]
pub struct SignInput {
    /// Message or mu.
    pub payload: Payload,
    /// Context string (empty unless the algorithm supports one; ignored with mu, which
    /// already binds it).
    pub context: Bytes,
    /// Deterministic (hedge-free) signing where the algorithm offers it.
    pub deterministic: bool,
}

/// Which public key a verification uses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyRef {
    /// A stored key.
    Id(String),
    /// A public key supplied by the caller: PEM text, DER, or raw bytes (raw needs `alg`).
    PublicKey(Vec<u8>),
}

/// One verification request.
#[derive(Clone, Debug)]
pub struct VerifyInput {
    /// Stored key or inline public key.
    pub key: KeyRef,
    /// Algorithm name; optional for stored keys and PEM/DER keys (checked when given).
    pub alg: Option<String>,
    /// Message or mu.
    pub payload: Payload,
    /// Context string.
    pub context: Bytes,
    /// The signature bytes.
    pub signature: Bytes,
}

/// Public facts about a stored key.
#[derive(Clone, Debug)]
pub struct KeyInfo {
    /// Key id.
    pub id: String,
    /// Algorithm.
    pub alg: Algorithm,
    /// Standard public-key encoding.
    pub public_key: Vec<u8>,
    /// Unix seconds.
    pub created_at: i64,
    /// Token name that created it.
    pub created_by: String,
    /// Unix seconds of the soft delete.
    pub deleted_at: Option<i64>,
}

impl KeyInfo {
    /// The public key as a SubjectPublicKeyInfo PEM (RFC 9881 for ML-DSA).
    pub fn public_key_pem(&self) -> Result<String, ApiError> {
        keyfile::encode_public_pem(self.alg, &self.public_key)
            .map_err(|e| ApiError::internal(format!("cannot encode public key: {e}")))
    }
}

/// Health report for `/healthz`.
#[derive(Clone, Debug)]
pub struct Health {
    /// Whether the store answered.
    pub store_ok: bool,
    /// `sqlite` or `postgres`.
    pub backend: &'static str,
    /// Schema version (0 when the store did not answer).
    pub schema_version: i64,
    /// Whether the public development key-encryption key is in use.
    pub insecure_kek: bool,
}

/// The service. Cheap to share (`Arc<Service>`); all methods take `&self`.
pub struct Service {
    store: Box<dyn KeyStore>,
    kek: Kek,
    /// Swapped whole on reload (SIGHUP); requests keep the table they started with.
    tokens: std::sync::RwLock<Arc<TokenTable>>,
    /// What the token table is rebuilt from: inline tokens, token file, default limit.
    token_source: (
        Vec<crate::config::TokenConfig>,
        Option<std::path::PathBuf>,
        usize,
    ),
    /// One record per signature made or refused (`audit_log`).
    audit_log: crate::jsonlog::JsonLog,
    /// One record per HTTP request (`access_log`; written by the HTTP layer).
    access_log: crate::jsonlog::JsonLog,
    public_verify: bool,
    limits: Limits,
    metrics: Metrics,
    signers: KeyCache<(Algorithm, SigningKey)>,
    verifiers: KeyCache<(Algorithm, VerifyingKey)>,
    /// Batches enter the rayon pool in arrival order, two per pool thread at once.
    batch_gate: FairGate,
    /// How batches run in the library's engine (see `Service::open`).
    engine: engine::Options,
    /// Requests of anonymous (public verify) callers in flight, all together.
    anon_inflight: Arc<std::sync::atomic::AtomicUsize>,
}

/// A signing item's key, or why it has none.
type Signer = Result<Arc<(Algorithm, SigningKey)>, ApiError>;

const KEK_CHECK_NAME: &str = "kek_check";
const KEK_CHECK_PLAIN: &[u8] = b"pqsig-server key-encryption key check";

fn store_err(e: store::StoreError) -> ApiError {
    crate::log!("error: {e}");
    if e.unavailable {
        // Sent with Retry-After (http/errors.rs): the store may be back shortly.
        ApiError::new(
            503,
            "store_unavailable",
            "the key store is unavailable; retry shortly",
        )
    } else {
        ApiError::internal("the key store failed")
    }
}

/// Caller text quoted back in an error: at most 64 characters, marked when cut.
pub(crate) fn clip(s: &str) -> String {
    match s.char_indices().nth(64) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

fn parse_alg(name: &str) -> Result<Algorithm, ApiError> {
    Algorithm::from_name(name).map_err(|_| {
        ApiError::bad_request(
            "unknown_algorithm",
            format!("unknown algorithm {:?} (see `pqsig list`)", clip(name)),
        )
    })
}

impl Service {
    /// Opens the store, checks the key-encryption key against it and loads the tokens.
    /// The error is one line for the operator.
    pub fn open(cfg: &ServerConfig) -> Result<Self, String> {
        cfg.validate()?;
        let source = cfg.kek.as_ref().ok_or(
            "no key-encryption key: give --kek-file or PQSIG_KEK (or --insecure-dev-key for development only)",
        )?;
        let kek = Kek::load(source, cfg.allow_world_readable_kek)?;
        let pg = store::postgres::PgOptions {
            timeout: Duration::from_millis(cfg.limits.store_timeout_ms),
            pool_size: cfg.limits.store_pool_size,
        };
        let store = store::open(&cfg.db, &pg).map_err(|e| e.to_string())?;
        let check = kek.seal("", "kek-check", KEK_CHECK_PLAIN)?;
        let stored = store
            .meta_get_or_put(KEK_CHECK_NAME, &check)
            .map_err(|e| e.to_string())?;
        if kek
            .open("", "kek-check", &stored)
            .as_deref()
            .map(|v| v.as_slice())
            != Some(KEK_CHECK_PLAIN)
        {
            return Err(
                "the key-encryption key does not match the one this key store was created with"
                    .into(),
            );
        }
        let tokens = TokenTable::new(&cfg.all_tokens()?, cfg.limits.max_concurrent_per_token)?;
        if tokens.is_empty() {
            crate::log!(
                "WARNING: no tokens configured: every endpoint that needs a token answers 401{}",
                if cfg.public_verify {
                    " (only anonymous verify works)"
                } else {
                    ""
                }
            );
        }
        let ttl = Duration::from_secs(cfg.limits.key_cache_ttl_secs);
        let service = Service {
            store,
            kek,
            tokens: std::sync::RwLock::new(Arc::new(tokens)),
            token_source: (
                cfg.tokens.clone(),
                cfg.token_file.clone(),
                cfg.limits.max_concurrent_per_token,
            ),
            audit_log: crate::jsonlog::JsonLog::open(cfg.audit_log.as_deref(), "audit log")?,
            access_log: crate::jsonlog::JsonLog::open(cfg.access_log.as_deref(), "access log")?,
            public_verify: cfg.public_verify,
            limits: cfg.limits.clone(),
            metrics: Metrics::default(),
            signers: KeyCache::new(ttl),
            verifiers: KeyCache::new(ttl),
            batch_gate: FairGate::new(2 * rayon::current_num_threads()),
            // The engine runs on rayon's global pool (`threads: None`): the pool the batch
            // gate meters and the JSON batch decoding already uses. Batch methods are
            // called from tokio's blocking threads, never from inside a rayon worker, so
            // the engine's parallel part is injected into that pool from outside while
            // the caller blocks, exactly as the per-item `par_iter` it replaces did: no
            // pool nested in a pool, and no second set of threads (a `threads: Some(n)`
            // pool of its own) competing with the global one for the same cores. The
            // gate still decides which batches are in the pool at once. PQSIG_DEVICE
            // selects an offload device as for the CLI (CPU fallback either way).
            engine: engine::Options::from_env(),
            anon_inflight: Arc::default(),
        };
        service.authenticate_legacy_rows()?;
        Ok(service)
    }

    /// The authentication tag of a key-store row: every field but the tag itself, under
    /// the KEK-derived row key (see `kek.rs`).
    fn row_mac(&self, r: &KeyRecord) -> Vec<u8> {
        let opt_i64 = |v: Option<i64>| v.map_or(Vec::new(), |t| t.to_be_bytes().to_vec());
        let (deleted_at, deleted_by) = (opt_i64(r.deleted_at), r.deleted_by.as_deref());
        self.kek
            .row_mac(&[
                b"key-row",
                r.id.as_bytes(),
                r.alg.as_bytes(),
                &r.public_key,
                &r.sealed_seed,
                &r.created_at.to_be_bytes(),
                r.created_by.as_bytes(),
                &[u8::from(r.deleted_at.is_some())],
                &deleted_at,
                &[u8::from(deleted_by.is_some())],
                deleted_by.unwrap_or("").as_bytes(),
            ])
            .to_vec()
    }

    /// Refuses a row whose tag does not match (edited, or swapped in, without the KEK):
    /// a 500 `key_integrity`, logged for the operator.
    fn check_row(&self, r: &KeyRecord) -> Result<(), ApiError> {
        use subtle::ConstantTimeEq;
        let ok = r
            .row_mac
            .as_deref()
            .is_some_and(|m| bool::from(m.ct_eq(&self.row_mac(r))));
        if ok {
            return Ok(());
        }
        crate::log!(
            "error: key store row {} fails its integrity check (edited without the key-encryption key?); refused",
            clip(&r.id)
        );
        Err(ApiError::new(
            500,
            "key_integrity",
            format!(
                "stored key {:?} failed its integrity check and is refused (see the server log)",
                clip(&r.id)
            ),
        ))
    }

    /// Gives rows from before schema version 3 their tag, once: each row's public key
    /// is first checked against the one its sealed seed derives, so a swapped public
    /// key is never blessed. After that a row without a tag is refused like a bad one.
    fn authenticate_legacy_rows(&self) -> Result<(), String> {
        const DONE: &str = "row_mac_backfill_done";
        if self
            .store
            .meta_get(DONE)
            .map_err(|e| e.to_string())?
            .is_some()
        {
            return Ok(());
        }
        let rows = self.store.list_keys(true).map_err(|e| e.to_string())?;
        let legacy: Vec<_> = rows.iter().filter(|r| r.row_mac.is_none()).collect();
        for r in legacy {
            let alg = Self::stored_alg(r).map_err(|e| e.message)?;
            let seed = self
                .kek
                .open(&r.id, &r.alg, &r.sealed_seed)
                .ok_or_else(|| {
                    format!(
                        "stored key {} does not decrypt under the key-encryption key",
                        r.id
                    )
                })?;
            let sk = SigningKey::from_seed(alg, &seed)
                .map_err(|e| format!("stored key {}: {e}", r.id))?;
            if sk.verifying_key().to_bytes() != r.public_key.as_slice() {
                return Err(format!(
                    "stored key {}: its public key does not match its sealed seed (tampered row); refusing to start",
                    r.id
                ));
            }
            self.store
                .set_row_mac(&r.id, &self.row_mac(r))
                .map_err(|e| e.to_string())?;
        }
        self.store
            .meta_get_or_put(DONE, b"1")
            .map_err(|e| e.to_string())?;
        Ok(())
    }

    fn token_table(&self) -> Arc<TokenTable> {
        self.tokens
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Rebuilds the token table from the inline tokens and the token file (SIGHUP):
    /// the number of tokens now in force. On error the old table stays.
    pub fn reload_tokens(&self) -> Result<usize, String> {
        let (inline, file, max) = &self.token_source;
        let mut all = inline.clone();
        if let Some(f) = file {
            all.extend(crate::config::TokenFile::load(f)?);
        }
        let table = TokenTable::new(&all, *max)?;
        let n = table.len();
        *self.tokens.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(table);
        Ok(n)
    }

    /// The HTTP access log.
    pub fn access_log(&self) -> &crate::jsonlog::JsonLog {
        &self.access_log
    }

    /// Checks sign scope before a transport parses the body; a refusal is audited (with
    /// no digest: the body was not read).
    pub fn check_sign_scope(&self, p: &Principal, key_id: &str) -> Result<(), ApiError> {
        p.check(Op::Sign, Some(key_id)).inspect_err(|e| {
            if self.audit_log.enabled() {
                self.audit_log.write(&serde_json::json!({
                    "ts": crate::jsonlog::timestamp(),
                    "event": "sign",
                    "key_id": clip(key_id),
                    "token": p.name,
                    "sha256": null,
                    "result": "error",
                    "error": e.code,
                }));
            }
        })
    }

    /// Writes one sign audit record per input (when the audit log is on).
    fn audit_signs<'a>(
        &self,
        p: &Principal,
        items: impl Iterator<Item = (&'a str, &'a SignInput, Result<(), &'a ApiError>)>,
    ) {
        if !self.audit_log.enabled() {
            return;
        }
        use sha2::Digest;
        let at = crate::jsonlog::timestamp();
        for (key_id, input, result) in items {
            let (kind, bytes) = match &input.payload {
                Payload::Message(m) => ("message", m),
                Payload::Mu(mu) => ("mu", mu),
            };
            let mut rec = serde_json::json!({
                "ts": at,
                "event": "sign",
                "key_id": clip(key_id),
                "token": p.name,
                "input": kind,
                "sha256": hex::encode(sha2::Sha256::digest(bytes)),
                "result": if result.is_ok() { "ok" } else { "error" },
            });
            if let Err(e) = result {
                rec["error"] = serde_json::Value::from(e.code);
            }
            self.audit_log.write(&rec);
        }
    }

    /// The gate batch requests pass before their parallel part (see `fairgate.rs`).
    pub fn batch_gate(&self) -> &FairGate {
        &self.batch_gate
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The metrics registry (transports add their request counters to it).
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Whether the insecure development key-encryption key is in use.
    pub fn insecure_kek(&self) -> bool {
        self.kek.insecure
    }

    /// Authentication only: the token's principal; no token gives the anonymous
    /// verify-only principal when verify is public, 401 otherwise. An unknown token is
    /// always 401 (never silently downgraded to anonymous).
    pub fn authenticate(&self, token: Option<&str>) -> Result<Principal, ApiError> {
        match token {
            Some(t) => self.token_table().authenticate(t, store::now_unix()),
            None if self.public_verify => Ok(Principal::anonymous(
                self.anon_inflight.clone(),
                self.limits.max_concurrent_anonymous,
            )),
            None => Err(ApiError::unauthorized(
                "missing bearer token (Authorization: Bearer <token>)",
            )),
        }
    }

    /// Authentication plus the operation/key-scope check (403 when out of scope).
    pub fn authorize(
        &self,
        token: Option<&str>,
        op: Op,
        key_id: Option<&str>,
    ) -> Result<Principal, ApiError> {
        let p = self.authenticate(token)?;
        p.check(op, key_id)?;
        Ok(p)
    }

    /// Authentication plus one in-flight slot of the token's concurrency limit.
    pub fn admit(&self, token: Option<&str>) -> Result<(Principal, InflightGuard), ApiError> {
        let p = self.authenticate(token)?;
        let g = p.begin()?;
        Ok((p, g))
    }

    /// Store and KEK status.
    pub fn health(&self) -> Health {
        let v = self.store.schema_version();
        Health {
            store_ok: v.is_ok(),
            backend: self.store.backend(),
            schema_version: v.unwrap_or(0),
            insecure_kek: self.kek.insecure,
        }
    }

    // ----- key management -------------------------------------------------------------

    /// Creates a key from a fresh OS-random seed; stores the sealed seed (admin).
    pub fn create_key(&self, p: &Principal, alg: &str) -> Result<KeyInfo, ApiError> {
        p.check(Op::Admin, None)?;
        let alg = parse_alg(alg)?;
        let mut raw_id = [0u8; 16];
        getrandom::getrandom(&mut raw_id)
            .map_err(|e| ApiError::internal(format!("OS randomness failed: {e}")))?;
        let id = hex::encode(raw_id);
        if !p.may_use_key(&id) {
            // Only a `*` token can create: a scoped token could never use the new key.
            return Err(ApiError::forbidden(
                "creating keys needs an admin token scoped to all keys (\"*\")",
            ));
        }
        let t0 = Instant::now();
        let seed = pqsig::any::random_seed(alg).map_err(|e| ApiError::from_pqsig(e, "keygen"))?;
        let sk =
            SigningKey::from_seed(alg, &seed).map_err(|e| ApiError::from_pqsig(e, "keygen"))?;
        let vk = sk.verifying_key();
        let rec = KeyRecord {
            id: id.clone(),
            alg: alg.name().to_string(),
            public_key: vk.to_bytes().to_vec(),
            sealed_seed: self
                .kek
                .seal(&id, alg.name(), &seed)
                .map_err(ApiError::internal)?,
            created_at: store::now_unix(),
            created_by: p.name.clone(),
            deleted_at: None,
            deleted_by: None,
            row_mac: None,
        };
        let rec = KeyRecord {
            row_mac: Some(self.row_mac(&rec)),
            ..rec
        };
        self.store.insert_key(&rec).map_err(store_err)?;
        self.metrics
            .operations("keygen", &[(alg.name(), Outcome::Ok, t0.elapsed())]);
        self.signers.put(&id, Arc::new((alg, sk)));
        self.verifiers.put(&id, Arc::new((alg, vk)));
        Ok(KeyInfo {
            id,
            alg,
            public_key: rec.public_key,
            created_at: rec.created_at,
            created_by: rec.created_by,
            deleted_at: None,
        })
    }

    /// The algorithm of a stored row (a name this build does not know is a 500: the
    /// database was written by another build).
    fn stored_alg(rec: &KeyRecord) -> Result<Algorithm, ApiError> {
        Algorithm::from_name(&rec.alg).map_err(|_| {
            ApiError::internal(format!(
                "stored key {} has unknown algorithm {}",
                rec.id, rec.alg
            ))
        })
    }

    fn info(rec: KeyRecord) -> Result<KeyInfo, ApiError> {
        let alg = Self::stored_alg(&rec)?;
        Ok(KeyInfo {
            id: rec.id,
            alg,
            public_key: rec.public_key,
            created_at: rec.created_at,
            created_by: rec.created_by,
            deleted_at: rec.deleted_at,
        })
    }

    /// Lists the keys the caller is scoped for (admin); deleted ones on request.
    pub fn list_keys(
        &self,
        p: &Principal,
        include_deleted: bool,
    ) -> Result<Vec<KeyInfo>, ApiError> {
        p.check(Op::Admin, None)?;
        let recs = self.store.list_keys(include_deleted).map_err(store_err)?;
        recs.into_iter()
            .filter(|r| p.may_use_key(&r.id))
            .map(|r| self.check_row(&r).and_then(|()| Self::info(r)))
            .collect()
    }

    /// One key's public facts: any operation scoped to that key may read it (public keys
    /// are not secret). Deleted keys are 410.
    pub fn get_key(&self, p: &Principal, id: &str) -> Result<KeyInfo, ApiError> {
        if !p.may_use_key(id) {
            return Err(ApiError::forbidden(format!(
                "token {:?} is not scoped for key {id:?}",
                p.name
            )));
        }
        let rec = self
            .store
            .get_key(id)
            .map_err(store_err)?
            .ok_or_else(|| ApiError::key_not_found(id))?;
        self.check_row(&rec)?;
        if rec.deleted_at.is_some() {
            return Err(ApiError::key_deleted(id));
        }
        Self::info(rec)
    }

    /// Soft-deletes a key (admin): the row and its audit trail stay; sign and verify by
    /// id stop at once here (and within the cache TTL on other instances).
    pub fn delete_key(&self, p: &Principal, id: &str) -> Result<(), ApiError> {
        p.check(Op::Admin, Some(id))?;
        let outcome = self
            .store
            .delete_key(id, &p.name, store::now_unix(), &|r| self.row_mac(r))
            .map_err(store_err)?;
        self.signers.evict(id);
        self.verifiers.evict(id);
        match outcome {
            DeleteOutcome::Deleted => Ok(()),
            DeleteOutcome::AlreadyDeleted => Err(ApiError::key_deleted(id)),
            DeleteOutcome::NotFound => Err(ApiError::key_not_found(id)),
        }
    }

    /// A key's audit trail (admin), deleted keys included.
    pub fn audit(&self, p: &Principal, id: &str) -> Result<Vec<AuditEvent>, ApiError> {
        p.check(Op::Admin, Some(id))?;
        if self.store.get_key(id).map_err(store_err)?.is_none() {
            return Err(ApiError::key_not_found(id));
        }
        self.store.audit_log(id).map_err(store_err)
    }

    /// The live record of a key id: 404 / 410 otherwise; evicts caches when deleted.
    fn live_record(&self, id: &str) -> Result<KeyRecord, ApiError> {
        let rec = self
            .store
            .get_key(id)
            .map_err(store_err)?
            .ok_or_else(|| ApiError::key_not_found(id))?;
        if let Err(e) = self.check_row(&rec) {
            self.signers.evict(id);
            self.verifiers.evict(id);
            return Err(e);
        }
        if rec.deleted_at.is_some() {
            self.signers.evict(id);
            self.verifiers.evict(id);
            return Err(ApiError::key_deleted(id));
        }
        Ok(rec)
    }

    /// A cached decoded key, or the live record decoded by `build` and cached; a stale
    /// entry is re-validated (deleted?) against the store but not decoded again.
    fn cached<T>(
        &self,
        cache: &KeyCache<(Algorithm, T)>,
        id: &str,
        build: impl FnOnce(Algorithm, &KeyRecord) -> Result<T, ApiError>,
    ) -> Result<Arc<(Algorithm, T)>, ApiError> {
        let stale = match cache.get(id) {
            Lookup::Fresh(k) => return Ok(k),
            Lookup::Stale(k) => Some(k),
            Lookup::Missing => None,
        };
        let rec = self.live_record(id)?;
        let key = match stale {
            Some(k) => k,
            None => {
                let alg = Self::stored_alg(&rec)?;
                Arc::new((alg, build(alg, &rec)?))
            }
        };
        cache.put(id, key.clone());
        Ok(key)
    }

    fn signer(&self, id: &str) -> Result<Arc<(Algorithm, SigningKey)>, ApiError> {
        self.cached(&self.signers, id, |alg, rec| {
            let seed = self
                .kek
                .open(&rec.id, &rec.alg, &rec.sealed_seed)
                .ok_or_else(|| {
                    ApiError::internal(format!(
                        "stored key {id} does not decrypt under the key-encryption key"
                    ))
                })?;
            SigningKey::from_seed(alg, &seed)
                .map_err(|e| ApiError::internal(format!("stored key {id}: {e}")))
        })
    }

    fn verifier(&self, id: &str) -> Result<Arc<(Algorithm, VerifyingKey)>, ApiError> {
        self.cached(&self.verifiers, id, |alg, rec| {
            VerifyingKey::from_bytes(alg, &rec.public_key)
                .map_err(|e| ApiError::internal(format!("stored key {id}: {e}")))
        })
    }

    // ----- sign ------------------------------------------------------------------------

    /// Refuses inputs the algorithm cannot take, with specific codes (before any work).
    fn check_payload(
        &self,
        alg: Algorithm,
        payload: &Payload,
        context: &[u8],
    ) -> Result<(), ApiError> {
        match payload {
            Payload::Message(m) if m.len() > self.limits.max_message_bytes => {
                Err(ApiError::too_large(
                    "message_too_large",
                    if alg.supports_external_mu() {
                        format!(
                        "message is {} bytes, over the {}-byte cap: compute the 64-byte external mu \
                         (FIPS 204: mu = SHAKE256(SHAKE256(public_key, 64) || 0x00 || len(context) || context || message, 64)) \
                         and send it base64-encoded as \"mu\" instead of \"message\"",
                        m.len(),
                        self.limits.max_message_bytes
                    )
                    } else {
                        format!(
                        "message is {} bytes, over the {}-byte cap ({} has no external mu: hash the message first)",
                        m.len(),
                        self.limits.max_message_bytes,
                        alg.name()
                    )
                    },
                ))
            }
            Payload::Mu(_) if !alg.supports_external_mu() => Err(ApiError::bad_request(
                "mu_not_supported",
                format!("{} has no external mu: send \"message\"", alg.name()),
            )),
            Payload::Mu(mu) if mu.len() != 64 => Err(ApiError::bad_request(
                "invalid_mu",
                format!("mu must be 64 bytes, got {}", mu.len()),
            )),
            Payload::Message(_) if !context.is_empty() && !alg.supports_context() => {
                Err(ApiError::bad_request(
                    "context_not_supported",
                    format!("{} takes no context string", alg.name()),
                ))
            }
            _ if context.len() > 255 => Err(ApiError::bad_request(
                "context_too_long",
                "context is longer than 255 bytes",
            )),
            _ => Ok(()),
        }
    }

    /// The checks of a signing input beyond the library's own (before any work).
    fn check_sign(&self, alg: Algorithm, input: &SignInput) -> Result<(), ApiError> {
        self.check_payload(alg, &input.payload, &input.context)?;
        if input.deterministic && !alg.supports_deterministic() {
            return Err(ApiError::bad_request(
                "deterministic_not_supported",
                format!("{} has no deterministic signing mode", alg.name()),
            ));
        }
        Ok(())
    }

    fn sign_one(
        &self,
        alg: Algorithm,
        sk: &SigningKey,
        input: &SignInput,
    ) -> Result<Vec<u8>, ApiError> {
        self.check_sign(alg, input)?;
        let r = match &input.payload {
            Payload::Message(m) if input.deterministic => sk.sign_deterministic(m, &input.context),
            Payload::Message(m) => sk.sign(m, &input.context),
            Payload::Mu(mu) => sk.sign_mu(mu, input.deterministic),
        };
        r.map_err(|e| ApiError::from_pqsig(e, "sign"))
    }

    /// Signs with a stored key (sign scope on that key).
    pub fn sign(&self, p: &Principal, key_id: &str, input: SignInput) -> Result<Vec<u8>, ApiError> {
        let r = self.sign_unaudited(p, key_id, &input);
        self.audit_signs(p, std::iter::once((key_id, &input, r.as_ref().map(|_| ()))));
        r
    }

    fn sign_unaudited(
        &self,
        p: &Principal,
        key_id: &str,
        input: &SignInput,
    ) -> Result<Vec<u8>, ApiError> {
        p.check(Op::Sign, Some(key_id))?;
        let key = self.signer(key_id)?;
        let t0 = Instant::now();
        let r = self.sign_one(key.0, &key.1, input);
        let outcome = if r.is_ok() {
            Outcome::Ok
        } else {
            Outcome::Error
        };
        self.metrics
            .operations("sign", &[(key.0.name(), outcome, t0.elapsed())]);
        r
    }

    /// Signs up to `limits.max_batch` inputs with one stored key, as one batch of the
    /// library's engine (spread over the cores); one result per input, in order.
    pub fn sign_batch(
        &self,
        p: &Principal,
        key_id: &str,
        inputs: &[SignInput],
    ) -> Result<Vec<Result<Vec<u8>, ApiError>>, ApiError> {
        let done = p
            .check(Op::Sign, Some(key_id))
            .and_then(|()| self.check_batch(inputs.len()))
            .and_then(|()| self.signer(key_id))
            .map(|key| {
                let work: Vec<_> = inputs.iter().map(|i| (Ok(key.clone()), i)).collect();
                self.sign_keyed(&work)
            });
        match &done {
            Ok(results) => self.audit_signs(
                p,
                inputs
                    .iter()
                    .zip(results)
                    .map(|(i, r)| (key_id, i, r.as_ref().map(|_| ()))),
            ),
            Err(e) => self.audit_signs(p, inputs.iter().map(|i| (key_id, i, Err(e)))),
        }
        done
    }

    /// Signs up to `limits.max_batch` inputs, each with the stored key it names (the
    /// protocol's BATCH may name several), as one engine batch. A key out of scope,
    /// unknown or deleted fails its items alone.
    pub fn sign_batch_multi(
        &self,
        p: &Principal,
        inputs: &[(String, SignInput)],
    ) -> Result<Vec<Result<Vec<u8>, ApiError>>, ApiError> {
        self.check_batch(inputs.len())?;
        let mut memo: HashMap<&str, Signer> = HashMap::new();
        let work: Vec<(Signer, &SignInput)> = inputs
            .iter()
            .map(|(id, input)| {
                let key = memo
                    .entry(id)
                    .or_insert_with(|| {
                        p.check(Op::Sign, Some(id))?;
                        self.signer(id)
                    })
                    .clone();
                (key, input)
            })
            .collect();
        let results = self.sign_keyed(&work);
        self.audit_signs(
            p,
            inputs
                .iter()
                .zip(&results)
                .map(|((id, i), r)| (id.as_str(), i, r.as_ref().map(|_| ()))),
        );
        Ok(results)
    }

    /// Signs resolved items as one engine batch. Items whose key failed to resolve or
    /// whose input the algorithm cannot take fail alone before the engine runs.
    fn sign_keyed(&self, work: &[(Signer, &SignInput)]) -> Vec<Result<Vec<u8>, ApiError>> {
        let mut out: Vec<Option<Result<Vec<u8>, ApiError>>> = work.iter().map(|_| None).collect();
        let mut obs: Vec<Observation> = Vec::new();
        let (mut items, mut at) = (Vec::new(), Vec::new());
        for (i, (key, input)) in work.iter().enumerate() {
            let k = match key {
                Ok(k) => k,
                Err(e) => {
                    out[i] = Some(Err(e.clone()));
                    continue;
                }
            };
            if let Err(e) = self.check_sign(k.0, input) {
                obs.push((k.0.name(), Outcome::Error, Duration::ZERO));
                out[i] = Some(Err(e));
                continue;
            }
            let (message, context) = engine_message(&input.payload, &input.context);
            items.push(SignItem {
                key: SignKey::Object(&k.1),
                message,
                context,
                deterministic: input.deterministic,
            });
            at.push((i, k.0));
        }
        let t0 = Instant::now();
        let done = engine::sign_batch_with(&items, &self.engine);
        let d = per_item(t0.elapsed(), items.len());
        for (&(i, alg), r) in at.iter().zip(done) {
            let r = r.map_err(|e| ApiError::from_pqsig(e, "sign"));
            obs.push((
                alg.name(),
                if r.is_ok() {
                    Outcome::Ok
                } else {
                    Outcome::Error
                },
                d,
            ));
            out[i] = Some(r);
        }
        self.metrics.operations("sign", &obs);
        out.into_iter()
            .map(|r| r.unwrap_or_else(|| Err(ApiError::internal("batch item left unanswered"))))
            .collect()
    }

    fn check_batch(&self, n: usize) -> Result<(), ApiError> {
        if n > self.limits.max_batch {
            return Err(ApiError::too_large(
                "batch_too_large",
                format!(
                    "batch has {n} items, the limit is {}",
                    self.limits.max_batch
                ),
            ));
        }
        Ok(())
    }

    // ----- verify ----------------------------------------------------------------------

    /// Resolves the key of a verification (scope checked for stored keys).
    fn resolve(
        &self,
        p: &Principal,
        key: &KeyRef,
        alg: Option<&str>,
    ) -> Result<Arc<(Algorithm, VerifyingKey)>, ApiError> {
        let want = alg.map(parse_alg).transpose()?;
        match key {
            KeyRef::Id(id) => {
                p.check(Op::Verify, Some(id))?;
                let k = self.verifier(id)?;
                if let Some(w) = want.filter(|w| *w != k.0) {
                    return Err(ApiError::bad_request(
                        "wrong_key_type",
                        format!("key {id:?} is {}, not {}", k.0.name(), w.name()),
                    ));
                }
                Ok(k)
            }
            KeyRef::PublicKey(bytes) => {
                p.check(Op::Verify, None)?;
                let (alg, pk) = match want {
                    Some(a) => (
                        a,
                        keyfile::decode_public_as(a, bytes).map_err(public_key_err)?,
                    ),
                    None => keyfile::decode_public(bytes).map_err(|e| match e {
                        keyfile::KeyFileError::UnrecognisedFormat => ApiError::bad_request(
                            "invalid_request",
                            "a raw public key needs \"alg\" (or send it as PEM / DER)",
                        ),
                        e => public_key_err(e),
                    })?,
                };
                let vk = VerifyingKey::from_bytes(alg, &pk)
                    .map_err(|e| ApiError::from_pqsig(e, "public_key"))?;
                Ok(Arc::new((alg, vk)))
            }
        }
    }

    fn verify_one(
        &self,
        alg: Algorithm,
        vk: &VerifyingKey,
        input: &VerifyInput,
    ) -> Result<bool, ApiError> {
        self.check_payload(alg, &input.payload, &input.context)?;
        let r = match &input.payload {
            Payload::Message(m) => vk.verify(m, &input.context, &input.signature),
            Payload::Mu(mu) => vk.verify_mu(mu, &input.signature),
        };
        verdict(r)
    }

    fn observe_verify(alg: Algorithm, r: &Result<bool, ApiError>, d: Duration) -> Observation {
        let o = match r {
            Ok(true) => Outcome::Ok,
            Ok(false) => Outcome::Invalid,
            Err(_) => Outcome::Error,
        };
        (alg.name(), o, d)
    }

    /// Verifies one signature (verify scope; anonymous when verify is public).
    pub fn verify(&self, p: &Principal, input: VerifyInput) -> Result<bool, ApiError> {
        let key = self.resolve(p, &input.key, input.alg.as_deref())?;
        let t0 = Instant::now();
        let r = self.verify_one(key.0, &key.1, &input);
        self.metrics
            .operations("verify", &[Self::observe_verify(key.0, &r, t0.elapsed())]);
        r
    }

    /// Verifies up to `limits.max_batch` signatures as one batch of the library's engine
    /// (ML-DSA in lockstep, spread over the cores). Each distinct key is resolved (and
    /// parsed) once per batch and handed to the engine as a key object; per-item failures
    /// (bad key, out of scope, bad input) are per-item errors, not a failure of the batch.
    pub fn verify_batch(
        &self,
        p: &Principal,
        inputs: &[VerifyInput],
    ) -> Result<Vec<Result<bool, ApiError>>, ApiError> {
        p.check(Op::Verify, None)?;
        self.check_batch(inputs.len())?;
        type Resolved = Result<Arc<(Algorithm, VerifyingKey)>, ApiError>;
        let mut memo: HashMap<(&KeyRef, Option<&str>), Resolved> = HashMap::new();
        let keys: Vec<Resolved> = inputs
            .iter()
            .map(|i| {
                memo.entry((&i.key, i.alg.as_deref()))
                    .or_insert_with(|| self.resolve(p, &i.key, i.alg.as_deref()))
                    .clone()
            })
            .collect();
        let mut out: Vec<Option<Result<bool, ApiError>>> = inputs.iter().map(|_| None).collect();
        let mut obs: Vec<Observation> = Vec::new();
        let (mut items, mut at) = (Vec::new(), Vec::new());
        for (i, (input, key)) in inputs.iter().zip(&keys).enumerate() {
            let k = match key {
                Ok(k) => k,
                Err(e) => {
                    out[i] = Some(Err(e.clone()));
                    continue;
                }
            };
            if let Err(e) = self.check_payload(k.0, &input.payload, &input.context) {
                obs.push((k.0.name(), Outcome::Error, Duration::ZERO));
                out[i] = Some(Err(e));
                continue;
            }
            let (message, context) = engine_message(&input.payload, &input.context);
            items.push(VerifyItem {
                key: VerifyKey::Object(&k.1),
                message,
                context,
                signature: &input.signature,
            });
            at.push((i, k.0));
        }
        let t0 = Instant::now();
        let done = engine::verify_batch_with(&items, &self.engine);
        let d = per_item(t0.elapsed(), items.len());
        for (&(i, alg), r) in at.iter().zip(done) {
            let r = verdict(r);
            obs.push(Self::observe_verify(alg, &r, d));
            out[i] = Some(r);
        }
        self.metrics.operations("verify", &obs);
        Ok(out
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err(ApiError::internal("batch item left unanswered"))))
            .collect())
    }
}

/// A library verification result as the service reports it.
fn verdict(r: Result<(), pqsig::Error>) -> Result<bool, ApiError> {
    match r {
        Ok(()) => Ok(true),
        // Malformed and non-verifying signatures alike are simply not valid.
        Err(pqsig::Error::VerificationFailed | pqsig::Error::InvalidSignature) => Ok(false),
        Err(e) => Err(ApiError::from_pqsig(e, "verify")),
    }
}

/// A payload and context as an engine item takes them. With μ the context is dropped:
/// μ already binds it, and the single calls (`sign_mu`, `verify_mu`) ignore it too.
fn engine_message<'a>(payload: &'a Payload, context: &'a [u8]) -> (Message<'a>, &'a [u8]) {
    match payload {
        Payload::Message(m) => (Message::Raw(m), context),
        Payload::Mu(mu) => (Message::Mu(mu), &[]),
    }
}

/// The latency metric of a batch item: the engine call's wall time shared out over its
/// items (the engine runs them together, so no item has a time of its own).
fn per_item(elapsed: Duration, n: usize) -> Duration {
    elapsed.div_f64(n.max(1) as f64)
}

fn public_key_err(e: keyfile::KeyFileError) -> ApiError {
    match e {
        keyfile::KeyFileError::AlgorithmMismatch { .. } => {
            ApiError::bad_request("wrong_key_type", format!("public_key: {e}"))
        }
        e => ApiError::bad_request("invalid_public_key", format!("public_key: {e}")),
    }
}
