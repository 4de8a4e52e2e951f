//! The floors of a hand-off measured by a team's two PEs themselves, in their own segment,
//! just before each sample of a record (`pingpong`): a record's latency over the floor of the
//! same moment, whatever state the host is in.
//!
//! The probe's c2c floor ([`super::floor`]) is two threads of the launcher, a millisecond
//! before and after a record; this VM's host flips between states within seconds, and in some
//! of its fast states a hop and the probe's floor do not move together (issue #23). Here the
//! two PEs bounce between their own two samples, by plain loads and stores through
//! [`Team::peer_atomic`], no team call on the path (`handoff_probe::words::WordBounce`, whose
//! steps are model-checked):
//! - **c2c**: one word, PE 0's, carries both directions (the probe's pattern: the writer of
//!   each hop has just read the line, so a hop is one line's transfer);
//! - **store**: each PE spins on its own word and the peer stores into it (what every put
//!   based hand-off does: the writer takes a line the reader holds). On this VM it reads
//!   1.15–1.4× the c2c floor when that is ~38 ns and 1.85× when it is ~15 ns: the best any
//!   put-based protocol can do (docs/results.md, issue #23 session 8).

use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use handoff::sys::Deadline;
use handoff::team::{Sym, Team, TeamError, Transport};
use handoff_probe::words::WordBounce;

/// Round trips per floor sample: about 40 µs each on this VM's fast state, 200 µs slow.
pub const ROUND_TRIPS: u64 = 500;

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
        let deadline = Deadline::after(self.timeout);
        let c2c_ns = self.bounce(
            WordBounce::new(self.shared, self.shared, self.first),
            deadline,
        )?;
        let store = WordBounce::new(self.peers, self.mine, self.first);
        let store_ns = self.bounce(store, deadline)?;
        Ok(Floors { c2c_ns, store_ns })
    }

    /// [`ROUND_TRIPS`] round trips of `b` from this PE's next sequence number; one-way ns.
    fn bounce(&mut self, b: WordBounce<'_>, deadline: Deadline) -> Result<f64, TeamError> {
        let t0 = Instant::now();
        b.round_trips(self.seq, ROUND_TRIPS, deadline)
            .map_err(|_| TeamError::Timeout {
                what: "the peer's floor bounce",
            })?;
        self.seq += 2 * ROUND_TRIPS;
        Ok(t0.elapsed().as_secs_f64() * 1e9 / (2 * ROUND_TRIPS) as f64)
    }
}
