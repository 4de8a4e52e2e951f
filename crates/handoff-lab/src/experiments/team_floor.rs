//! The floors of a hand-off measured by a team's two PEs themselves, in their own segment,
//! just before each sample of a record (`pingpong`): a record's latency over the floor of the
//! same moment, whatever state the host is in.
//!
//! The probe's c2c floor ([`super::floor`]) is two threads of the launcher, a millisecond
//! before and after a record; this VM's host flips between states within seconds, and in some
//! of its fast states a hop and the probe's floor do not move together (issue #23). Here the
//! two PEs bounce between their own two samples, by plain loads and stores through
//! [`Team::peer_atomic`], no team call on the path:
//! - **c2c**: one word, PE 0's, carries both directions (the probe's pattern: the writer of
//!   each hop has just read the line, so a hop is one line's transfer);
//! - **store**: each PE spins on its own word and the peer stores into it (what every put
//!   based hand-off does: the writer takes a line the reader holds). On this VM it reads
//!   1.1–1.4× the c2c floor: the best any put-based protocol can do.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use handoff::team::{Sym, Team, TeamError, Transport};

/// Round trips per floor sample: about 40 µs each on this VM's fast state, 200 µs slow.
pub const ROUND_TRIPS: u64 = 500;

/// Polls between two reads of the clock for the deadline, and then a yield: a peer that is
/// late by this many polls is not on a CPU of its own.
const CHECK_EVERY: u32 = 1 << 14;

/// One PE's side of the floors: its words and where the sequence numbers are.
pub struct TeamFloor<'a> {
    /// PE 0's word: both directions of the c2c pattern.
    shared: &'a AtomicU64,
    /// This PE's own word, which the peer stores into.
    mine: &'a AtomicU64,
    /// The peer's word, which this PE stores into.
    peers: &'a AtomicU64,
    /// Whether this PE sends first (PE 0).
    first: bool,
    /// Hops so far (the last value sent or awaited).
    seq: u64,
    timeout: Duration,
}

/// A sample of both floors: one-way ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floors {
    /// One word, both directions (the probe's c2c pattern).
    pub c2c_ns: f64,
    /// Each PE spins on its own word; the peer stores into it.
    pub store_ns: f64,
}

impl<'a> TeamFloor<'a> {
    /// The floors between this PE and `peer` over the 2-word object `words` (allocated by
    /// both, zero), or `None` when `peer`'s heap is not mapped here (a transport that only
    /// has calls: every PE of such a team says `None` alike). Waits give up after `timeout`.
    pub fn new<X: Transport>(
        team: &'a Team<X>,
        words: &Sym<u64>,
        peer: usize,
        timeout: Duration,
    ) -> Option<TeamFloor<'a>> {
        let me = team.rank();
        let (pe0, theirs) = (
            if me < peer { me } else { peer },
            team.peer_atomic(words, peer)?,
        );
        let shared = &team.peer_atomic(words, pe0)?[0];
        Some(TeamFloor {
            shared,
            mine: &team.local_atomic(words)[1],
            peers: &theirs[1],
            first: me < peer,
            seq: 0,
            timeout,
        })
    }

    /// Measures both floors, [`ROUND_TRIPS`] each; both PEs call it at the same point of
    /// their programs. The first PE's figure spans its round trips; the other's may include
    /// its wait for the first to start.
    pub fn measure(&mut self) -> Result<Floors, TeamError> {
        let deadline = Instant::now() + self.timeout;
        let c2c_ns = self.bounce(deadline, |s| (s.shared, s.shared))?;
        let store_ns = self.bounce(deadline, |s| (s.peers, s.mine))?;
        Ok(Floors { c2c_ns, store_ns })
    }

    /// [`ROUND_TRIPS`] round trips, storing into the first word `words` gives and waiting on
    /// the second; one-way ns.
    fn bounce(
        &mut self,
        deadline: Instant,
        words: impl Fn(&Self) -> (&'a AtomicU64, &'a AtomicU64),
    ) -> Result<f64, TeamError> {
        let (to, from) = words(self);
        let base = self.seq;
        let t0 = Instant::now();
        for i in 0..ROUND_TRIPS {
            let (ping, pong) = (base + 2 * i + 1, base + 2 * i + 2);
            if self.first {
                // Release pairs with the peer's Acquire load in `spin_until`.
                to.store(ping, Ordering::Release);
                spin_until(from, pong, deadline)?;
            } else {
                spin_until(from, ping, deadline)?;
                // Release pairs with the peer's Acquire load in `spin_until`.
                to.store(pong, Ordering::Release);
            }
        }
        self.seq = base + 2 * ROUND_TRIPS;
        Ok(t0.elapsed().as_secs_f64() * 1e9 / (2 * ROUND_TRIPS) as f64)
    }
}

/// Spins until `w` holds at least `want`; yields every [`CHECK_EVERY`] polls (a peer that
/// slow shares this CPU), and gives up at `deadline` (a peer that died).
#[inline]
fn spin_until(w: &AtomicU64, want: u64, deadline: Instant) -> Result<(), TeamError> {
    let mut polls = 0u32;
    // Acquire pairs with the peer's Release store in `TeamFloor::bounce`.
    while w.load(Ordering::Acquire) < want {
        polls = polls.wrapping_add(1);
        if polls.is_multiple_of(CHECK_EVERY) {
            if Instant::now() >= deadline {
                return Err(TeamError::Timeout {
                    what: "the peer's floor bounce",
                });
            }
            std::thread::yield_now();
        }
        std::hint::spin_loop();
    }
    Ok(())
}
