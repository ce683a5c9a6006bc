//! The last step of a signing attempt: rounding the lattice point and the squared norm
//! of `(s1, s2) = (hm − rint(t0), −rint(t1))`, with the reference's semantics:
//!
//! * `rint` rounds to nearest, ties to even, then the integer is truncated to 32 bits
//!   (and, for s2, to 16 bits);
//! * the squared norm is summed in 32-bit words and saturated: once a partial sum has
//!   reached `2^31` the result is `2^32 − 1`, so no wrap-around can make a long vector
//!   look short.
//!
//! [`sqnorm`] computes it exactly that way ([`sqnorm_exact`]), except that on native
//! `f64` builds it first tries a branch-free pass that vectorizes: every coefficient is
//! rounded by adding `1.5·2^52` (whose low 32 mantissa bits are then `rint(x)` modulo
//! `2^32`, ties to even, for `|x| < 2^51`) and the squares are summed in 64 bits. When
//! every `|x| < 2^51` and every coefficient of `(s1, s2)` is at most `2^15 − 1` in
//! magnitude (always, for a Falcon key: they are below `2^12`), each square is below
//! `2^30`, so the 32-bit partial sums cannot step over `[2^31, 2^32)` and the saturated
//! result is `min(sum, 2^32 − 1)` with `sum >= 2^31` mapped to `2^32 − 1`: the same value.
//! Otherwise (a key that is not a Falcon key) the exact loops run. Which of the two runs
//! depends on the key only, not on the signature being made.

use crate::kernels::falcon::fpr::Fpr;
#[cfg(not(feature = "fpr-emulated"))]
use crate::kernels::falcon::norm::kernels as norm_kernels;
use crate::kernels::select::Backend;

/// s2 coefficient from the lattice point's second half: `−rint(t)` truncated to 16 bits.
#[inline(always)]
pub(crate) fn s2_coeff(t: Fpr) -> i16 {
    (t.rint() as i32).wrapping_neg() as i16
}

/// The reference's loops (see the module docs).
pub(crate) fn sqnorm_exact(hm: &[u16], t0: &[Fpr], t1: &[Fpr]) -> u32 {
    let mut sqn = 0u32;
    let mut ng = 0u32;
    for (&h, &t) in hm.iter().zip(t0.iter()) {
        let z = (h as i32).wrapping_sub(t.rint() as i32);
        sqn = sqn.wrapping_add(z.wrapping_mul(z) as u32);
        ng |= sqn;
    }
    for &t in t1.iter() {
        let z = s2_coeff(t) as i32;
        sqn = sqn.wrapping_add(z.wrapping_mul(z) as u32);
        ng |= sqn;
    }
    sqn | (ng >> 31).wrapping_neg()
}

/// `1.5·2^52`: `x + MAGIC` has exponent field 0x433 and `rint(x)` (mod `2^32`) in its
/// low 32 bits for `|x| < 2^51`.
#[cfg(not(feature = "fpr-emulated"))]
const MAGIC: f64 = 6755399441055744.0;

/// `rint(x)` truncated to 32 bits, and whether `|x| < 2^51` (else the value is garbage).
#[cfg(not(feature = "fpr-emulated"))]
#[inline(always)]
fn rint32(t: Fpr) -> (i32, bool) {
    let y = (f64::from_bits(t.to_bits()) + MAGIC).to_bits();
    (y as i32, (y >> 52) == 0x433)
}

/// The vectorizable pass (module docs): `None` when its conditions do not hold.
#[cfg(not(feature = "fpr-emulated"))]
#[inline(always)]
pub(crate) fn sqnorm_fast(hm: &[u16], t0: &[Fpr], t1: &[Fpr]) -> Option<u32> {
    let mut sum = 0u64;
    let mut bad = 0u32;
    for (&h, &t) in hm.iter().zip(t0.iter()) {
        let (r, ok) = rint32(t);
        let z = (h as i32).wrapping_sub(r);
        bad |= (!ok as u32) | ((z.wrapping_add(32767) as u32 > 65534) as u32);
        sum += (z.wrapping_mul(z) as u32) as u64;
    }
    for &t in t1.iter() {
        let (r, ok) = rint32(t);
        let z = r.wrapping_neg();
        bad |= (!ok as u32) | ((z.wrapping_add(32767) as u32 > 65534) as u32);
        sum += (z.wrapping_mul(z) as u32) as u64;
    }
    // Key-dependent only (module docs); declassified (docs/ARCHITECTURE.md).
    if crate::ct::public(bad != 0) {
        return None;
    }
    Some(if sum >= 1 << 31 { u32::MAX } else { sum as u32 })
}

/// `s2[i] ← −rint(t1[i])` (16 bits) where the fast pass applied.
#[cfg(not(feature = "fpr-emulated"))]
#[inline(always)]
pub(crate) fn s2_fast(s2: &mut [i16], t1: &[Fpr]) {
    for (o, &t) in s2.iter_mut().zip(t1.iter()) {
        *o = rint32(t).0.wrapping_neg() as i16;
    }
}

/// The saturated squared norm of `(hm − rint(t0), −rint(t1))` (module docs); `hm`,
/// `t0`, `t1` of the same length. Also returns whether [`write_s2`] may take its fast
/// path.
pub(crate) fn sqnorm(b: Backend, hm: &[u16], t0: &[Fpr], t1: &[Fpr]) -> (u32, bool) {
    let _ = b;
    #[cfg(not(feature = "fpr-emulated"))]
    {
        // `b`'s build of the pass (kernels::falcon::norm: AVX2 where available).
        if let Some(v) = (norm_kernels(b).sqnorm_fast)(hm, t0, t1) {
            return (v, true);
        }
    }
    (sqnorm_exact(hm, t0, t1), false)
}

/// `s2[i] ← −rint(t1[i])` truncated to 16 bits; `fast` as returned by [`sqnorm`].
pub(crate) fn write_s2(b: Backend, s2: &mut [i16], t1: &[Fpr], fast: bool) {
    let _ = (b, fast);
    #[cfg(not(feature = "fpr-emulated"))]
    if fast {
        (norm_kernels(b).s2_fast)(s2, t1);
        return;
    }
    for (o, &t) in s2.iter_mut().zip(t1.iter()) {
        *o = s2_coeff(t);
    }
}

#[cfg(all(test, feature = "std", not(feature = "fpr-emulated")))]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The fast pass equals the exact loops on short vectors, on coefficients at the
    /// rounding ties, and on vectors near and past the saturation point; where its
    /// conditions fail it says so.
    #[test]
    fn fast_matches_exact() {
        let mut s = 0x5151_7A7A_0101_2323u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for round in 0..3000 {
            let n = 1usize << (1 + round % 10);
            let scale = [4.0, 300.0, 3000.0, 40000.0, 1e9, 1e16][round % 6];
            let mut val = || {
                let u = (next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                let v = match next() % 4 {
                    0 => (u * scale).round() + 0.5,
                    _ => u * scale,
                };
                Fpr::from_bits(v.to_bits())
            };
            let t0: Vec<Fpr> = (0..n).map(|_| val()).collect();
            let t1: Vec<Fpr> = (0..n).map(|_| val()).collect();
            let hm: Vec<u16> = (0..n).map(|_| (next() % 12289) as u16).collect();
            let want = sqnorm_exact(&hm, &t0, &t1);
            for b in Backend::available() {
                let (got, fast) = sqnorm(b, &hm, &t0, &t1);
                assert_eq!(got, want, "round {round}, {b}");
                if scale < 5000.0 {
                    assert!(fast);
                }
                let mut a = alloc::vec![0i16; n];
                let mut e = alloc::vec![0i16; n];
                write_s2(b, &mut a, &t1, fast);
                write_s2(Backend::Portable, &mut e, &t1, false);
                assert_eq!(a, e);
            }
        }
    }
}
