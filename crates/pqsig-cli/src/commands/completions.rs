//! `pqsig completions SHELL`: a completion script on standard output.

use crate::cli::{Cli, CompletionsArgs};
use crate::exit::Failure;
use crate::io;
use clap::CommandFactory;
use std::path::Path;

pub fn run(args: CompletionsArgs) -> Result<(), Failure> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "pqsig", &mut script);
    io::write_file(Path::new(io::STDIO), &script, "completion script")
}
