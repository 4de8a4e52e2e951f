//! The exchange's typed view of its results: what the report's sections, its recommendation
//! and the plots read ([`ExchangeResults`], one [`ExchangeRecord`] per point), built from a
//! `handoff.bench/1` file by [`super::record`].
//!
//! Every time is a `f64` in microseconds (`*_us`) or nanoseconds (`*_ns`), as the field name
//! says.

use crate::bench::schema::{C2cPair, ReportSettings};
use crate::machine::{Machine, Tool};
use crate::stats::{disagreement, iqr, mean, median, Disagreement, Metric, Summary};

/// The results of `handoff bench exchange` or `handoff report`, typed.
#[derive(Debug, Clone, PartialEq)]
pub struct ExchangeResults {
    /// The machine the results were measured on.
    pub machine: Machine,
    /// The tool that measured them.
    pub tool: Tool,
    /// The experiment configuration exactly as run (the experiment's serde `Config`).
    pub config: serde_json::Value,
    /// Core-to-core one-way latency for every CPU pair used, measured in the same invocation.
    pub c2c: Vec<C2cPair>,
    /// One record per (mode, size, producer core, consumer core, flush).
    pub records: Vec<ExchangeRecord>,
    /// The report's own settings; `None` for `bench exchange`.
    pub report: Option<ReportSettings>,
    /// True when the run stopped before every planned record was measured.
    pub partial: bool,
    /// Why the run stopped early (e.g. "interrupted (Ctrl-C) after 12 of 40 records").
    pub stopped_early: Option<String>,
    /// What else the machine did while the records were measured
    /// ([`crate::bench::busy`]); `None` in files from before.
    pub load: Option<crate::bench::busy::MachineLoad>,
}

impl ExchangeResults {
    /// The busy-machine warning of this file ([`crate::bench::busy::warning`]).
    pub fn busy_warning(&self) -> Option<String> {
        crate::bench::busy::warning([self.load.as_ref()])
    }

    /// An empty results file for `machine`, `tool` and `config`, with the schema string set.
    pub fn new(machine: Machine, tool: Tool, config: serde_json::Value) -> Self {
        ExchangeResults {
            machine,
            tool,
            config,
            c2c: Vec::new(),
            records: Vec::new(),
            report: None,
            partial: false,
            stopped_early: None,
            load: None,
        }
    }

    /// The one-way c2c latency between `a` and `b` in either direction, if measured.
    pub fn c2c_between(&self, a: usize, b: usize) -> Option<f64> {
        self.c2c
            .iter()
            .find(|p| p.cpu_a == a && p.cpu_b == b)
            .or_else(|| self.c2c.iter().find(|p| p.cpu_a == b && p.cpu_b == a))
            .map(|p| p.one_way_ns)
    }

    /// The c2c floor beside a record: the one measured next to it, else the run's matrix
    /// value for its CPU pair; `None` on one CPU.
    pub fn floor_for(&self, r: &ExchangeRecord) -> Option<f64> {
        r.c2c_one_way_ns.or_else(|| {
            (r.producer_core != r.consumer_core)
                .then(|| self.c2c_between(r.producer_core, r.consumer_core))
                .flatten()
        })
    }

    /// The CPUs of the c2c matrix, sorted.
    pub fn c2c_cpus(&self) -> Vec<usize> {
        let mut cpus: Vec<usize> = self.c2c.iter().flat_map(|p| [p.cpu_a, p.cpu_b]).collect();
        cpus.sort_unstable();
        cpus.dedup();
        cpus
    }
}

/// One measured point: a (mode, size, producer core, consumer core, flush) combination.
#[derive(Debug, Clone, PartialEq)]
pub struct ExchangeRecord {
    /// Exchange mode (see [`super::mode::MODE_NAMES`]).
    pub mode: String,
    /// Block size in bytes.
    pub size_bytes: u64,
    /// CPU the producer was pinned to.
    pub producer_core: usize,
    /// CPU the consumer was pinned to.
    pub consumer_core: usize,
    /// Placement class of the pair (see [`crate::machine::placement`]).
    pub placement: String,
    /// Whether the block was flushed from every cache before `t_done`.
    pub flush_cache: bool,
    /// Measured repetitions per run (after warm-up).
    pub reps: u64,
    /// Runs (fresh pair of threads or processes each).
    pub runs: u64,
    /// What the consumer actually did to wait:
    /// `none|spin|spin-yield|futex|adaptive|semaphore|condvar|pipe`.
    pub wait: String,
    /// True when the consumer checked at least one block's sum and none was wrong.
    pub verified: bool,
    /// The blocks checked and found wrong; `None` in files from before counts existed.
    pub checks: Option<crate::bench::Checks>,
    /// The fill and sum kernel that ran (`avx512`, `avx2`, `sse2`, `neon`, `scalar`); `None` in
    /// files written before kernels were chosen at run time (those ran `sse2` on x86-64).
    pub kernel: Option<String>,
    /// Repetitions whose latency came out negative (counted, never clamped).
    pub clock_anomalies: u64,
    /// One-way c2c latency of this core pair in nanoseconds, measured just before the record's
    /// runs (the host may move vCPUs during a long run); `None` on the same core.
    pub c2c_one_way_ns: Option<f64>,
    /// Consumer CPU time divided by wall time, in percent.
    pub consumer_cpu_pct: f64,
    /// Per-run means (and spreads), one entry per run.
    pub runs_detail: Vec<RunDetail>,
    /// Read (sum) time.
    pub read_us: Summary,
    /// Latency from `t_done` to `t_start`.
    pub latency_us: Summary,
    /// Write (fill) time.
    pub write_us: Summary,
    /// Cache flush time, when flushing.
    pub flush_us: Option<Summary>,
    /// Pipe buffer size in bytes (mode `pipe`).
    pub pipe_size_bytes: Option<u64>,
    /// Filesystem type of the file directory (mode `file`).
    pub filesystem: Option<String>,
}

/// Per-run statistics of one record: the mean of each metric and, when recorded, the
/// interquartile range [p25, p75] that [`crate::stats::disagreement`] compares runs with.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunDetail {
    /// Mean read time of the run.
    pub read_us: f64,
    /// Mean latency of the run.
    pub latency_us: f64,
    /// Mean write time of the run.
    pub write_us: f64,
    /// Mean flush time of the run, when flushing.
    pub flush_us: Option<f64>,
    /// Interquartile range of the run's read times.
    pub read_iqr_us: Option<[f64; 2]>,
    /// Interquartile range of the run's latencies.
    pub latency_iqr_us: Option<[f64; 2]>,
    /// Median read time of the run (`None` in older files).
    pub read_median_us: Option<f64>,
    /// Median latency of the run (`None` in older files).
    pub latency_median_us: Option<f64>,
}

/// The [`RunDetail`] of one run from its samples (means, the read/latency interquartile
/// ranges the disagreement check uses, and the read/latency medians the run-to-run modes
/// use).
pub fn run_detail(
    read: &[f64],
    latency: &[f64],
    write: &[f64],
    flush: Option<&[f64]>,
) -> RunDetail {
    RunDetail {
        read_us: mean(read),
        latency_us: mean(latency),
        write_us: mean(write),
        flush_us: flush.map(mean),
        read_iqr_us: iqr(read),
        latency_iqr_us: iqr(latency),
        read_median_us: median(read),
        latency_median_us: median(latency),
    }
}

/// The per-run levels the run-to-run modes are looked for in: the run medians when every run
/// recorded one (a few outliers cannot move a median, so two levels of medians are two
/// levels of the bulk of the repetitions, the level the tables print), else the run means.
pub fn run_levels(record: &ExchangeRecord, metric: Metric) -> Vec<f64> {
    let medians: Option<Vec<f64>> = record
        .runs_detail
        .iter()
        .map(|r| match metric {
            Metric::Read => r.read_median_us,
            Metric::Latency => r.latency_median_us,
        })
        .collect();
    match medians {
        Some(m) if !m.is_empty() => m,
        _ => run_means(record, metric),
    }
}

/// Run means of `metric` in `record.runs_detail`.
pub fn run_means(record: &ExchangeRecord, metric: Metric) -> Vec<f64> {
    record
        .runs_detail
        .iter()
        .map(|r| match metric {
            Metric::Read => r.read_us,
            Metric::Latency => r.latency_us,
        })
        .collect()
}

/// The disagreements of a record's read time and latency runs.
pub fn record_disagreements(record: &ExchangeRecord) -> Vec<(Metric, Disagreement)> {
    [Metric::Read, Metric::Latency]
        .into_iter()
        .filter_map(|metric| {
            let means = run_means(record, metric);
            let iqrs: Option<Vec<[f64; 2]>> = record
                .runs_detail
                .iter()
                .map(|r| match metric {
                    Metric::Read => r.read_iqr_us,
                    Metric::Latency => r.latency_iqr_us,
                })
                .collect();
            disagreement(&means, iqrs.as_deref()).map(|d| (metric, d))
        })
        .collect()
}
