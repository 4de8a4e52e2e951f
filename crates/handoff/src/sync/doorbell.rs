//! [`Doorbell`]: the sleeper half of a futex protocol, for words that live elsewhere.
//!
//! A waiter that waits on words it does not own the futex of (a [`Signal`](super::Signal)'s
//! 64-bit count, or a team PE's signal words in its symmetric heap, any number of them) sleeps
//! on a doorbell instead; whoever changes those words rings the doorbell afterwards.
//!
//! # Protocol
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `wake_seq` (u32) | ringers, when a sleeper is registered | futex word: bumped (+1, wrapping) before every wake |
//! | `sleepers` (u32) | waiters about to sleep (+1) and after (−1) | [`NO_SLEEPERS`] = 0: ringers skip the syscall |
//!
//! Ring (after publishing a word with a Release store or RMW): `fence(SeqCst)`, load
//! `sleepers`; if not [`NO_SLEEPERS`]: `wake_seq.fetch_add(1, Release)`, then
//! `futex_wake_all(wake_seq)`.
//!
//! Sleep: `sleepers.fetch_add(1)`, `fence(SeqCst)`, `seq = wake_seq.load(Acquire)`, re-poll the
//! words; if the condition is still false, `futex_wait(wake_seq, seq)`; then `sleepers - 1`.
//!
//! # Memory ordering
//!
//! - The `SeqCst` fence in [`Doorbell::ring`] pairs with the `SeqCst` fence in the sleeper's
//!   registration (`BellWait::prepare_sleep`): either the ringer sees the registration, or the
//!   sleeper's re-poll sees the new word.
//! - If the ringer saw the registration, its Release bump of `wake_seq` pairs with the
//!   sleeper's Acquire load of `wake_seq`: a sleeper that read the bumped sequence re-polls
//!   after it; one that read the old sequence sleeps on it, and the bump makes that sleep
//!   return at once (value changed) or the wake that follows ends it.
//! - The words themselves carry their own Release/Acquire pairing (the caller's poll loads
//!   with Acquire); the doorbell only decides who sleeps and who wakes.
//!
//! All-zero is a valid doorbell with no sleepers; `repr(C)`, pointer-free.

use crate::atomic::{fence, AtomicU32, Ordering};
use crate::sync::wait::{wait_on, WaitCondition};
use crate::sync::WaitError;
use crate::sync::{PeerWatch, Until};
use crate::sys::futex;

/// The `sleepers` value meaning that nobody may be sleeping: ringers skip the syscall.
pub const NO_SLEEPERS: u32 = 0;

/// A futex doorbell: waiters poll words of their own and sleep here; writers of those words
/// [`ring`](Doorbell::ring) it after each publish. The protocol and its ordering are
/// described in the source (`sync/doorbell.rs`).
///
/// ```
/// use handoff::sync::{Doorbell, NoPeers, Until, Wait};
/// use std::sync::atomic::{AtomicU64, Ordering};
/// let (bell, word) = (Doorbell::new(), AtomicU64::new(0));
/// word.store(5, Ordering::Release);
/// bell.ring();
/// let seen = bell.wait(
///     || Some(word.load(Ordering::Acquire)).filter(|v| *v >= 5),
///     Until::forever(Wait::Block), &NoPeers, None,
/// );
/// assert_eq!(seen, Ok(5));
/// ```
#[repr(C)]
#[derive(Debug, Default)]
pub struct Doorbell {
    wake_seq: AtomicU32,
    sleepers: AtomicU32,
}

// SAFETY: `Doorbell` is `repr(C)`, two atomics (no pointers), every bit pattern is a valid
// state, all-zero has no sleepers; its futex word is process-shared. Not under loom: loom's
// atomics are handles into the model, not plain memory.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Doorbell {}

impl Doorbell {
    /// A doorbell with no sleepers.
    pub fn new() -> Self {
        Doorbell {
            wake_seq: AtomicU32::new(0),
            sleepers: AtomicU32::new(NO_SLEEPERS),
        }
    }

    /// Wakes the sleepers, if any. Call it after publishing (Release) a word they poll.
    #[inline]
    pub fn ring(&self) {
        // SeqCst fence: pairs with the fence in `BellWait::prepare_sleep`.
        fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::Relaxed) != NO_SLEEPERS {
            self.wake_slow();
        }
    }

    /// Whether a waiter may be asleep (registered) right now.
    #[inline]
    pub fn has_sleepers(&self) -> bool {
        self.sleepers.load(Ordering::Relaxed) != NO_SLEEPERS
    }

    #[cold]
    #[inline(never)]
    fn wake_slow(&self) {
        // Release: pairs with the Acquire load of `wake_seq` in `BellWait::prepare_sleep`.
        self.wake_seq.fetch_add(1, Ordering::Release);
        futex::wake_all(&self.wake_seq);
    }

    /// Waits until `poll` returns `Some` (it must load the words it checks with Acquire),
    /// as `until` says (strategy, deadline), checking `peers`; `peer_cpu` is the CPU the
    /// last ringer ran on, if known (its CPU hint).
    #[inline]
    pub fn wait<T, F, P>(
        &self,
        mut poll: F,
        until: Until,
        peers: &P,
        peer_cpu: Option<u32>,
    ) -> Result<T, WaitError>
    where
        F: FnMut() -> Option<T>,
        P: PeerWatch + ?Sized,
    {
        if let Some(v) = poll() {
            return Ok(v);
        }
        wait_on(BellWait { bell: self, poll }, until, peers, peer_cpu)
    }
}

/// A wait on a doorbell for a caller's condition.
struct BellWait<'a, F> {
    bell: &'a Doorbell,
    poll: F,
}

impl<T, F: FnMut() -> Option<T>> WaitCondition for BellWait<'_, F> {
    type Output = T;

    #[inline]
    fn poll(&mut self) -> Option<T> {
        (self.poll)()
    }

    fn futex_word(&self) -> &AtomicU32 {
        &self.bell.wake_seq
    }

    fn prepare_sleep(&mut self) -> Result<u32, T> {
        self.bell.sleepers.fetch_add(1, Ordering::Relaxed);
        // SeqCst fence: pairs with the fence in `Doorbell::ring`.
        fence(Ordering::SeqCst);
        // Acquire: pairs with the Release bump in `Doorbell::wake_slow`.
        let seq = self.bell.wake_seq.load(Ordering::Acquire);
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
    use crate::sync::Wait;

    use crate::atomic::{AtomicU64, Ordering};
    use crate::sync::NoPeers;

    /// A blocked waiter on a word of its own is woken by the ring that follows the
    /// publish (a skipped wake would leave it to its 50 ms slice; the wake count shows the
    /// skip at once), and a ring with nobody asleep makes no syscall.
    #[test]
    fn ring_wakes_a_registered_sleeper_and_only_then() {
        let (bell, word) = (Doorbell::new(), AtomicU64::new(0));
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || {
                let poll = || Some(word.load(Ordering::Acquire)).filter(|v| *v == 9);
                let got = bell.wait(
                    poll,
                    Until {
                        wait: Wait::Block,
                        deadline: crate::sys::futex::sleep_deadline(),
                    },
                    &NoPeers,
                    None,
                );
                assert_eq!(got, Ok(9));
            },
            || bell.has_sleepers(),
            || {
                word.store(9, Ordering::Release);
                bell.ring();
            },
        );
        assert_eq!(wakes, 1);
        let before = crate::sys::futex::wake_calls();
        bell.ring();
        assert_eq!(
            crate::sys::futex::wake_calls(),
            before,
            "nobody sleeps: no wake"
        );
    }

    #[test]
    fn layout_and_zero_init() {
        assert_eq!(std::mem::size_of::<Doorbell>(), 8);
        assert_eq!(std::mem::align_of::<Doorbell>(), 4);
        // SAFETY: all-zero is a valid `Doorbell` (see the `ShmSafe` impl).
        let b: Doorbell = unsafe { std::mem::zeroed() };
        assert!(!b.has_sleepers());
    }
}
