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
}

impl Principal {
    /// The caller of a public verify endpoint: verify only, any key.
    pub(crate) fn anonymous() -> Self {
        Principal {
            name: "anonymous".into(),
            anonymous: true,
            all_keys: true,
            keys: Vec::new(),
            ops: vec![Op::Verify],
            inflight: Arc::new(AtomicUsize::new(0)),
            max_inflight: usize::MAX,
        }
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
                "token {:?} is not scoped for key {id:?}",
                self.name
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
            let max = t.max_concurrent.unwrap_or(default_max);
            if max == 0 {
                return Err(format!(
                    "token {:?}: max_concurrent must be positive",
                    t.name
                ));
            }
            let principal = Principal {
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
        }
    }

    #[test]
    fn lookup_and_scopes() {
        let mut hashed = token("h", "", &["k1"], &["verify"]);
        hashed.token = None;
        hashed.token_sha256 = Some(hex::encode(Sha256::digest(b"hashed-secret")));
        let t =
            TokenTable::new(&[token("a", "s1", &["*"], &["sign", "admin"]), hashed], 4).unwrap();
        let a = t.lookup("s1").unwrap();
        assert!(a.check(Op::Sign, Some("any")).is_ok());
        assert_eq!(a.check(Op::Verify, None).unwrap_err().status, 403);
        let h = t.lookup("hashed-secret").unwrap();
        assert!(h.check(Op::Verify, Some("k1")).is_ok());
        assert_eq!(h.check(Op::Verify, Some("k2")).unwrap_err().status, 403);
        assert!(t.lookup("s2").is_none());
        assert!(t.lookup("").is_none());
        let anon = Principal::anonymous();
        assert!(anon.check(Op::Verify, Some("k")).is_ok());
        assert_eq!(anon.check(Op::Sign, Some("k")).unwrap_err().status, 401);
    }

    #[test]
    fn invalid_token_configs_are_refused() {
        let dup = [
            token("a", "s", &["*"], &["sign"]),
            token("b", "s", &["*"], &["sign"]),
        ];
        assert!(TokenTable::new(&dup, 1).unwrap_err().contains("twice"));
        assert!(TokenTable::new(&[token("a", "s", &["*"], &["fly"])], 1)
            .unwrap_err()
            .contains("unknown operation"));
        assert!(TokenTable::new(&[token("a", "", &["*"], &["sign"])], 1).is_err());
        let mut bad_hash = token("a", "", &["*"], &["sign"]);
        bad_hash.token = None;
        bad_hash.token_sha256 = Some("xyz".into());
        assert!(TokenTable::new(&[bad_hash], 1)
            .unwrap_err()
            .contains("64 hex"));
        let mut zero = token("a", "s", &["*"], &["sign"]);
        zero.max_concurrent = Some(0);
        assert!(TokenTable::new(&[zero], 1).is_err());
    }
}
