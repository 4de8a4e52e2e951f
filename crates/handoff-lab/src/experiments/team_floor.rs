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
use handoff::team::{Team, TeamError, Transport};
use handoff_probe::words::WordBounce;

#[cfg(doc)]
use super::team_run::PeOutput;

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
    /// The floors between this PE and `peer`, over two words it allocates (collectively:
    /// both PEs call it at the same point of their programs), or `None` when `peer`'s heap is
    /// not mapped here (a transport that only has calls: every PE of such a team says `None`
    /// alike). Waits give up after `timeout`.
    pub fn new<X: Transport>(
        team: &'a Team<X>,
        peer: usize,
        timeout: Duration,
    ) -> Result<Option<TeamFloor<'a>>, TeamError> {
        let words = team.alloc::<u64>(2)?;
        let me = team.rank();
        let pe0 = me.min(peer);
        let (Some(theirs), Some(zeros)) = (
            team.peer_atomic(&words, peer),
            team.peer_atomic(&words, pe0),
        ) else {
            return Ok(None);
        };
        Ok(Some(TeamFloor {
            shared: &zeros[0],
            mine: &team.local_atomic(&words)[1],
            peers: &theirs[1],
            first: me < peer,
            seq: 0,
            timeout,
        }))
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

    /// What PE 0's c2c word and this PE's store word hold now (tests and diagnostics).
    pub fn words(&self) -> (u64, u64) {
        // Relaxed: values this PE's own bounces already read or wrote (their Acquire loads
        // and Release stores are in `WordBounce`); nothing is published through these loads.
        (
            self.shared.load(std::sync::atomic::Ordering::Relaxed),
            self.mine.load(std::sync::atomic::Ordering::Relaxed),
        )
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

/// One point's samples over the floors the PEs measured just before each ([`PeOutput::floors`],
/// rank 0's, per run): the `over_c2c_floor` and `over_store_floor` metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleRatios {
    /// Per run, each sample's latency over the c2c floor measured just before it.
    pub over_c2c: Vec<Vec<f64>>,
    /// Per run, each sample's latency over the store floor measured just before it.
    pub over_store: Vec<Vec<f64>>,
    /// The median c2c floor over all samples, ns.
    pub c2c_ns: f64,
    /// The median store floor over all samples, ns.
    pub store_ns: f64,
}

impl SampleRatios {
    /// From rank 0's samples (µs) and floors (ns) per run; `None` unless every run measured
    /// a floor for each sample.
    pub fn of(samples: &[Vec<f64>], floors: &[Vec<[f64; 2]>]) -> Option<SampleRatios> {
        let paired = samples.len() == floors.len()
            && samples
                .iter()
                .zip(floors)
                .all(|(s, f)| !s.is_empty() && s.len() == f.len());
        if !paired {
            return None;
        }
        let over = |k: usize| -> Vec<Vec<f64>> {
            samples
                .iter()
                .zip(floors)
                .map(|(s, f)| s.iter().zip(f).map(|(us, f)| us * 1e3 / f[k]).collect())
                .collect()
        };
        let median = |k: usize| {
            let v: Vec<f64> = floors.iter().flatten().map(|f| f[k]).collect();
            crate::stats::median(&v)
        };
        Some(SampleRatios {
            over_c2c: over(0),
            over_store: over(1),
            c2c_ns: median(0)?,
            store_ns: median(1)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_team_floors_divide_each_sample_by_the_floors_measured_just_before_it() {
        // Two runs of two samples (µs) with floors [c2c, store] (ns) before each.
        let samples = vec![vec![0.060, 0.200], vec![0.045, 0.050]];
        let floors = vec![
            vec![[40.0, 50.0], [200.0, 160.0]],
            vec![[30.0, 45.0], [25.0, 50.0]],
        ];
        let f = SampleRatios::of(&samples, &floors).unwrap();
        assert_eq!(f.over_c2c, vec![vec![1.5, 1.0], vec![1.5, 2.0]]);
        assert_eq!(f.over_store, vec![vec![1.2, 1.25], vec![1.0, 1.0]]);
        // Medians over all samples: (30, 40, 25, 200) and (50, 160, 45, 50).
        assert_eq!(f.c2c_ns, 35.0);
        assert_eq!(f.store_ns, 50.0);
        // A run without floors, or with a sample short of one: no ratio at all.
        assert_eq!(
            SampleRatios::of(&samples, &[floors[0].clone(), vec![]]),
            None
        );
        assert_eq!(
            SampleRatios::of(&samples, &[floors[0].clone(), vec![[30.0, 45.0]]]),
            None
        );
        assert_eq!(SampleRatios::of(&samples, &floors[..1]), None);
    }
}
