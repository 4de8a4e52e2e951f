//! Planning: which figures the data supports.

use crate::bench::{BenchRecord, BenchResults};
use crate::experiments::exchange::record::ExchangeRecord as _;
use std::collections::{BTreeMap, BTreeSet};

use crate::bench::text::fmt_size;
use crate::machine::placement;
use crate::stats::Metric;

/// Spread (max / min of the plotted values) above which a latency axis is logarithmic.
pub const LOG_SPREAD: f64 = 30.0;
/// The metrics a figure draws: each with the start of its figures' ids and of their titles.
pub(super) const METRICS: [(Metric, &str, &str); 2] = [
    (Metric::Read, "read", "Read time"),
    (Metric::Latency, "latency", "Latency"),
];
/// The block size per-CPU and cache figures prefer when it was measured.
pub const PREFERRED_SIZE: u64 = 1 << 20;

/// What a figure shows.
#[derive(Debug, Clone, PartialEq)]
pub enum FigureKind {
    /// A metric per consumer CPU, one bar per mode, at one size.
    PerCpu {
        metric: Metric,
        size_bytes: u64,
        producer_core: usize,
        log_y: bool,
    },
    /// A metric vs block size, one line per mode, for one core pair.
    VsSize {
        metric: Metric,
        placement: String,
        producer_core: usize,
        consumer_core: usize,
    },
    /// Read time with the block cached and flushed, per mode, for one core pair and size.
    CachedVsFlushed {
        size_bytes: u64,
        placement: String,
        producer_core: usize,
        consumer_core: usize,
    },
    /// The report's first figure: read time and latency vs block size of
    /// [`HEADLINE_MODES`] only, one row of two panels per placement (its core pair).
    ProcessesVsThreads {
        /// (placement class, producer CPU, consumer CPU), nearest placement first.
        panels: Vec<(String, usize, usize)>,
    },
    /// The c2c one-way latency matrix.
    C2cHeatmap,
}

/// Per (placement rank, placement): the core pair of its vs-size figures and how many sizes
/// it has.
type PerPlacement = BTreeMap<(u8, String), ((usize, usize), usize)>;

/// The modes of the paper's question, the two the first figure draws.
pub const HEADLINE_MODES: [&str; 2] = ["processes-spin", "threads-spin"];

/// One figure the data supports.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// File stem, e.g. `read_per_cpu` or `latency_vs_size_same-core`.
    pub id: String,
    pub title: String,
    pub kind: FigureKind,
    /// Indices into `results.records` of the records it plots (empty for the heatmap).
    pub records: Vec<usize>,
}

impl Figure {
    /// The distinct values of `param` (an exchange record's consumer CPU, size...) over the
    /// figure's records in `recs`, sorted: the x axis of its plot and the columns of its
    /// table.
    pub fn distinct<T: Ord>(
        &self,
        recs: &[BenchRecord],
        param: impl Fn(&BenchRecord) -> T,
    ) -> Vec<T> {
        crate::stats::distinct(self.records.iter().map(|&i| param(&recs[i])))
    }
}

/// The figures `results` supports, in report order.
pub fn plan_figures(results: &BenchResults) -> Vec<Figure> {
    let recs = &results.records;
    let cached: Vec<usize> = (0..recs.len())
        .filter(|&i| !recs[i].flush_cache())
        .collect();
    let mut figures = Vec::new();

    // Per CPU: the (size, producer) with the most distinct consumer CPUs (at least 2).
    let mut by_size: BTreeMap<(u64, usize), BTreeSet<usize>> = BTreeMap::new();
    for r in cached.iter().map(|&i| &recs[i]) {
        let key = (r.size_bytes(), r.producer_core());
        by_size.entry(key).or_default().insert(r.consumer_core());
    }
    let best = by_size
        .iter()
        .filter(|(_, cores)| cores.len() >= 2)
        .max_by(|a, b| {
            a.1.len()
                .cmp(&b.1.len())
                .then(size_distance(b.0 .0).total_cmp(&size_distance(a.0 .0)))
                .then(b.0 .1.cmp(&a.0 .1))
        })
        .map(|(k, _)| *k);
    if let Some((size, producer)) = best {
        let idx = select(recs, &cached, |r| {
            r.size_bytes() == size && r.producer_core() == producer
        });
        for (metric, id, _) in METRICS {
            let log_y = metric == Metric::Latency && spread(recs, &idx, metric) > LOG_SPREAD;
            let what = match metric {
                Metric::Read => "Read time",
                Metric::Latency => "Latency (producer done → consumer starts)",
            };
            figures.push(Figure {
                id: format!("{id}_per_cpu"),
                title: format!(
                    "{what} of a {} block by consumer CPU (producer on CPU {producer})",
                    fmt_size(size)
                ),
                kind: FigureKind::PerCpu {
                    metric,
                    size_bytes: size,
                    producer_core: producer,
                    log_y,
                },
                records: idx.clone(),
            });
        }
    }

    // Vs size: per placement, the core pair with the most sizes (at least 2).
    let mut by_pair: BTreeMap<(usize, usize), (String, BTreeSet<u64>)> = BTreeMap::new();
    for r in cached.iter().map(|&i| &recs[i]) {
        let e = by_pair.entry((r.producer_core(), r.consumer_core()));
        let sizes = &mut e
            .or_insert_with(|| (r.placement().to_string(), BTreeSet::new()))
            .1;
        sizes.insert(r.size_bytes());
    }
    let mut per_placement: PerPlacement = BTreeMap::new();
    for (pair, (pl, sizes)) in &by_pair {
        if sizes.len() < 2 {
            continue;
        }
        let key = (placement::rank(pl), pl.clone());
        let better = per_placement
            .get(&key)
            .is_none_or(|(_, n)| sizes.len() > *n);
        if better {
            per_placement.insert(key, (*pair, sizes.len()));
        }
    }
    if let Some(f) = processes_vs_threads(recs, &cached, &per_placement) {
        figures.insert(0, f);
    }
    for ((_, pl), ((p, c), _)) in &per_placement {
        let idx = select(recs, &cached, |r| {
            (r.producer_core(), r.consumer_core()) == (*p, *c)
        });
        for (metric, id, what) in METRICS {
            figures.push(Figure {
                id: format!("{id}_vs_size_{}", file_safe(pl)),
                title: format!(
                    "{what} vs block size, consumer {} (CPU {p} → {c})",
                    placement::describe(pl)
                ),
                kind: FigureKind::VsSize {
                    metric,
                    placement: pl.clone(),
                    producer_core: *p,
                    consumer_core: *c,
                },
                records: idx.clone(),
            });
        }
    }

    // Cached vs flushed: per placement, the (size, pair) with the most modes having both.
    let mut by_point: BTreeMap<(u64, usize, usize), Vec<usize>> = BTreeMap::new();
    for (i, r) in recs.iter().enumerate() {
        let key = (r.size_bytes(), r.producer_core(), r.consumer_core());
        by_point.entry(key).or_default().push(i);
    }
    // (placement rank, placement) → ((size, producer, consumer), records of the modes with both)
    type Best = ((u64, usize, usize), Vec<usize>);
    let mut cvf: BTreeMap<(u8, String), Best> = BTreeMap::new();
    for (key, idx) in by_point {
        let has = |m: &str, flush| {
            idx.iter()
                .any(|&i| recs[i].mode() == m && recs[i].flush_cache() == flush)
        };
        let mut both: Vec<usize> = idx
            .iter()
            .copied()
            .filter(|&i| has(recs[i].mode(), false) && has(recs[i].mode(), true))
            .collect();
        // Grouped by mode (stable: each mode's records in file order).
        both.sort_by_key(|&i| recs[i].mode());
        let Some(&first) = both.first() else {
            continue;
        };
        let pl = recs[first].placement().to_string();
        let k = (placement::rank(&pl), pl);
        let better = match cvf.get(&k) {
            None => true,
            Some((old, old_idx)) => {
                let (n, old_n) = (both.len(), old_idx.len());
                n > old_n || (n == old_n && size_distance(key.0) < size_distance(old.0))
            }
        };
        if better {
            cvf.insert(k, (key, both));
        }
    }
    for ((_, pl), ((size, p, c), records)) in cvf {
        figures.push(Figure {
            id: format!("cached_vs_flushed_{}", file_safe(&pl)),
            title: format!(
                "Read time of a {} block, cached vs flushed, consumer {} (CPU {p} → {c})",
                fmt_size(size),
                placement::describe(&pl)
            ),
            kind: FigureKind::CachedVsFlushed {
                size_bytes: size,
                placement: pl,
                producer_core: p,
                consumer_core: c,
            },
            records,
        });
    }

    if results.c2c.iter().any(|p| p.cpu_a != p.cpu_b) {
        figures.push(Figure {
            id: crate::experiments::c2c::heatmap::ID.to_string(),
            title: crate::experiments::c2c::heatmap::TITLE.to_string(),
            kind: FigureKind::C2cHeatmap,
            records: Vec::new(),
        });
    }
    figures
}

/// The first figure: per placement (the core pair of its vs-size figures), the cached records
/// of [`HEADLINE_MODES`] when both were measured there and one of them at 2 sizes or more.
fn processes_vs_threads(
    recs: &[BenchRecord],
    cached: &[usize],
    per_placement: &PerPlacement,
) -> Option<Figure> {
    let mut panels = Vec::new();
    let mut records = Vec::new();
    for ((_, pl), ((p, c), _)) in per_placement {
        let idx = select(recs, cached, |r| {
            let pair = (r.producer_core(), r.consumer_core()) == (*p, *c);
            pair && HEADLINE_MODES.contains(&r.mode())
        });
        let sizes = |mode: &str| {
            idx.iter()
                .filter(|&&i| recs[i].mode() == mode)
                .map(|&i| recs[i].size_bytes())
                .collect::<BTreeSet<u64>>()
                .len()
        };
        let counts = HEADLINE_MODES.map(sizes);
        if counts.iter().all(|&n| n > 0) && counts.iter().any(|&n| n >= 2) {
            panels.push((pl.clone(), *p, *c));
            records.extend(idx);
        }
    }
    (!panels.is_empty()).then(|| Figure {
        id: "processes_vs_threads".to_string(),
        title: "Two processes vs two threads (processes-spin, threads-spin): read time and \
                latency vs block size"
            .to_string(),
        kind: FigureKind::ProcessesVsThreads { panels },
        records,
    })
}

/// The indices of `idx` whose records `keep` keeps.
pub(super) fn select(
    recs: &[BenchRecord],
    idx: &[usize],
    keep: impl Fn(&BenchRecord) -> bool,
) -> Vec<usize> {
    idx.iter().copied().filter(|&i| keep(&recs[i])).collect()
}

pub(super) fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Distance of a size from [`PREFERRED_SIZE`] in octaves (also the size the recommendation's
/// headline ratio prefers).
pub(crate) fn size_distance(size: u64) -> f64 {
    ((size.max(1) as f64).log2() - (PREFERRED_SIZE as f64).log2()).abs()
}

/// max / min of the positive means of `metric` over `idx`.
pub(super) fn spread(recs: &[BenchRecord], idx: &[usize], metric: Metric) -> f64 {
    let vals: Vec<f64> = idx
        .iter()
        .map(|&i| recs[i].timed(metric).summary.mean)
        .filter(|v| *v > 0.0)
        .collect();
    let min = vals.iter().copied().fold(f64::INFINITY, f64::min);
    let max = vals.iter().copied().fold(0.0, f64::max);
    if vals.is_empty() {
        1.0
    } else {
        max / min
    }
}
