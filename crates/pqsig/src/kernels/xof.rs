//! SNOVA's public-seed expansion (the XOFs that turn the 16-byte public seed into the
//! P11, P12, P21 matrices): the bytes are public, the kernels are batch-shaped so a
//! backend can run many blocks at once.
//!
//! * [`shake128_ctr`]: block `i` = SHAKE128(seed ‖ LE64(i)), 168 bytes each, concatenated
//!   (the last block truncated). The blocks are independent sponges, so they go through
//!   the multi-way Keccak: eight per eight-way permutation on avx512 (one state per
//!   64-bit element of a zmm register), four per four-way permutation on avx2. The
//!   portable backend runs one state at a time: its "multi-way" permutation is that
//!   same scalar permutation applied W times plus the interleaving, so batching only
//!   adds copies (measured with `examples/xof_ticks.rs`). Each batch squeezes straight
//!   into the output; only a partial batch at the end goes through a small buffer.
//! * [`aes128_ctr`]: AES-128-CTR keyed with the seed, IV = 12 zero bytes, 32-bit
//!   big-endian block counter from 0 (block `i` = AES_seed(0¹² ‖ BE32(i))), on the
//!   backend's AES engine ([`aes::Engine::for_backend`]: bitsliced, AES-NI, VAES or
//!   ARMv8 CE).
//!
//! Both accept any output length; the seed of [`shake128_ctr`] may have any length.

use crate::kernels::aes::{self, Aes128};
use crate::kernels::keccak::f1600::{permute1_for, Permute1};
use crate::kernels::keccak::sponge::SHAKE128_RATE;
use crate::kernels::keccak::x4::permute4_for;
use crate::kernels::keccak::x8::permute8_for;
use crate::kernels::keccak::xn::{PermuteN, ShakeXN};
use crate::kernels::keccak::Shake128;
use crate::kernels::select::Backend;
use alloc::vec;

const RATE: usize = SHAKE128_RATE;

/// Fills `out` with the SHAKE128 counter-mode stream of `seed`: block `i` (168 bytes) =
/// SHAKE128(seed ‖ LE64(i)).
pub fn shake128_ctr(b: Backend, seed: &[u8], out: &mut [u8]) {
    match b {
        Backend::Avx512 if b.is_available() => {
            multi_way::<8>(permute8_for(b), permute1_for(b), seed, out)
        }
        Backend::Avx2 if b.is_available() => {
            multi_way::<4>(permute4_for(b), permute1_for(b), seed, out)
        }
        _ => one_way(permute1_for(Backend::Portable), seed, out, 0),
    }
}

/// Blocks `first`, `first + 1`, ... of the stream into `out`, one sponge at a time.
fn one_way(p: Permute1, seed: &[u8], out: &mut [u8], first: u64) {
    for (i, chunk) in out.chunks_mut(RATE).enumerate() {
        let mut h = Shake128::new().with_permutation(p);
        h.absorb(seed);
        h.absorb(&(first + i as u64).to_le_bytes());
        h.squeeze(chunk);
    }
}

/// `W` blocks per `W`-way permutation; a final partial batch of more than `W / 4`
/// blocks also goes through it (into a buffer), fewer through one-way sponges.
fn multi_way<const W: usize>(p: PermuteN<W>, p1: Permute1, seed: &[u8], out: &mut [u8]) {
    let n = seed.len() + 8;
    // The W inputs seed ‖ LE64(counter), side by side.
    let mut inputs = vec![0u8; W * n];
    for lane in inputs.chunks_exact_mut(n) {
        lane[..seed.len()].copy_from_slice(seed);
    }
    let batch = |inputs: &mut [u8], first: u64, outs: [&mut [u8]; W]| {
        for (j, lane) in inputs.chunks_exact_mut(n).enumerate() {
            lane[seed.len()..].copy_from_slice(&(first + j as u64).to_le_bytes());
        }
        let mut it = inputs.chunks_exact(n);
        let ins: [&[u8]; W] = core::array::from_fn(|_| it.next().unwrap_or(&[]));
        ShakeXN::<W, RATE>::absorb_once(p, ins).squeeze_blocks(outs, 1);
    };

    let mut first = 0u64;
    let mut groups = out.chunks_exact_mut(W * RATE);
    for group in &mut groups {
        let mut it = group.chunks_exact_mut(RATE);
        let outs: [&mut [u8]; W] = core::array::from_fn(|_| it.next().unwrap_or(&mut []));
        batch(&mut inputs, first, outs);
        first += W as u64;
    }
    let rest = groups.into_remainder();
    if rest.len().div_ceil(RATE) > W / 4 {
        let mut tmp = [[0u8; RATE]; W];
        batch(&mut inputs, first, tmp.each_mut().map(|t| &mut t[..]));
        for (dst, src) in rest.chunks_mut(RATE).zip(tmp.iter()) {
            dst.copy_from_slice(&src[..dst.len()]);
        }
    } else {
        one_way(p1, seed, rest, first);
    }
}

/// Fills `out` with the AES-128-CTR keystream of `key` (IV 0, BE32 counter from 0).
pub fn aes128_ctr(b: Backend, key: &[u8; 16], out: &mut [u8]) {
    Aes128::new(b, key).ctr(0, out);
}

/// The AES engine [`aes128_ctr`] uses for backend `b` on this CPU.
pub fn aes_engine(b: Backend) -> aes::Engine {
    aes::Engine::for_backend(b)
}
