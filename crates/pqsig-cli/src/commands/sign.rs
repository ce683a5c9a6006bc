//! `pqsig sign`: pure signing of a file, hedged by default. The message is streamed
//! (1 MiB at a time into the library's incremental signer), so files of any size sign in
//! constant memory; the signature is the one-shot one.

use super::{context, load_public_key, load_secret_key, unsupported_why};
use crate::cli::SignArgs;
use crate::exit::Failure;
use crate::io;

pub fn run(args: SignArgs) -> Result<(), Failure> {
    let ctx = context(args.ctx.as_deref())?;
    // Without --alg the key file names the algorithm; --pk must then be of the same one.
    let sk = load_secret_key(args.alg, &args.sk)?;
    let alg = sk.algorithm();
    if let Some(pk_path) = &args.pk {
        let pk = load_public_key(Some(alg), pk_path)?;
        sk.check_against(&pk).map_err(|_| {
            Failure::error(format!(
                "{}: secret key does not belong to the public key {}",
                io::shown(&args.sk),
                io::shown(pk_path)
            ))
        })?;
    }
    let input = io::Input::open(&args.input, "message")?;
    let failed = |e| {
        Failure::error(format!(
            "{alg} signing failed: {e}{}",
            unsupported_why(alg, e, &ctx, args.deterministic)
        ))
    };
    let mut signer = sk.signer(&ctx, args.deterministic).map_err(failed)?;
    input.stream(|chunk| signer.update(chunk))?;
    let sig = signer.finalize().map_err(failed)?;
    io::write_file(&args.out, &sig, "signature")
}
