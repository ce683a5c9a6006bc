//! Verification of many round-3 Falcon signatures of one parameter set in lockstep (the
//! batch engine's Falcon path, `crate::batch`).
//!
//! Each stage runs over the whole group before the next one starts:
//! * keys given as encodings are decoded (h into the NTT domain), signatures decoded;
//! * hash-to-point, SHAKE256(nonce ‖ message), runs four-way across signatures: inputs
//!   with the same number of whole SHAKE256 blocks share a four-way sponge (messages of
//!   up to 95 bytes all do), and each lane's words go through the backend's
//!   `hash_words` kernel as the single call's do;
//! * the norm check's transforms are one kernel call each for the group (s2 forward, the
//!   products inverse) — one request for a device serving the NTT entries.
//!
//! Each item's verdict is exactly the single call's (`falcon::VerifyingKey::verify`):
//! key, then signature decoding, then the norm bound.

use super::codec;
use super::keys::VerifyingKey;
use super::params::{self, NONCE_LEN};
use super::verify::PreparedPublicKey;
use super::ParamSet;
use crate::error::Error;
use crate::kernels::device::{serve_falcon, KernelDevice, TransformMode};
use crate::kernels::falcon::codec::kernels as codec_kernels;
use crate::kernels::falcon::ntt::NttKernels;
use crate::kernels::keccak::sponge::SHAKE256_RATE;
use crate::kernels::keccak::x4::{permute4_for, ShakeX4};
use alloc::vec;
use alloc::vec::Vec;

/// The key of one item.
pub(crate) enum KeyIn<'a> {
    Object(&'a VerifyingKey),
    Encoded(&'a [u8]),
}

/// One signature to check (no context: round-3 Falcon has none).
pub(crate) struct Item<'a> {
    pub key: KeyIn<'a>,
    pub msg: &'a [u8],
    pub sig: &'a [u8],
}

/// Longest nonce ‖ message hashed four-way (longer ones are hashed on their own: the
/// copy into a lane buffer would cost more than the lockstep saves).
const MAX_LOCKSTEP_INPUT: usize = 4096;

/// Verifies every item of `items` (all of parameter set `ps`) with kernel table `k`,
/// writing each verdict to `res`.
/// `dev`: a kernel device for the group's transforms (the batch's
/// `Options::kernel_device`), with the table's transforms as fallback.
pub(crate) fn verify_group(
    ps: ParamSet,
    k: &NttKernels,
    dev: Option<&dyn KernelDevice>,
    items: &[Item<'_>],
    res: &mut [Result<(), Error>],
) {
    let logn = ps.logn();
    let n = 1usize << logn;
    let ck = codec_kernels(k.backend);
    // Stage 1: keys and signatures.
    let mut decoded: Vec<Option<PreparedPublicKey>> = Vec::with_capacity(items.len());
    let mut s2 = vec![0i16; items.len() * n];
    let mut nonces = vec![[0u8; NONCE_LEN]; items.len()];
    let mut live: Vec<usize> = Vec::with_capacity(items.len());
    for (i, it) in items.iter().enumerate() {
        let prepared = match it.key {
            KeyIn::Object(_) => Ok(None),
            KeyIn::Encoded(pk)
                if pk.len() != ps.public_key_len() || pk[0] != params::HEADER_PK + logn as u8 =>
            {
                Err(Error::InvalidKey)
            }
            KeyIn::Encoded(pk) => PreparedPublicKey::from_bytes_with(k, pk).map(Some),
        };
        match prepared {
            Ok(p) => decoded.push(p),
            Err(e) => {
                decoded.push(None);
                res[i] = Err(e);
                continue;
            }
        }
        let s2_i = &mut s2[i * n..(i + 1) * n];
        match codec::decode_signature_into_with(ck, s2_i, it.sig, logn, ps.padded()) {
            Ok(nonce) => {
                nonces[i] = nonce;
                live.push(i);
            }
            Err(e) => res[i] = Err(e),
        }
    }
    // Stage 2: hash-to-point, four-way across signatures.
    let mut c0 = vec![0u16; items.len() * n];
    hash_to_points(k, items, &nonces, &live, &mut c0, n);
    // Stage 3: the norm bound, transforms over the whole group.
    let h_of = |i: usize| -> &[u16] {
        match (&items[i].key, &decoded[i]) {
            (KeyIn::Object(vk), _) => &vk.prepared.h_ntt,
            (_, Some(p)) => &p.h_ntt,
            (_, None) => &[],
        }
    };
    let mut tt = vec![0u16; live.len() * n];
    for (slot, &i) in live.iter().enumerate() {
        (k.from_i16)(&mut tt[slot * n..(slot + 1) * n], &s2[i * n..(i + 1) * n]);
    }
    match dev {
        Some(d) => serve_falcon(d, TransformMode::FalconNtt { logn }, logn, &mut tt, k.ntt),
        None => (k.ntt)(&mut tt, logn),
    }
    for (slot, &i) in live.iter().enumerate() {
        (k.mul_monty)(&mut tt[slot * n..(slot + 1) * n], h_of(i));
    }
    match dev {
        Some(d) => serve_falcon(d, TransformMode::FalconIntt { logn }, logn, &mut tt, k.intt),
        None => (k.intt)(&mut tt, logn),
    }
    let bound = params::l2_bound(logn) as u64;
    for (slot, &i) in live.iter().enumerate() {
        let t = &mut tt[slot * n..(slot + 1) * n];
        (k.sub)(t, &c0[i * n..(i + 1) * n]);
        let norm = (k.sqnorm_centered)(t) + (k.sqnorm_i16)(&s2[i * n..(i + 1) * n]);
        res[i] = if norm <= bound {
            Ok(())
        } else {
            Err(Error::VerificationFailed)
        };
    }
}

/// c0 of every live item: SHAKE256(nonce ‖ msg) through hash-to-point, four at a time
/// where the inputs have the same number of whole blocks.
fn hash_to_points(
    k: &NttKernels,
    items: &[Item<'_>],
    nonces: &[[u8; NONCE_LEN]],
    live: &[usize],
    c0: &mut [u16],
    n: usize,
) {
    let input_len = |i: usize| NONCE_LEN + items[i].msg.len();
    // Items hashed alone (long inputs), and the rest bucketed by whole-block count.
    let mut alone: Vec<usize> = Vec::new();
    let mut buckets: Vec<(usize, Vec<usize>)> = Vec::new();
    for &i in live {
        if input_len(i) > MAX_LOCKSTEP_INPUT {
            alone.push(i);
            continue;
        }
        let blocks = input_len(i) / SHAKE256_RATE;
        match buckets.iter_mut().find(|(b, _)| *b == blocks) {
            Some((_, v)) => v.push(i),
            None => buckets.push((blocks, vec![i])),
        }
    }
    let permute4 = permute4_for(k.backend);
    let mut bufs: [Vec<u8>; 4] = Default::default();
    for (_, members) in &buckets {
        let mut quads = members.chunks_exact(4);
        for quad in quads.by_ref() {
            for (buf, &i) in bufs.iter_mut().zip(quad) {
                buf.clear();
                buf.extend_from_slice(&nonces[i]);
                buf.extend_from_slice(items[i].msg);
            }
            let mut st = ShakeX4::<SHAKE256_RATE>::absorb_once(
                permute4,
                [&bufs[0], &bufs[1], &bufs[2], &bufs[3]],
            );
            let mut filled = [0usize; 4];
            while filled.iter().any(|&f| f < n) {
                st.squeeze_lanes_each(|j, lanes| {
                    let i = quad[j];
                    if filled[j] < n {
                        filled[j] = (k.hash_words)(&mut c0[i * n..(i + 1) * n], filled[j], lanes).0;
                    }
                });
            }
        }
        alone.extend_from_slice(quads.remainder());
    }
    for i in alone {
        super::hash::hash_to_point_msg_on(
            k.backend,
            &nonces[i],
            items[i].msg,
            &mut c0[i * n..(i + 1) * n],
        );
    }
}
