//! `pqsig verify`: exit 0 if the signature is valid, 1 if it is not (malformed or not
//! verifying), 2 on any other error. Nothing is printed on success. The message is
//! streamed (1 MiB at a time), so files of any size verify in constant memory.

use super::{context, load_public_key, malformed_why, unsupported_why};
use crate::cli::VerifyArgs;
use crate::exit::Failure;
use crate::io;
use pqsig::Error;

pub fn run(args: VerifyArgs) -> Result<(), Failure> {
    let ctx = context(args.ctx.as_deref())?;
    // Without --alg the key file names the algorithm.
    let pk = load_public_key(args.alg, &args.pk)?;
    let alg = pk.algorithm();
    if args.input.as_os_str() == io::STDIO && args.sig.as_os_str() == io::STDIO {
        return Err(Failure::error(
            "--in and --sig: only one of them can be standard input (-)",
        ));
    }
    // The message is opened first (its errors come first, as before streaming), the
    // signature read whole (it is small), then the message streamed through the verifier.
    let input = io::Input::open(&args.input, "message")?;
    let sig = io::read_file(&args.sig, "signature")?;
    let verdict = match pk.verifier(&ctx, &sig) {
        Ok(mut v) => {
            input.stream(|chunk| v.update(chunk))?;
            v.finalize()
        }
        Err(e) => Err(e),
    };
    match verdict {
        Ok(()) => Ok(()),
        Err(Error::VerificationFailed) => Err(Failure::invalid(format!(
            "{}: invalid signature: does not verify for this message, key and context",
            io::shown(&args.sig)
        ))),
        Err(Error::InvalidSignature) => Err(Failure::invalid(format!(
            "{}: invalid signature: {}",
            io::shown(&args.sig),
            malformed_why(alg, sig.len())
        ))),
        Err(e) => Err(Failure::error(format!(
            "{alg} verification error: {e}{}",
            unsupported_why(alg, e, &ctx, false)
        ))),
    }
}
