//! `handoff`: measure how fast two processes (or threads) on this machine hand data to each
//! other, and which placement and synchronization to use for which message size.

mod cli;
mod cli_report;
mod progress;

use clap::Parser;
use std::process::ExitCode;

/// Exit codes: 0 ok; 1 a comparison exceeded `--fail-above`; 2 bad usage (nothing ran);
/// 3 a failure while running; 130 interrupted.
pub const EXIT_USAGE: u8 = 2;
/// A failure while running.
pub const EXIT_RUNTIME: u8 = 3;
/// Ctrl-C.
pub const EXIT_INTERRUPTED: u8 = 130;

/// An error that ends the command, with its exit code.
#[derive(Debug)]
pub struct Failure {
    /// Exit code.
    pub code: u8,
    /// One line for stderr.
    pub message: String,
}

impl Failure {
    /// Bad usage: nothing ran.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    /// A failure while running.
    pub fn runtime(message: impl Into<String>) -> Self {
        Failure {
            code: EXIT_RUNTIME,
            message: message.into(),
        }
    }
}

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            eprintln!("handoff: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
