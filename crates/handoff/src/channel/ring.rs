//! The channel's hand-off protocol: two counters, one per direction, over `n` block slots,
//! and the producer's own copy of its count.
//!
//! # Protocol
//!
//! | word | written by (only) | meaning |
//! |---|---|---|
//! | `published` ([`Signal`]) | the producer | blocks published so far; [`CLOSED`] added when the producer closes |
//! | `released` ([`Signal`]) | the consumer | blocks released so far; [`CLOSED`] added when the consumer closes |
//! | `check.written` | the producer | blocks written so far: `published`'s redundant copy, stored just before it |
//! | `check.report` | the side that found corruption | what it found (the counter, its value, the bounds) |
//!
//! The block with sequence number `s` (counted from 0) lives in slot `s % n`.
//!
//! - Producer, block `head`: wait until `released >= head + 1 - n` (its slot was released,
//!   or never used), write the block, then `written = head + 1`, then `published += 1`.
//! - Consumer, block `tail`: wait until `published >= tail + 1`, check it against
//!   `written`, read the block, then `released += 1`.
//!
//! Each counter has one writer, so `head - released <= n` and `published - tail >= 0` hold
//! at all times: the producer never overwrites a block the consumer has not released, and
//! the consumer never reads one that was not published.
//!
//! Closing adds [`CLOSED`] (bit 63; a count never reaches it) to the closer's counter. A
//! waiter's condition `count >= target` then holds at once, so it wakes, and reads the bit:
//! a consumer still drains the blocks published before the close, then sees `Closed`; a
//! producer sees `Closed` at its next loan (nobody would read what it writes). A side that
//! finds corruption closes with [`POISONED`] (bit 62) as well, after writing its report: the
//! other side's next acquire is the same `Corrupt` error, never a normal close.
//!
//! # Corruption
//!
//! The counters lie in memory every process that maps the segment can write. Each acquire
//! checks the other side's counter against what the protocol allows before handing out a
//! slot: the consumer that has received `tail` blocks needs `tail <= published <= tail + n`
//! (a count never decreases, and the producer is never more than `n` ahead) and
//! `published <= written` (the producer's own count: it stores `written` before
//! `published`, so a reader that loads `published` first can never see it ahead); the
//! producer at `head` needs `released <= head`. Anything else is [`Slot::Corrupt`]: an
//! error naming the channel, never a block. So a `published` moved by a stranger, by 17,154
//! or by 1, never hands out a block the producer did not write (issue #40: +1 or +2 used to
//! deliver 1-2 blocks never published, with no error). A count lowered while a consumer
//! waits looks like "nothing published yet": at the producer's close `written` must equal
//! it (the last block is not lost in silence), and at the wait's deadline a count behind
//! what was received, or more than one behind `written`, is `Corrupt`, not a timeout.
//! `written` and `published` moved together, consistently, cannot be told from the
//! producer's own writes.
//!
//! # Memory ordering
//!
//! - SYNC POINT A: the producer's Release store of `written` and Release `published.add(1)`
//!   in [`ProducerCursor::publish`] pair with the consumer's Acquire loads of `published`
//!   and `written` in [`ConsumerCursor::acquire`]: the block's bytes, written before both,
//!   are visible to the consumer that sees them (through `written` even when a stranger's
//!   plain store to `published` broke the counter's release sequence).
//! - SYNC POINT B: the consumer's Release `released.add(1)` in [`ConsumerCursor::release`]
//!   pairs with the producer's Acquire load of `released` in [`ProducerCursor::acquire`]:
//!   the consumer's reads of a block happen before the producer overwrites it.
//! - Closing is a Release add of [`CLOSED`] (and [`POISONED`]), read by the same Acquire
//!   loads; the Relaxed report stores before a poisoned close are ordered by it.
//!
//! The loads and waits are [`Signal`]'s (Acquire, with its own sleeper protocol); this file
//! adds only the accounting, so the `loom_tests` below model-check exactly the code the
//! channel runs, with the blocks in loom's `UnsafeCell` so a missing happens-before is a race.

use crate::atomic::{AtomicU64, Ordering};
use crate::sync::signal::Signal;
use crate::sync::wait::Wait;
use crate::sync::WaitError;
use crate::sync::{PeerWatch, Until};
use crate::sys::Deadline;

/// Added to a counter by the side that closes: bit 63, never reached by a count.
pub(crate) const CLOSED: u64 = 1 << 63;
/// Added with [`CLOSED`] by a side that found the other side's counter corrupt: bit 62.
pub(crate) const POISONED: u64 = 1 << 62;
/// The flag bits of a counter; the rest is the count.
const FLAGS: u64 = CLOSED | POISONED;

/// The two counters, as they lie in the channel header (shared memory) or on the heap.
#[repr(C)]
#[derive(Debug, Default)]
pub(crate) struct Ring {
    /// Blocks published by the producer (+ [`CLOSED`], [`POISONED`]).
    pub(crate) published: Signal,
    /// Blocks released by the consumer (+ [`CLOSED`], [`POISONED`]).
    pub(crate) released: Signal,
    /// The producer's copy of its count, and the corruption report.
    pub(crate) check: Check,
}

/// The words the consumer checks `published` against (its own 128-byte block: the
/// producer writes it once per block, the consumer reads it once per block).
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub(crate) struct Check {
    /// Blocks the producer wrote and is publishing: stored (Release) before `published`.
    written: AtomicU64,
    /// What the side that poisoned the ring found: counter (1 = published, 2 = released),
    /// value, least and greatest allowed.
    report: [AtomicU64; 4],
}

/// What an acquire found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The slot index to write (producer) or read (consumer).
    Ready(usize),
    /// The other side closed the channel (for a consumer: and every block was drained).
    Closed,
    /// A counter breaks the protocol's invariants (see "Corruption" in the module docs):
    /// someone else wrote the ring. Nothing was handed out.
    Corrupt(Corruption),
}

/// A counter found outside the range the protocol allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Corruption {
    /// Which counter: `"published"` or `"released"`.
    pub(crate) counter: &'static str,
    /// Its value (without the flag bits).
    pub(crate) found: u64,
    /// The least value it may have now.
    pub(crate) low: u64,
    /// The greatest value it may have now.
    pub(crate) high: u64,
}

impl Ring {
    /// Writes `c` as the report and closes `own` (this side's counter) with
    /// [`CLOSED`] | [`POISONED`]: the other side's next acquire reads the report.
    #[cold]
    fn poison(&self, own: &Signal, c: Corruption) {
        let code = if c.counter == "published" { 1 } else { 2 };
        for (word, v) in self.check.report.iter().zip([code, c.found, c.low, c.high]) {
            // Relaxed: published by the Release add below.
            word.store(v, Ordering::Relaxed);
        }
        // Only this side writes `own`: or-ing the bits in is a load and a store (an add
        // would carry out of a CLOSED bit a stranger set). Release (inside `set`): pairs
        // with the other side's Acquire load of this counter.
        own.set(own.load() | FLAGS);
    }

    /// The report a poisoned close left (read after an Acquire load saw [`POISONED`]);
    /// `None` when there is none (a stranger set the bit).
    #[cold]
    fn report(&self) -> Option<Corruption> {
        // Relaxed: ordered by the Acquire load that saw POISONED (pairs with `poison`).
        let [code, found, low, high] = self
            .check
            .report
            .each_ref()
            .map(|w| w.load(Ordering::Relaxed));
        let counter = match code {
            1 => "published",
            2 => "released",
            _ => return None,
        };
        Some(Corruption {
            counter,
            found,
            low,
            high,
        })
    }
}

/// The slot after `slot` in a ring of `blocks` (wraps to 0).
#[inline]
fn next_slot(slot: usize, blocks: u64) -> usize {
    if slot as u64 + 1 == blocks {
        0
    } else {
        slot + 1
    }
}

/// The producer's position: the sequence number of the next block to publish.
#[derive(Debug)]
pub(crate) struct ProducerCursor {
    head: u64,
    blocks: u64,
    /// `head % blocks`, kept by increment: no division on the hand-off path.
    slot: usize,
    /// This side closed `published` (normally or poisoned): it is not closed twice.
    closed: bool,
}

impl ProducerCursor {
    pub(crate) fn new(blocks: usize) -> Self {
        ProducerCursor {
            head: 0,
            blocks: blocks as u64,
            slot: 0,
            closed: false,
        }
    }

    /// Sequence number of the next block.
    pub(crate) fn head(&self) -> u64 {
        self.head
    }

    /// Waits until the slot of block `head` is free; `Ok(Slot::Closed)` once the consumer
    /// closed. `how = None` polls once and returns `Err(Timeout)` if the slot is busy.
    pub(crate) fn acquire<P: PeerWatch + ?Sized>(
        &mut self,
        ring: &Ring,
        how: Option<Wait>,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<Slot, WaitError> {
        let need = (self.head + 1).saturating_sub(self.blocks);
        // Acquire (inside `load` / `wait_until`): SYNC POINT B, pairs with the Release add
        // in `ConsumerCursor::release`.
        let seen = match how {
            Some(wait) => {
                ring.released
                    .wait_until_hinted(need, Until { wait, deadline }, peers, |h| h)?
            }
            None => match ring.released.load() {
                v if v >= need => v,
                _ => return Err(WaitError::Timeout),
            },
        };
        // The consumer never releases a block that was not published: one compare.
        if seen & !FLAGS > self.head {
            return Ok(self.corrupt(
                ring,
                Corruption {
                    counter: "released",
                    found: seen & !FLAGS,
                    low: need,
                    high: self.head,
                },
            ));
        }
        if seen & CLOSED != 0 {
            if seen & POISONED != 0 {
                if let Some(theirs) = ring.report() {
                    return Ok(Slot::Corrupt(theirs));
                }
            }
            return Ok(Slot::Closed);
        }
        debug_assert_eq!(self.slot as u64, self.head % self.blocks);
        Ok(Slot::Ready(self.slot))
    }

    /// `c` as this acquire's answer, after poisoning the ring for the consumer (once).
    #[cold]
    fn corrupt(&mut self, ring: &Ring, c: Corruption) -> Slot {
        if !self.closed {
            self.closed = true;
            ring.poison(&ring.published, c);
        }
        Slot::Corrupt(c)
    }

    /// Publishes block `head` (its slot was written after `acquire`).
    pub(crate) fn publish(&mut self, ring: &Ring) {
        self.head += 1;
        // Release: SYNC POINT A, pairs with the Acquire load of `written` in
        // `ConsumerCursor::acquire`; stored before `published`, so it is never behind it.
        ring.check.written.store(self.head, Ordering::Release);
        // Release: SYNC POINT A, pairs with the Acquire load in `ConsumerCursor::acquire`.
        ring.published.add(1);
        self.slot = next_slot(self.slot, self.blocks);
    }

    /// Closes the producer's side: the consumer drains what was published, then sees
    /// `Closed`. A second close (after a poisoned one) does nothing.
    pub(crate) fn close(&mut self, ring: &Ring) {
        if !self.closed {
            self.closed = true;
            // Release: pairs with the Acquire load in `ConsumerCursor::acquire`.
            ring.published.add(CLOSED);
        }
    }
}

/// The consumer's position: the sequence number of the next block to read.
#[derive(Debug)]
pub(crate) struct ConsumerCursor {
    tail: u64,
    blocks: u64,
    /// `tail % blocks`, kept by increment: no division on the hand-off path.
    slot: usize,
    /// This side closed `released` (normally or poisoned): it is not closed twice.
    closed: bool,
}

impl ConsumerCursor {
    pub(crate) fn new(blocks: usize) -> Self {
        ConsumerCursor {
            tail: 0,
            blocks: blocks as u64,
            slot: 0,
            closed: false,
        }
    }

    /// Sequence number of the next block.
    pub(crate) fn tail(&self) -> u64 {
        self.tail
    }

    /// Waits until block `tail` is published; `Ok(Slot::Closed)` once the producer closed
    /// and every block it published was read. `how = None` polls once (`Err(Timeout)` if
    /// nothing is there).
    pub(crate) fn acquire<P: PeerWatch + ?Sized>(
        &mut self,
        ring: &Ring,
        how: Option<Wait>,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<Slot, WaitError> {
        let need = self.tail + 1;
        // Acquire (inside `load` / `wait_until`): SYNC POINT A, pairs with the Release add
        // in `ProducerCursor::publish`.
        let seen = match how {
            Some(wait) => {
                match ring
                    .published
                    .wait_until_hinted(need, Until { wait, deadline }, peers, |h| h)
                {
                    Ok(v) => v,
                    Err(e) => return self.at_wait_end(ring, e),
                }
            }
            None => ring.published.load(),
        };
        let count = seen & !FLAGS;
        if count >= need {
            // Acquire: SYNC POINT A, pairs with the Release store in
            // `ProducerCursor::publish` (stored before `published`, so never behind it).
            let written = ring.check.written.load(Ordering::Acquire);
            // The producer is never more than `blocks` ahead of us, never published what it
            // did not write, and did not poison the ring: three compares.
            if count - self.tail <= self.blocks && count <= written && seen & POISONED == 0 {
                debug_assert_eq!(self.slot as u64, self.tail % self.blocks);
                return Ok(Slot::Ready(self.slot));
            }
            Ok(self.refuse(ring, seen, written))
        } else if count < self.tail {
            // Behind what we already received: counts only grow.
            Ok(self.refuse(ring, seen, u64::MAX))
        } else if seen & CLOSED != 0 {
            // Acquire: pairs with the Release store in `ProducerCursor::publish`; the close
            // came after the producer's last publish, so `written` is final and equals the
            // count, unless the count lost blocks (or counts some never written).
            let written = ring.check.written.load(Ordering::Acquire);
            if written != count || seen & POISONED != 0 {
                return Ok(self.refuse(ring, seen, written));
            }
            Ok(Slot::Closed)
        } else {
            // Only a poll gets here (a wait returns once the count reaches `need`).
            Err(WaitError::Timeout)
        }
    }

    /// A wait on `published` ended with `e` (deadline, peer gone): a count lowered below
    /// what we received, or more than one behind `written` (legitimately the producer is
    /// at most between its two stores), is corruption rather than the wait's error.
    #[cold]
    fn at_wait_end(&mut self, ring: &Ring, e: WaitError) -> Result<Slot, WaitError> {
        // Acquire: as in `acquire`. `written` first: `published` read after it is at
        // least `written - 1` unless someone lowered it.
        let written = ring.check.written.load(Ordering::Acquire);
        let count = ring.published.load() & !FLAGS;
        if count < self.tail || count.saturating_add(1) < written {
            return Ok(self.refuse(ring, count, written));
        }
        Err(e)
    }

    /// `published` read as `seen` breaks the protocol, or the producer poisoned the ring
    /// (`written` is the producer's own count, `u64::MAX` when not read): the answer, after
    /// poisoning the ring for the producer.
    #[cold]
    fn refuse(&mut self, ring: &Ring, seen: u64, written: u64) -> Slot {
        if seen & FLAGS == FLAGS {
            if let Some(theirs) = ring.report() {
                return Slot::Corrupt(theirs);
            }
        }
        let c = Corruption {
            counter: "published",
            found: seen & !FLAGS,
            low: self.tail,
            high: (self.tail + self.blocks).min(written),
        };
        if !self.closed {
            self.closed = true;
            ring.poison(&ring.released, c);
        }
        Slot::Corrupt(c)
    }

    /// Releases block `tail` to the producer (its slot was read after `acquire`).
    pub(crate) fn release(&mut self, ring: &Ring) {
        // Release: SYNC POINT B, pairs with the Acquire load in `ProducerCursor::acquire`.
        ring.released.add(1);
        self.tail += 1;
        self.slot = next_slot(self.slot, self.blocks);
    }

    /// Closes the consumer's side: the producer's next loan sees `Closed`. A second close
    /// (after a poisoned one) does nothing.
    pub(crate) fn close(&mut self, ring: &Ring) {
        if !self.closed {
            self.closed = true;
            // Release: pairs with the Acquire load in `ProducerCursor::acquire`.
            ring.released.add(CLOSED);
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::sync::NoPeers;

    fn poll_p(c: &mut ProducerCursor, r: &Ring) -> Result<Slot, WaitError> {
        c.acquire(r, None, None, &NoPeers)
    }
    fn poll_c(c: &mut ConsumerCursor, r: &Ring) -> Result<Slot, WaitError> {
        c.acquire(r, None, None, &NoPeers)
    }

    /// Three slots: the producer runs three blocks ahead, then must wait; slots wrap.
    #[test]
    fn accounting_and_wrap_around() {
        let r = Ring::default();
        let mut p = ProducerCursor::new(3);
        let mut c = ConsumerCursor::new(3);
        assert_eq!(poll_c(&mut c, &r), Err(WaitError::Timeout));
        for want in [0, 1, 2] {
            assert_eq!(poll_p(&mut p, &r), Ok(Slot::Ready(want)));
            p.publish(&r);
        }
        assert_eq!(
            poll_p(&mut p, &r),
            Err(WaitError::Timeout),
            "all 3 slots in flight"
        );
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Ready(0)));
        c.release(&r);
        assert_eq!(
            poll_p(&mut p, &r),
            Ok(Slot::Ready(0)),
            "block 3 reuses slot 0"
        );
        p.publish(&r);
        for want in [1, 2, 0] {
            assert_eq!(poll_c(&mut c, &r), Ok(Slot::Ready(want)));
            c.release(&r);
        }
        assert_eq!(poll_c(&mut c, &r), Err(WaitError::Timeout));
        assert_eq!((p.head(), c.tail()), (4, 4));
    }

    /// A counter moved by a stranger is `Corrupt` on the next acquire (a poll and a wait),
    /// never a block: too far ahead, behind what was received, or released unpublished.
    #[test]
    fn counters_outside_the_protocol_are_corruption() {
        let r = Ring::default();
        let mut p = ProducerCursor::new(4);
        let mut c = ConsumerCursor::new(4);
        for _ in 0..2 {
            p.publish(&r);
        }
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Ready(0)));
        c.release(&r);
        r.published.add(17_154);
        let ahead = Corruption {
            counter: "published",
            found: 17_156,
            low: 1,
            high: 2,
        };
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Corrupt(ahead)));
        let waited = c.acquire(&r, Some(Wait::Block), None, &NoPeers);
        assert_eq!(waited, Ok(Slot::Corrupt(ahead)));
        // With the producer's own count as far ahead: `blocks` ahead is legal, one more
        // is not.
        r.check.written.store(1 + 5, Ordering::Relaxed);
        r.published.set(1 + 4);
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Ready(1)));
        r.published.set(1 + 5);
        assert!(matches!(poll_c(&mut c, &r), Ok(Slot::Corrupt(_))));
        // Behind what this consumer already received (a count never decreases), also with
        // the producer's close bit, and at a blocking wait's deadline.
        r.published.set(0);
        assert!(matches!(poll_c(&mut c, &r), Ok(Slot::Corrupt(_))));
        let at_deadline = c.acquire(
            &r,
            Some(Wait::Block),
            Some(crate::sys::Deadline::after(
                std::time::Duration::from_millis(1),
            )),
            &NoPeers,
        );
        assert!(
            matches!(at_deadline, Ok(Slot::Corrupt(_))),
            "{at_deadline:?}"
        );
        r.published.set(CLOSED);
        assert!(matches!(poll_c(&mut c, &r), Ok(Slot::Corrupt(_))));
        // The producer (head 2) sees 3 released: a block released before it was published.
        // (The consumer poisoned `released` above; a stranger's value replaces it.)
        r.released.set(3);
        let released = Corruption {
            counter: "released",
            found: 3,
            low: 0,
            high: 2,
        };
        assert_eq!(poll_p(&mut p, &r), Ok(Slot::Corrupt(released)));
        // The producer poisoned `published` with its report: the consumer's next acquire
        // is that error, not a close.
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Corrupt(released)));
        r.released.set(2 | CLOSED);
        assert_eq!(poll_p(&mut p, &r), Ok(Slot::Closed));
        c.close(&r);
    }

    /// `published` one or two ahead of what the producer wrote (inside the window) is
    /// corruption, not a block (issue #40); a count that lost the producer's last block is
    /// corruption at the producer's close, not a normal end.
    #[test]
    fn counts_the_producer_never_wrote_or_lost_are_corruption() {
        for by in [1u64, 2] {
            let r = Ring::default();
            let mut p = ProducerCursor::new(4);
            let mut c = ConsumerCursor::new(4);
            p.publish(&r);
            assert_eq!(poll_c(&mut c, &r), Ok(Slot::Ready(0)));
            c.release(&r);
            r.published.add(by);
            let want = Corruption {
                counter: "published",
                found: 1 + by,
                low: 1,
                high: 1,
            };
            assert_eq!(poll_c(&mut c, &r), Ok(Slot::Corrupt(want)));
            // The consumer poisoned `released`: the producer's next loan is the same error.
            assert_eq!(poll_p(&mut p, &r), Ok(Slot::Corrupt(want)));
        }
        let r = Ring::default();
        let mut p = ProducerCursor::new(4);
        let mut c = ConsumerCursor::new(4);
        p.publish(&r);
        p.publish(&r);
        r.published.set(1);
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Ready(0)));
        c.release(&r);
        p.close(&r);
        assert!(
            matches!(poll_c(&mut c, &r), Ok(Slot::Corrupt(k)) if k.found == 1 && k.high == 2),
            "the lost block is corruption, not a close"
        );
    }

    #[test]
    fn consumer_drains_then_sees_close() {
        let r = Ring::default();
        let mut p = ProducerCursor::new(2);
        let mut c = ConsumerCursor::new(2);
        p.publish(&r);
        p.close(&r);
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Ready(0)));
        c.release(&r);
        assert_eq!(poll_c(&mut c, &r), Ok(Slot::Closed));
        // A blocking wait returns at once too.
        let got = c.acquire(&r, Some(Wait::Block), None, &NoPeers);
        assert_eq!(got, Ok(Slot::Closed));
    }

    #[test]
    fn producer_sees_consumer_close_even_with_free_slots() {
        let r = Ring::default();
        let mut p = ProducerCursor::new(4);
        let mut c = ConsumerCursor::new(4);
        c.close(&r);
        assert_eq!(poll_p(&mut p, &r), Ok(Slot::Closed));
        let got = p.acquire(&r, Some(Wait::Spin), None, &NoPeers);
        assert_eq!(got, Ok(Slot::Closed));
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::sync::NoPeers;
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;

    struct Model {
        ring: Ring,
        slots: Vec<UnsafeCell<u64>>,
    }

    fn model(blocks: usize) -> Arc<Model> {
        Arc::new(Model {
            ring: Ring::default(),
            slots: (0..blocks).map(|_| UnsafeCell::new(0)).collect(),
        })
    }

    /// One slot, two blocks: the producer must wait for the first release before it
    /// overwrites the slot (SYNC POINT B), and the consumer sees each block's bytes (A).
    #[test]
    fn loom_channel_two_blocks_through_one_slot() {
        loom::model(|| {
            let m = model(1);
            let m2 = m.clone();
            let t = loom::thread::spawn(move || {
                let mut p = ProducerCursor::new(1);
                for v in [11u64, 22] {
                    let slot = p.acquire(&m2.ring, Some(Wait::Block), None, &NoPeers);
                    let Ok(Slot::Ready(i)) = slot else {
                        panic!("{slot:?}")
                    };
                    // SAFETY (model): the protocol gives the producer the slot; loom
                    // reports a race if it does not.
                    m2.slots[i].with_mut(|p| unsafe { *p = v });
                    p.publish(&m2.ring);
                }
                assert_eq!(p.head(), 2);
                p.close(&m2.ring);
            });
            let mut c = ConsumerCursor::new(1);
            for want in [11u64, 22] {
                let slot = c.acquire(&m.ring, Some(Wait::Block), None, &NoPeers);
                let Ok(Slot::Ready(i)) = slot else {
                    panic!("{slot:?}")
                };
                // SAFETY (model): as above, for the consumer's turn.
                let got = m.slots[i].with(|p| unsafe { *p });
                assert_eq!(got, want);
                c.release(&m.ring);
            }
            let end = c.acquire(&m.ring, Some(Wait::Block), None, &NoPeers);
            assert_eq!(end, Ok(Slot::Closed));
            assert_eq!(c.tail(), 2);
            t.join().unwrap();
        });
    }

    /// A consumer that closes while the producer waits for a slot wakes it with `Closed`.
    #[test]
    fn loom_channel_consumer_close_wakes_producer() {
        loom::model(|| {
            let m = model(1);
            let m2 = m.clone();
            let t = loom::thread::spawn(move || {
                let mut p = ProducerCursor::new(1);
                let first = p.acquire(&m2.ring, Some(Wait::Block), None, &NoPeers);
                if first == Ok(Slot::Closed) {
                    return first; // the consumer closed before the first loan
                }
                assert_eq!(first, Ok(Slot::Ready(0)));
                p.publish(&m2.ring);
                // Slot 0 is in flight: this waits until the consumer releases or closes.
                p.acquire(&m2.ring, Some(Wait::Block), None, &NoPeers)
            });
            ConsumerCursor::new(1).close(&m.ring);
            let second = t.join().unwrap();
            assert_eq!(second, Ok(Slot::Closed));
        });
    }

    /// A producer that finds `released` corrupt wakes the waiting consumer with its report
    /// (the report's stores are ordered by the poisoned close), never a normal close.
    #[test]
    fn loom_channel_corruption_reaches_the_waiting_consumer() {
        loom::model(|| {
            let m = model(1);
            let m2 = m.clone();
            let t = loom::thread::spawn(move || {
                let mut c = ConsumerCursor::new(1);
                c.acquire(&m2.ring, Some(Wait::Block), None, &NoPeers)
            });
            // A stranger's release of a block never published.
            m.ring.released.set(2);
            let mut p = ProducerCursor::new(1);
            let want = Corruption {
                counter: "released",
                found: 2,
                low: 0,
                high: 0,
            };
            let got = p.acquire(&m.ring, Some(Wait::Block), None, &NoPeers);
            assert_eq!(got, Ok(Slot::Corrupt(want)));
            p.close(&m.ring);
            assert_eq!(t.join().unwrap(), Ok(Slot::Corrupt(want)));
        });
    }
}
