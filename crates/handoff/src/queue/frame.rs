//! The byte-frame SPSC ring: [`FrameQueue`], its [`FrameProducer`] / [`FrameLoan`] and
//! [`FrameConsumer`] / [`Frame`]. Variable-size frames, written and read in place.
//!
//! # Layout of the ring
//!
//! The data area is `capacity` bytes (a multiple of 8) run by the SPSC index protocol in
//! units of 8 bytes. A frame is a header word followed by its bytes, padded to 8:
//!
//! ```text
//! [ header: len (bits 0..32) | tag (bits 32..40) ][ len bytes ][ pad to 8 ]
//! ```
//!
//! A frame never wraps: when it does not fit between the producer's position and the end of
//! the area, the producer first commits a PAD record covering the rest of the area (the
//! consumer skips it), then writes the frame at offset 0. That protocol (placement, PAD,
//! header) is `record`'s, model-checked there under loom; this file runs it on the data
//! area. A frame its producer did not commit (it died mid-frame) is never seen: the
//! consumer's wait ends with [`QueueError::PeerGone`] instead.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use super::error::{QueueError, Side};
use super::index::{ConsumerIndex, Indices, ProducerIndex};
use super::record::{self, RecordError, Waiting, Words, UNIT};
use super::region::{round_up, too_big, Kind, Region, Shape, DATA_ALIGN};
use crate::sync::wait::{parts, Call};
use crate::sync::{Patience, Until};
use crate::sys::Deadline;
use std::time::Duration;

const INDICES: usize = 128;

fn data_offset() -> usize {
    INDICES + std::mem::size_of::<Indices>()
}

fn shape(capacity: usize) -> Result<Shape, QueueError> {
    if capacity < 2 * UNIT {
        return Err(QueueError::InvalidConfig(format!(
            "a frame queue needs at least {} bytes (a header and 8 bytes of data); asked for \
             {capacity}",
            2 * UNIT
        )));
    }
    let cap = round_up(capacity, UNIT)
        .filter(|&c| c / UNIT <= u32::MAX as usize)
        .ok_or_else(|| too_big(format!("a frame queue of {capacity} bytes")))?;
    let len = cap
        .checked_add(data_offset())
        .and_then(|n| round_up(n, DATA_ALIGN))
        .filter(|&n| n <= isize::MAX as usize / 2)
        .ok_or_else(|| too_big(format!("a frame queue of {capacity} bytes")))?;
    Ok(Shape {
        kind: Kind::Frames,
        unit: UNIT as u64,
        capacity: (cap / UNIT) as u64,
        lanes: 1,
        len,
    })
}

/// A bounded SPSC queue of variable-size byte frames, on the heap or in a named segment.
///
/// `capacity` is in bytes (rounded up to 8); each frame takes 8 header bytes plus its
/// length rounded up to 8, and the largest frame is `capacity - 8` bytes
/// ([`max_frame`](Self::max_frame)): a larger one is refused with [`QueueError::TooBig`].
#[derive(Debug)]
pub struct FrameQueue {
    region: Arc<Region>,
}

impl FrameQueue {
    /// Bytes a frame queue of `capacity` data bytes occupies.
    pub fn memory_size(capacity: usize) -> Result<usize, QueueError> {
        Ok(shape(capacity)?.len)
    }

    /// A frame queue on the heap, split into its two ends (threads).
    #[allow(clippy::new_ret_no_self)] // rtrb's `RingBuffer::new(n).split()` in one call
    pub fn new(capacity: usize) -> Result<(FrameProducer, FrameConsumer), QueueError> {
        Self::on_heap(capacity)?.split()
    }

    /// A frame queue on the heap, as a handle.
    pub fn on_heap(capacity: usize) -> Result<FrameQueue, QueueError> {
        Ok(Self::from_region(Region::heap(shape(capacity)?)?))
    }

    /// Creates a frame queue in the named segment `/handoff-<pid>-<name>`.
    pub fn create(name: &str, capacity: usize) -> Result<FrameQueue, QueueError> {
        Ok(Self::from_region(Region::create(name, shape(capacity)?)?))
    }

    /// Opens the frame queue `name` with the creator's `capacity`, waiting until
    /// `deadline` for its creator.
    pub fn open(name: &str, capacity: usize, deadline: Deadline) -> Result<FrameQueue, QueueError> {
        Ok(Self::from_region(Region::open(
            name,
            shape(capacity)?,
            deadline,
        )?))
    }

    fn from_region(region: Region) -> FrameQueue {
        FrameQueue {
            region: Arc::new(region),
        }
    }

    /// The full segment name to open it by; `None` on the heap.
    pub fn name(&self) -> Option<&str> {
        self.region.name()
    }

    /// Data bytes of the ring.
    pub fn capacity(&self) -> usize {
        self.region.shape.capacity as usize * UNIT
    }

    /// The largest frame, in bytes.
    pub fn max_frame(&self) -> usize {
        self.capacity() - UNIT
    }

    /// Claims the producer side (once per queue).
    pub fn producer(&self) -> Result<FrameProducer, QueueError> {
        self.region
            .header()
            .claim(Side::Producer, &self.region.label)?;
        Ok(FrameProducer {
            ring: Bytes::new(self.region.clone()),
            idx: ProducerIndex::new(self.region.shape.capacity),
            frames: 0,
            patience: Patience::default(),
        })
    }

    /// Claims the consumer side (once per queue).
    pub fn consumer(&self) -> Result<FrameConsumer, QueueError> {
        self.region
            .header()
            .claim(Side::Consumer, &self.region.label)?;
        Ok(FrameConsumer {
            ring: Bytes::new(self.region.clone()),
            idx: ConsumerIndex::new(self.region.shape.capacity),
            frames: 0,
            patience: Patience::default(),
        })
    }

    /// Both ends, for two threads.
    pub fn split(self) -> Result<(FrameProducer, FrameConsumer), QueueError> {
        Ok((self.producer()?, self.consumer()?))
    }
}

/// The data area of one frame ring.
#[derive(Debug)]
struct Bytes {
    region: Arc<Region>,
    /// The ring's indices in `region` (cached).
    ix: *const Indices,
    data: *mut u8,
    /// Units (8-byte words) in the area.
    units: u64,
}

// SAFETY: `data` points into `region`, kept alive by the Arc; each end touches only the
// units the index protocol gives it.
unsafe impl Send for Bytes {}

impl Bytes {
    fn new(region: Arc<Region>) -> Bytes {
        let data = region.base().wrapping_add(data_offset());
        let units = region.shape.capacity;
        let ix: *const Indices = region.at::<Indices>(INDICES);
        Bytes {
            region,
            ix,
            data,
            units,
        }
    }

    #[inline]
    fn indices(&self) -> &Indices {
        // SAFETY: `ix` points into `region` (checked by `Region::at`), kept mapped by the Arc.
        unsafe { &*self.ix }
    }

    /// Address of unit `u` (any position; wraps).
    #[inline]
    fn unit_ptr(&self, u: u64) -> *mut u8 {
        self.data.wrapping_add(((u % self.units) as usize) * UNIT)
    }
}

impl Bytes {
    /// The queue error for a record error of a side waiting for `what`; `other` is the
    /// other side (the one that closes).
    fn error(&self, e: RecordError, other: Side, what: &'static str) -> QueueError {
        match e {
            RecordError::Closed => QueueError::Closed {
                by: other,
                item: (),
            },
            RecordError::Wait(e) => QueueError::from_wait(e, what),
            RecordError::Corrupt(why) => QueueError::Corrupt {
                name: self.region.label.clone(),
                why,
            },
        }
    }
}

impl Words for Bytes {
    #[inline]
    fn units(&self) -> u64 {
        self.units
    }

    #[inline]
    unsafe fn write_word(&self, u: u64, word: u64) {
        // SAFETY: the caller's contract (the unit is the producer's); the unit is 8-byte
        // aligned (data is 128-aligned) and inside the area (`unit_ptr` wraps).
        unsafe { self.unit_ptr(u).cast::<u64>().write(word) };
    }

    #[inline]
    unsafe fn read_word(&self, u: u64) -> u64 {
        // SAFETY: the caller's contract (the unit is the consumer's); aligned as above.
        unsafe { self.unit_ptr(u).cast::<u64>().read() }
    }
}

/// The producing end of a [`FrameQueue`]. Dropping it closes the queue.
#[derive(Debug)]
pub struct FrameProducer {
    ring: Bytes,
    idx: ProducerIndex,
    frames: u64,
    patience: Patience,
}

impl FrameProducer {
    /// The largest frame, in bytes.
    pub fn max_frame(&self) -> usize {
        (self.ring.units as usize - 1) * UNIT
    }

    /// Frames sent so far.
    pub fn sent(&self) -> u64 {
        self.frames
    }

    /// Waits (with its [`Patience`]) until a frame of `len` bytes fits and lends it for
    /// writing in place; [`FrameLoan::commit`] sends it.
    ///
    /// Errors: [`QueueError::TooBig`] for a frame over [`max_frame`](Self::max_frame);
    /// `Closed` once the consumer closed; `PeerGone`; `Timeout` when the patience's timeout
    /// passes.
    pub fn loan(&mut self, len: usize) -> Result<FrameLoan<'_>, QueueError> {
        self.loan_until(len, Call::Patient(self.patience))
    }

    /// [`loan`](Self::loan), waiting at most `timeout`.
    pub fn loan_timeout(
        &mut self,
        len: usize,
        timeout: Duration,
    ) -> Result<FrameLoan<'_>, QueueError> {
        self.loan_until(len, Call::Timeout(self.patience, timeout))
    }

    /// Lends a frame of `len` bytes if it fits now; [`QueueError::Timeout`] at once if
    /// there is no room.
    pub fn try_loan(&mut self, len: usize) -> Result<FrameLoan<'_>, QueueError> {
        self.loan_until(len, Call::Try)
    }

    fn loan_until(&mut self, len: usize, call: Call) -> Result<FrameLoan<'_>, QueueError> {
        let at = self.reserve(len, call)?;
        Ok(FrameLoan {
            producer: self,
            at,
            len,
        })
    }

    /// Sends a copy of `bytes` as one frame, waiting for room with its [`Patience`].
    pub fn send(&mut self, bytes: &[u8]) -> Result<(), QueueError> {
        self.send_until(bytes, Call::Patient(self.patience))
    }

    /// [`send`](Self::send), waiting at most `timeout`.
    pub fn send_timeout(&mut self, bytes: &[u8], timeout: Duration) -> Result<(), QueueError> {
        self.send_until(bytes, Call::Timeout(self.patience, timeout))
    }

    /// [`send`](Self::send) if the frame fits now; [`QueueError::Timeout`] at once
    /// otherwise.
    pub fn try_send(&mut self, bytes: &[u8]) -> Result<(), QueueError> {
        self.send_until(bytes, Call::Try)
    }

    fn send_until(&mut self, bytes: &[u8], call: Call) -> Result<(), QueueError> {
        let mut f = self.loan_until(bytes.len(), call)?;
        f.copy_from_slice(bytes);
        f.commit();
        Ok(())
    }

    /// How the waiting calls wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how the waiting calls wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    /// Reserves room for a frame of `len` bytes, committing a PAD record first if the frame
    /// would cross the end of the area; returns the frame's position (its header's unit).
    pub(crate) fn reserve(&mut self, len: usize, call: Call) -> Result<u64, QueueError> {
        call.attempt(
            |until| self.reserve_now(len, until),
            QueueError::would_block,
        )
    }

    fn reserve_now(&mut self, len: usize, until: Option<Until>) -> Result<u64, QueueError> {
        let (how, deadline) = parts(until);
        let max = self.max_frame();
        if len > max {
            return Err(QueueError::TooBig {
                what: "frame",
                len,
                max,
            });
        }
        let ring = &self.ring;
        let w = Waiting {
            how,
            deadline,
            peers: &*ring.region,
        };
        record::reserve(&mut self.idx, ring.indices(), ring, len, w)
            .map_err(|e| ring.error(e, Side::Consumer, "room for the frame"))
    }

    /// The bytes of a reserved frame at position `at` (its header's unit), `len` long.
    ///
    /// # Safety
    /// `at` must come from [`reserve`](Self::reserve) with at least `len` bytes, not yet
    /// committed, and the returned slice must be the only reference to them.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn frame_bytes(&self, at: u64, len: usize) -> &mut [u8] {
        // SAFETY: the frame's units follow its header without wrapping (`reserve` padded to
        // the area's start otherwise), are free for the producer, and lie in the data area.
        unsafe { std::slice::from_raw_parts_mut(self.ring.unit_ptr(at).add(UNIT), len) }
    }

    /// Commits the reserved frame at `at` with `len` bytes (at most what was reserved).
    pub(crate) fn commit_frame(&mut self, at: u64, len: usize) {
        let ring = &self.ring;
        record::commit(&mut self.idx, ring.indices(), ring, at, len);
        self.frames += 1;
    }
}

impl Drop for FrameProducer {
    fn drop(&mut self) {
        self.idx.close(self.ring.indices());
    }
}

/// A frame lent to the producer: write it in place, then [`commit`](Self::commit).
/// Dropped without a commit, nothing is sent.
#[derive(Debug)]
pub struct FrameLoan<'p> {
    producer: &'p mut FrameProducer,
    at: u64,
    len: usize,
}

impl FrameLoan<'_> {
    /// Sends the frame.
    pub fn commit(self) {
        let len = self.len;
        self.commit_len(len);
    }

    /// Sends only the first `len` bytes (at most the loaned length): for frames whose size
    /// is known only once written.
    pub fn commit_len(self, len: usize) {
        let len = len.min(self.len);
        self.producer.commit_frame(self.at, len);
    }
}

impl Deref for FrameLoan<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: reserved by this loan (see `frame_bytes`); the loan borrows the producer
        // mutably, so no other reference to the bytes exists while this one lives.
        unsafe { self.producer.frame_bytes(self.at, self.len) }
    }
}

impl DerefMut for FrameLoan<'_> {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`; `&mut self` makes it the only reference.
        unsafe { self.producer.frame_bytes(self.at, self.len) }
    }
}

/// The consuming end of a [`FrameQueue`]. Dropping it closes the queue for the producer.
#[derive(Debug)]
pub struct FrameConsumer {
    ring: Bytes,
    idx: ConsumerIndex,
    frames: u64,
    patience: Patience,
}

impl FrameConsumer {
    /// Waits (with its [`Patience`]) for the next frame and lends it for reading in place;
    /// dropping the [`Frame`] releases its bytes to the producer.
    ///
    /// Errors: [`QueueError::Closed`] once the producer closed and every frame was
    /// received; `PeerGone` if its process died (also mid-frame: an uncommitted frame is
    /// never delivered); `Timeout` when the patience's timeout passes; `Corrupt` for a
    /// header no producer writes.
    pub fn recv(&mut self) -> Result<Frame<'_>, QueueError> {
        self.recv_until(Call::Patient(self.patience))
    }

    /// [`recv`](Self::recv), waiting at most `timeout`.
    pub fn recv_timeout(&mut self, timeout: Duration) -> Result<Frame<'_>, QueueError> {
        self.recv_until(Call::Timeout(self.patience, timeout))
    }

    /// The next frame if one is committed now; [`QueueError::Timeout`] at once otherwise.
    pub fn try_recv(&mut self) -> Result<Frame<'_>, QueueError> {
        self.recv_until(Call::Try)
    }

    fn recv_until(&mut self, call: Call) -> Result<Frame<'_>, QueueError> {
        let (at, len) = self.next(call)?;
        Ok(Frame {
            consumer: self,
            at,
            len,
        })
    }

    /// How the waiting calls wait: strategy and default timeout.
    pub fn patience(&self) -> Patience {
        self.patience
    }

    /// Sets how the waiting calls wait (the `_timeout` forms keep the strategy).
    pub fn set_patience(&mut self, patience: Patience) {
        self.patience = patience;
    }

    /// Frames received so far.
    pub fn received(&self) -> u64 {
        self.frames
    }

    /// Position and length of the next frame, skipping PAD records.
    fn next(&mut self, call: Call) -> Result<(u64, usize), QueueError> {
        call.attempt(|until| self.next_now(until), QueueError::would_block)
    }

    fn next_now(&mut self, until: Option<Until>) -> Result<(u64, usize), QueueError> {
        let (how, deadline) = parts(until);
        let ring = &self.ring;
        let w = Waiting {
            how,
            deadline,
            peers: &*ring.region,
        };
        record::next(&mut self.idx, ring.indices(), ring, w)
            .map_err(|e| ring.error(e, Side::Producer, "frame"))
    }
}

impl Drop for FrameConsumer {
    fn drop(&mut self) {
        self.idx.close(self.ring.indices());
    }
}

/// A received frame: read it in place; dropping it releases its bytes to the producer.
#[derive(Debug)]
pub struct Frame<'c> {
    consumer: &'c mut FrameConsumer,
    at: u64,
    len: usize,
}

impl Frame<'_> {
    /// The frame's sequence number (0 for the first frame sent).
    pub fn seq(&self) -> u64 {
        self.consumer.frames
    }
}

impl Deref for Frame<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: the frame's units were committed (checked in `next` to lie within the
        // committed units and the area) and are not released before this Frame drops; the
        // slice borrows the frame.
        unsafe {
            std::slice::from_raw_parts(self.consumer.ring.unit_ptr(self.at).add(UNIT), self.len)
        }
    }
}

impl Drop for Frame<'_> {
    fn drop(&mut self) {
        let c = &mut *self.consumer;
        c.frames += 1;
        let ring = &c.ring;
        record::release(&mut c.idx, ring.indices(), self.len);
    }
}
