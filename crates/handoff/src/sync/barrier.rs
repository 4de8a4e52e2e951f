//! [`Barrier`]: N parties wait until all have arrived; reusable, between threads or processes.
//!
//! # Protocol
//!
//! One 32-bit word holds the whole state, so arriving, leaving and sleeping are
//! read-modify-writes of one location (no fences needed), and a waiter that gives up can take
//! its arrival back atomically:
//!
//! | bits | constant | meaning |
//! |---|---|---|
//! | 0 | [`SLEEPERS`] | a waiter may be sleeping on the futex: the leader must wake |
//! | 1..=15 | [`ARRIVED_MASK`] (unit [`ARRIVED_ONE`]) | parties arrived in this generation |
//! | 16..=31 | [`GEN_MASK`] (unit [`GEN_ONE`]) | generation, wrapping |
//!
//! The generation counter is the sense-reversing barrier's sense grown to 16 bits: a waiter
//! waits for the generation it arrived in to end, so a fast party that re-arrives in the next
//! generation can never release a slow one early. (A waiter can only miss a change if 65,536
//! generations pass meanwhile, impossible since each needs its arrival.)
//!
//! | event | word before | word after |
//! |---|---|---|
//! | arrival, not last | `gen, a, s` | `gen, a+1, s` |
//! | arrival, last (the leader) | `gen, parties−1, s` | `gen+1, 0, 0`; wakes all if `s` was set |
//! | waiter about to sleep | `gen, a, 0` | `gen, a, SLEEPERS`, then `futex_wait(word, that)` |
//! | waiter gives up (timeout, dead peer) | `gen, a, s` | `gen, a−1, s` — or, if `gen` moved on, it passed after all |
//!
//! The party count lives in a second word as `parties − 1`, so the all-zero barrier is a
//! valid one-party barrier; [`Barrier::new`] / [`Barrier::init`] refuse zero parties and more
//! than [`MAX_PARTIES`].
//!
//! # Memory ordering
//!
//! Every arrival is an AcqRel compare-exchange on the word. Its Release half pairs with the
//! Acquire half of later arrivals (the leader's included), and the leader's Release pairs with
//! the Acquire loads of the word in the waiters' polls: what any party wrote before the
//! barrier is visible to every party after it. Setting [`SLEEPERS`] and withdrawing are
//! Relaxed compare-exchanges; being RMWs of the same word they continue the release sequence
//! and sit in one total order with the leader's CAS, which either sees the bit (and wakes) or
//! makes the waiter's CAS fail (and the waiter re-reads the new generation).

use crate::atomic::{AtomicU32, Ordering};
use crate::sync::wait::Call;
use crate::sync::wait::{wait_on, CpuHint, WaitCondition};
use crate::sync::WaitError;
use crate::sync::{NoPeers, PeerWatch, Waiter};
use crate::sys::futex;
use crate::sys::Error as SysError;
use std::time::Duration;

/// Bit 0: a waiter may be sleeping.
pub const SLEEPERS: u32 = 1;
/// One arrival.
pub const ARRIVED_ONE: u32 = 1 << 1;
/// The arrival count (bits 1..=15).
pub const ARRIVED_MASK: u32 = 0x7fff << 1;
/// One generation.
pub const GEN_ONE: u32 = 1 << 16;
/// The generation (bits 16..=31).
pub const GEN_MASK: u32 = 0xffff << 16;
/// The most parties a barrier supports (the arrival field is 15 bits).
pub const MAX_PARTIES: u32 = ARRIVED_MASK >> 1;

/// A reusable barrier for `parties` threads or processes.
///
/// ```
/// use handoff::sync::{Barrier, Patience, Wait, Waiter};
/// let b = Barrier::new(1).unwrap();
/// assert!(b.wait(&Waiter::new(Patience::new(Wait::Block))).unwrap().is_leader());
/// assert!(Barrier::new(0).is_err());
/// ```
#[repr(C, align(128))]
#[derive(Debug)]
pub struct Barrier {
    word: AtomicU32,
    parties_minus_one: AtomicU32,
    last: CpuHint,
}

// SAFETY: `Barrier` is `repr(C)`, holds only atomics (no pointers); all-zero is a valid
// one-party barrier in generation 0, and a party count word out of range is clamped when
// read; its futex is process-shared. It may be placed in a shared segment.
// Not under loom: loom's atomics are handles into the model, not plain memory.
#[cfg(not(loom))]
unsafe impl crate::layout::ShmSafe for Barrier {}

/// How a successful [`Barrier::wait`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BarrierWaitResult {
    leader: bool,
}

impl BarrierWaitResult {
    /// Whether this party arrived last and released the others (exactly one per generation).
    pub fn is_leader(&self) -> bool {
        self.leader
    }
}

fn check_parties(parties: u32) -> Result<(), SysError> {
    if parties == 0 || parties > MAX_PARTIES {
        return Err(SysError::InvalidArgument(format!(
            "a barrier needs 1..={MAX_PARTIES} parties, not {parties}"
        )));
    }
    Ok(())
}

impl Barrier {
    /// A barrier for `parties` parties (1..=[`MAX_PARTIES`]).
    pub fn new(parties: u32) -> Result<Self, SysError> {
        check_parties(parties)?;
        Ok(Barrier {
            word: AtomicU32::new(0),
            parties_minus_one: AtomicU32::new(parties - 1),
            last: CpuHint::new(),
        })
    }

    /// Sets the party count of a barrier nobody is waiting on (e.g. a zeroed one in a new
    /// segment, before the segment is published).
    ///
    /// Refuses 0 or more than [`MAX_PARTIES`] parties, and a barrier with arrivals pending.
    pub fn init(&self, parties: u32) -> Result<(), SysError> {
        check_parties(parties)?;
        if self.word.load(Ordering::Relaxed) & ARRIVED_MASK != 0 {
            return Err(SysError::InvalidArgument(
                "cannot change the party count of a barrier while parties wait on it".into(),
            ));
        }
        self.parties_minus_one.store(parties - 1, Ordering::Relaxed);
        Ok(())
    }

    /// The number of parties.
    pub fn parties(&self) -> u32 {
        self.parties_minus_one
            .load(Ordering::Relaxed)
            .min(MAX_PARTIES - 1)
            + 1
    }

    /// The current generation (how many times the barrier opened, modulo 2^16).
    pub fn generation(&self) -> u32 {
        self.word.load(Ordering::Relaxed) >> 16
    }

    /// Arrives and waits until all parties have arrived.
    ///
    /// On `Err` (deadline passed, peer gone) this party's arrival is taken back, so the
    /// barrier stays consistent for the others; if the barrier opened meanwhile the wait
    /// returns `Ok` instead, since it did pass.
    #[inline]
    pub fn wait<P: PeerWatch + ?Sized>(
        &self,
        waiter: &Waiter<'_, P>,
    ) -> Result<BarrierWaitResult, WaitError> {
        self.wait_with(Call::Patient(waiter.patience()), waiter.peers())
    }

    /// [`wait`](Self::wait), waiting at most `timeout` (then the arrival is taken back).
    #[inline]
    pub fn wait_timeout<P: PeerWatch + ?Sized>(
        &self,
        timeout: Duration,
        waiter: &Waiter<'_, P>,
    ) -> Result<BarrierWaitResult, WaitError> {
        self.wait_with(Call::Timeout(waiter.patience(), timeout), waiter.peers())
    }

    /// Arrives, and passes if that opened the barrier (this party was the last) or it is
    /// open after one more look; otherwise takes the arrival back and answers
    /// [`WaitError::Timeout`] at once.
    #[inline]
    pub fn try_wait(&self) -> Result<BarrierWaitResult, WaitError> {
        self.wait_with(Call::Try, &NoPeers)
    }

    #[inline]
    fn wait_with<P: PeerWatch + ?Sized>(
        &self,
        call: Call,
        peers: &P,
    ) -> Result<BarrierWaitResult, WaitError> {
        let parties = self.parties();
        let peer_cpu = self.last.replace();
        let mut w = self.word.load(Ordering::Relaxed);
        loop {
            let arrived = (w & ARRIVED_MASK) / ARRIVED_ONE + 1;
            let (new, leader) = if arrived >= parties {
                ((w & GEN_MASK).wrapping_add(GEN_ONE), true)
            } else {
                (w + ARRIVED_ONE, false)
            };
            // AcqRel: Release pairs with later arrivals' Acquire and the waiters' Acquire
            // polls; Acquire pairs with earlier arrivals' Release.
            match self
                .word
                .compare_exchange_weak(w, new, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) if leader => {
                    if w & SLEEPERS != 0 {
                        self.wake_slow();
                    }
                    return Ok(BarrierWaitResult { leader: true });
                }
                Ok(_) => break,
                Err(now) => w = now,
            }
        }
        let gen = w & GEN_MASK;
        let mut cond = BarrierWait { barrier: self, gen };
        let Some(until) = call.until() else {
            return match cond.poll() {
                Some(()) => Ok(BarrierWaitResult { leader: false }),
                None => self.withdraw(gen, WaitError::Timeout),
            };
        };
        match wait_on(cond, until, peers, peer_cpu) {
            Ok(()) => Ok(BarrierWaitResult { leader: false }),
            Err(e) => self.withdraw(gen, e),
        }
    }

    #[cold]
    #[inline(never)]
    fn wake_slow(&self) {
        futex::wake_all(&self.word);
    }

    /// Takes back an arrival in generation `gen` after a failed wait.
    #[cold]
    fn withdraw(&self, gen: u32, e: WaitError) -> Result<BarrierWaitResult, WaitError> {
        // Acquire: pairs with the leader's Release, in case the barrier opened after all.
        let mut w = self.word.load(Ordering::Acquire);
        loop {
            if w & GEN_MASK != gen {
                return Ok(BarrierWaitResult { leader: false });
            }
            match self.word.compare_exchange_weak(
                w,
                w - ARRIVED_ONE,
                Ordering::Relaxed,
                Ordering::Acquire,
            ) {
                Ok(_) => return Err(e),
                Err(now) => w = now,
            }
        }
    }
}

struct BarrierWait<'a> {
    barrier: &'a Barrier,
    gen: u32,
}

impl WaitCondition for BarrierWait<'_> {
    type Output = ();

    #[inline]
    fn poll(&mut self) -> Option<()> {
        // Acquire: pairs with the leader's Release CAS in `Barrier::wait`.
        let w = self.barrier.word.load(Ordering::Acquire);
        (w & GEN_MASK != self.gen).then_some(())
    }

    fn futex_word(&self) -> &AtomicU32 {
        &self.barrier.word
    }

    fn prepare_sleep(&mut self) -> Result<u32, ()> {
        // Acquire: pairs with the leader's Release CAS.
        let mut w = self.barrier.word.load(Ordering::Acquire);
        loop {
            if w & GEN_MASK != self.gen {
                return Err(());
            }
            if w & SLEEPERS != 0 {
                return Ok(w);
            }
            // Relaxed: an RMW of the word, ordered with the leader's CAS (module docs).
            match self.barrier.word.compare_exchange_weak(
                w,
                w | SLEEPERS,
                Ordering::Relaxed,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok(w | SLEEPERS),
                Err(now) => w = now,
            }
        }
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

    /// A blocked party is woken by the leader's arrival itself (a skipped wake would leave
    /// it to its 50 ms sleep slice; the wake count shows the skip at once).
    #[test]
    fn leader_wakes_a_registered_sleeper() {
        let b = Barrier::new(2).unwrap();
        let wakes = crate::sys::futex::wakes_of_publish_to_sleeper(
            || {
                b.wait(&w(
                    Wait::Block,
                    crate::sys::futex::sleep_deadline(),
                    &NoPeers,
                ))
                .unwrap();
            },
            || b.word.load(Ordering::Relaxed) & SLEEPERS != 0,
            || {
                assert!(b.wait(&w(Wait::Block, None, &NoPeers)).unwrap().is_leader());
            },
        );
        assert_eq!(wakes, 1);
    }

    #[test]
    fn layout_and_zero_init() {
        assert_eq!(std::mem::size_of::<Barrier>(), 128);
        assert_eq!(std::mem::align_of::<Barrier>(), 128);
        // SAFETY: all-zero is a valid `Barrier` (see the `ShmSafe` impl).
        let b: Barrier = unsafe { std::mem::zeroed() };
        assert_eq!(b.parties(), 1);
        assert!(b.wait(&w(Wait::Spin, None, &NoPeers)).unwrap().is_leader());
        assert_eq!(b.generation(), 1);
        b.init(3).unwrap();
        assert_eq!(b.parties(), 3);
    }

    /// A party count corrupted in shared memory (another process wrote the word) is clamped
    /// to what the arrival field can count (arrivals never carry into the generation bits).
    #[test]
    fn corrupt_party_count_is_clamped() {
        let b = Barrier::new(2).unwrap();
        b.parties_minus_one.store(u32::MAX, Ordering::Relaxed);
        // Hand-computed: ARRIVED_MASK holds 15 bits of arrivals, so at most 0x7fff parties.
        assert_eq!(b.parties(), 0x7fff);
    }

    #[test]
    fn nonsense_party_counts_are_refused() {
        assert!(matches!(Barrier::new(0), Err(SysError::InvalidArgument(_))));
        assert!(matches!(
            Barrier::new(MAX_PARTIES + 1),
            Err(SysError::InvalidArgument(_))
        ));
        assert_eq!(Barrier::new(MAX_PARTIES).unwrap().parties(), MAX_PARTIES);
        let b = Barrier::new(2).unwrap();
        assert!(b.init(0).is_err());
        // A wait that times out takes its arrival back...
        let d = Some(Deadline::after(Duration::from_millis(2)));
        assert_eq!(
            b.wait(&w(Wait::Block, d, &NoPeers)),
            Err(WaitError::Timeout)
        );
        assert_eq!(b.word.load(Ordering::Relaxed) & ARRIVED_MASK, 0);
        // ...so the count may still change, but not while a party is inside.
        b.word.fetch_add(ARRIVED_ONE, Ordering::Relaxed);
        assert!(b.init(4).is_err());
    }

    #[test]
    fn deadlines_expire_in_every_strategy() {
        let b = Barrier::new(2).unwrap();
        for how in Wait::ALL {
            let d = Some(Deadline::after(Duration::from_millis(3)));
            assert_eq!(
                b.wait(&w(how, d, &NoPeers)),
                Err(WaitError::Timeout),
                "{how}"
            );
            assert_eq!(b.word.load(Ordering::Relaxed) & ARRIVED_MASK, 0, "{how}");
        }
        assert_eq!(b.generation(), 0);
    }

    /// Three threads run many phases; in each phase every thread writes its slot before the
    /// barrier and checks everyone's slots after it.
    #[test]
    fn phases_are_separated() {
        const PHASES: u64 = 300;
        const N: usize = 3;
        for how in [Wait::SpinYield, Wait::Block, Wait::ADAPTIVE] {
            let shared = Arc::new((
                Barrier::new(N as u32).unwrap(),
                [(); N].map(|_| crate::atomic::AtomicU64::new(0)),
            ));
            let d = Some(Deadline::after(Duration::from_secs(30)));
            let threads: Vec<_> = (0..N)
                .map(|me| {
                    let s = shared.clone();
                    std::thread::spawn(move || {
                        let mut leaders = 0;
                        for phase in 1..=PHASES {
                            s.1[me].store(phase, Ordering::Relaxed);
                            leaders += s.0.wait(&w(how, d, &NoPeers)).unwrap().is_leader() as u64;
                            for slot in &s.1 {
                                let v = slot.load(Ordering::Relaxed);
                                assert!(
                                    v == phase || v == phase + 1,
                                    "{how}: saw {v} in phase {phase}"
                                );
                            }
                            s.0.wait(&w(how, d, &NoPeers)).unwrap();
                        }
                        leaders
                    })
                })
                .collect();
            let leaders: u64 = threads.into_iter().map(|t| t.join().unwrap()).sum();
            assert_eq!(leaders, PHASES, "{how}: one leader per generation");
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

    /// Two parties, two generations: both pass both, one leader each time, and writes before
    /// the barrier are visible after it.
    #[test]
    fn loom_barrier_two_parties_reuse() {
        loom::model(|| {
            let b = Arc::new((Barrier::new(2).unwrap(), AtomicU32::new(0)));
            let b2 = b.clone();
            let t = loom::thread::spawn(move || {
                b2.1.store(1, Ordering::Relaxed);
                let l1 =
                    b2.0.wait(&w(Wait::Block, None, &NoPeers))
                        .unwrap()
                        .is_leader();
                let l2 =
                    b2.0.wait(&w(Wait::Block, None, &NoPeers))
                        .unwrap()
                        .is_leader();
                (l1, l2)
            });
            let l1 =
                b.0.wait(&w(Wait::Block, None, &NoPeers))
                    .unwrap()
                    .is_leader();
            assert_eq!(b.1.load(Ordering::Relaxed), 1);
            let l2 =
                b.0.wait(&w(Wait::Block, None, &NoPeers))
                    .unwrap()
                    .is_leader();
            let (t1, t2) = t.join().unwrap();
            assert!(l1 != t1 && l2 != t2, "exactly one leader per generation");
        });
    }

    /// Two parties whose deadlines have passed: either both pass (one leads) or both take
    /// their arrival back — never one stranded, and the word ends with no arrivals.
    #[test]
    fn loom_barrier_timeouts_withdraw_consistently() {
        loom::model(|| {
            let b = Arc::new(Barrier::new(2).unwrap());
            let past = Some(Deadline::at_ns(0));
            let b2 = b.clone();
            let t = loom::thread::spawn(move || b2.wait(&w(Wait::Block, past, &NoPeers)));
            let mine = b.wait(&w(Wait::Block, past, &NoPeers));
            let theirs = t.join().unwrap();
            assert_eq!(mine.is_ok(), theirs.is_ok(), "{mine:?} vs {theirs:?}");
            if let (Ok(a), Ok(c)) = (mine, theirs) {
                assert!(a.is_leader() != c.is_leader());
            }
            let w = b.word.load(Ordering::Relaxed);
            assert_eq!(w & ARRIVED_MASK, 0);
            assert_eq!(w >> 16, u32::from(mine.is_ok()));
        });
    }
}
