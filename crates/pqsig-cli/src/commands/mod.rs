//! One module per subcommand, plus the loaders they share.

pub mod bench;
pub mod card;
#[cfg(feature = "server")]
pub mod client;
pub mod completions;
pub mod demo;
pub mod device;
pub mod kat;
pub mod keygen;
pub mod list;
#[cfg(not(feature = "server"))]
pub mod not_built;
pub mod pubkey;
#[cfg(feature = "server")]
pub mod serve;
pub mod sign;
pub mod timing;
pub mod verify;
pub mod verify_batch;
pub mod verify_batch_line;

use crate::cli::{Cli, Command, KeyFormat};
use crate::exit::Failure;
use crate::io;
use pqsig::any::{SigningKey, VerifyingKey};
use pqsig::backend;
use pqsig::batch::Options;
use pqsig::keyfile::{self, Encoding, MlDsaForm};
use pqsig::{Algorithm, Error};
use std::path::Path;
use zeroize::Zeroizing;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    if let Some(b) = cli.backend {
        backend::set_backend(b).map_err(|e| Failure::error(format!("--backend {b}: {e}")))?;
    }
    // The card devices (`card`, `card-per-call`) exist when PQSIG_CARD names a card.
    pqsig_card::register_from_env();
    // `ntt-hw` / `ntt-hw-pooled` exist where the Linux driver's /dev/ntt_hw does.
    pqsig_card::ntt_hw::register();
    // Checked for every command, like --backend: a typo never passes silently.
    let batch = batch_options(cli.device.as_deref())?;
    // A kernel device (an NTT accelerator) serves single operations too: every ML-DSA
    // and Falcon table the library hands out from here on routes its transforms to it.
    if let Some(dev) = &batch.kernel_device {
        pqsig::batch::set_kernel_device(Some(dev.clone()));
    }
    match cli.command {
        Command::List(a) => list::run(a),
        Command::Keygen(a) => keygen::run(a),
        Command::Sign(a) => sign::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Kat(a) => kat::run(a),
        Command::Demo(a) => demo::run(a, cli.backend),
        Command::Bench(a) => bench::run(a, cli.backend, &batch),
        Command::VerifyBatch(a) => verify_batch::run(a, batch),
        Command::Device(a) => device::run(a),
        Command::Pubkey(a) => pubkey::run(a),
        Command::Completions(a) => completions::run(a),
        #[cfg(feature = "server")]
        Command::Client(a) => client::run(a),
        #[cfg(feature = "server")]
        Command::Serve(a) => serve::run(a),
        #[cfg(not(feature = "server"))]
        Command::Client(_) => Err(Failure::not_built_in("client", "server")),
        #[cfg(not(feature = "server"))]
        Command::Serve(_) => Err(Failure::not_built_in("serve", "server")),
        Command::Card(a) => card::run(a),
    }
}

/// The batch engine's options: the device `--device` names (`cpu`: none), else the one
/// `PQSIG_DEVICE` names (unknown there: none, as the library does).
pub fn batch_options(device: Option<&str>) -> Result<Options, Failure> {
    let Some(name) = device else {
        return Ok(Options::from_env());
    };
    Options::default().with_device_name(name).map_err(|e| {
        let known = Options::device_names();
        let hint = if name.trim().to_ascii_lowercase().starts_with("card") {
            format!(
                "; the card devices need {}=PATH, the socket of a `pqsig card`",
                pqsig_card::ENV
            )
        } else {
            String::new()
        };
        Failure::error(format!(
            "--device {name}: {e} (known: {}{hint})",
            known.join(", ")
        ))
    })
}

/// Why an encoded signature is malformed (`Error::InvalidSignature`), from its length.
pub fn malformed_why(alg: Algorithm, len: usize) -> String {
    match alg.fixed_signature_len() {
        Some(n) if len != n => format!("wrong length: {len} bytes, {alg} signatures have {n}"),
        _ if len > alg.signature_len() => format!(
            "too long: {len} bytes, {alg} signatures have at most {}",
            alg.signature_len()
        ),
        _ => "malformed encoding".to_string(),
    }
}

/// Reads and decodes a public key file: PEM or DER SubjectPublicKeyInfo, or the raw key
/// (the format is detected; a raw key that happens to parse as DER still loads). Without
/// `alg` (no `--alg`) the file names the algorithm by its OID; a raw key then is an error
/// that says to give `--alg`. With `alg`, a file of another algorithm is an error.
pub fn load_public_key(alg: Option<Algorithm>, path: &Path) -> Result<VerifyingKey, Failure> {
    let file = io::read_file(path, "public key")?;
    let Some(alg) = alg else {
        let (alg, bytes) =
            keyfile::decode_public(&file).map_err(|e| key_file_failure(path, "public", &e))?;
        return VerifyingKey::from_bytes(alg, &bytes).map_err(|e| {
            Failure::error(format!(
                "{}: not a valid {alg} public key ({e})",
                io::shown(path)
            ))
        });
    };
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
    VerifyingKey::from_bytes(alg, &bytes).map_err(|e| {
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
/// standard encoding or, by length, the key-generation seed). The format is detected.
/// Without `alg` the file must name its algorithm (PEM, DER), as for [`load_public_key`].
pub fn load_secret_key(alg: Option<Algorithm>, path: &Path) -> Result<SigningKey, Failure> {
    let bytes = io::read_secret(path, "secret key")?;
    let Some(alg) = alg else {
        return keyfile::decode_private(&bytes)
            .and_then(|key| key.signing_key())
            .map_err(|e| key_file_failure(path, "private", &e));
    };
    let enc = keyfile::detect(&bytes);
    let raw_len = bytes.len() == alg.secret_key_len() || bytes.len() == alg.seed_len();
    if enc == Encoding::Pem || (enc == Encoding::Der && !raw_len) {
        return keyfile::decode_private_as(alg, &bytes)
            .and_then(|key| key.signing_key())
            .map_err(|e| {
                Failure::error(format!(
                    "{}: not a valid {alg} private key file ({e})",
                    io::shown(path)
                ))
            });
    }
    if enc == Encoding::Der {
        // A raw length, but it parses as DER: try PKCS#8 first, then raw.
        if let Ok(k) = keyfile::decode_private_as(alg, &bytes).and_then(|key| key.signing_key()) {
            return Ok(k);
        }
    }
    if !raw_len {
        return Err(Failure::error(format!(
            "{}: wrong length for a secret key: {} bytes, {alg} needs {} bytes (the key) or {} \
             bytes (the key-generation seed)",
            io::shown(path),
            bytes.len(),
            alg.secret_key_len(),
            alg.seed_len()
        )));
    }
    SigningKey::from_bytes(alg, &bytes).map_err(|e| {
        Failure::error(format!(
            "{}: not a valid {alg} secret key ({e})",
            io::shown(path)
        ))
    })
}

/// Why a key file read without `--alg` failed: raw bytes name no algorithm, so the fix is
/// `--alg`; anything else is the key file's own error.
fn key_file_failure(path: &Path, kind: &str, e: &keyfile::KeyFileError) -> Failure {
    if *e == keyfile::KeyFileError::UnrecognisedFormat {
        Failure::error(format!(
            "{}: not a PEM or DER key file, so it does not say its algorithm: give --alg NAME \
             for a raw {kind} key (see `pqsig list`)",
            io::shown(path)
        ))
    } else {
        Failure::error(format!(
            "{}: not a valid {kind} key file ({e}; a raw key needs --alg NAME)",
            io::shown(path)
        ))
    }
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
/// PEM/DER = PKCS#8, ML-DSA in the private-key CHOICE `form` (RFC 9881).
pub fn encode_secret(
    sk: &SigningKey,
    format: KeyFormat,
    form: MlDsaForm,
) -> Result<Zeroizing<Vec<u8>>, Failure> {
    let fail = |e: keyfile::KeyFileError| {
        Failure::error(format!(
            "cannot encode the {} secret key: {e}",
            sk.algorithm()
        ))
    };
    match format {
        KeyFormat::Raw => Ok(sk.to_bytes()),
        KeyFormat::Der => keyfile::encode_signing_key_der(sk, form).map_err(fail),
        KeyFormat::Pem => keyfile::encode_signing_key_pem(sk, form)
            .map(|pem| Zeroizing::new(pem.as_bytes().to_vec()))
            .map_err(fail),
    }
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
    } else if !ctx.is_empty() && !alg.supports_context() {
        format!(" (--ctx: {alg} takes no context string)")
    } else if deterministic && !alg.supports_deterministic() {
        format!(" (--deterministic: {alg} has no deterministic signing mode)")
    } else {
        String::new()
    }
}
