//! [`ArrayMpsc`]: a shared bounded lock-free MPSC queue, Vyukov's sequence-per-slot design
//! (crossbeam-queue's `ArrayQueue`) with a single consumer, for comparison with
//! [`LaneMpsc`](super::LaneMpsc); see `stamp` for the protocol. (Not under `cfg(loom)`:
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

use super::error::{QueueError, Role};
use super::region::{round_up, too_big, Kind, Region, Shape, DATA_ALIGN};
use super::stamp::{self, ArrayCursor, ArrayWords, Pop, Push, Stamps};
use crate::atomic::AtomicU64;
use crate::sync::wait::Wait;
use crate::sys::Deadline;

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

/// A bounded MPSC queue of `T: Pod` in one array of `capacity` slots shared by every
/// producer (Vyukov), on the heap or in a named segment. Producers contend on one tail
/// counter; compare [`LaneMpsc`](super::LaneMpsc), where they never meet.
pub struct ArrayMpsc<T> {
    shared: Arc<Shared>,
    _t: PhantomData<fn() -> T>,
}

impl<T> Clone for ArrayMpsc<T> {
    fn clone(&self) -> Self {
        ArrayMpsc {
            shared: self.shared.clone(),
            _t: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for ArrayMpsc<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayMpsc")
            .field("shared", &self.shared)
            .finish()
    }
}

impl<T: bytemuck::Pod> ArrayMpsc<T> {
    /// Bytes a queue of `capacity` `T`s occupies.
    pub fn memory_size(capacity: usize) -> Result<usize, QueueError> {
        Ok(geo::<T>(capacity)?.0.len)
    }

    /// A queue on the heap (threads); clone the handle to hand out producers.
    pub fn on_heap(capacity: usize) -> Result<ArrayMpsc<T>, QueueError> {
        let (shape, geo) = geo::<T>(capacity)?;
        Ok(Self::from_region(Region::heap(shape)?, geo))
    }

    /// Creates a queue in the named segment `/handoff-<pid>-<name>`.
    pub fn create(name: &str, capacity: usize) -> Result<ArrayMpsc<T>, QueueError> {
        let (shape, geo) = geo::<T>(capacity)?;
        Ok(Self::from_region(Region::create(name, shape)?, geo))
    }

    /// Opens the queue `name` with the creator's `capacity`, waiting until `deadline`.
    pub fn open(
        name: &str,
        capacity: usize,
        deadline: Deadline,
    ) -> Result<ArrayMpsc<T>, QueueError> {
        let (shape, geo) = geo::<T>(capacity)?;
        Ok(Self::from_region(Region::open(name, shape, deadline)?, geo))
    }

    fn from_region(region: Region, geo: Geo) -> ArrayMpsc<T> {
        ArrayMpsc {
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

    /// Joins as a producer (any number may).
    ///
    /// Errors: [`QueueError::Closed`] once the consumer closed.
    pub fn producer(&self) -> Result<ArrayProducer<T>, QueueError> {
        let p = ArrayProducer {
            shared: self.shared.clone(),
            _t: PhantomData,
        };
        if !stamp::join(self.shared.words()) {
            return Err(QueueError::Closed { by: Role::Consumer }); // `p` leaves on drop
        }
        Ok(p)
    }

    /// Claims the consumer side (once per queue, across all processes).
    pub fn consumer(&self) -> Result<ArrayConsumer<T>, QueueError> {
        let sh = &self.shared;
        sh.region.header().claim(Role::Consumer, &sh.region.label)?;
        Ok(ArrayConsumer {
            cursor: ArrayCursor::new(sh.geo.cap as u64),
            shared: sh.clone(),
            _t: PhantomData,
        })
    }
}

/// A producer of an [`ArrayMpsc`]. Dropping it leaves.
pub struct ArrayProducer<T> {
    shared: Arc<Shared>,
    _t: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for ArrayProducer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayProducer").finish_non_exhaustive()
    }
}

impl<T: bytemuck::Pod> ArrayProducer<T> {
    /// Pushes `value`, waiting (with `how`, until `deadline`) for a free slot.
    ///
    /// Errors: [`QueueError::Closed`] once the consumer closed (noticed when the queue is
    /// full); `PeerGone`; `Timeout`.
    #[inline]
    pub fn push(
        &mut self,
        value: T,
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<(), QueueError> {
        let sh = &*self.shared;
        let r = match self.attempt(value) {
            Push::Full => sh
                .words()
                .space
                .wait_shared(
                    || match self.attempt(value) {
                        Push::Full => None,
                        r => Some(r),
                    },
                    how,
                    deadline,
                    &sh.region,
                )
                .map_err(|e| QueueError::from_wait(e, "free slot"))?,
            r => r,
        };
        match r {
            Push::Closed => Err(QueueError::Closed { by: Role::Consumer }),
            _ => Ok(()),
        }
    }

    /// Pushes `value` if a slot is free now: `Ok(false)` when full.
    #[inline]
    pub fn try_push(&mut self, value: T) -> Result<bool, QueueError> {
        match self.attempt(value) {
            Push::Done(_) => Ok(true),
            Push::Full => Ok(false),
            Push::Closed => Err(QueueError::Closed { by: Role::Consumer }),
        }
    }

    #[inline]
    fn attempt(&self, value: T) -> Push {
        let sh = &*self.shared;
        stamp::push(sh.words(), sh, sh.geo.cap as u64, |i| {
            // SAFETY: the CAS in `stamp::push` gave this producer slot `i` for this lap
            // (its stamp said free: the consumer's read of the old value happened before,
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

/// The consumer of an [`ArrayMpsc`]. Dropping it closes the queue for the producers.
pub struct ArrayConsumer<T> {
    shared: Arc<Shared>,
    cursor: ArrayCursor,
    _t: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for ArrayConsumer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayConsumer")
            .field("popped", &self.cursor.head())
            .finish()
    }
}

impl<T: bytemuck::Pod> ArrayConsumer<T> {
    /// Pops the next element, waiting (with `how`, until `deadline`).
    ///
    /// Errors: [`QueueError::Closed`] when nothing is queued and no producer is attached
    /// (after one had joined); `PeerGone` (also for a producer that died between claiming a
    /// slot and filling it); `Timeout`.
    #[inline]
    pub fn pop(&mut self, how: Wait, deadline: Option<Deadline>) -> Result<T, QueueError> {
        self.take(Some(how), deadline)
    }

    /// The next element if there is one now.
    #[inline]
    pub fn try_pop(&mut self) -> Result<Option<T>, QueueError> {
        match self.take(None, None) {
            Ok(v) => Ok(Some(v)),
            Err(QueueError::Timeout { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Waits for at least one element, then pops as many as are ready, up to `out.len()`.
    pub fn pop_into(
        &mut self,
        out: &mut [T],
        how: Wait,
        deadline: Option<Deadline>,
    ) -> Result<usize, QueueError> {
        let Some((first, rest)) = out.split_first_mut() else {
            return Ok(0);
        };
        *first = self.take(Some(how), deadline)?;
        let mut n = 1;
        for slot in rest {
            match self.take(None, None) {
                Ok(v) => *slot = v,
                Err(_) => break,
            }
            n += 1;
        }
        Ok(n)
    }

    #[inline]
    fn take(&mut self, how: Option<Wait>, deadline: Option<Deadline>) -> Result<T, QueueError> {
        let sh = &*self.shared;
        let w = sh.words();
        let read = |i: usize| {
            // SAFETY: the stamp said slot `i` holds this lap's value (Acquire, SYNC POINT
            // V1); no producer writes it before the consumer frees it.
            unsafe { sh.value_ptr::<T>(i).read_unaligned() }
        };
        let got = match self.cursor.pop(w, sh, read) {
            Some(g) => g,
            None => match how {
                None => return Err(QueueError::Timeout { what: "element" }),
                Some(how) => w
                    .data
                    .wait_eager(|| self.cursor.pop(w, sh, read), how, deadline, &sh.region)
                    .map_err(|e| QueueError::from_wait(e, "element"))?,
            },
        };
        match got {
            Pop::Got(v) => Ok(v),
            Pop::Closed => Err(QueueError::Closed { by: Role::Producer }),
        }
    }

    /// Elements popped so far.
    pub fn popped(&self) -> u64 {
        self.cursor.head()
    }
}

impl<T> Drop for ArrayConsumer<T> {
    fn drop(&mut self) {
        self.cursor.close(self.shared.words());
    }
}
