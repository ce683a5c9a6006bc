//! AES-128 on x86-64 with the AES instructions: AES-NI on xmm registers and VAES on
//! zmm registers.
//!
//! * Key expansion: `aeskeygenassist` (SubWord(RotWord(w₃)) ⊕ rcon in dword 3), the
//!   prefix-XOR of the previous round key by three byte shifts.
//! * CTR with AES-NI: eight independent blocks per pass. `aesenc` has a latency of about
//!   four cycles and a throughput of one or two per cycle, so eight blocks keep the
//!   units busy where one block at a time would wait on each round.
//! * CTR with VAES: `vaesenc` on zmm runs the round on four blocks at once; four
//!   registers (16 blocks) per pass. The counters live in one zmm register in native
//!   order (dword 3 of each 128-bit lane, the other dwords zero), advanced with
//!   `vpaddd` (wrapping mod 2³² like the spec's 32-bit counter) and byte-swapped to the
//!   big-endian block layout with `vpshufb`.
//!
//! Every function here is `unsafe` only because of its target features: callers
//! (`super::Aes128`) check them first.

use core::arch::x86_64::*;

/// Loads the round keys into registers.
#[inline]
#[target_feature(enable = "sse2")]
fn load_keys(rk: &[[u8; 16]; 11]) -> [__m128i; 11] {
    // SAFETY: each `rk[i]` is 16 readable bytes; `loadu` has no alignment requirement.
    core::array::from_fn(|i| unsafe { _mm_loadu_si128(rk[i].as_ptr().cast()) })
}

/// One key-expansion step: the next round key from `k` and the round constant `RC`.
#[inline]
#[target_feature(enable = "aes,sse2")]
fn expand_step<const RC: i32>(k: __m128i) -> __m128i {
    // Dword 3 of the assist result is SubWord(RotWord(w3)) ^ rcon; broadcast it.
    let t = _mm_shuffle_epi32::<0xFF>(_mm_aeskeygenassist_si128::<RC>(k));
    // w'0 = w0 ^ t, w'1 = w1 ^ w'0, ...: prefix XOR over the four words, then ^ t.
    let mut k = k;
    k = _mm_xor_si128(k, _mm_slli_si128::<4>(k));
    k = _mm_xor_si128(k, _mm_slli_si128::<8>(k));
    _mm_xor_si128(k, t)
}

/// FIPS 197 key expansion with `aeskeygenassist`.
///
/// # Safety
/// The CPU must support AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
pub(crate) unsafe fn expand_key(key: &[u8; 16]) -> [[u8; 16]; 11] {
    let mut k = [_mm_setzero_si128(); 11];
    // SAFETY: 16 readable bytes.
    k[0] = unsafe { _mm_loadu_si128(key.as_ptr().cast()) };
    k[1] = expand_step::<0x01>(k[0]);
    k[2] = expand_step::<0x02>(k[1]);
    k[3] = expand_step::<0x04>(k[2]);
    k[4] = expand_step::<0x08>(k[3]);
    k[5] = expand_step::<0x10>(k[4]);
    k[6] = expand_step::<0x20>(k[5]);
    k[7] = expand_step::<0x40>(k[6]);
    k[8] = expand_step::<0x80>(k[7]);
    k[9] = expand_step::<0x1B>(k[8]);
    k[10] = expand_step::<0x36>(k[9]);
    let mut rk = [[0u8; 16]; 11];
    for (dst, src) in rk.iter_mut().zip(k.iter()) {
        // SAFETY: 16 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), *src) };
    }
    rk
}

/// AES-128 on one block.
#[inline]
#[target_feature(enable = "aes,sse2")]
fn encrypt1(k: &[__m128i; 11], b: __m128i) -> __m128i {
    let mut x = _mm_xor_si128(b, k[0]);
    for rk in &k[1..10] {
        x = _mm_aesenc_si128(x, *rk);
    }
    _mm_aesenclast_si128(x, k[10])
}

/// The counter block 0¹² ‖ BE32(c).
#[inline]
#[target_feature(enable = "sse2")]
fn counter_block(c: u32) -> __m128i {
    _mm_slli_si128::<12>(_mm_cvtsi32_si128(c.swap_bytes() as i32))
}

/// Encrypts `blocks` in place, one at a time.
///
/// # Safety
/// The CPU must support AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
pub(crate) unsafe fn encrypt_blocks(rk: &[[u8; 16]; 11], blocks: &mut [[u8; 16]]) {
    let k = load_keys(rk);
    for b in blocks.iter_mut() {
        // SAFETY: 16 readable and writable bytes.
        unsafe {
            let x = encrypt1(&k, _mm_loadu_si128(b.as_ptr().cast()));
            _mm_storeu_si128(b.as_mut_ptr().cast(), x);
        }
    }
}

/// CTR keystream (blocks AES(0¹² ‖ BE32(ctr0 + i))) for the blocks eight at a time do
/// not cover: one block at a time, the last one truncated.
#[inline]
#[target_feature(enable = "aes,sse2")]
fn ctr_tail(k: &[__m128i; 11], mut ctr: u32, out: &mut [u8]) {
    for chunk in out.chunks_mut(16) {
        let x = encrypt1(k, counter_block(ctr));
        let mut tmp = [0u8; 16];
        // SAFETY: 16 writable bytes.
        unsafe { _mm_storeu_si128(tmp.as_mut_ptr().cast(), x) };
        chunk.copy_from_slice(&tmp[..chunk.len()]);
        ctr = ctr.wrapping_add(1);
    }
}

/// CTR keystream with AES-NI, eight blocks in flight.
///
/// # Safety
/// The CPU must support AES-NI and SSE2.
#[target_feature(enable = "aes,sse2")]
pub(crate) unsafe fn ctr_aesni(rk: &[[u8; 16]; 11], ctr0: u32, out: &mut [u8]) {
    let k = load_keys(rk);
    let mut ctr = ctr0;
    let mut chunks = out.chunks_exact_mut(8 * 16);
    for chunk in &mut chunks {
        let mut x: [__m128i; 8] = core::array::from_fn(|j| {
            _mm_xor_si128(counter_block(ctr.wrapping_add(j as u32)), k[0])
        });
        for rk in &k[1..10] {
            for v in x.iter_mut() {
                *v = _mm_aesenc_si128(*v, *rk);
            }
        }
        for (j, v) in x.iter().enumerate() {
            // SAFETY: `chunk` is 128 bytes; block j is bytes 16j..16j+16.
            unsafe {
                _mm_storeu_si128(
                    chunk.as_mut_ptr().add(16 * j).cast(),
                    _mm_aesenclast_si128(*v, k[10]),
                )
            };
        }
        ctr = ctr.wrapping_add(8);
    }
    ctr_tail(&k, ctr, chunks.into_remainder());
}

/// CTR keystream with VAES on zmm registers, sixteen blocks in flight (four per
/// register); the tail (fewer than sixteen blocks) with AES-NI.
///
/// # Safety
/// The CPU must support VAES, AVX-512F, AVX-512BW, AES-NI and SSE2.
#[target_feature(enable = "vaes,avx512f,avx512bw,aes,sse2")]
pub(crate) unsafe fn ctr_vaes(rk: &[[u8; 16]; 11], ctr0: u32, out: &mut [u8]) {
    let k128 = load_keys(rk);
    let k: [__m512i; 11] = core::array::from_fn(|i| _mm512_broadcast_i32x4(k128[i]));
    // Counters in native order in dword 3 of each 128-bit lane: lane j holds ctr + j.
    let mut ctrv = _mm512_set_epi32(3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0);
    ctrv = _mm512_add_epi32(
        ctrv,
        _mm512_set_epi32(
            ctr0 as i32,
            0,
            0,
            0,
            ctr0 as i32,
            0,
            0,
            0,
            ctr0 as i32,
            0,
            0,
            0,
            ctr0 as i32,
            0,
            0,
            0,
        ),
    );
    let four = _mm512_set_epi32(4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0);
    // vpshufb control reversing the bytes of every dword.
    let bswap = _mm512_broadcast_i32x4(_mm_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
    ));
    let mut ctr = ctr0;
    let mut chunks = out.chunks_exact_mut(16 * 16);
    for chunk in &mut chunks {
        let mut x = [_mm512_setzero_si512(); 4];
        for v in x.iter_mut() {
            *v = _mm512_xor_si512(_mm512_shuffle_epi8(ctrv, bswap), k[0]);
            ctrv = _mm512_add_epi32(ctrv, four);
        }
        for rk in &k[1..10] {
            for v in x.iter_mut() {
                *v = _mm512_aesenc_epi128(*v, *rk);
            }
        }
        for (j, v) in x.iter().enumerate() {
            // SAFETY: `chunk` is 256 bytes; register j is bytes 64j..64j+64.
            unsafe {
                _mm512_storeu_si512(
                    chunk.as_mut_ptr().add(64 * j).cast(),
                    _mm512_aesenclast_epi128(*v, k[10]),
                )
            };
        }
        ctr = ctr.wrapping_add(16);
    }
    let rest = chunks.into_remainder();
    // SAFETY: AES-NI and SSE2 are among this function's required features.
    unsafe { ctr_aesni(rk, ctr, rest) };
}
