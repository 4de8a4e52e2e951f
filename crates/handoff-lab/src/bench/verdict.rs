//! The evidence rules of `handoff compare` ([`super::compare`]): verdicts, thresholds and
//! the checks that turn a verdict into *inconclusive*.
//!
//! # The unit of evidence
//!
//! With **two or more files on each side**, the invocation is the unit: each file contributes
//! one value per record (the mean of its run means) and the CI of B/A
//! ([`crate::stats::ratio_of_means`], Welch's t on the log scale) is taken over those values,
//! so the drift between invocations (the host moves vCPUs, another process takes the CPU for
//! a while) is inside the interval. With **one file on a side**, the CI is over the runs of
//! that file, and knows nothing of that drift: on a shared VM, two invocations of the same
//! binary differ far beyond it. A regression gate should therefore compare ≥ 2 (better 3)
//! invocations per side, interleaved in time (A1 B1 A2 B2 A3 B3) when both binaries exist.
//!
//! # Verdict and exit code
//!
//! A minimum-evidence rule, as criterion has: for each metric, **slower** only when the 95% CI
//! of B/A lies wholly above 1 **and** the ratio exceeds 1 + the noise threshold (default
//! [`DEFAULT_NOISE_THRESHOLD`], 5%); **faster** only when the CI lies below 1 **and** the ratio
//! is under 1 − the threshold; otherwise **same** (no change beyond noise); **unknown** without
//! a CI (a side has one run: no evidence) or without a ratio (mean of A not positive).
//! Two rules then turn a verdict into **inconclusive** (with the reason):
//!
//! - *Machine control.* Every cross-CPU record carries the c2c floor measured next to it
//!   ([`super::BenchRecord::c2c_one_way_ns`]).
//!   When the mean floor of B differs from A's by more than [`CONTROL_TOLERANCE`] and
//!   [`CONTROL_MIN_SHIFT_NS`] (and, with ≥ 2 files per side, the CI of the floors' ratio
//!   excludes 1), the machine changed between the files: both metrics of the record are
//!   inconclusive, whatever their ratio, instead of blaming the code.
//! - *Wake-up latencies need invocations.* The latency of a record whose consumer waits is the
//!   scheduler's and the hypervisor's wake-up time, which swings 1.2–5× between invocations of
//!   the same binary, with heavy tails. With one file on a side, a slower or faster latency of
//!   such a record (its `info.wait` other than `none`) is inconclusive. With several, a latency whose
//!   consumer sleeps or yields (`wait` other than `none` and `spin`: futex, semaphore, condvar,
//!   pipe, adaptive, spin-yield) must also be separated: every file of B slower (or faster)
//!   than every file of A, with an exact rank-test p < 0.05, i.e. ≥ 4 files per side.
//!
//! `--fail-above RATIO` is exceeded when, for some matched record and metric, the verdict is
//! slower **and** the CI's lower bound is above RATIO (B slower than RATIO × A with 95%
//! confidence): a point ratio above RATIO whose CI straddles it does not fail.
//! [`super::compare::BenchComparison::exit_code`] is then 1, else 0; the CLI maps errors (bad files:
//! [`CompareError`], usage) to 2.

use serde::Serialize;

use crate::stats::{mean, ratio_of_means, Ratio};

/// Exit code when the comparison ran and no threshold was exceeded.
pub const EXIT_OK: i32 = 0;
/// Exit code when `--fail-above` was exceeded.
pub const EXIT_FAIL_ABOVE: i32 = 1;
/// Changes smaller than this fraction are noise, whatever the CI says (`--noise-threshold`).
pub const DEFAULT_NOISE_THRESHOLD: f64 = 0.05;
/// Unmatched (and inconclusive) records listed one per line before the rest are summarized.
pub const MAX_LISTED_UNMATCHED: usize = 10;
/// The machine changed when the c2c floor beside a record moved by more than this fraction
/// between A and B (a 1.25× shift either way). Between the records of one invocation on a
/// quiet VM the floor stays within about ±20% (24–41 ns measured); a host moving vCPUs shifts
/// it several-fold (30 → 220 ns).
pub const CONTROL_TOLERANCE: f64 = 0.25;
/// ... and by more than this many nanoseconds (below it, the floor's own jitter).
pub const CONTROL_MIN_SHIFT_NS: f64 = 15.0;
/// How far two invocations of the same binary drift apart on a shared VM (the host moves
/// vCPUs): 2–3× measured here. With one file on a side, the interval is over that file's runs
/// and knows nothing of this drift, so a difference counts only when the whole interval lies
/// beyond [1/3, 3].
pub const SINGLE_INVOCATION_DRIFT: f64 = 3.0;

/// The files cannot be compared.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompareError {
    /// No record of B matches one of A.
    #[error(
        "no record of B matches a record of A by series and parameters: A has {a} record(s), B has {b}; compare results of the same experiment"
    )]
    NothingMatched {
        /// Records in A (all of A's files).
        a: usize,
        /// Records in B.
        b: usize,
    },
    /// A side has no file.
    #[error("compare needs at least one results file on each side (A ... --vs B ...)")]
    NoFiles,
    /// `--fail-above` is not a positive finite number.
    #[error("--fail-above must be a positive ratio such as 1.10, not {0}")]
    BadThreshold(f64),
    /// `--drift` is not a factor of at least 1.
    #[error("--drift must be a factor of at least 1 (1 trusts one invocation's runs), not {0}")]
    BadDrift(f64),
    /// The files are results of different experiments.
    #[error("cannot compare results of different experiments: {a} vs {b}")]
    MixedExperiments {
        /// The first side's experiment.
        a: String,
        /// The other experiment found.
        b: String,
    },
    /// `--noise-threshold` is not a fraction in [0, 1).
    #[error("--noise-threshold must be a fraction such as 0.05 (5%), from 0 up to 1, not {0}")]
    BadNoise(f64),
}

/// The verdict for one metric of one matched record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// B takes less time than A (CI below 1).
    Faster,
    /// B takes more time than A (CI above 1).
    Slower,
    /// No change beyond noise (CI contains 1, or the change is within the noise threshold).
    Same,
    /// Cannot tell (no CI: one run; or no ratio).
    Unknown,
    /// The evidence cannot be trusted: the machine changed, or a wake-up latency lacks the
    /// evidence it needs (see the module docs and [`super::compare::BenchMetricComparison::reason`]).
    Inconclusive,
}

impl Verdict {
    /// "faster", "slower", "same", "unknown", "inconclusive".
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Same => "same",
            Verdict::Unknown => "unknown",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// The verdict of a ratio under the minimum-evidence rule (see the module docs).
    pub fn of(ratio: Option<&Ratio>, noise: f64) -> Verdict {
        let Some(r) = ratio else {
            return Verdict::Unknown;
        };
        match (r.ci95_low, r.ci95_high) {
            (Some(l), Some(_)) if l > 1.0 && r.ratio > 1.0 + noise => Verdict::Slower,
            (Some(_), Some(h)) if h < 1.0 && r.ratio < 1.0 - noise => Verdict::Faster,
            (Some(_), Some(_)) => Verdict::Same,
            _ => Verdict::Unknown,
        }
    }
}

/// Whether a ratio's whole 95% interval lies outside [1/drift, drift] (false without an
/// interval).
pub fn beyond_drift(r: Option<&Ratio>, drift: f64) -> bool {
    match r.and_then(|r| r.ci95_low.zip(r.ci95_high)) {
        Some((l, h)) => l > drift || h < 1.0 / drift,
        None => false,
    }
}

/// The reason given when a one-file-per-side difference stays within the drift band.
pub fn single_invocation_reason(drift: f64) -> String {
    format!(
        "one file on a side: its interval covers the runs of one invocation, not the drift \
         between invocations (up to {drift}x, --drift); compare >= 3 files per side \
         (A1 A2 A3 --vs B1 B2 B3)"
    )
}

/// Whether the machine control moved beyond its noise between A and B: the mean floors differ
/// by more than [`CONTROL_TOLERANCE`] and [`CONTROL_MIN_SHIFT_NS`]; with ≥ 2 files per side,
/// the 95% CI of the floors' ratio must also exclude 1 (a side whose invocations alternate
/// between two floors has its records' spread in their own CI already).
pub fn control_moved(a_ns: &[f64], b_ns: &[f64]) -> bool {
    let Some(r) = ratio_of_means(a_ns, b_ns) else {
        return false;
    };
    let shifted = (mean(b_ns) - mean(a_ns)).abs() > CONTROL_MIN_SHIFT_NS
        && !(1.0 / (1.0 + CONTROL_TOLERANCE)..=1.0 + CONTROL_TOLERANCE).contains(&r.ratio);
    let one_side_single = a_ns.len() < 2 || b_ns.len() < 2;
    shifted && (one_side_single || !r.ci_contains_one())
}

/// Whether every value of `b` is above (`slower`) or below every value of `a` with an exact
/// two-sided Mann–Whitney p under 0.05: complete separation has p = 2 / C(n_a + n_b, n_a), so
/// this needs C > 40 (4 + 4, 3 + 5 or 2 + 8 values at least). Distribution-free: a single
/// wild invocation cannot fake it, as it can Welch's t over three.
pub fn separated(a: &[f64], b: &[f64], slower: bool) -> bool {
    let (na, nb) = (a.len() as u64, b.len() as u64);
    // C(na + nb, na), saturating (it only has to be compared with 40).
    let mut c: u64 = 1;
    for i in 0..na.min(nb) {
        c = c.saturating_mul(na + nb - i) / (i + 1);
    }
    let beyond_all_of_a = |y: &f64| a.iter().all(|x| if slower { y > x } else { y < x });
    b.iter().all(beyond_all_of_a) && c > 40
}
