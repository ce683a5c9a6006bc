//! `pqsig pubkey`: the public key belonging to a private key file (any format).

use super::{encode_public, load_secret_key};
use crate::cli::PubkeyArgs;
use crate::exit::Failure;
use crate::io;

pub fn run(args: PubkeyArgs) -> Result<(), Failure> {
    let sk = load_secret_key(args.alg, &args.sk)?;
    let alg = sk.algorithm();
    let pk = encode_public(alg, sk.verifying_key().to_bytes(), args.format)?;
    io::write_file(&args.out, &pk, "public key")
}
