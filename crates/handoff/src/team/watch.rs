//! Watching the other PEs of a shared-memory team: a PE that left without `finalize`, died,
//! or whose launcher died ends every other PE's wait with an error naming it
//! ([`TeamError::PeerDied`], [`TeamError::LauncherDied`]); a PE stopped with SIGSTOP is named
//! at the wait's deadline. The PE states are those of [`super::layout`]; `shm` calls
//! [`ShmTransport::watch`] for every wait ([`ShmTransport::barrier_watch`] for a barrier's)
//! and [`ShmTransport::wait_err`] when one fails.
//!
//! # A PE that finalized
//!
//! A finished PE (`FINISHED`) is not gone for a wait that no longer needs it, and is for one
//! that does. `finalize` is a barrier over every PE, so once one PE has finished, every other
//! PE of a correct program has entered its own final barrier (a barrier, dissemination or
//! hub, lets no member out before every member is in), and the finished PE made all its
//! arrivals before its `FINISHED` store. Hence:
//!
//! - a barrier round waiting for a finished PE whose arrival has not come waits for an
//!   arrival that never comes: the finished PE's final barrier met another barrier of this
//!   PE (the PEs called different barriers) — an error naming it;
//! - any other wait while a PE has finished is outside the final barrier, which a correct
//!   program never does (its writer may be the PE that is gone) — an error naming it;
//! - PEs that finalize together wait only in barrier rounds whose arrivals the finished PEs
//!   made, and a PE computing alone after `finalize` waits for nothing: neither is an error.
//!
//! Reading `FINISHED` (Acquire, pairing with the Release store in `finish`) makes every
//! arrival the finished PE made visible, so "finished and the arrival is missing" is never a
//! false error. The error takes `first_gone`, as a death does, so every PE (and the
//! launcher's last line) names the PE that finalized, not a PE that failed because of it.

use std::cell::Cell;

use super::barrier::RoundWatch;
use super::layout::*;
use super::shm::ShmTransport;
use super::TeamError;
use crate::atomic::Ordering;
use crate::sync::{PeerWatch, WaitError};

/// How many PEs' liveness one peer check reads from `/proc` (`TeamWatch::scan`).
const SCAN_WINDOW: usize = 8;

impl ShmTransport {
    /// The watch of a wait on this PE's own heap words or counters.
    pub(super) fn watch(&self) -> TeamWatch<'_> {
        self.watch_with(None, WAITS_LOCAL)
    }

    /// The watch of a wait on PE `pe`'s heap words.
    pub(super) fn watch_on(&self, pe: usize) -> TeamWatch<'_> {
        self.watch_with(None, pe as u32 + 1)
    }

    /// The watch of a barrier: told whom each round waits for ([`RoundWatch`]).
    pub(super) fn barrier_watch(&self) -> TeamWatch<'_> {
        self.watch_with(Some(Cell::new(None)), WAITS_BARRIER)
    }

    fn watch_with(&self, round: Option<Cell<Option<(usize, u64)>>>, waits: u32) -> TeamWatch<'_> {
        TeamWatch {
            t: self,
            found: Cell::new(None),
            round,
            waits,
            published: Cell::new(false),
        }
    }

    pub(super) fn wait_err(
        &self,
        e: WaitError,
        watch: &TeamWatch<'_>,
        what: &'static str,
    ) -> TeamError {
        match (e, watch.found.take()) {
            // A stopped PE is alive (no peer check calls it dead): name it at the deadline.
            (WaitError::Timeout, _) => super::stopped::timeout_error(
                what,
                (0..self.size)
                    .filter(|&r| r != self.rank)
                    .filter_map(|r| self.ctrl(r).pid.get().map(|id| (r, id))),
            ),
            (_, Some(err)) => err,
            (WaitError::PeerGone { pid }, None) => TeamError::PeerDied {
                rank: self.rank_of(pid).unwrap_or(usize::MAX),
                pid,
                how: "died",
            },
        }
    }

    /// Whether the PE of control block `c` has left or died (layout docs, "PE states").
    fn is_gone(&self, c: &PeCtrl) -> bool {
        // Acquire: pairs with the Release stores of the state in `join`, `finish`, drop.
        let dead = match c.state.load(Ordering::Acquire) {
            FINISHED => false,
            LEFT => true,
            JOINED => c.pid.get().is_some_and(|id| !id.is_alive()),
            _ => c.launch_pid.get().is_some_and(|id| !id.is_alive()),
        };
        // A PE that finished and exited between the state load and the liveness read is
        // not dead: its FINISHED store precedes its exit, so after seeing it gone we see
        // the store (Acquire: pairs with the Release store in `finish`). Without this
        // re-check a team of 1024 PEs on 2 CPUs failed its last barrier naming a PE that
        // had finalized.
        dead && c.state.load(Ordering::Acquire) != FINISHED
    }

    /// The error naming PE `rank` as gone, saying how.
    fn gone(&self, rank: usize) -> TeamError {
        let c = self.ctrl(rank);
        // Acquire: pairs with the Release stores of the state in `join`, `finish`, drop.
        let (id, how) = match c.state.load(Ordering::Acquire) {
            LEFT => (
                c.pid.get(),
                "left the team without finalize (an error return or a panic)",
            ),
            JOINED => (
                c.pid.get(),
                "died (exited or was killed) while the team ran",
            ),
            // Named only when a wait still needed it (module docs).
            FINISHED => (
                c.pid.get(),
                "called shmem_finalize (Team::finalize) while other PEs still needed it: its \
                 final barrier met another barrier of theirs; every PE must call the same \
                 barriers and collectives, and finalize last",
            ),
            _ => (c.launch_pid.get(), "exited before it joined the team"),
        };
        TeamError::PeerDied {
            rank,
            pid: id.map_or(0, |i| i.pid),
            how,
        }
    }

    fn rank_of(&self, pid: u32) -> Option<usize> {
        (0..self.size).find(|&r| self.ctrl(r).pid.get().is_some_and(|p| p.pid == pid))
    }
}

/// The team's peer watch: PE states and liveness (module docs of [`super::layout`]).
pub(super) struct TeamWatch<'a> {
    t: &'a ShmTransport,
    found: Cell<Option<TeamError>>,
    /// `Some` for a barrier's watch: the PE the current round waits for and the arrival
    /// count it waits for (`None` before the first round).
    round: Option<Cell<Option<(usize, u64)>>>,
    /// What this wait waits for, as `PeCtrl::waits` says it (a barrier's: its round's).
    waits: u32,
    /// Whether `PeCtrl::waits` holds this wait's word (cleared when the wait ends).
    published: Cell<bool>,
}

impl TeamWatch<'_> {
    /// Says in `PeCtrl::waits` what this wait waits for (at each peer check: a wait that
    /// has lasted one; the launcher names it when the team's timeout passes).
    fn publish(&self) {
        let waits = match self.round.as_ref().map(Cell::get) {
            Some(Some((from, _))) => WAITS_BARRIER | (from as u32 + 1),
            Some(None) => return,
            None => self.waits,
        };
        // Relaxed: a diagnostic word, ordered with nothing (layout docs of `waits`).
        self.t
            .ctrl(self.t.rank)
            .waits
            .store(waits, Ordering::Relaxed);
        self.published.set(true);
    }
}

impl Drop for TeamWatch<'_> {
    fn drop(&mut self) {
        if self.published.get() {
            // Relaxed: as in `publish`.
            self.t
                .ctrl(self.t.rank)
                .waits
                .store(WAITS_NONE, Ordering::Relaxed);
        }
    }
}

impl TeamWatch<'_> {
    fn check(&self) -> Option<TeamError> {
        let t = self.t;
        let first = &t.header().first_gone;
        // Acquire: pairs with the Release CAS below (or in `ShmTransport::drop`).
        if let Some(r) = first.load(Ordering::Acquire).checked_sub(1) {
            if r as usize != t.rank {
                return Some(t.gone(r as usize));
            }
        }
        let found = self.scan()?;
        let TeamError::PeerDied { rank, .. } = found else {
            return Some(found);
        };
        // Release: pairs with the Acquire load above in other PEs' checks.
        match first.compare_exchange(0, rank as u32 + 1, Ordering::Release, Ordering::Acquire) {
            Ok(_) => Some(found),
            Err(winner) => Some(t.gone(winner as usize - 1)),
        }
    }

    /// The first other PE (by rank) that left, else one found dead among the next
    /// [`SCAN_WINDOW`] PEs after the last one checked, or a dead launcher.
    ///
    /// Leaving is a state word (cheap to read for every PE); dying needs a `/proc` read per
    /// PE, so a check reads at most `SCAN_WINDOW` of them, going round the team from this
    /// PE's right neighbour: a check costs O(1) system calls however large the team (every
    /// sleeping PE checks every 50 ms: 256 PEs reading 255 `/proc` entries each stalled a
    /// team of 256 on 2 CPUs). Each PE starts at its own right, so a dead PE is among the
    /// first window of the PEs to its left and the first of them to check names it in
    /// `first_gone` for everyone.
    fn scan(&self) -> Option<TeamError> {
        let t = self.t;
        let mut finished = None;
        for r in (0..t.size).filter(|&r| r != t.rank) {
            // Acquire: pairs with the Release stores of the state in `join`, `finish`, drop.
            match t.ctrl(r).state.load(Ordering::Acquire) {
                LEFT => return Some(t.gone(r)),
                FINISHED if finished.is_none() => finished = Some(r),
                _ => {}
            }
        }
        if let Some(r) = self.needs_finished(finished) {
            return Some(t.gone(r));
        }
        let others = t.size - 1;
        let window = SCAN_WINDOW.min(others);
        let start = t
            .scan_next
            .fetch_add(window, std::sync::atomic::Ordering::Relaxed);
        for k in 0..window {
            // The (start + k)-th other PE, counting from our right neighbour.
            let r = (t.rank + 1 + (start + k) % others) % t.size;
            if t.is_gone(t.ctrl(r)) {
                return Some(t.gone(r));
            }
        }
        if t.launcher.pid != 0 && !t.launcher.is_alive() {
            return Some(TeamError::LauncherDied {
                pid: t.launcher.pid,
            });
        }
        None
    }

    /// A PE that finalized and that this wait still needs, if any (module docs): for a
    /// barrier round, the PE it waits for if that PE finished without the arrival; for any
    /// other wait, `finished` (the first other PE seen finished).
    fn needs_finished(&self, finished: Option<usize>) -> Option<usize> {
        let Some(round) = &self.round else {
            return finished;
        };
        let (from, target) = round.get()?;
        let t = self.t;
        // Acquire: pairs with the Release store of FINISHED in `finish`, which follows every
        // arrival `from` made (its barriers' Release stores): the count read after it is
        // final.
        let done = t.ctrl(from).state.load(Ordering::Acquire) == FINISHED;
        // Acquire: as the barrier's own poll (pairs with the sender's Release store).
        let word = t.arrivals(t.rank)[from].load(Ordering::Acquire);
        (done && super::barrier::arrived(word) < target).then_some(from)
    }
}

impl RoundWatch for TeamWatch<'_> {
    fn round(&self, from: usize, target: u64) {
        if let Some(round) = &self.round {
            round.set(Some((from, target)));
        }
    }
}

impl PeerWatch for TeamWatch<'_> {
    fn check_peers(&self) -> Result<(), WaitError> {
        self.publish();
        match self.check() {
            None => Ok(()),
            Some(e) => {
                let pid = match &e {
                    TeamError::PeerDied { pid, .. } | TeamError::LauncherDied { pid } => *pid,
                    _ => 0,
                };
                self.found.set(Some(e));
                Err(WaitError::PeerGone { pid })
            }
        }
    }
}
