//! The passive-target lock protocol on one 64-bit word per target PE, manipulated only by
//! remote atomics (foMPI's design: a word with an exclusive bit and a shared count, changed
//! by compare-and-swap and fetch-and-add on the target's memory; no lock server, no
//! messages).
//!
//! ```text
//! bit 63       WRITER   an exclusive holder
//! bit 62       RWAIT    a reader may be asleep waiting (set by the reader, cleared by a release
//!                       that wakes the readers)
//! bits 32..61  WAITING  writers that announced themselves and wait (a count)
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
//! - Unlock is one fetch-add: −WRITER or −1. When the word before it shows nobody waiting
//!   (no WAITING, no RWAIT: [`must_wake`]) that is all: an uncontended lock and unlock are
//!   one CAS and one fetch-add on the word, and no other word is read or written.
//!
//! The functions are written over [`LockWord`], one remote word: the team's remote atomic
//! in the library, `ops::apply_atomic64` on a loom atomic in the models — the same code.
//!
//! # Waking the next waiter
//!
//! A locker that must wait sets its bit in the target's waiter map ([`WaiterMap`]: writers'
//! bits in one half, readers' in the other) and sleeps on a wake word of its own. A writer
//! has announced itself in the word already (WAITING); a reader says so in the word after
//! setting its bit: each of its retries that fails ends with a fetch-or of RWAIT
//! ([`try_shared_or_flag`]), and it sleeps only when the word that fetch-or returned still
//! keeps readers out. A release whose word before shows a waiter ([`must_wake`]) wakes, by
//! the word after it ([`to_wake`]), only waiters who can enter now ([`wake_next`]):
//! - the lock still exclusive, or readers still in while a writer waits: nobody (the
//!   holder's, or the last reader's, release will wake);
//! - a writer announced and nobody in: **one** writer, the first whose bit is set in rank
//!   order after the releaser (a ring, so writers take turns);
//! - no writer announced and RWAIT set: the releaser clears RWAIT with a CAS that also
//!   checks that no writer announced meanwhile ([`clear_readers_waiting`]; if one did, its
//!   release wakes the readers), then wakes every reader whose bit is set (all of them can
//!   enter together).
//!
//! Why no wake-up is lost:
//! - *Writers*: the bit and the lock word are different words, so each side puts a `SeqCst`
//!   fence between its two accesses (the waiter between its bit and its retries, the release
//!   between its fetch-add and its reads of the map): either the waiter's retry sees the
//!   release, or the release's read of the map sees the bit (store buffering is forbidden
//!   between two `SeqCst` fences). A release that saw no WAITING came before the writer's
//!   announcement in the word's order, so the writer's retries see it.
//! - *Readers*: RWAIT and the release are read-modify-writes of the same word. If the
//!   reader's fetch-or comes first, the release sees RWAIT, and the CAS that clears it reads
//!   from the reader's fetch-or (or a later read-modify-write), so it sees the reader's bit
//!   (Release/Acquire along the word's modification order); if the release comes first, the
//!   fetch-or returns a word that lets the reader in and it retries instead of sleeping.
//!   A reader woken that finds a writer in again sets RWAIT again before it sleeps, and that
//!   writer's release wakes it.
//!
//! A woken writer that finds the lock taken again (a locker that did not wait got in first)
//! sleeps again with its bit still set, and that holder's release wakes the next one; a
//! waiter that gives up (timeout, dead holder) clears its bit, withdraws, and calls
//! [`wake_next`] itself, so a wake-up it was sent is passed on. A RWAIT left set by a reader
//! that gave up or got in on a retry costs the next release one empty scan of the readers'
//! map, which clears it. The loom models `loom_epoch_lock_wakes_the_next_writer` and
//! `loom_epoch_lock_wakes_a_sleeping_reader` run these functions with sleeps that only a
//! wake ends.
//!
//! # Memory ordering
//!
//! Every step is a team atomic, `AcqRel` (`ops::apply_atomic64`): the successful CAS that
//! takes the lock is the Acquire partner of the Release fetch-add of the previous holder's
//! unlock (the word's modification order links them), so what that holder put before its
//! unlock is visible to the next holder; a reader's Release fetch-or of RWAIT is the partner
//! of the Acquire CAS that clears it (module docs above: its bit is then visible).

#![cfg_attr(loom, allow(dead_code))] // the team that calls these is not built under loom

use crate::team::AtomicOp;

/// An exclusive holder.
pub(crate) const WRITER: u64 = 1 << 63;
/// A reader may be asleep waiting (module docs).
pub(crate) const RWAIT: u64 = 1 << 62;
/// One announced, waiting writer.
pub(crate) const WAITING_ONE: u64 = 1 << 32;
/// The waiting-writer count.
pub(crate) const WAITING: u64 = 0x3FFF_FFFF << 32;
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

/// One attempt of an announced writer to take the lock: `false` only when a holder is in
/// (whose release sees WAITING and wakes a writer). A CAS that fails because the word
/// changed otherwise — a waiting reader's RWAIT, another writer's announcement — is retried
/// on the word it saw: a writer that slept on such a failure would never be woken.
pub(crate) fn try_exclusive<L: LockWord>(w: &L) -> Result<bool, L::Err> {
    let mut v = w.rmw(AtomicOp::Fetch)?;
    loop {
        if v & (WRITER | READERS) != 0 || v & WAITING == 0 {
            return Ok(false);
        }
        let new = v - WAITING_ONE + WRITER;
        let seen = w.rmw(AtomicOp::CompareSwap { expected: v, new })?;
        if seen == v {
            return Ok(true);
        }
        v = seen;
    }
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

/// A reader's retry while it waits: [`try_shared`]; if that fails, sets RWAIT (fetch-or)
/// and tries again when the word it returned lets readers in. `false`: the reader may
/// sleep, a release that can let it in will see RWAIT (module docs).
pub(crate) fn try_shared_or_flag<L: LockWord>(w: &L) -> Result<bool, L::Err> {
    loop {
        if try_shared(w)? {
            return Ok(true);
        }
        let v = w.rmw(AtomicOp::FetchOr(RWAIT))?;
        if v & (WRITER | WAITING) != 0 || v & READERS == READERS {
            return Ok(false);
        }
    }
}

/// Whether the release that found the word at `before` must look for waiters to wake: a
/// writer announced or a reader flagged itself. When not, nobody sleeps on this lock who
/// could not see the release by itself (module docs).
#[inline]
pub(crate) fn must_wake(before: u64) -> bool {
    before & (WAITING | RWAIT) != 0
}

/// Clears RWAIT before the readers are woken, unless a writer holds the lock or announced
/// itself meanwhile (then that writer's release wakes them). `true`: RWAIT was set and is
/// now cleared by this call, so this caller wakes the readers.
pub(crate) fn clear_readers_waiting<L: LockWord>(w: &L) -> Result<bool, L::Err> {
    let mut v = w.rmw(AtomicOp::Fetch)?;
    loop {
        if v & RWAIT == 0 || v & (WRITER | WAITING) != 0 {
            return Ok(false);
        }
        let seen = w.rmw(AtomicOp::CompareSwap {
            expected: v,
            new: v & !RWAIT,
        })?;
        if seen == v {
            return Ok(true);
        }
        v = seen;
    }
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
    /// Every waiting reader (when one flagged itself: RWAIT).
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
    } else if after & RWAIT != 0 {
        Wake::Readers
    } else {
        Wake::Nobody
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

/// After a release that left the word `w` at `after`, by PE `me`: wakes who can enter now
/// ([`to_wake`]): the first writer in rank order after `me`, or (clearing RWAIT first,
/// [`clear_readers_waiting`]) every waiting reader. Returns how many it woke. Call it after
/// the release and a `SeqCst` fence, when [`must_wake`] says so.
pub(crate) fn wake_next<L: LockWord, M: WaiterMap<Err = L::Err>>(
    w: &L,
    m: &M,
    after: u64,
    me: usize,
) -> Result<usize, L::Err> {
    let (writers, half) = match to_wake(after) {
        Wake::Nobody => return Ok(0),
        Wake::OneWriter => (true, 0),
        Wake::Readers if clear_readers_waiting(w)? => (false, m.words()),
        Wake::Readers => return Ok(0),
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
        let w = AtomicU64::new(WAITING_ONE * 3);
        assert_eq!(ok(wake_next(&w, &m, WAITING_ONE * 3, 0)), 1);
        assert_eq!(ok(wake_next(&w, &m, WAITING_ONE * 3, 1)), 1);
        assert_eq!(ok(wake_next(&w, &m, WAITING_ONE * 3, 3)), 1);
        // From 70 the ring wraps to 1; from 99 (last) too.
        assert_eq!(ok(wake_next(&w, &m, WAITING_ONE * 3, 70)), 1);
        assert_eq!(ok(wake_next(&w, &m, WAITING_ONE * 3, 99)), 1);
        assert_eq!(*m.woke.borrow(), vec![1, 3, 70, 1, 1]);
        // Still held (exclusive, or readers in front of a writer): nobody.
        m.woke.borrow_mut().clear();
        assert_eq!(ok(wake_next(&w, &m, WRITER | WAITING_ONE, 0)), 0);
        assert_eq!(ok(wake_next(&w, &m, WAITING_ONE + 1, 0)), 0);
        assert!(m.woke.borrow().is_empty());
        // No writer announced, and no reader flagged itself: nobody, the map unread.
        let w = AtomicU64::new(0);
        assert_eq!(ok(wake_next(&w, &m, 0, 4)), 0);
        assert!(m.woke.borrow().is_empty());
        // A reader flagged itself: every waiting reader, none of the writers, and RWAIT
        // is cleared by the one release that wakes them.
        let w = AtomicU64::new(RWAIT);
        assert_eq!(ok(wake_next(&w, &m, RWAIT, 4)), 2);
        assert_eq!(w.load(crate::atomic::Ordering::Relaxed), 0);
        assert_eq!(ok(wake_next(&w, &m, RWAIT, 0)), 0, "cleared already");
        let w = AtomicU64::new(RWAIT | 1);
        assert_eq!(ok(wake_next(&w, &m, RWAIT | 1, 0)), 2);
        assert_eq!(*m.woke.borrow(), vec![5, 2, 2, 5]);
        // A writer announced after the release that saw RWAIT: the readers stay asleep
        // and RWAIT stays for that writer's release.
        let w = AtomicU64::new(RWAIT | WAITING_ONE);
        assert_eq!(ok(wake_next(&w, &m, RWAIT, 0)), 0);
        assert_eq!(
            w.load(crate::atomic::Ordering::Relaxed),
            RWAIT | WAITING_ONE
        );
        // One word, the releaser the only bit below the start: found after the wrap.
        let m = Map::new(4, &[0], &[]);
        assert_eq!(ok(wake_next(&w, &m, WAITING_ONE, 2)), 1);
        assert_eq!(*m.woke.borrow(), vec![0]);
        assert_eq!(to_wake(WAITING_ONE), Wake::OneWriter);
        assert_eq!(to_wake(WAITING_ONE | RWAIT), Wake::OneWriter);
        assert_eq!(to_wake(RWAIT), Wake::Readers);
        assert_eq!(to_wake(0), Wake::Nobody);
    }

    /// Only a waiter in the word makes a release look for someone to wake: an uncontended
    /// unlock (and a shared one among readers alone) reads no other word.
    #[test]
    fn only_a_flagged_waiter_makes_a_release_wake() {
        assert!(!must_wake(WRITER));
        assert!(!must_wake(3));
        assert!(must_wake(WRITER | WAITING_ONE));
        assert!(must_wake(WRITER | RWAIT));
        assert!(must_wake(2 | RWAIT));
        // The flags and counts do not overlap.
        assert_eq!(WRITER & (RWAIT | WAITING | READERS), 0);
        assert_eq!(RWAIT & (WAITING | READERS), 0);
        assert_eq!(WAITING & READERS, 0);
        assert_eq!(WRITER | RWAIT | WAITING | READERS, u64::MAX);
    }

    /// A waiting reader flags itself only when it cannot enter; RWAIT does not keep
    /// other readers out, and a writer's CASes keep it.
    #[test]
    fn a_reader_that_must_wait_flags_itself() {
        let w = AtomicU64::new(0);
        assert!(ok(try_shared_or_flag(&w)));
        assert_eq!(
            w.load(crate::atomic::Ordering::Relaxed),
            1,
            "no flag when it got in"
        );
        ok(unlock_shared(&w));
        assert!(ok(try_free_exclusive(&w)));
        assert!(!ok(try_shared_or_flag(&w)));
        assert_eq!(w.load(crate::atomic::Ordering::Relaxed), WRITER | RWAIT);
        // The writer's release sees the flag; the flagged word still lets readers in.
        let before = ok(unlock_exclusive(&w));
        assert!(must_wake(before));
        assert!(ok(try_shared(&w)));
        assert_eq!(w.load(crate::atomic::Ordering::Relaxed), RWAIT | 1);
        ok(unlock_shared(&w));
        // An announced writer takes a flagged word and keeps the flag in it.
        ok(announce_writer(&w));
        assert!(ok(try_exclusive(&w)));
        assert_eq!(w.load(crate::atomic::Ordering::Relaxed), WRITER | RWAIT);
        // A writer announced: the reader flags itself and waits.
        ok(announce_writer(&w));
        ok(unlock_exclusive(&w));
        assert!(!ok(try_shared_or_flag(&w)));
        assert_eq!(
            w.load(crate::atomic::Ordering::Relaxed),
            RWAIT | WAITING_ONE
        );
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
