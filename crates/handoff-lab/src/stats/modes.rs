//! Run-to-run modes: run means that sit at two levels far apart (e.g. 3 runs at 18 µs and 2 at
//! 34 µs) are a fact to show, not noise to average.
//!
//! # Rule
//!
//! Sort the (positive) run means and find the largest ratio between neighbours, splitting the
//! runs into a low and a high group there. The runs are *two-level* when that ratio is at
//! least [`MODE_MIN_GAP`] (25%) **and** the gap, on the log scale, is at least
//! [`MODE_GAP_OVER_WIDTH`] times the wider group's own spread (max/min within the group).
//! A lone run far from the others counts too ("1/5 runs ≈ ..."): it is just as real a level.

use super::quantile_sorted;
use crate::bench::text::fmt_us;

/// Smallest ratio between the two levels for them to count as modes.
pub const MODE_MIN_GAP: f64 = 1.25;
/// The gap between levels must be this many times wider (log scale) than either level.
pub const MODE_GAP_OVER_WIDTH: f64 = 2.0;

/// One level of a two-level set of runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Level {
    /// Runs (0-based) at this level.
    pub runs: Vec<usize>,
    /// Median of their run means.
    pub center: f64,
}

/// Run means at two levels far apart.
#[derive(Debug, Clone, PartialEq)]
pub struct RunModes {
    /// Number of runs in all.
    pub total: usize,
    /// The low level, then the high one.
    pub levels: [Level; 2],
}

impl RunModes {
    /// "bimodal: 3/5 runs ≈ 18.2 µs, 2/5 ≈ 34.0 µs" (values in µs).
    pub fn describe(&self) -> String {
        let [a, b] = &self.levels;
        format!(
            "bimodal: {}/{} runs ≈ {}, {}/{} ≈ {}",
            a.runs.len(),
            self.total,
            fmt_us(a.center),
            b.runs.len(),
            self.total,
            fmt_us(b.center)
        )
    }
}

/// The two levels of `run_means`, if they form two (see the module docs). `None` for fewer
/// than 2 runs or any mean that is not positive and finite.
pub fn run_modes(run_means: &[f64]) -> Option<RunModes> {
    if run_means.len() < 2 || !run_means.iter().all(|m| m.is_finite() && *m > 0.0) {
        return None;
    }
    let mut order: Vec<usize> = (0..run_means.len()).collect();
    order.sort_by(|&i, &j| run_means[i].total_cmp(&run_means[j]));
    let v: Vec<f64> = order.iter().map(|&i| run_means[i]).collect();
    let (split, gap) = (1..v.len())
        .map(|i| (i, v[i] / v[i - 1]))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let width = (v[split - 1] / v[0]).max(v[v.len() - 1] / v[split]);
    if gap < MODE_MIN_GAP || gap.ln() < MODE_GAP_OVER_WIDTH * width.ln() {
        return None;
    }
    let level = |range: std::ops::Range<usize>| {
        let mut runs: Vec<usize> = order[range.clone()].to_vec();
        runs.sort_unstable();
        Level {
            runs,
            center: quantile_sorted(&v[range], 0.5),
        }
    };
    Some(RunModes {
        total: v.len(),
        levels: [level(0..split), level(split..v.len())],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_levels_by_hand() {
        // The case: 18 µs vs 33-35 µs.
        let m = run_modes(&[18.0, 33.0, 18.4, 35.0, 18.2]).expect("two levels");
        assert_eq!(m.levels[0].runs, vec![0, 2, 4]);
        assert_eq!(m.levels[1].runs, vec![1, 3]);
        assert_eq!(m.levels[0].center, 18.2);
        assert_eq!(m.levels[1].center, 34.0);
        assert_eq!(m.describe(), "bimodal: 3/5 runs ≈ 18.2 µs, 2/5 ≈ 34.0 µs");
        // A smooth spread (each step 26%) is not two levels: the gap is no wider than a level.
        assert!(run_modes(&[10.0, 12.6, 15.9, 20.0]).is_none());
        // Close runs, too few runs, non-positive means: none.
        assert!(run_modes(&[10.0, 10.5, 11.0]).is_none());
        assert!(run_modes(&[10.0]).is_none());
        assert!(run_modes(&[0.0, 30.0]).is_none());
        // Two runs 30% apart are two levels; 20% apart are not.
        assert!(run_modes(&[10.0, 13.0]).is_some());
        assert!(run_modes(&[10.0, 12.0]).is_none());
    }
}
