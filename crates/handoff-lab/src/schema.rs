//! The lab's result files: serde types for `handoff.exchange/1` (`bench exchange`, `report`)
//! and `handoff.c2c/1` (`bench c2c`).
//!
//! Every time is a `f64` in microseconds (`*_us`) or nanoseconds (`*_ns`), as the field name
//! says. Optional values serialize as `null` (never omitted) so that a reader sees every field
//! the schema has; fields added after version 1 are `#[serde(default)]` so older files load.
//!
//! The library fills [`Machine`] and the experiments fill [`ExchangeRecord`]; [`crate::stats`]
//! builds the [`Summary`] values.

use crate::experiments::exchange::mode::ModeInfo;
use serde::{Deserialize, Serialize};

/// Schema string of an exchange results file (`bench exchange --format json`, `report`).
pub const EXCHANGE_SCHEMA: &str = "handoff.exchange/1";
/// Schema string of a core-to-core results file of before `bench c2c` wrote
/// `handoff.bench/1`.
pub const C2C_SCHEMA: &str = "handoff.c2c/1";

/// Placement class names the lab uses for a (producer, consumer) core pair.
///
/// Records carry the name as a plain string so that a newer library can add classes without
/// breaking older readers; these constants are the names the report knows how to describe,
/// the same as [`handoff_probe::topology::Placement::as_str`] (a test keeps them equal).
pub mod placement {
    /// Producer and consumer on the same logical CPU.
    pub const SAME_CORE: &str = "same-core";
    /// Two hardware threads of one physical core.
    pub const SMT_SIBLING: &str = "smt-sibling";
    /// Different cores sharing an L2 cache.
    pub const SHARED_L2: &str = "shared-l2";
    /// Different cores sharing the last-level cache (same CCX or die).
    pub const SHARED_L3: &str = "shared-l3";
    /// Same package, no shared cache.
    pub const SAME_PACKAGE: &str = "same-package";
    /// Another package (socket) in the same NUMA node.
    pub const CROSS_PACKAGE: &str = "cross-package";
    /// Another NUMA node.
    pub const CROSS_NUMA: &str = "cross-numa";

    /// A short human description of a placement class, e.g. "on the same core".
    pub fn describe(placement: &str) -> String {
        match placement {
            SAME_CORE => "on the same core".to_string(),
            SMT_SIBLING => "on an SMT sibling".to_string(),
            SHARED_L2 => "on another core sharing L2".to_string(),
            SHARED_L3 => "on another core sharing the last-level cache".to_string(),
            SAME_PACKAGE => "on another core of the same package".to_string(),
            CROSS_PACKAGE => "on another package".to_string(),
            CROSS_NUMA => "on another NUMA node".to_string(),
            other => format!("with placement `{other}`"),
        }
    }

    /// Sort rank of a placement class: nearest first, unknown classes last.
    pub fn rank(placement: &str) -> u8 {
        match placement {
            SAME_CORE => 0,
            SMT_SIBLING => 1,
            SHARED_L2 => 2,
            SHARED_L3 => 3,
            SAME_PACKAGE => 4,
            CROSS_PACKAGE => 5,
            CROSS_NUMA => 6,
            _ => 7,
        }
    }

    #[cfg(test)]
    mod tests {
        use handoff_probe::topology::Placement;

        #[test]
        fn names_match_the_library() {
            let ours = [
                super::SAME_CORE,
                super::SMT_SIBLING,
                super::SHARED_L2,
                super::SHARED_L3,
                super::SAME_PACKAGE,
                super::CROSS_PACKAGE,
                super::CROSS_NUMA,
            ];
            let lib: Vec<&str> = Placement::ALL.iter().map(|p| p.as_str()).collect();
            assert_eq!(ours.to_vec(), lib);
            for (i, p) in ours.iter().enumerate() {
                assert_eq!(super::rank(p) as usize, i);
            }
        }
    }
}

/// The exchange modes of issue 4, in the order the lab reports them (the names of the mode
/// registry [`crate::experiments::exchange::MODES`]).
pub const EXCHANGE_MODES: [&str; 9] = crate::experiments::exchange::mode::MODE_NAMES;

/// Sort rank of a mode name: the order of [`EXCHANGE_MODES`], unknown modes last.
pub fn mode_rank(mode: &str) -> usize {
    ModeInfo::rank(mode)
}

/// Whether a mode hands the block from one party (thread or process) to another; the
/// one-thread baselines `single-thread` and `file` do not.
pub fn is_two_party(mode: &str) -> bool {
    ModeInfo::is_two_party(mode)
}

/// The results of `handoff bench exchange` or `handoff report` (schema [`EXCHANGE_SCHEMA`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    #[serde(default)]
    pub report: Option<ReportSettings>,
    /// True when the run stopped before every planned record was measured.
    #[serde(default)]
    pub partial: bool,
    /// Why the run stopped early (e.g. "interrupted (Ctrl-C) after 12 of 40 records").
    #[serde(default)]
    pub stopped_early: Option<String>,
    /// What else the machine did while the records were measured
    /// ([`crate::bench::busy`]); `None` in files from before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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

/// What the machine is: filled by the lead from the library's platform layer.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Machine {
    /// CPU model name, e.g. "AMD EPYC 9R14 96-Core Processor".
    pub cpu_model: String,
    /// Logical CPUs online.
    pub logical_cpus: usize,
    /// CPUs this process may run on (affinity mask).
    pub allowed_cpus: Vec<usize>,
    /// Every cache level and kind.
    pub caches: Vec<Cache>,
    /// Packages, cores, SMT, NUMA.
    pub topology: Topology,
    /// Kernel release, e.g. "6.8.0-45-generic".
    pub kernel: String,
    /// Host name.
    pub hostname: String,
    /// The clock the lab timed with.
    pub clock: Clock,
    /// True when running under a hypervisor.
    pub virtualized: bool,
    /// Hypervisor name when known, e.g. "KVM".
    pub hypervisor: Option<String>,
    /// CPU frequency governor when readable, e.g. "performance".
    pub governor: Option<String>,
}

impl Machine {
    /// Size in bytes of the smallest-level data (or unified) cache of `level`, if known.
    pub fn cache_size(&self, level: u8) -> Option<u64> {
        self.caches
            .iter()
            .filter(|c| c.level == level && c.kind != CACHE_INSTRUCTION)
            .map(|c| c.size_bytes)
            .max()
    }

    /// Size in bytes of the last-level data or unified cache, if any cache is known.
    pub fn llc_size(&self) -> Option<u64> {
        let level = self
            .caches
            .iter()
            .filter(|c| c.kind != CACHE_INSTRUCTION)
            .map(|c| c.level)
            .max()?;
        self.cache_size(level)
    }
}

/// [`Cache::kind`] of a data cache.
pub const CACHE_DATA: &str = "data";
/// [`Cache::kind`] of an instruction cache.
pub const CACHE_INSTRUCTION: &str = "instruction";
/// [`Cache::kind`] of a unified cache.
pub const CACHE_UNIFIED: &str = "unified";

/// One cache (one level and kind; one entry per distinct kind, not per instance).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cache {
    /// 1, 2, 3...
    pub level: u8,
    /// [`CACHE_DATA`], [`CACHE_INSTRUCTION`] or [`CACHE_UNIFIED`].
    pub kind: String,
    /// Size of one instance in bytes.
    pub size_bytes: u64,
    /// The logical CPUs sharing the instance CPU 0 uses (or any instance: the sharing pattern).
    pub shared_by: Vec<usize>,
}

/// A summary of the CPU topology.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Topology {
    /// Physical packages (sockets).
    pub packages: usize,
    /// Physical cores in all packages.
    pub cores: usize,
    /// Hardware threads per core (1 without SMT).
    pub threads_per_core: usize,
    /// NUMA nodes (1 when not NUMA or unknown).
    pub numa_nodes: usize,
    /// One line for people, e.g. "1 package, 2 cores, no SMT, 1 NUMA node".
    pub summary: String,
}

/// The clock the lab timed with.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Clock {
    /// e.g. "tsc (invariant)" or "clock_gettime(CLOCK_MONOTONIC)".
    pub source: String,
    /// Ticks per nanosecond for a cycle counter; `None` for a nanosecond clock.
    pub ticks_per_ns: Option<f64>,
    /// Cost of one clock read in nanoseconds.
    pub read_cost_ns: f64,
}

/// The tool that produced a results file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Tool {
    /// Crate version, e.g. "0.1.0".
    pub version: String,
    /// Git commit the binary was built from, when known.
    pub git_commit: Option<String>,
}

/// One-way core-to-core latency of one CPU pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct C2cPair {
    /// First CPU.
    pub cpu_a: usize,
    /// Second CPU.
    pub cpu_b: usize,
    /// Placement class of the pair (see [`placement`]).
    pub placement: String,
    /// One-way latency in nanoseconds (half the round trip of a cache line).
    pub one_way_ns: f64,
}

/// One measured point: a (mode, size, producer core, consumer core, flush) combination.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExchangeRecord {
    /// Exchange mode (see [`EXCHANGE_MODES`]).
    pub mode: String,
    /// Block size in bytes.
    pub size_bytes: u64,
    /// CPU the producer was pinned to.
    pub producer_core: usize,
    /// CPU the consumer was pinned to.
    pub consumer_core: usize,
    /// Placement class of the pair (see [`placement`]).
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<crate::bench::Checks>,
    /// The fill and sum kernel that ran (`avx512`, `avx2`, `sse2`, `neon`, `scalar`); absent
    /// in files written before kernels were chosen at run time (those ran `sse2` on x86-64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    #[serde(default)]
    pub pipe_size_bytes: Option<u64>,
    /// Filesystem type of the file directory (mode `file`).
    #[serde(default)]
    pub filesystem: Option<String>,
}

/// The statistics of one metric of one record.
///
/// `mean` and its confidence interval are over the per-run means (Student-t on the log scale,
/// df = runs - 1, so > 0 for times; `None` when there is one run; files written before that
/// change hold a plain Student-t interval); `median`, `min`, `max` and `p99` are over all
/// repetitions of all runs pooled, the median with its own distribution-free interval. See
/// [`crate::stats`] and [`crate::stats::interval`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Mean of the per-run means.
    pub mean: f64,
    /// Lower bound of the 95% confidence interval of the mean.
    pub ci95_low: Option<f64>,
    /// Upper bound of the 95% confidence interval of the mean.
    pub ci95_high: Option<f64>,
    /// Median of all repetitions.
    pub median: f64,
    /// Smallest repetition.
    pub min: f64,
    /// Largest repetition.
    pub max: f64,
    /// 99th percentile of all repetitions.
    pub p99: f64,
    /// Lower bound of the 95% interval of the median ([`crate::stats::interval::median_interval`];
    /// `None` in older files or with too few samples).
    #[serde(default)]
    pub median_ci95_low: Option<f64>,
    /// Upper bound of the 95% interval of the median.
    #[serde(default)]
    pub median_ci95_high: Option<f64>,
}

/// Per-run statistics of one record: the mean of each metric and, when recorded, the
/// interquartile range [p25, p75] that [`crate::stats::disagreement`] compares runs with.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RunDetail {
    /// Mean read time of the run.
    pub read_us: f64,
    /// Mean latency of the run.
    pub latency_us: f64,
    /// Mean write time of the run.
    pub write_us: f64,
    /// Mean flush time of the run, when flushing.
    #[serde(default)]
    pub flush_us: Option<f64>,
    /// Interquartile range of the run's read times.
    #[serde(default)]
    pub read_iqr_us: Option<[f64; 2]>,
    /// Interquartile range of the run's latencies.
    #[serde(default)]
    pub latency_iqr_us: Option<[f64; 2]>,
    /// Median read time of the run (`None` in older files).
    #[serde(default)]
    pub read_median_us: Option<f64>,
    /// Median latency of the run (`None` in older files).
    #[serde(default)]
    pub latency_median_us: Option<f64>,
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
}

mod load;
pub use load::LoadError;
pub(crate) use load::{check_rate, check_sample, check_time, from_json_checked, to_json_pretty};
