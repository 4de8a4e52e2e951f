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
//! - A writer first tries one CAS from 0 (free) to WRITER ([`try_free_exclusive`]: the
//!   uncontended lock). Failing that it adds one to WAITING (fetch-add), then retries a CAS
//!   that moves it from WAITING to WRITER when neither WRITER nor READERS is set.
//! - A reader CASes READERS + 1 only when neither WRITER nor WAITING is set: once a writer
//!   has announced itself no new reader gets in, so the readers drain and the writer cannot
//!   be starved by a stream of readers (writer preference; a stream of writers can delay
//!   readers, which is the usual trade and the one foMPI makes).
//! - Unlock is one fetch-add: −WRITER or −1.
//!
//! The functions are written over [`LockWord`], one remote word: the team's remote atomic
//! in the library, `ops::apply_atomic64` on a loom atomic in the models — the same code.
//!
//! # Waking the next waiter
//!
//! A locker that must wait sets its bit in the target's waiter map ([`WaiterMap`]: writers'
//! bits in one half, readers' in the other), puts a `SeqCst` fence between that bit and its
//! retries, and sleeps on a wake word of its own. A release fences between its fetch-add
//! and its reads of the map, then ([`wake_next`]) wakes only waiters who can enter now, by
//! the word after the release ([`to_wake`]):
//! - the lock still exclusive, or readers still in while a writer waits: nobody (the
//!   holder's, or the last reader's, release will wake);
//! - a writer announced and nobody in: **one** writer, the first whose bit is set in rank
//!   order after the releaser (a ring, so writers take turns);
//! - no writer announced: the waiting readers (all of them can enter together).
//!
//! Either the waiter's retry sees the release, or the release's read of the map sees the
//! bit (store buffering is forbidden between two `SeqCst` fences). A woken writer that
//! finds the lock taken again (a locker that did not wait got in first) sleeps again with
//! its bit still set, and that holder's release wakes the next one; a waiter that gives up
//! (timeout, dead holder) clears its bit, withdraws, and calls [`wake_next`] itself, so a
//! wake-up it was sent is passed on. The loom model `loom_epoch_lock_wakes_the_next_writer`
//! runs these functions with sleeps that only a wake ends.
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

/// A writer's first attempt, before it announces itself: one CAS that takes the word when
/// it is free (no holder, no writer announced). On `false` the writer announces itself and
/// retries ([`announce_writer`], [`try_exclusive`]); readers that wait on the map are not
/// overtaken unfairly: a free word means the last release already woke them, as for any
/// writer that gets in first.
pub(crate) fn try_free_exclusive<L: LockWord>(w: &L) -> Result<bool, L::Err> {
    Ok(w.rmw(AtomicOp::CompareSwap {
        expected: 0,
        new: WRITER,
    })? == 0)
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

/// Whom a release wakes, by the lock word after it (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wake {
    /// Nobody can enter yet; a later release wakes.
    Nobody,
    /// One waiting writer.
    OneWriter,
    /// Every waiting reader.
    Readers,
}

/// Whom a release that left the word at `after` wakes (module docs).
pub(crate) fn to_wake(after: u64) -> Wake {
    if after & WRITER != 0 {
        Wake::Nobody
    } else if after & WAITING != 0 {
        if after & READERS == 0 {
            Wake::OneWriter
        } else {
            Wake::Nobody
        }
    } else {
        Wake::Readers
    }
}

/// The waiter map of one PE's lock: `2 × words()` remote words, bit `r % 64` of word
/// `r / 64` for a writer of rank `r`, of word `words() + r / 64` for a reader.
pub(crate) trait WaiterMap {
    /// Why an access failed.
    type Err;
    /// The team size.
    fn size(&self) -> usize;
    /// Reads map word `i` (an atomic fetch).
    fn fetch(&self, i: usize) -> Result<u64, Self::Err>;
    /// Wakes PE `pe` (a signal on its wake word).
    fn wake(&self, pe: usize) -> Result<(), Self::Err>;
    /// Words per half: ⌈size / 64⌉.
    fn words(&self) -> usize {
        self.size().div_ceil(64)
    }
}

/// The map word and bit of rank `r`'s wait of `kind` (writer or not) in a map of `words`
/// words per half.
pub(crate) fn waiter_bit(r: usize, writer: bool, words: usize) -> (usize, u64) {
    let half = if writer { 0 } else { words };
    (half + r / 64, 1u64 << (r % 64))
}

/// After a release that left the word at `after`, by PE `me`: wakes who can enter now
/// ([`to_wake`]): the first writer in rank order after `me`, or every waiting reader.
/// Returns how many it woke. Call it after the release and a `SeqCst` fence.
pub(crate) fn wake_next<M: WaiterMap>(m: &M, after: u64, me: usize) -> Result<usize, M::Err> {
    let (writers, half) = match to_wake(after) {
        Wake::Nobody => return Ok(0),
        Wake::OneWriter => (true, 0),
        Wake::Readers => (false, m.words()),
    };
    let (p, words) = (m.size(), m.words());
    let start = (me + 1) % p;
    let mut woke = 0;
    // Word `start / 64` from bit `start % 64` up, the other words, then that first word's
    // bits below `start % 64`: every rank once, in ring order from `start`.
    for k in 0..=words {
        let i = (start / 64 + k) % words;
        let mut bits = m.fetch(half + i)?;
        if k == 0 {
            bits &= u64::MAX << (start % 64);
        }
        if k == words {
            bits &= (1u64 << (start % 64)) - 1;
        }
        while bits != 0 {
            m.wake(i * 64 + bits.trailing_zeros() as usize)?;
            woke += 1;
            if writers {
                return Ok(woke);
            }
            bits &= bits - 1;
        }
    }
    Ok(woke)
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

    /// The uncontended lock is one CAS, and only on a free word: a holder, a reader or an
    /// announced writer makes it fail and leaves the word as it was.
    #[test]
    fn the_free_word_cas_takes_only_a_free_word() {
        let w = AtomicU64::new(0);
        assert!(ok(try_free_exclusive(&w)));
        assert_eq!(ok(w.rmw(AtomicOp::Fetch)), WRITER);
        for busy in [WRITER, 1, WAITING_ONE, WAITING_ONE + 2] {
            let w = AtomicU64::new(busy);
            assert!(!ok(try_free_exclusive(&w)), "{busy:#x}");
            assert_eq!(ok(w.rmw(AtomicOp::Fetch)), busy);
        }
        // Released, the word is free again for the next uncontended writer.
        let w = AtomicU64::new(0);
        assert!(ok(try_free_exclusive(&w)));
        assert_eq!(ok(unlock_exclusive(&w)), WRITER);
        assert!(ok(try_free_exclusive(&w)));
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

    /// A map over plain words that records whom it woke.
    struct Map {
        size: usize,
        words: Vec<u64>,
        woke: std::cell::RefCell<Vec<usize>>,
    }

    impl Map {
        fn new(size: usize, writers: &[usize], readers: &[usize]) -> Map {
            let n = size.div_ceil(64);
            let mut words = vec![0; 2 * n];
            for (list, writer) in [(writers, true), (readers, false)] {
                for &r in list {
                    let (i, b) = waiter_bit(r, writer, n);
                    words[i] |= b;
                }
            }
            Map {
                size,
                words,
                woke: Default::default(),
            }
        }
    }

    impl WaiterMap for Map {
        type Err = std::convert::Infallible;
        fn size(&self) -> usize {
            self.size
        }
        fn fetch(&self, i: usize) -> Result<u64, Self::Err> {
            Ok(self.words[i])
        }
        fn wake(&self, pe: usize) -> Result<(), Self::Err> {
            self.woke.borrow_mut().push(pe);
            Ok(())
        }
    }

    #[test]
    fn a_release_wakes_the_next_writer_only() {
        // Writers 1, 3 and 70 wait (and readers 2, 5): the lock is free, a writer announced.
        let m = Map::new(100, &[1, 3, 70], &[2, 5]);
        assert_eq!(ok(wake_next(&m, WAITING_ONE * 3, 0)), 1);
        assert_eq!(ok(wake_next(&m, WAITING_ONE * 3, 1)), 1);
        assert_eq!(ok(wake_next(&m, WAITING_ONE * 3, 3)), 1);
        // From 70 the ring wraps to 1; from 99 (last) too.
        assert_eq!(ok(wake_next(&m, WAITING_ONE * 3, 70)), 1);
        assert_eq!(ok(wake_next(&m, WAITING_ONE * 3, 99)), 1);
        assert_eq!(*m.woke.borrow(), vec![1, 3, 70, 1, 1]);
        // Still held (exclusive, or readers in front of a writer): nobody.
        m.woke.borrow_mut().clear();
        assert_eq!(ok(wake_next(&m, WRITER | WAITING_ONE, 0)), 0);
        assert_eq!(ok(wake_next(&m, WAITING_ONE + 1, 0)), 0);
        // No writer announced: every waiting reader, none of the writers.
        assert_eq!(ok(wake_next(&m, 0, 4)), 2);
        assert_eq!(ok(wake_next(&m, 1, 0)), 2);
        assert_eq!(*m.woke.borrow(), vec![5, 2, 2, 5]);
        // One word, the releaser the only bit below the start: found after the wrap.
        let m = Map::new(4, &[0], &[]);
        assert_eq!(ok(wake_next(&m, WAITING_ONE, 2)), 1);
        assert_eq!(*m.woke.borrow(), vec![0]);
        assert_eq!(to_wake(WAITING_ONE), Wake::OneWriter);
        assert_eq!(to_wake(0), Wake::Readers);
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
