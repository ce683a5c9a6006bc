//! `pqsig._native`: the compiled half of the `pqsig` Python package.
//!
//! Python sees three classes — [`PyAlgorithm`] (`pqsig.Algorithm`, one instance per
//! algorithm: `pqsig.MLDSA65`, ...), [`PyPrivateKey`] and [`PyPublicKey`] — and the
//! exception `pqsig.InvalidSignature`. Every heavy operation (key generation, signing,
//! verification, batch verification) runs with the GIL released (`Python::detach`).
//! Batches (`verify_many`, `sign_many`) go to the library's batch engine
//! (`pqsig::batch`) as one batch: ML-DSA verified in lockstep, spread over the cores.
//! Keys pickle by their standard raw encodings through `__reduce__`, which names the
//! loader functions of the pure-Python package (`pqsig._private_key_from_bytes`, ...)
//! so that pickle can import them by name.

// The Python API's names (`from_seed`, `from_public_bytes` on an Algorithm object) follow
// pyca/cryptography, not Rust's conventions.
#![allow(clippy::wrong_self_convention)]

use std::borrow::Cow;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyTuple};
use zeroize::Zeroizing;

use pqsig::batch::{self, Message, SignItem, SignKey, VerifyItem, VerifyKey};
use pqsig::keyfile::{self, KeyFileError, MlDsaForm};
use pqsig::{any, Algorithm, Error};

/// What a key's `__reduce__` returns: (loader function, (algorithm name, bytes)).
type Reduced<'py> = (Bound<'py, PyAny>, (&'static str, Bound<'py, PyBytes>));

create_exception!(
    pqsig,
    InvalidSignature,
    PyException,
    "The signature does not verify (or is malformed) for this key, data and context."
);

/// Maps a library error to a Python exception.
fn py_err(alg: Algorithm, e: Error) -> PyErr {
    py_err_at("", alg, e)
}

/// [`py_err`] with `prefix` before the message (a batch names the failing item).
fn py_err_at(prefix: &str, alg: Algorithm, e: Error) -> PyErr {
    match e {
        Error::VerificationFailed | Error::InvalidSignature => {
            InvalidSignature::new_err(format!("{prefix}{}: {e}", alg.name()))
        }
        Error::Unsupported => PyValueError::new_err(format!(
            "{prefix}{}: {e} (round-3 Falcon and SNOVA take no context string; \
             deterministic signing is ML-DSA only)",
            alg.name()
        )),
        Error::InvalidLength | Error::InvalidKey | Error::ContextTooLong => {
            PyValueError::new_err(format!("{prefix}{}: {e}", alg.name()))
        }
        Error::UnknownAlgorithm => PyValueError::new_err(format!("{prefix}{e}")),
        _ => PyRuntimeError::new_err(format!("{prefix}{}: {e}", alg.name())),
    }
}

/// Borrows `bytes` as is; copies `bytearray` and `memoryview` (mutable buffers must not
/// change while the GIL is released).
fn as_bytes<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(b.as_bytes()));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Cow::Owned(b.to_vec()));
    }
    if obj.cast::<PyMemoryView>().is_ok() {
        let b = obj.call_method0("tobytes")?;
        return Ok(Cow::Owned(b.cast::<PyBytes>()?.as_bytes().to_vec()));
    }
    Err(PyTypeError::new_err(format!(
        "{what} must be bytes, bytearray or memoryview, not {}",
        obj.get_type().name()?
    )))
}

fn context_bytes<'a>(ctx: Option<&'a Bound<'_, PyAny>>) -> PyResult<Cow<'a, [u8]>> {
    match ctx {
        None => Ok(Cow::Borrowed(&[])),
        Some(c) if c.is_none() => Ok(Cow::Borrowed(&[])),
        Some(c) => as_bytes(c, "context"),
    }
}

/// A key encoding: the scheme's raw bytes, or SubjectPublicKeyInfo / PKCS#8 (RFC 9881
/// for ML-DSA) in PEM or DER.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Enc {
    Raw,
    Pem,
    Der,
}

/// Parses an `encoding` argument: "raw", "pem" or "der" in any case, or an enum member
/// named like one (`str(member)` ending in `.PEM`, or a `.value` string), so pyca's
/// `serialization.Encoding.PEM` works too.
fn encoding_arg(encoding: Option<&Bound<'_, PyAny>>) -> PyResult<Enc> {
    let Some(obj) = encoding else {
        return Ok(Enc::Raw);
    };
    let bad = || PyTypeError::new_err("encoding must be \"raw\", \"pem\" or \"der\"");
    let text: String = if let Ok(t) = obj.extract::<String>() {
        t
    } else if let Ok(v) = obj.getattr("value").and_then(|v| v.extract::<String>()) {
        v
    } else if obj.is_instance_of::<pyo3::types::PyInt>() {
        return Err(bad());
    } else {
        let shown = obj.str().map_err(|_| bad())?.to_string();
        match shown.rsplit_once('.') {
            Some((_, member)) => member.to_string(),
            None => return Err(bad()),
        }
    };
    match text.to_ascii_lowercase().as_str() {
        "raw" => Ok(Enc::Raw),
        "pem" => Ok(Enc::Pem),
        "der" => Ok(Enc::Der),
        _ => Err(PyValueError::new_err(format!(
            "unknown encoding {text:?} (expected \"raw\", \"pem\" or \"der\")"
        ))),
    }
}

/// Maps a key-file error to `ValueError` naming the algorithm (when known).
fn key_file_err(what: &str, e: KeyFileError) -> PyErr {
    PyValueError::new_err(format!("{what}: {e}"))
}

/// Checks that `data` is armoured as `enc` says (PEM text vs. a DER SEQUENCE).
fn check_armour(enc: Enc, data: &[u8]) -> PyResult<()> {
    let found = keyfile::detect(data);
    let want = if enc == Enc::Pem {
        keyfile::Encoding::Pem
    } else {
        keyfile::Encoding::Der
    };
    if found == want {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "data is not {} (looks like {})",
            if enc == Enc::Pem { "PEM" } else { "DER" },
            match found {
                keyfile::Encoding::Pem => "PEM",
                keyfile::Encoding::Der => "DER",
                keyfile::Encoding::Raw => "raw bytes",
            }
        )))
    }
}

fn lookup(name: &str) -> PyResult<Algorithm> {
    Algorithm::from_name(name).map_err(|_| {
        let known: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        PyValueError::new_err(format!(
            "unknown algorithm {name:?}; known: {}",
            known.join(", ")
        ))
    })
}

/// A signature algorithm (`pqsig.MLDSA65`, `pqsig.algorithm("SNOVA_I_S")`, ...).
#[pyclass(name = "Algorithm", module = "pqsig", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyAlgorithm {
    alg: Algorithm,
}

#[pymethods]
impl PyAlgorithm {
    /// The canonical name (`ML-DSA-65`, `Falcon-512`, `SNOVA_I_S`, ...).
    #[getter]
    fn name(&self) -> &'static str {
        self.alg.name()
    }
    #[getter]
    fn public_key_size(&self) -> usize {
        self.alg.public_key_len()
    }
    #[getter]
    fn private_key_size(&self) -> usize {
        self.alg.secret_key_len()
    }
    /// The signature size (the maximum, for compressed Falcon signatures).
    #[getter]
    fn signature_size(&self) -> usize {
        self.alg.signature_len()
    }
    #[getter]
    fn seed_size(&self) -> usize {
        self.alg.seed_len()
    }
    /// Whether a non-empty context string is accepted (ML-DSA and FN-DSA).
    #[getter]
    fn supports_context(&self) -> bool {
        self.alg.supports_context()
    }
    /// The key-file OID (dotted), and whether it is provisional (no final OID exists yet:
    /// Falcon uses Open Quantum Safe's experimental arc, FN-DSA and SNOVA a private one).
    #[getter]
    fn oid(&self) -> String {
        keyfile::oid_string(self.alg)
    }
    #[getter]
    fn oid_is_provisional(&self) -> bool {
        keyfile::oid_is_provisional(self.alg)
    }

    /// A new key pair from operating-system randomness.
    fn generate(&self, py: Python<'_>) -> PyResult<PyPrivateKey> {
        let alg = self.alg;
        let seed = any::random_seed(alg).map_err(|e| py_err(alg, e))?;
        PyPrivateKey::from_seed(py, alg, seed)
    }

    /// The key pair determined by `seed` (`seed_size` bytes), as `pqsig keygen --seed`.
    fn from_seed(&self, py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<PyPrivateKey> {
        let seed = Zeroizing::new(as_bytes(seed, "seed")?.into_owned());
        if seed.len() != self.alg.seed_len() {
            return Err(PyValueError::new_err(format!(
                "{}: seed must be {} bytes, got {}",
                self.alg.name(),
                self.alg.seed_len(),
                seed.len()
            )));
        }
        PyPrivateKey::from_seed(py, self.alg, seed)
    }

    /// Loads a private key. Raw: the standard encoding (`private_key_size` bytes,
    /// validated) or a seed (`seed_size` bytes). PEM/DER: PKCS#8 of this algorithm (for
    /// ML-DSA any RFC 9881 form; `both` is checked against its seed).
    #[pyo3(signature = (data, encoding = None))]
    fn from_private_bytes(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        encoding: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPrivateKey> {
        let enc = encoding_arg(encoding)?;
        let alg = self.alg;
        let data = Zeroizing::new(as_bytes(data, "data")?.into_owned());
        if enc != Enc::Raw {
            check_armour(enc, &data)?;
            let pk = py
                .detach(|| keyfile::decode_private_as(alg, &data))
                .map_err(|e| key_file_err(alg.name(), e))?;
            return PyPrivateKey::from_key_file(py, &pk);
        }
        let was_seed = data.len() == alg.seed_len() && data.len() != alg.secret_key_len();
        let key = py
            .detach(|| any::SigningKey::from_bytes(alg, &data))
            .map_err(|e| py_err(alg, e))?;
        Ok(PyPrivateKey::new(
            key,
            if was_seed { Some(data) } else { None },
        ))
    }

    /// Loads a public key: the standard encoding (`public_key_size` bytes) or, with
    /// encoding "pem"/"der", a SubjectPublicKeyInfo of this algorithm.
    #[pyo3(signature = (data, encoding = None))]
    fn from_public_bytes(
        &self,
        data: &Bound<'_, PyAny>,
        encoding: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyPublicKey> {
        let enc = encoding_arg(encoding)?;
        let data = as_bytes(data, "data")?;
        let raw = if enc == Enc::Raw {
            data.into_owned()
        } else {
            check_armour(enc, &data)?;
            keyfile::decode_public_as(self.alg, &data)
                .map_err(|e| key_file_err(self.alg.name(), e))?
        };
        PyPublicKey::from_raw(self.alg, &raw)
    }

    /// Batch verification: `items` is an iterable of `(public_key, signature, data)` or
    /// `(public_key, signature, data, context)`; returns one bool per item. Every public
    /// key must belong to this algorithm.
    fn verify_many(&self, py: Python<'_>, items: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
        verify_batch(py, items, Some(self.alg))
    }

    /// Batch signing: `items` is an iterable of `(private_key, data)` or
    /// `(private_key, data, context)`; returns one signature per item, in order. Every
    /// private key must belong to this algorithm. Hedged, or deterministic (ML-DSA only)
    /// with `deterministic=True`.
    #[pyo3(signature = (items, *, deterministic = false))]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyAny>,
        deterministic: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        sign_batch(py, items, Some(self.alg), deterministic)
    }

    fn __repr__(&self) -> String {
        format!("<pqsig.Algorithm {}>", self.alg.name())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (&'static str,))> {
        Ok((
            py.import("pqsig")?.getattr("algorithm")?,
            (self.alg.name(),),
        ))
    }
}

/// A private (signing) key. Holds its public key; secrets are zeroized on drop by the
/// library's key types.
#[pyclass(name = "PrivateKey", module = "pqsig", frozen)]
pub struct PyPrivateKey {
    alg: Algorithm,
    key: any::SigningKey,
    public: any::VerifyingKey,
    /// The seed the key was generated from, when known (generate, from_seed, or a seed
    /// passed to from_private_bytes).
    seed: Option<Zeroizing<Vec<u8>>>,
}

impl PyPrivateKey {
    fn new(key: any::SigningKey, seed: Option<Zeroizing<Vec<u8>>>) -> Self {
        PyPrivateKey {
            alg: key.algorithm(),
            public: key.verifying_key(),
            key,
            seed,
        }
    }

    fn from_seed(py: Python<'_>, alg: Algorithm, seed: Zeroizing<Vec<u8>>) -> PyResult<Self> {
        let key = py
            .detach(|| any::SigningKey::from_seed(alg, &seed))
            .map_err(|e| py_err(alg, e))?;
        Ok(Self::new(key, Some(seed)))
    }

    /// A decoded PKCS#8 key (ML-DSA keeps the seed when the file had it).
    fn from_key_file(py: Python<'_>, pk: &keyfile::PrivateKey) -> PyResult<Self> {
        let alg = pk.algorithm();
        let key = py
            .detach(|| pk.signing_key())
            .map_err(|e| key_file_err(alg.name(), e))?;
        let seed = pk.seed().map(|s| Zeroizing::new(s.to_vec()));
        Ok(Self::new(key, seed))
    }
}

#[pymethods]
impl PyPrivateKey {
    #[getter]
    fn algorithm(&self) -> PyAlgorithm {
        PyAlgorithm { alg: self.alg }
    }

    /// Signs `data` (fresh randomness: hedged ML-DSA, randomized Falcon/FN-DSA/SNOVA).
    /// A non-empty `context` is accepted by ML-DSA and FN-DSA only (at most 255 bytes).
    #[pyo3(signature = (data, context = None))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        context: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = as_bytes(data, "data")?;
        let ctx = context_bytes(context)?;
        let sig = py
            .detach(|| self.key.sign(&data, &ctx))
            .map_err(|e| py_err(self.alg, e))?;
        Ok(PyBytes::new(py, &sig))
    }

    /// Deterministic signing (ML-DSA only): the same key, data and context always give
    /// the same signature.
    #[pyo3(signature = (data, context = None))]
    fn sign_deterministic<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        context: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let data = as_bytes(data, "data")?;
        let ctx = context_bytes(context)?;
        let sig = py
            .detach(|| self.key.sign_deterministic(&data, &ctx))
            .map_err(|e| py_err(self.alg, e))?;
        Ok(PyBytes::new(py, &sig))
    }

    /// Signs every `data` of `items` (an iterable of bytes) with this key and one
    /// `context`, as one batch over the cores; one signature per item, in order. Hedged,
    /// or deterministic (ML-DSA only) with `deterministic=True`.
    #[pyo3(signature = (items, context = None, *, deterministic = false))]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyAny>,
        context: Option<&Bound<'py, PyAny>>,
        deterministic: bool,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let ctx = context_bytes(context)?;
        let objs: Vec<Bound<'py, PyAny>> = items.try_iter()?.collect::<PyResult<_>>()?;
        let data: Vec<Cow<'_, [u8]>> = objs
            .iter()
            .enumerate()
            .map(|(i, d)| item_bytes("sign_many", i, d, "data"))
            .collect::<PyResult<_>>()?;
        let batch: Vec<SignItem<'_>> = data
            .iter()
            .map(|d| SignItem {
                key: SignKey::Object(&self.key),
                message: Message::Raw(d),
                context: &ctx,
                deterministic,
            })
            .collect();
        let alg = self.alg;
        let sigs = py.detach(|| batch::sign_batch_with(&batch, &engine_options()));
        signatures(py, sigs, |_| alg)
    }

    fn public_key(&self) -> PyPublicKey {
        PyPublicKey {
            alg: self.alg,
            key: self.public.clone(),
        }
    }

    /// Raw (the default): the standard private encoding (`format="expanded"`, the
    /// default: the same bytes as the CLI's raw key files and the KAT `sk`) or the
    /// key-generation seed (`format="seed"`). PEM/DER: PKCS#8; for ML-DSA `format`
    /// picks the RFC 9881 form, "seed" (the default when the seed is known, as RFC 9881
    /// recommends), "expanded" or "both". ValueError for a seed form of a key loaded
    /// without its seed.
    #[pyo3(signature = (encoding = None, format = None))]
    fn private_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: Option<&Bound<'py, PyAny>>,
        format: Option<&str>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let enc = encoding_arg(encoding)?;
        let no_seed = || {
            PyValueError::new_err(
                "this private key was loaded from its expanded encoding: no seed is known",
            )
        };
        if enc == Enc::Raw {
            return match format.unwrap_or("expanded") {
                "expanded" => Ok(PyBytes::new(py, &self.key.to_bytes())),
                "seed" => self
                    .seed
                    .as_ref()
                    .map(|s| PyBytes::new(py, s))
                    .ok_or_else(no_seed),
                f => Err(PyValueError::new_err(format!(
                    "unknown format {f:?} (expected \"expanded\" or \"seed\")"
                ))),
            };
        }
        let form = match format {
            None if self.seed.is_none() => MlDsaForm::Expanded,
            None | Some("seed") => MlDsaForm::Seed,
            Some("expanded") => MlDsaForm::Expanded,
            Some("both") => MlDsaForm::Both,
            Some(f) => {
                return Err(PyValueError::new_err(format!(
                    "unknown format {f:?} (expected \"seed\", \"expanded\" or \"both\")"
                )))
            }
        };
        let out: Zeroizing<Vec<u8>> = if enc == Enc::Pem {
            let pem = keyfile::encode_signing_key_pem(&self.key, form)
                .map_err(|e| key_file_err(self.alg.name(), e))?;
            Zeroizing::new(pem.as_bytes().to_vec())
        } else {
            keyfile::encode_signing_key_der(&self.key, form)
                .map_err(|e| key_file_err(self.alg.name(), e))?
        };
        Ok(PyBytes::new(py, &out))
    }

    /// The key-generation seed, or None when the key was loaded from its expanded form.
    #[getter]
    fn seed<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        self.seed.as_ref().map(|s| PyBytes::new(py, s))
    }

    fn __repr__(&self) -> String {
        format!("<pqsig.PrivateKey {}>", self.alg.name())
    }

    /// Pickles as (algorithm name, seed) when the seed is known, else (name, expanded key).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let bytes = match &self.seed {
            Some(s) => PyBytes::new(py, s),
            None => PyBytes::new(py, &self.key.to_bytes()),
        };
        let f = py.import("pqsig")?.getattr("_private_key_from_bytes")?;
        Ok((f, (self.alg.name(), bytes)))
    }
}

/// A public (verification) key.
#[pyclass(name = "PublicKey", module = "pqsig", frozen)]
pub struct PyPublicKey {
    alg: Algorithm,
    key: any::VerifyingKey,
}

impl PyPublicKey {
    fn from_raw(alg: Algorithm, raw: &[u8]) -> PyResult<Self> {
        let key = any::VerifyingKey::from_bytes(alg, raw).map_err(|e| py_err(alg, e))?;
        Ok(PyPublicKey { alg, key })
    }
}

#[pymethods]
impl PyPublicKey {
    #[getter]
    fn algorithm(&self) -> PyAlgorithm {
        PyAlgorithm { alg: self.alg }
    }

    /// Returns None for a valid signature; raises `pqsig.InvalidSignature` otherwise.
    #[pyo3(signature = (signature, data, context = None))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        context: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let sig = as_bytes(signature, "signature")?;
        let data = as_bytes(data, "data")?;
        let ctx = context_bytes(context)?;
        py.detach(|| self.key.verify(&data, &ctx, &sig))
            .map_err(|e| py_err(self.alg, e))
    }

    /// Raw (the default): the standard encoding; "pem"/"der": SubjectPublicKeyInfo.
    #[pyo3(signature = (encoding = None))]
    fn public_bytes<'py>(
        &self,
        py: Python<'py>,
        encoding: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let raw = self.key.to_bytes();
        let err = |e| key_file_err(self.alg.name(), e);
        Ok(match encoding_arg(encoding)? {
            Enc::Raw => PyBytes::new(py, raw),
            Enc::Pem => PyBytes::new(
                py,
                keyfile::encode_public_pem(self.alg, raw)
                    .map_err(err)?
                    .as_bytes(),
            ),
            Enc::Der => PyBytes::new(py, &keyfile::encode_public_der(self.alg, raw).map_err(err)?),
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyPublicKey>() {
            Ok(o) => {
                let o = o.get();
                o.alg == self.alg && o.key.to_bytes() == self.key.to_bytes()
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.alg.hash(&mut h);
        self.key.to_bytes().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!("<pqsig.PublicKey {}>", self.alg.name())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let f = py.import("pqsig")?.getattr("_public_key_from_bytes")?;
        Ok((f, (self.alg.name(), PyBytes::new(py, self.key.to_bytes()))))
    }
}

/// The batch engine's options for one call: `PQSIG_DEVICE` as for the CLI, rayon's
/// global pool (the engine itself runs on the calling thread in a child forked after it
/// started its threads: `multiprocessing` with the fork start method).
fn engine_options() -> batch::Options {
    batch::Options::from_env()
}

/// The fields of a batch item: a tuple of `min..=max` (at most 4) fields, as owned
/// references (they keep the objects alive while the GIL is released), absent ones
/// `None`. A fixed array, so a batch of any size costs no allocation per item.
fn item_fields<'py>(
    what: &str,
    shape: &str,
    i: usize,
    item: Bound<'py, PyAny>,
    (min, max): (usize, usize),
) -> PyResult<[Option<Bound<'py, PyAny>>; 4]> {
    let t = item
        .cast_into::<PyTuple>()
        .map_err(|_| PyTypeError::new_err(format!("{what}: item {i} must be a tuple {shape}")))?;
    let n = t.len();
    if n < min || n > max.min(4) {
        return Err(PyTypeError::new_err(format!(
            "{what}: item {i} has {n} fields, expected {shape}"
        )));
    }
    let mut f = [None, None, None, None];
    for (k, slot) in f.iter_mut().enumerate().take(n) {
        *slot = Some(t.get_item(k)?);
    }
    Ok(f)
}

/// Field `k` of an item that [`item_fields`] checked has at least `k + 1` fields.
fn field<'a, 'py>(
    f: &'a [Option<Bound<'py, PyAny>>; 4],
    k: usize,
) -> PyResult<&'a Bound<'py, PyAny>> {
    f[k].as_ref()
        .ok_or_else(|| PyRuntimeError::new_err("batch item field missing (bug)"))
}

/// [`as_bytes`] for a field of batch item `i` (the error names the item).
fn item_bytes<'a>(
    what: &str,
    i: usize,
    obj: &'a Bound<'_, PyAny>,
    field: &str,
) -> PyResult<Cow<'a, [u8]>> {
    as_bytes(obj, field).map_err(|e| prefixed(what, i, e))
}

/// [`context_bytes`] for batch item `i`.
fn item_context<'a>(
    what: &str,
    i: usize,
    obj: Option<&'a Bound<'_, PyAny>>,
) -> PyResult<Cow<'a, [u8]>> {
    context_bytes(obj).map_err(|e| prefixed(what, i, e))
}

/// A field's TypeError with the batch and item named (built only on failure).
fn prefixed(what: &str, i: usize, e: PyErr) -> PyErr {
    Python::attach(|py| PyTypeError::new_err(format!("{what}: item {i}: {}", e.value(py))))
}

/// Checks that an item's key is of algorithm `only` (when given).
fn check_alg(what: &str, i: usize, got: Algorithm, only: Option<Algorithm>) -> PyResult<()> {
    match only {
        Some(a) if a != got => Err(PyValueError::new_err(format!(
            "{what}: item {i} holds a {} key, not {}",
            got.name(),
            a.name()
        ))),
        _ => Ok(()),
    }
}

/// `verify_many`: the items are read under the GIL in one pass (bytes borrowed in place,
/// only bytearray / memoryview copied), then verified as one engine batch with the GIL
/// released. Any failure of an item (a bad or malformed signature, a context the
/// algorithm does not take) is `False` for that item.
fn verify_batch(
    py: Python<'_>,
    items: &Bound<'_, PyAny>,
    only: Option<Algorithm>,
) -> PyResult<Vec<bool>> {
    const W: &str = "verify_many";
    const SHAPE: &str = "(public_key, signature, data[, context])";
    let mut fields = Vec::with_capacity(items.len().unwrap_or(0));
    for (i, item) in items.try_iter()?.enumerate() {
        fields.push(item_fields(W, SHAPE, i, item?, (3, 4))?);
    }
    let mut data = Vec::with_capacity(fields.len());
    for (i, f) in fields.iter().enumerate() {
        let pk = field(f, 0)?.cast::<PyPublicKey>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{W}: item {i}: first field must be a pqsig.PublicKey"
            ))
        })?;
        let pk = pk.get();
        check_alg(W, i, pk.alg, only)?;
        let sig = item_bytes(W, i, field(f, 1)?, "signature")?;
        let msg = item_bytes(W, i, field(f, 2)?, "data")?;
        let ctx = item_context(W, i, f[3].as_ref())?;
        data.push((pk, sig, msg, ctx));
    }
    let batch: Vec<VerifyItem<'_>> = data
        .iter()
        .map(|(pk, sig, msg, ctx)| VerifyItem {
            key: VerifyKey::Object(&pk.key),
            message: Message::Raw(msg),
            context: ctx,
            signature: sig,
        })
        .collect();
    Ok(py.detach(|| {
        batch::verify_batch_with(&batch, &engine_options())
            .iter()
            .map(Result::is_ok)
            .collect()
    }))
}

/// `sign_many`: items `(private_key, data[, context])` read under the GIL, signed as one
/// engine batch with the GIL released. The first failing item raises (as `sign` would,
/// its index in the message); otherwise one signature per item.
fn sign_batch<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    only: Option<Algorithm>,
    deterministic: bool,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    const W: &str = "sign_many";
    const SHAPE: &str = "(private_key, data[, context])";
    let mut fields = Vec::with_capacity(items.len().unwrap_or(0));
    for (i, item) in items.try_iter()?.enumerate() {
        fields.push(item_fields(W, SHAPE, i, item?, (2, 3))?);
    }
    let mut data = Vec::with_capacity(fields.len());
    for (i, f) in fields.iter().enumerate() {
        let sk = field(f, 0)?.cast::<PyPrivateKey>().map_err(|_| {
            PyTypeError::new_err(format!(
                "{W}: item {i}: first field must be a pqsig.PrivateKey"
            ))
        })?;
        let sk = sk.get();
        check_alg(W, i, sk.alg, only)?;
        let msg = item_bytes(W, i, field(f, 1)?, "data")?;
        let ctx = item_context(W, i, f[2].as_ref())?;
        data.push((sk, msg, ctx));
    }
    let batch: Vec<SignItem<'_>> = data
        .iter()
        .map(|(sk, msg, ctx)| SignItem {
            key: SignKey::Object(&sk.key),
            message: Message::Raw(msg),
            context: ctx,
            deterministic,
        })
        .collect();
    let sigs = py.detach(|| batch::sign_batch_with(&batch, &engine_options()));
    signatures(py, sigs, |i| data[i].0.alg)
}

/// The engine's signatures as `bytes`, or the first failing item's error.
fn signatures(
    py: Python<'_>,
    sigs: Vec<Result<Vec<u8>, Error>>,
    alg: impl Fn(usize) -> Algorithm,
) -> PyResult<Vec<Bound<'_, PyBytes>>> {
    sigs.into_iter()
        .enumerate()
        .map(|(i, r)| match r {
            Ok(sig) => Ok(PyBytes::new(py, &sig)),
            Err(e) => Err(py_err_at(&format!("sign_many: item {i}: "), alg(i), e)),
        })
        .collect()
}

/// `pqsig.verify_many(items)`: batch verification over keys of any algorithm.
#[pyfunction]
fn verify_many(py: Python<'_>, items: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
    verify_batch(py, items, None)
}

/// `pqsig.sign_many(items, *, deterministic=False)`: batch signing over keys of any
/// algorithm.
#[pyfunction]
#[pyo3(signature = (items, *, deterministic = false))]
fn sign_many<'py>(
    py: Python<'py>,
    items: &Bound<'py, PyAny>,
    deterministic: bool,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    sign_batch(py, items, None, deterministic)
}

/// `pqsig.load_pem_private_key(data)` / `load_der_private_key`: a PKCS#8 private key of
/// any algorithm (told by its OID).
#[pyfunction]
fn load_pem_private_key(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<PyPrivateKey> {
    load_private(py, data, Enc::Pem)
}

#[pyfunction]
fn load_der_private_key(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<PyPrivateKey> {
    load_private(py, data, Enc::Der)
}

fn load_private(py: Python<'_>, data: &Bound<'_, PyAny>, enc: Enc) -> PyResult<PyPrivateKey> {
    let data = Zeroizing::new(as_bytes(data, "data")?.into_owned());
    check_armour(enc, &data)?;
    let pk = py
        .detach(|| keyfile::decode_private(&data))
        .map_err(|e| key_file_err("private key", e))?;
    PyPrivateKey::from_key_file(py, &pk)
}

/// `pqsig.load_pem_public_key(data)` / `load_der_public_key`: a SubjectPublicKeyInfo of
/// any algorithm (told by its OID).
#[pyfunction]
fn load_pem_public_key(data: &Bound<'_, PyAny>) -> PyResult<PyPublicKey> {
    load_public(data, Enc::Pem)
}

#[pyfunction]
fn load_der_public_key(data: &Bound<'_, PyAny>) -> PyResult<PyPublicKey> {
    load_public(data, Enc::Der)
}

fn load_public(data: &Bound<'_, PyAny>, enc: Enc) -> PyResult<PyPublicKey> {
    let data = as_bytes(data, "data")?;
    check_armour(enc, &data)?;
    let (alg, raw) = keyfile::decode_public(&data).map_err(|e| key_file_err("public key", e))?;
    PyPublicKey::from_raw(alg, &raw)
}

/// `pqsig.algorithm(name)`: case-insensitive, `-` and `_` interchangeable.
#[pyfunction]
fn algorithm(name: &str) -> PyResult<PyAlgorithm> {
    Ok(PyAlgorithm { alg: lookup(name)? })
}

/// `pqsig.algorithms()`: every algorithm, in `pqsig list` order.
#[pyfunction]
fn algorithms() -> Vec<PyAlgorithm> {
    Algorithm::ALL
        .iter()
        .map(|&alg| PyAlgorithm { alg })
        .collect()
}

/// `pqsig.backend()`: the arithmetic backend in use (`portable`, `avx2`, ...).
#[pyfunction]
fn backend() -> &'static str {
    pqsig::backend::active().name()
}

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAlgorithm>()?;
    m.add_class::<PyPrivateKey>()?;
    m.add_class::<PyPublicKey>()?;
    m.add("InvalidSignature", m.py().get_type::<InvalidSignature>())?;
    m.add_function(wrap_pyfunction!(verify_many, m)?)?;
    m.add_function(wrap_pyfunction!(sign_many, m)?)?;
    m.add_function(wrap_pyfunction!(algorithm, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(backend, m)?)?;
    m.add_function(wrap_pyfunction!(load_pem_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(load_der_private_key, m)?)?;
    m.add_function(wrap_pyfunction!(load_pem_public_key, m)?)?;
    m.add_function(wrap_pyfunction!(load_der_public_key, m)?)?;
    Ok(())
}
