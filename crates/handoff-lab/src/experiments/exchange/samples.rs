//! Where the parties record raw clock ticks: a segment of sample slots beside the block.
//!
//! ```text
//! 0            5 arrays of `total_reps` AtomicU64: write, flush, done, start, read
//! usage        consumer CPU ns, consumer wall ticks, verified repetitions (3 AtomicU64)
//! ```
//!
//! The block itself lives in a [`handoff::channel`] (every mode but `pipe`, which copies it
//! through the kernel), so this segment holds only what the parent reads after the run.

use super::RunError;
use handoff::shm::Segment;
use handoff_probe::clock::Clock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Where the parties record raw clock ticks, one slot per repetition (warm-up included).
///
/// Slots are written with relaxed stores by one party and read by the parent only after that
/// party has been joined (threads) or has exited (processes), which orders them.
pub struct SampleSlots<'a> {
    /// Fill time, ticks.
    pub write: &'a [AtomicU64],
    /// Flush time, ticks (0 without flushing).
    pub flush: &'a [AtomicU64],
    /// `t_done`, raw ticks.
    pub done: &'a [AtomicU64],
    /// `t_start`, raw ticks.
    pub start: &'a [AtomicU64],
    /// Sum time, ticks.
    pub read: &'a [AtomicU64],
    /// Consumer: thread CPU ns and wall ns over the measured repetitions.
    pub consumer_usage: &'a [AtomicU64],
    /// Consumer: how many repetitions (from the first) passed [`super::roles::check_sum`].
    pub verified_reps: &'a AtomicU64,
}

impl SampleSlots<'_> {
    /// The producer's repetition `rep`: filled from `t0` to `t1`, flushed until `t_done`.
    pub fn produced(&self, rep: u32, [t0, t1, t_done]: [u64; 3]) {
        let r = rep as usize;
        self.write[r].store(t1.wrapping_sub(t0), Ordering::Relaxed);
        self.flush[r].store(t_done.wrapping_sub(t1), Ordering::Relaxed);
        self.done[r].store(t_done, Ordering::Relaxed);
    }

    /// The consumer's repetition `rep`, its sum checked: read from `t_start` to `t_end`.
    pub fn consumed(&self, rep: u32, t_start: u64, t_end: u64) {
        self.verified_reps.store(rep as u64 + 1, Ordering::Relaxed);
        let r = rep as usize;
        self.start[r].store(t_start, Ordering::Relaxed);
        self.read[r].store(t_end.wrapping_sub(t_start), Ordering::Relaxed);
    }
}

const SAMPLE_ARRAYS: usize = 5;
/// Consumer CPU ns, consumer wall ticks, verified repetitions.
const USAGE_WORDS: usize = 3;

/// Offsets of one segment of samples.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Repetitions per run, warm-up included.
    pub total_reps: usize,
}

impl Layout {
    /// The layout for `total_reps` repetitions.
    pub fn new(total_reps: usize) -> Layout {
        Layout { total_reps }
    }

    fn usage_off(&self) -> usize {
        SAMPLE_ARRAYS * self.total_reps * 8
    }

    /// Payload bytes the segment needs.
    pub fn payload_len(&self) -> usize {
        self.usage_off() + USAGE_WORDS * 8
    }

    /// The sample slots.
    pub fn slots<'s>(&self, seg: &'s Segment) -> Result<SampleSlots<'s>, RunError> {
        if seg.payload_len() < self.payload_len() {
            return Err(RunError::SegmentTooSmall);
        }
        let n = self.total_reps;
        let arr = |i: usize| seg.slice::<AtomicU64>(i * n * 8, n);
        Ok(SampleSlots {
            write: arr(0)?,
            flush: arr(1)?,
            done: arr(2)?,
            start: arr(3)?,
            read: arr(4)?,
            consumer_usage: seg.slice::<AtomicU64>(self.usage_off(), 2)?,
            verified_reps: seg.get::<AtomicU64>(self.usage_off() + 2 * 8)?,
        })
    }
}

/// Measures the consumer's CPU time against wall time over the measured repetitions.
#[derive(Clone, Copy)]
pub struct UsageMeter {
    cpu_ns: u64,
    wall_ticks: u64,
}

impl UsageMeter {
    /// Starts measuring on the calling thread.
    pub fn start(clock: &Clock) -> Self {
        UsageMeter {
            cpu_ns: handoff_probe::usage::thread_cpu_ns(),
            wall_ticks: clock.now(),
        }
    }

    /// Stores the thread CPU ns and wall ticks since `start` in the slots.
    pub fn record(self, clock: &Clock, slots: &SampleSlots<'_>) {
        let cpu = handoff_probe::usage::thread_cpu_ns().saturating_sub(self.cpu_ns);
        let wall = clock.now().wrapping_sub(self.wall_ticks);
        slots.consumer_usage[0].store(cpu, Ordering::Relaxed);
        slots.consumer_usage[1].store(wall, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_cover_every_repetition_and_a_short_segment_is_refused() {
        let l = Layout::new(110);
        // Hand computation: 5 arrays of 110 u64 + 3 u64.
        assert_eq!(l.payload_len(), 5 * 110 * 8 + 24);
        let seg = Segment::anonymous(l.payload_len()).unwrap();
        let s = l.slots(&seg).unwrap();
        assert_eq!((s.write.len(), s.read.len()), (110, 110));
        assert_eq!(s.consumer_usage.len(), 2);
        let short = Segment::anonymous(l.payload_len() - 8).unwrap();
        assert!(matches!(
            Layout::new(110).slots(&short),
            Err(RunError::SegmentTooSmall)
        ));
    }
}
