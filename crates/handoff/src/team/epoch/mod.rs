//! MPI-3 one-sided synchronization epochs on a [`Team`](super::Team), after foMPI
//! (Gerstenberger, Besta, Hoefler, SC'13): fence, generalized active target
//! (post / start / complete / wait / try_wait), passive target locks (`lock`, `lock_all`,
//! `flush`, `sync`), and element-wise atomic accumulates.
//!
//! Everything is built on the team's public operations (symmetric allocation, signals,
//! remote atomics, quiet, barriers), so the epochs work over any [`Transport`](super::Transport). An
//! [`Epochs`] object is created collectively; its control words live in the symmetric heap:
//!
//! | word (per PE)           | used by                                              |
//! |-------------------------|------------------------------------------------------|
//! | `posts[p]`              | PSCW: target `t`'s posts to this origin (`posts[t]`) |
//! | `completions`           | PSCW: completions of this target's exposure epoch    |
//! | `lock`                  | passive target: the lock on this PE (`lockword.rs`)     |
//! | `waiters[2⌈p/64⌉]`      | passive target: writers, then readers, asleep on this PE's lock |
//! | `wake`                  | passive target: rung by an unlock to wake this PE    |
//! | `arrivals[p]`           | fence: PE `s`'s fence count (`fence.rs`)             |
//!
//! # Costs (shared memory)
//!
//! - [`fence`](Epochs::fence): `quiet` + a dissemination barrier on the epochs' own words
//!   (`fence.rs`) — ⌈log2 p⌉ rounds of one store and one wait.
//! - [`post`](Epochs::post) / [`complete`](Epochs::complete): one remote increment per group
//!   member; [`start`](Epochs::start) / [`wait`](Epochs::wait): reads of k local words. O(k),
//!   independent of p.
//! - [`lock`](Epochs::lock) / [`unlock`](Epochs::unlock): one compare-and-swap to lock,
//!   `quiet` and one fetch-add to unlock, when uncontended (nobody waiting: the word says
//!   so, `lockword.rs`), independent of p; [`lock_all`](Epochs::lock_all) takes
//!   a shared lock on every PE (in rank order, so two `lock_all`s cannot deadlock).
//! - [`flush`](Epochs::flush)`(pe)` is `quiet`: a put on one node is a copy into the
//!   target's mapped memory, complete when it returns; what a flush must still give is
//!   *visibility order* — everything before it is visible to whoever sees anything this PE
//!   does after it — and `quiet`'s `SeqCst` fence gives exactly that, toward every PE at
//!   once, so there is nothing to do per target. [`flush_local`](Epochs::flush_local)
//!   (source buffers reusable) is free: a put's source is reusable when it returns.
//!
//! # Models
//!
//! `loom_tests.rs` checks the lock word protocol (`lockword.rs`: mutual exclusion of
//! writers, readers against a writer, sleeping writers and readers each woken by a
//! release) and the PSCW matching (two epochs in a row, no crossing, data visible after
//! `wait`) and the fence's rounds (`fence.rs`: puts before a fence visible to every PE
//! after it, none overwritten before every PE read it) on the real protocol functions.
//!
//! # Misuse
//!
//! Starting without a matching post, waiting without completes, unlocking what is not
//! locked, locking a target twice, fencing inside another epoch: [`TeamError`], never a
//! hang. Waits for another PE's matching call end after the epochs' timeout (their
//! [`Patience`](crate::sync::Patience): default [`DEFAULT_TIMEOUT`], set by
//! [`Epochs::set_patience`], or the call's own in its `_timeout` form) with
//! [`TeamError::EpochTimeout`] naming that PE; a PE that dies
//! ends every wait with [`TeamError::PeerDied`](super::TeamError::PeerDied) naming it — a
//! lock holder that dies releases nothing silently. An [`Epochs`] dropped with an epoch
//! open releases its locks (so no one waits forever), says so on stderr and, in debug
//! builds, panics; [`Epochs::close`] reports it as an error instead.
//!
//! # Waiting
//!
//! The epoch calls that wait for another PE keep the team's convention (the
//! [team module docs](super), "Waiting"): `start`, `wait` and `lock` have three forms (`x`
//! with the epochs' patience, `x_timeout(.., d)`, and `try_x` that does not wait:
//! [`TeamError::WouldBlock`](super::TeamError::WouldBlock));
//! the collective `fence` and `lock_all` (which takes locks in turn) have the first two.

mod accumulate;
pub(crate) mod fence;
pub(crate) mod lockword;
pub(crate) mod matching;

#[cfg(not(loom))]
mod lock;
#[cfg(not(loom))]
mod pscw;

#[cfg(all(test, loom))]
mod loom_tests;

pub use accumulate::{AccElem, AccOp};

use std::time::Duration;

/// How long an epoch wait for another PE's matching call may take by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The kind of a passive-target lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockKind {
    /// One holder (`MPI_LOCK_EXCLUSIVE`).
    Exclusive,
    /// Any number of holders (`MPI_LOCK_SHARED`).
    Shared,
}

#[cfg(not(loom))]
pub use imp::Epochs;

#[cfg(not(loom))]
mod imp {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    use super::matching::Matching;
    use super::{LockKind, DEFAULT_TIMEOUT};
    use crate::sync::{Patience, Until};
    use crate::team::api::Limit;
    use crate::team::{Sym, Team, TeamError, Transport};

    /// One PE's synchronization epochs over a team (an MPI window's synchronization
    /// state); created collectively by [`Epochs::new`]. Module docs: costs and misuse.
    pub struct Epochs<'t, X: Transport> {
        pub(super) team: &'t Team<X>,
        /// `posts[t]`: posts from target `t` (PSCW, origin side).
        pub(super) posts: Sym<u64>,
        /// Completions received (PSCW, target side).
        pub(super) completions: Sym<u64>,
        /// The lock word of this PE.
        pub(super) lock: Sym<u64>,
        /// Bitmaps of PEs waiting for this PE's lock: writers, then readers (`lockword`).
        pub(super) waiters: Sym<u64>,
        /// Rung (a signal add) by an unlock that saw this PE waiting.
        pub(super) wake: Sym<u64>,
        /// `arrivals[s]`: PE `s`'s fence count (`fence.rs`).
        pub(super) arrivals: Sym<u64>,
        /// Fences this PE made (only this PE's thread touches it: Relaxed).
        pub(super) fences: AtomicU64,
        pub(super) matching: Matching,
        /// The targets of the open access epoch (`start`).
        pub(super) access: Option<Vec<usize>>,
        /// The size of the open exposure epoch's group (`post`).
        pub(super) exposure: Option<usize>,
        /// The lock this PE holds on each target.
        pub(super) held: Vec<Option<LockKind>>,
        /// Whether the locks held came from `lock_all`.
        pub(super) all: bool,
        /// How the epoch calls wait by default ([`Epochs::set_patience`]).
        pub(super) patience: Patience,
    }

    impl<X: Transport> std::fmt::Debug for Epochs<'_, X> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("Epochs")
                .field("rank", &self.team.rank())
                .field("access", &self.access)
                .field("exposure", &self.exposure)
                .field("all", &self.all)
                .finish_non_exhaustive()
        }
    }

    impl<'t, X: Transport> Epochs<'t, X> {
        /// Collective: allocates the epoch words on every PE (6 symmetric objects, a few
        /// hundred bytes) and waits until every PE has them (a barrier), so no PE's first
        /// post or lock reaches a PE that has not made its words yet. These waits take the
        /// team's patience; the epochs' own starts as the team's strategy with
        /// [`DEFAULT_TIMEOUT`].
        pub fn new(team: &'t Team<X>) -> Result<Self, TeamError> {
            let p = team.size();
            let posts = team.alloc::<u64>(p)?;
            let completions = team.alloc::<u64>(1)?;
            let lock = team.alloc::<u64>(1)?;
            let waiters = team.alloc::<u64>(2 * p.div_ceil(64))?;
            let wake = team.alloc::<u64>(1)?;
            let arrivals = team.alloc::<u64>(p)?;
            team.barrier_all()?;
            Ok(Epochs {
                team,
                posts,
                completions,
                lock,
                waiters,
                wake,
                arrivals,
                fences: AtomicU64::new(0),
                matching: Matching::new(p),
                access: None,
                exposure: None,
                held: vec![None; p],
                all: false,
                patience: team.patience().with_timeout(Some(DEFAULT_TIMEOUT)),
            })
        }

        /// The team.
        pub fn team(&self) -> &'t Team<X> {
            self.team
        }

        /// How the epoch calls (fence, start, wait, lock, lock_all) wait by default.
        pub fn patience(&self) -> Patience {
            self.patience
        }

        /// Sets how later epoch calls wait by default: the strategy and the timeout after
        /// which a wait for another PE's matching call ends with [`TeamError::EpochTimeout`]
        /// (`None`: no limit; a dead PE still ends the wait). A strategy that may sleep on a
        /// PE that joined with one that never sleeps is refused, as by
        /// [`Team::set_patience`].
        pub fn set_patience(&mut self, patience: Patience) -> Result<(), TeamError> {
            self.team.check_strategy(patience.wait)?;
            self.patience = patience;
            Ok(())
        }

        /// The wait of an epoch call with `limit`, starting now; `None` for a `try_` form.
        pub(super) fn until(&self, limit: Limit) -> Option<Until> {
            match limit {
                Limit::Patience => Some(self.patience.start()),
                Limit::Within(d) => Some(self.patience.start_with(d)),
                Limit::Now => None,
            }
        }

        /// Turns a team timeout of a call with `limit` into one that names the call and the
        /// PE.
        pub(super) fn timed(
            &self,
            op: &'static str,
            what: &'static str,
            pe: Option<usize>,
            limit: Limit,
        ) -> impl Fn(TeamError) -> TeamError + '_ {
            move |e| match e {
                TeamError::Timeout { .. } => TeamError::EpochTimeout {
                    op,
                    what,
                    pe,
                    after: match limit {
                        Limit::Within(d) => d,
                        _ => self.patience.timeout.unwrap_or_default(),
                    },
                },
                e => e,
            }
        }

        /// What is open, if anything: `(name, what closes it)`.
        pub(super) fn open_epoch(&self) -> Option<(&'static str, &'static str)> {
            if self.access.is_some() {
                Some(("an access epoch (start)", "call complete() first"))
            } else if self.exposure.is_some() {
                Some((
                    "an exposure epoch (post)",
                    "call wait() or try_wait() first",
                ))
            } else if self.all {
                Some(("a lock_all epoch", "call unlock_all() first"))
            } else if self.held.iter().any(Option::is_some) {
                Some(("a lock epoch", "unlock every locked PE first"))
            } else {
                None
            }
        }

        /// Checks a group: PEs of the team, each once; returns it.
        pub(super) fn group(
            &self,
            op: &'static str,
            group: &[usize],
        ) -> Result<Vec<usize>, TeamError> {
            let p = self.team.size();
            let mut seen = vec![false; p];
            for &g in group {
                if g >= p {
                    return Err(TeamError::BadGroup {
                        op,
                        why: format!("PE {g} is not in the team (ranks 0 to {})", p - 1),
                    });
                }
                if std::mem::replace(&mut seen[g], true) {
                    return Err(TeamError::BadGroup {
                        op,
                        why: format!("PE {g} is listed twice; name each PE once"),
                    });
                }
            }
            Ok(group.to_vec())
        }

        // ---- fence, flush, sync ------------------------------------------------------

        /// Collective `MPI_Win_fence`: completes this PE's puts and atomics and waits until
        /// every PE has done the same — `quiet` + a dissemination barrier on the epochs'
        /// words (`fence.rs`), ⌈log2 p⌉ rounds. Every put made before any PE's fence is
        /// visible to every PE after it. Not inside a PSCW or lock epoch
        /// ([`TeamError::EpochOpen`]); a PE that does not fence ends the wait after the
        /// epochs' timeout ([`TeamError::EpochTimeout`] naming the PE waited for).
        pub fn fence(&self) -> Result<(), TeamError> {
            self.fence_within(Limit::Patience)
        }

        /// [`fence`](Self::fence) waiting at most `timeout` in all.
        pub fn fence_timeout(&self, timeout: Duration) -> Result<(), TeamError> {
            self.fence_within(Limit::Within(timeout))
        }

        fn fence_within(&self, limit: Limit) -> Result<(), TeamError> {
            if let Some((open, how)) = self.open_epoch() {
                return Err(TeamError::EpochOpen {
                    op: "fence",
                    open,
                    how,
                });
            }
            self.team.quiet();
            // Relaxed: a count private to this PE (the words carry the ordering); a load and
            // a store, not a read-modify-write (a locked instruction on x86): the fence is
            // collective, so one thread of the PE makes it at a time.
            let n = self.fences.load(Ordering::Relaxed) + 1;
            self.fences.store(n, Ordering::Relaxed);
            super::fence::dissemination(&super::fence::Fencing::new(self, limit), n)
        }

        /// `MPI_Win_flush(pe)`: completes this PE's operations toward `pe` — `quiet` (module
        /// docs: why that suffices on shared memory). Inside a lock epoch on `pe`.
        pub fn flush(&self, pe: usize) -> Result<(), TeamError> {
            self.locked("flush", pe)?;
            self.team.quiet();
            Ok(())
        }

        /// `MPI_Win_flush_all`: [`flush`](Self::flush) toward every locked PE (one `quiet`).
        pub fn flush_all(&self) -> Result<(), TeamError> {
            if !self.all && self.held.iter().all(Option::is_none) {
                return Err(TeamError::NoEpoch {
                    op: "flush_all",
                    needs: "lock or lock_all",
                });
            }
            self.team.quiet();
            Ok(())
        }

        /// `MPI_Win_flush_local(pe)`: the source buffers of this PE's puts toward `pe` may
        /// be reused — true on shared memory as soon as a put returns, so only the lock is
        /// checked.
        pub fn flush_local(&self, pe: usize) -> Result<(), TeamError> {
            self.locked("flush_local", pe).map(|_| ())
        }

        /// `MPI_Win_sync`: a full memory fence between this PE's local accesses to its own
        /// heap and other PEs' remote ones (`quiet`, a `SeqCst` fence).
        pub fn sync(&self) {
            self.team.quiet();
        }

        pub(super) fn locked(&self, op: &'static str, pe: usize) -> Result<LockKind, TeamError> {
            let p = self.team.size();
            if pe >= p {
                return Err(TeamError::NoSuchPe { pe, size: p });
            }
            self.held[pe].ok_or(TeamError::NotLocked { op, pe })
        }

        /// Ends the epochs object: [`TeamError::EpochOpen`] if an epoch is still open (its
        /// locks are released all the same, so no other PE waits for them).
        pub fn close(mut self) -> Result<(), TeamError> {
            let open = self.open_epoch();
            self.release_all();
            match open {
                Some((open, how)) => Err(TeamError::EpochOpen {
                    op: "close",
                    open,
                    how,
                }),
                None => Ok(()),
            }
        }

        /// Releases every lock held and forgets the PSCW epochs (best effort).
        fn release_all(&mut self) {
            for pe in 0..self.held.len() {
                if self.held[pe].is_some() {
                    let _ = self.release(pe, "close");
                }
            }
            self.all = false;
            self.access = None;
            self.exposure = None;
        }
    }

    impl<X: Transport> Drop for Epochs<'_, X> {
        fn drop(&mut self) {
            if let Some((open, how)) = self.open_epoch() {
                self.release_all();
                // One write(2) for the whole line, so PEs' lines never interleave mid-line.
                let line = format!(
                    "handoff: PE {}: Epochs dropped with {open} ({how}); its locks were released\n",
                    self.team.rank()
                );
                let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
                if cfg!(debug_assertions) && !std::thread::panicking() {
                    panic!("Epochs dropped with {open}: {how}, or end it with Epochs::close");
                }
            }
        }
    }
}
