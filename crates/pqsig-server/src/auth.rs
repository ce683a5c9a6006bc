//! Bearer tokens: lookup (by SHA-256, compared in constant time), scopes (key ids and
//! operations) and the per-token in-flight counter.

use crate::config::TokenConfig;
use crate::error::ApiError;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// What a request wants to do; tokens are scoped to a set of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Produce signatures with a stored key.
    Sign,
    /// Verify signatures (with a stored key or an inline public key).
    Verify,
    /// Create, list, read and delete keys.
    Admin,
}

impl Op {
    /// The name used in config files and error messages.
    pub fn name(self) -> &'static str {
        match self {
            Op::Sign => "sign",
            Op::Verify => "verify",
            Op::Admin => "admin",
        }
    }
    fn parse(s: &str) -> Option<Op> {
        [Op::Sign, Op::Verify, Op::Admin]
            .into_iter()
            .find(|o| o.name() == s)
    }
}

/// An authenticated caller (or the anonymous caller of a public verify).
#[derive(Clone, Debug)]
pub struct Principal {
    /// Token name, recorded in the audit trail; `anonymous` for public verify.
    pub name: String,
    anonymous: bool,
    all_keys: bool,
    keys: Vec<String>,
    ops: Vec<Op>,
    inflight: Arc<AtomicUsize>,
    max_inflight: usize,
    /// Unix seconds from which the token is refused.
    expires_at: Option<i64>,
}

/// Shortest accepted token secret (`token`; a `token_sha256` cannot be checked).
pub const MIN_TOKEN_LEN: usize = 16;

/// Unix seconds of a TOML offset date-time (`2027-01-01T00:00:00Z`, `...+02:00`).
fn datetime_unix(d: &toml::value::Datetime) -> Option<i64> {
    use toml::value::Offset;
    let (date, time, offset) = (d.date?, d.time?, d.offset?);
    // Days from the civil date (proleptic Gregorian), Howard Hinnant's algorithm.
    let (y, m, dd) = (
        i64::from(date.year),
        i64::from(date.month),
        i64::from(date.day),
    );
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + dd - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400
        + i64::from(time.hour) * 3600
        + i64::from(time.minute) * 60
        + i64::from(time.second);
    let off = match offset {
        Offset::Z => 0,
        Offset::Custom { minutes } => i64::from(minutes) * 60,
    };
    Some(secs - off)
}

impl Principal {
    /// The caller of a public verify endpoint: verify only, any key. All anonymous
    /// callers share one in-flight counter (`inflight`, at most `max_inflight`).
    pub(crate) fn anonymous(inflight: Arc<AtomicUsize>, max_inflight: usize) -> Self {
        Principal {
            name: "anonymous".into(),
            anonymous: true,
            all_keys: true,
            keys: Vec::new(),
            ops: vec![Op::Verify],
            inflight,
            max_inflight,
            expires_at: None,
        }
    }

    /// Whether this is the anonymous caller of a public verify.
    pub fn is_anonymous(&self) -> bool {
        self.anonymous
    }

    /// Whether the token is scoped for every key (`*`).
    pub fn all_keys(&self) -> bool {
        self.all_keys
    }

    /// Whether this caller may use `key_id` at all.
    pub fn may_use_key(&self, key_id: &str) -> bool {
        self.all_keys || self.keys.iter().any(|k| k == key_id)
    }

    /// Checks operation and (when given) key scope: 403 otherwise.
    pub fn check(&self, op: Op, key_id: Option<&str>) -> Result<(), ApiError> {
        if self.anonymous && op != Op::Verify {
            return Err(ApiError::unauthorized(
                "missing bearer token (Authorization: Bearer <token>)",
            ));
        }
        if !self.ops.contains(&op) {
            return Err(ApiError::forbidden(format!(
                "token {:?} is not allowed the {} operation",
                self.name,
                op.name()
            )));
        }
        match key_id {
            Some(id) if !self.may_use_key(id) => Err(ApiError::forbidden(format!(
                "token {:?} is not scoped for key {:?}",
                self.name,
                crate::service::clip(id)
            ))),
            _ => Ok(()),
        }
    }

    /// Counts one request in flight for this token until the guard drops; 429 when the
    /// token already has its maximum in flight.
    pub fn begin(&self) -> Result<InflightGuard, ApiError> {
        let prev = self.inflight.fetch_add(1, Ordering::AcqRel);
        let guard = InflightGuard(self.inflight.clone());
        if prev >= self.max_inflight {
            return Err(ApiError::too_many_requests(format!(
                "token {:?} already has {} requests in flight",
                self.name, self.max_inflight
            )));
        }
        Ok(guard)
    }
}

/// Releases one in-flight slot on drop.
#[derive(Debug)]
pub struct InflightGuard(Arc<AtomicUsize>);

impl Drop for InflightGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The configured tokens, indexed by the SHA-256 of their secret.
#[derive(Debug)]
pub struct TokenTable {
    entries: Vec<([u8; 32], Principal)>,
}

impl TokenTable {
    /// Validates the token list (names, operations, hashes; no duplicate secrets).
    pub fn new(tokens: &[TokenConfig], default_max: usize) -> Result<Self, String> {
        let mut entries: Vec<([u8; 32], Principal)> = Vec::new();
        for t in tokens {
            let hash: [u8; 32] = match (&t.token, &t.token_sha256) {
                (Some(s), None) if !s.is_empty() => Sha256::digest(s.as_bytes()).into(),
                (None, Some(h)) => hex::decode(h.trim())
                    .ok()
                    .and_then(|v| v.try_into().ok())
                    .ok_or_else(|| {
                        format!("token {:?}: token_sha256 must be 64 hex digits", t.name)
                    })?,
                _ => {
                    return Err(format!(
                        "token {:?}: give exactly one of token, token_sha256",
                        t.name
                    ))
                }
            };
            if entries.iter().any(|(h, _)| *h == hash) {
                return Err(format!(
                    "token {:?}: the same secret is configured twice",
                    t.name
                ));
            }
            let mut ops = Vec::new();
            for o in &t.operations {
                ops.push(Op::parse(o).ok_or_else(|| {
                    format!(
                        "token {:?}: unknown operation {o:?} (sign, verify, admin)",
                        t.name
                    )
                })?);
            }
            if t.token
                .as_ref()
                .is_some_and(|s| s.chars().count() < MIN_TOKEN_LEN)
            {
                return Err(format!(
                    "token {:?}: the secret must be at least {MIN_TOKEN_LEN} characters \
                     (use a random one, e.g. `head -c24 /dev/urandom | base64`)",
                    t.name
                ));
            }
            let max = t.max_concurrent.unwrap_or(default_max);
            if max == 0 {
                return Err(format!(
                    "token {:?}: max_concurrent must be positive",
                    t.name
                ));
            }
            let expires_at = match &t.expires_at {
                None => None,
                Some(d) => Some(datetime_unix(d).ok_or_else(|| {
                    format!(
                        "token {:?}: expires_at must be a date-time with offset (2027-01-01T00:00:00Z)",
                        t.name
                    )
                })?),
            };
            let principal = Principal {
                expires_at,
                name: t.name.clone(),
                anonymous: false,
                all_keys: t.keys.iter().any(|k| k == "*"),
                keys: t.keys.clone(),
                ops,
                inflight: Arc::new(AtomicUsize::new(0)),
                max_inflight: max,
            };
            entries.push((hash, principal));
        }
        Ok(TokenTable { entries })
    }

    /// Number of configured tokens.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no token is configured.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The principal for a presented secret (401 when unknown or expired at `now`).
    pub fn authenticate(&self, secret: &str, now: i64) -> Result<Principal, ApiError> {
        let p = self
            .lookup(secret)
            .ok_or_else(|| ApiError::unauthorized("unknown bearer token"))?;
        if p.expires_at.is_some_and(|t| now >= t) {
            return Err(ApiError::new(
                401,
                "token_expired",
                format!("token {:?} has expired", p.name),
            ));
        }
        Ok(p.clone())
    }

    /// The principal for a presented secret, comparing hashes in constant time and
    /// always scanning the whole table.
    pub fn lookup(&self, secret: &str) -> Option<&Principal> {
        let hash: [u8; 32] = Sha256::digest(secret.as_bytes()).into();
        let mut found = None;
        for (h, p) in &self.entries {
            if bool::from(h.ct_eq(&hash)) {
                found = Some(p);
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(name: &str, secret: &str, keys: &[&str], ops: &[&str]) -> TokenConfig {
        TokenConfig {
            name: name.into(),
            token: Some(secret.into()),
            token_sha256: None,
            keys: keys.iter().map(|s| s.to_string()).collect(),
            operations: ops.iter().map(|s| s.to_string()).collect(),
            max_concurrent: None,
            expires_at: None,
        }
    }

    #[test]
    fn lookup_and_scopes() {
        let mut hashed = token("h", "", &["k1"], &["verify"]);
        hashed.token = None;
        hashed.token_sha256 = Some(hex::encode(Sha256::digest(b"hashed-secret")));
        let t = TokenTable::new(
            &[
                token("a", "s1-long-enough-secret", &["*"], &["sign", "admin"]),
                hashed,
            ],
            4,
        )
        .unwrap();
        let a = t.lookup("s1-long-enough-secret").unwrap();
        assert!(a.check(Op::Sign, Some("any")).is_ok());
        assert_eq!(a.check(Op::Verify, None).unwrap_err().status, 403);
        let h = t.lookup("hashed-secret").unwrap();
        assert!(h.check(Op::Verify, Some("k1")).is_ok());
        assert_eq!(h.check(Op::Verify, Some("k2")).unwrap_err().status, 403);
        assert!(t.lookup("s2").is_none());
        assert!(t.lookup("").is_none());
        let anon = Principal::anonymous(Arc::new(AtomicUsize::new(0)), 1);
        assert!(anon.check(Op::Verify, Some("k")).is_ok());
        assert_eq!(anon.check(Op::Sign, Some("k")).unwrap_err().status, 401);
    }

    #[test]
    fn expired_tokens_are_refused() {
        let mut t = token("e", "expiring-secret-1", &["*"], &["sign"]);
        t.expires_at = Some("2027-01-01T00:00:00Z".parse().unwrap());
        let table = TokenTable::new(&[t.clone()], 1).unwrap();
        let at = 1_798_761_600; // 2027-01-01T00:00:00Z
        assert!(table.authenticate("expiring-secret-1", at - 1).is_ok());
        let e = table.authenticate("expiring-secret-1", at).unwrap_err();
        assert_eq!((e.status, e.code), (401, "token_expired"));
        t.expires_at = Some("2027-01-01T02:00:00+02:00".parse().unwrap());
        let table = TokenTable::new(&[t.clone()], 1).unwrap();
        assert!(table.authenticate("expiring-secret-1", at).is_err());
        // A date without a time or offset is refused at load.
        t.expires_at = Some("2027-01-01".parse().unwrap());
        assert!(TokenTable::new(&[t], 1).unwrap_err().contains("expires_at"));
    }

    #[test]
    fn invalid_token_configs_are_refused() {
        const S: &str = "sixteen-chars-ok";
        let dup = [
            token("a", S, &["*"], &["sign"]),
            token("b", S, &["*"], &["sign"]),
        ];
        assert!(TokenTable::new(&dup, 1).unwrap_err().contains("twice"));
        assert!(TokenTable::new(&[token("a", S, &["*"], &["fly"])], 1)
            .unwrap_err()
            .contains("unknown operation"));
        assert!(TokenTable::new(&[token("a", "", &["*"], &["sign"])], 1).is_err());
        let mut bad_hash = token("a", "", &["*"], &["sign"]);
        bad_hash.token = None;
        bad_hash.token_sha256 = Some("xyz".into());
        assert!(TokenTable::new(&[bad_hash], 1)
            .unwrap_err()
            .contains("64 hex"));
        assert!(
            TokenTable::new(&[token("a", "fifteen-chars-x", &["*"], &["sign"])], 1)
                .unwrap_err()
                .contains("at least 16")
        );
        let mut zero = token("a", S, &["*"], &["sign"]);
        zero.max_concurrent = Some(0);
        assert!(TokenTable::new(&[zero], 1).is_err());
    }
}
