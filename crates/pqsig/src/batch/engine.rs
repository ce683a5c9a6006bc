//! The engine: device jobs first (with CPU fallback), then the CPU engine — grouping by
//! parameter set and backend, lockstep ML-DSA verification, work units over threads.

use super::device::{Device, Job, JobOutput, Operation, OwnedSignItem, OwnedVerifyItem, Ticket};
use super::kernel_device::DeviceTransforms;
use super::{sign_one, verify_one, Message, Options, SignItem, VerifyItem, VerifyKey};
use crate::algorithm::Algorithm;
use crate::any;
use crate::error::{DeviceError, Error};
use crate::falcon::batch as fb;
use crate::kernels::falcon::ntt::{self as fntt, NttKernels};
use crate::kernels::mldsa::{self as km, Kernels};
use crate::kernels::select;
use crate::mldsa::batch as mb;
use alloc::vec;
use alloc::vec::Vec;
use std::collections::HashMap;
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

/// A lockstep unit's key: scheme, parameter set and the kernel table its keys run on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum GroupKey {
    MlDsa(crate::mldsa::ParamSet, usize),
    Falcon(crate::falcon::ParamSet, usize),
}

/// A piece of CPU work: one item, or a lockstep group.
enum Unit {
    Single(usize),
    MlDsa(crate::mldsa::ParamSet, &'static Kernels, Vec<usize>),
    Falcon(crate::falcon::ParamSet, &'static NttKernels, Vec<usize>),
}

/// The CPU engine over `idx`: ML-DSA and round-3 Falcon items in lockstep units per
/// (parameter set, backend), every other item a unit of its own.
fn cpu_verify(
    items: &[VerifyItem<'_>],
    idx: &[usize],
    opts: &Options,
) -> Vec<(usize, Result<(), Error>)> {
    let encoded_backend = opts.backend.unwrap_or_else(select::active);
    let encoded_kern = km::kernels(encoded_backend);
    let encoded_fkern = fntt::kernels(encoded_backend);
    let mut groups: HashMap<GroupKey, Vec<usize>> = HashMap::new();
    let mut order: Vec<(GroupKey, Unit)> = Vec::new();
    let mut singles: Vec<usize> = Vec::new();
    for &i in idx {
        let it = &items[i];
        let raw_no_ctx = matches!(it.message, Message::Raw(_)) && it.context.is_empty();
        let mu_with_ctx = matches!(it.message, Message::Mu(_)) && !it.context.is_empty();
        let (key, template) = match it.key {
            // `Unsupported` in the single call: left to it.
            _ if mu_with_ctx => {
                singles.push(i);
                continue;
            }
            VerifyKey::Object(any::VerifyingKey::MlDsa(vk)) => (
                GroupKey::MlDsa(vk.param_set(), vk.kern as *const Kernels as usize),
                Unit::MlDsa(vk.param_set(), vk.kern, Vec::new()),
            ),
            VerifyKey::Encoded {
                alg: Algorithm::MlDsa(ps),
                ..
            } => (
                GroupKey::MlDsa(ps, encoded_kern as *const Kernels as usize),
                Unit::MlDsa(ps, encoded_kern, Vec::new()),
            ),
            // Round-3 Falcon defines no context and no external μ: those items take the
            // single call's path (and its error).
            VerifyKey::Object(any::VerifyingKey::Falcon(vk)) if raw_no_ctx => {
                let fk = fntt::kernels(vk.backend);
                (
                    GroupKey::Falcon(vk.param_set(), fk as *const NttKernels as usize),
                    Unit::Falcon(vk.param_set(), fk, Vec::new()),
                )
            }
            VerifyKey::Encoded {
                alg: Algorithm::Falcon(ps),
                ..
            } if raw_no_ctx => (
                GroupKey::Falcon(ps, encoded_fkern as *const NttKernels as usize),
                Unit::Falcon(ps, encoded_fkern, Vec::new()),
            ),
            _ => {
                singles.push(i);
                continue;
            }
        };
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push((key, template));
                Vec::new()
            })
            .push(i);
    }
    let threads = thread_count(opts.threads);
    let mut units: Vec<Unit> = Vec::new();
    for (key, template) in order {
        let members = &groups[&key];
        let mut rest = &members[..];
        while !rest.is_empty() {
            let take = if opts.kernel_device.is_some() {
                DEVICE_GROUP
            } else {
                guided(rest.len(), threads)
            };
            let (chunk, tail) = rest.split_at(take.min(rest.len()));
            units.push(match template {
                Unit::MlDsa(ps, kern, _) => Unit::MlDsa(ps, kern, chunk.to_vec()),
                Unit::Falcon(ps, fk, _) => Unit::Falcon(ps, fk, chunk.to_vec()),
                Unit::Single(_) => unreachable!("groups hold lockstep units only"),
            });
            rest = tail;
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
        Unit::Falcon(ps, fk, members) => {
            let group: Vec<fb::Item<'_>> =
                members.iter().map(|&i| falcon_item(&items[i])).collect();
            let mut res = vec![Ok(()); members.len()];
            fb::verify_group(*ps, fk, kdev, &group, &mut res);
            members.iter().copied().zip(res).collect()
        }
    })
}

/// A round-3 Falcon batch item in the lockstep path's terms (raw message, no context).
fn falcon_item<'a>(it: &VerifyItem<'a>) -> fb::Item<'a> {
    fb::Item {
        key: match it.key {
            VerifyKey::Object(any::VerifyingKey::Falcon(vk)) => fb::KeyIn::Object(vk),
            VerifyKey::Object(k) => fb::KeyIn::Encoded(k.to_bytes()),
            VerifyKey::Encoded { pk, .. } => fb::KeyIn::Encoded(pk),
        },
        msg: match it.message {
            Message::Raw(m) => m,
            Message::Mu(m) => m,
        },
        sig: it.signature,
    }
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

/// The size of the next lockstep unit when `left` items of a group remain: full units
/// of [`LOCKSTEP`] while there is plenty of work, then smaller ones (guided scheduling:
/// about `left / (2·threads)`, at least 4 to keep the four-way Keccak full), so that
/// the threads finish together — with 8-item units
/// a thread that started late or runs slower (a VM's vCPUs do) could leave the others
/// waiting for most of a unit at the end.
fn guided(left: usize, threads: usize) -> usize {
    if threads <= 1 {
        return LOCKSTEP;
    }
    (left / (2 * threads)).clamp(4, LOCKSTEP)
}

/// The engine's thread count for `Options::threads` (`None`: one per core; 1 in a
/// forked child, see [`forked_child`]).
fn thread_count(threads: Option<usize>) -> usize {
    if forked_child() {
        return 1;
    }
    threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, core::num::NonZeroUsize::get)
    })
}

/// Runs `f` over every unit on the requested threads and gathers the results
/// (`workers.rs`: the caller works, helpers join it).
fn run_units<U: Sync, R: Send>(
    threads: Option<usize>,
    units: &[U],
    f: impl Fn(&U) -> Vec<(usize, R)> + Sync,
) -> Vec<(usize, R)> {
    super::workers::run_units(thread_count(threads), units, f)
}

/// Whether this process is a child forked after the engine's threads were started here.
/// Threads do not survive fork(): such a child (multiprocessing's default start method on
/// Linux) inherits pools whose helpers do not exist, so it runs its batches on the
/// calling thread (its siblings are the parallelism). The first process to use the
/// engine's threads owns them. (A post nobody joins is retracted by its caller, so the
/// child would not hang on the missing helpers, but the pools' locks may have been held
/// at the fork.)
fn forked_child() -> bool {
    use core::sync::atomic::{AtomicU32, Ordering};
    static OWNER: AtomicU32 = AtomicU32::new(0);
    let pid = std::process::id();
    match OWNER.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => false,
        Err(owner) => owner != pid,
    }
}
