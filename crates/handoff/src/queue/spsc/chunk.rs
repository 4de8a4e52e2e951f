//! The in-place chunks of the typed SPSC ring: [`WriteChunk`] and [`ReadChunk`].

use super::{advance, Consumer, Producer};

/// Free slots lent to the producer by [`Producer::write_chunk`]: write them in place, then
/// [`commit`](Self::commit). Dropped without a commit, nothing is published.
pub struct WriteChunk<'p, T> {
    pub(super) producer: &'p mut Producer<T>,
    pub(super) n: usize,
}

impl<T: bytemuck::Pod> WriteChunk<'_, T> {
    /// The slots, as two runs (the second is non-empty when the chunk wraps around the
    /// ring's end).
    pub fn as_mut_slices(&mut self) -> (&mut [T], &mut [T]) {
        let ring = &self.producer.ring;
        let ((start, first), second) = ring.runs(self.producer.slot, self.n);
        // SAFETY: the producer reserved `n` free slots from `slot` (wrapping), which no one
        // else touches until they are committed; the runs lie within the data area and do
        // not overlap; the chunk borrows the producer mutably, so these are the only
        // references; any bytes are a valid Pod `T`.
        unsafe {
            (
                std::slice::from_raw_parts_mut(ring.data().add(start), first),
                std::slice::from_raw_parts_mut(ring.data(), second),
            )
        }
    }

    /// Slots in the chunk.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the chunk has no slots (never: chunks have at least one).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Publishes the first `n` slots (at most [`len`](Self::len)) to the consumer.
    pub fn commit(self, n: usize) {
        let n = n.min(self.n);
        let p = self.producer;
        p.slot = advance(p.slot, n, p.ring.cap());
        let ring = &p.ring;
        p.idx.commit(ring.indices(), n as u64);
    }

    /// Publishes every slot of the chunk.
    pub fn commit_all(self) {
        let n = self.n;
        self.commit(n);
    }
}

/// Committed elements lent to the consumer by [`Consumer::read_chunk`]: read them in place;
/// dropping the chunk releases them all to the producer.
pub struct ReadChunk<'c, T: bytemuck::Pod> {
    pub(super) consumer: &'c mut Consumer<T>,
    pub(super) n: usize,
}

impl<T: bytemuck::Pod> ReadChunk<'_, T> {
    /// The elements, as two runs (the second is non-empty when the chunk wraps).
    pub fn as_slices(&self) -> (&[T], &[T]) {
        let ring = &self.consumer.ring;
        let ((start, first), second) = ring.runs(self.consumer.slot, self.n);
        // SAFETY: the consumer saw `n` committed units from `slot` (wrapping; Acquire on
        // `tail`), which the producer does not write until they are released (when this
        // chunk is dropped); the slices borrow the chunk, so none outlives the release.
        unsafe {
            (
                std::slice::from_raw_parts(ring.data().add(start), first),
                std::slice::from_raw_parts(ring.data(), second),
            )
        }
    }

    /// Elements in the chunk.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the chunk is empty (never: chunks have at least one element).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Releases only the first `n` elements (at most [`len`](Self::len)); the rest stay
    /// queued for the next pop.
    pub fn release(mut self, n: usize) {
        self.n = n.min(self.n);
    }
}

impl<T: bytemuck::Pod> Drop for ReadChunk<'_, T> {
    fn drop(&mut self) {
        let c = &mut *self.consumer;
        c.slot = advance(c.slot, self.n, c.ring.cap());
        let ring = &c.ring;
        c.idx.release(ring.indices(), self.n as u64);
    }
}
