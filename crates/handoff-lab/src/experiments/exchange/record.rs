//! The exchange's records in the one results schema (`handoff.bench/1`): a record is one
//! (mode, size, producer core, consumer core, flush) point whose parameters are what
//! `compare` matches on, whose metrics are the read, latency, write and flush times (each with
//! its run means, and for read and latency the runs' interquartile ranges and medians) and
//! whose `info` holds what describes without identifying it (the wait, the kernel, clock
//! anomalies, the consumer's CPU %).
//!
//! The report's sections, its recommendation and the plots read these [`BenchRecord`]s
//! through the typed accessors of [`ExchangeRecord`] and [`ExchangeResults`]; [`load`] and
//! [`checked`] make sure every record has what the accessors read.
//!
//! Every time is a `f64` in microseconds (`*_us`) or nanoseconds (`*_ns`), as the name says.

use std::path::Path;

use serde_json::Value;

use crate::bench::busy::MachineLoad;
use crate::bench::load::LoadError;
use crate::bench::schema::C2cPair;
use crate::bench::{BenchRecord, BenchResults, MetricRecord, BENCH_SCHEMA};
use crate::stats::{
    disagreement, distinct, iqr, mean, median, Disagreement, Metric, StatsError, Summary,
};

/// Registry name of the exchange experiment (the results' `experiment`).
pub const NAME: &str = "exchange";

/// Metric names of a record: read (sum), latency, write (fill), flush.
pub const READ: &str = "read_us";
/// Latency from `t_done` to `t_start`.
pub const LATENCY: &str = "latency_us";
/// Write (fill) time.
pub const WRITE: &str = "write_us";
/// Cache flush time, when flushing.
pub const FLUSH: &str = "flush_us";

/// The parameters that identify an exchange record (what `compare` matches on).
#[derive(Debug, Clone, PartialEq)]
pub struct PointKey<'a> {
    /// Exchange mode (see [`super::mode::MODES`]).
    pub mode: &'a str,
    /// Block size in bytes.
    pub size_bytes: u64,
    /// CPU the producer was pinned to.
    pub producer_core: usize,
    /// CPU the consumer was pinned to.
    pub consumer_core: usize,
    /// Placement class of the pair (see [`crate::machine::placement`]).
    pub placement: &'a str,
    /// Whether the block was flushed from every cache before `t_done`.
    pub flush_cache: bool,
}

impl PointKey<'_> {
    /// A record of this point with no metrics yet: `runs` runs of `reps` repetitions.
    pub fn record(&self, runs: u64, reps: u64, verified: bool) -> BenchRecord {
        BenchRecord::new(self.mode, self.size_bytes as f64, runs, reps, verified)
            .param("mode", self.mode)
            .param("size_bytes", self.size_bytes)
            .param("producer_core", self.producer_core)
            .param("consumer_core", self.consumer_core)
            .param("placement", self.placement)
            .param("flush_cache", self.flush_cache)
    }
}

/// A time metric (µs, lower is better) from its samples, one `Vec` per run. `spread` keeps
/// each run's interquartile range and median (what the disagreement check and the
/// run-to-run modes read: the read time and the latency); `zero_ok` allows a mean of 0 (a
/// read or write of a small block can be faster than the clock's resolution).
pub fn time_metric(
    per_run: &[Vec<f64>],
    spread: bool,
    zero_ok: bool,
) -> Result<MetricRecord, StatsError> {
    let run_iqrs = spread.then(|| per_run.iter().map(|s| iqr(s)).collect());
    let run_medians = spread.then(|| per_run.iter().map(|s| median(s)).collect());
    Ok(MetricRecord {
        unit: "µs".to_string(),
        higher_is_better: false,
        summary: Summary::from_runs(per_run)?,
        run_means: per_run.iter().map(|s| mean(s)).collect(),
        run_iqrs: run_iqrs.flatten(),
        run_medians: run_medians.flatten(),
        zero_ok,
    })
}

/// Typed accessors of an exchange record (a [`BenchRecord`] of experiment [`NAME`]).
///
/// The parameters and the read, latency and write metrics are there in every record the
/// exchange makes and every file [`checked`] accepts; the accessors of the metrics panic on
/// a record that has not been through either.
pub trait ExchangeRecord {
    /// The record the accessors read.
    fn record(&self) -> &BenchRecord;
    /// Its parameter `name` (`null` when it has none).
    fn param_value(&self, name: &str) -> &Value {
        self.record().params.get(name).unwrap_or(&Value::Null)
    }
    /// Its `info` entry `name` (`null` when it has none).
    fn info_value(&self, name: &str) -> &Value {
        self.record().info.get(name).unwrap_or(&Value::Null)
    }
    /// Exchange mode (see [`super::mode::MODES`]).
    fn mode(&self) -> &str {
        self.param_value("mode").as_str().unwrap_or("")
    }
    /// Block size in bytes.
    fn size_bytes(&self) -> u64 {
        self.param_value("size_bytes").as_u64().unwrap_or(0)
    }
    /// CPU the producer was pinned to.
    fn producer_core(&self) -> usize {
        self.param_value("producer_core").as_u64().unwrap_or(0) as usize
    }
    /// CPU the consumer was pinned to.
    fn consumer_core(&self) -> usize {
        self.param_value("consumer_core").as_u64().unwrap_or(0) as usize
    }
    /// Placement class of the pair (see [`crate::machine::placement`]).
    fn placement(&self) -> &str {
        self.param_value("placement").as_str().unwrap_or("")
    }
    /// Whether the block was flushed from every cache before `t_done`.
    fn flush_cache(&self) -> bool {
        self.param_value("flush_cache").as_bool().unwrap_or(false)
    }
    /// What the consumer actually did to wait:
    /// `none|spin|spin-yield|futex|adaptive|semaphore|condvar|pipe`.
    fn wait(&self) -> &str {
        self.info_value("wait").as_str().unwrap_or("")
    }
    /// The fill and sum kernel that ran (`avx512`, `avx2`, `sse2`, `neon`, `scalar`); `None`
    /// in files written before kernels were chosen at run time (those ran `sse2` on x86-64).
    fn kernel(&self) -> Option<&str> {
        self.info_value("kernel").as_str()
    }
    /// Repetitions whose latency came out negative (counted, never clamped).
    fn clock_anomalies(&self) -> u64 {
        self.info_value("clock_anomalies").as_u64().unwrap_or(0)
    }
    /// Consumer CPU time divided by wall time, in percent.
    fn consumer_cpu_pct(&self) -> f64 {
        self.info_value("consumer_cpu_pct").as_f64().unwrap_or(0.0)
    }
    /// The read time or the latency metric, with its runs.
    fn timed(&self, metric: Metric) -> &MetricRecord {
        let name = match metric {
            Metric::Read => READ,
            Metric::Latency => LATENCY,
        };
        match self.record().metrics.get(name) {
            Some(m) => m,
            None => panic!("an exchange record without {name} (not made or checked by the lab)"),
        }
    }
    /// Read (sum) time.
    fn read_us(&self) -> &Summary {
        &self.timed(Metric::Read).summary
    }
    /// Latency from `t_done` to `t_start`.
    fn latency_us(&self) -> &Summary {
        &self.timed(Metric::Latency).summary
    }
    /// Cache flush time, when flushing.
    fn flush_us(&self) -> Option<&Summary> {
        self.record().metrics.get(FLUSH).map(|m| &m.summary)
    }
}

impl ExchangeRecord for BenchRecord {
    fn record(&self) -> &BenchRecord {
        self
    }
}

/// The per-run levels the run-to-run modes are looked for in: the run medians when every run
/// recorded one (a few outliers cannot move a median, so two levels of medians are two
/// levels of the bulk of the repetitions, the level the tables print), else the run means.
pub fn run_levels(record: &BenchRecord, metric: Metric) -> Vec<f64> {
    let m = record.timed(metric);
    match &m.run_medians {
        Some(medians) if !medians.is_empty() => medians.clone(),
        _ => m.run_means.clone(),
    }
}

/// The disagreements of a record's read time and latency runs.
pub fn record_disagreements(record: &BenchRecord) -> Vec<(Metric, Disagreement)> {
    [Metric::Read, Metric::Latency]
        .into_iter()
        .filter_map(|metric| {
            let m = record.timed(metric);
            disagreement(&m.run_means, m.run_iqrs.as_deref()).map(|d| (metric, d))
        })
        .collect()
}

/// Typed accessors of an exchange (or c2c) results file.
pub trait ExchangeResults {
    /// The results the accessors read.
    fn results(&self) -> &BenchResults;
    /// The c2c pair of `a` and `b` in either direction, if measured.
    fn c2c_pair(&self, a: usize, b: usize) -> Option<&C2cPair> {
        let c2c = &self.results().c2c;
        c2c.iter()
            .find(|p| p.cpu_a == a && p.cpu_b == b)
            .or_else(|| c2c.iter().find(|p| p.cpu_a == b && p.cpu_b == a))
    }
    /// The one-way c2c latency between `a` and `b` in either direction, if measured.
    fn c2c_between(&self, a: usize, b: usize) -> Option<f64> {
        self.c2c_pair(a, b).map(|p| p.one_way_ns)
    }
    /// The c2c floor beside a record: the one measured next to it, else the run's matrix
    /// value for its CPU pair; `None` on one CPU.
    fn floor_for(&self, r: &BenchRecord) -> Option<f64> {
        r.c2c_one_way_ns.or_else(|| {
            (r.producer_core() != r.consumer_core())
                .then(|| self.c2c_between(r.producer_core(), r.consumer_core()))
                .flatten()
        })
    }
    /// The CPUs of the c2c matrix, sorted.
    fn c2c_cpus(&self) -> Vec<usize> {
        distinct(self.results().c2c.iter().flat_map(|p| [p.cpu_a, p.cpu_b]))
    }
    /// What else the machine did while the records were measured (one piece of evidence
    /// for the whole run); `None` in files from before.
    fn machine_load(&self) -> Option<&MachineLoad> {
        self.results().records.first().and_then(|r| r.load.as_ref())
    }
}

impl ExchangeResults for BenchResults {
    fn results(&self) -> &BenchResults {
        self
    }
}

/// Adds the exchange's notes to its results: the fill and sum kernel when the records used
/// one, and the clock anomalies (negative latencies) when there were any.
pub fn add_notes(b: &mut BenchResults) {
    let kernels = distinct(b.records.iter().filter_map(|r| r.kernel()));
    if let [k] = kernels[..] {
        b.notes.push(format!("fill and sum kernel: {k}"));
    }
    let anomalies: u64 = b.records.iter().map(|r| r.clock_anomalies()).sum();
    if anomalies > 0 {
        b.notes.push(format!(
            "clock anomalies: {anomalies} repetition(s) measured a negative latency \
             (counted, never clamped)"
        ));
    }
}

/// Why an exchange record cannot be read: what it lacks.
fn missing(r: &BenchRecord) -> Option<&'static str> {
    if [READ, LATENCY, WRITE]
        .iter()
        .any(|m| !r.metrics.contains_key(*m))
    {
        return Some("an exchange record needs read_us, latency_us and write_us");
    }
    let nums = ["size_bytes", "producer_core", "consumer_core"];
    if nums.iter().any(|k| !r.param_value(k).is_u64()) {
        return Some("an exchange record needs mode, size_bytes, producer_core and consumer_core");
    }
    None
}

/// `b` as the exchange's view: an exchange file whose every record has what
/// [`ExchangeRecord`] reads, or a c2c file (its pairs only, what `handoff plot` draws as the
/// heatmap; its records are of another shape and are left out).
pub fn checked(mut b: BenchResults, path: Option<&Path>) -> Result<BenchResults, LoadError> {
    if b.experiment != NAME && b.experiment != "c2c" {
        return Err(LoadError::WrongSchema {
            path: path.map(Path::to_path_buf),
            found: format!("{BENCH_SCHEMA} of experiment {}", b.experiment),
            expected: "handoff.bench/1 of experiment exchange or c2c",
        });
    }
    if b.experiment != NAME {
        b.records.clear();
    }
    for (i, rec) in b.records.iter().enumerate() {
        if let Some(why) = missing(rec) {
            return Err(LoadError::Domain {
                path: path.map(Path::to_path_buf),
                what: format!("record {} ({})", i + 1, crate::input::quote(&rec.series)),
                why,
            });
        }
    }
    Ok(b)
}

/// Reads an exchange or c2c results file and [`checked`]s it.
pub fn load(path: &Path) -> Result<BenchResults, LoadError> {
    checked(BenchResults::load(path)?, Some(path))
}
