//! `handoff run`: start a team of N processes (PEs) of one program, as `oshrun`/`mpirun` do.
//!
//! Each PE gets `HANDOFF_TEAM`, `HANDOFF_RANK`, `HANDOFF_SIZE`, `HANDOFF_WAIT` (and
//! `HANDOFF_CPU` when pinned) and joins with `handoff::team::Team::from_env()`. The launcher
//! waits for all; when one fails it ends the team, prints one line and exits non-zero; the
//! team's segment never outlives it.
//!
//! Exit codes (distinct per cause, so scripts can tell them apart):
//!
//! | code | meaning |
//! |---|---|
//! | 0 | every PE exited with 0 |
//! | 2 | bad usage, nothing started: `-n` 0 or above the limit, a bad `--cores`/`--map`/`--wait`/`--heap`, a CPU that does not exist, not enough shared memory |
//! | 3 | the launcher itself failed (creating the segment, waiting) |
//! | 4 | a PE exited with a non-zero code (the line names the PE and the code) |
//! | 5 | a PE was killed by a signal (the line names the PE and the signal) |
//! | 126 | the program exists but cannot be executed |
//! | 127 | the program does not exist |

use clap::Args;
use handoff::sync::Wait;
use handoff::team::{Launch, PeStatus, Placement, TeamError, MAX_PES};
use std::ffi::OsString;

use crate::common::install_interrupt_handler;
use crate::{Failure, EXIT_RUNTIME, EXIT_USAGE};

/// A PE exited with a non-zero code.
pub const EXIT_PE_FAILED: u8 = 4;
/// A PE was killed by a signal.
pub const EXIT_PE_KILLED: u8 = 5;
/// The program cannot be executed.
pub const EXIT_NOT_EXECUTABLE: u8 = 126;
/// The program does not exist.
pub const EXIT_NOT_FOUND: u8 = 127;

/// `handoff run -n N [--cores LIST | --map compact|spread] [--wait W] [--heap SIZE] -- PROGRAM ARGS`
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Number of PEs (processes) to start.
    #[arg(short = 'n', long = "np", value_name = "N")]
    n: usize,
    /// Pin PE r to the r-th CPU of this list (wrapping), e.g. 0-3 or 0,2,4.
    #[arg(long, value_name = "LIST", conflicts_with = "map")]
    cores: Option<String>,
    /// Pin by map: compact (consecutive CPUs) or spread (evenly over the CPUs).
    #[arg(long, value_name = "compact|spread")]
    map: Option<String>,
    /// How PEs wait: spin, spin-yield, block or adaptive (default).
    #[arg(long, default_value = "adaptive")]
    wait: String,
    /// Symmetric heap per PE, e.g. 64M (default: $HANDOFF_HEAP_SIZE or 64M).
    #[arg(long, value_name = "SIZE")]
    heap: Option<String>,
    /// The program and its arguments, after `--`.
    #[arg(required = true, last = true, value_name = "PROGRAM ARGS")]
    command: Vec<OsString>,
}

/// Runs the team; the exit code or the one-line failure.
pub fn run(a: RunArgs) -> Result<u8, Failure> {
    let launch = launch_of(&a)?;
    install_interrupt_handler(); // Ctrl-C reaches the PEs; the launcher cleans up after them.
    let report = launch
        .spawn()
        .map_err(|e| failure(e, &a.command[0]))?
        .wait()
        .map_err(|e| Failure::runtime(format!("run: {e}")))?;
    match report.first_failure {
        None => Ok(0),
        Some(r) => {
            let exit = &report.exits[r];
            let code = match exit.status {
                PeStatus::Signaled(_) => EXIT_PE_KILLED,
                _ => EXIT_PE_FAILED,
            };
            let e = report.into_result().expect_err("a PE failed");
            Err(Failure {
                code,
                message: format!("run: {e}"),
            })
        }
    }
}

fn launch_of(a: &RunArgs) -> Result<Launch, Failure> {
    if a.n == 0 || a.n > MAX_PES {
        return Err(Failure::usage(format!(
            "run: {}",
            TeamError::TeamSize {
                n: a.n,
                max: MAX_PES
            }
        )));
    }
    let usage = |e: TeamError| Failure::usage(format!("run: {e}"));
    let placement = match (&a.cores, &a.map) {
        (Some(list), _) => match list.parse::<Placement>().map_err(usage)? {
            Placement::Cores(c) => Placement::Cores(c),
            _ => {
                return Err(Failure::usage(format!(
                    "run: --cores takes a CPU list such as 0-3; for {list:?} use --map"
                )))
            }
        },
        (None, Some(m)) if m == "compact" => Placement::Compact,
        (None, Some(m)) if m == "spread" => Placement::Spread,
        (None, Some(m)) => {
            return Err(Failure::usage(format!(
                "run: unknown --map {m:?}: use compact or spread (or --cores LIST)"
            )))
        }
        (None, None) => Placement::Unpinned,
    };
    placement.cpus(a.n).map_err(usage)?;
    let wait: Wait = a
        .wait
        .parse()
        .map_err(|e| Failure::usage(format!("run: --wait: {e}")))?;
    let mut launch = Launch::new(a.n)
        .cores(placement)
        .wait(wait)
        .program(&a.command[0])
        .args(&a.command[1..]);
    if let Some(h) = &a.heap {
        let bytes = handoff_probe::units::parse_size(h)
            .map_err(|e| Failure::usage(format!("--heap: {e}")))?;
        launch = launch.heap(bytes);
    }
    Ok(launch)
}

/// The failure for an error starting the team.
fn failure(e: TeamError, program: &OsString) -> Failure {
    let code = match &e {
        TeamError::Spawn { source, .. } => match source.kind() {
            std::io::ErrorKind::NotFound => EXIT_NOT_FOUND,
            std::io::ErrorKind::PermissionDenied => EXIT_NOT_EXECUTABLE,
            _ => EXIT_RUNTIME,
        },
        TeamError::NoSpace { .. }
        | TeamError::CpuUnavailable { .. }
        | TeamError::TeamSize { .. }
        | TeamError::InvalidArgument(_)
        | TeamError::BadEnv { .. } => EXIT_USAGE,
        _ => EXIT_RUNTIME,
    };
    let message = match &e {
        TeamError::Spawn { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            format!(
                "run: no program {:?}: give a path to an executable (or a name on $PATH)",
                program
            )
        }
        _ => format!("run: {e}"),
    };
    Failure { code, message }
}
