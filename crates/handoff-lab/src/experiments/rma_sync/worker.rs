//! One PE of an `rma-sync` run (`handoff __worker rma-sync SPEC`, started by
//! `team::Launch` or mpiexec, or a phase under mpirun — `launcher::worker_main`): joins
//! the team, times `reps` + 1 repetitions of `iters` synchronizations of `mode` (the first
//! is warm-up), verifies every value it moved, and prints its output line; rank 0's samples
//! and verdict are the run's.
//!
//! Every mode moves data and checks it: a put of a value unique to (iteration, rank) into a
//! neighbour, read back after the synchronization (fence: by the neighbour; PSCW: by the
//! target after `wait`; locks and flush: by the origin with a `get` inside the epoch). Each
//! PE counts the values it compared and the wrong ones in its output line; the run's record
//! sums every PE's counts (`Checks`: verified = at least one checked, none wrong).

use std::time::{Duration, Instant};

use handoff::team::{Epochs, LockKind};
use handoff::team::{Sym, Team, TeamError, Transport};

use super::super::team_run::{self, PeOutput};
use super::{Mode, NAME};
use crate::bench::Checks;

/// The value PE `from` moves in iteration `r` (an independent oracle both sides compute).
fn value(r: u64, from: usize) -> u64 {
    (r.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((from as u64) << 48) ^ 0x5A5A).rotate_left(11)
}

/// What every PE of a run runs (the worker's JSON spec).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct WorkerSpec {
    pub mode: Mode,
    /// The group size (pscw-k).
    pub k: usize,
    /// Synchronizations per repetition.
    pub iters: u64,
    /// Timed repetitions (after one warm-up).
    pub reps: u64,
    /// PE 0 puts one wrong value.
    pub fault: bool,
}

team_run::pe_body!(WorkerSpec, run, Duration::from_secs(60));

struct Pe<'t, X: Transport> {
    team: &'t Team<X>,
    ep: Epochs<'t, X>,
    win: Sym<u64>,
    me: usize,
    p: usize,
    k: usize,
    fault: bool,
    /// The iteration whose value the fault corrupts.
    fault_at: u64,
}

fn run<X: Transport>(team: &Team<X>, spec: &WorkerSpec) -> Result<PeOutput, TeamError> {
    let (mode, k, iters, reps, fault) = (spec.mode, spec.k, spec.iters, spec.reps, spec.fault);
    let (me, p) = (team.rank(), team.size());
    let win = team.alloc::<u64>(p.max(2) + k)?;
    let mut ep = Epochs::new(team)?;
    ep.set_patience(ep.patience().with_timeout(Some(Duration::from_secs(60))))?;
    let mut pe = Pe {
        team,
        ep,
        win,
        me,
        p,
        k,
        fault,
        fault_at: iters * reps.div_ceil(2) + iters / 2 + 1,
    };
    let mut checks = Checks::of("values");
    let mut samples = Vec::new();
    if mode == Mode::Flush {
        pe.ep.lock_all()?;
    }
    for rep in 0..=reps {
        team.barrier_all()?;
        let t0 = Instant::now();
        for i in 0..iters {
            pe.step(mode, rep * iters + i + 1, &mut checks)?;
        }
        let us = t0.elapsed().as_secs_f64() * 1e6 / iters as f64;
        if rep > 0 {
            samples.push(us);
        }
    }
    if mode == Mode::Flush {
        pe.ep.unlock_all()?;
    }
    pe.ep.fence()?;
    pe.ep.close()?;
    Ok(PeOutput::counted(me, samples, checks.checked, checks.wrong))
}

impl<X: Transport> Pe<'_, X> {
    /// What this PE puts in iteration `r` (wrong once when faulting).
    fn mine(&self, r: u64) -> u64 {
        let v = value(r, self.me);
        if self.fault && self.me == 0 && r == self.fault_at {
            v ^ 1
        } else {
            v
        }
    }

    fn right(&self, j: usize) -> usize {
        (self.me + j) % self.p
    }

    fn left(&self, j: usize) -> usize {
        (self.me + self.p - j % self.p) % self.p
    }

    /// Reads `pe`'s `slot` back (inside an epoch) and counts it against the oracle.
    fn get_check(&self, pe: usize, slot: usize, r: u64, c: &mut Checks) -> Result<(), TeamError> {
        let mut got = [0u64];
        self.team.get(&self.win, slot, &mut got, pe)?;
        check(c, got[0], value(r, self.me));
        Ok(())
    }

    /// Put into `pe`'s slot, read it back (inside a lock epoch), count the comparison.
    fn put_get(&self, pe: usize, slot: usize, r: u64, c: &mut Checks) -> Result<(), TeamError> {
        self.team.put(&self.win, slot, &[self.mine(r)], pe)?;
        self.get_check(pe, slot, r, c)
    }

    /// One synchronization of `mode` in iteration `r`; every value it compares is counted
    /// in `c`.
    fn step(&mut self, mode: Mode, r: u64, c: &mut Checks) -> Result<(), TeamError> {
        let (right, left) = (self.right(1), self.left(1));
        match mode {
            Mode::Fence => {
                // Alternate slots: a neighbour may run ahead by one fence, not two.
                let slot = (r % 2) as usize;
                self.team.put(&self.win, slot, &[self.mine(r)], right)?;
                self.ep.fence()?;
                check(c, self.team.local(&self.win)[slot], value(r, left));
            }
            Mode::PscwRing | Mode::PscwK => {
                let k = self.k;
                let targets: Vec<usize> = (1..=k).map(|j| self.right(j)).collect();
                let origins: Vec<usize> = (1..=k).map(|j| self.left(j)).collect();
                self.ep.post(&origins)?;
                self.ep.start(&targets)?;
                for (j, &t) in targets.iter().enumerate() {
                    self.team.put(&self.win, j, &[self.mine(r)], t)?;
                }
                self.ep.complete()?;
                self.ep.wait()?;
                let w = self.team.local(&self.win);
                for (j, &o) in origins.iter().enumerate() {
                    check(c, w[j], value(r, o));
                }
            }
            Mode::LockExclusive | Mode::LockShared => {
                let kind = if mode == Mode::LockExclusive {
                    LockKind::Exclusive
                } else {
                    LockKind::Shared
                };
                self.ep.lock(right, kind)?;
                self.put_get(right, 0, r, c)?;
                self.ep.unlock(right)?;
            }
            Mode::LockAll => {
                self.ep.lock_all()?;
                self.put_get(right, 0, r, c)?;
                self.ep.unlock_all()?;
            }
            Mode::Flush => {
                self.team.put(&self.win, 0, &[self.mine(r)], right)?;
                self.ep.flush(right)?;
                // Read back every 64th (and the faulted) synchronization: the flushed
                // value in slot 0 and a fresh put-get in slot 1, two values.
                if r.is_multiple_of(64) || r == self.fault_at {
                    self.get_check(right, 0, r, c)?;
                    self.put_get(right, 1, r, c)?;
                }
            }
            Mode::Sync => {
                // A PE's own window: write locally (a put to itself), sync, read back.
                self.team.put(&self.win, 0, &[self.mine(r)], self.me)?;
                self.ep.sync();
                check(c, self.team.local(&self.win)[0], value(r, self.me));
            }
        }
        Ok(())
    }
}

/// Counts one compared value in `c`: checked, and wrong when `got` is not `want`.
fn check(c: &mut Checks, got: u64, want: u64) {
    c.add(1, u64::from(got != want));
}
