//! `pqsig`: the command-line front end of the pqsig library.
//!
//! Layout: `cli` (argument syntax), `commands/*` (one module per subcommand), `io`
//! (files, hex, stdout), `exit` (exit codes). Every per-algorithm decision is the
//! library's (`pqsig::any`): nothing here matches on an algorithm family.

mod cli;
mod commands;
mod exit;
mod io;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    install_panic_hook();
    // `--features hw-sim`: the simulated NTT accelerator and the simulated Falcon FFT
    // engine join the device list (before the command line is checked, so `--device
    // rtl-ntt` / `--device rtl-falcon` resolve).
    #[cfg(feature = "hw-sim")]
    if let Err(e) = pqsig_hwsim::register() {
        eprintln!("pqsig: rtl-ntt not registered: {e}");
    }
    #[cfg(feature = "hw-sim")]
    if let Err(e) = pqsig_hwsim::falcon_device::register() {
        eprintln!("pqsig: rtl-falcon not registered: {e}");
    }
    let cli = match cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return exit::from_clap(e),
    };
    match std::panic::catch_unwind(|| commands::run(cli)) {
        Ok(result) => exit::report(result),
        // The hook already printed a one-line message.
        Err(_) => ExitCode::from(exit::ERROR),
    }
}

/// A panic is a bug; report it on one line and let `main` exit with code 2.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".to_string());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "pqsig: internal error (a bug, please report): {}{at}",
            msg.replace('\n', " ")
        );
    }));
}
