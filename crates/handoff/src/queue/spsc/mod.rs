//! The typed SPSC ring: [`Spsc`], its [`Producer`] and [`Consumer`], and their chunks.
//! (Not under `cfg(loom)`: the protocol it runs is `index`, model-checked there.)

mod chunk;

pub use chunk::{ReadChunk, WriteChunk};

use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::sync::Arc;

use super::error::{QueueError, Side};
use super::index::{ConsumerIndex, Found, Indices, ProducerIndex};
use super::region::{round_up, too_big, Kind, Region, Shape, DATA_ALIGN};
use crate::sync::wait::Call;
use crate::sync::{Patience, Until, WaitError};
use crate::sys::Deadline;
use std::time::Duration;

/// Offset of the ring's [`Indices`] (after the 128-byte header).
const INDICES: usize = 128;

/// Offset of the slots: after the indices, 128-byte aligned.
fn data_offset() -> usize {
    INDICES + std::mem::size_of::<Indices>()
}

/// The shape of a typed ring of `capacity` `T`s.
fn shape<T: bytemuck::Pod>(capacity: usize) -> Result<Shape, QueueError> {
    let size = std::mem::size_of::<T>();
    if capacity == 0 || size == 0 {
        return Err(QueueError::InvalidConfig(format!(
            "a queue needs a capacity of at least 1 element of at least 1 byte (asked for {capacity} \
             elements of {size} bytes)"
        )));
    }
    if std::mem::align_of::<T>() > DATA_ALIGN {
        return Err(QueueError::InvalidConfig(format!(
            "elements aligned to {} bytes are not supported (at most {DATA_ALIGN})",
            std::mem::align_of::<T>()
        )));
    }
    let len = size
        .checked_mul(capacity)
        .and_then(|d| d.checked_add(data_offset()))
        .and_then(|n| round_up(n, DATA_ALIGN))
        .filter(|&n| n <= isize::MAX as usize / 2)
        .ok_or_else(|| too_big(format!("{capacity} elements of {size} bytes")))?;
    Ok(Shape {
        kind: Kind::Spsc,
        unit: size as u64,
        capacity: capacity as u64,
        lanes: 1,
        len,
    })
}

/// A bounded single-producer single-consumer queue of `T`s, on the heap (threads) or in a
/// named segment (processes); hands out its [`Producer`] and [`Consumer`] once each.
///
/// `T` is [`bytemuck::Pod`]: plain bytes, `Copy`, no `Drop`, no pointers — what can cross
/// a process boundary. Values are copied in and out (or written and read in place through
/// [`WriteChunk`] / [`ReadChunk`]); nothing is ever dropped by the queue.
pub struct Spsc<T> {
    region: Arc<Region>,
    _t: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for Spsc<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spsc")
            .field("region", &self.region)
            .finish()
    }
}

impl<T: bytemuck::Pod> Spsc<T> {
    /// Bytes a queue of `capacity` `T`s occupies (header, indices and slots).
    pub fn memory_size(capacity: usize) -> Result<usize, QueueError> {
        Ok(shape::<T>(capacity)?.len)
    }

    /// A queue on the heap, split into its two ends (for threads). rtrb's
    /// `RingBuffer::new(n).split()`.
    ///
    /// Errors: [`QueueError::InvalidConfig`] for a capacity of 0 or a zero-sized `T`.
    #[allow(clippy::new_ret_no_self)] // rtrb's `RingBuffer::new(n).split()` in one call
    pub fn new(capacity: usize) -> Result<(Producer<T>, Consumer<T>), QueueError> {
        Self::on_heap(capacity)?.split()
    }

    /// A queue on the heap, as a handle (for [`producer`](Self::producer) and
    /// [`consumer`](Self::consumer) separately).
    pub fn on_heap(capacity: usize) -> Result<Spsc<T>, QueueError> {
        Ok(Self::from_region(Region::heap(shape::<T>(capacity)?)?))
    }

    /// Creates a queue in the named segment `/handoff-<pid>-<name>`; give
    /// [`name`](Self::name) to the other process.
    pub fn create(name: &str, capacity: usize) -> Result<Spsc<T>, QueueError> {
        Ok(Self::from_region(Region::create(
            name,
            shape::<T>(capacity)?,
        )?))
    }

    /// Opens the queue `name` (the creator's [`name`](Self::name)), waiting until `deadline`
    /// for its creator. `T`'s size and `capacity` must equal the creator's
    /// ([`QueueError::Mismatch`] otherwise).
    pub fn open(name: &str, capacity: usize, deadline: Deadline) -> Result<Spsc<T>, QueueError> {
        Ok(Self::from_region(Region::open(
            name,
            shape::<T>(capacity)?,
            deadline,
        )?))
    }

    fn from_region(region: Region) -> Spsc<T> {
        Spsc {
            region: Arc::new(region),
            _t: PhantomData,
        }
    }

    /// The full segment name to open it by; `None` on the heap.
    pub fn name(&self) -> Option<&str> {
        self.region.name()
    }

    /// Elements the queue holds at most.
    pub fn capacity(&self) -> usize {
        self.region.shape.capacity as usize
    }

    /// Claims the producer side (once per queue, across all processes).
    pub fn producer(&self) -> Result<Producer<T>, QueueError> {
        self.region
            .header()
            .claim(Side::Producer, &self.region.label)?;
        Ok(Producer {
            ring: Ring::new(self.region.clone()),
            idx: ProducerIndex::new(self.region.shape.capacity),
            slot: 0,
            patience: Box::default(),
        })
    }

    /// Claims the consumer side (once per queue, across all processes).
    pub fn consumer(&self) -> Result<Consumer<T>, QueueError> {
        self.region
            .header()
            .claim(Side::Consumer, &self.region.label)?;
        Ok(Consumer {
            ring: Ring::new(self.region.clone()),
            idx: ConsumerIndex::new(self.region.shape.capacity),
            slot: 0,
            patience: Box::default(),
        })
    }

    /// Both ends, for two threads.
    pub fn split(self) -> Result<(Producer<T>, Consumer<T>), QueueError> {
        Ok((self.producer()?, self.consumer()?))
    }
}

/// What both ends hold: the region, and (derived from it on each use) the addresses of the
/// indices and slots.
///
/// Only the `Arc`: the addresses and the capacity are loaded from the region (an L1 hit)
/// where they are needed, instead of being held by each end, so that fewer values stay live
/// across a caller's push/pop loop and its positions can stay in registers (rtrb's layout:
/// one pointer per end).
struct Ring<T> {
    /// Dropped by hand in `Drop for Ring` from a moved-out copy: dropping the field in place
    /// would hand its address to `Arc::drop_slow`, an out-of-line call, and an end whose
    /// address escapes stays in memory in the caller's loop (every push would load and store
    /// its positions through the stack) instead of in registers.
    region: ManuallyDrop<Arc<Region>>,
    _t: PhantomData<*mut T>,
}

// SAFETY: the addresses derived from `region` point into it, kept alive by the Arc; each end
// touches only the slots the index protocol gives it. T: Send is required to move values
// across.
unsafe impl<T: Send> Send for Ring<T> {}

impl<T> Ring<T> {
    fn new(region: Arc<Region>) -> Ring<T> {
        Ring {
            region: ManuallyDrop::new(region),
            _t: PhantomData,
        }
    }

    #[inline]
    fn indices(&self) -> &Indices {
        self.region.at::<Indices>(INDICES)
    }

    /// The first slot.
    #[inline]
    fn data(&self) -> *mut T {
        self.region.base().wrapping_add(data_offset()).cast::<T>()
    }

    /// Slots.
    #[inline]
    fn cap(&self) -> usize {
        self.region.shape.capacity as usize
    }

    /// The two runs of slots starting at `slot` covering `n` slots (the second after the
    /// wrap, possibly empty).
    #[inline]
    fn runs(&self, slot: usize, n: usize) -> ((usize, usize), usize) {
        let first = n.min(self.cap() - slot);
        ((slot, first), n - first)
    }
}

impl<T> Drop for Ring<T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: `region` is taken once, here, and never used again.
        let region = unsafe { ManuallyDrop::take(&mut self.region) };
        drop(region);
    }
}

/// The slot one after `slot` (wrapping at `cap`). Compares the *old* slot with `cap - 1`
/// (loop-invariant), so the compare and the increment run in parallel and the dependency
/// from one push's slot to the next is an increment and a conditional move (rtrb's
/// `increment1`); `advance(slot, 1, cap)` compiled to a 5-instruction chain that bounded
/// the one-thread push/pop loop.
#[inline]
fn advance1(slot: usize, cap: usize) -> usize {
    if slot < cap - 1 {
        slot + 1
    } else {
        0
    }
}

#[inline]
fn advance(slot: usize, n: usize, cap: usize) -> usize {
    let s = slot + n;
    if s >= cap {
        s - cap
    } else {
        s
    }
}

/// The error of an end's wait that found no room or data: `Closed` by `by` (`wait` is
/// `None`: the index found the other side closed), else the wait's error (`PeerGone`, or
/// `Timeout` for `what`); `item` (a push's element, else `()`) handed back in `Closed` and
/// `Timeout`. Out of line and from a one-register argument: a push's or pop's fast path,
/// inlined into a caller's loop, then holds no error and no copy of one.
#[cold]
#[inline(never)]
fn failed<R, T>(
    wait: Option<WaitError>,
    by: Side,
    what: &'static str,
    item: T,
) -> Result<R, QueueError<T>> {
    Err(match wait {
        None => QueueError::Closed { by, item },
        Some(WaitError::Timeout) => QueueError::Timeout { what, item },
        Some(WaitError::PeerGone { pid }) => QueueError::PeerGone { pid },
    })
}

/// The producing end of an [`Spsc`]. Dropping it closes the queue: the consumer drains what
/// was pushed, then gets [`QueueError::Closed`].
pub struct Producer<T> {
    ring: Ring<T>,
    idx: ProducerIndex,
    /// `tail % capacity`.
    slot: usize,
    /// Boxed, so that a caller's loop holds one pointer (spilled: only a wait reads it)
    /// instead of the patience's four words: held in the end, they stayed live across a
    /// one-thread push/pop loop (the ends' fields live in registers there) and pushed the
    /// positions out to the stack: 49 instructions per push + pop instead of 44 (rtrb: 44;
    /// `valgrind --tool=cachegrind` of `queue_bench`'s one-thread row).
    patience: Box<Patience>,
}

impl<T> std::fmt::Debug for Producer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Producer")
            .field("queue", &self.ring.region.label)
            .field("pushed", &self.idx.tail())
            .finish()
    }
}

impl<T: bytemuck::Pod> Producer<T> {
    /// Pushes `value`, waiting (with its [`Patience`]) for a free slot.
    ///
    /// Errors: [`QueueError::Closed`] once the consumer closed (noticed when the producer
    /// next looks at the consumer's position: at the latest when the ring looks full);
    /// `PeerGone` if its process died; `Timeout` when the patience's timeout passes.
    /// `Timeout` and `Closed` hand `value` back.
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), QueueError<T>> {
        self.push_until(value, Call::Patient)
    }

    /// [`push`](Self::push), waiting at most `timeout`.
    #[inline]
    pub fn push_timeout(&mut self, value: T, timeout: Duration) -> Result<(), QueueError<T>> {
        self.push_until(value, move |p| Call::Timeout(p, timeout))
    }

    /// Pushes `value` if a slot is free now; a full queue returns it at once in
    /// [`QueueError::Timeout`].
    ///
    /// rtrb's `push`, all inline: the check of the cached copy of `head`, then one reload
    /// of it; no call, no clock, and a full queue's error built in place (through the
    /// waiting calls' path it cost a call, and an error made and converted out of line, per
    /// full ring: 0.5x rtrb in `queue_bench`'s `try_push` row).
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), QueueError<T>> {
        let ring = &self.ring;
        match self.idx.free(ring.indices(), 1) {
            Some(Found::Ready(_)) => {
                self.write_one(value);
                Ok(())
            }
            Some(Found::Closed) => Err(QueueError::Closed {
                by: Side::Consumer,
                item: value,
            }),
            None => Err(QueueError::Timeout {
                what: "free slot",
                item: value,
            }),
        }
    }

    /// `call` makes the call from the end's patience, only if the ring looks full (see
    /// [`ProducerIndex::wait_free_for`]).
    #[inline]
    fn push_until(
        &mut self,
        value: T,
        call: impl FnOnce(Patience) -> Call,
    ) -> Result<(), QueueError<T>> {
        match self.room(1, call) {
            Ok(Found::Ready(_)) => {
                self.write_one(value);
                Ok(())
            }
            r => failed(r.err(), Side::Consumer, "free slot", value),
        }
    }

    /// How the waiting calls wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        *self.patience
    }

    /// Sets how the waiting calls wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        *self.patience = patience;
    }

    #[inline]
    fn write_one(&mut self, value: T) {
        // The indices' address and the capacity before the write: the compiler cannot tell
        // that the slot is not the region's own fields, and would load them again after it.
        let ix = self.ring.indices();
        let cap = self.idx.capacity() as usize;
        // SAFETY: `reserve` proved slot `tail % cap` free (Acquire on `head`, SYNC POINT B
        // of `index`); `slot` is that index (< cap), inside the region's data area.
        unsafe { self.ring.data().add(self.slot).write(value) };
        self.slot = advance1(self.slot, cap);
        self.idx.commit(ix, 1);
    }

    /// Waits as `call` (made from the end's patience when the cached copy shows too little
    /// room) says until `n` slots are free; returns how many are.
    #[inline]
    fn reserve(
        &mut self,
        n: usize,
        call: impl FnOnce(Patience) -> Call,
    ) -> Result<usize, QueueError> {
        match self.room(n, call) {
            Ok(Found::Ready(free)) => Ok(free as usize),
            r => failed(r.err(), Side::Consumer, "free slot", ()),
        }
    }

    /// The index's wait for `n` free slots. The call's deadline is fixed only once the
    /// index has reloaded and found too little room (one reload, no error made and dropped
    /// on the way: a spinning pair meets a full ring on most pushes).
    #[inline]
    fn room(&mut self, n: usize, call: impl FnOnce(Patience) -> Call) -> Result<Found, WaitError> {
        let ring = &self.ring;
        let patience = &*self.patience;
        self.idx
            .wait_free_for(ring.indices(), n as u64, || call(*patience), &**ring.region)
    }

    /// Pushes every element of `items`, in chunks as room appears (one index update and one
    /// doorbell check per chunk, not per element), waiting with its [`Patience`] (one
    /// timeout for the whole slice). On an error, the elements before the first not pushed
    /// are in the queue ([`pushed`](Self::pushed) tells how many).
    pub fn push_slice(&mut self, items: &[T]) -> Result<(), QueueError> {
        let until = self.patience.start();
        self.push_slice_until(items, until)
    }

    /// [`push_slice`](Self::push_slice), waiting at most `timeout` in all.
    pub fn push_slice_timeout(&mut self, items: &[T], timeout: Duration) -> Result<(), QueueError> {
        let until = self.patience.start_with(timeout);
        self.push_slice_until(items, until)
    }

    fn push_slice_until(&mut self, items: &[T], until: Until) -> Result<(), QueueError> {
        let mut rest = items;
        while !rest.is_empty() {
            let free = self.reserve(1, |_| Call::Fixed(until))?;
            let n = free.min(rest.len());
            self.copy_in(&rest[..n]);
            rest = &rest[n..];
        }
        Ok(())
    }

    /// Pushes as many leading elements of `items` as fit now (at least one); returns how
    /// many. [`QueueError::Timeout`] at once if none fits (an empty `items` pushes 0).
    pub fn try_push_slice(&mut self, items: &[T]) -> Result<usize, QueueError> {
        if items.is_empty() {
            return Ok(0);
        }
        let free = self.reserve(1, |_| Call::Try)?;
        let n = free.min(items.len());
        self.copy_in(&items[..n]);
        Ok(n)
    }

    /// Copies `src` (which fits) into the free slots and commits it.
    fn copy_in(&mut self, src: &[T]) {
        let mut chunk = WriteChunk {
            producer: self,
            n: src.len(),
        };
        let (a, b) = chunk.as_mut_slices();
        let (x, y) = src.split_at(a.len());
        a.copy_from_slice(x);
        b.copy_from_slice(y);
        chunk.commit_all();
    }

    /// Waits (with its [`Patience`]) until `n` slots are free (`1 <= n <= capacity`) and
    /// lends them for writing in place: [`WriteChunk::commit`] publishes them. rtrb's
    /// `write_chunk_uninit`, with the slots zeroed or holding old values (any bytes are a
    /// valid `T`: it is `Pod`).
    ///
    /// Errors: [`QueueError::InvalidConfig`] for `n` of 0 or above the capacity, and those
    /// of [`push`](Self::push).
    pub fn write_chunk(&mut self, n: usize) -> Result<WriteChunk<'_, T>, QueueError> {
        self.write_chunk_until(n, Call::Patient(*self.patience))
    }

    /// [`write_chunk`](Self::write_chunk), waiting at most `timeout`.
    pub fn write_chunk_timeout(
        &mut self,
        n: usize,
        timeout: Duration,
    ) -> Result<WriteChunk<'_, T>, QueueError> {
        self.write_chunk_until(n, Call::Timeout(*self.patience, timeout))
    }

    /// [`write_chunk`](Self::write_chunk) if `n` slots are free now; `Timeout` at once
    /// otherwise.
    pub fn try_write_chunk(&mut self, n: usize) -> Result<WriteChunk<'_, T>, QueueError> {
        self.write_chunk_until(n, Call::Try)
    }

    fn write_chunk_until(&mut self, n: usize, call: Call) -> Result<WriteChunk<'_, T>, QueueError> {
        if n == 0 || n > self.ring.cap() {
            return Err(QueueError::InvalidConfig(format!(
                "a write chunk of {n} slots in a queue of {}: ask for 1 to {} slots",
                self.ring.cap(),
                self.ring.cap()
            )));
        }
        self.reserve(n, |_| call)?;
        Ok(WriteChunk { producer: self, n })
    }

    /// Free slots now (reloads the consumer's position); 0 once the consumer closed.
    pub fn slots(&mut self) -> usize {
        let ring = &self.ring;
        match self.idx.free(ring.indices(), u64::MAX) {
            Some(Found::Closed) => 0,
            _ => self.idx.cached_free() as usize,
        }
    }

    /// Whether the consumer closed its end.
    pub fn is_closed(&self) -> bool {
        // Acquire: pairs with the Release store in `ConsumerIndex::close`.
        self.ring
            .indices()
            .head
            .0
            .load(crate::atomic::Ordering::Acquire)
            & super::index::CLOSED
            != 0
    }

    /// Elements pushed so far.
    pub fn pushed(&self) -> u64 {
        self.idx.tail()
    }

    /// Elements the queue holds at most.
    pub fn capacity(&self) -> usize {
        self.ring.cap()
    }
}

impl<T> Drop for Producer<T> {
    fn drop(&mut self) {
        self.idx.close(self.ring.indices());
    }
}

/// The consuming end of an [`Spsc`]. Dropping it closes the queue for the producer.
pub struct Consumer<T> {
    ring: Ring<T>,
    idx: ConsumerIndex,
    /// `head % capacity`.
    slot: usize,
    /// Boxed, as the producer's.
    patience: Box<Patience>,
}

impl<T> std::fmt::Debug for Consumer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Consumer")
            .field("queue", &self.ring.region.label)
            .field("popped", &self.idx.head())
            .finish()
    }
}

impl<T: bytemuck::Pod> Consumer<T> {
    /// Pops the next element, waiting with its [`Patience`].
    ///
    /// Errors: [`QueueError::Closed`] once the producer closed and everything it pushed was
    /// popped; `PeerGone` if its process died; `Timeout` when the patience's timeout passes.
    #[inline]
    pub fn pop(&mut self) -> Result<T, QueueError> {
        self.pop_until(Call::Patient)
    }

    /// [`pop`](Self::pop), waiting at most `timeout`.
    #[inline]
    pub fn pop_timeout(&mut self, timeout: Duration) -> Result<T, QueueError> {
        self.pop_until(move |p| Call::Timeout(p, timeout))
    }

    /// The next element if there is one now; [`QueueError::Timeout`] at once otherwise.
    ///
    /// rtrb's `pop`, all inline, as [`Producer::try_push`]: the cached copy of `tail`, then
    /// one reload of it.
    #[inline]
    pub fn try_pop(&mut self) -> Result<T, QueueError> {
        let ring = &self.ring;
        match self.idx.available(ring.indices(), 1) {
            Some(Found::Ready(_)) => Ok(self.read_one()),
            Some(Found::Closed) => Err(QueueError::Closed {
                by: Side::Producer,
                item: (),
            }),
            None => Err(QueueError::Timeout {
                what: "element",
                item: (),
            }),
        }
    }

    /// `call` makes the call from the end's patience, only if the ring looks empty.
    #[inline]
    fn pop_until(&mut self, call: impl FnOnce(Patience) -> Call) -> Result<T, QueueError> {
        match self.data(1, call) {
            Ok(Found::Ready(_)) => Ok(self.read_one()),
            r => failed(r.err(), Side::Producer, "element", ()),
        }
    }

    /// How the waiting calls wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        *self.patience
    }

    /// Sets how the waiting calls wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        *self.patience = patience;
    }

    #[inline]
    fn read_one(&mut self) -> T {
        // SAFETY: `wait` proved unit `head` committed (Acquire on `tail`, SYNC POINT A of
        // `index`); `slot` is `head % cap`, inside the data area; the producer does not
        // write it again before the release below.
        let v = unsafe { self.ring.data().add(self.slot).read() };
        self.slot = advance1(self.slot, self.idx.capacity() as usize);
        let ring = &self.ring;
        self.idx.release(ring.indices(), 1);
        v
    }

    /// Waits until at least `n` elements are committed (after a close: any left); returns
    /// how many are. `call` as in [`Producer::reserve`].
    #[inline]
    fn wait(&mut self, n: usize, call: impl FnOnce(Patience) -> Call) -> Result<usize, QueueError> {
        match self.data(n, call) {
            Ok(Found::Ready(have)) => Ok(have as usize),
            r => failed(r.err(), Side::Producer, "element", ()),
        }
    }

    /// The index's wait for `n` committed elements, as [`Producer::room`].
    #[inline]
    fn data(&mut self, n: usize, call: impl FnOnce(Patience) -> Call) -> Result<Found, WaitError> {
        let ring = &self.ring;
        let patience = &*self.patience;
        self.idx
            .wait_available_for(ring.indices(), n as u64, || call(*patience), &**ring.region)
    }

    /// Waits (with its [`Patience`]) for at least one element, then pops as many as are
    /// there, up to `out.len()`; returns how many (0 at once for an empty `out`).
    pub fn pop_into(&mut self, out: &mut [T]) -> Result<usize, QueueError> {
        self.pop_into_until(out, Call::Patient(*self.patience))
    }

    /// [`pop_into`](Self::pop_into), waiting at most `timeout`.
    pub fn pop_into_timeout(
        &mut self,
        out: &mut [T],
        timeout: Duration,
    ) -> Result<usize, QueueError> {
        self.pop_into_until(out, Call::Timeout(*self.patience, timeout))
    }

    /// [`pop_into`](Self::pop_into) without waiting: `Timeout` at once if the queue is
    /// empty.
    pub fn try_pop_into(&mut self, out: &mut [T]) -> Result<usize, QueueError> {
        self.pop_into_until(out, Call::Try)
    }

    fn pop_into_until(&mut self, out: &mut [T], call: Call) -> Result<usize, QueueError> {
        if out.is_empty() {
            return Ok(0);
        }
        let have = self.wait(1, |_| call)?;
        let n = have.min(out.len());
        let chunk = ReadChunk { consumer: self, n };
        let (a, b) = chunk.as_slices();
        out[..a.len()].copy_from_slice(a);
        out[a.len()..n].copy_from_slice(b);
        drop(chunk);
        Ok(n)
    }

    /// Waits (with its [`Patience`]) for at least one element and lends up to `max`
    /// committed elements for reading in place; dropping the chunk releases them (or
    /// [`release`](ReadChunk::release) a part).
    pub fn read_chunk(&mut self, max: usize) -> Result<ReadChunk<'_, T>, QueueError> {
        self.read_chunk_until(max, Call::Patient(*self.patience))
    }

    /// [`read_chunk`](Self::read_chunk), waiting at most `timeout`.
    pub fn read_chunk_timeout(
        &mut self,
        max: usize,
        timeout: Duration,
    ) -> Result<ReadChunk<'_, T>, QueueError> {
        self.read_chunk_until(max, Call::Timeout(*self.patience, timeout))
    }

    /// [`read_chunk`](Self::read_chunk) without waiting: `Timeout` at once if the queue is
    /// empty.
    pub fn try_read_chunk(&mut self, max: usize) -> Result<ReadChunk<'_, T>, QueueError> {
        self.read_chunk_until(max, Call::Try)
    }

    fn read_chunk_until(&mut self, max: usize, call: Call) -> Result<ReadChunk<'_, T>, QueueError> {
        let have = self.wait(1, |_| call)?;
        let n = have.min(max.max(1));
        Ok(ReadChunk { consumer: self, n })
    }

    /// Elements committed and not yet popped, now (reloads the producer's position).
    pub fn len(&mut self) -> usize {
        let ring = &self.ring;
        match self.idx.available(ring.indices(), u64::MAX) {
            Some(Found::Ready(n)) => n as usize,
            Some(Found::Closed) => 0,
            None => self.idx.cached_len() as usize,
        }
    }

    /// Whether nothing is committed now.
    pub fn is_empty(&mut self) -> bool {
        self.len() == 0
    }

    /// Elements popped so far.
    pub fn popped(&self) -> u64 {
        self.idx.head()
    }

    /// Elements the queue holds at most.
    pub fn capacity(&self) -> usize {
        self.ring.cap()
    }
}

impl<T> Drop for Consumer<T> {
    fn drop(&mut self) {
        self.idx.close(self.ring.indices());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::Wait;

    /// An end is its ring pointer, its index, its slot and one pointer to its patience: the
    /// patience's words held in the end stayed live across a caller's push/pop loop and
    /// pushed the positions out of registers (see `Producer::patience`).
    #[test]
    fn an_end_holds_its_patience_behind_one_pointer() {
        let word = std::mem::size_of::<usize>();
        let producer = std::mem::size_of::<Producer<u64>>();
        let consumer = std::mem::size_of::<Consumer<u64>>();
        let idx = std::mem::size_of::<ProducerIndex>();
        let cidx = std::mem::size_of::<ConsumerIndex>();
        assert_eq!(producer, idx + 3 * word, "Producer<u64>: {producer} bytes");
        assert_eq!(consumer, cidx + 3 * word, "Consumer<u64>: {consumer} bytes");
    }

    /// The inline `try_` paths answer as the waiting ones: `Timeout` on a full or empty
    /// ring, `Closed` once the other side left, a push's value handed back in both; the
    /// patience set on an end is the one it reports and waits with.
    #[test]
    fn try_calls_hand_back_the_value_and_see_a_close() {
        let (mut tx, mut rx) = Spsc::<u64>::new(1).unwrap();
        assert!(matches!(rx.try_pop(), Err(QueueError::Timeout { .. })));
        tx.try_push(1).unwrap();
        assert!(matches!(
            tx.try_push(2),
            Err(QueueError::Timeout { item: 2, .. })
        ));
        let p = Patience::new(Wait::Spin).with_timeout(Some(Duration::ZERO));
        tx.set_patience(p);
        assert_eq!(tx.patience(), p);
        assert!(matches!(
            tx.push(3),
            Err(QueueError::Timeout { item: 3, .. })
        ));
        assert_eq!(rx.try_pop().unwrap(), 1);
        drop(rx);
        assert!(matches!(
            tx.try_push(5),
            Err(QueueError::Closed {
                by: Side::Consumer,
                item: 5
            })
        ));

        let (mut tx, mut rx) = Spsc::<u64>::new(2).unwrap();
        tx.try_push(6).unwrap();
        drop(tx);
        assert_eq!(rx.try_pop().unwrap(), 6);
        assert!(matches!(
            rx.try_pop(),
            Err(QueueError::Closed {
                by: Side::Producer,
                ..
            })
        ));
        rx.set_patience(Patience::new(Wait::Block));
        assert!(matches!(rx.pop(), Err(QueueError::Closed { .. })));
    }
}
