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
    /// Waits that found the peer on their own CPU (or the team said it shares this CPU) and
    /// so yielded to it instead of pausing (also counted in `spun` or `blocked`, by how
    /// they ended).
    pub same_cpu: u64,
    /// Waits that spun only the short spin (1 µs) because recent waits outlasted the budget.
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

/// One site's learning: which site holds the entry, its score and its wait count.
#[derive(Clone, Copy)]
struct Site {
    key: usize,
    score: u32,
    waits: u32,
}

struct State {
    stats: Cell<AdaptiveStats>,
    sites: [Cell<Site>; SITES],
}

thread_local! {
    static STATE: State = const {
        State {
            stats: Cell::new(AdaptiveStats { spun: 0, blocked: 0, same_cpu: 0, short: 0, yields: 0 }),
            sites: [const { Cell::new(Site { key: 0, score: 0, waits: 0 }) }; SITES],
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
fn slot_of(site: usize) -> usize {
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
            };
        }
        let r = f(&mut e);
        cell.set(e);
        r
    })
}

/// How long to spin (ns) and whether this is a full-budget probe from short mode; `None`
/// for a zero budget. `same_cpu`: the wait will yield to a peer on its CPU (counted).
pub(super) fn plan(budget: Duration, same_cpu: bool, site: usize) -> Option<(u64, bool)> {
    let budget_ns = u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX);
    if same_cpu {
        bump(|st| st.same_cpu += 1);
    }
    if budget_ns == 0 {
        return None;
    }
    let (score, n) = with_site(site, |e| {
        e.waits = e.waits.wrapping_add(1);
        (e.score, e.waits)
    });
    if cfg!(loom) || score <= SHORT_ABOVE {
        Some((budget_ns, false))
    } else if n % PROBE_EVERY == 0 {
        Some((budget_ns, true))
    } else {
        bump(|st| st.short += 1);
        Some((budget_ns.min(SHORT_SPIN.as_nanos() as u64), false))
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
    });
}

/// A wait at `site` spun its budget out and sleeps.
pub(super) fn blocked(site: usize) {
    with_site(site, |e| {
        e.score += (FULL - e.score) / 4;
    });
    bump(|st| st.blocked += 1);
}
