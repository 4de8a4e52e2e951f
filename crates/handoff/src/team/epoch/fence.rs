//! The fence of [`Epochs`](super::Epochs) (`MPI_Win_fence`): `quiet`, then a
//! dissemination barrier (Hensgen, Finkel and Manber) on the epochs' own arrival words —
//! ⌈log2 p⌉ rounds, one Release store and one wait per round.
//!
//! # Protocol
//!
//! Every PE numbers its fences 1, 2, 3, … (the same on every PE: a fence is collective over
//! the whole team). PE `me` has one arrival word per sender, `arrivals[s]`, written only by
//! PE `s`. In fence `n`, round `k` (distance `d = 2^k < p`), PE `me`:
//!
//! 1. stores `n` in PE `me + d`'s `arrivals[me]` (a signal `Set`: Release store);
//! 2. polls its own `arrivals[me − d]` a few times ([`FenceWords::spins`]), then rings PE
//!    `me + d`'s doorbell (wakes it if it sleeps on that word), then waits until its
//!    `arrivals[me − d]` is at least `n` (Acquire load) unless a poll saw it already.
//!
//! A word only grows (its one writer stores its fence numbers in order), and `me − d`
//! reaches `me` in the same round of every fence (the distances are fixed by p), so the
//! `n`-th wait is met by the sender's `n`-th store; a sender already in fence `n + 1` only
//! stores a larger number, which meets the wait too — and that sender has finished fence
//! `n`. This is the team barrier's argument (`team/barrier.rs`) with stores instead of
//! fetch-adds: one writer per word needs no read-modify-write.
//!
//! # Why the ring comes after the polls
//!
//! The ring begins with a `SeqCst` fence (the doorbell's protocol), which waits until the
//! store of step 1 has left the store buffer: a cache-line transfer to PE `me + d`, which
//! polls that line. Ringing at once made every round two transfers in a row (that store,
//! then the load of the partner's store to us); polling first lets the two overlap. A
//! sleeper is never missed: a PE that registered as a sleeper before the ring's fence is
//! woken by it, and one that registers after it sees the store (the doorbell's argument);
//! until the ring a sleeper may only sleep a few polls longer, because every PE rings
//! before it waits itself. On a crowded CPU ([`FenceWords::spins`] = 0) it rings at once:
//! the partner may need this CPU to arrive.
//!
//! # Why not the team barrier
//!
//! The fence was `quiet` + `Team::barrier_all` (which runs `quiet` again, builds the member
//! list and locks the barrier's counters). Per round this one costs the store, the ring's
//! SeqCst fence and a load of the target's bell, and polls before a timed wait (no clock
//! read when the peer arrives within them).
//!
//! # Memory ordering
//!
//! The caller's `quiet` completes this PE's puts and atomics; the Release store of step 1
//! pairs with the Acquire load of step 2 on the receiver. Happens-before is transitive along
//! the rounds, and after ⌈log2 p⌉ rounds every PE has a chain from every other PE's first
//! store of the fence, so whatever any PE put before the fence is visible to every PE after
//! it. The loom models run [`dissemination`]: `loom_epoch_fence_orders_puts` (2 PEs, two
//! fences: puts visible after the first, no put overwrites before the other PE read) and
//! `loom_epoch_fence_publishes_through_a_middle_pe` (4 PEs: PE 3 hears of PE 0 only
//! through PE 1); their PEs sleep until rung, so a round that never rings deadlocks the
//! model. (A ring after the PE's own wait would still be correct — the last PE to fence
//! sees its partner's store — only slower: its partner sleeps until then.)

#![cfg_attr(loom, allow(dead_code))] // the team that calls these is not built under loom

/// The arrival words, wherever they live.
pub(crate) trait FenceWords {
    /// Why an access failed.
    type Err;
    /// The team size.
    fn size(&self) -> usize;
    /// This PE's rank.
    fn rank(&self) -> usize;
    /// Stores `n` in PE `to`'s arrival word for this PE (Release), without waking `to`:
    /// [`ring`](Self::ring) does.
    fn arrive(&self, to: usize, n: u64) -> Result<(), Self::Err>;
    /// Wakes PE `to` if it sleeps on its arrival word for this PE (after
    /// [`arrive`](Self::arrive)).
    fn ring(&self, to: usize) -> Result<(), Self::Err>;
    /// How many times to poll the partner's word before ringing: 0 when this PE must not
    /// spin (its partner may need this CPU).
    fn spins(&self) -> u32;
    /// This PE's arrival word for `from` (Acquire).
    fn arrived(&self, from: usize) -> u64;
    /// Waits until [`arrived`](Self::arrived)`(from)` is at least `n`.
    fn wait_arrived(&self, from: usize, n: u64) -> Result<(), Self::Err>;
}

/// Fence number `n` (1, 2, …) of this PE: the rounds of the module docs. The caller ran
/// `quiet` before.
pub(crate) fn dissemination<W: FenceWords>(w: &W, n: u64) -> Result<(), W::Err> {
    let (p, me) = (w.size(), w.rank());
    let mut d = 1;
    while d < p {
        let (to, from) = ((me + d) % p, (me + p - d) % p);
        w.arrive(to, n)?;
        // Poll while the store travels, then ring (module docs: why in this order); a peer
        // that already arrived costs no timed wait.
        let mut here = w.arrived(from) >= n;
        let mut polls = 0;
        while !here && polls < w.spins() {
            crate::atomic::spin_hint();
            here = w.arrived(from) >= n;
            polls += 1;
        }
        w.ring(to)?;
        if !here && w.arrived(from) < n {
            w.wait_arrived(from, n)?;
        }
        d *= 2;
    }
    Ok(())
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// PEs as a table: `words[r][s]`, and a log of every store and wait.
    struct Table {
        me: usize,
        words: RefCell<Vec<Vec<u64>>>,
        log: RefCell<Vec<String>>,
    }

    impl FenceWords for Table {
        type Err = String;
        fn size(&self) -> usize {
            self.words.borrow().len()
        }
        fn rank(&self) -> usize {
            self.me
        }
        fn arrive(&self, to: usize, n: u64) -> Result<(), String> {
            self.words.borrow_mut()[to][self.me] = n;
            self.log.borrow_mut().push(format!("store {n} at {to}"));
            Ok(())
        }
        fn ring(&self, to: usize) -> Result<(), String> {
            self.log.borrow_mut().push(format!("ring {to}"));
            Ok(())
        }
        fn spins(&self) -> u32 {
            3
        }
        fn arrived(&self, from: usize) -> u64 {
            self.words.borrow()[self.me][from]
        }
        fn wait_arrived(&self, from: usize, n: u64) -> Result<(), String> {
            self.log.borrow_mut().push(format!("wait {from} for {n}"));
            // A one-thread table cannot wait: the peer must already have arrived.
            Err(format!("PE {from} has not arrived at fence {n}"))
        }
    }

    /// The rounds of PE 2 of 5: distances 1, 2, 4 (⌈log2 5⌉ = 3 rounds), storing the fence
    /// number at me + d, ringing it, and reading me − d; a peer that already arrived (or is
    /// a fence ahead) is not waited for, one that is behind is — after the ring.
    #[test]
    fn rounds_store_at_me_plus_d_and_wait_for_me_minus_d() {
        let t = Table {
            me: 2,
            words: RefCell::new(vec![vec![0; 5]; 5]),
            log: RefCell::new(Vec::new()),
        };
        // Senders of PE 2: 1 (d = 1), 0 (d = 2), 3 (d = 4): 1 at fence 7, 0 a fence ahead.
        t.words.borrow_mut()[2][1] = 7;
        t.words.borrow_mut()[2][0] = 8;
        let e = dissemination(&t, 7).unwrap_err();
        assert_eq!(e, "PE 3 has not arrived at fence 7");
        assert_eq!(
            *t.log.borrow(),
            [
                "store 7 at 3",
                "ring 3",
                "store 7 at 4",
                "ring 4",
                "store 7 at 1",
                "ring 1",
                "wait 3 for 7"
            ]
        );
        assert_eq!(t.words.borrow()[3][2], 7);
        assert_eq!(t.words.borrow()[1][2], 7);
        // Alone, a fence has no rounds.
        let one = Table {
            me: 0,
            words: RefCell::new(vec![vec![0; 1]]),
            log: RefCell::new(Vec::new()),
        };
        dissemination(&one, 1).unwrap();
        assert!(one.log.borrow().is_empty());
    }
}

#[cfg(not(loom))]
pub(crate) use imp::Fencing;

#[cfg(not(loom))]
mod imp {
    use std::cell::Cell;

    use super::FenceWords;
    use crate::sync::Until;
    use crate::team::api::Limit;
    use crate::team::epoch::Epochs;
    use crate::team::ops::load_signal;
    use crate::team::TeamError;
    use crate::team::{SignalOp, Transport};

    /// Polls of the partner's word before the ring ([`FenceWords::spins`]): about one
    /// cache-line transfer between cores (70–200 ns on the machines measured), which is
    /// what the ring would wait for. A `pause` takes 10–150 cycles on bare metal and
    /// 75–80 ns on the 2-vCPU KVM guests of issue #44, so 4 polls; 64 delayed the ring of a
    /// partner already asleep by 5 µs there (fences of 1.4 µs instead of 0.3 under load).
    const RING_AFTER_POLLS: u32 = 4;

    /// One fence call of an [`Epochs`]: its words, and the one wait (strategy and deadline)
    /// its rounds share, fixed at the first round that must wait (no clock read when every
    /// peer arrived already).
    pub(crate) struct Fencing<'e, 't, X: Transport> {
        ep: &'e Epochs<'t, X>,
        limit: Limit,
        until: Cell<Option<Until>>,
    }

    impl<'e, 't, X: Transport> Fencing<'e, 't, X> {
        pub(crate) fn new(ep: &'e Epochs<'t, X>, limit: Limit) -> Self {
            Fencing {
                ep,
                limit,
                until: Cell::new(None),
            }
        }
    }

    impl<X: Transport> FenceWords for Fencing<'_, '_, X> {
        type Err = TeamError;
        fn size(&self) -> usize {
            self.ep.team.size()
        }
        fn rank(&self) -> usize {
            self.ep.team.rank()
        }
        fn arrive(&self, to: usize, n: u64) -> Result<(), TeamError> {
            let at = self.ep.arrivals.offset + 8 * self.ep.team.rank();
            self.ep.team.x.signal_unrung(to, at, SignalOp::Set(n))
        }
        fn ring(&self, to: usize) -> Result<(), TeamError> {
            let at = self.ep.arrivals.offset + 8 * self.ep.team.rank();
            self.ep.team.x.ring_signal(to, at)
        }
        fn spins(&self) -> u32 {
            // About a cache-line transfer's worth of polls (each a `pause`), no clock read.
            if self.ep.team.x.crowded_cpu() {
                0
            } else {
                RING_AFTER_POLLS
            }
        }
        fn arrived(&self, from: usize) -> u64 {
            // `team.word` checked bounds when the object was made; `from < size` = its length.
            let w = self.ep.team.word(&self.ep.arrivals.at(from), "fence");
            w.map(load_signal).unwrap_or(0)
        }
        fn wait_arrived(&self, from: usize, n: u64) -> Result<(), TeamError> {
            let until = match self.until.get() {
                Some(u) => u,
                None => {
                    // A fence has no `try_` form: `Limit::Now` does not reach here.
                    let u = self
                        .ep
                        .until(self.limit)
                        .unwrap_or(Until::forever(self.ep.patience.wait));
                    self.until.set(Some(u));
                    u
                }
            };
            self.ep
                .team
                .x
                .wait_local_on(
                    self.ep.arrivals.offset + 8 * from,
                    8,
                    &mut || (self.arrived(from) >= n).then_some(0),
                    until,
                    "a fence",
                )
                .map(|_| ())
                .map_err(self.ep.timed("fence", "fence", Some(from), self.limit))
        }
    }
}
