//! The one results file of every experiment (schema [`BENCH_SCHEMA`]), the c2c pairs it may
//! carry and `handoff report`'s settings.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::models::{least_squares, ModelFit, ModelForm};

use super::load::{self as schema, LoadError};
use crate::machine::{Machine, Tool};
use crate::stats::Summary;
use crate::stats::{self, StatsError};

/// One-way core-to-core latency of one CPU pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct C2cPair {
    /// First CPU.
    pub cpu_a: usize,
    /// Second CPU.
    pub cpu_b: usize,
    /// Placement class of the pair (see [`crate::machine::placement`]).
    pub placement: String,
    /// One-way latency in nanoseconds (half the round trip of a cache line).
    pub one_way_ns: f64,
}

/// The report's own settings (issue 5), stored in `results.json` beside the records.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ReportSettings {
    /// `--quick` was given.
    pub quick: bool,
    /// The command line that produced the report.
    pub command: String,
    /// When the run started (RFC 3339), if known.
    #[serde(default)]
    pub started: Option<String>,
    /// Wall time of the whole run in seconds, if known.
    #[serde(default)]
    pub elapsed_s: Option<f64>,
    /// How repetitions were chosen per point: "fixed", "by-size" or "time-budget".
    pub rep_scaling: String,
    /// One or two sentences saying exactly how, e.g. "reps = clamp(100 x 1 MiB / size, 20,
    /// 2000), warm-up = reps / 10".
    pub rep_scaling_description: String,
    /// Anything else the reader must know, e.g. "c2c: one representative pair per placement
    /// class (machine has 128 CPUs)".
    #[serde(default)]
    pub notes: Vec<String>,
    /// The experiments measured on a busy machine and the evidence, for the report's one
    /// warning; empty when the machine was quiet.
    #[serde(default)]
    pub busy: Vec<super::busy::BusyPart>,
    /// The plan's estimate of the run's duration, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_s: Option<f64>,
}

/// Schema string of [`BenchResults`]; bump the number on an incompatible change.
pub const BENCH_SCHEMA: &str = "handoff.bench/1";

/// The results of one `handoff bench NAME` run (or of one experiment inside `handoff report`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BenchResults {
    /// Always [`BENCH_SCHEMA`].
    pub schema: String,
    /// The experiment's registry name ([`super::experiment::ExperimentInfo::name`]).
    pub experiment: String,
    /// The machine the results were measured on.
    pub machine: Machine,
    /// The tool that measured them.
    pub tool: Tool,
    /// The experiment configuration exactly as run.
    pub config: serde_json::Value,
    /// Core-to-core one-way latencies measured in the same invocation (the floor of latency
    /// figures); may be empty.
    #[serde(default)]
    pub c2c: Vec<C2cPair>,
    /// One record per measured point.
    pub records: Vec<BenchRecord>,
    /// Anything the reader must know (e.g. "oversubscribed: 4 PEs on 2 CPUs").
    #[serde(default)]
    pub notes: Vec<String>,
    /// True when the run stopped before every planned point was measured.
    #[serde(default)]
    pub partial: bool,
    /// Why the run stopped early.
    #[serde(default)]
    pub stopped_early: Option<String>,
    /// Wall time of the whole run in seconds.
    #[serde(default)]
    pub elapsed_s: Option<f64>,
    /// Performance models fitted to series of the records ([`super::models`]); drawn over
    /// the points and tabled in the report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<ModelFit>,
    /// `handoff report`'s own settings, on the file it writes as `results.json`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<ReportSettings>,
}

/// One measured point of an experiment.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BenchRecord {
    /// The line the point belongs to in plots and tables, e.g. "put-signal, other core".
    pub series: String,
    /// The parameters that identify the point (method, size_bytes, pes, placement, cores…);
    /// `compare` matches records of two files on `series` and `params`.
    pub params: BTreeMap<String, serde_json::Value>,
    /// The point's x coordinate in figures (which parameter it is: the figure's x label).
    pub x: f64,
    /// Runs (fresh processes or threads each).
    pub runs: u64,
    /// Measured repetitions per run (after warm-up).
    pub reps: u64,
    /// True when the data the record moved was checked and none was wrong: with
    /// [`BenchRecord::checks`] set, exactly [`Checks::verified`] (at least one item checked,
    /// none wrong); records of files from before counts existed keep their flag.
    pub verified: bool,
    /// How many items (messages, words, blocks) the runs checked and how many were wrong;
    /// `None` in files from before counts existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<Checks>,
    /// One-way c2c latency of the point's CPU pair, measured next to it; `None` when not
    /// meaningful (same core, many PEs).
    #[serde(default)]
    pub c2c_one_way_ns: Option<f64>,
    /// The metrics, by name (e.g. `latency_us`, `bandwidth_mbps`).
    pub metrics: BTreeMap<String, MetricRecord>,
    /// What describes the point without identifying it (not matched by `compare`), e.g. the
    /// exchange's `wait` and `kernel`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub info: BTreeMap<String, serde_json::Value>,
    /// What else the machine did while the record was measured ([`super::busy`]); filled
    /// by the common runner [`super::registry::run_measured`]; `None` in files from before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<super::busy::MachineLoad>,
}

/// The data checks behind a record's `verified`: items checked and items found wrong.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checks {
    /// What one item is ("messages", "words", "blocks", …).
    pub item: String,
    /// Items whose value was compared with the expected one.
    pub checked: u64,
    /// Items that differed (or were missing, or arrived twice).
    pub wrong: u64,
}

impl Checks {
    /// No item checked yet, of kind `item`.
    pub fn of(item: &str) -> Checks {
        Checks {
            item: item.to_string(),
            checked: 0,
            wrong: 0,
        }
    }

    /// Adds `checked` items of which `wrong` were wrong.
    pub fn add(&mut self, checked: u64, wrong: u64) {
        self.checked += checked;
        self.wrong += wrong;
    }

    /// At least one item checked and none wrong: a check that never ran is not verified.
    pub fn verified(&self) -> bool {
        self.checked > 0 && self.wrong == 0
    }
}

/// One metric of one record: its unit, direction and the lab's statistics.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MetricRecord {
    /// Unit as printed: "µs", "ns", "MB/s", "msg/s", "MFLOP/s".
    pub unit: String,
    /// True for rates (bandwidth, throughput), false for times.
    pub higher_is_better: bool,
    /// Mean over run means with its interval, median of all samples with its interval, …
    pub summary: Summary,
    /// The mean of each run (what ratios and `compare` use).
    pub run_means: Vec<f64>,
    /// The interquartile range of each run, when recorded (what
    /// [`crate::stats::disagreement`] compares runs with).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_iqrs: Option<Vec<[f64; 2]>>,
    /// The median of each run, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_medians: Option<Vec<f64>>,
    /// A time that may measure 0 (faster than the clock's resolution): its mean, median and
    /// run means must be >= 0 instead of > 0.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub zero_ok: bool,
}

impl MetricRecord {
    /// Summarizes samples, one `Vec` per run (see [`Summary::from_runs`]).
    pub fn from_runs(
        unit: &str,
        higher_is_better: bool,
        per_run_samples: &[Vec<f64>],
    ) -> Result<MetricRecord, StatsError> {
        let summary = Summary::from_runs(per_run_samples)?;
        Ok(MetricRecord {
            unit: unit.to_string(),
            higher_is_better,
            summary,
            run_means: per_run_samples.iter().map(|s| stats::mean(s)).collect(),
            ..MetricRecord::default()
        })
    }
}

impl BenchRecord {
    /// A record with no metrics yet; add them with [`BenchRecord::metric`].
    pub fn new(series: impl Into<String>, x: f64, runs: u64, reps: u64, verified: bool) -> Self {
        BenchRecord {
            series: series.into(),
            x,
            runs,
            reps,
            verified,
            ..BenchRecord::default()
        }
    }

    /// Sets the record's data checks; `verified` becomes [`Checks::verified`] (builder style).
    pub fn checked(mut self, checks: Checks) -> Self {
        self.verified = checks.verified();
        self.checks = Some(checks);
        self
    }

    /// Sets a parameter (builder style).
    pub fn param(mut self, name: &str, value: impl Into<serde_json::Value>) -> Self {
        self.params.insert(name.to_string(), value.into());
        self
    }

    /// Adds a metric (builder style).
    pub fn metric(mut self, name: &str, m: MetricRecord) -> Self {
        self.metrics.insert(name.to_string(), m);
        self
    }

    /// The data column of tables: "ok", "ok (8000 messages)", "FAILED (3 of 8000 messages
    /// wrong)" or "NOT CHECKED (0 messages)".
    pub fn data_text(&self) -> String {
        match &self.checks {
            None => if self.verified { "ok" } else { "FAILED" }.to_string(),
            Some(c) if c.verified() => format!("ok ({} {})", c.checked, c.item),
            Some(c) if c.checked == 0 && c.wrong == 0 => format!("NOT CHECKED (0 {})", c.item),
            Some(c) => format!("FAILED ({} of {} {} wrong)", c.wrong, c.checked, c.item),
        }
    }

    /// A parameter as text (strings unquoted), or "" when absent.
    pub fn param_text(&self, name: &str) -> String {
        match self.params.get(name) {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        }
    }

    /// A numeric parameter.
    pub fn param_f64(&self, name: &str) -> Option<f64> {
        self.params.get(name).and_then(|v| v.as_f64())
    }

    /// The key `compare` matches on: series and every parameter, except `transport` when it
    /// is `shm` (what every record of a team experiment was before MPI transports existed,
    /// so results from before still match; an MPI transport's series differs anyway).
    pub fn key(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .filter(|(k, v)| !(k.as_str() == "transport" && v.as_str() == Some("shm")))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        format!("{} [{}]", self.series, params.join(", "))
    }
}

impl BenchResults {
    /// An empty results file of `experiment`.
    pub fn new(experiment: &str, machine: Machine, tool: Tool, config: serde_json::Value) -> Self {
        BenchResults {
            schema: BENCH_SCHEMA.to_string(),
            experiment: experiment.to_string(),
            machine,
            tool,
            config,
            ..BenchResults::default()
        }
    }

    /// Parses a results file from JSON text, checking the schema string.
    pub fn from_json_str(text: &str) -> Result<Self, LoadError> {
        schema::from_json_checked(text, BENCH_SCHEMA, None)
    }

    /// Reads and parses a results file, checking the schema string and every number
    /// ([`BenchResults::problems`]: the first problem is the error).
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let r = Self::load_unchecked(path)?;
        match r.problems(Some(path)).into_iter().next() {
            Some(e) => Err(e),
            None => Ok(r),
        }
    }

    /// Reads and parses a results file, checking the schema string only: for a reader that
    /// lists every problem of its inputs ([`BenchResults::problems`]) before it refuses them.
    pub fn load_unchecked(path: &Path) -> Result<Self, LoadError> {
        let text = crate::input::read_text(path).map_err(|source| LoadError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        schema::from_json_checked(&text, BENCH_SCHEMA, Some(path))
    }

    /// What no measurement writes, each as a [`LoadError::Domain`] naming the number (one
    /// line each), in file order: every metric's numbers in their domain (times, lower is
    /// better, finite and > 0; rates finite and >= 0; a minimum, one sample, finite) and at
    /// most 1e15 (no unit of the lab measures more); then, for a metric whose numbers are in
    /// their domain, its intervals (low <= high, holding their statistic) and min <= max; a
    /// record of at least one run whose `verified` flag agrees with its checks (issue #40:
    /// `compare` accepted an interval with low > high, `runs: 0`, wrong counts marked
    /// verified and a mean of 1e308).
    pub fn problems(&self, path: Option<&Path>) -> Vec<LoadError> {
        let mut out = Vec::new();
        let problem = |what: String, v: Option<f64>, why: &'static str| {
            LoadError::Domain {
                path: path.map(Path::to_path_buf),
                what: match v {
                    // Huge and tiny numbers in exponent form (1e308, not 309 digits).
                    Some(v) if v != 0.0 && !(1e-6..1e15).contains(&v.abs()) => {
                        format!("{what} = {v:e}")
                    }
                    Some(v) => format!("{what} = {v}"),
                    None => what,
                },
                why,
            }
        };
        for (i, r) in self.records.iter().enumerate() {
            let record = || {
                format!(
                    "record {} ({} at x = {})",
                    i + 1,
                    crate::input::quote(&r.series),
                    r.x
                )
            };
            if r.runs == 0 {
                out.push(problem(
                    format!("{}: runs", record()),
                    Some(0.0),
                    "a record holds at least one run",
                ));
            }
            if let Some(c) = &r.checks {
                if r.verified != c.verified() {
                    out.push(problem(
                        format!(
                            "{}: verified {} with {} of {} {} wrong",
                            record(),
                            r.verified,
                            c.wrong,
                            c.checked,
                            crate::input::quote(&c.item)
                        ),
                        None,
                        "verified means at least one item checked and none wrong",
                    ));
                }
            }
            for (name, m) in &r.metrics {
                let s = &m.summary;
                let values = [("mean", s.mean), ("median", s.median), ("min", s.min)]
                    .into_iter()
                    .chain(m.run_means.iter().map(|&v| ("run mean", v)));
                let before = out.len();
                for (field, v) in values {
                    // The min is one sample (the fastest): clock skew may put it at or below 0.
                    let domain = if field == "min" {
                        schema::SAMPLE
                    } else if m.higher_is_better || m.zero_ok {
                        schema::RATE
                    } else {
                        schema::TIME
                    };
                    if let Some(why) = broken_rule(v, domain) {
                        out.push(problem(
                            format!("{}: {name} {field}", record()),
                            Some(v),
                            why,
                        ));
                    }
                }
                if out.len() > before {
                    continue; // its intervals follow from numbers already named
                }
                let intervals = [
                    ("mean", s.mean, s.ci95_low, s.ci95_high),
                    ("median", s.median, s.median_ci95_low, s.median_ci95_high),
                ];
                for (field, v, low, high) in intervals {
                    let (Some(low), Some(high)) = (low, high) else {
                        continue;
                    };
                    // Rounding of the interval's own arithmetic: a relative 1e-9.
                    let slack = 1e-9 * v.abs().max(low.abs()).max(high.abs());
                    if !(low <= high && low - slack <= v && v <= high + slack) {
                        out.push(problem(
                            format!(
                                "{}: {name} {field} {v} with its 95% interval {low} to {high}",
                                record()
                            ),
                            None,
                            "an interval's low end is at most its high end and it holds its \
                             statistic",
                        ));
                    }
                }
                if s.min > s.max {
                    out.push(problem(
                        format!("{}: {name} min {} above max {}", record(), s.min, s.max),
                        None,
                        "the smallest sample is at most the largest",
                    ));
                }
            }
        }
        for p in &self.c2c {
            if let Some(why) = broken_rule(p.one_way_ns, schema::RATE) {
                let what = format!("c2c pair {}-{}: one-way ns", p.cpu_a, p.cpu_b);
                out.push(problem(what, Some(p.one_way_ns), why));
            }
        }
        out
    }

    /// Pretty JSON text (ends with a newline).
    pub fn to_json_pretty(&self) -> String {
        schema::to_json_pretty(self)
    }

    /// The records of one series, in x order.
    pub fn series(&self, name: &str) -> Vec<&BenchRecord> {
        let mut v: Vec<&BenchRecord> = self.records.iter().filter(|r| r.series == name).collect();
        v.sort_by(|a, b| a.x.total_cmp(&b.x));
        v
    }

    /// The busy-machine warning of this file's records ([`super::busy::warning`]).
    pub fn busy_warning(&self) -> Option<String> {
        super::busy::warning(self.records.iter().map(|r| r.load.as_ref()))
    }

    /// This experiment's part of a report's one busy warning (`None`: quiet).
    pub fn busy_part(&self) -> Option<super::busy::BusyPart> {
        super::busy::part(
            &self.experiment,
            self.records.iter().map(|r| r.load.as_ref()),
        )
    }

    /// Puts `load` on every record that has no evidence of its own.
    pub fn fill_load(&mut self, load: &super::busy::MachineLoad) {
        for r in self.records.iter_mut().filter(|r| r.load.is_none()) {
            r.load = Some(load.clone());
        }
    }

    /// True when every record verified its data.
    pub fn all_verified(&self) -> bool {
        self.records.iter().all(|r| r.verified)
    }

    /// Fits `metric` of `series` (each record's mean at its x) to `form`; `None` when
    /// there are too few distinct x.
    pub fn fit_series(
        &self,
        series: &str,
        metric: &str,
        form: ModelForm,
        x_name: &str,
    ) -> Option<ModelFit> {
        let recs: Vec<_> = self
            .series(series)
            .into_iter()
            .filter_map(|r| r.metrics.get(metric).map(|m| (r.x, m)))
            .collect();
        let unit = recs.first()?.1.unit.clone();
        let pts: Vec<(f64, f64)> = recs.iter().map(|(x, m)| (*x, m.summary.mean)).collect();
        let (a, b, r2) = least_squares(form, &pts)?;
        let residuals = pts
            .iter()
            .map(|&(x, y)| [x, y - (a + b * form.f(x))])
            .collect();
        Some(ModelFit {
            series: series.to_string(),
            metric: metric.to_string(),
            form,
            x_name: x_name.to_string(),
            unit,
            a,
            b,
            r2,
            residuals,
        })
    }
}

/// The rule `v` breaks: its `domain`'s ([`schema::TIME`], …), else [`schema::ABSURD`]'s.
fn broken_rule(v: f64, (ok, why): (fn(f64) -> bool, &'static str)) -> Option<&'static str> {
    if !ok(v) {
        return Some(why);
    }
    (v.abs() > schema::ABSURD.0).then_some(schema::ABSURD.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl BenchResults {
        /// Tests: an empty results file of `experiment` on a default machine, config `{}`.
        pub(crate) fn empty(experiment: &str) -> Self {
            Self::new(
                experiment,
                Machine::default(),
                Tool::default(),
                serde_json::json!({}),
            )
        }
    }

    #[test]
    fn metric_from_runs_keeps_run_means_and_the_summary() {
        let m = MetricRecord::from_runs("µs", false, &[vec![1.0, 3.0], vec![4.0, 6.0]]).unwrap();
        assert_eq!(m.run_means, vec![2.0, 5.0]);
        assert_eq!(m.summary.mean, 3.5);
        assert_eq!(m.summary.min, 1.0);
        assert_eq!(m.summary.max, 6.0);
        assert!(MetricRecord::from_runs("µs", false, &[]).is_err());
    }

    #[test]
    fn verified_means_checked_and_none_wrong() {
        let r = || BenchRecord::new("s", 1.0, 1, 1, true);
        let mut c = Checks::of("words");
        // A check that never ran does not verify, whatever the constructor said.
        assert!(!r().checked(c.clone()).verified);
        assert_eq!(r().checked(c.clone()).data_text(), "NOT CHECKED (0 words)");
        c.add(64, 0);
        assert!(r().checked(c.clone()).verified);
        assert_eq!(r().checked(c.clone()).data_text(), "ok (64 words)");
        c.add(64, 2);
        let bad = r().checked(c.clone());
        assert!(!bad.verified);
        assert_eq!(bad.data_text(), "FAILED (2 of 128 words wrong)");
        // Counts survive JSON; a record of an older file (no counts) keeps its flag.
        let back: BenchRecord =
            serde_json::from_str(&serde_json::to_string(&bad).unwrap()).unwrap();
        assert_eq!(back.checks, Some(c));
        let mut v = serde_json::to_value(r()).unwrap();
        v.as_object_mut().unwrap().remove("checks");
        let old: BenchRecord = serde_json::from_value(v).unwrap();
        assert!(old.verified && old.checks.is_none());
        assert_eq!(old.data_text(), "ok");
    }

    #[test]
    fn round_trips_and_refuses_other_schemas() {
        let mut r = BenchResults::new(
            "pingpong",
            Machine::default(),
            Tool::default(),
            serde_json::json!({"reps": 10}),
        );
        let m = MetricRecord::from_runs("µs", false, &[vec![1.0], vec![2.0]]).unwrap();
        r.records.push(
            BenchRecord::new("put-signal", 8.0, 2, 1, true)
                .param("size_bytes", 8)
                .param("method", "put-signal")
                .metric("latency_us", m),
        );
        let back = BenchResults::from_json_str(&r.to_json_pretty()).unwrap();
        // (serde_json may round the last bit of a float: compare what is exact.)
        assert_eq!(back.experiment, "pingpong");
        assert_eq!(back.records[0].params, r.records[0].params);
        assert_eq!(
            back.records[0].metrics["latency_us"].run_means,
            vec![1.0, 2.0]
        );
        assert_eq!(
            back.records[0].key(),
            "put-signal [method=\"put-signal\", size_bytes=8]"
        );
        // transport=shm is what records without the param meant: the same key; an MPI
        // transport is another key.
        let shm = back.records[0].clone().param("transport", "shm");
        assert_eq!(shm.key(), back.records[0].key());
        let mpi = back.records[0].clone().param("transport", "mpi-rma");
        assert_eq!(
            mpi.key(),
            "put-signal [method=\"put-signal\", size_bytes=8, transport=\"mpi-rma\"]"
        );
        let err = BenchResults::from_json_str(r#"{"schema":"handoff.pingpong/9"}"#).unwrap_err();
        assert!(matches!(err, LoadError::WrongSchema { .. }), "{err}");
        // A file of before the one schema: the error says how to get a file of this one.
        let err = BenchResults::from_json_str(r#"{"schema":"handoff.exchange/1"}"#).unwrap_err();
        assert!(matches!(err, LoadError::OldSchema { .. }), "{err}");
        assert!(err.to_string().contains("handoff bench exchange"), "{err}");
    }
}
