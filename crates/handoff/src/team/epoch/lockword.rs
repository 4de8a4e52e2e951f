//! The passive-target lock protocol on one 64-bit word per target PE, manipulated only by
//! remote atomics (foMPI's design: a word with an exclusive bit and a shared count, changed
//! by compare-and-swap and fetch-and-add on the target's memory; no lock server, no
//! messages).
//!
//! ```text
//! bit 63       WRITER   an exclusive holder
//! bits 32..62  WAITING  writers that announced themselves and wait (a count)
//! bits 0..31   READERS  shared holders (a count)
//! ```
//!
//! - A writer first adds one to WAITING (fetch-add), then retries a CAS that moves it from
//!   WAITING to WRITER when neither WRITER nor READERS is set.
//! - A reader CASes READERS + 1 only when neither WRITER nor WAITING is set: once a writer
//!   has announced itself no new reader gets in, so the readers drain and the writer cannot
//!   be starved by a stream of readers (writer preference; a stream of writers can delay
//!   readers, which is the usual trade and the one foMPI makes).
//! - Unlock is one fetch-add: −WRITER or −1.
//!
//! The functions are written over [`LockWord`], one remote word: the team's remote atomic
//! in the library, `ops::apply_atomic64` on a loom atomic in the models — the same code.
//!
//! # Memory ordering
//!
//! Every step is a team atomic, `AcqRel` (`ops::apply_atomic64`): the successful CAS that
//! takes the lock is the Acquire partner of the Release fetch-add of the previous holder's
//! unlock (the word's modification order links them), so what that holder put before its
//! unlock is visible to the next holder.

#![cfg_attr(loom, allow(dead_code))] // the team that calls these is not built under loom

use crate::team::AtomicOp;

/// An exclusive holder.
pub(crate) const WRITER: u64 = 1 << 63;
/// One announced, waiting writer.
pub(crate) const WAITING_ONE: u64 = 1 << 32;
/// The waiting-writer count.
pub(crate) const WAITING: u64 = 0x7FFF_FFFF << 32;
/// The shared-holder count.
pub(crate) const READERS: u64 = 0xFFFF_FFFF;

/// One lock word, wherever it lives.
pub(crate) trait LockWord {
    /// Why an access failed (a dead PE, a bad address).
    type Err;
    /// A remote atomic on the word, returning the value before it.
    fn rmw(&self, op: AtomicOp<u64>) -> Result<u64, Self::Err>;
}

/// A writer announces itself (before its first [`try_exclusive`]).
pub(crate) fn announce_writer<L: LockWord>(w: &L) -> Result<(), L::Err> {
    w.rmw(AtomicOp::FetchAdd(WAITING_ONE)).map(|_| ())
}

/// An announced writer gives up (its wait failed): removes its announcement.
pub(crate) fn withdraw_writer<L: LockWord>(w: &L) -> Result<(), L::Err> {
    w.rmw(AtomicOp::FetchAdd(WAITING_ONE.wrapping_neg()))
        .map(|_| ())
}

/// One attempt of an announced writer to take the lock.
pub(crate) fn try_exclusive<L: LockWord>(w: &L) -> Result<bool, L::Err> {
    let v = w.rmw(AtomicOp::Fetch)?;
    if v & (WRITER | READERS) != 0 || v & WAITING == 0 {
        return Ok(false);
    }
    let new = v - WAITING_ONE + WRITER;
    Ok(w.rmw(AtomicOp::CompareSwap { expected: v, new })? == v)
}

/// One attempt of a reader to take the lock shared.
pub(crate) fn try_shared<L: LockWord>(w: &L) -> Result<bool, L::Err> {
    let v = w.rmw(AtomicOp::Fetch)?;
    if v & (WRITER | WAITING) != 0 || v & READERS == READERS {
        return Ok(false);
    }
    Ok(w.rmw(AtomicOp::CompareSwap {
        expected: v,
        new: v + 1,
    })? == v)
}

/// Releases an exclusive lock; returns the word before (WRITER must have been set).
pub(crate) fn unlock_exclusive<L: LockWord>(w: &L) -> Result<u64, L::Err> {
    w.rmw(AtomicOp::FetchAdd(WRITER.wrapping_neg()))
}

/// Releases a shared lock; returns the word before (READERS must have been > 0).
pub(crate) fn unlock_shared<L: LockWord>(w: &L) -> Result<u64, L::Err> {
    w.rmw(AtomicOp::FetchAdd(u64::MAX))
}

impl LockWord for crate::atomic::AtomicU64 {
    type Err = std::convert::Infallible;
    fn rmw(&self, op: AtomicOp<u64>) -> Result<u64, Self::Err> {
        Ok(crate::team::ops::apply_atomic64(self, op))
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::atomic::AtomicU64;

    fn ok<T>(r: Result<T, std::convert::Infallible>) -> T {
        match r {
            Ok(v) => v,
        }
    }

    #[test]
    fn readers_share_writers_exclude() {
        let w = AtomicU64::new(0);
        assert!(ok(try_shared(&w)));
        assert!(ok(try_shared(&w)));
        ok(announce_writer(&w));
        // Two readers hold: the writer waits; a third reader is kept out by the announcement.
        assert!(!ok(try_exclusive(&w)));
        assert!(
            !ok(try_shared(&w)),
            "a waiting writer must keep new readers out"
        );
        assert_eq!(ok(unlock_shared(&w)), WAITING_ONE + 2);
        assert!(!ok(try_exclusive(&w)));
        ok(unlock_shared(&w));
        assert!(ok(try_exclusive(&w)));
        assert_eq!(w.load(crate::atomic::Ordering::Relaxed), WRITER);
        // A second writer cannot enter, nor a reader.
        ok(announce_writer(&w));
        assert!(!ok(try_exclusive(&w)));
        assert!(!ok(try_shared(&w)));
        assert_eq!(ok(unlock_exclusive(&w)), WRITER | WAITING_ONE);
        assert!(ok(try_exclusive(&w)));
        ok(unlock_exclusive(&w));
        assert_eq!(w.load(crate::atomic::Ordering::Relaxed), 0);
    }

    #[test]
    fn a_writer_that_did_not_announce_cannot_take_the_lock() {
        let w = AtomicU64::new(0);
        assert!(!ok(try_exclusive(&w)));
        ok(announce_writer(&w));
        ok(withdraw_writer(&w));
        assert_eq!(w.load(crate::atomic::Ordering::Relaxed), 0);
        assert!(ok(try_shared(&w)));
    }
}
