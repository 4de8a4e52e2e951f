//! The collectives' one-way messages: how a small collective synchronizes once instead of
//! with barriers. Every PE's internal block holds, at [`COLL_AT`]:
//!
//! - one counter word per sender (world rank): the number of messages that PE has sent here;
//! - two slots of [`Msgs::slot_len`] bytes per sender: its small contributions (a reduction's
//!   operand, a collect's length and data), used alternately.
//!
//! A message is a transport `signal` / `put_signal` adding 1 to the receiver's counter for
//! the sender, after the data it carries (into the receiver's `dest`, or into its slot). The
//! receiver keeps, privately, how many messages of each sender it has consumed (`seen`) and
//! waits until the counter passes it. As with the barrier's arrival counters (`handoff::team`
//! barrier), a sender's `k`-th message to a receiver is the receiver's `k`-th wait for it
//! because both run the collectives they share in the same order and every collective fixes
//! how many messages each member sends to each other member; a sender already in a later
//! collective only makes the count larger, never satisfies an earlier wait early (per pair
//! the counter counts in order).
//!
//! Slot reuse: the sender writes its `c`-th slot message to a receiver into slot `c mod 2`.
//! Only exchanges use slots, where every member sends to every other member and waits for all
//! of them; so a sender's message `c + 2` (collective X+2) follows its wait for the receiver's
//! message of X+1, which the receiver sent after it had consumed message `c` (collective X).
//!
//! # Memory ordering
//!
//! The transport's signal is a Release RMW after the data (its contract); the receiver's
//! counter load in [`Msgs::wait`] is Acquire and pairs with it, so the data (in `dest` or the
//! slot) is visible once the count is.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use handoff::team::{SignalOp, Transport};

use crate::coll_slots::{arrived, slot_of};
use crate::error::{Result, ShmemError};
use crate::state::{State, COLL_AT, COLL_LEN};

/// Sets of at most this many members use the one-way messages; larger sets synchronize with
/// barriers (⌈log2 p⌉ rounds, instead of p - 1 messages to and from every member).
pub const FLAT_MAX: usize = 8;
/// The largest slot (bytes): contributions up to it travel in one message.
const SLOT_MAX: usize = 16 << 10;

/// This PE's private counts, three per world rank: messages consumed from it, slot messages
/// sent to it, slot messages consumed from it. Collectives are made by one thread of the PE
/// at a time (`state.rs`), so Relaxed atomics only make the statics `Sync`.
static BOOKS: OnceLock<Box<[AtomicU64]>> = OnceLock::new();

const SEEN: usize = 0;
const SLOT_SENT: usize = 1;
const SLOT_GOT: usize = 2;

/// The message block of this PE's collectives, for a set of members.
pub struct Msgs<'a> {
    s: &'a State,
    /// Partition offset of the block (the same on every PE).
    base: usize,
    /// Partition offset of the first slot.
    slots: usize,
    slot_len: usize,
    books: &'static [AtomicU64],
}

impl<'a> Msgs<'a> {
    /// The messages for a set of `members` PEs, or `None` when the set synchronizes with
    /// barriers instead (more than [`FLAT_MAX`] members, or more PEs than the block has
    /// counters and 64-byte slots for: about 1900). The same answer on every member: it depends on the set's size and
    /// the number of PEs only.
    pub fn flat(s: &'a State, members: usize) -> Option<Self> {
        let counters = (s.npes * 8).next_multiple_of(64);
        if members > FLAT_MAX || counters >= COLL_LEN {
            return None;
        }
        let slot_len = ((COLL_LEN - counters) / (2 * s.npes) / 64 * 64).min(SLOT_MAX);
        if slot_len < 64 {
            return None; // thousands of PEs: a collect's length would not fit
        }
        let books = BOOKS.get_or_init(|| (0..3 * s.npes).map(|_| AtomicU64::new(0)).collect());
        let base = s.internal + COLL_AT;
        Some(Msgs {
            s,
            base,
            slots: base + counters,
            slot_len,
            books,
        })
    }

    /// Bytes a slot holds.
    pub fn slot_len(&self) -> usize {
        self.slot_len
    }

    fn book(&self, which: usize, pe: usize) -> &AtomicU64 {
        &self.books[3 * pe + which]
    }

    /// Partition offset of sender `from`'s slot `parity` (in any PE's block).
    fn slot(&self, from: usize, parity: u64) -> usize {
        self.slots + (2 * from + parity as usize) * self.slot_len
    }

    /// Offset of the counter word for sender `from` (in any PE's block).
    fn counter(&self, from: usize) -> usize {
        self.base + 8 * from
    }

    /// One message to `to`, after everything this PE put to it before.
    pub fn send(&self, to: usize) -> Result<()> {
        let me = self.s.rank;
        Ok(self.s.x().signal(to, self.counter(me), SignalOp::Add(1))?)
    }

    /// Puts `data` at partition offset `offset` of `to`, then one message.
    pub fn send_put(&self, to: usize, offset: usize, data: &[u8]) -> Result<()> {
        let me = self.s.rank;
        Ok(self
            .s
            .x()
            .put_signal(to, offset, data, self.counter(me), SignalOp::Add(1))?)
    }

    /// Puts `head` then `data` (at most [`slot_len`](Self::slot_len) bytes together) into
    /// this PE's next slot at `to`, then one message.
    pub fn send_slot(&self, to: usize, head: &[u8], data: &[u8]) -> Result<()> {
        if head.len() + data.len() > self.slot_len {
            return Err(ShmemError::Invalid(format!(
                "internal: a slot message of {} bytes exceeds the slot ({} bytes)",
                head.len() + data.len(),
                self.slot_len
            )));
        }
        let sent = self.book(SLOT_SENT, to);
        let at = self.slot(self.s.rank, slot_of(sent.load(Ordering::Relaxed)));
        sent.fetch_add(1, Ordering::Relaxed);
        if head.is_empty() {
            return self.send_put(to, at, data);
        }
        if !data.is_empty() {
            self.s.x().put(to, at + head.len(), data)?;
        }
        self.send_put(to, at, head)
    }

    /// Waits for the next message of every PE in `from` (world ranks, not this PE).
    pub fn wait(&self, from: &[usize]) -> Result<()> {
        if from.is_empty() {
            return Ok(());
        }
        let heap = self.s.x().local_heap();
        let word = |f: usize| {
            // SAFETY: the counter words lie in this PE's internal block (COLL_AT + 8 npes <=
            // INTERNAL, checked by `flat`), 8-aligned (the block is 64-aligned); other PEs
            // update them only with atomics (the transport's signal).
            unsafe { &*heap.add(self.counter(f)).cast::<AtomicU64>() }
        };
        // Acquire: pairs with the sender's Release signal (module docs).
        let counter = |f: usize| word(f).load(Ordering::Acquire);
        let seen = |f: usize| self.book(SEEN, f).load(Ordering::Relaxed);
        let mut poll = || arrived(from, counter, seen).then_some(0);
        if poll().is_none() {
            let len = 8 * self.s.npes;
            self.s
                .x()
                .wait_local_on(self.base, len, &mut poll, self.s.until(), "a collective")?;
        }
        for &f in from {
            self.book(SEEN, f).fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The first `len` bytes of the next unread slot message from `from`, which
    /// [`wait`](Self::wait) has seen arrive. Valid until `from`'s second-next slot message,
    /// which comes only after this PE's next collective with it (module docs).
    pub fn take_slot(&self, from: usize, len: usize) -> &[u8] {
        let got = self.book(SLOT_GOT, from);
        let at = self.slot(from, slot_of(got.load(Ordering::Relaxed)));
        got.fetch_add(1, Ordering::Relaxed);
        let len = len.min(self.slot_len);
        // SAFETY: the slot lies in this PE's internal block (`flat` sized the slots to fit
        // COLL_LEN); its sender wrote it before the message `wait` saw (Acquire), and writes
        // it again only after this PE's next collective with it, so nobody writes it while
        // the slice lives (module docs).
        unsafe { std::slice::from_raw_parts(self.s.x().local_heap().add(at), len) }
    }
}

/// A barrier over `set` (world ranks).
pub fn barrier(s: &State, set: &[usize]) -> Result<()> {
    if set.len() == s.npes {
        s.team.barrier_all()?;
    } else {
        s.team.barrier(set)?;
    }
    Ok(())
}
