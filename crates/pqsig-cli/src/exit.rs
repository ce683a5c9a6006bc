//! Exit codes and the error type every command returns. The only place codes are chosen.
//!
//! | code | meaning |
//! |------|---------|
//! | 0    | success (`verify`: the signature is valid; `demo`: every check passed) |
//! | 1    | `verify`: the signature is invalid (malformed or not verifying); `verify-batch`: an item is invalid or undecodable; `demo`: a check failed |
//! | 2    | any other error: bad arguments, a command not built in (`--no-default-features`), unreadable/unwritable file, wrong key length or encoding, bad hex, context longer than 255 bytes, unknown algorithm, backend or device, a `verify-batch` line that is not a JSON object, internal error |

use std::fmt;
use std::process::ExitCode;

/// The command did what was asked.
pub const SUCCESS: u8 = 0;
/// A negative answer: the signature does not verify, or a demo self-check failed.
pub const INVALID: u8 = 1;
/// Anything else went wrong (usage, I/O, malformed keys or inputs, ...).
pub const ERROR: u8 = 2;

/// How a command ended when it did not succeed: an exit code and a one-line message
/// (printed to stderr as `pqsig: <message>`; an empty message prints nothing).
#[derive(Debug)]
pub struct Failure {
    code: u8,
    message: String,
}

impl Failure {
    /// A usage, I/O or input error (exit code 2).
    pub fn error(message: impl Into<String>) -> Self {
        Failure {
            code: ERROR,
            message: message.into(),
        }
    }

    /// A negative verdict (exit code 1).
    pub fn invalid(message: impl Into<String>) -> Self {
        Failure {
            code: INVALID,
            message: message.into(),
        }
    }

    /// A command this build left out (`feature` was off when pqsig was compiled): a usage
    /// error, exit code 2, saying how to get a build that has it.
    #[cfg_attr(feature = "server", allow(dead_code))]
    pub fn not_built_in(command: &str, feature: &str) -> Self {
        Failure::error(format!(
            "`pqsig {command}` is not built in: this pqsig was compiled without the cargo \
             feature `{feature}` (rebuild with default features, e.g. `cargo install \
             pqsig-cli`, or with `--features {feature}`)"
        ))
    }

    /// Exit with code 2 but print nothing (e.g. stdout was closed by `| head`).
    pub fn silent() -> Self {
        Failure {
            code: ERROR,
            message: String::new(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Prints the failure (if it has a message) and converts it into the process exit code.
pub fn report(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::from(SUCCESS),
        Err(f) => {
            if !f.message.is_empty() {
                // One line, whatever the message contains.
                let line = f.message.replace('\n', " ");
                eprintln!("pqsig: {line}");
            }
            ExitCode::from(f.code)
        }
    }
}

/// Maps a clap parse outcome: `--help`/`--version` exit 0 (printed to stdout), any
/// argument error exits 2 (printed to stderr by clap).
pub fn from_clap(err: clap::Error) -> ExitCode {
    let _ = err.print();
    if err.use_stderr() {
        ExitCode::from(ERROR)
    } else {
        ExitCode::from(SUCCESS)
    }
}
