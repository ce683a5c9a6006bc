//! SamplerZ, kernel side: the base (half-Gaussian) sampler and the BerExp acceptance test
//! over a caller-provided random byte stream, for a batch of (centre, 1/σ) requests.
//!
//! # The split
//! Falcon's signer (`crate::falcon::sign`) owns the randomness (a ChaCha20-based PRNG
//! seeded from SHAKE256) and computes, for every integer it needs, a centre `mu` and an
//! inverse standard deviation `isigma`. This kernel turns a batch of such requests into
//! integers, pulling bytes from the signer's [`Stream`] lazily and in exactly the order of
//! the round-3 reference implementation (the KATs depend on it). Per request and per
//! attempt of the rejection loop:
//!
//! 1. base sampler: one `u64` (8 bytes little-endian, see [`Stream::next_u64`] for the
//!    refill rule) then one `u8`, forming a 72-bit value `lo + 2^64·hi` compared with the
//!    18-entry reverse cumulative table [`RCDT`]; the result `z0 >= 0` is the number of
//!    table entries above the value (half-Gaussian, σ0 = 1.8205);
//! 2. one `u8` whose low bit `b` selects `z = b + (2b − 1)·z0`;
//! 3. BerExp(x, ccs): up to eight `u8`, compared lazily (most significant first) with
//!    `ccs · exp(−x) · 2^64`; the attempt is accepted with that probability.
//!
//! Requests are processed in order and each one's bytes follow the previous one's, so a
//! batch gives exactly the outputs of the same requests one at a time; ffSampling sends
//! pairs (the two real coordinates of a complex leaf, same σ): [`SamplerKernels::sample_pair`],
//! and [`SamplerKernels::sample_leaf`] with a per-leaf constant ([`Leaf`]) that an
//! expanded key stores. The portable kernel runs the reference's loop. The SIMD kernels
//! (`avx2.rs`, `avx512.rs`) cut the bytes ahead into 11-byte attempts, derive what does
//! not depend on the request once per window into the window's slot cache, decide both
//! requests of a pair on eight cached attempts at once with an exact test in the log
//! domain, and replay the serial order on the results; at the end of a window they look
//! at the next one ([`Refill::peek`]) to decide attempts across the refill.
//!
//! The table also carries the ChaCha20 function the signer's PRNG refills its window
//! with ([`SamplerKernels::chacha20x8`], and [`SamplerKernels::chacha20x16`] for two
//! windows at once): it is where a SIMD backend helps, and its output layout is the one
//! the reference mimics from its AVX2 code.
//!
//! # Bounds
//! * `isigma ∈ [1/2, 1]` (σ between 1 and 2), and `1/isigma <= σ0 = 1.8205` for the
//!   acceptance exponent to be non-negative (Falcon's leaves have σ in
//!   [σ_min, 1.8205]; the signer rejects keys whose leaves leave [1/2, 1]);
//! * `|mu| < 2^31 − 64` (Falcon's centres are below 2^15 in magnitude);
//! * `sigma_min ∈ (0, 1/isigma]`, so that `ccs = sigma_min · isigma ≤ 1`;
//! * output: `floor(mu) + z` with `|z| ≤ 19`.
//!
//! Outside these bounds the kernels do not panic and terminate with overwhelming
//! probability for σ in [1, 2], but the output is not the specified distribution.
//!
//! # Constant time
//! No branch or memory index depends on `mu`, `isigma` or the sampled values, except:
//! * the number of rejection-loop iterations. Its distribution does not depend on `mu`
//!   nor on σ: the acceptance probability is scaled by `ccs = σ_min/σ`, which makes the
//!   expected acceptance rate the same for every (centre, σ) (Falcon specification,
//!   §3.9.3, and Howe–Prest–Ricosset–Rossi, "Isochronous Gaussian sampling", 2020);
//! * how many of BerExp's eight bytes are read: reading stops at the first random byte
//!   that differs from the corresponding byte of `ccs·exp(−x)·2^64`. Going on past byte
//!   `k` happens with probability 2^(−8k) for any value; what it reveals is that the
//!   random bytes so far equal the top bytes of a uniformly masked quantity, which is
//!   the same accepted leakage as in the reference (the KATs fix this consumption order,
//!   so the bytes cannot be drawn eagerly).
//!
//! Both are inherent to the round-3 algorithm (the reference has the same two). The SIMD
//! kernels add no other: their fallbacks to slower paths happen on the same two kinds of
//! events (too many rejections within their look-ahead, a second BerExp byte), on the
//! read position (which only counts attempts), on domain checks that a Falcon key always
//! passes, or — with probability below 2^-30 per attempt — when the attempt is too close
//! to a byte threshold for their approximate test to decide (see `avx512.rs`).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
mod avx512;
pub mod device;
pub mod portable;
// The test bodies the SIMD files' unit tests share.
#[cfg(all(
    test,
    feature = "std",
    target_arch = "x86_64",
    not(feature = "fpr-emulated")
))]
mod isa_tests;

use crate::kernels::falcon::fpr::{self, Fpr};
use crate::kernels::select::{self, Backend};
use zeroize::Zeroize;

/// Size of the random window the sampler reads from, in bytes (the reference's PRNG
/// buffer: eight interleaved ChaCha20 blocks).
pub const WINDOW: usize = 512;

/// Bytes allocated after the window and never part of the stream: a SIMD kernel may load
/// a little past the live bytes (results it then discards) without a bounds check.
pub(crate) const WINDOW_PAD: usize = 96;

/// The reverse cumulative distribution table of the base sampler, 72-bit fixed point:
/// entry k is `2^72 · Pr[z0 > k]` for the half-Gaussian of σ0 = 1.8205 (round-3
/// specification, Table 3.1). `z0` = number of entries strictly above the random value.
pub const RCDT: [u128; 18] = [
    0xA3F7F42ED3AC391802,
    0x54D32B181F3F7DDB82,
    0x227DCDD0934829C1FF,
    0x0AD1754377C7994AE4,
    0x0295846CAEF33F1F6F,
    0x00774AC754ED74BD5F,
    0x001024DD542B776AE4,
    0x0001A1FFDC65AD63DA,
    0x00001F80D88A7B6428,
    0x000001C3FDB2040C69,
    0x00000012CF24D031FB,
    0x00000000949F8B091F,
    0x0000000003665DA998,
    0x00000000000EBF6EBB,
    0x0000000000002F5D7E,
    0x000000000000007098,
    0x0000000000000000C6,
    0x000000000000000001,
];

/// [`RCDT`] split into 24-bit limbs `[low, middle, high]` (the comparison is done limb by
/// limb with borrows in 32-bit words, which needs no 128-bit or 64-bit compare).
pub(crate) const RCDT_LIMBS: [[u32; 3]; 18] = {
    let mut out = [[0u32; 3]; 18];
    let mut i = 0;
    while i < 18 {
        let v = RCDT[i];
        out[i] = [
            (v & 0xFF_FFFF) as u32,
            ((v >> 24) & 0xFF_FFFF) as u32,
            ((v >> 48) & 0xFF_FFFF) as u32,
        ];
        i += 1;
    }
    out
};

/// One sampling request: an integer from the discrete Gaussian of centre `mu` and
/// standard deviation `1/isigma` (bounds in the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct Request {
    pub mu: Fpr,
    pub isigma: Fpr,
}

impl zeroize::DefaultIsZeroes for Request {}

/// A leaf of the LDL tree as the sampler kernels take it: `isigma` (1/σ) and a constant
/// derived from it, `ln(isigma·σ_min)` to within `2^-49`, which the SIMD kernels' test
/// needs per pair. Made by [`Leaf::new`] once per leaf, for a key that signs many times.
#[derive(Clone, Copy, Debug, Default)]
pub struct Leaf {
    isigma: Fpr,
    lnccs: Fpr,
}

impl zeroize::DefaultIsZeroes for Leaf {}

impl Leaf {
    pub fn isigma(&self) -> Fpr {
        self.isigma
    }

    /// `ln(isigma·σ_min)` as stored (0 with the emulated `Fpr`, where no kernel uses it).
    pub(crate) fn lnccs(&self) -> Fpr {
        self.lnccs
    }

    /// A leaf from an `isigma` and the `lnccs` that [`Leaf::new`] gave for it (stored with
    /// an expanded key). Any other `lnccs` makes the SIMD kernels' output wrong.
    pub(crate) fn from_parts(isigma: Fpr, lnccs: Fpr) -> Leaf {
        Leaf { isigma, lnccs }
    }

    /// The leaf of `isigma` for `σ_min`: `ln(ccs)` by the
    /// reduction of `avx512.rs` (16-entry tables, read with masks instead of an index:
    /// `isigma` is secret) and a degree-9 series; within `2^-50` for `ccs` in `[1/4, 1)`
    /// (outside, the kernels do not use it).
    pub fn new(isigma: Fpr, sigma_min: Fpr) -> Leaf {
        #[cfg(not(feature = "fpr-emulated"))]
        {
            let ccs = f64::from_bits(isigma.to_bits()) * f64::from_bits(sigma_min.to_bits());
            // Replaced (without a branch) by 1/2 outside [1/4, 1), where the bit fields
            // would not be meaningful (the value is then not used).
            let inr = ((0.25..1.0).contains(&ccs) as u64).wrapping_neg();
            let bits = (ccs.to_bits() & inr) | (0.5f64.to_bits() & !inr);
            let e = ((bits >> 52) as i64 - 1023) as f64;
            let m = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000);
            let j = (bits >> 48) & 15;
            let (mut r, mut l) = (0u64, 0u64);
            for (k, (&rk, &lk)) in RCP.iter().zip(LNR.iter()).enumerate() {
                let mask = ((k as u64 ^ j).wrapping_sub(1) >> 63).wrapping_neg();
                r |= rk.to_bits() & mask;
                l |= lk.to_bits() & mask;
            }
            let u = m * f64::from_bits(r) - 1.0;
            // ln(1 + u) = u·P(u), P of degree 8.
            let mut p = 1.0 / 9.0;
            for k in (1..9).rev() {
                let c = 1.0 / k as f64;
                p = p * u + if k % 2 == 0 { -c } else { c };
            }
            let lnccs = e * LN2 + (f64::from_bits(l) + p * u);
            Leaf {
                isigma,
                lnccs: Fpr::from_bits(lnccs.to_bits()),
            }
        }
        #[cfg(feature = "fpr-emulated")]
        {
            let _ = sigma_min;
            Leaf {
                isigma,
                lnccs: fpr::ZERO,
            }
        }
    }
}

/// Slots of the SIMD kernels' cache (see [`SlotCache`]): a window holds at most 46
/// attempts of 11 bytes (48 in whole batches), followed by up to 16 slots of the next
/// window; eight entries can be loaded from any slot index in use.
pub(crate) const CACHE_LEN: usize = 64;

/// Values the AVX-512 kernel derives from the window's bytes, one entry per 11-byte
/// attempt ("slot") starting at window position `start + 11·i`: the candidate integer
/// `z` of the attempt, `z0²/(2σ0²)`, and the attempt's two BerExp thresholds (see
/// `avx512.rs`). Empty (`count = 0`) after every refill. As secret as the window bytes,
/// and wiped with them.
#[derive(Clone)]
#[repr(C, align(64))]
pub(crate) struct SlotCache {
    pub(crate) zd: [f64; CACHE_LEN],
    pub(crate) c: [f64; CACHE_LEN],
    pub(crate) ta: [f64; CACHE_LEN],
    pub(crate) tr: [f64; CACHE_LEN],
    /// Window position of slot 0.
    pub(crate) start: usize,
    /// Slots from `start` to the end of the window.
    pub(crate) count: usize,
    /// Slots computed (from 0; whole batches).
    pub(crate) ready: usize,
    /// Slots of the *next* window (positions 0, 11, ...) computed after the `count`
    /// slots of this one: the attempts that follow the refill the serial reads do when
    /// this window's grid ends at position 503 or later.
    pub(crate) virt: usize,
    /// Which kernel's layout the cache holds (`CACHE_*`; 0: none).
    pub(crate) kind: u8,
}

/// Cache layouts (which kernel filled it: the values agree only to within the
/// analysis' error bounds, so one kernel never reads another's).
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
pub(crate) const CACHE_AVX2: u8 = 1;
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
pub(crate) const CACHE_AVX512: u8 = 2;

/// Half-width of the undecided band around each log-domain threshold, in units of `x`
/// (see `avx512.rs`).
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
pub(crate) const MARGIN: f64 = 1.0 / 4294967296.0;

/// ln 2, rounded to nearest.
#[cfg(not(feature = "fpr-emulated"))]
pub(crate) const LN2: f64 = f64::from_bits(0x3FE6_2E42_FEFA_39EF);

/// `ln` reduction table: `RCP[j]` = `round(4096 / (1 + (j + 1/2)/16)) / 4096`, a
/// 12-bit approximation of the inverse of the mantissas `m` in `[1 + j/16,
/// 1 + (j+1)/16)`, so that `|m·RCP[j] − 1| < 0.0304`; and `LNR[j] = −ln(RCP[j])`
/// rounded to nearest (computed with 300-bit arithmetic).
#[cfg(not(feature = "fpr-emulated"))]
static RCP: [f64; 16] = {
    const N: [u32; 16] = [
        3972, 3745, 3542, 3361, 3197, 3048, 2913, 2789, 2675, 2570, 2473, 2383, 2300, 2222, 2149,
        2081,
    ];
    let mut t = [0.0; 16];
    let mut j = 0;
    while j < 16 {
        t[j] = N[j] as f64 / 4096.0;
        j += 1;
    }
    t
};
#[cfg(not(feature = "fpr-emulated"))]
static LNR: [f64; 16] = {
    const B: [u64; 16] = [
        0x3F9F_7A9B_1678_2856,
        0x3FB6_EF52_8C05_6A2C,
        0x3FC2_99D3_0C60_6EA7,
        0x3FC9_509A_A004_4F8F,
        0x3FCF_B7D8_6EEE_3B90,
        0x3FD2_E9E2_BCE1_2286,
        0x3FD5_D01D_C49F_F2E8,
        0x3FD8_98D3_8A89_347E,
        0x3FDB_4497_7C14_8F1B,
        0x3FDD_D4AA_04E1_C4B6,
        0x3FE0_2582_A5C9_D123,
        0x3FE1_5533_D3B8_D7B3,
        0x3FE2_779E_1EC9_3ECA,
        0x3FE3_9240_DDE5_CE92,
        0x3FE4_A3E8_6234_2525,
        0x3FE5_AB50_5B39_040B,
    ];
    let mut t = [0.0; 16];
    let mut j = 0;
    while j < 16 {
        t[j] = f64::from_bits(B[j]);
        j += 1;
    }
    t
};

/// The two `ln` tables.
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
#[inline(always)]
pub(crate) fn ln_tables() -> (&'static [f64; 16], &'static [f64; 16]) {
    (&RCP, &LNR)
}

/// Bytes of an attempt whose BerExp decides on its first byte (a cache slot).
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
pub(crate) const SLOT: usize = 11;
/// Last window position a cached slot may start at: its bytes end at index 510, so the
/// serial reads of that attempt neither refill early nor empty the window.
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
pub(crate) const LAST_SLOT_START: usize = WINDOW - 1 - SLOT;

/// Whether a request lies in the domain where the SIMD kernels' shortcuts are analysed
/// (`|mu| < 2^31 − 64`, `1/σ` in `[1/4, 4]`, `ccs = σ_min/σ` in `[1/4, 1)`, no NaN);
/// anything else goes to the serial code.
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
#[inline(always)]
pub(crate) fn in_domain(mu: f64, isigma: f64, ccs: f64) -> bool {
    (mu.abs() < 2147483584.0) & (0.25..=4.0).contains(&isigma) & (0.25..1.0).contains(&ccs)
}

/// Anchors the cache at the read position for layout `kind`: slots from there to the end
/// of the window, none computed yet.
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
#[inline(always)]
pub(crate) fn anchor(w: &mut Window, kind: u8) {
    let p = w.pos;
    w.cache.start = p;
    w.cache.count = if p <= LAST_SLOT_START {
        (LAST_SLOT_START - p) / SLOT + 1
    } else {
        0
    };
    w.cache.ready = 0;
    w.cache.virt = 0;
    w.cache.kind = kind;
}

/// Where the read position is in the cache: slot `k`, and how many slots (at most
/// eight) follow from there within this window (`regular`) and counting the next
/// window's slots (`total`; see [`SlotCache::virt`]).
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
#[derive(Clone, Copy)]
pub(crate) struct Loc {
    pub k: usize,
    pub regular: usize,
    pub total: usize,
}

/// Locates the read position in the cache, computing what the eight slots from there
/// need: `batch(window, first)` computes slots `first .. first + per` of the anchored
/// grid, `vbatch(cache, next, dst)` slots `0 .. vper` of the next window's bytes `next`
/// into cache entries `dst ..`. Anchors the cache anew (after a refill, as the serial
/// reads would do it) when the position is not on its grid. `None` when the next attempt
/// straddles a refill (read position 501 or 502).
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
#[inline(always)]
pub(crate) fn locate(
    stream: &mut Stream<'_>,
    kind: u8,
    per: usize,
    vper: usize,
    mut batch: impl FnMut(&mut Window, usize),
    mut vbatch: impl FnMut(&mut SlotCache, &[u8; WINDOW], usize),
) -> Option<Loc> {
    let w = &mut *stream.window;
    let diff = w.pos.wrapping_sub(w.cache.start);
    let k = if w.cache.kind == kind && diff < SLOT * w.cache.count && diff.is_multiple_of(SLOT) {
        diff / SLOT
    } else {
        if w.pos > LAST_SLOT_START {
            if w.pos < WINDOW - 9 {
                return None;
            }
            // The next u64 read would refill first.
            stream.refill();
        }
        anchor(stream.window, kind);
        0
    };
    let w = &mut *stream.window;
    let count = w.cache.count;
    let upto = (k + 8).min(count);
    while w.cache.ready < upto {
        batch(w, w.cache.ready);
        w.cache.ready += per;
    }
    if k + 8 > count && w.cache.virt == 0 && w.cache.start + SLOT * count >= WINDOW - 9 {
        // The grid ends where the serial reads refill: the attempts after it are the
        // next window's, if the source can show it now.
        if let Some(next) = stream.source.peek() {
            vbatch(&mut w.cache, next, count);
            w.cache.virt = vper;
        }
    }
    let c = &w.cache;
    Some(Loc {
        k,
        regular: (count - k).min(8),
        total: (count + c.virt - k).min(8),
    })
}

/// After a decision that consumed the attempts up to slot `next` (exclusive) of the
/// cache, `next` beyond this window's slots (so into the next window's): refills as the
/// serial reads would, moves the next window's computed slots to the front of the
/// re-anchored cache and sets the read position after slot `next`.
#[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
#[inline(always)]
pub(crate) fn cross(stream: &mut Stream<'_>, kind: u8, next: usize) {
    let (count, virt) = (stream.window.cache.count, stream.window.cache.virt);
    debug_assert!(next > count && next <= count + virt);
    stream.refill();
    let w = &mut *stream.window;
    anchor(w, kind);
    let c = &mut w.cache;
    let n = virt.min(CACHE_LEN - count);
    for a in [&mut c.zd, &mut c.c, &mut c.ta, &mut c.tr] {
        a.copy_within(count..count + n, 0);
    }
    c.ready = n;
    w.pos = SLOT * (next - count);
}

impl Default for SlotCache {
    fn default() -> Self {
        SlotCache {
            zd: [0.0; CACHE_LEN],
            c: [0.0; CACHE_LEN],
            ta: [0.0; CACHE_LEN],
            tr: [0.0; CACHE_LEN],
            start: 0,
            count: 0,
            ready: 0,
            virt: 0,
            kind: 0,
        }
    }
}

/// The random window and its read position. Owned by the signer's PRNG; the kernel
/// reads it through a [`Stream`], which refills it when it runs out.
#[derive(Clone)]
#[repr(C)]
pub struct Window {
    /// The stream bytes.
    bytes: [u8; WINDOW],
    /// Always zero; lets SIMD kernels load a little past `bytes` (results discarded).
    pad: [u8; WINDOW_PAD],
    /// Next unread byte (`WINDOW` = empty, refill before reading).
    pos: usize,
    /// Kernel scratch derived from `bytes` (AVX-512 kernel); invalidated on refill.
    cache: SlotCache,
}

impl Default for Window {
    fn default() -> Self {
        Window {
            bytes: [0; WINDOW],
            pad: [0; WINDOW_PAD],
            pos: WINDOW,
            cache: SlotCache::default(),
        }
    }
}

impl Window {
    /// Pointer to `bytes[0]` whose provenance covers `bytes` and the padding after it
    /// (`WINDOW + WINDOW_PAD` readable bytes).
    #[inline(always)]
    pub fn as_bytes_ptr(&self) -> *const u8 {
        (self as *const Window).cast::<u8>()
    }

    /// Read position (`WINDOW`: empty).
    #[inline(always)]
    pub fn pos(&self) -> usize {
        self.pos
    }

    #[cfg(feature = "std")]
    /// The stream bytes.
    #[inline(always)]
    pub(crate) fn bytes(&self) -> &[u8; WINDOW] {
        &self.bytes
    }

    #[cfg(feature = "std")]
    /// Moves the read position to `pos` (a device read the bytes in between; see
    /// [`device`]) and drops the kernels' cache of this window.
    #[inline]
    pub(crate) fn seek(&mut self, pos: usize) {
        debug_assert!(pos < WINDOW);
        self.pos = pos.min(WINDOW);
        self.cache.count = 0;
        self.cache.ready = 0;
        self.cache.virt = 0;
        self.cache.kind = 0;
    }

    /// Replaces the bytes with the next `WINDOW` bytes of `src` and rewinds.
    #[inline]
    pub(crate) fn refill_from(&mut self, src: &mut dyn Refill) {
        src.refill(&mut self.bytes);
        self.pos = 0;
        self.cache.count = 0;
        self.cache.ready = 0;
        self.cache.virt = 0;
    }
}

impl Zeroize for Window {
    fn zeroize(&mut self) {
        crate::wipe::wipe(&mut self.bytes, [0; WINDOW]);
        let c = &mut self.cache;
        for a in [&mut c.zd, &mut c.c, &mut c.ta, &mut c.tr] {
            crate::wipe::wipe(a, [0.0; CACHE_LEN]);
        }
        c.count = 0;
        c.ready = 0;
        c.virt = 0;
        self.pos = WINDOW;
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// Produces the next `WINDOW` random bytes (the signer's PRNG state).
pub trait Refill {
    fn refill(&mut self, window: &mut [u8; WINDOW]);

    /// The bytes the next `refill` will deliver, if the source can tell in advance (a
    /// kernel may then decide attempts that straddle the refill before it happens).
    fn peek(&mut self) -> Option<&[u8; WINDOW]> {
        None
    }
}

/// A lazily refilled random byte stream with the reference PRNG's read semantics.
pub struct Stream<'a> {
    pub window: &'a mut Window,
    pub source: &'a mut dyn Refill,
}

impl Stream<'_> {
    #[inline(always)]
    fn refill(&mut self) {
        self.window.refill_from(&mut *self.source);
    }

    /// Eight bytes, little-endian. If fewer than nine bytes are left in the window, the
    /// remaining ones are dropped and the window refilled first (the reference's rule:
    /// it never leaves the window empty after a read).
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        if self.window.pos >= WINDOW - 9 {
            self.refill();
        }
        let p = self.window.pos;
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.window.bytes[p..p + 8]);
        self.window.pos = p + 8;
        u64::from_le_bytes(b)
    }

    /// One byte; the window is refilled as soon as its last byte was read.
    #[inline(always)]
    pub fn next_u8(&mut self) -> u8 {
        if self.window.pos >= WINDOW {
            // Only reachable for a window that was never filled.
            self.refill();
        }
        let v = self.window.bytes[self.window.pos];
        self.window.pos += 1;
        if self.window.pos == WINDOW {
            self.refill();
        }
        v
    }
}

/// Sixteen ChaCha20 blocks: `(key_iv, counter, a, b)` (see
/// [`SamplerKernels::chacha20x16`]).
pub(crate) type ChaCha20x16 =
    fn(key_iv: &[u32; 12], counter: u64, a: &mut [u8; WINDOW], b: &mut [u8; WINDOW]);

/// One backend's SamplerZ kernels.
pub struct SamplerKernels {
    pub backend: Backend,
    /// `out[i]` ← an integer from `D_{Z, reqs[i].mu, 1/reqs[i].isigma}`, requests processed
    /// in order over `stream`. `sigma_min` is the degree's σ_min (`fpr::SIGMA_MIN[logn]`).
    /// `out` must be at least as long as `reqs`.
    pub sample: fn(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]),
    /// The signer's shape: the two requests `(mu0, isigma)`, `(mu1, isigma)` (one complex
    /// leaf), outputs as `Fpr`. Same outputs and stream consumption as `sample` on them.
    pub sample_pair:
        fn(stream: &mut Stream<'_>, sigma_min: Fpr, mu0: Fpr, mu1: Fpr, isigma: Fpr) -> (Fpr, Fpr),
    /// [`SamplerKernels::sample_pair`] with the leaf's constant precomputed (see
    /// [`Leaf`]; made with the same `sigma_min`). Same outputs and stream consumption.
    pub sample_leaf:
        fn(stream: &mut Stream<'_>, sigma_min: Fpr, mu0: Fpr, mu1: Fpr, leaf: Leaf) -> (Fpr, Fpr),
    /// The base sampler alone (one draw of `z0`), exposed for tests and benchmarks.
    pub gaussian0: fn(stream: &mut Stream<'_>) -> i32,
    /// Eight ChaCha20 blocks of the reference PRNG: instance `u` (0..8) runs ChaCha20 on
    /// the state `constants ‖ key_iv` with the 64-bit `counter + u` XORed into words 14
    /// and 15; word `v` of instance `u`'s output goes, little-endian, to bytes
    /// `4u + 32v ..` of `out`.
    pub chacha20x8: fn(key_iv: &[u32; 12], counter: u64, out: &mut [u8; WINDOW]),
    /// Where a backend computes sixteen blocks as fast as it can eight: two consecutive
    /// windows at once, `chacha20x8(key_iv, counter)` into `a` and
    /// `chacha20x8(key_iv, counter + 8)` into `b`.
    pub chacha20x16: Option<ChaCha20x16>,
}

/// The SamplerZ kernels of a backend (portable if it is unavailable here). With the
/// emulated `Fpr`, the AVX-512 backend reuses the AVX2 kernels (its own work on
/// hardware `f64`).
pub fn kernels(b: Backend) -> &'static SamplerKernels {
    crate::kernels::trace::record("falcon::samplerz::kernels", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx2.is_available()`: AVX2 detected.
        Backend::Avx2 if b.is_available() => &avx2::KERNELS,
        #[cfg(all(target_arch = "x86_64", not(feature = "fpr-emulated")))]
        // SAFETY: `Backend::Avx512.is_available()`: AVX2, AVX-512 F/VL/BW/DQ detected.
        Backend::Avx512 if b.is_available() => &avx512::KERNELS,
        #[cfg(all(target_arch = "x86_64", feature = "fpr-emulated"))]
        // SAFETY: `Backend::Avx512.is_available()` implies AVX2 detected.
        Backend::Avx512 if b.is_available() => &avx2::KERNELS_AVX512,
        _ => &portable::KERNELS,
    }
}

/// The kernels of the process-wide backend.
pub fn active() -> &'static SamplerKernels {
    kernels(select::active())
}

/// `out[i]` ← SamplerZ(`reqs[i]`) with the active backend (see [`SamplerKernels::sample`]).
pub fn sample(stream: &mut Stream<'_>, sigma_min: Fpr, reqs: &[Request], out: &mut [i32]) {
    (active().sample)(stream, sigma_min, reqs, out)
}

/// The 72-bit value of one base-sampler draw, as three 24-bit limbs `[low, mid, high]`.
#[inline(always)]
pub(crate) fn draw72(stream: &mut Stream<'_>) -> [u32; 3] {
    let lo = stream.next_u64();
    let hi = stream.next_u8() as u32;
    [
        (lo as u32) & 0xFF_FFFF,
        ((lo >> 24) as u32) & 0xFF_FFFF,
        ((lo >> 48) as u32) | (hi << 16),
    ]
}

/// BerExp: true with probability `ccs · exp(−x)`, for `x >= 0` and `0 < ccs <= 1`.
#[inline(always)]
fn ber_exp(stream: &mut Stream<'_>, x: Fpr, ccs: Fpr) -> bool {
    // x = s·ln 2 + r with 0 <= r < ln 2; x >= 0 so truncation is the floor.
    let s = x.mul(fpr::INV_LOG2).trunc() as i32;
    let r = x.sub(Fpr::of(s as i64).mul(fpr::LOG2));
    // exp(-x) < 2^-63 once s >= 64: saturate the shift at 63 without a branch (the result
    // is then within 2^-63 of the exact probability).
    let mut sw = s as u32;
    sw ^= (sw ^ 63) & (63u32.wrapping_sub(sw) >> 31).wrapping_neg();
    // ccs·exp(-r)·2^64, minus one so that r = 0, ccs = 1 still fits in 64 bits, then
    // scaled by 2^-s.
    // (For x < 0, outside the documented domain, s is negative and the count wraps; the
    // shift then takes it modulo 64 as x86 does, instead of panicking.)
    let z = (fpr::expm_p63(r, ccs) << 1)
        .wrapping_sub(1)
        .wrapping_shr(sw);
    // Compare a uniform 64-bit value with z, one byte at a time from the top, stopping at
    // the first difference: the sign of that byte difference is the answer.
    let mut i = 64;
    let mut w;
    loop {
        i -= 8;
        w = (stream.next_u8() as u32).wrapping_sub(((z >> i) as u32) & 0xFF);
        // How many bytes BerExp read is public (declassified: docs/ARCHITECTURE.md).
        if crate::ct::public(w != 0) || i == 0 {
            break;
        }
    }
    (w >> 31) != 0
}

/// Per-request constants: `mu = s + r` with `0 <= r < 1`, `dss = 1/(2σ²)`,
/// `ccs = σ_min/σ`.
#[inline(always)]
pub(crate) fn split_request(req: &Request, sigma_min: Fpr) -> (i64, Fpr, Fpr, Fpr) {
    let s = req.mu.floor();
    let r = req.mu.sub(Fpr::of(s));
    let dss = req.isigma.sqr().half();
    let ccs = req.isigma.mul(sigma_min);
    (s, r, dss, ccs)
}

/// SamplerZ for one request, reading the stream serially (the reference's loop), with
/// the base sampler's table comparison `rcdt(limbs)` → z0.
#[inline(always)]
pub(crate) fn sample_one<F: Fn(&[u32; 3]) -> i32>(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    req: &Request,
    rcdt: &F,
) -> i32 {
    // `stop` is constant false: the compiler drops the check and the `None` arm.
    sample_one_or_stop(stream, sigma_min, req, rcdt, || false).unwrap_or(0)
}

/// [`sample_one`], giving up (`None`) after a rejected attempt when `stop()` says so: the
/// device model ([`device`]) stops when its supplied bytes ran out.
#[inline(always)]
pub(crate) fn sample_one_or_stop<F: Fn(&[u32; 3]) -> i32>(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    req: &Request,
    rcdt: &F,
    stop: impl Fn() -> bool,
) -> Option<i32> {
    let (s, r, dss, ccs) = split_request(req, sigma_min);
    // Rejection loop: its iteration count is the one documented leak (module docs).
    loop {
        let v = draw72(stream);
        let z0 = rcdt(&v);
        let b = (stream.next_u8() & 1) as i32;
        // b = 1: z = z0 + 1 >= 1; b = 0: z = -z0 <= 0 (bimodal around r).
        let z = b + ((b << 1) - 1) * z0;
        // Accept with probability ccs·exp(-x), where
        // x = (z - r)²/(2σ²) - z0²/(2σ0²) (>= 0: see the AVX2 kernel's notes).
        let x = Fpr::of(z as i64).sub(r).sqr().mul(dss);
        let x = x.sub(Fpr::of((z0 * z0) as i64).mul(fpr::INV_2SQRSIGMA0));
        // The accept/reject verdict is public (declassified: docs/ARCHITECTURE.md).
        if crate::ct::public(ber_exp(stream, x, ccs)) {
            return Some((s as i32).wrapping_add(z));
        }
        if stop() {
            return None;
        }
    }
}

/// [`SamplerKernels::sample_pair`] through a backend's batch entry.
#[inline(always)]
pub(crate) fn pair_via_batch(
    sample: impl FnOnce(&mut Stream<'_>, Fpr, &[Request], &mut [i32]),
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    mu0: Fpr,
    mu1: Fpr,
    isigma: Fpr,
) -> (Fpr, Fpr) {
    let reqs = [Request { mu: mu0, isigma }, Request { mu: mu1, isigma }];
    let mut out = [0i32; 2];
    sample(stream, sigma_min, &reqs, &mut out);
    (Fpr::of(out[0] as i64), Fpr::of(out[1] as i64))
}

/// The whole sampler for one batch, request after request, generic over the base
/// sampler's table comparison. Inlined into each backend's entry point.
#[inline(always)]
pub(crate) fn run_batch<F: Fn(&[u32; 3]) -> i32>(
    stream: &mut Stream<'_>,
    sigma_min: Fpr,
    reqs: &[Request],
    out: &mut [i32],
    rcdt: F,
) {
    for (o, req) in out.iter_mut().zip(reqs) {
        *o = sample_one(stream, sigma_min, req, &rcdt);
    }
}

#[cfg(all(test, feature = "std", not(feature = "fpr-emulated")))]
mod leaf_tests {
    use super::*;

    /// `Leaf::new` against the standard library's `ln` over the range of `ccs`.
    #[test]
    fn leaf_constant_is_accurate() {
        let mut s = 0x0123_4567_89AB_CDEFu64;
        for i in 0..100_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let logn = 1 + i % 10;
            let sm = f64::from_bits(fpr::SIGMA_MIN[logn].to_bits());
            // σ in [σ_min, 4·σ_min): ccs in (1/4, 1].
            let sigma = sm * (1.0 + 3.0 * (s >> 11) as f64 / (1u64 << 53) as f64);
            let isigma = 1.0 / sigma;
            let leaf = Leaf::new(Fpr::from_bits(isigma.to_bits()), fpr::SIGMA_MIN[logn]);
            let ccs = isigma * sm;
            if (0.25..1.0).contains(&ccs) {
                let got = f64::from_bits(leaf.lnccs().to_bits());
                assert!((got - ccs.ln()).abs() < 2f64.powi(-50), "ccs {ccs}");
            }
        }
    }
}
