//! [`LaneMpsc`]: a multi-producer queue built as one SPSC lane per producer, drained
//! round-robin by the consumer — Charm++'s per-producer queues. Producers join (claim a free
//! lane) and leave (close it; the consumer drains and frees it) at any time.
//!
//! (signatures first; bodies follow)

use std::marker::PhantomData;

use super::error::QueueError;
use crate::sync::wait::Wait;
use crate::sys::Deadline;

/// A bounded multi-producer single-consumer queue of `T`s made of `lanes` SPSC lanes of
/// `capacity` elements each, on the heap or in a named segment.
pub struct LaneMpsc<T> {
    _t: PhantomData<fn() -> T>,
}

impl<T: bytemuck::Pod> LaneMpsc<T> {
    /// Bytes a queue of `lanes` lanes of `capacity` `T`s occupies.
    pub fn memory_size(lanes: usize, capacity: usize) -> Result<usize, QueueError> {
        todo!("{lanes} {capacity}")
    }
    /// A queue on the heap (threads); clone the handle or share it by reference.
    pub fn on_heap(lanes: usize, capacity: usize) -> Result<LaneMpsc<T>, QueueError> {
        todo!("{lanes} {capacity}")
    }
    /// Creates a queue in the named segment `/handoff-<pid>-<name>`.
    pub fn create(name: &str, lanes: usize, capacity: usize) -> Result<LaneMpsc<T>, QueueError> {
        todo!("{name} {lanes} {capacity}")
    }
    /// Opens the queue `name` with the creator's `lanes` and `capacity`.
    pub fn open(
        name: &str,
        lanes: usize,
        capacity: usize,
        deadline: Deadline,
    ) -> Result<LaneMpsc<T>, QueueError> {
        todo!("{name} {lanes} {capacity} {deadline:?}")
    }
    /// The full segment name; `None` on the heap.
    pub fn name(&self) -> Option<&str> {
        todo!()
    }
    /// Joins as a producer: claims a free lane.
    pub fn producer(&self) -> Result<LaneProducer<T>, QueueError> {
        todo!()
    }
    /// Claims the consumer side (once per queue).
    pub fn consumer(&self) -> Result<LaneConsumer<T>, QueueError> {
        todo!()
    }
}

/// A producer of a [`LaneMpsc`], owning one lane. Dropping it leaves.
pub struct LaneProducer<T> {
    _t: PhantomData<fn() -> T>,
}

impl<T: bytemuck::Pod> LaneProducer<T> {
    /// Pushes `value` into this producer's lane, waiting for room.
    pub fn push(
        &mut self,
        value: T,
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<(), QueueError> {
        todo!("{how} {deadline:?} {}", std::mem::size_of_val(&value))
    }
    /// Pushes `value` if there is room now: `Ok(false)` when the lane is full.
    pub fn try_push(&mut self, value: T) -> Result<bool, QueueError> {
        todo!("{}", std::mem::size_of_val(&value))
    }
    /// Pushes all of `items`, in chunks.
    pub fn push_slice(
        &mut self,
        items: &[T],
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<(), QueueError> {
        todo!("{} {how} {deadline:?}", items.len())
    }
    /// This producer's lane number.
    pub fn lane(&self) -> usize {
        todo!()
    }
}

/// The consumer of a [`LaneMpsc`].
pub struct LaneConsumer<T> {
    _t: PhantomData<fn() -> T>,
}

impl<T: bytemuck::Pod> LaneConsumer<T> {
    /// Pops the next element, taking lanes in turn.
    pub fn pop(&mut self, how: Wait, deadline: Option<Deadline>) -> Result<T, QueueError> {
        todo!("{how} {deadline:?}")
    }
    /// The next element if any lane has one now.
    pub fn try_pop(&mut self) -> Result<Option<T>, QueueError> {
        todo!()
    }
    /// Waits for at least one element, then pops up to `out.len()`.
    pub fn pop_into(
        &mut self,
        out: &mut [T],
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<usize, QueueError> {
        todo!("{} {how} {deadline:?}", out.len())
    }
    /// Producers joined now.
    pub fn producers(&self) -> usize {
        todo!()
    }
}
