//! `handoff run`: start a team of N processes (PEs) of one program, as `oshrun`/`mpirun` do.
//!
//! Each PE gets `HANDOFF_TEAM`, `HANDOFF_RANK`, `HANDOFF_SIZE`, `HANDOFF_WAIT` (and
//! `HANDOFF_CPU` when pinned) and joins with `handoff::team::Team::from_env()`. By default each
//! PE is pinned to a CPU of its own that no other running launcher holds (`run_claim`), when
//! that many are free; `--map none` leaves them unpinned. The launcher
//! waits for all; when one fails it ends the team, prints one line and exits non-zero; the
//! team's segment never outlives it.
//!
//! Exit codes (distinct per cause, so scripts can tell them apart):
//!
//! | code | meaning |
//! |---|---|
//! | 0 | every PE exited with 0 |
//! | 2 | bad usage, nothing started: `-n` 0 or above the limit, a bad `--cores`/`--map`/`--wait`/`--heap`/`--timeout`/`--join-timeout` (or `HANDOFF_JOIN_TIMEOUT`), a heap of 0, a CPU that does not exist, not enough shared memory |
//! | 3 | the launcher itself failed (creating the segment, waiting), `--timeout` passed (the line names the PEs still running, a stopped one as not responding), or a PE did not join within `--join-timeout` (the line names the PEs that joined and those that did not) |
//! | 4 | a PE exited with a non-zero code (the line names the PE and the code; or, when a PE that exited 0 had left early while the others needed it, that PE first) |
//! | 5 | a PE was killed by a signal (the line names the PE and the signal) |
//! | s | a PE ended the program with `shmem_global_exit(s)` (`Team::global_exit`; s modulo 256) |
//! | 126 | the program exists but cannot be executed |
//! | 127 | the program does not exist |
//! | 129, 130, 143 | the launcher got SIGHUP, SIGINT or SIGTERM: it forwarded it to every PE and ended the team |
//!
//! A team never outlives its launcher (see `handoff::team::Launch`): PEs run in their own
//! process groups, die with the launcher even when it is SIGKILLed, and the segment goes too.

use clap::Args;
use handoff::sync::Wait;
use handoff::team::{Launch, PeStatus, Placement, TeamError, MAX_DURATION, MAX_PES};

use crate::run_claim::Claims;
use std::ffi::OsString;
use std::time::Duration;

use crate::{Failure, EXIT_RUNTIME, EXIT_USAGE};

/// A PE exited with a non-zero code.
pub const EXIT_PE_FAILED: u8 = 4;
/// A PE was killed by a signal.
pub const EXIT_PE_KILLED: u8 = 5;
/// The program cannot be executed.
pub const EXIT_NOT_EXECUTABLE: u8 = 126;
/// The program does not exist.
pub const EXIT_NOT_FOUND: u8 = 127;

/// `handoff run -n N [--cores LIST | --map compact|spread|none] [--wait W] [--heap SIZE] [--timeout SECONDS] [--join-timeout DURATION] -- PROGRAM ARGS`
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Number of PEs (processes) to start.
    #[arg(short = 'n', long = "np", value_name = "N")]
    n: usize,
    /// Pin PE r to the r-th CPU of this list (wrapping), e.g. 0-3 or 0,2,4.
    #[arg(long, value_name = "LIST", conflicts_with = "map")]
    cores: Option<String>,
    /// Pin by the CPUs' placement classes: compact (nearest first: SMT sibling, shared
    /// cache, package) or spread (farthest first: NUMA node, package, L3 domain); none:
    /// unpinned. Default: one PE per CPU on CPUs no other running `handoff run` holds, in
    /// id order, when that many are free; else unpinned.
    #[arg(long, value_name = "compact|spread|none")]
    map: Option<String>,
    /// How PEs wait: spin, spin-yield, block or adaptive (default).
    #[arg(long, default_value = "adaptive")]
    wait: String,
    /// Symmetric heap per PE, e.g. 64M (default: $SHMEM_SYMMETRIC_SIZE, else
    /// $HANDOFF_HEAP_SIZE, else 256M bounded by the free shared memory per PE), plus the
    /// program's static data (handoff-shmem moves global variables into the heap).
    #[arg(long, value_name = "SIZE")]
    heap: Option<String>,
    /// End the team if it has not finished within this many seconds (exit 3); the line
    /// names the PEs still running and what each waits for (a barrier waiting for PE r, a
    /// signal on its heap), and a PE that is stopped (SIGSTOP, Ctrl-Z) as not responding.
    /// Default: no limit.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// How long after the start every PE must have called shmem_init (joined the team), once
    /// one has, e.g. 90s or 5m (default: $HANDOFF_JOIN_TIMEOUT, else 30s); a PE that reads
    /// its input for longer first needs more.
    #[arg(long, value_name = "DURATION")]
    join_timeout: Option<String>,
    /// The program and its arguments, after `--`.
    #[arg(required = true, last = true, value_name = "PROGRAM ARGS")]
    command: Vec<OsString>,
}

/// Runs the team; the exit code or the one-line failure.
pub fn run(a: RunArgs) -> Result<u8, Failure> {
    // `_claims`: the CPUs this launcher pinned its PEs to by default, held until it returns.
    let (launch, _claims) = launch_of(&a)?;
    // SIGINT, SIGTERM and SIGHUP sent to the launcher (to its pid, or to its terminal's
    // process group): `wait_interruptible` forwards them to the PEs.
    crate::signals::catch();
    let report = launch
        .spawn()
        .map_err(|e| failure(e, &a.command[0]))?
        .wait_interruptible(&crate::signals::SIGNAL)
        .map_err(|e| match e {
            TeamError::Interrupted { signal } => Failure {
                code: crate::signals::exit_code(signal),
                message: format!("run: {e}"),
            },
            // The core names its option; here it is the flag.
            _ => Failure::runtime(format!("run: {e}").replace("Launch::timeout", "--timeout")),
        })?;
    if let Some((r, status)) = report.global_exit.filter(|&(_, s)| s != 0) {
        // shmem_global_exit(status): the program's own status, as other launchers return it.
        return Err(Failure {
            code: (status & 0xff) as u8,
            message: format!("run: PE {r} ended the program with global exit status {status}"),
        });
    }
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

fn launch_of(a: &RunArgs) -> Result<(Launch, Option<Claims>), Failure> {
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
    let mut claims = None;
    let placement = match (&a.cores, &a.map) {
        (Some(list), _) => match list.parse::<Placement>().map_err(usage)? {
            Placement::Cores(c) => Placement::Cores(c),
            _ => {
                return Err(Failure::usage(format!(
                    "run: --cores takes a CPU list such as 0-3; for {list:?} use --map"
                )))
            }
        },
        (None, Some(m)) if m == "none" => Placement::Unpinned,
        (None, Some(m)) => {
            crate::run_map::placement(m, a.n).map_err(|e| Failure::usage(format!("run: {e}")))?
        }
        (None, None) => {
            let allowed = handoff::sys::allowed_cpus().unwrap_or_default();
            let (placement, held) = crate::run_claim::default_placement(a.n, &allowed);
            claims = held;
            placement
        }
    };
    let cpus = placement.cpus(a.n).map_err(usage)?;
    let wait: Wait = a
        .wait
        .parse()
        .map_err(|e| Failure::usage(format!("run: --wait: {e}")))?;
    let available = std::thread::available_parallelism().map_or(1, |n| n.get());
    handoff::implementor::check_spin(wait, a.n, &cpus, available)
        .map_err(|e| Failure::usage(format!("run: {e}")))?;
    let mut launch = Launch::new(a.n)
        .cores(placement)
        .wait(wait)
        .program(&a.command[0])
        .args(&a.command[1..]);
    if let Some(t) = a.timeout {
        let limit = Duration::try_from_secs_f64(t)
            .ok()
            .filter(|d| !d.is_zero() && *d <= MAX_DURATION)
            .ok_or_else(|| {
                Failure::usage(format!(
                    "run: --timeout {t}: give seconds above 0 and at most {} (a year)",
                    MAX_DURATION.as_secs()
                ))
            })?;
        launch = launch.timeout(limit);
    }
    if let Some(t) = &a.join_timeout {
        let limit = handoff::team::parse_duration(t)
            .map_err(|e| Failure::usage(format!("run: --join-timeout: {e}")))?;
        launch = launch.join_timeout(limit);
    }
    // One size rule for every command (`handoff_probe::units`), in `run_heap`.
    if let Some(h) = crate::run_heap::heap_of(a.heap.as_deref(), a.n, &a.command[0])? {
        launch = launch.heap(h);
    }
    Ok((launch, claims))
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
