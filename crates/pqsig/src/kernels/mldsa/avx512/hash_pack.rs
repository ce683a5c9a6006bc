//! Key generation's tr = H(pk) on the AVX-512 one-state permutation, with skEncode's
//! packing of s1, s2 and t0 done in the rounds' idle cycles.
//!
//! H(pk) is 10 / 15 / 20 one-state permutations that nothing else can run beside (pk is
//! the last thing key generation computes), and the permutation keeps the vector ports
//! busy while the integer ones idle. Packing the secret key is a scalar shift-and-or
//! loop of about the same length. So each round first packs two groups of coefficients
//! (`SkPacker::step`, 4 or 8 coefficients each), the way Falcon's verification decodes
//! its signature inside hash-to-point (`kernels::falcon::codec`). Measured on Zen 5:
//! ML-DSA-44 key generation to bytes 3 % faster, ML-DSA-65 unchanged (its 4-bit η
//! makes twice the groups; most are packed after the hash).
//!
//! Results are exactly those of `mldsa::sample::h256` and `SkPacker::finish`. Constant
//! time: the packing is the same branch-free code, in an order that depends only on the
//! round count.

use crate::kernels::keccak::f1600::keccak_f1600;
use crate::kernels::keccak::sponge::Shake256;
use crate::kernels::select::Backend;
use crate::mldsa::encode::SkPacker;

/// tr = H(`pk`, 64) and every group of `packer`, interleaved where AVX-512 is available
/// (checked here), one after the other otherwise.
pub(crate) fn tr_packing(pk: &[u8], tr: &mut [u8; 64], mut packer: SkPacker) {
    if Backend::Avx512.is_available() {
        // SAFETY: AVX2 and AVX-512 F/VL/BW/DQ were detected on the line above.
        unsafe { tr_packing_avx512(pk, tr, &mut packer) };
        packer.finish();
        return;
    }
    crate::kernels::keccak::sponge::shake256_on(keccak_f1600, &[pk], tr);
    packer.finish();
}

/// # Safety
/// The CPU must support AVX2, AVX-512F and AVX-512VL.
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn tr_packing_avx512(pk: &[u8], tr: &mut [u8; 64], packer: &mut SkPacker) {
    use crate::kernels::keccak::f1600_avx512::{keccak_f1600_avx512_hooked, RoundHook};
    use crate::kernels::keccak::sponge::KeccakPermutation;

    /// The AVX-512 permutation with two groups packed before each round (written out:
    /// a loop over a computed count measured slower, and two a round cover ML-DSA-44's
    /// and -87's groups within H(pk); ML-DSA-65's η = 4 groups finish after it).
    struct Packing<'p, 'a> {
        packer: &'p mut SkPacker<'a>,
    }
    impl RoundHook for Packing<'_, '_> {
        #[inline(always)]
        fn before_round(&mut self) {
            self.packer.step();
            self.packer.step();
        }
    }
    impl KeccakPermutation for Packing<'_, '_> {
        #[inline(always)]
        fn permute(&mut self, st: &mut [u64; 25]) {
            // SAFETY: only inlined into `tr_packing_avx512`, whose CPU features include
            // the permutation's.
            unsafe { keccak_f1600_avx512_hooked(st, self) }
        }
    }

    let mut perm = Packing { packer };
    let mut h = Shake256::new();
    h.absorb_permuting(&mut perm, pk);
    let mut got = 0;
    // A fresh squeeze is on a lane boundary: the lanes are always offered.
    h.squeeze_lanes_permuting(&mut perm, |lanes| {
        let n = lanes.len().min(8 - got);
        for (o, w) in tr[8 * got..8 * (got + n)].chunks_exact_mut(8).zip(lanes) {
            o.copy_from_slice(&w.to_le_bytes());
        }
        got += n;
        n
    });
    debug_assert_eq!(got, 8);
}
