//! FN-DSA (draft) key objects: decoding, encoding, and the sign / verify entry points.
//! DRAFT: every encoding here follows fn-dsa 0.4.0 and will change with FIPS 206.

use super::codec::{modq_decode_on, modq_encode, trim_i8_decode, trim_i8_encode};
use super::hash::{
    compute_mu_on, compute_mu_prehash_on, compute_mu_prehashed_on, hash_vrfy_key_on,
};
use super::keygen::{keygen as keygen_poly, KeyPoly};
use super::params::{
    fg_bits, logn_ok, sign_key_size, signature_size, vrfy_key_size, HSK_LEN, KEYGEN_SEED_LEN,
    MU_LEN, SIGN_SEED_LEN,
};
use super::sign::sign_inner;
use super::verify::verify_mu;
use crate::error::Error;
use crate::falcon::sign::tree::{basis_fft, gram};
use crate::kernels::falcon::fft;
use crate::kernels::falcon::fpr::Fpr;
use crate::kernels::falcon::ntt::{self, NttKernels};
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::shake256_on;
use crate::kernels::select::{self, Backend};
use crate::mldsa::prehash::HashAlg;
use alloc::vec;
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// An FN-DSA verifying key (draft encoding `0x00 + logn ‖ NTT(h)`: the public polynomial
/// in the NTT domain, in the round-3 NTT order, 14 bits per value LSB first).
#[derive(Clone)]
pub struct VerifyingKey {
    logn: u32,
    bytes: Vec<u8>,
    hvk: [u8; MU_LEN],
    /// NTT(h)·R mod q (ready for Montgomery products).
    h_mont: Vec<u16>,
    backend: Backend,
}

/// An FN-DSA signing key (draft encoding `0x50 + logn ‖ f ‖ g ‖ F ‖ SHAKE256(vk)`), with
/// the lattice basis and its Gram matrix precomputed in the FFT domain. Secrets are
/// wiped on drop.
#[derive(Clone)]
pub struct SigningKey {
    logn: u32,
    bytes: Zeroizing<Vec<u8>>,
    /// SHAKE256(encoded f ‖ g), 40 bytes: the hedging key.
    hsk: Zeroizing<[u8; HSK_LEN]>,
    /// The hashed verifying key as stored in the signing key.
    hvk: [u8; MU_LEN],
    /// NTT(h), recomputed from f and g (the verifying key is built from it on demand:
    /// decoding a signing key to sign does not pay for encoding and hashing it).
    h: Vec<u16>,
    /// The verifying key, when key generation already built it.
    vk: Option<VerifyingKey>,
    basis: Zeroizing<Vec<Fpr>>,
    gram: Zeroizing<Vec<Fpr>>,
    backend: Backend,
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("fndsa::SigningKey")
            .field("logn", &self.logn)
            .finish_non_exhaustive()
    }
}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("fndsa::VerifyingKey")
            .field("logn", &self.logn)
            .finish_non_exhaustive()
    }
}

impl PartialEq for VerifyingKey {
    fn eq(&self, o: &Self) -> bool {
        self.bytes == o.bytes
    }
}
impl Eq for VerifyingKey {}

/// `NTT(h)·R` for verification, from `NTT(h)`.
fn h_to_mont(k: &NttKernels, h_ntt: &[u16]) -> Vec<u16> {
    let mut t = h_ntt.to_vec();
    (k.to_monty)(&mut t);
    t
}

/// The verifying key: `0x00 + logn ‖ NTT(h)` (the NTT domain, not the coefficients).
fn encode_vk(logn: u32, h_ntt: &[u16]) -> Vec<u8> {
    let mut vk = vec![0u8; vrfy_key_size(logn)];
    vk[0] = logn as u8;
    modq_encode(h_ntt, &mut vk[1..]);
    vk
}

impl VerifyingKey {
    /// The backend this key's operations run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Decodes a verifying key of any supported degree (logn 2..=10, from the header).
    /// Strict: exact length, header `0x00 + logn`, every coefficient `< q`.
    pub fn from_bytes(vk: &[u8]) -> Result<Self, Error> {
        Self::from_bytes_on(vk, select::active())
    }

    /// [`VerifyingKey::from_bytes`] for keys of degree `2^logn` only.
    pub fn from_bytes_logn(logn: u32, vk: &[u8]) -> Result<Self, Error> {
        match vk.first() {
            Some(&b) if b as u32 == logn => Self::from_bytes(vk),
            _ => Err(Error::InvalidKey),
        }
    }

    fn from_bytes_on(vk: &[u8], backend: Backend) -> Result<Self, Error> {
        let head = *vk.first().ok_or(Error::InvalidKey)?;
        let logn = head as u32;
        if head & 0xF0 != 0 || !logn_ok(logn) || vk.len() != vrfy_key_size(logn) {
            return Err(Error::InvalidKey);
        }
        // NTT(h), then in place into Montgomery form.
        let mut h_mont = vec![0u16; 1 << logn];
        modq_decode_on(backend, &vk[1..], &mut h_mont).ok_or(Error::InvalidKey)?;
        (ntt::kernels(backend).to_monty)(&mut h_mont);
        Ok(VerifyingKey {
            logn,
            bytes: vk.to_vec(),
            hvk: hash_vrfy_key_on(backend, vk),
            h_mont,
            backend,
        })
    }

    /// Re-pins this key to backend `b`.
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        if !b.is_available() {
            return Err(Error::BackendUnavailable);
        }
        self.backend = b;
        Ok(self)
    }

    /// log2 of the degree.
    pub fn logn(&self) -> u32 {
        self.logn
    }

    /// The encoded key.
    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// SHAKE256 of the encoded key (64 bytes), the key binding inside μ.
    pub fn hashed_key(&self) -> &[u8; MU_LEN] {
        &self.hvk
    }

    /// μ for pure FN-DSA under this key.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; MU_LEN], Error> {
        compute_mu_on(self.backend, &self.hvk, ctx, msg)
    }

    /// Pure FN-DSA verification (context at most 255 bytes). `Ok(())` if valid,
    /// `Err(VerificationFailed)` if not, `Err(InvalidSignature)` for malformed bytes.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        let mu = compute_mu_on(self.backend, &self.hvk, ctx, msg)?;
        self.verify_mu_inner(&mu, sig)
    }

    /// HashFN-DSA verification over `msg` (hashed here with `hash`).
    pub fn verify_prehash(
        &self,
        hash: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        let mu = compute_mu_prehash_on(self.backend, &self.hvk, ctx, hash, msg)?;
        self.verify_mu_inner(&mu, sig)
    }

    /// HashFN-DSA verification over a digest the caller computed.
    pub fn verify_prehashed(
        &self,
        hash: HashAlg,
        digest: &[u8],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        let mu = compute_mu_prehashed_on(self.backend, &self.hvk, ctx, hash, digest)?;
        self.verify_mu_inner(&mu, sig)
    }

    /// External-μ verification (μ is 64 bytes).
    pub fn verify_mu(&self, mu: &[u8], sig: &[u8]) -> Result<(), Error> {
        let mu: &[u8; MU_LEN] = mu.try_into().map_err(|_| Error::InvalidLength)?;
        self.verify_mu_inner(mu, sig)
    }

    fn verify_mu_inner(&self, mu: &[u8; MU_LEN], sig: &[u8]) -> Result<(), Error> {
        verify_mu(ntt::kernels(self.backend), self.logn, &self.h_mont, mu, sig)
    }
}

/// Recomputes NTT(h) = NTT(g)/NTT(f) and G = g·F/f mod q; None if f is not invertible or
/// G leaves [-127, 127] (fn-dsa's decoding conditions). The range test is constant-time; only
/// the overall verdict is revealed.
#[allow(non_snake_case)]
fn complete_key(
    k: &NttKernels,
    logn: u32,
    f: &[i8],
    g: &[i8],
    F: &[i8],
    G: &mut [i8],
) -> Option<Vec<u16>> {
    let n = 1usize << logn;
    let mut t = Zeroizing::new(vec![0u16; 3 * n]);
    let (h, rest) = t.split_at_mut(n);
    let (w, gg) = rest.split_at_mut(n);
    (k.from_i8)(h, g);
    (k.from_i8)(w, f);
    (k.ntt)(h, logn);
    (k.ntt)(w, logn);
    if !(k.div)(h, w) {
        return None;
    }
    // G = F·h.
    (k.from_i8)(gg, F);
    (k.ntt)(gg, logn);
    w.copy_from_slice(h);
    (k.to_monty)(w);
    (k.mul_monty)(gg, w);
    (k.intt)(gg, logn);
    let mut bad = 0i32;
    for (o, &x) in G.iter_mut().zip(gg.iter()) {
        let x = x as i32;
        // Centre: x − q if x > (q−1)/2, without a branch.
        let c = x - (12289 & ((6144 - x) >> 31));
        bad |= (127 - c) | (127 + c);
        *o = c as i8;
    }
    if bad < 0 {
        None
    } else {
        Some(h.to_vec())
    }
}

impl SigningKey {
    /// The backend this key's operations run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Decodes a signing key (logn 2..=10 from the header). Strict: exact length, header
    /// `0x50 + logn`, no coefficient code `-2^(w-1)`, f invertible and G in [-127, 127].
    /// The stored hash of the verifying key is taken as is (fn-dsa does not check it).
    pub fn from_bytes(sk: &[u8]) -> Result<Self, Error> {
        Self::from_bytes_on(sk, select::active())
    }

    /// [`SigningKey::from_bytes`] for keys of degree `2^logn` only.
    pub fn from_bytes_logn(logn: u32, sk: &[u8]) -> Result<Self, Error> {
        match sk.first() {
            // `logn_ok` first: `0x50 + logn` must not overflow for a huge `logn`.
            Some(&b) if logn_ok(logn) && b as u32 == 0x50 + logn => Self::from_bytes(sk),
            _ => Err(Error::InvalidKey),
        }
    }

    #[allow(non_snake_case)]
    fn from_bytes_on(sk: &[u8], backend: Backend) -> Result<Self, Error> {
        let head = *sk.first().ok_or(Error::InvalidKey)?;
        let logn = (head & 0x0F) as u32;
        if head & 0xF0 != 0x50 || !logn_ok(logn) || sk.len() != sign_key_size(logn) {
            return Err(Error::InvalidKey);
        }
        let n = 1usize << logn;
        let bits = fg_bits(logn);
        let mut f = Zeroizing::new(vec![0i8; n]);
        let mut g = Zeroizing::new(vec![0i8; n]);
        let mut F = Zeroizing::new(vec![0i8; n]);
        let mut G = Zeroizing::new(vec![0i8; n]);
        let mut j = 1;
        j += trim_i8_decode(&sk[j..], &mut f, bits).ok_or(Error::InvalidKey)?;
        j += trim_i8_decode(&sk[j..], &mut g, bits).ok_or(Error::InvalidKey)?;
        let mut hsk = Zeroizing::new([0u8; HSK_LEN]);
        shake256_on(permute1_for(backend), &[&sk[1..j]], &mut hsk[..]);
        j += trim_i8_decode(&sk[j..], &mut F, 8).ok_or(Error::InvalidKey)?;
        let mut hvk = [0u8; MU_LEN];
        hvk.copy_from_slice(&sk[j..]);
        let nk = ntt::kernels(backend);
        let h = complete_key(nk, logn, &f, &g, &F, &mut G).ok_or(Error::InvalidKey)?;
        Ok(Self::assemble(
            logn,
            Zeroizing::new(sk.to_vec()),
            hsk,
            hvk,
            h,
            None,
            &KeyPoly {
                f,
                g,
                F,
                G,
                h: Vec::new(),
            },
            backend,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn assemble(
        logn: u32,
        bytes: Zeroizing<Vec<u8>>,
        hsk: Zeroizing<[u8; HSK_LEN]>,
        hvk: [u8; MU_LEN],
        h: Vec<u16>,
        vk: Option<VerifyingKey>,
        kp: &KeyPoly,
        backend: Backend,
    ) -> Self {
        let n = 1usize << logn;
        let fk = fft::kernels(backend);
        let mut basis = Zeroizing::new(vec![Fpr::from_bits(0); 4 * n]);
        basis_fft(fk, &mut basis, &kp.f, &kp.g, &kp.F, &kp.G, logn);
        let mut g = Zeroizing::new(vec![Fpr::from_bits(0); 3 * n]);
        let mut tmp = Zeroizing::new(vec![Fpr::from_bits(0); n]);
        gram(fk, &mut g, &basis, &mut tmp, logn);
        SigningKey {
            logn,
            bytes,
            hsk,
            hvk,
            h,
            vk,
            basis,
            gram: g,
            backend,
        }
    }

    /// The verifying key of NTT(h): `0x00 + logn ‖ NTT(h)`, hashed.
    fn build_vk(logn: u32, h: &[u16], vbytes: Vec<u8>, backend: Backend) -> VerifyingKey {
        VerifyingKey {
            logn,
            hvk: hash_vrfy_key_on(backend, &vbytes),
            bytes: vbytes,
            h_mont: h_to_mont(ntt::kernels(backend), h),
            backend,
        }
    }

    /// Key generation from a 32-byte seed (deterministic; logn 2..=10, else
    /// [`Error::Unsupported`]).
    pub fn from_seed(logn: u32, seed: &[u8]) -> Result<Self, Error> {
        Self::from_seed_on(logn, seed, select::active())
    }

    /// [`SigningKey::from_seed`] on backend `b`: key generation itself and the key
    /// (`BackendUnavailable` if this CPU lacks it).
    pub fn from_seed_on(logn: u32, seed: &[u8], b: Backend) -> Result<Self, Error> {
        if !b.is_available() {
            return Err(Error::BackendUnavailable);
        }
        if !logn_ok(logn) {
            return Err(Error::Unsupported);
        }
        let seed: &[u8; KEYGEN_SEED_LEN] = seed.try_into().map_err(|_| Error::InvalidLength)?;
        let backend = b;
        let kp = keygen_poly(ntt::kernels(backend), logn, seed);
        let vbytes = encode_vk(logn, &kp.h);
        let bits = fg_bits(logn);
        let mut sk = Zeroizing::new(vec![0u8; sign_key_size(logn)]);
        sk[0] = 0x50 + logn as u8;
        let mut j = 1;
        j += trim_i8_encode(&kp.f, bits, &mut sk[j..]);
        j += trim_i8_encode(&kp.g, bits, &mut sk[j..]);
        let mut hsk = Zeroizing::new([0u8; HSK_LEN]);
        shake256_on(permute1_for(backend), &[&sk[1..j]], &mut hsk[..]);
        j += trim_i8_encode(&kp.F, 8, &mut sk[j..]);
        debug_assert_eq!(j + MU_LEN, sk.len());
        let vk = Self::build_vk(logn, &kp.h, vbytes, backend);
        let hvk = vk.hvk;
        sk[j..].copy_from_slice(&hvk);
        let h = kp.h.clone();
        Ok(Self::assemble(
            logn,
            sk,
            hsk,
            hvk,
            h,
            Some(vk),
            &kp,
            backend,
        ))
    }

    /// Re-pins this key to backend `b` (recomputes nothing: all backends give
    /// bit-identical results).
    pub fn with_backend(mut self, b: Backend) -> Result<Self, Error> {
        if !b.is_available() {
            return Err(Error::BackendUnavailable);
        }
        self.backend = b;
        if let Some(vk) = self.vk.as_mut() {
            vk.backend = b;
        }
        Ok(self)
    }

    /// log2 of the degree.
    pub fn logn(&self) -> u32 {
        self.logn
    }

    /// The encoded signing key.
    pub fn to_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The verifying key (recomputed from f and g when the key was decoded).
    pub fn verifying_key(&self) -> VerifyingKey {
        match &self.vk {
            Some(vk) => vk.clone(),
            None => Self::build_vk(
                self.logn,
                &self.h,
                encode_vk(self.logn, &self.h),
                self.backend,
            ),
        }
    }

    /// The hashed verifying key stored in the signing key.
    pub fn hashed_verifying_key(&self) -> &[u8; MU_LEN] {
        &self.hvk
    }

    /// μ for pure FN-DSA under this key.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; MU_LEN], Error> {
        compute_mu_on(self.backend, &self.hvk, ctx, msg)
    }

    /// Pure FN-DSA signature with caller-supplied 40-byte randomness (hedged with the key
    /// and μ, as fn-dsa does; the KAT vectors' `seed_sign`).
    pub fn sign_with_seed(&self, msg: &[u8], ctx: &[u8], seed: &[u8]) -> Result<Vec<u8>, Error> {
        let mu = compute_mu_on(self.backend, &self.hvk, ctx, msg)?;
        self.sign_mu_with_seed(&mu, seed)
    }

    /// HashFN-DSA signature over `msg` (hashed here with `hash`).
    pub fn sign_prehash_with_seed(
        &self,
        hash: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        seed: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let mu = compute_mu_prehash_on(self.backend, &self.hvk, ctx, hash, msg)?;
        self.sign_mu_with_seed(&mu, seed)
    }

    /// HashFN-DSA signature over a digest the caller computed.
    pub fn sign_prehashed_with_seed(
        &self,
        hash: HashAlg,
        digest: &[u8],
        ctx: &[u8],
        seed: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let mu = compute_mu_prehashed_on(self.backend, &self.hvk, ctx, hash, digest)?;
        self.sign_mu_with_seed(&mu, seed)
    }

    /// External μ (64 bytes) with caller-supplied 40-byte randomness.
    pub fn sign_mu_with_seed(&self, mu: &[u8], seed: &[u8]) -> Result<Vec<u8>, Error> {
        let mu: &[u8; MU_LEN] = mu.try_into().map_err(|_| Error::InvalidLength)?;
        let seed: &[u8; SIGN_SEED_LEN] = seed.try_into().map_err(|_| Error::InvalidLength)?;
        // Hedging: seed' = SHAKE256(hsk ‖ μ ‖ seed)[..40].
        let mut seed2 = Zeroizing::new([0u8; SIGN_SEED_LEN]);
        shake256_on(
            permute1_for(self.backend),
            &[&self.hsk[..], mu, seed],
            &mut seed2[..],
        );
        let mut sig = vec![0u8; signature_size(self.logn)];
        if sign_inner(
            self.backend,
            self.logn,
            &self.basis,
            &self.gram,
            &seed2,
            mu,
            &mut sig,
        ) {
            Ok(sig)
        } else {
            Err(Error::InvalidKey)
        }
    }

    /// External μ, randomness from `rng`.
    pub fn sign_mu_with_rng(
        &self,
        rng: &mut impl rand_core::CryptoRngCore,
        mu: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let mut seed = Zeroizing::new([0u8; SIGN_SEED_LEN]);
        rng.try_fill_bytes(&mut seed[..])
            .map_err(|_| Error::RandomnessFailure)?;
        self.sign_mu_with_seed(mu, &seed[..])
    }

    /// Pure FN-DSA, randomness from `rng`.
    pub fn sign_with_rng(
        &self,
        rng: &mut impl rand_core::CryptoRngCore,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let mu = compute_mu_on(self.backend, &self.hvk, ctx, msg)?;
        self.sign_mu_with_rng(rng, &mu)
    }

    /// Pure FN-DSA with OS randomness.
    #[cfg(feature = "std")]
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        let mut seed = Zeroizing::new([0u8; SIGN_SEED_LEN]);
        crate::rng::os_fill(&mut seed[..])?;
        self.sign_with_seed(msg, ctx, &seed[..])
    }

    /// HashFN-DSA with OS randomness.
    #[cfg(feature = "std")]
    pub fn sign_prehash(&self, hash: HashAlg, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        let mut seed = Zeroizing::new([0u8; SIGN_SEED_LEN]);
        crate::rng::os_fill(&mut seed[..])?;
        self.sign_prehash_with_seed(hash, msg, ctx, &seed[..])
    }

    /// External μ with OS randomness.
    #[cfg(feature = "std")]
    pub fn sign_mu(&self, mu: &[u8]) -> Result<Vec<u8>, Error> {
        let mut seed = Zeroizing::new([0u8; SIGN_SEED_LEN]);
        crate::rng::os_fill(&mut seed[..])?;
        self.sign_mu_with_seed(mu, &seed[..])
    }
}

/// Key pair from a 32-byte seed (deterministic; logn 2..=10, 9 = FN-DSA-512,
/// 10 = FN-DSA-1024).
pub fn keygen_from_seed(logn: u32, seed: &[u8]) -> Result<(SigningKey, VerifyingKey), Error> {
    let sk = SigningKey::from_seed(logn, seed)?;
    let vk = sk.verifying_key();
    Ok((sk, vk))
}

/// Key pair with the seed drawn from `rng`.
pub fn keygen_with_rng(
    logn: u32,
    rng: &mut impl rand_core::CryptoRngCore,
) -> Result<(SigningKey, VerifyingKey), Error> {
    let mut seed = Zeroizing::new([0u8; KEYGEN_SEED_LEN]);
    rng.try_fill_bytes(&mut seed[..])
        .map_err(|_| Error::RandomnessFailure)?;
    keygen_from_seed(logn, &seed[..])
}

/// Key pair with the seed drawn from the OS.
#[cfg(feature = "std")]
pub fn keygen(logn: u32) -> Result<(SigningKey, VerifyingKey), Error> {
    let mut seed = Zeroizing::new([0u8; KEYGEN_SEED_LEN]);
    crate::rng::os_fill(&mut seed[..])?;
    keygen_from_seed(logn, &seed[..])
}
