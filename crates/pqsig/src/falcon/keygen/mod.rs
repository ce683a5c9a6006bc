//! Falcon round-3 key generation, byte-exact with the NIST KATs.
//!
//! [`keygen_from_shake`] runs the reference algorithm on a SHAKE256 stream:
//!
//! 1. sample f, then g ([`sample_fg`]: round-3 Gaussian, odd coefficient sum);
//! 2. reject unless every coefficient fits the secret-key encoding (`FG_BITS`), the
//!    squared norm of (g, −f) is below 1.17²·q, the Gram–Schmidt norm of the orthogonal
//!    vector q·(adj f, adj g)/(f·adj f + g·adj g) is below 1.17²·q (FFT over `Fpr`), and
//!    f is invertible modulo q (h = g/f mod q);
//! 3. solve the NTRU equation f·G − g·F = q ([`solve`]); on failure start again at 1.
//!
//! Every rejection restarts from the sampling of both polynomials, at the same points
//! as the reference, so the SHAKE stream stays aligned with the KATs.
//!
//! [`solve`] exposes the solver with the reference's final checks on its own. FN-DSA
//! (draft) samples f and g differently and solves with fn-dsa's own (ntrugen) rules:
//! on the 90 fn-dsa 0.4.0 KAT keys [`solve`] returns the same F wherever it succeeds,
//! but the round-3 bounds reject 10 toy-degree keys (9 at logn 3, 1 at logn 5) that
//! fn-dsa accepts, so it is not a drop-in replacement there.
//!
//! Side channels: sampling and solving are constant-time except for the rejections of
//! whole candidates (documented where they happen); the secrets and every scratch
//! buffer are zeroized on drop.
//!
//! Cost: the stream the reference reads is large (two 64-bit words per base sample,
//! ~12 candidates per key at n = 512), so SHAKE256 is about half of the time.

/// Defines a solver loop whose body is compiled per ISA by `kernels::falcon::keygen`:
/// `name(kk, args)` calls `kk`'s build of `name::body(args)` (the baseline one, or one
/// compiled with AVX2 enabled: the integer loops are written to vectorise, and 256-bit
/// registers double their throughput). Every build computes exactly the same thing
/// (integer code, or binary64 operations in the same order with no contraction).
macro_rules! solver_loop {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($a:ident: $t:ty),* $(,)?) $(-> $r:ty)? $body:block) => {
        $(#[$m])*
        #[inline]
        #[allow(clippy::too_many_arguments)]
        $vis fn $name(
            kk: &crate::kernels::falcon::keygen::KeygenKernels,
            $($a: $t),*
        ) $(-> $r)? {
            (kk.solver.$name)($($a),*)
        }
        /// The body of the function of the same name, built per ISA by
        /// `kernels::falcon::keygen`.
        pub(crate) mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[inline(always)]
            #[allow(clippy::too_many_arguments)]
            pub(crate) fn body($($a: $t),*) $(-> $r)? $body
        }
    };
}

pub(crate) mod gauss;
pub(crate) mod poly;
pub(crate) mod solve;

use alloc::vec;
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

use crate::error::Error;
use crate::falcon::{codec, params, verify};
use crate::kernels::falcon::fpr::{self, Fpr};
use crate::kernels::falcon::keygen::{kernels, KeygenKernels};
use crate::kernels::keccak::sponge::Shake256;
use crate::kernels::select::{self, Backend};

/// A Falcon key pair in raw form: the NTRU secrets (f, g, F, G) and the public key
/// h = g/f mod q. The secret polynomials are zeroized on drop.
#[allow(non_snake_case)]
pub struct KeyPair {
    /// log2 of the degree.
    pub logn: u32,
    pub f: Vec<i8>,
    pub g: Vec<i8>,
    pub F: Vec<i8>,
    pub G: Vec<i8>,
    /// h = g/f mod q, coefficients in [0, q).
    pub h: Vec<u16>,
}

impl Drop for KeyPair {
    fn drop(&mut self) {
        self.f.zeroize();
        self.g.zeroize();
        self.F.zeroize();
        self.G.zeroize();
    }
}

impl KeyPair {
    /// The round-3 public key encoding `0x00+logn ‖ h` (14 bits per coefficient).
    pub fn public_key_bytes(&self) -> Result<Vec<u8>, Error> {
        codec::encode_public_key(&self.h, self.logn)
    }

    /// The round-3 compact secret key encoding `0x50+logn ‖ f ‖ g ‖ F` (zeroized on drop).
    pub fn secret_key_bytes(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        codec::encode_secret_key(&self.f, &self.g, &self.F, self.logn)
    }
}

impl core::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("KeyPair")
            .field("logn", &self.logn)
            .finish_non_exhaustive()
    }
}

/// The solution (F, G) of the NTRU equation, zeroized on drop.
#[allow(non_snake_case)]
pub struct NtruSolution {
    pub F: Zeroizing<Vec<i8>>,
    pub G: Zeroizing<Vec<i8>>,
}

/// Round-3 key generation from a SHAKE256 context that has absorbed the seed (it is
/// finalized on the first read). Reads exactly what the reference reads, 8 bytes per
/// 64-bit word, so the context is left where the reference leaves it.
///
/// `logn` in 1..=10 (9 and 10 are Falcon-512 and Falcon-1024); other values give
/// [`Error::Unsupported`].
pub fn keygen_from_shake(rng: &mut Shake256, logn: u32) -> Result<KeyPair, Error> {
    keygen_from_shake_with(&kernels(select::active()), rng, logn)
}

/// [`keygen_from_shake`] with the kernels `kk` (every step runs on `kk.backend`).
#[allow(non_snake_case)]
pub fn keygen_from_shake_with(
    kk: &KeygenKernels,
    rng: &mut Shake256,
    logn: u32,
) -> Result<KeyPair, Error> {
    if !params::logn_ok(logn) {
        return Err(Error::Unsupported);
    }
    let n = 1usize << logn;
    let mut f = Zeroizing::new(vec![0i8; n]);
    let mut g = Zeroizing::new(vec![0i8; n]);
    let mut F = Zeroizing::new(vec![0i8; n]);
    let mut G = Zeroizing::new(vec![0i8; n]);
    let mut h = vec![0u16; n];
    let mut buf = Zeroizing::new([0u8; 16 * 512]);
    // Rejection loop. Leaks only which check failed for discarded candidates.
    loop {
        sample_fg_with(kk, rng, &mut f, &mut g, logn, &mut buf);
        // Every check's verdict is a keygen rejection, public (docs/ARCHITECTURE.md).
        if !crate::ct::public(fits_encoding(&f, &g, logn)) || !norms_ok_with(kk, &f, &g, logn) {
            continue;
        }
        if !crate::ct::public(verify::compute_public_with(kk.ntt, &mut h, &f, &g, logn)) {
            continue;
        }
        if solve::solve_ntru(kk, logn, &f, &g, &mut F, &mut G, 127) {
            break;
        }
    }
    // h is the public key.
    crate::ct::public_mut(&mut h[..]);
    Ok(KeyPair {
        logn,
        f: f.to_vec(),
        g: g.to_vec(),
        F: F.to_vec(),
        G: G.to_vec(),
        h,
    })
}

/// Round-3 key generation from the 48-byte seed that the NIST API draws
/// (`crypto_sign_keypair`): SHAKE256(seed) feeds [`keygen_from_shake`].
pub fn keygen_from_seed48(seed: &[u8; 48], logn: u32) -> Result<KeyPair, Error> {
    keygen_from_seed48_on(seed, logn, select::active())
}

/// [`keygen_from_seed48`] on backend `b` (SHAKE256, sampling, norm checks and solver).
pub fn keygen_from_seed48_on(seed: &[u8; 48], logn: u32, b: Backend) -> Result<KeyPair, Error> {
    let kk = kernels(b);
    let mut rng = Shake256::new().with_permutation(kk.permute1);
    rng.absorb(seed);
    keygen_from_shake_with(&kk, &mut rng, logn)
}

/// Samples f then g as the round-3 reference does (each coefficient the sum of
/// 2^(10−logn) table samples, two 64-bit little-endian SHAKE words per sample; values
/// outside [−127, 127] and a last coefficient of even total parity are redrawn).
/// `f`, `g` have 2^logn entries; `buf` is scratch (wiped by the caller).
pub fn sample_fg(rng: &mut Shake256, f: &mut [i8], g: &mut [i8], logn: u32, buf: &mut [u8; 8192]) {
    sample_fg_with(&kernels(select::active()), rng, f, g, logn, buf)
}

fn sample_fg_with(
    kk: &KeygenKernels,
    rng: &mut Shake256,
    f: &mut [i8],
    g: &mut [i8],
    logn: u32,
    buf: &mut [u8; 8192],
) {
    gauss::sample_poly(kk, rng, f, logn, buf);
    gauss::sample_poly(kk, rng, g, logn, buf);
}

/// True when every coefficient of f and g fits the compact secret key's width
/// (|x| < 2^(FG_BITS[logn] − 1)). Not constant-time: a failure discards the candidate.
fn fits_encoding(f: &[i8], g: &[i8], logn: u32) -> bool {
    let lim = 1i32 << (params::FG_BITS[logn as usize] - 1);
    // No short-circuit: the caller declassifies only the verdict.
    f.iter()
        .chain(g.iter())
        .fold(true, |ok, &x| ok & ((x as i32) < lim) & ((x as i32) > -lim))
}

/// The two norm checks of the round-3 key generator: ||(g, −f)||² < 16823 and the
/// squared Gram–Schmidt norm of q·(adj f, adj g)/(f·adj f + g·adj g) below
/// `BNORM_MAX` (floating point, the reference's operation order). Constant-time up to
/// the returned decision.
pub fn norms_ok(f: &[i8], g: &[i8], logn: u32) -> bool {
    norms_ok_with(&kernels(select::active()), f, g, logn)
}

fn norms_ok_with(kk: &KeygenKernels, f: &[i8], g: &[i8], logn: u32) -> bool {
    let n = 1usize << logn;
    let sq: i32 = f[..n]
        .iter()
        .chain(g[..n].iter())
        .map(|&x| (x as i32) * (x as i32))
        .sum();
    if crate::ct::public(sq >= 16823) {
        return false;
    }
    let fk = kk.fft;
    let mut rt = Zeroizing::new(vec![fpr::ZERO; 2 * n + n / 2 + 1]);
    let (rt1, rest) = rt.split_at_mut(n);
    let (rt2, rt3) = rest.split_at_mut(n);
    for i in 0..n {
        rt1[i] = Fpr::of(f[i] as i64);
        rt2[i] = Fpr::of(g[i] as i64);
    }
    (fk.fft)(rt1, logn);
    (fk.fft)(rt2, logn);
    (fk.poly_invnorm2_fft)(rt3, rt1, rt2, logn);
    (fk.poly_adj_fft)(rt1, logn);
    (fk.poly_adj_fft)(rt2, logn);
    (fk.poly_mulconst)(rt1, fpr::Q, logn);
    (fk.poly_mulconst)(rt2, fpr::Q, logn);
    (fk.poly_mul_autoadj_fft)(rt1, rt3, logn);
    (fk.poly_mul_autoadj_fft)(rt2, rt3, logn);
    (fk.ifft)(rt1, logn);
    (fk.ifft)(rt2, logn);
    let mut bnorm = fpr::ZERO;
    for i in 0..n {
        bnorm = bnorm.add(rt1[i].sqr());
        bnorm = bnorm.add(rt2[i].sqr());
    }
    crate::ct::public(bnorm.lt(fpr::BNORM_MAX))
}

/// NTRUSolve plus the reference's final checks: returns (F, G) with coefficients in
/// [−127, 127] and f·G − g·F = q mod X^n+1, or None when (f, g) must be discarded.
/// f and g must have odd resultants with X^n+1 (odd coefficient sums), coefficients in
/// [−127, 127], and 2^logn entries each (1 <= logn <= 10; None otherwise).
#[allow(non_snake_case)]
pub fn solve(f: &[i8], g: &[i8], logn: u32) -> Option<NtruSolution> {
    if !params::logn_ok(logn) {
        return None;
    }
    let n = 1usize << logn;
    if f.len() < n || g.len() < n {
        return None;
    }
    let mut F = Zeroizing::new(vec![0i8; n]);
    let mut G = Zeroizing::new(vec![0i8; n]);
    let kk = kernels(select::active());
    if solve::solve_ntru(&kk, logn, &f[..n], &g[..n], &mut F, &mut G, 127) {
        Some(NtruSolution { F, G })
    } else {
        None
    }
}
