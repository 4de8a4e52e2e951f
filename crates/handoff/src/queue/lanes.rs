//! [`LaneMpsc`]: a multi-producer queue built as one SPSC lane per producer, drained
//! round-robin by the consumer — Charm++'s per-producer queues. Producers join (claim a free
//! lane) and leave (close it; the consumer drains and frees it) at any time; see `lane` for
//! the protocol. (Not under `cfg(loom)`: `lane` and `index` carry the models.)
//!
//! ```text
//! offset 0      QueueHeader
//! 128           the consumer's LazyBell (every producer rings it)
//! 256           Control: producers ever joined, consumer closed
//! 384           lanes × Lane (state + the lane's Indices), 640 bytes each
//! data_offset   lanes × capacity × T, each lane's slots 128-byte aligned
//! ```

use std::marker::PhantomData;
use std::sync::Arc;

use super::doorbell::LazyBell;
use super::error::{QueueError, Side};
use super::index::{Found, ProducerIndex};
use super::lane::{expect, join, Control, JoinError, Lane, LaneCursor, Take};
use super::region::{round_up, too_big, Kind, Region, Shape, DATA_ALIGN};
use crate::sync::wait::Call;
use crate::sync::{Patience, Until};
use crate::sys::Deadline;
use std::time::Duration;

const BELL: usize = 128;
const CONTROL: usize = 256;
const LANES: usize = 384;

/// Where things are in a lane queue.
#[derive(Debug, Clone, Copy)]
struct Geo {
    lanes: usize,
    cap: usize,
    data_offset: usize,
    stride: usize,
}

fn geo<T>(lanes: usize, capacity: usize) -> Result<(Shape, Geo), QueueError> {
    let size = std::mem::size_of::<T>();
    if lanes == 0 || capacity == 0 || size == 0 {
        return Err(QueueError::InvalidConfig(format!(
            "a lane queue needs at least 1 lane of at least 1 element of at least 1 byte \
             (asked for {lanes} lanes of {capacity} elements of {size} bytes)"
        )));
    }
    if std::mem::align_of::<T>() > DATA_ALIGN {
        return Err(QueueError::InvalidConfig(format!(
            "elements aligned to {} bytes are not supported (at most {DATA_ALIGN})",
            std::mem::align_of::<T>()
        )));
    }
    let big = || {
        too_big(format!(
            "{lanes} lanes of {capacity} elements of {size} bytes"
        ))
    };
    let data_offset = lanes
        .checked_mul(std::mem::size_of::<Lane>())
        .and_then(|t| t.checked_add(LANES))
        .and_then(|n| round_up(n, DATA_ALIGN))
        .ok_or_else(big)?;
    let stride = size
        .checked_mul(capacity)
        .and_then(|n| round_up(n, DATA_ALIGN))
        .ok_or_else(big)?;
    let len = stride
        .checked_mul(lanes)
        .and_then(|d| d.checked_add(data_offset))
        .filter(|&n| n <= isize::MAX as usize / 2)
        .ok_or_else(big)?;
    let shape = Shape {
        kind: Kind::Lanes,
        unit: size as u64,
        capacity: capacity as u64,
        lanes: lanes as u64,
        len,
    };
    Ok((
        shape,
        Geo {
            lanes,
            cap: capacity,
            data_offset,
            stride,
        },
    ))
}

/// What every handle of one process shares.
#[derive(Debug)]
struct Shared {
    region: Region,
    geo: Geo,
}

impl Shared {
    #[inline]
    fn bell(&self) -> &LazyBell {
        self.region.at(BELL)
    }
    #[inline]
    fn control(&self) -> &Control {
        self.region.at(CONTROL)
    }
    #[inline]
    fn lanes(&self) -> &[Lane] {
        self.region.slice_at(LANES, self.geo.lanes)
    }
    /// Address of slot 0 of lane `lane`.
    #[inline]
    fn lane_data<T>(&self, lane: usize) -> *mut T {
        self.region
            .base()
            .wrapping_add(self.geo.data_offset + lane * self.geo.stride)
            .cast::<T>()
    }
}

/// A bounded multi-producer single-consumer queue of `T: Pod` made of `lanes` SPSC lanes
/// of `capacity` elements each, on the heap or in a named segment. Each producer owns a
/// lane, so producers never contend with each other; the consumer takes lanes in turn
/// (round-robin: one element, or one batch of [`LaneConsumer::pop_into`], per lane per
/// turn), so no producer starves another.
///
/// Clone the handle (or open the segment) to hand out more producers.
///
/// # Closing
///
/// The consumer sees [`QueueError::Closed`] once nothing is queued, no producer is
/// attached, and at least [`expect_producers`](Self::expect_producers) producers (1 by
/// default) have joined in all. With the default, the first producer to leave before any
/// other joined closes the queue (a later joiner opens it again, but the consumer may have
/// stopped): if producers join one after another, call `expect_producers(n)` before handing
/// out the first. Producers see `Closed` once the consumer left.
pub struct LaneMpsc<T> {
    shared: Arc<Shared>,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for LaneMpsc<T> {
    fn clone(&self) -> Self {
        LaneMpsc {
            shared: self.shared.clone(),
            _t: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for LaneMpsc<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LaneMpsc")
            .field("shared", &self.shared)
            .finish()
    }
}

impl<T: bytemuck::Pod> LaneMpsc<T> {
    /// Bytes a queue of `lanes` lanes of `capacity` `T`s occupies.
    pub fn memory_size(lanes: usize, capacity: usize) -> Result<usize, QueueError> {
        Ok(geo::<T>(lanes, capacity)?.0.len)
    }

    /// A queue on the heap (threads); clone the handle to hand out producers.
    ///
    /// Errors: [`QueueError::InvalidConfig`] for 0 lanes, a capacity of 0 or a zero-sized `T`.
    pub fn on_heap(lanes: usize, capacity: usize) -> Result<LaneMpsc<T>, QueueError> {
        let (shape, geo) = geo::<T>(lanes, capacity)?;
        Ok(Self::from_region(Region::heap(shape)?, geo))
    }

    /// Creates a queue in the named segment `/handoff-<pid>-<name>`.
    pub fn create(name: &str, lanes: usize, capacity: usize) -> Result<LaneMpsc<T>, QueueError> {
        let (shape, geo) = geo::<T>(lanes, capacity)?;
        Ok(Self::from_region(Region::create(name, shape)?, geo))
    }

    /// Opens the queue `name` (the creator's [`name`](Self::name)) with the creator's
    /// `lanes` and `capacity`, waiting until `deadline` for its creator.
    pub fn open(
        name: &str,
        lanes: usize,
        capacity: usize,
        deadline: Deadline,
    ) -> Result<LaneMpsc<T>, QueueError> {
        let (shape, geo) = geo::<T>(lanes, capacity)?;
        Ok(Self::from_region(Region::open(name, shape, deadline)?, geo))
    }

    fn from_region(region: Region, geo: Geo) -> LaneMpsc<T> {
        LaneMpsc {
            shared: Arc::new(Shared { region, geo }),
            _t: PhantomData,
        }
    }

    /// The full segment name; `None` on the heap.
    pub fn name(&self) -> Option<&str> {
        self.shared.region.name()
    }

    /// Producer lanes.
    pub fn lanes(&self) -> usize {
        self.shared.geo.lanes
    }

    /// Elements each lane holds at most.
    pub fn capacity(&self) -> usize {
        self.shared.geo.cap
    }

    /// Makes the consumer wait for `n` producer joins in all (counting every join, in any
    /// process) before the queue can read as closed; never lowers an earlier setting. Call
    /// it before handing out the first producer (type docs, "Closing").
    pub fn expect_producers(&self, n: u64) {
        expect(self.shared.control(), n);
    }

    /// Joins as a producer: claims a free lane (one the consumer freed after its last
    /// producer left, or never used).
    ///
    /// Errors: [`QueueError::NoFreeLane`] when every lane is owned (or still being drained
    /// after its producer left); [`QueueError::Closed`] once the consumer closed.
    pub fn producer(&self) -> Result<LaneProducer<T>, QueueError> {
        let sh = &self.shared;
        let lane = match join(sh.lanes(), sh.control()) {
            Ok(l) => l,
            Err(JoinError::NoFreeLane) => {
                return Err(QueueError::NoFreeLane {
                    name: sh.region.label.clone(),
                    max: sh.geo.lanes,
                })
            }
            Err(JoinError::Closed) => {
                // The lane was claimed: leave it closed (the consumer is gone anyway).
                return Err(QueueError::Closed {
                    by: Side::Consumer,
                    item: (),
                });
            }
        };
        Ok(LaneProducer {
            data: sh.lane_data::<T>(lane),
            shared: sh.clone(),
            lane,
            idx: ProducerIndex::new(sh.geo.cap as u64),
            slot: 0,
            patience: Patience::default(),
        })
    }

    /// Claims the consumer side (once per queue, across all processes).
    pub fn consumer(&self) -> Result<LaneConsumer<T>, QueueError> {
        let sh = &self.shared;
        sh.region.header().claim(Side::Consumer, &sh.region.label)?;
        Ok(LaneConsumer {
            shared: sh.clone(),
            cursor: LaneCursor::new(sh.geo.lanes, sh.geo.cap as u64),
            _t: PhantomData,
            patience: Patience::default(),
        })
    }
}

/// A producer of a [`LaneMpsc`], owning one lane. Dropping it leaves: the consumer drains
/// the lane, then frees it for the next joiner.
pub struct LaneProducer<T> {
    shared: Arc<Shared>,
    data: *mut T,
    lane: usize,
    idx: ProducerIndex,
    /// `tail % capacity`.
    slot: usize,
    patience: Patience,
}

// SAFETY: `data` points into the shared region (kept alive by the Arc) at this producer's
// lane, whose free slots only this producer writes.
unsafe impl<T: Send> Send for LaneProducer<T> {}

impl<T> std::fmt::Debug for LaneProducer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LaneProducer")
            .field("lane", &self.lane)
            .field("pushed", &self.idx.tail())
            .finish()
    }
}

impl<T: bytemuck::Pod> LaneProducer<T> {
    /// Pushes `value` into this producer's lane, waiting (with its [`Patience`]) for room.
    /// Errors as [`Producer::push`](super::Producer::push) (`Timeout` and `Closed` hand
    /// `value` back).
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), QueueError<T>> {
        self.push_until(value, Call::Patient(self.patience))
    }

    /// [`push`](Self::push), waiting at most `timeout`.
    #[inline]
    pub fn push_timeout(&mut self, value: T, timeout: Duration) -> Result<(), QueueError<T>> {
        self.push_until(value, Call::Timeout(self.patience, timeout))
    }

    /// Pushes `value` if there is room now; a full lane returns it at once in
    /// [`QueueError::Timeout`].
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<(), QueueError<T>> {
        self.push_until(value, Call::Try)
    }

    #[inline]
    fn push_until(&mut self, value: T, call: Call) -> Result<(), QueueError<T>> {
        if let Err(e) = self.reserve(1, call) {
            return Err(e.with_item(value));
        }
        // SAFETY: slot `tail % cap` of this lane is free (Acquire on the lane's head) and
        // inside the lane's data.
        unsafe { self.data.add(self.slot).write(value) };
        self.commit(1);
        Ok(())
    }

    /// Pushes all of `items`, in chunks as room appears (one commit per chunk), waiting
    /// with its [`Patience`] (one timeout for the whole slice). On an error, the elements
    /// before the first not pushed are in the queue.
    pub fn push_slice(&mut self, items: &[T]) -> Result<(), QueueError> {
        let until = self.patience.start();
        self.push_slice_until(items, until)
    }

    /// [`push_slice`](Self::push_slice), waiting at most `timeout` in all.
    pub fn push_slice_timeout(&mut self, items: &[T], timeout: Duration) -> Result<(), QueueError> {
        let until = self.patience.start_with(timeout);
        self.push_slice_until(items, until)
    }

    /// Pushes as many leading elements of `items` as fit now (at least one); returns how
    /// many. [`QueueError::Timeout`] at once if none fits (an empty `items` pushes 0).
    pub fn try_push_slice(&mut self, items: &[T]) -> Result<usize, QueueError> {
        if items.is_empty() {
            return Ok(0);
        }
        let free = self.reserve(1, Call::Try)?;
        let n = free.min(items.len());
        self.copy_in(&items[..n]);
        Ok(n)
    }

    fn push_slice_until(&mut self, items: &[T], until: Until) -> Result<(), QueueError> {
        let mut rest = items;
        while !rest.is_empty() {
            let free = self.reserve(1, Call::Fixed(until))?;
            let n = free.min(rest.len());
            self.copy_in(&rest[..n]);
            rest = &rest[n..];
        }
        Ok(())
    }

    /// Copies `src` (which fits in the free slots) in and commits it.
    fn copy_in(&mut self, src: &[T]) {
        let cap = self.shared.geo.cap;
        let n = src.len();
        let first = n.min(cap - self.slot);
        // SAFETY: `n` slots from `slot` (wrapping) are free; the two runs lie in the
        // lane's data and do not overlap `src`, which lives elsewhere.
        unsafe {
            std::ptr::copy_nonoverlapping(src.as_ptr(), self.data.add(self.slot), first);
            std::ptr::copy_nonoverlapping(src.as_ptr().add(first), self.data, n - first);
        }
        self.commit(n);
    }

    /// How the waiting calls wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how the waiting calls wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    /// Waits as `call` says until `n` slots of the lane are free; returns how many are. As
    /// `Spsc`'s producer: the index checks its cached copy, reloads once, and only then
    /// fixes the call's wait (one out-of-line call per full lane; through `Call::attempt`,
    /// a full lane cost two, and an error made and dropped between them).
    #[inline]
    fn reserve(&mut self, n: usize, call: Call) -> Result<usize, QueueError> {
        let sh = &*self.shared;
        let ix = &sh.lanes()[self.lane].ix;
        match self.idx.wait_free_for(ix, n as u64, || call, &sh.region) {
            Ok(Found::Ready(free)) => Ok(free as usize),
            Ok(Found::Closed) => Err(QueueError::Closed {
                by: Side::Consumer,
                item: (),
            }),
            Err(e) => Err(QueueError::from_wait(e, "free slot")),
        }
    }

    #[inline]
    fn commit(&mut self, n: usize) {
        let sh = &*self.shared;
        self.slot += n;
        if self.slot >= sh.geo.cap {
            self.slot -= sh.geo.cap;
        }
        self.idx
            .commit_ringing(&sh.lanes()[self.lane].ix, n as u64, sh.bell());
    }

    /// This producer's lane number.
    pub fn lane(&self) -> usize {
        self.lane
    }

    /// Elements pushed so far.
    pub fn pushed(&self) -> u64 {
        self.idx.tail()
    }
}

impl<T> Drop for LaneProducer<T> {
    fn drop(&mut self) {
        let sh = &*self.shared;
        self.idx.close_ringing(&sh.lanes()[self.lane].ix, sh.bell());
    }
}

/// The consumer of a [`LaneMpsc`]. Dropping it closes the queue for every producer.
pub struct LaneConsumer<T> {
    shared: Arc<Shared>,
    cursor: LaneCursor,
    _t: PhantomData<fn() -> T>,
    patience: Patience,
}

impl<T> std::fmt::Debug for LaneConsumer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LaneConsumer").finish_non_exhaustive()
    }
}

impl<T: bytemuck::Pod> LaneConsumer<T> {
    /// Pops the next element, taking lanes in turn, waiting (with its [`Patience`]) on the
    /// doorbell every producer rings.
    ///
    /// Errors: [`QueueError::Closed`] when nothing is queued and no producer is attached
    /// (after the expected producers joined: [`LaneMpsc::expect_producers`]; a later joiner
    /// makes pops succeed again); `PeerGone` if a process attached to the segment died or
    /// panicked (one that left cleanly ends no wait); `Timeout` when the patience's timeout
    /// passes.
    #[inline]
    pub fn pop(&mut self) -> Result<T, QueueError> {
        self.pop_until(Call::Patient(self.patience))
    }

    /// [`pop`](Self::pop), waiting at most `timeout`.
    #[inline]
    pub fn pop_timeout(&mut self, timeout: Duration) -> Result<T, QueueError> {
        self.pop_until(Call::Timeout(self.patience, timeout))
    }

    /// The next element if any lane has one now; [`QueueError::Timeout`] at once otherwise.
    #[inline]
    pub fn try_pop(&mut self) -> Result<T, QueueError> {
        self.pop_until(Call::Try)
    }

    #[inline]
    fn pop_until(&mut self, call: Call) -> Result<T, QueueError> {
        let mut v = [T::zeroed()];
        self.take(&mut v, call)?;
        Ok(v[0])
    }

    /// Waits (with its [`Patience`]) for at least one element, then pops up to `out.len()`
    /// from one lane (the next lane in turn that has any); returns how many (0 at once for
    /// an empty `out`).
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

    /// [`pop_into`](Self::pop_into) without waiting: `Timeout` at once if no lane has any.
    pub fn try_pop_into(&mut self, out: &mut [T]) -> Result<usize, QueueError> {
        self.pop_into_until(out, Call::Try)
    }

    fn pop_into_until(&mut self, out: &mut [T], call: Call) -> Result<usize, QueueError> {
        if out.is_empty() {
            return Ok(0);
        }
        self.take(out, call)
    }

    /// How the waiting calls wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how the waiting calls wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    fn take(&mut self, out: &mut [T], call: Call) -> Result<usize, QueueError> {
        call.attempt(|until| self.take_now(out, until), QueueError::would_block)
    }

    fn take_now(&mut self, out: &mut [T], until: Option<Until>) -> Result<usize, QueueError> {
        let sh = &*self.shared;
        let (lanes, control) = (sh.lanes(), sh.control());
        let found = match self.cursor.poll(lanes, control) {
            Some(t) => t,
            None => match until {
                None => {
                    return Err(QueueError::Timeout {
                        what: "element",
                        item: (),
                    })
                }
                Some(until) => sh
                    .bell()
                    .wait_eager(
                        || self.cursor.poll(lanes, control),
                        until.wait,
                        until.deadline,
                        &sh.region,
                    )
                    .map_err(|e| QueueError::from_wait(e, "element"))?,
            },
        };
        let Take::Ready { lane, head, n } = found else {
            return Err(QueueError::Closed {
                by: Side::Producer,
                item: (),
            });
        };
        let cap = sh.geo.cap;
        let k = (n as usize).min(out.len());
        let slot = (head % cap as u64) as usize;
        let first = k.min(cap - slot);
        let data = sh.lane_data::<T>(lane);
        // SAFETY: `k` units from `head` of this lane are committed (Acquire on its tail)
        // and not released; the runs lie in the lane's data; `out` is a distinct buffer.
        unsafe {
            std::ptr::copy_nonoverlapping(data.add(slot), out.as_mut_ptr(), first);
            std::ptr::copy_nonoverlapping(data, out.as_mut_ptr().add(first), k - first);
        }
        self.cursor.release(lanes, lane, k as u64);
        Ok(k)
    }

    /// Lanes owned by a producer now (joined, or left and not yet drained).
    pub fn producers(&self) -> usize {
        self.shared
            .lanes()
            .iter()
            // Relaxed: a snapshot count.
            .filter(|l| l.state.0.load(crate::atomic::Ordering::Relaxed) != 0)
            .count()
    }
}

impl<T> Drop for LaneConsumer<T> {
    fn drop(&mut self) {
        let sh = &*self.shared;
        self.cursor.close(sh.lanes(), sh.control());
    }
}
