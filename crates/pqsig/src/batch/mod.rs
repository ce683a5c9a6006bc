//! The batch engine: the one place where many signing and verification operations meet.
//!
//! [`verify_batch`] and [`sign_batch`] take items of any algorithms and keys (key objects
//! or encodings, a message or an external μ, a context) and return one result per item,
//! in input order. Each item's result is exactly what the single call gives
//! ([`any::VerifyingKey::verify`], [`any::SigningKey::sign`], ...): deterministic
//! signatures are byte-identical, and a bad item fails alone with its own typed error.
//!
//! Where the work runs ([`Options`]):
//! * **The CPU engine** (the default). Items are grouped by parameter set and backend;
//!   ML-DSA verification runs each group in lockstep (`mldsa::batch`: the single-stream
//!   hashes of the group multi-way, ExpandA lanes filled across keys, one NTT call for
//!   the group), the other schemes item by item. Groups are cut into work units spread
//!   over the cores: the calling thread and helper threads that join it (`workers.rs`);
//!   [`Options::threads`] sets how many (`None`: one per core; `Some(1)`: the calling
//!   thread alone).
//! * **A device** ([`device::Device`]): an engine that takes whole batches, chosen by
//!   name ([`Options::device`], `PQSIG_DEVICE=NAME`, the CLI's `--device NAME`). Work
//!   the device declines, cannot take now (busy), fails or times out runs on the CPU
//!   engine instead, with the same results.
//! * **A kernel device** ([`KernelDevice`]): a device that serves only the
//!   NTT / inverse NTT entries of the CPU engine's kernel table (the ML-DSA FPGA design's
//!   `{buffer, num_polys, mode}` request). With one attached, each lockstep group's
//!   transforms reach it as one request per stage; a failed or malformed reply is redone
//!   by the CPU kernels. Kernel devices are registered by name
//!   ([`register_kernel_device`]) like batch devices; [`set_kernel_device`] routes the
//!   transforms of single operations (keygen, sign, verify) to one process-wide, as
//!   the CLI's `--device NAME` does for a kernel device.
//!
//! Available with feature `std` (threads, device registry, OS randomness for hedged
//! signing).
//!
//! ```
//! use pqsig::any::SigningKey;
//! use pqsig::batch::{self, Options, SignItem, VerifyItem};
//! use pqsig::Algorithm;
//!
//! let alg = Algorithm::from_name("ML-DSA-65")?;
//! let keys: Vec<SigningKey> =
//!     (0..4u8).map(|i| SigningKey::from_seed(alg, &[i; 32])).collect::<Result<_, _>>()?;
//! let msgs: Vec<Vec<u8>> = (0..4).map(|i| vec![i; 10]).collect();
//! let sign: Vec<SignItem> =
//!     keys.iter().zip(&msgs).map(|(k, m)| SignItem::new(k, m).deterministic()).collect();
//! let sigs: Vec<Vec<u8>> = batch::sign_batch(&sign).into_iter().collect::<Result<_, _>>()?;
//! let pks: Vec<Vec<u8>> = keys.iter().map(|k| k.verifying_key().to_bytes().to_vec()).collect();
//! let items: Vec<VerifyItem> =
//!     (0..4).map(|i| VerifyItem::encoded(alg, &pks[i], &msgs[i], &sigs[i])).collect();
//! assert!(batch::verify_batch_with(&items, &Options::threads(2)).iter().all(|r| r.is_ok()));
//! // A bad item fails alone, with the single call's error.
//! let mut bad = items.clone();
//! bad[1].signature = &sigs[2];
//! let got = batch::verify_batch(&bad);
//! assert_eq!(got[1], Err(pqsig::Error::VerificationFailed));
//! assert!(got[0].is_ok() && got[2].is_ok() && got[3].is_ok());
//! # Ok::<(), pqsig::Error>(())
//! ```

pub mod device;
mod engine;
mod kernel_device;
mod workers;

use crate::algorithm::Algorithm;
use crate::any;
use crate::error::Error;
use crate::kernels::select::Backend;
use alloc::sync::Arc;
use alloc::vec::Vec;

pub use crate::kernels::device::{DeviceWorkspace, KernelDevice, TransformMode};
pub use device::{Capabilities, Device, DeviceInfo, Job, JobOutput, Operation, Ticket};
pub use kernel_device::{
    kernel_device, kernel_device_by_name, kernel_devices, register_kernel_device,
    set_kernel_device, transform_mldsa_on, MlDsaPoly, RequestCycles,
};

/// A public key as a batch item holds it.
#[derive(Clone, Copy, Debug)]
pub enum VerifyKey<'a> {
    /// A decoded key (its backend is used).
    Object(&'a any::VerifyingKey),
    /// A standard public-key encoding, decoded by the engine
    /// ([`any::VerifyingKey::from_bytes`]; `InvalidKey` fails only this item).
    Encoded { alg: Algorithm, pk: &'a [u8] },
}

/// A secret key as a batch item holds it.
#[derive(Clone, Copy, Debug)]
pub enum SignKey<'a> {
    /// A decoded key (its backend is used).
    Object(&'a any::SigningKey),
    /// A secret-key encoding or seed, decoded by the engine
    /// ([`any::SigningKey::from_bytes`]).
    Encoded { alg: Algorithm, sk: &'a [u8] },
}

/// What is signed or verified.
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// The message itself (with the item's context string).
    Raw(&'a [u8]),
    /// An externally computed 64-byte μ ([`any::VerifyingKey::compute_mu`]; ML-DSA and
    /// FN-DSA). The item's context must be empty (it is part of μ).
    Mu(&'a [u8]),
}

/// One signature to verify.
#[derive(Clone, Copy, Debug)]
pub struct VerifyItem<'a> {
    pub key: VerifyKey<'a>,
    pub message: Message<'a>,
    /// Context string (empty for round-3 Falcon and SNOVA, which define none).
    pub context: &'a [u8],
    pub signature: &'a [u8],
}

impl<'a> VerifyItem<'a> {
    /// An item verifying `sig` over `msg` (empty context) under a key object.
    pub fn new(key: &'a any::VerifyingKey, msg: &'a [u8], sig: &'a [u8]) -> Self {
        VerifyItem {
            key: VerifyKey::Object(key),
            message: Message::Raw(msg),
            context: &[],
            signature: sig,
        }
    }

    /// An item verifying `sig` over `msg` (empty context) under an encoded key.
    pub fn encoded(alg: Algorithm, pk: &'a [u8], msg: &'a [u8], sig: &'a [u8]) -> Self {
        VerifyItem {
            key: VerifyKey::Encoded { alg, pk },
            message: Message::Raw(msg),
            context: &[],
            signature: sig,
        }
    }

    /// The same item with context string `ctx`.
    pub fn with_context(mut self, ctx: &'a [u8]) -> Self {
        self.context = ctx;
        self
    }

    /// The algorithm of the item's key.
    pub fn algorithm(&self) -> Algorithm {
        match self.key {
            VerifyKey::Object(k) => k.algorithm(),
            VerifyKey::Encoded { alg, .. } => alg,
        }
    }
}

/// One message to sign.
#[derive(Clone, Copy, Debug)]
pub struct SignItem<'a> {
    pub key: SignKey<'a>,
    pub message: Message<'a>,
    /// Context string (empty for round-3 Falcon and SNOVA).
    pub context: &'a [u8],
    /// Deterministic signing (ML-DSA only; `Unsupported` elsewhere). Otherwise hedged
    /// with fresh OS randomness per item, as [`any::SigningKey::sign`].
    pub deterministic: bool,
}

impl<'a> SignItem<'a> {
    /// An item signing `msg` (empty context, hedged) with a key object.
    pub fn new(key: &'a any::SigningKey, msg: &'a [u8]) -> Self {
        SignItem {
            key: SignKey::Object(key),
            message: Message::Raw(msg),
            context: &[],
            deterministic: false,
        }
    }

    /// The same item with context string `ctx`.
    pub fn with_context(mut self, ctx: &'a [u8]) -> Self {
        self.context = ctx;
        self
    }

    /// The same item signed deterministically (ML-DSA).
    pub fn deterministic(mut self) -> Self {
        self.deterministic = true;
        self
    }

    /// The algorithm of the item's key.
    pub fn algorithm(&self) -> Algorithm {
        match self.key {
            SignKey::Object(k) => k.algorithm(),
            SignKey::Encoded { alg, .. } => alg,
        }
    }
}

/// Where and how a batch runs.
#[derive(Clone, Default)]
pub struct Options {
    /// Threads of the CPU engine: `None` for one per core, `Some(1)` for the calling
    /// thread only, `Some(n)` for the caller and `n − 1` helper threads.
    pub threads: Option<usize>,
    /// A batch device; `None` for the CPU engine alone.
    pub device: Option<Arc<dyn Device>>,
    /// A device serving the CPU engine's NTT / inverse NTT (ML-DSA groups).
    pub kernel_device: Option<Arc<dyn KernelDevice>>,
    /// Backend for keys given as encodings (`None`: the process-wide backend). Key
    /// objects always run on their own backend.
    pub backend: Option<Backend>,
}

impl core::fmt::Debug for Options {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Options")
            .field("threads", &self.threads)
            .field("device", &self.device.as_ref().map(|d| d.info().name))
            .field(
                "kernel_device",
                &self.kernel_device.as_ref().map(|d| d.name().to_string()),
            )
            .field("backend", &self.backend)
            .finish()
    }
}

impl Options {
    /// The CPU engine on `threads` threads.
    pub fn threads(threads: usize) -> Self {
        Options {
            threads: Some(threads.max(1)),
            ..Options::default()
        }
    }

    /// The defaults with the device named by `PQSIG_DEVICE` (unset, empty, `cpu` or an
    /// unknown name: the CPU engine; an unknown name does not make signing impossible,
    /// as with `PQSIG_BACKEND`).
    pub fn from_env() -> Self {
        match std::env::var("PQSIG_DEVICE") {
            Ok(v) if !v.trim().is_empty() => {
                Options::default().with_device_name(&v).unwrap_or_default()
            }
            _ => Options::default(),
        }
    }

    /// The same options with the device registered as `name`: a batch device, or a
    /// kernel device serving the CPU engine's transforms (`cpu` for none;
    /// `Device(NotFound)` for an unknown name).
    pub fn with_device_name(mut self, name: &str) -> Result<Self, Error> {
        match device::by_name(name) {
            Ok(dev) => self.device = dev,
            Err(e) => {
                self.kernel_device = Some(kernel_device_by_name(name).ok_or(e)?);
            }
        }
        Ok(self)
    }

    /// Every name `with_device_name` accepts: `cpu`, the batch devices, the kernel
    /// devices, in registration order.
    pub fn device_names() -> Vec<String> {
        core::iter::once(device::CPU.to_string())
            .chain(device::list().iter().map(|d| d.info().name))
            .chain(kernel_devices().iter().map(|d| d.name()))
            .collect()
    }
}

/// Verifies every item (CPU engine, or the `PQSIG_DEVICE` device): `Ok(())` for a valid
/// signature, otherwise the error the single call gives.
pub fn verify_batch(items: &[VerifyItem<'_>]) -> Vec<Result<(), Error>> {
    verify_batch_with(items, &Options::from_env())
}

/// [`verify_batch`] with explicit options.
pub fn verify_batch_with(items: &[VerifyItem<'_>], opts: &Options) -> Vec<Result<(), Error>> {
    engine::verify(items, opts)
}

/// Signs every item (CPU engine, or the `PQSIG_DEVICE` device): the signature, or the
/// error the single call gives.
pub fn sign_batch(items: &[SignItem<'_>]) -> Vec<Result<Vec<u8>, Error>> {
    sign_batch_with(items, &Options::from_env())
}

/// [`sign_batch`] with explicit options.
pub fn sign_batch_with(items: &[SignItem<'_>], opts: &Options) -> Vec<Result<Vec<u8>, Error>> {
    engine::sign(items, opts)
}

/// The single call an item stands for (the reference every batch path must equal).
pub(crate) fn verify_one(it: &VerifyItem<'_>) -> Result<(), Error> {
    let decoded;
    let vk = match it.key {
        VerifyKey::Object(k) => k,
        VerifyKey::Encoded { alg, pk } => {
            decoded = any::VerifyingKey::from_bytes(alg, pk)?;
            &decoded
        }
    };
    match it.message {
        Message::Raw(m) => vk.verify(m, it.context, it.signature),
        Message::Mu(mu) if it.context.is_empty() => vk.verify_mu(mu, it.signature),
        Message::Mu(_) => Err(Error::Unsupported),
    }
}

/// The single call a signing item stands for.
pub(crate) fn sign_one(it: &SignItem<'_>) -> Result<Vec<u8>, Error> {
    let decoded;
    let sk = match it.key {
        SignKey::Object(k) => k,
        SignKey::Encoded { alg, sk } => {
            decoded = any::SigningKey::from_bytes(alg, sk)?;
            &decoded
        }
    };
    match it.message {
        Message::Raw(m) if it.deterministic => sk.sign_deterministic(m, it.context),
        Message::Raw(m) => sk.sign(m, it.context),
        Message::Mu(mu) if it.context.is_empty() => sk.sign_mu(mu, it.deterministic),
        Message::Mu(_) => Err(Error::Unsupported),
    }
}
