//! `mpirun -n N handoff bench pingpong|alltoall|stencil|rma-sync`: the same command on
//! every rank, the job's ranks as the team (handoff-lab's `team_session`), only rank 0
//! printing. Without the `mpi` feature, a job of more than one rank is a usage error that
//! says how to rebuild.

use handoff_lab::experiments::team_mpi::{self, TransportKind};
use handoff_lab::experiments::team_session;

use crate::Failure;

/// The job's size when this command runs under `mpirun` with more than one rank.
pub fn world() -> Option<usize> {
    team_mpi::mpi_world_size().filter(|&n| n > 1)
}

/// A rank other than 0 of such a job: it runs the plan but prints nothing.
pub fn secondary() -> bool {
    world().is_some() && team_mpi::mpi_world_rank() != 0
}

/// Runs the bench command `f` of `experiment`: as usual outside `mpirun`; inside, within
/// the job's team session (joined before `f`, finalized after), ranks other than 0 exiting
/// with rank 0's code but silently, rank 0 writing a failure of `f` before the session ends.
pub fn run(
    experiment: &'static str,
    f: impl FnOnce() -> Result<u8, Failure>,
) -> Result<u8, Failure> {
    if world().is_none() {
        return f();
    }
    team_session::start(experiment, handoff_lab::bench::registry::worker)?;
    let r = f();
    // Rank 0 writes its failure line before the team's last collective (`end`): the other
    // ranks exit as soon as that returns, and Open MPI's launcher ends the whole job at the
    // first rank that exits non-zero — rank 0 with it, its line unwritten (seen with Open
    // MPI 4.1: exit code 2 and no message).
    let printed = match &r {
        Err(f) if !secondary() => {
            crate::print_error_line(&f.message);
            true
        }
        _ => false,
    };
    let end = team_session::end(experiment);
    match r.and_then(|code| end.map(|()| code).map_err(Failure::from)) {
        // Ranks other than 0 exit silently with the same code; rank 0 wrote its line above.
        Err(f) if printed || secondary() => Ok(f.code),
        r => r,
    }
}

/// Under `mpirun`: the team size is the job's, so `--pes` may only repeat it; returns the
/// job's size (`None` outside `mpirun`).
pub fn pes(flag: Option<&str>) -> Result<Option<usize>, Failure> {
    let Some(w) = world() else { return Ok(None) };
    if let Some(text) = flag {
        if text.split(',').any(|p| p.trim().parse::<usize>() != Ok(w)) {
            return Err(Failure::usage(format!(
                "--pes {text}: under mpirun the job's {w} ranks are the team; drop --pes or \
                 start the job with `mpirun -n {text}`"
            )));
        }
    }
    Ok(Some(w))
}

/// Under `mpirun`: the transport is the job's (`HANDOFF_MPI_WINDOW` picks it), so
/// `--transport` may only be the default; returns the job's kind for the records.
pub fn transports(experiment: &'static str, text: &str) -> Result<Vec<TransportKind>, Failure> {
    let asked = TransportKind::parse_list(experiment, text)?;
    match team_session::kind() {
        None => Ok(asked),
        Some(_) if asked != [TransportKind::Shm] => Err(Failure::usage(format!(
            "--transport {text}: under mpirun the job's MPI transport serves the team; pick \
             its window with HANDOFF_MPI_WINDOW=shared|rma (mpirun -genv) instead"
        ))),
        Some(k) => Ok(vec![k]),
    }
}

/// Under `mpirun`, placement and pinning are mpirun's (`-bind-to`): a note on stderr (rank
/// 0) when such a flag was given.
pub fn note_ignored(flags: &[(&str, bool)]) {
    if world().is_none() || secondary() {
        return;
    }
    for (flag, given) in flags {
        if *given {
            eprintln!(
                "handoff: note: {flag} is ignored under mpirun (mpirun places and pins the ranks)"
            );
        }
    }
}
