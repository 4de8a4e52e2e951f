//! `handoff compare A.json B.json` (or `A1.json A2.json ... --vs B1.json B2.json ...`): records
//! matched by (mode, size, flush, placement), the ratio B/A of the means of read time and
//! latency with a 95% CI, a verdict per metric, and a regression gate (`--fail-above`).
//!
//! # Matching
//!
//! Records are grouped by (mode, size, flush, placement). Within a group, records with the
//! same (producer core, consumer core) are paired; when each side has exactly one such record
//! they are paired whatever their cores (two machines rarely number CPUs alike). Everything
//! else is listed as unmatched. With several files on a side (several invocations of
//! `bench exchange`), a record is identified by its group and cores, and each file that has it
//! contributes one invocation.
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
//!   ([`ExchangeRecord::c2c_one_way_ns`]); a same-core record takes its file's median floor.
//!   When the mean floor of B differs from A's by more than [`CONTROL_TOLERANCE`] and
//!   [`CONTROL_MIN_SHIFT_NS`] (and, with ≥ 2 files per side, the CI of the floors' ratio
//!   excludes 1), the machine changed between the files: both metrics of the record are
//!   inconclusive, whatever their ratio, instead of blaming the code.
//! - *Wake-up latencies need invocations.* The latency of a record whose consumer waits is the
//!   scheduler's and the hypervisor's wake-up time, which swings 1.2–5× between invocations of
//!   the same binary, with heavy tails. With one file on a side, a slower or faster latency of
//!   such a record (`wait` other than `none`) is inconclusive. With several, a latency whose
//!   consumer sleeps or yields (`wait` other than `none` and `spin`: futex, semaphore, condvar,
//!   pipe, adaptive, spin-yield) must also be separated: every file of B slower (or faster)
//!   than every file of A, with an exact rank-test p < 0.05, i.e. ≥ 4 files per side.
//!
//! `--fail-above RATIO` is exceeded when, for some matched record and metric, the verdict is
//! slower **and** the CI's lower bound is above RATIO (B slower than RATIO × A with 95%
//! confidence): a point ratio above RATIO whose CI straddles it does not fail.
//! [`Comparison::exit_code`] is then 1, else 0; the CLI maps errors (bad files:
//! [`CompareError`], usage) to 2.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::output::fmt_size;
use crate::schema::{mode_rank, ExchangeRecord, ExchangeResults};
use crate::stats::{run_means, Metric, Ratio};

mod evidence;
mod render;

use evidence::metric;
pub use evidence::{beyond_drift, control_moved, single_invocation_reason};

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
        "no record of B matches a record of A by (mode, size, flush, placement): A has {a} record(s), B has {b}; compare results of the same experiment"
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
    /// evidence it needs (see the module docs and [`MetricComparison::reason`]).
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

/// B/A of one metric.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricComparison {
    /// Mean of A (µs; over A's invocations).
    pub a_mean: f64,
    /// Mean of B (µs).
    pub b_mean: f64,
    /// B/A with its CI; `None` when mean(A) is not positive.
    pub ratio: Option<Ratio>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why the verdict is inconclusive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether this metric exceeds `--fail-above`.
    pub exceeds: bool,
}

/// One matched pair of records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matched {
    /// Mode.
    pub mode: String,
    /// Block size.
    pub size_bytes: u64,
    /// Flushed before the handoff.
    pub flush_cache: bool,
    /// Placement class.
    pub placement: String,
    /// (producer, consumer) cores in A.
    pub cores_a: (usize, usize),
    /// (producer, consumer) cores in B.
    pub cores_b: (usize, usize),
    /// Files of A that have this record (invocations).
    pub invocations_a: usize,
    /// Files of B that have this record.
    pub invocations_b: usize,
    /// Mean c2c floor beside the record in A (ns; the machine control; for a same-core record
    /// the file's median floor); `None` when A measured none (one CPU).
    pub control_ns_a: Option<f64>,
    /// Mean c2c floor beside the record in B.
    pub control_ns_b: Option<f64>,
    /// Read time B/A.
    pub read: MetricComparison,
    /// Latency B/A.
    pub latency: MetricComparison,
}

impl Matched {
    /// Whether the CI is over invocations (≥ 2 files on each side) rather than runs.
    pub fn over_invocations(&self) -> bool {
        self.invocations_a >= 2 && self.invocations_b >= 2
    }
}

/// The result of [`compare`] and [`compare_many`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// Files on side A.
    pub files_a: usize,
    /// Files on side B.
    pub files_b: usize,
    /// Matched records, sorted by placement, mode, size, flush.
    pub matched: Vec<Matched>,
    /// Keys (mode, size, flush, placement, producer, consumer) of A's records without a match.
    pub unmatched_a: Vec<String>,
    /// Keys of B's records without a match.
    pub unmatched_b: Vec<String>,
    /// The `--fail-above` threshold, if given.
    pub fail_above: Option<f64>,
    /// The noise threshold (a fraction: 0.05 = 5%).
    pub noise_threshold: f64,
}

impl Comparison {
    /// Whether some metric exceeds `--fail-above`.
    pub fn exceeded(&self) -> bool {
        self.matched
            .iter()
            .any(|m| m.read.exceeds || m.latency.exceeds)
    }

    /// [`EXIT_FAIL_ABOVE`] when `--fail-above` was exceeded, else [`EXIT_OK`].
    pub fn exit_code(&self) -> i32 {
        if self.exceeded() {
            EXIT_FAIL_ABOVE
        } else {
            EXIT_OK
        }
    }

    /// How many metrics (read and latency of every matched record) have verdict `v`.
    pub fn count(&self, v: Verdict) -> usize {
        self.matched
            .iter()
            .flat_map(|m| [m.read.verdict, m.latency.verdict])
            .filter(|x| *x == v)
            .count()
    }

    /// The comparison as pretty JSON (every matched record with both metrics, verdicts and
    /// reasons, the unmatched keys, the thresholds, the verdict counts and `exceeded`).
    pub fn to_json_pretty(&self) -> String {
        #[derive(Serialize)]
        struct Counts {
            faster: usize,
            slower: usize,
            same: usize,
            inconclusive: usize,
            unknown: usize,
        }
        #[derive(Serialize)]
        struct Out<'a> {
            #[serde(flatten)]
            c: &'a Comparison,
            counts: Counts,
            exceeded: bool,
        }
        let mut text = serde_json::to_string_pretty(&Out {
            c: self,
            counts: Counts {
                faster: self.count(Verdict::Faster),
                slower: self.count(Verdict::Slower),
                same: self.count(Verdict::Same),
                inconclusive: self.count(Verdict::Inconclusive),
                unknown: self.count(Verdict::Unknown),
            },
            exceeded: self.exceeded(),
        })
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialize: {e}\"}}"));
        text.push('\n');
        text
    }
}

type GroupKey = (String, u64, bool, String);
type Cores = (usize, usize);
/// One record of one file (invocation).
pub(super) type Sample<'a> = (&'a ExchangeResults, &'a ExchangeRecord);
/// Per group, per (producer, consumer): the samples of one side.
type Side<'a> = BTreeMap<GroupKey, BTreeMap<Cores, Vec<Sample<'a>>>>;

fn key(r: &ExchangeRecord) -> GroupKey {
    (
        r.mode.clone(),
        r.size_bytes,
        r.flush_cache,
        r.placement.clone(),
    )
}

fn describe(r: &ExchangeRecord) -> String {
    format!(
        "{} {} {} {} cpu {}→{}",
        r.mode,
        fmt_size(r.size_bytes),
        if r.flush_cache { "flushed" } else { "cached" },
        r.placement,
        r.producer_core,
        r.consumer_core
    )
}

fn side(files: &[ExchangeResults]) -> Side<'_> {
    let mut s = Side::new();
    for f in files {
        for r in &f.records {
            s.entry(key(r))
                .or_default()
                .entry((r.producer_core, r.consumer_core))
                .or_default()
                .push((f, r));
        }
    }
    s
}

/// Compares B against A, one file each (see the module docs); `noise_threshold` is a
/// fraction (0.05 = 5%).
pub fn compare(
    a: &ExchangeResults,
    b: &ExchangeResults,
    fail_above: Option<f64>,
    noise_threshold: f64,
) -> Result<Comparison, CompareError> {
    compare_many(
        std::slice::from_ref(a),
        std::slice::from_ref(b),
        fail_above,
        noise_threshold,
    )
}

/// Compares the files of B against those of A, each file one invocation (see the module docs),
/// with the default drift [`SINGLE_INVOCATION_DRIFT`].
pub fn compare_many(
    a: &[ExchangeResults],
    b: &[ExchangeResults],
    fail_above: Option<f64>,
    noise_threshold: f64,
) -> Result<Comparison, CompareError> {
    compare_many_with(a, b, fail_above, noise_threshold, SINGLE_INVOCATION_DRIFT)
}

/// [`compare_many`] with the drift between invocations given (`--drift`): with one file on a
/// side, a difference counts only when its whole interval lies beyond [1/drift, drift]; 1
/// trusts one invocation's runs (a quiet bare-metal machine).
pub fn compare_many_with(
    a: &[ExchangeResults],
    b: &[ExchangeResults],
    fail_above: Option<f64>,
    noise_threshold: f64,
    drift: f64,
) -> Result<Comparison, CompareError> {
    if !(drift.is_finite() && drift >= 1.0) {
        return Err(CompareError::BadDrift(drift));
    }
    if a.is_empty() || b.is_empty() {
        return Err(CompareError::NoFiles);
    }
    if let Some(f) = fail_above {
        if !(f.is_finite() && f > 0.0) {
            return Err(CompareError::BadThreshold(f));
        }
    }
    if !(noise_threshold.is_finite() && (0.0..1.0).contains(&noise_threshold)) {
        return Err(CompareError::BadNoise(noise_threshold));
    }
    let (mut sa, mut sb) = (side(a), side(b));
    let mut keys: Vec<GroupKey> = sa.keys().chain(sb.keys()).cloned().collect();
    keys.sort();
    keys.dedup();
    let mut matched = Vec::new();
    let mut unmatched_a = Vec::new();
    let mut unmatched_b = Vec::new();
    for k in keys {
        let ga = sa.remove(&k).unwrap_or_default();
        let mut gb = sb.remove(&k).unwrap_or_default();
        let mut pairs: Vec<(Vec<Sample>, Vec<Sample>)> = Vec::new();
        let mut left_a = Vec::new();
        if ga.len() == 1 && gb.len() == 1 {
            let x = ga.into_values().next().unwrap_or_default();
            let y = std::mem::take(&mut gb)
                .into_values()
                .next()
                .unwrap_or_default();
            pairs.push((x, y));
        } else {
            for (cores, x) in ga {
                match gb.remove(&cores) {
                    Some(y) => pairs.push((x, y)),
                    None => left_a.push(x),
                }
            }
        }
        unmatched_a.extend(left_a.iter().map(|x| describe(x[0].1)));
        unmatched_b.extend(gb.values().map(|y| describe(y[0].1)));
        for (x, y) in pairs {
            matched.push(pair(&x, &y, fail_above, noise_threshold, drift));
        }
    }
    if matched.is_empty() {
        let count = |s: &[ExchangeResults]| s.iter().map(|f| f.records.len()).sum();
        return Err(CompareError::NothingMatched {
            a: count(a),
            b: count(b),
        });
    }
    matched.sort_by(|x, y| {
        crate::schema::placement::rank(&x.placement)
            .cmp(&crate::schema::placement::rank(&y.placement))
            .then(mode_rank(&x.mode).cmp(&mode_rank(&y.mode)))
            .then(x.mode.cmp(&y.mode))
            .then(x.size_bytes.cmp(&y.size_bytes))
            .then(x.flush_cache.cmp(&y.flush_cache))
    });
    Ok(Comparison {
        files_a: a.len(),
        files_b: b.len(),
        matched,
        unmatched_a,
        unmatched_b,
        fail_above,
        noise_threshold,
    })
}

pub(super) fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The median c2c floor of a file: over its records' floors, else its c2c matrix; `None`
/// when it measured none (one CPU).
fn file_floor(f: &ExchangeResults) -> Option<f64> {
    let mut v: Vec<f64> = f.records.iter().filter_map(|r| r.c2c_one_way_ns).collect();
    if v.is_empty() {
        v = f.c2c.iter().map(|p| p.one_way_ns).collect();
    }
    v.retain(|x| x.is_finite() && *x > 0.0);
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// The machine control of each of a side's samples of one record (one per file): the c2c
/// floor measured beside the record, or, for a same-core record, the file's median floor (a
/// host that moves vCPUs slows every record of the invocation). `None` unless every sample
/// has one.
fn controls(s: &[Sample]) -> Option<Vec<f64>> {
    s.iter()
        .map(|(f, r)| {
            f.floor_for(r)
                .filter(|x| x.is_finite() && *x > 0.0)
                .or_else(|| file_floor(f))
        })
        .collect::<Option<Vec<f64>>>()
        .filter(|v| !v.is_empty())
}

fn pair(x: &[Sample], y: &[Sample], fail_above: Option<f64>, noise: f64, drift: f64) -> Matched {
    let (ra, rb) = (x[0].1, y[0].1);
    let (ca, cb) = (controls(x), controls(y));
    let moved = match (&ca, &cb) {
        (Some(a), Some(b)) if control_moved(a, b) => Some(format!(
            "the machine changed: c2c floor {:.0} → {:.0} ns",
            mean(a),
            mean(b)
        )),
        _ => None,
    };
    // A busy machine on either side makes every verdict inconclusive.
    let moved = crate::bench::busy::compare_reason(
        x.iter().map(|(f, _)| f.load.as_ref()),
        y.iter().map(|(f, _)| f.load.as_ref()),
    )
    .or(moved);
    let metric = |m: Metric| metric(x, y, m, (fail_above, noise, drift), moved.as_deref());
    Matched {
        mode: ra.mode.clone(),
        size_bytes: ra.size_bytes,
        flush_cache: ra.flush_cache,
        placement: ra.placement.clone(),
        cores_a: (ra.producer_core, ra.consumer_core),
        cores_b: (rb.producer_core, rb.consumer_core),
        invocations_a: x.len(),
        invocations_b: y.len(),
        control_ns_a: ca.as_deref().map(mean),
        control_ns_b: cb.as_deref().map(mean),
        read: metric(Metric::Read),
        latency: metric(Metric::Latency),
    }
}

pub(super) fn summary_mean(r: &ExchangeRecord, metric: Metric) -> f64 {
    match metric {
        Metric::Read => r.read_us.mean,
        Metric::Latency => r.latency_us.mean,
    }
}

/// A record's run means, or its summary mean alone when the file has no per-run detail.
pub(super) fn runs_or_mean(r: &ExchangeRecord, metric: Metric) -> Vec<f64> {
    let runs = run_means(r, metric);
    if runs.is_empty() {
        vec![summary_mean(r, metric)]
    } else {
        runs
    }
}
