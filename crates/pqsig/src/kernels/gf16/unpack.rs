//! Decoding of packed GF(16) block matrices (two nibbles per byte, low nibble first,
//! l×l blocks stored one after the other, each row-major) into flat rows, one element
//! per byte: SNOVA's public matrices P11/P12/P21 (XOF output) and P22 (public key).
//!
//! [`blocks_into_rows`] decodes `count` consecutive blocks (one block row of a
//! block-major matrix) into l flat rows. It runs on every verification (for a plain
//! verifying key), key generation and signature with an unexpanded key, once per element
//! of the public map, so it is worth a SIMD path:
//!
//! * AVX-512 VBMI (backend `avx512` on a CPU with VBMI): for a chunk of 16 blocks (l = 4)
//!   or 10 blocks (l = 5), the ≤ 128 source bytes are loaded once (masked loads, no read
//!   past the slice), the low and high nibbles are split once (four 64-byte tables), and
//!   each of the l output rows is two two-table byte permutes (`vpermi2b`, one over the
//!   low nibbles, one over the high ones), a per-lane blend and a masked 64-byte store.
//!   Index tables are compile-time constants; feature detection is cached.
//! * everything else: SWAR on u64 (an l = 4 block is one u64, its 32-bit halves spread to
//!   two rows at once; an l = 5 block is read as a u128, row i its 20-bit field i).
//!
//! The data is public (no constant-time requirement); both paths give identical bytes
//! (tested in `tests/snova_unpack.rs`).

use crate::kernels::select::Backend;

/// Decodes `count` consecutive l×l blocks, starting at nibble `nib` of the packed
/// `bytes`, into the l rows `rows[i·ld + col + t·l ..][..l]` (block t, row i).
///
/// Panics (slice bounds) if `bytes` has fewer than `ceil((nib + count·l²)/2)` bytes or
/// `rows` is too short for the addressed rows; shapes are public constants.
#[allow(clippy::too_many_arguments)]
pub fn blocks_into_rows(
    b: Backend,
    rows: &mut [u8],
    ld: usize,
    col: usize,
    bytes: &[u8],
    nib: usize,
    count: usize,
    l: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if b == Backend::Avx512 && vbmi_usable() && (l == 5 || (l == 4 && nib.is_multiple_of(2))) {
        if count == 0 {
            return;
        }
        assert!(
            rows.len() >= (l - 1) * ld + col + count * l,
            "rows too short"
        );
        assert!(
            bytes.len() >= (nib + count * l * l).div_ceil(2),
            "bytes too short"
        );
        // SAFETY: the CPU features were checked; the bounds were asserted above and the
        // kernel only touches the bytes they cover (masked loads and stores).
        unsafe { avx512::blocks_into_rows(rows, ld, col, bytes, nib, count, l) };
        return;
    }
    let _ = b;
    portable_blocks_into_rows(rows, ld, col, bytes, nib, count, l);
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn vbmi_usable() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not yet detected, 1: no, 2: yes (detection is idempotent: races are harmless).
    static STATE: AtomicU8 = AtomicU8::new(0);
    match STATE.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => {
            let yes = detect_vbmi();
            STATE.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[cold]
fn detect_vbmi() -> bool {
    if !Backend::Avx512.is_available() {
        return false;
    }
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx512vbmi")
    }
}

/// The portable (SWAR) path of [`blocks_into_rows`], available on every backend.
pub fn portable_blocks_into_rows(
    rows: &mut [u8],
    ld: usize,
    col: usize,
    bytes: &[u8],
    nib: usize,
    count: usize,
    l: usize,
) {
    match l {
        4 if nib.is_multiple_of(2) => rows4(rows, ld, col, &bytes[nib / 2..nib / 2 + count * 8]),
        5 => rows5(rows, ld, col, bytes, nib, count),
        _ => {
            for t in 0..count {
                for i in 0..l {
                    for j in 0..l {
                        let e = nib + t * l * l + i * l + j;
                        rows[i * ld + col + t * l + j] = (bytes[e / 2] >> (4 * (e & 1))) & 15;
                    }
                }
            }
        }
    }
}

/// Eight nibbles (the low 32 bits of `y`) → eight bytes, one nibble each (SWAR spread).
#[inline(always)]
fn spread8(y: u64) -> u64 {
    let y = y & 0xffff_ffff;
    let y = (y | (y << 16)) & 0x0000_ffff_0000_ffff;
    let y = (y | (y << 8)) & 0x00ff_00ff_00ff_00ff;
    (y | (y << 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// Five nibbles (the low 20 bits of `r`) → five bytes, one nibble each (SWAR spread).
#[inline(always)]
fn spread5(r: u64) -> u64 {
    let y = (r & 0xffff) | ((r & 0xf_0000) << 16);
    let y = (y | (y << 8)) & 0x00ff_00ff_00ff_00ff;
    (y | (y << 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// l = 4: a block is one u64, rows 2h and 2h+1 its 32-bit half h, spread to eight bytes
/// at once.
fn rows4(rows: &mut [u8], ld: usize, col: usize, src: &[u8]) {
    for (t, blk) in src.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(blk.try_into().expect("8 bytes"));
        for h in 0..2 {
            let e = spread8(w >> (32 * h)).to_le_bytes();
            let d0 = 2 * h * ld + col + t * 4;
            rows[d0..d0 + 4].copy_from_slice(&e[..4]);
            rows[d0 + ld..d0 + ld + 4].copy_from_slice(&e[4..]);
        }
    }
}

/// l = 5: a block is 25 nibbles (from an even or odd position), read as one u128; row i
/// is its 20-bit field i.
fn rows5(rows: &mut [u8], ld: usize, col: usize, bytes: &[u8], nib: usize, count: usize) {
    for t in 0..count {
        let q = nib + t * 25;
        let b = q / 2;
        let w = match bytes.get(b..b + 16) {
            Some(w) => u128::from_le_bytes(w.try_into().expect("16 bytes")),
            None => {
                let mut w = [0u8; 16];
                for (d, &x) in w.iter_mut().zip(&bytes[b..]) {
                    *d = x;
                }
                u128::from_le_bytes(w)
            }
        };
        let x = w >> (4 * (q & 1));
        for i in 0..5 {
            let e = spread5((x >> (20 * i)) as u64).to_le_bytes();
            let d0 = i * ld + col + t * 5;
            rows[d0..d0 + 5].copy_from_slice(&e[..5]);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    /// Blocks per 64-byte output vector: 16 for l = 4 (64 lanes), 10 for l = 5 (50
    /// lanes; 12 would need more than 128 source bytes).
    const fn blocks_per_chunk(l: usize) -> usize {
        if l == 4 {
            16
        } else {
            10
        }
    }

    /// Permute indices and high-nibble lane masks for row `i` of a chunk whose first
    /// nibble has parity `p`: lane k = (block k/l, column k%l) reads nibble
    /// `p + (k/l)·l² + i·l + k%l` of the chunk's bytes.
    const fn tables<const L: usize, const P: usize>() -> ([[u8; 64]; L], [u64; L]) {
        let mut idx = [[0u8; 64]; L];
        let mut hi = [0u64; L];
        let lanes = blocks_per_chunk(L) * L;
        let mut i = 0;
        while i < L {
            let mut k = 0;
            while k < lanes {
                let a = P + (k / L) * L * L + i * L + k % L;
                idx[i][k] = (a >> 1) as u8;
                if a & 1 == 1 {
                    hi[i] |= 1u64 << k;
                }
                k += 1;
            }
            i += 1;
        }
        (idx, hi)
    }

    static T4: ([[u8; 64]; 4], [u64; 4]) = tables::<4, 0>();
    static T5E: ([[u8; 64]; 5], [u64; 5]) = tables::<5, 0>();
    static T5O: ([[u8; 64]; 5], [u64; 5]) = tables::<5, 1>();

    #[inline(always)]
    fn lane_mask(n: usize) -> u64 {
        if n >= 64 {
            u64::MAX
        } else {
            (1u64 << n) - 1
        }
    }

    /// # Safety
    /// AVX-512 F/BW/VBMI must be available; `l` is 4 (with even `nib`) or 5; `count ≥ 1`;
    /// `rows` covers `(l-1)·ld + col + count·l` bytes and `bytes` covers
    /// `ceil((nib + count·l²)/2)` bytes.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn blocks_into_rows(
        rows: &mut [u8],
        ld: usize,
        col: usize,
        bytes: &[u8],
        nib: usize,
        count: usize,
        l: usize,
    ) {
        let tb = blocks_per_chunk(l);
        let nibs_end = nib + count * l * l;
        let bytes_end = nibs_end.div_ceil(2);
        let src = bytes.as_ptr();
        let dst = rows.as_mut_ptr();
        let m0f = _mm512_set1_epi8(0x0f);
        let mut t0 = 0;
        while t0 < count {
            let nb = tb.min(count - t0);
            let q = nib + t0 * l * l;
            let b0 = q / 2;
            // Source bytes of this chunk (≤ 128), loaded without reading past the end.
            let avail = bytes_end - b0;
            let lo_n = avail.min(64);
            let hi_n = avail.saturating_sub(64).min(64);
            // SAFETY (both loads): masked-off lanes are not accessed; the enabled lanes
            // lie in `bytes[b0..bytes_end]`.
            let lo = unsafe { _mm512_maskz_loadu_epi8(lane_mask(lo_n), src.add(b0) as *const i8) };
            let hi = if hi_n > 0 {
                unsafe { _mm512_maskz_loadu_epi8(lane_mask(hi_n), src.add(b0 + 64) as *const i8) }
            } else {
                _mm512_setzero_si512()
            };
            let (idx, his): (&[[u8; 64]], &[u64]) = match (l, q & 1) {
                (4, _) => (&T4.0, &T4.1),
                (_, 0) => (&T5E.0, &T5E.1),
                _ => (&T5O.0, &T5O.1),
            };
            let store = lane_mask(nb * l);
            // The low and the high nibbles of the 128 source bytes, split once per chunk.
            let (lo_l, hi_l) = (_mm512_and_si512(lo, m0f), _mm512_and_si512(hi, m0f));
            let lo_h = _mm512_and_si512(_mm512_srli_epi16::<4>(lo), m0f);
            let hi_h = _mm512_and_si512(_mm512_srli_epi16::<4>(hi), m0f);
            for i in 0..l {
                // SAFETY: 64 bytes of a table row.
                let ix = unsafe { _mm512_loadu_si512(idx[i].as_ptr() as *const _) };
                let low = _mm512_permutex2var_epi8(lo_l, ix, hi_l);
                let high = _mm512_permutex2var_epi8(lo_h, ix, hi_h);
                let v = _mm512_mask_blend_epi8(his[i], low, high);
                // SAFETY: lanes < nb·l of row i lie in `rows` (caller's bound).
                unsafe {
                    _mm512_mask_storeu_epi8(dst.add(i * ld + col + t0 * l) as *mut i8, store, v)
                };
            }
            t0 += nb;
        }
    }
}
