//! The minimum-evidence rules of [`super`]: when the machine moved (the c2c floor control),
//! when one invocation per side cannot tell a difference from the drift between invocations,
//! and when heavy-tailed wake-up latencies are separated over several invocations.

use super::{
    mean, runs_or_mean, summary_mean, MetricComparison, Sample, Verdict, CONTROL_MIN_SHIFT_NS,
    CONTROL_TOLERANCE,
};
use crate::schema::ExchangeRecord;
use crate::stats::Metric;
use crate::stats::{ratio_of_means, Ratio};

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
fn separated(a: &[f64], b: &[f64], slower: bool) -> bool {
    let (na, nb) = (a.len() as u64, b.len() as u64);
    // C(na + nb, na), saturating (it only has to be compared with 40).
    let mut c: u64 = 1;
    for i in 0..na.min(nb) {
        c = c.saturating_mul(na + nb - i) / (i + 1);
    }
    let apart = if slower {
        b.iter().all(|y| a.iter().all(|x| y > x))
    } else {
        b.iter().all(|y| a.iter().all(|x| y < x))
    };
    apart && c > 40
}

pub(super) fn metric(
    x: &[Sample],
    y: &[Sample],
    metric: Metric,
    (fail_above, noise, drift): (Option<f64>, f64, f64),
    moved: Option<&str>,
) -> MetricComparison {
    let over_invocations = x.len() >= 2 && y.len() >= 2;
    let values = |s: &[Sample]| -> Vec<f64> {
        if over_invocations {
            s.iter()
                .map(|(_, r)| mean(&runs_or_mean(r, metric)))
                .collect()
        } else {
            s.iter()
                .flat_map(|(_, r)| runs_or_mean(r, metric))
                .collect()
        }
    };
    let means = |s: &[Sample]| {
        mean(
            &s.iter()
                .map(|(_, r)| summary_mean(r, metric))
                .collect::<Vec<_>>(),
        )
    };
    let ratio = ratio_of_means(&values(x), &values(y));
    let mut verdict = Verdict::of(ratio.as_ref(), noise);
    let mut reason = None;
    let wait = &x[0].1.wait;
    if let Some(why) = moved {
        verdict = Verdict::Inconclusive;
        reason = Some(why.to_string());
    } else if !over_invocations
        && metric == Metric::Latency
        && wait != "none"
        && matches!(verdict, Verdict::Slower | Verdict::Faster)
    {
        verdict = Verdict::Inconclusive;
        reason = Some(format!(
            "a {wait} wake-up latency swings between invocations of the same binary; \
             compare >= 4 files per side (A1 A2 A3 A4 --vs B1 B2 B3 B4)"
        ));
    } else if !over_invocations
        && metric == Metric::Read
        && !matches!(wait.as_str(), "none" | "spin")
        && matches!(verdict, Verdict::Slower | Verdict::Faster)
    {
        // Measured: a processes-futex 64 KiB read took 4.5x longer in one invocation than in
        // the next (509 ns vs 2.29 µs): a consumer that slept comes back to caches the host
        // may have used meanwhile.
        verdict = Verdict::Inconclusive;
        reason = Some(format!(
            "the read of a consumer that waits by {wait} follows a sleep and swings between \
             invocations of the same binary (4.5x measured); compare >= 3 files per side"
        ));
    } else if over_invocations
        && wakes_up(x[0].1, metric)
        && matches!(verdict, Verdict::Slower | Verdict::Faster)
        && !separated(&values(x), &values(y), verdict == Verdict::Slower)
    {
        reason = Some(format!(
            "the latency is dominated by {wait} wake-ups, heavy-tailed between invocations; it \
             counts only when every file of B is {} than every file of A over >= 4 files per \
             side (exact rank test, p < 0.05)",
            verdict.as_str()
        ));
        verdict = Verdict::Inconclusive;
    } else if !over_invocations
        && matches!(verdict, Verdict::Slower | Verdict::Faster)
        && !beyond_drift(ratio.as_ref(), drift)
    {
        verdict = Verdict::Inconclusive;
        reason = Some(single_invocation_reason(drift));
    }
    let exceeds = match (fail_above, &ratio) {
        (Some(f), Some(r)) => verdict == Verdict::Slower && r.ci95_low.is_some_and(|l| l > f),
        _ => false,
    };
    MetricComparison {
        a_mean: means(x),
        b_mean: means(y),
        ratio,
        verdict,
        reason,
        exceeds,
    }
}

/// Whether a metric is dominated by the scheduler's wake-ups: the latency of a consumer that
/// sleeps or yields (`wait` other than `none` and `spin`).
fn wakes_up(r: &ExchangeRecord, metric: Metric) -> bool {
    metric == Metric::Latency && !matches!(r.wait.as_str(), "none" | "spin")
}
