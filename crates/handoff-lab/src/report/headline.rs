//! The report's first screen: the papers' questions answered on this machine in a few lines,
//! before any table. One headline figure (processes vs threads: reading a block handed over
//! from another core, in each, and their ratio with its 95% interval), the cache-line floor
//! such a hand-off cannot beat, and what to use for which block size. On a busy machine the
//! first line says so, and no figure or pick is drawn from the busy records (as the
//! recommendation itself refuses to name a winner then).
//!
//! `report.md` and `index.html` show [`FirstScreen::lines`] under the busy banner; the
//! terminal prints [`FirstScreen::terminal`] (busy line first, no Markdown).

use crate::bench::text::{fmt_ns, fmt_size, fmt_us};
use crate::bench::BenchResults;
use crate::experiments::exchange::record::ExchangeRecord as _;
use crate::machine::placement;
use crate::stats::Ratio;

use super::recommend::{fmt_ratio, Pick, ProcVsThreads, Recommendation};

/// What the first screen says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FirstScreen {
    /// "Machine busy: …" when any part of the run was measured on a busy machine.
    pub busy: Option<String>,
    /// The answers, most important first (Markdown inline syntax).
    pub lines: Vec<String>,
}

impl FirstScreen {
    /// The busy line (if any) then the answers, as plain text for a terminal.
    pub fn terminal(&self) -> Vec<String> {
        self.busy
            .iter()
            .chain(&self.lines)
            .map(|s| s.replace("**", "").replace('`', ""))
            .collect()
    }
}

/// The first screen of `results` (and the registered experiments run beside it), given the
/// recommendation drawn from them.
pub fn first_screen(
    results: &BenchResults,
    rec: &Recommendation,
    experiments: &[BenchResults],
) -> FirstScreen {
    let busy_parts: Vec<String> = results
        .busy_warning()
        .into_iter()
        .chain(experiments.iter().filter_map(|e| e.busy_warning()))
        .collect();
    let busy = (!busy_parts.is_empty()).then(|| {
        format!(
            "**Machine busy: rerun.** Other work ran beside the measurements ({}), so no \
             headline figure or pick is drawn from them; run `handoff report` again when the \
             machine is quiet.",
            busy_parts.join("; ")
        )
    });
    let mut lines = Vec::new();
    if busy.is_some() {
        return FirstScreen { busy, lines };
    }
    lines.push(headline_figure(results, rec));
    if let Some(f) = floor_line(results) {
        lines.push(f);
    }
    lines.push(what_to_use(rec));
    lines.extend(
        experiments
            .iter()
            .filter_map(crate::experiments::rma_channels::recommendation),
    );
    FirstScreen { busy, lines }
}

/// The processes-vs-threads ratio the headline quotes: across cores (any placement but the
/// same core) if measured, at the size nearest 1 MiB, the nearest placement first.
fn headline_ratio(rec: &Recommendation) -> Option<&ProcVsThreads> {
    let dist = |r: &ProcVsThreads| ((r.size_bytes.max(1) as f64).log2() - 20.0).abs();
    let across: Vec<&ProcVsThreads> = rec
        .proc_vs_threads
        .iter()
        .filter(|r| r.placement != placement::SAME_CORE)
        .collect();
    let pool = if across.is_empty() {
        rec.proc_vs_threads.iter().collect()
    } else {
        across
    };
    pool.into_iter().min_by(|a, b| {
        dist(a)
            .total_cmp(&dist(b))
            .then(placement::rank(&a.placement).cmp(&placement::rank(&b.placement)))
    })
}

/// Mean read time (µs) of the cached records of `mode` at `size` and `placement`.
fn mean_read_us(results: &BenchResults, mode: &str, size: u64, pl: &str) -> Option<f64> {
    let v: Vec<f64> = results
        .records
        .iter()
        .filter(|r| {
            !r.flush_cache() && r.mode() == mode && r.size_bytes() == size && r.placement() == pl
        })
        .map(|r| r.read_us().mean)
        .collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// The answer in four words, from the ratio's interval (processes / threads).
fn lead(r: &Ratio) -> &'static str {
    match (r.ci95_low, r.ci95_high) {
        (Some(l), Some(h)) if l <= 1.0 && 1.0 <= h => "Processes as fast as threads",
        (Some(_), Some(h)) if h < 1.0 => "Processes faster than threads",
        (Some(_), Some(h)) if h <= 1.05 => "Processes within 5% of threads",
        (Some(_), Some(_)) => "Processes slower than threads",
        _ => "Processes vs threads (one run: no interval)",
    }
}

fn headline_figure(results: &BenchResults, rec: &Recommendation) -> String {
    let Some(r) = headline_ratio(rec) else {
        return "**Processes vs threads:** not measured (the report compares processes-spin \
                with threads-spin; run it with both modes)."
            .to_string();
    };
    let times = match (
        mean_read_us(results, "processes-spin", r.size_bytes, &r.placement),
        mean_read_us(results, "threads-spin", r.size_bytes, &r.placement),
    ) {
        (Some(p), Some(t)) => format!(
            " in {} between processes and {} between threads",
            fmt_us(p),
            fmt_us(t)
        ),
        _ => String::new(),
    };
    format!(
        "**{}:** a {} block handed to a consumer {} is read{times}: processes / threads = {}.",
        lead(&r.ratio),
        fmt_size(r.size_bytes),
        placement::describe(&r.placement),
        fmt_ratio(&r.ratio)
    )
}

/// The cache-line floor between cores: the median of the c2c matrix.
fn floor_line(results: &BenchResults) -> Option<String> {
    let mut v: Vec<f64> = results
        .c2c
        .iter()
        .filter(|p| p.cpu_a != p.cpu_b && p.one_way_ns.is_finite() && p.one_way_ns > 0.0)
        .map(|p| p.one_way_ns)
        .collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let median = v[v.len() / 2];
    Some(format!(
        "**Floor:** one cache line takes {} one way between two cores here (median of {} \
         pair(s)); no hand-off across cores beats it.",
        fmt_ns(median),
        v.len()
    ))
}

/// The picks of the placement the headline is about (across cores if measured), one clause
/// per size class.
fn what_to_use(rec: &Recommendation) -> String {
    let Some(pl) = rec
        .picks
        .iter()
        .map(|p| p.placement.as_str())
        .filter(|p| *p != placement::SAME_CORE)
        .min_by_key(|p| placement::rank(p))
        .or_else(|| rec.picks.first().map(|p| p.placement.as_str()))
    else {
        return "**What to use:** nothing measured to pick from (no cached, verified \
                two-party mode)."
            .to_string();
    };
    let picks: Vec<&Pick> = rec.picks.iter().filter(|p| p.placement == pl).collect();
    let clauses: Vec<String> = picks
        .iter()
        .map(|p| {
            format!(
                "{} → **{}** ({} at {})",
                p.class.range_text(),
                p.mode,
                fmt_us(p.read_us + p.latency_us),
                fmt_size(p.at_size)
            )
        })
        .collect();
    format!(
        "**What to use** (consumer {}): {}.",
        placement::describe(pl),
        clauses.join("; ")
    )
}
