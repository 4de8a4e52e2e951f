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
use crate::sync::wait::Wait;
use crate::sys::Deadline;

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
                return Err(QueueError::Closed { by: Side::Consumer });
            }
        };
        Ok(LaneProducer {
            data: sh.lane_data::<T>(lane),
            shared: sh.clone(),
            lane,
            idx: ProducerIndex::new(sh.geo.cap as u64),
            slot: 0,
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
    /// Pushes `value` into this producer's lane, waiting (with `how`, until `deadline`)
    /// for room. Errors as [`Producer::push`](super::Producer::push).
    #[inline]
    pub fn push(
        &mut self,
        value: T,
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<(), QueueError> {
        self.reserve(1, Some(how), deadline)?;
        // SAFETY: slot `tail % cap` of this lane is free (Acquire on the lane's head) and
        // inside the lane's data.
        unsafe { self.data.add(self.slot).write(value) };
        self.commit(1);
        Ok(())
    }

    /// Pushes `value` if there is room now: `Ok(false)` when the lane is full.
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<bool, QueueError> {
        match self.reserve(1, None, None) {
            Ok(_) => {
                // SAFETY: as in `push`.
                unsafe { self.data.add(self.slot).write(value) };
                self.commit(1);
                Ok(true)
            }
            Err(QueueError::Timeout { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Pushes all of `items`, in chunks as room appears (one commit per chunk).
    pub fn push_slice(
        &mut self,
        items: &[T],
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<(), QueueError> {
        let cap = self.shared.geo.cap;
        let mut rest = items;
        while !rest.is_empty() {
            let free = self.reserve(1, Some(how), deadline)?;
            let n = free.min(rest.len());
            let first = n.min(cap - self.slot);
            // SAFETY: `n` slots from `slot` (wrapping) are free; the two runs lie in the
            // lane's data and do not overlap `rest`, which lives elsewhere.
            unsafe {
                std::ptr::copy_nonoverlapping(rest.as_ptr(), self.data.add(self.slot), first);
                std::ptr::copy_nonoverlapping(rest.as_ptr().add(first), self.data, n - first);
            }
            self.commit(n);
            rest = &rest[n..];
        }
        Ok(())
    }

    #[inline]
    fn reserve(
        &mut self,
        n: usize,
        how: Option<Wait>,
        deadline: Option<Deadline>,
    ) -> Result<usize, QueueError> {
        let sh = &*self.shared;
        let ix = &sh.lanes()[self.lane].ix;
        match self.idx.wait_free(ix, n as u64, how, deadline, &sh.region) {
            Ok(Found::Ready(free)) => Ok(free as usize),
            Ok(Found::Closed) => Err(QueueError::Closed { by: Side::Consumer }),
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
}

impl<T> std::fmt::Debug for LaneConsumer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LaneConsumer").finish_non_exhaustive()
    }
}

impl<T: bytemuck::Pod> LaneConsumer<T> {
    /// Pops the next element, taking lanes in turn, waiting (with `how`, until `deadline`)
    /// on the doorbell every producer rings.
    ///
    /// Errors: [`QueueError::Closed`] when nothing is queued and no producer is attached
    /// (after the expected producers joined: [`LaneMpsc::expect_producers`]; a later joiner
    /// makes pops succeed again); `PeerGone` if a
    /// process attached to the segment died; `Timeout`.
    #[inline]
    pub fn pop(&mut self, how: Wait, deadline: Option<Deadline>) -> Result<T, QueueError> {
        let mut v = [T::zeroed()];
        self.take(&mut v, Some(how), deadline)?;
        Ok(v[0])
    }

    /// The next element if any lane has one now.
    pub fn try_pop(&mut self) -> Result<Option<T>, QueueError> {
        let mut v = [T::zeroed()];
        match self.take(&mut v, None, None) {
            Ok(_) => Ok(Some(v[0])),
            Err(QueueError::Timeout { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Waits for at least one element, then pops up to `out.len()` from one lane (the next
    /// lane in turn that has any); returns how many.
    pub fn pop_into(
        &mut self,
        out: &mut [T],
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<usize, QueueError> {
        if out.is_empty() {
            return Ok(0);
        }
        self.take(out, Some(how), deadline)
    }

    fn take(
        &mut self,
        out: &mut [T],
        how: Option<Wait>,
        deadline: Option<Deadline>,
    ) -> Result<usize, QueueError> {
        let sh = &*self.shared;
        let (lanes, control) = (sh.lanes(), sh.control());
        let found = match self.cursor.poll(lanes, control) {
            Some(t) => t,
            None => match how {
                None => return Err(QueueError::Timeout { what: "element" }),
                Some(how) => sh
                    .bell()
                    .wait_eager(
                        || self.cursor.poll(lanes, control),
                        how,
                        deadline,
                        &sh.region,
                    )
                    .map_err(|e| QueueError::from_wait(e, "element"))?,
            },
        };
        let Take::Ready { lane, head, n } = found else {
            return Err(QueueError::Closed { by: Side::Producer });
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
