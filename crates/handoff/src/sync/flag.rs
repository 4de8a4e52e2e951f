//! [`Flag`]: a 32-bit value (a flag or a sequence number) published with Release and waited
//! for with Acquire, between threads or processes.
//!
//! # Protocol
//!
//! State words (one 128-byte block, so two flags never share a cache line):
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `value` | publishers ([`store`](Flag::store), [`increment`](Flag::increment)) | the published value; also the futex word sleepers wait on |
//! | `sleepers` | waiters about to sleep (+1) and after sleeping (−1) | how many waiters may be in (or entering) a futex sleep; [`NO_SLEEPERS`] = 0 |
//! | `publisher` | publishers (Relaxed) | [`CpuHint`]: the CPU of the last publisher |
//!
//! Publish: `value.store(v, Release)` (or `fetch_add(1, Release)`), then `fence(SeqCst)`,
//! then `sleepers.load(Relaxed)`; only if it is not [`NO_SLEEPERS`] does the publisher make
//! the `futex_wake` syscall (waking all). A hand-off between spinners makes no syscall.
//!
//! Sleep: `sleepers.fetch_add(1)`, `fence(SeqCst)`, re-load `value`; if the condition still
//! does not hold, `futex_wait(value, seen)`, then `sleepers.fetch_sub(1)`.
//!
//! # Memory ordering
//!
//! - The Release store/RMW of `value` in `store`/`increment` pairs with the Acquire loads of
//!   `value` in [`load`](Flag::load) and in every wait: whatever the publisher wrote before
//!   publishing is visible to a waiter that sees the value.
//! - The `SeqCst` fence in publish pairs with the `SeqCst` fence in the sleeper's
//!   registration (store-buffering, "Dekker"): either the publisher sees the registration and
//!   wakes, or the sleeper's re-load sees the new value and does not sleep. The futex itself
//!   re-checks `value == seen` atomically with going to sleep, closing the remaining window.
//!
//! A `Flag` is `repr(C)`, pointer-free, and all-zero is a valid flag holding 0, so it may
//! live in a shared segment.

use crate::atomic::{fence, AtomicU32, Ordering};
use crate::sync::wait::Call;
use crate::sync::wait::{wait_on, CpuHint, WaitCondition};
use crate::sync::WaitError;
use crate::sync::{NoPeers, PeerWatch, Waiter};
use crate::sys::futex;
use std::time::Duration;

/// The `sleepers` value meaning that no waiter may be sleeping: publishers skip the wake.
pub const NO_SLEEPERS: u32 = 0;

/// A 32-bit value published with Release and waited for with Acquire.
///
/// Use it as a flag (`store(1)`, `wait_for(1)`) or as a sequence word (`increment()`,
/// `wait_change(seen)`). Values wrap modulo 2^32.
///
/// A waiter sees *a* value, not every value: one overwritten before the waiter looks (say
/// `store(1)` then `store(0)` while it waits for a change from 0) may never be seen. Hand
/// values over one at a time (the peer acknowledges each) or use a monotonic sequence.
///
/// ```
/// use handoff::sync::{Flag, Patience, Wait, Waiter};
/// let f = Flag::new();
/// f.store(5);
/// assert_eq!(f.wait_change(0, &Waiter::new(Patience::new(Wait::Spin))), Ok(5));
/// ```
#[repr(C, align(128))]
#[derive(Debug)]
pub struct Flag {
    value: AtomicU32,
    sleepers: AtomicU32,
    publisher: CpuHint,
}

// SAFETY: `Flag` is `repr(C)`, holds only atomics (no pointers, no references to process-local
// memory), every bit pattern of its words is a valid state, and all-zero is the flag holding 0
// with no sleepers; its futex is process-shared. So it may be placed in a shared segment and
// used from several processes at once.
// Not under loom: loom's atomics are handles into the model, not plain memory.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Flag {}

impl Flag {
    /// A flag holding 0.
    pub fn new() -> Self {
        Self::with_value(0)
    }

    /// A flag holding `value`.
    pub fn with_value(value: u32) -> Self {
        Flag {
            value: AtomicU32::new(value),
            sleepers: AtomicU32::new(NO_SLEEPERS),
            publisher: CpuHint::new(),
        }
    }

    /// The current value.
    #[inline]
    pub fn load(&self) -> u32 {
        // Acquire: pairs with the Release store/RMW in `store`/`increment`.
        self.value.load(Ordering::Acquire)
    }

    /// Publishes `value` (Release) and wakes sleepers, if any.
    #[inline]
    pub fn store(&self, value: u32) {
        self.publisher.note();
        // Release: pairs with the Acquire loads in `load` and in the waits.
        self.value.store(value, Ordering::Release);
        self.wake_sleepers();
    }

    /// Adds 1 (wrapping) and publishes the result (Release); returns the new value.
    #[inline]
    pub fn increment(&self) -> u32 {
        self.publisher.note();
        // Release: pairs with the Acquire loads in `load` and in the waits.
        let new = self.value.fetch_add(1, Ordering::Release).wrapping_add(1);
        self.wake_sleepers();
        new
    }

    #[inline]
    fn wake_sleepers(&self) {
        // SeqCst fence: pairs with the fence in `FlagWait::prepare_sleep` (see module docs).
        fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::Relaxed) != NO_SLEEPERS {
            self.wake_slow();
        }
    }

    #[cold]
    #[inline(never)]
    fn wake_slow(&self) {
        futex::wake_all(&self.value);
    }

    /// Waits (with `waiter`'s patience) until the value differs from `old`; returns the new
    /// value.
    #[inline]
    pub fn wait_change<P: PeerWatch + ?Sized>(
        &self,
        old: u32,
        waiter: &Waiter<'_, P>,
    ) -> Result<u32, WaitError> {
        self.change_with(old, Call::Patient(waiter.patience()), waiter.peers())
    }

    /// [`wait_change`](Self::wait_change), waiting at most `timeout`.
    #[inline]
    pub fn wait_change_timeout<P: PeerWatch + ?Sized>(
        &self,
        old: u32,
        timeout: Duration,
        waiter: &Waiter<'_, P>,
    ) -> Result<u32, WaitError> {
        self.change_with(
            old,
            Call::Timeout(waiter.patience(), timeout),
            waiter.peers(),
        )
    }

    /// The value if it differs from `old` now; [`WaitError::Timeout`] otherwise.
    #[inline]
    pub fn try_wait_change(&self, old: u32) -> Result<u32, WaitError> {
        self.change_with(old, Call::Try, &NoPeers)
    }

    #[inline]
    fn change_with<P: PeerWatch + ?Sized>(
        &self,
        old: u32,
        call: Call,
        peers: &P,
    ) -> Result<u32, WaitError> {
        let v = self.load();
        if v != old {
            return Ok(v);
        }
        let Some(until) = call.until() else {
            return Err(WaitError::Timeout);
        };
        let cond = FlagWait {
            flag: self,
            target: Target::Not(old),
        };
        wait_on(cond, until, peers, self.publisher.get())
    }

    /// Waits (with `waiter`'s patience) until the value equals `target`.
    #[inline]
    pub fn wait_for<P: PeerWatch + ?Sized>(
        &self,
        target: u32,
        waiter: &Waiter<'_, P>,
    ) -> Result<(), WaitError> {
        self.for_with(target, Call::Patient(waiter.patience()), waiter.peers())
    }

    /// [`wait_for`](Self::wait_for), waiting at most `timeout`.
    #[inline]
    pub fn wait_for_timeout<P: PeerWatch + ?Sized>(
        &self,
        target: u32,
        timeout: Duration,
        waiter: &Waiter<'_, P>,
    ) -> Result<(), WaitError> {
        self.for_with(
            target,
            Call::Timeout(waiter.patience(), timeout),
            waiter.peers(),
        )
    }

    /// `Ok` if the value equals `target` now; [`WaitError::Timeout`] otherwise.
    #[inline]
    pub fn try_wait_for(&self, target: u32) -> Result<(), WaitError> {
        self.for_with(target, Call::Try, &NoPeers)
    }

    #[inline]
    fn for_with<P: PeerWatch + ?Sized>(
        &self,
        target: u32,
        call: Call,
        peers: &P,
    ) -> Result<(), WaitError> {
        if self.load() == target {
            return Ok(());
        }
        let Some(until) = call.until() else {
            return Err(WaitError::Timeout);
        };
        let cond = FlagWait {
            flag: self,
            target: Target::Is(target),
        };
        wait_on(cond, until, peers, self.publisher.get()).map(drop)
    }
}

impl Default for Flag {
    fn default() -> Self {
        Flag::new()
    }
}

#[derive(Clone, Copy)]
enum Target {
    Not(u32),
    Is(u32),
}

struct FlagWait<'a> {
    flag: &'a Flag,
    target: Target,
}

impl FlagWait<'_> {
    #[inline]
    fn check(&self, v: u32) -> bool {
        match self.target {
            Target::Not(old) => v != old,
            Target::Is(t) => v == t,
        }
    }
}

impl WaitCondition for FlagWait<'_> {
    type Output = u32;

    #[inline]
    fn poll(&mut self) -> Option<u32> {
        let v = self.flag.load();
        self.check(v).then_some(v)
    }

    fn futex_word(&self) -> &AtomicU32 {
        &self.flag.value
    }

    fn prepare_sleep(&mut self) -> Result<u32, u32> {
        self.flag.sleepers.fetch_add(1, Ordering::Relaxed);
        // SeqCst fence: pairs with the fence in `Flag::wake_sleepers`.
        fence(Ordering::SeqCst);
        let v = self.flag.load();
        if self.check(v) {
            self.finish_sleep();
            Err(v)
        } else {
            Ok(v)
        }
    }

    fn finish_sleep(&mut self) {
        self.flag.sleepers.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::sync::waiter::w;
    use crate::sync::{NoPeers, Wait};
    use crate::sys::Deadline;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn layout_and_zero_init() {
        assert_eq!(std::mem::size_of::<Flag>(), 128);
        assert_eq!(std::mem::align_of::<Flag>(), 128);
        // SAFETY: all-zero is a valid `Flag` (see the `ShmSafe` impl).
        let f: Flag = unsafe { std::mem::zeroed() };
        assert_eq!(f.load(), 0);
        assert_eq!(f.sleepers.load(Ordering::Relaxed), NO_SLEEPERS);
        assert_eq!(f.publisher.get(), None);
    }

    #[test]
    fn store_increment_and_wrap() {
        let f = Flag::with_value(u32::MAX);
        assert_eq!(f.increment(), 0);
        f.store(7);
        assert_eq!(f.load(), 7);
        assert_eq!(f.wait_change(3, &w(Wait::Block, None, &NoPeers)), Ok(7));
        assert_eq!(f.wait_for(7, &w(Wait::Block, None, &NoPeers)), Ok(()));
    }

    #[test]
    fn deadlines_expire_in_every_strategy() {
        let f = Flag::new();
        for how in Wait::ALL {
            let d = Some(Deadline::after(Duration::from_millis(3)));
            assert_eq!(
                f.wait_change(0, &w(how, d, &NoPeers)),
                Err(WaitError::Timeout),
                "{how}"
            );
            assert_eq!(
                f.wait_for(1, &w(how, d, &NoPeers)),
                Err(WaitError::Timeout),
                "{how}"
            );
        }
        assert_eq!(f.sleepers.load(Ordering::Relaxed), NO_SLEEPERS);
    }

    /// A blocked waiter is woken by the store itself (a skipped wake would leave it to its
    /// 50 ms sleep slice; the wake count shows the skip at once).
    #[test]
    fn store_wakes_a_registered_sleeper() {
        let f = Flag::new();
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || {
                f.wait_for(
                    1,
                    &w(Wait::Block, crate::sys::futex::sleep_deadline(), &NoPeers),
                )
                .unwrap()
            },
            || f.sleepers.load(Ordering::Relaxed) != NO_SLEEPERS,
            || f.store(1),
        );
        assert_eq!(wakes, 1);
        // Nobody sleeping: no wake syscall.
        let before = crate::sys::futex::wake_calls();
        f.store(2);
        assert_eq!(crate::sys::futex::wake_calls(), before);
    }

    /// Two threads bounce a counter through two flags; every value is checked.
    #[test]
    fn ping_pong_threads_every_strategy() {
        const ROUNDS: u32 = 2_000;
        for how in Wait::ALL {
            if how == Wait::Spin && std::thread::available_parallelism().map_or(1, |n| n.get()) < 2
            {
                eprintln!("SKIP: ping_pong_threads_every_strategy (Spin part): only one CPU");
                continue;
            }
            let flags = Arc::new((Flag::new(), Flag::new()));
            let f2 = flags.clone();
            let deadline = Some(Deadline::after(Duration::from_secs(30)));
            let t = std::thread::spawn(move || {
                for i in 1..=ROUNDS {
                    f2.0.wait_for(i, &w(how, deadline, &NoPeers)).unwrap();
                    f2.1.store(i);
                }
            });
            for i in 1..=ROUNDS {
                flags.0.store(i);
                assert_eq!(
                    flags.1.wait_change(i - 1, &w(how, deadline, &NoPeers)),
                    Ok(i),
                    "{how}"
                );
            }
            t.join().unwrap();
        }
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::sync::waiter::w;
    use crate::sync::{NoPeers, Wait};
    use crate::sys::Deadline;
    use loom::sync::Arc;
    use std::time::Duration;

    /// Publish vs. a blocking waiter: the waiter must wake (a lost wake-up is a loom deadlock)
    /// and see the data written before the publish.
    #[test]
    fn loom_flag_block_wakes_and_publishes_data() {
        loom::model(|| {
            let f = Arc::new((Flag::new(), AtomicU32::new(0)));
            let f2 = f.clone();
            let t = loom::thread::spawn(move || {
                f2.1.store(42, Ordering::Relaxed);
                f2.0.store(1);
            });
            assert_eq!(f.0.wait_change(0, &w(Wait::Block, None, &NoPeers)), Ok(1));
            assert_eq!(f.1.load(Ordering::Relaxed), 42);
            t.join().unwrap();
        });
    }

    /// Adaptive: a couple of spins, then the futex path; and with a zero budget, straight to it.
    #[test]
    fn loom_flag_adaptive_wait() {
        for budget in [Duration::from_micros(1), Duration::ZERO] {
            loom::model(move || {
                let f = Arc::new(Flag::new());
                let f2 = f.clone();
                let t = loom::thread::spawn(move || {
                    f2.increment();
                });
                let how = Wait::Adaptive {
                    spin_budget: budget,
                };
                assert_eq!(f.wait_for(1, &w(how, None, &NoPeers)), Ok(()));
                t.join().unwrap();
            });
        }
    }

    /// A sequence of two publishes: a waiter for the second value must not hang on the first.
    #[test]
    fn loom_flag_wait_for_second_value() {
        loom::model(|| {
            let f = Arc::new(Flag::new());
            let f2 = f.clone();
            let t = loom::thread::spawn(move || {
                f2.store(1);
                f2.store(2);
            });
            assert_eq!(f.wait_for(2, &w(Wait::Block, None, &NoPeers)), Ok(()));
            t.join().unwrap();
        });
    }
}
