//! The ready protocol of a segment header (module docs, "Ready state"), as small functions
//! on the atomic facade's words so the loom models check exactly this code.

use super::header::Header;
use super::open::NOT_READY;
use super::{Result, SegmentError, ABANDONED, INITIALIZING, MAGIC, READY};
use crate::atomic::{AtomicU32, Ordering};
use crate::sys::{futex, mem, Deadline};
use std::time::Duration;

/// How long one futex sleep lasts at most while waiting for `READY`, so a dead creator is
/// noticed.
pub(super) const READY_POLL: Duration = Duration::from_millis(50);

// ---------------------------------------------------------------------------------------
// The two lock-free protocols of the header, as small functions on the facade's atomics
// (std's in a real segment, loom's in the `loom_tests` models below).
// ---------------------------------------------------------------------------------------

/// Ready protocol, creator side: `INITIALIZING -> READY`, then wakes every waiting opener.
/// Returns whether this call made the transition (false once published or abandoned).
pub(super) fn publish_ready_word(ready: &AtomicU32) -> bool {
    // Release: pairs with the Acquire load in `await_ready_word` (and `Segment::is_ready`),
    // so an opener that sees READY also sees the header and payload written before.
    let won = ready
        .compare_exchange(INITIALIZING, READY, Ordering::Release, Ordering::Relaxed)
        .is_ok();
    if won {
        futex::wake_all(ready);
    }
    won
}

/// Ready protocol, creator giving up before publishing: `INITIALIZING -> ABANDONED`, then
/// wakes every waiting opener. Returns whether this call made the transition.
pub(super) fn abandon_ready_word(ready: &AtomicU32) -> bool {
    // Release: pairs with the Acquire load in `await_ready_word` (an opener then fails with
    // Abandoned instead of waiting for its deadline).
    let won = ready
        .compare_exchange(
            INITIALIZING,
            ABANDONED,
            Ordering::Release,
            Ordering::Relaxed,
        )
        .is_ok();
    if won {
        futex::wake_all(ready);
    }
    won
}

/// How [`await_ready_word`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReadyWait {
    /// `READY`: everything the creator wrote before publishing is visible.
    Ready,
    /// `ABANDONED`: the creator dropped the segment before publishing it.
    Abandoned,
    /// Still `INITIALIZING`, but `creator_gone` said the creator is dead.
    CreatorGone,
    /// Still `INITIALIZING` at the deadline.
    TimedOut,
    /// The word holds no state (a foreign or corrupt object).
    BadState(u32),
}

/// Ready protocol, opener side: waits (futex) until the ready word leaves `INITIALIZING`,
/// `creator_gone()` returns true, or `deadline` passes (`None`: no deadline).
///
/// Sleeps in slices of at most [`READY_POLL`] so a dead creator is noticed; under loom (no
/// time in the model) it sleeps untimed when there is no deadline, so a lost wake-up shows
/// up as a deadlock.
pub(super) fn await_ready_word(
    ready: &AtomicU32,
    deadline: Option<Deadline>,
    mut creator_gone: impl FnMut() -> bool,
) -> ReadyWait {
    loop {
        // Acquire: pairs with the Release CAS in `publish_ready_word` (and the one in
        // `abandon_ready_word`): the header fields read after READY are the creator's.
        match ready.load(Ordering::Acquire) {
            READY => return ReadyWait::Ready,
            INITIALIZING => {}
            ABANDONED => return ReadyWait::Abandoned,
            found => return ReadyWait::BadState(found),
        }
        if creator_gone() {
            return ReadyWait::CreatorGone;
        }
        if deadline.is_some_and(Deadline::expired) {
            return ReadyWait::TimedOut;
        }
        let slice = if cfg!(loom) {
            deadline
        } else {
            let poll = Deadline::after(READY_POLL);
            Some(deadline.map_or(poll, |d| d.min(poll)))
        };
        futex::wait(ready, INITIALIZING, slice);
    }
}

/// Waits until the ready word says `READY` (or fails: `OpenTimedOut` at the deadline,
/// abandoned, bad state).
pub(super) fn wait_ready(
    h: &Header,
    name: &str,
    creator_pid: u32,
    deadline: Deadline,
) -> Result<()> {
    let abandoned = || SegmentError::Abandoned {
        name: name.to_string(),
        pid: creator_pid,
    };
    match await_ready_word(&h.ready, Some(deadline), || mem::pid_is_gone(creator_pid)) {
        ReadyWait::Ready => Ok(()),
        ReadyWait::Abandoned | ReadyWait::CreatorGone => Err(abandoned()),
        ReadyWait::TimedOut => Err(SegmentError::OpenTimedOut {
            name: name.to_string(),
            state: NOT_READY,
        }),
        ReadyWait::BadState(found) => {
            // A foreign object most likely: its magic tells.
            let magic = h.magic;
            if magic != MAGIC {
                return Err(SegmentError::BadMagic { found: magic });
            }
            Err(SegmentError::BadState { found })
        }
    }
}
