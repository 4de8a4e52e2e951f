//! The SPSC index protocol every ring of this module runs: two monotonic positions, one per
//! side, each cached by the other side, plus one [`LazyBell`] per direction.
//!
//! # Protocol
//!
//! | word | written by (only) | meaning |
//! |---|---|---|
//! | `tail` | the producer | units committed so far; [`CLOSED`] or-ed in when the producer closes |
//! | `head` | the consumer | units released so far; [`CLOSED`] or-ed in when the consumer closes |
//! | `data` ([`LazyBell`]) | — | the consumer sleeps here; the producer rings after each commit |
//! | `space` ([`LazyBell`]) | — | the producer sleeps here; the consumer rings after each release |
//!
//! A *unit* is a slot of a typed ring or 8 bytes of a frame ring; unit `u` lives at index
//! `u % capacity`. The producer may write units `[tail, head + capacity)`, the consumer read
//! `[head, tail)`. Each position has one writer, so `0 <= tail - head <= capacity` always.
//!
//! Each side keeps a private copy of the other side's position (`cached_head`,
//! `cached_tail`) and reloads it only when the copy says "full" / "empty": in a stream the
//! shared lines move once per batch, not once per item (rtrb's design).
//!
//! # Slip
//!
//! A consumer that is quicker than its producer catches up with it and then chases it: each
//! reload of `tail` finds one new unit, in the cache line the producer is still writing, so
//! every push waits for two cache lines to come back (the units' and `tail`'s), and the
//! stream runs at a third of its rate with a backlog in the ring (measured with
//! `examples/queue_bench`, 8-byte messages, in `docs/results.md`, "SPSC vs rtrb"; rtrb
//! escapes only because its consumer is slower than its producer). So a waiting consumer
//! (a wait other than [`Wait::Block`]; `try_pop` never slips) *slips* when it sees the
//! producer streaming: when its first reload finds fewer than [`SLIP_UNITS`] units, or its
//! wait finds them within [`SLIP_POLLS`] polls, it pauses [`SLIP_PAUSES`] times without
//! touching a shared line, reloads once and returns all it found. The producer fills lines
//! meanwhile and pushes without losing them. A wait that lasts longer (a ping-pong: the
//! reply needs two line transfers) never slips. A slip during which the producer committed
//! nothing (it was not streaming: a reply the consumer came late for) turns slipping off
//! until the consumer finds more than one unit at once again, so a request/response
//! consumer that is always late pays one slip (about 0.8 µs here), not one per reply. The
//! slip is one more Acquire load of `tail`: it changes no ordering.
//!
//! Closing stores the closer's position with [`CLOSED`] (bit 63; a position never reaches
//! it). A consumer still drains what was committed before the close, then sees `Closed`; a
//! producer sees `Closed` at its next wait for space.
//!
//! # Memory ordering
//!
//! - SYNC POINT A: the producer's Release store of `tail` in [`ProducerIndex::commit`] pairs
//!   with the consumer's Acquire load of `tail` in [`ConsumerIndex::available`]: the units
//!   written before the commit are visible to the consumer that sees it.
//! - SYNC POINT B: the consumer's Release store of `head` in [`ConsumerIndex::release`] pairs
//!   with the producer's Acquire load of `head` in [`ProducerIndex::free`]: the consumer's
//!   reads of a unit happen before the producer overwrites it.
//! - Closing is a Release store, read by the same Acquire loads.
//! - Sleeping and waking: see [`LazyBell`].
//!
//! The `loom_tests` below model-check this code with the units in loom's `UnsafeCell`.

use super::doorbell::LazyBell;
use crate::atomic::{spin_hint, AtomicU64, Ordering};
use crate::sync::wait::{Call, Wait};
use crate::sync::PeerWatch;
use crate::sync::Until;
use crate::sync::WaitError;
use crate::sys::Deadline;

/// Or-ed into a position by the side that closes: bit 63, never reached by a count.
pub(crate) const CLOSED: u64 = 1 << 63;

/// A consumer that finds fewer units than this (a cache line of 8-byte units) as soon as it
/// looks slips ([`ConsumerIndex::slip`]).
const SLIP_UNITS: u64 = 8;
/// Pauses of one slip (about 0.8 µs with this machine's 25 ns `pause`; 8 pauses got the
/// stream to 0.75x rtrb, 16 to 0.9x, 32 to 1.0x); one under loom (a pause is a model yield
/// there).
const SLIP_PAUSES: u32 = if cfg!(loom) { 1 } else { 32 };
/// A wait whose data came within this many polls (a pause or two) found a producer that is
/// streaming, not one that answered a request: it slips too.
const SLIP_POLLS: u32 = 2;

/// A position on its own 128-byte block (no false sharing with the other side's).
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub(crate) struct Position(pub(crate) AtomicU64);

/// The shared words of one SPSC ring (shared memory or heap); all-zero is an empty ring.
#[repr(C)]
#[derive(Debug, Default)]
pub(crate) struct Indices {
    pub(crate) tail: Position,
    pub(crate) head: Position,
    pub(crate) space: LazyBell,
    pub(crate) data: LazyBell,
}

// SAFETY: repr(C) of ShmSafe parts (atomics and doorbells): pointer-free, all-zero valid.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Indices {}

/// What a wait for room or data found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// This many units are free (producer) or committed (consumer), at least the number
    /// asked for.
    Ready(u64),
    /// The other side closed (for a consumer: and everything committed was drained).
    Closed,
}

/// The producer's side: its position and its copy of the consumer's. `Copy`, so that the
/// slow path takes it by value and the fast path keeps it in registers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProducerIndex {
    tail: u64,
    cached_head: u64,
    cap: u64,
}

impl ProducerIndex {
    pub(crate) fn new(capacity: u64) -> Self {
        ProducerIndex {
            tail: 0,
            cached_head: 0,
            cap: capacity,
        }
    }

    /// Units committed so far (the next unit's number).
    #[inline]
    pub(crate) fn tail(&self) -> u64 {
        self.tail
    }

    /// Units the ring holds.
    #[inline]
    pub(crate) fn capacity(&self) -> u64 {
        self.cap
    }

    /// Free units as far as the cached copy of `head` knows (no load).
    #[inline]
    pub(crate) fn cached_free(&self) -> u64 {
        self.cap - (self.tail - self.cached_head)
    }

    /// `Some(Ready(free))` when at least `want` units are free, `Some(Closed)` once the
    /// consumer closed, `None` otherwise; reloads `head` only when the cached copy shows
    /// fewer than `want`.
    #[inline]
    pub(crate) fn free(&mut self, ix: &Indices, want: u64) -> Option<Found> {
        let free = self.cap - (self.tail - self.cached_head);
        if free >= want {
            return Some(Found::Ready(free));
        }
        self.reload(ix, want)
    }

    #[inline]
    fn reload(&mut self, ix: &Indices, want: u64) -> Option<Found> {
        // Acquire: SYNC POINT B, pairs with the Release store in `ConsumerIndex::release`
        // (and `close`).
        let head = ix.head.0.load(Ordering::Acquire);
        if head & CLOSED != 0 {
            return Some(Found::Closed);
        }
        // A head outside [tail - cap, tail] is no correct consumer's (a damaged or hostile
        // segment): read it as "no room", so nothing the consumer may still read is
        // overwritten and no arithmetic wraps.
        self.cached_head = if head <= self.tail && self.tail - head <= self.cap {
            head
        } else {
            self.tail.saturating_sub(self.cap).max(self.cached_head)
        };
        let head = self.cached_head;
        let free = self.cap - (self.tail - head);
        (free >= want).then_some(Found::Ready(free))
    }

    /// Waits until at least `want` units are free (`want <= capacity`). `how = None` polls
    /// once and returns `Err(Timeout)` if there is not enough room.
    #[inline]
    pub(crate) fn wait_free<P: PeerWatch + ?Sized>(
        &mut self,
        ix: &Indices,
        want: u64,
        how: Option<Wait>,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<Found, WaitError> {
        self.wait_free_for(ix, want, || Call::from_parts(how, deadline), peers)
    }

    /// [`wait_free`](Self::wait_free) for one call of an endpoint: `call` makes the call
    /// (from the endpoint's patience), its deadline is fixed (the clock read) only once the
    /// reload finds too little room, and a `try_` call polls once.
    ///
    /// Inline: only the check of the cached copy (no load of a shared word, no clock, no
    /// doorbell); the reload of `head` and any wait are out of line. `call` runs only on the
    /// way out: a `Call` made before the check is written to the stack on every call (it
    /// is passed by reference to the slow path), and its fields take registers for the
    /// whole of a caller's loop.
    #[inline]
    pub(crate) fn wait_free_for<P: PeerWatch + ?Sized>(
        &mut self,
        ix: &Indices,
        want: u64,
        call: impl FnOnce() -> Call,
        peers: &P,
    ) -> Result<Found, WaitError> {
        debug_assert!(want <= self.cap);
        let free = self.cached_free();
        if free >= want {
            return Ok(Found::Ready(free));
        }
        let (me, r) = Self::wait_free_slow(*self, ix, want, call(), peers);
        *self = me;
        r
    }

    /// The reload and wait of [`wait_free`](Self::wait_free), on a copy of the index (no
    /// pointer to `self` escapes the fast path, so a caller's loop may keep it in registers).
    #[cold]
    #[inline(never)]
    fn wait_free_slow<P: PeerWatch + ?Sized>(
        mut me: Self,
        ix: &Indices,
        want: u64,
        call: Call,
        peers: &P,
    ) -> (Self, Result<Found, WaitError>) {
        if let Some(f) = me.reload(ix, want) {
            return (me, Ok(f));
        }
        let r = match call.until() {
            None => Err(WaitError::Timeout),
            Some(u) => ix
                .space
                .wait(|| me.reload(ix, want), u.wait, u.deadline, peers),
        };
        (me, r)
    }

    /// Commits `n` written units (they must have been free) and wakes a sleeping consumer.
    #[inline]
    pub(crate) fn commit(&mut self, ix: &Indices, n: u64) {
        debug_assert!(self.tail + n - self.cached_head <= self.cap);
        self.tail += n;
        // Release: SYNC POINT A, pairs with the Acquire load in `ConsumerIndex::available`.
        ix.tail.0.store(self.tail, Ordering::Release);
        ix.data.ring();
    }

    /// [`commit`](Self::commit), waking the consumer on `bell`, a doorbell shared by
    /// several rings (so rung with [`LazyBell::ring_always`]), instead of the ring's own.
    #[inline]
    pub(crate) fn commit_ringing(&mut self, ix: &Indices, n: u64, bell: &LazyBell) {
        debug_assert!(self.tail + n - self.cached_head <= self.cap);
        self.tail += n;
        // Release: SYNC POINT A, pairs with the Acquire load in `ConsumerIndex::available`.
        ix.tail.0.store(self.tail, Ordering::Release);
        bell.ring_always();
    }

    /// Closes the producer's side: the consumer drains what was committed, then sees
    /// `Closed`. By value, like `close_ringing`: a `&self` passed to an out-of-line call
    /// would make the caller keep its whole end in memory instead of registers.
    #[inline]
    pub(crate) fn close(self, ix: &Indices) {
        // Release: pairs with the Acquire load in `ConsumerIndex::available`.
        ix.tail.0.store(self.tail | CLOSED, Ordering::Release);
        ix.data.ring();
    }

    /// [`close`](Self::close), waking the consumer on `bell`.
    #[inline]
    pub(crate) fn close_ringing(self, ix: &Indices, bell: &LazyBell) {
        // Release: pairs with the Acquire load in `ConsumerIndex::available`.
        ix.tail.0.store(self.tail | CLOSED, Ordering::Release);
        bell.ring_always();
    }
}

/// The consumer's side: its position and its copy of the producer's (`Copy`, as for the
/// producer).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConsumerIndex {
    head: u64,
    cached_tail: u64,
    cap: u64,
    /// The producer committed more during the last slip (module docs, "Slip").
    streaming: bool,
}

impl ConsumerIndex {
    pub(crate) fn new(capacity: u64) -> Self {
        ConsumerIndex {
            head: 0,
            cached_tail: 0,
            cap: capacity,
            streaming: true,
        }
    }

    /// Units released so far (the next unit's number).
    #[inline]
    pub(crate) fn head(&self) -> u64 {
        self.head
    }

    /// Units the ring holds.
    #[inline]
    pub(crate) fn capacity(&self) -> u64 {
        self.cap
    }

    /// Units committed and not yet released, as far as the cached copy knows (no load).
    #[inline]
    pub(crate) fn cached_len(&self) -> u64 {
        self.cached_tail - self.head
    }

    /// `Some(Ready(n))` when at least `want` units are committed (or, once the producer
    /// closed, whatever is left, if anything), `Some(Closed)` when it closed and nothing is
    /// left, `None` otherwise; reloads `tail` only when the cached copy shows fewer than
    /// `want`.
    #[inline]
    pub(crate) fn available(&mut self, ix: &Indices, want: u64) -> Option<Found> {
        let have = self.cached_tail - self.head;
        if have >= want {
            return Some(Found::Ready(have));
        }
        self.reload(ix, want)
    }

    #[inline]
    fn reload(&mut self, ix: &Indices, want: u64) -> Option<Found> {
        // Acquire: SYNC POINT A, pairs with the Release store in `ProducerIndex::commit`
        // (and `close`).
        let tail = ix.tail.0.load(Ordering::Acquire);
        // A tail outside [head, head + cap] is no correct producer's (a damaged or hostile
        // segment): clamp it, so no read leaves the ring (frame readers validate what they
        // read; typed elements are Pod, valid for any bytes).
        self.cached_tail = (tail & !CLOSED).clamp(self.head, self.head + self.cap);
        let have = self.cached_tail - self.head;
        if have >= want {
            Some(Found::Ready(have))
        } else if tail & CLOSED != 0 {
            Some(if have == 0 {
                Found::Closed
            } else {
                Found::Ready(have)
            })
        } else {
            None
        }
    }

    /// Waits until at least `want` units are committed (see [`Self::available`]). `how =
    /// None` polls once and returns `Err(Timeout)` if there is too little.
    #[inline]
    pub(crate) fn wait_available<P: PeerWatch + ?Sized>(
        &mut self,
        ix: &Indices,
        want: u64,
        how: Option<Wait>,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<Found, WaitError> {
        self.wait_available_for(ix, want, || Call::from_parts(how, deadline), peers)
    }

    /// [`wait_available`](Self::wait_available) for one call of an endpoint, as
    /// [`ProducerIndex::wait_free_for`]. Inline: only the check of the cached copy.
    #[inline]
    pub(crate) fn wait_available_for<P: PeerWatch + ?Sized>(
        &mut self,
        ix: &Indices,
        want: u64,
        call: impl FnOnce() -> Call,
        peers: &P,
    ) -> Result<Found, WaitError> {
        let have = self.cached_len();
        if have >= want {
            return Ok(Found::Ready(have));
        }
        let (me, r) = Self::wait_available_slow(*self, ix, want, call(), peers);
        *self = me;
        r
    }

    /// The reload and wait of [`wait_available`](Self::wait_available), on a copy of the
    /// index.
    #[cold]
    #[inline(never)]
    fn wait_available_slow<P: PeerWatch + ?Sized>(
        mut me: Self,
        ix: &Indices,
        want: u64,
        call: Call,
        peers: &P,
    ) -> (Self, Result<Found, WaitError>) {
        let may_slip = call.strategy().is_some_and(|h| h != Wait::Block);
        if let Some(f) = me.reload(ix, want) {
            let f = match f {
                Found::Ready(have) if may_slip && me.slips(have) => me.slip(ix, want, f),
                _ => f,
            };
            return (me, Ok(f));
        }
        let Some(Until {
            wait: how,
            deadline,
        }) = call.until()
        else {
            return (me, Err(WaitError::Timeout));
        };
        let mut polls = 0u32;
        let r = ix.data.wait(
            || {
                polls += 1;
                me.reload(ix, want)
            },
            how,
            deadline,
            peers,
        );
        let r = match r {
            Ok(Found::Ready(have)) if may_slip && polls <= SLIP_POLLS && me.slips(have) => {
                Ok(me.slip(ix, want, Found::Ready(have)))
            }
            r => r,
        };
        (me, r)
    }

    /// The consumer caught up with a producer that is still writing (module docs, "Slip"):
    /// pause so the producer can fill at least a cache line, then take what is committed by
    /// then (`found` if the reload shows no more).
    #[inline]
    fn slip(&mut self, ix: &Indices, want: u64, found: Found) -> Found {
        let seen = self.cached_tail;
        for _ in 0..SLIP_PAUSES {
            spin_hint();
        }
        let found = self.reload(ix, want).unwrap_or(found);
        self.streaming = self.cached_tail != seen;
        found
    }

    /// Whether finding `have` units at once should slip: fewer than a line, and the
    /// producer streamed during the last slip or has committed more than one unit since the
    /// consumer last looked (a reply to a request comes alone).
    #[inline]
    fn slips(&self, have: u64) -> bool {
        have < SLIP_UNITS && (self.streaming || have > 1)
    }

    /// Releases `n` read units to the producer and wakes it if it sleeps.
    #[inline]
    pub(crate) fn release(&mut self, ix: &Indices, n: u64) {
        debug_assert!(self.head + n <= self.cached_tail);
        self.head += n;
        // Release: SYNC POINT B, pairs with the Acquire load in `ProducerIndex::free`.
        ix.head.0.store(self.head, Ordering::Release);
        ix.space.ring();
    }

    /// Closes the consumer's side: the producer's next wait for space sees `Closed` (by
    /// value, as for the producer's).
    #[inline]
    pub(crate) fn close(self, ix: &Indices) {
        // Release: pairs with the Acquire load in `ProducerIndex::free`.
        ix.head.0.store(self.head | CLOSED, Ordering::Release);
        ix.space.ring();
    }
}

#[cfg(all(test, not(loom)))]
#[path = "index_tests.rs"]
mod tests;

#[cfg(all(test, loom))]
#[path = "index_loom.rs"]
mod loom_tests;
