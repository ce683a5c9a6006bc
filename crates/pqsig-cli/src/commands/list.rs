//! `pqsig list`: algorithm names, one a line (with `--long`, sizes too).

use crate::cli::ListArgs;
use crate::exit::Failure;
use crate::io::Out;
use pqsig::Algorithm;

pub fn run(args: ListArgs) -> Result<(), Failure> {
    let mut out = Out::new();
    for &alg in Algorithm::ALL {
        if args.long {
            writeln!(
                out,
                "{:<18} pk {:>5} B  sk {:>5} B  sig {:>5} B",
                alg.name(),
                alg.public_key_len(),
                alg.secret_key_len(),
                alg.signature_len()
            )?;
        } else {
            writeln!(out, "{}", alg.name())?;
        }
    }
    out.flush()
}
