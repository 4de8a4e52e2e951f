//! The per-site learning of `Adaptive` waits (kept per thread, keyed by site) (the parent module's docs, "Learning the spin
//! budget"), and its counts ([`adaptive_stats`]).

use std::cell::Cell;
use std::time::Duration;

use super::SHORT_SPIN;

/// What `Adaptive` waits of the calling thread did (see [`adaptive_stats`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdaptiveStats {
    /// Waits that ended while spinning (slow path only: a wait whose first poll succeeded is
    /// not counted).
    pub spun: u64,
    /// Waits that spun their budget out and slept.
    pub blocked: u64,
    /// Of those, the waits woken soon: within 50 µs of falling asleep plus their own wake-up
    /// (a partner about to answer, which a longer spin would have caught; `woke`). They
    /// lengthen the site's budget and count as waits that spun, not as slow ones.
    pub woken_soon: u64,
    /// Waits that found the peer on their own CPU (or the team said it shares this CPU) and
    /// so yielded to it instead of pausing (also counted in `spun` or `blocked`, by how
    /// they ended).
    pub same_cpu: u64,
    /// Waits that spun only the short spin (1 µs) because recent waits slept long (were not
    /// woken soon).
    pub short: u64,
    /// `sched_yield` calls the waits made while spinning (the same-CPU case).
    pub yields: u64,
}

/// Counts of how the calling thread's `Adaptive` waits ended, since the thread started or the
/// last [`reset_adaptive_stats`].
pub fn adaptive_stats() -> AdaptiveStats {
    STATE.with(|s| s.stats.get())
}

/// Zeroes the calling thread's [`adaptive_stats`].
pub fn reset_adaptive_stats() {
    STATE.with(|s| s.stats.set(AdaptiveStats::default()));
}

/// Score units: 0 = recent waits all ended spinning, `FULL` = all outlasted the budget.
const FULL: u32 = 256;
/// Above this score, spin only [`SHORT_SPIN`].
const SHORT_ABOVE: u32 = FULL / 2;
/// In short mode, every this many waits spin the full budget (a probe).
const PROBE_EVERY: u32 = 16;
/// Sites remembered per thread (direct-mapped by site; a power of two).
const SITES: usize = 64;
/// A sleep that ends within this long (ns) of its start was ended by a partner about to
/// answer; it is also the longest budget a site learns (both `cost::MAX_BUDGET`, the
/// longest a measured budget spins).
pub(super) const SOON_NS: u64 = 50_000;

/// One site's learning: which site holds the entry, its score, its wait count and the
/// budget its waits woken soon asked for (ns; 0: none).
#[derive(Clone, Copy)]
struct Site {
    key: usize,
    score: u32,
    waits: u32,
    floor_ns: u32,
}

struct State {
    stats: Cell<AdaptiveStats>,
    sites: [Cell<Site>; SITES],
}

thread_local! {
    static STATE: State = const {
        State {
            stats: Cell::new(AdaptiveStats {
                spun: 0, blocked: 0, woken_soon: 0, same_cpu: 0, short: 0, yields: 0,
            }),
            sites: [const { Cell::new(Site { key: 0, score: 0, waits: 0, floor_ns: 0 }) }; SITES],
        }
    };
}

fn bump(f: impl FnOnce(&mut AdaptiveStats)) {
    STATE.with(|s| {
        let mut st = s.stats.get();
        f(&mut st);
        s.stats.set(st);
    });
}

/// The table slot of `site` (addresses: drop the low bits that alignment keeps equal).
pub(super) fn slot_of(site: usize) -> usize {
    (site ^ (site >> 7) ^ (site >> 13)) % SITES
}

/// Runs `f` on `site`'s entry (a fresh one if another site held the slot).
fn with_site<R>(site: usize, f: impl FnOnce(&mut Site) -> R) -> R {
    STATE.with(|s| {
        let cell = &s.sites[slot_of(site)];
        let mut e = cell.get();
        if e.key != site {
            e = Site {
                key: site,
                score: 0,
                waits: 0,
                floor_ns: 0,
            };
        }
        let r = f(&mut e);
        cell.set(e);
        r
    })
}

/// How long to spin (ns) and whether this is a full-budget probe from short mode; `None`
/// for a zero budget. `learned`: the budget is the default one, which the site's waits woken
/// soon may lengthen (an explicit budget is used as given). `same_cpu`: the wait will yield
/// to a peer on its CPU (counted).
pub(super) fn plan(
    budget: Duration,
    learned: bool,
    same_cpu: bool,
    site: usize,
) -> Option<(u64, bool)> {
    let budget_ns = u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX);
    if same_cpu {
        bump(|st| st.same_cpu += 1);
    }
    if budget_ns == 0 {
        return None;
    }
    let (score, n, floor_ns) = with_site(site, |e| {
        e.waits = e.waits.wrapping_add(1);
        (e.score, e.waits, e.floor_ns)
    });
    let full = if learned {
        budget_ns.max(u64::from(floor_ns))
    } else {
        budget_ns
    };
    if cfg!(loom) || score <= SHORT_ABOVE {
        Some((full, false))
    } else if n % PROBE_EVERY == 0 {
        Some((full, true))
    } else {
        bump(|st| st.short += 1);
        Some((full.min(SHORT_SPIN.as_nanos() as u64), false))
    }
}

/// A wait at `site` ended while spinning.
pub(super) fn spun(probe: bool, site: usize) {
    with_site(site, |e| {
        e.score = if probe { 0 } else { e.score - e.score / 4 };
    });
    bump(|st| st.spun += 1);
}

/// A wait's spin phase made `n` yields.
pub(super) fn yielded(n: u64) {
    if n > 0 {
        bump(|st| st.yields += n);
    }
}

/// Test hook: puts the calling thread's learning of `site` in a given state (`score`
/// 0..=256, `waits` counted so far), so tests reach short mode and the probe
/// deterministically.
#[cfg(all(test, not(loom)))]
pub(super) fn set_state(site: usize, score: u32, waits: u32) {
    with_site(site, |e| {
        e.score = score.min(FULL);
        e.waits = waits;
        e.floor_ns = 0;
    });
}

/// A wait spun its budget out and sleeps (counted; [`woke`] learns from how the sleep
/// ended).
pub(super) fn blocked() {
    bump(|st| st.blocked += 1);
}

/// A wait at `site` that slept has ended: `slept_ns` after it fell asleep and `total_ns`
/// after it began, or with an error (`slept_ns` `None`: a timeout or a dead peer);
/// `wake_ns` is what a wake-up costs (the budget the wait was given before any learning: the
/// measured cost, for the default one).
///
/// A sleep that ended within [`SOON_NS`] plus this waiter's own wake-up (`wake_ns`, at most
/// [`SOON_NS`]) was ended by a partner that was running and answered within the longest
/// budget: it counts as a wait that spun (the score falls), and the site's default budget
/// becomes the wait's whole length and a quarter (at most [`SOON_NS`]), so the next such
/// wait spins through it. Two PEs that each spin less than the other's wake-up otherwise
/// lock themselves into sleeping: each sleep makes the partner's next wait outlast its
/// budget, that wait sleeps too, and short mode then spins even less (one run in ten of a
/// 2-PE `shmem_barrier_all` at 4-9 µs instead of 0.2-0.4, issue #44). Any other end (a
/// longer sleep: the partner was idle or slow) raises the score and drops the lengthened
/// budget, so an idle waiter goes back to short spins.
pub(super) fn woke(site: usize, slept_ns: Option<u64>, total_ns: u64, wake_ns: u64) {
    let soon = slept_ns.is_some_and(|s| s <= SOON_NS + wake_ns.min(SOON_NS));
    with_site(site, |e| {
        if soon {
            e.score -= e.score / 4;
            e.floor_ns = total_ns.saturating_add(total_ns / 4).min(SOON_NS) as u32;
        } else {
            e.score += (FULL - e.score) / 4;
            e.floor_ns = 0;
        }
    });
    if soon {
        bump(|st| st.woken_soon += 1);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// A site of its own (no other test learns on it).
    const SITE: usize = 0x5173_0040;
    const US: u64 = 1000;
    /// The waiter's own wake-up (the measured cost).
    const WAKE: u64 = 20 * US;

    /// The learning state machine (no clock: the durations are given). Two parties locked
    /// into sleeping (issue #44) each spin the short spin and sleep through the other's
    /// wake-up, woken by a partner that runs: waits woken soon leave short mode and lengthen
    /// the default budget so that the next wait spins through; waits that sleep long (an
    /// idle partner) or fail give the lengthening back and return to short spins.
    #[test]
    fn waits_woken_soon_restore_and_lengthen_the_budget() {
        let budget = Duration::from_micros(20);
        let plan_of = |learned| plan(budget, learned, false, SITE);
        set_state(SITE, FULL, 1); // short mode, the next wait not a probe
        assert_eq!(plan_of(true), Some((US, false)), "short mode spins 1 µs");
        reset_adaptive_stats();
        // Spun 1 µs, slept 30 µs (the partner's wake-up), woken by the partner: score 256
        // -> 192 -> 144 -> 108, at or below half: the full budget again, lengthened to the
        // wait's 31 µs and a quarter.
        for _ in 0..3 {
            woke(SITE, Some(30 * US), 31 * US, WAKE);
        }
        assert_eq!(plan_of(true), Some((38_750, false)));
        assert_eq!(adaptive_stats().woken_soon, 3);
        // An explicit budget is used as given (the score still applies).
        assert_eq!(plan_of(false), Some((20 * US, false)));
        // The lengthened budget stops at 50 µs; a wait shorter than the measured budget
        // leaves the measured one.
        woke(SITE, Some(50 * US), 80 * US, WAKE); // score 81
        assert_eq!(plan_of(true), Some((50 * US, false)));
        woke(SITE, Some(2 * US), 4 * US, WAKE); // score 61
        assert_eq!(plan_of(true), Some((20 * US, false)));
        woke(SITE, Some(40 * US), 45 * US, WAKE); // score 46
        assert_eq!(
            plan_of(true),
            Some((50 * US, false)),
            "45 µs and a quarter: 50"
        );
        // The partner answered within 50 µs, this waiter's own wake-up (20 µs) took the
        // rest: still soon (score 35).
        woke(SITE, Some(SOON_NS + WAKE), SOON_NS + WAKE + US, WAKE);
        assert_eq!(plan_of(true), Some((50 * US, false)));
        // A sleep past that (the partner was idle): the measured budget again, and the
        // score climbs: 35 -> 90, still the full budget; a timeout or a dead peer counts as
        // long too: 131, short spins; and they stay short while the sleeps are long.
        woke(SITE, Some(SOON_NS + WAKE + 1), 2 * SOON_NS, WAKE);
        assert_eq!(plan_of(true), Some((20 * US, false)), "90: still full");
        woke(SITE, None, 10 * US, WAKE);
        assert_eq!(plan_of(true), Some((US, false)), "131: short spins");
        woke(SITE, Some(5_000 * US), 5_020 * US, WAKE);
        assert_eq!(plan_of(true), Some((US, false)), "162: short spins");
        // A slow wake-up counts for at most 50 µs.
        woke(SITE, Some(2 * SOON_NS + 1), 2 * SOON_NS + 2, 10 * SOON_NS);
        assert_eq!(plan_of(true), Some((US, false)), "185: short spins");
        assert_eq!(adaptive_stats().woken_soon, 7);
        reset_adaptive_stats();
    }

    /// "Soon" and the longest learned budget are the longest measured one.
    #[test]
    fn soon_is_the_longest_measured_budget() {
        assert_eq!(
            Duration::from_nanos(SOON_NS),
            super::super::cost::MAX_BUDGET
        );
    }
}
