//! A command that itself runs under `mpirun`: `mpirun -n N handoff bench pingpong ...`.
//!
//! Every rank runs the same command, so every rank walks the same plan in the same order.
//! [`start`] joins the job's MPI team once; each team run of the plan
//! ([`super::launcher::run_team`]) is then a *phase* on that team instead of a launch:
//!
//! 1. every rank zeroes the heap bytes the previous phase used and its counters, then a
//!    barrier (so a phase starts, like a fresh team, from zeroed memory);
//! 2. the phase's members (every rank, or a pair for ping-pong) run the experiment's PE
//!    body on a fresh [`Team`] over a [`PhaseView`] of the job's transport;
//! 3. a barrier, then every rank's output line is gathered to every rank through the heap
//!    (an allgather), so every rank computes the same results and the same exit code; only
//!    rank 0 prints them (the CLI's business).
//!
//! [`end`] finalizes the team. A rank that fails mid-phase returns its error; the others'
//! next barrier times out (the session's bound), and a team dropped without finalize ends
//! the job (`MPI_Abort`), so the job never hangs.

use std::cell::RefCell;
use std::time::Duration;

use handoff::team::{Team, TeamError, Transport};

use super::team_run::{pe_failed, PeBody, PeOutput};
use super::team_view::PhaseView;
use crate::bench::experiment::{BenchError, TransportKind, WorkerFn};

/// The bound on the session's own barriers and gathers.
const SESSION_TIMEOUT: Duration = Duration::from_secs(120);

/// The job's team and what the last phase dirtied.
struct Session {
    #[cfg(feature = "mpi")]
    team: Team<handoff_mpi::MpiTransport>,
    /// Heap bytes (from offset 0) the last phase wrote.
    dirty: usize,
    /// The current phase's members (job ranks), set by [`run_phase`].
    members: Vec<usize>,
    /// The current phase's outputs, left by the worker body for [`run_phase`].
    outputs: Option<Vec<PeOutput>>,
    /// The worker body of an experiment, by name (the registry's, given to [`start`]).
    workers: Workers,
}

/// Looks up an experiment's worker body by name (the CLI passes the registry's).
pub type Workers = fn(&str) -> Option<WorkerFn>;

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Whether a session runs on this thread.
pub fn active() -> bool {
    SESSION.with(|s| s.borrow().is_some())
}

/// Joins the job's team (once; later calls do nothing); each phase runs the worker body
/// `workers` gives for its experiment. Without the `mpi` feature: the usage error that says
/// how to rebuild.
pub fn start(experiment: &'static str, workers: Workers) -> Result<(), BenchError> {
    if active() {
        return Ok(());
    }
    #[cfg(feature = "mpi")]
    {
        let mut team = handoff_mpi::join().map_err(|e| {
            BenchError::failed(experiment, format!("joining the MPI job's team: {e}"))
        })?;
        team.set_patience(team.patience().with_timeout(Some(SESSION_TIMEOUT)))
            .map_err(|e| BenchError::failed(experiment, format!("the MPI job's team: {e}")))?;
        SESSION.with(|s| {
            *s.borrow_mut() = Some(Session {
                team,
                dirty: 0,
                members: Vec::new(),
                outputs: None,
                workers,
            })
        });
        Ok(())
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = workers;
        Err(BenchError::usage(
            experiment,
            crate::bench::experiment::NO_MPI,
        ))
    }
}

/// This rank and the job's size, while a session runs.
pub fn world() -> Option<(usize, usize)> {
    #[cfg(feature = "mpi")]
    return SESSION.with(|s| s.borrow().as_ref().map(|s| (s.team.rank(), s.team.size())));
    #[cfg(not(feature = "mpi"))]
    None
}

/// The transport that serves the job's pairs, as a [`TransportKind`]
/// (`mpi-rma` when any pair goes through MPI RMA calls, else `mpi-shm`), while a session
/// runs.
pub fn kind() -> Option<TransportKind> {
    #[cfg(feature = "mpi")]
    return SESSION.with(|s| {
        s.borrow().as_ref().map(|s| {
            let t = &s.team;
            if (0..t.size())
                .any(|pe| pe != t.rank() && t.route(pe) == Some(handoff::team::Route::MpiRma))
            {
                TransportKind::MpiRma
            } else {
                TransportKind::MpiShm
            }
        })
    });
    #[cfg(not(feature = "mpi"))]
    None
}

/// Ends the session: finalizes the job's team (a barrier of every rank).
pub fn end(experiment: &'static str) -> Result<(), BenchError> {
    let Some(s) = SESSION.with(|s| s.borrow_mut().take()) else {
        return Ok(());
    };
    #[cfg(feature = "mpi")]
    s.team
        .finalize()
        .map_err(|e| BenchError::failed(experiment, format!("finalizing the MPI team: {e}")))?;
    let _ = (s.dirty, experiment);
    Ok(())
}

/// Runs one team run as a phase: sets the members (`members` job ranks; empty: every
/// rank), calls `experiment`'s worker body with `spec` (which lands in [`phase`]), and
/// returns the members' outputs, by member rank — the same on every rank.
pub fn run_phase(
    experiment: &'static str,
    spec: &str,
    members: Vec<usize>,
) -> Result<Vec<PeOutput>, BenchError> {
    let workers = SESSION.with(|s| {
        let mut s = s.borrow_mut();
        let s = s.as_mut()?;
        s.members = members;
        s.outputs = None;
        Some(s.workers)
    });
    let worker = workers
        .and_then(|w| w(experiment))
        .ok_or_else(|| BenchError::failed(experiment, "no worker body to run under mpirun"))?;
    worker(&[spec.to_string()])?;
    SESSION
        .with(|s| s.borrow_mut().as_mut().and_then(|s| s.outputs.take()))
        .ok_or_else(|| BenchError::failed(experiment, "the phase left no outputs"))
}

/// Inside [`run_phase`], from the worker body: runs `spec` as this session's phase.
#[cfg(feature = "mpi")]
pub fn phase<B: PeBody>(spec: &B) -> Result<(), BenchError> {
    SESSION.with(|cell| {
        let mut guard = cell.borrow_mut();
        let s = guard
            .as_mut()
            .ok_or_else(|| BenchError::failed(B::NAME, "no MPI session"))?;
        let outs = phase_on(s.team.transport(), s.dirty, &s.members, spec)?;
        s.dirty = outs.1;
        s.outputs = Some(outs.0);
        Ok(())
    })
}

/// Inside [`run_phase`] without the `mpi` feature: never reached ([`start`] fails first).
#[cfg(not(feature = "mpi"))]
pub fn phase<B: PeBody>(_spec: &B) -> Result<(), BenchError> {
    Err(BenchError::usage(B::NAME, crate::bench::experiment::NO_MPI))
}

/// The phase on transport `x`: clean, run, gather. Returns the members' outputs and the
/// heap bytes this phase used.
pub fn phase_on<X: Transport, B: PeBody>(
    x: &X,
    dirty: usize,
    members: &[usize],
    spec: &B,
) -> Result<(Vec<PeOutput>, usize), BenchError> {
    let e = |err: TeamError| pe_failed(B::NAME, err);
    let members: Vec<usize> = if members.is_empty() {
        (0..x.size()).collect()
    } else {
        members.to_vec()
    };
    let mut all = Team::new(PhaseView::all(x));
    all.set_patience(all.patience().with_timeout(Some(SESSION_TIMEOUT)))
        .map_err(e)?;
    // 1. Clean: no PE touches the heap between the previous phase's last barrier and this
    //    one's first.
    let dirty = dirty.min(x.heap_len());
    // SAFETY: the local heap partition is heap_len() bytes, valid as long as the
    // transport; `dirty` is clamped to it; between the previous phase's final barrier and
    // the barrier below no PE reads or writes this PE's heap, so nothing races the stores.
    unsafe { std::ptr::write_bytes(x.local_heap(), 0, dirty) };
    for ct in 0..handoff::team::MAX_COUNTERS {
        x.counter_set(ct, 0);
    }
    all.barrier_all().map_err(e)?;
    // 2. Run.
    let mut used = 0;
    let mine = match PhaseView::new(x, members.clone()) {
        Some(view) => {
            let mut team = Team::new(view);
            let out = super::team_run::run_body(&mut team, spec)?;
            team.quiet();
            used = team.heap_len() - team.heap_free();
            serde_json::to_vec(&out).unwrap_or_default()
        }
        None => Vec::new(),
    };
    all.barrier_all().map_err(e)?;
    // 3. Gather every rank's line to every rank.
    let (lines, gathered) = allgather(&all, &mine).map_err(e)?;
    let outs = members
        .iter()
        .map(|&r| {
            serde_json::from_slice::<PeOutput>(&lines[r]).map_err(|err| {
                BenchError::failed(
                    B::NAME,
                    format!("rank {r}'s output did not arrive whole: {err}"),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((outs, used.max(gathered)))
}

/// Every rank's `bytes`, by rank, through the heap from offset 0; and the heap bytes used.
fn allgather<X: Transport>(
    team: &Team<X>,
    bytes: &[u8],
) -> Result<(Vec<Vec<u8>>, usize), TeamError> {
    let (n, me) = (team.size(), team.rank());
    let lens = team.alloc::<u64>(n)?;
    for pe in 0..n {
        team.put(&lens, me, &[bytes.len() as u64], pe)?;
    }
    team.barrier_all()?;
    let len: Vec<usize> = team.local(&lens).iter().map(|&l| l as usize).collect();
    let words = len.iter().copied().max().unwrap_or(0).div_ceil(8).max(1);
    let data = team.alloc::<u64>(n * words)?;
    let mut src = vec![0u64; words];
    bytemuck::cast_slice_mut::<u64, u8>(&mut src)[..bytes.len()].copy_from_slice(bytes);
    for pe in 0..n {
        team.put(&data, me * words, &src, pe)?;
    }
    team.barrier_all()?;
    let local = team.local(&data);
    let out = (0..n)
        .map(|r| {
            let w = &local[r * words..(r + 1) * words];
            bytemuck::cast_slice::<u64, u8>(w)[..len[r].min(words * 8)].to_vec()
        })
        .collect();
    Ok((out, team.heap_len() - team.heap_free()))
}
