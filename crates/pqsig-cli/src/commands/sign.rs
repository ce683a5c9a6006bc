//! `pqsig sign`: pure signing of a file, hedged by default.

use super::{context, load_public_key, load_secret_key, unsupported_why};
use crate::cli::SignArgs;
use crate::exit::Failure;
use crate::io;
use crate::scheme::Signing;

pub fn run(args: SignArgs) -> Result<(), Failure> {
    let alg = args.alg;
    let ctx = context(args.ctx.as_deref())?;
    let sk = load_secret_key(alg, &args.sk)?;
    if let Some(pk_path) = &args.pk {
        let pk = load_public_key(alg, pk_path)?;
        sk.check_against(&pk).map_err(|_| {
            Failure::error(format!(
                "{}: secret key does not belong to the public key {}",
                io::shown(&args.sk),
                io::shown(pk_path)
            ))
        })?;
    }
    let msg = io::read_file(&args.input, "message")?;
    let mode = if args.deterministic {
        Signing::Deterministic
    } else {
        Signing::Hedged
    };
    let sig = sk.sign(&msg, &ctx, mode).map_err(|e| {
        Failure::error(format!(
            "{alg} signing failed: {e}{}",
            unsupported_why(alg, e, &ctx, args.deterministic)
        ))
    })?;
    io::write_file(&args.out, &sig, "signature")
}
