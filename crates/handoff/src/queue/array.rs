//! [`ArrayMpsc`]: a shared bounded lock-free MPSC queue, Vyukov's sequence-per-slot design
//! (crossbeam-queue's `ArrayQueue`) with a single consumer, for comparison with
//! [`LaneMpsc`](super::LaneMpsc).
//!
//! (signatures first; bodies follow)

use std::marker::PhantomData;

use super::error::QueueError;
use crate::sync::wait::Wait;
use crate::sys::Deadline;

/// A bounded MPSC queue of `T`s in one shared array of `capacity` slots.
pub struct ArrayMpsc<T> {
    _t: PhantomData<fn() -> T>,
}

impl<T: bytemuck::Pod> ArrayMpsc<T> {
    /// Bytes a queue of `capacity` `T`s occupies.
    pub fn memory_size(capacity: usize) -> Result<usize, QueueError> {
        todo!("{capacity}")
    }
    /// A queue on the heap (threads).
    pub fn on_heap(capacity: usize) -> Result<ArrayMpsc<T>, QueueError> {
        todo!("{capacity}")
    }
    /// Creates a queue in the named segment `/handoff-<pid>-<name>`.
    pub fn create(name: &str, capacity: usize) -> Result<ArrayMpsc<T>, QueueError> {
        todo!("{name} {capacity}")
    }
    /// Opens the queue `name` with the creator's `capacity`.
    pub fn open(
        name: &str,
        capacity: usize,
        deadline: Deadline,
    ) -> Result<ArrayMpsc<T>, QueueError> {
        todo!("{name} {capacity} {deadline:?}")
    }
    /// The full segment name; `None` on the heap.
    pub fn name(&self) -> Option<&str> {
        todo!()
    }
    /// Joins as a producer.
    pub fn producer(&self) -> Result<ArrayProducer<T>, QueueError> {
        todo!()
    }
    /// Claims the consumer side (once per queue).
    pub fn consumer(&self) -> Result<ArrayConsumer<T>, QueueError> {
        todo!()
    }
}

/// A producer of an [`ArrayMpsc`]. Dropping it leaves.
pub struct ArrayProducer<T> {
    _t: PhantomData<fn() -> T>,
}

impl<T: bytemuck::Pod> ArrayProducer<T> {
    /// Pushes `value`, waiting for a free slot.
    pub fn push(
        &mut self,
        value: T,
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<(), QueueError> {
        todo!("{how} {deadline:?} {}", std::mem::size_of_val(&value))
    }
    /// Pushes `value` if a slot is free now: `Ok(false)` when full.
    pub fn try_push(&mut self, value: T) -> Result<bool, QueueError> {
        todo!("{}", std::mem::size_of_val(&value))
    }
}

/// The consumer of an [`ArrayMpsc`].
pub struct ArrayConsumer<T> {
    _t: PhantomData<fn() -> T>,
}

impl<T: bytemuck::Pod> ArrayConsumer<T> {
    /// Pops the next element.
    pub fn pop(&mut self, how: Wait, deadline: Option<Deadline>) -> Result<T, QueueError> {
        todo!("{how} {deadline:?}")
    }
    /// The next element if there is one now.
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
}
