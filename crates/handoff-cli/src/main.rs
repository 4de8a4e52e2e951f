//! `handoff`: measure how fast two processes (or threads) on this machine hand data to each
//! other, and which placement and synchronization to use for which message size.

mod bench_aggregation;
mod bench_alltoall;
mod bench_atomics;
mod bench_channels;
mod bench_kneighbor;
mod bench_malloc;
mod bench_msgrate;
mod bench_pingpong;
mod bench_private_vars;
mod bench_queue;
mod bench_rma_channels;
mod bench_rma_sync;
mod bench_stencil;
mod cli;
mod cli_bench;
mod cli_report;
mod cli_rt;
mod common;
mod mpi_bench;
mod progress;
mod run;
mod run_claim;
mod run_heap;
mod run_map;
mod signals;

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

/// Exit codes: 0 ok; 1 a comparison exceeded `--fail-above`; 2 bad usage (nothing ran);
/// 3 a failure while running; 128 + the signal when a signal stopped it (130 Ctrl-C, 143
/// SIGTERM, 129 SIGHUP: `signals`).
pub const EXIT_USAGE: u8 = 2;
/// A failure while running.
pub const EXIT_RUNTIME: u8 = 3;

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

/// The lab's errors and their exit codes, in one place: bad input the user can fix before
/// anything runs is usage (2); a failure while measuring or writing is runtime (3). The
/// message is the error's own. Not here, because the code depends on the step, not the type:
/// `OutputError` (a bad `--output` path or `--format` is usage, a failed write runtime) and a
/// worker's `RunError` (runtime, with the prefix `worker:`).
macro_rules! exit_code_of {
    ($($error:ty => $code:ident),* $(,)?) => {
        $(impl From<$error> for Failure {
            fn from(e: $error) -> Failure {
                Failure {
                    code: $code,
                    message: e.to_string(),
                }
            }
        })*
    };
}

exit_code_of! {
    handoff_lab::experiments::exchange::ModeError => EXIT_USAGE,
    handoff_lab::experiments::exchange::ConfigError => EXIT_USAGE,
    handoff_lab::experiments::exchange::memory::MemoryError => EXIT_USAGE,
    handoff_lab::kernels::KernelError => EXIT_USAGE,
    handoff_lab::units::SizeError => EXIT_USAGE,
    handoff_lab::bench::load::LoadError => EXIT_USAGE,
    handoff_lab::report::plan::OutDirError => EXIT_USAGE,
    handoff_lab::report::ReportError => EXIT_RUNTIME,
}

/// Writes `handoff: MESSAGE` and a newline to stderr in one `write(2)` call (formatted
/// first), so the lines of processes sharing a stderr (a team's PEs, their launcher) never
/// interleave mid-line as `eprintln!`'s piecewise writes can (a pipe keeps one write of up
/// to `PIPE_BUF` bytes whole).
fn print_error_line(message: &str) {
    let line = format!("handoff: {message}\n");
    // Stderr is unbuffered: one `write_all` of the whole line is one write(2) unless the
    // kernel takes it only in part; a failed write of a diagnostic has no remedy.
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            print_error_line(&f.message);
            ExitCode::from(f.code)
        }
    }
}
