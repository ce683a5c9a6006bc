//! The arguments of a command left out of this build (a cargo feature was off): any
//! arguments at all, `--help` included, so that every use of the command reaches
//! `commands::run` and ends with the one "not built in" error (exit 2) instead of a
//! confusing "unrecognized subcommand".

use clap::Args;
use std::ffi::OsString;

#[derive(Debug, Args)]
#[command(disable_help_flag = true)]
pub struct NotBuiltArgs {
    /// Ignored: the command is not built in.
    #[arg(num_args = 0.., trailing_var_arg = true, allow_hyphen_values = true,
          value_name = "ARGS", hide = true)]
    pub args: Vec<OsString>,
}
