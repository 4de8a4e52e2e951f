//! `handoff compare A.json B.json`: records matched by (mode, size, flush, placement), the
//! ratio B/A of the means of read time and latency with a 95% CI over runs, and a
//! verdict.
//!
//! # Matching
//!
//! Records are grouped by (mode, size, flush, placement). Within a group, records with the
//! same (producer core, consumer core) are paired; when each side has exactly one record in a
//! group they are paired whatever their cores (two machines rarely number CPUs alike).
//! Everything else is listed as unmatched.
//!
//! # Verdict and exit code
//!
//! A minimum-evidence rule, as criterion has: for each metric, **slower** only when the 95%
//! CI of B/A ([`crate::stats::ratio_of_means`]) lies wholly above 1 **and** the ratio exceeds
//! 1 + the noise threshold (default [`DEFAULT_NOISE_THRESHOLD`], 5%); **faster** only when the
//! CI lies below 1 **and** the ratio is under 1 − the threshold; otherwise **same** (no change
//! beyond noise: the CI contains 1, or the change is within the threshold); **unknown**
//! without a CI (a side has one run: no evidence) or without a ratio (mean of A not positive,
//! e.g. a near-zero latency). `--fail-above RATIO` is exceeded when, for some matched record
//! and metric, the verdict is slower and the CI's lower bound is above RATIO (B slower than
//! RATIO × A with 95% confidence); a metric without a CI never exceeds it.
//! [`Comparison::exit_code`] is then 1, else 0; the CLI maps errors (bad files:
//! [`CompareError`], usage) to 2.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::output::{fmt_size, fmt_us, Align, TextTable};
use crate::schema::{mode_rank, ExchangeRecord, ExchangeResults};
use crate::stats::{ratio_of_means, run_means, Metric, Ratio};

/// Exit code when the comparison ran and no threshold was exceeded.
pub const EXIT_OK: i32 = 0;
/// Exit code when `--fail-above` was exceeded.
pub const EXIT_FAIL_ABOVE: i32 = 1;
/// Changes smaller than this fraction are noise, whatever the CI says (`--noise-threshold`).
pub const DEFAULT_NOISE_THRESHOLD: f64 = 0.05;
/// Unmatched records listed one per line before the rest are summarized.
pub const MAX_LISTED_UNMATCHED: usize = 10;

/// The two files cannot be compared.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompareError {
    /// No record of B matches one of A.
    #[error(
        "no record of B matches a record of A by (mode, size, flush, placement): A has {a} record(s), B has {b}; compare results of the same experiment"
    )]
    NothingMatched {
        /// Records in A.
        a: usize,
        /// Records in B.
        b: usize,
    },
    /// `--fail-above` is not a positive finite number.
    #[error("--fail-above must be a positive ratio such as 1.10, not {0}")]
    BadThreshold(f64),
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
}

impl Verdict {
    /// "faster", "slower", "same", "unknown".
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::Same => "same",
            Verdict::Unknown => "unknown",
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
    /// Mean of A (µs).
    pub a_mean: f64,
    /// Mean of B (µs).
    pub b_mean: f64,
    /// B/A with its CI; `None` when mean(A) is not positive.
    pub ratio: Option<Ratio>,
    /// The verdict.
    pub verdict: Verdict,
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
    /// Read time B/A.
    pub read: MetricComparison,
    /// Latency B/A.
    pub latency: MetricComparison,
}

/// The result of [`compare`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
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

    /// The comparison as pretty JSON (every matched record with both metrics, the unmatched
    /// keys, the threshold and `exceeded`).
    pub fn to_json_pretty(&self) -> String {
        #[derive(Serialize)]
        struct Out<'a> {
            #[serde(flatten)]
            c: &'a Comparison,
            exceeded: bool,
        }
        let mut text = serde_json::to_string_pretty(&Out {
            c: self,
            exceeded: self.exceeded(),
        })
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialize: {e}\"}}"));
        text.push('\n');
        text
    }

    /// The comparison as an aligned text table with a summary line.
    pub fn render_table(&self) -> String {
        let mut t = TextTable::new(&[
            ("mode", Align::Left),
            ("size", Align::Right),
            ("flush", Align::Left),
            ("placement", Align::Left),
            ("read A", Align::Right),
            ("read B", Align::Right),
            ("read B/A [95% CI]", Align::Right),
            ("", Align::Left),
            ("latency A", Align::Right),
            ("latency B", Align::Right),
            ("latency B/A [95% CI]", Align::Right),
            ("", Align::Left),
        ]);
        for m in &self.matched {
            let mut row = vec![
                m.mode.clone(),
                fmt_size(m.size_bytes),
                if m.flush_cache { "yes" } else { "no" }.to_string(),
                m.placement.clone(),
            ];
            for c in [&m.read, &m.latency] {
                row.push(fmt_us(c.a_mean));
                row.push(fmt_us(c.b_mean));
                row.push(
                    c.ratio
                        .as_ref()
                        .map(fmt_ratio_short)
                        .unwrap_or_else(|| "-".into()),
                );
                row.push(format!(
                    "{}{}",
                    c.verdict.as_str(),
                    if c.exceeds { " (FAIL)" } else { "" }
                ));
            }
            t.row(row);
        }
        let mut out = t.render();
        let count = |v: Verdict| {
            self.matched
                .iter()
                .flat_map(|m| [m.read.verdict, m.latency.verdict])
                .filter(|x| *x == v)
                .count()
        };
        out.push_str(&format!(
            "\n{} matched record(s), read and latency: {} faster, {} slower, {} same, {} unknown \
             (B relative to A; slower/faster = the 95% CI of B/A excludes 1 and the change exceeds \
             the {:.0}% noise threshold; same = no change beyond noise; unknown = one run, no \
             evidence).\n",
            self.matched.len(),
            count(Verdict::Faster),
            count(Verdict::Slower),
            count(Verdict::Same),
            count(Verdict::Unknown),
            self.noise_threshold * 100.0
        ));
        for (side, list) in [("A", &self.unmatched_a), ("B", &self.unmatched_b)] {
            if list.is_empty() {
                continue;
            }
            out.push_str(&format!("only in {side} ({} record(s)):\n", list.len()));
            for k in list.iter().take(MAX_LISTED_UNMATCHED) {
                out.push_str(&format!("  {k}\n"));
            }
            if list.len() > MAX_LISTED_UNMATCHED {
                out.push_str(&format!(
                    "  ... and {} more (all are listed by --format json)\n",
                    list.len() - MAX_LISTED_UNMATCHED
                ));
            }
        }
        if let Some(f) = self.fail_above {
            if self.exceeded() {
                out.push_str(&format!(
                    "FAIL: B is slower than {f} × A with 95% confidence for the rows marked FAIL.\n"
                ));
            } else {
                out.push_str(&format!(
                    "ok: no ratio is above {f} with 95% confidence and beyond noise.\n"
                ));
            }
        }
        out
    }
}

fn fmt_ratio_short(r: &Ratio) -> String {
    match (r.ci95_low, r.ci95_high) {
        (Some(l), Some(h)) => format!("{:.3} [{:.3}–{:.3}]", r.ratio, l, h),
        _ => format!("{:.3} [-]", r.ratio),
    }
}

type GroupKey = (String, u64, bool, String);

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

/// Compares B against A (see the module docs); `noise_threshold` is a fraction (0.05 = 5%).
pub fn compare(
    a: &ExchangeResults,
    b: &ExchangeResults,
    fail_above: Option<f64>,
    noise_threshold: f64,
) -> Result<Comparison, CompareError> {
    if let Some(f) = fail_above {
        if !(f.is_finite() && f > 0.0) {
            return Err(CompareError::BadThreshold(f));
        }
    }
    if !(noise_threshold.is_finite() && (0.0..1.0).contains(&noise_threshold)) {
        return Err(CompareError::BadNoise(noise_threshold));
    }
    let mut groups: BTreeMap<GroupKey, (Vec<&ExchangeRecord>, Vec<&ExchangeRecord>)> =
        BTreeMap::new();
    for r in &a.records {
        groups.entry(key(r)).or_default().0.push(r);
    }
    for r in &b.records {
        groups.entry(key(r)).or_default().1.push(r);
    }
    let mut matched = Vec::new();
    let mut unmatched_a = Vec::new();
    let mut unmatched_b = Vec::new();
    for (_, (ra, rb)) in groups {
        let mut pairs: Vec<(&ExchangeRecord, &ExchangeRecord)> = Vec::new();
        let mut left_b: Vec<&ExchangeRecord> = rb.clone();
        let mut left_a = Vec::new();
        if ra.len() == 1 && rb.len() == 1 {
            pairs.push((ra[0], rb[0]));
            left_b.clear();
        } else {
            for x in ra {
                let pos = left_b.iter().position(|y| {
                    y.producer_core == x.producer_core && y.consumer_core == x.consumer_core
                });
                match pos {
                    Some(p) => pairs.push((x, left_b.remove(p))),
                    None => left_a.push(x),
                }
            }
        }
        unmatched_a.extend(left_a.into_iter().map(describe));
        unmatched_b.extend(left_b.into_iter().map(describe));
        for (x, y) in pairs {
            matched.push(Matched {
                mode: x.mode.clone(),
                size_bytes: x.size_bytes,
                flush_cache: x.flush_cache,
                placement: x.placement.clone(),
                cores_a: (x.producer_core, x.consumer_core),
                cores_b: (y.producer_core, y.consumer_core),
                read: metric(x, y, Metric::Read, fail_above, noise_threshold),
                latency: metric(x, y, Metric::Latency, fail_above, noise_threshold),
            });
        }
    }
    if matched.is_empty() {
        return Err(CompareError::NothingMatched {
            a: a.records.len(),
            b: b.records.len(),
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
        matched,
        unmatched_a,
        unmatched_b,
        fail_above,
        noise_threshold,
    })
}

fn metric(
    a: &ExchangeRecord,
    b: &ExchangeRecord,
    metric: Metric,
    fail_above: Option<f64>,
    noise: f64,
) -> MetricComparison {
    let sa = match metric {
        Metric::Read => &a.read_us,
        Metric::Latency => &a.latency_us,
    };
    let sb = match metric {
        Metric::Read => &b.read_us,
        Metric::Latency => &b.latency_us,
    };
    let (ma, mb) = (run_means(a, metric), run_means(b, metric));
    // Without per-run detail fall back to the means alone (ratio, no CI).
    let ratio = if ma.is_empty() || mb.is_empty() {
        ratio_of_means(&[sa.mean], &[sb.mean])
    } else {
        ratio_of_means(&ma, &mb)
    };
    let verdict = Verdict::of(ratio.as_ref(), noise);
    let exceeds = match (fail_above, &ratio) {
        (Some(f), Some(r)) => verdict == Verdict::Slower && r.ci95_low.is_some_and(|l| l > f),
        _ => false,
    };
    MetricComparison {
        a_mean: sa.mean,
        b_mean: sb.mean,
        ratio,
        verdict,
        exceeds,
    }
}
