//! JSON request/response shapes and their conversion to the service's inputs. Binary
//! fields are base64 (standard alphabet, padding optional); field names are listed in
//! docs/SERVER.md and are stable. Unknown fields are refused (catches typos such as
//! `msg`). Base64 strings are borrowed from the body where possible (no copy).

use crate::error::ApiError;
use crate::service::{KeyInfo, KeyRef, Payload, SignInput, VerifyInput};
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Base64-encodes bytes for a response (standard alphabet, padded).
pub fn b64(bytes: &[u8]) -> String {
    base64_simd::STANDARD.encode_to_string(bytes)
}

/// Decodes a base64 field (standard alphabet; padding optional, ASCII whitespace
/// ignored: the WHATWG "forgiving" rules), naming the field in the 400.
///
/// Canonical base64 (no whitespace; padded, or unpadded) takes the strict decoder; only
/// if that refuses does the forgiving one run. The forgiving decoder first scans the
/// whole string for whitespace, which cost as much as the decode itself in the batch
/// verify profile. Whatever the strict decoder accepts, the forgiving one decodes to the
/// same bytes, so the fast path changes no outcome.
pub fn unb64(field: &str, s: &str) -> Result<Vec<u8>, ApiError> {
    let b = s.as_bytes();
    let strict = if b.len().is_multiple_of(4) {
        base64_simd::STANDARD.decode_to_vec(b)
    } else {
        base64_simd::STANDARD_NO_PAD.decode_to_vec(b)
    };
    strict
        .or_else(|_| base64_simd::forgiving_decode_to_vec(b))
        .map_err(|_| ApiError::bad_request("invalid_base64", format!("{field}: invalid base64")))
}

/// Deserializes an optional string field, borrowing it from the body when it has no JSON
/// escapes. serde's own `Cow<str>` impl always copies: its borrowing special case covers
/// only a bare `Cow<str>` field, not `Option<Cow<str>>`. In batch verify that copy (and
/// its malloc/free) was a visible share of the profile: ~4.4 KB per ML-DSA-65 signature.
fn opt_cow<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = Option<Cow<'de, str>>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string")
        }
        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Borrowed(v)))
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v.to_owned())))
        }
        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v)))
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_str(self)
        }
    }
    d.deserialize_option(V)
}

fn opt_unb64(field: &str, s: &Option<Cow<'_, str>>) -> Result<Option<Vec<u8>>, ApiError> {
    s.as_deref().map(|s| unb64(field, s)).transpose()
}

fn payload(message: &Option<Cow<'_, str>>, mu: &Option<Cow<'_, str>>) -> Result<Payload, ApiError> {
    match (opt_unb64("message", message)?, opt_unb64("mu", mu)?) {
        (Some(m), None) => Ok(Payload::Message(m.into())),
        (None, Some(mu)) => Ok(Payload::Mu(mu.into())),
        _ => Err(ApiError::bad_request(
            "invalid_request",
            "give exactly one of \"message\" and \"mu\"",
        )),
    }
}

/// `POST /v1/keys`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateKeyRequest {
    /// Algorithm name (`ML-DSA-65`, `Falcon-512`, `SNOVA_I_S`, ...).
    pub alg: String,
}

/// A key as every key endpoint returns it.
#[derive(Serialize)]
pub struct KeyResponse {
    /// Key id.
    pub id: String,
    /// Canonical algorithm name.
    pub alg: &'static str,
    /// Raw public key, base64.
    pub public_key: String,
    /// SubjectPublicKeyInfo PEM.
    pub public_key_pem: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Token name that created it (not shown to anonymous callers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_by: Option<String>,
    /// Unix seconds of deletion (list with `include_deleted=true` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted_at: Option<i64>,
}

impl KeyResponse {
    /// From the service's key facts.
    pub fn from_info(k: KeyInfo) -> Result<Self, ApiError> {
        Ok(KeyResponse {
            public_key_pem: k.public_key_pem()?,
            id: k.id,
            alg: k.alg.name(),
            public_key: b64(&k.public_key),
            created_at: k.created_at,
            created_by: Some(k.created_by),
            deleted_at: k.deleted_at,
        })
    }
}

/// `POST /v1/keys/{id}/sign`, and one item of sign-batch.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignRequest<'a> {
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    message: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    mu: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    context: Option<Cow<'a, str>>,
    #[serde(default)]
    deterministic: Option<bool>,
}

impl SignRequest<'_> {
    /// Decodes into a service input; batch-level defaults fill unset fields.
    pub fn into_input(self, ctx_default: &Bytes, det_default: bool) -> Result<SignInput, ApiError> {
        Ok(SignInput {
            payload: payload(&self.message, &self.mu)?,
            context: match opt_unb64("context", &self.context)? {
                Some(c) => c.into(),
                None => ctx_default.clone(),
            },
            deterministic: self.deterministic.unwrap_or(det_default),
        })
    }
}

/// `POST /v1/keys/{id}/sign-batch`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignBatchRequest<'a> {
    /// Default context for items that give none.
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    pub context: Option<Cow<'a, str>>,
    /// Default for items that do not say.
    #[serde(default)]
    pub deterministic: bool,
    /// The messages (or mus) to sign.
    #[serde(borrow)]
    pub items: Vec<SignRequest<'a>>,
}

impl SignBatchRequest<'_> {
    /// The default context, decoded.
    pub fn default_context(&self) -> Result<Bytes, ApiError> {
        Ok(opt_unb64("context", &self.context)?
            .unwrap_or_default()
            .into())
    }
}

/// `POST /v1/verify`, and one item of verify-batch (whose top level supplies defaults).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest<'a> {
    #[serde(default)]
    key_id: Option<String>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    public_key: Option<Cow<'a, str>>,
    #[serde(default)]
    alg: Option<String>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    message: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    mu: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    signature: Option<Cow<'a, str>>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    context: Option<Cow<'a, str>>,
}

/// A `public_key` field: PEM text as is, anything else base64 (raw or DER).
fn public_key_bytes(s: &str) -> Result<Vec<u8>, ApiError> {
    if s.trim_start().starts_with("-----BEGIN") {
        Ok(s.as_bytes().to_vec())
    } else {
        unb64("public_key", s)
    }
}

fn key_ref(
    key_id: &Option<String>,
    public_key: &Option<Cow<'_, str>>,
) -> Result<Option<KeyRef>, ApiError> {
    match (key_id, public_key) {
        (Some(id), None) => Ok(Some(KeyRef::Id(id.clone()))),
        (None, Some(pk)) => Ok(Some(KeyRef::PublicKey(public_key_bytes(pk)?))),
        (None, None) => Ok(None),
        _ => Err(ApiError::bad_request(
            "invalid_request",
            "give only one of \"key_id\" and \"public_key\"",
        )),
    }
}

/// The key part of a verify request, decoded.
#[derive(Clone)]
pub struct KeyDefaults {
    key: Option<KeyRef>,
    alg: Option<String>,
    context: Bytes,
}

impl<'a> VerifyRequest<'a> {
    fn key_ref(&self) -> Result<Option<KeyRef>, ApiError> {
        key_ref(&self.key_id, &self.public_key)
    }

    /// Decodes into a service input, items inheriting unset key/alg/context.
    pub fn into_input(self, d: Option<&KeyDefaults>) -> Result<VerifyInput, ApiError> {
        let own_key = self.key_ref()?;
        let key = match (own_key, d.and_then(|d| d.key.clone())) {
            (Some(k), _) | (None, Some(k)) => k,
            (None, None) => {
                return Err(ApiError::bad_request(
                    "invalid_request",
                    "give \"key_id\" or \"public_key\"",
                ))
            }
        };
        let signature = self
            .signature
            .as_deref()
            .ok_or_else(|| ApiError::bad_request("invalid_request", "\"signature\" is required"))?;
        Ok(VerifyInput {
            key,
            alg: self.alg.clone().or_else(|| d.and_then(|d| d.alg.clone())),
            payload: payload(&self.message, &self.mu)?,
            context: match opt_unb64("context", &self.context)? {
                Some(c) => c.into(),
                None => d.map(|d| d.context.clone()).unwrap_or_default(),
            },
            signature: unb64("signature", signature)?.into(),
        })
    }
}

/// `POST /v1/verify-batch`: top-level key/alg/context defaults plus items.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyBatchRequest<'a> {
    #[serde(default)]
    key_id: Option<String>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    public_key: Option<Cow<'a, str>>,
    #[serde(default)]
    alg: Option<String>,
    #[serde(borrow, default, deserialize_with = "opt_cow")]
    context: Option<Cow<'a, str>>,
    /// The signatures to check.
    #[serde(borrow)]
    pub items: Vec<VerifyRequest<'a>>,
}

impl VerifyBatchRequest<'_> {
    /// The top-level key reference, algorithm and context, decoded once for the batch.
    pub fn defaults(&self) -> Result<KeyDefaults, ApiError> {
        Ok(KeyDefaults {
            key: key_ref(&self.key_id, &self.public_key)?,
            alg: self.alg.clone(),
            context: opt_unb64("context", &self.context)?
                .unwrap_or_default()
                .into(),
        })
    }
}

/// One result of a batch: the value or an error object.
#[derive(Serialize)]
#[serde(untagged)]
pub enum BatchResult<T: Serialize> {
    /// Success.
    Ok(T),
    /// Failure of this item only.
    Err {
        /// `{code, message}`.
        error: ErrorBody,
    },
}

/// The body of an error.
#[derive(Serialize)]
pub struct ErrorBody {
    /// Stable code.
    pub code: &'static str,
    /// Explanation.
    pub message: String,
}

impl<T: Serialize> BatchResult<T> {
    /// From a per-item result.
    pub fn from(r: Result<T, ApiError>) -> Self {
        match r {
            Ok(v) => BatchResult::Ok(v),
            Err(e) => BatchResult::Err {
                error: ErrorBody {
                    code: e.code,
                    message: e.message,
                },
            },
        }
    }
}

/// `{"signature": ...}`.
#[derive(Serialize)]
pub struct SignatureBody {
    /// Base64 signature.
    pub signature: String,
}

/// `{"valid": ...}`.
#[derive(Serialize)]
pub struct ValidBody {
    /// Whether the signature verifies.
    pub valid: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_strings_are_borrowed_escaped_ones_copied() {
        let body = br#"{"items":[{"message":"AAEC","signature":"A\/8="}]}"#;
        let req: VerifyBatchRequest<'_> = serde_json::from_slice(body).unwrap();
        let it = &req.items[0];
        assert!(matches!(it.message, Some(Cow::Borrowed("AAEC"))));
        assert!(matches!(&it.signature, Some(Cow::Owned(s)) if s == "A/8="));
        // null is an absent field.
        let req: VerifyRequest<'_> =
            serde_json::from_slice(br#"{"message":"AA==","mu":null}"#).unwrap();
        assert!(req.mu.is_none() && req.message.is_some());
        assert!(serde_json::from_slice::<VerifyRequest<'_>>(br#"{"message":5}"#).is_err());
    }

    #[test]
    fn base64_fast_path_agrees_with_the_forgiving_rules() {
        for len in 0..200usize {
            // Every byte value occurs (37 is odd), so every base64 symbol is exercised.
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
            let padded = b64(&bytes);
            let unpadded = padded.trim_end_matches('=').to_string();
            let spaced: String = padded
                .chars()
                .enumerate()
                .flat_map(|(i, c)| if i % 7 == 3 { vec![' ', c] } else { vec![c] })
                .collect();
            for s in [&padded, &unpadded, &spaced] {
                assert_eq!(unb64("f", s).unwrap(), bytes, "{s:?}");
            }
        }
        // Refused alike by both decoders: a stray character, a lone trailing symbol, URL alphabet.
        for bad in ["AA*A", "AAAAA", "AB-_", "A===", "="] {
            assert!(unb64("f", bad).is_err(), "{bad:?}");
            assert!(
                base64_simd::forgiving_decode_to_vec(bad.as_bytes()).is_err(),
                "{bad:?}"
            );
        }
        // Non-canonical trailing bits: whatever forgiving says, the fast path says too.
        for s in ["AB==", "AR==", "AAB=", "AAC="] {
            assert_eq!(
                unb64("f", s).ok(),
                base64_simd::forgiving_decode_to_vec(s.as_bytes()).ok(),
                "{s:?}"
            );
        }
    }
}
