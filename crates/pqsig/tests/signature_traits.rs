//! The RustCrypto traits (src/traits/): every key type through `signature` 3 and
//! `pkcs8` / `spki` gives what the inherent API and `keyfile` give, signature types round
//! trip and reject bad lengths with a typed error, and ML-DSA agrees byte for byte with
//! RustCrypto's `ml-dsa` 0.1.2 through the same traits.

use pqsig::falcon::{self, fndsa};
use pqsig::keyfile::{self, MlDsaForm};
use pqsig::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqsig::signature::{
    Keypair, MultipartSigner, MultipartVerifier, RandomizedSigner, SignatureEncoding, Signer,
    Verifier,
};
use pqsig::spki::{DecodePublicKey, EncodePublicKey};
use pqsig::{any, mldsa, snova, Algorithm, Error};

// ---------------------------------------------------------------------------------------
// One deterministic byte stream, seen as a rand_core 0.6 RNG (the inherent `*_with_rng`)
// and as a rand_core 0.10 RNG (`RandomizedSigner`): equal seeds give equal draws.

#[derive(Clone)]
struct Stream(u64);

impl Stream {
    fn byte(&mut self) -> u8 {
        // splitmix64: not a CSPRNG, only a reproducible stream for tests.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as u8
    }
    fn fill(&mut self, dst: &mut [u8]) {
        for b in dst {
            *b = self.byte();
        }
    }
}

impl rand_core::RngCore for Stream {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.fill(dst)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill(dst);
        Ok(())
    }
}
impl rand_core::CryptoRng for Stream {}

impl rand_core_0_10::TryRng for Stream {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(rand_core::RngCore::next_u32(self))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(rand_core::RngCore::next_u64(self))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.fill(dst);
        Ok(())
    }
}
impl rand_core_0_10::TryCryptoRng for Stream {}

/// An RNG that always fails: signing must report it, never panic.
struct Broken;

#[derive(Debug)]
struct BrokenError;
impl core::fmt::Display for BrokenError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("broken rng")
    }
}
impl core::error::Error for BrokenError {}

impl rand_core_0_10::TryRng for Broken {
    type Error = BrokenError;
    fn try_next_u32(&mut self) -> Result<u32, BrokenError> {
        Err(BrokenError)
    }
    fn try_next_u64(&mut self) -> Result<u64, BrokenError> {
        Err(BrokenError)
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), BrokenError> {
        Err(BrokenError)
    }
}
impl rand_core_0_10::TryCryptoRng for Broken {}

/// The generic code users write: any verifier, any signature type.
fn check<V: Verifier<S>, S>(vk: &V, msg: &[u8], sig: &S) -> bool {
    vk.verify(msg, sig).is_ok()
}

/// What every signature type must do: encode, decode, and reject wrong lengths with
/// `Error::InvalidSignature`.
fn encoding_round_trip<S>(sig: &S)
where
    S: SignatureEncoding + PartialEq + core::fmt::Debug + AsRef<[u8]>,
    for<'a> S: TryFrom<&'a [u8], Error = Error>,
{
    let bytes = sig.to_vec();
    assert_eq!(bytes.as_slice(), sig.as_ref());
    assert_eq!(sig.to_bytes().as_ref(), bytes.as_slice());
    assert_eq!(sig.encoded_len(), bytes.len());
    assert_eq!(S::try_from(bytes.as_slice()).as_ref(), Ok(sig));
    assert_eq!(S::try_from(&[][..]).err(), Some(Error::InvalidSignature));
    let mut long = bytes.clone();
    long.extend_from_slice(&[0u8; 4096]);
    assert_eq!(
        S::try_from(long.as_slice()).err(),
        Some(Error::InvalidSignature)
    );
    assert_eq!(
        S::try_from(&bytes[..1]).err(),
        Some(Error::InvalidSignature)
    );
}

const MSG: &[u8] = b"signature traits";

// ---------------------------------------------------------------------------------------
// ML-DSA

#[test]
fn mldsa_traits_equal_inherent_api() {
    for (i, ps) in mldsa::ParamSet::ALL.into_iter().enumerate() {
        let sk = mldsa::SigningKey::from_seed(ps, &[i as u8 + 1; 32]).unwrap();
        let vk = Keypair::verifying_key(&sk);
        assert_eq!(vk.to_bytes(), sk.verifying_key().to_bytes());

        // Signer: deterministic, empty context.
        let sig: mldsa::Signature = sk.try_sign(MSG).unwrap();
        assert_eq!(sig.as_bytes(), sk.sign_deterministic(MSG, b"").unwrap());
        assert_eq!(sig.param_set(), ps);
        let again: mldsa::Signature = Signer::sign(&sk, MSG);
        assert_eq!(again, sig);
        // Multipart: the same μ.
        let parts: mldsa::Signature = sk.try_multipart_sign(&[b"signature", b" traits"]).unwrap();
        assert_eq!(parts, sig);
        assert!(vk
            .multipart_verify(&[b"signa", b"ture traits"], &sig)
            .is_ok());

        // RandomizedSigner: hedged, the same 32 bytes the inherent API draws.
        let hedged: mldsa::Signature = sk.try_sign_with_rng(&mut Stream(7), MSG).unwrap();
        assert_eq!(
            hedged.as_bytes(),
            sk.sign_with_rng(&mut Stream(7), MSG, b"").unwrap()
        );
        assert_ne!(hedged, sig);
        assert!(
            RandomizedSigner::<mldsa::Signature>::try_sign_with_rng(&sk, &mut Broken, MSG).is_err()
        );

        // Verifier: empty context, as the inherent verify.
        assert!(check(&vk, MSG, &sig));
        assert!(check(&vk, MSG, &hedged));
        assert!(!check(&vk, b"other", &sig));
        let ctx_sig =
            mldsa::Signature::try_from(sk.sign_deterministic(MSG, b"ctx").unwrap()).unwrap();
        assert!(!check(&vk, MSG, &ctx_sig));

        encoding_round_trip(&sig);
        assert_eq!(
            mldsa::Signature::try_from(&sig.as_bytes()[..ps.signature_len() - 1]).err(),
            Some(Error::InvalidSignature)
        );
    }
}

#[test]
fn mldsa_signature_of_another_set_is_rejected() {
    let sk44 = mldsa::SigningKey::from_seed(mldsa::ParamSet::MlDsa44, &[1; 32]).unwrap();
    let sk65 = mldsa::SigningKey::from_seed(mldsa::ParamSet::MlDsa65, &[1; 32]).unwrap();
    let sig: mldsa::Signature = sk44.try_sign(MSG).unwrap();
    assert!(!check(&Keypair::verifying_key(&sk65), MSG, &sig));
}

#[test]
fn mldsa_key_files_equal_keyfile() {
    for ps in mldsa::ParamSet::ALL {
        let alg = Algorithm::MlDsa(ps);
        let sk = mldsa::SigningKey::from_seed(ps, &[9; 32]).unwrap();
        let vk = sk.verifying_key();

        let spki = vk.to_public_key_der().unwrap();
        assert_eq!(
            spki.as_bytes(),
            keyfile::encode_public_der(alg, vk.to_bytes()).unwrap()
        );
        let back = mldsa::VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap();
        assert_eq!(back, vk);

        // Seed form for a key with its seed.
        let p8 = sk.to_pkcs8_der().unwrap();
        let expected = keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Seed).unwrap();
        assert_eq!(p8.as_bytes(), expected.as_slice());
        let back = mldsa::SigningKey::from_pkcs8_der(p8.as_bytes()).unwrap();
        assert_eq!(back.seed(), sk.seed());

        // Expanded form for a key without it; `both` is read too.
        let expanded = mldsa::SigningKey::from_expanded(ps, &sk.to_expanded_bytes()).unwrap();
        let p8 = expanded.to_pkcs8_der().unwrap();
        let expected = keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Expanded).unwrap();
        assert_eq!(p8.as_bytes(), expected.as_slice());
        let back = mldsa::SigningKey::from_pkcs8_der(p8.as_bytes()).unwrap();
        assert_eq!(*back.to_expanded_bytes(), *sk.to_expanded_bytes());
        let both = keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Both).unwrap();
        assert_eq!(
            mldsa::SigningKey::from_pkcs8_der(&both).unwrap().seed(),
            sk.seed()
        );

        // PEM is not DER.
        let pem = keyfile::encode_public_pem(alg, vk.to_bytes()).unwrap();
        assert!(mldsa::VerifyingKey::from_public_key_der(pem.as_bytes()).is_err());
    }
}

#[test]
fn key_files_of_another_family_are_refused() {
    let (fsk, fvk) = falcon::keygen_from_seed(falcon::ParamSet::Falcon512, &[3; 48]).unwrap();
    let spki = fvk.to_public_key_der().unwrap();
    match mldsa::VerifyingKey::from_public_key_der(spki.as_bytes()) {
        Err(pqsig::spki::Error::OidUnknown { oid }) => assert_eq!(oid.to_string(), "1.3.9999.3.11"),
        other => panic!("{other:?}"),
    }
    let p8 = fsk.to_pkcs8_der().unwrap();
    assert!(mldsa::SigningKey::from_pkcs8_der(p8.as_bytes()).is_err());
    assert!(snova::SigningKey::from_pkcs8_der(p8.as_bytes()).is_err());
    // An OID const-oid cannot spell (SNOVA's 128-bit arc) still gives an error, no panic.
    let (ssk, svk) = snova::keygen_from_seed(snova::ParamSet::SnovaIS, &[4; 48]).unwrap();
    assert!(
        falcon::VerifyingKey::from_public_key_der(svk.to_public_key_der().unwrap().as_bytes())
            .is_err()
    );
    assert!(fndsa::SigningKey::from_pkcs8_der(ssk.to_pkcs8_der().unwrap().as_bytes()).is_err());
    // Garbage.
    assert!(mldsa::VerifyingKey::from_public_key_der(&[0x30, 0x03, 0x02, 0x01, 0x00]).is_err());
    assert!(any::SigningKey::from_pkcs8_der(&[]).is_err());
}

// ---------------------------------------------------------------------------------------
// Falcon

#[test]
fn falcon_traits_equal_inherent_api() {
    for (i, ps) in [
        falcon::ParamSet::Falcon512,
        falcon::ParamSet::FalconPadded512,
    ]
    .into_iter()
    .enumerate()
    {
        let (sk, vk) = falcon::keygen_from_seed(ps, &[i as u8 + 5; 48]).unwrap();
        let ek = sk.expand();
        assert_eq!(Keypair::verifying_key(&sk).to_bytes(), vk.to_bytes());
        assert_eq!(Keypair::verifying_key(&ek).to_bytes(), vk.to_bytes());

        let sig: falcon::Signature = sk.try_sign_with_rng(&mut Stream(11), MSG).unwrap();
        assert_eq!(
            sig.as_bytes(),
            sk.sign_with_rng(&mut Stream(11), MSG).unwrap()
        );
        let esig: falcon::Signature = ek.try_sign_with_rng(&mut Stream(11), MSG).unwrap();
        assert_eq!(esig, sig);
        assert!(
            RandomizedSigner::<falcon::Signature>::try_sign_with_rng(&sk, &mut Broken, MSG)
                .is_err()
        );

        let os: falcon::Signature = sk.try_sign(MSG).unwrap();
        let eos: falcon::Signature = ek.try_sign(MSG).unwrap();
        for s in [&sig, &os, &eos] {
            assert!(check(&vk, MSG, s));
            assert!(!check(&vk, b"other", s));
            encoding_round_trip(s);
        }
        if ps.padded() {
            assert_eq!(sig.len(), ps.signature_len());
        }
    }
}

#[test]
fn falcon_key_files_equal_keyfile() {
    for ps in [
        falcon::ParamSet::Falcon512,
        falcon::ParamSet::FalconPadded512,
    ] {
        let alg = Algorithm::Falcon(ps);
        let (sk, vk) = falcon::keygen_from_seed(ps, &[8; 48]).unwrap();
        let spki = vk.to_public_key_der().unwrap();
        assert_eq!(
            spki.as_bytes(),
            keyfile::encode_public_der(alg, vk.to_bytes()).unwrap()
        );
        let back = falcon::VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap();
        assert_eq!((back.param_set(), back.to_bytes()), (ps, vk.to_bytes()));

        let p8 = sk.to_pkcs8_der().unwrap();
        let expected = keyfile::encode_private_der(alg, sk.to_bytes(), MlDsaForm::Seed).unwrap();
        assert_eq!(p8.as_bytes(), expected.as_slice());
        let back = falcon::SigningKey::from_pkcs8_der(p8.as_bytes()).unwrap();
        assert_eq!((back.param_set(), back.to_bytes()), (ps, sk.to_bytes()));
        let ek = falcon::ExpandedSigningKey::from_pkcs8_der(p8.as_bytes()).unwrap();
        let a: falcon::Signature = ek.try_sign_with_rng(&mut Stream(1), MSG).unwrap();
        let b: falcon::Signature = sk.try_sign_with_rng(&mut Stream(1), MSG).unwrap();
        assert_eq!(a, b);
    }
}

#[test]
fn falcon_signature_checks_header_and_length() {
    let mut sig = vec![0x39u8; 700];
    assert!(falcon::Signature::try_from(sig.as_slice()).is_ok());
    sig[0] = 0x3A;
    assert!(falcon::Signature::try_from(sig.as_slice()).is_ok());
    sig[0] = 0x29; // NIST signed-message header, not a detached signature
    assert_eq!(
        falcon::Signature::try_from(sig.as_slice()).err(),
        Some(Error::InvalidSignature)
    );
    sig[0] = 0x39;
    sig.resize(753, 0);
    assert_eq!(
        falcon::Signature::try_from(sig.as_slice()).err(),
        Some(Error::InvalidSignature)
    );
    assert_eq!(
        falcon::Signature::try_from(&sig[..41]).err(),
        Some(Error::InvalidSignature)
    );
}

// ---------------------------------------------------------------------------------------
// FN-DSA

#[test]
fn fndsa_traits_equal_inherent_api() {
    let (sk, vk) = fndsa::keygen_from_seed(9, &[6; 32]).unwrap();
    assert_eq!(Keypair::verifying_key(&sk).to_bytes(), vk.to_bytes());
    let sig: fndsa::Signature = sk.try_sign_with_rng(&mut Stream(3), MSG).unwrap();
    assert_eq!(
        sig.as_bytes(),
        sk.sign_with_rng(&mut Stream(3), MSG, b"").unwrap()
    );
    assert!(
        RandomizedSigner::<fndsa::Signature>::try_sign_with_rng(&sk, &mut Broken, MSG).is_err()
    );
    let os: fndsa::Signature = sk.try_sign(MSG).unwrap();
    for s in [&sig, &os] {
        assert!(check(&vk, MSG, s));
        assert!(!check(&vk, b"other", s));
        encoding_round_trip(s);
    }
    // A signature with a context does not verify through the (empty-context) trait.
    let ctx = fndsa::Signature::try_from(sk.sign(MSG, b"ctx").unwrap()).unwrap();
    assert!(!check(&vk, MSG, &ctx));

    let alg = Algorithm::FnDsa(falcon::FnDsaParamSet::FnDsa512);
    let spki = vk.to_public_key_der().unwrap();
    assert_eq!(
        spki.as_bytes(),
        keyfile::encode_public_der(alg, vk.to_bytes()).unwrap()
    );
    assert_eq!(
        fndsa::VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap(),
        vk
    );
    let p8 = sk.to_pkcs8_der().unwrap();
    let expected = keyfile::encode_private_der(alg, sk.to_bytes(), MlDsaForm::Seed).unwrap();
    assert_eq!(p8.as_bytes(), expected.as_slice());
    assert_eq!(
        fndsa::SigningKey::from_pkcs8_der(p8.as_bytes())
            .unwrap()
            .to_bytes(),
        sk.to_bytes()
    );

    // Degrees without an OID have no key file.
    let (small, _) = fndsa::keygen_from_seed(4, &[6; 32]).unwrap();
    assert!(small.to_pkcs8_der().is_err());
    assert!(Keypair::verifying_key(&small).to_public_key_der().is_err());
}

// ---------------------------------------------------------------------------------------
// SNOVA

#[test]
fn snova_traits_equal_inherent_api() {
    for ps in [snova::ParamSet::SnovaIS, snova::ParamSet::SnovaIKAes] {
        let alg = Algorithm::Snova(ps);
        let (sk, vk) = snova::keygen_from_seed(ps, &[5; 48]).unwrap();
        let ek = sk.expand();
        let pvk = vk.prepare();
        assert_eq!(Keypair::verifying_key(&sk), vk);
        assert_eq!(Keypair::verifying_key(&ek), vk);

        let sig: snova::Signature = sk.try_sign_with_rng(&mut Stream(2), MSG).unwrap();
        assert_eq!(
            sig.as_bytes(),
            sk.sign_with_rng(MSG, &mut Stream(2)).unwrap()
        );
        let esig: snova::Signature = ek.try_sign_with_rng(&mut Stream(2), MSG).unwrap();
        assert_eq!(esig, sig);
        assert!(
            RandomizedSigner::<snova::Signature>::try_sign_with_rng(&ek, &mut Broken, MSG).is_err()
        );
        let os: snova::Signature = sk.try_sign(MSG).unwrap();
        let eos: snova::Signature = ek.try_sign(MSG).unwrap();
        for s in [&sig, &os, &eos] {
            assert!(check(&vk, MSG, s));
            assert!(check(&pvk, MSG, s));
            assert!(!check(&vk, b"other", s));
            assert!(!check(&pvk, b"other", s));
            encoding_round_trip(s);
        }

        let spki = vk.to_public_key_der().unwrap();
        assert_eq!(
            spki.as_bytes(),
            keyfile::encode_public_der(alg, vk.to_bytes()).unwrap()
        );
        assert_eq!(
            snova::VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap(),
            vk
        );
        let pvk2 = snova::PreparedVerifyingKey::from_public_key_der(spki.as_bytes()).unwrap();
        assert!(check(&pvk2, MSG, &sig));

        let p8 = sk.to_pkcs8_der().unwrap();
        let expected = keyfile::encode_private_der(alg, sk.to_bytes(), MlDsaForm::Seed).unwrap();
        assert_eq!(p8.as_bytes(), expected.as_slice());
        assert_eq!(
            snova::SigningKey::from_pkcs8_der(p8.as_bytes())
                .unwrap()
                .to_bytes(),
            sk.to_bytes()
        );
        let ek2 = snova::ExpandedSigningKey::from_pkcs8_der(p8.as_bytes()).unwrap();
        let s2: snova::Signature = ek2.try_sign_with_rng(&mut Stream(2), MSG).unwrap();
        assert_eq!(s2, sig);
    }
}

// ---------------------------------------------------------------------------------------
// any

#[test]
fn any_traits_forward_to_the_family() {
    let algs = [
        Algorithm::MlDsa(mldsa::ParamSet::MlDsa44),
        Algorithm::MlDsa(mldsa::ParamSet::MlDsa87),
        Algorithm::Falcon(falcon::ParamSet::Falcon512),
        Algorithm::Falcon(falcon::ParamSet::FalconPadded512),
        Algorithm::FnDsa(falcon::FnDsaParamSet::FnDsa512),
        Algorithm::Snova(snova::ParamSet::SnovaIS),
        Algorithm::Snova(snova::ParamSet::SnovaIIISAes),
    ];
    for alg in algs {
        let seed = vec![0x42u8; alg.seed_len()];
        let sk = any::SigningKey::from_seed(alg, &seed).unwrap();
        let vk = Keypair::verifying_key(&sk);
        assert_eq!(vk.to_bytes(), sk.verifying_key().to_bytes());

        let sig: any::Signature = sk.try_sign_with_rng(&mut Stream(5), MSG).unwrap();
        assert_eq!(
            sig.as_bytes(),
            sk.sign_with_rng(&mut Stream(5), MSG, b"").unwrap()
        );
        let plain: any::Signature = sk.try_sign(MSG).unwrap();
        if let any::SigningKey::MlDsa(k) = &sk {
            assert_eq!(plain.as_bytes(), k.sign_deterministic(MSG, b"").unwrap());
        }
        for s in [&sig, &plain] {
            assert!(check(&vk, MSG, s), "{alg}");
            assert!(!check(&vk, b"other", s), "{alg}");
            encoding_round_trip(s);
        }

        let spki = vk.to_public_key_der().unwrap();
        assert_eq!(
            spki.as_bytes(),
            keyfile::encode_public_der(alg, vk.to_bytes()).unwrap()
        );
        let back = any::VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap();
        assert_eq!((back.algorithm(), back.to_bytes()), (alg, vk.to_bytes()));

        let p8 = sk.to_pkcs8_der().unwrap();
        let expected = keyfile::encode_signing_key_der(&sk, MlDsaForm::Seed).unwrap();
        assert_eq!(p8.as_bytes(), expected.as_slice());
        let back = any::SigningKey::from_pkcs8_der(p8.as_bytes()).unwrap();
        assert_eq!((back.algorithm(), back.to_bytes()), (alg, sk.to_bytes()));
    }
}

#[test]
fn family_signatures_convert_to_any() {
    let sk = mldsa::SigningKey::from_seed(mldsa::ParamSet::MlDsa65, &[1; 32]).unwrap();
    let sig: mldsa::Signature = sk.try_sign(MSG).unwrap();
    let anysig = any::Signature::from(sig.clone());
    assert_eq!(anysig.as_bytes(), sig.as_bytes());
    let vk = any::VerifyingKey::MlDsa(sk.verifying_key());
    assert!(check(&vk, MSG, &anysig));
    assert_eq!(
        any::Signature::try_from(&[0u8; 3][..]).err(),
        Some(Error::InvalidSignature)
    );
}

// ---------------------------------------------------------------------------------------
// Differential: RustCrypto `ml-dsa` 0.1.2 through the same traits.

mod rustcrypto {
    use super::*;
    use ml_dsa::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams, Seed};

    fn run<P: MlDsaParams>(ps: mldsa::ParamSet)
    where
        ml_dsa::SigningKey<P>: EncodePrivateKey + DecodePrivateKey,
        ml_dsa::VerifyingKey<P>: EncodePublicKey + DecodePublicKey,
    {
        for i in 0..4u8 {
            let seed = [i.wrapping_mul(37).wrapping_add(1); 32];
            let ours = mldsa::SigningKey::from_seed(ps, &seed).unwrap();
            let theirs = ml_dsa::SigningKey::<P>::from_seed(&Seed::from(seed));
            let our_vk = Keypair::verifying_key(&ours);
            let their_vk = Keypair::verifying_key(&theirs);
            assert_eq!(our_vk.to_bytes(), their_vk.encode().as_slice());

            let msg = [i; 77];
            // Signer: both deterministic with the empty context, so equal bytes.
            let our_sig: mldsa::Signature = ours.try_sign(&msg).unwrap();
            let their_sig: ml_dsa::Signature<P> = theirs.try_sign(&msg).unwrap();
            assert_eq!(our_sig.to_vec(), their_sig.to_vec());

            // RandomizedSigner: the same 32-byte draw of rnd, so equal bytes again.
            let our_h: mldsa::Signature =
                ours.try_sign_with_rng(&mut Stream(i as u64), &msg).unwrap();
            let their_h: ml_dsa::Signature<P> = theirs
                .expanded_key()
                .try_sign_with_rng(&mut Stream(i as u64), &msg)
                .unwrap();
            assert_eq!(our_h.to_vec(), their_h.to_vec());

            // Each verifies the other's signatures through `Verifier`.
            let as_theirs = ml_dsa::Signature::<P>::try_from(our_h.as_bytes()).unwrap();
            assert!(check(&their_vk, &msg, &as_theirs));
            let as_ours = mldsa::Signature::try_from(their_h.to_vec().as_slice()).unwrap();
            assert!(check(&our_vk, &msg, &as_ours));
            assert!(!check(&their_vk, b"x", &as_theirs));

            // Key files: the same DER both ways (RFC 9881 seed form, SPKI).
            let our_p8 = ours.to_pkcs8_der().unwrap();
            assert_eq!(our_p8.as_bytes(), theirs.to_pkcs8_der().unwrap().as_bytes());
            let our_spki = our_vk.to_public_key_der().unwrap();
            assert_eq!(
                our_spki.as_bytes(),
                their_vk.to_public_key_der().unwrap().as_bytes()
            );
            let read = ml_dsa::SigningKey::<P>::from_pkcs8_der(our_p8.as_bytes()).unwrap();
            assert!(read == theirs);
            let read = ml_dsa::VerifyingKey::<P>::from_public_key_der(our_spki.as_bytes()).unwrap();
            assert!(read == their_vk);
        }
    }

    #[test]
    fn mldsa_agrees_with_rustcrypto_ml_dsa() {
        run::<MlDsa44>(mldsa::ParamSet::MlDsa44);
        run::<MlDsa65>(mldsa::ParamSet::MlDsa65);
        run::<MlDsa87>(mldsa::ParamSet::MlDsa87);
    }
}
