//! Whether writes to other PEs' heaps must ring their bells (`ShmParts::must_ring`).
//!
//! A heap bell is slept on only by the team's own PEs, each waiting with the strategy it
//! joined with, fixed for its life. Each PE publishes at join whether that strategy may sleep
//! (`PeCtrl::sleeps`, [`published`]). When every PE has said it never sleeps (it spins), no
//! heap bell of the team can ever have a sleeper, and a writer skips the ring: its SeqCst
//! fence stalls the writer until its store leaves the store buffer, a cache-line transfer on
//! a hand-off's critical path (issue #23). A spinning waiter needs no wake-up: the loom model
//! `loom_rangebell_spinning_waiter_needs_no_ring` checks that an unrung write still ends it.
//!
//! Until every PE has joined the verdict stays open and writers ring; a value this version
//! does not know counts as "may sleep".

use super::layout::{MAY_SLEEP, NEVER_SLEEPS, SLEEPS_UNKNOWN};
use crate::sync::Wait;

/// `ShmParts::bells`: not decided yet.
pub(super) const BELLS_UNDECIDED: u8 = 0;
/// `ShmParts::bells`: some PE may sleep; ring.
pub(super) const BELLS_RING: u8 = 1;
/// `ShmParts::bells`: no PE ever sleeps on a heap bell; skip the rings.
pub(super) const BELLS_QUIET: u8 = 2;

/// What a PE joining with wait strategy `wait` publishes in `PeCtrl::sleeps`.
pub(super) fn published(wait: Wait) -> u32 {
    if wait.may_sleep() {
        MAY_SLEEP
    } else {
        NEVER_SLEEPS
    }
}

/// The team's verdict on its heap bells from every PE's `PeCtrl::sleeps`: [`BELLS_QUIET`]
/// when every PE never sleeps, [`BELLS_RING`] when one may (or holds a value this version
/// does not know), `None` while one is unknown (not joined yet) and none may.
pub(super) fn bells_verdict(sleeps: impl IntoIterator<Item = u32>) -> Option<u8> {
    let mut verdict = Some(BELLS_QUIET);
    for s in sleeps {
        match s {
            NEVER_SLEEPS => {}
            SLEEPS_UNKNOWN => verdict = None,
            _ => return Some(BELLS_RING), // `MAY_SLEEP`, or a value we do not know: ring
        }
    }
    verdict
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// Writers skip the bells only when every PE has said it never sleeps: one PE that may
    /// sleep (wherever it is in the team) makes them ring, and a PE not joined yet keeps
    /// the question open unless another PE may sleep already.
    #[test]
    fn bells_are_quiet_only_when_no_pe_may_sleep() {
        let (n, m, u) = (NEVER_SLEEPS, MAY_SLEEP, SLEEPS_UNKNOWN);
        assert_eq!(bells_verdict([n, n, n]), Some(BELLS_QUIET));
        assert_eq!(bells_verdict([n]), Some(BELLS_QUIET));
        assert_eq!(bells_verdict([m, n]), Some(BELLS_RING));
        assert_eq!(bells_verdict([n, n, m]), Some(BELLS_RING));
        assert_eq!(bells_verdict([n, u, n]), None);
        assert_eq!(bells_verdict([u, m]), Some(BELLS_RING));
        assert_eq!(bells_verdict([n, 7]), Some(BELLS_RING), "garbage: ring");
        // A spinning strategy never sleeps; the others may (what `join` publishes).
        assert_eq!(published(Wait::Spin), NEVER_SLEEPS);
        assert_eq!(published(Wait::SpinYield), NEVER_SLEEPS);
        assert_eq!(published(Wait::Block), MAY_SLEEP);
        assert_eq!(published(Wait::ADAPTIVE), MAY_SLEEP);
    }
}
