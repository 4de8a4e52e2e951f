//! `handoff compare` of [`BenchResults`] files: records matched by series and parameters,
//! B/A of every metric with its interval and a verdict, under the evidence rules of
//! [`super::verdict`]: with ≥ 2 files per side the invocation is the unit (each file
//! contributes the mean of its run means); with one file on a side, a difference counts only
//! beyond the drift between invocations on this kind of machine
//! ([`super::verdict::SINGLE_INVOCATION_DRIFT`]); a record whose c2c floor moved, or measured
//! on a busy machine, is inconclusive; a latency whose consumer waits (`info.wait`, the
//! exchange's) needs several invocations. For a rate (higher is better), "slower" means B's
//! rate is lower.

use std::collections::BTreeMap;

use serde::Serialize;

use super::schema::{BenchRecord, BenchResults};
use super::verdict::{
    beyond_drift, control_moved, separated, single_invocation_reason, CompareError, Verdict,
    MAX_LISTED_UNMATCHED,
};
use crate::stats::{mean, ratio_of_means, Ratio};

/// B/A of one metric of one matched record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchMetricComparison {
    /// Metric name.
    pub metric: String,
    pub unit: String,
    /// Higher is better (a rate).
    pub higher_is_better: bool,
    /// Mean of A.
    pub a_mean: f64,
    /// Mean of B.
    pub b_mean: f64,
    /// B/A with its interval.
    pub ratio: Option<Ratio>,
    /// The verdict (for a rate, slower = B's rate is lower).
    pub verdict: Verdict,
    /// Why the verdict is inconclusive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether this metric exceeds `--fail-above` (a slowdown by more than that factor with
    /// 95% confidence).
    pub exceeds: bool,
}

/// One matched record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchMatched {
    /// Series and parameters.
    pub key: String,
    /// Files of A that have the record.
    pub invocations_a: usize,
    /// Files of B that have it.
    pub invocations_b: usize,
    /// Every metric both sides have.
    pub metrics: Vec<BenchMetricComparison>,
}

/// The comparison of two sides of one experiment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchComparison {
    pub experiment: String,
    /// Matched records in A's order.
    pub matched: Vec<BenchMatched>,
    /// Keys only A has.
    pub unmatched_a: Vec<String>,
    /// Keys only B has.
    pub unmatched_b: Vec<String>,
    /// `--fail-above`.
    pub fail_above: Option<f64>,
    /// Noise threshold (fraction).
    pub noise_threshold: f64,
}

impl BenchComparison {
    /// Whether some metric exceeds `--fail-above`.
    pub fn exceeded(&self) -> bool {
        self.matched
            .iter()
            .any(|m| m.metrics.iter().any(|c| c.exceeds))
    }

    /// 1 when `--fail-above` was exceeded, else 0.
    pub fn exit_code(&self) -> i32 {
        i32::from(self.exceeded())
    }

    /// Pretty JSON.
    pub fn to_json_pretty(&self) -> String {
        super::load::to_json_pretty(self)
    }

    /// An aligned table, one row per metric of each matched record, then a summary line.
    pub fn render_table(&self) -> String {
        use crate::bench::text::{sig3, Align, TextTable};
        let mut t = TextTable::new(&[
            ("record", Align::Left),
            ("metric", Align::Left),
            ("A", Align::Right),
            ("B", Align::Right),
            ("B/A (95% CI)", Align::Right),
            ("verdict", Align::Left),
        ]);
        let mut reasons = Vec::new();
        for m in &self.matched {
            for c in &m.metrics {
                let ratio = c
                    .ratio
                    .map_or("-".to_string(), |r| match (r.ci95_low, r.ci95_high) {
                        (Some(l), Some(h)) => {
                            format!("{} ({}–{})", sig3(r.ratio), sig3(l), sig3(h))
                        }
                        _ => format!("{} (no CI)", sig3(r.ratio)),
                    });
                let mut verdict = c.verdict.as_str().to_string();
                if c.exceeds {
                    verdict.push_str(" FAIL");
                }
                if let Some(why) = &c.reason {
                    reasons.push(format!("{} {}: {why}", m.key, c.metric));
                }
                t.row(vec![
                    m.key.clone(),
                    c.metric.clone(),
                    super::render::fmt_value(c.a_mean, &c.unit),
                    super::render::fmt_value(c.b_mean, &c.unit),
                    ratio,
                    verdict,
                ]);
            }
        }
        let mut out = format!(
            "compare {}: {} matched record(s)\n",
            self.experiment,
            self.matched.len()
        );
        out.push_str(&t.render());
        for r in reasons.iter().take(MAX_LISTED_UNMATCHED) {
            out.push_str(&format!("inconclusive: {r}\n"));
        }
        for k in self.unmatched_a.iter().take(MAX_LISTED_UNMATCHED) {
            out.push_str(&format!("only in A: {k}\n"));
        }
        for k in self.unmatched_b.iter().take(MAX_LISTED_UNMATCHED) {
            out.push_str(&format!("only in B: {k}\n"));
        }
        let all: Vec<Verdict> = self
            .matched
            .iter()
            .flat_map(|m| m.metrics.iter().map(|c| c.verdict))
            .collect();
        let n = |v: Verdict| all.iter().filter(|x| **x == v).count();
        out.push_str(&format!(
            "summary: {} slower, {} faster, {} same, {} inconclusive, {} unknown{}\n",
            n(Verdict::Slower),
            n(Verdict::Faster),
            n(Verdict::Same),
            n(Verdict::Inconclusive),
            n(Verdict::Unknown),
            if self.exceeded() {
                format!(
                    "; FAIL: a slowdown above {}× with 95% confidence",
                    self.fail_above.unwrap_or(0.0)
                )
            } else {
                String::new()
            }
        ));
        out
    }
}

/// Compares B's files against A's, all of one experiment.
pub fn compare_bench(
    a: &[BenchResults],
    b: &[BenchResults],
    fail_above: Option<f64>,
    noise: f64,
    drift: f64,
) -> Result<BenchComparison, CompareError> {
    if !(drift.is_finite() && drift >= 1.0) {
        return Err(CompareError::BadDrift(drift));
    }
    if a.is_empty() || b.is_empty() {
        return Err(CompareError::NoFiles);
    }
    if let Some(f) = fail_above.filter(|f| !(f.is_finite() && *f > 0.0)) {
        return Err(CompareError::BadThreshold(f));
    }
    if !(noise.is_finite() && (0.0..1.0).contains(&noise)) {
        return Err(CompareError::BadNoise(noise));
    }
    let experiment = a[0].experiment.clone();
    if let Some(other) = a.iter().chain(b).find(|f| f.experiment != experiment) {
        return Err(CompareError::MixedExperiments {
            a: experiment,
            b: other.experiment.clone(),
        });
    }
    // Each record with its machine control: the c2c floor measured beside it, else its
    // file's median floor (a host that moves vCPUs slows every record of the invocation).
    fn side(files: &[BenchResults]) -> (BTreeMap<String, Vec<BenchRecord>>, Vec<String>) {
        let mut m: BTreeMap<String, Vec<BenchRecord>> = BTreeMap::new();
        let mut order = Vec::new();
        for f in files {
            let floor = file_floor(f);
            for r in &f.records {
                let k = r.key();
                if !m.contains_key(&k) {
                    order.push(k.clone());
                }
                let mut r = r.clone();
                if !r.c2c_one_way_ns.is_some_and(|v| v.is_finite() && v > 0.0) {
                    r.c2c_one_way_ns = floor;
                }
                m.entry(k).or_default().push(r);
            }
        }
        (m, order)
    }
    let (sa, order_a) = side(a);
    let (sb, order_b) = side(b);
    let mut matched = Vec::new();
    let mut unmatched_a = Vec::new();
    for k in &order_a {
        match sb.get(k) {
            Some(y) => matched.push(pair(k, &sa[k], y, (fail_above, noise, drift))),
            None => unmatched_a.push(k.clone()),
        }
    }
    let unmatched_b: Vec<String> = order_b
        .into_iter()
        .filter(|k| !sa.contains_key(k))
        .collect();
    if matched.is_empty() {
        let count = |s: &[BenchResults]| s.iter().map(|f| f.records.len()).sum();
        return Err(CompareError::NothingMatched {
            a: count(a),
            b: count(b),
        });
    }
    Ok(BenchComparison {
        experiment,
        matched,
        unmatched_a,
        unmatched_b,
        fail_above,
        noise_threshold: noise,
    })
}

/// Why a slower or faster verdict of a time whose consumer waits by `wait` is inconclusive:
/// a wake-up latency (`latency_us`) swings between invocations of the same binary, so one
/// file a side never tells, and with several, one that sleeps or yields must be separated
/// ([`separated`]); the read (`read_us`) of a consumer that slept follows a sleep and swings
/// too (a processes-futex 64 KiB read measured 4.5x longer in one invocation than the next).
fn wake_up_rule(
    wait: &str,
    metric: &str,
    over_invocations: bool,
    verdict: Verdict,
    (va, vb): (&[f64], &[f64]),
) -> Option<String> {
    if !matches!(verdict, Verdict::Slower | Verdict::Faster) || wait == "none" {
        return None;
    }
    let sleeps = wait != "spin";
    match (metric, over_invocations) {
        ("latency_us", false) => Some(format!(
            "a {wait} wake-up latency swings between invocations of the same binary; \
             compare >= 4 files per side (A1 A2 A3 A4 --vs B1 B2 B3 B4)"
        )),
        ("read_us", false) if sleeps => Some(format!(
            "the read of a consumer that waits by {wait} follows a sleep and swings between \
             invocations of the same binary (4.5x measured); compare >= 3 files per side"
        )),
        ("latency_us", true) if sleeps && !separated(va, vb, verdict == Verdict::Slower) => {
            Some(format!(
                "the latency is dominated by {wait} wake-ups, heavy-tailed between invocations; \
                 it counts only when every file of B is {} than every file of A over >= 4 \
                 files per side (exact rank test, p < 0.05)",
                verdict.as_str()
            ))
        }
        _ => None,
    }
}

/// The median c2c floor of a file: over its records' floors, else its c2c pairs; `None`
/// when it measured none (one CPU).
fn file_floor(f: &BenchResults) -> Option<f64> {
    let mut v: Vec<f64> = f.records.iter().filter_map(|r| r.c2c_one_way_ns).collect();
    if v.is_empty() {
        v = f.c2c.iter().map(|p| p.one_way_ns).collect();
    }
    v.retain(|x| x.is_finite() && *x > 0.0);
    crate::stats::median(&v)
}

fn pair(
    key: &str,
    x: &[BenchRecord],
    y: &[BenchRecord],
    (fail_above, noise, drift): (Option<f64>, f64, f64),
) -> BenchMatched {
    let over_invocations = x.len() >= 2 && y.len() >= 2;
    let floors = |s: &[BenchRecord]| -> Option<Vec<f64>> {
        s.iter()
            .map(|r| r.c2c_one_way_ns.filter(|v| v.is_finite() && *v > 0.0))
            .collect()
    };
    let moved = match (floors(x), floors(y)) {
        (Some(fa), Some(fb)) if control_moved(&fa, &fb) => Some(format!(
            "the machine changed: c2c floor {:.0} → {:.0} ns",
            mean(&fa),
            mean(&fb)
        )),
        _ => None,
    };
    // A busy machine on either side makes every verdict inconclusive.
    let moved = super::busy::compare_reason(
        x.iter().map(|r| r.load.as_ref()),
        y.iter().map(|r| r.load.as_ref()),
    )
    .or(moved);
    // How the consumer waited (the exchange's records say; others: not at all).
    let wait = x[0]
        .info
        .get("wait")
        .and_then(|v| v.as_str())
        .unwrap_or("none");
    let mut metrics = Vec::new();
    for (name, ma) in &x[0].metrics {
        if !x.iter().chain(y).all(|r| r.metrics.contains_key(name)) {
            continue;
        }
        let values = |s: &[BenchRecord]| -> Vec<f64> {
            if over_invocations {
                s.iter().map(|r| mean(&r.metrics[name].run_means)).collect()
            } else {
                s.iter()
                    .flat_map(|r| r.metrics[name].run_means.clone())
                    .collect()
            }
        };
        let (va, vb) = (values(x), values(y));
        let ratio = ratio_of_means(&va, &vb);
        // A rate: B slower when B/A < 1; judge on A/B so the verdict reads as for times.
        let judged = if ma.higher_is_better {
            ratio_of_means(&vb, &va)
        } else {
            ratio
        };
        let mut verdict = Verdict::of(judged.as_ref(), noise);
        let reason = moved
            .clone()
            .or_else(|| wake_up_rule(wait, name, over_invocations, verdict, (&va[..], &vb[..])))
            .or_else(|| {
                let differs = matches!(verdict, Verdict::Slower | Verdict::Faster);
                (!over_invocations && differs && !beyond_drift(judged.as_ref(), drift))
                    .then(|| single_invocation_reason(drift))
            });
        if reason.is_some() {
            verdict = Verdict::Inconclusive;
        }
        let exceeds = match (fail_above, &judged) {
            (Some(f), Some(r)) => verdict == Verdict::Slower && r.ci95_low.is_some_and(|l| l > f),
            _ => false,
        };
        let means = |s: &[BenchRecord]| {
            let v: Vec<f64> = s.iter().map(|r| r.metrics[name].summary.mean).collect();
            mean(&v)
        };
        metrics.push(BenchMetricComparison {
            metric: name.clone(),
            unit: ma.unit.clone(),
            higher_is_better: ma.higher_is_better,
            a_mean: means(x),
            b_mean: means(y),
            ratio,
            verdict,
            reason,
            exceeds,
        });
    }
    BenchMatched {
        key: key.to_string(),
        invocations_a: x.len(),
        invocations_b: y.len(),
        metrics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::schema::MetricRecord;

    fn file(lat_runs: &[f64], bw_runs: &[f64]) -> BenchResults {
        let mut f = BenchResults::empty("demo");
        let per_run = |v: &[f64]| v.iter().map(|x| vec![*x]).collect::<Vec<_>>();
        f.records.push(
            BenchRecord::new("m", 8.0, lat_runs.len() as u64, 1, true)
                .param("size_bytes", 8)
                .metric(
                    "latency_us",
                    MetricRecord::from_runs("µs", false, &per_run(lat_runs)).unwrap(),
                )
                .metric(
                    "bandwidth_mbps",
                    MetricRecord::from_runs("MB/s", true, &per_run(bw_runs)).unwrap(),
                ),
        );
        f
    }

    #[test]
    fn invocations_are_the_unit_and_a_lower_rate_is_slower() {
        // Three files per side; B's latency ≈ 2× A's, B's bandwidth ≈ half: both slower.
        let a: Vec<_> = [1.0, 1.02, 0.98]
            .iter()
            .map(|&l| file(&[l, l], &[100.0 / l, 100.0 / l]))
            .collect();
        let b: Vec<_> = [2.0, 2.04, 1.96]
            .iter()
            .map(|&l| file(&[l, l], &[100.0 / l, 100.0 / l]))
            .collect();
        let c = compare_bench(&a, &b, Some(1.5), 0.05, 3.0).unwrap();
        let m = &c.matched[0];
        let lat = m.metrics.iter().find(|x| x.metric == "latency_us").unwrap();
        let bw = m
            .metrics
            .iter()
            .find(|x| x.metric == "bandwidth_mbps")
            .unwrap();
        assert_eq!(lat.verdict, Verdict::Slower);
        assert!((lat.ratio.unwrap().ratio - 2.0).abs() < 0.01);
        assert_eq!(bw.verdict, Verdict::Slower, "a halved rate is a slowdown");
        assert!(
            (bw.ratio.unwrap().ratio - 0.5).abs() < 0.01,
            "ratio stays B/A"
        );
        assert!(lat.exceeds && bw.exceeds);
        assert_eq!(c.exit_code(), 1);
    }

    #[test]
    fn one_file_per_side_needs_a_difference_beyond_the_drift() {
        // One invocation a side, tight runs: 2× is within the drift band → inconclusive, no
        // FAIL; 10× is beyond any drift: slower, and it fails the gate.
        for (b, verdict, exceeded) in [
            ([2.0, 2.01, 1.99], Verdict::Inconclusive, false),
            ([10.0, 10.1, 9.9], Verdict::Slower, true),
        ] {
            let a = file(&[1.0, 1.01, 0.99], &[1.0; 3]);
            let c = compare_bench(&[a], &[file(&b, &[1.0; 3])], Some(1.1), 0.05, 3.0).unwrap();
            let lat = c.matched[0]
                .metrics
                .iter()
                .find(|x| x.metric == "latency_us");
            assert_eq!(lat.unwrap().verdict, verdict, "B = {b:?}");
            assert_eq!(c.exceeded(), exceeded, "B = {b:?}");
        }
    }

    #[test]
    fn different_experiments_are_refused() {
        let a = file(&[1.0], &[1.0]);
        let mut b = file(&[1.0], &[1.0]);
        b.experiment = "other".into();
        assert!(matches!(
            compare_bench(&[a], &[b], None, 0.05, 3.0),
            Err(CompareError::MixedExperiments { .. })
        ));
    }
}
