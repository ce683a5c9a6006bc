//! One module per subcommand, plus the loaders they share.

pub mod demo;
pub mod kat;
pub mod keygen;
pub mod list;
pub mod sign;
pub mod verify;

use crate::cli::{Cli, Command};
use crate::exit::Failure;
use crate::io;
use crate::scheme::{self, PublicKey, SecretKey};
use pqsig::kernels::select;
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
    }
}

/// Reads and decodes a public key file.
pub fn load_public_key(alg: Algorithm, path: &Path) -> Result<PublicKey, Failure> {
    let bytes = io::read_file(path, "public key")?;
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

/// Reads and decodes (and validates) a secret key file: expanded key or seed.
pub fn load_secret_key(alg: Algorithm, path: &Path) -> Result<SecretKey, Failure> {
    let bytes = io::read_secret(path, "secret key")?;
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
