//! Futex wait/wake on *shared* 32-bit words (usable between processes), with absolute
//! CLOCK_MONOTONIC deadlines.
//!
//! The word must be a `crate::atomic::AtomicU32`; a segment's words are process-shared,
//! so we never pass `FUTEX_PRIVATE_FLAG`. Waits may return spuriously; callers re-check their
//! condition in a loop. Under `cfg(loom)` a stand-in built on loom's `Mutex` + `Condvar`
//! replaces the syscall with the same check-then-sleep atomicity, so a lost wake-up shows up
//! as a loom deadlock.

use super::Deadline;
// The platform layer sits below the crate's atomics facade, so it picks std's or loom's
// word itself (the same switch as `crate::atomic`).
#[cfg(loom)]
use loom::sync::atomic::AtomicU32;
#[cfg(not(loom))]
use std::sync::atomic::AtomicU32;

/// How a [`wait`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitOutcome {
    /// Woken by [`wake`], by a signal, spuriously, or the word no longer held `expected`.
    /// The caller re-checks its condition.
    Returned,
    /// The deadline passed.
    TimedOut,
}

#[cfg(all(target_os = "linux", not(loom)))]
mod imp {
    use super::*;
    use rustix::io::Errno;
    use rustix::thread::futex;
    use std::num::NonZeroU32;

    const MATCH_ANY: NonZeroU32 = match NonZeroU32::new(u32::MAX) {
        Some(v) => v,
        None => unreachable!(),
    };

    pub fn wait(word: &AtomicU32, expected: u32, deadline: Option<Deadline>) -> WaitOutcome {
        let ts = deadline.map(Deadline::as_timespec);
        // FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC timeout (plain FUTEX_WAIT's is
        // relative), so a retry after EINTR keeps the caller's deadline exactly.
        loop {
            match futex::wait_bitset(
                word,
                futex::Flags::empty(),
                expected,
                ts.as_ref(),
                MATCH_ANY,
            ) {
                Ok(()) => return WaitOutcome::Returned,
                Err(Errno::AGAIN) => return WaitOutcome::Returned,
                Err(Errno::TIMEDOUT) => return WaitOutcome::TimedOut,
                Err(Errno::INTR) => {
                    if deadline.is_some_and(Deadline::expired) {
                        return WaitOutcome::TimedOut;
                    }
                    continue;
                }
                // Any other error (EFAULT, EINVAL) means a bad word address: a bug, not a state.
                Err(e) => panic!("futex wait failed unexpectedly: {e}"),
            }
        }
    }

    pub fn wake(word: &AtomicU32, count: u32) -> usize {
        match futex::wake(word, futex::Flags::empty(), count) {
            Ok(n) => n,
            Err(e) => panic!("futex wake failed unexpectedly: {e}"),
        }
    }
}

#[cfg(all(not(target_os = "linux"), not(loom)))]
mod imp {
    use super::*;
    // Fallback where there is no futex: a short sleep-poll. Correct (waits may return
    // spuriously) but slow; handoff's segments are Linux-only anyway.
    pub fn wait(word: &AtomicU32, expected: u32, deadline: Option<Deadline>) -> WaitOutcome {
        use std::sync::atomic::Ordering;
        if word.load(Ordering::Relaxed) != expected {
            return WaitOutcome::Returned;
        }
        std::thread::sleep(std::time::Duration::from_micros(50));
        if deadline.is_some_and(Deadline::expired) {
            WaitOutcome::TimedOut
        } else {
            WaitOutcome::Returned
        }
    }
    pub fn wake(_word: &AtomicU32, _count: u32) -> usize {
        0
    }
}

#[cfg(loom)]
mod imp {
    use super::*;
    use loom::sync::atomic::Ordering;
    use loom::sync::{Condvar, Mutex};

    loom::lazy_static! {
        // One "futex bucket" for every word: wake-ups are broadcast, waits re-check.
        static ref BUCKET: (Mutex<()>, Condvar) = (Mutex::new(()), Condvar::new());
    }

    pub fn wait(word: &AtomicU32, expected: u32, deadline: Option<Deadline>) -> WaitOutcome {
        let (lock, cv) = &*BUCKET;
        let guard = lock.lock().unwrap();
        // The kernel compares the word under its bucket lock; so do we, so a wake that follows
        // a store cannot slip between this check and the sleep.
        if word.load(Ordering::SeqCst) != expected {
            return WaitOutcome::Returned;
        }
        if deadline.is_some() {
            // A timed wait in the model: it may time out at any point, which loom explores by
            // simply returning (callers treat it like a spurious wake and check the deadline).
            drop(guard);
            return WaitOutcome::Returned;
        }
        drop(cv.wait(guard).unwrap());
        WaitOutcome::Returned
    }

    pub fn wake(_word: &AtomicU32, _count: u32) -> usize {
        let (lock, cv) = &*BUCKET;
        let _guard = lock.lock().unwrap();
        cv.notify_all();
        1
    }
}

/// Sleeps while `word == expected`, until woken, a signal, or `deadline`.
///
/// Returns at once (as [`WaitOutcome::Returned`]) if the word differs. EINTR is retried.
#[inline]
pub fn wait(word: &AtomicU32, expected: u32, deadline: Option<Deadline>) -> WaitOutcome {
    imp::wait(word, expected, deadline)
}

/// Wakes up to `count` waiters sleeping on `word`; returns how many were woken.
#[inline]
pub fn wake(word: &AtomicU32, count: u32) -> usize {
    #[cfg(not(loom))]
    WAKE_CALLS.with(|c| c.set(c.get() + 1));
    imp::wake(word, count)
}

#[cfg(not(loom))]
thread_local! {
    static WAKE_CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many futex wakes the calling thread has issued (test hook: a publisher that skips
/// the wake while a sleeper is registered shows here at once, not after a sleep slice).
#[cfg(not(loom))]
#[cfg_attr(not(feature = "diagnostics"), allow(dead_code))] // tests and diagnostics read it
pub(crate) fn wake_calls() -> u64 {
    WAKE_CALLS.with(std::cell::Cell::get)
}

/// Test helper for the primitives' "a registered sleeper is woken" tests: runs `sleep` (a
/// blocking wait) on a thread, waits until `registered()` says it registered as a sleeper,
/// then runs `publish` here and returns how many futex wakes `publish` issued. Each step
/// has a 5 s watchdog (a failure, never a timing assert). `sleep` must wait with
/// [`sleep_deadline`] and unwrap: without a deadline, a publish that never lands (the
/// watchdog fires) would leave the thread, and so the test, hanging instead of failing.
#[cfg(all(test, not(loom)))]
pub(crate) fn wakes_of_publish_to_sleeper(
    sleep: impl FnOnce() + Send,
    registered: impl Fn() -> bool,
    publish: impl FnOnce(),
) -> u64 {
    use std::time::{Duration, Instant};
    const WATCHDOG: Duration = Duration::from_secs(5);
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        s.spawn(move || {
            sleep();
            tx.send(()).unwrap();
        });
        let start = Instant::now();
        while !registered() {
            assert!(
                start.elapsed() < WATCHDOG,
                "watchdog: the waiter never registered"
            );
            std::thread::yield_now();
        }
        // Let it reach the futex (not needed for the count, only for realism).
        std::thread::sleep(Duration::from_millis(2));
        let before = wake_calls();
        publish();
        let wakes = wake_calls() - before;
        rx.recv_timeout(WATCHDOG)
            .expect("watchdog: the waiter did not return after the publish");
        wakes
    })
}

/// The deadline for the sleeper of [`wakes_of_publish_to_sleeper`]: past its watchdog.
#[cfg(all(test, not(loom)))]
pub(crate) fn sleep_deadline() -> Option<crate::sys::Deadline> {
    Some(crate::sys::Deadline::after(std::time::Duration::from_secs(
        10,
    )))
}

/// Wakes every waiter on `word`.
#[inline]
pub fn wake_all(word: &AtomicU32) -> usize {
    wake(word, i32::MAX as u32)
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn value_mismatch_returns_immediately() {
        let w = AtomicU32::new(5);
        assert_eq!(wait(&w, 4, None), WaitOutcome::Returned);
    }

    #[test]
    fn expired_deadline_times_out() {
        let w = AtomicU32::new(0);
        assert_eq!(wait(&w, 0, Some(Deadline::at_ns(1))), WaitOutcome::TimedOut);
        let d = Deadline::after(Duration::from_millis(20));
        assert_eq!(wait(&w, 0, Some(d)), WaitOutcome::TimedOut);
        assert!(d.expired());
    }

    #[test]
    fn wake_releases_a_sleeper() {
        let w = Arc::new(AtomicU32::new(0));
        let w2 = w.clone();
        let t = std::thread::spawn(move || {
            let deadline = Deadline::after(Duration::from_secs(10));
            while w2.load(Ordering::Acquire) == 0 {
                assert_eq!(wait(&w2, 0, Some(deadline)), WaitOutcome::Returned);
            }
        });
        std::thread::sleep(Duration::from_millis(10));
        w.store(1, Ordering::Release);
        wake_all(&w);
        t.join().unwrap();
    }

    #[test]
    fn wake_without_waiters_is_zero() {
        let w = AtomicU32::new(0);
        assert_eq!(wake(&w, 1), 0);
    }
}
