//! The report's time budget: which protocol a run follows ([`Protocol`]) and the ladder of
//! ever leaner exchange protocols ([`LADDER`]) a budget picks from.
//!
//! A budget run takes the richest step of the ladder whose estimate (every experiment, c2c
//! and writing included) fits the budget. Every step still sweeps past the last-level cache:
//! the sizes stay, the repetitions and runs shrink, then the other experiments switch to
//! their quick plans, then the sweep keeps every other size. Fewer repetitions give wider
//! intervals, never narrower ones: every interval is computed from the samples taken, and
//! the plan says how far below the seeds' protocol (100 repetitions x 5 runs) it went.

/// Which protocol `handoff report` follows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Protocol {
    /// `--quick`: seconds, sizes to 16 MiB only.
    Quick,
    /// The richest step of [`LADDER`] estimated to finish within these seconds.
    Budget(f64),
    /// `--full`: the seeds' own protocols, 100 repetitions x 5 runs at every point.
    Full,
}

/// `handoff report`'s default budget, seconds.
pub const DEFAULT_BUDGET_S: f64 = 300.0;

/// One exchange protocol: repetitions, runs, sweep density, and which plans the other
/// experiments run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Repetitions per run of a 1 MiB block (fewer for larger ones, as OSU does).
    pub max_reps: u32,
    /// The fewest repetitions per run of any block.
    pub min_reps: u32,
    /// Runs per point.
    pub runs: u32,
    /// The sweep's sizes are powers of `4^sweep_step` (1: every power of 4).
    pub sweep_step: u32,
    /// The other experiments run their quick plans.
    pub others_quick: bool,
}

/// The seeds' protocol: 100 repetitions x 5 runs at every point (`--full`).
pub const FULL: Step = step(100, 100, 5, 1, false);

/// `--quick`: 30 repetitions (5 at 16 MiB) x 3 runs, other experiments quick.
pub const QUICK: Step = step(30, 5, 3, 2, true);

/// A budget's choices, richest first.
pub const LADDER: [Step; 8] = [
    step(100, 10, 5, 1, false),
    step(50, 10, 5, 1, false),
    step(30, 5, 5, 1, false),
    step(30, 5, 5, 1, true),
    step(20, 5, 3, 1, true),
    step(10, 3, 3, 1, true),
    step(10, 3, 3, 2, true),
    step(5, 2, 3, 2, true),
];

/// A step of `max_reps`-`min_reps` repetitions x `runs` runs, sweeping every power of
/// `4^sweep_step`, the other experiments quick when `quick`.
const fn step(max_reps: u32, min_reps: u32, runs: u32, sweep_step: u32, quick: bool) -> Step {
    Step {
        max_reps,
        min_reps,
        runs,
        sweep_step,
        others_quick: quick,
    }
}

impl Step {
    /// One line for the plan: "reps 10-100 by size x 5 runs, other experiments' full plans".
    pub fn describe(&self) -> String {
        let reps = if self.min_reps == self.max_reps {
            format!("{} repetitions", self.max_reps)
        } else {
            format!("{}-{} repetitions by size", self.min_reps, self.max_reps)
        };
        format!(
            "{reps} x {} runs per point, sweep every {}, other experiments' {} plans",
            self.runs,
            if self.sweep_step == 1 {
                "power of 4"
            } else {
                "power of 16"
            },
            if self.others_quick { "quick" } else { "full" }
        )
    }
}

/// Parses a budget: `300`, `300s`, `5m`, `5min`, `1h`, `1h30m` (seconds when no unit), in
/// seconds; the core's duration rule ([`handoff::team::parse_duration`]).
pub fn parse_budget(text: &str) -> Result<f64, handoff::team::TeamError> {
    handoff::team::parse_duration(text).map(|d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_with_units_and_refuse_nonsense() {
        let ok = |t: &str| parse_budget(t).unwrap();
        assert_eq!(ok("300"), 300.0);
        assert_eq!(ok("300s"), 300.0);
        assert_eq!(ok("5min"), 300.0);
        assert_eq!(ok("5m"), 300.0);
        assert_eq!(ok("1h30m"), 5400.0);
        assert_eq!(ok("1.5h"), 5400.0);
        assert_eq!(ok("1m 30s"), 90.0);
        for bad in ["", "0", "5 days", "m", "-3", "1e9999", "2y"] {
            let e = parse_budget(bad).unwrap_err().to_string();
            assert!(e.contains("bad duration"), "{bad}: {e}");
        }
    }

    /// Each step of the ladder is no richer than the one before, in every knob.
    #[test]
    fn the_ladder_only_gets_leaner() {
        for w in LADDER.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(
                b.max_reps <= a.max_reps && b.min_reps <= a.min_reps,
                "{b:?}"
            );
            assert!(b.runs <= a.runs && b.sweep_step >= a.sweep_step, "{b:?}");
            assert!(b.others_quick || !a.others_quick, "{b:?}");
            assert_ne!(a, b);
        }
        assert_eq!(LADDER[0].max_reps, FULL.max_reps);
    }
}
