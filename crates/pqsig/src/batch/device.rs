//! Devices that take whole batches: the trait, owned jobs, and the registry of named
//! instances.
//!
//! A device says what it takes ([`Capabilities`]), accepts a [`Job`] and hands back a
//! [`Ticket`] at once ([`Device::submit`]), and delivers the [`JobOutput`] later
//! ([`Device::poll`], [`Device::wait`]); tickets may complete in any order. The engine
//! keeps at most `max_in_flight` jobs on a device, and runs on the CPU whatever the
//! device declines, cannot take (busy), fails, answers malformed or does not answer in
//! time. Jobs own their data (keys as encodings), so a device may run them on another
//! thread, process or card.
//!
//! Devices are registered instances with names ([`register`], [`by_name`], [`list`]).
//! Built in: `cpu-queue`, a worker thread that runs jobs through the CPU engine (an
//! asynchronous offload queue with no hardware; it is also what the CLI and tests use to
//! exercise the device path end to end).

use super::{Message, Options, SignItem, SignKey, VerifyItem, VerifyKey};
use crate::algorithm::Algorithm;
use crate::error::{DeviceError, Error};
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use std::collections::HashMap;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};
use zeroize::Zeroizing;

/// An operation a device may offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    Verify,
    Sign,
}

/// What a device takes.
#[derive(Clone, Debug)]
pub struct Capabilities {
    /// Algorithms it runs (items of others go to the CPU).
    pub algorithms: Vec<Algorithm>,
    /// Operations it runs.
    pub operations: Vec<Operation>,
    /// Items per job it runs best with (the engine cuts batches into jobs of this size).
    pub preferred_batch: usize,
    /// Most items in one job.
    pub max_batch: usize,
    /// Most jobs in flight at once.
    pub max_in_flight: usize,
    /// How long the engine waits for one job before running it on the CPU.
    pub timeout: Duration,
}

impl Capabilities {
    /// Whether the device runs `op` for `alg`.
    pub fn supports(&self, alg: Algorithm, op: Operation) -> bool {
        self.operations.contains(&op) && self.algorithms.contains(&alg)
    }
}

/// A device's name and a one-line description (`pqsig device list`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub name: String,
    pub description: String,
}

/// A submitted job's handle (unique per device).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ticket(pub u64);

/// A verification item with its data owned.
#[derive(Clone, Debug)]
pub struct OwnedVerifyItem {
    pub alg: Algorithm,
    /// Standard public-key encoding.
    pub pk: Vec<u8>,
    /// The message, or a 64-byte μ when `is_mu`.
    pub msg: Vec<u8>,
    pub is_mu: bool,
    pub ctx: Vec<u8>,
    pub sig: Vec<u8>,
}

/// A signing item with its data owned (the secret key wiped on drop).
#[derive(Clone)]
pub struct OwnedSignItem {
    pub alg: Algorithm,
    /// Standard secret-key encoding (or seed).
    pub sk: Zeroizing<Vec<u8>>,
    /// The message, or a 64-byte μ when `is_mu`.
    pub msg: Vec<u8>,
    pub is_mu: bool,
    pub ctx: Vec<u8>,
    pub deterministic: bool,
}

impl core::fmt::Debug for OwnedSignItem {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "OwnedSignItem({}, <secret>)", self.alg)
    }
}

impl OwnedVerifyItem {
    pub(crate) fn from_item(it: &VerifyItem<'_>) -> Self {
        let (alg, pk) = match it.key {
            VerifyKey::Object(k) => (k.algorithm(), k.to_bytes().to_vec()),
            VerifyKey::Encoded { alg, pk } => (alg, pk.to_vec()),
        };
        let (msg, is_mu) = match it.message {
            Message::Raw(m) => (m.to_vec(), false),
            Message::Mu(m) => (m.to_vec(), true),
        };
        OwnedVerifyItem {
            alg,
            pk,
            msg,
            is_mu,
            ctx: it.context.to_vec(),
            sig: it.signature.to_vec(),
        }
    }

    /// The borrowed item (for a device that runs the CPU engine).
    pub fn as_item(&self) -> VerifyItem<'_> {
        VerifyItem {
            key: VerifyKey::Encoded {
                alg: self.alg,
                pk: &self.pk,
            },
            message: if self.is_mu {
                Message::Mu(&self.msg)
            } else {
                Message::Raw(&self.msg)
            },
            context: &self.ctx,
            signature: &self.sig,
        }
    }
}

impl OwnedSignItem {
    pub(crate) fn from_item(it: &SignItem<'_>) -> Self {
        let (alg, sk) = match it.key {
            SignKey::Object(k) => (k.algorithm(), k.to_bytes()),
            SignKey::Encoded { alg, sk } => (alg, Zeroizing::new(sk.to_vec())),
        };
        let (msg, is_mu) = match it.message {
            Message::Raw(m) => (m.to_vec(), false),
            Message::Mu(m) => (m.to_vec(), true),
        };
        OwnedSignItem {
            alg,
            sk,
            msg,
            is_mu,
            ctx: it.context.to_vec(),
            deterministic: it.deterministic,
        }
    }

    /// The borrowed item (for a device that runs the CPU engine).
    pub fn as_item(&self) -> SignItem<'_> {
        SignItem {
            key: SignKey::Encoded {
                alg: self.alg,
                sk: &self.sk,
            },
            message: if self.is_mu {
                Message::Mu(&self.msg)
            } else {
                Message::Raw(&self.msg)
            },
            context: &self.ctx,
            deterministic: self.deterministic,
        }
    }
}

/// Work handed to a device.
#[derive(Clone, Debug)]
pub enum Job {
    Verify(Vec<OwnedVerifyItem>),
    Sign(Vec<OwnedSignItem>),
}

impl Job {
    /// Number of items.
    pub fn len(&self) -> usize {
        match self {
            Job::Verify(v) => v.len(),
            Job::Sign(v) => v.len(),
        }
    }

    /// Whether the job has no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A device's answer: one result per item of the job, in the job's order. The engine
/// checks the kind and the count; a mismatch counts as a failed job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobOutput {
    Verify(Vec<Result<(), Error>>),
    Sign(Vec<Result<Vec<u8>, Error>>),
}

/// An engine that takes whole batches.
pub trait Device: Send + Sync {
    /// Name and description.
    fn info(&self) -> DeviceInfo;
    /// What it takes.
    fn capabilities(&self) -> Capabilities;
    /// Queues a job: a ticket at once, or `Busy` (at its in-flight limit), `Declined`
    /// (not a job it takes), `Failed`.
    fn submit(&self, job: Job) -> Result<Ticket, DeviceError>;
    /// The job's output if it is done (`None` while running). A ticket is answered once.
    fn poll(&self, ticket: Ticket) -> Option<Result<JobOutput, DeviceError>>;
    /// Blocks until the job is done or `timeout` passes (`TimedOut`).
    fn wait(&self, ticket: Ticket, timeout: Duration) -> Result<JobOutput, DeviceError> {
        let end = Instant::now() + timeout;
        loop {
            if let Some(r) = self.poll(ticket) {
                return r;
            }
            if Instant::now() >= end {
                return Err(DeviceError::TimedOut);
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }
}

fn registry() -> &'static Mutex<Vec<Arc<dyn Device>>> {
    static REG: OnceLock<Mutex<Vec<Arc<dyn Device>>>> = OnceLock::new();
    REG.get_or_init(|| Mutex::new(alloc::vec![Arc::new(CpuQueue::new()) as Arc<dyn Device>]))
}

/// Name of the CPU engine (no device) where a device name is asked for.
pub const CPU: &str = "cpu";

/// Registers a device under its name. `Unsupported` if the name is taken (or is `cpu`).
pub fn register(dev: Arc<dyn Device>) -> Result<(), Error> {
    let name = dev.info().name;
    let mut reg = registry().lock().unwrap_or_else(|e| e.into_inner());
    let kernel_taken = crate::kernels::device::kernel_device_by_name(&name).is_some();
    if name.eq_ignore_ascii_case(CPU) || kernel_taken || reg.iter().any(|d| d.info().name == name) {
        return Err(Error::Unsupported);
    }
    reg.push(dev);
    Ok(())
}

/// The registered devices, in registration order (built-in ones first).
pub fn list() -> Vec<Arc<dyn Device>> {
    registry().lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The device registered as `name` (case-insensitive); `Ok(None)` for `cpu` (the CPU
/// engine), `Device(NotFound)` for an unknown name.
pub fn by_name(name: &str) -> Result<Option<Arc<dyn Device>>, Error> {
    let name = name.trim();
    if name.eq_ignore_ascii_case(CPU) {
        return Ok(None);
    }
    list()
        .into_iter()
        .find(|d| d.info().name.eq_ignore_ascii_case(name))
        .map(Some)
        .ok_or(Error::Device(DeviceError::NotFound))
}

/// The built-in `cpu-queue` device: one worker thread that runs each job through the
/// CPU engine (all cores), jobs in submission order. At most 4 jobs in flight.
struct CpuQueue {
    inner: Arc<QueueInner>,
}

struct QueueInner {
    state: Mutex<QueueState>,
    work: Condvar,
    done: Condvar,
}

#[derive(Default)]
struct QueueState {
    next: u64,
    pending: std::collections::VecDeque<(u64, Job)>,
    running: Option<u64>,
    finished: HashMap<u64, JobOutput>,
    worker: bool,
}

const QUEUE_IN_FLIGHT: usize = 4;

impl QueueState {
    /// Whether ticket `t` is waiting or running (an unknown or already answered ticket
    /// is not).
    fn is_queued(&self, t: u64) -> bool {
        self.running == Some(t) || self.pending.iter().any(|(p, _)| *p == t)
    }
}

impl CpuQueue {
    fn new() -> Self {
        CpuQueue {
            inner: Arc::new(QueueInner {
                state: Mutex::new(QueueState::default()),
                work: Condvar::new(),
                done: Condvar::new(),
            }),
        }
    }

    fn run(inner: Arc<QueueInner>) {
        loop {
            let (t, job) = {
                let mut st = inner.state.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if let Some(j) = st.pending.pop_front() {
                        st.running = Some(j.0);
                        break j;
                    }
                    st = inner.work.wait(st).unwrap_or_else(|e| e.into_inner());
                }
            };
            let out = run_on_cpu(&job);
            let mut st = inner.state.lock().unwrap_or_else(|e| e.into_inner());
            st.running = None;
            st.finished.insert(t, out);
            inner.done.notify_all();
        }
    }
}

/// A job through the CPU engine (no device).
pub fn run_on_cpu(job: &Job) -> JobOutput {
    let opts = Options::default();
    match job {
        Job::Verify(items) => {
            let v: Vec<VerifyItem<'_>> = items.iter().map(OwnedVerifyItem::as_item).collect();
            JobOutput::Verify(super::engine::verify(&v, &opts))
        }
        Job::Sign(items) => {
            let v: Vec<SignItem<'_>> = items.iter().map(OwnedSignItem::as_item).collect();
            JobOutput::Sign(super::engine::sign(&v, &opts))
        }
    }
}

impl Device for CpuQueue {
    fn info(&self) -> DeviceInfo {
        DeviceInfo {
            name: "cpu-queue".into(),
            description: "asynchronous job queue: a worker thread running each job on the \
                          CPU engine (no hardware)"
                .into(),
        }
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            algorithms: Algorithm::ALL.to_vec(),
            operations: alloc::vec![Operation::Verify, Operation::Sign],
            preferred_batch: 256,
            max_batch: 4096,
            max_in_flight: QUEUE_IN_FLIGHT,
            timeout: Duration::from_secs(60),
        }
    }

    fn submit(&self, job: Job) -> Result<Ticket, DeviceError> {
        let mut st = self.inner.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.pending.len() + st.running.is_some() as usize >= QUEUE_IN_FLIGHT {
            return Err(DeviceError::Busy);
        }
        if !st.worker {
            let inner = Arc::clone(&self.inner);
            std::thread::Builder::new()
                .name("pqsig-cpu-queue".into())
                .spawn(move || CpuQueue::run(inner))
                .map_err(|_| DeviceError::Failed)?;
            st.worker = true;
        }
        st.next += 1;
        let t = st.next;
        st.pending.push_back((t, job));
        self.inner.work.notify_one();
        Ok(Ticket(t))
    }

    fn poll(&self, ticket: Ticket) -> Option<Result<JobOutput, DeviceError>> {
        let mut st = self.inner.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(out) = st.finished.remove(&ticket.0) {
            return Some(Ok(out));
        }
        if st.is_queued(ticket.0) {
            None
        } else {
            Some(Err(DeviceError::Failed))
        }
    }

    fn wait(&self, ticket: Ticket, timeout: Duration) -> Result<JobOutput, DeviceError> {
        let end = Instant::now() + timeout;
        let mut st = self.inner.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(out) = st.finished.remove(&ticket.0) {
                return Ok(out);
            }
            if !st.is_queued(ticket.0) {
                return Err(DeviceError::Failed);
            }
            let now = Instant::now();
            if now >= end {
                return Err(DeviceError::TimedOut);
            }
            st = self
                .inner
                .done
                .wait_timeout(st, end - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}
