//! Falcon signing (round 3): fast Fourier sampling over the secret basis, in two modes
//! with the same output.
//!
//! * **Dynamic** ([`sign_dyn`], [`CompactKey`]): from f, g, F, G; the basis B0 is
//!   converted to FFT form once per call and the LDL tree is recomputed during sampling
//!   (reference `sign_dyn`). Less memory, more work per signature.
//! * **Expanded** ([`ExpandedKey`]): B0 in FFT form and the normalized LDL tree are
//!   computed once (reference `expand_privkey`) and reused for every signature
//!   (reference `sign_tree`).
//!
//! Each attempt seeds a fresh sampler PRNG ([`prng`]) from the next 56 bytes of the
//! caller's SHAKE256 context, computes the target `(t0, t1) = (c, 0)·B0⁻¹` (as
//! `(c·(−F)/q, −c·(−f)/q)` in FFT form), samples `z` with ffSampling (`ffsampling.rs`),
//! derives `(s1, s2) = (c, 0) − z·B0` and accepts when `‖(s1, s2)‖² ≤ ⌊β²⌋`; otherwise
//! it starts over with the same context, as the reference does. Every floating-point
//! operation matches the reference's, so the round-3 KATs are reproduced bit for bit.
//!
//! [`round3`] adds the byte-level layer: compact secret key in, detached signature
//! (`0x30 + logn ‖ nonce ‖ comp(s2)`, variable length or padded) out.
//!
//! # Secrets
//! f, g, F, G, B0, the Gram matrix, the tree, the targets, the sampled vectors and the
//! PRNG state live in heap buffers wiped on drop. No branch or memory index depends on
//! them, except: the number of attempts (a public event: a rejected candidate is
//! discarded and reveals nothing about the accepted one), the rejection loops inside the
//! sampler and BerExp's lazy byte reads (see [`crate::kernels::falcon::samplerz`]), and
//! whether the key is a Falcon key at all: a key that decodes but whose LDL tree has a
//! leaf outside the sampler's range, or that fails [`MAX_ATTEMPTS`] attempts in a row,
//! is reported as `InvalidKey` (the reference would sample with it or loop forever).

mod ffsampling;
pub(crate) mod norm;
mod ops;
pub mod prng;
pub mod round3;
pub mod sampler;
pub mod tree;

use crate::error::Error;
use crate::falcon::params;
use crate::kernels::falcon::fft::{self, FftKernels};
use crate::kernels::falcon::fpr::{self, Fpr};
use crate::kernels::falcon::samplerz::{self, SamplerKernels};
use crate::kernels::keccak::sponge::Shake256;
use crate::kernels::select::{self, Backend};
use alloc::vec::Vec;
use sampler::Sampler;
use tree::{tree_size, SecretBuf};
use zeroize::Zeroize;

pub use tree::tree_size as ldl_tree_size;

/// Signing attempts before a key is declared invalid. A valid key's attempt fails the norm
/// check with probability about 1/800 or less at n = 512 and 1024 (more at the toy
/// degrees, but far from 1), so 256 failures in a row only happen with a key that is not
/// a Falcon key (which the reference would loop on forever).
pub const MAX_ATTEMPTS: usize = 256;

/// The kernel tables one signer uses (pinned per key, like the ML-DSA keys).
#[derive(Clone, Copy)]
struct SignTables {
    fft: &'static FftKernels,
    samp: &'static SamplerKernels,
    backend: Backend,
}

impl SignTables {
    fn of(b: Backend) -> SignTables {
        SignTables {
            fft: fft::kernels(b),
            samp: samplerz::kernels(b),
            backend: b,
        }
    }
}

/// Target vector `(t0, t1)` from `hm`: `t0 = FFT(hm)·b11/q`, `t1 = −FFT(hm)·b01/q`.
fn target(
    fk: &FftKernels,
    t0: &mut [Fpr],
    t1: &mut [Fpr],
    hm: &[u16],
    b01: &[Fpr],
    b11: &[Fpr],
    logn: u32,
) {
    for (t, &h) in t0.iter_mut().zip(hm) {
        *t = Fpr::of(h as i64);
    }
    (fk.fft)(t0, logn);
    let ni = fpr::INVERSE_OF_Q;
    t1.copy_from_slice(t0);
    (fk.poly_mul_fft)(t1, b01, logn);
    (fk.poly_mulconst)(t1, ni.neg(), logn);
    (fk.poly_mul_fft)(t0, b11, logn);
    (fk.poly_mulconst)(t0, ni, logn);
}

/// From the sample `(z0, z1)` (FFT form, overwritten): `(s1, s2) = (hm − z0·b00 − z1·b10,
/// −(z0·b01 + z1·b11))` rounded; writes s2 and returns true when the pair is short
/// enough, else leaves `s2` untouched. `tx`, `ty` are n-value scratch.
#[allow(clippy::too_many_arguments)]
fn finish(
    fk: &FftKernels,
    backend: Backend,
    s2: &mut [i16],
    hm: &[u16],
    b: &[Fpr],
    z0: &mut [Fpr],
    z1: &mut [Fpr],
    tx: &mut [Fpr],
    ty: &mut [Fpr],
    logn: u32,
) -> bool {
    let n = 1usize << logn;
    let (b00, b01, b10, b11) = (&b[..n], &b[n..2 * n], &b[2 * n..3 * n], &b[3 * n..4 * n]);
    tx.copy_from_slice(z0);
    ty.copy_from_slice(z1);
    (fk.poly_mul_fft)(tx, b00, logn);
    (fk.poly_mul_fft)(ty, b10, logn);
    (fk.poly_add)(tx, ty, logn);
    ty.copy_from_slice(z0);
    (fk.poly_mul_fft)(ty, b01, logn);
    z0.copy_from_slice(tx);
    (fk.poly_mul_fft)(z1, b11, logn);
    (fk.poly_add)(z1, ty, logn);
    (fk.ifft)(z0, logn);
    (fk.ifft)(z1, logn);

    // Squared norm with the reference's saturation (see `norm`).
    let (sqn, fast) = norm::sqnorm(backend, hm, z0, z1);
    // The accept/reject decision is public (module docs).
    if crate::ct::public(sqn <= params::l2_bound(logn)) {
        norm::write_s2(backend, s2, z1, fast);
        true
    } else {
        false
    }
}

/// A private key in compact form (f, g, F, G as small integers), for dynamic signing.
/// Wiped on drop.
#[allow(non_snake_case)]
pub struct CompactKey {
    logn: u32,
    /// f ‖ g ‖ F ‖ G, n values each.
    fgFG: Vec<i8>,
    k: SignTables,
}

impl Drop for CompactKey {
    fn drop(&mut self) {
        self.fgFG.zeroize();
    }
}

#[allow(non_snake_case)]
impl CompactKey {
    /// From f, g, F, G of degree `2^logn` (logn 1..=10; each slice n values). The
    /// active backend's kernels are used.
    pub fn new(f: &[i8], g: &[i8], F: &[i8], G: &[i8], logn: u32) -> Result<CompactKey, Error> {
        Self::new_on(f, g, F, G, logn, select::active())
    }

    /// [`CompactKey::new`] with the kernels of backend `b` (portable if unavailable).
    pub fn new_on(
        f: &[i8],
        g: &[i8],
        F: &[i8],
        G: &[i8],
        logn: u32,
        b: Backend,
    ) -> Result<CompactKey, Error> {
        let n = tree::check_key(f, g, F, G, logn)?;
        let mut fgFG = Vec::with_capacity(4 * n);
        for p in [f, g, F, G] {
            fgFG.extend_from_slice(p);
        }
        Ok(CompactKey {
            logn,
            fgFG,
            k: SignTables::of(b),
        })
    }

    /// Pins the kernels of backend `b` (portable if `b` is unavailable here).
    pub fn with_backend(mut self, b: Backend) -> CompactKey {
        self.k = SignTables::of(b);
        self
    }

    /// The backend this key's signing runs on.
    pub fn backend(&self) -> Backend {
        self.k.backend
    }

    pub fn logn(&self) -> u32 {
        self.logn
    }

    fn parts(&self) -> (&[i8], &[i8], &[i8], &[i8]) {
        let n = 1usize << self.logn;
        let v = &self.fgFG;
        (&v[..n], &v[n..2 * n], &v[2 * n..3 * n], &v[3 * n..4 * n])
    }

    /// Expands into an [`ExpandedKey`] (same backend). A key whose LDL tree has a leaf
    /// outside the sampler's range (never a key from key generation; see
    /// [`sampler::isigma_ok`]) gives an expanded key whose `sign` fails with
    /// `InvalidKey` ([`ExpandedKey::is_valid`] tells beforehand).
    pub fn expand(&self) -> ExpandedKey {
        let (f, g, F, G) = self.parts();
        let (key, valid) = tree::expand(self.k.fft, f, g, F, G, self.logn);
        ExpandedKey {
            logn: self.logn,
            key,
            valid,
            k: self.k,
        }
    }

    /// [`CompactKey::expand`], with an invalid tree reported as `InvalidKey`.
    pub fn try_expand(&self) -> Result<ExpandedKey, Error> {
        let ek = self.expand();
        if ek.valid {
            Ok(ek)
        } else {
            Err(Error::InvalidKey)
        }
    }

    /// Signs the hashed message `hm` (n values mod q) with randomness from `rng` (a
    /// SHAKE256 context in squeezing mode): writes s2 (n values). Dynamic mode: the
    /// reference's `sign_dyn`. Loops until the norm check passes.
    pub fn sign(&self, hm: &[u16], rng: &mut Shake256, s2: &mut [i16]) -> Result<(), Error> {
        let logn = self.logn;
        let n = 1usize << logn;
        if hm.len() != n || s2.len() != n {
            return Err(Error::InvalidLength);
        }
        let fk = self.k.fft;
        let (f, g, F, G) = self.parts();
        // Layout: B0 (4n) | Gram (3n) | t0, t1 (2n) | scratch (4n).
        let mut buf = SecretBuf::new(13 * n);
        let (b, rest) = buf.0.split_at_mut(4 * n);
        let (gm, rest) = rest.split_at_mut(3 * n);
        let (t, tmp) = rest.split_at_mut(2 * n);
        tree::basis_fft(fk, b, f, g, F, G, logn);
        for _ in 0..MAX_ATTEMPTS {
            let mut samp = Sampler::new(rng, logn, self.k.samp);
            tree::gram(fk, gm, b, tmp, logn);
            let (t0, t1) = t.split_at_mut(n);
            target(fk, t0, t1, hm, &b[n..2 * n], &b[3 * n..4 * n], logn);
            {
                let (g00, r) = gm.split_at_mut(n);
                let (g01, g11) = r.split_at_mut(n);
                ffsampling::dynamic(
                    &ops::Table(fk),
                    &mut samp,
                    t0,
                    t1,
                    g00,
                    g01,
                    g11,
                    logn,
                    logn,
                    tmp,
                );
            }
            if samp.bad_leaf() {
                return Err(Error::InvalidKey);
            }
            let (tx, r) = tmp.split_at_mut(n);
            if finish(fk, self.k.backend, s2, hm, b, t0, t1, tx, &mut r[..n], logn) {
                return Ok(());
            }
        }
        Err(Error::InvalidKey)
    }
}

/// Signs `hm` in dynamic mode from f, g, F, G (see [`CompactKey::sign`]) with the active
/// backend.
#[allow(non_snake_case, clippy::too_many_arguments)]
pub fn sign_dyn(
    f: &[i8],
    g: &[i8],
    F: &[i8],
    G: &[i8],
    hm: &[u16],
    logn: u32,
    rng: &mut Shake256,
    s2: &mut [i16],
) -> Result<(), Error> {
    CompactKey::new(f, g, F, G, logn)?.sign(hm, rng, s2)
}

/// An expanded private key: B0 in FFT form, the normalized LDL tree and a sampler
/// constant per leaf, for signing many messages: `(logn + 6)·2^logn` values
/// ([`ExpandedKey::size`]; 60 KiB at n = 512, 128 KiB at n = 1024), on the heap. Wiped on
/// drop.
pub struct ExpandedKey {
    logn: u32,
    /// b00 ‖ b01 ‖ b10 ‖ b11 ‖ tree ‖ leaf constants.
    key: SecretBuf,
    /// Every leaf in the sampler's range (always, for a Falcon key).
    valid: bool,
    k: SignTables,
}

#[allow(non_snake_case)]
impl ExpandedKey {
    /// Expands f, g, F, G of degree `2^logn` (reference `expand_privkey`) with the active
    /// backend.
    pub fn new(f: &[i8], g: &[i8], F: &[i8], G: &[i8], logn: u32) -> Result<ExpandedKey, Error> {
        CompactKey::new(f, g, F, G, logn)?.try_expand()
    }

    /// Same, with the kernels of backend `b`.
    pub fn new_with_backend(
        f: &[i8],
        g: &[i8],
        F: &[i8],
        G: &[i8],
        logn: u32,
        b: Backend,
    ) -> Result<ExpandedKey, Error> {
        CompactKey::new(f, g, F, G, logn)?
            .with_backend(b)
            .try_expand()
    }

    /// Number of `Fpr` values an expanded key of degree `2^logn` holds.
    pub const fn size(logn: u32) -> usize {
        (5usize << logn) + tree_size(logn)
    }

    pub fn logn(&self) -> u32 {
        self.logn
    }

    /// The backend this key's signing runs on.
    pub fn backend(&self) -> Backend {
        self.k.backend
    }

    /// False for a key that is not a Falcon key (see [`CompactKey::expand`]).
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// Signs the hashed message `hm` (n values mod q) with randomness from `rng`: writes
    /// s2 (n values). The reference's `sign_tree`.
    pub fn sign(&self, hm: &[u16], rng: &mut Shake256, s2: &mut [i16]) -> Result<(), Error> {
        let logn = self.logn;
        let n = 1usize << logn;
        if hm.len() != n || s2.len() != n {
            return Err(Error::InvalidLength);
        }
        if !self.valid {
            return Err(Error::InvalidKey);
        }
        let fk = self.k.fft;
        let (b, rest) = self.key.0.split_at(4 * n);
        let (tree, lc) = rest.split_at(tree_size(logn));
        // Layout: t0, t1 (2n) | z0, z1 (2n) | scratch (2n).
        let mut buf = SecretBuf::new(6 * n);
        let (t, rest) = buf.0.split_at_mut(2 * n);
        let (z, tmp) = rest.split_at_mut(2 * n);
        for _ in 0..MAX_ATTEMPTS {
            let mut samp = Sampler::new(rng, logn, self.k.samp);
            let (t0, t1) = t.split_at_mut(n);
            target(fk, t0, t1, hm, &b[n..2 * n], &b[3 * n..4 * n], logn);
            let (z0, z1) = z.split_at_mut(n);
            ffsampling::with_tree(
                &ops::Table(fk),
                &mut samp,
                z0,
                z1,
                tree,
                lc,
                t0,
                t1,
                logn,
                tmp,
            );
            if samp.bad_leaf() {
                // Unreachable: expansion checked the leaves.
                return Err(Error::InvalidKey);
            }
            if finish(fk, self.k.backend, s2, hm, b, z0, z1, t0, t1, logn) {
                return Ok(());
            }
        }
        Err(Error::InvalidKey)
    }
}
