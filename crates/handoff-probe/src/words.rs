//! A two-party bounce over words that two processes share: the floors a team's PEs measure
//! themselves (`handoff-lab`'s `team_floor`, beside every sample of `bench pingpong`).
//!
//! Each hop, the sending party stores the next sequence number into `to` (Release) and the
//! other waits until its `from` holds it (Acquire). Party `first` sends the odd numbers and
//! waits for the even ones. With `to` and `from` one word for both parties, it is the c2c
//! floor's pattern ([`crate::floor`]): the writer of each hop has just read the line. With
//! each party waiting on its own word and storing into the other's, it is the pattern of
//! every put: the writer takes a line the reader holds. The steps are model-checked by this
//! module's loom tests.

use crate::atomic::{spin_hint, yield_now, AtomicU64, Ordering};
use handoff::sync::WaitError;
use handoff::sys::Deadline;

/// Polls between two reads of the clock for the deadline and a yield (a peer that late
/// shares this CPU); every poll under loom, whose models run a handful of them.
const CHECK_EVERY: u32 = if cfg!(loom) { 1 } else { 1 << 14 };

/// One party's side of a bounce.
#[derive(Clone, Copy)]
pub struct WordBounce<'a> {
    to: &'a AtomicU64,
    from: &'a AtomicU64,
    first: bool,
}

impl<'a> WordBounce<'a> {
    /// The party that stores into `to` and waits on `from`; `first` sends first. Both
    /// parties' words start at the same value, the `base` of their first
    /// [`round_trips`](Self::round_trips).
    pub fn new(to: &'a AtomicU64, from: &'a AtomicU64, first: bool) -> WordBounce<'a> {
        WordBounce { to, from, first }
    }

    /// `n` round trips after sequence number `base` (the first party sends `base + 1`, the
    /// other answers `base + 2`, …, up to `base + 2n`); both parties call it with the same
    /// `base` and `n`. Gives up at `deadline` (a peer that died or never came).
    #[inline]
    pub fn round_trips(self, base: u64, n: u64, deadline: Deadline) -> Result<(), WaitError> {
        for i in 0..n {
            let (ping, pong) = (base + 2 * i + 1, base + 2 * i + 2);
            if self.first {
                // Release pairs with the other party's Acquire load in `wait_for(ping)`.
                self.to.store(ping, Ordering::Release);
                self.wait_for(pong, deadline)?;
            } else {
                self.wait_for(ping, deadline)?;
                // Release pairs with the first party's Acquire load in `wait_for(pong)`.
                self.to.store(pong, Ordering::Release);
            }
        }
        Ok(())
    }

    /// Makes `mine`, a word the other party stores into, ready for bounces from 0 whatever a
    /// hand-off left in it (a word of the very line a hand-off uses, between its messages):
    /// zeroes it, then one round trip of `self` (a rendezvous on another word, from `base`)
    /// tells each party the other's zero is in place before its first store into it. Both
    /// parties call it with the same `base`; nothing else may store into either party's
    /// `mine` until their bounces end.
    pub fn reset_and_meet(
        self,
        mine: &AtomicU64,
        base: u64,
        deadline: Deadline,
    ) -> Result<(), WaitError> {
        // Relaxed: the rendezvous' Release store that follows (the ping, or the answer sent
        // after the ping was seen) publishes it; the other party's Acquire load of that store
        // in `wait_for` orders its stores into `mine` after this one.
        mine.store(0, Ordering::Relaxed);
        self.round_trips(base, 1, deadline)
    }

    /// Spins until `from` holds at least `want`.
    #[inline]
    fn wait_for(self, want: u64, deadline: Deadline) -> Result<(), WaitError> {
        let mut polls = 0u32;
        // Acquire pairs with the other party's Release store in `round_trips`.
        while self.from.load(Ordering::Acquire) < want {
            polls = polls.wrapping_add(1);
            if polls.is_multiple_of(CHECK_EVERY) {
                if deadline.expired() {
                    return Err(WaitError::Timeout);
                }
                yield_now();
            }
            spin_hint();
        }
        Ok(())
    }
}

/// Loom models of both patterns, on the same `WordBounce` steps the team's floors run.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;
    use std::time::Duration;

    /// Two words, and plain data each party writes before its call of round k and the other
    /// reads after its own: `cells[party][k]`.
    type Shared = (AtomicU64, AtomicU64, [[UnsafeCell<u64>; 2]; 2]);

    fn far() -> Deadline {
        Deadline::after(Duration::from_secs(3600))
    }

    /// Two calls of one round trip each on both parties, each call preceded by a write of the
    /// party's cell of that round and followed by a read of the other's: every call hands the
    /// data over (loom checks the cells), and the words end at the last hops' numbers.
    /// `one_word`: both parties use word 0 (the c2c pattern); else the first stores into word
    /// 1 and waits on word 0, the other the reverse (the put pattern).
    fn model(one_word: bool) {
        loom::model(move || {
            let cells = || [UnsafeCell::new(0), UnsafeCell::new(0)];
            let s: Arc<Shared> =
                Arc::new((AtomicU64::new(0), AtomicU64::new(0), [cells(), cells()]));
            let party = move |s: &Shared, first: bool| {
                let (me, other) = if first { (0, 1) } else { (1, 0) };
                let (to, from) = match (one_word, first) {
                    (true, _) => (&s.0, &s.0),
                    (false, true) => (&s.1, &s.0),
                    (false, false) => (&s.0, &s.1),
                };
                let b = WordBounce::new(to, from, first);
                for k in 0..2u64 {
                    // SAFETY: the other party reads this cell only after its call of round k,
                    // which returns after our store of that round (ping or answer).
                    s.2[me][k as usize].with_mut(|p| unsafe { *p = 10 * me as u64 + k + 1 });
                    b.round_trips(2 * k, 1, far()).unwrap();
                    // SAFETY: the other party wrote this cell before its call of round k, whose
                    // store we saw; it never writes it again.
                    let got = s.2[other][k as usize].with(|p| unsafe { *p });
                    assert_eq!(got, 10 * other as u64 + k + 1);
                }
            };
            let other = {
                let s = s.clone();
                loom::thread::spawn(move || party(&s, false))
            };
            party(&s, true);
            other.join().unwrap();
            let words = (s.0.load(Ordering::Relaxed), s.1.load(Ordering::Relaxed));
            assert_eq!(words, if one_word { (4, 0) } else { (4, 3) });
        });
    }

    #[test]
    fn loom_words_one_word_both_ways_hands_over() {
        model(true);
    }

    #[test]
    fn loom_words_each_waits_on_its_own_word_hands_over() {
        model(false);
    }

    /// Each party's own word holds stale data above any sequence number (what a hand-off
    /// leaves there); after `reset_and_meet` on a third word, a round trip in the put pattern
    /// on the own words hands the data over and ends at its numbers. Without the reset, the
    /// first wait passes on the stale value and loom sees the unsynchronized cells.
    #[test]
    fn loom_words_reset_and_meet_clears_stale_words() {
        loom::model(|| {
            let stale = u64::MAX - 1;
            type Words = (AtomicU64, [AtomicU64; 2], [UnsafeCell<u64>; 2]);
            let s: Arc<Words> = Arc::new((
                AtomicU64::new(0),
                [AtomicU64::new(stale), AtomicU64::new(stale)],
                [UnsafeCell::new(0), UnsafeCell::new(0)],
            ));
            let party = move |s: &Words, first: bool| {
                let (me, other) = if first { (0, 1) } else { (1, 0) };
                let meet = WordBounce::new(&s.0, &s.0, first);
                meet.reset_and_meet(&s.1[me], 0, far()).unwrap();
                // SAFETY: the other party reads this cell only after its round trip, which
                // returns after our store of it (ping or answer).
                s.2[me].with_mut(|p| unsafe { *p = me as u64 + 1 });
                WordBounce::new(&s.1[other], &s.1[me], first)
                    .round_trips(0, 1, far())
                    .unwrap();
                // SAFETY: the other party wrote this cell before the store we waited for.
                let got = s.2[other].with(|p| unsafe { *p });
                assert_eq!(got, other as u64 + 1);
            };
            let other = {
                let s = s.clone();
                loom::thread::spawn(move || party(&s, false))
            };
            party(&s, true);
            other.join().unwrap();
            let words = [0, 1].map(|i| s.1[i].load(Ordering::Relaxed));
            assert_eq!((s.0.load(Ordering::Relaxed), words), (2, [2, 1]));
        });
    }

    /// A party whose peer never comes gives up at the deadline instead of spinning forever.
    #[test]
    fn loom_words_an_absent_peer_times_out() {
        loom::model(|| {
            let w = AtomicU64::new(0);
            let b = WordBounce::new(&w, &w, true);
            let r = b.round_trips(0, 1, Deadline::after(Duration::ZERO));
            assert!(matches!(r, Err(WaitError::Timeout)));
        });
    }
}
