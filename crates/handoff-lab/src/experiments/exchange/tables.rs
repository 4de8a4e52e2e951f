//! The report's tables: the cells of every figure's table (a median with its own interval,
//! run-to-run modes), the cached-vs-flushed verdicts and the run-to-run disagreement list.

use super::figures::{Figure, FigureKind};
use super::mode::ModeInfo;
use super::record::{record_disagreements, run_levels, ExchangeRecord as _, ExchangeResults as _};
use crate::bench::text::{fmt_interval, fmt_ns, fmt_size, fmt_us};
use crate::bench::{BenchRecord, BenchResults};
use crate::machine::CACHE_INSTRUCTION;
use crate::stats::{ratio_of_means, run_modes, Metric, Ratio};

use super::recommend::fmt_ratio;
use crate::report::doc::Block;

/// "26.1 µs [25.8–26.5 µs]": the median and its own interval, with † when the record's runs
/// disagree on this metric and the two levels when the run means form two
/// ("bimodal: 3/5 runs ≈ 18.2 µs, 2/5 ≈ 34.0 µs").
fn cell(r: &BenchRecord, metric: Metric) -> String {
    let s = &r.timed(metric).summary;
    let dag = if record_disagreements(r).iter().any(|(m, _)| *m == metric) {
        " †"
    } else {
        ""
    };
    let modes = run_modes(&run_levels(r, metric))
        .map(|m| format!(" ({})", m.describe()))
        .unwrap_or_default();
    match s.median_ci() {
        Some((lo, hi)) => format!(
            "{} [{}]{dag}{modes}",
            fmt_us(s.median),
            fmt_interval(lo, hi)
        ),
        None => format!("{}{dag}{modes}", fmt_us(s.median)),
    }
}

/// A figure's table: a column per value of `columns` (headed `titles`), a row per mode, its
/// name then its `cell`s (`–` where there is none), then the c2c floor's row when `floors`
/// holds one.
fn mode_table<T: Copy>(
    modes: &[String],
    (columns, titles): (&[T], impl Iterator<Item = String>),
    cell: impl Fn(&str, T) -> Option<String>,
    floors: Option<Vec<String>>,
    note: Block,
) -> Vec<Block> {
    let header = std::iter::once("mode".to_string()).chain(titles).collect();
    let row = |m: &String| {
        let cells = columns
            .iter()
            .map(|&c| cell(m, c).unwrap_or_else(|| "–".into()));
        std::iter::once(m.clone()).chain(cells).collect()
    };
    let mut rows: Vec<Vec<String>> = modes.iter().map(row).collect();
    rows.extend(floors.map(|f| [vec!["**c2c floor** (one-way)".to_string()], f].concat()));
    vec![Block::Table { header, rows }, note]
}

pub(super) fn figure_table(results: &BenchResults, fig: &Figure) -> Vec<Block> {
    let recs = &results.records;
    let modes = ModeInfo::sorted(fig.records.iter().map(|&i| recs[i].mode()));
    let find = |pred: &dyn Fn(&BenchRecord) -> bool| {
        fig.records.iter().map(|&i| &recs[i]).find(|r| pred(r))
    };
    let dagger_note = Block::Para(
        "Cells: median [its 95% interval, distribution-free]; † = the runs of this record \
         disagree (see below); \"bimodal\" = the run medians form two levels, with the share of \
         runs at each."
            .to_string(),
    );
    match &fig.kind {
        FigureKind::PerCpu { metric, .. } => {
            let cpus = fig.distinct(recs, |r| r.consumer_core());
            if super::class_table::wanted(results, cpus.len()) {
                return super::class_table::per_class_table(results, fig, *metric);
            }
            let of_cpu = |c: usize| find(&|r| r.consumer_core() == c);
            let titles = cpus
                .iter()
                .map(|&c| format!("CPU {c} ({})", of_cpu(c).map_or("", |r| r.placement())));
            let floors = (*metric == Metric::Latency).then(|| {
                let floor = |c| of_cpu(c).and_then(|r| results.floor_for(r));
                let same_cpu = || "– (same CPU)".to_string();
                cpus.iter()
                    .map(|&c| floor(c).map_or_else(same_cpu, fmt_ns))
                    .collect()
            });
            let at = |m: &str, c| {
                find(&|r| r.mode() == m && r.consumer_core() == c).map(|r| cell(r, *metric))
            };
            mode_table(&modes, (&cpus, titles), at, floors, dagger_note)
        }
        FigureKind::VsSize { metric, .. } => {
            let sizes = fig.distinct(recs, |r| r.size_bytes());
            let floor = fig.records.iter().find_map(|&i| recs[i].c2c_one_way_ns);
            let floors = floor
                .filter(|_| *metric == Metric::Latency)
                .map(|f| sizes.iter().map(|_| fmt_ns(f)).collect());
            let titles = sizes.iter().map(|&s| fmt_size(s));
            let at = |m: &str, s| {
                find(&|r| r.mode() == m && r.size_bytes() == s).map(|r| cell(r, *metric))
            };
            mode_table(&modes, (&sizes, titles), at, floors, dagger_note)
        }
        FigureKind::CachedVsFlushed { .. } => {
            let header = [
                "mode",
                "read, cached",
                "read, flushed",
                "flushed / cached",
                "flush time",
            ];
            let mut rows = Vec::new();
            let mut flushed_faster = Vec::new();
            for m in &modes {
                let state = |flush| find(&|r| r.mode() == m && r.flush_cache() == flush);
                let (Some(c), Some(f)) = (state(false), state(true)) else {
                    continue;
                };
                let r = ratio_of_means(
                    &c.timed(Metric::Read).run_means,
                    &f.timed(Metric::Read).run_means,
                );
                if r.is_some_and(|r| r.ci95_high.is_some_and(|h| h < 1.0)) {
                    flushed_faster.push(m.clone());
                }
                let ratio = r
                    .map(|r| format!("{} — {}", fmt_ratio(&r), flush_verdict(&r)))
                    .unwrap_or_else(|| "–".to_string());
                rows.push(vec![
                    m.clone(),
                    cell(c, Metric::Read),
                    cell(f, Metric::Read),
                    ratio,
                    f.flush_us()
                        .map_or_else(|| "–".to_string(), |s| fmt_us(s.median)),
                ]);
            }
            let mut out = vec![Block::table(&header, rows), dagger_note];
            if !flushed_faster.is_empty() {
                out.push(Block::Para(format!(
                    "**Flushed faster than cached** for {}: a flushed block must come from \
                     memory, so this is not a cache effect. Likely causes: the cached and flushed \
                     records ran minutes apart under different conditions (another load, a \
                     frequency or vCPU change), or the cached block sat in the other core's \
                     cache and had to cross (a flushed line is read from memory by the \
                     prefetcher at full speed). Rerun before drawing a conclusion.",
                    flushed_faster.join(", ")
                )));
            }
            out
        }
        // Drawn at the top; its numbers are the tables of the vs-size figures.
        FigureKind::ProcessesVsThreads { .. } => Vec::new(),
        FigureKind::C2cHeatmap => {
            let cpus = results.c2c_cpus();
            if cpus.len() > 32 {
                return vec![Block::Para(format!(
                    "{} pairs measured over {} CPUs: see `c2c_heatmap.csv`.",
                    results.c2c.len(),
                    cpus.len()
                ))];
            }
            let mut header = vec!["from \\ to".to_string()];
            header.extend(cpus.iter().map(|c| format!("CPU {c}")));
            // Either direction, as the heatmap draws it (one-way latency is measured as half a
            // round trip, the same both ways).
            let pair = |a, b| match results.c2c_pair(a, b) {
                Some(p) => format!("{} ({})", fmt_ns(p.one_way_ns), p.placement),
                None => "–".to_string(),
            };
            let row = |a| {
                std::iter::once(format!("CPU {a}")).chain(cpus.iter().map(move |&b| pair(a, b)))
            };
            let rows = cpus.iter().map(|&a| row(a).collect()).collect();
            vec![Block::Table { header, rows }]
        }
    }
}

pub(super) fn record_name(r: &BenchRecord) -> String {
    format!(
        "{} {} CPU {}→{}{}",
        r.mode(),
        fmt_size(r.size_bytes()),
        r.producer_core(),
        r.consumer_core(),
        if r.flush_cache() { " flushed" } else { "" }
    )
}

pub(super) fn disagreements(results: &BenchResults) -> Block {
    let (mut items, mut records) = (Vec::new(), 0);
    for r in &results.records {
        let flagged = record_disagreements(r);
        records += usize::from(!flagged.is_empty());
        for (metric, d) in flagged {
            let means: Vec<String> = d.run_means.iter().map(|m| fmt_us(*m)).collect();
            let runs: Vec<String> = d.outside.iter().map(|i| (i + 1).to_string()).collect();
            let which = match runs.is_empty() {
                true => String::new(),
                false => format!(
                    "; run(s) {} stand apart from every other run",
                    runs.join(", ")
                ),
            };
            items.push(format!(
                "**{}**, {}: run means {} disagree (spread {:.0}% of the median{which}).",
                record_name(r),
                metric.name(),
                means.join(", "),
                d.relative_spread * 100.0
            ));
        }
    }
    if items.is_empty() {
        Block::Para(
            "None flagged: in every record, the runs agree (no run stands apart from the \
             others' interquartile ranges with run means spread over 10%)."
                .to_string(),
        )
    } else {
        items.insert(
            0,
            format!(
                "{} record–metric pair(s) flagged in {records} record(s) (runs disagree: a run's mean falls outside every other run's \
                 interquartile range, its own interquartile range overlaps none of theirs, and \
                 the run means spread by more than 10%). The means average over a real \
                 difference between runs; rerun, or look for interference:",
                items.len()
            ),
        );
        Block::List(items)
    }
}

/// What flushed / cached read time means, in words.
fn flush_verdict(r: &Ratio) -> &'static str {
    match (r.ci95_low, r.ci95_high) {
        (Some(l), Some(h)) if l <= 1.0 && 1.0 <= h => "inconclusive",
        (Some(l), Some(_)) if l > 1.0 => "flushing costs",
        (Some(_), Some(_)) => "flushed faster (see below)",
        _ => "one run: cannot tell",
    }
}

/// The machine the report ran on: CPU, topology, caches, clock and tools.
pub(super) fn machine_table(results: &BenchResults) -> Block {
    let m = &results.machine;
    let mut rows = vec![
        vec!["CPU model".to_string(), m.cpu_model.clone()],
        vec![
            "logical CPUs".to_string(),
            format!(
                "{} (this run may use: {})",
                m.logical_cpus,
                cpu_list(&m.allowed_cpus)
            ),
        ],
        vec!["topology".to_string(), m.topology.summary.clone()],
    ];
    let mut caches = m.caches.clone();
    caches.sort_by_key(|c| (c.level, c.kind.clone()));
    for c in &caches {
        let kind = match c.kind.as_str() {
            CACHE_INSTRUCTION => "i",
            "data" => "d",
            _ => "",
        };
        rows.push(vec![
            format!("L{}{kind} cache", c.level),
            format!(
                "{} per instance, shared by CPU{} {}",
                fmt_size(c.size_bytes),
                if c.shared_by.len() == 1 { "" } else { "s" },
                cpu_list(&c.shared_by)
            ),
        ]);
    }
    rows.push(vec!["kernel".to_string(), m.kernel.clone()]);
    let ticks = m
        .clock
        .ticks_per_ns
        .map_or(String::new(), |t| format!(" at {t:.3} ticks/ns"));
    let cost = fmt_ns(m.clock.read_cost_ns);
    let clock = format!("{}{ticks}, one read costs {cost}", m.clock.source);
    rows.push(vec!["clock".to_string(), clock]);
    let virtualized = match (m.virtualized, &m.hypervisor) {
        (false, _) => "no".to_string(),
        (true, Some(h)) => format!("yes ({h})"),
        (true, None) => "yes".to_string(),
    };
    rows.push(vec!["virtualized".to_string(), virtualized]);
    let governor = m.governor.as_deref().unwrap_or("not readable");
    rows.push(vec!["frequency governor".to_string(), governor.to_string()]);
    rows.push(vec!["host name".to_string(), m.hostname.clone()]);
    Block::table(&["", ""], rows)
}

/// "0–3, 8" style CPU list.
fn cpu_list(cpus: &[usize]) -> String {
    if cpus.is_empty() {
        return "unknown".to_string();
    }
    handoff::sys::format_cpu_list(cpus)
        .replace('-', "–")
        .replace(',', ", ")
}
