//! [`RangeBell`]: a doorbell whose sleepers say what they wait on, so a writer wakes only
//! the sleepers whose words it wrote.
//!
//! A team PE's waits poll words of its own heap partition, which any other PE may write
//! (puts, atomics, signals). With a plain [`Doorbell`](super::Doorbell) every such write has
//! to wake every sleeper of the PE: a PE asleep in a long wait on one word is woken by every
//! put to any other word, only to sleep again, and the writer pays a `futex_wake` system
//! call for nothing. A `RangeBell` keeps a few *wait descriptors* beside the sleeper count:
//! a sleeper that can name the byte range it waits on (`[start, end)` of the partition)
//! claims a slot, writes its range there and sleeps on the slot's own futex word; a writer
//! of `[ws, we)` wakes only the slots whose range overlaps it. Sleepers that cannot name a
//! range (generic polls) and sleepers that find every slot taken count themselves in `any`
//! and sleep on the shared `any_seq`; every writer wakes them, as a plain doorbell would.
//!
//! # Words
//!
//! | word | written by | meaning |
//! |---|---|---|
//! | `sleepers` | sleepers (+1 before the fence, −1 after the sleep) | 0: writers skip everything after one load |
//! | `any` | sleepers without a range (+1 / −1) | writers wake `any_seq` when non-zero |
//! | `any_seq` | writers | futex word of the `any` sleepers: bumped before every wake |
//! | `slots[k].start` | a sleeper (CAS `FREE` → start + 1 to claim; `FREE` to release) | the slot's range start + 1; `FREE` = 0 = unused |
//! | `slots[k].end` | the sleeper that claimed the slot | the range end (exclusive) |
//! | `slots[k].seq` | writers whose range overlaps the slot's | futex word of the slot's sleeper: bumped before every wake |
//!
//! Sleep (`RangeWait::prepare_sleep`): claim a slot and write the range (or `any += 1`),
//! `sleepers += 1`, `fence(SeqCst)`, load the futex word (Acquire), re-poll; sleep on the
//! word only if the condition is still false. After the sleep: `sleepers − 1`, release the
//! slot (or `any − 1`).
//!
//! Write ([`RangeBell::ring_range`], after publishing the words): `fence(SeqCst)`, load
//! `sleepers`; if non-zero, wake `any_seq` if `any` is non-zero, and every claimed slot whose
//! range overlaps the written one (bump its `seq` with Release, then `futex_wake`).
//!
//! # Memory ordering (why no wake-up is lost)
//!
//! The sleeper's stores (slot range, `sleepers`) come before its `SeqCst` fence and its
//! re-poll after it; the writer's data comes before its `SeqCst` fence and its loads of
//! `sleepers` and the slots after it. In the single total order of `SeqCst` fences either
//! the sleeper's fence comes first, and then the writer's loads see its registration (C++
//! \[atomics.order\]: a load after a later `SeqCst` fence reads the store before the earlier
//! fence or a later one; a later value in a slot means the sleeper already released it, so
//! its sleep is over), so the writer wakes it; or the writer's fence comes first, and then the
//! sleeper's re-poll sees the data and it does not sleep. A torn read of a slot being
//! reused (the start of one sleeper, the end of the previous one) only concerns registrations
//! whose fence the writer did not yet order against: those re-poll, as above. For that, a
//! slot's release (Release store of `FREE`) pairs with the next claim (Acquire CAS), so the
//! previous owner's `end` precedes the new owner's in `end`'s modification order; with both
//! Relaxed the old `end` could be read after the new owner's fence (loom found it).
//!
//! The Release bump of a futex word pairs with the sleeper's Acquire load of it: a sleeper
//! that read the bumped value re-polls after the data; one that read the old value sleeps
//! on it, and the bump makes its `futex_wait` return at once or the wake that follows ends
//! it. The words waited on carry their own Release/Acquire pairing (the caller's poll).
//!
//! [`RangeBell::ring_range_unfenced`] skips the writer's fence, for bulk puts: a sleeper that
//! registers at that instant may be missed, and the writer's next `quiet`
//! ([`ring_range`](RangeBell::ring_range) of everything it put since) wakes it.
//!
//! All-zero is a valid `RangeBell` with no sleepers; `repr(C)`, pointer-free.

use crate::atomic::{fence, AtomicU32, AtomicU64, Ordering};
use crate::sync::wait::{wait_on, WaitCondition};
use crate::sync::WaitError;
use crate::sync::{PeerWatch, Until};
use crate::sys::futex;

/// Wait descriptors per bell: threads of one PE asleep on distinct ranges at the same time.
/// More sleepers than slots wait as `any` (woken by every write): correct, only less precise.
pub const SLOTS: usize = 4;

/// `Slot::start` of an unused slot.
const FREE: u64 = 0;

/// One wait descriptor: the range a sleeper waits on and the futex word it sleeps on.
#[repr(C)]
#[derive(Debug, Default)]
struct Slot {
    /// Range start + 1, or [`FREE`].
    start: AtomicU64,
    /// Range end (exclusive); meaningful while `start` is not [`FREE`].
    end: AtomicU64,
    /// The slot sleeper's futex word.
    seq: AtomicU32,
    _pad: u32,
}

/// A doorbell with wait descriptors (the protocol is described in the source,
/// `sync/rangebell.rs`).
///
/// ```
/// use handoff::sync::{RangeBell, NoPeers, Until, Wait};
/// use std::sync::atomic::{AtomicU64, Ordering};
/// let (bell, word) = (RangeBell::new(), AtomicU64::new(0));
/// word.store(5, Ordering::Release);
/// bell.ring_range(0, 8); // the writer wrote bytes [0, 8)
/// let seen = bell.wait(
///     Some((0, 8)),
///     || Some(word.load(Ordering::Acquire)).filter(|v| *v >= 5),
///     Until::forever(Wait::Block), &NoPeers, None, 0,
/// );
/// assert_eq!(seen, Ok(5));
/// ```
#[repr(C, align(128))]
#[derive(Debug, Default)]
pub struct RangeBell {
    sleepers: AtomicU32,
    any: AtomicU32,
    any_seq: AtomicU32,
    _pad: u32,
    slots: [Slot; SLOTS],
}

// SAFETY: `RangeBell` is `repr(C)` atomics and padding (no pointers); every bit pattern is a
// valid state (a garbage slot only causes a spurious wake-up), all-zero has no sleepers; its
// futex words are process-shared. Not under loom: loom's atomics are handles, not memory.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for RangeBell {}

/// Whether `[a0, a1)` and `[b0, b1)` overlap.
#[inline]
fn overlaps(a0: u64, a1: u64, b0: u64, b1: u64) -> bool {
    a0 < b1 && b0 < a1
}

impl RangeBell {
    /// A bell with no sleepers.
    pub fn new() -> Self {
        RangeBell::default()
    }

    /// Wakes the sleepers that wait on bytes `[start, end)` (and every sleeper without a
    /// range). Call it after publishing (Release) the bytes. With nobody asleep: one fence
    /// and one load, no system call.
    #[inline]
    pub fn ring_range(&self, start: u64, end: u64) -> usize {
        // SeqCst fence: pairs with the fence in `RangeWait::prepare_sleep`.
        fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::Relaxed) == 0 {
            return 0;
        }
        self.wake_range(start, end)
    }

    /// [`ring_range`](Self::ring_range) without the writer's fence, for bulk puts: may miss a
    /// sleeper registering at this instant; the writer's next `quiet` (a fenced
    /// `ring_range` of what it wrote) wakes it (module docs).
    #[inline]
    pub fn ring_range_unfenced(&self, start: u64, end: u64) -> usize {
        if self.sleepers.load(Ordering::Relaxed) == 0 {
            return 0;
        }
        self.wake_range(start, end)
    }

    /// Wakes every sleeper (a peer left: every wait must look at its peers now).
    pub fn ring_all(&self) -> usize {
        self.ring_range(0, u64::MAX)
    }

    /// Whether a waiter may be asleep (registered) right now.
    #[inline]
    pub fn has_sleepers(&self) -> bool {
        self.sleepers.load(Ordering::Relaxed) != 0
    }

    /// Wakes `any` sleepers and the slots overlapping `[start, end)`; returns how many futex
    /// words it woke (for tests and counters).
    #[cold]
    #[inline(never)]
    fn wake_range(&self, start: u64, end: u64) -> usize {
        let mut woke = 0;
        if self.any.load(Ordering::Relaxed) != 0 {
            // Release: pairs with the Acquire load of `any_seq` in `prepare_sleep`.
            self.any_seq.fetch_add(1, Ordering::Release);
            futex::wake_all(&self.any_seq);
            woke += 1;
        }
        for slot in &self.slots {
            let s = slot.start.load(Ordering::Relaxed);
            if s == FREE {
                continue;
            }
            let e = slot.end.load(Ordering::Relaxed);
            if overlaps(s - 1, e, start, end) {
                // Release: pairs with the Acquire load of the slot's `seq` in `prepare_sleep`.
                slot.seq.fetch_add(1, Ordering::Release);
                futex::wake_all(&slot.seq);
                woke += 1;
            }
        }
        woke
    }

    /// Waits until `poll` returns `Some` (it must load the words it checks with Acquire),
    /// sleeping — when `until`'s strategy sleeps — as a waiter on bytes `range` = `(start, end)` of what
    /// this bell covers (`None`: a waiter on anything, woken by every write). `site` names
    /// the wait for the adaptive learning (one learned spin budget per site; see
    /// [Waiting](crate::sync#waiting)), `peer_cpu` is the CPU of the last writer, if known.
    #[allow(clippy::too_many_arguments)] // a wait's inputs; a struct would only rename them
    #[inline]
    pub fn wait<T, F, P>(
        &self,
        range: Option<(u64, u64)>,
        mut poll: F,
        until: Until,
        peers: &P,
        peer_cpu: Option<u32>,
        site: usize,
    ) -> Result<T, WaitError>
    where
        F: FnMut() -> Option<T>,
        P: PeerWatch + ?Sized,
    {
        if let Some(v) = poll() {
            return Ok(v);
        }
        // An empty range could never be written: wait as `any` rather than sleep forever.
        let range = range.filter(|(s, e)| s < e && *s < u64::MAX);
        wait_on(
            RangeWait {
                bell: self,
                range,
                slot: None,
                poll,
                site,
            },
            until,
            peers,
            peer_cpu,
        )
    }
}

/// A wait on a [`RangeBell`] for a caller's condition.
struct RangeWait<'a, F> {
    bell: &'a RangeBell,
    range: Option<(u64, u64)>,
    /// The slot claimed for the current sleep, if any (`None`: counted in `any`).
    slot: Option<usize>,
    poll: F,
    site: usize,
}

impl<F> RangeWait<'_, F> {
    /// Claims a free slot for `range`, if one is free.
    fn claim(&self, (start, end): (u64, u64)) -> Option<usize> {
        self.bell.slots.iter().position(|slot| {
            // Acquire: pairs with the Release store of `FREE` in `finish_sleep`, so the
            // previous owner's `end` comes before ours in `end`'s modification order (else a
            // writer could read its stale `end` after our fence: loom found that). The SeqCst
            // fence that follows in `prepare_sleep` orders the claim for writers.
            let ok = slot
                .start
                .compare_exchange(FREE, start + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_ok();
            if ok {
                slot.end.store(end, Ordering::Relaxed);
            }
            ok
        })
    }
}

impl<T, F: FnMut() -> Option<T>> WaitCondition for RangeWait<'_, F> {
    type Output = T;

    #[inline]
    fn poll(&mut self) -> Option<T> {
        (self.poll)()
    }

    fn futex_word(&self) -> &AtomicU32 {
        match self.slot {
            Some(k) => &self.bell.slots[k].seq,
            None => &self.bell.any_seq,
        }
    }

    fn prepare_sleep(&mut self) -> Result<u32, T> {
        self.slot = self.range.and_then(|r| self.claim(r));
        if self.slot.is_none() {
            self.bell.any.fetch_add(1, Ordering::Relaxed);
        }
        self.bell.sleepers.fetch_add(1, Ordering::Relaxed);
        // SeqCst fence: pairs with the fence in `RangeBell::ring_range` (or the writer's
        // `quiet` after `ring_range_unfenced`).
        fence(Ordering::SeqCst);
        // Acquire: pairs with the Release bump in `RangeBell::wake_range`.
        let seq = self.futex_word().load(Ordering::Acquire);
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
        match self.slot.take() {
            // Release: pairs with the Acquire CAS of the next owner in `claim` (our `end`
            // before its `end`). A writer that reads our old range wakes it spuriously at
            // worst.
            Some(k) => self.bell.slots[k].start.store(FREE, Ordering::Release),
            None => {
                self.bell.any.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    fn site(&self) -> usize {
        self.site
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::sync::Wait;

    use crate::atomic::{AtomicU64, Ordering};
    use crate::sync::NoPeers;

    fn sleep_on(bell: &RangeBell, range: Option<(u64, u64)>, word: &AtomicU64, want: u64) {
        let poll = || Some(word.load(Ordering::Acquire)).filter(|v| *v == want);
        let got = bell.wait(
            range,
            poll,
            Until {
                wait: Wait::Block,
                deadline: crate::sys::futex::sleep_deadline(),
            },
            &NoPeers,
            None,
            0,
        );
        assert_eq!(got, Ok(want));
    }

    /// A sleeper on [8, 16) is woken by a write of [12, 13) (one futex wake), and a write of
    /// [0, 8) or [16, 24) next to it wakes nobody (no futex call at all).
    #[test]
    fn wakes_only_the_overlapping_range() {
        let (bell, word) = (RangeBell::new(), AtomicU64::new(0));
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || sleep_on(&bell, Some((8, 16)), &word, 9),
            || bell.has_sleepers(),
            || {
                let before = crate::sys::futex::wake_calls();
                assert_eq!(bell.ring_range(0, 8), 0, "[0,8) does not touch [8,16)");
                assert_eq!(bell.ring_range(16, 24), 0, "[16,24) does not touch [8,16)");
                assert_eq!(bell.ring_range_unfenced(100, 200), 0);
                assert_eq!(crate::sys::futex::wake_calls(), before, "no syscall");
                word.store(9, Ordering::Release);
                assert_eq!(bell.ring_range(12, 13), 1);
            },
        );
        assert_eq!(wakes, 1);
        assert!(!bell.has_sleepers());
        let before = crate::sys::futex::wake_calls();
        bell.ring_all();
        assert_eq!(crate::sys::futex::wake_calls(), before, "nobody sleeps");
    }

    /// A sleeper without a range is woken by any write.
    #[test]
    fn any_sleeper_is_woken_by_every_write() {
        let (bell, word) = (RangeBell::new(), AtomicU64::new(0));
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || sleep_on(&bell, None, &word, 3),
            || bell.has_sleepers(),
            || {
                word.store(3, Ordering::Release);
                bell.ring_range(4096, 4104);
            },
        );
        assert_eq!(wakes, 1);
    }

    /// More sleepers than slots: the extra ones wait as `any` and are still woken.
    #[test]
    fn more_sleepers_than_slots_fall_back_to_any() {
        let bell = RangeBell::new();
        let words: Vec<AtomicU64> = (0..SLOTS + 2).map(|_| AtomicU64::new(0)).collect();
        std::thread::scope(|s| {
            for (i, w) in words.iter().enumerate() {
                let bell = &bell;
                s.spawn(move || sleep_on(bell, Some((i as u64 * 8, i as u64 * 8 + 8)), w, 1));
            }
            let start = std::time::Instant::now();
            while bell.sleepers.load(Ordering::Relaxed) as usize != words.len() {
                assert!(
                    start.elapsed().as_secs() < 5,
                    "watchdog: sleepers never registered"
                );
                std::thread::yield_now();
            }
            assert_eq!(bell.any.load(Ordering::Relaxed), 2);
            for (i, w) in words.iter().enumerate() {
                w.store(1, Ordering::Release);
                bell.ring_range(i as u64 * 8, i as u64 * 8 + 8);
            }
        });
        assert!(!bell.has_sleepers());
        assert_eq!(bell.any.load(Ordering::Relaxed), 0);
        assert!(bell
            .slots
            .iter()
            .all(|s| s.start.load(Ordering::Relaxed) == FREE));
    }

    #[test]
    fn layout_and_zero_init() {
        assert_eq!(std::mem::size_of::<RangeBell>(), 128);
        assert_eq!(std::mem::align_of::<RangeBell>(), 128);
        // SAFETY: all-zero is a valid `RangeBell` (see the `ShmSafe` impl).
        let b: RangeBell = unsafe { std::mem::zeroed() };
        assert!(!b.has_sleepers());
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use crate::sync::NoPeers;
    use crate::sync::Wait;
    use loom::sync::Arc;

    /// The descriptor protocol: a sleeper on word A (bytes [0, 8)) and a writer that writes
    /// word A and rings [0, 8). A lost wake-up is a loom deadlock; the payload written before
    /// the word must be seen.
    #[test]
    fn loom_rangebell_writer_wakes_the_range_sleeper() {
        loom::model(|| {
            let s = Arc::new((RangeBell::new(), AtomicU64::new(0), AtomicU64::new(0)));
            let s2 = s.clone();
            let t = loom::thread::spawn(move || {
                s2.2.store(42, Ordering::Relaxed);
                s2.1.store(1, Ordering::Release);
                s2.0.ring_range(0, 8);
            });
            let got = s.0.wait(
                Some((0, 8)),
                || (s.1.load(Ordering::Acquire) == 1).then_some(()),
                Until {
                    wait: Wait::Block,
                    deadline: None,
                },
                &NoPeers,
                None,
                0,
            );
            assert_eq!(got, Ok(()));
            assert_eq!(s.2.load(Ordering::Relaxed), 42);
            t.join().unwrap();
        });
    }

    /// Two sleepers on distinct ranges (one in a slot, one claiming the next) and a writer of
    /// each range in turn: both must wake (the writer of B must not be fooled by A's slot,
    /// nor A's sleep by B's write).
    ///
    /// Three threads: bounded to two preemptions (finds the slot-reuse ordering bug the
    /// Release/Acquire pair on `start` fixes in about 0.3 s; unbounded takes minutes).
    #[test]
    fn loom_rangebell_two_ranges_each_woken_by_its_writer() {
        let mut b = loom::model::Builder::new();
        b.preemption_bound = Some(2);
        b.check(|| {
            let s = Arc::new((RangeBell::new(), AtomicU64::new(0), AtomicU64::new(0)));
            let s2 = s.clone();
            let writer = loom::thread::spawn(move || {
                s2.1.store(1, Ordering::Release);
                s2.0.ring_range(0, 8);
                s2.2.store(1, Ordering::Release);
                s2.0.ring_range(8, 16);
            });
            let s3 = s.clone();
            let other = loom::thread::spawn(move || {
                s3.0.wait(
                    Some((8, 16)),
                    || (s3.2.load(Ordering::Acquire) == 1).then_some(()),
                    Until {
                        wait: Wait::Block,
                        deadline: None,
                    },
                    &NoPeers,
                    None,
                    0,
                )
            });
            let got = s.0.wait(
                Some((0, 8)),
                || (s.1.load(Ordering::Acquire) == 1).then_some(()),
                Until {
                    wait: Wait::Block,
                    deadline: None,
                },
                &NoPeers,
                None,
                0,
            );
            assert_eq!(got, Ok(()));
            assert_eq!(other.join().unwrap(), Ok(()));
            writer.join().unwrap();
        });
    }

    /// A waiter that spins (`Spin`, `SpinYield`: what every PE of a team runs when its
    /// writers skip the heap bells, `ShmParts::must_ring`) never registers as a sleeper,
    /// so a writer that does not ring still ends its wait, and the payload is seen. A spin
    /// that slept would deadlock here (nobody rings), or show in the writer's check.
    #[test]
    fn loom_rangebell_spinning_waiter_needs_no_ring() {
        for how in [Wait::Spin, Wait::SpinYield] {
            loom::model(move || {
                let s = Arc::new((
                    RangeBell::new(),
                    AtomicU64::new(0),
                    loom::cell::UnsafeCell::new(0u64),
                ));
                let s2 = s.clone();
                let t = loom::thread::spawn(move || {
                    // SAFETY: the only writer, before the Release store that publishes it.
                    s2.2.with_mut(|p| unsafe { *p = 42 });
                    // Release: pairs with the Acquire load in the waiter's poll below.
                    s2.1.store(1, Ordering::Release);
                    assert!(
                        !s2.0.has_sleepers(),
                        "a spinning waiter registered to sleep"
                    );
                });
                let got = s.0.wait(
                    Some((0, 8)), // Acquire: pairs with the writer's Release store above.
                    || (s.1.load(Ordering::Acquire) == 1).then_some(()),
                    Until {
                        wait: how,
                        deadline: None,
                    },
                    &NoPeers,
                    None,
                    0,
                );
                assert_eq!(got, Ok(()));
                // SAFETY: ordered after the writer's store by the Acquire load that saw 1.
                assert_eq!(s.2.with(|p| unsafe { *p }), 42);
                t.join().unwrap();
            });
        }
    }

    /// A sleeper that could not name a range (`any`) is woken by a write anywhere.
    #[test]
    fn loom_rangebell_any_sleeper_woken_by_any_write() {
        loom::model(|| {
            let s = Arc::new((RangeBell::new(), AtomicU64::new(0)));
            let s2 = s.clone();
            let t = loom::thread::spawn(move || {
                s2.1.store(1, Ordering::Release);
                s2.0.ring_range(512, 520);
            });
            let got = s.0.wait(
                None,
                || (s.1.load(Ordering::Acquire) == 1).then_some(()),
                Until {
                    wait: Wait::Block,
                    deadline: None,
                },
                &NoPeers,
                None,
                0,
            );
            assert_eq!(got, Ok(()));
            t.join().unwrap();
        });
    }
}
