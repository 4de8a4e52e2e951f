//! [`Semaphore`]: a counting semaphore on a futex, between threads or processes.
//!
//! # Protocol
//!
//! State words (one 128-byte block):
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `count` (u32) | [`post`](Semaphore::post) (+1), acquirers (−1) | available permits; also the futex word |
//! | `sleepers` (u32) | waiters about to sleep (+1) and after (−1) | [`NO_SLEEPERS`] = 0: `post` skips the wake syscall |
//! | `poster` | posters (Relaxed) | [`CpuHint`] for adaptive waits |
//!
//! | `count` | meaning | `try_wait` | `wait` |
//! |---|---|---|---|
//! | 0 | no permit | `false` | sleeps on `count == 0` (or spins) |
//! | n > 0 | n permits | takes one (CAS n → n−1) | takes one |
//! | `u32::MAX` | full | takes one | takes one; `post` refuses to overflow |
//!
//! Post: CAS `count` → `count + 1` (Release), `fence(SeqCst)`, load `sleepers`; if it is not
//! [`NO_SLEEPERS`], `futex_wake(count, 1)`. Waking one is enough: the sleeper count is exact,
//! a futex wake dequeues the waiter it wakes (so two posts wake two different sleepers), and
//! a woken waiter always tries to take a permit before it may leave with a timeout or an
//! error, so a wake is never consumed without the permit being taken by someone.
//!
//! Sleep: `sleepers + 1`, `fence(SeqCst)`, try to take a permit; if there is none,
//! `futex_wait(count, 0)`; then `sleepers − 1`.
//!
//! # Memory ordering
//!
//! - The Release CAS in `post` pairs with the Acquire CAS that takes the permit
//!   ([`try_wait`](Semaphore::try_wait), the waits): what the poster wrote before posting is
//!   visible to whoever takes that permit.
//! - The `SeqCst` fence in `post` pairs with the `SeqCst` fence in the sleeper's
//!   registration: either the poster sees the registration and wakes, or the sleeper's
//!   re-check sees the permit.
//!
//! All-zero is a valid semaphore with no permits; `repr(C)`, pointer-free: it may live in a
//! segment.

use crate::atomic::{fence, AtomicU32, Ordering};
use crate::sync::wait::Call;
use crate::sync::wait::{wait_on, CpuHint, WaitCondition};
use crate::sync::WaitError;
use crate::sync::{NoPeers, PeerWatch, Waiter};
use crate::sys::futex;
use crate::sys::Error as SysError;
use std::time::Duration;

/// The `sleepers` value meaning that nobody may be sleeping: `post` skips the syscall.
pub const NO_SLEEPERS: u32 = 0;
/// The most permits a semaphore holds.
pub const MAX_PERMITS: u32 = u32::MAX;

/// A counting semaphore that works between threads and between processes.
///
/// ```
/// use handoff::sync::{Semaphore, Patience, Wait, WaitError, Waiter};
/// let s = Semaphore::new(1);
/// assert_eq!(s.try_wait(), Ok(()));
/// assert_eq!(s.try_wait(), Err(WaitError::Timeout));
/// s.post().unwrap();
/// assert_eq!(s.wait(&Waiter::new(Patience::new(Wait::Block))), Ok(()));
/// ```
#[repr(C, align(128))]
#[derive(Debug)]
pub struct Semaphore {
    count: AtomicU32,
    sleepers: AtomicU32,
    poster: CpuHint,
}

// SAFETY: `Semaphore` is `repr(C)`, holds only atomics (no pointers), every bit pattern is a
// valid state, and all-zero is a semaphore with no permits and no sleepers; its futex is
// process-shared. It may be placed in a shared segment and used from several processes.
// Not under loom: loom's atomics are handles into the model, not plain memory.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Semaphore {}

impl Semaphore {
    /// A semaphore holding `permits` permits.
    pub fn new(permits: u32) -> Self {
        Semaphore {
            count: AtomicU32::new(permits),
            sleepers: AtomicU32::new(NO_SLEEPERS),
            poster: CpuHint::new(),
        }
    }

    /// The permits available right now (a snapshot).
    pub fn value(&self) -> u32 {
        self.count.load(Ordering::Relaxed)
    }

    /// Adds a permit (Release) and wakes one sleeper, if any.
    ///
    /// Fails with [`SysError::InvalidArgument`] when the semaphore already holds
    /// `u32::MAX` permits: more posts than waits by four billion is a bug in the caller.
    #[inline]
    pub fn post(&self) -> Result<(), SysError> {
        self.poster.note();
        // Release: pairs with the Acquire CAS in `try_take`.
        let posted = self
            .count
            .fetch_update(Ordering::Release, Ordering::Relaxed, |c| c.checked_add(1));
        if posted.is_err() {
            return Err(overflow());
        }
        // SeqCst fence: pairs with the fence in `SemWait::prepare_sleep`.
        fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::Relaxed) != NO_SLEEPERS {
            self.wake_slow();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn wake_slow(&self) {
        futex::wake(&self.count, 1);
    }

    /// Takes a permit if one is available now; [`WaitError::Timeout`] otherwise.
    #[inline]
    pub fn try_wait(&self) -> Result<(), WaitError> {
        self.wait_with(Call::Try, &NoPeers)
    }

    #[inline]
    fn try_take(&self) -> bool {
        let mut c = self.count.load(Ordering::Relaxed);
        while c != 0 {
            // Acquire: pairs with the Release CAS in `post`.
            match self
                .count
                .compare_exchange_weak(c, c - 1, Ordering::Acquire, Ordering::Relaxed)
            {
                Ok(_) => return true,
                Err(now) => c = now,
            }
        }
        false
    }

    /// Takes a permit, waiting for one with `waiter`'s patience.
    #[inline]
    pub fn wait<P: PeerWatch + ?Sized>(&self, waiter: &Waiter<'_, P>) -> Result<(), WaitError> {
        self.wait_with(Call::Patient(waiter.patience()), waiter.peers())
    }

    /// [`wait`](Self::wait), waiting at most `timeout`.
    #[inline]
    pub fn wait_timeout<P: PeerWatch + ?Sized>(
        &self,
        timeout: Duration,
        waiter: &Waiter<'_, P>,
    ) -> Result<(), WaitError> {
        self.wait_with(Call::Timeout(waiter.patience(), timeout), waiter.peers())
    }

    #[inline]
    fn wait_with<P: PeerWatch + ?Sized>(&self, call: Call, peers: &P) -> Result<(), WaitError> {
        if self.try_take() {
            return Ok(());
        }
        let Some(until) = call.until() else {
            return Err(WaitError::Timeout);
        };
        wait_on(SemWait { sem: self }, until, peers, self.poster.get())
    }
}

#[cold]
fn overflow() -> SysError {
    SysError::InvalidArgument(format!(
        "semaphore post would exceed {MAX_PERMITS} permits: more posts than waits (a missing wait?)"
    ))
}

impl Default for Semaphore {
    fn default() -> Self {
        Semaphore::new(0)
    }
}

struct SemWait<'a> {
    sem: &'a Semaphore,
}

impl WaitCondition for SemWait<'_> {
    type Output = ();

    #[inline]
    fn poll(&mut self) -> Option<()> {
        self.sem.try_take().then_some(())
    }

    fn futex_word(&self) -> &AtomicU32 {
        &self.sem.count
    }

    fn prepare_sleep(&mut self) -> Result<u32, ()> {
        self.sem.sleepers.fetch_add(1, Ordering::Relaxed);
        // SeqCst fence: pairs with the fence in `Semaphore::post`.
        fence(Ordering::SeqCst);
        if self.sem.try_take() {
            self.finish_sleep();
            Err(())
        } else {
            Ok(0)
        }
    }

    fn finish_sleep(&mut self) {
        self.sem.sleepers.fetch_sub(1, Ordering::Relaxed);
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

    /// A blocked waiter is woken by `post` itself (a skipped wake would leave it to its 50 ms
    /// sleep slice; the wake count shows the skip at once).
    #[test]
    fn post_wakes_a_registered_sleeper() {
        let s = Semaphore::new(0);
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || {
                s.wait(&w(
                    Wait::Block,
                    crate::sys::futex::sleep_deadline(),
                    &NoPeers,
                ))
                .unwrap()
            },
            || s.sleepers.load(Ordering::Relaxed) != NO_SLEEPERS,
            || s.post().unwrap(),
        );
        assert_eq!(wakes, 1);
        let before = crate::sys::futex::wake_calls();
        s.post().unwrap();
        assert_eq!(
            crate::sys::futex::wake_calls(),
            before,
            "nobody sleeps: no wake"
        );
    }

    #[test]
    fn layout_and_zero_init() {
        assert_eq!(std::mem::size_of::<Semaphore>(), 128);
        assert_eq!(std::mem::align_of::<Semaphore>(), 128);
        // SAFETY: all-zero is a valid `Semaphore` (see the `ShmSafe` impl).
        let s: Semaphore = unsafe { std::mem::zeroed() };
        assert_eq!(s.value(), 0);
        assert_eq!(s.try_wait(), Err(WaitError::Timeout));
    }

    #[test]
    fn overflow_is_refused() {
        let s = Semaphore::new(MAX_PERMITS);
        assert!(matches!(s.post(), Err(SysError::InvalidArgument(_))));
        assert_eq!(s.value(), MAX_PERMITS);
        assert_eq!(s.try_wait(), Ok(()));
        s.post().unwrap();
    }

    #[test]
    fn deadlines_expire_in_every_strategy() {
        let s = Semaphore::new(0);
        for how in Wait::ALL {
            let d = Some(Deadline::after(Duration::from_millis(3)));
            assert_eq!(
                s.wait(&w(how, d, &NoPeers)),
                Err(WaitError::Timeout),
                "{how}"
            );
        }
        assert_eq!(s.sleepers.load(Ordering::Relaxed), NO_SLEEPERS);
    }

    /// Several threads contend for permits; every post is taken exactly once.
    #[test]
    fn permits_are_conserved() {
        const PER_THREAD: u32 = 2_000;
        for how in [Wait::SpinYield, Wait::Block, Wait::ADAPTIVE] {
            let s = Arc::new(Semaphore::new(0));
            let d = Some(Deadline::after(Duration::from_secs(30)));
            let takers: Vec<_> = (0..3)
                .map(|_| {
                    let s = s.clone();
                    std::thread::spawn(move || {
                        for _ in 0..PER_THREAD {
                            s.wait(&w(how, d, &NoPeers)).unwrap();
                        }
                    })
                })
                .collect();
            for _ in 0..3 * PER_THREAD {
                s.post().unwrap();
            }
            for t in takers {
                t.join().unwrap();
            }
            assert_eq!(s.value(), 0, "{how}");
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

    /// Post vs. a blocking waiter: woken, takes the permit, sees the data.
    #[test]
    fn loom_semaphore_post_wakes_waiter() {
        loom::model(|| {
            let s = Arc::new((Semaphore::new(0), AtomicU32::new(0)));
            let s2 = s.clone();
            let t = loom::thread::spawn(move || {
                s2.1.store(9, Ordering::Relaxed);
                s2.0.post().unwrap();
            });
            assert_eq!(s.0.wait(&w(Wait::Block, None, &NoPeers)), Ok(()));
            assert_eq!(s.1.load(Ordering::Relaxed), 9);
            assert_eq!(s.0.value(), 0);
            t.join().unwrap();
        });
    }

    /// Two waiters that may sleep at the same time, two posts from a third thread: each post
    /// wakes one sleeper (`futex_wake(1)`), and nobody is left asleep.
    #[test]
    fn loom_semaphore_two_waiters_two_posts() {
        loom::model(|| {
            let s = Arc::new(Semaphore::new(0));
            let waiters: Vec<_> = (0..2)
                .map(|_| {
                    let s2 = s.clone();
                    loom::thread::spawn(move || s2.wait(&w(Wait::Block, None, &NoPeers)).unwrap())
                })
                .collect();
            s.post().unwrap();
            s.post().unwrap();
            for t in waiters {
                t.join().unwrap();
            }
            assert_eq!(s.value(), 0);
        });
    }
}
