//! The per-thread learning of `Adaptive` waits (the parent module's docs, "Learning the spin
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
    /// Waits that found the peer on their own CPU and so yielded to it instead of spinning
    /// (also counted in `spun` or `blocked`, by how they ended).
    pub same_cpu: u64,
    /// Waits that spun only [`SHORT_SPIN`] because recent waits outlasted the budget.
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

struct State {
    stats: Cell<AdaptiveStats>,
    score: Cell<u32>,
    waits: Cell<u32>,
}

thread_local! {
    static STATE: State = const {
        State {
            stats: Cell::new(AdaptiveStats { spun: 0, blocked: 0, same_cpu: 0, short: 0, yields: 0 }),
            score: Cell::new(0),
            waits: Cell::new(0),
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

/// How long to spin (ns) and whether this is a full-budget probe from short mode; `None`
/// for a zero budget. `same_cpu`: the wait will yield to a peer on its CPU (counted).
pub(super) fn plan(budget: Duration, same_cpu: bool) -> Option<(u64, bool)> {
    let budget_ns = u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX);
    if same_cpu {
        bump(|st| st.same_cpu += 1);
    }
    if budget_ns == 0 {
        return None;
    }
    STATE.with(|s| {
        let n = s.waits.get().wrapping_add(1);
        s.waits.set(n);
        if cfg!(loom) || s.score.get() <= SHORT_ABOVE {
            Some((budget_ns, false))
        } else if n % PROBE_EVERY == 0 {
            Some((budget_ns, true))
        } else {
            let mut st = s.stats.get();
            st.short += 1;
            s.stats.set(st);
            Some((budget_ns.min(SHORT_SPIN.as_nanos() as u64), false))
        }
    })
}

/// A wait ended while spinning.
pub(super) fn spun(probe: bool) {
    STATE.with(|s| {
        let score = s.score.get();
        s.score.set(if probe { 0 } else { score - score / 4 });
    });
    bump(|st| st.spun += 1);
}

/// A wait's spin phase made `n` yields.
pub(super) fn yielded(n: u64) {
    if n > 0 {
        bump(|st| st.yields += n);
    }
}

/// Test hook: puts the calling thread's learning in a given state (`score` 0..=256,
/// `waits` counted so far), so tests reach short mode and the probe deterministically.
#[cfg(all(test, not(loom)))]
pub(super) fn set_state(score: u32, waits: u32) {
    STATE.with(|s| {
        s.score.set(score.min(FULL));
        s.waits.set(waits);
    });
}

/// A wait spun its budget out and sleeps.
pub(super) fn blocked() {
    STATE.with(|s| {
        let score = s.score.get();
        s.score.set(score + (FULL - score) / 4);
    });
    bump(|st| st.blocked += 1);
}
