//! The c2c floor next to a record: a short probe of the record's CPU pair just before the
//! record and, for the team experiments, just after it, and whether the host stayed in one
//! state in between.
//!
//! This VM's host moves vCPUs: the pair's floor reads ~17, ~38 or ~200 ns and flips between
//! them within seconds. A latency divided by a floor of another moment is a wrong ratio (a
//! 78 ns hop over a 17 ns floor read 4.6× where the hop's own state gave 2.1×), so a record
//! whose floors before and after disagree carries no floor, and says why.

use std::time::Duration;

/// The short c2c measurement taken next to each record (about a millisecond).
const ADJACENT_C2C: handoff_probe::floor::C2cOptions = handoff_probe::floor::C2cOptions {
    round_trips_per_sample: 500,
    samples: 21,
    warmup_samples: 5,
    timeout: Duration::from_secs(10),
};

/// The floor next to a record: a short c2c measurement (about a millisecond) of the pair.
pub fn adjacent_c2c(a: usize, b: usize) -> Option<f64> {
    handoff_probe::floor::c2c(a, b, &ADJACENT_C2C)
        .ok()
        .map(|r| r.median_one_way_ns)
}

/// The most the larger of the floors before and after a record may exceed the smaller for
/// both to be one host state. Within a state the probe's medians spread by about 15%; the
/// states are 2× and more apart.
pub const DRIFT_LIMIT: f64 = 1.3;

/// What the floors before and after a record say.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Around {
    /// Both measured and within [`DRIFT_LIMIT`]: their mean is the record's floor.
    Steady(f64),
    /// Both measured, further apart: the host changed state during the record.
    Drifted {
        /// The floor before, ns.
        before: f64,
        /// The floor after, ns.
        after: f64,
    },
    /// Only one measured (the other probe failed): it, unchecked.
    One(f64),
    /// Neither.
    None,
}

impl Around {
    /// Classifies the floors `before` and `after` a record (ns).
    pub fn of(before: Option<f64>, after: Option<f64>) -> Around {
        match (before, after) {
            (Some(b), Some(a)) if b.max(a) <= DRIFT_LIMIT * b.min(a) => {
                Around::Steady((b + a) / 2.0)
            }
            (Some(before), Some(after)) => Around::Drifted { before, after },
            (Some(f), None) | (None, Some(f)) => Around::One(f),
            (None, None) => Around::None,
        }
    }

    /// The floor to put on the record: none when the host drifted.
    pub fn floor(self) -> Option<f64> {
        match self {
            Around::Steady(f) | Around::One(f) => Some(f),
            Around::Drifted { .. } | Around::None => None,
        }
    }

    /// The note for the run's reader when the host drifted during record `what`.
    pub fn note(self, what: &str) -> Option<String> {
        match self {
            Around::Drifted { before, after } => Some(format!(
                "{what}: the host changed state during the record (c2c floor {before:.1} ns \
                 before, {after:.1} ns after): it carries no probe floor, so no ratio to \
                 that"
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floors_within_the_limit_are_one_state_and_give_their_mean() {
        assert_eq!(Around::of(Some(36.0), Some(40.0)), Around::Steady(38.0));
        assert_eq!(Around::of(Some(40.0), Some(36.0)).floor(), Some(38.0));
        // At the limit: still one state.
        assert_eq!(Around::of(Some(30.0), Some(39.0)), Around::Steady(34.5));
        assert_eq!(Around::of(Some(30.0), Some(39.0)).note("x"), None);
    }

    #[test]
    fn floors_of_two_states_drop_the_floor_and_say_so() {
        for (b, a) in [(17.2, 38.0), (38.0, 17.2), (38.0, 212.0), (30.0, 39.1)] {
            let around = Around::of(Some(b), Some(a));
            assert_eq!(
                around,
                Around::Drifted {
                    before: b,
                    after: a
                }
            );
            assert_eq!(around.floor(), None);
            let note = around.note("line 8 B shared-l3").unwrap();
            assert!(
                note.starts_with("line 8 B shared-l3: the host changed state"),
                "{note}"
            );
            assert!(
                note.contains(&format!("{b:.1} ns before, {a:.1} ns after")),
                "{note}"
            );
        }
    }

    #[test]
    fn one_floor_is_used_unchecked_and_none_is_none() {
        assert_eq!(Around::of(Some(38.0), None).floor(), Some(38.0));
        assert_eq!(Around::of(None, Some(38.0)).floor(), Some(38.0));
        assert_eq!(Around::of(None, Some(38.0)).note("x"), None);
        assert_eq!(Around::of(None, None).floor(), None);
    }
}
