//! `pqsig keygen`: writes the public key and the secret key (mode 0600), PEM by default.

use super::{encode_public, encode_secret};
use crate::cli::KeygenArgs;
use crate::exit::Failure;
use crate::io;
use crate::scheme;
use zeroize::Zeroizing;

pub fn run(args: KeygenArgs) -> Result<(), Failure> {
    let alg = args.alg;
    let seed = match &args.seed {
        Some(h) => {
            let s = Zeroizing::new(io::parse_hex("--seed", h)?);
            let want = scheme::seed_len(alg);
            if s.len() != want {
                return Err(Failure::error(format!(
                    "--seed: {alg} needs a {want}-byte seed ({} hex digits), got {} bytes",
                    2 * want,
                    s.len()
                )));
            }
            Some(s)
        }
        None => None,
    };
    let (pk, sk) = scheme::keygen(alg, seed.as_deref().map(|s| s.as_slice()), None)
        .map_err(|e| Failure::error(format!("{alg} key generation failed: {e}")))?;
    let sk_file = encode_secret(alg, &sk, args.format)?;
    let pk_file = encode_public(alg, pk.to_bytes(), args.format)?;
    io::write_secret(&args.sk, &sk_file, "secret key")?;
    io::write_file(&args.pk, &pk_file, "public key")
}
