//! Streaming signing and verification: the message is fed in pieces of any size and never
//! held in memory, so files of any length sign and verify in constant memory.
//!
//! Every family reduces the message to a fixed-size value before any secret or costly
//! work, and that value is what is hashed incrementally here:
//!
//! | family  | streamed value | then |
//! |---------|----------------|------|
//! | ML-DSA  | μ = H(tr ‖ 0 ‖ \|ctx\| ‖ ctx ‖ M) ([`mldsa::MuHasher`]) | `sign_mu` / `verify_mu` (FIPS 204 external μ) |
//! | FN-DSA  | μ = SHAKE256(hvk ‖ 0 ‖ \|ctx\| ‖ ctx ‖ M) ([`fndsa::MuHasher`]) | `sign_mu_with_seed` / `verify_mu` |
//! | Falcon  | c = HashToPoint(SHAKE256(nonce ‖ M)) ([`PointHasher`]) | sign / verify from the point |
//! | SNOVA   | SHAKE256(M, 64) | `sign_digest_with_salt` / `verify_digest` |
//!
//! Round-3 Falcon hashes the nonce *before* the message, so a [`Signer`] draws its
//! randomness when it is created (the nonce, and with it the sampler seed, as the NIST
//! API draws them) and a [`Verifier`] decodes the signature first to learn the nonce.
//! The other families draw theirs up front too, so that [`SigningKey::signer_with_rng`]
//! consumes `rng` exactly as [`SigningKey::sign_with_rng`] does: with the same generator
//! state a streamed signature is byte-identical to the one-shot one.

use super::{no_context, SigningKey, VerifyingKey};
use crate::algorithm::Algorithm;
use crate::error::Error;
use crate::falcon::codec;
use crate::falcon::fndsa;
use crate::falcon::keys::{NONCE_LEN, SIGN_SEED_LEN};
use crate::falcon::PointHasher;
use crate::kernels::keccak::f1600::permute1_for;
use crate::kernels::keccak::sponge::Shake256;
use crate::{mldsa, snova};
use alloc::vec::Vec;
use zeroize::Zeroizing;

/// An incremental signature: [`Signer::update`] with the message in pieces, then
/// [`Signer::finalize`]. Made by [`SigningKey::signer`] or [`SigningKey::signer_with_rng`].
pub struct Signer<'k> {
    key: &'k SigningKey,
    state: SignState,
}

/// The per-family hash state and the randomness drawn when signing started.
enum SignState {
    MlDsa {
        mu: mldsa::MuHasher,
        rnd: Zeroizing<[u8; 32]>,
    },
    FnDsa {
        mu: fndsa::MuHasher,
        seed: Zeroizing<[u8; fndsa::params::SIGN_SEED_LEN]>,
    },
    Falcon {
        point: PointHasher,
        nonce: [u8; NONCE_LEN],
        seed: Zeroizing<[u8; SIGN_SEED_LEN]>,
    },
    Snova {
        digest: Shake256,
        salt: [u8; snova::SALT_LEN],
    },
}

/// An incremental verification: [`Verifier::update`] with the message in pieces, then
/// [`Verifier::finalize`]. Made by [`VerifyingKey::verifier`].
pub struct Verifier<'k> {
    key: &'k VerifyingKey,
    sig: Vec<u8>,
    state: VerifyState,
}

enum VerifyState {
    MlDsa(mldsa::MuHasher),
    FnDsa(fndsa::MuHasher),
    /// The signature's s2, decoded when verification started (its nonce was needed first).
    Falcon {
        point: PointHasher,
        s2: Vec<i16>,
    },
    Snova(Shake256),
}

impl core::fmt::Debug for Signer<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "any::Signer({})", self.key.algorithm())
    }
}

impl core::fmt::Debug for Verifier<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "any::Verifier({})", self.key.algorithm())
    }
}

/// Where a signer's randomness comes from.
#[cfg_attr(not(feature = "std"), allow(dead_code))]
enum Randomness<'r> {
    /// The operating system (hedged / randomized signing).
    #[cfg(feature = "std")]
    Os,
    /// None: ML-DSA's deterministic variant (rnd = 0^32).
    Zero,
    /// A caller's generator, drawn from as the one-shot `sign_with_rng` draws.
    Rng(&'r mut dyn rand_core::RngCore),
}

impl Randomness<'_> {
    fn fill(&mut self, out: &mut [u8]) -> Result<(), Error> {
        match self {
            #[cfg(feature = "std")]
            Randomness::Os => crate::rng::os_fill(out),
            Randomness::Zero => {
                out.fill(0);
                Ok(())
            }
            Randomness::Rng(r) => r.try_fill_bytes(out).map_err(|_| Error::RandomnessFailure),
        }
    }
}

impl SigningKey {
    /// Starts signing a streamed message under context `ctx`, with fresh OS randomness
    /// (or, with `deterministic`, ML-DSA's deterministic variant). The signature equals
    /// what [`SigningKey::sign`] / [`SigningKey::sign_deterministic`] would give for the
    /// same randomness. Errors: `Unsupported` for a non-empty context where the algorithm
    /// has none or `deterministic` where it has no such mode; `ContextTooLong` over 255
    /// bytes; `RandomnessFailure`.
    #[cfg(feature = "std")]
    pub fn signer(&self, ctx: &[u8], deterministic: bool) -> Result<Signer<'_>, Error> {
        if deterministic {
            if !self.algorithm().supports_deterministic() {
                return Err(Error::Unsupported);
            }
            self.start(ctx, Randomness::Zero)
        } else {
            self.start(ctx, Randomness::Os)
        }
    }

    /// [`SigningKey::signer`] drawing every random input from `rng`, in the order and
    /// sizes [`SigningKey::sign_with_rng`] draws them (ML-DSA rnd 32; FN-DSA seed 40;
    /// Falcon nonce 40 then seed 48; SNOVA salt 16): with the same generator state the
    /// streamed signature is byte-identical to the one-shot one.
    pub fn signer_with_rng<'k>(
        &'k self,
        rng: &mut impl rand_core::CryptoRngCore,
        ctx: &[u8],
    ) -> Result<Signer<'k>, Error> {
        self.start(ctx, Randomness::Rng(rng.as_rngcore()))
    }

    fn start(&self, ctx: &[u8], mut rand: Randomness<'_>) -> Result<Signer<'_>, Error> {
        let state = match self {
            SigningKey::MlDsa(k) => {
                let mu = mldsa::MuHasher::new_on(k.kern.permute1, k.tr(), ctx)?;
                let mut rnd = Zeroizing::new([0u8; 32]);
                rand.fill(&mut rnd[..])?;
                SignState::MlDsa { mu, rnd }
            }
            SigningKey::FnDsa(k) => {
                let mu = fndsa::MuHasher::new_on(k.backend(), k.hashed_verifying_key(), ctx)?;
                let mut seed = Zeroizing::new([0u8; fndsa::params::SIGN_SEED_LEN]);
                rand.fill(&mut seed[..])?;
                SignState::FnDsa { mu, seed }
            }
            SigningKey::Falcon(k) => {
                no_context(ctx)?;
                let mut nonce = [0u8; NONCE_LEN];
                let mut seed = Zeroizing::new([0u8; SIGN_SEED_LEN]);
                rand.fill(&mut nonce)?;
                rand.fill(&mut seed[..])?;
                SignState::Falcon {
                    point: k.point_hasher(&nonce),
                    nonce,
                    seed,
                }
            }
            SigningKey::Snova(k) => {
                no_context(ctx)?;
                let mut salt = [0u8; snova::SALT_LEN];
                rand.fill(&mut salt)?;
                SignState::Snova {
                    digest: Shake256::new().with_permutation(permute1_for(k.backend())),
                    salt,
                }
            }
        };
        Ok(Signer { key: self, state })
    }
}

impl Signer<'_> {
    /// The algorithm of the key signing.
    pub fn algorithm(&self) -> Algorithm {
        self.key.algorithm()
    }

    /// Absorbs the next piece of the message (pieces of any size, empty ones included).
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.state {
            SignState::MlDsa { mu, .. } => mu.update(data),
            SignState::FnDsa { mu, .. } => mu.update(data),
            SignState::Falcon { point, .. } => point.update(data),
            SignState::Snova { digest, .. } => digest.absorb(data),
        }
    }

    /// The signature over everything passed to [`Signer::update`].
    pub fn finalize(self) -> Result<Vec<u8>, Error> {
        match (self.key, self.state) {
            (SigningKey::MlDsa(k), SignState::MlDsa { mu, rnd }) => k.sign_mu(&mu.finalize(), &rnd),
            (SigningKey::FnDsa(k), SignState::FnDsa { mu, seed }) => {
                k.sign_mu_with_seed(&mu.finalize(), &seed[..])
            }
            (SigningKey::Falcon(k), SignState::Falcon { point, nonce, seed }) => {
                k.sign_point_with_nonce_and_seed(&point.finalize(), &nonce, &seed)
            }
            (SigningKey::Snova(k), SignState::Snova { mut digest, salt }) => {
                let mut dg = [0u8; snova::DIGEST_LEN];
                digest.squeeze(&mut dg);
                k.sign_digest_with_salt(&dg, &salt)
            }
            // `start` pairs each key with its own family's state.
            _ => Err(Error::Unsupported),
        }
    }
}

impl VerifyingKey {
    /// Starts verifying `sig` over a streamed message under context `ctx`; the verdict
    /// is [`VerifyingKey::verify`]'s. Errors here: `Unsupported` (a non-empty context
    /// where the algorithm has none), `ContextTooLong`, and for round-3 Falcon, whose
    /// nonce must be read before the message, `InvalidSignature` for a malformed
    /// signature (the other families report that from [`Verifier::finalize`]).
    pub fn verifier(&self, ctx: &[u8], sig: &[u8]) -> Result<Verifier<'_>, Error> {
        let state = match self {
            VerifyingKey::MlDsa(k) => {
                VerifyState::MlDsa(mldsa::MuHasher::new_on(k.kern.permute1, k.tr(), ctx)?)
            }
            VerifyingKey::FnDsa(k) => {
                VerifyState::FnDsa(fndsa::MuHasher::new_on(k.backend(), k.hashed_key(), ctx)?)
            }
            VerifyingKey::Falcon(k) => {
                no_context(ctx)?;
                let ps = k.param_set();
                let parsed =
                    codec::decode_signature_logn_on(k.backend(), sig, ps.logn(), ps.padded())?;
                VerifyState::Falcon {
                    point: k.point_hasher(&parsed.nonce),
                    s2: parsed.s2,
                }
            }
            VerifyingKey::Snova(k) => {
                no_context(ctx)?;
                VerifyState::Snova(Shake256::new().with_permutation(permute1_for(k.backend())))
            }
        };
        Ok(Verifier {
            key: self,
            sig: sig.to_vec(),
            state,
        })
    }
}

impl Verifier<'_> {
    /// The algorithm of the key verifying.
    pub fn algorithm(&self) -> Algorithm {
        self.key.algorithm()
    }

    /// Absorbs the next piece of the message.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.state {
            VerifyState::MlDsa(mu) => mu.update(data),
            VerifyState::FnDsa(mu) => mu.update(data),
            VerifyState::Falcon { point, .. } => point.update(data),
            VerifyState::Snova(digest) => digest.absorb(data),
        }
    }

    /// `Ok(())` if the signature is valid for everything passed to
    /// [`Verifier::update`]; `VerificationFailed` if it is well-formed but does not
    /// verify; `InvalidSignature` if it is malformed.
    pub fn finalize(self) -> Result<(), Error> {
        match (self.key, self.state) {
            (VerifyingKey::MlDsa(k), VerifyState::MlDsa(mu)) => {
                k.verify_mu(&mu.finalize(), &self.sig)
            }
            (VerifyingKey::FnDsa(k), VerifyState::FnDsa(mu)) => {
                k.verify_mu(&mu.finalize(), &self.sig)
            }
            (VerifyingKey::Falcon(k), VerifyState::Falcon { point, s2 }) => {
                k.verify_point(&point.finalize(), &s2)
            }
            (VerifyingKey::Snova(k), VerifyState::Snova(mut digest)) => {
                let mut dg = [0u8; snova::DIGEST_LEN];
                digest.squeeze(&mut dg);
                k.verify_digest(&dg, &self.sig)
            }
            // `verifier` pairs each key with its own family's state.
            _ => Err(Error::Unsupported),
        }
    }
}

/// `std::io::copy(&mut file, &mut signer)` streams a reader into the signature.
#[cfg(feature = "std")]
impl std::io::Write for Signer<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `std::io::copy(&mut file, &mut verifier)` streams a reader into the verification.
#[cfg(feature = "std")]
impl std::io::Write for Verifier<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(all(test, feature = "std", feature = "kat"))]
mod tests {
    use super::*;
    use crate::any::tests::FAST;
    use crate::rng::drbg::KatDrbg;

    /// A small xorshift for chunk sizes (test data only).
    struct Chunks(u64);

    impl Chunks {
        fn next(&mut self, max: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % (max as u64 + 1)) as usize
        }

        /// Feeds `msg` to `f` in random pieces (empty ones included).
        fn feed(&mut self, msg: &[u8], mut f: impl FnMut(&[u8])) {
            let mut at = 0;
            while at < msg.len() {
                let n = self.next(700).min(msg.len() - at);
                f(&msg[at..at + n]);
                at += n;
            }
        }
    }

    fn message(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 + 7) as u8).collect()
    }

    fn ctx_for(alg: Algorithm) -> &'static [u8] {
        if alg.supports_context() {
            b"stream-ctx"
        } else {
            b""
        }
    }

    #[test]
    fn streamed_signatures_equal_one_shot_ones_for_any_chunking() {
        let msg = message(5000);
        for name in FAST {
            let alg = Algorithm::from_name(name).unwrap();
            let ctx = ctx_for(alg);
            let sk = SigningKey::from_seed(alg, &vec![0x42; alg.seed_len()]).unwrap();
            let want = sk
                .sign_with_rng(&mut KatDrbg::new(&[5; 48]), &msg, ctx)
                .unwrap();
            for trial in 0..4u64 {
                let mut drbg = KatDrbg::new(&[5; 48]);
                let mut s = sk.signer_with_rng(&mut drbg, ctx).unwrap();
                Chunks(trial + 11).feed(&msg, |p| s.update(p));
                assert_eq!(s.finalize().unwrap(), want, "{name} trial {trial}");
            }
            if alg.supports_deterministic() {
                let mut s = sk.signer(ctx, true).unwrap();
                Chunks(3).feed(&msg, |p| s.update(p));
                assert_eq!(
                    s.finalize().unwrap(),
                    sk.sign_deterministic(&msg, ctx).unwrap(),
                    "{name} deterministic"
                );
            } else {
                assert_eq!(
                    sk.signer(ctx, true).err(),
                    Some(Error::Unsupported),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn every_algorithm_streams_like_one_shot() {
        let msg = message(1500);
        for &alg in Algorithm::ALL {
            let ctx = ctx_for(alg);
            let sk = SigningKey::from_seed(alg, &vec![0x63; alg.seed_len()]).unwrap();
            let want = sk
                .sign_with_rng(&mut KatDrbg::new(&[9; 48]), &msg, ctx)
                .unwrap();
            let mut drbg = KatDrbg::new(&[9; 48]);
            let mut s = sk.signer_with_rng(&mut drbg, ctx).unwrap();
            Chunks(alg.seed_len() as u64 + 1).feed(&msg, |p| s.update(p));
            assert_eq!(s.finalize().unwrap(), want, "{alg}");
            let vk = sk.verifying_key();
            let mut v = vk.verifier(ctx, &want).unwrap();
            Chunks(5).feed(&msg, |p| v.update(p));
            assert_eq!(v.finalize(), Ok(()), "{alg}");
        }
    }

    #[test]
    fn streamed_and_one_shot_verification_agree_and_catch_tampering() {
        let msg = message(3001);
        for name in FAST {
            let alg = Algorithm::from_name(name).unwrap();
            let ctx = ctx_for(alg);
            let sk = SigningKey::from_seed(alg, &vec![0x17; alg.seed_len()]).unwrap();
            let vk = sk.verifying_key();
            let streamed_verify = |m: &[u8], sig: &[u8], seed: u64| -> Result<(), Error> {
                let mut v = vk.verifier(ctx, sig)?;
                Chunks(seed).feed(m, |p| v.update(p));
                v.finalize()
            };
            // Streamed (OS randomness) signature, one-shot verification, and back.
            let mut s = sk.signer(ctx, false).unwrap();
            Chunks(7).feed(&msg, |p| s.update(p));
            let streamed = s.finalize().unwrap();
            assert_eq!(vk.verify(&msg, ctx, &streamed), Ok(()), "{name}");
            let one_shot = sk.sign(&msg, ctx).unwrap();
            for seed in 1..4 {
                assert_eq!(streamed_verify(&msg, &one_shot, seed), Ok(()), "{name}");
                assert_eq!(streamed_verify(&msg, &streamed, seed), Ok(()), "{name}");
            }
            // A changed message byte, a changed signature byte, a truncated signature.
            let mut other = msg.clone();
            other[1234] ^= 1;
            assert_eq!(
                streamed_verify(&other, &streamed, 5),
                Err(Error::VerificationFailed),
                "{name}"
            );
            let mut bad = streamed.clone();
            bad[1] ^= 1; // ML-DSA c~, Falcon nonce, SNOVA solution: still well-formed
            assert_eq!(
                streamed_verify(&msg, &bad, 5),
                Err(Error::VerificationFailed),
                "{name}"
            );
            assert_eq!(
                streamed_verify(&msg, &streamed[..streamed.len() - 1], 5),
                Err(Error::InvalidSignature),
                "{name}"
            );
            // Context handling is the one-shot API's.
            if alg.supports_context() {
                assert_eq!(
                    streamed_verify(&msg, &streamed, 6).and(streamed_verify(&msg, &one_shot, 6)),
                    Ok(())
                );
                let mut v = vk.verifier(b"other", &streamed).unwrap();
                v.update(&msg);
                assert_eq!(v.finalize(), Err(Error::VerificationFailed), "{name}");
                assert_eq!(
                    sk.signer(&[0u8; 256], false).err(),
                    Some(Error::ContextTooLong)
                );
            } else {
                assert_eq!(sk.signer(b"c", false).err(), Some(Error::Unsupported));
                assert_eq!(vk.verifier(b"c", &streamed).err(), Some(Error::Unsupported));
            }
        }
    }

    #[test]
    fn empty_message_and_io_write() {
        use std::io::Write;
        for name in FAST {
            let alg = Algorithm::from_name(name).unwrap();
            let sk = SigningKey::from_seed(alg, &vec![1; alg.seed_len()]).unwrap();
            let vk = sk.verifying_key();
            let sig = sk.signer(b"", false).unwrap().finalize().unwrap();
            assert_eq!(vk.verify(b"", b"", &sig), Ok(()), "{name}");
            let mut v = vk.verifier(b"", &sig).unwrap();
            std::io::copy(&mut &b""[..], &mut v).unwrap();
            assert_eq!(v.finalize(), Ok(()), "{name}");
            let mut s = sk.signer(b"", false).unwrap();
            s.write_all(b"written").unwrap();
            let sig = s.finalize().unwrap();
            assert_eq!(vk.verify(b"written", b"", &sig), Ok(()), "{name}");
        }
    }
}
