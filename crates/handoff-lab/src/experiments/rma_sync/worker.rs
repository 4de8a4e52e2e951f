//! One PE of an `rma-sync` run (`handoff __worker rma-sync MODE K ITERS REPS FAULT`,
//! started by `team::Launch`): joins the team, times `REPS` + 1 repetitions of `ITERS`
//! synchronizations of `MODE` (the first is warm-up), verifies every value it moved, and
//! rank 0 prints its outcome line (`team_worker`) for the launcher.
//!
//! Every mode moves data and checks it: a put of a value unique to (iteration, rank) into a
//! neighbour, read back after the synchronization (fence: by the neighbour; PSCW: by the
//! target after `wait`; locks and flush: by the origin with a `get` inside the epoch). Any
//! PE's failure is counted on rank 0 (a remote add) before the final barrier.

use std::time::{Duration, Instant};

use handoff::team::epoch::{EpochError, Epochs, LockKind};
use handoff::team::{Sym, Team, TeamError};

use super::super::team_worker::{self, Outcome};
use super::{Mode, NAME};
use crate::bench::registry::BenchError;

fn failed(e: impl std::fmt::Display) -> BenchError {
    BenchError::Failed {
        experiment: NAME,
        message: format!("PE: {e}"),
    }
}

/// The value PE `from` moves in iteration `r` (an independent oracle both sides compute).
fn value(r: u64, from: usize) -> u64 {
    (r.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((from as u64) << 48) ^ 0x5A5A).rotate_left(11)
}

/// The worker's body, given `MODE K ITERS REPS FAULT`.
pub(super) fn main(args: &[String]) -> Result<(), BenchError> {
    let usage = || BenchError::Usage {
        experiment: NAME,
        message: format!("worker arguments MODE K ITERS REPS FAULT, got {args:?}"),
    };
    let [mode, k, iters, reps, fault] = args else {
        return Err(usage());
    };
    let mode = Mode::parse(mode).ok_or_else(usage)?;
    let k: usize = k.parse().map_err(|_| usage())?;
    let iters: u64 = iters.parse().map_err(|_| usage())?;
    let reps: u64 = reps.parse().map_err(|_| usage())?;
    let fault = fault == "1";
    let team = Team::from_env().map_err(failed)?;
    team.set_timeout(Some(Duration::from_secs(60)));
    let out = run(&team, mode, k, iters, reps, fault).map_err(failed)?;
    if team.rank() == 0 {
        team_worker::print(&out);
    }
    team.finalize().map_err(failed)
}

struct Pe<'t> {
    team: &'t Team,
    ep: Epochs<'t, handoff::team::ShmTransport>,
    win: Sym<u64>,
    me: usize,
    p: usize,
    k: usize,
    fault: bool,
    /// The iteration whose value the fault corrupts.
    fault_at: u64,
}

fn run(
    team: &Team,
    mode: Mode,
    k: usize,
    iters: u64,
    reps: u64,
    fault: bool,
) -> Result<Outcome, EpochError> {
    let (me, p) = (team.rank(), team.size());
    let win = team.alloc::<u64>(p.max(2) + k)?;
    let bad = team.alloc::<u64>(1)?;
    let mut ep = Epochs::new(team)?;
    ep.set_timeout(Some(Duration::from_secs(60)));
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
    let mut ok = true;
    let mut samples = Vec::new();
    if mode == Mode::Flush {
        pe.ep.lock_all()?;
    }
    for rep in 0..=reps {
        team.barrier_all()?;
        let t0 = Instant::now();
        for i in 0..iters {
            ok &= pe.step(mode, rep * iters + i + 1)?;
        }
        let us = t0.elapsed().as_secs_f64() * 1e6 / iters as f64;
        if rep > 0 {
            samples.push(us);
        }
    }
    if mode == Mode::Flush {
        pe.ep.unlock_all()?;
    }
    if !ok {
        team.atomic_add(bad, 1u64, 0)?;
    }
    pe.ep.fence()?;
    let verified = me != 0 || team.atomic_fetch(bad, 0)? == 0;
    pe.ep.close()?;
    Ok(Outcome {
        samples_us: samples,
        verified,
    })
}

impl Pe<'_> {
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

    /// Put into `pe`'s slot, read it back (inside a lock epoch), compare.
    fn put_get(&self, pe: usize, slot: usize, r: u64) -> Result<bool, TeamError> {
        let v = self.mine(r);
        self.team.put(&self.win, slot, &[v], pe)?;
        let mut got = [0u64];
        self.team.get(&self.win, slot, &mut got, pe)?;
        Ok(got[0] == value(r, self.me))
    }

    /// One synchronization of `mode` in iteration `r`; whether its data verified.
    fn step(&mut self, mode: Mode, r: u64) -> Result<bool, EpochError> {
        let (right, left) = (self.right(1), self.left(1));
        Ok(match mode {
            Mode::Fence => {
                // Alternate slots: a neighbour may run ahead by one fence, not two.
                let slot = (r % 2) as usize;
                self.team.put(&self.win, slot, &[self.mine(r)], right)?;
                self.ep.fence()?;
                self.team.local(&self.win)[slot] == value(r, left)
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
                origins
                    .iter()
                    .enumerate()
                    .all(|(j, &o)| w[j] == value(r, o))
            }
            Mode::LockExclusive | Mode::LockShared => {
                let kind = if mode == Mode::LockExclusive {
                    LockKind::Exclusive
                } else {
                    LockKind::Shared
                };
                self.ep.lock(right, kind)?;
                let ok = self.put_get(right, 0, r)?;
                self.ep.unlock(right)?;
                ok
            }
            Mode::LockAll => {
                self.ep.lock_all()?;
                let ok = self.put_get(right, 0, r)?;
                self.ep.unlock_all()?;
                ok
            }
            Mode::Flush => {
                self.team.put(&self.win, 0, &[self.mine(r)], right)?;
                self.ep.flush(right)?;
                if r.is_multiple_of(64) || r == self.fault_at {
                    self.put_get(right, 1, r)? && {
                        let mut got = [0u64];
                        self.team.get(&self.win, 0, &mut got, right)?;
                        got[0] == value(r, self.me)
                    }
                } else {
                    true
                }
            }
            Mode::Sync => {
                // A PE's own window: write locally (a put to itself), sync, read back.
                self.team.put(&self.win, 0, &[self.mine(r)], self.me)?;
                self.ep.sync();
                self.team.local(&self.win)[0] == value(r, self.me)
            }
        })
    }
}
