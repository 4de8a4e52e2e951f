//! [`Pace`]: how a wait for MPI spaces its polls on a crowded node (more ranks than CPUs),
//! where the rank whose progress the wait needs may be waiting for this rank's CPU.
//!
//! First [`SPINS`] polls with a `pause` between (the answer is often on its way), then a
//! `sched_yield` between polls: ranks that share a CPU take turns at once, which is all a
//! node of polling ranks needs (a yield hands the CPU to a rank that polls once and yields
//! back; it returns within microseconds). But a yield waits for nothing: Linux's scheduler
//! (EEVDF, 6.6 and later) moves a yielding task's deadline a time slice on at every yield,
//! so where another task runs on — a CPU hog, a build, a rank computing — each yield can
//! hand it a whole slice. With a `yes` pinned beside it, 10-40% of a loop's `sched_yield`s
//! took 4 ms (the rest about 1 µs), while a 1 µs `nanosleep` took 64-93 µs (p10-p99, the
//! timer slack): a task that wakes from a sleep is placed by its lag and preempts the hog
//! (2,000 of each in a loop pinned beside `taskset -c 1 yes`). An MPI operation that needs
//! its target's progress (MPICH 4.0 ch4:ucx serves RMA between processes of one node by
//! active messages) waited for such slices on both sides: with two `yes` beside tests-sos
//! `spam` on MPICH's mixed path (4 ranks, 2 CPUs) its 2 KiB gets took 0.5-2.6 ms each, and
//! `spam` ran past 200 s (#42).
//!
//! So a yield that returns after more than [`SLOW_YIELD`] marks this process contended for
//! [`CONTENDED_FOR`], and meanwhile its paced waits nap ([`NAP`]) between polls instead of
//! yielding: each poll then comes within ~65 µs whoever else runs. After that a yield is
//! tried again: a fast one (no other task wanted the CPU for long) keeps the yields, a slow
//! one (up to a slice) sets the mark again.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use handoff::sys::monotonic_ns;

/// Polls with a `pause` between before a [`Pace`] yields or naps.
pub(crate) const SPINS: u32 = 64;

/// A `sched_yield` that returns later than this gave the CPU to a task that ran on, not to
/// a rank that polled once and yielded back (microseconds); a time slice is 0.75 ms or more.
pub(crate) const SLOW_YIELD: Duration = Duration::from_micros(200);

/// How long after a slow yield this process's paced waits nap instead of yielding.
pub(crate) const CONTENDED_FOR: Duration = Duration::from_millis(100);

/// What a nap asks for: the shortest sleep, which the kernel's timer slack (50 µs for a
/// normal task) stretches to 60-90 µs.
pub(crate) const NAP: Duration = Duration::from_micros(1);

/// When this process last saw a slow yield (`monotonic_ns`, 0: never). A hint shared by
/// its threads (it publishes no data), so Relaxed.
static SLOW_AT: AtomicU64 = AtomicU64::new(0);

/// The pacing of one wait: call [`miss`](Pace::miss) after each poll that found nothing.
#[derive(Debug, Default)]
pub(crate) struct Pace {
    misses: u32,
}

impl Pace {
    /// Waits a little before the next poll: a `pause` for the first [`SPINS`] misses, then a
    /// nap while this process is contended ([`contended`]), else a `sched_yield` (timed: a
    /// slow one marks the process contended).
    pub(crate) fn miss(&mut self) {
        self.misses = self.misses.saturating_add(1);
        if self.misses <= SPINS {
            std::hint::spin_loop();
            return;
        }
        let before = monotonic_ns();
        if contended(before) {
            std::thread::sleep(NAP);
            return;
        }
        std::thread::yield_now();
        let after = monotonic_ns();
        if after.saturating_sub(before) > SLOW_YIELD.as_nanos() as u64 {
            SLOW_AT.store(after.max(1), Relaxed);
        }
    }
}

/// Whether a yield of this process was slow ([`SLOW_YIELD`]) within [`CONTENDED_FOR`]
/// before `now`.
pub(crate) fn contended(now: u64) -> bool {
    let at = SLOW_AT.load(Relaxed);
    at != 0 && now.saturating_sub(at) < CONTENDED_FOR.as_nanos() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slow yield's mark makes the waits nap for `CONTENDED_FOR`, then yield again; no
    /// mark, no naps.
    #[test]
    fn a_slow_yield_marks_the_process_contended_for_a_while() {
        let now = monotonic_ns();
        SLOW_AT.store(0, Relaxed);
        assert!(!contended(now));
        SLOW_AT.store(now, Relaxed);
        assert!(contended(now + 1));
        assert!(!contended(now + CONTENDED_FOR.as_nanos() as u64));
        SLOW_AT.store(0, Relaxed);
    }
}
