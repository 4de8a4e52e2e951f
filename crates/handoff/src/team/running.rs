//! A started team ([`Running`]): waiting for its PEs, forwarding signals, and how it ended
//! ([`TeamReport`]). `Launch` starts it.
//!
//! # One PE failing ends the team
//!
//! [`Running::wait`] sleeps on the PEs' pidfds, checking its deadlines and a received signal
//! at least every 10 ms (every millisecond where the kernel has no pidfds). When a PE exits
//! with a non-zero code or is killed by a signal, the others notice within about 50 ms
//! (their waits return [`TeamError::PeerDied`] naming it) and usually exit on their own; any
//! still running after `Launch::grace` (default 2 s) are killed. The report names the first
//! PE that failed.
//! The segment is removed when the [`Running`] handle goes (the launcher created it).
//!
//! # A team cannot outlive its launcher
//!
//! Each PE runs in its own process group and dies with the launcher (see `orphans`): a
//! launcher killed even by SIGKILL leaves no PE, no PE child and no segment behind.
//! [`Running::wait_interruptible`] forwards a signal the launcher received (SIGINT, SIGTERM,
//! SIGHUP) to every PE's process group and ends the team within a second.
//!
//! # Joining has one deadline
//!
//! Once one PE has joined, every other PE still alive must join within
//! `Launch::join_timeout` of the start (default 30 s, or `HANDOFF_JOIN_TIMEOUT`); otherwise
//! the team ends with [`TeamError::NotJoined`] naming the first PE that did not, the PEs that
//! joined and those that did not, and how to allow longer. Past the deadline the check is
//! made again at every tick until every PE has joined, so a first PE joining late still
//! meets it. (Programs of which no PE ever joins are not team programs and are left alone.)
//!
//! # The last word names the cause
//!
//! The PE the others' waits named first (`TeamHeader::first_gone`) is the cause of what
//! followed: when it failed itself it is `first_failure`; when it exited with 0 (it left
//! without finalize, or finalized while the others still waited for it) it is
//! [`TeamReport::left_early`], and [`TeamReport::into_result`] names it, not the PE that
//! failed because of it.

use std::process::Child;
use std::sync::atomic::{AtomicI32, Ordering as StdOrdering};
use std::time::{Duration, Instant};

use super::exit::PeStatus;
use super::layout::*;
use super::orphans::{signal_group, Watcher};
use super::TeamError;
use crate::shm::Segment;
use crate::sys::proc::Pidfd;

/// One PE's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeExit {
    /// Its rank.
    pub rank: usize,
    /// Its pid.
    pub pid: u32,
    /// How it ended.
    pub status: PeStatus,
}

/// A PE that exited with code 0 while the others still needed it
/// ([`TeamReport::left_early`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeftEarly {
    /// Its rank.
    pub rank: usize,
    /// Whether it finalized (its final barrier met another barrier of the others); else it
    /// left without finalize.
    pub finalized: bool,
}

/// How every PE of a team ended, in rank order, and which failed first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamReport {
    /// Each PE's end, by rank.
    pub exits: Vec<PeExit>,
    /// The rank of the first PE seen failing, if any (after a global exit: the PE that
    /// asked for it if its status is not 0, else none).
    pub first_failure: Option<usize>,
    /// `(rank, status)` of the PE that ended the whole team with a status (OpenSHMEM's
    /// `shmem_global_exit`, [`ShmTransport::global_exit`](super::ShmTransport::global_exit)).
    pub global_exit: Option<(usize, i32)>,
    /// The PE the others' waits named as gone when it exited with code 0 and a PE failed
    /// after it: the cause of `first_failure` (module docs, "The last word names the cause").
    pub left_early: Option<LeftEarly>,
}

impl TeamReport {
    /// Whether every PE exited with code 0.
    pub fn success(&self) -> bool {
        self.first_failure.is_none()
    }

    /// `Ok` if every PE succeeded, else [`TeamError::PeFailed`] for the first failure.
    pub fn into_result(self) -> Result<(), TeamError> {
        match self.first_failure {
            None => Ok(()),
            Some(r) => {
                let e = &self.exits[r];
                if let Some(c) = self.left_early.filter(|c| c.rank != r) {
                    return Err(TeamError::LeftEarly {
                        rank: c.rank,
                        pid: self.exits[c.rank].pid,
                        finalized: c.finalized,
                        victim: r,
                        status: e.status,
                    });
                }
                Err(TeamError::PeFailed {
                    rank: e.rank,
                    pid: e.pid,
                    status: e.status,
                })
            }
        }
    }
}

/// A started team. Dropping it kills and reaps PEs still running and removes the segment.
#[derive(Debug)]
pub struct Running {
    pub(super) seg: Segment,
    pub(super) name: String,
    pub(super) ctrl_offset: usize,
    pub(super) ctrl_stride: usize,
    pub(super) kids: Vec<Option<Child>>,
    pub(super) pids: Vec<u32>,
    pub(super) grace: Duration,
    pub(super) deadline: Option<Instant>,
    pub(super) timeout: Option<Duration>,
    pub(super) join_deadline: Instant,
    pub(super) join_timeout: Duration,
    pub(super) watcher: Option<Watcher>,
}

/// How long PEs may take to end after a forwarded signal before they are killed.
const SIGNAL_GRACE: Duration = Duration::from_millis(500);

/// Never set: [`Running::wait`] is not interruptible.
static NEVER: AtomicI32 = AtomicI32::new(0);

impl Running {
    pub(super) fn ctrl(&self, rank: usize) -> &PeCtrl {
        // SAFETY: rank < size; the launcher laid out `size` control blocks from ctrl_offset
        // in the payload (plan), mapped as long as `self.seg`.
        unsafe { ctrl_at(self.seg.as_ptr(), self.ctrl_offset, self.ctrl_stride, rank) }
    }

    /// The team segment's full name (`HANDOFF_TEAM`).
    pub fn segment_name(&self) -> &str {
        &self.name
    }

    /// The PEs' pids, by rank.
    pub fn pids(&self) -> &[u32] {
        &self.pids
    }

    /// PE `rank`'s stdout pipe, once, if `Launch::capture_stdout` asked for it.
    pub fn take_stdout(&mut self, rank: usize) -> Option<std::process::ChildStdout> {
        self.kids.get_mut(rank)?.as_mut()?.stdout.take()
    }

    /// SIGKILLs PE `rank` (for tests of a dying PE).
    pub fn kill(&mut self, rank: usize) -> Result<(), TeamError> {
        let size = self.kids.len();
        let kid = self
            .kids
            .get_mut(rank)
            .ok_or(TeamError::NoSuchPe { pe: rank, size })?;
        if let Some(k) = kid {
            let _ = k.kill();
        }
        Ok(())
    }

    /// Waits for every PE; when one fails, gives the others `Launch::grace` to end, then
    /// kills the rest. Returns how each ended.
    pub fn wait(self) -> Result<TeamReport, TeamError> {
        self.wait_interruptible(&NEVER)
    }

    /// [`wait`](Self::wait), also watching `signal`: when it becomes non-zero (a signal
    /// handler stores the signal number it received), that signal goes to every PE's process
    /// group, PEs still running after half a second are killed, and the result is
    /// [`TeamError::Interrupted`].
    pub fn wait_interruptible(mut self, signal: &AtomicI32) -> Result<TeamReport, TeamError> {
        let n = self.kids.len();
        let mut join_checked = false;
        let mut status: Vec<Option<PeStatus>> = vec![None; n];
        let mut first_failure = None;
        let mut failed_at: Option<Instant> = None;
        // Sleep in `poll` on the PEs' pidfds between the checks below (`pause`), so the
        // launcher does not wake a thousand times a second on a machine whose CPUs its PEs
        // use (each wake-up preempted a PE: ~900 a second, issue #23).
        let pidfds: Option<Vec<Pidfd>> = self
            .pids
            .iter()
            .map(|&pid| Pidfd::open(pid).ok().flatten())
            .collect();
        loop {
            let mut running = 0;
            for (r, (st, slot)) in status.iter_mut().zip(self.kids.iter_mut()).enumerate() {
                let Some(kid) = slot.as_mut() else { continue };
                match kid.try_wait() {
                    Ok(Some(exit)) => {
                        // The PE's own children end with it.
                        signal_group(self.pids[r], libc::SIGKILL);
                        let s = status_of(exit);
                        if !s.success() && first_failure.is_none() {
                            first_failure = Some(r);
                            failed_at = Some(Instant::now());
                        }
                        *st = Some(s);
                        *slot = None;
                    }
                    Ok(None) => running += 1,
                    Err(e) => {
                        let op = format!("waitpid {}", self.pids[r]);
                        return Err(crate::sys::Error::io(op, e).into());
                    }
                }
            }
            if running == 0 {
                break;
            }
            let sig = signal.load(StdOrdering::Relaxed);
            if sig != 0 {
                self.forward(sig);
                return Err(TeamError::Interrupted { signal: sig });
            }
            if !join_checked && Instant::now() >= self.join_deadline {
                let (joined, missing) = self.joined();
                // Every PE still running joined: nothing more to check. None joined yet:
                // check again at every tick (a PE joining late must not leave its peers
                // waiting for one that never will).
                join_checked = missing.is_empty();
                if !joined.is_empty() && !missing.is_empty() {
                    let rank = missing[0];
                    let pid = self.pids[rank];
                    // Stopped before it could join: say so rather than "never called".
                    if crate::sys::ProcessId::of(pid).is_ok_and(|id| id.is_stopped()) {
                        return Err(TeamError::NotResponding {
                            rank,
                            pid,
                            what: "every PE to join the team",
                        });
                    }
                    return Err(TeamError::NotJoined {
                        rank,
                        pid,
                        after: self.join_timeout,
                        joined,
                        missing,
                    });
                }
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                // Drop kills and reaps the PEs still running, and removes the segment. A
                // stopped PE among them is named, else every PE still running.
                return Err(self.timed_out(&status));
            }
            if failed_at.is_some_and(|t| t.elapsed() >= self.grace) {
                for (r, (st, slot)) in status.iter_mut().zip(self.kids.iter_mut()).enumerate() {
                    if let Some(mut kid) = slot.take() {
                        signal_group(self.pids[r], libc::SIGKILL);
                        let _ = kid.kill();
                        let _ = kid.wait();
                        *st = Some(PeStatus::Stopped);
                    }
                }
                break;
            }
            self.pause(&pidfds, join_checked, failed_at);
        }
        let header = self.seg.get::<TeamHeader>(0).ok();
        // The PE the team saw go first (`TeamHeader::first_gone`), which its peers' errors
        // name: a peer that saw it and exited at once may have been reaped before it.
        // Acquire: pairs with the Release CAS in `ShmTransport::drop` or `TeamWatch::check`.
        let gone = header.map_or(0, |h| h.first_gone.load(crate::atomic::Ordering::Acquire));
        let mut left_early = None;
        if let Some(r) = (gone as usize).checked_sub(1) {
            match status.get(r) {
                Some(Some(s)) if !s.success() => first_failure = Some(r),
                // It exited with 0, yet the others' waits named it: it left early.
                Some(Some(_)) if first_failure.is_some() => {
                    // Acquire: pairs with the Release stores of the state in `finish`, drop.
                    let state = self.ctrl(r).state.load(crate::atomic::Ordering::Acquire);
                    left_early = Some(LeftEarly {
                        rank: r,
                        finalized: state == FINISHED,
                    });
                }
                _ => {}
            }
        }
        // Acquire: pairs with the Release CAS in `ShmTransport::global_exit`.
        let word = header.map_or(0, |h| h.global_exit.load(crate::atomic::Ordering::Acquire));
        let global_exit = (word >> 32)
            .checked_sub(1)
            .map(|r| (r as usize, word as u32 as i32));
        if let Some((r, status)) = global_exit {
            // The other PEs were ended by the caller: not failures of their own.
            first_failure = (status != 0).then_some(r);
            left_early = None;
        }
        let exits = (0..n)
            .map(|r| PeExit {
                rank: r,
                pid: self.pids[r],
                status: status[r].unwrap_or(PeStatus::Stopped),
            })
            .collect();
        Ok(TeamReport {
            exits,
            first_failure,
            global_exit,
            left_early,
        })
    }
}

/// The longest [`Running::wait`] sleeps between its checks: how late it may forward a
/// signal the launcher received.
const TICK: Duration = Duration::from_millis(10);

impl Running {
    /// Sleeps until a PE exits or [`TICK`] passes, never past the join deadline (unless
    /// checked), the team's deadline or the end of a failure's grace; without pidfds, 1 ms.
    fn pause(&self, pidfds: &Option<Vec<Pidfd>>, join_checked: bool, failed_at: Option<Instant>) {
        let Some(fds) = pidfds else {
            std::thread::sleep(Duration::from_millis(1));
            return;
        };
        let now = Instant::now();
        let until = [
            (!join_checked && self.join_deadline > now).then_some(self.join_deadline),
            self.deadline,
            failed_at.map(|t| t + self.grace),
        ]
        .into_iter()
        .flatten()
        .fold(now + TICK, Instant::min);
        let running: Vec<&Pidfd> = fds
            .iter()
            .zip(&self.kids)
            .filter(|(_, k)| k.is_some())
            .map(|(f, _)| f)
            .collect();
        if crate::sys::proc::wait_any_exit(&running, until.saturating_duration_since(now)).is_err()
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The PEs that joined (and may have ended since) and those still running that have not.
    fn joined(&self) -> (Vec<usize>, Vec<usize>) {
        // Acquire: pairs with the Release CAS to JOINED in `ShmTransport::join`.
        let state = |r: usize| self.ctrl(r).state.load(crate::atomic::Ordering::Acquire);
        let joined: Vec<usize> = (0..self.kids.len())
            .filter(|&r| state(r) != SPAWNED)
            .collect();
        let missing: Vec<usize> = (0..self.kids.len())
            .filter(|&r| self.kids[r].is_some() && state(r) == SPAWNED)
            .collect();
        (joined, missing)
    }

    /// The error at `Launch::timeout`: [`TeamError::NotResponding`] naming a stopped PE,
    /// else [`TeamError::TeamTimeout`] naming every PE still running (at most
    /// [`NAMED`] of them) and how far each got, then those that ended.
    fn timed_out(&self, status: &[Option<PeStatus>]) -> TeamError {
        const NAMED: usize = 8;
        let running: Vec<usize> = (0..self.kids.len())
            .filter(|&r| self.kids[r].is_some())
            .collect();
        let ids = running.iter().filter_map(|&r| {
            crate::sys::ProcessId::of(self.pids[r])
                .ok()
                .map(|id| (r, id))
        });
        if let Some((rank, pid)) = super::stopped::first_stopped(ids) {
            return TeamError::NotResponding {
                rank,
                pid,
                what: "every PE to exit (Launch::timeout)",
            };
        }
        // Acquire: pairs with the Release stores of the state in `join`, `finish`, drop.
        let state = |r: usize| match self.ctrl(r).state.load(crate::atomic::Ordering::Acquire) {
            SPAWNED => "never joined the team".to_string(),
            // Relaxed: a diagnostic word (layout docs of `PeCtrl::waits`).
            JOINED => match self.ctrl(r).waits.load(crate::atomic::Ordering::Relaxed) {
                WAITS_NONE => "in the team, not in a wait".into(),
                WAITS_LOCAL => "in the team, waiting on its own symmetric heap (a signal, a \
                                flag or a counter)"
                    .into(),
                w if w & WAITS_BARRIER != 0 => format!(
                    "in the team, in a barrier waiting for PE {}",
                    (w & !WAITS_BARRIER) - 1
                ),
                w => format!("in the team, waiting on PE {}'s symmetric heap", w - 1),
            },
            FINISHED => "finalized".into(),
            _ => "left the team without finalize".into(),
        };
        let list = |ranks: &[usize], what: &dyn Fn(usize) -> String| {
            let mut s: Vec<String> = ranks.iter().take(NAMED).map(|&r| what(r)).collect();
            if ranks.len() > NAMED {
                s.push(format!("and {} more", ranks.len() - NAMED));
            }
            s.join(", ")
        };
        let mut text = list(&running, &|r| {
            format!("PE {r} (pid {}, {})", self.pids[r], state(r))
        });
        let ended: Vec<usize> = (0..status.len()).filter(|&r| status[r].is_some()).collect();
        if !ended.is_empty() {
            text += &format!(
                "; ended: {}",
                list(&ended, &|r| format!(
                    "PE {r} ({}, {})",
                    state(r),
                    status[r].unwrap_or(PeStatus::Stopped)
                ))
            );
        }
        TeamError::TeamTimeout {
            after: self.timeout.unwrap_or_default(),
            running: text,
        }
    }

    /// Forwards `sig` to every running PE's group, then kills those still running after
    /// [`SIGNAL_GRACE`].
    fn forward(&mut self, sig: i32) {
        for (r, kid) in self.kids.iter().enumerate() {
            if kid.is_some() {
                signal_group(self.pids[r], sig);
            }
        }
        let until = Instant::now() + SIGNAL_GRACE;
        while Instant::now() < until {
            let mut running = false;
            for (r, slot) in self.kids.iter_mut().enumerate() {
                if let Some(kid) = slot {
                    if matches!(kid.try_wait(), Ok(None)) {
                        running = true;
                    } else {
                        signal_group(self.pids[r], libc::SIGKILL);
                        *slot = None;
                    }
                }
            }
            if !running {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        // Drop kills the rest.
    }
}

fn status_of(st: std::process::ExitStatus) -> PeStatus {
    use std::os::unix::process::ExitStatusExt;
    match (st.code(), st.signal()) {
        (Some(c), _) => PeStatus::Exited(c),
        (None, Some(s)) => PeStatus::Signaled(s),
        (None, None) => PeStatus::Exited(-1),
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        for (r, kid) in self.kids.iter_mut().enumerate() {
            if let Some(mut kid) = kid.take() {
                signal_group(self.pids[r], libc::SIGKILL);
                let _ = kid.kill();
                let _ = kid.wait();
            }
        }
        // Then the fields: the segment is removed, the watcher dismissed.
    }
}
