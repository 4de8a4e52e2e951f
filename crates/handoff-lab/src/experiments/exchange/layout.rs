//! Where things live in the exchange segment: the two flags, the sample slots, the block.
//!
//! ```text
//! 0            Control (full flag, free flag, consumer usage) — each flag on its own lines
//! samples      5 arrays of `total_reps` AtomicU64: write, flush, done, start, read
//! usage        consumer CPU ns, consumer wall ticks, verified repetitions (3 AtomicU64)
//! block        the data block, page aligned (absent in pipe mode)
//! ```

use super::roles::{BlockPtr, SampleSlots};
use handoff::shm::{Segment, ShmSafe};
use handoff::sync::flag::Flag;
use std::sync::atomic::AtomicU64;

/// The control words at offset 0.
#[repr(C)]
pub struct Control {
    /// Number of blocks published (producer → consumer).
    pub full: Flag,
    /// Number of blocks released (consumer → producer).
    pub free: Flag,
}

// SAFETY: repr(C), only `Flag`s, which are ShmSafe (pointer-free, all-zero valid, shared
// access through atomics only).
unsafe impl ShmSafe for Control {}

/// Offsets of one exchange segment.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Repetitions per run, warm-up included.
    pub total_reps: usize,
    /// Block bytes (0 when the block is not in the segment).
    pub block_bytes: usize,
    samples_off: usize,
    usage_off: usize,
    block_off: usize,
}

const SAMPLE_ARRAYS: usize = 5;
/// Consumer CPU ns, consumer wall ticks, verified repetitions.
const USAGE_WORDS: usize = 3;

impl Layout {
    /// The layout for `total_reps` repetitions and a block of `block_bytes`.
    pub fn new(total_reps: usize, block_bytes: usize) -> Layout {
        let samples_off = round_up(std::mem::size_of::<Control>(), 128);
        let usage_off = samples_off + SAMPLE_ARRAYS * total_reps * 8;
        let block_off = round_up(usage_off + USAGE_WORDS * 8, handoff::sys::page_size());
        Layout {
            total_reps,
            block_bytes,
            samples_off,
            usage_off,
            block_off,
        }
    }

    /// Payload bytes the segment needs.
    pub fn payload_len(&self) -> usize {
        self.block_off + self.block_bytes
    }

    /// The control words.
    pub fn control<'s>(&self, seg: &'s Segment) -> Result<&'s Control, String> {
        seg.get::<Control>(0).map_err(|e| e.to_string())
    }

    /// The sample slots.
    pub fn slots<'s>(&self, seg: &'s Segment) -> Result<SampleSlots<'s>, String> {
        let n = self.total_reps;
        let arr = |i: usize| {
            seg.slice::<AtomicU64>(self.samples_off + i * n * 8, n)
                .map_err(|e| e.to_string())
        };
        Ok(SampleSlots {
            write: arr(0)?,
            flush: arr(1)?,
            done: arr(2)?,
            start: arr(3)?,
            read: arr(4)?,
            consumer_usage: seg
                .slice::<AtomicU64>(self.usage_off, 2)
                .map_err(|e| e.to_string())?,
            verified_reps: seg
                .get::<AtomicU64>(self.usage_off + 2 * 8)
                .map_err(|e| e.to_string())?,
        })
    }

    /// The block, as a raw pointer for the lock-step protocol.
    pub fn block(&self, seg: &Segment) -> Result<BlockPtr, String> {
        if self.block_off + self.block_bytes > seg.payload_len() {
            return Err("the exchange segment is smaller than its layout".into());
        }
        // SAFETY: the range lies inside the segment's payload (checked above), which stays
        // mapped while `seg` lives; the block start is page aligned, so aligned for i32; the
        // block is only touched through the lock-step protocol.
        Ok(unsafe {
            BlockPtr::new(
                seg.as_ptr().add(self.block_off).cast::<i32>(),
                self.block_bytes / 4,
            )
        })
    }
}

fn round_up(x: usize, to: usize) -> usize {
    x.div_ceil(to) * to
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_is_page_aligned_and_after_samples() {
        let l = Layout::new(110, 1 << 20);
        assert_eq!(l.block_off % handoff::sys::page_size(), 0);
        assert!(l.block_off >= l.usage_off + 24);
        assert_eq!(l.payload_len(), l.block_off + (1 << 20));
        let seg = Segment::anonymous(l.payload_len()).unwrap();
        let s = l.slots(&seg).unwrap();
        assert_eq!(s.read.len(), 110);
        assert_eq!(l.block(&seg).unwrap().len(), 1 << 18);
        l.control(&seg).unwrap();
    }
}
