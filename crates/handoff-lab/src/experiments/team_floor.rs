//! The floors of a hand-off measured by a team's two PEs themselves, in the very cache lines
//! the hand-off uses, just before each sample of a record (`pingpong`): a record's latency
//! over the floor of the same moment and the same lines, whatever state the host is in.
//!
//! The probe's c2c floor ([`super::floor`]) is two threads of the launcher, a millisecond
//! before and after a record, on a word of their own; this VM's host flips between states
//! within seconds (session 7 of issue #23). Where a line lies can matter too: over
//! 16 lines of one buffer, a line's one-way time is its own in the host's slow state
//! (per-line medians 179–237 ns, 1.24× apart at the median run; the same lines fast or slow
//! in alternate sweeps, r = 0.96) and partly its own in the ~38 ns state (1.17× apart,
//! r = 0.65), not in the ~15 ns state (1.02×; `examples/c2c_lines`, docs/results.md,
//! issue #23 session 9). A floor on other lines than the hop's would add that draw.
//! So the two PEs bounce on a word of the hand-off's own line (PE 0's copy and PE 1's),
//! between samples, by plain loads and stores through [`Team::peer_atomic`], no team call on
//! the path (`handoff_probe::words::WordBounce`, whose steps are model-checked):
//! - **c2c**: one word carries both directions (the probe's pattern: the writer of each hop
//!   has just read the line, so a hop is one line's transfer), on PE 0's copy and then on
//!   PE 1's; the floor is their mean, as a hop's two directions use one copy each;
//! - **store**: each PE spins on its own copy and the peer stores into it (what every put
//!   based hand-off does: the writer takes a line the reader holds), polling at once as the
//!   waits do. On this VM it reads 1.15–1.4× the c2c floor when that is ~38 ns and 1.85×
//!   when it is ~15 ns (session 8), but that includes where the arrival falls in the
//!   waiter's polling grid: with the first poll delayed just right the same pattern comes
//!   within 1.0–1.16× (`bench/poll_delay.c`; docs/results.md, issue #23 session 9). No
//!   delay rule holds across the host's states: the delay that helps at ~38 ns costs 3× at
//!   ~15 ns, and a learned one recovers half the gain (`bench/poll_learn.c`, session 10).
//!
//! Before the bounces, each PE zeroes its copy of the word (a hand-off left its data there)
//! and the two meet once on a word of the floor's own ([`WordBounce::reset_and_meet`]).

use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use handoff::sys::Deadline;
use handoff::team::{SymAt, Team, TeamError, Transport};
use handoff_probe::words::WordBounce;

#[cfg(doc)]
use super::team_run::PeOutput;

/// Round trips per floor sample, on each of the three bounces: about 40 µs each on this
/// VM's fast state, 200 µs slow.
pub const ROUND_TRIPS: u64 = 500;

/// One PE's side of the floors: the words and where the sequence numbers are.
pub struct TeamFloor<'a> {
    /// PE 0's word of the floor's own, where the PEs meet before each measurement.
    meet: &'a AtomicU64,
    /// This PE's copy of the hand-off's word, which the peer stores into.
    mine: &'a AtomicU64,
    /// The peer's copy, which this PE stores into.
    peers: &'a AtomicU64,
    /// Whether this PE sends first (PE 0).
    first: bool,
    /// Meetings so far.
    met: u64,
    timeout: Duration,
}

/// A sample of both floors: one-way ns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Floors {
    /// One word, both directions (the probe's c2c pattern): the mean over PE 0's copy and
    /// PE 1's.
    pub c2c_ns: f64,
    /// Each PE spins on its own copy; the peer stores into it.
    pub store_ns: f64,
}

impl<'a> TeamFloor<'a> {
    /// The floors between this PE and `peer` on `word`, a word of the cache line the
    /// hand-off's receiver waits on that the hand-off itself may overwrite between samples
    /// but never reads as its signal (a [`Line`](handoff::team::Line)'s first payload word,
    /// a flag's neighbour in its line), or `None` when `peer`'s heap is not mapped here (a
    /// transport that only has calls: every PE of such a team says `None` alike).
    /// Collective: both PEs call it at the same point of their programs (it allocates the
    /// word they meet on). Waits give up after `timeout`.
    pub fn on<X: Transport>(
        team: &'a Team<X>,
        peer: usize,
        word: SymAt<u64>,
        timeout: Duration,
    ) -> Result<Option<TeamFloor<'a>>, TeamError> {
        let i = word.index();
        if i >= word.sym().len() {
            return Err(TeamError::InvalidArgument(format!(
                "the floor's word {i} lies past its object of {} words",
                word.sym().len()
            )));
        }
        let meet = team.alloc::<u64>(1)?;
        let me = team.rank();
        let (Some(theirs), Some(pe0)) = (
            team.peer_atomic(&word.sym(), peer),
            team.peer_atomic(&meet, me.min(peer)),
        ) else {
            return Ok(None);
        };
        Ok(Some(TeamFloor {
            meet: &pe0[0],
            mine: &team.local_atomic(&word.sym())[i],
            peers: &theirs[i],
            first: me < peer,
            met: 0,
            timeout,
        }))
    }

    /// Measures both floors, [`ROUND_TRIPS`] on each bounce; both PEs call it at the same
    /// point of their programs, when the hand-off stores into neither copy of the word.
    pub fn measure(&mut self) -> Result<Floors, TeamError> {
        let deadline = Deadline::after(self.timeout);
        let meet = WordBounce::new(self.meet, self.meet, self.first);
        meet.reset_and_meet(self.mine, 2 * self.met, deadline)
            .map_err(|_| timed_out())?;
        self.met += 1;
        let (pe0, pe1) = match self.first {
            true => (self.mine, self.peers),
            false => (self.peers, self.mine),
        };
        // Both copies start at 0 and end at 2 ROUND_TRIPS; the store bounce goes on from there.
        let c2c0 = bounce(WordBounce::new(pe0, pe0, self.first), 0, deadline)?;
        let c2c1 = bounce(WordBounce::new(pe1, pe1, self.first), 0, deadline)?;
        let store = WordBounce::new(self.peers, self.mine, self.first);
        let store_ns = bounce(store, 2 * ROUND_TRIPS, deadline)?;
        Ok(Floors {
            c2c_ns: (c2c0 + c2c1) / 2.0,
            store_ns,
        })
    }

    /// What PE 0's meeting word and this PE's copy of the hand-off's word hold now (tests
    /// and diagnostics).
    pub fn words(&self) -> (u64, u64) {
        // Relaxed: values this PE's own bounces already read or wrote (their Acquire loads
        // and Release stores are in `WordBounce`); nothing is published through these loads.
        (
            self.meet.load(std::sync::atomic::Ordering::Relaxed),
            self.mine.load(std::sync::atomic::Ordering::Relaxed),
        )
    }
}

fn timed_out() -> TeamError {
    TeamError::Timeout {
        what: "the peer's floor bounce",
    }
}

/// [`ROUND_TRIPS`] round trips of `b` from sequence number `base`; one-way ns.
fn bounce(b: WordBounce<'_>, base: u64, deadline: Deadline) -> Result<f64, TeamError> {
    let t0 = Instant::now();
    b.round_trips(base, ROUND_TRIPS, deadline)
        .map_err(|_| timed_out())?;
    Ok(t0.elapsed().as_secs_f64() * 1e9 / (2 * ROUND_TRIPS) as f64)
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
