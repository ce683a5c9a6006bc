//! Falcon's compressed-signature decoder, per backend. The decoder itself is scheme code
//! (`falcon::codec::comp_decode_body`, always inlined); this module decides which build of
//! it runs: on x86-64 backends the same body compiled for LZCNT/BMI1/BMI2 (`lzcnt` for the
//! unary counts, `shlx` for the variable shifts), when the CPU has them.

#[cfg(target_arch = "x86_64")]
use crate::falcon::codec::CompDecoder;
use crate::falcon::params::NONCE_LEN;
use crate::kernels::falcon::ntt::NttKernels;
use crate::kernels::select::Backend;

/// Hash-to-point of (nonce, msg) into `c0` and comp(s2) (`body`) into `s2` in one pass,
/// with `k`'s sampling kernel: the bytes of `body` consumed, or `None` if malformed.
pub type HashAndDecode = fn(
    k: &NttKernels,
    nonce: &[u8; NONCE_LEN],
    msg: &[u8],
    body: &[u8],
    s2: &mut [i16],
    c0: &mut [u16],
) -> Option<usize>;

/// One backend's codec kernels.
pub struct CodecKernels {
    pub backend: Backend,
    /// comp(s2) into `x` (a power-of-two length ≤ 1024) from the start of `buf`: the bytes
    /// consumed, or `None` for a malformed encoding (see `falcon::codec::comp_decode`).
    pub comp_decode: fn(x: &mut [i16], buf: &[u8]) -> Option<usize>,
    /// Verification's hash-to-point and decoding fused (AVX-512: the decoder runs
    /// between the rounds of the Keccak permutation); `None`: hash, then decode.
    pub hash_and_decode: Option<HashAndDecode>,
}

static PORTABLE: CodecKernels = CodecKernels {
    backend: Backend::Portable,
    comp_decode: crate::falcon::codec::comp_decode_body,
    hash_and_decode: None,
};

#[cfg(target_arch = "x86_64")]
static BMI: CodecKernels = CodecKernels {
    backend: Backend::Avx2,
    comp_decode: comp_decode_bmi,
    hash_and_decode: None,
};

#[cfg(target_arch = "x86_64")]
static AVX512: CodecKernels = CodecKernels {
    backend: Backend::Avx512,
    comp_decode: comp_decode_bmi,
    hash_and_decode: Some(hash_and_decode_entry),
};

/// The codec kernels of backend `b`: with LZCNT, BMI1 and BMI2 on the CPU, the BMI build
/// for AVX2 and, for AVX-512, also the fused hash-and-decode; portable otherwise.
pub fn kernels(b: Backend) -> &'static CodecKernels {
    crate::kernels::trace::record("falcon::codec::kernels", b);
    match b {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Backend::Avx512.is_available()` (AVX2, AVX-512 F/VL/BW/DQ) and
        // `bmi_detected()` (LZCNT, BMI1, BMI2): every feature of the fused pass.
        Backend::Avx512 if b.is_available() && bmi_detected() => &AVX512,
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `bmi_detected()`: LZCNT, BMI1 and BMI2 detected.
        Backend::Avx2 if b.is_available() && bmi_detected() => &BMI,
        _ => &PORTABLE,
    }
}

/// LZCNT, BMI1 and BMI2 (checked at run time with `std`, else at build time).
#[cfg(target_arch = "x86_64")]
pub(crate) fn bmi_detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(all(
            target_feature = "lzcnt",
            target_feature = "bmi1",
            target_feature = "bmi2"
        ))
    }
}

/// Safe entry to the BMI build; only handed out by [`kernels`] after `bmi_detected()`.
#[cfg(target_arch = "x86_64")]
fn comp_decode_bmi(x: &mut [i16], buf: &[u8]) -> Option<usize> {
    /// # Safety
    /// The CPU must support LZCNT, BMI1 and BMI2.
    #[target_feature(enable = "lzcnt,bmi1,bmi2")]
    unsafe fn imp(x: &mut [i16], buf: &[u8]) -> Option<usize> {
        crate::falcon::codec::comp_decode_body(x, buf)
    }
    // SAFETY: reachable only through the `BMI` table, which `kernels` hands out only
    // after `bmi_detected()`.
    unsafe { imp(x, buf) }
}

/// Safe entry to the fused pass; only reachable through [`AVX512`], which [`kernels`]
/// hands out after detecting every feature it needs.
#[cfg(target_arch = "x86_64")]
fn hash_and_decode_entry(
    k: &NttKernels,
    nonce: &[u8; NONCE_LEN],
    msg: &[u8],
    body: &[u8],
    s2: &mut [i16],
    c0: &mut [u16],
) -> Option<usize> {
    // SAFETY: reachable only through `AVX512` (AVX2, AVX-512F/VL, LZCNT, BMI1, BMI2).
    unsafe { hash_and_decode_avx512(k, nonce, msg, body, s2, c0) }
}

/// Hash-to-point into `c0` and the decoding of comp(s2) (`body`) into `s2`, interleaved:
/// one pair of coefficients is decoded before each round of the AVX-512 Keccak
/// permutations. The decoder is a scalar dependency chain (a count of leading zeros and
/// a shift per coefficient) that leaves most execution ports idle, the permutation keeps
/// the vector ports busy, so side by side they take little more than the permutations
/// alone. Results and errors are exactly those of `falcon::codec::comp_decode` (the returned length, or
/// `None`) and `falcon::hash::hash_to_point_msg_on` (`c0`); `k` supplies the sampling kernel.
///
/// # Safety
/// The CPU must support AVX2, AVX-512F, AVX-512VL, LZCNT, BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,lzcnt,bmi1,bmi2")]
unsafe fn hash_and_decode_avx512(
    k: &NttKernels,
    nonce: &[u8; NONCE_LEN],
    msg: &[u8],
    body: &[u8],
    s2: &mut [i16],
    c0: &mut [u16],
) -> Option<usize> {
    use crate::kernels::keccak::f1600::permute1_for;
    use crate::kernels::keccak::f1600_avx512::{keccak_f1600_avx512_hooked, RoundHook};
    use crate::kernels::keccak::sponge::{KeccakPermutation, Shake256};

    /// The AVX-512 permutation with a pair of coefficients decoded before each round.
    struct Interleaved<'d, 'b> {
        dec: CompDecoder<'b>,
        s2: &'d mut [i16],
    }
    impl RoundHook for Interleaved<'_, '_> {
        #[inline(always)]
        fn before_round(&mut self) {
            self.dec.pair(self.s2);
        }
    }
    impl KeccakPermutation for Interleaved<'_, '_> {
        #[inline(always)]
        fn permute(&mut self, st: &mut [u64; 25]) {
            // SAFETY: only inlined into `hash_and_decode_avx512`, whose CPU features
            // include the permutation's.
            unsafe { keccak_f1600_avx512_hooked(st, self) }
        }
    }

    let dec = CompDecoder::new(body)?;
    let mut sponge = Shake256::new().with_permutation(permute1_for(Backend::Avx512));
    sponge.absorb(nonce);
    sponge.absorb(msg);
    let mut filled = 0;
    let mut perm = Interleaved { dec, s2 };
    // A fresh sponge is on a lane boundary: the lanes are always offered.
    let offered = sponge.squeeze_lanes_permuting(&mut perm, |lanes| {
        let (f, used) = (k.hash_words)(c0, filled, lanes);
        filled = f;
        used
    });
    debug_assert!(offered && filled == c0.len());
    let Interleaved { dec, s2 } = perm;
    dec.finish(s2)
}
