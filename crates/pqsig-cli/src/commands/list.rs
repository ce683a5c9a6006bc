//! `pqsig list`: algorithm names, one a line (with `--long`, the key-file OID and sizes).

use crate::cli::ListArgs;
use crate::exit::Failure;
use crate::io::Out;
use pqsig::keyfile::{oid_is_provisional, oid_string};
use pqsig::Algorithm;

pub fn run(args: ListArgs) -> Result<(), Failure> {
    let mut out = Out::new();
    let oid_of = |alg: Algorithm| {
        let mark = if oid_is_provisional(alg) {
            " (provisional)"
        } else {
            ""
        };
        format!("{}{mark}", oid_string(alg))
    };
    let width = Algorithm::ALL
        .iter()
        .map(|&a| oid_of(a).len())
        .max()
        .unwrap_or(0);
    for &alg in Algorithm::ALL {
        if args.long {
            writeln!(
                out,
                "{:<18} {:<width$}  pk {:>5} B  sk {:>5} B  sig {:>5} B",
                alg.name(),
                oid_of(alg),
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
