//! [`LazyBell`]: how a queue side that found nothing to do sleeps without burning a CPU, and
//! how the other side wakes it — a futex word with a sleeper count, as [`crate::sync::Signal`]
//! does, but apart from the index it guards (one doorbell can serve many rings: the
//! per-producer MPSC's consumer sleeps on one bell that every producer rings), and **armed
//! lazily**, so that a stream whose waiters never sleep pays no fence per push.
//!
//! # Protocol
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `armed` | waiters ([`IDLE`] → [`ASKED`], back to `IDLE` after a single waiter's wait), ringers ([`ASKED`] → [`ARMED`]) | whether ringers must look for sleepers |
//! | `seq` (u32) | ringers, when a sleeper is registered | futex word: bumped (+1, wrapping) before every wake |
//! | `sleepers` (u32) | waiters about to sleep (+1) and after (−1) | 0: ringers skip the syscall |
//! | `hint` | ringers of an armed bell | [`CpuHint`] for adaptive waits |
//!
//! Ring (after the ringer's Release store of the index the waiter polls): load `armed`
//! (Relaxed); if `IDLE`, done: no fence, no other load (a stream whose consumer spins).
//! Otherwise: if `ASKED`, CAS it to `ARMED` (Release: the acknowledgement);
//! `fence(SeqCst)`; load `sleepers`; if not 0: `seq.fetch_add(1, Release)`,
//! `futex_wake_all(seq)`.
//!
//! Sleep: CAS `armed` `IDLE` → `ASKED`; `sleepers.fetch_add(1)`; `fence(SeqCst)`; read
//! `armed` (Acquire) and `seq` (Acquire); re-poll the condition; if still false,
//! `futex_wait(seq, s)`: for up to [`SLEEP_SLICE`](crate::sync::wait::SLEEP_SLICE) if
//! `armed` read `ARMED`, else for a short slice ([`UNACKED_SLICE`], doubling per sleep of
//! the same wait); then `sleepers − 1`. A single waiter's wait (the SPSC sides, a lane
//! consumer) stores `IDLE` when it ends; a bell with several waiters (the array queue's
//! producers) stays armed.
//!
//! # Why the short slices
//!
//! A ring whose Relaxed load of `armed` races with the waiter's `ASKED` may read `IDLE` and
//! skip the wake while the waiter's re-poll misses that ring's index store (the two stores
//! and two loads form the store-buffering pattern; only a fence on both sides forbids it, and
//! an idle ringer has none). The waiter sees such a ring at the end of its short slice. Once
//! it has read `ARMED`, every later ring fences (the ringer's own CAS, or by coherence its
//! later loads of `armed`, read `ARMED` until the waiter disarms), so the classic protocol
//! holds and the waiter may sleep long.
//!
//! # Several ringers
//!
//! The acknowledgement speaks for the ringer that made it: another ringer that never saw
//! `ARMED` may still read an old `IDLE` (nothing orders its load after the first ringer's
//! CAS) and skip the fence. So a bell rung by several parties (the consumer bell of the
//! multi-producer queues) is rung with [`LazyBell::ring_always`] (fence and sleeper check on
//! every ring) and waited on with [`LazyBell::wait_eager`] (no arming, long sleeps). A bell
//! with one ringer and several waiters arms as usual and never disarms (`wait_shared`; the
//! array queue's producers used it until that queue got several consumers as ringers).
//!
//! # Memory ordering
//!
//! - SYNC POINT D1: the `SeqCst` fence in `LazyBell::ring_armed_call` pairs with the `SeqCst`
//!   fence in `BellWait::prepare_sleep`: either the ringer sees the registration (and
//!   wakes), or the sleeper's re-poll sees the ringer's index store (and does not sleep).
//! - SYNC POINT D2: the ringer's Release CAS `ASKED` → `ARMED` pairs with the waiter's
//!   Acquire load of `armed`: index stores the ringer made before acknowledging are visible
//!   to a waiter that read `ARMED`.
//! - The Release bump of `seq` in `ring_slow` pairs with the Acquire load of `seq` in
//!   `prepare_sleep`: a sleeper that read the bumped value also sees the index; one that read
//!   the old value sleeps on it, and the bump (value changed) or the wake ends the sleep.
//! - The data itself is ordered by the index (Release store by the ringer, Acquire load in
//!   the waiter's poll); the doorbell orders nothing but the sleep.
//!
//! All-zero is a valid, idle doorbell with nobody asleep; `repr(C)`, pointer-free.

use std::time::Duration;

use crate::atomic::{fence, spin_hint, AtomicU32, Ordering};
use crate::sync::wait::{wait_on, CpuHint, Wait, WaitCondition};
use crate::sync::WaitError;
use crate::sync::{PeerWatch, Until};
use crate::sys::{futex, Deadline};

#[cfg(all(target_arch = "x86_64", not(loom)))]
mod keep_regs;

/// `armed`: nobody asked to sleep; ringers skip everything.
pub(crate) const IDLE: u32 = 0;
/// `armed`: a waiter asked to sleep; the next ring acknowledges.
pub(crate) const ASKED: u32 = 1;
/// `armed`: acknowledged; every ring fences and looks for sleepers.
pub(crate) const ARMED: u32 = 2;
/// The first sleep of a wait that has not seen `ARMED` lasts at most this long (module
/// docs, "Why the short slices"); each further one twice as long, up to the normal slice.
pub(crate) const UNACKED_SLICE: Duration = Duration::from_micros(200);
/// Polls a non-blocking wait makes inline before it enters the wait loop.
const INLINE_POLLS: u32 = if cfg!(loom) { 1 } else { 32 };

/// A lazily armed futex doorbell with a sleeper count (module docs).
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub(crate) struct LazyBell {
    armed: AtomicU32,
    seq: AtomicU32,
    sleepers: AtomicU32,
    hint: CpuHint,
}

// SAFETY: repr(C), only atomics (no pointers), every bit pattern valid, all-zero = idle with
// nobody asleep; the futex word is process-shared.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for LazyBell {}

impl LazyBell {
    /// Wakes the sleepers, if any; call after the Release store that made the waiters'
    /// condition true.
    #[inline]
    pub(crate) fn ring(&self) {
        // Relaxed: only decides whether to take the fenced path (module docs, "Why the
        // short slices").
        let armed = self.armed.load(Ordering::Relaxed);
        if armed != IDLE {
            self.ring_armed(armed);
        }
    }

    /// Wakes the sleepers, if any, with the full fence whatever the arming state: for a bell
    /// several parties ring (the MPSC queues' consumer bells), whose waiter cannot know that
    /// every ringer saw it arm (module docs, "Several ringers"). Its waiters use
    /// [`wait_eager`](Self::wait_eager).
    #[inline]
    pub(crate) fn ring_always(&self) {
        self.ring_armed(ARMED);
    }

    /// The out-of-line part of a ring, called so that the caller's registers survive it
    /// (`keep_regs`) where that is implemented.
    #[inline(always)]
    fn ring_armed(&self, armed: u32) {
        #[cfg(all(target_arch = "x86_64", not(loom)))]
        keep_regs::ring_armed(self, armed);
        #[cfg(not(all(target_arch = "x86_64", not(loom))))]
        self.ring_armed_call(armed);
    }

    // Cold: on a stream whose waiters spin it is never called, and a call the optimizer
    // thinks is common makes a caller's push/pop loop keep its positions in callee-saved
    // registers or on the stack across it (measured: the one-thread push/pop path).
    #[cold]
    #[inline(never)]
    fn ring_armed_call(&self, armed: u32) {
        // Only an armed bell keeps the CPU hint: it serves waiters that sleep, and costs a
        // `sched_getcpu` (vDSO) per ring.
        self.hint.note();
        if armed == ASKED {
            // Release: SYNC POINT D2, pairs with the Acquire load of `armed` in
            // `BellWait::prepare_sleep`. Relaxed on failure: someone else acknowledged.
            let _ = self
                .armed
                .compare_exchange(ASKED, ARMED, Ordering::Release, Ordering::Relaxed);
        }
        // SeqCst fence: SYNC POINT D1, pairs with the fence in `BellWait::prepare_sleep`.
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
    /// index with Acquire), the deadline passes or a peer dies. For a bell with one waiter
    /// at a time: the wait disarms the bell when it ends.
    #[inline]
    pub(crate) fn wait<R, F, P>(
        &self,
        poll: F,
        how: Wait,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<R, WaitError>
    where
        F: FnMut() -> Option<R>,
        P: PeerWatch + ?Sized,
    {
        self.wait_inner(poll, how, deadline, peers, Mode::Single)
    }

    /// [`wait`](Self::wait) for a bell several waiters may sleep on at once: it stays armed.
    // Unused since the array queue's space bell got several ringers (its consumers); kept
    // for a bell with one lazy ringer and several waiters (and its test).
    #[allow(dead_code)]
    #[inline]
    pub(crate) fn wait_shared<R, F, P>(
        &self,
        poll: F,
        how: Wait,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<R, WaitError>
    where
        F: FnMut() -> Option<R>,
        P: PeerWatch + ?Sized,
    {
        self.wait_inner(poll, how, deadline, peers, Mode::Shared)
    }

    /// [`wait`](Self::wait) for a bell whose ringers all use
    /// [`ring_always`](Self::ring_always): no arming, every sleep may be long.
    #[inline]
    pub(crate) fn wait_eager<R, F, P>(
        &self,
        poll: F,
        how: Wait,
        deadline: Option<Deadline>,
        peers: &P,
    ) -> Result<R, WaitError>
    where
        F: FnMut() -> Option<R>,
        P: PeerWatch + ?Sized,
    {
        self.wait_inner(poll, how, deadline, peers, Mode::Eager)
    }

    #[inline]
    fn wait_inner<R, F, P>(
        &self,
        mut poll: F,
        how: Wait,
        deadline: Option<Deadline>,
        peers: &P,
        mode: Mode,
    ) -> Result<R, WaitError>
    where
        F: FnMut() -> Option<R>,
        P: PeerWatch + ?Sized,
    {
        if let Some(v) = poll() {
            return Ok(v);
        }
        // A few polls before the wait loop (whose set-up reads the clock): in a stream the
        // other side usually answers within them. Not for `Block`, which sleeps at once.
        if how != Wait::Block {
            for _ in 0..INLINE_POLLS {
                spin_hint();
                if let Some(v) = poll() {
                    return Ok(v);
                }
            }
        }
        let mut cond = BellWait {
            bell: self,
            poll,
            eager: mode == Mode::Eager,
            asked: false,
            unacked: 0,
            bounded: false,
        };
        let r = wait_on(
            &mut cond,
            Until {
                wait: how,
                deadline,
            },
            peers,
            self.hint.get(),
        );
        if mode == Mode::Single && cond.asked {
            // Relaxed: the next sleep asks again and is bounded until acknowledged.
            self.armed.store(IDLE, Ordering::Relaxed);
        }
        r
    }

    /// Sleepers registered now (tests).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn sleepers(&self) -> u32 {
        self.sleepers.load(Ordering::Relaxed)
    }

    /// The arming state (tests).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn armed(&self) -> u32 {
        self.armed.load(Ordering::Relaxed)
    }
}

/// Who waits on and rings a bell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// One waiter at a time, one lazy ringer: arm, and disarm after the wait.
    Single,
    /// Several waiters, one lazy ringer: arm, never disarm.
    #[allow(dead_code)]
    Shared,
    /// Ringers that always fence: no arming.
    Eager,
}

struct BellWait<'a, F> {
    bell: &'a LazyBell,
    poll: F,
    /// The ringers always fence: no arming, long sleeps.
    eager: bool,
    /// This wait moved `armed` from IDLE (so a single waiter disarms when it ends).
    asked: bool,
    /// Sleeps of this wait that had not seen ARMED.
    unacked: u32,
    /// The coming sleep must be short (ARMED not seen).
    bounded: bool,
}

impl<R, F: FnMut() -> Option<R>> WaitCondition for &mut BellWait<'_, F> {
    type Output = R;

    #[inline]
    fn poll(&mut self) -> Option<R> {
        (self.poll)()
    }

    fn futex_word(&self) -> &AtomicU32 {
        &self.bell.seq
    }

    fn prepare_sleep(&mut self) -> Result<u32, R> {
        let bell = self.bell;
        // Relaxed: the request is read by ringers' Relaxed loads; a lost race is covered by
        // the short slices (module docs).
        if !self.eager
            && bell
                .armed
                .compare_exchange(IDLE, ASKED, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.asked = true;
        }
        bell.sleepers.fetch_add(1, Ordering::Relaxed);
        // SeqCst fence: SYNC POINT D1, pairs with the fence in `LazyBell::ring_armed_call`.
        fence(Ordering::SeqCst);
        // Acquire: SYNC POINT D2, pairs with the Release CAS in `LazyBell::ring_armed_call`.
        self.bounded = !self.eager && bell.armed.load(Ordering::Acquire) != ARMED;
        // Acquire: pairs with the Release bump in `LazyBell::ring_slow`.
        let seq = bell.seq.load(Ordering::Acquire);
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

    fn max_sleep(&mut self) -> Option<Duration> {
        if !self.bounded {
            return None;
        }
        let slice = UNACKED_SLICE * (1u32 << self.unacked.min(8));
        self.unacked += 1;
        Some(slice)
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
        assert_eq!(std::mem::size_of::<LazyBell>(), 128);
        assert_eq!(std::mem::align_of::<LazyBell>(), 128);
        // SAFETY: all-zero is a valid doorbell (see the ShmSafe impl).
        let b: LazyBell = unsafe { std::mem::zeroed() };
        assert_eq!(b.sleepers(), 0);
    }

    /// A sleeper is woken by the ring itself (one wake call), and a ring with nobody asleep
    /// makes no syscall.
    #[test]
    fn ring_wakes_a_sleeper_and_skips_the_syscall_otherwise() {
        let b = LazyBell::default();
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
                b.ring();
            },
        );
        assert_eq!(wakes, 1);
        assert_eq!(
            b.armed(),
            IDLE,
            "a single waiter disarms when its wait ends"
        );
        let before = crate::sys::futex::wake_calls();
        b.ring();
        assert_eq!(crate::sys::futex::wake_calls(), before, "nobody sleeps");
    }

    /// The arming states: a ring acknowledges a request; a shared wait leaves the bell
    /// armed; an idle bell's ring touches nothing.
    #[test]
    fn arming_states() {
        let b = LazyBell::default();
        b.ring();
        assert_eq!(b.armed(), IDLE);
        let d = Some(Deadline::after(Duration::from_millis(1)));
        assert_eq!(
            b.wait_shared(|| None::<()>, Wait::Block, d, &NoPeers),
            Err(WaitError::Timeout)
        );
        assert_eq!(b.armed(), ASKED, "asked, nobody rang yet");
        b.ring();
        assert_eq!(b.armed(), ARMED, "the ring acknowledged");
        let d = Some(Deadline::after(Duration::from_millis(1)));
        assert_eq!(
            b.wait(|| None::<()>, Wait::Block, d, &NoPeers),
            Err(WaitError::Timeout)
        );
        assert_eq!(b.armed(), ARMED, "a wait that did not ask does not disarm");
    }

    #[test]
    fn deadline_ends_every_strategy() {
        let b = LazyBell::default();
        for how in Wait::ALL {
            let d = Some(Deadline::after(Duration::from_millis(2)));
            let r = b.wait(|| None::<()>, how, d, &NoPeers);
            assert_eq!(r, Err(WaitError::Timeout), "{how}");
        }
        assert_eq!(b.sleepers(), 0);
    }
}
