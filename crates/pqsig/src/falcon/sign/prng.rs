//! The sampler's PRNG (round-3 reference): ChaCha20 keyed from 56 bytes of a SHAKE256
//! output, eight instances interleaved into a 512-byte window.
//!
//! Seed layout (56 bytes): bytes 0..48 are twelve little-endian 32-bit words, the
//! ChaCha20 state words 4..16 (key, then the 16-byte "IV" words 12..16); bytes 48..56 are
//! a little-endian 64-bit block counter. A refill produces eight blocks: instance `u`
//! XORs `counter + u` into state words 14 and 15 (low, high half), and word `v` of its
//! output lands at bytes `4u + 32v` of the window (the layout of an eight-lane SIMD
//! implementation); the counter then advances by eight. Backends with a sixteen-block
//! kernel ([`SamplerKernels::chacha20x16`]) compute two windows per call and keep the
//! second for the next refill, and a kernel may look at the next window before the
//! refill ([`Refill::peek`]): same bytes in the same order.
//!
//! Reads go through [`Stream`]: `u64` reads refill early when fewer than nine bytes are
//! left (dropping them), `u8` reads refill right after the last byte.

use crate::kernels::falcon::samplerz::{Refill, SamplerKernels, Stream, Window, WINDOW};
use crate::kernels::keccak::sponge::Shake256;
use zeroize::Zeroize;

/// Bytes drawn from the SHAKE256 context per PRNG instantiation.
pub const SEED_LEN: usize = 56;

/// ChaCha20 key material and block counter (secret), and up to two windows computed
/// ahead (when the backend computes two at a time, or when a kernel looked ahead with
/// [`Refill::peek`]), handed out in order.
pub(crate) struct ChaChaState {
    key_iv: [u32; 12],
    counter: u64,
    kernels: &'static SamplerKernels,
    ahead: [[u8; WINDOW]; 2],
    /// Index of the next window in `ahead`, and how many are there.
    head: usize,
    n_ahead: usize,
}

impl ChaChaState {
    /// Computes the next window(s) into `ahead` (empty before).
    fn produce(&mut self) {
        debug_assert!(self.n_ahead == 0);
        self.head = 0;
        let [a, b] = &mut self.ahead;
        if let Some(x16) = self.kernels.chacha20x16 {
            x16(&self.key_iv, self.counter, a, b);
            self.counter = self.counter.wrapping_add(16);
            self.n_ahead = 2;
        } else {
            (self.kernels.chacha20x8)(&self.key_iv, self.counter, a);
            self.counter = self.counter.wrapping_add(8);
            self.n_ahead = 1;
        }
    }
}

impl ChaChaState {
    #[cfg(feature = "std")]
    /// The windows the next `out.len()` refills will deliver, without consuming them:
    /// first those computed ahead, then fresh ones from the counter.
    fn ahead_into(&self, out: &mut [[u8; WINDOW]]) {
        let mut counter = self.counter;
        for (j, w) in out.iter_mut().enumerate() {
            if j < self.n_ahead {
                w.copy_from_slice(&self.ahead[self.head ^ j]);
            } else {
                (self.kernels.chacha20x8)(&self.key_iv, counter, w);
                counter = counter.wrapping_add(8);
            }
        }
    }
}

impl Refill for ChaChaState {
    fn refill(&mut self, window: &mut [u8; WINDOW]) {
        if self.n_ahead == 0 {
            if self.kernels.chacha20x16.is_none() {
                // Straight into the window.
                (self.kernels.chacha20x8)(&self.key_iv, self.counter, window);
                self.counter = self.counter.wrapping_add(8);
                return;
            }
            self.produce();
        }
        window.copy_from_slice(&self.ahead[self.head]);
        self.head ^= 1;
        self.n_ahead -= 1;
    }

    fn peek(&mut self) -> Option<&[u8; WINDOW]> {
        if self.n_ahead == 0 {
            self.produce();
        }
        Some(&self.ahead[self.head])
    }
}

impl Drop for ChaChaState {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.key_iv, [0; 12]);
        crate::wipe::wipe(&mut self.counter, 0);
        crate::wipe::wipe(&mut self.ahead, [[0; WINDOW]; 2]);
    }
}

/// The sampler PRNG: ChaCha20 state plus the current window. Zeroized on drop.
pub struct Prng {
    state: ChaChaState,
    window: Window,
}

impl Prng {
    /// Seeds from the next 56 bytes of `src` (a SHAKE256 context in squeezing mode) and
    /// fills the first window, as the reference's `prng_init` does.
    pub fn new(src: &mut Shake256, kernels: &'static SamplerKernels) -> Prng {
        let mut seed = [0u8; SEED_LEN];
        src.squeeze(&mut seed);
        let p = Prng::from_seed(&seed, kernels);
        seed.zeroize();
        p
    }

    /// Seeds from 56 explicit bytes (see the module docs for the layout).
    pub fn from_seed(seed: &[u8; SEED_LEN], kernels: &'static SamplerKernels) -> Prng {
        let mut key_iv = [0u32; 12];
        for (w, c) in key_iv.iter_mut().zip(seed.chunks_exact(4)) {
            *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let mut cb = [0u8; 8];
        cb.copy_from_slice(&seed[48..56]);
        let counter = u64::from_le_bytes(cb);
        cb.zeroize();
        let mut p = Prng {
            state: ChaChaState {
                key_iv,
                counter,
                kernels,
                ahead: [[0; WINDOW]; 2],
                head: 0,
                n_ahead: 0,
            },
            window: Window::default(),
        };
        crate::wipe::wipe(&mut key_iv, [0; 12]);
        p.window.refill_from(&mut p.state);
        p
    }

    /// The byte stream the SamplerZ kernel reads.
    #[inline]
    pub fn stream(&mut self) -> Stream<'_> {
        Stream {
            window: &mut self.window,
            source: &mut self.state,
        }
    }

    #[cfg(feature = "std")]
    /// The current window and the read position in it (for a SamplerZ device request).
    pub(crate) fn window(&self) -> (&[u8; WINDOW], usize) {
        (self.window.bytes(), self.window.pos())
    }

    #[cfg(feature = "std")]
    /// The windows that follow the current one (`out.len()` of them), not consumed. The
    /// first is computed once into the look-ahead buffer (as [`Refill::peek`] does) and
    /// then only copied, for every request until the refill that consumes it.
    pub(crate) fn windows_ahead(&mut self, out: &mut [[u8; WINDOW]]) {
        let _ = self.state.peek();
        self.state.ahead_into(out)
    }

    #[cfg(feature = "std")]
    /// Moves the stream to where a device left it: `refills` refills, then read position
    /// `pos` in the window reached (checked by the caller: `pos < WINDOW`).
    pub(crate) fn advance(&mut self, refills: usize, pos: usize) {
        for _ in 0..refills {
            self.window.refill_from(&mut self.state);
        }
        self.window.seek(pos);
    }

    /// Next 64-bit value (reference `prng_get_u64`).
    pub fn next_u64(&mut self) -> u64 {
        self.stream().next_u64()
    }

    /// Next byte (reference `prng_get_u8`).
    pub fn next_u8(&mut self) -> u8 {
        self.stream().next_u8()
    }
}
