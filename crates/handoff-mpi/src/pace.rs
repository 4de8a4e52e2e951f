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
//! So a yield that returns after more than [`SLOW_YIELD`] marks this process contended, and
//! for a while its paced waits nap ([`NAP`]) between polls instead of yielding: each poll
//! then comes within ~65 µs whoever else runs. The while starts at [`CONTENDED_MIN`] and
//! doubles, up to [`CONTENDED_MAX`], each time a yield is slow again soon after the naps
//! ended (another task holds the CPU for good: a hog); a slow yield long after the last one
//! (a build's burst, a peer computing once) starts again from the minimum. Naps cost where
//! yields would have been quick: with one fixed 100 ms after every slow yield, tests-sos
//! `spam`'s collectives on MPICH's mixed path took 1.5-6 times their yielding time at load
//! 2-3 from other jobs, while 5.6 times faster beside two `yes` (#42).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use handoff::sys::monotonic_ns;

/// Polls with a `pause` between before a [`Pace`] yields or naps.
pub(crate) const SPINS: u32 = 64;

/// A `sched_yield` that returns later than this gave the CPU to a task that ran on for a time
/// slice (EEVDF's is 0.75 ms times 1 + log2 of up to 8 CPUs: 1.5 ms on 2; beside a `yes`,
/// 4 ms), not to a rank that polled once (microseconds) or copied a little and yielded back.
/// With 200 µs, waits napped where nothing but the job ran and tests-sos `spam`'s collectives
/// on MPICH's mixed path took up to twice their yielding time (0.47-0.79 s for 5,000
/// collects at load 0.4-1.2, 0.44 s yielding); with 1 ms, as fast beside two `yes` (#42).
pub(crate) const SLOW_YIELD: Duration = Duration::from_micros(500);

/// How long this process's paced waits nap after a slow yield that came long after the
/// last one.
pub(crate) const CONTENDED_MIN: Duration = Duration::from_millis(2);

/// The longest they nap after a slow yield (a yield is tried again then: one slow yield,
/// up to a slice, per this much napping beside a hog).
pub(crate) const CONTENDED_MAX: Duration = Duration::from_millis(128);

/// What a nap asks for: the shortest sleep, which the kernel's timer slack (50 µs for a
/// normal task) stretches to 60-90 µs.
pub(crate) const NAP: Duration = Duration::from_micros(1);

/// When this process last saw a slow yield (`monotonic_ns`, 0: never), and for how long
/// (ns) its waits nap since. Hints shared by its threads (they publish no data), so Relaxed.
static SLOW_AT: AtomicU64 = AtomicU64::new(0);
static NAPS_FOR: AtomicU64 = AtomicU64::new(0);

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
            slow_yield(after);
        }
    }
}

/// Marks a slow yield at `now`: the waits nap for [`CONTENDED_MIN`], or twice as long as
/// last time (up to [`CONTENDED_MAX`]) when the last slow yield came at most twice that
/// long before (the naps ended and the first yields were slow again).
pub(crate) fn slow_yield(now: u64) {
    let (min, max) = (
        CONTENDED_MIN.as_nanos() as u64,
        CONTENDED_MAX.as_nanos() as u64,
    );
    let (last, naps) = (SLOW_AT.load(Relaxed), NAPS_FOR.load(Relaxed).max(min));
    let again = last != 0 && now.saturating_sub(last) <= 2 * naps;
    NAPS_FOR.store(if again { (2 * naps).min(max) } else { min }, Relaxed);
    SLOW_AT.store(now.max(1), Relaxed);
}

/// Whether the waits nap at `now`: a slow yield was marked less than its nap time before.
pub(crate) fn contended(now: u64) -> bool {
    let at = SLOW_AT.load(Relaxed);
    at != 0 && now.saturating_sub(at) < NAPS_FOR.load(Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slow yield makes the waits nap for the minimum; one soon after the naps ended
    /// doubles it, up to the maximum; one long after starts from the minimum again.
    #[test]
    fn slow_yields_make_the_waits_nap_longer_while_they_recur() {
        let min = CONTENDED_MIN.as_nanos() as u64;
        let max = CONTENDED_MAX.as_nanos() as u64;
        let t = monotonic_ns();
        SLOW_AT.store(0, Relaxed);
        assert!(!contended(t));
        slow_yield(t);
        assert!(contended(t + 1) && !contended(t + min));
        let mut at = t;
        let mut naps = min;
        while naps < max {
            at += naps + 1; // the first yield after the naps, slow again
            slow_yield(at);
            naps = (2 * naps).min(max);
            assert!(contended(at + naps - 1) && !contended(at + naps), "{naps}");
        }
        slow_yield(at + 1);
        assert!(contended(at + max - 1), "stays at the maximum");
        at += 10 * max;
        slow_yield(at);
        assert!(
            contended(at + 1) && !contended(at + min),
            "back to the minimum"
        );
        SLOW_AT.store(0, Relaxed);
    }
}
