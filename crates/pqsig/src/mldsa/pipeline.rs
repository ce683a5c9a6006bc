//! Verification of an ML-DSA group on a device that takes asynchronous requests
//! (`KernelDevice::pipelines`): the group is cut into sub-groups that go through three
//! stages, software-pipelined so that the host works while the device transforms.
//!
//! * **prepare** (host): keys decoded (tr, ExpandA, t1·2^d), μ, signatures unpacked,
//!   SampleInBall; then *one* forward request for the sub-group's t1 ‖ z ‖ c is started;
//! * **multiply**: that request's results, w'_approx = Â·z − c·t1·2^d per item, and the
//!   inverse-NTT request started;
//! * **finish**: its results, UseHint, c̃' = H(μ ‖ w1) and the verdicts.
//!
//! Step `t` runs prepare(t), multiply(t−1), finish(t−2): while the host prepares
//! sub-group `t` the device transforms `t−1`'s forward request and `t−2`'s inverse one,
//! so at most three requests are in flight and the device's queue rarely runs dry.
//! The stages call the lockstep path's own helpers (`super::batch`) on each sub-group:
//! every verdict is the single call's, and a device failure still only costs time
//! (`kernels::device::finish_mldsa` restores and recomputes on the CPU).
//!
//! Only devices that pipeline come here; the CPU table and other devices keep the
//! lockstep path, whose stages see the whole group.

use super::batch::{
    approx_w, check_commitments, compute_mus, distinct_keys, expand_keys, grow, sample_challenges,
    unpack_sigs, unpack_t1s, Item, KeyIn, KeyView,
};
use super::params::ParamSet;
use crate::error::Error;
use crate::kernels::device::{finish_mldsa, start_mldsa, KernelDevice, Started, TransformMode};
use crate::kernels::mldsa::{Kernels, Poly};
use alloc::vec;
use alloc::vec::Vec;
use core::cell::Cell;

/// Items per sub-group. Smaller sub-groups start the device sooner and leave less host
/// work after its last request; each costs one forward and one inverse request.
const SUB_ITEMS: usize = 8;

/// One sub-group's working polynomials. A sub-group's buffers are used from its
/// prepare stage to its finish stage, two steps later, so three sets serve any number
/// of sub-groups (sub-group `t` uses set `t mod 3`). Kept per thread, as the lockstep
/// path's scratch (public data).
#[derive(Default)]
struct SubScratch {
    /// Â of the decoded keys, key `j` at `j·k·l`.
    a_hat: Vec<Poly>,
    z: Vec<Poly>,
    h: Vec<Poly>,
    /// The forward request: t1·2^d of the decoded keys (`nk·k`), then the live items'
    /// z (`n·l`), then their c (`n`).
    fwd: Vec<Poly>,
    w1: Vec<Poly>,
    hl: Vec<Poly>,
    ct1: Vec<Poly>,
}

std::thread_local! {
    static SCRATCH: Cell<Vec<SubScratch>> = const { Cell::new(Vec::new()) };
}

/// A sub-group between stages.
struct Sub<'d> {
    lo: usize,
    hi: usize,
    /// Item `i`'s key among the decoded ones (keys given as encodings).
    slot: Vec<Option<usize>>,
    tr: Vec<[u8; 64]>,
    /// Keys decoded (their t1 heads the forward request).
    nk: usize,
    mu: Vec<[u8; 64]>,
    live: Vec<usize>,
    /// The request in flight (forward after prepare, inverse after multiply).
    pending: Option<Started<'d>>,
}

/// Verifies `items` (all of `ps`; keys given as objects run on `kern`, whose transforms
/// are the device's fallback) into `out[i]`, pipelined on `dev`.
pub(super) fn verify_group(
    ps: ParamSet,
    kern: &'static Kernels,
    dev: &dyn KernelDevice,
    items: &[Item<'_>],
    out: &mut [Result<(), Error>],
) {
    let m = items.len();
    debug_assert_eq!(out.len(), m);
    let count = m.div_ceil(SUB_ITEMS).max(1);
    let mut sets = SCRATCH.with(Cell::take);
    if sets.len() < 3 {
        sets.resize_with(3, SubScratch::default);
    }
    let mut subs: Vec<Sub<'_>> = Vec::with_capacity(count);
    for t in 0..count + 2 {
        if t < count {
            let (lo, hi) = (t * m / count, (t + 1) * m / count);
            let sub = prepare(
                ps,
                kern,
                dev,
                &items[lo..hi],
                &mut out[lo..hi],
                &mut sets[t % 3],
            );
            subs.push(Sub { lo, hi, ..sub });
        }
        if let Some(s) = t.checked_sub(1).filter(|&s| s < count) {
            let sub = &mut subs[s];
            multiply(ps, kern, dev, &items[sub.lo..sub.hi], sub, &mut sets[s % 3]);
        }
        if let Some(s) = t.checked_sub(2) {
            let sub = &mut subs[s];
            let (lo, hi) = (sub.lo, sub.hi);
            finish(
                ps,
                kern,
                &items[lo..hi],
                sub,
                &mut out[lo..hi],
                &mut sets[s % 3],
            );
        }
    }
    SCRATCH.with(|c| c.set(sets));
}

/// Host work up to the forward transforms, which it starts on the device.
fn prepare<'d>(
    ps: ParamSet,
    kern: &'static Kernels,
    dev: &'d dyn KernelDevice,
    items: &[Item<'_>],
    out: &mut [Result<(), Error>],
    sc: &mut SubScratch,
) -> Sub<'d> {
    let p = ps.params();
    let (k, l) = (p.k, p.l);
    let m = items.len();
    out.iter_mut().for_each(|r| *r = Ok(()));
    let keys = distinct_keys(p, items, out);
    let tr = if keys.pks.is_empty() {
        Vec::new()
    } else {
        expand_keys(p, kern, &keys.pks, &mut sc.a_hat)
    };
    let trs: Vec<Option<&[u8; 64]>> = items
        .iter()
        .enumerate()
        .map(|(i, it)| match it.key {
            KeyIn::Object(vk) => Some(&vk.tr),
            KeyIn::Encoded(_) => keys.slot[i].map(|j| &tr[j]),
        })
        .collect();
    let mut mu = vec![[0u8; 64]; m];
    compute_mus(kern, items, &trs, &mut mu, out);
    drop(trs);
    unpack_sigs(
        p,
        kern,
        items,
        out,
        grow(&mut sc.z, m * l),
        grow(&mut sc.h, m * k),
    );
    let live: Vec<usize> = (0..m).filter(|&i| out[i].is_ok()).collect();
    let mut sub = Sub {
        lo: 0,
        hi: 0,
        slot: keys.slot,
        tr,
        nk: 0,
        mu,
        live,
        pending: None,
    };
    if sub.live.is_empty() {
        return sub;
    }
    let (nk, n) = (keys.pks.len(), sub.live.len());
    sub.nk = nk;
    let fwd = grow(&mut sc.fwd, nk * k + n * l + n);
    let (t1, rest) = fwd.split_at_mut(nk * k);
    let (zl, c) = rest.split_at_mut(n * l);
    unpack_t1s(p, kern, &keys.pks, t1);
    for (j, &i) in sub.live.iter().enumerate() {
        zl[j * l..(j + 1) * l].copy_from_slice(&sc.z[i * l..(i + 1) * l]);
    }
    sample_challenges(p, kern, items, &sub.live, c);
    sub.pending = Some(start_mldsa(dev, TransformMode::MlDsaNtt, fwd));
    sub
}

/// The forward results, w'_approx per live item, and the inverse transform started.
fn multiply<'d>(
    ps: ParamSet,
    kern: &'static Kernels,
    dev: &'d dyn KernelDevice,
    items: &[Item<'_>],
    sub: &mut Sub<'d>,
    sc: &mut SubScratch,
) {
    let Some(started) = sub.pending.take() else {
        return;
    };
    let p = ps.params();
    let (k, l) = (p.k, p.l);
    let (nk, n) = (sub.nk, sub.live.len());
    let SubScratch {
        a_hat,
        h,
        fwd,
        w1,
        hl,
        ct1,
        ..
    } = sc;
    let fwd = &mut fwd[..nk * k + n * l + n];
    finish_mldsa(started, fwd, kern.ntt);
    let (t1_hat, rest) = fwd.split_at(nk * k);
    let (zl, c) = rest.split_at(n * l);
    let w1 = grow(w1, n * k);
    let ct1 = grow(ct1, k);
    let hl = grow(hl, n * k);
    let kl = k * l;
    for (j, &i) in sub.live.iter().enumerate() {
        let view = match items[i].key {
            KeyIn::Object(vk) => KeyView {
                tr: &vk.tr,
                a_hat: &vk.a_hat,
                t1_hat: &vk.t1_hat,
            },
            KeyIn::Encoded(_) => {
                // Live items with encoded keys always have one decoded.
                let Some(s) = sub.slot[i] else { continue };
                KeyView {
                    tr: &sub.tr[s],
                    a_hat: &a_hat[s * kl..(s + 1) * kl],
                    t1_hat: &t1_hat[s * k..(s + 1) * k],
                }
            }
        };
        approx_w(
            kern,
            &view,
            &zl[j * l..(j + 1) * l],
            &c[j],
            ct1,
            &mut w1[j * k..(j + 1) * k],
        );
        hl[j * k..(j + 1) * k].copy_from_slice(&h[i * k..(i + 1) * k]);
    }
    (kern.reduce32)(w1);
    sub.pending = Some(start_mldsa(dev, TransformMode::MlDsaInvNttToMont, w1));
}

/// The inverse results, then UseHint, the commitment hash and the verdicts.
fn finish(
    ps: ParamSet,
    kern: &'static Kernels,
    items: &[Item<'_>],
    sub: &mut Sub<'_>,
    out: &mut [Result<(), Error>],
    sc: &mut SubScratch,
) {
    let Some(started) = sub.pending.take() else {
        return;
    };
    let p = ps.params();
    let n = sub.live.len() * p.k;
    let w1 = &mut sc.w1[..n];
    finish_mldsa(started, w1, kern.invntt_tomont);
    check_commitments(p, kern, items, &sub.live, &sub.mu, w1, &mut sc.hl[..n], out);
}
