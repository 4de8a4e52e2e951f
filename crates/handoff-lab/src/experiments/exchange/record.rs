//! The exchange's records in the one results schema (`handoff.bench/1`) and back: a record
//! is one (mode, size, producer core, consumer core, flush) point whose parameters are what
//! `compare` matches on, whose metrics are the read, latency, write and flush times (each with
//! its run means, interquartile ranges and medians) and whose `info` holds what describes
//! without identifying it (the wait, the kernel, clock anomalies, the consumer's CPU %).
//!
//! The report's sections, its recommendation and the plots read the typed view
//! [`ExchangeResults`] built from such a file.

use std::path::Path;

use crate::bench::load::LoadError;
use crate::bench::{BenchRecord, BenchResults, MetricRecord, BENCH_SCHEMA};
use crate::experiments::exchange::results::{ExchangeRecord, ExchangeResults, RunDetail};
use crate::stats::Summary;

/// Registry name of the exchange experiment (the results' `experiment`).
pub const NAME: &str = "exchange";

/// Metric names of a record: read (sum), latency, write (fill), flush.
const READ: &str = "read_us";
const LATENCY: &str = "latency_us";
const WRITE: &str = "write_us";
const FLUSH: &str = "flush_us";

fn metric(
    summary: Summary,
    detail: &[RunDetail],
    mean: impl Fn(&RunDetail) -> Option<f64>,
    iqr: impl Fn(&RunDetail) -> Option<[f64; 2]>,
    median: impl Fn(&RunDetail) -> Option<f64>,
) -> MetricRecord {
    MetricRecord {
        unit: "µs".to_string(),
        higher_is_better: false,
        summary,
        run_means: detail.iter().filter_map(&mean).collect(),
        run_iqrs: detail.iter().map(iqr).collect(),
        run_medians: detail.iter().map(median).collect(),
        // A read or write of a small block can be faster than the clock's resolution.
        zero_ok: true,
    }
}

/// One exchange record as a [`BenchRecord`].
pub fn to_bench_record(r: &ExchangeRecord) -> BenchRecord {
    let d = &r.runs_detail;
    let mut b = BenchRecord::new(
        r.mode.clone(),
        r.size_bytes as f64,
        r.runs,
        r.reps,
        r.verified,
    )
    .param("mode", r.mode.clone())
    .param("size_bytes", r.size_bytes)
    .param("producer_core", r.producer_core)
    .param("consumer_core", r.consumer_core)
    .param("placement", r.placement.clone())
    .param("flush_cache", r.flush_cache)
    .metric(
        READ,
        metric(
            r.read_us,
            d,
            |x| Some(x.read_us),
            |x| x.read_iqr_us,
            |x| x.read_median_us,
        ),
    )
    .metric(LATENCY, {
        let mut m = metric(
            r.latency_us,
            d,
            |x| Some(x.latency_us),
            |x| x.latency_iqr_us,
            |x| x.latency_median_us,
        );
        m.zero_ok = false;
        m
    })
    .metric(
        WRITE,
        metric(r.write_us, d, |x| Some(x.write_us), |_| None, |_| None),
    );
    if let Some(f) = r.flush_us {
        b = b.metric(FLUSH, metric(f, d, |x| x.flush_us, |_| None, |_| None));
    }
    b.checks = r.checks.clone();
    b.c2c_one_way_ns = r.c2c_one_way_ns;
    let info = &mut b.info;
    info.insert("wait".into(), r.wait.clone().into());
    info.insert("clock_anomalies".into(), r.clock_anomalies.into());
    info.insert("consumer_cpu_pct".into(), r.consumer_cpu_pct.into());
    for (k, v) in [("kernel", &r.kernel), ("filesystem", &r.filesystem)] {
        if let Some(v) = v {
            info.insert(k.into(), v.clone().into());
        }
    }
    if let Some(p) = r.pipe_size_bytes {
        info.insert("pipe_size_bytes".into(), p.into());
    }
    b
}

/// What an exchange record lacks to be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MissingField {
    /// A numeric parameter (mode, size, cores...).
    #[error("no parameter {0}")]
    Param(String),
    /// One of the timed metrics.
    #[error("no metric {0}")]
    Metric(String),
}

/// A [`BenchRecord`] of the exchange back as an [`ExchangeRecord`]; `Err` names what is
/// missing.
pub fn from_bench_record(b: &BenchRecord) -> Result<ExchangeRecord, MissingField> {
    let num = |k: &str| {
        b.params
            .get(k)
            .and_then(|v| v.as_u64())
            .ok_or_else(|| MissingField::Param(k.to_string()))
    };
    let get = |k: &str| {
        b.metrics
            .get(k)
            .ok_or_else(|| MissingField::Metric(k.to_string()))
    };
    let (read, latency, write) = (get(READ)?, get(LATENCY)?, get(WRITE)?);
    let flush = b.metrics.get(FLUSH);
    let runs = latency.run_means.len();
    let at = |v: &Option<Vec<[f64; 2]>>, i: usize| v.as_ref().and_then(|v| v.get(i).copied());
    let med = |v: &Option<Vec<f64>>, i: usize| v.as_ref().and_then(|v| v.get(i).copied());
    let runs_detail = (0..runs)
        .map(|i| RunDetail {
            read_us: read.run_means.get(i).copied().unwrap_or(read.summary.mean),
            latency_us: latency.run_means[i],
            write_us: write
                .run_means
                .get(i)
                .copied()
                .unwrap_or(write.summary.mean),
            flush_us: flush.and_then(|f| f.run_means.get(i).copied()),
            read_iqr_us: at(&read.run_iqrs, i),
            latency_iqr_us: at(&latency.run_iqrs, i),
            read_median_us: med(&read.run_medians, i),
            latency_median_us: med(&latency.run_medians, i),
        })
        .collect();
    let info_str = |k: &str| b.info.get(k).and_then(|v| v.as_str()).map(str::to_string);
    Ok(ExchangeRecord {
        mode: b.param_text("mode"),
        size_bytes: num("size_bytes")?,
        producer_core: num("producer_core")? as usize,
        consumer_core: num("consumer_core")? as usize,
        placement: b.param_text("placement"),
        flush_cache: b
            .params
            .get("flush_cache")
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
        reps: b.reps,
        runs: b.runs,
        wait: info_str("wait").unwrap_or_default(),
        verified: b.verified,
        checks: b.checks.clone(),
        kernel: info_str("kernel"),
        clock_anomalies: b
            .info
            .get("clock_anomalies")
            .and_then(|v| v.as_u64())
            .unwrap_or(0),
        c2c_one_way_ns: b.c2c_one_way_ns,
        consumer_cpu_pct: b
            .info
            .get("consumer_cpu_pct")
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0),
        runs_detail,
        read_us: read.summary,
        latency_us: latency.summary,
        write_us: write.summary,
        flush_us: flush.map(|f| f.summary),
        pipe_size_bytes: b.info.get("pipe_size_bytes").and_then(|v| v.as_u64()),
        filesystem: info_str("filesystem"),
    })
}

impl ExchangeResults {
    /// The results in the one schema (experiment [`NAME`]); what `bench exchange` and
    /// `handoff report` write.
    pub fn to_bench(&self) -> BenchResults {
        let mut b = BenchResults::new(
            NAME,
            self.machine.clone(),
            self.tool.clone(),
            self.config.clone(),
        );
        b.c2c = self.c2c.clone();
        b.records = self.records.iter().map(to_bench_record).collect();
        b.report = self.report.clone();
        b.partial = self.partial;
        b.stopped_early = self.stopped_early.clone();
        b.elapsed_s = self.report.as_ref().and_then(|r| r.elapsed_s);
        if let Some(l) = &self.load {
            b.fill_load(l);
        }
        // What the old table's footer said, as notes: the kernel, negative latencies.
        let mut kernels: Vec<&str> = self
            .records
            .iter()
            .filter_map(|r| r.kernel.as_deref())
            .collect();
        kernels.sort_unstable();
        kernels.dedup();
        if let [k] = kernels[..] {
            b.notes.push(format!("fill and sum kernel: {k}"));
        }
        let anomalies: u64 = self.records.iter().map(|r| r.clock_anomalies).sum();
        if anomalies > 0 {
            b.notes.push(format!(
                "clock anomalies: {anomalies} repetition(s) measured a negative latency \
                 (counted, never clamped)"
            ));
        }
        b
    }

    /// The typed view of an `exchange` file (or of a `c2c` file: its pairs only, what
    /// `handoff plot` draws as the heatmap).
    pub fn from_bench(b: &BenchResults, path: Option<&Path>) -> Result<Self, LoadError> {
        if b.experiment != NAME && b.experiment != "c2c" {
            return Err(LoadError::WrongSchema {
                path: path.map(Path::to_path_buf),
                found: format!("{BENCH_SCHEMA} of experiment {}", b.experiment),
                expected: "handoff.bench/1 of experiment exchange or c2c",
            });
        }
        let mut r = ExchangeResults::new(b.machine.clone(), b.tool.clone(), b.config.clone());
        r.c2c = b.c2c.clone();
        for (i, rec) in b
            .records
            .iter()
            .filter(|_| b.experiment == NAME)
            .enumerate()
        {
            r.records
                .push(from_bench_record(rec).map_err(|why| LoadError::Domain {
                    path: path.map(Path::to_path_buf),
                    what: format!("record {} ({})", i + 1, crate::input::quote(&rec.series)),
                    why: if matches!(why, MissingField::Metric(_)) {
                        "an exchange record needs read_us, latency_us and write_us"
                    } else {
                        "an exchange record needs mode, size_bytes, producer_core and consumer_core"
                    },
                })?);
        }
        r.report = b.report.clone();
        r.partial = b.partial;
        r.stopped_early = b.stopped_early.clone();
        r.load = b.records.first().and_then(|x| x.load.clone());
        Ok(r)
    }

    /// Reads an exchange or c2c results file as the typed view.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        Self::from_bench(&BenchResults::load(path)?, Some(path))
    }
}
