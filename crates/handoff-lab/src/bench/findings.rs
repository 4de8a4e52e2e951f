//! A seed's claim checked on this machine: a ratio with its interval and a verdict the data
//! can support — "holds", "does not hold" or "inconclusive", never a winner drawn from noise.

use serde::Serialize;

use super::{BenchRecord, BenchResults};
use crate::stats::{ratio_of_means, Ratio};

/// Whether a claim holds here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Holds {
    /// The whole interval is on the claim's side of its threshold.
    Yes,
    /// The whole interval is on the other side.
    No,
    /// The interval straddles the threshold, or there is no interval (one run).
    Inconclusive,
}

impl Holds {
    /// "holds", "does not hold", "inconclusive".
    pub fn as_str(self) -> &'static str {
        match self {
            Holds::Yes => "holds",
            Holds::No => "does not hold",
            Holds::Inconclusive => "inconclusive",
        }
    }
}

/// One claim of a seed, judged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// The claim in the seed's words, short ("counting puts halve small-message latency").
    pub claim: String,
    /// What the ratio divides ("fence-flag latency / put-signal latency").
    pub what: String,
    /// The claim's own figure: the ratio holds when at or above it (`None`: a claim that is
    /// not one threshold, e.g. a crossover).
    pub threshold: Option<f64>,
    /// The measured ratio (what the claim is about / its baseline), when measurable.
    pub ratio: Option<Ratio>,
    /// The verdict.
    pub holds: Holds,
    /// One sentence for the report: the ratio, its interval, and why.
    pub sentence: String,
}

/// Judges "ratio ≥ `threshold`" for the ratio of means `numerator / denominator` over per-run
/// means (Welch log-t interval, [`ratio_of_means`]): holds when the interval's low end is at
/// or above the threshold, does not hold when its high end is below it, else inconclusive.
/// `what` names the ratio in the sentence ("fence-flag latency / put-signal latency").
pub fn at_least(
    claim: &str,
    what: &str,
    numerator_run_means: &[f64],
    denominator_run_means: &[f64],
    threshold: f64,
) -> Finding {
    // ratio_of_means(a, b) is mean(b) / mean(a).
    let ratio = ratio_of_means(denominator_run_means, numerator_run_means);
    judge(claim, what, ratio, threshold)
}

/// [`at_least`] when both sides were measured; no finding when either was not.
pub fn at_least_if(
    claim: &str,
    what: &str,
    numerator_run_means: Option<Vec<f64>>,
    denominator_run_means: Option<Vec<f64>>,
    threshold: f64,
) -> Option<Finding> {
    let (a, b) = (numerator_run_means?, denominator_run_means?);
    Some(at_least(claim, what, &a, &b, threshold))
}

/// Judges "ratio ≥ `threshold`" for an already computed ratio (see [`at_least`]).
pub fn judge(claim: &str, what: &str, ratio: Option<Ratio>, threshold: f64) -> Finding {
    let (holds, sentence) = match ratio {
        None => (
            Holds::Inconclusive,
            format!("{claim}: not measured here ({what} needs both sides measured)."),
        ),
        Some(r) => match (r.ci95_low, r.ci95_high) {
            (Some(lo), Some(hi)) => {
                let (holds, why) = if lo >= threshold {
                    let why = format!("the whole 95% interval is at or above {threshold}");
                    (Holds::Yes, why)
                } else if hi < threshold {
                    (Holds::No, format!("the whole 95% interval is below {threshold}"))
                } else {
                    let why = "more runs could tell";
                    (Holds::Inconclusive, format!("the 95% interval straddles {threshold}: {why}"))
                };
                (
                    holds,
                    format!(
                        "{claim}: {} here — {what} = {:.2}× (95% CI {:.2}–{:.2}); {why}.",
                        holds.as_str(),
                        r.ratio,
                        lo,
                        hi
                    ),
                )
            }
            _ => (
                Holds::Inconclusive,
                format!(
                    "{claim}: inconclusive — {what} = {:.2}× from one run, no interval; run with --runs 3 or more.",
                    r.ratio
                ),
            ),
        },
    };
    Finding {
        claim: claim.to_string(),
        what: what.to_string(),
        threshold: Some(threshold),
        ratio,
        holds,
        sentence,
    }
}

/// The most threads (a record's x) that still have a CPU each on the machine, at least 2;
/// where the thread experiments judge their seed's claims.
pub fn most_threads_with_a_cpu(res: &BenchResults) -> Option<f64> {
    let cpus = res.machine.allowed_cpus.len().max(1) as f64;
    res.records
        .iter()
        .map(|r| r.x)
        .filter(|&x| x >= 2.0 && x <= cpus)
        .reduce(f64::max)
}

/// The run means of `metric` at point `x` of `series`, if it was measured (what findings
/// compare).
pub fn run_means(res: &BenchResults, series: &str, x: f64, metric: &str) -> Option<Vec<f64>> {
    run_means_of(res, metric, |r| r.series == series && r.x == x)
}

/// The run means of `metric` of the first record `pick` accepts, if it was measured.
pub fn run_means_of(
    res: &BenchResults,
    metric: &str,
    pick: impl Fn(&BenchRecord) -> bool,
) -> Option<Vec<f64>> {
    let r = res.records.iter().find(|r| pick(r))?;
    r.metrics.get(metric).map(|m| m.run_means.clone())
}

#[cfg(test)]
pub(crate) use tests::record_of_runs;

#[cfg(test)]
mod tests {
    use super::*;

    /// Tests: a record of `series` at `x` (3 runs, 1 iteration each, verified) whose `metric`
    /// (in `unit`) has one sample per run, the given run means.
    pub(crate) fn record_of_runs(
        series: impl Into<String>,
        x: f64,
        (metric, unit, higher_is_better): (&str, &str, bool),
        run_means: &[f64],
    ) -> BenchRecord {
        let runs: Vec<Vec<f64>> = run_means.iter().map(|&m| vec![m]).collect();
        let m = crate::bench::MetricRecord::from_runs(unit, higher_is_better, &runs).unwrap();
        BenchRecord::new(series, x, 3, 1, true).metric(metric, m)
    }

    #[test]
    fn most_threads_with_a_cpu_stays_within_the_cpus_and_from_2() {
        let mut res = BenchResults::empty("t");
        res.machine.allowed_cpus = vec![0, 1, 2];
        for x in [1.0, 2.0, 4.0, 8.0] {
            res.records
                .push(record_of_runs("s", x, ("m", "ns", false), &[1.0, 1.0]));
        }
        assert_eq!(most_threads_with_a_cpu(&res), Some(2.0));
        res.machine.allowed_cpus = vec![0];
        assert_eq!(most_threads_with_a_cpu(&res), None);
    }

    #[test]
    fn verdict_follows_the_interval_not_the_point() {
        // Hand-made run means: numerator ≈ 2.2× denominator with tiny spread → holds at 2.
        let f = at_least("x", "a/b", &[2.2, 2.21, 2.19], &[1.0, 1.001, 0.999], 2.0);
        assert_eq!(f.holds, Holds::Yes, "{}", f.sentence);
        assert!((f.ratio.unwrap().ratio - 2.2).abs() < 0.01);
        // ≈ 1.5×, tight → does not hold at 2.
        let f = at_least("x", "a/b", &[1.5, 1.51, 1.49], &[1.0, 1.0, 1.0], 2.0);
        assert_eq!(f.holds, Holds::No, "{}", f.sentence);
        // 2.1× on average but wildly spread → inconclusive.
        let f = at_least("x", "a/b", &[1.0, 4.0, 1.3], &[1.0, 1.0, 1.0], 2.0);
        assert_eq!(f.holds, Holds::Inconclusive, "{}", f.sentence);
        // One run: no interval → inconclusive whatever the point says.
        let f = at_least("x", "a/b", &[10.0], &[1.0], 2.0);
        assert_eq!(f.holds, Holds::Inconclusive, "{}", f.sentence);
        assert!(f.sentence.contains("no interval"), "{}", f.sentence);
    }
}
