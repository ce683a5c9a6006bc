//! Key files: PEM, DER, SPKI and PKCS#8 (pqsig::keyfile), public and private.
//! Checks: no panic; a decoded public key re-encodes (DER and PEM) to a file that
//! decodes to the same key; a decoded private key yields its public key and signing key
//! or a typed error.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pqsig::keyfile;
use pqsig_fuzz::{algorithm, Fields};

fuzz_target!(|data: &[u8]| {
    let mut f = Fields::new(data);
    let sel = f.byte();
    let file = f.rest();
    let _ = keyfile::detect(file);
    if let Ok((alg, pk)) = keyfile::decode_public(file) {
        let der = keyfile::encode_public_der(alg, &pk).expect("decoded key re-encodes");
        assert_eq!(
            keyfile::decode_public(&der).expect("own DER decodes"),
            (alg, pk.clone())
        );
        let pem = keyfile::encode_public_pem(alg, &pk).expect("decoded key re-encodes");
        assert_eq!(
            keyfile::decode_public(pem.as_bytes()).expect("own PEM decodes"),
            (alg, pk)
        );
    }
    let _ = keyfile::decode_public_as(algorithm(sel), file);
    let private = if sel & 0x80 == 0 {
        keyfile::decode_private(file)
    } else {
        keyfile::decode_private_as(algorithm(sel), file)
    };
    if let Ok(k) = private {
        let _ = k.algorithm();
        let _ = k.seed();
        let _ = k.public_key();
        let _ = k.secret_key_bytes();
        let _ = k.signing_key();
    }
});
