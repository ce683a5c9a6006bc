//! One module per subcommand, plus the loaders they share.

pub mod completions;
pub mod demo;
pub mod kat;
pub mod keygen;
pub mod list;
pub mod pubkey;
pub mod serve;
pub mod sign;
pub mod verify;

use crate::cli::{Cli, Command, KeyFormat};
use crate::exit::Failure;
use crate::io;
use crate::scheme::{self, PublicKey, SecretKey};
use pqsig::kernels::select;
use pqsig::keyfile::{self, Encoding, MlDsaForm};
use pqsig::{Algorithm, Error};
use std::path::Path;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    if let Some(b) = cli.backend {
        select::set_backend(b).map_err(|e| Failure::error(format!("--backend {b}: {e}")))?;
    }
    match cli.command {
        Command::List(a) => list::run(a),
        Command::Keygen(a) => keygen::run(a),
        Command::Sign(a) => sign::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Kat(a) => kat::run(a),
        Command::Demo(a) => demo::run(a, cli.backend),
        Command::Pubkey(a) => pubkey::run(a),
        Command::Completions(a) => completions::run(a),
        Command::Serve(a) => serve::run(a),
    }
}

/// Reads and decodes a public key file: PEM or DER SubjectPublicKeyInfo, or the raw key
/// (the format is detected; a raw key that happens to parse as DER still loads).
pub fn load_public_key(alg: Algorithm, path: &Path) -> Result<PublicKey, Failure> {
    let file = io::read_file(path, "public key")?;
    let bytes = match keyfile::detect(&file) {
        Encoding::Raw => file,
        enc => match keyfile::decode_public_as(alg, &file) {
            Ok(pk) => pk,
            Err(_) if enc == Encoding::Der && file.len() == alg.public_key_len() => file,
            Err(e) => {
                return Err(Failure::error(format!(
                    "{}: not a valid {alg} public key file ({e})",
                    io::shown(path)
                )))
            }
        },
    };
    PublicKey::from_bytes(alg, &bytes).map_err(|e| {
        let expected = alg.public_key_len();
        if bytes.len() != expected {
            Failure::error(format!(
                "{}: wrong length for a public key: {} bytes, {alg} needs {expected}",
                io::shown(path),
                bytes.len()
            ))
        } else {
            Failure::error(format!(
                "{}: not a valid {alg} public key ({e})",
                io::shown(path)
            ))
        }
    })
}

/// Reads and decodes (and validates) a secret key file: PEM or DER PKCS#8, or raw (the
/// expanded key or, by length, the seed). The format is detected.
pub fn load_secret_key(alg: Algorithm, path: &Path) -> Result<SecretKey, Failure> {
    let bytes = io::read_secret(path, "secret key")?;
    let enc = keyfile::detect(&bytes);
    let raw_len = bytes.len() == alg.secret_key_len() || bytes.len() == scheme::seed_len(alg);
    if enc == Encoding::Pem || (enc == Encoding::Der && !raw_len) {
        let bad = |e: &dyn std::fmt::Display| {
            Failure::error(format!(
                "{}: not a valid {alg} private key file ({e})",
                io::shown(path)
            ))
        };
        let key = keyfile::decode_private_as(alg, &bytes).map_err(|e| bad(&e))?;
        return if let Algorithm::MlDsa(_) = alg {
            Ok(SecretKey::MlDsa(
                key.mldsa_signing_key().map_err(|e| bad(&e))?,
            ))
        } else {
            let sk = key.secret_key_bytes().map_err(|e| bad(&e))?;
            SecretKey::from_bytes(alg, &sk).map_err(|e| bad(&e))
        };
    }
    if enc == Encoding::Der {
        // A raw length, but it parses as DER: try PKCS#8 first, then raw.
        if let Ok(key) = keyfile::decode_private_as(alg, &bytes) {
            if let Algorithm::MlDsa(_) = alg {
                if let Ok(k) = key.mldsa_signing_key() {
                    return Ok(SecretKey::MlDsa(k));
                }
            } else if let Ok(sk) = key.secret_key_bytes() {
                if let Ok(k) = SecretKey::from_bytes(alg, &sk) {
                    return Ok(k);
                }
            }
        }
    }
    SecretKey::from_bytes(alg, &bytes).map_err(|e| match e {
        Error::InvalidLength => Failure::error(format!(
            "{}: wrong length for a secret key: {} bytes, {alg} needs {}",
            io::shown(path),
            bytes.len(),
            scheme::secret_key_forms(alg)
        )),
        e => Failure::error(format!(
            "{}: not a valid {alg} secret key ({e})",
            io::shown(path)
        )),
    })
}

/// Encodes a raw public key in `format`.
pub fn encode_public(alg: Algorithm, pk: &[u8], format: KeyFormat) -> Result<Vec<u8>, Failure> {
    let r = match format {
        KeyFormat::Raw => Ok(pk.to_vec()),
        KeyFormat::Der => keyfile::encode_public_der(alg, pk),
        KeyFormat::Pem => keyfile::encode_public_pem(alg, pk).map(String::into_bytes),
    };
    r.map_err(|e| Failure::error(format!("cannot encode the {alg} public key: {e}")))
}

/// Encodes a secret key in `format`: raw = the scheme's encoding (ML-DSA: expanded);
/// PEM/DER = PKCS#8, ML-DSA in the seed form when the key has its seed, else expanded.
pub fn encode_secret(
    alg: Algorithm,
    sk: &SecretKey,
    format: KeyFormat,
) -> Result<zeroize::Zeroizing<Vec<u8>>, Failure> {
    let fail = |e: keyfile::KeyFileError| {
        Failure::error(format!("cannot encode the {alg} secret key: {e}"))
    };
    let der = match (format, sk) {
        (KeyFormat::Raw, _) => return Ok(sk.to_bytes()),
        (_, SecretKey::MlDsa(k)) => {
            let form = if k.seed().is_some() {
                MlDsaForm::Seed
            } else {
                MlDsaForm::Expanded
            };
            keyfile::encode_mldsa_private_der(k, form).map_err(fail)?
        }
        (_, _) => {
            keyfile::encode_private_der(alg, &sk.to_bytes(), MlDsaForm::default()).map_err(fail)?
        }
    };
    if format == KeyFormat::Der {
        return Ok(der);
    }
    let pem = keyfile::pem::encode(keyfile::PEM_PRIVATE, &der);
    Ok(zeroize::Zeroizing::new(pem.as_bytes().to_vec()))
}

/// Decodes `--ctx` (empty when absent) and enforces the 255-byte limit.
pub fn context(ctx: Option<&str>) -> Result<Vec<u8>, Failure> {
    let ctx = match ctx {
        Some(h) => io::parse_hex("--ctx", h)?,
        None => Vec::new(),
    };
    if ctx.len() > 255 {
        return Err(Failure::error(format!(
            "--ctx: context is {} bytes, at most 255 allowed",
            ctx.len()
        )));
    }
    Ok(ctx)
}

/// For `Error::Unsupported`: which option the algorithm does not offer (appended to the
/// error message), e.g. " (--ctx: SNOVA_I_S takes no context string)".
pub fn unsupported_why(alg: Algorithm, e: Error, ctx: &[u8], deterministic: bool) -> String {
    if e != Error::Unsupported {
        String::new()
    } else if !ctx.is_empty() && !scheme::supports_context(alg) {
        format!(" (--ctx: {alg} takes no context string)")
    } else if deterministic && !scheme::supports_deterministic(alg) {
        format!(" (--deterministic: {alg} has no deterministic signing mode)")
    } else {
        String::new()
    }
}
