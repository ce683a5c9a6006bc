//! The engine: device jobs first (with CPU fallback), then the CPU engine — grouping by
//! parameter set and backend, lockstep ML-DSA verification, work units over threads.

use super::device::{Device, Job, JobOutput, Operation, OwnedSignItem, OwnedVerifyItem, Ticket};
use super::kernel_device::DeviceTransforms;
use super::{sign_one, verify_one, Message, Options, SignItem, VerifyItem, VerifyKey};
use crate::algorithm::Algorithm;
use crate::any;
use crate::error::{DeviceError, Error};
use crate::kernels::mldsa::{self as km, Kernels};
use crate::kernels::select;
use crate::mldsa::batch as mb;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;
use core::sync::atomic::{AtomicUsize, Ordering};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Items of one ML-DSA lockstep unit on the CPU. Eight fills the eight-way Keccak and
/// keeps a unit's polynomials in L2; with a kernel device attached a unit is the whole
/// group (up to [`DEVICE_GROUP`]) so the device sees one large request per stage.
const LOCKSTEP: usize = 8;
const DEVICE_GROUP: usize = 256;

/// Verifies `items` as the options say.
pub(crate) fn verify(items: &[VerifyItem<'_>], opts: &Options) -> Vec<Result<(), Error>> {
    let mut out: Vec<Option<Result<(), Error>>> = vec![None; items.len()];
    if let Some(dev) = &opts.device {
        let jobs = on_device(dev.as_ref(), Operation::Verify, items, |it| it.algorithm());
        run_jobs(
            dev.as_ref(),
            jobs,
            &mut out,
            |idx| {
                Job::Verify(
                    idx.iter()
                        .map(|&i| OwnedVerifyItem::from_item(&items[i]))
                        .collect(),
                )
            },
            |o| match o {
                JobOutput::Verify(v) => Some(v),
                _ => None,
            },
        );
    }
    let rest: Vec<usize> = (0..items.len()).filter(|&i| out[i].is_none()).collect();
    for (i, r) in cpu_verify(items, &rest, opts) {
        out[i] = Some(r);
    }
    out.into_iter()
        .map(|r| r.unwrap_or(Err(Error::Device(DeviceError::Failed))))
        .collect()
}

/// Signs `items` as the options say.
pub(crate) fn sign(items: &[SignItem<'_>], opts: &Options) -> Vec<Result<Vec<u8>, Error>> {
    let mut out: Vec<Option<Result<Vec<u8>, Error>>> = vec![None; items.len()];
    if let Some(dev) = &opts.device {
        let jobs = on_device(dev.as_ref(), Operation::Sign, items, |it| it.algorithm());
        run_jobs(
            dev.as_ref(),
            jobs,
            &mut out,
            |idx| {
                Job::Sign(
                    idx.iter()
                        .map(|&i| OwnedSignItem::from_item(&items[i]))
                        .collect(),
                )
            },
            |o| match o {
                JobOutput::Sign(v) => Some(v),
                _ => None,
            },
        );
    }
    let rest: Vec<usize> = (0..items.len()).filter(|&i| out[i].is_none()).collect();
    for (i, r) in run_units(opts.threads, &rest, |&i| vec![(i, sign_one(&items[i]))]) {
        out[i] = Some(r);
    }
    out.into_iter()
        .map(|r| r.unwrap_or(Err(Error::Device(DeviceError::Failed))))
        .collect()
}

/// The device's share of a batch: the indices of the items it supports, cut into jobs of
/// its preferred size (at most its maximum).
fn on_device<T>(
    dev: &dyn Device,
    op: Operation,
    items: &[T],
    alg: impl Fn(&T) -> Algorithm,
) -> Vec<Vec<usize>> {
    let caps = dev.capabilities();
    let size = caps.preferred_batch.clamp(1, caps.max_batch.max(1));
    let idx: Vec<usize> = (0..items.len())
        .filter(|&i| caps.supports(alg(&items[i]), op))
        .collect();
    idx.chunks(size).map(<[usize]>::to_vec).collect()
}

/// Submits the jobs (at most `max_in_flight` outstanding), collects the outputs in
/// whatever order they complete, and leaves `out[i] = None` for every item whose job was
/// refused, failed, timed out or answered malformed (the CPU runs those).
fn run_jobs<R>(
    dev: &dyn Device,
    jobs: Vec<Vec<usize>>,
    out: &mut [Option<Result<R, Error>>],
    make: impl Fn(&[usize]) -> Job,
    take: impl Fn(JobOutput) -> Option<Vec<Result<R, Error>>>,
) {
    let caps = dev.capabilities();
    let limit = caps.max_in_flight.max(1);
    let mut waiting: Vec<(Ticket, Vec<usize>, Instant)> = Vec::new();
    let mut accept = |idx: &[usize], r: Result<JobOutput, DeviceError>| {
        if let Ok(o) = r {
            if let Some(v) = take(o).filter(|v| v.len() == idx.len()) {
                for (&i, r) in idx.iter().zip(v) {
                    out[i] = Some(r);
                }
            }
        }
    };
    let mut queue = jobs.into_iter();
    loop {
        // Fill the device up to its in-flight limit; a refused job stays with the CPU.
        while waiting.len() < limit {
            let Some(idx) = queue.next() else { break };
            match dev.submit(make(&idx)) {
                Ok(t) => waiting.push((t, idx, Instant::now())),
                Err(DeviceError::Busy) if !waiting.is_empty() => {
                    // Try this job again once something completes.
                    queue = core::iter::once(idx)
                        .chain(queue)
                        .collect::<Vec<_>>()
                        .into_iter();
                    break;
                }
                Err(_) => {}
            }
        }
        if waiting.is_empty() {
            if queue.len() == 0 {
                return;
            }
            continue;
        }
        // Completions in any order; jobs past their deadline go to the CPU.
        let mut progressed = false;
        let mut k = 0;
        while k < waiting.len() {
            let (t, _, start) = waiting[k];
            let r = match dev.poll(t) {
                Some(r) => Some(r),
                None if start.elapsed() >= caps.timeout => Some(Err(DeviceError::TimedOut)),
                None => None,
            };
            if let Some(r) = r {
                let (_, idx, _) = waiting.swap_remove(k);
                accept(&idx, r);
                progressed = true;
            } else {
                k += 1;
            }
        }
        if !progressed {
            std::thread::sleep(Duration::from_micros(100));
        }
    }
}

/// A lockstep unit's key: parameter set and the kernel table its keys run on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct GroupKey {
    ps: crate::mldsa::ParamSet,
    kern: usize,
}

/// The CPU engine over `idx`: ML-DSA items in lockstep units per (parameter set,
/// backend), every other item a unit of its own.
fn cpu_verify(
    items: &[VerifyItem<'_>],
    idx: &[usize],
    opts: &Options,
) -> Vec<(usize, Result<(), Error>)> {
    let encoded_kern = km::kernels(opts.backend.unwrap_or_else(select::active));
    let mut groups: HashMap<GroupKey, (&'static Kernels, Vec<usize>)> = HashMap::new();
    let mut order: Vec<GroupKey> = Vec::new();
    let mut singles: Vec<usize> = Vec::new();
    for &i in idx {
        let it = &items[i];
        let mu_with_ctx = matches!(it.message, Message::Mu(_)) && !it.context.is_empty();
        let (ps, kern) = match it.key {
            // `Unsupported` in the single call: left to it.
            _ if mu_with_ctx => {
                singles.push(i);
                continue;
            }
            VerifyKey::Object(any::VerifyingKey::MlDsa(vk)) => (vk.param_set(), vk.kern),
            VerifyKey::Encoded {
                alg: Algorithm::MlDsa(ps),
                ..
            } => (ps, encoded_kern),
            _ => {
                singles.push(i);
                continue;
            }
        };
        let key = GroupKey {
            ps,
            kern: kern as *const Kernels as usize,
        };
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                (kern, Vec::new())
            })
            .1
            .push(i);
    }
    let unit = if opts.kernel_device.is_some() {
        DEVICE_GROUP
    } else {
        LOCKSTEP
    };
    let mut units: Vec<Unit> = Vec::new();
    for key in order {
        let (kern, members) = &groups[&key];
        for chunk in members.chunks(unit) {
            units.push(Unit::MlDsa(key.ps, kern, chunk.to_vec()));
        }
    }
    units.extend(singles.into_iter().map(Unit::Single));
    let kdev = opts.kernel_device.as_deref();
    run_units(opts.threads, &units, |u| match u {
        Unit::Single(i) => vec![(*i, verify_one(&items[*i]))],
        Unit::MlDsa(ps, kern, members) => {
            let group: Vec<mb::Item<'_>> = members.iter().map(|&i| mldsa_item(&items[i])).collect();
            let mut res = vec![Ok(()); members.len()];
            match kdev {
                Some(dev) => {
                    let tf = DeviceTransforms { kern, dev };
                    mb::verify_group(*ps, kern, &tf, &group, &mut res)
                }
                None => mb::verify_group(*ps, kern, &mb::TableTransforms(kern), &group, &mut res),
            }
            members.iter().copied().zip(res).collect()
        }
    })
}

/// A piece of CPU work: one item, or an ML-DSA lockstep group.
enum Unit {
    Single(usize),
    MlDsa(crate::mldsa::ParamSet, &'static Kernels, Vec<usize>),
}

/// An ML-DSA batch item in the lockstep path's terms (a μ with a context never gets
/// here: `cpu_verify` leaves it to the single call).
fn mldsa_item<'a>(it: &VerifyItem<'a>) -> mb::Item<'a> {
    mb::Item {
        key: match it.key {
            VerifyKey::Object(any::VerifyingKey::MlDsa(vk)) => mb::KeyIn::Object(vk),
            VerifyKey::Object(k) => mb::KeyIn::Encoded(k.to_bytes()),
            VerifyKey::Encoded { pk, .. } => mb::KeyIn::Encoded(pk),
        },
        msg: match it.message {
            Message::Raw(msg) => mb::MsgIn::Raw {
                msg,
                ctx: it.context,
            },
            Message::Mu(m) => mb::MsgIn::Mu(m),
        },
        sig: it.signature,
    }
}

/// Runs `f` over every unit on the requested threads and gathers the results.
///
/// The calling thread works too: it and `threads − 1` helpers spawned into a rayon pool
/// take units from one shared counter until none is left. Why not `pool.install`: that
/// hands everything to the pool's threads and leaves the caller waiting for them to wake
/// — on a VM, tens of microseconds per call once the workers sleep, a large share of a
/// 64-item batch (measured: 2 threads slower than 1 when calls come between other
/// work). Here a late helper finds the units already taken and costs nothing.
fn run_units<U: Sync, R: Send>(
    threads: Option<usize>,
    units: &[U],
    f: impl Fn(&U) -> Vec<(usize, R)> + Sync,
) -> Vec<(usize, R)> {
    let n = threads.unwrap_or_else(rayon::current_num_threads);
    if n <= 1 || units.len() <= 1 || forked_child() {
        return units.iter().flat_map(&f).collect();
    }
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::with_capacity(units.len()));
    let work = || {
        let mut mine = Vec::new();
        while let Some(u) = units.get(next.fetch_add(1, Ordering::Relaxed)) {
            mine.extend(f(u));
        }
        done.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
    };
    let work = &work;
    let helpers = (n - 1).min(units.len() - 1);
    match threads {
        None => rayon::in_place_scope(|s| spawn_and_work(s, helpers, work)),
        Some(n) => match pool(n - 1) {
            Some(p) => p.in_place_scope(|s| spawn_and_work(s, helpers, work)),
            None => work(),
        },
    }
    done.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Spawns `helpers` copies of `work` into the scope's pool and runs one here.
fn spawn_and_work<'s, F: Fn() + Sync>(s: &rayon::Scope<'s>, helpers: usize, work: &'s F) {
    for _ in 0..helpers {
        s.spawn(move |_| work());
    }
    work();
}

/// Whether this process is a child forked after the engine's threads were started here.
/// Threads do not survive fork(): such a child (multiprocessing's default start method on
/// Linux) inherits pools whose workers do not exist and would wait on them forever, so it
/// runs its batches on the calling thread (its siblings are the parallelism). The first
/// process to use the engine's threads owns them. (A rayon global pool started by other
/// code before a fork is beyond the engine's sight.)
fn forked_child() -> bool {
    use core::sync::atomic::{AtomicU32, Ordering};
    static OWNER: AtomicU32 = AtomicU32::new(0);
    let pid = std::process::id();
    match OWNER.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => false,
        Err(owner) => owner != pid,
    }
}

/// A rayon pool of `n` threads (the helpers of a call on `n + 1` threads), built once per
/// size and kept.
fn pool(n: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&n) {
        return Some(Arc::clone(p));
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| alloc::format!("pqsig-batch-{i}"))
            .build()
            .ok()?,
    );
    pools.insert(n, Arc::clone(&p));
    Some(p)
}
