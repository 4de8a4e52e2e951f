//! [`Doorbell`]: how a queue side that found nothing to do sleeps without burning a CPU, and
//! how the other side wakes it — a futex word with a sleeper count, as [`crate::sync::Signal`]
//! does, but apart from the index it guards, so one doorbell can serve many rings (the
//! per-producer MPSC's consumer sleeps on one bell that every producer rings).
//!
//! # Protocol
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `seq` (u32) | ringers, when a sleeper is registered | futex word: bumped (+1, wrapping) before every wake |
//! | `sleepers` (u32) | waiters about to sleep (+1) and after (−1) | 0: ringers skip the syscall |
//! | `hint` | ringers, every [`HINT_EVERY`]th ring | [`CpuHint`] for adaptive waits |
//!
//! Ring (after the ringer's Release store of the index the waiter polls): `fence(SeqCst)`,
//! load `sleepers`; if not 0: `seq.fetch_add(1, Release)`, `futex_wake_all(seq)`.
//!
//! Sleep: `sleepers.fetch_add(1)`, `fence(SeqCst)`, `s = seq.load(Acquire)`, re-poll the
//! condition; if still false, `futex_wait(seq, s)`; then `sleepers − 1`.
//!
//! # Memory ordering
//!
//! - SYNC POINT: the `SeqCst` fence in [`Doorbell::ring`] pairs with the `SeqCst` fence in
//!   `BellWait::prepare_sleep`: either the ringer sees the registration (and wakes), or the
//!   sleeper's re-poll sees the ringer's index store (and does not sleep).
//! - The Release bump of `seq` in `ring_slow` pairs with the Acquire load of `seq` in
//!   `prepare_sleep`: a sleeper that read the bumped value also sees the index; one that read
//!   the old value sleeps on it and the bump (value changed) or the wake ends the sleep.
//! - The data itself is ordered by the index (Release store by the ringer, Acquire load in
//!   the waiter's poll); the doorbell orders nothing but the sleep.
//!
//! All-zero is a valid doorbell with nobody asleep; `repr(C)`, pointer-free.

use crate::atomic::{fence, AtomicU32, Ordering};
use crate::peers::PeerWatch;
use crate::sync::wait::{wait_on, CpuHint, Wait, WaitCondition};
use crate::sys::{futex, Deadline};
use crate::WaitError;

/// A ringer records its CPU in the hint every this many rings (`sched_getcpu` is ~1.5 ns;
/// the hint is a heuristic that only needs to be roughly current).
pub(crate) const HINT_EVERY: u32 = 64;

/// A futex doorbell with a sleeper count (module docs).
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub(crate) struct Doorbell {
    seq: AtomicU32,
    sleepers: AtomicU32,
    hint: CpuHint,
}

// SAFETY: repr(C), only atomics (no pointers), every bit pattern valid, all-zero = nobody
// asleep; the futex word is process-shared.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Doorbell {}

impl Doorbell {
    /// Wakes the sleepers, if any; call after the Release store that made the waiters'
    /// condition true. `count` is the caller's running count of rings (for the CPU hint).
    #[inline]
    pub(crate) fn ring(&self, count: u64) {
        if count.is_multiple_of(u64::from(HINT_EVERY)) {
            self.hint.note();
        }
        // SeqCst fence: SYNC POINT, pairs with the fence in `BellWait::prepare_sleep`.
        fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::Relaxed) != 0 {
            self.ring_slow();
        }
    }

    #[cold]
    #[inline(never)]
    fn ring_slow(&self) {
        self.hint.note();
        // Release: pairs with the Acquire load of `seq` in `BellWait::prepare_sleep`.
        self.seq.fetch_add(1, Ordering::Release);
        futex::wake_all(&self.seq);
    }

    /// Waits with `how` until `poll` returns `Some` (polled first; `poll` must load the
    /// index with Acquire), the deadline passes or a peer dies.
    #[inline]
    pub(crate) fn wait<R, F, P>(
        &self,
        mut poll: F,
        how: Wait,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<R, WaitError>
    where
        F: FnMut() -> Option<R>,
        P: PeerWatch + ?Sized,
    {
        if let Some(v) = poll() {
            return Ok(v);
        }
        let cond = BellWait { bell: self, poll };
        wait_on(cond, how, deadline, peers, self.hint.get())
    }

    /// Sleepers registered now (tests).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn sleepers(&self) -> u32 {
        self.sleepers.load(Ordering::Relaxed)
    }
}

struct BellWait<'a, F> {
    bell: &'a Doorbell,
    poll: F,
}

impl<R, F: FnMut() -> Option<R>> WaitCondition for BellWait<'_, F> {
    type Output = R;

    #[inline]
    fn poll(&mut self) -> Option<R> {
        (self.poll)()
    }

    fn futex_word(&self) -> &AtomicU32 {
        &self.bell.seq
    }

    fn prepare_sleep(&mut self) -> Result<u32, R> {
        self.bell.sleepers.fetch_add(1, Ordering::Relaxed);
        // SeqCst fence: SYNC POINT, pairs with the fence in `Doorbell::ring`.
        fence(Ordering::SeqCst);
        // Acquire: pairs with the Release bump in `Doorbell::ring_slow`.
        let seq = self.bell.seq.load(Ordering::Acquire);
        match (self.poll)() {
            Some(v) => {
                self.finish_sleep();
                Err(v)
            }
            None => Ok(seq),
        }
    }

    fn finish_sleep(&mut self) {
        self.bell.sleepers.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::atomic::AtomicU64;
    use crate::sync::NoPeers;
    use std::time::Duration;

    #[test]
    fn layout_and_zero_init() {
        assert_eq!(std::mem::size_of::<Doorbell>(), 128);
        assert_eq!(std::mem::align_of::<Doorbell>(), 128);
        // SAFETY: all-zero is a valid doorbell (see the ShmSafe impl).
        let b: Doorbell = unsafe { std::mem::zeroed() };
        assert_eq!(b.sleepers(), 0);
    }

    /// A sleeper is woken by the ring itself (one wake call), and a ring with nobody asleep
    /// makes no syscall.
    #[test]
    fn ring_wakes_a_sleeper_and_skips_the_syscall_otherwise() {
        let b = Doorbell::default();
        let word = AtomicU64::new(0);
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || {
                b.wait(
                    || (word.load(Ordering::Acquire) == 1).then_some(()),
                    Wait::Block,
                    crate::sys::futex::sleep_deadline(),
                    &NoPeers,
                )
                .unwrap();
            },
            || b.sleepers() != 0,
            || {
                word.store(1, Ordering::Release);
                b.ring(1);
            },
        );
        assert_eq!(wakes, 1);
        let before = crate::sys::futex::wake_calls();
        b.ring(2);
        assert_eq!(crate::sys::futex::wake_calls(), before, "nobody sleeps");
    }

    #[test]
    fn deadline_ends_every_strategy() {
        let b = Doorbell::default();
        for how in Wait::ALL {
            let d = Some(Deadline::after(Duration::from_millis(2)));
            let r = b.wait(|| None::<()>, how, d, &NoPeers);
            assert_eq!(r, Err(WaitError::Timeout), "{how}");
        }
        assert_eq!(b.sleepers(), 0);
    }
}
