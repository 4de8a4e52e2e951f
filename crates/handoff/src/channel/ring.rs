//! The channel's hand-off protocol: two counters, one per direction, over `n` block slots.
//!
//! # Protocol
//!
//! | word | written by (only) | meaning |
//! |---|---|---|
//! | `published` ([`Signal`]) | the producer | blocks published so far; [`CLOSED`] added when the producer closes |
//! | `released` ([`Signal`]) | the consumer | blocks released so far; [`CLOSED`] added when the consumer closes |
//!
//! The block with sequence number `s` (counted from 0) lives in slot `s % n`.
//!
//! - Producer, block `head`: wait until `released >= head + 1 - n` (its slot was released,
//!   or never used), write the block, then `published += 1`.
//! - Consumer, block `tail`: wait until `published >= tail + 1`, read the block, then
//!   `released += 1`.
//!
//! Each counter has one writer, so `head - released <= n` and `published - tail >= 0` hold
//! at all times: the producer never overwrites a block the consumer has not released, and
//! the consumer never reads one that was not published.
//!
//! Closing adds [`CLOSED`] (bit 63; a count never reaches it) to the closer's counter. A
//! waiter's condition `count >= target` then holds at once, so it wakes, and reads the bit:
//! a consumer still drains the blocks published before the close, then sees `Closed`; a
//! producer sees `Closed` at its next loan (nobody would read what it writes).
//!
//! # Corruption
//!
//! The counters lie in memory every process that maps the segment can write. Each acquire
//! checks the other side's counter against what the protocol allows before handing out a
//! slot: the consumer that has received `tail` blocks needs `tail <= published <= tail + n`
//! (a count never decreases, and the producer is never more than `n` ahead); the producer
//! at `head` needs `released <= head`. Anything else is [`Slot::Corrupt`]: an error naming
//! the channel, never a block (a stranger that added 17,154 to `published` used to make the
//! consumer receive 17,154 blocks never published). A count lowered while a consumer waits
//! looks like "nothing published yet" until the wait ends: at its deadline it is
//! `Corrupt`, not a timeout. A count moved within the allowed window cannot be told from a
//! correct one by the counters alone.
//!
//! # Memory ordering
//!
//! - SYNC POINT A: the producer's Release `published.add(1)` in [`ProducerCursor::publish`]
//!   pairs with the consumer's Acquire load of `published` in [`ConsumerCursor::acquire`]:
//!   the block's bytes, written before the add, are visible to the consumer that sees it.
//! - SYNC POINT B: the consumer's Release `released.add(1)` in [`ConsumerCursor::release`]
//!   pairs with the producer's Acquire load of `released` in [`ProducerCursor::acquire`]:
//!   the consumer's reads of a block happen before the producer overwrites it.
//! - Closing is a Release add of [`CLOSED`], read by the same Acquire loads.
//!
//! The loads and waits are [`Signal`]'s (Acquire, with its own sleeper protocol); this file
//! adds only the accounting, so the `loom_tests` below model-check exactly the code the
//! channel runs, with the blocks in loom's `UnsafeCell` so a missing happens-before is a race.

use crate::sync::signal::Signal;
use crate::sync::wait::Wait;
use crate::sync::PeerWatch;
use crate::sync::WaitError;
use crate::sys::Deadline;

/// Added to a counter by the side that closes: bit 63, never reached by a count.
pub(crate) const CLOSED: u64 = 1 << 63;

/// The two counters, as they lie in the channel header (shared memory) or on the heap.
#[repr(C)]
#[derive(Debug, Default)]
pub(crate) struct Ring {
    /// Blocks published by the producer (+ [`CLOSED`]).
    pub(crate) published: Signal,
    /// Blocks released by the consumer (+ [`CLOSED`]).
    pub(crate) released: Signal,
}

/// What an acquire found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The slot index to write (producer) or read (consumer).
    Ready(usize),
    /// The other side closed the channel (for a consumer: and every block was drained).
    Closed,
    /// The other side's counter breaks the protocol's invariants (see "Corruption" in the
    /// module docs): someone else wrote the ring. Nothing was handed out.
    Corrupt(Corruption),
}

/// A counter found outside the range the protocol allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Corruption {
    /// Which counter: `"published"` or `"released"`.
    pub(crate) counter: &'static str,
    /// Its value (without the [`CLOSED`] bit).
    pub(crate) found: u64,
    /// The least value it may have now.
    pub(crate) low: u64,
    /// The greatest value it may have now.
    pub(crate) high: u64,
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
}

impl ProducerCursor {
    pub(crate) fn new(blocks: usize) -> Self {
        ProducerCursor {
            head: 0,
            blocks: blocks as u64,
            slot: 0,
        }
    }

    /// Sequence number of the next block.
    pub(crate) fn head(&self) -> u64 {
        self.head
    }

    /// Waits until the slot of block `head` is free; `Ok(Slot::Closed)` once the consumer
    /// closed. `how = None` polls once and returns `Err(Timeout)` if the slot is busy.
    pub(crate) fn acquire<P: PeerWatch + ?Sized>(
        &self,
        ring: &Ring,
        how: Option<Wait>,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<Slot, WaitError> {
        let need = (self.head + 1).saturating_sub(self.blocks);
        // Acquire (inside `load` / `wait_until`): SYNC POINT B, pairs with the Release add
        // in `ConsumerCursor::release`.
        let seen = match how {
            Some(how) => ring.released.wait_until(need, how, deadline, peers)?,
            None => match ring.released.load() {
                v if v >= need => v,
                _ => return Err(WaitError::Timeout),
            },
        };
        // The consumer never releases a block that was not published: one compare.
        if seen & !CLOSED > self.head {
            return Ok(Slot::Corrupt(Corruption {
                counter: "released",
                found: seen & !CLOSED,
                low: need,
                high: self.head,
            }));
        }
        if seen & CLOSED != 0 {
            return Ok(Slot::Closed);
        }
        debug_assert_eq!(self.slot as u64, self.head % self.blocks);
        Ok(Slot::Ready(self.slot))
    }

    /// Publishes block `head` (its slot was written after `acquire`).
    pub(crate) fn publish(&mut self, ring: &Ring) {
        // Release: SYNC POINT A, pairs with the Acquire load in `ConsumerCursor::acquire`.
        ring.published.add(1);
        self.head += 1;
        self.slot = next_slot(self.slot, self.blocks);
    }

    /// Closes the producer's side: the consumer drains what was published, then sees
    /// `Closed`.
    pub(crate) fn close(&self, ring: &Ring) {
        // Release: pairs with the Acquire load in `ConsumerCursor::acquire`.
        ring.published.add(CLOSED);
    }
}

/// The consumer's position: the sequence number of the next block to read.
#[derive(Debug)]
pub(crate) struct ConsumerCursor {
    tail: u64,
    blocks: u64,
    /// `tail % blocks`, kept by increment: no division on the hand-off path.
    slot: usize,
}

impl ConsumerCursor {
    pub(crate) fn new(blocks: usize) -> Self {
        ConsumerCursor {
            tail: 0,
            blocks: blocks as u64,
            slot: 0,
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
        &self,
        ring: &Ring,
        how: Option<Wait>,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<Slot, WaitError> {
        let need = self.tail + 1;
        // Acquire (inside `load` / `wait_until`): SYNC POINT A, pairs with the Release add
        // in `ProducerCursor::publish`.
        let seen = match how {
            Some(how) => match ring.published.wait_until(need, how, deadline, peers) {
                Ok(v) => v,
                // A count lowered below what we received never reaches `need`: at the
                // deadline (or the peer's end) say it is corrupt rather than "timed out".
                // Acquire (inside `load`): as above.
                Err(e) => match ring.published.load() {
                    v if v & !CLOSED < self.tail => v,
                    _ => return Err(e),
                },
            },
            None => ring.published.load(),
        };
        let count = seen & !CLOSED;
        // The producer is never more than `blocks` ahead of us, nor behind what we already
        // received (counts only grow): one subtraction and one compare, wrapping so that a
        // count behind `tail` is huge.
        if count.wrapping_sub(self.tail) > self.blocks {
            return Ok(Slot::Corrupt(Corruption {
                counter: "published",
                found: count,
                low: self.tail,
                high: self.tail + self.blocks,
            }));
        }
        if count >= need {
            debug_assert_eq!(self.slot as u64, self.tail % self.blocks);
            Ok(Slot::Ready(self.slot))
        } else if seen & CLOSED != 0 {
            Ok(Slot::Closed)
        } else {
            // Only a poll gets here (a wait returns once the count reaches `need`).
            Err(WaitError::Timeout)
        }
    }

    /// Releases block `tail` to the producer (its slot was read after `acquire`).
    pub(crate) fn release(&mut self, ring: &Ring) {
        // Release: SYNC POINT B, pairs with the Acquire load in `ProducerCursor::acquire`.
        ring.released.add(1);
        self.tail += 1;
        self.slot = next_slot(self.slot, self.blocks);
    }

    /// Closes the consumer's side: the producer's next loan sees `Closed`.
    pub(crate) fn close(&self, ring: &Ring) {
        // Release: pairs with the Acquire load in `ProducerCursor::acquire`.
        ring.released.add(CLOSED);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::sync::NoPeers;

    fn poll_p(c: &ProducerCursor, r: &Ring) -> Result<Slot, WaitError> {
        c.acquire(r, None, None, &NoPeers)
    }
    fn poll_c(c: &ConsumerCursor, r: &Ring) -> Result<Slot, WaitError> {
        c.acquire(r, None, None, &NoPeers)
    }

    /// Three slots: the producer runs three blocks ahead, then must wait; slots wrap.
    #[test]
    fn accounting_and_wrap_around() {
        let r = Ring::default();
        let mut p = ProducerCursor::new(3);
        let mut c = ConsumerCursor::new(3);
        assert_eq!(poll_c(&c, &r), Err(WaitError::Timeout));
        for want in [0, 1, 2] {
            assert_eq!(poll_p(&p, &r), Ok(Slot::Ready(want)));
            p.publish(&r);
        }
        assert_eq!(
            poll_p(&p, &r),
            Err(WaitError::Timeout),
            "all 3 slots in flight"
        );
        assert_eq!(poll_c(&c, &r), Ok(Slot::Ready(0)));
        c.release(&r);
        assert_eq!(poll_p(&p, &r), Ok(Slot::Ready(0)), "block 3 reuses slot 0");
        p.publish(&r);
        for want in [1, 2, 0] {
            assert_eq!(poll_c(&c, &r), Ok(Slot::Ready(want)));
            c.release(&r);
        }
        assert_eq!(poll_c(&c, &r), Err(WaitError::Timeout));
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
        assert_eq!(poll_c(&c, &r), Ok(Slot::Ready(0)));
        c.release(&r);
        r.published.add(17_154);
        let ahead = Corruption {
            counter: "published",
            found: 17_156,
            low: 1,
            high: 5,
        };
        assert_eq!(poll_c(&c, &r), Ok(Slot::Corrupt(ahead)));
        let waited = c.acquire(&r, Some(Wait::Block), None, &NoPeers);
        assert_eq!(waited, Ok(Slot::Corrupt(ahead)));
        // Exactly `blocks` ahead is legal; one more is not.
        r.published.set(1 + 4);
        assert_eq!(poll_c(&c, &r), Ok(Slot::Ready(1)));
        r.published.set(1 + 5);
        assert!(matches!(poll_c(&c, &r), Ok(Slot::Corrupt(_))));
        // Behind what this consumer already received (a count never decreases), also with
        // the producer's close bit, and at a blocking wait's deadline.
        r.published.set(0);
        assert!(matches!(poll_c(&c, &r), Ok(Slot::Corrupt(_))));
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
        assert!(matches!(poll_c(&c, &r), Ok(Slot::Corrupt(_))));
        // The producer (head 2) sees 3 released: a block released before it was published.
        r.released.set(3);
        assert_eq!(
            poll_p(&p, &r),
            Ok(Slot::Corrupt(Corruption {
                counter: "released",
                found: 3,
                low: 0,
                high: 2,
            }))
        );
        r.released.set(2 | CLOSED);
        assert_eq!(poll_p(&p, &r), Ok(Slot::Closed));
        c.close(&r);
    }

    #[test]
    fn consumer_drains_then_sees_close() {
        let r = Ring::default();
        let mut p = ProducerCursor::new(2);
        let mut c = ConsumerCursor::new(2);
        p.publish(&r);
        p.close(&r);
        assert_eq!(poll_c(&c, &r), Ok(Slot::Ready(0)));
        c.release(&r);
        assert_eq!(poll_c(&c, &r), Ok(Slot::Closed));
        // A blocking wait returns at once too.
        let got = c.acquire(&r, Some(Wait::Block), None, &NoPeers);
        assert_eq!(got, Ok(Slot::Closed));
    }

    #[test]
    fn producer_sees_consumer_close_even_with_free_slots() {
        let r = Ring::default();
        let p = ProducerCursor::new(4);
        let c = ConsumerCursor::new(4);
        c.close(&r);
        assert_eq!(poll_p(&p, &r), Ok(Slot::Closed));
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
}
