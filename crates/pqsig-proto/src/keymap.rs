//! [`KeyMapHandler`]: a reference [`Handler`] over in-memory `pqsig::any` keys. The tests,
//! the `serve-keymap` example and self-contained demos use it; the real service puts its
//! key store and token scopes behind the same trait.

use crate::handler::{error_response, Handler};
use crate::types::{
    ErrorCode, ErrorResponse, Input, KeyRef, Request, Response, SignRequest, VerifyRequest,
};
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::batch::{self, Message, SignItem, SignKey, VerifyItem, VerifyKey};
use pqsig::{Algorithm, Error};
use std::collections::HashMap;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// Default cap on a message sent whole (1 MiB); larger ones must be sent as μ.
pub const DEFAULT_MAX_MESSAGE: usize = 1 << 20;

/// Keys by id, and the accepted bearer tokens (none configured: every request is allowed;
/// otherwise every SIGN and VERIFY needs a connection authenticated with one of them).
pub struct KeyMapHandler {
    keys: HashMap<String, (SigningKey, VerifyingKey)>,
    tokens: Vec<Zeroizing<Vec<u8>>>,
    max_message: usize,
    /// How BATCH runs in the library's engine (rayon's global pool; `PQSIG_DEVICE`).
    engine: batch::Options,
}

impl Default for KeyMapHandler {
    fn default() -> Self {
        Self::new()
    }
}

impl KeyMapHandler {
    /// No keys, no tokens, the default message cap.
    pub fn new() -> Self {
        KeyMapHandler {
            keys: HashMap::new(),
            tokens: Vec::new(),
            max_message: DEFAULT_MAX_MESSAGE,
            engine: batch::Options::from_env(),
        }
    }

    /// Adds (or replaces) the key `id`.
    pub fn with_key(mut self, id: impl Into<String>, sk: SigningKey) -> Self {
        let vk = sk.verifying_key();
        self.keys.insert(id.into(), (sk, vk));
        self
    }

    /// Accepts this bearer token (and from now on requires one).
    pub fn with_token(mut self, token: &[u8]) -> Self {
        self.tokens.push(Zeroizing::new(token.to_vec()));
        self
    }

    /// Messages longer than this are refused with TOO_LARGE (clients send μ instead).
    pub fn with_max_message(mut self, bytes: usize) -> Self {
        self.max_message = bytes;
        self
    }

    /// The public key of `id`, for tests and demos that verify locally.
    pub fn verifying_key(&self, id: &str) -> Option<&VerifyingKey> {
        self.keys.get(id).map(|(_, vk)| vk)
    }

    /// Whether `token` is one of the configured tokens (compared in constant time).
    fn known(&self, token: &[u8]) -> bool {
        self.tokens
            .iter()
            .fold(false, |hit, t| hit | bool::from(t.as_slice().ct_eq(token)))
    }

    fn authorize(&self, auth: Option<&[u8]>) -> Result<(), ErrorResponse> {
        if self.tokens.is_empty() {
            return Ok(());
        }
        match auth {
            None => Err(ErrorResponse::new(
                ErrorCode::UNAUTHORIZED,
                "this server needs a bearer token: send HELLO first",
            )),
            Some(t) if self.known(t) => Ok(()),
            Some(_) => Err(ErrorResponse::new(ErrorCode::UNAUTHORIZED, "unknown token")),
        }
    }

    fn message_cap(&self, alg: Algorithm, input: &Input) -> Result<(), ErrorResponse> {
        match input {
            Input::Message(m) if m.len() > self.max_message => {
                let hint = if alg.supports_external_mu() {
                    "; send its 64-byte mu instead"
                } else {
                    ""
                };
                Err(ErrorResponse::new(
                    ErrorCode::TOO_LARGE,
                    format!(
                        "message of {} bytes is over this server's cap of {} bytes{hint}",
                        m.len(),
                        self.max_message
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    fn key(&self, id: &str) -> Result<&(SigningKey, VerifyingKey), ErrorResponse> {
        self.keys
            .get(id)
            .ok_or_else(|| ErrorResponse::new(ErrorCode::NOT_FOUND, format!("no key {id:?}")))
    }

    fn sign(&self, r: SignRequest) -> Result<Response, ErrorResponse> {
        let (sk, _) = self.key(&r.key_id)?;
        self.message_cap(sk.algorithm(), &r.input)?;
        let sig = match &r.input {
            Input::Message(m) if r.deterministic => sk.sign_deterministic(m, &r.context),
            Input::Message(m) => sk.sign(m, &r.context),
            Input::Mu(mu) => sk.sign_mu(mu, r.deterministic),
        };
        Ok(Response::Signature(sig.map_err(error_response)?))
    }

    /// The algorithm of an inline key (UNSUPPORTED when unknown).
    fn inline_alg(algorithm: &str) -> Result<Algorithm, ErrorResponse> {
        Algorithm::from_name(algorithm).map_err(|_| {
            ErrorResponse::new(
                ErrorCode::UNSUPPORTED,
                format!("unknown algorithm {algorithm:?}"),
            )
        })
    }

    fn bad_inline_key(alg: Algorithm, e: Error) -> ErrorResponse {
        ErrorResponse::new(
            ErrorCode::UNSUPPORTED,
            format!("not a valid {alg} public key ({e})"),
        )
    }

    /// A VERIFY as an engine item, or the error that answers it without the engine. Inline
    /// keys stay encoded: the engine decodes them (in parallel, one failing alone).
    fn verify_item<'a>(&'a self, r: &'a VerifyRequest) -> Result<VerifyItem<'a>, ErrorResponse> {
        let (key, alg) = match &r.key {
            KeyRef::Id(id) => {
                let vk = &self.key(id)?.1;
                (VerifyKey::Object(vk), vk.algorithm())
            }
            KeyRef::Inline {
                algorithm,
                public_key,
            } => {
                let alg = Self::inline_alg(algorithm)?;
                (
                    VerifyKey::Encoded {
                        alg,
                        pk: public_key,
                    },
                    alg,
                )
            }
        };
        self.message_cap(alg, &r.input)?;
        let (message, context) = engine_message(&r.input, &r.context);
        Ok(VerifyItem {
            key,
            message,
            context,
            signature: &r.signature,
        })
    }

    /// A SIGN as an engine item, or the error that answers it without the engine.
    fn sign_item<'a>(&'a self, r: &'a SignRequest) -> Result<SignItem<'a>, ErrorResponse> {
        let (sk, _) = self.key(&r.key_id)?;
        self.message_cap(sk.algorithm(), &r.input)?;
        let (message, context) = engine_message(&r.input, &r.context);
        Ok(SignItem {
            key: SignKey::Object(sk),
            message,
            context,
            deterministic: r.deterministic,
        })
    }

    /// A BATCH as one batch of the library's engine: the VERIFY items together, then the
    /// SIGN items together; answers in item order, each what the single request gives.
    fn batch(&self, items: &[Request]) -> Vec<Response> {
        let mut out: Vec<Option<Response>> = items.iter().map(|_| None).collect();
        let (mut verifies, mut v_at) = (Vec::new(), Vec::new());
        let (mut signs, mut s_at) = (Vec::new(), Vec::new());
        for (i, req) in items.iter().enumerate() {
            let prepared = match req {
                Request::Verify(r) => self.verify_item(r).map(|it| {
                    verifies.push(it);
                    v_at.push(i);
                }),
                Request::Sign(r) => self.sign_item(r).map(|it| {
                    signs.push(it);
                    s_at.push(i);
                }),
                _ => Err(ErrorResponse::new(
                    ErrorCode::BAD_REQUEST,
                    "only SIGN and VERIFY reach the handler",
                )),
            };
            if let Err(e) = prepared {
                out[i] = Some(Response::Error(e));
            }
        }
        let verdicts = batch::verify_batch_with(&verifies, &self.engine);
        for ((&i, it), r) in v_at.iter().zip(&verifies).zip(verdicts) {
            out[i] = Some(match r {
                Err(Error::InvalidKey) if matches!(it.key, VerifyKey::Encoded { .. }) => {
                    Response::Error(Self::bad_inline_key(it.algorithm(), Error::InvalidKey))
                }
                r => verify_answer(r),
            });
        }
        let sigs = batch::sign_batch_with(&signs, &self.engine);
        for (&i, r) in s_at.iter().zip(sigs) {
            out[i] = Some(match r {
                Ok(sig) => Response::Signature(sig),
                Err(e) => Response::Error(error_response(e)),
            });
        }
        out.into_iter()
            .map(|r| {
                r.unwrap_or_else(|| {
                    Response::error(ErrorCode::INTERNAL, "batch item left unanswered")
                })
            })
            .collect()
    }

    fn verify(&self, r: VerifyRequest) -> Result<Response, ErrorResponse> {
        let inline;
        let vk = match &r.key {
            KeyRef::Id(id) => &self.key(id)?.1,
            KeyRef::Inline {
                algorithm,
                public_key,
            } => {
                let alg = Self::inline_alg(algorithm)?;
                inline = VerifyingKey::from_bytes(alg, public_key)
                    .map_err(|e| Self::bad_inline_key(alg, e))?;
                &inline
            }
        };
        self.message_cap(vk.algorithm(), &r.input)?;
        let verdict = match &r.input {
            Input::Message(m) => vk.verify(m, &r.context, &r.signature),
            Input::Mu(mu) => vk.verify_mu(mu, &r.signature),
        };
        Ok(verify_answer(verdict))
    }
}

/// A verification result as the protocol answers it.
fn verify_answer(r: Result<(), Error>) -> Response {
    match r {
        Ok(()) => Response::Valid,
        Err(Error::VerificationFailed | Error::InvalidSignature) => Response::Invalid,
        Err(e) => Response::Error(error_response(e)),
    }
}

/// An input and context as an engine item takes them. With μ the context is dropped: μ
/// binds it already, and the single calls (`sign_mu`, `verify_mu`) ignore it as well.
fn engine_message<'a>(input: &'a Input, context: &'a [u8]) -> (Message<'a>, &'a [u8]) {
    match input {
        Input::Message(m) => (Message::Raw(m), context),
        Input::Mu(mu) => (Message::Mu(mu), &[]),
    }
}

impl Handler for KeyMapHandler {
    fn authenticate(&self, token: &[u8]) -> Result<(), ErrorResponse> {
        self.authorize(Some(token))
    }

    fn handle(&self, auth: Option<&[u8]>, req: Request) -> Response {
        let result = self.authorize(auth).and_then(|()| match req {
            Request::Sign(r) => self.sign(r),
            Request::Verify(r) => self.verify(r),
            _ => Err(ErrorResponse::new(
                ErrorCode::BAD_REQUEST,
                "only SIGN and VERIFY reach the handler",
            )),
        });
        result.unwrap_or_else(Response::Error)
    }

    fn handle_batch(&self, auth: Option<&[u8]>, items: Vec<Request>) -> Vec<Response> {
        match self.authorize(auth) {
            Ok(()) => self.batch(&items),
            // As every single request would be answered.
            Err(e) => vec![Response::Error(e); items.len()],
        }
    }
}
