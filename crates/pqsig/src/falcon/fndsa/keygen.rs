//! FN-DSA (draft, fn-dsa 0.4.0) key generation from a 32-byte seed. DRAFT.
//!
//! Everything is drawn from one SHAKE256 stream over the seed:
//! 1. f, coefficient by coefficient (CDT sampler below), until f is invertible
//!    mod (q, X^n + 1);
//! 2. g the same way (no invertibility test);
//! 3. reject (back to 1) if ‖(g, −f)‖² ≥ 16823, or if the Gram–Schmidt norm test in
//!    32.32 fixed point fails ([`super::fxp::ortho_norm_ok`]), or if NTRUSolve fails;
//! 4. h = g/f mod q, kept in the NTT domain (that is what the verifying key holds).
//!
//! NTRUSolve is fn-dsa's (ntrugen) algorithm, in [`super::ntru`]: the shared round-3
//! solver finds valid solutions too, but rejects a different set of (f, g), which
//! changes which candidate becomes the key (see [`super::ntru`]).
//!
//! One deliberate deviation: at the toy degrees 6..=8 a sampled coefficient can exceed
//! what the signing-key encoding holds (e.g. |f_i| > 31 at logn 8); fn-dsa would then
//! write a key that decodes to a different f (a broken key). We draw a new (f, g)
//! instead. This cannot happen at logn 9 and 10 (the tables stop at 17 and 12).
//!
//! Side channels: the sampler scans its whole table for every draw; the data-dependent
//! branches are the rejection decisions (coefficient outside [-127, 127] at small
//! degrees, the parity of the last coefficient, and the four key-level tests), which
//! reveal only that a discarded candidate was discarded — the same leakage as fn-dsa
//! and round 3.

use super::codec::trim_i8_fits;
use super::fxp::{ortho_norm_ok, Fxr};
use super::params::fg_bits;
use super::prng::ShakeStream;
use crate::kernels::falcon::ntt::NttKernels;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// Half-Gaussian CDT for degree 512 (and, summed, the toy degrees): a uniform 15-bit v
/// gives the magnitude `#{j : v < tab[j]}`, so `tab[j] / 2^15 ≈ P(|x| > j)`.
const KGDIST_512: [u16; 17] = [
    29543, 23286, 17574, 12669, 8706, 5692, 3535, 2083, 1164, 615, 308, 146, 65, 28, 11, 4, 1,
];

/// The same for degree 1024 (narrower Gaussian).
const KGDIST_1024: [u16; 12] = [
    28207, 19623, 12472, 7198, 3753, 1761, 742, 280, 94, 28, 8, 2,
];

/// Draws a polynomial with odd coefficient sum (f or g).
fn sample_poly(logn: u32, rng: &mut ShakeStream, f: &mut [i8]) {
    let n = 1usize << logn;
    let (tab, draws): (&[u16], u32) = if logn == 10 {
        (&KGDIST_1024, 1)
    } else {
        (&KGDIST_512, 1 << (9 - logn))
    };
    let mut parity = 0u32;
    let mut i = 0;
    while i < n {
        // Each draw: bit 0 of a 16-bit word is the sign, the other 15 bits v; the
        // magnitude is #{j : v < tab[j]}, accumulated in the high half of `a` so the
        // sign can be applied without a branch.
        let mut sum = 0u32;
        for _ in 0..draws {
            let u = rng.next_u16() as u32;
            let v = u >> 1;
            let mut a = 0u32;
            for &t in tab {
                a = a.wrapping_sub(v.wrapping_sub(t as u32) & 0xFFFF_0000);
            }
            a = a.wrapping_sub((a << 1) & (u & 1).wrapping_neg());
            sum = sum.wrapping_add(a);
        }
        let x = (sum as i32) >> 16;
        // Only reachable for logn <= 6 (sums of many draws).
        // Rejections (public: a redrawn coefficient says nothing about the kept ones).
        if crate::ct::public(!(-127..=127).contains(&x)) {
            continue;
        }
        if i == n - 1 {
            if crate::ct::public((parity ^ x as u32) & 1 == 0) {
                continue;
            }
        } else {
            parity ^= x as u32;
        }
        f[i] = x as i8;
        i += 1;
    }
}

/// True if f is invertible mod (q, X^n + 1): no NTT value is zero (constant-time scan).
fn invertible(k: &NttKernels, logn: u32, f: &[i8], tmp: &mut [u16]) -> bool {
    let t = &mut tmp[..1 << logn];
    (k.from_i8)(t, f);
    (k.ntt)(t, logn);
    let mut zero = 0u32;
    for &x in t.iter() {
        zero |= (x as u32).wrapping_sub(1);
    }
    zero >> 31 == 0
}

/// The secret and public polynomials of a key pair.
#[allow(non_snake_case)]
pub(crate) struct KeyPoly {
    pub f: Zeroizing<Vec<i8>>,
    pub g: Zeroizing<Vec<i8>>,
    pub F: Zeroizing<Vec<i8>>,
    pub G: Zeroizing<Vec<i8>>,
    /// NTT(h), h = g/f mod q (the form the verifying key stores), values in [0, q).
    pub h: Vec<u16>,
}

/// Key generation from `seed` (deterministic), logn in 2..=10.
#[allow(non_snake_case)]
pub(crate) fn keygen(k: &NttKernels, logn: u32, seed: &[u8; 32]) -> KeyPoly {
    let n = 1usize << logn;
    let mut rng = ShakeStream::new_on(k.backend, &[&seed[..]]);
    let mut f = Zeroizing::new(vec![0i8; n]);
    let mut g = Zeroizing::new(vec![0i8; n]);
    let mut F = Zeroizing::new(vec![0i8; n]);
    let mut G = Zeroizing::new(vec![0i8; n]);
    let mut t16 = Zeroizing::new(vec![0u16; 2 * n]);
    let mut tfx = Zeroizing::new(vec![Fxr::ZERO; 5 * n / 2]);
    let bits = fg_bits(logn);
    let fk = crate::kernels::falcon::fndsa::kernels(k.backend);
    // The solver's twiddle tables do not depend on the key: built on the first solve.
    let mut tw: Option<super::ntru::NttCtx> = None;
    loop {
        sample_poly(logn, &mut rng, &mut f);
        // Each test below rejects the whole (f, g) (public: it is discarded).
        if !crate::ct::public(invertible(k, logn, &f, &mut t16)) {
            continue;
        }
        sample_poly(logn, &mut rng, &mut g);
        let sn: i32 = f.iter().chain(g.iter()).map(|&x| x as i32 * x as i32).sum();
        if crate::ct::public(sn >= 16823) {
            continue;
        }
        if !crate::ct::public(ortho_norm_ok(logn, &f, &g, &mut tfx, fk)) {
            continue;
        }
        if !crate::ct::public(trim_i8_fits(&f, bits) & trim_i8_fits(&g, bits)) {
            continue; // toy degrees only (see the module documentation)
        }
        let tw = tw.get_or_insert_with(|| super::ntru::ntt_ctx(logn, k.backend));
        if !crate::ct::public(super::ntru::solve_ntru(logn, &f, &g, &mut F, &mut G, tw)) {
            continue;
        }
        break;
    }
    // NTT(h) = NTT(g)/NTT(f).
    let (hq, fq) = t16.split_at_mut(n);
    (k.from_i8)(hq, &g);
    (k.from_i8)(fq, &f);
    (k.ntt)(hq, logn);
    (k.ntt)(fq, logn);
    let ok = (k.div)(hq, fq);
    debug_assert!(ok, "f was tested invertible");
    let mut h = hq.to_vec();
    // The public key (hashed into every μ, so it must be defined from here on).
    crate::ct::public_mut(&mut h[..]);
    KeyPoly { f, g, F, G, h }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_polys_have_odd_sum_and_expected_width() {
        for logn in [2u32, 5, 9, 10] {
            let n = 1usize << logn;
            let mut rng = ShakeStream::new(&[b"kg", &[logn as u8]]);
            let mut f = vec![0i8; n];
            let mut var = 0f64;
            let reps = 4096 / n + 1;
            for _ in 0..reps {
                sample_poly(logn, &mut rng, &mut f);
                let s: i32 = f.iter().map(|&x| x as i32).sum();
                assert_eq!(s & 1, 1);
                var += f.iter().map(|&x| (x as f64) * (x as f64)).sum::<f64>();
            }
            let sigma = (var / (reps * n) as f64).sqrt();
            // 1.17·sqrt(q/(2n)).
            let expect = 1.17 * (12289.0 / (2.0 * n as f64)).sqrt();
            assert!(
                (sigma / expect - 1.0).abs() < 0.1,
                "logn {logn}: {sigma} vs {expect}"
            );
        }
    }

    /// Keys of every degree satisfy f·G − g·F = q, have small F, G, and h = g/f.
    #[test]
    #[allow(non_snake_case)]
    fn keys_satisfy_the_ntru_equation() {
        let k = crate::kernels::falcon::ntt::active();
        for logn in 2..=10u32 {
            let n = 1usize << logn;
            for t in 0..(if logn <= 8 { 3u8 } else { 1 }) {
                let kp = keygen(k, logn, &[t ^ logn as u8; 32]);
                let (f, g, F, G) = (&kp.f[..], &kp.g[..], &kp.F[..], &kp.G[..]);
                let mut r = vec![0i64; n];
                for i in 0..n {
                    for j in 0..n {
                        let v = f[i] as i64 * G[j] as i64 - g[i] as i64 * F[j] as i64;
                        if i + j < n {
                            r[i + j] += v;
                        } else {
                            r[i + j - n] -= v;
                        }
                    }
                }
                assert_eq!(r[0], 12289, "logn {logn}");
                assert!(r[1..].iter().all(|&x| x == 0), "logn {logn}");
                assert!(F.iter().chain(G.iter()).all(|&x| x != -128));
                // NTT(h)·NTT(f) = NTT(g).
                let mut a = vec![0u16; n];
                let mut b = vec![0u16; n];
                (k.from_i8)(&mut a, f);
                (k.ntt)(&mut a, logn);
                (k.to_monty)(&mut a);
                b.copy_from_slice(&kp.h);
                (k.mul_monty)(&mut b, &a);
                (k.from_i8)(&mut a, g);
                (k.ntt)(&mut a, logn);
                assert_eq!(a, b, "logn {logn}");
            }
        }
    }
}
