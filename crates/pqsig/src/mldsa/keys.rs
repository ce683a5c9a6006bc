//! Key types: decoded, validated, with the NTT-domain values signing and verification
//! need precomputed (Â, ŝ1, ŝ2, t̂0, NTT(t1·2^d)). A key loaded once signs or verifies
//! many messages without re-expanding A.
//!
//! Secrets (ξ, K, s1, s2, t0 and their NTT forms) are zeroized on drop.

use super::encode;
use super::params::{ParamSet, Params};
use super::sample;
use crate::error::Error;
use crate::kernels::mldsa::{self as km, Kernels, Poly};
use crate::kernels::select::Backend;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::{Zeroize, Zeroizing};

/// An ML-DSA public key, decoded, with Â and NTT(t1·2^d) cached.
#[derive(Clone)]
pub struct VerifyingKey {
    pub(crate) ps: ParamSet,
    pub(crate) kern: &'static Kernels,
    pub(crate) encoded: Vec<u8>,
    pub(crate) tr: [u8; 64],
    /// k·l polynomials, row-major, NTT domain.
    pub(crate) a_hat: Vec<Poly>,
    /// NTT(t1 · 2^13), k polynomials.
    pub(crate) t1_hat: Vec<Poly>,
}

/// An ML-DSA private key. Remembers the seed ξ when it was generated or loaded from one.
pub struct SigningKey {
    pub(crate) ps: ParamSet,
    pub(crate) kern: &'static Kernels,
    pub(crate) seed: Option<Zeroizing<[u8; 32]>>,
    pub(crate) rho: [u8; 32],
    pub(crate) key: Zeroizing<[u8; 32]>,
    pub(crate) tr: [u8; 64],
    pub(crate) s1: Vec<Poly>,
    pub(crate) s2: Vec<Poly>,
    pub(crate) t0: Vec<Poly>,
    pub(crate) s1_hat: Vec<Poly>,
    pub(crate) s2_hat: Vec<Poly>,
    pub(crate) t0_hat: Vec<Poly>,
    pub(crate) a_hat: Vec<Poly>,
}

impl Drop for SigningKey {
    fn drop(&mut self) {
        for v in [
            &mut self.s1,
            &mut self.s2,
            &mut self.t0,
            &mut self.s1_hat,
            &mut self.s2_hat,
            &mut self.t0_hat,
        ] {
            v.iter_mut().for_each(Zeroize::zeroize);
        }
    }
}

impl Clone for SigningKey {
    fn clone(&self) -> Self {
        SigningKey {
            ps: self.ps,
            kern: self.kern,
            seed: self.seed.clone(),
            rho: self.rho,
            key: self.key.clone(),
            tr: self.tr,
            s1: self.s1.clone(),
            s2: self.s2.clone(),
            t0: self.t0.clone(),
            s1_hat: self.s1_hat.clone(),
            s2_hat: self.s2_hat.clone(),
            t0_hat: self.t0_hat.clone(),
            a_hat: self.a_hat.clone(),
        }
    }
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey({}, <secret>)", self.ps.name())
    }
}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "VerifyingKey({})", self.ps.name())
    }
}

/// NTT copies of a vector.
pub(crate) fn ntt_copy(kern: &Kernels, v: &[Poly]) -> Vec<Poly> {
    let mut out = v.to_vec();
    (kern.ntt)(&mut out);
    out
}

pub(crate) fn expand_a(kern: &Kernels, p: &Params, rho: &[u8; 32]) -> Vec<Poly> {
    let mut a = vec![Poly::default(); p.k * p.l];
    sample::expand_a(kern, p, rho, &mut a);
    a
}

impl VerifyingKey {
    /// Decodes pkEncode(ρ, t1). Every 10-bit t1 value is valid, so only the length can be
    /// wrong.
    pub fn from_bytes(ps: ParamSet, pk: &[u8]) -> Result<Self, Error> {
        Self::from_bytes_with(ps, pk, crate::kernels::mldsa::active())
    }

    pub(crate) fn from_bytes_with(
        ps: ParamSet,
        pk: &[u8],
        kern: &'static Kernels,
    ) -> Result<Self, Error> {
        let p = ps.params();
        if pk.len() != p.pk_len() {
            return Err(Error::InvalidKey);
        }
        let rho: [u8; 32] = pk[..32].try_into().map_err(|_| Error::InvalidKey)?;
        let mut t1 = vec![Poly::default(); p.k];
        for (i, t) in t1.iter_mut().enumerate() {
            encode::unpack_t1(&pk[32 + 320 * i..32 + 320 * (i + 1)], t);
        }
        // ExpandA with H(pk) riding in its spare lanes (`sample::expand_a_hashing`).
        let mut a_hat = vec![Poly::default(); p.k * p.l];
        let mut tr = [0u8; 64];
        sample::expand_a_hashing(kern, p, &rho, pk, &mut a_hat, &mut tr);
        Ok(Self::assemble(
            ps,
            kern,
            pk.to_vec(),
            tr,
            &rho,
            t1,
            Some(a_hat),
        ))
    }

    /// Builds the key from its parts; `a_hat` is reused when the caller has it.
    pub(crate) fn assemble(
        ps: ParamSet,
        kern: &'static Kernels,
        encoded: Vec<u8>,
        tr: [u8; 64],
        rho: &[u8; 32],
        mut t1: Vec<Poly>,
        a_hat: Option<Vec<Poly>>,
    ) -> Self {
        let p = ps.params();
        let a_hat = a_hat.unwrap_or_else(|| expand_a(kern, p, rho));
        (kern.shiftl)(&mut t1);
        (kern.ntt)(&mut t1);
        VerifyingKey {
            ps,
            kern,
            encoded,
            tr,
            a_hat,
            t1_hat: t1,
        }
    }

    /// The same key running on another backend.
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        if !b.is_available() {
            return Err(Error::BackendUnavailable);
        }
        self.kern = km::kernels(b);
        Ok(self)
    }

    pub fn param_set(&self) -> ParamSet {
        self.ps
    }
    /// pkEncode(ρ, t1).
    pub fn to_bytes(&self) -> &[u8] {
        &self.encoded
    }
    /// tr = H(pk, 64).
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }
}

impl PartialEq for VerifyingKey {
    fn eq(&self, o: &Self) -> bool {
        self.ps == o.ps && self.encoded == o.encoded
    }
}
impl Eq for VerifyingKey {}

impl SigningKey {
    pub fn param_set(&self) -> ParamSet {
        self.ps
    }

    /// The 32-byte seed ξ, when the key came from one (the recommended private key form).
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_deref()
    }

    /// The same key running on another backend.
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        if !b.is_available() {
            return Err(Error::BackendUnavailable);
        }
        self.kern = km::kernels(b);
        Ok(self)
    }

    /// skEncode(ρ, K, tr, s1, s2, t0): the FIPS 204 expanded private key.
    pub fn to_expanded_bytes(&self) -> Zeroizing<Vec<u8>> {
        encode::encode_sk(
            self.ps.params(),
            &self.rho,
            &self.key,
            &self.tr,
            &self.s1,
            &self.s2,
            &self.t0,
        )
    }

    /// Loads an expanded private key (skDecode) and validates it: length, every s1/s2
    /// coefficient in [−η, η]. Without the public key, tr cannot be checked (use
    /// [`SigningKey::from_expanded_with_public`]).
    pub fn from_expanded(ps: ParamSet, sk: &[u8]) -> Result<Self, Error> {
        Self::from_expanded_with(ps, sk, crate::kernels::mldsa::active())
    }

    /// Loads an expanded private key and checks it against its public key: tr = H(pk)
    /// and ρ equal, and t = A·s1 + s2 consistent with both t1 (pk) and t0 (sk).
    pub fn from_expanded_with_public(ps: ParamSet, sk: &[u8], pk: &[u8]) -> Result<Self, Error> {
        let key = Self::from_expanded(ps, sk)?;
        key.check_against_public(pk)?;
        Ok(key)
    }

    /// Checks this key against a public key: pk recomputed from (ρ, s1, s2) equals `pk`,
    /// the stored t0 is the low part of the same t, and the stored tr equals H(pk).
    pub fn check_against_public(&self, pk: &[u8]) -> Result<(), Error> {
        let (vk, t0) = self.derive_public();
        // Constant-time comparison of the secret t0 (no early exit on the first mismatch).
        let mut diff = 0i32;
        for (a, b) in t0.iter().zip(self.t0.iter()) {
            for (x, y) in a.coeffs.iter().zip(b.coeffs.iter()) {
                diff |= x ^ y;
            }
        }
        let ok = vk.to_bytes() == pk && vk.tr == self.tr && diff == 0;
        let mut t0 = t0;
        t0.iter_mut().for_each(Zeroize::zeroize);
        if ok {
            Ok(())
        } else {
            Err(Error::InvalidKey)
        }
    }

    pub(crate) fn from_expanded_with(
        ps: ParamSet,
        sk: &[u8],
        kern: &'static Kernels,
    ) -> Result<Self, Error> {
        let p = ps.params();
        if sk.len() != p.sk_len() {
            return Err(Error::InvalidKey);
        }
        let rho: [u8; 32] = sk[..32].try_into().map_err(|_| Error::InvalidKey)?;
        let mut key = Zeroizing::new([0u8; 32]);
        key.copy_from_slice(&sk[32..64]);
        let tr: [u8; 64] = sk[64..128].try_into().map_err(|_| Error::InvalidKey)?;
        let eb = p.eta_bytes();
        let mut s1 = vec![Poly::default(); p.l];
        let mut s2 = vec![Poly::default(); p.k];
        let mut t0 = vec![Poly::default(); p.k];
        let mut off = 128;
        let mut ok = true;
        for s in s1.iter_mut().chain(s2.iter_mut()) {
            ok &= encode::unpack_eta(&sk[off..off + eb], p.eta, s);
            off += eb;
        }
        for t in t0.iter_mut() {
            encode::unpack_t0(&sk[off..off + 416], t);
            off += 416;
        }
        // Declassified: whether the key is well-formed (not which coefficient failed).
        if !ok {
            s1.iter_mut()
                .chain(s2.iter_mut())
                .for_each(Zeroize::zeroize);
            return Err(Error::InvalidKey);
        }
        let a_hat = expand_a(kern, p, &rho);
        Ok(Self::assemble(
            ps, kern, None, rho, key, tr, s1, s2, t0, a_hat,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble(
        ps: ParamSet,
        kern: &'static Kernels,
        seed: Option<Zeroizing<[u8; 32]>>,
        rho: [u8; 32],
        key: Zeroizing<[u8; 32]>,
        tr: [u8; 64],
        s1: Vec<Poly>,
        s2: Vec<Poly>,
        t0: Vec<Poly>,
        a_hat: Vec<Poly>,
    ) -> Self {
        let s1_hat = ntt_copy(kern, &s1);
        let s2_hat = ntt_copy(kern, &s2);
        let t0_hat = ntt_copy(kern, &t0);
        SigningKey {
            ps,
            kern,
            seed,
            rho,
            key,
            tr,
            s1,
            s2,
            t0,
            s1_hat,
            s2_hat,
            t0_hat,
            a_hat,
        }
    }

    /// Recomputes the public key: t = NTT^−1(Â·ŝ1) + s2, t1 = Power2Round(t).high.
    pub fn verifying_key(&self) -> VerifyingKey {
        let (vk, mut t0) = self.derive_public();
        t0.iter_mut().for_each(Zeroize::zeroize);
        vk
    }

    /// (public key, t0) recomputed from ρ, s1 and s2. The caller zeroizes t0.
    pub(crate) fn derive_public(&self) -> (VerifyingKey, Vec<Poly>) {
        let p = self.ps.params();
        let kern = self.kern;
        let super::keygen::PublicParts { t1, t0, pk, tr } = super::keygen::public_parts(
            kern,
            p,
            &self.rho,
            &self.a_hat,
            &self.s1_hat,
            &self.s2,
            true,
        );
        let vk = VerifyingKey::assemble(
            self.ps,
            kern,
            pk,
            tr,
            &self.rho,
            t1,
            Some(self.a_hat.clone()),
        );
        (vk, t0)
    }

    /// tr as stored in the private key.
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }
}
