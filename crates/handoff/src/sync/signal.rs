//! [`Signal`]: a 64-bit counter that waiters wait on until it reaches a value — the
//! completion counter of a counting put (write data, then `add` to the signal).
//!
//! # Protocol
//!
//! Futexes are 32-bit, so the 64-bit counter is paired with a [`Doorbell`] (a futex word and
//! a sleeper count that only sleepers and wakers touch). State words (one 128-byte block):
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `count` (u64) | [`add`](Signal::add), [`set`](Signal::set) | the counter |
//! | `bell` ([`Doorbell`]) | waiters about to sleep, and publishers when one is registered | wakes sleepers; see [`super::doorbell`] |
//! | `publisher` | adders (Relaxed) | [`CpuHint`] for adaptive waits |
//!
//! Publish (`add`/`set`): write `count` (Release), then [`Doorbell::ring`]. Wait: poll `count`
//! (Acquire), sleeping on the doorbell ([`Doorbell::wait`]).
//!
//! # Memory ordering
//!
//! - The Release RMW/store of `count` in `add`/`set` pairs with the Acquire loads of `count`
//!   in [`load`](Signal::load) and the waits: data written before `add` is visible to a waiter
//!   that sees the count.
//! - The doorbell's own pairing (its module docs) makes sure a sleeper that registered before
//!   the publish is woken, and one that registered after it sees the new count.
//!
//! All-zero is a valid signal at 0; `repr(C)`, pointer-free: it may live in a segment.

use crate::atomic::{AtomicU64, Ordering};
use crate::sync::doorbell::Doorbell;
use crate::sync::wait::Call;
use crate::sync::wait::CpuHint;
use crate::sync::WaitError;
use crate::sync::{NoPeers, PeerWatch, Until, Waiter};
use std::time::Duration;

/// A 64-bit counter with release `add`/`set` and acquire waits until it reaches a value.
///
/// ```
/// use handoff::sync::{Signal, Patience, Wait, Waiter};
/// let s = Signal::new();
/// s.add(3);
/// assert_eq!(s.wait_until(2, &Waiter::new(Patience::new(Wait::Block))), Ok(3));
/// ```
#[repr(C, align(128))]
#[derive(Debug)]
pub struct Signal {
    count: AtomicU64,
    bell: Doorbell,
    publisher: CpuHint,
}

// SAFETY: `Signal` is `repr(C)`, holds only atomics (no pointers), every bit pattern is a
// valid state, and all-zero is a signal at 0 with no sleepers; its futex word is
// process-shared. It may be placed in a shared segment and used from several processes.
// Not under loom: loom's atomics are handles into the model, not plain memory.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Signal {}

impl Signal {
    /// A signal at 0.
    pub fn new() -> Self {
        Self::with_value(0)
    }

    /// A signal at `value`.
    pub fn with_value(value: u64) -> Self {
        Signal {
            count: AtomicU64::new(value),
            bell: Doorbell::new(),
            publisher: CpuHint::new(),
        }
    }

    /// The current count.
    #[inline]
    pub fn load(&self) -> u64 {
        // Acquire: pairs with the Release RMW/store in `add`/`set`.
        self.count.load(Ordering::Acquire)
    }

    /// Adds `n` (wrapping modulo 2^64), publishes it (Release) and wakes sleepers, if any.
    /// Returns the new count.
    #[inline]
    pub fn add(&self, n: u64) -> u64 {
        self.publisher.note();
        // Release: pairs with the Acquire loads in `load` and the waits.
        let new = self.count.fetch_add(n, Ordering::Release).wrapping_add(n);
        self.bell.ring();
        new
    }

    /// Sets the count to `value` (Release) and wakes sleepers, if any.
    #[inline]
    pub fn set(&self, value: u64) {
        self.publisher.note();
        // Release: pairs with the Acquire loads in `load` and the waits.
        self.count.store(value, Ordering::Release);
        self.bell.ring();
    }

    /// Sets the count to `value` as its owner, the one that waits on it (a receiver
    /// resetting the count it waits on: `shmem_ct_set`): as [`set`](Self::set), but the
    /// last publisher's CPU stays what it was. A reset is not a publication: recording the
    /// owner's own CPU told its next adaptive wait that the peer shares its CPU, so it
    /// yielded instead of polling (a counting put's hand-off 7.6× a spinning one, issue #23).
    #[inline]
    pub fn reset(&self, value: u64) {
        // Release: pairs with the Acquire loads in `load` and the waits.
        self.count.store(value, Ordering::Release);
        self.bell.ring();
    }

    /// Waits (with `waiter`'s patience) until the count is at least `target`; returns the
    /// count seen.
    #[inline]
    pub fn wait_until<P: PeerWatch + ?Sized>(
        &self,
        target: u64,
        waiter: &Waiter<'_, P>,
    ) -> Result<u64, WaitError> {
        self.until_with(target, Call::Patient(waiter.patience()), waiter.peers())
    }

    /// [`wait_until`](Self::wait_until), waiting at most `timeout`.
    #[inline]
    pub fn wait_until_timeout<P: PeerWatch + ?Sized>(
        &self,
        target: u64,
        timeout: Duration,
        waiter: &Waiter<'_, P>,
    ) -> Result<u64, WaitError> {
        self.until_with(
            target,
            Call::Timeout(waiter.patience(), timeout),
            waiter.peers(),
        )
    }

    /// The count if it is at least `target` now; [`WaitError::Timeout`] otherwise.
    #[inline]
    pub fn try_wait_until(&self, target: u64) -> Result<u64, WaitError> {
        self.until_with(target, Call::Try, &NoPeers)
    }

    #[inline]
    fn until_with<P: PeerWatch + ?Sized>(
        &self,
        target: u64,
        call: Call,
        peers: &P,
    ) -> Result<u64, WaitError> {
        let v = self.load();
        if v >= target {
            return Ok(v);
        }
        let Some(Until {
            wait: how,
            deadline,
        }) = call.until()
        else {
            return Err(WaitError::Timeout);
        };
        self.bell.wait(
            || {
                let v = self.load();
                (v >= target).then_some(v)
            },
            Until {
                wait: how,
                deadline,
            },
            peers,
            self.publisher.get(),
        )
    }
}

impl Signal {
    /// [`wait_until`](Self::wait_until) for one call's fixed [`Until`] (a wait that is part of
    /// a larger call), with the adaptive wait's CPU hint chosen by `hint`
    /// from the last publisher's CPU: a team with more processes than CPUs passes its own CPU,
    /// so the wait yields to the processes sharing it instead of sleeping.
    pub fn wait_until_hinted<P: PeerWatch + ?Sized>(
        &self,
        target: u64,
        until: Until,
        peers: &P,
        hint: impl FnOnce(Option<u32>) -> Option<u32>,
    ) -> Result<u64, WaitError> {
        let v = self.load();
        if v >= target {
            return Ok(v);
        }
        self.bell.wait(
            || {
                let v = self.load();
                (v >= target).then_some(v)
            },
            until,
            peers,
            hint(self.publisher.get()),
        )
    }
}

impl Default for Signal {
    fn default() -> Self {
        Signal::new()
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

    /// A blocked waiter is woken by `add` itself (a skipped wake would leave it to its 50 ms
    /// sleep slice; the wake count shows the skip at once).
    #[test]
    fn add_wakes_a_registered_sleeper() {
        let s = Signal::new();
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || {
                s.wait_until(
                    1,
                    &w(Wait::Block, crate::sys::futex::sleep_deadline(), &NoPeers),
                )
                .unwrap();
            },
            || s.bell.has_sleepers(),
            || {
                s.add(1);
            },
        );
        assert_eq!(wakes, 1);
        let before = crate::sys::futex::wake_calls();
        s.add(1);
        assert_eq!(
            crate::sys::futex::wake_calls(),
            before,
            "nobody sleeps: no wake"
        );
    }

    #[test]
    fn layout_and_zero_init() {
        assert_eq!(std::mem::size_of::<Signal>(), 128);
        assert_eq!(std::mem::align_of::<Signal>(), 128);
        // SAFETY: all-zero is a valid `Signal` (see the `ShmSafe` impl).
        let s: Signal = unsafe { std::mem::zeroed() };
        assert_eq!(s.load(), 0);
        assert!(!s.bell.has_sleepers());
    }

    /// A reset by the owner keeps the last publisher's CPU and records none of its own;
    /// `set` and `add` record theirs (what another thread's waits then read).
    #[test]
    fn reset_keeps_the_publisher_set_and_add_record_theirs() {
        let elsewhere =
            |s: &Signal| std::thread::scope(|t| t.spawn(|| s.publisher.get()).join().unwrap());
        let s = Signal::new();
        s.reset(4);
        assert_eq!(s.load(), 4);
        assert_eq!(elsewhere(&s), None, "a reset is not a publication");
        std::thread::scope(|t| t.spawn(|| s.add(1)).join().unwrap());
        let adder = s.publisher.get();
        assert!(adder.is_some(), "another thread's add");
        s.reset(0);
        assert_eq!(s.publisher.get(), adder, "the adder's CPU stays");
        assert_eq!(s.wait_until(0, &w(Wait::Block, None, &NoPeers)), Ok(0));
        let fresh = Signal::new();
        fresh.set(7);
        assert!(elsewhere(&fresh).is_some(), "a set is a publication");
        let added = Signal::new();
        added.add(1);
        assert!(elsewhere(&added).is_some(), "an add is a publication");
    }

    #[test]
    fn add_set_and_wrap() {
        let s = Signal::with_value(u64::MAX);
        assert_eq!(s.add(2), 1);
        s.set(1 << 40);
        assert_eq!(s.load(), 1 << 40);
        assert_eq!(
            s.wait_until(5, &w(Wait::Block, None, &NoPeers)),
            Ok(1 << 40)
        );
        assert_eq!(s.wait_until(0, &w(Wait::Spin, None, &NoPeers)), Ok(1 << 40));
    }

    #[test]
    fn deadlines_expire_in_every_strategy() {
        let s = Signal::new();
        for how in Wait::ALL {
            let d = Some(Deadline::after(Duration::from_millis(3)));
            assert_eq!(
                s.wait_until(1, &w(how, d, &NoPeers)),
                Err(WaitError::Timeout),
                "{how}"
            );
        }
        assert!(!s.bell.has_sleepers());
    }

    /// A producer adds 1 per item after writing it; the consumer waits for each count in turn.
    #[test]
    fn counting_put_between_threads() {
        const N: u64 = 5_000;
        for how in [Wait::SpinYield, Wait::Block, Wait::ADAPTIVE] {
            let shared = Arc::new((
                Signal::new(),
                (0..N).map(|_| AtomicU64::new(0)).collect::<Vec<_>>(),
            ));
            let s2 = shared.clone();
            let t = std::thread::spawn(move || {
                for i in 0..N {
                    s2.1[i as usize].store(i * 3 + 1, Ordering::Relaxed);
                    s2.0.add(1);
                }
            });
            let d = Some(Deadline::after(Duration::from_secs(30)));
            for i in 0..N {
                let seen = shared.0.wait_until(i + 1, &w(how, d, &NoPeers)).unwrap();
                assert!(seen > i);
                assert_eq!(
                    shared.1[i as usize].load(Ordering::Relaxed),
                    i * 3 + 1,
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
    use crate::atomic::AtomicU32;
    use crate::sync::waiter::w;
    use crate::sync::NoPeers;
    use crate::sync::Wait;
    use loom::sync::Arc;

    /// A counting put: data then `add`; the blocked waiter wakes and sees the data.
    #[test]
    fn loom_signal_add_wakes_blocked_waiter() {
        loom::model(|| {
            let s = Arc::new((Signal::new(), AtomicU32::new(0)));
            let s2 = s.clone();
            let t = loom::thread::spawn(move || {
                s2.1.store(7, Ordering::Relaxed);
                s2.0.add(1);
            });
            assert_eq!(s.0.wait_until(1, &w(Wait::Block, None, &NoPeers)), Ok(1));
            assert_eq!(s.1.load(Ordering::Relaxed), 7);
            t.join().unwrap();
        });
    }

    /// Two adds; the waiter wants both (it may sleep after seeing the first).
    #[test]
    fn loom_signal_two_adds() {
        loom::model(|| {
            let s = Arc::new(Signal::new());
            let s2 = s.clone();
            let t = loom::thread::spawn(move || {
                s2.add(1);
                s2.set(2);
            });
            assert_eq!(s.wait_until(2, &w(Wait::Block, None, &NoPeers)), Ok(2));
            t.join().unwrap();
        });
    }
}
