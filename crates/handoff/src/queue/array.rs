//! [`ArrayMpmc`] (also named [`ArrayMpsc`]): a shared bounded lock-free MPMC queue, Vyukov's
//! sequence-per-slot design (crossbeam-queue's `ArrayQueue`), for comparison with
//! [`LaneMpsc`](super::LaneMpsc) and for several consumers on one queue; see `stamp` for the
//! protocol. (Not under `cfg(loom)`:
//! `stamp` carries the models.)
//!
//! ```text
//! offset 0      QueueHeader
//! 128           ArrayWords: tail, head, data and space doorbells, members (6 × 128 bytes)
//! data_offset   capacity × slot: [stamp u64][value T], stride a multiple of 8 and of T's
//!               alignment
//! ```

use std::marker::PhantomData;
use std::sync::Arc;

use super::error::{QueueError, Side};
use super::region::{round_up, too_big, Kind, Region, Shape, DATA_ALIGN};
use super::stamp::{self, ArrayCursor, ArrayWords, Pop, Push, Stamps};
use crate::atomic::AtomicU64;
use crate::sync::wait::Call;
use crate::sync::Patience;
use crate::sys::Deadline;
use std::time::Duration;

const WORDS: usize = 128;

#[derive(Debug, Clone, Copy)]
struct Geo {
    cap: usize,
    data_offset: usize,
    /// Offset of the value within a slot.
    value_at: usize,
    stride: usize,
}

fn geo<T>(capacity: usize) -> Result<(Shape, Geo), QueueError> {
    let (size, align) = (std::mem::size_of::<T>(), std::mem::align_of::<T>());
    if capacity == 0 || size == 0 {
        return Err(QueueError::InvalidConfig(format!(
            "a queue needs a capacity of at least 1 element of at least 1 byte (asked for \
             {capacity} elements of {size} bytes)"
        )));
    }
    if align > DATA_ALIGN {
        return Err(QueueError::InvalidConfig(format!(
            "elements aligned to {align} bytes are not supported (at most {DATA_ALIGN})"
        )));
    }
    let value_at = align.max(8);
    let stride = round_up(value_at + size, value_at).expect("small");
    let data_offset =
        round_up(WORDS + std::mem::size_of::<ArrayWords>(), DATA_ALIGN).expect("small");
    let len = stride
        .checked_mul(capacity)
        .and_then(|d| d.checked_add(data_offset))
        .filter(|&n| n <= isize::MAX as usize / 2)
        .ok_or_else(|| too_big(format!("{capacity} elements of {size} bytes")))?;
    let shape = Shape {
        kind: Kind::Array,
        unit: stride as u64,
        capacity: capacity as u64,
        lanes: 1,
        len,
    };
    Ok((
        shape,
        Geo {
            cap: capacity,
            data_offset,
            value_at,
            stride,
        },
    ))
}

#[derive(Debug)]
struct Shared {
    region: Region,
    geo: Geo,
}

impl Shared {
    #[inline]
    fn words(&self) -> &ArrayWords {
        self.region.at(WORDS)
    }

    #[inline]
    fn slot_ptr(&self, i: usize) -> *mut u8 {
        self.region
            .base()
            .wrapping_add(self.geo.data_offset + i * self.geo.stride)
    }

    #[inline]
    fn value_ptr<T>(&self, i: usize) -> *mut T {
        self.slot_ptr(i).wrapping_add(self.geo.value_at).cast::<T>()
    }
}

impl Stamps for Shared {
    #[inline]
    fn stamp(&self, i: usize) -> &AtomicU64 {
        debug_assert!(i < self.geo.cap);
        // SAFETY: slot `i` lies in the region (i < capacity, `geo` sized it); its first 8
        // bytes are the stamp, 8-aligned (slots are 8-aligned from a 128-aligned base);
        // AtomicU64 is valid for any bits and shared only atomically.
        unsafe { &*self.slot_ptr(i).cast::<AtomicU64>() }
    }
}

/// A bounded MPMC queue of `T: Pod` in one array of `capacity` slots shared by every
/// producer and every consumer (Vyukov), on the heap or in a named segment. Producers
/// contend on one tail counter, consumers on one head counter; compare
/// [`LaneMpsc`](super::LaneMpsc), where producers never meet.
///
/// # Joining, leaving, closing
///
/// Producers ([`producer`](Self::producer)) and consumers ([`consumer`](Self::consumer), or
/// [`ArrayConsumer::clone`]) join and leave at any time, in any process that opened the
/// queue. Each value is taken by exactly one consumer.
///
/// - Consumers see [`QueueError::Closed`] once the queue is drained, no producer is
///   attached, and at least [`expect_producers`](Self::expect_producers) producers (1 by
///   default) have joined in all. With the default, the first producer to leave before any
///   other joined closes the queue: if producers join one after another (threads spawned in
///   turn, processes opening the segment), call `expect_producers(n)` before handing out
///   the first, so that the queue stays open until `n` have joined and all have left.
/// - Producers see `Closed` once every consumer that joined has left (for good: a consumer
///   may still join to drain what is queued, but producers stay closed out).
pub struct ArrayMpmc<T> {
    shared: Arc<Shared>,
    _t: PhantomData<fn() -> T>,
}

/// The name [`ArrayMpmc`] had when it had one consumer; the same queue.
pub type ArrayMpsc<T> = ArrayMpmc<T>;

impl<T> Clone for ArrayMpmc<T> {
    fn clone(&self) -> Self {
        ArrayMpmc {
            shared: self.shared.clone(),
            _t: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for ArrayMpmc<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayMpmc")
            .field("shared", &self.shared)
            .finish()
    }
}

impl<T: bytemuck::Pod> ArrayMpmc<T> {
    /// Bytes a queue of `capacity` `T`s occupies.
    pub fn memory_size(capacity: usize) -> Result<usize, QueueError> {
        Ok(geo::<T>(capacity)?.0.len)
    }

    /// A queue on the heap (threads); clone the handle to hand out producers.
    pub fn on_heap(capacity: usize) -> Result<ArrayMpmc<T>, QueueError> {
        let (shape, geo) = geo::<T>(capacity)?;
        Ok(Self::from_region(Region::heap(shape)?, geo))
    }

    /// Creates a queue in the named segment `/handoff-<pid>-<name>`.
    pub fn create(name: &str, capacity: usize) -> Result<ArrayMpmc<T>, QueueError> {
        let (shape, geo) = geo::<T>(capacity)?;
        Ok(Self::from_region(Region::create(name, shape)?, geo))
    }

    /// Opens the queue `name` with the creator's `capacity`, waiting until `deadline`.
    pub fn open(
        name: &str,
        capacity: usize,
        deadline: Deadline,
    ) -> Result<ArrayMpmc<T>, QueueError> {
        let (shape, geo) = geo::<T>(capacity)?;
        Ok(Self::from_region(Region::open(name, shape, deadline)?, geo))
    }

    fn from_region(region: Region, geo: Geo) -> ArrayMpmc<T> {
        ArrayMpmc {
            shared: Arc::new(Shared { region, geo }),
            _t: PhantomData,
        }
    }

    /// The full segment name; `None` on the heap.
    pub fn name(&self) -> Option<&str> {
        self.shared.region.name()
    }

    /// Elements the queue holds at most.
    pub fn capacity(&self) -> usize {
        self.shared.geo.cap
    }

    /// Makes consumers wait for `n` producer joins in all (counting every join, in any
    /// process) before the queue can read as closed; never lowers an earlier setting. Call
    /// it before handing out the first producer (type docs, "Joining, leaving, closing").
    pub fn expect_producers(&self, n: u64) {
        stamp::expect(self.shared.words(), n);
    }

    /// Whether every consumer that joined has left (producers get `Closed` from now on).
    ///
    /// A producer *process* that finished may leave at once: a clean departure ends no
    /// other end's wait (a queue's waits count only peers that died or panicked).
    pub fn consumers_gone(&self) -> bool {
        stamp::consumers_gone(self.shared.words())
    }

    /// Joins as a producer (any number may).
    ///
    /// Errors: [`QueueError::Closed`] once every consumer left.
    pub fn producer(&self) -> Result<ArrayProducer<T>, QueueError> {
        let p = ArrayProducer {
            shared: self.shared.clone(),
            _t: PhantomData,
            patience: Patience::default(),
        };
        if !stamp::join(self.shared.words()) {
            return Err(QueueError::Closed {
                by: Side::Consumer,
                item: (),
            }); // `p` leaves on drop
        }
        Ok(p)
    }

    /// Joins as a consumer (any number may, in any process; clone an [`ArrayConsumer`]
    /// for another). Never fails; the `Result` is kept for the queues whose consumer side
    /// is exclusive.
    pub fn consumer(&self) -> Result<ArrayConsumer<T>, QueueError> {
        Ok(ArrayConsumer::join(self.shared.clone()))
    }
}

/// A producer of an [`ArrayMpmc`]. Dropping it leaves.
pub struct ArrayProducer<T> {
    shared: Arc<Shared>,
    _t: PhantomData<fn() -> T>,
    patience: Patience,
}

impl<T> std::fmt::Debug for ArrayProducer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayProducer").finish_non_exhaustive()
    }
}

impl<T: bytemuck::Pod> ArrayProducer<T> {
    /// Pushes `value`, waiting (with its [`Patience`]) for a free slot.
    ///
    /// Errors: [`QueueError::Closed`] once every consumer left (noticed when the queue is
    /// full); `PeerGone`; `Timeout` when the patience's timeout passes. `Timeout` and
    /// `Closed` hand `value` back.
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), QueueError<T>> {
        self.push_until(value, Call::Patient(self.patience))
    }

    /// [`push`](Self::push), waiting at most `timeout`.
    #[inline]
    pub fn push_timeout(&mut self, value: T, timeout: Duration) -> Result<(), QueueError<T>> {
        self.push_until(value, Call::Timeout(self.patience, timeout))
    }

    /// Pushes `value` if a slot is free now; a full queue returns it at once in
    /// [`QueueError::Timeout`].
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), QueueError<T>> {
        self.push_until(value, Call::Try)
    }

    #[inline]
    fn push_until(&mut self, value: T, call: Call) -> Result<(), QueueError<T>> {
        let sh = &*self.shared;
        // The call's wait is fixed (`call.until()`: a clock read with a timeout) only once
        // the queue is full, not on every push.
        let r = match self.attempt(value) {
            Push::Full => match call.until() {
                None => {
                    return Err(QueueError::Timeout {
                        what: "free slot",
                        item: value,
                    })
                }
                Some(until) => match sh.words().space.wait_eager(
                    || match self.attempt(value) {
                        Push::Full => None,
                        r => Some(r),
                    },
                    until.wait,
                    until.deadline,
                    &sh.region,
                ) {
                    Ok(r) => r,
                    Err(e) => return Err(QueueError::from_wait(e, "free slot").with_item(value)),
                },
            },
            r => r,
        };
        match r {
            Push::Closed => Err(QueueError::Closed {
                by: Side::Consumer,
                item: value,
            }),
            _ => Ok(()),
        }
    }

    /// How [`push`](Self::push) waits: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how [`push`](Self::push) waits (`push_timeout` keeps the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    #[inline]
    fn attempt(&self, value: T) -> Push {
        let sh = &*self.shared;
        stamp::push(sh.words(), sh, sh.geo.cap as u64, |i| {
            // SAFETY: the CAS in `stamp::push` gave this producer slot `i` for this lap
            // (its stamp said free: the consumers' read of the old value happened before,
            // SYNC POINT V2); the value lies inside the slot.
            unsafe { sh.value_ptr::<T>(i).write_unaligned(value) }
        })
    }
}

impl<T> Drop for ArrayProducer<T> {
    fn drop(&mut self) {
        stamp::leave(self.shared.words());
    }
}

/// A consumer of an [`ArrayMpmc`]; clone it for another consumer (each value goes to one
/// of them). Dropping the last consumer closes the queue for the producers.
pub struct ArrayConsumer<T> {
    shared: Arc<Shared>,
    cursor: ArrayCursor,
    _t: PhantomData<fn() -> T>,
    patience: Patience,
}

impl<T> ArrayConsumer<T> {
    fn join(shared: Arc<Shared>) -> ArrayConsumer<T> {
        stamp::consumer_join(shared.words());
        ArrayConsumer {
            cursor: ArrayCursor::new(shared.geo.cap as u64),
            shared,
            _t: PhantomData,
            patience: Patience::default(),
        }
    }
}

impl<T> Clone for ArrayConsumer<T> {
    /// Joins another consumer of the same queue (starting with nothing taken).
    fn clone(&self) -> Self {
        ArrayConsumer::join(self.shared.clone())
    }
}

impl<T> std::fmt::Debug for ArrayConsumer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayConsumer")
            .field("popped", &self.cursor.taken())
            .finish()
    }
}

impl<T: bytemuck::Pod> ArrayConsumer<T> {
    /// Pops the next element, waiting with its [`Patience`].
    ///
    /// Errors: [`QueueError::Closed`] when nothing is queued and no producer is attached
    /// (after the expected producers joined: [`ArrayMpmc::expect_producers`]); `PeerGone`
    /// if a process attached to the segment died or panicked (also a producer that died
    /// between claiming a slot and filling it; one that left cleanly ends no wait);
    /// `Timeout` when the patience's timeout passes.
    #[inline]
    pub fn pop(&mut self) -> Result<T, QueueError> {
        self.take(Call::Patient(self.patience))
    }

    /// [`pop`](Self::pop), waiting at most `timeout`.
    #[inline]
    pub fn pop_timeout(&mut self, timeout: Duration) -> Result<T, QueueError> {
        self.take(Call::Timeout(self.patience, timeout))
    }

    /// The next element if there is one now; [`QueueError::Timeout`] at once otherwise.
    #[inline]
    pub fn try_pop(&mut self) -> Result<T, QueueError> {
        self.take(Call::Try)
    }

    /// Waits (with its [`Patience`]) for at least one element, then pops as many as are
    /// ready, up to `out.len()` (0 at once for an empty `out`).
    pub fn pop_into(&mut self, out: &mut [T]) -> Result<usize, QueueError> {
        self.pop_into_until(out, Call::Patient(self.patience))
    }

    /// [`pop_into`](Self::pop_into), waiting at most `timeout`.
    pub fn pop_into_timeout(
        &mut self,
        out: &mut [T],
        timeout: Duration,
    ) -> Result<usize, QueueError> {
        self.pop_into_until(out, Call::Timeout(self.patience, timeout))
    }

    /// [`pop_into`](Self::pop_into) without waiting: `Timeout` at once if nothing is ready.
    pub fn try_pop_into(&mut self, out: &mut [T]) -> Result<usize, QueueError> {
        self.pop_into_until(out, Call::Try)
    }

    fn pop_into_until(&mut self, out: &mut [T], call: Call) -> Result<usize, QueueError> {
        let Some((first, rest)) = out.split_first_mut() else {
            return Ok(0);
        };
        *first = self.take(call)?;
        let mut n = 1;
        for slot in rest {
            match self.take(Call::Try) {
                Ok(v) => *slot = v,
                Err(_) => break,
            }
            n += 1;
        }
        Ok(n)
    }

    /// How the waiting calls wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how the waiting calls wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    #[inline]
    fn take(&mut self, call: Call) -> Result<T, QueueError> {
        let sh = &*self.shared;
        let w = sh.words();
        let read = |i: usize| {
            // SAFETY: the stamp said slot `i` holds this lap's value (Acquire, SYNC POINT
            // V1) and the CAS on `head` gave it to this consumer alone; no producer writes
            // it before this consumer frees it.
            unsafe { sh.value_ptr::<T>(i).read_unaligned() }
        };
        let got = match self.cursor.pop(w, sh, read) {
            Some(g) => g,
            None => match call.until() {
                None => {
                    return Err(QueueError::Timeout {
                        what: "element",
                        item: (),
                    })
                }
                Some(until) => w
                    .data
                    .wait_eager(
                        || self.cursor.pop(w, sh, read),
                        until.wait,
                        until.deadline,
                        &sh.region,
                    )
                    .map_err(|e| QueueError::from_wait(e, "element"))?,
            },
        };
        match got {
            Pop::Got(v) => Ok(v),
            Pop::Closed => Err(QueueError::Closed {
                by: Side::Producer,
                item: (),
            }),
        }
    }

    /// Elements this consumer popped so far.
    pub fn popped(&self) -> u64 {
        self.cursor.taken()
    }
}

impl<T> Drop for ArrayConsumer<T> {
    fn drop(&mut self) {
        stamp::consumer_leave(self.shared.words());
    }
}
