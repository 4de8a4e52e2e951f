//! Passive target on [`Epochs`]: `lock` / `unlock`, `lock_all` / `unlock_all`, on the
//! remote lock word of [`super::lockword`] (the protocol, its fairness, its wake-ups and
//! ordering are there). A waiter retries with the team's wait strategy and sleeps on its own
//! `wake` word; it sets its bit in the target's waiter map first (writers and readers
//! apart), and an unlock that sees a waiter in the word ([`lockword::must_wake`]) wakes only
//! who can enter: the next writer in rank order, or the waiting readers
//! (`lockword::wake_next`). A writer puts a `quiet` (a `SeqCst` fence) between its bit and
//! its retries, and such an unlock one between its release and its reads of the map.
//!
//! The lock word and the waiter map are changed with
//! [`Transport::atomic64_unwatched`]: no PE sleeps on them (waiters sleep on their `wake`
//! word, which the unlock signals), so no operation on them pays a doorbell ring.
//!
//! # Cost of an uncontended exclusive epoch (shared memory)
//!
//! `lock` is one compare-and-swap on the target's lock word ([`lockword::try_free_exclusive`]);
//! `unlock` is `quiet` (one `SeqCst` fence, completing the epoch's puts for every
//! transport) and one fetch-add on the same word. Nothing else is touched: not the waiter
//! map, not a wake word, no second fence. At p = 2 with each PE locking the other (`bench
//! rma-sync`) each lock word is used by one PE only, so the epoch moves no cache line
//! between the CPUs; Open MPI's osc/sm (4.1) takes a ticket lock on a `node_states` array
//! whose entries (20 bytes) share a line, so its two lockers pull one line back and forth
//! (fetch-add, fenced load, two adds: 3 read-modify-writes and 3 fences per epoch with the
//! flush, against our 2 and 1). What the transport adds on top: with a wait that may sleep
//! (the default), the shared-memory transport notes each put's byte range for `quiet` to
//! ring (`mapped/wake.rs`, `Pending`: one compare-and-swap for the first put after a `quiet`,
//! one swap per `quiet` after a put), which the spinning wait does not pay.

use std::time::Duration;

use super::lockword::{self, LockWord, WaiterMap};
use super::{Epochs, LockKind};
use crate::sync::Until;
use crate::team::api::Limit;
use crate::team::{AtomicOp, SignalOp, Sym, Team, TeamError, Transport};

/// The lock word of PE `pe`, through the team's remote atomics.
struct Remote<'a, X: Transport> {
    team: &'a Team<X>,
    word: Sym<u64>,
    pe: usize,
}

impl<X: Transport> LockWord for Remote<'_, X> {
    type Err = TeamError;
    fn rmw(&self, op: AtomicOp<u64>) -> Result<u64, TeamError> {
        // Unwatched: lock waiters sleep on their own `wake` word (module docs).
        self.team
            .x
            .atomic64_unwatched(self.pe, self.word.offset, op)
    }
}

/// PE `pe`'s waiter map, through the team's remote atomics; wakes by signalling `wake`.
struct Waiters<'a, X: Transport> {
    team: &'a Team<X>,
    map: Sym<u64>,
    wake: Sym<u64>,
    pe: usize,
}

impl<X: Transport> WaiterMap for Waiters<'_, X> {
    type Err = TeamError;
    fn size(&self) -> usize {
        self.team.size()
    }
    fn fetch(&self, i: usize) -> Result<u64, TeamError> {
        map_rmw(self.team, self.map, i, AtomicOp::Fetch, self.pe)
    }
    fn wake(&self, pe: usize) -> Result<(), TeamError> {
        self.team.signal(self.wake.at(0), SignalOp::Add(1), pe)
    }
}

/// An atomic on word `i` of PE `pe`'s waiter map (unwatched: nobody sleeps on the map).
fn map_rmw<X: Transport>(
    team: &Team<X>,
    map: Sym<u64>,
    i: usize,
    op: AtomicOp<u64>,
    pe: usize,
) -> Result<u64, TeamError> {
    if i >= map.len {
        return Err(TeamError::OutOfBounds {
            op: "lock waiter map",
            offset: i,
            end: i + 1,
            len: map.len,
        });
    }
    team.x.atomic64_unwatched(pe, map.offset + 8 * i, op)
}

/// One retry of a waiting locker: an announced writer's CAS, or a reader's try that flags
/// it in the word when it fails (`lockword` module docs: what lets the unlock skip the map).
fn attempt<L: LockWord>(w: &L, kind: LockKind) -> Result<bool, L::Err> {
    match kind {
        LockKind::Exclusive => lockword::try_exclusive(w),
        LockKind::Shared => lockword::try_shared_or_flag(w),
    }
}

impl<'t, X: Transport> Epochs<'t, X> {
    /// PE `pe`'s lock word (borrowing the team, not `self`).
    fn remote(&self, pe: usize) -> Remote<'t, X> {
        Remote {
            team: self.team,
            word: self.lock,
            pe,
        }
    }

    fn waiter_map(&self, pe: usize) -> Waiters<'_, X> {
        Waiters {
            team: self.team,
            map: self.waiters,
            wake: self.wake,
            pe,
        }
    }

    /// `MPI_Win_lock`: takes the lock on PE `pe` (exclusive or shared), waiting while it is
    /// held in a conflicting mode. Fair to writers: once an exclusive locker waits, no new
    /// shared lock is granted. A holder that dies ends the wait with
    /// [`TeamError::PeerDied`] naming it; a holder that never unlocks, with
    /// [`TeamError::EpochTimeout`] after the epochs' timeout.
    pub fn lock(&mut self, pe: usize, kind: LockKind) -> Result<(), TeamError> {
        self.lock_within(pe, kind, Limit::Patience)
    }

    /// [`lock`](Self::lock) waiting at most `timeout`.
    pub fn lock_timeout(
        &mut self,
        pe: usize,
        kind: LockKind,
        timeout: Duration,
    ) -> Result<(), TeamError> {
        self.lock_within(pe, kind, Limit::Within(timeout))
    }

    /// [`lock`](Self::lock) without waiting: takes the lock when it is free for `kind` now
    /// (an exclusive lock: nobody holds it or waits for it; a shared one: no writer holds
    /// or waits for it), else returns [`TeamError::WouldBlock`]
    /// and leaves no trace on the target.
    pub fn try_lock(&mut self, pe: usize, kind: LockKind) -> Result<(), TeamError> {
        self.lock_within(pe, kind, Limit::Now)
    }

    fn lock_within(&mut self, pe: usize, kind: LockKind, limit: Limit) -> Result<(), TeamError> {
        let p = self.team.size();
        if pe >= p {
            return Err(TeamError::NoSuchPe { pe, size: p });
        }
        if let Some(held) = self.held[pe] {
            if self.all {
                return Err(TeamError::EpochOpen {
                    op: "lock",
                    open: "a lock_all epoch",
                    how: "call unlock_all() first",
                });
            }
            return Err(TeamError::AlreadyLocked { pe, held });
        }
        if let Some((open, how)) = (self.access.is_some() || self.exposure.is_some())
            .then(|| self.open_epoch())
            .flatten()
        {
            return Err(TeamError::EpochOpen {
                op: "lock",
                open,
                how,
            });
        }
        self.acquire(pe, kind, limit)?;
        self.held[pe] = Some(kind);
        Ok(())
    }

    /// Takes the lock on `pe`, waiting as `limit` says ([`Limit::Now`]: one try, which
    /// announces nothing).
    fn acquire(&self, pe: usize, kind: LockKind, limit: Limit) -> Result<(), TeamError> {
        let w = self.remote(pe);
        let Some(until) = self.until(limit) else {
            let got = match kind {
                LockKind::Exclusive => lockword::try_free_exclusive(&w)?,
                LockKind::Shared => lockword::try_shared(&w)?,
            };
            return match got {
                true => Ok(()),
                false => Err(TeamError::WouldBlock { what: "a lock" }),
            };
        };
        self.acquire_until(pe, kind, until, limit)
    }

    /// [`acquire`](Self::acquire) waiting with `until` (`limit` names its timeout).
    fn acquire_until(
        &self,
        pe: usize,
        kind: LockKind,
        until: Until,
        limit: Limit,
    ) -> Result<(), TeamError> {
        let w = self.remote(pe);
        if kind == LockKind::Exclusive {
            // Uncontended: one CAS takes a free word; else announce and retry (lockword).
            if lockword::try_free_exclusive(&w)? {
                return Ok(());
            }
            lockword::announce_writer(&w)?;
        }
        // The first try of a reader does not flag it: it has not set its bit yet.
        let got = match kind {
            LockKind::Exclusive => lockword::try_exclusive(&w),
            LockKind::Shared => lockword::try_shared(&w),
        };
        let res = match got {
            Ok(true) => Ok(()),
            Ok(false) => self.wait_for(&w, kind, until, limit),
            Err(e) => Err(e),
        };
        if res.is_err() && kind == LockKind::Exclusive {
            // Best effort: a writer that gave up must not keep readers out, nor keep a
            // wake-up it was sent (lockword module docs): pass it on.
            if lockword::withdraw_writer(&w).is_ok() {
                self.team.quiet(); // SeqCst: the withdrawal before reading the map.
                if let Ok(after) = w.rmw(AtomicOp::Fetch) {
                    let me = self.team.rank();
                    let _ = lockword::wake_next(&w, &self.waiter_map(pe), after, me);
                }
            }
        }
        res
    }

    fn wait_for(
        &self,
        w: &Remote<'_, X>,
        kind: LockKind,
        until: Until,
        limit: Limit,
    ) -> Result<(), TeamError> {
        let me = self.team.rank();
        let words = self.team.size().div_ceil(64);
        let (i, bit) = lockword::waiter_bit(me, kind == LockKind::Exclusive, words);
        map_rmw(self.team, self.waiters, i, AtomicOp::FetchOr(bit), w.pe)?;
        // SeqCst: a writer's bit before its retries (module docs); a reader's retries flag
        // it in the lock word after the bit (Release), which needs no fence.
        self.team.quiet();
        let mut failed = None;
        // Asleep as a waiter on this PE's `wake` word only: the unlock's signal there wakes
        // it; puts into this PE's window do not.
        let waited = self.team.x.wait_local_on(
            self.wake.offset,
            8,
            &mut || match attempt(w, kind) {
                Ok(true) => Some(0),
                Ok(false) => None,
                Err(e) => {
                    failed = Some(e);
                    Some(1)
                }
            },
            until,
            "a lock",
        );
        let cleared = map_rmw(self.team, self.waiters, i, AtomicOp::FetchAnd(!bit), w.pe);
        waited.map_err(self.timed("lock", "unlock", Some(w.pe), limit))?;
        if let Some(e) = failed {
            return Err(e);
        }
        cleared?;
        Ok(())
    }

    /// `MPI_Win_unlock`: completes this PE's operations (`quiet`), releases the lock on
    /// `pe` (one fetch-add), and wakes the PEs waiting for it, if the word shows any. [`TeamError::NotLocked`] if this PE does
    /// not hold it.
    pub fn unlock(&mut self, pe: usize) -> Result<(), TeamError> {
        if self.all {
            return Err(TeamError::EpochOpen {
                op: "unlock",
                open: "a lock_all epoch",
                how: "call unlock_all() (unlock is for lock)",
            });
        }
        self.locked("unlock", pe)?;
        self.release(pe, "unlock")
    }

    pub(super) fn release(&mut self, pe: usize, op: &'static str) -> Result<(), TeamError> {
        let kind = self.locked(op, pe)?;
        self.team.quiet();
        let w = self.remote(pe);
        let before = match kind {
            LockKind::Exclusive => lockword::unlock_exclusive(&w)?,
            LockKind::Shared => lockword::unlock_shared(&w)?,
        };
        self.held[pe] = None;
        let sane = match kind {
            LockKind::Exclusive => before & lockword::WRITER != 0,
            LockKind::Shared => before & lockword::READERS != 0,
        };
        if !sane {
            return Err(TeamError::LockCorrupt {
                op,
                pe,
                word: before,
            });
        }
        if !lockword::must_wake(before) {
            return Ok(()); // nobody waits who would not see the release (lockword docs)
        }
        self.team.quiet(); // SeqCst: the release before reading the map (module docs).
        let after = match kind {
            LockKind::Exclusive => before.wrapping_sub(lockword::WRITER),
            LockKind::Shared => before.wrapping_sub(1),
        };
        lockword::wake_next(&w, &self.waiter_map(pe), after, self.team.rank())?;
        Ok(())
    }

    /// `MPI_Win_lock_all`: a shared lock on every PE, taken in rank order (so two
    /// `lock_all`s and rank-ordered locks cannot deadlock). On an error the locks taken so
    /// far are released. The epochs' timeout bounds the whole call, not each lock.
    pub fn lock_all(&mut self) -> Result<(), TeamError> {
        self.lock_all_within(Limit::Patience)
    }

    /// [`lock_all`](Self::lock_all) waiting at most `timeout` in all.
    pub fn lock_all_timeout(&mut self, timeout: Duration) -> Result<(), TeamError> {
        self.lock_all_within(Limit::Within(timeout))
    }

    fn lock_all_within(&mut self, limit: Limit) -> Result<(), TeamError> {
        if let Some((open, how)) = self.open_epoch() {
            return Err(TeamError::EpochOpen {
                op: "lock_all",
                open,
                how,
            });
        }
        // One wait for the whole call (`lock_all` has no `try_` form).
        let until = self
            .until(limit)
            .unwrap_or_else(|| Until::forever(self.patience.wait));
        for pe in 0..self.team.size() {
            if let Err(e) = self.acquire_until(pe, LockKind::Shared, until, limit) {
                for q in 0..pe {
                    let _ = self.release(q, "lock_all");
                }
                return Err(e);
            }
            self.held[pe] = Some(LockKind::Shared);
        }
        self.all = true;
        Ok(())
    }

    /// `MPI_Win_unlock_all`: completes this PE's operations and releases every shared lock
    /// of [`lock_all`](Self::lock_all).
    pub fn unlock_all(&mut self) -> Result<(), TeamError> {
        if !self.all {
            return Err(TeamError::NoEpoch {
                op: "unlock_all",
                needs: "lock_all",
            });
        }
        let mut first = Ok(());
        for pe in 0..self.team.size() {
            let r = self.release(pe, "unlock_all");
            if first.is_ok() {
                first = r;
            }
        }
        self.all = false;
        first
    }
}
