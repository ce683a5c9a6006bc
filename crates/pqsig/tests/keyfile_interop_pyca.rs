//! ML-DSA key files against pyca `cryptography` (driven by scripts/test-all.sh, which runs
//! `tests/interop/pyca_mldsa.py gen DIR`, then this test with `PQSIG_INTEROP_DIR=DIR`,
//! then `pyca_mldsa.py check DIR`). Without `PQSIG_INTEROP_DIR` the test does nothing.

use pqsig::keyfile::{self, MlDsaForm};
use pqsig::{mldsa, Algorithm};
use std::path::Path;

const CTX: &[u8] = b"pqsig-interop";

#[test]
fn pyca_cryptography_interop() {
    let Some(dir) = std::env::var_os("PQSIG_INTEROP_DIR") else {
        eprintln!("keyfile_interop_pyca: PQSIG_INTEROP_DIR not set, nothing to do");
        return;
    };
    let dir = Path::new(&dir);
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = dir.join("pqsig");
    std::fs::create_dir_all(&out).unwrap();
    let msg = read("msg.bin");
    for (n, ps) in [
        ("44", mldsa::ParamSet::MlDsa44),
        ("65", mldsa::ParamSet::MlDsa65),
        ("87", mldsa::ParamSet::MlDsa87),
    ] {
        let alg = Algorithm::MlDsa(ps);
        // cryptography -> pqsig.
        let seed = read(&format!("{n}_seed.bin"));
        let sk_pem = read(&format!("{n}_sk.pem"));
        let sk_der = read(&format!("{n}_sk.der"));
        let pk_pem = read(&format!("{n}_pk.pem"));
        let pk_der = read(&format!("{n}_pk.der"));
        let from_pem = keyfile::decode_private(&sk_pem).unwrap();
        let from_der = keyfile::decode_private(&sk_der).unwrap();
        assert_eq!(from_pem.algorithm(), alg);
        assert_eq!(from_pem.seed(), Some(&seed[..]));
        assert_eq!(from_der.seed(), Some(&seed[..]));
        let (a, pk) = keyfile::decode_public(&pk_pem).unwrap();
        assert_eq!(a, alg);
        assert_eq!(keyfile::decode_public(&pk_der).unwrap(), (alg, pk.clone()));
        assert_eq!(
            from_pem.public_key().unwrap(),
            pk,
            "ML-DSA-{n}: public key from seed"
        );
        // Byte-identical files for the same key.
        assert_eq!(
            &keyfile::encode_private_der(alg, &seed, MlDsaForm::Seed).unwrap()[..],
            &sk_der[..]
        );
        assert_eq!(
            keyfile::encode_private_pem(alg, &seed, MlDsaForm::Seed)
                .unwrap()
                .as_bytes(),
            &sk_pem[..]
        );
        assert_eq!(keyfile::encode_public_der(alg, &pk).unwrap(), pk_der);
        assert_eq!(
            keyfile::encode_public_pem(alg, &pk).unwrap().as_bytes(),
            &pk_pem[..]
        );
        // cryptography's signature verifies in pqsig; pqsig signs with cryptography's key.
        let vk = mldsa::VerifyingKey::from_bytes(ps, &pk).unwrap();
        let sig = read(&format!("{n}_sig.bin"));
        assert_eq!(
            vk.verify(&msg, CTX, &sig),
            Ok(()),
            "ML-DSA-{n}: pyca signature"
        );
        assert!(vk.verify(b"other", CTX, &sig).is_err());
        let ours = from_der
            .mldsa_signing_key()
            .unwrap()
            .sign(&msg, CTX)
            .unwrap();
        assert_eq!(vk.verify(&msg, CTX, &ours), Ok(()));

        // pqsig -> cryptography (checked by `pyca_mldsa.py check`).
        let (sk, vk) = mldsa::keygen(ps).unwrap();
        let w = |name: String, data: &[u8]| std::fs::write(out.join(name), data).unwrap();
        w(
            format!("{n}_sk.pem"),
            keyfile::encode_private_pem(alg, sk.seed().unwrap(), MlDsaForm::Seed)
                .unwrap()
                .as_bytes(),
        );
        w(
            format!("{n}_sk.der"),
            &keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Seed).unwrap(),
        );
        w(
            format!("{n}_sk_both.der"),
            &keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Both).unwrap(),
        );
        w(
            format!("{n}_sk_expanded.der"),
            &keyfile::encode_mldsa_private_der(&sk, MlDsaForm::Expanded).unwrap(),
        );
        w(
            format!("{n}_pk.der"),
            &keyfile::encode_public_der(alg, vk.to_bytes()).unwrap(),
        );
        w(
            format!("{n}_pk.pem"),
            keyfile::encode_public_pem(alg, vk.to_bytes())
                .unwrap()
                .as_bytes(),
        );
        w(format!("{n}_sig.bin"), &sk.sign(&msg, CTX).unwrap());
    }
    eprintln!("keyfile_interop_pyca: loaded cryptography's ML-DSA-44/65/87 keys, wrote pqsig's");
}
