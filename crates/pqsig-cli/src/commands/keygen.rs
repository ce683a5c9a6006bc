//! `pqsig keygen`: writes the public key and the secret key (mode 0600), PEM by default;
//! ML-DSA private keys in the RFC 9881 CHOICE of `--mldsa-key-form` (seed by default).

use super::{encode_public, encode_secret};
use crate::cli::{KeygenArgs, MlDsaKeyForm};
use crate::exit::Failure;
use crate::io;
use pqsig::any::SigningKey;
use pqsig::keyfile::MlDsaForm;
use zeroize::Zeroizing;

pub fn run(args: KeygenArgs) -> Result<(), Failure> {
    let alg = args.alg;
    let sk = match &args.seed {
        Some(h) => {
            let s = Zeroizing::new(io::parse_hex("--seed", h)?);
            let want = alg.seed_len();
            if s.len() != want {
                return Err(Failure::error(format!(
                    "--seed: {alg} needs a {want}-byte seed ({} hex digits), got {} bytes",
                    2 * want,
                    s.len()
                )));
            }
            SigningKey::from_seed(alg, &s)
        }
        None => SigningKey::generate(alg),
    }
    .map_err(|e| Failure::error(format!("{alg} key generation failed: {e}")))?;
    let form = match args.mldsa_key_form {
        MlDsaKeyForm::Seed => MlDsaForm::Seed,
        MlDsaKeyForm::Expanded => MlDsaForm::Expanded,
        MlDsaKeyForm::Both => MlDsaForm::Both,
    };
    let sk_file = encode_secret(&sk, args.format, form)?;
    let pk_file = encode_public(alg, sk.verifying_key().to_bytes(), args.format)?;
    io::write_secret(&args.sk, &sk_file, "secret key")?;
    io::write_file(&args.pk, &pk_file, "public key")
}
