//! Verification of many ML-DSA signatures of one parameter set in lockstep (the batch
//! engine's ML-DSA path, `crate::batch`).
//!
//! Each stage of Algorithm 8 runs over the whole group before the next one starts, so
//! that the kernels see whole groups:
//! * the single-stream hashes of every signature — tr = H(pk) for keys given as
//!   encodings, μ, SampleInBall's first block and c̃' = H(μ ‖ w1) — run eight- or
//!   four-way across signatures ([`sample::h256_many`]); inputs of equal length are
//!   what the multi-way sponge takes, and within a parameter set pk, c̃ and μ ‖ w1 always
//!   have one length (μ's input is grouped by length);
//! * ExpandA of keys given as encodings fills all eight lanes with polynomials of
//!   different keys;
//! * the NTTs and inverse NTTs of the group are one kernel call each (the call a device
//!   attached to the kernel table receives as one request: [`Transforms`]).
//!
//! Each item's verdict is exactly the single call's: the same checks in the same order
//! (key length, μ length, context length, signature length, hint encoding, ‖z‖∞, c̃).

use super::encode;
use super::keys::VerifyingKey;
use super::params::{ParamSet, Params};
use super::sample;
use crate::error::Error;
use crate::kernels::device::KernelDevice;
use crate::kernels::keccak::sponge::SHAKE256_RATE;
use crate::kernels::mldsa::{Kernels, Poly};
use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::Cell;

/// A key as the batch caller holds it.
pub(crate) enum KeyIn<'a> {
    Object(&'a VerifyingKey),
    Encoded(&'a [u8]),
}

/// The message as the batch caller holds it.
pub(crate) enum MsgIn<'a> {
    /// Pure ML-DSA: message and context.
    Raw { msg: &'a [u8], ctx: &'a [u8] },
    /// External μ (must be 64 bytes).
    Mu(&'a [u8]),
}

/// One signature to check.
pub(crate) struct Item<'a> {
    pub key: KeyIn<'a>,
    pub msg: MsgIn<'a>,
    pub sig: &'a [u8],
}

/// The NTT and inverse NTT of a group: the kernel table's, or a device's with the
/// table as fallback (see `crate::batch::kernel_device`).
pub(crate) trait Transforms {
    fn ntt(&self, polys: &mut [Poly]);
    fn invntt_tomont(&self, polys: &mut [Poly]);
    /// A device that takes asynchronous requests (the group's kernel table is its
    /// fallback): the group is then verified in pipelined sub-groups
    /// ([`super::pipeline`]), the host preparing one while the device transforms another.
    fn pipelined(&self) -> Option<&dyn KernelDevice> {
        None
    }
}

/// The kernel table's own transforms.
pub(crate) struct TableTransforms<'k>(pub &'k Kernels);

impl Transforms for TableTransforms<'_> {
    fn ntt(&self, polys: &mut [Poly]) {
        (self.0.ntt)(polys)
    }
    fn invntt_tomont(&self, polys: &mut [Poly]) {
        (self.0.invntt_tomont)(polys)
    }
}

/// Messages longer than this are hashed one by one, straight from the caller's buffer,
/// instead of being copied next to tr for the multi-way sponge.
const MU_COPY_LIMIT: usize = 8192;

/// Verifies `items` (all of parameter set `ps`; keys given as objects must run on
/// `kern`) into `out[i]`.
pub(crate) fn verify_group(
    ps: ParamSet,
    kern: &'static Kernels,
    tf: &dyn Transforms,
    items: &[Item<'_>],
    out: &mut [Result<(), Error>],
) {
    if let Some(dev) = tf.pipelined() {
        return super::pipeline::verify_group(ps, kern, dev, items, out);
    }
    let mut sc = SCRATCH.with(Cell::take);
    verify_group_in(ps, kern, tf, items, out, &mut sc);
    SCRATCH.with(|c| c.set(sc));
}

/// A group's working polynomials, kept per thread between calls. Allocated per call,
/// these hundreds of kilobytes went to fresh `mmap`s each time once glibc's threshold
/// put them there (page faults cost more than the rest of a unit). Buffers only grow;
/// each is written in full before it is read, so stale contents are never seen. All of it
/// is public data (verification).
#[derive(Default)]
struct Scratch {
    a_hat: Vec<Poly>,
    t1: Vec<Poly>,
    z: Vec<Poly>,
    h: Vec<Poly>,
    zl: Vec<Poly>,
    w1: Vec<Poly>,
    hl: Vec<Poly>,
    c: Vec<Poly>,
    ct1: Vec<Poly>,
}

std::thread_local! {
    static SCRATCH: Cell<Scratch> = Cell::new(Scratch::default());
}

/// The first `n` polynomials of `v`, growing it if needed (contents unspecified).
pub(super) fn grow(v: &mut Vec<Poly>, n: usize) -> &mut [Poly] {
    if v.len() < n {
        v.resize(n, Poly::default());
    }
    &mut v[..n]
}

fn verify_group_in(
    ps: ParamSet,
    kern: &'static Kernels,
    tf: &dyn Transforms,
    items: &[Item<'_>],
    out: &mut [Result<(), Error>],
    sc: &mut Scratch,
) {
    let Scratch {
        a_hat,
        t1,
        z,
        h,
        zl,
        w1,
        hl,
        c,
        ct1,
    } = sc;
    let p = ps.params();
    let m = items.len();
    debug_assert_eq!(out.len(), m);
    let (k, l) = (p.k, p.l);
    out.iter_mut().for_each(|r| *r = Ok(()));

    // Keys: objects are used as they are; encodings are decoded here, in lockstep.
    let decoded = decode_keys(p, kern, tf, items, out, a_hat, t1);
    let views: Vec<Option<KeyView<'_>>> = items
        .iter()
        .enumerate()
        .map(|(i, it)| match it.key {
            KeyIn::Object(vk) => Some(KeyView {
                tr: &vk.tr,
                a_hat: &vk.a_hat,
                t1_hat: &vk.t1_hat,
            }),
            KeyIn::Encoded(_) => decoded.view(i, k, l),
        })
        .collect();

    // μ of every item whose key decoded.
    let mut mu = vec![[0u8; 64]; m];
    let trs: Vec<Option<&[u8; 64]>> = views.iter().map(|v| v.as_ref().map(|v| v.tr)).collect();
    compute_mus(kern, items, &trs, &mut mu, out);

    // Signatures: length, z, hint, ‖z‖∞ (in the single call's order).
    let z = grow(z, m * l);
    let h = grow(h, m * k);
    unpack_sigs(p, kern, items, out, z, h);
    let live: Vec<usize> = (0..m).filter(|&i| out[i].is_ok()).collect();
    if live.is_empty() {
        return;
    }

    // c = SampleInBall(c̃), one SHAKE256 block per signature, multi-way.
    let c = grow(c, live.len());
    sample_challenges(p, kern, items, &live, c);

    // Live z vectors side by side, then one NTT call for all z and all c.
    let n = live.len();
    let zl = grow(zl, n * l);
    for (j, &i) in live.iter().enumerate() {
        zl[j * l..(j + 1) * l].copy_from_slice(&z[i * l..(i + 1) * l]);
    }
    tf.ntt(zl);
    tf.ntt(c);

    // w'_approx = A·z − c·t1·2^d per item, then one inverse NTT for the group.
    let w1 = grow(w1, n * k);
    let ct1 = grow(ct1, k);
    let hl = grow(hl, n * k);
    for (j, &i) in live.iter().enumerate() {
        let Some(v) = &views[i] else { continue };
        approx_w(
            kern,
            v,
            &zl[j * l..(j + 1) * l],
            &c[j],
            ct1,
            &mut w1[j * k..(j + 1) * k],
        );
        hl[j * k..(j + 1) * k].copy_from_slice(&h[i * k..(i + 1) * k]);
    }
    (kern.reduce32)(w1);
    tf.invntt_tomont(w1);
    check_commitments(p, kern, items, &live, &mu, w1, hl, out);
}

/// Unpacks each signature whose item has not failed yet into `z[i·l..]` and
/// `h[i·k..]`, failing items in the single call's order: length, hint encoding, ‖z‖∞.
pub(super) fn unpack_sigs(
    p: &Params,
    kern: &Kernels,
    items: &[Item<'_>],
    out: &mut [Result<(), Error>],
    z: &mut [Poly],
    h: &mut [Poly],
) {
    let (k, l) = (p.k, p.l);
    let zb = p.z_bytes();
    for (i, it) in items.iter().enumerate() {
        if out[i].is_err() {
            continue;
        }
        let sig = it.sig;
        if sig.len() != p.sig_len() {
            out[i] = Err(Error::InvalidSignature);
            continue;
        }
        let mut off = p.ctilde_len;
        for zi in z[i * l..(i + 1) * l].iter_mut() {
            (kern.unpack_z)(&sig[off..off + zb], p.gamma1, p.z_bits(), zi);
            off += zb;
        }
        if !encode::unpack_hint(&sig[off..], p.omega, &mut h[i * k..(i + 1) * k]) {
            out[i] = Err(Error::InvalidSignature);
            continue;
        }
        if (kern.chknorm)(&z[i * l..(i + 1) * l], p.gamma1 - p.beta) {
            out[i] = Err(Error::VerificationFailed);
        }
    }
}

/// c = SampleInBall(c̃) of the `live` items into `c[j]`: one SHAKE256 block per
/// signature, multi-way; the rare challenge needing more is sampled alone.
pub(super) fn sample_challenges(
    p: &Params,
    kern: &Kernels,
    items: &[Item<'_>],
    live: &[usize],
    c: &mut [Poly],
) {
    let ctildes: Vec<&[u8]> = live
        .iter()
        .map(|&i| &items[i].sig[..p.ctilde_len])
        .collect();
    let mut blocks = vec![[0u8; SHAKE256_RATE]; live.len()];
    sample::h256_many(kern, &ctildes, &mut blocks);
    for (j, cj) in c.iter_mut().enumerate() {
        if sample::sample_in_ball_from_block(p, &blocks[j], cj).is_none() {
            sample::sample_in_ball(kern, p, ctildes[j], cj);
        }
    }
}

/// w'_approx = Â·NTT(z) − NTT(c)·NTT(t1·2^d) of one item into `w` (`ct1`: k scratch
/// polynomials).
pub(super) fn approx_w(
    kern: &Kernels,
    v: &KeyView<'_>,
    z_hat: &[Poly],
    c_hat: &Poly,
    ct1: &mut [Poly],
    w: &mut [Poly],
) {
    (kern.matvec_montgomery)(w, v.a_hat, z_hat);
    (kern.pointwise_montgomery)(ct1, c_hat, v.t1_hat);
    (kern.sub)(w, ct1);
}

/// The last steps for the `live` items, given w'_approx after the inverse NTT (`w1`,
/// item `live[j]` at `j·k`) and their hints side by side (`hl`): w1 = UseHint(h, w'),
/// c̃' = H(μ ‖ w1Encode(w1)) multi-way (every input has 64 + k·w1_bytes bytes), and
/// item `i` fails unless c̃' = c̃.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_commitments(
    p: &Params,
    kern: &Kernels,
    items: &[Item<'_>],
    live: &[usize],
    mu: &[[u8; 64]],
    w1: &mut [Poly],
    hl: &mut [Poly],
    out: &mut [Result<(), Error>],
) {
    let k = p.k;
    let n = live.len();
    (kern.caddq)(w1);
    (kern.use_hint)(p.gamma2, w1, hl);
    let w1b = p.w1_bytes();
    let rec = 64 + k * w1b;
    let mut inputs = vec![0u8; n * rec];
    for (j, &i) in live.iter().enumerate() {
        let r = &mut inputs[j * rec..(j + 1) * rec];
        r[..64].copy_from_slice(&mu[i]);
        for (t, w) in w1[j * k..(j + 1) * k].iter().enumerate() {
            encode::pack_w1(w, p.w1_bits(), &mut r[64 + t * w1b..64 + (t + 1) * w1b]);
        }
    }
    let refs: Vec<&[u8]> = inputs.chunks_exact(rec).collect();
    let mut blocks = vec![[0u8; SHAKE256_RATE]; n];
    sample::h256_many(kern, &refs, &mut blocks);
    for (j, &i) in live.iter().enumerate() {
        if blocks[j][..p.ctilde_len] != items[i].sig[..p.ctilde_len] {
            out[i] = Err(Error::VerificationFailed);
        }
    }
}

/// What verification needs of a key.
pub(super) struct KeyView<'a> {
    pub tr: &'a [u8; 64],
    pub a_hat: &'a [Poly],
    pub t1_hat: &'a [Poly],
}

/// The keys decoded by the batch path, side by side (no per-key copies): key `j`'s Â is
/// `a_hat[j·k·l..]`, its NTT(t1·2^d) `t1_hat[j·k..]`; `slot[i]` is item i's `j`.
#[derive(Default)]
struct Decoded<'s> {
    slot: Vec<Option<usize>>,
    tr: Vec<[u8; 64]>,
    a_hat: &'s [Poly],
    t1_hat: &'s [Poly],
}

impl Decoded<'_> {
    fn view(&self, item: usize, k: usize, l: usize) -> Option<KeyView<'_>> {
        let j = (*self.slot.get(item)?)?;
        Some(KeyView {
            tr: self.tr.get(j)?,
            a_hat: self.a_hat.get(j * k * l..(j + 1) * k * l)?,
            t1_hat: self.t1_hat.get(j * k..(j + 1) * k)?,
        })
    }
}

/// Decodes the keys given as encodings: tr of all of them multi-way, ExpandA with
/// the lanes filled across keys, t1·2^d and its NTT in one call. A key of the wrong
/// length fails its item with `InvalidKey`.
fn decode_keys<'s>(
    p: &Params,
    kern: &'static Kernels,
    tf: &dyn Transforms,
    items: &[Item<'_>],
    out: &mut [Result<(), Error>],
    a_buf: &'s mut Vec<Poly>,
    t_buf: &'s mut Vec<Poly>,
) -> Decoded<'s> {
    let keys = distinct_keys(p, items, out);
    if keys.pks.is_empty() {
        return Decoded::default();
    }
    let tr = expand_keys(p, kern, &keys.pks, a_buf);
    let a_hat = &a_buf[..keys.pks.len() * p.k * p.l];
    let t1 = grow(t_buf, keys.pks.len() * p.k);
    unpack_t1s(p, kern, &keys.pks, t1);
    tf.ntt(t1);
    Decoded {
        slot: keys.slot,
        tr,
        a_hat,
        t1_hat: t1,
    }
}

/// The keys of a group given as encodings, one entry per distinct key: item `i` has
/// key `slot[i]` of `pks`.
pub(super) struct KeySet<'a> {
    pub slot: Vec<Option<usize>>,
    pub pks: Vec<&'a [u8]>,
}

/// The distinct keys given as encodings (a key of the wrong length fails its item with
/// `InvalidKey`). One decode per distinct key: many items under one key are common (a
/// service verifying one signer's documents). Keys are told apart by ρ first, then in
/// full.
pub(super) fn distinct_keys<'a>(
    p: &Params,
    items: &[Item<'a>],
    out: &mut [Result<(), Error>],
) -> KeySet<'a> {
    let mut pks: Vec<&'a [u8]> = Vec::new();
    let mut slot = vec![None; items.len()];
    let mut by_rho: BTreeMap<&[u8], Vec<usize>> = BTreeMap::new();
    for (i, it) in items.iter().enumerate() {
        let KeyIn::Encoded(pk) = it.key else {
            continue;
        };
        if pk.len() != p.pk_len() {
            out[i] = Err(Error::InvalidKey);
            continue;
        }
        let same = by_rho.entry(&pk[..32]).or_default();
        let j = match same.iter().find(|&&j| pks[j] == pk) {
            Some(&j) => j,
            None => {
                pks.push(pk);
                same.push(pks.len() - 1);
                pks.len() - 1
            }
        };
        slot[i] = Some(j);
    }
    KeySet { slot, pks }
}

/// tr = H(pk) of every key, multi-way (returned), and Â = ExpandA(ρ) into
/// `a_buf[j·k·l..]` for key `j`, seeds ρ ‖ j ‖ i eight lanes at a time across keys.
pub(super) fn expand_keys(
    p: &Params,
    kern: &Kernels,
    pks: &[&[u8]],
    a_buf: &mut Vec<Poly>,
) -> Vec<[u8; 64]> {
    let (k, l) = (p.k, p.l);
    let n = pks.len();
    let mut blocks = vec![[0u8; SHAKE256_RATE]; n];
    sample::h256_many(kern, pks, &mut blocks);

    let kl = k * l;
    let a_hat = grow(a_buf, n * kl);
    let seeds: Vec<[u8; 34]> = (0..n * kl)
        .map(|t| {
            let (key, idx) = (t / kl, t % kl);
            let mut s = [0u8; 34];
            s[..32].copy_from_slice(&pks[key][..32]);
            s[32] = (idx % l) as u8;
            s[33] = (idx / l) as u8;
            s
        })
        .collect();
    for (seed_group, a_group) in seeds.chunks(8).zip(a_hat.chunks_mut(8)) {
        let refs: Vec<&[u8]> = seed_group.iter().map(|s| &s[..]).collect();
        let mut outs: Vec<&mut Poly> = a_group.iter_mut().collect();
        let f = |o: &mut [i32], b: &[u8]| (kern.rej_uniform)(o, b);
        sample::rejection::<{ crate::kernels::keccak::sponge::SHAKE128_RATE }, 5, false>(
            kern, &refs, &mut outs, &f, None,
        );
    }
    blocks
        .iter()
        .map(|b| core::array::from_fn(|t| b[t]))
        .collect()
}

/// t1·2^d of every key into `t1[j·k..]` (before its NTT).
pub(super) fn unpack_t1s(p: &Params, kern: &Kernels, pks: &[&[u8]], t1: &mut [Poly]) {
    let k = p.k;
    for (key, pk) in pks.iter().enumerate() {
        for (t, poly) in t1[key * k..(key + 1) * k].iter_mut().enumerate() {
            encode::unpack_t1(&pk[32 + 320 * t..32 + 320 * (t + 1)], poly);
        }
    }
    (kern.shiftl)(t1);
}

/// μ of each item with a usable key: external μ checked for length; pure messages
/// checked for context length, then hashed multi-way in groups of equal input length.
pub(super) fn compute_mus(
    kern: &Kernels,
    items: &[Item<'_>],
    trs: &[Option<&[u8; 64]>],
    mu: &mut [[u8; 64]],
    out: &mut [Result<(), Error>],
) {
    // (item, tr ‖ 0 ‖ |ctx| ‖ ctx ‖ msg) for the messages hashed multi-way.
    let mut bufs: Vec<(usize, Vec<u8>)> = Vec::new();
    for (i, it) in items.iter().enumerate() {
        if out[i].is_err() {
            continue;
        }
        let Some(tr) = trs[i] else { continue };
        match it.msg {
            MsgIn::Mu(m) => match <&[u8; 64]>::try_from(m) {
                Ok(m) => mu[i] = *m,
                Err(_) => out[i] = Err(Error::InvalidLength),
            },
            MsgIn::Raw { msg, ctx } => {
                if ctx.len() > 255 {
                    out[i] = Err(Error::ContextTooLong);
                } else if msg.len() > MU_COPY_LIMIT {
                    match super::compute_mu_on(kern.permute1, tr, ctx, msg) {
                        Ok(m) => mu[i] = m,
                        Err(e) => out[i] = Err(e),
                    }
                } else {
                    let mut b = Vec::with_capacity(66 + ctx.len() + msg.len());
                    b.extend_from_slice(tr);
                    b.extend_from_slice(&[0, ctx.len() as u8]);
                    b.extend_from_slice(ctx);
                    b.extend_from_slice(msg);
                    bufs.push((i, b));
                }
            }
        }
    }
    bufs.sort_by_key(|(_, b)| b.len());
    let mut start = 0;
    while start < bufs.len() {
        let len = bufs[start].1.len();
        let end = start
            + bufs[start..]
                .iter()
                .take_while(|(_, b)| b.len() == len)
                .count();
        let refs: Vec<&[u8]> = bufs[start..end].iter().map(|(_, b)| &b[..]).collect();
        let mut blocks = vec![[0u8; SHAKE256_RATE]; end - start];
        sample::h256_many(kern, &refs, &mut blocks);
        for ((i, _), blk) in bufs[start..end].iter().zip(blocks.iter()) {
            mu[*i].copy_from_slice(&blk[..64]);
        }
        start = end;
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::kernels::mldsa::kernels;
    use crate::kernels::select::Backend;

    /// Every verdict of the lockstep path equals the single call's, on every backend,
    /// for valid, tampered, malformed and wrong-key items, keys as objects and bytes.
    #[test]
    fn lockstep_matches_single_calls() {
        for b in Backend::available() {
            let kern = kernels(b);
            for ps in ParamSet::ALL {
                let keys: Vec<_> = (0..5u8)
                    .map(|s| super::super::keygen_internal_on(ps, &[s; 32], b).unwrap())
                    .collect();
                // Item 11's message is over MU_COPY_LIMIT: hashed on its own, not copied.
                let msgs: Vec<Vec<u8>> = (0..13)
                    .map(|i| {
                        vec![
                            i as u8;
                            if i == 11 {
                                MU_COPY_LIMIT + 1
                            } else {
                                i * 7 % 20
                            }
                        ]
                    })
                    .collect();
                let mut sigs = Vec::new();
                for (i, m) in msgs.iter().enumerate() {
                    let (sk, _) = &keys[i % keys.len()];
                    let mut s = sk.sign_deterministic(m, b"ctx").unwrap();
                    match i % 6 {
                        1 => s[5] ^= 1,               // c̃ tampered
                        2 => s.truncate(s.len() - 1), // malformed
                        3 => {
                            let n = s.len();
                            s[n - 1] = 0xFF; // bad hint encoding
                        }
                        _ => {}
                    }
                    sigs.push(s);
                }
                let mu: Vec<[u8; 64]> = msgs
                    .iter()
                    .enumerate()
                    .map(|(i, m)| keys[i % keys.len()].1.compute_mu(m, b"ctx").unwrap())
                    .collect();
                let short_pk = &keys[0].1.to_bytes()[1..];
                let items: Vec<Item<'_>> = (0..msgs.len())
                    .map(|i| {
                        let vk = &keys[(i + (i == 4) as usize) % keys.len()].1;
                        Item {
                            key: match i % 3 {
                                0 => KeyIn::Object(vk),
                                1 if i == 7 => KeyIn::Encoded(short_pk),
                                _ => KeyIn::Encoded(vk.to_bytes()),
                            },
                            msg: match i % 4 {
                                3 => MsgIn::Mu(&mu[i]),
                                _ if i == 10 => MsgIn::Raw {
                                    msg: &msgs[i],
                                    ctx: &[0u8; 256],
                                },
                                _ => MsgIn::Raw {
                                    msg: &msgs[i],
                                    ctx: b"ctx",
                                },
                            },
                            sig: &sigs[i],
                        }
                    })
                    .collect();
                let mut got = vec![Ok(()); items.len()];
                verify_group(ps, kern, &TableTransforms(kern), &items, &mut got);
                let mut valid = 0;
                for (i, it) in items.iter().enumerate() {
                    let want = (|| {
                        let vk = match it.key {
                            KeyIn::Object(vk) => vk.clone(),
                            KeyIn::Encoded(pk) => VerifyingKey::from_bytes(ps, pk)?,
                        };
                        match it.msg {
                            MsgIn::Raw { msg, ctx } => vk.verify(msg, ctx, it.sig),
                            MsgIn::Mu(m) => vk.verify_mu(m, it.sig),
                        }
                    })();
                    assert_eq!(got[i], want, "{b:?} {} item {i}", ps.name());
                    valid += want.is_ok() as usize;
                }
                assert!(valid >= 3, "the test must include valid items");
            }
        }
    }
}
